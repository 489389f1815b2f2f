"""Ludix latency and CPU per move through the real bot and the fake Discord, beside the floor bot.

Run: ``.venv/bin/python -m bench.bench_ludix [games]`` (or ``make bench``). Budget: p99 < 150 ms.
Every move waits for the message that carries the next buttons (or the end of the game): a move
whose follow-up never comes fails the run instead of ending the loop early, and the run fails
when a row has fewer samples than it claims. The floor bot (``bench/floor_bot.py``: one button
answered by a new message with a button) is measured in the same run, on its own fake Discord,
and Ludibot's figures are printed as a ratio to it.
"""

from __future__ import annotations

import asyncio
import statistics
import sys

from bench.common import (
    CpuMeter,
    FloorFigures,
    Timings,
    bot_world,
    measure_floor,
    next_control,
    percentile,
    report,
)
from engines.ludix import ENGINE
from render.ludix import render_table
from tests.e2e.harness import mentioned

FINAL = "Fin de la partie"
MOVES = ("button Lancer les dés", "button Stop")


def _next_control(fake, channel: str, after_id: int):
    """The newest public message with buttons posted after ``after_id``, or the final message."""
    return next_control(fake, channel, after_id, FINAL)


async def ludix_moves(games: int, t: Timings) -> tuple[int, float, float]:
    """Plays ``games`` games; returns (moves, main-process CPU s, render-worker CPU s) for the moves."""
    fake, bot, (alice, bruno), _ = await bot_world(["Alice", "Bruno"])
    by_id = {alice.id: alice, bruno.id: bruno}
    moves, cpu_main, cpu_workers = 0, 0.0, 0.0
    try:
        for _ in range(games):
            res = t.record("/ludix start", await fake.run_command(alice, "jeux", "ludix start", objectif=150))
            lobby = res.message
            t.record("button Rejoindre", await fake.click(bruno, lobby, label="Rejoindre"))
            t.record("button Lancer (start)", await fake.click(
                alice, lobby, label="Lancer", until=lambda r, a=lobby.id: _next_control(fake, "jeux", a)))
            msg = _next_control(fake, "jeux", lobby.id)
            if msg is None:
                raise AssertionError("the game started without a message with buttons")
            t.record("/ludix status", await fake.run_command(bruno, "jeux", "ludix status"))
            meter = CpuMeter(bot.proc.pid)
            finished = False
            for _ in range(400):
                if FINAL in (msg.content or ""):
                    finished = True
                    break
                (uid,) = mentioned(msg)
                label = "Stop (marquer)" if ("Stop (marquer)" in msg.button_labels and moves % 2) else \
                    next(lb for lb in msg.button_labels if lb in ("Lancer les dés", "Relancer"))
                row = "button Stop" if label.startswith("Stop") else "button Lancer les dés"
                after = msg.id
                res = t.record(row, await fake.click(by_id[uid], msg, label=label,
                                                     until=lambda r, a=after: _next_control(fake, "jeux", a)))
                moves += 1
                msg = _next_control(fake, "jeux", after)
                if msg is None:
                    raise AssertionError(f"no follow-up with buttons after {row} (move {moves})")
            if not finished:
                raise AssertionError("a Ludix game did not finish in 400 moves")
            main, workers = meter.lap()
            cpu_main += main
            cpu_workers += workers
            t.record("/ludix rules", await fake.run_command(alice, "jeux", "ludix rules"))
    finally:
        bot.kill()
        await fake.stop()
    return moves, cpu_main, cpu_workers


def comparison(t: Timings, moves: int, cpu_main: float, cpu_workers: float, floor: FloorFigures) -> str:
    ours = [v for name in MOVES for v in t.samples[name]]
    rows = [("move latency p50 (ms)", statistics.median(ours), floor.p50),
            ("move latency p99 (ms)", percentile(ours, 99), floor.p99),
            ("CPU per move, main process (ms)", 1000 * cpu_main / moves, floor.cpu_ms),
            ("CPU per move, main + render workers (ms)", 1000 * (cpu_main + cpu_workers) / moves, floor.cpu_ms)]
    lines = [f"### Ludix moves beside the floor bot ({moves} moves, {floor.clicks} floor clicks, same run)", "",
             "| what | Ludibot | floor | ratio |", "|---|---|---|---|"]
    lines += [f"| {what} | {a:.1f} | {b:.1f} | {a / b:.1f}× |" for what, a, b in rows]
    return "\n".join(lines)


async def main(games: int = 5) -> int:
    t = Timings()
    moves, cpu_main, cpu_workers = await ludix_moves(games, t)
    for name, n in (("/ludix start", games), ("button Rejoindre", games), ("button Lancer (start)", games),
                    ("/ludix status", games),
                    ("button Lancer les dés", games * 4), ("button Stop", games * 2)):
        t.expect(name, n)
    floor = await measure_floor(t, max(1, min(moves, 200)))
    state = ENGINE.new_game(6, {}, seed=1)
    state, _ = ENGINE.apply(state, 0, {"type": "roll"})
    view = ENGINE.view(state, None)
    t.time("render: table (6 players)", lambda: render_table(view, [f"P{i}" for i in range(6)]))
    status = report(t, "Ludix (2 users, through the fake Discord)")
    if moves and floor.clicks:
        print()
        print(comparison(t, moves, cpu_main, cpu_workers, floor))
    return status


if __name__ == "__main__":
    sys.exit(asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)))
