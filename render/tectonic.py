"""Tectonic board picture: a view (engines.tectonic) in, PNG bytes out.

The board is drawn as White sees it: file A on the left, rank 1 at the bottom,
rank 10 at the top; coordinates on all four edges. Regions are shaded stone,
collines are discs, pics triangles (pointing towards their owner's forward),
monts squares; white, black, or red with a rim and dot in the owner's colour.
The last move is highlighted (from: pale yellow, to: yellow with a frame; the
flipped piece framed in red, pieces that came back framed in green). Reserves
and pieces in play sit in a panel on the right, Black's at the top, White's at
the bottom, beside their own side of the board.

The picture is drawn at twice its size and reduced, for smooth shapes.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import ImageDraw

from render import catalog
from render.common import BACKGROUND, HIGHLIGHT, MUTED, PANEL, TEXT, canvas, encode_png, font

S = 2  # supersampling factor
CELL = 64
MARGIN = 36
HEADER = 48
GAP = 16
BOX_H = 292  # a player's box, under the board (two side by side: the picture stays phone-narrow)
SMALL = 22  # the smallest text: 11 px high once the 712 px picture is shown 360 px wide
SIZE = 10
FILES = "ABCDEFGHIJ"

PLAIN = ((236, 224, 196), (226, 212, 182))
STONE = ((158, 136, 110), (148, 126, 101))
GRID = (112, 92, 72)
WHITE_PIECE = (248, 248, 244)
BLACK_PIECE = (34, 34, 38)
RED_PIECE = (206, 42, 42)
FROM_TINT = (244, 232, 150)
TO_TINT = (250, 214, 70)
FLIP_FRAME = (220, 30, 30)
BACK_FRAME = (30, 160, 70)
OWNER = (WHITE_PIECE, BLACK_PIECE)
RIM = ((40, 40, 40), (225, 225, 225))



@lru_cache(maxsize=4)
def _labels(lang: str) -> dict[str, str]:
    return dict(catalog.section("tectonic", lang, "render"))


def _cell_xy(cell: str) -> tuple[int, int]:
    """Top-left pixel (unscaled) of a cell such as ``"B2"``."""
    col = FILES.index(cell[0].upper())
    row = int(cell[1:]) - 1
    return MARGIN + col * CELL, HEADER + MARGIN + (SIZE - 1 - row) * CELL


def _shape(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, fill, outline,
           width: int, forward: int = 1) -> None:
    """A piece outline centred on (cx, cy), already scaled; ``forward`` -1 points a pic down."""
    if kind == "colline":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
    elif kind == "mont":
        q = r * 0.88
        draw.rounded_rectangle((cx - q, cy - q, cx + q, cy + q), radius=r * 0.12, fill=fill,
                               outline=outline, width=width)
    else:
        h = r * 1.05
        tip = (cx, cy - h * forward)
        base = cy + h * 0.8 * forward
        draw.polygon([tip, (cx + h, base), (cx - h, base)], fill=fill, outline=outline, width=width)


def _piece(draw: ImageDraw.ImageDraw, kind: str, owner: int, red: bool, cx: float, cy: float, r: float) -> None:
    forward = 1 if owner == 0 else -1
    if red:
        _shape(draw, kind, cx, cy, r, RED_PIECE, OWNER[owner], 4 * S, forward)
        d = r * 0.22
        draw.ellipse((cx - d, cy - d, cx + d, cy + d), fill=OWNER[owner], outline=RIM[owner], width=S)
    else:
        _shape(draw, kind, cx, cy, r, OWNER[owner], RIM[owner], 3 * S, forward)


def render_board(view: dict[str, Any], names: list[str], labels: dict[str, str] | None = None, *,
                 lang: str = "fr", hits: dict[str, list] | None = None) -> bytes:
    """The public board with regions, coordinates, last move and reserves, as PNG bytes.

    ``names`` are the players' display names in seat order (White, Black).
    ``labels`` overrides the ``[render]`` texts of the catalog ``data/locales/tectonic/<lang>.ftl``
    (keys: reserve, on_board, red, turn, winner, draw, ply, white, black).
    ``hits`` receives every cell's square (``cell:E3`` → its polygon, in the picture's pixels).
    """
    lab = dict(_labels(lang))
    if labels:
        lab.update(labels)
    board_px = SIZE * CELL
    width = MARGIN * 2 + board_px
    height = HEADER + MARGIN * 2 + board_px + BOX_H + GAP
    img, draw = canvas(width * S, height * S, BACKGROUND, scale=S)

    region_cells = {c for r in view.get("regions", {}).values() for c in r["cells"]}
    last = view.get("last_move") or {}
    tint = {}
    if last:
        tint[last["from"]] = FROM_TINT
        tint[last["to"]] = TO_TINT

    # cells
    for row in range(SIZE):
        for col in range(SIZE):
            cell = f"{FILES[col]}{row + 1}"
            x, y = _cell_xy(cell)
            shade = (row + col) % 2
            colour = tint.get(cell) or (STONE[shade] if cell in region_cells else PLAIN[shade])
            draw.rectangle((x * S, y * S, (x + CELL) * S, (y + CELL) * S), fill=colour)
            if hits is not None:
                hits["cell:" + cell] = [(x, y), (x + CELL, y), (x + CELL, y + CELL), (x, y + CELL)]
    for k in range(SIZE + 1):
        x = (MARGIN + k * CELL) * S
        y = (HEADER + MARGIN + k * CELL) * S
        draw.line((x, (HEADER + MARGIN) * S, x, (HEADER + MARGIN + board_px) * S), fill=GRID, width=S)
        draw.line((MARGIN * S, y, (MARGIN + board_px) * S, y), fill=GRID, width=S)
    # region outlines and names
    small = font(SMALL * S, bold=True)
    for name, region in view.get("regions", {}).items():
        cells = set(region["cells"])
        for cell in cells:
            x, y = _cell_xy(cell)
            col, row = FILES.index(cell[0]), int(cell[1:]) - 1
            for dc, dr, seg in ((-1, 0, (x, y, x, y + CELL)), (1, 0, (x + CELL, y, x + CELL, y + CELL)),
                                (0, 1, (x, y, x + CELL, y)), (0, -1, (x, y + CELL, x + CELL, y + CELL))):
                nc, nr = col + dc, row + dr
                neighbour = f"{FILES[nc]}{nr + 1}" if 0 <= nc < SIZE and 0 <= nr < SIZE else None
                if neighbour not in cells:
                    draw.line(tuple(v * S for v in seg), fill=(80, 62, 46), width=3 * S)
        corner = max(cells, key=lambda c: (abs(FILES.index(c[0]) - 4.5) + abs(int(c[1:]) - 5.5)))
        x, y = _cell_xy(corner)
        left = FILES.index(corner[0]) < 5
        top = int(corner[1:]) > 5
        tx = (x + 4) if left else (x + CELL - 4)
        ty = (y + 3) if top else (y + CELL - 3)
        draw.text((tx * S, ty * S), lab.get(f"corner_{name}", name), font=small, fill=(250, 244, 230),
                  anchor=("l" if left else "r") + ("a" if top else "d"), stroke_width=2 * S,
                  stroke_fill=(60, 44, 30))  # a dark halo: the name stays readable on any stone
    # last-move frames
    frames = []
    if last:
        frames.append((last["to"], HIGHLIGHT, 3))
        if last.get("flip"):
            frames.append((last["flip"], FLIP_FRAME, 4))
        for cell in list(last.get("recoloured", [])) + list(last.get("substituted", [])):
            frames.append((cell, BACK_FRAME, 4))
    for cell, colour, w in frames:
        x, y = _cell_xy(cell)
        draw.rectangle(((x + 2) * S, (y + 2) * S, (x + CELL - 2) * S, (y + CELL - 2) * S), outline=colour,
                       width=w * S)
    if last:  # a thin arrow from -> to
        fx, fy = _cell_xy(last["from"])
        tx, ty = _cell_xy(last["to"])
        draw.line(((fx + CELL / 2) * S, (fy + CELL / 2) * S, (tx + CELL / 2) * S, (ty + CELL / 2) * S),
                  fill=(200, 150, 20), width=3 * S)
        d = 5
        draw.ellipse(((fx + CELL / 2 - d) * S, (fy + CELL / 2 - d) * S, (fx + CELL / 2 + d) * S,
                      (fy + CELL / 2 + d) * S), fill=(200, 150, 20))
    # pieces
    radius = CELL * 0.34 * S
    for p in view.get("pieces", []):
        x, y = _cell_xy(p["cell"])
        _piece(draw, p["piece"], p["owner"], p["red"], (x + CELL / 2) * S, (y + CELL / 2) * S, radius)
    # coordinates
    coord = font(SMALL * S, bold=True)
    top, bottom = HEADER + MARGIN, HEADER + MARGIN + board_px
    for k in range(SIZE):
        cx = (MARGIN + k * CELL + CELL / 2) * S
        draw.text((cx, (top - MARGIN / 2) * S), FILES[k], font=coord, fill=TEXT, anchor="mm")
        draw.text((cx, (bottom + MARGIN / 2) * S), FILES[k], font=coord, fill=TEXT, anchor="mm")
        cy = (top + (SIZE - 1 - k) * CELL + CELL / 2) * S
        draw.text((MARGIN / 2 * S, cy), str(k + 1), font=coord, fill=TEXT, anchor="mm")
        draw.text(((MARGIN * 1.5 + board_px) * S, cy), str(k + 1), font=coord, fill=TEXT, anchor="mm")

    # header: move number and the last move
    head = font(24 * S, bold=True)
    text = lab.get("ply", "{n}").format(n=view.get("ply", 0))
    if last:
        move = f"{last['from']} → {last['to']}"
        if last.get("flip"):
            move += f"  ✕ {last['flip']}"
        text += f"  ·  {move}"
    draw.text((MARGIN * S, HEADER / 2 * S), text, font=head, fill=TEXT, anchor="lm")
    if view.get("finished") and view.get("winner") is None:
        draw.text(((MARGIN + board_px) * S, HEADER / 2 * S), lab.get("draw", "="), font=head, fill=HIGHLIGHT,
                  anchor="rm")

    # the players' boxes under the board: White on the left, Black on the right
    box_w = (width - 3 * 12) // 2
    box_y = HEADER + MARGIN * 2 + board_px
    for seat in (0, 1):
        _player_box(draw, view, names, lab, seat, 12 + seat * (box_w + 12), box_y, box_w, BOX_H)

    out = img.reduce(S)
    return encode_png(out)


def _player_box(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], lab: dict[str, str],
                seat: int, x: int, y: int, w: int, h: int) -> None:
    current = view.get("current") == seat
    winner = view.get("finished") and view.get("winner") == seat
    outline = HIGHLIGHT if current or winner else PANEL
    draw.rounded_rectangle((x * S, y * S, (x + w) * S, (y + h) * S), radius=10 * S, fill=PANEL,
                           outline=outline, width=3 * S)
    # name line with a colour token
    _piece(draw, "colline", seat, False, (x + 22) * S, (y + 26) * S, 12 * S)
    name = names[seat] if seat < len(names) else lab.get("white" if seat == 0 else "black", str(seat))
    name_font = font(24 * S, bold=True)
    while len(name) > 3 and draw.textlength(name, font=name_font) > (w - 52) * S:
        name = name[:-2] + "…"
    draw.text(((x + 42) * S, (y + 26) * S), name, font=name_font, fill=TEXT, anchor="lm")
    colour = lab.get("white" if seat == 0 else "black", "")
    status = colour
    if winner:
        status = f"★ {lab.get('winner', '')}  ·  {colour}"
    elif current:
        status = f"▶ {lab.get('turn', '')}  ·  {colour}"
    status_font = font(SMALL * S, bold=current or bool(winner))
    while len(status) > 3 and draw.textlength(status, font=status_font) > (w - 52) * S:
        status = status[:-2] + "…"
    draw.text(((x + 42) * S, (y + 58) * S), status, font=status_font,
              fill=HIGHLIGHT if current or winner else MUTED, anchor="lm")
    kinds = ("colline", "pic", "mont")
    rows = ((lab.get("reserve", ""), "reserves", False), (lab.get("on_board", ""), "on_board", False),
            (lab.get("red", ""), "red", True))
    label_font = font(SMALL * S)
    count_font = font(24 * S, bold=True)
    yy = y + 92
    step = (w - 28) // 3
    for title, key, red in rows:
        counts = (view.get(key) or [{}, {}])[seat] or {}
        draw.text(((x + 14) * S, yy * S), title, font=label_font, fill=MUTED, anchor="lm")
        for k, kind in enumerate(kinds):
            n = counts.get(kind, 0)
            cx = x + 30 + k * step
            cy = yy + 30
            _mini(draw, kind, seat, red, cx * S, cy * S, 13 * S, bool(n))
            draw.text(((cx + 20) * S, cy * S), f"×{n}", font=count_font, fill=TEXT if n else MUTED, anchor="lm")
        yy += 66


def _mini(draw: ImageDraw.ImageDraw, kind: str, owner: int, red: bool, cx: float, cy: float, r: float,
          present: bool) -> None:
    if present:
        _piece(draw, kind, owner, red, cx, cy, r)
    else:  # none left: a hollow outline
        _shape(draw, kind, cx, cy, r, None, MUTED, 2 * S, 1 if owner == 0 else -1)
