"""Ludix pictures: the four dice of the last roll with the best numeral, and the score table."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image

from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    TEXT,
    KnownPalette,
    canvas,
    draw_on,
    encode_png,
    fit,
    font,
    ramp_palette,
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


#: Flat colours of the picture (seat colours are added per picture: the table's palette).
DIE_FACE = (250, 247, 240)
DIE_BUST = (245, 200, 200)
DIE_UNKNOWN = (120, 124, 130)
INK = (30, 30, 30)
BAR = (90, 94, 100)


def _die(draw, x: int, y: int, face: str, colour=DIE_FACE) -> None:
    draw.rounded_rectangle((x, y, x + DIE, y + DIE), radius=18, fill=colour, outline=INK, width=3)
    draw.stamp_text((x + DIE / 2, y + DIE / 2), face, font(72, bold=True), fill=INK, anchor="mm")


@lru_cache(maxsize=64)
def _die_sprite(face: str, colour: tuple[int, int, int]) -> Image.Image:
    """One die on the background, drawn once per (face, colour) and pasted at every roll."""
    img, draw = canvas(DIE + 1, DIE + 1, BACKGROUND)
    _die(draw, 0, 0, face, colour)
    return img


@lru_cache(maxsize=64)
def _rows(players: int, current: int | None) -> Image.Image:
    """What does not change between moves: the background, one panel per player (the current
    one outlined), its seat dot and its empty progress bar."""
    img, draw = canvas(WIDTH, _height(players), BACKGROUND)
    for seat in range(players):
        top = _row_top(seat)
        is_current = current == seat
        draw.rounded_rectangle((20, top + 4, WIDTH - 20, top + ROW - 4), radius=10, fill=PANEL,
                               outline=HIGHLIGHT if is_current else None, width=3 if is_current else 1)
        draw.ellipse((34, top + 16, 56, top + 38), fill=seat_colour(seat))
        draw.rounded_rectangle((BAR_X0, top + 52, BAR_X1, top + 68), radius=8, fill=BAR)
    return img


@lru_cache(maxsize=8)
def _palette(players: int) -> KnownPalette:
    """The table's palette: its flat colours and the antialiasing ramps of its texts."""
    seats = [seat_colour(seat) for seat in range(players)]
    flat = [BACKGROUND, PANEL, TEXT, MUTED, HIGHLIGHT, BUST, DIE_FACE, DIE_BUST, DIE_UNKNOWN, INK, BAR, *seats]
    ramps = [(INK, DIE_FACE), (INK, DIE_BUST), (INK, DIE_UNKNOWN), (HIGHLIGHT, BACKGROUND),
             (BUST, BACKGROUND), (MUTED, BACKGROUND), (TEXT, PANEL)]
    return ramp_palette(flat, ramps)


ROW = 84
Y0 = 30
BAR_X0, BAR_X1 = 68, WIDTH - 36


def _height(players: int) -> int:
    return Y0 + DIE + 150 + players * ROW + 24


def _row_top(seat: int) -> int:
    return Y0 + DIE + 118 + 26 + seat * ROW


def render_table(view: dict[str, Any], names: list[str], labels: dict[str, str] | None = None) -> bytes:
    """The last roll (four dice, the best numeral) above one row per player: name and score on a
    line, the progress bar to the target under it (the score is right-aligned: never cut)."""
    return encode_png(draw_table(view, names, labels), palette=_palette(view["players"]))


def draw_table(view: dict[str, Any], names: list[str], labels: dict[str, str] | None = None) -> Image.Image:
    """The picture of :func:`render_table` before encoding. What does not change from a move to
    the next (panels, dice, lines of text) is cached in the process: the rest is pasted on it."""
    lab = {**DEFAULT_LABELS, **(labels or {})}
    players = view["players"]
    current = view.get("current")
    img = _rows(players, current if isinstance(current, int) and 0 <= current < players else None).copy()
    draw = draw_on(img)

    roll = view.get("roll")
    dice_w = 4 * DIE + 3 * 24
    x0 = (WIDTH - dice_w) // 2
    y0 = Y0
    big = font(40, bold=True)
    if roll:
        bust = roll["bust"]
        for i, face in enumerate(roll["faces"]):
            img.paste(_die_sprite(face, DIE_BUST if bust else DIE_FACE), (x0 + i * (DIE + 24), y0))
        who = names[roll["seat"]] if roll.get("seat") is not None and roll["seat"] < len(names) else ""
        tail = f" — {lab['bust']}" if bust else f" — {roll['numeral']} = {roll['value']}"
        line = fit(who, big, WIDTH - 40 - big.getlength(tail)) + tail
        draw.stamp_text((WIDTH / 2, y0 + DIE + 42), line, big, fill=BUST if bust else HIGHLIGHT, anchor="mm")
        if not bust and roll.get("others"):
            small = font(SMALL)
            shown = list(roll["others"][:4])
            while shown:
                text = f"{lab['others']} : " + ", ".join(f"{n} = {v}" for n, v in shown)
                if small.getlength(text) <= WIDTH - 40:
                    break
                shown.pop()
            if shown:
                draw.stamp_text((WIDTH / 2, y0 + DIE + 84), text, small, fill=MUTED, anchor="mm")
    else:
        for i in range(4):
            img.paste(_die_sprite("?", DIE_UNKNOWN), (x0 + i * (DIE + 24), y0))

    y = y0 + DIE + 118
    # the round counter moves on when a round is complete: a finished game shows its last round
    shown_round = view["round"] - 1 if view.get("finished") and view["round"] > 1 else view["round"]
    header = f"{lab['round']} {shown_round}  ·  {lab['target']} {view['target']}"
    if view.get("finished"):
        header += f"  ·  {lab['final']}"
    elif view.get("last_round"):
        header += f"  ·  {lab['last_round']}"
    draw.stamp_text((WIDTH / 2, y), fit(header, font(SMALL), WIDTH - 40), font(SMALL), fill=MUTED, anchor="mm")
    target = max(1, view["target"])
    best = max(view["scores"]) if view["scores"] else 0
    for seat in range(players):
        top = _row_top(seat)
        is_current = current == seat
        score = view["scores"][seat]
        text = str(score)
        if is_current and view.get("turn_total"):
            text += f" (+{view['turn_total']})"
        score_font = font(30, bold=score == best and score > 0)
        draw.stamp_text((WIDTH - 36, top + 27), text, score_font, fill=TEXT, anchor="rm")
        name_font = font(28, bold=is_current)
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        room = WIDTH - 36 - score_font.getlength(text) - 24 - 68
        draw.stamp_text((68, top + 27), fit(name, name_font, room), name_font, fill=TEXT, anchor="lm")
        filled = BAR_X0 + int((BAR_X1 - BAR_X0) * min(1.0, score / target))
        if filled > BAR_X0 + 8:
            draw.rounded_rectangle((BAR_X0, top + 52, filled, top + 68), radius=8, fill=seat_colour(seat))
    return img
