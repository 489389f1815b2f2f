"""Take it to the Limit pictures: the announced tile, a player's boards, the final boards.

Pure functions of an engine view (``engines.limit`` ``ENGINE.view(state, seat)``).
Flat-top hexes; every tile shows its three lines in their true colours, the
values upright, a sun or moon mark and a gold/silver frame for bonus tiles;
every position shows its name (``A1``..``G4``, ``X1``..``X7``, ``1``..``22``,
the small orchids ``A``/``B``/``C`` and the big orchid ``O``).

Words come from the caller: ``labels`` maps catalog keys (without the ``limit.``
prefix, see :data:`LABEL_KEYS`) to translated templates; build it with
``{k: i18n.t("limit." + k, lang) for k in LABEL_KEYS}``. Without labels the
pictures use language-neutral symbols (≡ lines, ★ bonuses, ☀/☾ ray, Σ total).

Tiles are drawn once per size, supersampled, and cached, so a board image costs
a few milliseconds.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import catalog
from render.common import (
    DATA,
    FRAME_WIDTH,
    HIGHLIGHT,
    MUTED,
    PANEL,
    TEXT,
    canvas,
    draw_on,
    encode_png,
    fit,
    font,
    halo_for,
    legible,
    seat_colour,
    words,
)

SQRT3 = math.sqrt(3)
SS = 2  # supersampling factor for cached tile images
#: Line marks and empty cells' names: this fraction of the tile's radius, so that their glyphs
#: (not only their font size) are 11 CSS px high on a 390 px phone, on the widest board picture
#: (the final boards, 563 px wide: 23 px, digits 16-17 px, 11.1-11.8 CSS px).
NUMBER_RATIO = 0.53
#: The three values inside a tile, in the narrower digits of the monospaced bold face (they share
#: the tile's width): their glyphs are 11 CSS px high at least on a 390 px phone, on the widest
#: board picture shown across a card (368 CSS px inside the card's padding: 0.54 × 44 px = 23.5 px,
#: digits 17 px and more; issues 24 and 36).
VALUE_RATIO = 0.544
PHONE_WIDTH, PHONE_MIN_PX = 360, 11

LABEL_KEYS: tuple[str, ...] = (
    "meta.lang",
    "label.round", "label.game", "label.announced", "label.lines", "label.bonuses", "label.ray",
    "label.penalty", "label.total", "label.dechetterie_value", "label.sun", "label.moon", "label.gold",
    "label.silver", "label.full", "label.half", "label.unplaced", "label.relocation", "label.gain",
    "label.hidden", "label.legend_sun", "label.legend_moon", "label.legend_bonus",
    "label.waiting", "label.final", "label.series_total", "label.pass", "label.holder",
    "label.relocation_title", "label.penalty_threshold", "label.penalty_lowest", "label.penalty_highest",
    "label.fill",
    "board.nexus", "board.dechetterie", "board.orchidee", "board.big_orchid",
)

TILE_BG = (58, 62, 74)  # light enough for the black line to stand out
TILE_EDGE = (150, 154, 165)
NAME_INK = (225, 228, 236)  # a placed tile's position name
EMPTY_BG = (44, 47, 54)
EMPTY_EDGE = (110, 114, 124)
STRIPE_EDGE = (150, 154, 166)
GOLD = (224, 178, 38)
SILVER = (196, 200, 210)
SUN = (255, 196, 40)
MOON = (190, 205, 240)
ORCHID = (226, 110, 190)
BOARD_BG = (84, 88, 100)
GOOD = (120, 220, 130)
FRAME = (70, 215, 255)  # this round's placement (seen only by its owner until the round closes)
BAD = (240, 110, 100)
VALUE_INK, VALUE_HALO = (255, 255, 255), (10, 10, 10)  # a tile's values: white on a near-black outline
#: The same colours as text colours (on the panels, WCAG AA: 4.5 : 1 at least).
ORCHID_TEXT = legible(ORCHID, PANEL)
BAD_TEXT = legible(BAD, PANEL)


@lru_cache(maxsize=1)
def _rgb() -> dict[str, tuple[int, int, int]]:
    with (DATA / "limit" / "tiles.json").open(encoding="utf-8") as fh:
        return {k: tuple(v) for k, v in json.load(fh)["rgb"].items()}


class _Labels:
    def __init__(self, labels: Mapping[str, str] | None) -> None:
        self.labels = dict(labels or {})
        self.lang = self.labels.get("meta.lang")  # the labels' language: plurals are chosen in it

    def get(self, key: str, fallback: str, **params: Any) -> str:
        template = self.labels.get(key)
        if template is None:
            return fallback
        if self.lang and params and catalog.selects("limit", self.lang, key):
            text = catalog.message("limit", self.lang, key, **params)  # « 1 case vide », « 0 point »
            if text is not None:
                return text
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            return template




# --- geometry ------------------------------------------------------------------------

def _centre(q: int, r: int, size: float) -> tuple[float, float]:
    return 1.5 * size * q, SQRT3 * size * (r + q / 2)


def _hex_points(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    return [(cx + size * math.cos(math.radians(60 * k)), cy + size * math.sin(math.radians(60 * k)))
            for k in range(6)]


def _box(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _extent(cells: Sequence[Mapping[str, Any]], size: float) -> tuple[float, float, float, float]:
    xs = [_centre(c["q"], c["r"], size)[0] for c in cells]
    ys = [_centre(c["q"], c["r"], size)[1] for c in cells]
    h = SQRT3 / 2 * size
    return min(xs) - size, min(ys) - h, max(xs) + size, max(ys) + h


# --- tiles -----------------------------------------------------------------------------

def _draw_sun(draw: ImageDraw.ImageDraw, cx: float, cy: float, rad: float) -> None:
    for k in range(8):
        a = math.radians(45 * k)
        draw.line([(cx + rad * 1.05 * math.cos(a), cy + rad * 1.05 * math.sin(a)),
                   (cx + rad * 1.6 * math.cos(a), cy + rad * 1.6 * math.sin(a))], fill=SUN, width=max(1, int(rad / 3)))
    draw.ellipse([cx - rad, cy - rad, cx + rad, cy + rad], fill=SUN)


def _draw_moon(draw: ImageDraw.ImageDraw, cx: float, cy: float, rad: float, bg) -> None:
    r = rad * 1.35
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=MOON)
    off = r * 0.55
    draw.ellipse([cx - r + off, cy - r - off * 0.3, cx + r + off, cy + r - off * 0.3], fill=bg)


def _draw_orchid(draw: ImageDraw.ImageDraw, cx: float, cy: float, rad: float) -> None:
    for k in range(5):
        a = math.radians(72 * k - 90)
        px, py = cx + rad * 0.6 * math.cos(a), cy + rad * 0.6 * math.sin(a)
        draw.ellipse([px - rad * 0.45, py - rad * 0.45, px + rad * 0.45, py + rad * 0.45], fill=ORCHID)
    draw.ellipse([cx - rad * 0.3, cy - rad * 0.3, cx + rad * 0.3, cy + rad * 0.3], fill=(250, 230, 120))


#: Where a tile's marks sit, in fractions of its radius from its centre: the three values on the
#: upper halves of their lines (the lower half of a tile holds only the lines' lower halves), the
#: vertical line's at the top, the two others below it and apart from each other; the cell's name
#: on a patch low on the right (drawn on the board, see ``_name_badge``), the sun or moon low on
#: the left: nothing overlaps (tests/render/test_limit.py measures it).
VALUE_AT = ((0.0, -0.53), (0.36, -0.05), (-0.36, -0.05))  # vertical, sw_ne, nw_se
MARK_AT = (-0.47, 0.38)
MARK_RADIUS = 0.1  # the sun's disc (its rays reach 1.6 times as far), the moon's 1.35 times
MARK_PATCH = 1.7  # a patch of the tile's ground under the mark, this many times its radius: it shows on any line
NAME_AT = (0.16, 0.46)


def _mark_box(cx: float, cy: float, size: float) -> tuple[float, float, float, float]:
    """The box the sun (with its rays) or the moon of a tile of radius ``size`` centred at ``cx, cy``
    fills."""
    x, y, r = cx + size * MARK_AT[0], cy + size * MARK_AT[1], size * MARK_RADIUS * MARK_PATCH
    return x - r, y - r, x + r, y + r


def _value_font(size: int):
    """The font of a tile's values, drawn supersampled (``size`` in px of the supersampled tile)."""
    return font(max(8, int(size * VALUE_RATIO)), bold=True, mono=True)


