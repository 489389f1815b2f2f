"""Leaderboard and records pictures: a titled table, medals for the podium, one row highlighted.

Pure: labels and rows come in as plain strings (the bot localizes them), PNG bytes go out.
"""

from __future__ import annotations

from collections.abc import Sequence

from render.common import BACKGROUND, HIGHLIGHT, MUTED, PANEL, TEXT, canvas, encode_png, font, text_size

WIDTH_MIN, WIDTH_MAX = 640, 1000
MARGIN = 28
ROW_H = 44
PAD = 22
PODIUM = [(212, 175, 55), (192, 192, 192), (205, 127, 50)]  # gold, silver, bronze


def _fit(draw, text: str, fnt, width: int) -> str:
    if text_size(draw, text, fnt)[0] <= width:
        return text
    while text and text_size(draw, text + "…", fnt)[0] > width:
        text = text[:-1]
    return text + "…"


def render_table(title: str, subtitle: str, headers: Sequence[str], rows: Sequence[Sequence[str]], *,
                 numeric: Sequence[bool] | None = None, highlight: int | None = None,
                 empty: str = "—", podium: bool = True) -> bytes:
    """A table picture. ``numeric[i]``: right-align column ``i``; ``highlight``: a row index to mark."""
    cols = len(headers)
    numeric = list(numeric or [False] * cols)
    head_font, cell_font, bold = font(20, bold=True), font(22), font(22, bold=True)
    _, probe = canvas(10, 10)
    widths = [text_size(probe, h, head_font)[0] for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], text_size(probe, str(cell), bold)[0])
    name_col = 1 if cols > 1 else 0
    natural = sum(widths) + PAD * (cols - 1) + 2 * MARGIN + 2 * 16
    width = max(WIDTH_MIN, min(WIDTH_MAX, natural))
    if natural > width:  # shrink the name column to fit
        widths[name_col] = max(120, widths[name_col] - (natural - width))
    body = max(1, len(rows))
    height = MARGIN + 48 + 34 + 16 + ROW_H + body * ROW_H + MARGIN
    img, draw = canvas(width, height, BACKGROUND)
    draw.text((MARGIN, MARGIN), title, font=font(32, bold=True), fill=TEXT)
    draw.text((MARGIN, MARGIN + 48), subtitle, font=font(20), fill=MUTED)
    y = MARGIN + 48 + 34 + 16
    xs, x = [], MARGIN + 16
    for w in widths:
        xs.append(x)
        x += w + PAD
    draw.rounded_rectangle((MARGIN, y, width - MARGIN, y + ROW_H - 4), radius=8, fill=PANEL)
    for i, h in enumerate(headers):
        _cell(draw, xs[i], widths[i], y + (ROW_H - 4) / 2, h, head_font, MUTED, numeric[i])
    y += ROW_H
    if not rows:
        draw.text((MARGIN + 16, y + ROW_H / 2), empty, font=cell_font, fill=MUTED, anchor="lm")
    for r, row in enumerate(rows):
        mid = y + (ROW_H - 4) / 2
        if r == highlight:
            draw.rounded_rectangle((MARGIN, y, width - MARGIN, y + ROW_H - 4), radius=8, outline=HIGHLIGHT,
                                   width=2)
        elif r % 2:
            draw.rounded_rectangle((MARGIN, y, width - MARGIN, y + ROW_H - 4), radius=8, fill=(54, 57, 63))
        for i, cell in enumerate(row):
            colour = TEXT
            fnt = cell_font
            if i == 0 and podium and r < 3 and str(cell).strip():
                colour, fnt = PODIUM[r], bold
            elif i == name_col:
                fnt = bold
            _cell(draw, xs[i], widths[i], mid, _fit(draw, str(cell), fnt, widths[i]), fnt, colour, numeric[i])
        y += ROW_H
    return encode_png(img)


def _cell(draw, x: int, width: int, mid: float, text: str, fnt, fill, right: bool) -> None:
    if right:
        draw.text((x + width, mid), text, font=fnt, fill=fill, anchor="rm")
    else:
        draw.text((x, mid), text, font=fnt, fill=fill, anchor="lm")


def render_leaderboard(title: str, subtitle: str, labels: dict[str, str], rows: Sequence[dict],
                       highlight: int | None = None) -> bytes:
    """Rank, player, rating, games, wins, best score. ``rows``: dicts with those keys (already strings/ints)."""
    headers = [labels["rank"], labels["player"], labels["rating"], labels["games"], labels["wins"], labels["best"]]
    cells = [[str(r["rank"]), str(r["player"]), str(r["rating"]), str(r["games"]), str(r["wins"]),
              "—" if r.get("best") is None else str(r["best"])] for r in rows]
    return render_table(title, subtitle, headers, cells, numeric=[True, False, True, True, True, True],
                        highlight=highlight, empty=labels.get("empty", "—"))


def render_records(title: str, subtitle: str, labels: dict[str, str], rows: Sequence[dict]) -> bytes:
    """Rank, player, score, date, game number."""
    headers = [labels["rank"], labels["player"], labels["score"], labels["date"], labels["game"]]
    cells = [[str(r["rank"]), str(r["player"]), str(r["score"]), str(r["date"]), f"#{r['game']}"] for r in rows]
    return render_table(title, subtitle, headers, cells, numeric=[True, False, True, False, True],
                        empty=labels.get("empty", "—"))
