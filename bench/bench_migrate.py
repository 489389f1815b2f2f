"""``migrate-db``'s speed: a SQLite file of real games of every kind copied into an empty PostgreSQL database by
``bot.dbtools.copy_sqlite_to_postgres`` (the bulk COPY, the verification, the commit), timed.

The games are ``bench_storage``'s: every kind played to the end by its AI, copied in bulk with fresh ids,
servers, players and dates (1,000 finished and 10 running games per server). The file is built once (or
given with ``--db``) and copied before each run, so every run migrates the same bytes; a throwaway PostgreSQL
server is started as in the tests, and each run gets a fresh database.

Run: ``.venv/bin/python -m bench.bench_migrate [--games=10000] [--runs=3] [--db=PATH]``.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_storage import PER_GUILD, fill, templates
from bot.dbtools import copy_sqlite_to_postgres
from bot.storage import SQLiteStore


async def build(path: str, games: int) -> None:
    store = SQLiteStore(path)
    await store.open()
    try:
        await fill(store, await templates(), 0, max(1, games // PER_GUILD), time.time())
    finally:
        await store.close()


async def main(argv: list[str]) -> int:
    opts = dict(a[2:].split("=", 1) for a in argv if a.startswith("--") and "=" in a)
    games, runs = int(opts.get("games", 10_000)), int(opts.get("runs", 3))
    from tests.pg import PgServer, missing_reason

    if missing_reason():
        print(f"skipped: {missing_reason()}")
        return 0
    tmp = Path(tempfile.mkdtemp(prefix="ludibot-migrate-"))
    pg = PgServer().start()
    try:
        source = opts.get("db") or str(tmp / "source.db")
        if not Path(source).exists():
            t0 = time.perf_counter()
            await build(source, games)
            print(f"built {source} in {time.perf_counter() - t0:.0f} s", flush=True)
        size = Path(source).stat().st_size
        times = []
        for run in range(runs):
            copy = str(tmp / f"run{run}.db")
            shutil.copy(source, copy)
            url = await pg.new_database(f"migrate{run}")
            t0 = time.perf_counter()
            counts = await copy_sqlite_to_postgres(copy, url)
            elapsed = time.perf_counter() - t0
            times.append(elapsed)
            rows = sum(counts.values())
            print(f"run {run + 1}: {counts['games']:,} games, {rows:,} rows ({size / 2**20:.1f} MiB of SQLite) "
                  f"migrated in {elapsed:.2f} s ({rows / elapsed:,.0f} rows/s)", flush=True)
        times.sort()
        print(f"median {times[len(times) // 2]:.2f} s, best {times[0]:.2f} s over {runs} runs")
    finally:
        pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