@lru_cache(maxsize=1024)
def _tile_image(values: tuple[int, int, int], colours: tuple[str, str, str], sun: bool, bonus: str | None,
                size: int, numbers: bool = True) -> Image.Image:
    """One upright tile, circumradius ``size`` px, as an RGBA image (cached)."""
    s = size * SS
    w, h = 2 * s + 2 * SS, int(SQRT3 * s) + 2 * SS
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = draw_on(img, None, SS)
    cx, cy = w / 2, h / 2
    d.polygon(_hex_points(cx, cy, s * 0.97), fill=TILE_BG, outline=TILE_EDGE, width=SS)
    if bonus:
        d.polygon(_hex_points(cx, cy, s * 0.93), outline=GOLD if bonus == "gold" else SILVER,
                  width=max(2, int(s * 0.1)))
    half = SQRT3 / 2 * s * 0.93
    ends = [  # vertical, sw_ne, nw_se: (start, end); the value sits near the upper end
        ((cx, cy + half), (cx, cy - half)),
        ((cx - half * math.cos(math.radians(30)), cy + half / 2), (cx + half * math.cos(math.radians(30)), cy - half / 2)),
        ((cx + half * math.cos(math.radians(30)), cy + half / 2), (cx - half * math.cos(math.radians(30)), cy - half / 2)),
    ]
    rgb = _rgb()
    width = max(3, int(s * 0.2))
    for k in (2, 1, 0):
        a, b = ends[k]
        d.line([a, b], fill=STRIPE_EDGE, width=width + 2 * SS)  # a light edge: even the black line shows
        d.line([a, b], fill=rgb[colours[k]], width=width)
    mark_x, mark_y, mark_r = cx + s * MARK_AT[0], cy + s * MARK_AT[1], s * MARK_RADIUS
    patch = mark_r * MARK_PATCH
    d.ellipse([mark_x - patch, mark_y - patch, mark_x + patch, mark_y + patch], fill=TILE_BG)
    if sun:
        _draw_sun(d, mark_x, mark_y, mark_r)
    else:
        _draw_moon(d, mark_x, mark_y, mark_r, TILE_BG)
    if numbers:
        fnt = _value_font(s)
        for k in range(3):
            px, py = cx + s * VALUE_AT[k][0], cy + s * VALUE_AT[k][1]
            d.text((px, py), str(values[k]), font=fnt, fill=VALUE_INK, anchor="mm",
                   stroke_width=max(2, int(s * 0.05)), stroke_fill=VALUE_HALO)
    return img.reduce(SS)


