"""Range ta Ludothèque pictures: a kallax sheet, the round's dice, the final sheets.

Pure functions of an engine view (``engines.ranta`` ``view(state, seat)``). Words
come from the caller: ``labels`` maps catalog keys (without the ``ranta.`` prefix,
see :data:`LABEL_KEYS`) to already translated templates; build it with
``{k: i18n.t("ranta." + k, lang) for k in LABEL_KEYS}``. Without labels the
pictures fall back to language-neutral letters, symbols and numbers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import catalog
from render.common import (
    HIGHLIGHT,
    MUTED,
    PANEL,
    TEXT,
    canvas,
    encode_png,
    font,
    seat_colour,
    words,
)
from render.common import fit as _fit

PHONE_WIDTH, PHONE_MIN_PX = 360, 11

CATEGORIES = ("T", "A", "C", "P", "F", "R")
MECHANICS = ("bluff", "deduction", "deck_building", "programming", "memory", "secret_role")
RULES = ("category_group", "mechanic_group", "empty_cells", "full_cubby",
         *(f"category_{c}" for c in CATEGORIES), *(f"mechanic_{m}" for m in MECHANICS))

#: Every catalog key (under ``ranta.``) a renderer may use; pass them translated as ``labels``.
LABEL_KEYS: tuple[str, ...] = (
    "meta.lang",
    *(f"category.{c}" for c in CATEGORIES),
    *(f"code.{c}" for c in CATEGORIES),
    *(f"mechanic.{m}" for m in MECHANICS),
    *(f"rule.{r}" for r in RULES),
    "mode.classique", "mode.expert",
    "label.round", "label.total", "label.size", "label.category", "label.mechanic", "label.mat",
    "label.hidden", "label.preview", "label.preview_mat", "label.final", "label.dice", "label.cells",
)

CATEGORY_COLOURS = {
    "T": (175, 115, 205),  # puzzle: purple (light enough for INK letters, 5 : 1)
    "A": (230, 126, 34),   # dexterity: orange
    "C": (52, 152, 219),   # cards: blue
    "P": (39, 174, 96),    # board: green
    "F": (231, 76, 60),    # miniatures: red
    "R": (26, 188, 156),   # role-playing: teal
}
WOOD = (214, 186, 140)
WOOD_DARK = (150, 118, 76)
INSIDE = (36, 38, 43)
GRID = (70, 74, 82)
MAT_FILL = (92, 104, 88)
MAT_HATCH = (150, 165, 140)
INK = (25, 25, 30)
PREVIEW_FILL = (92, 76, 22)  # the cells a preview takes: HIGHLIGHT on it keeps 5.7 : 1
LOSS = (255, 150, 140)  # a negative score on PANEL


class _Labels:
    def __init__(self, labels: Mapping[str, str] | None) -> None:
        self.labels = dict(labels or {})
        self.lang = self.labels.get("meta.lang")  # the labels' language: plurals are chosen in it

    def get(self, key: str, fallback: str = "", **params: Any) -> str:
        template = self.labels.get(key)
        if template is None:
            return fallback
        if self.lang and params and catalog.selects("ranta", self.lang, key):
            text = catalog.message("ranta", self.lang, key, **params)  # « 1 case vide », « 0 point »
            if text is not None:
                return text
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            return template

    def code(self, category: str | None) -> str:
        """The letter drawn for a category: its initial in the picture's language (T/A/C/P/F/R in French)."""
        if not category:
            return ""
        return self.labels.get(f"code.{category}") or category


def _darker(colour: tuple[int, int, int], f: float = 0.55) -> tuple[int, int, int]:
    return (int(colour[0] * f), int(colour[1] * f), int(colour[2] * f))


