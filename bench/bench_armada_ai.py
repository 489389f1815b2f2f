"""Benchmark: the Armada AI against a uniformly random player, on each side.

Run ``.venv/bin/python -m bench.bench_armada_ai [--rounds 200] [--level 1] [--board 11x11]``.
For each side, plays ``--rounds`` rounds (round 1 of a fresh game, seeds 0..n-1):
the AI on that side, the other seat choosing uniformly among ``legal_actions``.
Reports the AI's win rate and its time per move (p50, p99, max); exits with
status 1 if a side wins less than 95% or a move takes 1 s or more.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from engines.armada import ENGINE

TARGET_WIN_RATE = 0.95
TARGET_MOVE_SECONDS = 1.0


def play_round(seed: int, ai_side: str, level: int = 1, board: str = "11x11") -> tuple[bool, list[float], int]:
    """One round, the AI on ``ai_side``: (AI won, AI move times, plies)."""
    rng = random.Random(seed)
    state = ENGINE.new_game(2, {"plateau": board}, seed=seed)
    ai_seat = 0 if ai_side == "spain" else 1  # seat 0 plays Spain in round 1
    times: list[float] = []
    plies = 0
    while state.round_no == 1 and not state.finished:
        seat = state.current
        if seat == ai_seat:
            t0 = time.perf_counter()
            action = ENGINE.ai_action(state, seat, level)
            times.append(time.perf_counter() - t0)
        else:
            action = rng.choice(ENGINE.legal_actions(state, seat))
        state, _ = ENGINE.apply(state, seat, action)
        plies += 1
    return state.rounds[0]["winner"] == ai_seat, times, plies


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--board", default="11x11", choices=("11x11", "10x10", "9x9"))
    args = parser.parse_args(argv)
    ok = True
    print(f"armada AI level {args.level} vs random, {args.rounds} rounds per side, board {args.board}")
    for side in ("spain", "england"):
        t0 = time.perf_counter()
        wins, times, plies = 0, [], 0
        for seed in range(args.rounds):
            won, t, p = play_round(seed, side, args.level, args.board)
            wins += won
            times += t
            plies += p
        rate = wins / args.rounds
        worst = max(times)
        print(f"  {side:8s} wins {wins}/{args.rounds} ({rate:.1%})  moves {len(times)}"
              f"  per move p50 {percentile(times, 0.5) * 1e3:.1f} ms  p99 {percentile(times, 0.99) * 1e3:.1f} ms"
              f"  max {worst * 1e3:.1f} ms  mean plies/round {plies / args.rounds:.0f}"
              f"  ({time.perf_counter() - t0:.0f} s)")
        ok = ok and rate >= TARGET_WIN_RATE and worst < TARGET_MOVE_SECONDS
    print("OK" if ok else "FAILED: below 95% or a move took 1 s or more")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
