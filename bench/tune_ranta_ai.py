"""Tune the weights of Range ta Ludothèque's level-2 AI (``engines/ranta/ai.py``) by a local search.

``.venv/bin/python -m bench.tune_ranta_ai --mode classique --seeds 40 --first 1000 [--sweeps 3]``: each
step moves one weight up or down and keeps the change when the mean solo score over the training seeds
(seeds >= 1000, never the reported 0..199) goes up (by more than ``--min-gain``). Games are played on the
fast model (``engines/ranta/model.py``) with the engine's dice (``roll``), over ``--procs`` processes.

Expert's weights of 2026-11-29 came from ``--mode expert --first 3000 --seeds 1200 --sweeps 3 --step 0.5
--min-gain 0.02 --order-seed 1 --procs 2``, started from the earlier weights with the six newest
features at 0.
"""

from __future__ import annotations

import argparse
import random
import statistics
from multiprocessing import Pool

from engines.ranta import ai
from engines.ranta import model as M
from engines.ranta.engine import roll
from engines.ranta.sheet import SHEET


def game(mode: str, seed: int, weights) -> int:
    """A solo game of the tuned policy alone (no rollouts) with ``weights``."""
    occ, games = 0, ()
    for r in range(1, SHEET.rounds + 1):
        games, occ = ai.policy_step(games, occ, roll(seed, r), SHEET.rounds - r, mode, weights)
    return M.points(games, occ, mode)


def _game(args) -> int:
    return game(*args)


def mean(mode: str, seeds, weights, pool=None) -> float:
    if pool is None:
        return statistics.fmean(game(mode, s, weights) for s in seeds)
    return statistics.fmean(pool.map(_game, [(mode, s, weights) for s in seeds], chunksize=25))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--mode", default="classique")
    p.add_argument("--seeds", type=int, default=40)
    p.add_argument("--first", type=int, default=1000)
    p.add_argument("--sweeps", type=int, default=3)
    p.add_argument("--step", type=float, default=0.5)
    p.add_argument("--random", type=int, default=0, help="then this many random steps (a few weights at once)")
    p.add_argument("--only", type=int, nargs="*", default=None, help="tune only these weight indices")
    p.add_argument("--min-gain", type=float, default=0.0, help="keep a change only above this gain")
    p.add_argument("--order-seed", type=int, default=0, help="seeds the order the weights are tried in")
    p.add_argument("--procs", type=int, default=1)
    a = p.parse_args()
    seeds = range(a.first, a.first + a.seeds)
    w = list(ai.WEIGHTS[a.mode])
    with Pool(a.procs) as pool:
        search(a, seeds, w, pool if a.procs > 1 else None)


def search(a, seeds, w: list[float], pool) -> None:
    best = mean(a.mode, seeds, w, pool)
    print(f"start {best:.3f} {w}", flush=True)
    step = a.step
    rng = random.Random(a.order_seed)
    for sweep in range(a.sweeps):
        order = list(range(len(w))) if a.only is None else list(a.only)
        rng.shuffle(order)
        for i in order:
            for d in (step, -step):
                trial = list(w)
                trial[i] = round(trial[i] + d, 3)
                m = mean(a.mode, seeds, trial, pool)
                if m > best + a.min_gain:
                    best, w = m, trial
                    print(f"sweep {sweep} w[{i}]={w[i]} -> {best:.3f}", flush=True)
                    break
        print(f"after sweep {sweep}: {best:.3f} {tuple(w)}", flush=True)
        step /= 2
    indices = list(range(len(w))) if a.only is None else list(a.only)
    for n in range(a.random):
        trial = list(w)
        for i in rng.sample(indices, min(3, len(indices))):
            trial[i] = round(trial[i] + rng.gauss(0, a.step), 3)
        m = mean(a.mode, seeds, trial, pool)
        if m > best + a.min_gain:
            best, w = m, trial
            print(f"random {n} -> {best:.3f} {tuple(w)}", flush=True)


if __name__ == "__main__":
    main()
