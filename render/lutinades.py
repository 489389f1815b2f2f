"""Lutinades pictures: the signpost card and the table.

* :func:`render_card` draws one card from ``engine.view(...)["card"]`` (shown
  privately to the lutins) or ``view["last_turn"]["card"]`` (public once revealed).
* :func:`render_table` draws the public table from a view: each player's
  mushrooms, the picker, who has chosen, the gestures once public, the last
  revealed card and the deck count. It never draws ``view["card"]`` nor
  ``view["my_gesture"]`` (the current card and a lutin's own gesture are
  private), so even a lutin's view cannot leak them into a channel picture.

Both are language-neutral by default (numbers, arrows, icons); pass ``labels``
(translated strings from the ``lutinades.label.*`` / ``lutinades.gesture.*``
catalog keys) to add words.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    TEXT,
    canvas,
    centred_text,
    draw_on,
    encode_png,
    fit,
    font,
    seat_colour,
    text_size,
    words,
)

CARD_W, CARD_H = 420, 600
PAPER = (246, 238, 214)
FOREST = (34, 87, 52)
FOREST_DARK = (22, 58, 35)
WOOD = (150, 96, 52)
WOOD_DARK = (96, 58, 28)
GRASS = (96, 160, 72)
CAP = (196, 46, 40)  # the card numbers in STEM on it: 4.8 : 1
STEM = (245, 236, 210)
GOOD = (96, 210, 128)
BAD = (232, 84, 84)
PICKER_ROW = (70, 76, 66)  # the picker's row: MUTED and GOOD keep 4.6 : 1 on it

#: plank angle (degrees, counter-clockwise) per signpost kind
_ANGLE = {"up": 32.0, "down": -32.0, "horizontal": 0.0, "small": 0.0}


# --- shapes --------------------------------------------------------------------
def _rotated(points: list[tuple[float, float]], origin: tuple[float, float], degrees: float,
             flip: bool) -> list[tuple[float, float]]:
    """Rotate local points (x right, y up) about ``origin``; ``flip`` mirrors them to the left."""
    a = math.radians(degrees)
    ox, oy = origin
    out = []
    for x, y in points:
        if flip:
            x = -x
        rx = x * math.cos(a if not flip else -a) - y * math.sin(a if not flip else -a)
        ry = x * math.sin(a if not flip else -a) + y * math.cos(a if not flip else -a)
        out.append((ox + rx, oy - ry))
    return out


def draw_signpost(draw: ImageDraw.ImageDraw, cx: float, ground: float, height: float, kind: str,
                  side: str | None) -> None:
    """A wooden signpost standing on ``ground``, its plank pointing ``side`` (right if None)."""
    small = kind == "small"
    post_h = height * (0.42 if small else 1.0)
    post_w = max(4.0, height * 0.07)
    top = ground - post_h
    draw.rectangle((cx - post_w / 2, top, cx + post_w / 2, ground), fill=WOOD, outline=WOOD_DARK,
                   width=max(1, int(post_w / 6)))
    length = height * (0.4 if small else 0.56)
    thick = height * (0.13 if small else 0.2)
    tip = thick * 0.75
    plank = [(-length * 0.22, thick / 2), (length - tip, thick / 2), (length, 0),
             (length - tip, -thick / 2), (-length * 0.22, -thick / 2)]
    origin = (cx, top + thick * 0.8)
    flip = side == "left"
    poly = _rotated(plank, origin, _ANGLE.get(kind, 0.0), flip)
    draw.polygon(poly, fill=WOOD, outline=WOOD_DARK, width=max(2, int(thick / 10)))
    for f in (-0.18, 0.18):  # wood grain
        grain = _rotated([(length * 0.0, thick * f), (length - tip * 1.6, thick * f)], origin,
                         _ANGLE.get(kind, 0.0), flip)
        draw.line(grain, fill=WOOD_DARK, width=max(1, int(thick / 14)))
    r = max(2.0, thick * 0.09)  # the nail
    draw.ellipse((origin[0] - r, origin[1] - r, origin[0] + r, origin[1] + r), fill=WOOD_DARK)


def draw_mushroom(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    """A red-capped mushroom centred on (cx, cy), ``size`` pixels tall."""
    s = size
    draw.rounded_rectangle((cx - s * 0.16, cy - s * 0.1, cx + s * 0.16, cy + s * 0.5), radius=s * 0.08,
                           fill=STEM, outline=WOOD_DARK, width=max(1, int(s / 28)))
    draw.pieslice((cx - s * 0.5, cy - s * 0.5, cx + s * 0.5, cy + s * 0.3), 180, 360, fill=CAP,
                  outline=(120, 24, 20), width=max(1, int(s / 28)))
    for dx, dy, rr in ((-0.24, -0.2, 0.07), (0.05, -0.32, 0.06), (0.26, -0.16, 0.06)):
        r = s * rr
        draw.ellipse((cx + s * dx - r, cy + s * dy - r, cx + s * dx + r, cy + s * dy + r), fill=STEM)


def draw_arrow(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float],
               width: float, fill) -> None:
    (x0, y0), (x1, y1) = start, end
    ang = math.atan2(y1 - y0, x1 - x0)
    head = width * 2.4
    bx, by = x1 - head * math.cos(ang), y1 - head * math.sin(ang)
    draw.line((x0, y0, bx, by), fill=fill, width=int(width))
    left = (bx + head * 0.6 * math.cos(ang + math.pi / 2), by + head * 0.6 * math.sin(ang + math.pi / 2))
    right = (bx + head * 0.6 * math.cos(ang - math.pi / 2), by + head * 0.6 * math.sin(ang - math.pi / 2))
    draw.polygon([(x1, y1), left, right], fill=fill)


def draw_gesture(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, kind: str,
                 side: str | None, fill=TEXT) -> None:
    """A gesture icon: an arrow up / down / sideways, short for "small".

    ``side`` is the side *as the picker sees it* (``side_for_picker``); None draws
    a two-way horizontal arrow and straight up/down arrows.
    """
    h = size / 2
    w = max(3.0, size * 0.11)
    sx = {"left": -1, "right": 1}.get(side or "", 0)
    if kind == "up":
        draw_arrow(draw, (cx - sx * h * 0.6, cy + h * 0.8), (cx + sx * h * 0.6, cy - h * 0.8), w, fill)
    elif kind == "down":
        draw_arrow(draw, (cx - sx * h * 0.6, cy - h * 0.8), (cx + sx * h * 0.6, cy + h * 0.8), w, fill)
    elif kind == "horizontal":
        if sx:
            draw_arrow(draw, (cx - sx * h, cy), (cx + sx * h, cy), w, fill)
        else:
            draw_arrow(draw, (cx, cy), (cx + h, cy), w, fill)
            draw_arrow(draw, (cx, cy), (cx - h, cy), w, fill)
    else:  # small: two arrows pinching (a small size), plus the side underneath if any
        draw_arrow(draw, (cx - h, cy), (cx - h * 0.12, cy), w * 0.9, fill)
        draw_arrow(draw, (cx + h, cy), (cx + h * 0.12, cy), w * 0.9, fill)
        if sx:
            y = cy + h * 0.6
            draw.polygon([(cx + sx * h * 0.35, y), (cx - sx * h * 0.2, y - h * 0.3), (cx - sx * h * 0.2, y + h * 0.3)],
                         fill=fill)


def _number_badge(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, value: int, colour) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=FOREST_DARK, width=max(2, int(r / 12)))
    centred_text(draw, (cx, cy + r * 0.04), str(value), font(int(r * 1.25), bold=True), fill=PAPER)


def draw_card(img: Image.Image, box: tuple[int, int, int, int], card: dict[str, Any],
              labels: dict[str, str] | None = None) -> None:
    """Draw the face of ``card`` (a card view dict) inside ``box`` of ``img``.

    The signpost stands in the middle; the big number is bottom-left, the small
    one bottom-right, the kind's name (if ``labels`` has it) between them, and in
    lutins malins an arrow repeats the side the signpost points to.
    """
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    draw = draw_on(img)
    rad = int(w * 0.07)
    draw.rounded_rectangle(box, radius=rad, fill=FOREST_DARK)
    m = max(4, int(w * 0.03))
    draw.rounded_rectangle((x0 + m, y0 + m, x1 - m, y1 - m), radius=max(2, rad - m // 2), fill=PAPER)
    ground = y0 + h * 0.7
    draw.ellipse((x0 + w * 0.08, ground - h * 0.035, x1 - w * 0.08, ground + h * 0.05), fill=GRASS)
    for gx in (0.2, 0.8):
        draw_mushroom(draw, x0 + w * gx, ground - h * 0.005, w * 0.09)
    draw_signpost(draw, x0 + w * 0.5, ground, h * 0.5, card["kind"], card.get("side"))
    _number_badge(draw, x0 + w * 0.17, y0 + h * 0.895, w * 0.105, card["big"], CAP)
    _number_badge(draw, x1 - w * 0.14, y0 + h * 0.905, w * 0.07, card["small"], FOREST)
    label = (labels or {}).get(card["kind"])
    malins = card.get("malins") and card.get("side") in ("left", "right")
    if label:
        size = max(10, int(w * 0.06))
        while size > 8 and text_size(draw, label, font(size, bold=True))[0] > w * 0.8:
            size -= 1
        centred_text(draw, (x0 + w * 0.5, y0 + h * 0.79), label, font(size, bold=True), fill=FOREST_DARK)
    if malins:
        # lutins malins: the side is part of the answer, repeat it loud
        sx = -1 if card["side"] == "left" else 1
        cy = y0 + h * 0.9
        cx = x0 + w * 0.5
        draw_arrow(draw, (cx - sx * w * 0.13, cy), (cx + sx * w * 0.13, cy), max(3, w * 0.03), WOOD_DARK)


#: the gestures under the card on the board's page: two a row, each its icon and its name
GESTURE_W, GESTURE_H, GESTURE_GAP = (CARD_W - 12 - 10) // 2, 84, 10


def _gesture_lines(draw: ImageDraw.ImageDraw, text: str, width: float) -> tuple[list[str], Any]:
    """``text`` wrapped on at most three lines of ``width``, in the largest bold font from 20 px down to
    16 px that needs no cut (the last one, cut with « … », if none does) and that font."""
    for size in range(20, 15, -1):
        fnt = font(size, bold=True)
        lines = [""]
        for word in words(text):
            trial = f"{lines[-1]} {word}".strip()
            if text_size(draw, trial, fnt)[0] <= width or not lines[-1]:
                lines[-1] = trial
            else:
                lines.append(word)
        if len(lines) <= 3 and all(text_size(draw, line, fnt)[0] <= width for line in lines):
            return lines, fnt
    return [fit(line, fnt, width) for line in lines[:3]], fnt


def render_card(card_view: dict[str, Any], labels: dict[str, str] | None = None,
                gestures: list[tuple[str, str, str | None, str, bool]] | None = None,
                hits: dict[str, list] | None = None) -> bytes:
    """The signpost card (direction, size, big and small numbers; the side in lutins malins).

    ``card_view`` is ``view["card"]`` (lutins only!) or ``view["last_turn"]["card"]``:
    ``{"id", "kind", "side", "big", "small", "malins"}``. ``labels`` may map a kind
    (``up``...) to its translated name, printed under the signpost.

    On the board's page (drawn with its hit map, ``hits``) a lutin who has not chosen yet touches their
    gesture under the card: ``gestures`` lists them as ``(region, kind, side, name, forbidden)`` and
    ``hits`` receives each one's box (``gesture:up``, ``gesture:up:left`` in lutins malins). The chat's
    copy has buttons for them instead and draws the card alone."""
    strip = list(gestures or []) if hits is not None else []
    rows = (len(strip) + 1) // 2
    height = CARD_H + (rows * (GESTURE_H + GESTURE_GAP) + 6 if rows else 0)
    img, draw = canvas(CARD_W, height, BACKGROUND)
    draw_card(img, (6, 6, CARD_W - 6, CARD_H - 6), card_view, labels)
    for k, (region, kind, side, name, forbidden) in enumerate(strip):
        x = 6 + (k % 2) * (GESTURE_W + GESTURE_GAP)
        y = CARD_H + 4 + (k // 2) * (GESTURE_H + GESTURE_GAP)
        box = (x, y, x + GESTURE_W, y + GESTURE_H)
        draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=BAD if forbidden else MUTED, width=2)
        draw_gesture(draw, x + 28, y + GESTURE_H / 2, 38, kind, side, fill=BAD if forbidden else TEXT)
        lines, name_font = _gesture_lines(draw, name, GESTURE_W - 62)
        step = name_font.size + 4
        top = y + (GESTURE_H - len(lines) * step) / 2
        for i, line in enumerate(lines):
            draw.text((x + 54, top + i * step), line, font=name_font, fill=TEXT)
        hits[region] = [(x, y), (x + GESTURE_W, y), (x + GESTURE_W, y + GESTURE_H), (x, y + GESTURE_H)]
    return encode_png(img)


def draw_card_back(img: Image.Image, box: tuple[int, int, int, int], count: int | None = None) -> None:
    """The back of the deck (the mushroom whose foot points at the picker), with a count."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    draw = draw_on(img)
    for k in (2, 1):  # a little stack
        off = k * max(2, int(w * 0.025))
        draw.rounded_rectangle((x0 + off, y0 + off, x1 + off, y1 + off), radius=int(w * 0.07),
                               fill=FOREST_DARK, outline=(12, 32, 20), width=2)
    draw.rounded_rectangle(box, radius=int(w * 0.07), fill=FOREST, outline=PAPER, width=max(2, int(w * 0.02)))
    draw_mushroom(draw, x0 + w / 2, y0 + h * 0.42, w * 0.5)
    if count is not None:
        centred_text(draw, (x0 + w / 2, y0 + h * 0.8), str(count), font(int(w * 0.22), bold=True), fill=PAPER)


