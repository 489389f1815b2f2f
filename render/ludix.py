"""Ludix pictures: the four dice of the last roll with the best numeral, and the score table."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image
from PIL.ImageFont import FreeTypeFont

from render import catalog
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    SEAT_COLOURS,
    TEXT,
    Draw,
    KnownPalette,
    canvas,
    centred_text,
    draw_on,
    encode_png,
    fit,
    font,
    legible,
    ramp_palette,
    seat_colour,
    text_mask,
)

#: Sized for a phone: shown about 360 px wide, the smallest text (24 px) stays 12 px high.
WIDTH = 720
DIE = 120
BUST = (214, 48, 49)
BUST_TEXT = legible(BUST, BACKGROUND)  # a bust said in words: the red, light enough to read
SMALL = 24  # the smallest text in the picture



def catalog_labels(lang: str = "fr") -> dict[str, str]:
    """The picture's words in ``lang``: the ``[label]`` section of the Ludix catalog (what a caller
    gives nothing for is drawn in French, from the catalog: no word is written here)."""
    return dict(catalog.section("ludix", lang, "label"))


DIE_FACE = (250, 247, 240)
DIE_BUST = (245, 200, 200)
DIE_UNKNOWN = (160, 164, 170)  # the « ? » in INK on it: 6.6 : 1
INK = (30, 30, 30)
BAR = (90, 94, 100)
ROW = 84
Y0 = 30
BAR_X0, BAR_X1 = 68, WIDTH - 36

#: The table's palette, known in advance: its flat colours and the antialiasing ramps of its texts
#: (each text lies on one flat colour). The picture is drawn in it: no palette to compute and no
#: pixel to map at each move, only the cached pieces below, pasted.
PALETTE: KnownPalette = ramp_palette(
    [BACKGROUND, PANEL, TEXT, MUTED, HIGHLIGHT, BUST, BUST_TEXT, DIE_FACE, DIE_BUST, DIE_UNKNOWN, INK, BAR, *SEAT_COLOURS],
    [(INK, DIE_FACE), (INK, DIE_BUST), (INK, DIE_UNKNOWN), (HIGHLIGHT, BACKGROUND), (BUST_TEXT, BACKGROUND),
     (MUTED, BACKGROUND), (TEXT, PANEL)])


_SEAT_INK = [PALETTE.index(colour) for colour in SEAT_COLOURS]


def _height(players: int) -> int:
    return Y0 + DIE + 150 + players * ROW + 24


def _row_top(seat: int) -> int:
    return Y0 + DIE + 118 + 26 + seat * ROW


def _die(draw, x: int, y: int, face: str, colour=DIE_FACE) -> None:
    draw.rounded_rectangle((x, y, x + DIE, y + DIE), radius=18, fill=colour, outline=INK, width=3)
    centred_text(draw, (x + DIE / 2, y + DIE / 2), face, font(72, bold=True), fill=INK)


@lru_cache(maxsize=64)
def _die_sprite(face: str, colour: tuple[int, int, int]) -> Image.Image:
    """One die on the background, drawn once per (face, colour) and pasted at every roll."""
    img, draw = canvas(DIE + 1, DIE + 1, BACKGROUND)
    _die(draw, 0, 0, face, colour)
    return PALETTE.map(img)


@lru_cache(maxsize=32)  # (players, current): 25 pictures of 0.35-0.6 MB at most
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
    return PALETTE.map(img)


_COVERED = [0] + [255] * 255  # a pixel the text touches at all


@lru_cache(maxsize=512)  # a line is 10-20 KB: at most a few MB per render worker
def _text_tile(text: str, fnt: FreeTypeFont, anchor: str, fill: tuple[int, int, int],
               over: tuple[int, int, int]) -> tuple[Image.Image, Image.Image, int, int] | None:
    """``text`` in ``fill`` on the flat colour ``over``, in the palette, with the mask of the
    pixels it covers (mode 1) and its offset from the anchor point: pasted, the same pixels as
    the text drawn in RGB on ``over`` and the picture then mapped to the palette."""
    mask, dx, dy = text_mask(text, fnt, anchor)
    if mask is None:
        return None
    tile = Image.new("RGB", mask.size, over)
    tile.paste(fill, (0, 0), mask)
    return PALETTE.map(tile), mask.point(_COVERED, "1"), dx, dy


def _text(draw: Draw, img: Image.Image, xy: tuple[int, int], text: str, fnt: FreeTypeFont,
          fill: tuple[int, int, int], over: tuple[int, int, int], anchor: str) -> None:
    """``draw.text(xy, text, fill, fnt, anchor)`` on a part of ``img`` all in ``over``."""
    draw.record_text(text, fnt, xy, fill, anchor)
    tile = _text_tile(text, fnt, anchor, fill, over)
    if tile is not None:
        sprite, mask, dx, dy = tile
        img.paste(sprite, (xy[0] + dx, xy[1] + dy), mask)


_fit = lru_cache(maxsize=1024)(fit)


@lru_cache(maxsize=1024)
def _length(fnt: FreeTypeFont, text: str) -> float:
    return fnt.getlength(text)


def render_table(view: dict[str, Any], names: list[str], labels: dict[str, str] | None = None,
                 hits: dict[str, list] | None = None) -> bytes:
    """The last roll (four dice, the best numeral) above one row per player: name and score on a
    line, the progress bar to the target under it (the score is right-aligned: never cut)."""
    return encode_png(draw_table(view, names, labels, hits))


def draw_table(view: dict[str, Any], names: list[str], labels: dict[str, str] | None = None,
               hits: dict[str, list] | None = None) -> Image.Image:
    """The picture of :func:`render_table`, already in its palette (mode P, :data:`PALETTE`).

    Its pixels are those of the table drawn in RGB and then mapped to the palette: what does not
    change from a move to the next (panels, dice, lines of text) is drawn once in the render
    worker and kept (bounded caches), and pasted on a copy of the panels at each move. ``hits``
    receives the dice (``dice``: a roll) and the current player's row (``stop``: their turn banked).
    """
    lab = {**catalog_labels("fr"), **(labels or {})}
    players = view["players"]
    current = view.get("current")
    img = _rows(players, current if isinstance(current, int) and 0 <= current < players else None).copy()
    draw = draw_on(img)

    roll = view.get("roll")
    dice_w = 4 * DIE + 3 * 24
    x0 = (WIDTH - dice_w) // 2
    y0 = Y0
    big = font(40, bold=True)
    if hits is not None:
        hits["dice"] = [(x0, y0), (x0 + dice_w, y0), (x0 + dice_w, y0 + DIE), (x0, y0 + DIE)]
    if roll:
        bust = roll["bust"]
        for i, face in enumerate(roll["faces"]):
            img.paste(_die_sprite(face, DIE_BUST if bust else DIE_FACE), (x0 + i * (DIE + 24), y0))
        who = names[roll["seat"]] if roll.get("seat") is not None and roll["seat"] < len(names) else ""
        tail = f" — {lab['bust']}" if bust else f" — {roll['numeral']} = {roll['value']}"
        line = _fit(who, big, WIDTH - 40 - _length(big, tail)) + tail
        _text(draw, img, (WIDTH // 2, y0 + DIE + 42), line, big, BUST_TEXT if bust else HIGHLIGHT, BACKGROUND, "mm")
        if not bust and roll.get("others"):
            small = font(SMALL)
            shown = list(roll["others"][:4])
            while shown:
                text = f"{lab['others']}{lab['colon']}" + ", ".join(f"{n} = {v}" for n, v in shown)
                if _length(small, text) <= WIDTH - 40:
                    break
                shown.pop()
            if shown:
                _text(draw, img, (WIDTH // 2, y0 + DIE + 84), text, small, MUTED, BACKGROUND, "mm")
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
    _text(draw, img, (WIDTH // 2, y), _fit(header, font(SMALL), WIDTH - 40), font(SMALL), MUTED, BACKGROUND, "mm")
    target = max(1, view["target"])
    best = max(view["scores"]) if view["scores"] else 0
    for seat in range(players):
        top = _row_top(seat)
        is_current = current == seat
        if is_current and hits is not None:
            hits["stop"] = [(20, top + 4), (WIDTH - 20, top + 4), (WIDTH - 20, top + ROW - 4), (20, top + ROW - 4)]
        score = view["scores"][seat]
        text = str(score)
        if is_current and view.get("turn_total"):
            text += f" (+{view['turn_total']})"
        score_font = font(30, bold=score == best and score > 0)
        _text(draw, img, (WIDTH - 36, top + 27), text, score_font, TEXT, PANEL, "rm")
        name_font = font(28, bold=is_current)
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        room = WIDTH - 36 - _length(score_font, text) - 24 - 68
        _text(draw, img, (68, top + 27), _fit(name, name_font, room), name_font, TEXT, PANEL, "lm")
        filled = BAR_X0 + int((BAR_X1 - BAR_X0) * min(1.0, score / target))
        if filled > BAR_X0 + 8:
            draw.rounded_rectangle((BAR_X0, top + 52, filled, top + 68), radius=8,
                                   fill=_SEAT_INK[seat % len(SEAT_COLOURS)])
    return img
