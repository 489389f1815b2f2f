"""The PostgreSQL backend: for several bot processes on one database.

Only the plumbing: the dialect, a pool of database threads (one psycopg 3 connection each, a store
call run whole in one of them, like SQLite's thread), opening, migrating. The queries are in
:mod:`bot.storage.sql`, shared with SQLite. The same tables and the same migration numbers as SQLite
(the applied number is kept in ``ludibot_schema``); the same compare-and-swap on ``games.version``
(a row lock makes the second writer re-check ``version`` and find it moved).

Round trips: a transaction's ``BEGIN`` travels with its first statements and ``tx.batch`` pipelines
its statements (psycopg's pipeline mode), the last batch with the ``COMMIT``: a move is two round
trips (the compare-and-swap, then the log, the turn columns and the commit together).
JSON is stored as the same compact text as SQLite, so a game's state checksums alike on both.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import psycopg

from bot.storage.base import SchemaTooNew
from bot.storage.migrations import MIGRATIONS as _MIGRATIONS
from bot.storage.migrations import render
from bot.storage.sql import DatabaseThread, Dialect, Result, SQLStore, Step, Tx

POSTGRESQL = Dialect(
    name="postgresql",
    ddl={"serial": "BIGSERIAL PRIMARY KEY", "bigint": "BIGINT", "real": "DOUBLE PRECISION", "blob": "BYTEA",
         "nulls_first": " NULLS FIRST", "is_distinct": "IS DISTINCT FROM"},
    same_fmt="{a} IS NOT DISTINCT FROM {b}",
    greatest="GREATEST",
    array_params=True,
    for_update=" FOR UPDATE",
    skip_locked=" FOR UPDATE SKIP LOCKED",
    nulls_first=" NULLS FIRST",
    json_array="json_build_array",
    json_agg="json_agg({})::text",
    # a transaction-scoped lock (SQLStore._lock: one rater per board, one vacation change per player)
    lock_sql="SELECT pg_advisory_xact_lock(?)",
    lock_text_sql="SELECT pg_advisory_xact_lock(hashtext(?))",
)

#: the migrations as PostgreSQL runs them (numbered from 1)
MIGRATIONS: list[str] = [render(m, POSTGRESQL) for m in _MIGRATIONS]

LATEST = len(MIGRATIONS)

#: any number: the advisory lock that lets one process at a time migrate
_MIGRATION_LOCK = 0x1ad1b07


class Row:
    """A row by column name or position (as ``sqlite3.Row``), ``dict(row)`` included."""

    __slots__ = ("_values", "_index")

    def __init__(self, values: Sequence[Any], index: dict[str, int]) -> None:
        self._values, self._index = values, index

    def __getitem__(self, key: int | str) -> Any:
        return self._values[self._index[key]] if isinstance(key, str) else self._values[key]

    def keys(self) -> list[str]:
        return list(self._index)

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Row({dict(zip(self._index, self._values, strict=False))!r})"


#: column names -> their positions, per shape of result (few: the store's queries)
_INDEXES: dict[tuple[bytes, ...], dict[str, int]] = {}


def _rows(cursor: Any) -> Callable[[Sequence[Any]], Row]:
    """Rows by name: the names read from the result itself (``cursor.description`` builds an object per
    column and statement, a tenth of the store's CPU on the hot path)."""
    res = cursor.pgresult
    names = tuple(res.fname(i) for i in range(res.nfields)) if res is not None else ()
    index = _INDEXES.get(names)
    if index is None:
        index = {n.decode(): i for i, n in enumerate(names)}
        if len(_INDEXES) < 10_000:
            _INDEXES[names] = index
    return lambda values: Row(values, index)


def _result(cursor: Any) -> Result:
    res = cursor.pgresult
    return Result(cursor.fetchall() if res is not None and res.nfields else [], cursor.rowcount)


class PgTx(Tx):
    """One call's connection. In a transaction, ``BEGIN`` is sent with the first statements."""

    dialect = POSTGRESQL
    __slots__ = ("con", "begin", "done")

    def __init__(self, con: psycopg.Connection, begin: bool = False) -> None:
        self.con, self.begin, self.done = con, begin, False

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        if self.begin:
            return self.batch([(sql, params)])[0]
        return _result(self.con.execute(POSTGRESQL.sql(sql), params))

    def batch(self, steps: list[Step], *, final: bool = False) -> list[Result]:
        con = self.con
        with con.pipeline():
            if self.begin:
                con.execute("BEGIN")
                self.begin = False
            cursors = [con.execute(POSTGRESQL.sql(sql), params) for sql, params in steps]
            if final:
                con.execute("COMMIT")
                self.done = True
        return [_result(c) for c in cursors]


class PostgresStore(SQLStore):
    """PostgreSQL through a pool of database threads (one connection each); every write is one transaction.

    ``max_size`` threads (and connections), all opened at start; ``min_size`` is accepted for the callers
    of the asyncpg pool this replaced and has no effect."""

    latest_schema = LATEST
    dialect = POSTGRESQL

    def __init__(self, url: str, *, clock: Callable[[], float] = time.time, min_size: int = 1,
                 max_size: int = 10):
        self.url = url
        self.clock = clock
        self.min_size, self.max_size = min_size, max_size
        self._threads: DatabaseThread | None = None

    def _connect(self) -> psycopg.Connection:
        return psycopg.connect(self.url, autocommit=True, row_factory=_rows)

    async def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self._threads is None:
            raise RuntimeError("store is not open")
        return await self._threads.call(fn, *args)

    async def open(self) -> None:
        self._threads = DatabaseThread(self._connect, threads=self.max_size, name="ludibot-pg",
                                       lost=lambda con: con.closed or con.broken)
        try:
            await self._threads.start()
            await self.migrate()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._threads is not None:
            threads, self._threads = self._threads, None
            await threads.close()

    # --- the plumbing of bot.storage.sql ----------------------------------------------------
    def _session(self, con: psycopg.Connection) -> Tx:
        return PgTx(con)

    @staticmethod
    def _transaction(con: psycopg.Connection, work: Callable[[Tx], Any]) -> Any:
        tx = PgTx(con, begin=True)
        try:
            result = work(tx)
        except BaseException:
            if not tx.begin and not con.broken:  # BEGIN was sent: the transaction is undone
                try:
                    con.execute("ROLLBACK")
                except psycopg.Error:  # the original error is the one worth raising
                    pass
            raise
        if not tx.begin and not tx.done:
            con.execute("ROLLBACK" if result is False else "COMMIT")
        return result

    # --- schema -----------------------------------------------------------------------------
    @staticmethod
    def _schema(con: psycopg.Connection) -> int:
        if not con.execute("SELECT to_regclass('ludibot_schema') IS NOT NULL").fetchone()[0]:
            return 0
        return int(con.execute("SELECT COALESCE(MAX(version), 0) FROM ludibot_schema").fetchone()[0])

    async def schema_version(self) -> int:
        return await self._call(self._schema)

    async def migrate(self) -> None:
        await self._call(self._migrate)

    def _migrate(self, con: psycopg.Connection) -> None:
        with con.transaction():
            # two processes starting together: one migrates, the other waits and finds it done
            con.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            current = self._schema(con)
            if current > LATEST:
                raise SchemaTooNew(current, LATEST)
            con.execute("CREATE TABLE IF NOT EXISTS ludibot_schema (version INTEGER NOT NULL)")
            for number, script in enumerate(MIGRATIONS, start=1):
                if number <= current:
                    continue
                con.execute(script)
                con.execute("DELETE FROM ludibot_schema")
                con.execute("INSERT INTO ludibot_schema (version) VALUES (%s)", (number,))