# --- the table -----------------------------------------------------------------
#: Sized for a phone: shown about 360 px wide, the smallest text (22 px) stays 11 px high. The last
#: revealed card and the deck sit under the players (beside them, the picture was too wide).
TABLE_W = 720
HEADER_H = 64
ROW_H = 80
PANEL_X = TABLE_W
SMALL = 22
PANEL_H = 30 + int(260 * CARD_H / CARD_W) + 24


def _fit(draw: ImageDraw.ImageDraw, text: str, fnt, width: int) -> str:
    if text_size(draw, text, fnt)[0] <= width:
        return text
    while text and text_size(draw, text + "…", fnt)[0] > width:
        text = text[:-1]
    return text + "…"


def _mushroom_row(draw: ImageDraw.ImageDraw, x: int, cy: int, count: int, max_icons: int = 8) -> None:
    size = 22
    shown = min(count, max_icons)
    for i in range(shown):
        draw_mushroom(draw, x + i * 19 + size / 2, cy + 2, size)
    if count > max_icons:
        draw.text((x + shown * 19 + 6, cy), f"+{count - max_icons}", font=font(SMALL, bold=True), fill=MUTED,
                  anchor="lm")


def _label(labels: dict[str, str], key: str, fallback: str, **params: Any) -> str:
    """``labels[key]`` with ``params`` filled in (``fallback`` without it)."""
    template = labels.get(key)
    if template is None:
        return fallback
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


