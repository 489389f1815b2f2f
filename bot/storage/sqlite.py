"""The SQLite backend (WAL, one connection in its own thread): the default, one file, nothing to install."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.storage.base import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    MOVE_SAMPLE_GAMES,
    RUNNING,
    VOID,
    Deadline,
    EventRow,
    GameRow,
    RatingRow,
    ResultRow,
    SchemaTooNew,
    Seat,
    Store,
    TurnLists,
    completion,
    deadline_from,
    event_from,
    game_from,
    move_waits,
    pack,
    pack_log,
    readable_json,
    turn_from,
    turn_times,
    unpack_log,
)


def backup_name(path: str, schema: int) -> str:
    """Where the automatic backup before a migration goes: beside the file, named with its schema."""
    return f"{path}.schema{schema}.bak"

MIGRATIONS: list[str] = [
    # 1: the foundation
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        seed INTEGER NOT NULL,
        creator_id INTEGER NOT NULL,
        lobby_message_id INTEGER,
        control_message_id INTEGER,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        finished_at REAL
    );
    CREATE INDEX games_channel ON games (channel_id, status);
    CREATE INDEX games_guild ON games (guild_id, status, kind);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL,
        ai_level INTEGER,
        locale TEXT NOT NULL DEFAULT 'fr',
        PRIMARY KEY (game_id, seat)
    );
    CREATE UNIQUE INDEX seats_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        seat INTEGER,
        user_id INTEGER,
        action TEXT NOT NULL,
        events TEXT NOT NULL,
        created_at REAL NOT NULL,
        UNIQUE (game_id, version)
    );
    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        score INTEGER,
        rank INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_user ON results (user_id);
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 2: playing over days (issue 9): deadlines, user preferences, ratings
    """
    CREATE TABLE deadlines (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('reminder', 'timeout')),
        version INTEGER NOT NULL,
        due REAL NOT NULL,
        since REAL NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'void', 'failed')),
        lease_until REAL,
        attempts INTEGER NOT NULL DEFAULT 0,
        fired_at REAL,
        PRIMARY KEY (game_id, seat, kind, version)
    );
    CREATE INDEX deadlines_due ON deadlines (due) WHERE state = 'pending';
    CREATE INDEX events_seat ON events (game_id, seat, version);
    CREATE TABLE user_prefs (
        user_id INTEGER PRIMARY KEY,
        prefs TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE rated_games (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        guild_id INTEGER,
        kind TEXT NOT NULL,
        finished_at REAL NOT NULL,
        solo INTEGER NOT NULL,
        humans INTEGER NOT NULL
    );
    CREATE INDEX rated_games_board ON rated_games (guild_id, kind, solo, finished_at);
    CREATE INDEX results_user_game ON results (user_id, game_id);
    CREATE INDEX games_finished ON games (status, finished_at);
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        ordinal REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        best_score INTEGER,
        last_played REAL,
        PRIMARY KEY (guild_id, kind, user_id)
    );
    CREATE INDEX ratings_board ON ratings (guild_id, kind, ordinal);
    CREATE INDEX ratings_player ON ratings (guild_id, user_id);
    """,
    # 3: the field (issues 13-17): the outbox, paused and broken games, a game's own thread
    """
    ALTER TABLE games ADD COLUMN published_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN paused TEXT;
    ALTER TABLE games ADD COLUMN broken TEXT;
    ALTER TABLE games ADD COLUMN thread_id INTEGER;
    UPDATE games SET published_version = version;
    CREATE INDEX games_unpublished ON games (updated_at) WHERE published_version < version
        AND status IN ('running', 'finished');
    CREATE INDEX games_paused ON games (guild_id) WHERE paused IS NOT NULL;
    """,
    # 4: lean storage (issue 14): closed deadlines are not history (events and results are); keep only
    # each seat's newest epoch while its game runs. Indexes for the community queries. An ended game's
    # state and log are archived, compressed, in one row.
    """
    DELETE FROM deadlines WHERE game_id IN (SELECT id FROM games WHERE status IN ('finished', 'cancelled'));
    DELETE FROM deadlines WHERE state = 'void';
    DELETE FROM deadlines WHERE state <> 'pending' AND version < (SELECT MAX(d.version) FROM deadlines d
        WHERE d.game_id = deadlines.game_id AND d.seat = deadlines.seat);
    CREATE INDEX games_guild_finished ON games (guild_id, status, id);
    CREATE INDEX rated_games_unrated ON rated_games (finished_at);
    CREATE TABLE archives (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        state BLOB NOT NULL,
        events BLOB NOT NULL
    );
    """,
    # 5: table settings chosen at start (issue 15): the pace and whether the game has its own thread
    """
    ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
    """,
    # 6: a game in its own thread (issue 15): commands typed in the thread find the game
    """
    CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL;
    """,
    # 7: vacations (issue 15): each player's vacations, the running one included (the yearly allowance reads them)
    """
    CREATE TABLE vacations (
        user_id INTEGER NOT NULL,
        starts_at REAL NOT NULL,
        ends_at REAL NOT NULL,
        PRIMARY KEY (user_id, starts_at)
    );
    CREATE INDEX vacations_end ON vacations (user_id, ends_at);
    """,
    # 8: a stalled player (issue 15): the other players' ballots, one per voter and vote (the vote itself is
    # a 'vote' deadline of the stalled seat; its decision goes in the event log)
    """
    CREATE TABLE ballots (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        epoch INTEGER NOT NULL,
        voter INTEGER NOT NULL,
        choice TEXT NOT NULL,
        cast_at REAL NOT NULL,
        PRIMARY KEY (game_id, seat, epoch, voter)
    );
    CREATE TABLE deadlines_new (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('reminder', 'timeout', 'vote')),
        version INTEGER NOT NULL,
        due REAL NOT NULL,
        since REAL NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'void', 'failed')),
        lease_until REAL,
        attempts INTEGER NOT NULL DEFAULT 0,
        fired_at REAL,
        PRIMARY KEY (game_id, seat, kind, version)
    );
    INSERT INTO deadlines_new (game_id, seat, kind, version, due, since, state, lease_until, attempts, fired_at)
        SELECT game_id, seat, kind, version, due, since, state, lease_until, attempts, fired_at FROM deadlines;
    DROP TABLE deadlines;
    ALTER TABLE deadlines_new RENAME TO deadlines;
    CREATE INDEX deadlines_due ON deadlines (due) WHERE state = 'pending';
    """,
    # 9: whose turn, since when (issue 16): kept with every commit so that /parties and the scheduler's
    # sweep read indexes, not every running game's state. Running games start stale (turn_version
    # NULL): the bot refreshes them at start (SessionService.refresh_turns), in batches.
    """
    ALTER TABLE games ADD COLUMN turn_since REAL;
    ALTER TABLE games ADD COLUMN turn_version INTEGER;
    ALTER TABLE seats ADD COLUMN turn_since REAL;
    UPDATE games SET turn_version = version WHERE status <> 'running';
    CREATE INDEX games_turns ON games (guild_id, turn_since, id) WHERE status = 'running' AND broken IS NULL;
    CREATE INDEX games_turn_stale ON games (id) WHERE status = 'running' AND broken IS NULL
        AND turn_version IS NOT version;
    CREATE INDEX seats_turns ON seats (user_id, turn_since) WHERE turn_since IS NOT NULL;
    CREATE INDEX seats_expected ON seats (game_id, seat) WHERE turn_since IS NOT NULL AND ai_level IS NULL;
    """,    # 10: lobbies and cancellations go through the outbox too (issue 24): a lobby's card shows its
    # newest version, a cancelled game's card loses its controls. What is already shown stays as it is.
    """
    UPDATE games SET published_version = version WHERE status IN ('lobby', 'cancelled');
    DROP INDEX games_unpublished;
    CREATE INDEX games_unpublished ON games (updated_at) WHERE published_version < version;
    """,
]

#: the newest schema number this release knows
LATEST = len(MIGRATIONS)


def _paused_since(value: str | None) -> float | None:
    """When a paused game stopped (the ``since`` of its pause record)."""
    if not value:
        return None
    try:
        since = json.loads(value).get("since")
    except (ValueError, AttributeError):
        return None
    return float(since) if isinstance(since, int | float) else None


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


log = logging.getLogger("ludibot.storage")


class _Cursor(sqlite3.Cursor):
    """``with db.execute(...) as cur:`` closes the cursor at the end of the block."""

    def __enter__(self) -> _Cursor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Connection(sqlite3.Connection):
    """The store's connection: rows by column name, cursors usable in ``with``."""

    def execute(self, sql: str, params: Any = ()) -> _Cursor:  # type: ignore[override]
        return self.cursor(_Cursor).execute(sql, params)


