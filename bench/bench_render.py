"""CPU per Ludix picture in a render worker, drawing and encoding, before and after the caches.

Run: ``.venv/bin/python -m bench.bench_render [games]``. Plays AI games of Ludix (2 players with
short names, 6 players with long names), and for every view a move shows (the picture a render
worker draws at each move, in the order of the game) measures the process CPU of:

- before: the table drawn in full (``tests/render/test_ludix_cache._reference``, the renderer as it
  was) and encoded with the adaptive palette (``encode_png(img)``);
- after: ``render.ludix.draw_table`` (cached sprites, rows and text tiles pasted in the table's
  palette known in advance) and ``encode_png`` of that palette picture, as ``render_table`` does.

Both run on the same view one after the other, in one process whose caches start cold (like a fresh
worker). The run fails when a row has fewer samples than the views played.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from bench.common import MeasuredNothing
from engines.ludix import ENGINE
from render import common, ludix
from tests.render.gallery import LONG_NAMES
from tests.render.test_ludix_cache import _reference

SHORT = ["Alice", "Bruno"]


def views_of_games(players: int, games: int, seed: int = 1) -> list[dict]:
    views = []
    for g in range(games):
        state = ENGINE.new_game(players, {}, seed=seed + g)
        rng = random.Random(seed + g)
        views.append(ENGINE.view(state, None))
        while not ENGINE.is_over(state):
            (seat,) = ENGINE.expected(state)
            action = ENGINE.ai_action(state, seat) if rng.random() < 0.8 else {"type": "roll"}
            state, _ = ENGINE.apply(state, seat, action)
            views.append(ENGINE.view(state, None))
    return views


def cpu_ms(fn):
    t0 = time.process_time()
    out = fn()
    return out, 1000 * (time.process_time() - t0)


def measure(views: list[dict], names: list[str]) -> dict[str, list[float]]:
    rows: dict[str, list[float]] = {k: [] for k in ("before draw", "before encode", "after draw", "after encode")}
    for view in views:
        img, ms = cpu_ms(lambda v=view: _reference(v, names))
        rows["before draw"].append(ms)
        _, ms = cpu_ms(lambda i=img: common.encode_png(i))
        rows["before encode"].append(ms)
        img, ms = cpu_ms(lambda v=view: ludix.draw_table(v, names))
        rows["after draw"].append(ms)
        _, ms = cpu_ms(lambda i=img: common.encode_png(i))
        rows["after encode"].append(ms)
    for name, values in rows.items():
        if len(values) != len(views) or not values:
            raise MeasuredNothing(f"{name}: {len(values)} samples for {len(views)} views")
    return rows


def table(results: list[tuple[str, dict[str, list[float]]]]) -> str:
    lines = ["### Ludix picture: CPU per picture in a render worker (ms, mean / p50)", "",
             "| picture | n | before: draw | encode | **total** | after: draw | encode | **total** |",
             "|---|---|---|---|---|---|---|---|"]
    for title, rows in results:
        n = len(rows["before draw"])
        before = [a + b for a, b in zip(rows["before draw"], rows["before encode"], strict=True)]
        after = [a + b for a, b in zip(rows["after draw"], rows["after encode"], strict=True)]

        def cell(values):
            return f"{statistics.fmean(values):.2f} / {statistics.median(values):.2f}"

        lines.append(f"| {title} | {n} | {cell(rows['before draw'])} | {cell(rows['before encode'])} "
                     f"| **{cell(before)}** | {cell(rows['after draw'])} | {cell(rows['after encode'])} "
                     f"| **{cell(after)}** |")
    return "\n".join(lines)


def main(games: int = 5) -> int:
    results = []
    for players, names, title in ((2, SHORT, "2 players (720×492)"), (6, LONG_NAMES[:6], "6 players, long names")):
        views = views_of_games(players, games)
        rows = measure(views, names)
        if len(views) < 10 * games:
            raise MeasuredNothing(f"{title}: only {len(views)} views in {games} games")
        results.append((title, rows))
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5))