def render_table(view: dict[str, Any], names: list[str], labels: dict[str, str] | None = None,
                 hits: dict[str, list] | None = None) -> bytes:
    """The public table: mushrooms per player, the picker, gestures once public, last card, deck.

    ``names[seat]`` labels each row. ``labels`` (optional, translated) may give
    ``turn`` (a ``{turn}`` template), ``deck``, ``discard``, ``picker``,
    ``revealed_card``, ``variant`` (the variant's display name).
    Columns per row: name and role, mushrooms (with ``+n`` won last turn), the
    current turn (✓ chosen / … thinking, or the gesture once all are public, ✗
    ignored), the last turn's gesture (★ the followed lutin). ``hits`` receives each player's row
    (``seat:<n>``: the lutin the picker follows).
    """
    labels = labels or {}
    n = view["players"]
    rows_h = n * ROW_H
    height = HEADER_H + 30 + rows_h + 16 + PANEL_H
    img, draw = canvas(TABLE_W, height)
    # header
    draw.rectangle((0, 0, TABLE_W, HEADER_H), fill=FOREST_DARK)
    turn_text = _label(labels, "turn", f"#{view['turn']}", turn=view["turn"])
    draw.text((20, HEADER_H / 2), turn_text, font=font(28, bold=True), fill=PAPER, anchor="lm")
    variant = labels.get("variant")
    if variant:
        draw.text((TABLE_W - 20, HEADER_H / 2), variant, font=font(22), fill=PAPER, anchor="rm")
    last = view.get("last_turn") or None
    gestures = view.get("gestures")
    chosen = set(view.get("chosen") or [])
    waiting = set(view.get("waiting") or [])
    ignored = set(view.get("ignored") or [])
    picker = view.get("picker")
    small_f = font(SMALL)
    col_now, col_last = 540, 630
    y_hdr = HEADER_H + 4
    # column heads, in words: this turn (« Tour 3 »), the previous one (« Tour 2 »)
    def turn_head(turn: int) -> str:
        return _label(labels, "turn", f"#{turn}", turn=turn)

    head_f = font(SMALL)  # not bold: « Tour 11 » fits its column
    if not view.get("finished"):
        centred_text(draw, (col_now, y_hdr + 12), _fit(draw, turn_head(view["turn"]), head_f, 88), head_f,
                     fill=MUTED)
    if last:
        centred_text(draw, (col_last, y_hdr + 12), _fit(draw, turn_head(last["turn"]), head_f, 88), head_f,
                     fill=MUTED)
    top = HEADER_H + 30
    for seat in range(n):
        y = top + seat * ROW_H
        colour = seat_colour(seat)
        is_picker = seat == picker
        if hits is not None:
            hits[f"seat:{seat}"] = [(12, y + 4), (PANEL_X - 16, y + 4), (PANEL_X - 16, y + ROW_H - 4), (12, y + ROW_H - 4)]
        draw.rounded_rectangle((12, y + 4, PANEL_X - 16, y + ROW_H - 4), radius=10,
                               fill=PICKER_ROW if is_picker else PANEL,
                               outline=HIGHLIGHT if is_picker else None, width=3 if is_picker else 1)
        draw.rectangle((12, y + 4, 22, y + ROW_H - 4), fill=colour)
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        draw.text((34, y + 25), _fit(draw, name, font(24, bold=True), 212), font=font(24, bold=True), fill=TEXT,
                  anchor="lm")
        if is_picker:
            role = labels.get("picker", "")
            draw_basket(draw, 44, y + 58, 20)
            if role:
                draw.text((60, y + 57), _fit(draw, role, small_f, 215), font=small_f, fill=HIGHLIGHT, anchor="lm")
        count = view["mushrooms"][seat]
        draw.text((290, y + ROW_H / 2), str(count), font=font(30, bold=True), fill=TEXT, anchor="rm")
        if view.get("finished") and count == max(view["mushrooms"]):
            centred_text(draw, (col_now, y + ROW_H / 2), "★", font(40, bold=True), fill=HIGHLIGHT)
        _mushroom_row(draw, 300, y + ROW_H / 2 - 2, count)
        if last and last["gains"][seat]:
            draw.text((col_last + 36, y + ROW_H / 2), f"+{last['gains'][seat]}", font=font(SMALL, bold=True),
                      fill=GOOD, anchor="lm")
        # current turn
        cy = y + ROW_H / 2
        if view.get("finished"):
            pass
        elif is_picker:
            centred_text(draw, (col_now, cy), "?", font(30, bold=True), fill=HIGHLIGHT)
        elif gestures and gestures[seat]:
            g = gestures[seat]
            mark = BAD if seat in ignored else TEXT
            draw_gesture(draw, col_now, cy, 44, g["gesture"], g["side_for_picker"], fill=mark)
            if seat in ignored:
                draw.line((col_now - 24, cy - 24, col_now + 24, cy + 24), fill=BAD, width=4)
                draw.line((col_now - 24, cy + 24, col_now + 24, cy - 24), fill=BAD, width=4)
        elif seat in chosen:
            centred_text(draw, (col_now, cy), "✓", font(30, bold=True), fill=GOOD)
        elif seat in waiting:
            centred_text(draw, (col_now, cy), "…", font(30, bold=True), fill=MUTED)
        # last turn
        if last:
            lg = last["gestures"][seat]
            if seat == last["picker"]:
                draw_basket(draw, col_last, cy + 8, 24, outline=MUTED)
            elif lg:
                followed = last["followed"] == seat
                if followed:
                    draw.ellipse((col_last - 30, cy - 30, col_last + 30, cy + 30), outline=HIGHLIGHT, width=3)
                fill = BAD if lg["ignored"] else (TEXT if followed else MUTED)
                draw_gesture(draw, col_last, cy, 36, lg["gesture"], lg["side_for_picker"], fill=fill)
                if lg["ignored"]:
                    draw.line((col_last - 18, cy - 18, col_last + 18, cy + 18), fill=BAD, width=3)
    # under the players: the last revealed card and the deck, side by side
    py = top + n * ROW_H + 16
    card_w = 260
    card_h = int(card_w * CARD_H / CARD_W)
    back_w = 120
    back_h = int(back_w * 1.3)
    gap = 60
    shown_w = (card_w + gap if last else 0) + back_w
    x = (TABLE_W - shown_w) // 2
    if last:
        label = _label(labels, "revealed_card", "", turn=last["turn"])  # the previous turn's card: said so
        if label:
            centred_text(draw, (x + card_w / 2, py + 12), _fit(draw, label, font(SMALL, bold=True), card_w + gap),
                         font(SMALL, bold=True), fill=MUTED)
        draw_card(img, (x, py + 30, x + card_w, py + 30 + card_h), last["card"])
        x += card_w + gap
    deck_top = py + 30 + (card_h - back_h) // 2 if last else py + 30
    draw_card_back(img, (x, deck_top, x + back_w, deck_top + back_h), view["deck"])
    if labels.get("deck"):
        centred_text(draw, (x + back_w / 2, deck_top + back_h + 22), labels["deck"], font(SMALL), fill=MUTED)
    return encode_png(img)


def draw_basket(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, outline=HIGHLIGHT) -> None:
    """The picker's basket."""
    s = size
    draw.arc((cx - s * 0.35, cy - s * 0.75, cx + s * 0.35, cy - s * 0.05), 180, 360, fill=outline,
             width=max(2, int(s / 9)))
    draw.polygon([(cx - s * 0.5, cy - s * 0.4), (cx + s * 0.5, cy - s * 0.4), (cx + s * 0.35, cy + s * 0.2),
                  (cx - s * 0.35, cy + s * 0.2)], fill=outline)
