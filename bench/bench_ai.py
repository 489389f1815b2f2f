"""Benchmark: the solo scores of the Take it to the Limit and Range ta Ludothèque AIs, per level.

Run ``.venv/bin/python -m bench.bench_ai [--seeds 200] [--board-seeds 20] [--first 0] [--games limit ranta]
[--levels 1 2] [--quick] [--raw]``. Each line is one board/variant (Limit) or mode (Ranta) and one level, a
game for each seed ``first .. first+seeds-1`` (``ENGINE.new_game(players, options, seed)``, the AI playing
every seat) — ``--board-seeds`` of them for Limit's other boards and variants (a level-2 Limit game takes
about 8 s of CPU):
mean, median, best and worst score of seat 0, and the AI's CPU time per move (mean and max,
``time.process_time``, so a loaded machine does not inflate it). Limit's two-board variants
(Déchetterie la plus basse, passe-Déchetterie) need two boards: both are AI seats at the same level, seat
0 is reported. ``--quick`` keeps the headline lines (Limit Nexus standard, Ranta classic and expert). The
figures are kept in docs/benchmarks.md (AI strength) with the seeds used. Targets (issue 37): Limit Nexus standard
solo mean >= 480; Ranta classic and expert +50 % over level 1; every move under 2 s of CPU.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from engines import get

LIMIT_CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("Nexus standard (solo)", 1, {"plateau": "nexus", "variante": "standard"}),
    ("Nexus sans Déchetterie (solo)", 1, {"plateau": "nexus", "variante": "sans-dechetterie"}),
    ("Nexus Déchetterie la plus basse (2 boards)", 2, {"plateau": "nexus", "variante": "dechetterie-basse"}),
    ("Nexus passe-Déchetterie (2 boards)", 2, {"plateau": "nexus", "variante": "passe-dechetterie"}),
    ("Orchidée soleils (solo)", 1, {"plateau": "orchidee", "variante": "standard", "tuiles": "soleil"}),
    ("Orchidée lunes (solo)", 1, {"plateau": "orchidee", "variante": "standard", "tuiles": "lune"}),
    ("Orchidée 64 tuiles (solo)", 1, {"plateau": "orchidee", "variante": "orchidee-64"}),
]
RANTA_CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("classique (solo)", 1, {"mode": "classique"}),
    ("expert (solo)", 1, {"mode": "expert"}),
]
MOVE_BUDGET = 2.0  # seconds of CPU per move at the top level


def play(game: str, players: int, options: dict[str, Any], level: int, seed: int) -> tuple[int, list[float]]:
    """One game, every seat the AI at ``level``: (seat 0's score, CPU seconds of each AI move)."""
    engine = get(game)
    state = engine.new_game(players, options, seed)
    times: list[float] = []
    while not engine.is_over(state):
        for seat in sorted(engine.expected(state)):
            if seat not in engine.expected(state):
                continue
            t0 = time.process_time()
            action = engine.ai_action(state, seat, level)
            times.append(time.process_time() - t0)
            state, _ = engine.apply(state, seat, action)
    return engine.result(state).scores[0], times


def measure(game: str, label: str, players: int, options: dict[str, Any], level: int,
            seeds: range, raw: bool = False) -> dict[str, Any]:
    scores: list[int] = []
    times: list[float] = []
    for seed in seeds:
        s, t = play(game, players, options, level, seed)
        scores.append(s)
        times += t
        if raw:  # game by game, so an interrupted run still tells what it measured
            print(f"  {game} | {label} | {level} | seed {seed} | {s} | max {max(t) * 1000:.0f} ms | "
                  f"sum {sum(t):.2f} s / {len(t)} moves", flush=True)
    return {"game": game, "case": label, "level": level, "mean": statistics.mean(scores),
            "median": statistics.median(scores), "best": max(scores), "worst": min(scores),
            "cpu_mean": statistics.mean(times), "cpu_max": max(times), "games": len(scores), "scores": scores}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--board-seeds", type=int, default=20, help="seeds for Limit's other boards and variants")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--games", nargs="+", default=["limit", "ranta"], choices=("limit", "ranta"))
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2], choices=(1, 2))
    parser.add_argument("--quick", action="store_true", help="only Limit Nexus standard, Ranta classic and expert")
    parser.add_argument("--raw", action="store_true", help="also print every game's score as it ends")
    args = parser.parse_args(argv)
    seeds = range(args.first, args.first + args.seeds)
    print("| game | board / mode | level | games (seeds) | mean | median | best | worst | CPU/move mean "
          "| CPU/move max |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ok = True
    for game in args.games:
        cases = LIMIT_CASES if game == "limit" else RANTA_CASES
        if args.quick and game == "limit":
            cases = cases[:1]
        for i, (label, players, options) in enumerate(cases):
            some = seeds if game == "ranta" or i == 0 else range(args.first, args.first + args.board_seeds)
            for level in args.levels:
                r = measure(game, label, players, options, level, some, args.raw)
                print(f"| {game} | {label} | {level} | {len(some)} ({some.start}..{some.stop - 1}) | {r['mean']:.1f} | {r['median']:g} | {r['best']} | "
                      f"{r['worst']} | {r['cpu_mean'] * 1000:.0f} ms | {r['cpu_max'] * 1000:.0f} ms |", flush=True)
                ok &= r["cpu_max"] < MOVE_BUDGET
    if not ok:
        print(f"FAILED: a move took {MOVE_BUDGET} s of CPU or more")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
