"""Leaderboard and records pictures: a titled table, medals for the podium, one row highlighted.

Pure: labels and rows come in as plain strings (the bot localizes them), PNG bytes go out.
"""

from __future__ import annotations

from collections.abc import Sequence

from render.common import BACKGROUND, HIGHLIGHT, MUTED, PANEL, TEXT, canvas, encode_png, fit, font

#: Sized for a phone: at most 720 px wide, so the smallest text (22 px) shows 11 px high at 360 px.
WIDTH_MIN, WIDTH_MAX = 560, 720
MARGIN = 24
ROW_H = 46
PAD = 16
SMALL = 22
PODIUM = [(212, 175, 55), (192, 192, 192), (232, 160, 90)]  # gold, silver, bronze (4.9 : 1 on the rows)


def _wrap(text: str, fnt, width: float, max_lines: int = 2) -> list[str]:
    """``text`` on at most ``max_lines`` lines of ``width`` px (the last one shortened if needed)."""
    lines: list[str] = []
    words = text.split(" ")
    while words and len(lines) < max_lines:
        line = words.pop(0)
        while words and fnt.getlength(f"{line} {words[0]}") <= width:
            line += " " + words.pop(0)
        lines.append(line)
    if words:
        lines[-1] = lines[-1] + " " + " ".join(words)
    return [fit(line, fnt, width) for line in lines]


def render_table(title: str, subtitle: str, headers: Sequence[str], rows: Sequence[Sequence[str]], *,
                 numeric: Sequence[bool] | None = None, highlight: int | None = None,
                 empty: str = "—", podium: bool = True, flexible: Sequence[int] = (1,),
                 minimum: Sequence[int] = (140,)) -> bytes:
    """A table picture. ``numeric[i]``: right-align column ``i``; ``highlight``: a row index to mark;
    ``flexible``: the columns shortened (down to ``minimum`` px) when the table is too wide.
    Column titles wrap on two lines; the title and the subtitle wrap too (never cut at the edge)."""
    cols = len(headers)
    numeric = list(numeric or [False] * cols)
    head_font, cell_font, bold = font(SMALL, bold=True), font(SMALL), font(SMALL, bold=True)
    head_lines = [_wrap(h, head_font, max(head_font.getlength(w) for w in h.split(" ") or [""])) if h else [""]
                  for h in headers]
    widths = [max(head_font.getlength(line) for line in lines) for lines in head_lines]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], bold.getlength(str(cell)))
    widths = [int(w) + 1 for w in widths]
    natural = sum(widths) + PAD * (cols - 1) + 2 * MARGIN + 2 * 14
    width = max(WIDTH_MIN, min(WIDTH_MAX, natural))
    excess = natural - width
    for col, least in zip(flexible, list(minimum) + [minimum[-1]] * len(flexible), strict=False):
        if excess <= 0:
            break
        cut = min(excess, max(0, widths[col] - least))
        widths[col] -= cut
        excess -= cut
    if excess > 0:  # still too wide: the flexible columns share the rest, never past the edge
        share = -(-excess // len(flexible))
        for col in flexible:
            widths[col] = max(48, widths[col] - share)
    title_font = font(32, bold=True)
    title_lines = _wrap(title, title_font, width - 2 * MARGIN)
    sub_lines = _wrap(subtitle, cell_font, width - 2 * MARGIN)
    head_h = 14 + max(len(lines) for lines in head_lines) * 28
    top = MARGIN + 42 * len(title_lines) + 30 * len(sub_lines) + 14
    body = max(1, len(rows))
    height = top + head_h + body * ROW_H + MARGIN
    img, draw = canvas(width, height, BACKGROUND)
    y = MARGIN
    for line in title_lines:
        draw.text((MARGIN, y), line, font=title_font, fill=TEXT)
        y += 42
    for line in sub_lines:
        draw.text((MARGIN, y), line, font=cell_font, fill=MUTED)
        y += 30
    y = top
    xs, x = [], MARGIN + 14
    for w in widths:
        xs.append(x)
        x += w + PAD
    draw.rounded_rectangle((MARGIN, y, width - MARGIN, y + head_h - 4), radius=8, fill=PANEL)
    for i, lines in enumerate(head_lines):
        first = y + (head_h - 4) / 2 - (len(lines) - 1) * 14
        for k, line in enumerate(lines):
            _cell(draw, xs[i], widths[i], first + 28 * k, line, head_font, MUTED, numeric[i])
    y += head_h
    if not rows:
        for line in _wrap(empty, cell_font, width - 2 * MARGIN - 28):
            draw.text((MARGIN + 14, y + ROW_H / 2), line, font=cell_font, fill=MUTED, anchor="lm")
            y += 30
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
            elif i == flexible[0]:
                fnt = bold
            _cell(draw, xs[i], widths[i], mid, fit(str(cell), fnt, widths[i]), fnt, colour, numeric[i])
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
    """Rank, player, score, mode (the game's options, already worded), date, game number."""
    headers = [labels["rank"], labels["player"], labels["score"], labels.get("mode", "Mode"), labels["date"],
               labels["game"]]
    cells = [[str(r["rank"]), str(r["player"]), str(r["score"]), str(r.get("mode") or "—"), str(r["date"]),
              f"#{r['game']}"] for r in rows]
    return render_table(title, subtitle, headers, cells, numeric=[True, False, True, False, False, True],
                        empty=labels.get("empty", "—"), flexible=(1, 3), minimum=(130, 120))


def render_daily(title: str, subtitle: str, labels: dict[str, str], rows: Sequence[dict],
                 highlight: int | None = None, days: bool = False) -> bytes:
    """A daily challenge's board (issue 37): rank, player, score (and days played, for the week's board).
    ``rows``: dicts with ``rank`` (None: unranked, e.g. the AI's mark or a game not over), ``player``,
    ``score`` (already worded: a number, « abandon », « en cours »), ``days``."""
    headers = [labels["rank"], labels["player"], labels["score"], *([labels["days"]] if days else [])]
    cells = [["—" if r.get("rank") is None else str(r["rank"]), str(r["player"]), str(r["score"]),
              *([str(r.get("days", ""))] if days else [])] for r in rows]
    # the podium's colours go by row: not with the AI's mark among the rows (it has no rank)
    podium = all(r.get("rank") is not None for r in rows[:3])
    return render_table(title, subtitle, headers, cells, numeric=[True, False, True, *([True] if days else [])],
                        highlight=highlight, empty=labels.get("empty", "—"), podium=podium)
