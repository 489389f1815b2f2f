"""Storage at scale, on SQLite and on PostgreSQL: bytes per finished game, and the p99 of the store queries
behind ``/profil``, ``/parties``, ``/classement``, ``/historique`` and of a move, at 1k / 10k (/ 100k) games.

The games are real: every kind is played to the end by its own AI through the session service, and those
games (state, event log, results) are the templates the database is filled with, in bulk, with fresh ids,
servers, players and dates. The growth model is a bot that spreads over servers: each server holds up to
1,000 games with its own 24 members (the per-server queries must not grow with the whole table).
Ratings are folded by the bot's own code for the measured server.

Run: ``.venv/bin/python -m bench.bench_storage [--100k] [--busy] [--sqlite-only] [--sizes=1000,10000]``.
``--100k`` (or ``--busy``) adds, to the largest size, a busy server with 5,000 running games: ``/parties``
there (p99 ≤ 50 ms) and, on SQLite, the real bot started on that database (READY → first answered
command ≤ 1 s). PostgreSQL needs its binaries
(a throwaway server is started, as in the tests). Exits non-zero past a budget: ≤ 5 KB per finished game,
p99 at the largest size within 2× of the 1k figure (+1 ms of timer noise).
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import engines
from bot.community import ratings
from bot.sessions import Player, SessionService
from bot.storage import RUNNING, EventRow, SQLiteStore, Store, open_store, pack, pack_log

PER_GUILD = 1000
MEMBERS = 24
RUNNING_PER_GUILD = 10
BUDGET_BYTES = 5 * 1024
SAMPLES = 200
PARTIES_LIMIT = 20  # cogs.community.boards.MAX_LISTED
#: the busy server of ``--100k``: /parties with this many running games in one server
BUSY_RUNNING = 5_000
BUSY_GUILD = 10**15 + 999_999
PARTIES_BUDGET_MS = 50.0


async def templates() -> dict[str, list[dict]]:
    """Real games of every kind, played to the end (and a few moves in, for running ones)."""
    store = SQLiteStore(":memory:")
    await store.open()
    out: dict[str, list[dict]] = {}
    for i, kind in enumerate(engines.available()):
        e = engines.get(kind)
        n = min(max(2, e.min_players), e.max_players)
        players = [Player(1000 + k, f"Joueur {k}") for k in range(n)]
        svc = SessionService(store, seed_source=lambda i=i: 1000 + i)
        for finish in (True, False):
            g = await svc.open_lobby(kind, guild_id=1, channel_id=10 + i, player=players[0])
            for p in players[1:]:
                g = await svc.join(g.id, p)
            g = (await svc.start(g.id, players[0])).game
            moves = 0
            while g.status == RUNNING and (finish or moves < 4):
                seat = min(svc.expected_seats(g))
                action = e.ai_action(e.from_dict(g.state), seat, 1)
                g = (await svc.act(g.id, g.seats[seat].user_id, action, version=g.version)).game
                moves += 1
            out.setdefault(kind, []).append({"game": g, "events": await store.events(g.id),
                                             "results": await store.results(g.id)})
    await store.close()
    return out


def dump(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


async def fill(store: Store, tpl: dict[str, list[dict]], start_guild: int, guilds: int, now: float) -> None:
    """Bulk-insert ``guilds`` servers of PER_GUILD finished + RUNNING_PER_GUILD running games each."""
    kinds = sorted(tpl)
    plan = []
    for gi in range(start_guild, start_guild + guilds):
        guild = 10**15 + gi
        members = [(guild * 100 + k, f"Membre {k}") for k in range(MEMBERS)]
        for j in range(PER_GUILD + RUNNING_PER_GUILD):
            finished = j < PER_GUILD
            plan.append((guild, guild + 1, members, tpl[kinds[(gi + j) % len(kinds)]][0 if finished else 1],
                         now - (PER_GUILD - j) * 600.0))
    await fill_plan(store, plan, seed=start_guild)


async def fill_plan(store: Store, plan: list[tuple], seed: int) -> None:
    """Bulk-insert the planned games: ``(guild, channel, members, template, when)`` each."""
    rng = random.Random(seed)
    games, seats, events, results, rated, archives, deadlines = [], [], [], [], [], [], []
    next_id = await _max_id(store) + 1
    cache: dict[int, set[int]] = {}
    for guild, channel, members, t, when in plan:
        g = t["game"]
        finished = g.status != RUNNING
        gid = next_id
        next_id += 1
        people = rng.sample(members, len(g.seats))
        expected = set() if finished else expected_of(g, cache)
        # exactly what the store writes: a running game's state and log rows, its turn columns and its
        # seats' deadlines (this epoch's reminder and timeout); an ended game's archive
        games.append((gid, guild, channel, g.kind, dump(g.options), g.status,
                      None if finished else dump(g.state), g.version, g.seed,
                      people[0][0], when - 3600, when, when if finished else None, g.version,
                      when if expected else None, g.version))
        for s, (uid, name) in zip(g.seats, people, strict=True):
            seats.append((gid, s.seat, uid, name, None, "fr", when if s.seat in expected else None))
        for seat in sorted(expected):
            deadlines += [(gid, seat, "reminder", g.version, when + 12 * 3600, when),
                          (gid, seat, "timeout", g.version, when + 48 * 3600, when)]
        log = [EventRow(id=0, game_id=gid, version=ev.version, seat=ev.seat,
                        user_id=people[ev.seat][0] if ev.seat is not None and ev.user_id is not None else None,
                        action=ev.action, events=ev.events, created_at=when) for ev in t["events"]]
        if finished:
            archives.append((gid, pack(g.state), pack_log(log)))
        else:
            events.extend((gid, e.version, e.seat, e.user_id, dump(e.action), dump(e.events), when) for e in log)
        if finished:
            for r in t["results"]:
                results.append((gid, r.seat, people[r.seat][0], r.score, r.rank))
            humans = len(g.seats)
            rated.append((gid, guild, g.kind, when, int(humans == 1), humans))
    cols = {
        "games": ("id", "guild_id", "channel_id", "kind", "options", "status", "state", "version", "seed",
                  "creator_id", "created_at", "updated_at", "finished_at", "published_version", "turn_since",
                  "turn_version"),
        "seats": ("game_id", "seat", "user_id", "name", "ai_level", "locale", "turn_since"),
        "deadlines": ("game_id", "seat", "kind", "version", "due", "since"),
        "events": ("game_id", "version", "seat", "user_id", "action", "events", "created_at"),
        "results": ("game_id", "seat", "user_id", "score", "rank"),
        "rated_games": ("game_id", "guild_id", "kind", "finished_at", "solo", "humans"),
        "archives": ("game_id", "state", "events"),
    }
    data = {"games": games, "seats": seats, "events": events, "results": results, "rated_games": rated,
            "archives": archives, "deadlines": deadlines}
    if isinstance(store, SQLiteStore):
        await store.execute("BEGIN")
        for table, rows in data.items():
            marks = ",".join("?" * len(cols[table]))
            await store.executemany(f"INSERT INTO {table} ({','.join(cols[table])}) VALUES ({marks})", rows)
        await store.execute("COMMIT")
    else:
        import psycopg

        # COPY, the bulk path (text format: psycopg adapts each value, PostgreSQL reads it by the column's type)
        async with await psycopg.AsyncConnection.connect(store.url, autocommit=True) as con:  # type: ignore[attr-defined]
            async with con.transaction():
                for table, rows in data.items():
                    async with con.cursor().copy(f"COPY {table} ({', '.join(cols[table])}) FROM STDIN") as copy:
                        for row in rows:
                            await copy.write_row(row)
                await con.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))")
            await con.execute("VACUUM ANALYZE")  # what autovacuum does soon after a bulk load


def expected_of(game, cache: dict[int, set[int]]) -> set[int]:
    """The seats a template running game expects (its engine says)."""
    if id(game) not in cache:
        engine = engines.get(game.kind)
        cache[id(game)] = set(engine.expected(engine.from_dict(game.state)))
    return cache[id(game)]


async def fill_busy(store: Store, tpl: dict[str, list[dict]], guild: int, running: int, now: float,
                    channels: int = 50) -> None:
    """One busy server: ``running`` running games (every kind, in ``channels`` channels, among its
    MEMBERS members), each with its turn columns and its expected seats' deadlines (not due)."""
    kinds = sorted(tpl)
    members = [(guild * 100 + k, f"Membre {k}") for k in range(MEMBERS)]
    await fill_plan(store, [(guild, guild + 1 + i % channels, members, tpl[kinds[i % len(kinds)]][1], now - i * 5.0)
                            for i in range(running)], seed=guild)