@lru_cache(maxsize=8)
def _hatch(size: int) -> Image.Image:
    tile, d = canvas(size, size, MAT_FILL)
    step = max(6, size // 6)
    for k in range(-size, size, step):
        d.line([(k, size), (k + size, 0)], fill=MAT_HATCH, width=2)
    return tile


class _Kallax:
    """Pixel geometry of one drawn kallax (``cell`` px per cell, ``wall`` px walls)."""

    def __init__(self, sheet: Mapping[str, Any], cell: int, wall: int) -> None:
        self.columns = sheet["columns"]
        self.cols = len(self.columns)
        self.rows = sheet["rows"]
        self.cubbies = sheet["cubbies"]
        self.cell, self.wall = cell, wall
        self.col_walls = sorted({c["x"] for c in self.cubbies if c["x"] > 0})
        self.row_walls = sorted({c["y"] for c in self.cubbies if c["y"] > 0})
        self.width = self.cols * cell + wall * (len(self.col_walls) + 2)
        self.height = self.rows * cell + wall * (len(self.row_walls) + 2)
        self.names = {f"{self.columns[x]}{y + 1}": (x, y) for x in range(self.cols) for y in range(self.rows)}

    def rect(self, ox: int, oy: int, x: int, y: int) -> tuple[int, int, int, int]:
        left = ox + self.wall + x * self.cell + self.wall * sum(1 for b in self.col_walls if b <= x)
        bottom = oy + self.height - self.wall - y * self.cell - self.wall * sum(1 for b in self.row_walls if b <= y)
        return left, bottom - self.cell, left + self.cell, bottom

    def span(self, ox: int, oy: int, names: Sequence[str]) -> tuple[int, int, int, int] | None:
        cells = [self.names[n.upper()] for n in names if n.upper() in self.names]
        if not cells:
            return None
        rects = [self.rect(ox, oy, x, y) for x, y in cells]
        return (min(r[0] for r in rects), min(r[1] for r in rects),
                max(r[2] for r in rects), max(r[3] for r in rects))


def _draw_box_face(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], category: str | None,
                   symbol: str | None, cell: int, ink=INK) -> None:
    x0, t, r, b = box
    cx, cy = (x0 + r) / 2, (t + b) / 2
    big = font(max(12, int(cell * 0.42)), True)
    sym = font(max(11, int(cell * 0.36)))
    letter = category or ""
    symbol = symbol or ""
    if r - x0 >= b - t:  # wide: side by side
        gap = cell * 0.28
        draw.text((cx - gap, cy), letter, font=big, fill=ink, anchor="mm")
        draw.text((cx + gap, cy), symbol, font=sym, fill=ink, anchor="mm")
    else:
        gap = cell * 0.26
        draw.text((cx, cy - gap), letter, font=big, fill=ink, anchor="mm")
        draw.text((cx, cy + gap), symbol, font=sym, fill=ink, anchor="mm")