def _settle(fut: asyncio.Future, ok: bool, value: Any) -> None:
    if fut.cancelled():
        return
    if ok:
        fut.set_result(value)
    else:
        fut.set_exception(value)


class DatabaseThread:
    """One SQLite connection owned by one thread; a call runs a whole function there.

    A store method is one plain function of the connection (its transaction included), run in
    this thread: the event loop pays one wake-up per store call, however many statements the
    transaction holds (aiosqlite paid two or three per statement: 40 per Ludix move), and the
    calls are serialised, so a transaction is never interleaved with another coroutine's
    statements. A call cancelled before it starts never runs; once started it completes (a
    transaction commits or rolls back whole). The thread is a daemon: a store left open by a
    crashed test never keeps the interpreter alive.
    """

    def __init__(self, path: str, busy_timeout_ms: int) -> None:
        self.path = path
        self.busy_timeout_ms = busy_timeout_ms
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._db: _Connection | None = None  # opened, used and closed in the thread only

    async def start(self) -> None:
        self._thread = threading.Thread(target=self._serve, name="ludibot-sqlite", daemon=True)
        self._thread.start()
        await self.call(self._connect)

    def _connect(self, _db: None) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, factory=_Connection)
        db.row_factory = sqlite3.Row
        db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        self._db = db

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(connection, *args)`` in the database thread; its result (or its exception)."""
        if self._thread is None:
            raise RuntimeError("store is not open")
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._jobs.put((loop, fut, fn, args))
        return await fut

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                break
            loop, fut, fn, args = job
            if fut.cancelled():  # its caller gave up before it started: it never runs
                continue
            try:
                value, ok = fn(self._db, *args), True
            except BaseException as exc:  # noqa: BLE001 - handed to the awaiting coroutine
                value, ok = exc, False
            try:
                loop.call_soon_threadsafe(_settle, fut, ok, value)
            except RuntimeError:  # that loop is closed: nobody waits for the answer
                pass
        if self._db is not None:
            self._db.close()

    async def close(self) -> None:
        if self._thread is None:
            return
        thread, self._thread = self._thread, None
        self._jobs.put(None)
        await asyncio.to_thread(thread.join, 10)


class SQLiteStore(Store):
    """SQLite: WAL mode, busy timeout, numbered migrations.

    One connection per process, in its own thread (:class:`DatabaseThread`): each method runs as
    one function there, its transaction whole. Several processes may share the file: WAL + busy
    timeout + the version compare-and-swap keep them honest.
    """

    def __init__(self, path: str, *, clock: Callable[[], float] = time.time, busy_timeout_ms: int = 5000):
        self.path = path
        self.clock = clock
        self.busy_timeout_ms = busy_timeout_ms
        self._thread: DatabaseThread | None = None
        #: the automatic backup made before the last migration (None: nothing to migrate)
        self.last_backup: str | None = None

    latest_schema = LATEST

    async def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self._thread is None:
            raise RuntimeError("store is not open")
        return await self._thread.call(fn, *args)

    async def execute(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        """One statement outside the store's interface (tools, tests, benchmarks); its rows."""
        return await self._call(lambda db: db.execute(sql, params).fetchall())

    async def executemany(self, sql: str, rows: list[tuple]) -> None:
        await self._call(lambda db: db.executemany(sql, rows))

    async def open(self) -> None:
        self._thread = DatabaseThread(self.path, self.busy_timeout_ms)
        try:
            await self._thread.start()
            await self._call(self._setup)
            await self.migrate()
        except BaseException:
            await self.close()
            raise

    def _setup(self, db: _Connection) -> None:
        if self.path != ":memory:":
            self._wal(db)
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")

    def _wal(self, db: _Connection) -> None:
        """Switch to WAL. Changing the journal mode needs the file to itself and SQLite does not
        wait for it (no busy handler): another process opening the file at the same moment makes it
        fail with "database is locked", so it is retried for as long as the busy timeout."""
        deadline = time.monotonic() + self.busy_timeout_ms / 1000
        while True:
            try:
                db.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as err:
                if "locked" not in str(err) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    async def close(self) -> None:
        if self._thread is not None:
            thread, self._thread = self._thread, None
            await thread.close()

    async def healthy(self) -> bool:
        """The file is still there (not deleted or unmounted under the open connection) and answers."""
        if self.path != ":memory:" and not os.path.exists(self.path):
            return False
        try:
            await self._fetchall("SELECT 1 FROM meta LIMIT 1")
        except Exception:
            return False
        return True

    async def reserve_slot(self, key: str, now: float, window: float) -> float:
        def work(db):  # IMMEDIATE: one process at a time reads and books
            with db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cur:
                row = cur.fetchone()
            at = max(now, float(row["value"]) if row else now)
            db.execute("INSERT INTO meta (key, value) VALUES (?, ?) "
                       "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, repr(at + window)))
            return at

        return await self._tx(work)

    async def count_running(self) -> dict[str, int]:
        rows = await self._fetchall("SELECT kind, COUNT(*) AS n FROM games WHERE status = 'running' GROUP BY kind")
        return {r["kind"]: r["n"] for r in rows}

    @staticmethod
    def _version(db: _Connection) -> int:
        with db.execute("PRAGMA user_version") as cur:
            return int(cur.fetchone()[0])

    async def schema_version(self) -> int:
        return await self._call(self._version)

    async def migrate(self) -> None:
        current = await self.schema_version()
        if current > LATEST:
            raise SchemaTooNew(current, LATEST)
        if 0 < current < LATEST and self.path != ":memory:":
            # an existing database about to change: a copy first, named after its schema number
            self.last_backup = await self._call(self._backup_to, backup_name(self.path, current))
        await self._call(self._migrate)

    def _migrate(self, db: _Connection) -> None:
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= self._version(db):
                continue
            db.execute("BEGIN IMMEDIATE")
            try:
                # re-read under the write lock: another process may have just applied it
                if self._version(db) >= number:
                    db.execute("COMMIT")
                    continue
                for statement in script.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {number}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    @staticmethod
    def _backup_to(db: _Connection, target: str) -> str:
        """A consistent copy of the open database (SQLite's online backup API), safe while in use."""
        tmp = f"{target}.part"
        Path(tmp).unlink(missing_ok=True)
        dest = sqlite3.connect(tmp)
        try:
            db.backup(dest)
        finally:
            dest.close()
        os.replace(tmp, target)
        return target

    async def backup(self, target: str) -> str:
        """``python -m bot backup``: copy the database to ``target`` while the bot may run."""
        return await self._call(self._backup_to, target)

    # --- helpers -----------------------------------------------------------------
    async def _tx(self, work: Callable[[_Connection], Any]) -> Any:
        """Run ``work(db)`` in one IMMEDIATE transaction, in the database thread; roll back on any
        error or when it returns False."""
        return await self._call(self._transaction, work)

    @staticmethod
    def _transaction(db: _Connection, work: Callable[[_Connection], Any]) -> Any:
        db.execute("BEGIN IMMEDIATE")
        try:
            result = work(db)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("ROLLBACK" if result is False else "COMMIT")
        return result

    async def _fetchall(self, sql: str, params: tuple = ()) -> list[sqlite3.Row]:
        return await self._call(lambda db: db.execute(sql, params).fetchall())

    @staticmethod
    def _seat(row: sqlite3.Row) -> Seat:
        return Seat(seat=row["seat"], user_id=row["user_id"], name=row["name"],
                    ai_level=row["ai_level"], locale=row["locale"])

    def _game(self, row: sqlite3.Row, seats: list[Seat]) -> GameRow:
        return game_from(row, seats)

    async def _games(self, where: str, params: tuple) -> list[GameRow]:
        def read(db):  # the games and their seats from one snapshot
            db.execute("BEGIN")
            try:
                rows = db.execute(f"SELECT games.*, archives.state AS packed FROM games LEFT JOIN archives "
                                  f"ON archives.game_id = games.id WHERE {where} ORDER BY games.id", params).fetchall()
                if not rows:
                    return [], []
                ids = [r["id"] for r in rows]
                marks = ",".join("?" * len(ids))
                return rows, db.execute(f"SELECT * FROM seats WHERE game_id IN ({marks}) ORDER BY game_id, seat",
                                        tuple(ids)).fetchall()
            finally:
                db.execute("COMMIT")

        rows, seat_rows = await self._call(read)
        if not rows:
            return []
        by_game: dict[int, list[Seat]] = {r["id"]: [] for r in rows}
        for s in seat_rows:
            by_game[s["game_id"]].append(self._seat(s))
        games = [self._game(r, by_game[r["id"]]) for r in rows]
        for row, game in zip(rows, games, strict=True):
            if game.broken and not row["broken"]:  # found unreadable just now: store why (logged once)
                await self.mark_broken(game.id, game.broken)
        return games

    async def mark_broken(self, game_id: int, reason: str) -> bool:
        def work(db):
            cur = db.execute("UPDATE games SET broken = ? WHERE id = ? AND broken IS NULL",
                                   (reason[:500], game_id))
            return cur.rowcount == 1

        newly = await self._tx(work)
        if newly:
            log.error("game %s cannot be read and is set aside: %s", game_id, reason)
        return newly

    async def broken_games(self, guild_id: int | None) -> list[GameRow]:
        return await self._games("guild_id IS ? AND broken IS NOT NULL AND status IN ('lobby', 'running')",
                                 (guild_id,))

    @staticmethod
    def _write_seats(db: sqlite3.Connection, game_id: int, seats: list[Seat]) -> None:
        db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, ai_level, locale) VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.name, s.ai_level, s.locale) for s in seats],
        )

    def _bump(self, db: sqlite3.Connection, game_id: int, old_version: int, sets: str = "",
                    params: tuple = ()) -> bool:
        cur = db.execute(
            f"UPDATE games SET version = version + 1, updated_at = ?{sets} WHERE id = ? AND version = ?",
            (self.clock(), *params, game_id, old_version),
        )
        return cur.rowcount == 1

    # --- games -------------------------------------------------------------------
    async def create_game(self, *, kind, guild_id, channel_id, creator, options, seed, settings=None) -> GameRow:
        now = self.clock()

        def work(db):
            cur = db.execute(
                "INSERT INTO games (guild_id, channel_id, kind, options, status, seed, creator_id, "
                "created_at, updated_at, settings) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                (guild_id, channel_id, kind, _dump(options), seed, creator.user_id, now, now, _dump(settings or {})),
            )
            game_id = cur.lastrowid
            self._write_seats(db, game_id, [creator])
            return game_id

        game_id = await self._tx(work)
        game = await self.get_game(game_id)
        assert game is not None
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        games = await self._games("id = ?", (game_id,))
        return games[0] if games else None

    async def games_in_channel(self, channel_id, statuses=ACTIVE, kind=None) -> list[GameRow]:
        marks = ",".join("?" * len(statuses))
        where = f"(channel_id = ? OR thread_id = ?) AND status IN ({marks})"
        params: tuple = (channel_id, channel_id, *statuses)
        if kind is not None:
            where += " AND kind = ?"
            params += (kind,)
        return await self._games(where, params)

    async def games_with_status(self, statuses, guild_id=None) -> list[GameRow]:
        marks = ",".join("?" * len(statuses))
        where = f"status IN ({marks})"
        params: tuple = tuple(statuses)
        if guild_id is not None:
            where += " AND guild_id = ?"
            params += (guild_id,)
        return await self._games(where, params)

    async def update_lobby(self, game_id, old_version, seats) -> bool:
        def work(db):
            if not self._bump(db, game_id, old_version):
                return False
            self._write_seats(db, game_id, seats)
            return True

        return await self._tx(work)

    async def start_game(self, game_id, old_version, seats, state, expected=None) -> bool:
        def work(db):
            now = self.clock()
            cur = db.execute(
                "UPDATE games SET version = version + 1, updated_at = ?, status = 'running', state = ? "
                "WHERE id = ? AND version = ? AND status = 'lobby'",
                (now, _dump(state), game_id, old_version),
            )
            if cur.rowcount != 1:
                return False
            self._write_seats(db, game_id, seats)
            if expected is not None:
                self._write_turns(db, game_id, old_version + 1, turn_times({}, expected, None, now))
            return True

        return await self._tx(work)

    @staticmethod
    def _write_turns(db: sqlite3.Connection, game_id: int, version: int, since: dict[int, float]) -> None:
        """The turn columns of ``game_id`` at ``version`` (``since``: the expected seats)."""
        db.execute("UPDATE seats SET turn_since = NULL WHERE game_id = ? AND turn_since IS NOT NULL",
                         (game_id,))
        if since:
            db.executemany("UPDATE seats SET turn_since = ? WHERE game_id = ? AND seat = ?",
                                 [(at, game_id, seat) for seat, at in since.items()])
        db.execute("UPDATE games SET turn_since = ?, turn_version = ? WHERE id = ?",
                         (min(since.values()) if since else None, version, game_id))

    async def set_status(self, game_id, old_version, status) -> bool:
        def work(db):
            finished = self.clock() if status in (FINISHED, CANCELLED) else None
            if not self._bump(db, game_id, old_version, ", status = ?, finished_at = ?", (status, finished)):
                return False
            if finished is not None:
                self._write_turns(db, game_id, old_version + 1, {})  # an ended game: nobody's turn
                with db.execute("SELECT state FROM games WHERE id = ?", (game_id,)) as cur:
                    row = cur.fetchone()
                state = readable_json(row["state"])
                if state is not None:  # a cancelled running game: its log goes to the archive too
                    self._archive(db, game_id, state)
            return True

        return await self._tx(work)

    async def archive_ended(self, limit: int = 500) -> int:
        def work(db):
            with db.execute("SELECT id, state FROM games WHERE status IN ('finished', 'cancelled') AND broken IS NULL "
                                  "AND state IS NOT NULL LIMIT ?", (limit,)) as cur:
                rows = list(cur.fetchall())
            for r in rows:
                state = readable_json(r["state"])
                if state is not None:
                    self._archive(db, r["id"], state)
            return len(rows)

        return await self._tx(work)

    async def commit_action(self, game_id, old_version, *, state, seat, user_id, action, events,
                            status=RUNNING, results=None, settings=None, expected=None) -> GameRow | None:
        now = self.clock()
        text = _dump(state)

        def work(db):
            finished = now if status in (FINISHED, CANCELLED) else None
            sets, params = "state = ?, status = ?, finished_at = ?", [text, status, finished]
            if settings is not None:
                sets += ", settings = ?"
                params.append(_dump(settings))
            with db.execute(
                    f"UPDATE games SET version = version + 1, updated_at = ?, {sets} "
                    "WHERE id = ? AND version = ? RETURNING *",
                    (now, *params, game_id, old_version)) as cur:
                row = cur.fetchone()
            if row is None:
                return False
            db.execute(
                "INSERT INTO events (game_id, version, seat, user_id, action, events, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, old_version + 1, seat, user_id, _dump(action), _dump(events), now),
            )
            if results:
                db.executemany(
                    "INSERT OR REPLACE INTO results (game_id, seat, user_id, score, rank) VALUES (?, ?, ?, ?, ?)",
                    [(game_id, r.seat, r.user_id, r.score, r.rank) for r in results],
                )
            with db.execute("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)) as cur:
                seat_rows = list(cur.fetchall())
            if expected is not None or finished is not None:
                old = {r["seat"]: r["turn_since"] for r in seat_rows}
                now_expected = expected if finished is None else ()
                self._write_turns(db, game_id, old_version + 1, turn_times(old, now_expected, seat, now))
            if finished is not None:
                self._archive(db, game_id, state)
            # the row as it now is (what get_game would read back), without reading it again
            return self._game(row, [self._seat(r) for r in seat_rows])

        result = await self._tx(work)
        return None if result is False else result

    # --- whose turn, since when (issue 16) ------------------------------------------------------
    _TURN_COLUMNS = ("g.id, g.kind, g.guild_id, g.channel_id, g.thread_id, g.control_message_id, g.updated_at, "
                     "(SELECT json_group_array(x.name) FROM (SELECT name FROM seats x WHERE x.game_id = g.id "
                     "AND x.turn_since IS NOT NULL ORDER BY x.seat) x) AS waiting")

    async def turn_lists(self, guild_id, user_id, limit) -> TurnLists:
        mine = await self._fetchall(
            f"SELECT {self._TURN_COLUMNS}, s.turn_since AS since FROM seats s INDEXED BY seats_turns CROSS JOIN "
            "games g ON g.id = s.game_id WHERE s.user_id = ? AND s.turn_since IS NOT NULL AND g.guild_id = ? AND g.status = 'running' "
            "AND g.broken IS NULL ORDER BY s.turn_since, g.id LIMIT ?", (user_id, guild_id, limit))
        others = await self._fetchall(
            f"SELECT {self._TURN_COLUMNS}, g.turn_since AS since FROM games g INDEXED BY games_turns "
            "WHERE g.guild_id = ? AND g.status = 'running' AND g.broken IS NULL AND NOT EXISTS "
            "(SELECT 1 FROM seats m WHERE m.game_id = g.id AND m.user_id = ? AND m.turn_since IS NOT NULL) "
            "ORDER BY g.turn_since, g.id LIMIT ?", (guild_id, user_id, limit))
        counts = await self._fetchall(
            "SELECT (SELECT COUNT(*) FROM games INDEXED BY games_turns WHERE guild_id = ? AND status = 'running' "
            "AND broken IS NULL) AS total, (SELECT COUNT(*) FROM seats s INDEXED BY seats_turns CROSS JOIN games g "
            "ON g.id = s.game_id WHERE s.user_id = ? AND s.turn_since IS NOT NULL AND g.guild_id = ? "
            "AND g.status = 'running' AND g.broken IS NULL) AS mine", (guild_id, user_id, guild_id))
        total, mine_total = counts[0]["total"], counts[0]["mine"]
        return TurnLists(mine=[turn_from(r) for r in mine], mine_total=mine_total,
                         others=[turn_from(r) for r in others], others_total=total - mine_total)

    async def running_after(self, after_id, limit=50) -> list[GameRow]:
        return await self._games("games.id IN (SELECT id FROM games WHERE status = 'running' AND broken IS NULL "
                                 "AND id > ? ORDER BY id LIMIT ?)", (after_id, limit))

    async def stale_turns(self, limit=200) -> list[GameRow]:
        return await self._games(
            "games.id IN (SELECT id FROM games WHERE status = 'running' AND broken IS NULL "
            "AND turn_version IS NOT version ORDER BY id LIMIT ?)", (limit,))

    async def set_turns(self, game_id, version, since) -> bool:
        def work(db):
            with db.execute("SELECT 1 FROM games WHERE id = ? AND version = ? AND status = 'running'",
                                  (game_id, version)) as cur:
                if cur.fetchone() is None:
                    return False
            self._write_turns(db, game_id, version, dict(since))
            return True

        return await self._tx(work)

    async def seats_without_deadline(self) -> list[dict[str, Any]]:
        rows = await self._fetchall(
            "SELECT g.id AS game_id, g.guild_id, g.kind, g.version, g.updated_at, s.seat "
            "FROM seats s INDEXED BY seats_expected JOIN games g ON g.id = s.game_id "
            "WHERE s.turn_since IS NOT NULL AND s.ai_level IS NULL AND g.status = 'running' AND g.broken IS NULL "
            "AND g.turn_version = g.version AND NOT EXISTS (SELECT 1 FROM deadlines d WHERE d.game_id = s.game_id "
            "AND d.seat = s.seat AND d.version >= COALESCE((SELECT MAX(e.version) FROM events e "
            "WHERE e.game_id = s.game_id AND e.seat = s.seat), -1)) ORDER BY g.id, s.seat")
        return [dict(r) for r in rows]

    async def set_message_ids(self, game_id, *, lobby=None, control=None) -> None:
        def work(db):
            if lobby is not None:
                db.execute("UPDATE games SET lobby_message_id = ? WHERE id = ?", (lobby, game_id))
            if control is not None:
                db.execute("UPDATE games SET control_message_id = ? WHERE id = ?", (control, game_id))
            return True

        await self._tx(work)

    async def set_thread(self, game_id, thread_id) -> int | None:
        def work(db):
            db.execute("UPDATE games SET thread_id = ? WHERE id = ? AND thread_id IS NULL", (thread_id, game_id))
            with db.execute("SELECT thread_id FROM games WHERE id = ?", (game_id,)) as cur:
                row = cur.fetchone()
            return row["thread_id"] if row else None

        return await self._tx(work)

    @staticmethod
    def _archive(db: sqlite3.Connection, game_id: int, state: Any) -> None:
        """An ended game: its state and log become one compressed row (lean storage; read back alike)."""
        with db.execute("SELECT * FROM events WHERE game_id = ? ORDER BY version", (game_id,)) as cur:
            log = [event_from(r) for r in cur.fetchall()]
        db.execute("INSERT OR REPLACE INTO archives (game_id, state, events) VALUES (?, ?, ?)",
                         (game_id, pack(state), pack_log(log)))
        db.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
        db.execute("UPDATE games SET state = NULL WHERE id = ?", (game_id,))

    async def _archived_log(self, game_id: int) -> list[EventRow] | None:
        rows = await self._fetchall("SELECT events FROM archives WHERE game_id = ?", (game_id,))
        return unpack_log(game_id, rows[0]["events"]) if rows else None

    async def events(self, game_id) -> list[EventRow]:
        rows = await self._fetchall("SELECT * FROM events WHERE game_id = ? ORDER BY version", (game_id,))
        if not rows:
            return await self._archived_log(game_id) or []
        return [event_from(r) for r in rows]

    async def events_after(self, game_id, version) -> list[EventRow]:
        rows = await self._fetchall("SELECT * FROM events WHERE game_id = ? AND version > ? ORDER BY version",
                                    (game_id, version))
        if not rows and (log := await self._archived_log(game_id)) is not None:
            return [e for e in log if e.version > version]
        return [event_from(r) for r in rows]

    async def mark_published(self, game_id, version, message_id) -> bool:
        def work(db):
            cur = db.execute(
                "UPDATE games SET published_version = ?, control_message_id = COALESCE(?, control_message_id) "
                "WHERE id = ? AND published_version < ?", (version, message_id, game_id, version))
            return cur.rowcount == 1

        return await self._tx(work)

    async def unpublished_games(self, limit=100) -> list[GameRow]:
        return await self._games(
            "id IN (SELECT id FROM games WHERE published_version < version "
            "AND paused IS NULL AND broken IS NULL ORDER BY updated_at LIMIT ?)", (limit,))

    async def set_paused(self, game_id, reason, now) -> None:
        def work(db):
            if reason is None:
                with db.execute("SELECT paused FROM games WHERE id = ?", (game_id,)) as cur:
                    row = cur.fetchone()
                since = _paused_since(row["paused"] if row else None)
                if since is not None and now > since:
                    db.execute("UPDATE deadlines SET due = due + ? WHERE game_id = ? AND state = 'pending'",
                                     (now - since, game_id))
            db.execute("UPDATE games SET paused = ? WHERE id = ?", (reason, game_id))
            return True

        await self._tx(work)

    async def paused_games(self, guild_id) -> list[GameRow]:
        if guild_id is None:
            return await self._games("guild_id IS NULL AND paused IS NOT NULL AND status IN ('running', 'finished')",
                                     ())
        return await self._games("guild_id = ? AND paused IS NOT NULL AND status IN ('running', 'finished')",
                                 (guild_id,))

    async def results(self, game_id) -> list[ResultRow]:
        rows = await self._fetchall("SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
        return [ResultRow(game_id=r["game_id"], seat=r["seat"], user_id=r["user_id"], score=r["score"],
                          rank=r["rank"]) for r in rows]

    async def guild_settings(self, guild_id) -> dict[str, Any]:
        if (cached := self.cached_settings(guild_id)) is not None:
            return cached
        generation = self.settings_generation()
        rows = await self._fetchall("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return self.remember_settings(guild_id, json.loads(rows[0]["settings"]) if rows else {}, generation)

    async def set_guild_settings(self, guild_id, settings) -> None:
        def work(db):
            db.execute(
                "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
                (guild_id, _dump(settings)),
            )
            return True

        self.forget_settings(guild_id)
        await self._tx(work)
        self.forget_settings(guild_id)

    async def get_meta(self, key) -> str | None:
        rows = await self._fetchall("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0]["value"] if rows else None

    async def set_meta(self, key, value) -> None:
        def work(db):
            db.execute("INSERT INTO meta (key, value) VALUES (?, ?) "
                             "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))
            return True

        await self._tx(work)

    # --- playing over days (issue 9): deadlines, preferences, ratings ---------------------------
    @staticmethod
    def _deadline(r: sqlite3.Row) -> Deadline:
        return deadline_from(r)

    async def schedule_deadlines(self, game_id, version, since, entries) -> None:
        def work(db):
            for seat in sorted({seat for seat, _, _ in entries}):
                # older epochs go (lean storage); a leased one is being fired: its owner closes it
                db.execute(
                    "DELETE FROM deadlines WHERE game_id = ? AND seat = ? AND version < ? AND (state <> 'pending' "
                    "OR lease_until IS NULL OR lease_until <= ?)", (game_id, seat, version, since))
            db.executemany(
                "INSERT OR IGNORE INTO deadlines (game_id, seat, kind, version, due, since) VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, seat, kind, version, due, since) for seat, kind, due in entries])
            return True

        if entries:
            await self._tx(work)

    async def due_deadlines(self, now, limit=100, shards=None) -> list[Deadline]:
        # a paused game's clocks are stopped; ``shards``: only the games of those shards' servers
        where, params = "", ()
        if shards is not None:
            ids, count = shards
            ids = sorted({int(i) for i in ids})
            if not ids:
                return []
            where = (f"AND (CASE WHEN g.guild_id IS NULL THEN 0 ELSE (g.guild_id >> 22) % ? END) "
                     f"IN ({', '.join('?' * len(ids))}) ")
            params = (int(count), *ids)
        rows = await self._fetchall(
            "SELECT d.*, COALESCE(g.thread_id, g.channel_id) AS channel FROM deadlines d JOIN games g "
            "ON g.id = d.game_id WHERE d.state = 'pending' AND d.due <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?) "
            f"AND g.paused IS NULL {where}"
            "ORDER BY d.due, d.game_id, d.kind, d.seat LIMIT ?",
            (now, now, *params, limit))
        return [self._deadline(r) for r in rows]

    async def claim_deadline(self, key, now, lease) -> bool:
        def work(db):
            cur = db.execute(
                "UPDATE deadlines SET lease_until = ?, attempts = attempts + 1 WHERE game_id = ? AND seat = ? "
                "AND kind = ? AND version = ? AND state = 'pending' AND (lease_until IS NULL OR lease_until <= ?)",
                (now + lease, *key, now))
            return cur.rowcount == 1

        return await self._tx(work)

    async def close_deadline(self, key, state, now) -> bool:
        def work(db):
            if state == VOID:  # a void deadline is not history: it goes
                cur = db.execute("DELETE FROM deadlines WHERE game_id = ? AND seat = ? AND kind = ? "
                                       "AND version = ? AND state = 'pending'", key)
                return cur.rowcount == 1
            cur = db.execute(
                "UPDATE deadlines SET state = ?, fired_at = ?, lease_until = NULL WHERE game_id = ? AND seat = ? "
                "AND kind = ? AND version = ? AND state = 'pending'", (state, now, *key))
            return cur.rowcount == 1

        return await self._tx(work)

    async def release_deadline(self, key) -> None:
        def work(db):
            db.execute("UPDATE deadlines SET lease_until = NULL WHERE game_id = ? AND seat = ? AND kind = ? "
                             "AND version = ? AND state = 'pending'", key)
            return True

        await self._tx(work)

    async def void_game_deadlines(self, game_id, now) -> None:
        def work(db):
            # a deadline leased right now is being fired (e.g. the timeout that forfeits): its owner closes it
            db.execute("DELETE FROM deadlines WHERE game_id = ? AND (state <> 'pending' "
                             "OR lease_until IS NULL OR lease_until <= ?)", (game_id, now))
            return True

        await self._tx(work)

    async def deadlines_of(self, game_id) -> list[Deadline]:
        rows = await self._fetchall("SELECT * FROM deadlines WHERE game_id = ? ORDER BY version, seat, kind",
                                    (game_id,))
        return [self._deadline(r) for r in rows]

    async def latest_deadline_version(self, game_id, seat) -> int | None:
        rows = await self._fetchall("SELECT MAX(version) AS v FROM deadlines WHERE game_id = ? AND seat = ?",
                                    (game_id, seat))
        return rows[0]["v"] if rows else None

    async def seat_actions(self, game_id, seat, limit=10) -> list[EventRow]:
        rows = await self._fetchall("SELECT * FROM events WHERE game_id = ? AND seat = ? ORDER BY version DESC "
                                    "LIMIT ?", (game_id, seat, limit))
        if not rows and (log := await self._archived_log(game_id)) is not None:
            return [e for e in reversed(log) if e.seat == seat][:limit]
        return [event_from(r) for r in rows]

    async def cast_ballot(self, game_id, seat, epoch, voter, choice, now) -> None:
        def work(db):
            db.execute("INSERT INTO ballots (game_id, seat, epoch, voter, choice, cast_at) VALUES (?, ?, ?, ?, ?, ?) "
                             "ON CONFLICT (game_id, seat, epoch, voter) DO UPDATE SET choice = excluded.choice, "
                             "cast_at = excluded.cast_at", (game_id, seat, epoch, voter, choice, now))
            return True

        await self._tx(work)

    async def ballots(self, game_id, seat, epoch) -> dict[int, str]:
        rows = await self._fetchall("SELECT voter, choice FROM ballots WHERE game_id = ? AND seat = ? AND epoch = ? "
                                    "ORDER BY voter", (game_id, seat, epoch))
        return {r["voter"]: r["choice"] for r in rows}

    async def turn_since(self, game_ids) -> dict[tuple[int, int], float]:
        if not game_ids:
            return {}
        marks = ",".join("?" * len(game_ids))
        rows = await self._fetchall(
            f"SELECT game_id, seat, MAX(version) AS v, since FROM deadlines WHERE game_id IN ({marks}) "
            "GROUP BY game_id, seat", tuple(game_ids))
        return {(r["game_id"], r["seat"]): r["since"] for r in rows}

    async def user_prefs(self, user_id) -> dict[str, Any]:
        rows = await self._fetchall("SELECT prefs FROM user_prefs WHERE user_id = ?", (user_id,))
        return json.loads(rows[0]["prefs"]) if rows else {}

    async def set_user_prefs(self, user_id, prefs) -> None:
        def work(db):
            db.execute("INSERT INTO user_prefs (user_id, prefs) VALUES (?, ?) "
                             "ON CONFLICT (user_id) DO UPDATE SET prefs = excluded.prefs", (user_id, _dump(prefs)))
            return True

        await self._tx(work)

    # --- vacations (issue 15) ---------------------------------------------------------------
    async def vacations(self, user_id, since) -> list[tuple[float, float]]:
        rows = await self._fetchall("SELECT starts_at, ends_at FROM vacations WHERE user_id = ? AND ends_at > ? "
                                    "ORDER BY starts_at", (user_id, since))
        return [(r["starts_at"], r["ends_at"]) for r in rows]

    async def running_vacations(self, now) -> dict[int, float]:
        rows = await self._fetchall("SELECT user_id, MAX(ends_at) AS e FROM vacations WHERE starts_at <= ? "
                                    "AND ends_at > ? GROUP BY user_id", (now, now))
        return {r["user_id"]: r["e"] for r in rows}

    async def set_vacation(self, user_id, now, until) -> float:
        def work(db):
            with db.execute("SELECT starts_at, ends_at FROM vacations WHERE user_id = ? AND starts_at <= ? "
                                  "AND ends_at > ?", (user_id, now, now)) as cur:
                running = list(cur.fetchall())
            old_end = max([now, *(r["ends_at"] for r in running)])
            for r in running:  # the running vacation ends now (a new one replaces it)
                if r["starts_at"] >= now:
                    db.execute("DELETE FROM vacations WHERE user_id = ? AND starts_at = ?",
                                     (user_id, r["starts_at"]))
                else:
                    db.execute("UPDATE vacations SET ends_at = ? WHERE user_id = ? AND starts_at = ?",
                                     (now, user_id, r["starts_at"]))
            new_end = max(now, until)
            if new_end > now:
                db.execute("INSERT INTO vacations (user_id, starts_at, ends_at) VALUES (?, ?, ?)",
                                 (user_id, now, new_end))
            shift = new_end - old_end
            if shift:
                db.execute(
                    "UPDATE deadlines SET due = due + ? WHERE state = 'pending' AND EXISTS (SELECT 1 FROM seats s "
                    "JOIN games g ON g.id = s.game_id WHERE s.game_id = deadlines.game_id AND s.seat = deadlines.seat "
                    "AND s.user_id = ? AND g.status = 'running')", (shift, user_id))
            return shift

        try:
            return await self._tx(work)
        finally:
            self.forget_vacations()

    async def rate_game(self, game_id, compute) -> bool:
        def work(db):
            with db.execute("SELECT 1 FROM rated_games WHERE game_id = ?", (game_id,)) as cur:
                if cur.fetchone():
                    return False
            with db.execute("SELECT guild_id, kind, status, finished_at, updated_at FROM games WHERE id = ?",
                                  (game_id,)) as cur:
                game = cur.fetchone()
            if game is None or game["status"] != FINISHED:
                return False
            with db.execute("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)) as cur:
                seats = {r["seat"]: self._seat(r) for r in cur.fetchall()}
            with db.execute("SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,)) as cur:
                results = [ResultRow(game_id=r["game_id"], seat=r["seat"], user_id=r["user_id"], score=r["score"],
                                     rank=r["rank"]) for r in cur.fetchall()]
            humans = [r for r in results if r.user_id is not None]
            solo = len(seats) == 1
            finished_at = game["finished_at"] or game["updated_at"]
            guild_id, kind = game["guild_id"], game["kind"]
            db.execute("INSERT INTO rated_games (game_id, guild_id, kind, finished_at, solo, humans) "
                             "VALUES (?, ?, ?, ?, ?, ?)", (game_id, guild_id, kind, finished_at, int(solo),
                                                           len(humans)))
            if guild_id is None or solo or not humans:
                return True
            marks = ",".join("?" * len(humans))
            with db.execute(f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND kind = ? "
                                  f"AND user_id IN ({marks})", (guild_id, kind, *[r.user_id for r in humans])) as cur:
                current = {r["user_id"]: (r["mu"], r["sigma"]) for r in cur.fetchall()}
            info = {"id": game_id, "guild_id": guild_id, "kind": kind, "finished_at": finished_at}
            new = compute(info, results, current)
            rows = []
            for r in humans:
                mu, sigma = new.get(r.user_id) or current[r.user_id]
                name = seats[r.seat].name if r.seat in seats else str(r.user_id)
                rows.append((guild_id, kind, r.user_id, name, mu, sigma, mu - 3 * sigma, int(r.rank == 1), r.score,
                             finished_at))
            db.executemany(
                "INSERT INTO ratings (guild_id, kind, user_id, name, mu, sigma, ordinal, games, wins, best_score, "
                "last_played) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?) "
                "ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
                "sigma = excluded.sigma, ordinal = excluded.ordinal, games = games + 1, "
                "wins = wins + excluded.wins, "
                "best_score = MAX(COALESCE(best_score, excluded.best_score), "
                "COALESCE(excluded.best_score, best_score)), "
                "last_played = MAX(COALESCE(last_played, 0), excluded.last_played)", rows)
            return True

        return await self._tx(work)

    async def unrated_games(self) -> list[int]:
        rows = await self._fetchall(
            "SELECT id FROM games WHERE status = 'finished' AND broken IS NULL "
            "AND id NOT IN (SELECT game_id FROM rated_games) "
            "ORDER BY finished_at, id")
        return [r["id"] for r in rows]

    @staticmethod
    def _rating(r: sqlite3.Row, guild_id: int, kind: str) -> RatingRow:
        return RatingRow(guild_id=guild_id, kind=kind, user_id=r["user_id"], name=r["name"], mu=r["mu"],
                         sigma=r["sigma"], ordinal=r["ordinal"], games=r["games"], wins=r["wins"] or 0,
                         best_score=r["best_score"], last_played=r["last_played"])

    async def leaderboard(self, guild_id, kind, since=None, limit=20) -> list[RatingRow]:
        if since is None:
            rows = await self._fetchall(
                "SELECT * FROM ratings WHERE guild_id = ? AND kind = ? ORDER BY ordinal DESC, games DESC, name "
                "LIMIT ?", (guild_id, kind, limit))
        else:
            rows = await self._fetchall(
                "SELECT t.user_id, t.games, t.wins, t.best_score, p.name, p.mu, p.sigma, p.ordinal, p.last_played "
                "FROM (SELECT r.user_id, COUNT(*) AS games, SUM(r.rank = 1) AS wins, MAX(r.score) AS best_score "
                "      FROM rated_games g JOIN results r ON r.game_id = g.game_id "
                "      WHERE g.guild_id = ? AND g.kind = ? AND g.solo = 0 AND g.finished_at >= ? "
                "      AND r.user_id IS NOT NULL GROUP BY r.user_id) t "
                "JOIN ratings p ON p.guild_id = ? AND p.kind = ? AND p.user_id = t.user_id "
                "ORDER BY p.ordinal DESC, t.games DESC, p.name LIMIT ?",
                (guild_id, kind, since, guild_id, kind, limit))
        return [self._rating(r, guild_id, kind) for r in rows]

    async def player_ratings(self, guild_id, user_id) -> list[tuple[RatingRow, int, int]]:
        rows = await self._fetchall("SELECT * FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY kind",
                                    (guild_id, user_id))
        out = []
        for r in rows:
            counts = await self._fetchall(
                "SELECT SUM(ordinal > ?) AS above, COUNT(*) AS total FROM ratings WHERE guild_id = ? AND kind = ?",
                (r["ordinal"], guild_id, r["kind"]))
            out.append((self._rating(r, guild_id, r["kind"]), int(counts[0]["above"] or 0) + 1,
                        int(counts[0]["total"])))
        return out

    async def player_recent(self, guild_id, user_id, limit=5) -> list[dict[str, Any]]:
        rows = await self._fetchall(
            "SELECT g.game_id, g.kind, g.finished_at, g.solo, r.rank, r.score, "
            "(SELECT COUNT(*) FROM results x WHERE x.game_id = g.game_id) AS players "
            "FROM results r JOIN rated_games g ON g.game_id = r.game_id "
            "WHERE r.user_id = ? AND g.guild_id = ? ORDER BY g.finished_at DESC, g.game_id DESC LIMIT ?",
            (user_id, guild_id, limit))
        return [dict(r) for r in rows]

    async def player_solo_best(self, guild_id, user_id) -> dict[str, tuple[int, int]]:
        rows = await self._fetchall(
            "SELECT g.kind, MAX(r.score) AS best, COUNT(*) AS n FROM results r "
            "JOIN rated_games g ON g.game_id = r.game_id "
            "WHERE r.user_id = ? AND g.guild_id = ? AND g.solo = 1 GROUP BY g.kind", (user_id, guild_id))
        return {r["kind"]: (r["best"], r["n"]) for r in rows}

    async def player_completion(self, guild_id, user_id) -> tuple[int, int, int]:
        # a running game cancelled has its archive (its log); a lobby cancelled has none. A forfeit leaves
        # no score and the seat last: only those games' archived logs are looked into.
        rows = await self._fetchall(
            "SELECT g.id, g.status, s.seat, CASE WHEN g.status = 'finished' AND r.rank > 1 AND NOT EXISTS "
            "(SELECT 1 FROM results x WHERE x.game_id = g.id AND x.score IS NOT NULL) THEN a.events END AS log "
            "FROM seats s JOIN games g ON g.id = s.game_id "
            "LEFT JOIN results r ON r.game_id = s.game_id AND r.seat = s.seat "
            "LEFT JOIN archives a ON a.game_id = g.id "
            "WHERE s.user_id = ? AND g.guild_id = ? AND g.broken IS NULL "
            "AND (g.status = 'finished' OR (g.status = 'cancelled' AND a.game_id IS NOT NULL))",
            (user_id, guild_id))
        return completion(rows)

    async def move_times(self, guild_id, user_id, limit=200) -> list[float]:
        live = await self._fetchall(
            "SELECT at, w FROM (SELECT e.user_id, e.created_at AS at, e.created_at - LAG(e.created_at) "
            "OVER (PARTITION BY e.game_id ORDER BY e.version) AS w FROM events e WHERE e.game_id IN "
            "(SELECT s.game_id FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? AND g.guild_id = ?)) t "
            "WHERE t.user_id = ? AND t.w IS NOT NULL ORDER BY t.at DESC LIMIT ?", (user_id, guild_id, user_id, limit))
        found = [(r["at"], r["w"]) for r in live]
        for a in await self._fetchall(
                "SELECT a.game_id, a.events FROM archives a JOIN seats s ON s.game_id = a.game_id "
                "JOIN games g ON g.id = a.game_id WHERE s.user_id = ? AND g.guild_id = ? "
                "ORDER BY a.game_id DESC LIMIT ?", (user_id, guild_id, MOVE_SAMPLE_GAMES)):
            found += move_waits(unpack_log(a["game_id"], a["events"]), user_id)
        found.sort(reverse=True)
        return [w for _, w in found[:limit]]

    async def solo_records(self, guild_id, kind, limit=10) -> list[dict[str, Any]]:
        rows = await self._fetchall(
            "SELECT g.game_id, g.finished_at, r.user_id, r.score, s.name, gm.options FROM rated_games g "
            "JOIN results r ON r.game_id = g.game_id "
            "JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat "
            "LEFT JOIN games gm ON gm.id = g.game_id "
            "WHERE g.guild_id = ? AND g.kind = ? AND g.solo = 1 AND r.score IS NOT NULL "
            "ORDER BY r.score DESC, g.finished_at, g.game_id LIMIT ?", (guild_id, kind, limit))
        return [{**dict(r), "options": json.loads(r["options"] or "{}")} for r in rows]

    async def finished_games(self, guild_id, limit=25, query="") -> list[dict[str, Any]]:
        params: tuple = (guild_id,)
        where = "guild_id = ? AND status = 'finished' AND broken IS NULL"
        if query.isdigit():
            where += " AND CAST(id AS TEXT) LIKE ?"
            params += (f"{query}%",)
        rows = await self._fetchall(f"SELECT id, kind, finished_at FROM games WHERE {where} ORDER BY id DESC "
                                    "LIMIT ?", (*params, limit))
        if not rows:
            return []
        ids = [r["id"] for r in rows]
        marks = ",".join("?" * len(ids))
        names: dict[int, list[str]] = {i: [] for i in ids}
        for s in await self._fetchall(f"SELECT game_id, name FROM seats WHERE game_id IN ({marks}) "
                                      "ORDER BY game_id, seat", tuple(ids)):
            names[s["game_id"]].append(s["name"])
        return [{"id": r["id"], "kind": r["kind"], "finished_at": r["finished_at"], "names": names[r["id"]]}
                for r in rows]

    async def export_guild(self, guild_id) -> dict[str, Any]:
        games = await self._fetchall(
            "SELECT id, kind, channel_id, options, created_at, finished_at FROM games "
            "WHERE guild_id = ? AND status = 'finished' AND broken IS NULL ORDER BY id", (guild_id,))
        ids = [g["id"] for g in games]
        seats: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
        results: dict[int, dict[int, dict[str, Any]]] = {i: {} for i in ids}
        for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
            marks = ",".join("?" * len(chunk))
            for r in await self._fetchall(f"SELECT * FROM results WHERE game_id IN ({marks})", tuple(chunk)):
                results[r["game_id"]][r["seat"]] = {"score": r["score"], "rank": r["rank"]}
            for r in await self._fetchall(f"SELECT * FROM seats WHERE game_id IN ({marks}) ORDER BY game_id, seat",
                                          tuple(chunk)):
                seats[r["game_id"]].append({"seat": r["seat"], "user_id": r["user_id"], "name": r["name"],
                                            "ai_level": r["ai_level"]})
        out_games = []
        for g in games:
            try:
                options = json.loads(g["options"])
            except ValueError:
                options = {}
            out_games.append({
                "id": g["id"], "game": g["kind"], "channel_id": g["channel_id"], "options": options,
                "created_at": g["created_at"], "finished_at": g["finished_at"],
                "players": [{**s, **results[g["id"]].get(s["seat"], {"score": None, "rank": None})}
                            for s in seats[g["id"]]],
            })
        ratings = [{"game": r["kind"], "user_id": r["user_id"], "name": r["name"], "mu": r["mu"],
                    "sigma": r["sigma"], "ordinal": r["ordinal"], "games": r["games"], "wins": r["wins"],
                    "best_score": r["best_score"], "last_played": r["last_played"]}
                   for r in await self._fetchall("SELECT * FROM ratings WHERE guild_id = ? ORDER BY kind, "
                                                 "ordinal DESC, user_id", (guild_id,))]
        return {"guild_id": guild_id, "games": out_games, "ratings": ratings}
