"""The SQLite backend (WAL, one connection in its own thread): the default, one file, nothing to install.

Only the plumbing: the database thread, the dialect, opening, migrating, backups. The queries are
in :mod:`bot.storage.sql`, shared with PostgreSQL.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.storage.base import SchemaTooNew
from bot.storage.migrations import MIGRATIONS as _MIGRATIONS
from bot.storage.migrations import render
from bot.storage.sql import DatabaseThread, Dialect, Result, SQLStore, Tx

SQLITE = Dialect(
    name="sqlite",
    ddl={"serial": "INTEGER PRIMARY KEY AUTOINCREMENT", "bigint": "INTEGER", "real": "REAL", "blob": "BLOB",
         "nulls_first": "", "is_distinct": "IS NOT"},
    same_fmt="{a} IS {b}",
    greatest="MAX",
    array_params=False,
    indexed=True,
    ordered_join="CROSS JOIN",
    json_array="json_array",
    json_agg="json_group_array({})",
)

#: the migrations as SQLite runs them (numbered from 1)
MIGRATIONS: list[str] = [render(m, SQLITE) for m in _MIGRATIONS]

#: the newest schema number this release knows
LATEST = len(MIGRATIONS)


def backup_name(path: str, schema: int) -> str:
    """Where the automatic backup before a migration goes: beside the file, named with its schema."""
    return f"{path}.schema{schema}.bak"

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


class SQLiteTx(Tx):
    dialect = SQLITE
    __slots__ = ("db",)

    def __init__(self, db: _Connection) -> None:
        self.db = db

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        with self.db.execute(sql, params) as cur:
            rows = cur.fetchall()
            return Result(rows, cur.rowcount)


class SQLiteStore(SQLStore):
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
        #: the connection :meth:`_point` reads through on the caller's thread (None: through the thread)
        self._reader: _Connection | None = None
        #: the automatic backup made before the last migration (None: nothing to migrate)
        self.last_backup: str | None = None

    latest_schema = LATEST

    async def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self._thread is None:
            raise RuntimeError("store is not open")
        return await self._thread.call(fn, *args)

    async def executemany(self, sql: str, rows: list[tuple]) -> None:
        await self._call(lambda db: db.executemany(sql, rows))

    async def open(self) -> None:
        self._thread = DatabaseThread(self._connect, name="ludibot-sqlite")
        try:
            await self._thread.start()
            await self._call(self._setup)
            await self.migrate()
            self._reader = self._open_reader()
        except BaseException:
            await self.close()
            raise

    #: how long a read on the caller's thread may wait for the file (ms) before the database thread
    #: takes it over: in WAL mode a reader waits only in rare moments (a checkpoint that resets the
    #: log, a recovery), and the event loop must not wait with it
    READER_BUSY_MS = 20

    def _open_reader(self) -> _Connection | None:
        """A second, read-only connection for :meth:`_point` (WAL lets it read beside the writer; a
        ``:memory:`` database is private to its connection, so it has none)."""
        if self.path == ":memory:":
            return None
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, factory=_Connection)
        db.row_factory = sqlite3.Row
        db.execute(f"PRAGMA busy_timeout = {self.READER_BUSY_MS}")
        db.execute("PRAGMA query_only = ON")
        return db

    async def _point(self, work: Callable[[Tx], Any]) -> Any:
        """A small read by key, run at once on the caller's thread (the event loop), from one snapshot.

        A move made six trips to the database thread, three of them such reads; each trip costs the
        process two thread wake-ups (the database thread's, then the event loop's) and the interpreter
        lock's hand-overs, 40 to 130 µs of CPU on a 2-core virtual machine, on top of the read itself,
        which costs the same on either thread (tens of microseconds, most of it decoding the rows).
        Writes and larger reads stay in the database thread. Anything SQLite refuses here (the file busy for
        longer than :attr:`READER_BUSY_MS`, …) is read again there, which raises what it raises."""
        db = self._reader
        if db is None or self._thread is None:
            return await self._run(work)
        try:
            db.execute("BEGIN")
            try:
                return work(SQLiteTx(db))
            finally:
                db.execute("ROLLBACK")  # a read: nothing to keep, and no snapshot held past it
        except sqlite3.OperationalError:
            if db.in_transaction:  # never left open: it would hold back every checkpoint of the log
                db.execute("ROLLBACK")
            return await self._run(work)

    def _connect(self) -> _Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, factory=_Connection)
        db.row_factory = sqlite3.Row
        db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        return db

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

    def _present(self) -> bool:
        """The file is still there (not deleted or unmounted under the open connection)."""
        return self.path == ":memory:" or os.path.exists(self.path)

    async def close(self) -> None:
        if self._reader is not None:
            reader, self._reader = self._reader, None
            reader.close()
        if self._thread is not None:
            thread, self._thread = self._thread, None
            await thread.close()

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
        """A consistent copy of the open database (SQLite's online backup API), safe while in use. Written
        under a name of this process and thread, then moved: two processes migrating at once each back up
        to the same target (a shared ``.part`` file was unlinked under the other's copy: « disk I/O error »)."""
        tmp = f"{target}.{os.getpid()}.{threading.get_ident()}.part"
        Path(tmp).unlink(missing_ok=True)
        dest = sqlite3.connect(tmp)
        try:
            db.backup(dest)
        except BaseException:
            dest.close()
            Path(tmp).unlink(missing_ok=True)
            raise
        dest.close()
        os.replace(tmp, target)
        return target

    async def backup(self, target: str) -> str:
        """``python -m bot backup``: copy the database to ``target`` while the bot may run."""
        return await self._call(self._backup_to, target)

    # --- the plumbing of bot.storage.sql ----------------------------------------------------
    dialect = SQLITE

    def _session(self, db: _Connection) -> Tx:
        return SQLiteTx(db)

    @staticmethod
    def _transaction(db: _Connection, work: Callable[[Tx], Any]) -> Any:
        """``work`` in one IMMEDIATE transaction (the write lock first: no deadlock between two processes)."""
        db.execute("BEGIN IMMEDIATE")
        try:
            result = work(SQLiteTx(db))
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("ROLLBACK" if result is False else "COMMIT")
        return result

    async def _run(self, work: Callable[[Tx], Any]) -> Any:
        """Reads from one snapshot (a deferred transaction)."""
        def read(db: _Connection) -> Any:
            db.execute("BEGIN")
            try:
                return work(SQLiteTx(db))
            finally:
                db.execute("COMMIT")

        return await self._call(read)
