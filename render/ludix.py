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
    font,
    seat_colour,
)

WIDTH = 860
DIE = 120
BUST = (214, 48, 49)

DEFAULT_LABELS = {"turn_total": "Total du tour", "target": "Objectif", "bust": "Raté !",
                  "round": "Tour", "last_round": "Dernier tour", "others": "Autres", "no_roll": "—"}


def _die(draw, x: int, y: int, face: str, colour=(250, 247, 240)) -> None:
    draw.rounded_rectangle((x, y, x + DIE, y + DIE), radius=18, fill=colour, outline=(30, 30, 30), width=3)
    centred_text(draw, (x + DIE / 2, y + DIE / 2), face, font(72, bold=True), fill=(30, 30, 30))


def render_table(view: dict[str, Any], names: list[str], labels: dict[str, str] | None = None) -> bytes:
    lab = {**DEFAULT_LABELS, **(labels or {})}
    players = view["players"]
    row_h = 54
    height = 40 + DIE + 150 + players * row_h + 30
    img, draw = canvas(WIDTH, height, BACKGROUND)

    roll = view.get("roll")
    dice_w = 4 * DIE + 3 * 24
    x0 = (WIDTH - dice_w) // 2
    y0 = 30
    if roll:
        bust = roll["bust"]
        for i, face in enumerate(roll["faces"]):
            _die(draw, x0 + i * (DIE + 24), y0, face, colour=(245, 200, 200) if bust else (250, 247, 240))
        who = names[roll["seat"]] if roll.get("seat") is not None and roll["seat"] < len(names) else ""
        if bust:
            line = f"{who} — {lab['bust']}"
            centred_text(draw, (WIDTH / 2, y0 + DIE + 42), line, font(40, bold=True), fill=BUST)
        else:
            line = f"{who} — {roll['numeral']} = {roll['value']}"
            centred_text(draw, (WIDTH / 2, y0 + DIE + 42), line, font(40, bold=True), fill=HIGHLIGHT)
            if roll.get("others"):
                others = ", ".join(f"{n} = {v}" for n, v in roll["others"][:4])
                centred_text(draw, (WIDTH / 2, y0 + DIE + 84), f"{lab['others']} : {others}", font(22),
                             fill=MUTED)
    else:
        for i in range(4):
            _die(draw, x0 + i * (DIE + 24), y0, "?", colour=(120, 124, 130))

    y = y0 + DIE + 110
    header = f"{lab['round']} {view['round']}  ·  {lab['target']} {view['target']}"
    if view.get("last_round"):
        header += f"  ·  {lab['last_round']}"
    centred_text(draw, (WIDTH / 2, y), header, font(24), fill=MUTED)
    y += 26
    target = max(1, view["target"])
    best = max(view["scores"]) if view["scores"] else 0
    for seat in range(players):
        top = y + seat * row_h
        current = view.get("current") == seat
        draw.rounded_rectangle((20, top + 4, WIDTH - 20, top + row_h - 4), radius=10,
                               fill=PANEL, outline=HIGHLIGHT if current else None, width=3 if current else 1)
        colour = seat_colour(seat)
        draw.ellipse((34, top + 17, 54, top + 37), fill=colour)
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        draw.text((66, top + 13), name[:22], font=font(26, bold=current), fill=TEXT)
        score = view["scores"][seat]
        bar_x0, bar_x1 = 420, WIDTH - 150
        draw.rounded_rectangle((bar_x0, top + 18, bar_x1, top + 36), radius=8, fill=(90, 94, 100))
        filled = bar_x0 + int((bar_x1 - bar_x0) * min(1.0, score / target))
        if filled > bar_x0:
            draw.rounded_rectangle((bar_x0, top + 18, filled, top + 36), radius=8, fill=colour)
        text = str(score)
        if current and view.get("turn_total"):
            text += f" (+{view['turn_total']})"
        draw.text((bar_x1 + 12, top + 12), text, font=font(26, bold=score == best and score > 0), fill=TEXT)
    return encode_png(img)
