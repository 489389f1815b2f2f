"""The PostgreSQL backend: for several bot processes on one database.

Only the plumbing: the dialect, a pool of database threads (one psycopg 3 connection each, a store
call run whole in one of them, like SQLite's thread), opening, migrating. The queries are in
:mod:`bot.storage.sql`, shared with SQLite. The same tables and the same migration numbers as SQLite
(the applied number is kept in ``ludibot_schema``); the same compare-and-swap on ``games.version``
(a row lock makes the second writer re-check ``version`` and find it moved).

Round trips: a transaction's ``BEGIN`` travels with its first statements and ``tx.batch`` pipelines
its statements (libpq's pipeline mode), the last batch with the ``COMMIT``: a move is two round
trips (the compare-and-swap, then the log, the turn columns and the commit together). The store's
statements go straight to libpq (psycopg's ``pq`` layer, its C implementation), prepared on first use,
their parameters and rows converted by psycopg's adapters: no cursor per statement (see ``_pipeline``).
JSON is stored as the same compact text as SQLite, so a game's state checksums alike on both.
"""

from __future__ import annotations

import itertools
import select
import time
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from psycopg import pq
from psycopg.adapt import PyFormat, Transformer

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
    # /parties' counts planned for their values: a server's size varies by orders of magnitude, and a
    # prepared statement's generic plan counts a busy server 7x slower (issue 16)
    custom_plan=("SET LOCAL plan_cache_mode = force_custom_plan",),
    # ratings folded one rater per board, one player's vacations changed one at a time, across processes
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


def _index(res: Any) -> dict[str, int]:
    """The names of a result's columns -> their positions, read from the result itself (``cursor.description``
    builds an object per column and statement)."""
    names = tuple(res.fname(i) for i in range(res.nfields))
    index = _INDEXES.get(names)
    if index is None:
        index = {n.decode(): i for i, n in enumerate(names)}
        if len(_INDEXES) < 10_000:
            _INDEXES[names] = index
    return index


def _rows(cursor: Any) -> Callable[[Sequence[Any]], Row]:
    """Rows by name, for the few statements that go through psycopg's cursors (schema, migrations)."""
    res = cursor.pgresult
    index = _index(res) if res is not None else {}
    return lambda values: Row(values, index)


#: how many statements a connection keeps prepared at most (beyond: sent with their text, unprepared)
PREPARED_MAX = 500
_OK = (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK)
_AUTO = PyFormat.AUTO


class Connection(psycopg.Connection):
    """psycopg's connection, and what the store's pipelines keep with it: one :class:`Transformer` (the
    parameters' dumpers, the columns' loaders) and the statements prepared on it."""

    def _ludibot_setup(self) -> Connection:
        self.transformer = Transformer.from_context(self)
        self.prepared: dict[tuple[str, tuple[int, ...]], bytes] = {}
        self.names = itertools.count()  # a name is never used twice on a connection
        return self


#: a store statement with ``$n`` placeholders, as bytes (cached: the hot path)
_TEXTS: dict[str, bytes] = {}


def _text(sql: str) -> bytes:
    found = _TEXTS.get(sql)
    if found is None:
        parts = sql.split("?")
        found = (parts[0] + "".join(f"${i}{p}" for i, p in enumerate(parts[1:], start=1))).encode()
        if len(_TEXTS) < 10_000:
            _TEXTS[sql] = found
    return found


