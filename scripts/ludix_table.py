"""Build Ludix level 2's table: the exact best response to level 1 in 2-player games to 300.

Run once, by hand (numpy is needed here only, never by the bot; about 5 minutes of CPU)::

    .venv/bin/pip install numpy
    PYTHONPATH=. .venv/bin/python scripts/ludix_table.py

The model is the engine's (engines/ludix.py): four dice L X X V I I, the best numeral added to the turn
total, a roll that forms none (23/81) loses it; seat 0 opens every round, and the game ends when a round
completes with a score at the target; the higher score wins alone (a tie is worth half a win here). The
opponent plays level 1: it rolls until its turn total reaches 100 whatever the scores, so its turn banks
0 (a bust) or 100..179 with fixed chances.

Value iteration (to 1e-10) gives two tables of the chance of winning, read at the start of a round:

- ``first[m][o]`` — seat 0 (it plays first in the round), before its turn, with m, o < 300;
- ``second[m][o]`` — seat 1, before level 1's turn opens the round, with m, o < 300.

Within a turn the decision is a short recursion over the turn total from these tables
(``engines.ludix._best_response``). Stored in ``data/ludix/best_response.bin``: the magic ``LUDIX1``,
then lzma of the two tables' chances in 1/65535ths (little-endian uint16, row-major, first then second),
each value written as its difference from the one before (mod 2^16).
"""

from __future__ import annotations

import lzma
import sys
from pathlib import Path

import numpy as np

from engines.ludix import dice_odds

TARGET = 300
TMAX = 480  # at 480 a score beats anything level 1 can reach from below 300 (299 + 179): stopping is sure
TIE = 0.5
OUT = Path(__file__).resolve().parents[1] / "data" / "ludix" / "best_response.bin"
MAGIC = b"LUDIX1"


def _win(m: np.ndarray, o: np.ndarray) -> np.ndarray:
    return np.where(m > o, 1.0, np.where(m == o, TIE, 0.0))


def _turn(stop: np.ndarray, bust_value: np.ndarray, bust: float, rolls: list[tuple[int, float]]) -> np.ndarray:
    """Value before a turn's first roll, for every (m, o): ``stop[m + t, o]`` is the value of banking at
    turn total t, ``bust_value[m, o]`` that of losing the turn; the best of stopping and rolling on."""
    top = max(v for v, _ in rolls)
    values: dict[int, np.ndarray] = {t: stop[t:t + TARGET] for t in range(TMAX + 1, TMAX + top + 1)}
    for t in range(TMAX, -1, -1):
        cont = bust * bust_value
        for v, p in rolls:
            cont = cont + p * values[t + v]
        values[t] = cont if t == 0 else np.maximum(stop[t:t + TARGET], cont)
        values.pop(t + top, None)
    return values[0]


def solve() -> tuple[np.ndarray, np.ndarray]:
    # the engine's own odds: P(bust), each best numeral's chance, what a level-1 turn banks
    bust, rolls, gains = dice_odds()
    rows = TARGET + TMAX + 100
    mm = np.arange(rows)[:, None]
    # seat 0: after its turn banks (score m'), level 1 plays, then the round ends
    first = np.full((TARGET, TARGET), 0.5)
    oo = np.arange(TARGET)[None, :]
    for _ in range(1000):
        after = np.zeros((rows, TARGET))
        for g, p in gains:
            o2 = oo + g
            inside = (mm < TARGET) & (o2 < TARGET)
            table = np.zeros((rows, TARGET))
            table[:TARGET] = first[:, np.minimum(o2[0], TARGET - 1)]
            after += p * np.where(inside, table, _win(mm, o2))
        new = _turn(after, after[:TARGET], bust, rolls)
        delta = float(np.abs(new - first).max())
        first = new
        if delta < 1e-10:
            break
    # seat 1: level 1 opens the round (o' = o + gain), then seat 1's turn ends it
    second = np.full((TARGET, TARGET), 0.5)
    cols = TARGET + max(g for g, _ in gains) + 1
    oo = np.arange(cols)[None, :]
    for _ in range(1000):
        table = np.zeros((rows, cols))
        table[:TARGET, :TARGET] = second
        stop = np.where((mm < TARGET) & (oo < TARGET), table, _win(mm, oo))
        before = _turn(stop, stop[:TARGET], bust, rolls)
        new = sum(p * before[:, g:g + TARGET] for g, p in gains)
        delta = float(np.abs(new - second).max())
        second = new
        if delta < 1e-10:
            break
    return first, second


def encode(first: np.ndarray, second: np.ndarray) -> bytes:
    q = np.round(np.concatenate([first.ravel(), second.ravel()]) * 65535).astype(np.int64)
    deltas = (np.diff(q, prepend=0) % 65536).astype("<u2")
    return MAGIC + lzma.compress(deltas.tobytes(), preset=9)


def main() -> int:
    first, second = solve()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(encode(first, second))
    print(f"{OUT}: {OUT.stat().st_size} bytes; chance of winning from 0-0: first {first[0, 0]:.4f}, "
          f"second {second[0, 0]:.4f}, mean {(first[0, 0] + second[0, 0]) / 2:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
