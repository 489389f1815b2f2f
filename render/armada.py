"""L'Invincible Armada: the board picture (intersections, ships, pairs, ranges, scores).

``render_board(view, names, lang="fr")`` draws an engine view of ``armada``:
the grid with its points named on every edge (A..K, 1..11), Spanish ships in
red and English ships in white, English pairs linked, the lines made by Spain's
last ship with the points in their range, the last move and capture, pending
capture choices, and a header with the round, who plays which side, captures
and points. Words come from the ``[label]`` table of the game's catalog.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render import catalog
from render.common import BACKGROUND, HIGHLIGHT, MUTED, PANEL, TEXT, canvas, draw_on, encode_png, font

#: Sized for a phone: shown about 360 px wide, the smallest text (20 px) stays 11 px high.
WIDTH = 640
SCALE = 2  # drawn at twice the size, then reduced: smooth circles and lines
SEA = (28, 78, 112)
GRID = (120, 170, 200)
EDGE_LABEL = (200, 225, 240)
SPAIN_FILL = (206, 38, 44)
SPAIN_EDGE = (120, 14, 20)
ENGLAND_FILL = (246, 246, 240)
ENGLAND_EDGE = (60, 64, 72)
PAIR_LINK = (250, 250, 250)
REACH = (255, 120, 110)
CAPTURED = (255, 220, 60)


@lru_cache(maxsize=4)
def labels(lang: str) -> dict[str, str]:
    """The ``[label]`` and ``[side]`` strings of the catalog in ``lang`` (French if unknown)."""
    out = dict(catalog.section("armada", lang, "label"))
    out.update({f"side_{k}": v for k, v in catalog.section("armada", lang, "side").items()})
    return out


def _xy(name: str, columns: str) -> tuple[int, int]:
    return columns.index(name[0]), int(name[1:]) - 1


def render_board(view: dict, names: list[str], lang: str = "fr", previous: bool = False,
                 hits: dict[str, list] | None = None) -> bytes:
    """PNG of the board of ``view``; with ``previous=True``, the final position of the last round.
    ``hits`` receives every point's square (``point:C3`` → its polygon, in the picture's pixels)."""
    img = draw_board(view, names, lang, previous, hits)
    return encode_png(img)


def draw_board(view: dict, names: list[str], lang: str = "fr", previous: bool = False,
               hits: dict[str, list] | None = None) -> Image.Image:
    s = SCALE
    text = labels(lang)
    n = view["size"]
    columns = view["columns"]
    snapshot = view.get("previous_round") if previous else None
    if previous and not snapshot:
        previous = False
    spain = snapshot["spain"] if previous else view["spain"]
    england = snapshot["england"] if previous else view["england"]
    last = (snapshot or {}).get("last_move") if previous else view.get("last_move")

    margin = 62 * s
    header_h = 210 * s
    footer_h = 46 * s
    width = WIDTH * s
    step = (width - 2 * margin) / (n - 1)
    board_top = header_h + margin
    height = board_top + int(step * (n - 1)) + margin + footer_h
    img, draw = canvas(width, height, BACKGROUND, scale=s)

    def at(name: str) -> tuple[float, float]:
        x, y = _xy(name, columns)
        return margin + x * step, board_top + (n - 1 - y) * step

    # --- the sea and its grid ---
    pad = 26 * s  # sea beyond the outer lines, a little more than a ship's radius
    draw.rounded_rectangle((margin - pad, board_top - pad, width - margin + pad,
                            board_top + step * (n - 1) + pad), radius=14 * s, fill=SEA)
    for i in range(n):
        x = margin + i * step
        y = board_top + i * step
        draw.line((x, board_top, x, board_top + step * (n - 1)), fill=GRID, width=max(1, s))
        draw.line((margin, y, width - margin, y), fill=GRID, width=max(1, s))
    label_font = font(20 * s, bold=True)
    for i in range(n):
        x = margin + i * step
        for yy in (board_top - pad - 14 * s, board_top + step * (n - 1) + pad + 14 * s):
            draw.text((x, yy), columns[i], font=label_font, fill=EDGE_LABEL, anchor="mm")
        y = board_top + (n - 1 - i) * step
        for xx in (margin - pad - 18 * s, width - margin + pad + 18 * s):
            draw.text((xx, y), str(i + 1), font=label_font, fill=EDGE_LABEL, anchor="mm")

    radius = step * 0.34
    if hits is not None:  # a point's square: half a step each way, in the reduced picture's pixels
        for i in range(n):
            for j in range(n):
                cx, cy = at(f"{columns[i]}{j + 1}")
                h = step / 2
                hits[f"point:{columns[i]}{j + 1}"] = [((cx + dx * h) / s, (cy + dy * h) / s)
                                                      for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    odraw = draw_on(img, "RGBA", s)  # translucent fills blend onto the board

    # --- ranges of Spain's last lines (current board only) ---
    if not previous:
        for line in view.get("last_lines", []):
            pts = [at(p) for p in line["line"]]
            odraw.line((pts[0], pts[-1]), fill=(*SPAIN_FILL, 150), width=int(radius * 0.9))
            for p in line["reach"]:
                cx, cy = at(p)
                r = radius * 0.55
                odraw.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=r * 0.3,
                                        fill=(*REACH, 90), outline=(*REACH, 230), width=2 * s)
    draw = draw_on(img, None, s)

    # --- last move arrow (move or pivot) ---
    if last and last.get("from") and last.get("to"):
        x0, y0 = at(last["from"])
        x1, y1 = at(last["to"])
        draw.line((x0, y0, x1, y1), fill=HIGHLIGHT, width=3 * s)
        r = radius * 0.35
        draw.ellipse((x0 - r, y0 - r, x0 + r, y0 + r), outline=HIGHLIGHT, width=3 * s)

    # --- English pairs, linked ---
    england_set = set(england)
    pairs = _pairs(england, columns) if previous else [tuple(p) for p in view.get("pairs", [])]
    for a, b in pairs:
        if a in england_set and b in england_set:
            draw.line((at(a), at(b)), fill=ENGLAND_EDGE, width=int(radius * 0.7))
            draw.line((at(a), at(b)), fill=PAIR_LINK, width=int(radius * 0.45))

    # --- ships ---
    for p in spain:
        cx, cy = at(p)
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=SPAIN_FILL,
                     outline=SPAIN_EDGE, width=3 * s)
        r2 = radius * 0.45
        draw.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), outline=(240, 120, 120), width=2 * s)
    for p in england:
        cx, cy = at(p)
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=ENGLAND_FILL,
                     outline=ENGLAND_EDGE, width=3 * s)
        r2 = radius * 0.45
        draw.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), outline=(170, 175, 185), width=2 * s)

    # --- last ship placed, last capture, pending choices ---
    if last:
        dest = last.get("to") or last.get("point")
        if dest:
            cx, cy = at(dest)
            r = radius + 5 * s
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=HIGHLIGHT, width=3 * s)
        if last.get("captured"):
            cx, cy = at(last["captured"])
            r = radius * 0.8
            draw.line((cx - r, cy - r, cx + r, cy + r), fill=CAPTURED, width=5 * s)
            draw.line((cx - r, cy + r, cx + r, cy - r), fill=CAPTURED, width=5 * s)
    if not previous:
        small = font(20 * s, bold=True)
        for p in view.get("pending_captures", []):
            cx, cy = at(p)
            r = radius + 8 * s
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=CAPTURED, width=4 * s)
            tw = draw.textlength(p, font=small)
            box = (cx - tw / 2 - 4 * s, cy - r - 25 * s, cx + tw / 2 + 4 * s, cy - r - 2 * s)
            draw.rounded_rectangle(box, radius=4 * s, fill=BACKGROUND)
            draw.text((cx, (box[1] + box[3]) / 2), p, font=small, fill=CAPTURED, anchor="mm")

    _header(draw, view, names, text, width, header_h, previous, snapshot)
    _footer(draw, view, text, width, height - footer_h, footer_h, previous, last)
    return img.reduce(s)


def _pairs(england: list[str], columns: str) -> list[tuple[str, str]]:
    out = []
    for i, a in enumerate(england):
        ax, ay = _xy(a, columns)
        for b in england[i + 1:]:
            bx, by = _xy(b, columns)
            if max(abs(ax - bx), abs(ay - by)) == 1:
                out.append((a, b))
    return out


def _disc(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, side: str) -> None:
    fill, edge = (SPAIN_FILL, SPAIN_EDGE) if side == "spain" else (ENGLAND_FILL, ENGLAND_EDGE)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=edge, width=2 * SCALE)


def _header(draw, view, names, text, width, height, previous, snapshot) -> None:
    s = SCALE
    draw.rectangle((0, 0, width, height), fill=PANEL)
    title_font = font(24 * s, bold=True)
    body = font(20 * s)
    bold = font(20 * s, bold=True)
    if previous:
        round_no = snapshot["round"]
        title = text["round"].format(round=round_no) + " — " + text["final"]
        sides = {"spain": snapshot["spain_seat"], "england": snapshot["england_seat"]}
        captures = snapshot["captures"]
    else:
        round_no = view["round"]
        title = text["tiebreak"] if view.get("tiebreak") else text["round"].format(round=round_no)
        sides = view["sides"]
        captures = view["captures"]
    draw.text((18 * s, 24 * s), _fit(draw, title, title_font, width - 36 * s), font=title_font, fill=TEXT,
              anchor="lm")
    status = ""
    if previous:
        winner = snapshot.get("winner")
        if winner is not None:
            status = text["winner"].format(name=_name(names, winner))
    elif view.get("finished"):
        winners = view.get("winners") or []
        status = text["winner"].format(name=_name(names, winners[0])) if len(winners) == 1 else text["over"]
    else:
        phase = view.get("phase")
        side = view.get("turn_side")
        if phase == "capture":
            status = text["choose_capture"]
        elif view.get("must_pass"):  # the engine's only legal move is to pass
            status = text["must_pass"]
        elif side == "england" and view["on_board"]["england"] >= view["england_limit"]:
            status = text["must_pivot"]
        elif side == "england" and _must_pair(view):
            status = text["must_pair"]
        elif side == "spain" and view.get("spain_must_move"):
            status = text["must_move"]
    if status:  # under the two sides: a phone-width header has no room beside the title
        status = _fit(draw, status, bold, width - 36 * s)
        draw.text((18 * s, 190 * s), status, font=bold, fill=HIGHLIGHT, anchor="lm")
    to_win = view.get("to_win", 11)
    for row, side in enumerate(("spain", "england")):  # two lines a side: name and score, then the counts
        seat = sides[side]
        y = 66 * s + row * 64 * s
        current = (not previous and not view.get("finished") and view.get("current") == seat)
        if current:
            draw.rounded_rectangle((8 * s, y - 18 * s, width - 8 * s, y + 46 * s), radius=8 * s,
                                   outline=HIGHLIGHT, width=2 * s)
        _disc(draw, 30 * s, y, 11 * s, side)
        score = f"{text['score']} {view['scores'][seat]}"
        room = width - 18 * s - draw.textlength(score, font=bold) - 16 * s - 50 * s
        name = _fit(draw, _name(names, seat), bold, room)
        draw.text((50 * s, y), name, font=bold, fill=HIGHLIGHT if current else TEXT, anchor="lm")
        draw.text((width - 18 * s, y), score, font=bold, fill=TEXT, anchor="rm")
        details = [text[f"side_{side}"], f"{text['captures']} {captures[side]}/{to_win}"]
        if not previous:
            if side == "spain":
                details.append(f"{text['reserve']} {view['reserve']['spain']}")
            else:
                details.append(f"{text['on_board']} {view['on_board']['england']}/{view['england_limit']}")
        line = _fit(draw, "  ·  ".join(details), body, width - 68 * s)
        draw.text((50 * s, y + 28 * s), line, font=body, fill=MUTED, anchor="lm")


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def _must_pair(view: dict) -> bool:
    return (view["on_board"]["england"] == view["england_limit"] - 1
            and len(view.get("free", [])) == view["on_board"]["england"])


def _fit(draw: ImageDraw.ImageDraw, name: str, fnt, limit: float) -> str:
    if draw.textlength(name, font=fnt) <= limit:
        return name
    while name and draw.textlength(name + "…", font=fnt) > limit:
        name = name[:-1]
    return name + "…"


def _footer(draw, view, text, width, top, height, previous, last) -> None:
    s = SCALE
    fnt = font(20 * s, bold=True)
    parts = []
    if last:
        if last.get("from"):
            parts.append(f"{last['from']} → {last['to']}")
        elif last.get("point"):
            parts.append(f"⚓ {last['point']}")
        if last.get("captured"):
            parts.append(f"✕ {last['captured']}")
    if not previous:
        for line in view.get("last_lines", []):
            parts.append(text["range"].format(range=line["range"]) + f" ({line['line'][0]}–{line['line'][-1]})")
    if parts:
        line = _fit(draw, "  ·  ".join(parts[:4]), fnt, width - 24 * s)
        draw.text((width / 2, top + height / 2), line, font=fnt, fill=TEXT, anchor="mm")
