"""The store's share of a move, in one process, on SQLite and on PostgreSQL: CPU per move (every thread of
the process: the event loop and the database threads), moves per second, and round trips per move on
PostgreSQL (counted on the wire by tests.pg's relay, in a separate pass: the relay's own CPU is not counted).

What a move costs the store in the bot: the session service with the scheduler plugged in (the time
bank read before the commit, the commit, the deadlines of the seat now expected), Ludix games played
by passing, ``concurrency`` games at a time. No Discord, no pictures: bench_processes measures the whole.

Run: ``.venv/bin/python -m bench.bench_store_moves [moves] [concurrency] [--sqlite-only|--pg-only]``.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

from bot.community import Community
from bot.sessions import Player, SessionService
from bot.storage import open_store

GUILD = 1


async def play(url: str, moves: int, concurrency: int) -> dict:
    store = open_store(url)
    await store.open()
    try:
        svc = SessionService(store, seed_source=lambda: 4242)
        Community(store, svc, None)
        games = []
        for i in range(concurrency):
            a, b = Player(100 + 2 * i, f"A{i}"), Player(101 + 2 * i, f"B{i}")
            g = await svc.open_lobby("ludix", guild_id=GUILD, channel_id=10 + i, player=a)
            g = await svc.join(g.id, b)
            games.append((await svc.start(g.id, a)).game)

        async def one(g, n):
            for _ in range(n):
                seat = min(svc.expected_seats(g))
                g = (await svc.act(g.id, g.seats[seat].user_id, {"type": "pass"}, version=g.version, row=g)).game
            return g

        games = await asyncio.gather(*(one(g, 5) for g in games))  # warm-up
        per = max(1, moves // concurrency)
        cpu0, t0 = time.process_time(), time.perf_counter()
        await asyncio.gather(*(one(g, per) for g in games))
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - t0
        n = per * concurrency
        return {"moves": n, "cpu_ms": 1000 * cpu / n, "per_s": n / wall}
    finally:
        await store.close()


async def round_trips(pg) -> float:
    from tests.pg import RoundTripProxy

    proxy = await RoundTripProxy(pg.port).start()
    try:
        store = open_store(proxy.url(await pg.new_database("rt")))
        await store.open()
        try:
            svc = SessionService(store, seed_source=lambda: 4242)
            Community(store, svc, None)
            a, b = Player(100, "A"), Player(101, "B")
            g = await svc.open_lobby("ludix", guild_id=GUILD, channel_id=10, player=a)
            g = (await svc.start((await svc.join(g.id, b)).id, a)).game
            before = proxy.round_trips
            for _ in range(10):
                seat = min(svc.expected_seats(g))
                g = (await svc.act(g.id, g.seats[seat].user_id, {"type": "pass"}, version=g.version, row=g)).game
            return (proxy.round_trips - before) / 10
        finally:
            await store.close()
    finally:
        await proxy.stop()


async def main(argv: list[str]) -> int:
    from tests.pg import PgServer, missing_reason

    nums = [int(a) for a in argv if a.isdigit()]
    moves, concurrency = (nums + [2000, 8][len(nums):])[:2]
    print("| backend | moves | concurrency | CPU/move ms (whole process) | moves/s | round trips/move |")
    print("|---|---|---|---|---|---|")
    if "--pg-only" not in argv:
        tmp = Path(tempfile.mkdtemp(prefix="ludibot-store-moves-"))
        r = await play(str(tmp / "ludibot.db"), moves, concurrency)
        print(f"| SQLite | {r['moves']} | {concurrency} | {r['cpu_ms']:.2f} | {r['per_s']:.0f} | – |")
    if "--sqlite-only" not in argv:
        reason = missing_reason()
        if reason:
            print(f"- no PostgreSQL: {reason}")
            return 1
        pg = PgServer().start()
        try:
            r = await play(await pg.new_database("moves"), moves, concurrency)
            trips = await round_trips(pg)
            print(f"| PostgreSQL | {r['moves']} | {concurrency} | {r['cpu_ms']:.2f} | {r['per_s']:.0f} | {trips:g} |")
        finally:
            pg.stop()
    print(f"\n(load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