def _pipeline(con: Connection, steps: Sequence[Step], begin: bool, commit: bool) -> list[Result]:
    """``steps`` sent together on libpq's pipeline, the BEGIN before them and the COMMIT after if asked,
    one Sync at the end: one round trip. Straight on libpq, without psycopg's cursors (a cursor costs
    about 35 µs of Python per statement, most of the bot's extra CPU per move on PostgreSQL); the
    parameters dumped and the rows loaded by psycopg's own adapters, as its cursors do. A statement is
    prepared the first time it is sent (in the same pipeline) and executed by name afterwards, as psycopg
    would after five runs. An error raises psycopg's exception for it once the pipeline is read to its
    Sync (the server skipped the statements after it; an open transaction is then aborted)."""
    tx, prepared, pgconn = con.transformer, con.prepared, con.pgconn
    # everything dumped before anything is sent: a value that cannot be sent leaves nothing half-queued
    sends = []
    for sql, params in steps:
        if params:
            values = tx.dump_sequence(params, [_AUTO] * len(params))
            types, formats = tuple(tx.types), tx.formats
        else:
            values, types, formats = None, (), None
        sends.append((sql, values, types, formats))
    sent: list[Any] = []  # what each result answers, in order: a prepare's key and name, or a statement
    pgconn.enter_pipeline_mode()
    try:
        if begin:
            pgconn.send_query_params(b"BEGIN", None)
            sent.append(None)
        for sql, values, types, formats in sends:
            key = (sql, types)
            name = prepared.get(key)
            if name is None and len(prepared) < PREPARED_MAX:
                name = b"ludibot_%d" % next(con.names)
                pgconn.send_prepare(name, _text(sql), types)
                sent.append((key, name))
                prepared[key] = name  # the statements after it in this pipeline use it
            if name is None:
                pgconn.send_query_params(_text(sql), values, types, formats)
            else:
                pgconn.send_query_prepared(name, values, formats)
            sent.append(True)
        if commit:
            pgconn.send_query_params(b"COMMIT", None)
            sent.append(None)
        pgconn.pipeline_sync()
        results = _read(pgconn)
    except BaseException:
        for what in sent:
            if isinstance(what, tuple):
                prepared.pop(what[0], None)  # not known to exist: prepared again next time (another name)
        raise
    finally:
        if pgconn.status != pq.ConnStatus.BAD:
            pgconn.exit_pipeline_mode()
    error = None
    out: list[Result] = []
    for what, res in zip(sent, results, strict=True):
        if res.status not in _OK:  # the first failure (those after it are PIPELINE_ABORTED)
            if error is None:
                error = res
            if isinstance(what, tuple):
                prepared.pop(what[0], None)
        elif what is True:
            if res.nfields:
                tx.set_pgresult(res)
                index = _index(res)
                out.append(Result(tx.load_rows(0, res.ntuples, lambda values, index=index: Row(values, index)),
                                  res.ntuples))
            else:
                n = res.command_tuples
                out.append(Result([], -1 if n is None else n))
    if error is not None:
        raise psycopg.errors.error_from_result(error, encoding=pgconn._encoding)
    return out


def _read(pgconn: Any) -> list[Any]:
    """The pipeline's results up to its Sync (one per statement sent), waiting on the socket when libpq
    has nothing to give yet."""
    while pgconn.flush():  # a large pipeline may not fit in the socket's buffer at once
        _wait(pgconn.socket, select.POLLIN | select.POLLOUT)
        pgconn.consume_input()
    results = []
    while True:
        if pgconn.is_busy():
            _wait(pgconn.socket, select.POLLIN)
            pgconn.consume_input()
            continue
        res = pgconn.get_result()
        if res is None:  # the end of one statement's results
            continue
        if res.status == pq.ExecStatus.PIPELINE_SYNC:
            return results
        results.append(res)


def _wait(fd: int, events: int) -> None:
    poll = select.poll()
    poll.register(fd, events)
    poll.poll()


class PgTx(Tx):
    """One call's connection. In a transaction, ``BEGIN`` is sent with the first statements and ``COMMIT``
    with the last batch (``final``)."""

    dialect = POSTGRESQL
    __slots__ = ("con", "begin", "done", "transaction")

    def __init__(self, con: Connection, begin: bool = False) -> None:
        self.con, self.begin, self.done, self.transaction = con, begin, False, begin

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        return self.batch([(sql, params)])[0]

    def batch(self, steps: list[Step], *, final: bool = False) -> list[Result]:
        begin, self.begin = self.begin, False
        commit = final and self.transaction and not self.done
        results = _pipeline(self.con, steps, begin, commit)
        if commit:
            self.done = True
        return results


class PostgresStore(SQLStore):
    """PostgreSQL through a pool of database threads (one connection each); every write is one transaction.

    ``max_size`` threads (and connections), all opened at start; ``min_size`` is accepted for the callers
    of the connection pool this replaced and has no effect."""

    latest_schema = LATEST
    dialect = POSTGRESQL

    def __init__(self, url: str, *, clock: Callable[[], float] = time.time, min_size: int = 1,
                 max_size: int = 10):
        self.url = url
        self.clock = clock
        self.min_size, self.max_size = min_size, max_size
        self._threads: DatabaseThread | None = None

    def _connect(self) -> Connection:
        # prepare_threshold=None: psycopg never prepares statements of its own on these connections (the
        # store prepares its own, see _pipeline). Once psycopg had prepared one (a ROLLBACK run five times),
        # its next ROLLBACK made it send DEALLOCATE ALL, which dropped the store's statements too: the
        # following move failed with "prepared statement ludibot_N does not exist" (concurrent joins)
        return Connection.connect(self.url, autocommit=True, row_factory=_rows,
                                  prepare_threshold=None)._ludibot_setup()

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