def _draw_kallax(img: Image.Image, draw: ImageDraw.ImageDraw, k: _Kallax, ox: int, oy: int,
                 items: Sequence[Mapping[str, Any]], current_round: int | None,
                 preview: Mapping[str, Any] | None, show_names: bool, lab: _Labels | None = None) -> None:
    lab = lab or _Labels(None)
    cell = k.cell
    draw.rectangle([ox, oy, ox + k.width - 1, oy + k.height - 1], fill=WOOD, outline=WOOD_DARK, width=2)
    name_font = font(max(10, int(cell * 0.25)))
    filled: set[str] = {n.upper() for it in items for n in it["cells"]}
    for cub in k.cubbies:
        x0, _, _, b = k.rect(ox, oy, cub["x"], cub["y"])
        _, t, r, _ = k.rect(ox, oy, cub["x"] + cub["w"] - 1, cub["y"] + cub["h"] - 1)
        draw.rectangle([x0, t, r - 1, b - 1], fill=INSIDE)
        # the cubby's shelf (tablette): a darker lip under its bottom row
        draw.rectangle([x0 - 2, b, r + 1, b + max(3, k.wall // 3)], fill=WOOD_DARK)
        for i in range(1, cub["w"]):
            x = x0 + i * cell
            draw.line([(x, t), (x, b - 1)], fill=GRID, width=1)
        for j in range(1, cub["h"]):
            y = b - j * cell
            draw.line([(x0, y), (r - 1, y)], fill=GRID, width=1)
    if show_names:
        for name, (x, y) in k.names.items():
            if name not in filled:
                x0, t, r, b = k.rect(ox, oy, x, y)
                draw.text(((x0 + r) / 2, (t + b) / 2), name, font=name_font, fill=MUTED, anchor="mm")
    inset = max(2, cell // 24)
    staged = {n.upper() for n in preview.get("cells", ())} if preview else set()
    for it in items:
        if staged and {n.upper() for n in it["cells"]} == staged:
            continue  # the previewed box itself (a preview's sheet holds it): drawn as the preview, below
        box = k.span(ox, oy, it["cells"])
        if box is None:
            continue
        x0, t, r, b = box
        fresh = current_round is not None and it.get("round") == current_round
        if it.get("kind") == "mat":
            size = r - x0 - 2 * inset
            img.paste(_hatch(size), (x0 + inset, t + inset))
            draw.rectangle([x0 + inset, t + inset, r - inset - 1, b - inset - 1],
                           outline=HIGHLIGHT if fresh else MAT_HATCH, width=3 if fresh else 2)
            continue
        colour = CATEGORY_COLOURS.get(it.get("category") or "", (180, 180, 180))
        draw.rounded_rectangle([x0 + inset, t + inset, r - inset - 1, b - inset - 1], radius=max(3, cell // 12),
                               fill=colour, outline=HIGHLIGHT if fresh else _darker(colour),
                               width=max(3, cell // 22) if fresh else max(2, cell // 30))
        _draw_box_face(draw, box, lab.code(it.get("category")), it.get("symbol"), cell)
    if preview:
        for name in preview.get("cells", ()):
            if name.upper() not in k.names:
                continue
            x0, t, r, b = k.rect(ox, oy, *k.names[name.upper()])
            face = bool(preview.get("category") or preview.get("symbol"))  # a box: one frame, drawn below
            draw.rectangle([x0 + 1, t + 1, r - 2, b - 2], fill=PREVIEW_FILL, outline=None if face else HIGHLIGHT,
                           width=4)
        box = k.span(ox, oy, preview.get("cells", ()))
        if box is not None:
            if preview.get("category") or preview.get("symbol"):  # one frame, off the letters drawn in it
                draw.rectangle([box[0] + 1, box[1] + 1, box[2] - 2, box[3] - 2], outline=HIGHLIGHT, width=4)
                _draw_box_face(draw, box, lab.code(preview.get("category")), preview.get("symbol"), cell,
                               ink=HIGHLIGHT)
            if k.cell >= 60:
                for name in preview.get("cells", ()):
                    if name.upper() in k.names:
                        x0, t, r, b = k.rect(ox, oy, *k.names[name.upper()])
                        draw.text((x0 + 8, t + 7), name.upper(), font=name_font, fill=HIGHLIGHT)


def _draw_axes(draw: ImageDraw.ImageDraw, k: _Kallax, ox: int, oy: int, size: int) -> None:
    fnt = font(size, True)
    for x in range(k.cols):
        x0, _, r, b = k.rect(ox, oy, x, 0)
        draw.text(((x0 + r) / 2, oy + k.height + size * 0.8), k.columns[x], font=fnt, fill=TEXT, anchor="mm")
    for y in range(k.rows):
        _, t, _, b = k.rect(ox, oy, 0, y)
        draw.text((ox - size * 0.8, (t + b) / 2), str(y + 1), font=fnt, fill=TEXT, anchor="mm")


def _rule_icon(entry: Mapping[str, Any], lab: _Labels) -> tuple[str, tuple[int, int, int] | None]:
    """(text, badge colour) standing for a breakdown rule: a symbol, or a category's letter as the
    kallax draws it in the picture's language (« D » for a dexterity game in English, not « A »)."""
    rule = entry["rule"]
    detail = entry.get("detail", {})
    if rule == "empty_cells":
        return "\u25a1", None
    if rule == "full_cubby":
        return "\u25a6", None
    if "category" in detail:
        return lab.code(detail["category"]), CATEGORY_COLOURS.get(detail["category"])
    return SYMBOLS.get(detail.get("mechanic", ""), "?"), None


SYMBOLS = {"bluff": "\u263e", "deduction": "\u2606", "deck_building": "\u2663", "programming": "\u2699",
           "memory": "\u2665", "secret_role": "\u2620"}


def _rule_text(entry: Mapping[str, Any], lab: _Labels) -> str:
    detail = dict(entry.get("detail", {}))
    rule = entry["rule"]
    if "category" in detail:
        detail["name"] = lab.get(f"category.{detail['category']}", detail["category"])
    elif "mechanic" in detail:
        detail["name"] = lab.get(f"mechanic.{detail['mechanic']}", detail["mechanic"])
    fallback = {
        "category_group": "{games}", "mechanic_group": "{games}", "empty_cells": "{empty}",
        "full_cubby": "#{cubby}",
    }.get(rule, "")
    if f"rule.{rule}" in lab.labels:
        return lab.get(f"rule.{rule}", fallback, **detail)  # « 1 case vide »: the catalog's plural
    try:
        return fallback.format(**detail)
    except (KeyError, IndexError, ValueError):
        return fallback


def _draw_breakdown(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, breakdown: Sequence[Mapping],
                    total: int, lab: _Labels, size: int) -> int:
    """Draw the breakdown lines from (x, y); returns the y below the last line."""
    line = int(size * 1.5)
    pts_font = font(size, True)
    badge = int(size * 1.3)
    for entry in breakdown:
        icon, colour = _rule_icon(entry, lab)
        cy = y + line / 2
        if colour:
            draw.rounded_rectangle([x, cy - badge / 2, x + badge, cy + badge / 2], radius=4, fill=colour)
            draw.text((x + badge / 2, cy), icon, font=font(size, True), fill=INK, anchor="mm")
        else:
            draw.text((x + badge / 2, cy), icon, font=font(size), fill=TEXT, anchor="mm")
        pts = entry["points"]
        pts_text = f"{pts:+d}" if pts else "0"
        pts_w = draw.textlength("+00", font=pts_font)
        text = _rule_text(entry, lab)
        text_font = font(size)  # shortened rather than shrunk: it stays readable on a phone
        draw.text((x + badge + 8, cy), _fit(text, text_font, int(width - badge - pts_w - 18)), font=text_font,
                  fill=TEXT, anchor="lm")
        draw.text((x + width, cy), pts_text, font=pts_font,
                  fill=(120, 220, 130) if pts > 0 else LOSS if pts < 0 else MUTED, anchor="rm")
        y += line
    draw.line([(x, y + 3), (x + width, y + 3)], fill=MUTED, width=1)
    y += 6
    big = font(int(size * 1.2), True)
    draw.text((x, y + line / 2), lab.get("label.total", "\u03a3"), font=big, fill=TEXT, anchor="lm")
    draw.text((x + width, y + line / 2), str(total), font=big, fill=HIGHLIGHT, anchor="rm")
    return y + line


def _preview_dict(preview: Any) -> dict[str, Any] | None:
    if preview is None:
        return None
    if isinstance(preview, Mapping):
        d = dict(preview)
        if d.get("mechanic") and not d.get("symbol"):
            d["symbol"] = SYMBOLS.get(d["mechanic"])
        d["cells"] = list(d.get("cells", ()))
        return d
    return {"cells": list(preview)}


def _name(names: Sequence[str] | None, seat: int) -> str:
    if names and 0 <= seat < len(names):
        return str(names[seat])
    return f"#{seat + 1}"


def _wrap(draw: ImageDraw.ImageDraw, text: str, fnt, width: int) -> list[str]:
    lines: list[str] = []
    for word in words(text):
        if lines and draw.textlength(lines[-1] + " " + word, font=fnt) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def render_sheet(view: Mapping[str, Any], seat: int, names: Sequence[str] | None = None,
                 preview: Sequence[str] | Mapping[str, Any] | None = None,
                 labels: Mapping[str, str] | None = None, hits: dict[str, list] | None = None) -> bytes:
    """One player's kallax as seen in ``view``: cubbies, cell names, boxes, mats, score breakdown.

    ``preview`` highlights a proposed placement: a list of cell names, or a dict
    ``{"cells": [...], "category": "C", "mechanic": "bluff"}`` (letter and symbol drawn too).
    The seat's own box of the current round (only in that seat's view) is outlined in yellow.
    ``hits`` receives every cell's square (``cell:A1`` → its polygon, in the picture's pixels).
    """
    lab = _Labels(labels)
    sheet_view = view["sheets"][seat]
    k = _Kallax(view["sheet"], cell=88, wall=12)
    # phone-sized: the score breakdown and the legend go under the kallax (text ≥ 20 px at ≈ 630 px)
    left, top = 44, 112
    width = left + k.width + 24
    small = font(20)
    img, draw = canvas(width, top + k.height + 1400)
    # header: the name, then the mode and the round
    colour = seat_colour(seat)
    draw.rectangle([0, 0, width, 8], fill=colour)
    title_font = font(34, True)
    draw.text((24, 44), _fit(_name(names, seat), title_font, width - 48), font=title_font, fill=TEXT, anchor="lm")
    mode = view.get("mode", "")
    sub = " \u00b7 ".join(s for s in (lab.get(f"mode.{mode}", mode),
                                       lab.get("label.round", f"{view['round']}/{view['rounds']}",
                                               round=view["round"], rounds=view["rounds"])) if s)
    draw.text((24, 84), _fit(sub, font(22), width - 48), font=font(22), fill=MUTED, anchor="lm")
    current = None if view.get("finished") else view.get("round")
    pv = _preview_dict(preview)
    _draw_kallax(img, draw, k, left, top, sheet_view["items"], current, pv, True, lab)
    if hits is not None:
        for name, (cx, cy) in k.names.items():
            x0, t, r, b = k.rect(left, top, cx, cy)
            hits["cell:" + name] = [(x0, t), (r, t), (r, b), (x0, b)]
    _draw_axes(draw, k, left, top, 22)
    # a note under the grid: the preview, or the reminder that this round's box is still secret
    y = top + k.height + 36
    note = None
    if pv and pv.get("cells"):
        boxed = bool(pv.get("category") or pv.get("symbol"))  # a box; a mat has neither
        note = "\u25a0 " + lab.get("label.preview" if boxed else "label.preview_mat", " ".join(pv["cells"]))
    elif current is not None and any(it.get("round") == current for it in sheet_view["items"]):
        note = "\u25a1 " + lab.get("label.hidden", str(current))
    if note:
        for line in _wrap(draw, note, small, width - 48)[:3]:
            draw.text((24, y + 12), line, font=small, fill=HIGHLIGHT, anchor="lm")
            y += 28
        y += 8
    # under it: breakdown, then the legend
    px = 28
    inner = width - 2 * px
    row = 30
    _, probe = canvas(width, 4000)  # how tall the breakdown is, for the panel behind it
    end = _draw_breakdown(probe, px, y + 10, inner, sheet_view["breakdown"], sheet_view["score"], lab, 22)
    panel_bottom = end + 14 + 6 * row + 8 + row + 8
    draw.rounded_rectangle([10, y, width - 10, panel_bottom], radius=10, fill=PANEL)
    y = _draw_breakdown(draw, px, y + 10, inner, sheet_view["breakdown"], sheet_view["score"], lab, 22)
    y += 14
    half = inner // 2
    for i, cat in enumerate(CATEGORIES):
        cy = y + i * row + row / 2
        draw.rounded_rectangle([px, cy - 12, px + 26, cy + 12], radius=4, fill=CATEGORY_COLOURS[cat])
        draw.text((px + 13, cy), lab.code(cat), font=font(20, True), fill=INK, anchor="mm")
        name = lab.get(f"category.{cat}", "")
        draw.text((px + 34, cy), _fit(name, small, half - 40), font=small, fill=MUTED, anchor="lm")
    mx = px + half
    for i, mech in enumerate(MECHANICS):
        cy = y + i * row + row / 2
        draw.text((mx + 13, cy), SYMBOLS[mech], font=font(22), fill=TEXT, anchor="mm")
        name = lab.get(f"mechanic.{mech}", "")
        draw.text((mx + 34, cy), _fit(name, small, half - 36), font=small, fill=MUTED, anchor="lm")
    y += 6 * row + 8
    cy = y + row / 2
    img.paste(_hatch(24), (px, int(cy - 12)))
    draw.text((px + 34, cy), _fit(lab.get("label.mat", ""), small, inner - 34), font=small, fill=MUTED, anchor="lm")
    y += row + 8
    img = img.crop((0, 0, width, panel_bottom + 14))
    return encode_png(img)


def _draw_pips(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], face: int) -> None:
    x0, t, r, b = box
    draw.rounded_rectangle(box, radius=(r - x0) // 6, fill=(245, 245, 240), outline=(200, 200, 195), width=3)
    s = (r - x0) / 4
    spots = {1: [(2, 2)], 2: [(1, 1), (3, 3)], 3: [(1, 1), (2, 2), (3, 3)], 4: [(1, 1), (3, 1), (1, 3), (3, 3)],
             5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)], 6: [(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)]}
    rad = (r - x0) / 11
    for i, j in spots.get(face, []):
        cx, cy = x0 + i * s, t + j * s
        draw.ellipse([cx - rad, cy - rad, cx + rad, cy + rad], fill=INK)


def _draw_shape(draw: ImageDraw.ImageDraw, cx: float, cy: float, w: int, h: int, unit: int) -> None:
    """A mini box of w x h cells centred on (cx, cy)."""
    x0, t = cx - w * unit / 2, cy - h * unit / 2
    draw.rectangle([x0, t, x0 + w * unit, t + h * unit], fill=(200, 200, 200))
    for i in range(w):
        for j in range(h):
            draw.rectangle([x0 + i * unit, t + j * unit, x0 + (i + 1) * unit, t + (j + 1) * unit],
                           outline=INK, width=2)


def render_dice(view: Mapping[str, Any], labels: Mapping[str, str] | None = None,
                hits: dict[str, list] | None = None) -> bytes:
    """The round's three dice, each with what its face means as size, category and mechanic. A
    category's letter is the one the kallax's legend and boxes show (:meth:`_Labels.code`); a name
    too long for its column is wrapped (« Role-playing / game »), never cut. ``hits`` receives every
    die's column (``die:0`` → its polygon, in the picture's pixels)."""
    lab = _Labels(labels)
    dice = view["dice_meaning"]
    col_w, head = 210, 70  # three narrow columns: the picture stays phone-sized (text ≥ 22 px at 670 px)
    caption = font(22)
    line_h = 24
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    cats = [_wrap(probe, lab.get(f"category.{d['category']}", ""), caption, col_w - 24) for d in dice]
    mechs = [_wrap(probe, lab.get(f"mechanic.{d['mechanic']}", ""), caption, col_w - 24) for d in dice]
    more_cat = line_h * max(0, max((len(c) for c in cats), default=1) - 1)  # the extra lines of a wrapped name
    more_mech = line_h * max(0, max((len(m) for m in mechs), default=1) - 1)
    width = col_w * len(dice) + 40
    height = 610 + more_cat + more_mech
    img, draw = canvas(width, height)
    title = lab.get("label.dice", "", round=view["round"], rounds=view["rounds"]) or \
        lab.get("label.round", f"{view['round']}/{view['rounds']}", round=view["round"], rounds=view["rounds"])
    draw.text((width / 2, 38), title, font=font(30, True), fill=TEXT, anchor="mm")
    for i, d in enumerate(dice):
        x0 = 20 + i * col_w
        cx = x0 + col_w / 2
        draw.rounded_rectangle([x0 + 8, head, x0 + col_w - 8, height - 16], radius=12, fill=PANEL)
        if hits is not None:
            hits[f"die:{i}"] = [(x0 + 8, head), (x0 + col_w - 8, head), (x0 + col_w - 8, height - 16),
                                (x0 + 8, height - 16)]
        _draw_pips(draw, (int(cx - 55), head + 18, int(cx + 55), head + 128), d["face"])
        # size
        y = head + 152
        draw.text((cx, y), lab.get("label.size", "\u2b1a"), font=caption, fill=MUTED, anchor="mm")
        _draw_shape(draw, cx - 48, y + 60, d["long"], d["short"], 16)
        _draw_shape(draw, cx + 52, y + 60, d["short"], d["long"], 16)
        draw.text((cx + 2, y + 60), "/", font=font(24), fill=MUTED, anchor="mm")
        # category: the letter of the kallax's legend, on the category's colour
        y = head + 280
        draw.text((cx, y), lab.get("label.category", ""), font=caption, fill=MUTED, anchor="mm")
        cat = d["category"]
        draw.rounded_rectangle([cx - 24, y + 18, cx + 24, y + 66], radius=6, fill=CATEGORY_COLOURS[cat])
        draw.text((cx, y + 42), lab.code(cat), font=font(32, True), fill=INK, anchor="mm")
        for k, line in enumerate(cats[i]):
            draw.text((cx, y + 86 + k * line_h), _fit(line, caption, col_w - 24), font=caption, fill=TEXT,
                      anchor="mm")
        # mechanic
        y = head + 405 + more_cat
        draw.text((cx, y), lab.get("label.mechanic", ""), font=caption, fill=MUTED, anchor="mm")
        draw.text((cx, y + 42), d["symbol"], font=font(40), fill=TEXT, anchor="mm")
        for k, line in enumerate(mechs[i]):
            draw.text((cx, y + 86 + k * line_h), _fit(line, caption, col_w - 24), font=caption, fill=TEXT,
                      anchor="mm")
    return encode_png(img)


def final_order(view: Mapping[str, Any]) -> list[int]:
    """The seats of the final pictures, best rank first."""
    n = len(view["sheets"])
    ranks = (view.get("result") or {}).get("ranks") or [0] * n
    return sorted(range(n), key=lambda s: (ranks[s] or 99, s))


def render_final(view: Mapping[str, Any], names: Sequence[str] | None = None,
                 labels: Mapping[str, str] | None = None, only: int | None = None) -> bytes:
    """Every sheet with its score breakdown, best rank first (rank, name, total, empty cells),
    one under the other: a phone shows one sheet across its width. ``only``: that seat's sheet
    alone (the final message attaches one picture per sheet)."""
    lab = _Labels(labels)
    sheets = view["sheets"]
    n = len(sheets)
    result = view.get("result") or {}
    ranks = result.get("ranks") or [0] * n
    order = final_order(view) if only is None else [only]
    k = _Kallax(view["sheet"], cell=50, wall=8)
    block_w = max(k.width + 80, 420)
    width = block_w + 2 * 12
    small = math.ceil(PHONE_MIN_PX * width / PHONE_WIDTH)  # 11 px high once shown 360 px wide
    lines = max(len(sheets[s]["breakdown"]) for s in order)
    block_h = 60 + k.height + 2 * small + 10 + int(small * 1.5) * (lines + 1) + 30
    mode = view.get("mode", "")
    head_font = font(small + 8, True)
    title_lines = [t for t in (lab.get("label.final", ""), lab.get(f"mode.{mode}", mode)) if t]
    head = 20 + len(title_lines) * (small + 16)
    img, draw = canvas(width, head + len(order) * (block_h + 12))
    for i, line in enumerate(title_lines):
        draw.text((width / 2, 16 + i * (small + 16) + (small + 8) / 2), _fit(line, head_font, width - 24),
                  font=head_font if i == 0 else font(small + 2), fill=TEXT if i == 0 else MUTED, anchor="mm")
    score_font, name_font = font(30, True), font(max(small + 4, 22), True)
    for pos, seat in enumerate(order):
        sheet_view = sheets[seat]
        bx, by = 12, head + pos * (block_h + 12)
        draw.rounded_rectangle([bx, by, bx + block_w, by + block_h], radius=12, fill=PANEL)
        draw.rectangle([bx + 12, by + 10, bx + 20, by + 46], fill=seat_colour(seat))
        rank = ranks[seat]
        label = f"{rank}. {_name(names, seat)}" if rank else _name(names, seat)
        score = str(sheet_view["score"])
        room = block_w - 30 - 28 - int(score_font.getlength(score))
        draw.text((bx + 30, by + 28), _fit(label, name_font, room), font=name_font, fill=TEXT, anchor="lm")
        draw.text((bx + block_w - 16, by + 28), score, font=score_font, fill=HIGHLIGHT, anchor="rm")
        gx = bx + (block_w - k.width) // 2 + small // 2
        gy = by + 56
        _draw_kallax(img, draw, k, gx, gy, sheet_view["items"], None, None, False, lab)
        _draw_axes(draw, k, gx, gy, small)
        _draw_breakdown(draw, bx + 18, gy + k.height + 2 * small + 6, block_w - 36, sheet_view["breakdown"],
                        sheet_view["score"], lab, small)
    return encode_png(img)


#: the replay frame's width: the animation's own (render/animation.py MAX_WIDTH), so nothing is scaled
REPLAY_WIDTH = 480


def render_replay(view: Mapping[str, Any], names: Sequence[str] | None = None,
                  labels: Mapping[str, str] | None = None) -> bytes:
    """A frame of the animated summary (issue 27): the round, its three dice and every kallax as the
    public ``view`` shows it (a box of the current round is not in it until the round closes: the
    engine's public view leaves it out), one under the other with the player's name and running score
    (two a row drew the kallaxes' symbols 8 CSS px high on a phone: issue 36)."""
    lab = _Labels(labels)
    sheets = view["sheets"]
    cols = 1
    pad, gap = 8, 8
    cell_w = (REPLAY_WIDTH - 2 * pad - (cols - 1) * gap) // cols
    probe = _Kallax(view["sheet"], cell=10, wall=2)
    cell = max(8, (cell_w - 16 - 2 * 3 * (len(probe.col_walls) + 2)) // probe.cols)
    k = _Kallax(view["sheet"], cell=cell, wall=3)
    small = 16
    title_h = small + 12
    box_h = title_h + k.height + 8
    die = 34
    header = die + 16
    rows = -(-len(sheets) // cols)
    img, draw = canvas(REPLAY_WIDTH, header + rows * (box_h + gap) + pad)
    fb = font(small, bold=True)
    info = lab.get("label.round", f"{view['round']}/{view['rounds']}", round=view["round"], rounds=view["rounds"])
    x = pad
    for d in view.get("dice_meaning") or ():
        _draw_pips(draw, (x, 8, x + die, 8 + die), d["face"])
        x += die + 6
    draw.text((x + 6, 8 + die / 2), _fit(info, fb, REPLAY_WIDTH - x - 2 * pad), font=fb, fill=TEXT, anchor="lm")
    current = None if view.get("finished") else view.get("round")
    for i, sheet in enumerate(sheets):
        bx = pad + (i % cols) * (cell_w + gap)
        by = header + (i // cols) * (box_h + gap)
        draw.rounded_rectangle([bx, by, bx + cell_w, by + box_h], radius=10, fill=PANEL)
        draw.rectangle([bx + 6, by + 6, bx + 10, by + 6 + small], fill=seat_colour(i))
        score = str(sheet["score"])
        sw = int(fb.getlength(score))
        draw.text((bx + 16, by + 5), _fit(_name(names, i), fb, cell_w - sw - 30), font=fb, fill=TEXT)
        draw.text((bx + cell_w - 8, by + 5), score, font=fb, fill=HIGHLIGHT, anchor="ra")
        _draw_kallax(img, draw, k, bx + (cell_w - k.width) // 2, by + title_h, sheet["items"], current, None,
                     False, lab)
    return encode_png(img)
