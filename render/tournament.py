"""A tournament's standings card: rank, player, points and the tie-breaks, the podium in medal colours.

Pure: labels and rows come in as plain strings (the bot localizes them), PNG bytes go out.
"""

from __future__ import annotations

from collections.abc import Sequence

from render.leaderboard import render_table


def render_standings(title: str, subtitle: str, labels: dict[str, str], rows: Sequence[dict],
                     highlight: int | None = None, tie_breaks: bool = True) -> bytes:
    """Rank, player, points, games, Buchholz, Sonneborn-Berger (``tie_breaks``), rating.
    ``rows``: dicts with those keys, already worded (points as "2½")."""
    keys = ["rank", "player", "points", "games"] + (["buchholz", "sb"] if tie_breaks else []) + ["rating"]
    headers = [labels[k] for k in keys]
    cells = [[str(r.get(k, "—")) for k in keys] for r in rows]
    return render_table(title, subtitle, headers, cells, numeric=[k != "player" for k in keys],
                        highlight=highlight, empty=labels.get("empty", "—"))


def points_text(value, half: str = "½") -> str:
    """A score as players write it: 2, 2½, 1.67 (thirds and the like to two decimals)."""
    whole, rest = divmod(value, 1)
    if rest == 0:
        return str(int(whole))
    if rest * 2 == 1:
        return f"{int(whole)}{half}" if whole else half
    return f"{float(value):.2f}"
