"""Benchmark: the Tectonic AI against a uniformly random player, per level.

Run ``.venv/bin/python -m bench.bench_tectonic_ai [--games 200] [--levels 1 2 3] [--option droit]``.
For each level, plays ``--games`` games (seeds 0..n-1, the AI White in even games
and Black in odd ones, the other seat choosing uniformly among ``legal_actions``).
Reports the AI's win rate, draws, mean game length and its time per move (p50,
p99, max); exits with status 1 if a level wins less than 95% or a move takes 1 s
or more. Level 3 thinks up to 0.6 s a move: 200 games take a few minutes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from engines.tectonic import ENGINE

TARGET_WIN_RATE = 0.95
TARGET_MOVE_SECONDS = 1.0


def play_game(seed: int, level: int, pic_backward: str = "droit") -> tuple[int, list[float], int, str]:
    """One game: (1 AI win / 0 draw / -1 loss, AI move times, plies, end reason)."""
    rng = random.Random(seed)
    ai_seat = seed % 2
    state = ENGINE.new_game(2, {"pic_backward": pic_backward}, seed=seed)
    times: list[float] = []
    while not state.finished:
        seat = state.current
        if seat == ai_seat:
            t0 = time.perf_counter()
            action = ENGINE.ai_action(state, seat, level)
            times.append(time.perf_counter() - t0)
        else:
            action = rng.choice(ENGINE.legal_actions(state, seat))
        state, _ = ENGINE.apply(state, seat, action)
    outcome = 0 if state.winner is None else (1 if state.winner == ai_seat else -1)
    return outcome, times, state.ply, str(state.reason)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3], choices=(1, 2, 3))
    parser.add_argument("--option", default="droit", choices=("droit", "diagonale"),
                        help="pic_backward option")
    args = parser.parse_args(argv)
    ok = True
    print(f"tectonic AI vs random, {args.games} games per level, pic_backward={args.option}")
    for level in args.levels:
        t0 = time.perf_counter()
        wins = draws = plies = 0
        times: list[float] = []
        reasons: dict[str, int] = {}
        for seed in range(args.games):
            outcome, t, n, reason = play_game(seed, level, args.option)
            wins += outcome == 1
            draws += outcome == 0
            plies += n
            times += t
            key = reason if outcome >= 0 else f"lost:{reason}"
            reasons[key] = reasons.get(key, 0) + 1
        rate = wins / args.games
        worst = max(times)
        print(f"level {level}: won {wins}/{args.games} ({rate:.1%}), draws {draws}, "
              f"mean {plies / args.games:.1f} plies, ends {dict(sorted(reasons.items()))}")
        print(f"  move time p50 {percentile(times, 0.5) * 1000:.1f} ms, p99 {percentile(times, 0.99) * 1000:.1f} ms, "
              f"max {worst * 1000:.1f} ms over {len(times)} moves ({time.perf_counter() - t0:.1f} s)")
        if rate < TARGET_WIN_RATE or worst >= TARGET_MOVE_SECONDS:
            ok = False
            print("  FAILED: needs >= 95% wins and every move under 1 s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
