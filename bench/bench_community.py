"""Leaderboards and profiles with 10,000 finished games stored, through the real bot and the fake Discord.

The database is seeded through the Store (games, seats, one logged action, results) and every game
is folded into the ratings with the same code the bot uses; then the bot starts on that file and
``/classement``, ``/profil``, ``/records``, ``/parties`` and ``/historique`` are timed.

Run: ``.venv/bin/python -m bench.bench_community [games]``. Budget: p99 < 150 ms for /classement
and /profil (the script exits non-zero past it).
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

from bench.common import Timings, measure_floor
from bot.community import ratings
from bot.storage import FINISHED, ResultRow, Seat, SQLiteStore
from fakediscord import FakeDiscord
from render.leaderboard import render_leaderboard
from tests.e2e.harness import start_bot

DAY = 86400.0
USERS = 24
MULTI = [("ludix", 2, 6), ("ludime", 2, 4), ("tectonic", 2, 2), ("armada", 2, 2), ("lutinades", 3, 7),
         ("ranta", 2, 8), ("limit", 2, 4)]
SOLO = ["ranta", "limit"]
BUDGET_MS = 150.0


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def seed(path: Path, guild: int, channel: int, users: list[tuple[int, str]], games: int,
               running: int = 30) -> float:
    """``games`` finished games over the last 120 days (85 % multiplayer, 15 % solo), rated; returns seconds."""
    rng = random.Random(9)
    end = time.time()
    clock = Clock(end - 120 * DAY)
    store = SQLiteStore(str(path), clock=clock)
    await store.open()
    t0 = time.perf_counter()
    step = 120 * DAY / games
    for i in range(games + running):
        clock.now += step if i < games else 1
        if i < games and rng.random() < 0.15:
            kind, n, ai = rng.choice(SOLO), 1, 0
        else:
            kind, lo, hi = rng.choice(MULTI)
            n = rng.randint(lo, min(hi, 5))
            ai = 1 if n > 2 and rng.random() < 0.2 else 0
        people = rng.sample(users, n - ai)
        seats = [Seat(i, uid, name) for i, (uid, name) in enumerate(people)]
        seats += [Seat(len(seats) + k, None, f"Bot {k + 1}", ai_level=1) for k in range(ai)]
        g = await store.create_game(kind=kind, guild_id=guild, channel_id=channel, creator=seats[0], options={},
                                    seed=i)
        await store.start_game(g.id, g.version, seats, {"seeded": True})
        if i >= games:  # a few running games for /parties
            continue
        scores = [rng.randint(0, 300) for _ in seats]
        order = sorted(range(n), key=lambda s: -scores[s])
        ranks = [0] * n
        for pos, s in enumerate(order):
            ranks[s] = ranks[order[pos - 1]] if pos and scores[s] == scores[order[pos - 1]] else pos + 1
        results = [ResultRow(g.id, s.seat, s.user_id, scores[s.seat], ranks[s.seat]) for s in seats]
        await store.commit_action(g.id, g.version + 1, state={"seeded": True}, seat=0, user_id=seats[0].user_id,
                                  action={"type": "end"}, events=[{"type": "seeded"}], status=FINISHED,
                                  results=results)
        await ratings.rate(store, g.id)
    await store.close()
    return time.perf_counter() - t0


async def main(games: int = 10_000, repeat: int = 60) -> Timings:
    t = Timings()
    t.expect("/profil", repeat)
    t.expect("/records", 1)
    t.expect("/parties", 1)
    t.expect("/historique", 1)
    tmp = Path(tempfile.mkdtemp(prefix="ludibot-bench-community-"))
    fake = FakeDiscord(guild_name="Bench", channels=["jeux"], settle=0.02, timeout=30)
    members = [fake.add_user(f"Joueur {i:02d}", locale="fr") for i in range(USERS)]
    await fake.start()
    seconds = await seed(tmp / "ludibot.db", fake.guild_id, fake.channel("jeux").id,
                         [(m.id, m.name) for m in members], games)
    print(f"seeded {games} finished games in {seconds:.1f} s", file=sys.stderr)
    bot = await start_bot(fake, tmp)
    try:
        await asyncio.sleep(1.0)  # let the start-up catch-up finish (nothing to do: all rated)
        rng = random.Random(3)
        kinds = [k for k, _, _ in MULTI]
        for i in range(repeat):
            user = members[i % USERS]
            kind = kinds[i % len(kinds)]
            for period in ("tout", "mois", "semaine"):
                t.record(f"/classement ({period})",
                         await fake.run_command(user, "jeux", "classement", jeu=kind, periode=period))
            t.record("/profil", await fake.run_command(user, "jeux", "profil"))
            t.record("/profil membre", await fake.run_command(user, "jeux", "profil", membre=rng.choice(members)))
            if i % 3 == 0:
                t.record("/records", await fake.run_command(user, "jeux", "records", jeu=SOLO[i % 2]))
                t.record("/parties", await fake.run_command(user, "jeux", "parties"))
                t.record("/historique", await fake.run_command(user, "jeux", "historique",
                                                               partie=rng.randint(1, games)))
        assert fake.errors == [], fake.errors
    finally:
        bot.kill()
        await fake.stop()
    await measure_floor(t)  # the floor bot, same run, its own fake Discord
    labels = {k: k for k in ("rank", "player", "rating", "games", "wins", "best", "empty")}
    rows = [{"rank": i + 1, "player": f"Joueur {i:02d}", "rating": 1200 - 7 * i, "games": 500 - i, "wins": 90,
             "best": 300} for i in range(20)]
    t.time("render: leaderboard (20 rows)", lambda: render_leaderboard("Classement — Ludix", "Tout", labels, rows))
    return t


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    timings = asyncio.run(main(n))
    print(timings.table(f"Leaderboards and profiles ({n} finished games stored, through the fake Discord)"))
    timings.verify()  # fails loudly when a row was not measured
    worst = max(timings.worst_p99("/classement"), timings.worst_p99("/profil"))
    if worst >= BUDGET_MS:
        print(f"over budget: p99 {worst:.1f} ms >= {BUDGET_MS} ms", file=sys.stderr)
        sys.exit(1)