@lru_cache(maxsize=64)
def _empty_image(size: int, hole: bool = False) -> Image.Image:
    s = size * SS
    w, h = 2 * s + 2 * SS, int(SQRT3 * s) + 2 * SS
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = draw_on(img, None, SS)
    pts = _hex_points(w / 2, h / 2, s * 0.97)
    d.polygon(pts, fill=EMPTY_BG)
    if hole:
        for k in range(6):  # dashed outline
            a, b = pts[k], pts[(k + 1) % 6]
            for j in range(4):
                t0, t1 = j / 4, j / 4 + 0.14
                d.line([(a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                        (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)], fill=ORCHID, width=2 * SS)
        _draw_orchid(d, w / 2, h / 2 + s * 0.42, s * 0.2)
    else:
        d.polygon(pts, outline=EMPTY_EDGE, width=SS)
    return img.reduce(SS)


def _tile_for(view: Mapping[str, Any], tid: str, size: int) -> Image.Image:
    t = view["tiles"][tid]
    return _tile_image(tuple(t["values"]), tuple(t["colours"]), bool(t["sun"]), t["bonus"], size, size >= 26)


def _paste_centre(img: Image.Image, tile: Image.Image, cx: float, cy: float) -> None:
    img.paste(tile, (int(round(cx - tile.width / 2)), int(round(cy - tile.height / 2))), tile)


# --- boards -----------------------------------------------------------------------------

def _draw_grid(img: Image.Image, draw: ImageDraw.ImageDraw, view: Mapping[str, Any], layout: Sequence[Mapping],
               cells: Mapping[str, str], size: int, ox: float, oy: float, *, legal: set[str] | None = None,
               frame: str | None = None, names: bool = True, name_px: int | None = None,
               ray: Mapping[str, Any] | None = None, hits: dict[str, list] | None = None,
               tile_names: bool = True) -> None:
    """Draw the hexes of ``layout`` with their tiles; ``ox, oy`` is the pixel of axial (0, 0); ``hits``
    receives each hexagon drawn (``cell:<name>`` → its polygon).

    Every position shows its name, an empty one in its middle, a placed tile low on its right in
    ``name_px`` (the caller's phone minimum) unless ``tile_names`` is false (a Déchetterie: its small
    hexagons leave no room beside the tile's numbers, and a filled cell is never a target); ``ray`` (a breakdown's best ray) rings its tiles in
    the sun's or the moon's colour."""
    empty_font = font(max(9, int(size * NUMBER_RATIO)), bold=True)
    name_font = font(name_px or max(9, int(size * 0.4)), bold=True)
    ray_cells = set(ray["cells"]) if ray else set()
    ray_colour = (SUN if ray["kind"] == "sun" else MOON) if ray else None
    for c in layout:
        cx, cy = ox + _centre(c["q"], c["r"], size)[0], oy + _centre(c["q"], c["r"], size)[1]
        tid = cells.get(c["name"])
        hole = bool(c.get("hole"))
        if hits is not None:
            hits["cell:" + c["name"]] = _hex_points(cx, cy, size)
        if tid is None:
            _paste_centre(img, _empty_image(size, hole), cx, cy)
            if names:
                fill = TEXT if legal is None or c["name"] in legal else MUTED
                if hole:
                    fill = ORCHID
                draw.text((cx, cy - (size * 0.12 if hole else 0)), c["name"], font=empty_font, fill=fill,
                          anchor="mm")
        else:
            _paste_centre(img, _tile_for(view, tid, size), cx, cy)
            if names and tile_names:
                _name_badge(draw, cx + size * NAME_AT[0], cy + size * NAME_AT[1], c["name"], name_font)
        if c["name"] in ray_cells:
            draw.polygon(_hex_points(cx, cy, size * RING_AT[0]), outline=ray_colour, width=_ring_width(size, 0))
        if frame is not None and c["name"] == frame:
            draw.polygon(_hex_points(cx, cy, size * RING_AT[1]), outline=FRAME, width=_ring_width(size, 1))


#: The rings drawn over a placed tile (inside the hexagon of that fraction of its radius): the best
#: ray's, this round's placement's.
RING_AT = (1.0, 1.0)


def _ring_width(size: int, ring: int) -> int:
    return max(3, size // (12, 9)[ring])


def _name_badge(draw: ImageDraw.ImageDraw, x: float, y: float, name: str, fnt) -> None:
    """A placed tile's position name, on a patch of the tile's ground over its vertical line."""
    box = _name_badge_box(draw, x, y, name, fnt)
    draw.rounded_rectangle(box, radius=4, fill=TILE_BG)
    draw.text((x, y), name, font=fnt, fill=NAME_INK, anchor="mm")


def _name_badge_box(draw: ImageDraw.ImageDraw, x: float, y: float, name: str, fnt) -> list[float]:
    left, top, right, bottom = draw.textbbox((x, y), name, font=fnt, anchor="mm")
    return [left - 3, top - 2, right + 3, bottom + 2]


def _grid_size(layout: Sequence[Mapping], size: int, pad: float = 2) -> tuple[int, int, float, float]:
    x0, y0, x1, y1 = _extent(layout, size)
    return int(math.ceil(x1 - x0 + 2 * pad)), int(math.ceil(y1 - y0 + 2 * pad)), -x0 + pad, -y0 + pad


_DIRS = {"vertical": 0, "sw_ne": 1, "nw_se": 2}


def _draw_line_marks(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], layout: Sequence[Mapping],
                     lines: Sequence[Mapping[str, Any]], cells: Mapping[str, str], size: int,
                     ox: float, oy: float) -> None:
    """Each scoring line's points, just outside the board where the line starts (or,
    if another mark is already there, where it ends)."""
    where = {c["name"]: (c["q"], c["r"]) for c in layout}
    rgb = _rgb()
    fnt = font(max(10, int(size * NUMBER_RATIO)), bold=True)
    placed: list[tuple[float, float]] = []
    for ln in lines:
        first, last = ln["span"]
        if first not in where or last not in where or not ln["cells"]:
            continue
        (q0, r0), (q1, r1) = where[first], where[last]
        steps = max(abs(q1 - q0), abs(r1 - r0), 1)
        dq, dr = (q1 - q0) / steps, (r1 - r0) / steps
        spots = [_centre(q0 - 0.78 * dq, r0 - 0.78 * dr, size), _centre(q1 + 0.78 * dq, r1 + 0.78 * dr, size)]
        x, y = next((p for p in spots if all(math.dist(p, o) > size * 0.9 for o in placed)), spots[0])
        placed.append((x, y))
        tid = cells.get(ln["cells"][0])
        colour = rgb[view["tiles"][tid]["colours"][_DIRS[ln["direction"]]]] if tid in view["tiles"] else TEXT
        halo = halo_for(colour)  # black or white, whichever sets the line's colour apart more
        draw.text((ox + x, oy + y), str(ln["points"]), font=fnt, fill=legible(colour, halo), anchor="mm",
                  stroke_width=3, stroke_fill=halo)


def _board_for(view: Mapping[str, Any], seat: int | None) -> Mapping[str, Any]:
    boards = view["boards"]
    if seat is not None:
        for b in boards:
            if seat in b["seats"]:
                return b
    return boards[0]


def _name(names: Sequence[str] | None, seat: int) -> str:
    if names and 0 <= seat < len(names):
        return str(names[seat])
    return f"#{seat + 1}"


def _board_title(board: Mapping[str, Any], names: Sequence[str] | None) -> str:
    return " & ".join(_name(names, s) for s in board["seats"])


def _fmt(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def _summary_rows(bd: Mapping[str, Any], lab: _Labels) -> list[tuple[str, str, tuple[int, int, int]]]:
    """(label, value, colour) rows of a breakdown, the total last."""
    rows = []
    items = bd["items"]
    nlines = len(bd.get("lines", []))
    rows.append((f"{lab.get('label.lines', '≡')} ({nlines})", str(items["lines"]), TEXT))
    bon = [b for b in bd.get("bonuses", []) if b["points"]]
    detail = ", ".join(f"{lab.get('label.' + b['kind'], '●' if b['kind'] == 'gold' else '○')} {b['points']}"
                       for b in bon)  # « or 80, argent 20 »: the frames' colours, in words
    rows.append((f"{lab.get('label.bonuses', '★')} {detail}".rstrip(), str(items["bonuses"]), GOLD))
    if "ray" in items:
        ray = bd.get("ray")
        sym = "" if not ray else ("☀" if ray["kind"] == "sun" else "☾") + f" ×{ray['length']}"
        colour = MOON if ray and ray["kind"] == "moon" else SUN  # the colour of its ring on the board
        rows.append((f"{lab.get('label.ray', '☀☾')} {sym}".rstrip(), str(items["ray"]), colour))
    dech = bd.get("dechetterie")
    if dech is not None:
        rows.append((lab.get("label.dechetterie_value", "X"), str(dech["value"]), MUTED))
    if "penalty" in items:
        rows.append((lab.get("label.penalty", "−"), _fmt(items["penalty"]), BAD_TEXT if items["penalty"] else MUTED))
    rows.append((lab.get("label.total", "Σ"), _fmt(bd["total"]), TEXT))
    return rows


def penalty_note(bd: Mapping[str, Any], lab: _Labels) -> str | None:
    """Why a board paid the Déchetterie penalty (its value, under the threshold or the lowest /
    highest of the table), or None when it paid nothing."""
    why = bd.get("penalty_reason")
    if not why:
        return None
    penalty = _fmt(bd["items"].get("penalty", 0))
    return lab.get(f"label.penalty_{why['rule']}", f"{penalty} X {why['value']}", penalty=penalty,
                   value=why["value"], threshold=why["threshold"], shared=why.get("shared", 1))


def final_order(view: Mapping[str, Any]) -> list[int]:
    """The boards of the final pictures, best score first (board order on ties)."""
    final = view.get("final")
    scores = final["scores"] if final is not None else [b["score"]["total"] for b in view["boards"]]
    return sorted(range(len(scores)), key=lambda b: (-scores[b], b))


def _draw_rows(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, rows, size: int = 18) -> int:
    fnt, bold = font(size), font(size, bold=True)
    for i, (label, value, colour) in enumerate(rows):
        last = i == len(rows) - 1
        if last:
            draw.line([(x, y - 3), (x + width, y - 3)], fill=MUTED, width=1)
        room = width - bold.getlength(value) - 12
        draw.text((x, y), fit(label, bold if last else fnt, room), font=bold if last else fnt,
                  fill=TEXT if last else colour)
        draw.text((x + width, y), value, font=bold, fill=TEXT, anchor="ra")
        y += size + 8
    return y


def _draw_big_orchid(img: Image.Image, draw: ImageDraw.ImageDraw, view: Mapping[str, Any], tiles: Sequence[str],
                     capacity: int, x: int, y: int, size: int, legal: bool, title: str,
                     text_size: int = 15) -> tuple[int, int]:
    """The big orchid ``O``: a panel with its (up to 3) tiles side by side."""
    w = int(capacity * 2 * size + 24)
    h = int(SQRT3 * size + 46 + text_size)
    draw.rounded_rectangle([x, y, x + w, y + h], radius=14, fill=(66, 48, 70), outline=ORCHID, width=2)
    _draw_orchid(draw, x + 18, y + 16, 9)
    tf = font(text_size, bold=True)
    draw.text((x + 34, y + 16), fit(f"O  {title}", tf, w - 40), font=tf, fill=TEXT if legal else ORCHID_TEXT, anchor="lm")
    for k in range(capacity):
        cx = x + 12 + size + k * 2 * size
        cy = y + 34 + text_size + SQRT3 * size / 2
        if k < len(tiles):
            _paste_centre(img, _tile_for(view, tiles[k], size), cx, cy)
        else:
            _paste_centre(img, _empty_image(size), cx, cy)
    return w, h


#: Tile sizes the pictures use (a player's boards, the announced tile on them, the final boards).
TILE_SIZES = (44,)


def warm_cache(tiles: Sequence[Mapping[str, Any]], sizes: Sequence[int] = TILE_SIZES) -> int:
    """Pre-draw ``tiles`` (tile views, e.g. ``[t.view() for t in TILES.values()]``) in
    every size, so the first pictures of a game are as fast as the later ones
    (about 1 s for the 64 tiles; call it once at start-up, off the event loop)."""
    n = 0
    for t in tiles:
        for size in sizes:
            _tile_image(tuple(t["values"]), tuple(t["colours"]), bool(t["sun"]), t.get("bonus"), size, size >= 26)
            n += 1
    return n


def render_tile(tile_view: Mapping[str, Any] | None, labels: Mapping[str, str] | None = None) -> bytes:
    """The announced tile, large, with its id (e.g. ``1-11-10``) under it."""
    size = 120
    height = int(SQRT3 * size) + 90
    if tile_view is None:
        return encode_png(canvas(2 * size + 60, height)[0])
    lab = _Labels(labels)
    mark = "☀" if tile_view["sun"] else "☾"
    bonus = tile_view.get("bonus")
    extra = f"  {lab.get('label.' + bonus, '★')} {80 if bonus == 'gold' else 40}" if bonus else ""
    caption, fnt = f"{tile_view['id']}  {mark}{extra}", font(30, bold=True)
    img, draw = canvas(max(2 * size + 60, int(fnt.getlength(caption)) + 40), height)  # the caption fits
    tile = _tile_image(tuple(tile_view["values"]), tuple(tile_view["colours"]), bool(tile_view["sun"]),
                       tile_view.get("bonus"), size)
    _paste_centre(img, tile, img.width / 2, 16 + SQRT3 * size / 2)
    draw.text((img.width / 2, img.height - 34), caption, font=fnt,
              fill=GOLD if bonus == "gold" else (SILVER if bonus else TEXT), anchor="mm")
    return encode_png(img)


def _min_font(width: int) -> int:
    """The smallest font size (px) that stays 11 px high once a ``width`` px picture is shown 360 px wide."""
    return math.ceil(PHONE_MIN_PX * width / PHONE_WIDTH)


def _wrap(text: str, fnt, width: float) -> list[str]:
    lines: list[str] = []
    for word in words(text):
        if lines and fnt.getlength(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _legend(view: Mapping[str, Any], cells: Mapping[str, str], ray: Mapping[str, Any] | None, lab: _Labels,
            fnt, width: float) -> list[tuple[str, tuple[int, int, int]]]:
    """What the board's coloured marks mean (issue 36): the best ray's ring (gold for suns, silver
    for moons) and a bonus tile's frame, when the board shows one; each line in the mark's colour,
    wrapped to ``width``."""
    parts = []
    if ray and ray.get("cells"):
        sun = ray["kind"] == "sun"
        parts.append((lab.get("label.legend_sun" if sun else "label.legend_moon", ""), SUN if sun else MOON))
    if any((view["tiles"].get(tid) or {}).get("bonus") for tid in cells.values()):
        parts.append((lab.get("label.legend_bonus", ""), GOLD))
    return [(line, colour) for text, colour in parts if text for line in _wrap(text, fnt, width)]


def render_board(view: Mapping[str, Any], seat: int | None, names: Sequence[str] | None = None,
                 labels: Mapping[str, str] | None = None, hits: dict[str, list] | None = None) -> bytes:
    """A player's boards, laid out for a phone (one column as wide as the main board): the title,
    the main board (Nexus or Orchidée), then the Déchetterie or the big orchid beside the
    announced tile, the relocation advice and the running score. ``hits`` receives what a touch
    may name, where it is drawn: every cell (``cell:C3``, ``cell:X1``), the Déchetterie (``dump``)
    and the big orchid (``orchid``). A player who holds a neighbour's passed tile (``view["fills"]``) sees
    that neighbour's Déchetterie at the bottom, its free cells to touch (``fill:<board>:X3``)."""
    lab = _Labels(labels)
    board = _board_for(view, seat)
    layout = view["layout"]
    size = 44
    pad = 10
    gw, gh, gox, goy = _grid_size(layout["main"], size, pad=size * 0.62)
    width = gw + 2 * pad
    small = _min_font(width)
    big = small + 4
    me = view.get("board")
    mine = me is not None and me == board["board"]
    legal = set(view.get("legal") or []) if mine else set()
    frame = board.get("this_round") if mine else None
    placing = mine and view["phase"] == "place"
    # the parts below the board, measured first
    lower: list[tuple[int, int]] = []  # (width, height) of the left block
    dech = layout.get("dechetterie")
    if dech:
        dw, dh, dox, doy = _grid_size(dech, size)
        lower.append((dw + 12, dh + 12 + big + 10))
    orchid = layout.get("big_orchid")
    if orchid:
        cap = orchid["capacity"]
        lower.append((int(cap * 2 * size + 24), int(SQRT3 * size + 46 + big)))
    tile = view.get("tile")
    tile_h = int(SQRT3 * size) + 2 * big + small + 40 if tile is not None else 0
    left_h = sum(h for _, h in lower) + 14 * max(0, len(lower) - 1)
    block_h = max(left_h, tile_h)
    reloc = view.get("relocation")
    reloc_on = bool(reloc and mine and not reloc.get("done"))
    rows = _summary_rows(board["score"], lab)
    hidden = _wrap(lab.get("label.hidden", "▢"), font(small), width - 2 * pad) if frame else []
    passing = _wrap(lab.get("label.pass", "X →"), font(small), width - 2 * pad) if (
        dech and layout.get("pass_name") and mine and layout["pass_name"] in legal) else []
    legend = _legend(view, board["cells"], board["score"].get("ray"), lab, font(small), width - 2 * pad)
    holder = board.get("holder")
    header = 16 + big + 10 + small + 12
    fills = [f for f in view.get("fills") or [] if dech and f["board"] < len(view.get("boards") or [])] \
        if mine else []
    fill_h = len(fills) * (big + 6 + dh + 12 + 16) if fills else 0
    height = (header + gh + 20 + block_h + 16 + (3 * (small + 8) + 8 if reloc_on else 0) + fill_h
              + len(rows) * (small + 10) + 10 + len(hidden) * (small + 6) + 20
              + (len(legend) * (small + 6) + 6 if legend else 0)
              + (len(passing) * (small + 6) + 6 if passing else 0))
    img, draw = canvas(width, height)
    # header: the name, then the tile / game count
    colour = seat_colour(board["seats"][0])
    draw.rectangle([0, 0, width, 6], fill=colour)
    title_font = font(big, bold=True)
    draw.text((pad, 16), fit(_board_title(board, names), title_font, width - 2 * pad), font=title_font, fill=TEXT)
    info = lab.get("label.round", f"{view['round']}/{view['rounds']}", round=view["round"], rounds=view["rounds"])
    if view.get("games", 1) > 1:
        info = lab.get("label.game", f"{view['game_no']}/{view['games']}", game=view["game_no"],
                       games=view["games"]) + " · " + info
    draw.text((pad, 16 + big + 10), info, font=font(small), fill=MUTED)
    # main board
    bx, by = pad, header
    draw.rounded_rectangle([bx - 6, by - 6, bx + gw + 6, by + gh + 6], radius=16, fill=BOARD_BG)
    _draw_grid(img, draw, view, layout["main"], board["cells"], size, bx + gox, by + goy,
               legal=legal if placing else None, frame=frame, name_px=small, ray=board["score"].get("ray"),
               hits=hits)
    _draw_line_marks(draw, view, layout["main"], board["score"]["lines"], board["cells"], size, bx + gox, by + goy)
    # Déchetterie / big orchid (left), announced tile (right)
    y = by + gh + 20
    sx = pad
    right_x = pad
    if dech:
        label = lab.get("board.dechetterie", "X1–X7")
        if holder is not None and view.get("boards"):
            label = lab.get("label.holder", "→ " + _board_title(view["boards"][holder], names),
                            player=_board_title(view["boards"][holder], names))
        draw.text((sx, y), fit(label, font(small, bold=True), width - 2 * pad), font=font(small, bold=True), fill=TEXT)
        dy = y + big + 6
        draw.rounded_rectangle([sx, dy, sx + dw + 12, dy + dh + 12], radius=12, fill=(74, 62, 52))
        dech_legal = legal if layout.get("pass_name") is None else set()
        _draw_grid(img, draw, view, dech, board["cells"], size, sx + 6 + dox, dy + 6 + doy,
                   legal=dech_legal if placing else None, frame=frame, name_px=small, hits=hits, tile_names=False)
        if hits is not None:
            hits["dump"] = _box(sx, dy, sx + dw + 12, dy + dh + 12)
        right_x = max(right_x, sx + dw + 12 + 24)
        y = dy + dh + 12 + 14
    if orchid:  # its tiles still there: one relocated into a hole (a relocation's preview) is drawn there only
        placed = set(board["cells"].values())
        ow, oh = _draw_big_orchid(img, draw, view, [t for t in board.get("orchid", []) if t not in placed], cap,
                                  sx, y, size,
                                  mine and "O" in legal, lab.get("board.big_orchid", ""), small)
        if hits is not None:
            hits["orchid"] = _box(sx, y, sx + ow, y + oh)
        right_x = max(right_x, sx + ow + 24) if not dech else right_x
    if tile is not None:
        tx = right_x if right_x + 2 * size + 8 <= width else pad
        ty = by + gh + 20 + (big + 6 if dech else 0) if tx != pad else y
        tf = font(small, bold=True)
        draw.text((tx, ty), fit(lab.get("label.announced", "▶"), tf, width - pad - tx), font=tf, fill=TEXT)
        t_img = _tile_image(tuple(tile["values"]), tuple(tile["colours"]), bool(tile["sun"]), tile.get("bonus"), size)
        _paste_centre(img, t_img, tx + size, ty + small + 8 + SQRT3 * size / 2)
        draw.text((tx, ty + small + 16 + SQRT3 * size), tile["id"], font=font(big, bold=True), fill=TEXT)
    y = by + gh + 20 + block_h + 16
    if dech and layout.get("pass_name") and mine and layout["pass_name"] in legal:
        for line in _wrap(lab.get("label.pass", "X →"), font(small), width - 2 * pad):
            draw.text((pad, y), line, font=font(small), fill=HIGHLIGHT)
            y += small + 6
        y += 6
    # relocation suggestion
    if reloc_on:
        best = reloc["best"]
        moves = ", ".join(f"{h} ← {t}" for h, t in best["moves"].items()) or "∅"
        draw.text((pad, y), fit(lab.get("label.relocation", "→"), font(small, bold=True), width - 2 * pad),
                  font=font(small, bold=True), fill=ORCHID_TEXT)
        draw.text((pad, y + small + 8), fit(moves, font(small), width - 2 * pad), font=font(small), fill=TEXT)
        gain = best["gain"]
        sign = "+" if gain > 0 else "−" if gain < 0 else ""
        draw.text((pad, y + 2 * (small + 8)), sign + lab.get("label.gain", str(abs(gain)), gain=abs(gain)),
                  font=font(small, bold=True), fill=GOOD if gain > 0 else MUTED)
        y += 3 * (small + 8) + 8
    # a neighbour's passed tile: their Déchetterie, its free cells to touch
    for f in fills:
        owner = view["boards"][f["board"]]
        label = lab.get("label.fill", "→ " + _board_title(owner, names), player=_board_title(owner, names))
        draw.text((pad, y), fit(label, font(small, bold=True), width - 2 * pad), font=font(small, bold=True),
                  fill=HIGHLIGHT)
        fy = y + big + 6
        draw.rounded_rectangle([pad, fy, pad + dw + 12, fy + dh + 12], radius=12, fill=(74, 62, 52))
        cells_hits: dict[str, list] | None = {} if hits is not None else None
        dech_cells = {k: v for k, v in owner["cells"].items() if k in {c["name"] for c in dech}}
        _draw_grid(img, draw, view, dech, dech_cells, size, pad + 6 + dox, fy + 6 + doy,
                   legal=set(f["legal"]), name_px=small, hits=cells_hits, tile_names=False)
        if hits is not None and cells_hits is not None:
            for region, poly in cells_hits.items():
                if region.removeprefix("cell:") in f["legal"]:
                    hits[f"fill:{f['board']}:{region.removeprefix('cell:')}"] = poly
        y = fy + dh + 12 + 16
    # running score
    y = _draw_rows(draw, pad, y + 4, width - 2 * pad, rows, size=small)
    y += 6 if hidden or legend else 0
    for line in hidden:
        draw.text((pad, y), line, font=font(small), fill=FRAME)
        y += small + 6
    for line, colour in legend:
        draw.text((pad, y), line, font=font(small), fill=colour)
        y += small + 6
    return encode_png(img)


#: the final boards' picture's margin (px)
FINAL_PAD = 6


def _final_width(main: Sequence[Mapping[str, Any]], size: int) -> int:
    """The width of the final boards' picture whose tiles have the radius ``size``."""
    return _grid_size(main, size, pad=size * 0.62)[0] + 2 * FINAL_PAD + 12


def _final_size(main: Sequence[Mapping[str, Any]], at_most: int | None = None) -> tuple[int, int]:
    """The final boards' tile radius and text size (px): 44, as on a player's board (the values stay 13
    CSS px high on a phone), the text 11 CSS px high once the picture is shown 360 px wide. In an
    animated summary's frame ``at_most`` px wide (``render.common.FRAME_WIDTH``), narrower than that: the
    largest radius that fits, the text in proportion, so that the frame shows the picture as the same
    picture drawn at 44 and scaled down to the frame would look, but drawn at its size (issue 27: a
    4-player summary scaled 27 pictures of 563 x 3700 px, a third of its CPU, and blurred their text)."""
    size = 44
    small = _min_font(_final_width(main, size))
    if at_most is None or _final_width(main, size) <= at_most:
        return size, small
    while size > 12 and _final_width(main, size) > at_most:
        size -= 1
    return size, max(1, round(small * size / 44))


def render_final(view: Mapping[str, Any], names: Sequence[str] | None = None,
                 labels: Mapping[str, str] | None = None, only: int | None = None, title: str | None = None) -> bytes:
    """Every board of the last finished game, one under the other (a phone shows one board
    across its width), each with its Déchetterie, its per-rule breakdown, why it paid a
    penalty and (several games) the series total. ``only``: that board alone (the final
    message attaches one picture per board). During the Orchidée relocation (the game is not
    over yet) the running boards, under the relocation's title. ``title``: another title (a replay
    frame's: the running boards after a tile)."""
    lab = _Labels(labels)
    final = view.get("final")
    layout = view["layout"]
    boards = view["boards"]
    if final is not None:
        cells_of = final["cells"]
        bds = final["breakdowns"]
        scores = final["scores"]
    else:  # not finished yet: the running state
        cells_of = [b["cells"] for b in boards]
        bds = [b["score"] for b in boards]
        scores = [b["score"]["total"] for b in boards]
    shown = list(range(len(cells_of))) if only is None else [only]
    frame_width = FRAME_WIDTH.get()
    size, small = _final_size(layout["main"], frame_width)
    pad = FINAL_PAD
    _, gh, gox, goy = _grid_size(layout["main"], size, pad=size * 0.62)
    width = _final_width(layout["main"], size)
    if frame_width is not None and size < 44:  # an animation's frame: its whole width, the boards centred
        gox += (frame_width - width) // 2
        width = frame_width
    big = small + 4
    dech = layout.get("dechetterie")
    if dech:
        dw, dh, dox, doy = _grid_size(dech, size)
    else:
        dw = dh = 0
        dox = doy = 0
    orchid = layout.get("big_orchid")
    series = view.get("games", 1) > 1
    row_h = small + 10
    rows_max = max((len(_summary_rows(bds[i], lab)) for i in shown), default=6)
    notes = {i: _wrap(note, font(small), width - 2 * pad - 8) for i in shown if (note := penalty_note(bds[i], lab))}
    legends = {i: _legend(view, cells_of[i], bds[i].get("ray"), lab, font(small), width - 2 * pad - 8) for i in shown}
    note_h = max((len(notes.get(i, [])) * (small + 6) + 4 + len(legends[i]) * (small + 6) for i in shown),
                 default=0)
    extra = (big + 8 + int(SQRT3 * size) + 10) if orchid else 0  # the tiles left on the big orchid
    lower = max(dh + 12, rows_max * row_h + 8) if dech and dw + 12 + 16 + 10 * small <= width - 2 * pad else (
        (dh + 24 if dech else 0) + rows_max * row_h + 8)
    cell_h = 12 + big + 12 + gh + 12 + extra + lower + note_h + (row_h if series else 0) + 16
    header = 14 + big + 10 + (small + 10 if series and final is not None else 0)
    height = header + len(shown) * (cell_h + 10) + 4
    img, draw = canvas(width, height)
    relocating = final is None and view.get("phase") == "relocate"
    if title is None:
        title = lab.get("label.relocation_title", "O →") if relocating else lab.get("label.final", "Σ")
    draw.text((pad, 14), fit(title, font(big, bold=True), width - 2 * pad), font=font(big, bold=True), fill=TEXT)
    if series and final is not None:
        draw.text((pad, 14 + big + 8), lab.get("label.game", f"{final['game']}/{view['games']}", game=final["game"],
                                               games=view["games"]), font=font(small), fill=MUTED)
    best = max(scores) if scores else 0
    for k, i in enumerate(shown):
        bx, by = 6, header + k * (cell_h + 10)
        board = boards[i]
        colour = seat_colour(board["seats"][0])
        draw.rounded_rectangle([bx, by, width - 6, by + cell_h], radius=12, fill=PANEL)
        draw.rectangle([bx + 8, by + 12, bx + 14, by + 12 + big], fill=colour)
        score_font = font(big, bold=True)
        score = _fmt(scores[i])
        sw = score_font.getlength(score)
        draw.text((bx + 22, by + 12), fit(_board_title(board, names), score_font, width - 2 * pad - sw - 30),
                  font=score_font, fill=TEXT)
        draw.text((width - pad - 4, by + 12), score, font=score_font,
                  fill=HIGHLIGHT if scores[i] == best else TEXT, anchor="ra")
        gx, gy = pad, by + 12 + big + 12
        _draw_grid(img, draw, view, layout["main"], cells_of[i], size, gx + gox, gy + goy, name_px=small,
                   ray=bds[i].get("ray"))
        _draw_line_marks(draw, view, layout["main"], bds[i]["lines"], cells_of[i], size, gx + gox, gy + goy)
        y = gy + gh + 12
        if orchid:
            left = [t for t in (final["orchids"][i] if final else board.get("orchid", []))
                    if t not in cells_of[i].values()]
            draw.text((pad, y), fit(lab.get("label.unplaced", "O"), font(small), width - 2 * pad), font=font(small),
                      fill=ORCHID_TEXT)
            for k, tid in enumerate(left):
                _paste_centre(img, _tile_for(view, tid, size), pad + size + k * (2 * size + 6),
                              y + big + 8 + SQRT3 * size / 2)
            y += extra
        rx, y0 = pad, y
        if dech:
            side = dw + 12 + 16 + 10 * small <= width - 2 * pad
            draw.rounded_rectangle([pad, y, pad + dw + 12, y + dh + 12], radius=10, fill=(74, 62, 52))
            _draw_grid(img, draw, view, dech, cells_of[i], size, pad + 6 + dox, y + 6 + doy, name_px=small, tile_names=False)
            if side:
                rx = pad + dw + 12 + 16
            else:
                y += dh + 24
        y = _draw_rows(draw, rx, y + 4, width - pad - 4 - rx, _summary_rows(bds[i], lab), size=small)
        if rx != pad:  # the rows beside the Déchetterie: what follows goes under both
            y = max(y, y0 + dh + 12)
        for line in notes.get(i, []):
            draw.text((pad, y), line, font=font(small), fill=BAD_TEXT)
            y += small + 6
        for line, colour in legends[i]:
            draw.text((pad, y), line, font=font(small), fill=colour)
            y += small + 6
        if series:
            total = _fmt(view["totals"][i])
            draw.text((pad, y), lab.get("label.series_total", f"Σ {total}", total=total),
                      font=font(small, bold=True), fill=HIGHLIGHT)
    return encode_png(img)


def render_replay(view: Mapping[str, Any], names: Sequence[str] | None = None,
                  labels: Mapping[str, str] | None = None) -> bytes:
    """A frame of a replay (issue 27): every board as the public ``view`` shows it, drawn as the end of
    the game draws them — the main board, the Déchetterie, the score rule by rule — under the last
    tile placed (« Tuile 3/44 »: this round's placements stay hidden until the round closes, as the
    engine's public view has them; the start names the first tile announced)."""
    lab = _Labels(labels)
    placed = view["round"] - 1
    if placed >= 1:
        title = lab.get("label.round", f"{placed}/{view['rounds']}", round=placed, rounds=view["rounds"])
    else:
        tile = view.get("tile")
        title = lab.get("label.announced", "▶") + (f" · {tile['id']}" if tile else "")
    if view.get("games", 1) > 1:
        title = lab.get("label.game", f"{view['game_no']}/{view['games']}", game=view["game_no"],
                        games=view["games"]) + " · " + title
    return render_final({**view, "final": None}, names, labels, title=title)
