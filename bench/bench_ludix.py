"""Ludix latency through the real bot and the fake Discord, plus render time.

Run: ``.venv/bin/python -m bench.bench_ludix [games]`` (or ``make bench``). Budget: p99 < 150 ms.
"""

from __future__ import annotations

import asyncio
import sys

from bench.common import Timings, bot_world
from engines.ludix import ENGINE
from render.ludix import render_table
from tests.e2e.harness import last_control, mentioned


async def main(games: int = 5) -> Timings:
    t = Timings()
    fake, bot, (alice, bruno), _ = await bot_world(["Alice", "Bruno"])
    by_id = {alice.id: alice, bruno.id: bruno}
    try:
        for _ in range(games):
            res = t.record("/ludix start", await fake.run_command(alice, "jeux", "ludix start", objectif=150))
            lobby = res.message
            t.record("button Rejoindre", await fake.click(bruno, lobby, label="Rejoindre"))
            t.record("button Lancer (start)", await fake.click(alice, lobby, label="Lancer"))
            msg = last_control(fake)
            t.record("/ludix status", await fake.run_command(bruno, "jeux", "ludix status"))
            for _ in range(400):
                if msg is None or "Fin de la partie" in (msg.content or ""):
                    break
                (uid,) = mentioned(msg)
                user = by_id[uid]
                res = t.record("button Lancer les dés", await fake.click(user, msg, label="Lancer les dés"))
                msg = res.message
                if "Stop (marquer)" in msg.button_labels and mentioned(msg) == [uid]:
                    res = t.record("button Stop", await fake.click(user, msg, label="Stop (marquer)"))
                    msg = res.message
            t.record("/ludix rules", await fake.run_command(alice, "jeux", "ludix rules"))
    finally:
        bot.kill()
        await fake.stop()
    state = ENGINE.new_game(6, {}, seed=1)
    state, _ = ENGINE.apply(state, 0, {"type": "roll"})
    view = ENGINE.view(state, None)
    t.time("render: table (6 players)", lambda: render_table(view, [f"P{i}" for i in range(6)]))
    return t


if __name__ == "__main__":
    timings = asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5))
    print(timings.table("Ludix (2 users, through the fake Discord)"))