async def _max_id(store: Store) -> int:
    return (await store.execute("SELECT COALESCE(MAX(id), 0) FROM games"))[0][0]  # type: ignore[attr-defined]


async def rate_guild(store: Store, guild: int) -> None:
    """The measured server's ratings, folded by the bot's code (its rated_games rows are redone)."""
    await store.execute("DELETE FROM rated_games WHERE guild_id = ?", (guild,))  # type: ignore[attr-defined]
    for gid in await store.unrated_games():
        await ratings.rate(store, gid)


async def size_bytes(store: Store, empty: int) -> int:
    if isinstance(store, SQLiteStore):
        await store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = (await store.execute("PRAGMA page_count"))[0][0]
        free = (await store.execute("PRAGMA freelist_count"))[0][0]
        size = (await store.execute("PRAGMA page_size"))[0][0]
        return (pages - free) * size - empty
    await store.execute("VACUUM ANALYZE")  # type: ignore[attr-defined]
    return (await store.execute("SELECT pg_database_size(current_database())"))[0][0] - empty  # type: ignore


async def timed(fns: list, n: int = SAMPLES) -> list[tuple[float, float]]:
    """(p50, p99) in ms of ``n`` calls of each of ``fns``, interleaved (one call of each in turn), so that
    the load of a shared machine weighs on every database size alike; after 5 warm-up calls each."""
    for fn in fns:
        for _ in range(5):
            await fn()
    values: list[list[float]] = [[] for _ in fns]
    for _ in range(n):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            await fn()
            values[i].append((time.perf_counter() - t0) * 1000)
    out = []
    for v in values:
        assert len(v) == n, (len(v), n)  # it measured what it claims: n calls of each
        v.sort()
        out.append((v[len(v) // 2], v[min(len(v) - 1, int(round(0.99 * (len(v) - 1))))]))
    return out


async def queries(store: Store, guild: int, tpl) -> dict[str, Any]:
    """The calls to time on ``store`` (checked first: the measured server holds what it should)."""
    members = [guild * 100 + k for k in range(MEMBERS)]
    rng = random.Random(1)
    kinds = sorted(tpl)
    finished = await store.finished_games(guild, 25)
    assert len(finished) == 25, "the measured server has its finished games"
    running = await store.games_with_status((RUNNING,), guild_id=guild)
    assert len(running) == RUNNING_PER_GUILD
    board = await store.leaderboard(guild, kinds[0])
    assert board, "the measured server has a leaderboard"

    async def profil():
        uid = rng.choice(members)
        await store.player_ratings(guild, uid)
        await store.player_recent(guild, uid, 5)
        await store.player_solo_best(guild, uid)

    async def parties():
        lists = await store.turn_lists(guild, rng.choice(members), PARTIES_LIMIT)
        assert lists.mine_total + lists.others_total == RUNNING_PER_GUILD  # it lists what it claims

    async def classement():
        await store.leaderboard(guild, rng.choice(kinds), since=time.time() - 30 * 86400)
        await store.leaderboard(guild, rng.choice(kinds))

    async def historique():
        found = await store.finished_games(guild, 25, "")
        gid = rng.choice(found)["id"]
        await store.get_game(gid)
        await store.events(gid)
        await store.results(gid)

    # a move: read the game, commit the next version (same state: what the engine does is not storage)
    versions = {g.id: g.version for g in running}

    async def move():
        gid = rng.choice(list(versions))
        g = await store.get_game(gid)
        ok = await store.commit_action(gid, g.version, state=g.state, seat=0, user_id=g.seats[0].user_id,
                                       action={"type": "bench"}, events=[], status=RUNNING)
        assert ok

    return {"/profil": profil, "/parties": parties, "/classement": classement, "/historique": historique,
            "move": move}


async def busy_parties(store: Store, tpl, now: float) -> dict[str, Any]:
    """``/parties`` on a server with BUSY_RUNNING running games: the turn columns (SAMPLES calls), and
    the way it was done before (every running game read and asked to its engine: 3 calls) beside it."""
    await fill_busy(store, tpl, BUSY_GUILD, BUSY_RUNNING, now)
    members = [BUSY_GUILD * 100 + k for k in range(MEMBERS)]
    rng = random.Random(5)
    seen = {"mine": 0}

    async def parties():
        lists = await store.turn_lists(BUSY_GUILD, rng.choice(members), PARTIES_LIMIT)
        # it measured what it claims: every running game of the server counted, a full page listed
        assert lists.mine_total + lists.others_total == BUSY_RUNNING, (lists.mine_total, lists.others_total)
        assert len(lists.others) == PARTIES_LIMIT
        seen["mine"] += len(lists.mine)

    async def before():
        games = await store.games_with_status((RUNNING,), BUSY_GUILD)
        assert len(games) == BUSY_RUNNING
        for g in games:
            engine = engines.get(g.kind)
            engine.expected(engine.from_dict(g.state))
        await store.turn_since([g.id for g in games])

    ((p50, p99),) = await timed([parties])
    assert seen["mine"] > 0, "the callers had games where it is their turn"
    ((old50, old99),) = await timed([before], n=3)
    return {"running": BUSY_RUNNING, "p50": p50, "p99": p99, "samples": SAMPLES, "before_p50": old50}


async def startup(path: str, workdir: Path, commands: int = 20) -> dict[str, Any]:
    """The real bot started on the database at ``path``: from the gateway's READY (commands synced) to
    the first answered command, that command's latency, and the median of the next ones."""
    from fakediscord import FakeDiscord
    from tests.e2e.harness import BotProcess

    fake = FakeDiscord(guild_name="Bench", channels=["jeux"], settle=0.02, timeout=30)
    user = fake.add_user("Joueur", locale="fr")
    await fake.start()
    bot = BotProcess(fake, workdir, db=path)
    try:
        t0 = time.perf_counter()
        bot.start()
        await fake.wait_ready(timeout=120)
        ready = time.perf_counter()
        first = await fake.run_command(user, "jeux", "profil")
        answered = time.perf_counter()
        assert first.latency is not None, "the first command was answered"
        after = []
        for _ in range(commands):
            res = await fake.run_command(user, "jeux", "profil")
            assert res.latency is not None
            after.append(res.latency * 1000)
        assert len(after) == commands and not bot.tracebacks(), bot.tracebacks()[:3]
    finally:
        bot.stop()
        await fake.stop()
    after.sort()
    return {"spawn_to_ready_s": ready - t0, "ready_to_first_s": answered - ready, "first_ms": first.latency * 1000,
            "next_p50_ms": after[len(after) // 2], "next_n": len(after)}


async def run_backend(backend: str, sizes: list[int], tpl, pg=None, busy: dict | None = None) -> list[dict]:
    """One database per size, filled and checked; then every query timed on all sizes, interleaved.
    With ``busy`` (a dict to fill), the largest size also gets the busy server (/parties with
    BUSY_RUNNING running games) and, on SQLite, the bot's start-up on it."""
    tmp = Path(tempfile.mkdtemp(prefix="ludibot-bench-"))
    rows, stores, calls = [], [], []
    now = time.time()
    try:
        for size in sizes:
            url = str(tmp / f"bench-{size}.db") if backend == "sqlite" else await pg.new_database(f"bench{size}")
            store = open_store(url)
            await store.open()
            stores.append(store)
            empty = await size_bytes(store, 0)
            guilds = size // PER_GUILD
            t0 = time.perf_counter()
            await fill(store, tpl, 0, guilds, now)
            load = time.perf_counter() - t0
            measured = 10**15 + guilds - 1  # the newest server
            await rate_guild(store, measured)
            # (no ANALYZE on SQLite: the bot never runs it, and SQLite's plans without statistics are the
            # ones it gets; PostgreSQL's autovacuum analyzes by itself, as ``fill`` does here)
            total = await size_bytes(store, empty)
            stored = await count_finished(store)
            assert stored == size, (stored, size)  # it measured what it claims
            rows.append({"backend": backend, "games": stored, "load_s": load, "bytes_per_game": total / stored})
            calls.append(await queries(store, measured, tpl))
            print(f"  {backend} {stored:>7} finished games stored in {load:.0f} s, "
                  f"{total / stored:,.0f} bytes per game", flush=True)
        for name in COLUMNS:
            for row, result in zip(rows, await timed([c[name] for c in calls]), strict=True):
                row[name] = result
        if busy is not None:
            found = busy[backend] = await busy_parties(stores[-1], tpl, now)
            print(f"  {backend} /parties with {found['running']:,} running games in the server: "
                  f"p50 {found['p50']:.1f} / p99 {found['p99']:.1f} ms ({found['samples']} calls; "
                  f"reading every running game as before: {found['before_p50']:.0f} ms)", flush=True)
            if backend == "sqlite":
                # the timed moves left their versions unpublished (in channels the fake does not have):
                # a bot that was running had published them
                await stores[-1].execute("UPDATE games SET published_version = version")
                await stores[-1].close()
                stores.pop()
                up = busy["startup"] = await startup(str(tmp / f"bench-{sizes[-1]}.db"), tmp)
                print(f"  start-up with {sizes[-1]:,} finished + {BUSY_RUNNING + sizes[-1] // PER_GUILD * RUNNING_PER_GUILD:,}"
                      f" running games: ready → first answer {up['ready_to_first_s'] * 1000:.0f} ms (that /profil "
                      f"{up['first_ms']:.0f} ms, the next {up['next_n']} p50 {up['next_p50_ms']:.0f} ms)", flush=True)
    finally:
        for store in stores:
            await store.close()
        shutil.rmtree(tmp, ignore_errors=True)
    for row in rows:
        print(f"  {backend} {row['games']:>7}: " + ", ".join(f"{c} {row[c][0]:.1f}/{row[c][1]:.1f} ms"
                                                            for c in COLUMNS), flush=True)
    return rows


async def count_finished(store: Store) -> int:
    return (await store.execute("SELECT COUNT(*) FROM games WHERE status = 'finished'"))[0][0]  # type: ignore


COLUMNS = ["/profil", "/parties", "/classement", "/historique", "move"]


def table(rows: list[dict]) -> str:
    lines = ["| backend | finished games | bytes / game | " + " | ".join(f"{c} p50 / p99 ms" for c in COLUMNS) + " |",
             "|---|---:|---:|" + "---:|" * len(COLUMNS)]
    for r in rows:
        lines.append(f"| {r['backend']} | {r['games']:,} | {r['bytes_per_game']:,.0f} | "
                     + " | ".join(f"{r[c][0]:.1f} / {r[c][1]:.1f}" for c in COLUMNS) + " |")
    return "\n".join(lines)


def check(rows: list[dict]) -> list[str]:
    """Budgets: ≤ 5 KB per finished game; p99 at the largest size within 2× the 1k figure (+1 ms noise)."""
    bad = []
    for backend in {r["backend"] for r in rows}:
        mine = [r for r in rows if r["backend"] == backend]
        first, last = mine[0], mine[-1]
        for r in mine:
            if r["bytes_per_game"] > BUDGET_BYTES:
                bad.append(f"{backend} {r['games']}: {r['bytes_per_game']:.0f} bytes per game")
        for c in COLUMNS:
            if last[c][1] > 2 * first[c][1] + 1.0:
                bad.append(f"{backend} {c}: p99 {last[c][1]:.2f} ms at {last['games']} vs {first[c][1]:.2f} ms at "
                           f"{first['games']}")
    return bad


def check_busy(busy: dict) -> list[str]:
    """Budgets of the busy server: /parties p99 ≤ 50 ms; ready → first answered command ≤ 1 s."""
    bad = []
    for backend, found in busy.items():
        if backend == "startup":
            if found["ready_to_first_s"] > 1.0:
                bad.append(f"start-up: first command answered {found['ready_to_first_s']:.2f} s after ready")
        elif found["p99"] > PARTIES_BUDGET_MS:
            bad.append(f"{backend} /parties with {found['running']} running: p99 {found['p99']:.1f} ms")
    return bad


async def main(argv: list[str]) -> int:
    sizes = [1_000, 10_000] + ([100_000] if "--100k" in argv else [])
    for arg in argv:  # --sizes=1000,10000: other sizes (a quick check)
        if arg.startswith("--sizes="):
            sizes = [int(x) for x in arg.split("=", 1)[1].split(",")]
    busy: dict | None = {} if ("--100k" in argv or "--busy" in argv) else None
    print("playing the template games…", flush=True)
    tpl = await templates()
    rows = await run_backend("sqlite", sizes, tpl, busy=busy)
    if "--sqlite-only" not in argv:
        from tests.pg import PgServer, missing_reason

        reason = missing_reason()
        if reason:
            print(f"PostgreSQL skipped: {reason}")
        else:
            pg = PgServer().start()
            try:
                rows += await run_backend("postgresql", sizes, tpl, pg, busy=busy)
            finally:
                pg.stop()
    print()
    print(table(rows))
    bad = check(rows) + (check_busy(busy) if busy is not None else [])
    for b in bad:
        print("over budget:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the throwaway server on a kill too
    sys.exit(asyncio.run(main(sys.argv[1:])))
