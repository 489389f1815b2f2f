"""Ludix pictures: the four dice of the last roll with the best numeral, and the score table."""

from __future__ import annotations

from typing import Any

from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    TEXT,
    canvas,
    centred_text,
    encode_png,
    fit,
    font,
    seat_colour,
)

#: Sized for a phone: shown about 360 px wide, the smallest text (24 px) stays 12 px high.
WIDTH = 720
DIE = 120
BUST = (214, 48, 49)
SMALL = 24  # the smallest text in the picture

DEFAULT_LABELS = {"turn_total": "Total du tour", "target": "Objectif", "bust": "Raté !",
                  "round": "Tour", "last_round": "Dernier tour", "others": "Autres", "no_roll": "—",
                  "final": "Partie terminée"}


def _die(draw, x: int, y: int, face: str, colour=(250, 247, 240)) -> None:
    draw.rounded_rectangle((x, y, x + DIE, y + DIE), radius=18, fill=colour, outline=(30, 30, 30), width=3)
    centred_text(draw, (x + DIE / 2, y + DIE / 2), face, font(72, bold=True), fill=(30, 30, 30))


def render_table(view: dict[str, Any], names: list[str], labels: dict[str, str] | None = None) -> bytes:
    """The last roll (four dice, the best numeral) above one row per player: name and score on a
    line, the progress bar to the target under it (the score is right-aligned: never cut)."""
    lab = {**DEFAULT_LABELS, **(labels or {})}
    players = view["players"]
    row_h = 84
    height = 30 + DIE + 150 + players * row_h + 24
    img, draw = canvas(WIDTH, height, BACKGROUND)

    roll = view.get("roll")
    dice_w = 4 * DIE + 3 * 24
    x0 = (WIDTH - dice_w) // 2
    y0 = 30
    big = font(40, bold=True)
    if roll:
        bust = roll["bust"]
        for i, face in enumerate(roll["faces"]):
            _die(draw, x0 + i * (DIE + 24), y0, face, colour=(245, 200, 200) if bust else (250, 247, 240))
        who = names[roll["seat"]] if roll.get("seat") is not None and roll["seat"] < len(names) else ""
        tail = f" — {lab['bust']}" if bust else f" — {roll['numeral']} = {roll['value']}"
        line = fit(who, big, WIDTH - 40 - big.getlength(tail)) + tail
        centred_text(draw, (WIDTH / 2, y0 + DIE + 42), line, big, fill=BUST if bust else HIGHLIGHT)
        if not bust and roll.get("others"):
            small = font(SMALL)
            shown = list(roll["others"][:4])
            while shown:
                text = f"{lab['others']} : " + ", ".join(f"{n} = {v}" for n, v in shown)
                if small.getlength(text) <= WIDTH - 40:
                    break
                shown.pop()
            if shown:
                centred_text(draw, (WIDTH / 2, y0 + DIE + 84), text, small, fill=MUTED)
    else:
        for i in range(4):
            _die(draw, x0 + i * (DIE + 24), y0, "?", colour=(120, 124, 130))

    y = y0 + DIE + 118
    # the round counter moves on when a round is complete: a finished game shows its last round
    shown_round = view["round"] - 1 if view.get("finished") and view["round"] > 1 else view["round"]
    header = f"{lab['round']} {shown_round}  ·  {lab['target']} {view['target']}"
    if view.get("finished"):
        header += f"  ·  {lab['final']}"
    elif view.get("last_round"):
        header += f"  ·  {lab['last_round']}"
    centred_text(draw, (WIDTH / 2, y), fit(header, font(SMALL), WIDTH - 40), font(SMALL), fill=MUTED)
    y += 26
    target = max(1, view["target"])
    best = max(view["scores"]) if view["scores"] else 0
    for seat in range(players):
        top = y + seat * row_h
        current = view.get("current") == seat
        draw.rounded_rectangle((20, top + 4, WIDTH - 20, top + row_h - 4), radius=10,
                               fill=PANEL, outline=HIGHLIGHT if current else None, width=3 if current else 1)
        colour = seat_colour(seat)
        draw.ellipse((34, top + 16, 56, top + 38), fill=colour)
        score = view["scores"][seat]
        text = str(score)
        if current and view.get("turn_total"):
            text += f" (+{view['turn_total']})"
        score_font = font(30, bold=score == best and score > 0)
        draw.text((WIDTH - 36, top + 27), text, font=score_font, fill=TEXT, anchor="rm")
        name_font = font(28, bold=current)
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        room = WIDTH - 36 - score_font.getlength(text) - 24 - 68
        draw.text((68, top + 27), fit(name, name_font, room), font=name_font, fill=TEXT, anchor="lm")
        bar_x0, bar_x1 = 68, WIDTH - 36
        draw.rounded_rectangle((bar_x0, top + 52, bar_x1, top + 68), radius=8, fill=(90, 94, 100))
        filled = bar_x0 + int((bar_x1 - bar_x0) * min(1.0, score / target))
        if filled > bar_x0 + 8:
            draw.rounded_rectangle((bar_x0, top + 52, filled, top + 68), radius=8, fill=colour)
    return encode_png(img)
