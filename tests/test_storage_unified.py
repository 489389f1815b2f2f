"""Issue 29: every store function and every query written once under bot/storage/ (an AST walk), the
migrations written once, and the dialect's few words the only thing the backends add."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.storage import TABLES, Seat
from bot.storage.migrations import MIGRATIONS as TEMPLATES
from bot.storage.postgres import MIGRATIONS as PG_MIGRATIONS
from bot.storage.postgres import POSTGRESQL
from bot.storage.sqlite import MIGRATIONS as SQLITE_MIGRATIONS
from bot.storage.sqlite import SQLITE

STORAGE = Path(__file__).resolve().parent.parent / "bot" / "storage"
BACKENDS = ("sqlite.py", "postgres.py")
#: what only a backend can do: open its connections, read and apply its schema number
PLUMBING = {"open", "close", "schema_version", "migrate"}


def methods(path: Path) -> dict[str, list[str]]:
    """``method name -> [class, …]`` of every method defined in a class of ``path``."""
    found: dict[str, list[str]] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    found.setdefault(item.name, []).append(node.name)
    return found


def abstract_store_methods() -> set[str]:
    tree = ast.parse((STORAGE / "base.py").read_text(encoding="utf-8"))
    store = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Store")
    return {f.name for f in store.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
            and not f.name.startswith("_")}


def test_every_store_method_is_written_once_under_bot_storage():
    definitions: dict[str, list[str]] = {}
    for path in sorted(STORAGE.glob("*.py")):
        if path.name == "base.py":  # the interface (abstract signatures, and the caches every store shares)
            continue
        for name, classes in methods(path).items():
            definitions.setdefault(name, []).extend(f"{path.name}:{c}" for c in classes)
    public = abstract_store_methods()
    assert len(public) >= 65  # the whole interface is looked at
    twice = {name: where for name, where in definitions.items()
             if name in public - PLUMBING and len(where) > 1}
    assert not twice, f"written more than once: {twice}"
    # and written: each abstract method of the interface has its one body (in the shared SQL store)
    missing = {name for name in public if name not in definitions and name not in vars_of_base_store()}
    assert not missing, missing
    shared = methods(STORAGE / "sql.py")
    for name in public - PLUMBING:
        if name in definitions:
            assert all(w.startswith("sql.py:") for w in definitions[name]), (name, definitions[name])
            assert name in shared


def vars_of_base_store() -> set[str]:
    """Methods with a body in base.Store itself (the caches, the defaults)."""
    tree = ast.parse((STORAGE / "base.py").read_text(encoding="utf-8"))
    store = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Store")
    return {f.name for f in store.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
            and not any(isinstance(d, ast.Name) and d.id == "abstractmethod" for d in f.decorator_list)}


def test_the_backends_hold_no_query_on_the_bot_s_tables():
    """Queries live in bot/storage/sql.py only: a string in a backend naming a table of the bot is a query
    written a second time."""
    pattern = re.compile(r"\b(FROM|INTO|UPDATE|JOIN|TABLE)\s+(" + "|".join(TABLES) + r")\b", re.IGNORECASE)
    offenders = []
    for name in BACKENDS:
        for node in ast.walk(ast.parse((STORAGE / name).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and pattern.search(node.value):
                offenders.append(f"{name}:{node.lineno}: {node.value[:60]!r}")
    assert not offenders, "\n".join(offenders)


def test_the_walk_would_catch_a_method_written_twice(tmp_path):
    twice = tmp_path / "x.py"
    twice.write_text("class A:\n    async def get_game(self): ...\nclass B:\n    def get_game(self): ...\n")
    assert methods(twice)["get_game"] == ["A", "B"]


def test_one_list_of_migrations_rendered_for_each_dialect():
    assert len(SQLITE_MIGRATIONS) == len(PG_MIGRATIONS) == len(TEMPLATES) >= 9
    for sqlite_sql, pg_sql in zip(SQLITE_MIGRATIONS, PG_MIGRATIONS, strict=True):
        assert "{" not in sqlite_sql.replace("'{}'", "") and "{" not in pg_sql.replace("'{}'", "")
    assert "BIGSERIAL" in PG_MIGRATIONS[0] and "AUTOINCREMENT" in SQLITE_MIGRATIONS[0]
    assert "BYTEA" in PG_MIGRATIONS[3] and "BLOB" in SQLITE_MIGRATIONS[3]
    # the only migration whose change differs in kind: a CHECK widened (SQLite rebuilds the table)
    assert "deadlines_new" in SQLITE_MIGRATIONS[7] and "deadlines_new" not in PG_MIGRATIONS[7]


def test_the_dialects_differ_only_in_words():
    assert SQLITE.sql("SELECT ? % 2") == "SELECT ? % 2"
    assert POSTGRESQL.sql("SELECT ? % 2") == "SELECT %s %% 2"
    assert SQLITE.any_of("seat", [1, 2]) == ("seat IN (?, ?)", (1, 2))
    assert POSTGRESQL.any_of("seat", [1, 2]) == ("seat = ANY(?)", ([1, 2],))
    assert SQLITE.any_of("seat", []) == POSTGRESQL.any_of("seat", []) == ("1 = 0", ())
    assert SQLITE.same("guild_id") == "guild_id IS ?"
    assert POSTGRESQL.same("guild_id") == "guild_id IS NOT DISTINCT FROM ?"


async def test_postgresql_connections_lost_are_opened_again(pg_server):
    """The server drops every connection (a restart, a failover): a call on a lost connection fails, as it
    did with a pool; the next ones open new connections and the store carries on."""
    from bot.storage import Seat, open_store

    store = open_store(await pg_server.new_database(), max_size=3)
    await store.open()
    try:
        g = await store.create_game(kind="ludix", guild_id=1, channel_id=10, creator=Seat(0, 100, "Alice"),
                                    options={}, seed=7)
        import psycopg

        with psycopg.connect(pg_server.url(), autocommit=True) as admin:
            gone = admin.execute("SELECT COUNT(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
                                 "WHERE datname = %s", (store.url.rsplit("/", 1)[1],)).fetchone()[0]
        assert gone == 3  # every connection of the store
        failures = 0
        for _ in range(12):
            try:
                assert (await store.get_game(g.id)).id == g.id
            except Exception:
                failures += 1
        healthy = [await store.healthy() for _ in range(4)]
        # one call at most per lost connection (its thread opens a new one for the next)
        assert failures + healthy.count(False) <= 3 and healthy.count(True) >= 1
    finally:
        await store.close()


async def test_a_batch_that_fails_undoes_its_whole_transaction(store):
    """A statement of a pipelined batch refused (here a duplicate log entry), the COMMIT sent with it:
    nothing of the transaction stays, the error reaches the caller, and the connection serves again."""
    from bot.storage import Seat

    g = await store.create_game(kind="ludix", guild_id=1, channel_id=10, creator=Seat(0, 100, "Alice"),
                                options={}, seed=7)
    await store.start_game(g.id, 0, g.seats, {"n": 0})
    assert await store.commit_action(g.id, 1, state={"n": 1}, seat=0, user_id=100, action={"v": 1}, events=[])
    entry = ("INSERT INTO events (game_id, version, seat, user_id, action, events, created_at) "
             "VALUES (?, 2, 0, 100, '{}', '[]', 0)", (g.id,))

    def work(tx):
        tx.execute("UPDATE games SET state = '{\"n\":99}' WHERE id = ?", (g.id,))
        tx.batch([("UPDATE games SET paused = 'x' WHERE id = ?", (g.id,)), entry], final=True)

    with pytest.raises(Exception) as err:
        await store._tx(work)
    assert "unique" in str(err.value).lower()
    after = await store.get_game(g.id)
    assert after.state == {"n": 1} and after.paused is None and len(await store.events(g.id)) == 1
    assert await store.commit_action(g.id, 2, state={"n": 2}, seat=0, user_id=100, action={"v": 2}, events=[])


async def test_postgresql_locks_a_board_and_a_player_across_processes(pg_server):
    """Ratings are folded one rater per board, a player's vacations changed one at a time: on PostgreSQL an
    advisory lock held to the end of the transaction (SQLite's write transaction already is one). A second
    store (another process) asking for the same key waits until the first commits: the first holds the
    lock until the server shows the second waiting for it, and the second gets it only after that."""
    import asyncio
    import threading
    import time

    from bot.storage import open_store

    url = await pg_server.new_database()
    a, b = open_store(url), open_store(url)
    await a.open()
    await b.open()
    loop = asyncio.get_running_loop()
    try:
        for key in ("123:ludix", 4242):
            holding = threading.Event()
            seen = {}

            def held(tx, key=key, holding=holding, seen=seen):
                a._lock(tx, key)
                holding.set()
                mine = tx.execute("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' "
                                  "AND pid = pg_backend_pid()").value()
                end = time.monotonic() + 20
                # the lock is held (in the database thread) until the other store is seen waiting for it
                while tx.execute("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                                 "AND pid <> pg_backend_pid()").value() == 0:
                    assert time.monotonic() < end, f"the second store never waited for the lock on {key!r}"
                    time.sleep(0.01)
                seen["waiter"] = time.monotonic()
                return mine

            def waits(tx, key=key):
                b._lock(tx, key)
                return time.monotonic()

            first = asyncio.ensure_future(a._tx(held))
            assert await loop.run_in_executor(None, holding.wait, 20), "the first store never took the lock"
            got = await b._tx(waits)
            assert await first == 1
            assert got > seen["waiter"], key  # the second had the lock only once the first let it go
    finally:
        await a.close()
        await b.close()


async def test_postgresql_prepared_statements_survive_a_failed_pipeline(pg_server):
    """Statements are prepared the first time they are sent, in the same pipeline; one that fails (here the
    second statement of a pipeline refers to no table) leaves the connection able to run both again, prepared
    or not, and a statement that never parsed is not taken for prepared."""
    from bot.storage import open_store

    store = open_store(await pg_server.new_database(), max_size=1)
    await store.open()
    try:
        ok = ("SELECT ? + 1 AS n", (1,))
        broken = ("SELECT n FROM no_such_table WHERE n = ?", (1,))
        for _ in range(3):
            with pytest.raises(Exception) as err:
                await store._run(lambda tx: tx.batch([ok, broken]))
            assert "no_such_table" in str(err.value)
            assert await store._run(lambda tx: tx.batch([ok, ok])[1].value()) == 2
        await store._call(lambda con: con.execute("CREATE TABLE no_such_table (n BIGINT)"))
        await store._call(lambda con: con.execute("INSERT INTO no_such_table VALUES (1)"))
        assert [r.value() for r in await store._run(lambda tx: tx.batch([ok, broken]))] == [2, 1]
    finally:
        await store.close()


async def test_two_raters_of_one_board_take_turns(db_url):
    """Two processes rating two games of the same board at once: the second reads the ratings the first
    wrote (a lock per board: PostgreSQL's advisory lock, SQLite's write transaction), no rating lost."""
    import asyncio
    import time

    from bot.storage import FINISHED, ResultRow, Seat, open_store

    a, b = open_store(db_url), open_store(db_url)
    await a.open()
    await b.open()
    try:
        games = []
        for _ in range(2):
            g = await a.create_game(kind="ludix", guild_id=1, channel_id=10, creator=Seat(0, 100, "Alice"),
                                    options={}, seed=7)
            g = await a.get_game(g.id)
            assert await a.update_lobby(g.id, g.version, [Seat(0, 100, "Alice"), Seat(1, 200, "Bruno")])
            await a.start_game(g.id, g.version + 1, [Seat(0, 100, "Alice"), Seat(1, 200, "Bruno")], {"n": 0})
            g = await a.get_game(g.id)
            assert await a.commit_action(g.id, g.version, state={"n": 1}, seat=0, user_id=100, action={}, events=[],
                                         status=FINISHED, results=[ResultRow(g.id, 0, 100, 10, 1),
                                                                   ResultRow(g.id, 1, 200, 5, 2)])
            games.append(g.id)

        def compute(info, results, current):  # each game adds one to the mu it read (slowly: the race's window)
            time.sleep(0.3)
            return {r.user_id: (current.get(r.user_id, (25.0, 8.0))[0] + 1, 8.0) for r in results}

        assert await asyncio.gather(a.rate_game(games[0], compute), b.rate_game(games[1], compute)) == [True, True]
        mus = {r.user_id: (r.mu, r.games) for r in await a.leaderboard(1, "ludix")}
        assert mus == {100: (27.0, 2), 200: (27.0, 2)}, mus
    finally:
        await a.close()
        await b.close()


async def test_prepared_statements_survive_transactions_rolled_back(store):
    """A transaction undone after its statements ran (a lobby full, a version lost) ends with a ROLLBACK:
    on PostgreSQL psycopg, once it had prepared statements of its own, answered its ROLLBACK with
    DEALLOCATE ALL, and the store's next statement failed with "prepared statement does not exist"."""
    game = await store.create_game(kind="ludix", guild_id=1, channel_id=10, creator=Seat(0, 100, "Alice"),
                                   options={}, seed=1)

    class Undo(Exception):
        pass

    def read_then_fail(tx):
        tx.execute("SELECT version FROM games WHERE id = ?", (game.id,))
        raise Undo

    for _ in range(100):  # past psycopg's threshold (5 runs) on each of the store's connections
        with pytest.raises(Undo):
            await store._tx(read_then_fail)
        assert (await store.get_game(game.id)).id == game.id
