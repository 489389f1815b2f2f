"""One SQL store over a small dialect description: every query and every transaction written once.

A store method is a plain function of a :class:`Tx` (``tx.execute(sql, params)``, ``tx.batch(steps)``),
its whole transaction included, run by the backend in a database thread: SQLite's one thread (one
hop per store call, the function run whole there) or PostgreSQL's threads, one connection each. The
SQL is written with ``?`` placeholders and the few words the dialects spell differently come from
:class:`Dialect`. ``tx.batch`` sends its statements together: PostgreSQL pipelines them (one round
trip for all, ``final=True`` adds the COMMIT to it), SQLite runs them one after the other in its thread.

Adding a table: a migration appended to ``bot/storage/migrations.py``; adding a store method: one
function here (and its abstract signature in ``base.py``). Nothing in the backends.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
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
    SeasonEnd,
    Seat,
    Store,
    TurnLists,
    completion,
    deadline_from,
    dump_json,
    event_from,
    game_from,
    move_waits,
    pack,
    pack_log,
    rating_from,
    readable_json,
    season_end_from,
    seat_from,
    turn_from,
    turn_times,
    unpack_log,
)
from bot.storage.rows import Bye, EntryRow, Match, TableRow, TournamentRow, Waiting

log = logging.getLogger("ludibot.storage")

Step = tuple[str, Sequence[Any]]


@dataclass(frozen=True)
class Dialect:
    """What differs between SQLite and PostgreSQL, and nothing else."""

    name: str  # "sqlite" | "postgresql" (the key of a per-dialect migration part)
    #: the types and phrases of ``migrations.py`` templates
    ddl: dict[str, str]
    #: ``a IS NOT DISTINCT FROM b`` (a null-safe ``=``), as a format with ``{a}`` and ``{b}``
    same_fmt: str
    #: the larger of two values (``MAX(a, b)`` in SQLite, ``GREATEST`` in PostgreSQL)
    greatest: str
    #: a list parameter: ``col IN (?, ?, …)`` (one parameter per value) or ``col = ANY(?)`` (one array)
    array_params: bool
    #: row locks (``FOR UPDATE``): PostgreSQL only, SQLite's transactions hold the whole file
    for_update: str = ""
    skip_locked: str = ""
    #: a query plan hint (SQLite's ``INDEXED BY``) and a join kept in the written order (``CROSS JOIN``)
    indexed: bool = False
    ordered_join: str = "JOIN"
    nulls_first: str = ""
    #: JSON: a row as an array (``json_array``), rows aggregated as an array in their order, as text
    json_array: str = "json_array"
    json_agg: str = "json_group_array({})"
    #: statements run before a query whose plan must follow its parameters (PostgreSQL's generic plans)
    custom_plan: tuple[str, ...] = ()
    #: takes a transaction-scoped lock on an integer key (None: SQLite's write transaction is the lock)
    lock_sql: str | None = None
    lock_text_sql: str | None = None
    _cache: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def sql(self, text: str) -> str:
        """``text`` with its ``?`` placeholders as the driver wants them (cached: the hot path)."""
        found = self._cache.get(text)
        if found is None:
            found = text if self.name == "sqlite" else text.replace("%", "%%").replace("?", "%s")
            self._cache[text] = found
        return found

    def same(self, a: str, b: str = "?") -> str:
        return self.same_fmt.format(a=a, b=b)

    def distinct(self, a: str, b: str) -> str:
        return f"NOT ({self.same(a, b)})" if self.name != "sqlite" else f"{a} IS NOT {b}"

    def any_of(self, column: str, values: Iterable[Any]) -> tuple[str, tuple[Any, ...]]:
        """``column`` is one of ``values``: the SQL and its parameters."""
        values = list(values)
        if not values:
            return "1 = 0", ()
        if self.array_params:
            return f"{column} = ANY(?)", (values,)
        return f"{column} IN ({', '.join('?' * len(values))})", tuple(values)

    def index(self, name: str) -> str:
        return f" INDEXED BY {name}" if self.indexed else ""


class Result:
    """A statement's rows (by column name or position) and how many rows it changed."""

    __slots__ = ("rows", "rowcount")

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self.rows, self.rowcount = rows, rowcount

    def one(self) -> Any:
        return self.rows[0] if self.rows else None

    def value(self) -> Any:
        return self.rows[0][0] if self.rows else None


class Tx:
    """The connection as a store function sees it (one per call, in the database thread)."""

    dialect: Dialect

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        raise NotImplementedError

    def batch(self, steps: list[Step], *, final: bool = False) -> list[Result]:
        """Run ``steps`` in order; ``final``: the transaction commits with them (nothing follows)."""
        return [self.execute(sql, params) for sql, params in steps]


def _settle(fut: asyncio.Future, ok: bool, value: Any) -> None:
    if fut.cancelled():
        return
    if ok:
        fut.set_result(value)
    else:
        fut.set_exception(value)


class DatabaseThread:
    """Database connections each owned by one thread; a call runs a whole function in one of them.

    A store method is one plain function of the connection (its transaction included), run in
    a database thread: the event loop pays one wake-up per store call, however many statements the
    transaction holds (aiosqlite paid two or three per statement: 40 per Ludix move). SQLite has one
    thread (its calls are serialised, so a transaction is never interleaved with another's
    statements); PostgreSQL one per pooled connection. A call cancelled before it starts never runs;
    once started it completes (a transaction commits or rolls back whole). The threads are daemons:
    a store left open by a crashed test never keeps the interpreter alive.
    """

    def __init__(self, connect: Callable[[], Any], *, threads: int = 1, name: str = "ludibot-db",
                 lost: Callable[[Any], bool] = lambda con: False) -> None:
        self.connect = connect
        #: whether a connection is lost (a server restarted): the next call opens a new one
        self.lost = lost
        self.size = threads
        self.name = name
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._started: list[asyncio.Future] = []

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        for i in range(self.size):
            ready = loop.create_future()
            thread = threading.Thread(target=self._serve, args=(loop, ready), name=f"{self.name}-{i}", daemon=True)
            self._threads.append(thread)
            thread.start()
            self._started.append(ready)
        try:
            await asyncio.gather(*self._started)  # every connection opened (or the first error)
        except BaseException:
            await self.close()
            raise

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(connection, *args)`` in a database thread; its result (or its exception)."""
        if not self._threads:
            raise RuntimeError("store is not open")
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._jobs.put((loop, fut, fn, args))
        return await fut

    def _serve(self, start_loop: asyncio.AbstractEventLoop, ready: asyncio.Future) -> None:
        try:
            con = self.connect()  # opened, used and closed in this thread only
        except BaseException as exc:  # noqa: BLE001 - handed to start()
            start_loop.call_soon_threadsafe(_settle, ready, False, exc)
            return
        start_loop.call_soon_threadsafe(_settle, ready, True, None)
        try:
            while True:
                job = self._jobs.get()
                if job is None:
                    break
                loop, fut, fn, args = job
                if fut.cancelled():  # its caller gave up before it started: it never runs
                    continue
                try:
                    if con is None or self.lost(con):
                        if con is not None:
                            con.close()
                        con = None
                        con = self.connect()
                    value, ok = fn(con, *args), True
                except BaseException as exc:  # noqa: BLE001 - handed to the awaiting coroutine
                    value, ok = exc, False
                try:
                    loop.call_soon_threadsafe(_settle, fut, ok, value)
                except RuntimeError:  # that loop is closed: nobody waits for the answer
                    pass
        finally:
            if con is not None:
                con.close()

    async def close(self) -> None:
        threads, self._threads = self._threads, []
        for _ in threads:
            self._jobs.put(None)
        for thread in threads:
            await asyncio.to_thread(thread.join, 10)


class SQLStore(Store):
    """Every store method, once, for any :class:`Dialect`; the backends give the plumbing:

    - ``_call(fn, *args)``: ``fn(connection, *args)`` in a database thread (awaited);
    - ``_session(connection) -> Tx``;
    - ``_transaction(connection, work)``: ``work(tx)`` in one transaction, rolled back on an error
      or when it returns False.
    """

    dialect: Dialect
    clock: Callable[[], float]

    async def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        raise NotImplementedError

    def _session(self, con: Any) -> Tx:
        raise NotImplementedError

    def _transaction(self, con: Any, work: Callable[[Tx], Any]) -> Any:
        raise NotImplementedError

    # --- how a method runs --------------------------------------------------------------------
    async def _tx(self, work: Callable[[Tx], Any]) -> Any:
        """``work(tx)`` in one transaction, whole in the database thread (one hop)."""
        return await self._call(self._transaction, work)

    async def _run(self, work: Callable[[Tx], Any]) -> Any:
        """``work(tx)`` outside a transaction (reads), whole in the database thread."""
        return await self._call(lambda con: work(self._session(con)))

    async def _point(self, work: Callable[[Tx], Any]) -> Any:
        """A small read by key — a game by its id, a seat's last moves — which a move makes several
        times: the backend runs it where it costs least. Here as :meth:`_run`; SQLite reads it on the
        caller's thread (:meth:`bot.storage.sqlite.SQLiteStore._point`)."""
        return await self._run(work)

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """One statement's rows."""
        return await self._call(lambda con: self._session(con).execute(sql, params).rows)

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement that changes rows, atomic by itself (no BEGIN/COMMIT around it: one round trip
        on PostgreSQL); how many rows it changed."""
        return await self._call(lambda con: self._session(con).execute(sql, params).rowcount)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """One statement outside the store's interface (tools, tests, benchmarks), ``?`` placeholders; its rows."""
        return await self._read(sql, params)

    # --- games --------------------------------------------------------------------------------
    async def _games(self, where: str, params: Sequence[Any] = (), *, point: bool = False) -> list[GameRow]:
        """The games ``where`` says, with their seats, in one statement (the seats as a JSON array).
        ``point``: one game by its id (:meth:`_point`)."""
        d = self.dialect
        seats = d.json_agg.format(f"{d.json_array}(s.seat, s.user_id, s.name, s.ai_level, s.locale)")
        sql = (f"SELECT games.*, archives.state AS packed, (SELECT {seats} FROM (SELECT * FROM seats "
               "x WHERE x.game_id = games.id ORDER BY x.seat) s) AS seats_json "
               "FROM games LEFT JOIN archives ON archives.game_id = games.id "
               f"WHERE {where} ORDER BY games.id")
        if point:
            rows = await self._point(lambda tx: tx.execute(sql, params).rows)
        else:
            rows = await self._read(sql, params)
        games = [game_from(r, _seats(r["seats_json"])) for r in rows]
        for row, game in zip(rows, games, strict=True):
            if game.broken and not row["broken"]:  # found unreadable just now: store why (logged once)
                await self.mark_broken(game.id, game.broken)
        return games

    async def mark_broken(self, game_id: int, reason: str) -> bool:
        newly = await self._write("UPDATE games SET broken = ? WHERE id = ? AND broken IS NULL",
                                  (reason[:500], game_id)) == 1
        if newly:
            log.error("game %s cannot be read and is set aside: %s", game_id, reason)
        return newly

    async def broken_games(self, guild_id: int | None) -> list[GameRow]:
        return await self._games(f"{self.dialect.same('guild_id')} AND broken IS NOT NULL "
                                 "AND status IN ('lobby', 'running')", (guild_id,))

    @staticmethod
    def _seat_steps(game_id: int, seats: list[Seat]) -> list[Step]:
        return [("DELETE FROM seats WHERE game_id = ?", (game_id,))] + [
            ("INSERT INTO seats (game_id, seat, user_id, name, ai_level, locale) VALUES (?, ?, ?, ?, ?, ?)",
             (game_id, s.seat, s.user_id, s.name, s.ai_level, s.locale)) for s in seats]

    def _bump(self, tx: Tx, game_id: int, old_version: int, sets: str = "", params: tuple = ()) -> bool:
        return tx.execute(f"UPDATE games SET version = version + 1, updated_at = ?{sets} WHERE id = ? AND version = ?",
                          (self.clock(), *params, game_id, old_version)).rowcount == 1

    async def create_game(self, *, kind, guild_id, channel_id, creator, options, seed, settings=None) -> GameRow:
        now = self.clock()

        def work(tx: Tx) -> int:
            game_id = tx.execute(
                "INSERT INTO games (guild_id, channel_id, kind, options, status, seed, creator_id, created_at, "
                "updated_at, settings) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, kind, dump_json(options), seed, creator.user_id, now, now,
                 dump_json(settings or {}))).value()
            tx.batch(self._seat_steps(game_id, [creator]), final=True)
            return game_id

        game = await self.get_game(await self._tx(work))
        assert game is not None
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        games = await self._games("games.id = ?", (game_id,), point=True)
        return games[0] if games else None

    async def games_in_channel(self, channel_id, statuses=ACTIVE, kind=None) -> list[GameRow]:
        cond, params = self.dialect.any_of("status", statuses)
        where = f"(channel_id = ? OR thread_id = ?) AND {cond}"
        params = (channel_id, channel_id, *params)
        if kind is not None:
            where += " AND kind = ?"
            params += (kind,)
        return await self._games(where, params)

    async def games_with_status(self, statuses, guild_id=None) -> list[GameRow]:
        where, params = self.dialect.any_of("status", statuses)
        if guild_id is not None:
            where += " AND guild_id = ?"
            params += (guild_id,)
        return await self._games(where, params)

    async def update_lobby(self, game_id, old_version, seats) -> bool:
        def work(tx: Tx) -> bool:
            if not self._bump(tx, game_id, old_version):
                return False
            tx.batch(self._seat_steps(game_id, seats), final=True)
            return True

        return await self._tx(work)

    async def start_game(self, game_id, old_version, seats, state, expected=None) -> bool:
        def work(tx: Tx) -> bool:
            now = self.clock()
            if tx.execute("UPDATE games SET version = version + 1, updated_at = ?, status = 'running', state = ? "
                          "WHERE id = ? AND version = ? AND status = 'lobby'",
                          (now, dump_json(state), game_id, old_version)).rowcount != 1:
                return False
            steps = self._seat_steps(game_id, seats)
            if expected is not None:
                steps += self._turn_steps(game_id, old_version + 1, turn_times({}, expected, None, now))
            tx.batch(steps, final=True)
            return True

        return await self._tx(work)

    @staticmethod
    def _turn_steps(game_id: int, version: int, since: dict[int, float]) -> list[Step]:
        """The turn columns of ``game_id`` at ``version`` (``since``: the expected seats)."""
        return [("UPDATE seats SET turn_since = NULL WHERE game_id = ? AND turn_since IS NOT NULL", (game_id,)),
                *(("UPDATE seats SET turn_since = ? WHERE game_id = ? AND seat = ?", (at, game_id, seat))
                  for seat, at in since.items()),
                ("UPDATE games SET turn_since = ?, turn_version = ? WHERE id = ?",
                 (min(since.values()) if since else None, version, game_id))]

    def _turn_case(self, column: str, expected: Any, actor: int | None, now: float) -> tuple[str, tuple]:
        """Since when a seat (``column``: its number; its ``turn_since`` beside it) is expected after a
        move, computed by the database from the old value (no read first), as :func:`turn_times` does:
        a seat still expected keeps its time unless it just acted; a seat not expected has none."""
        prefix = column.rpartition(".")[0] + "." if "." in column else ""
        cond, params = self.dialect.any_of(column, sorted(set(expected or ())))
        return (f"CASE WHEN {cond} THEN COALESCE(CASE WHEN {column} <> ? THEN {prefix}turn_since END, ?) END",
                (*params, -1 if actor is None else actor, now))

    async def set_status(self, game_id, old_version, status) -> bool:
        def work(tx: Tx) -> bool:
            finished = self.clock() if status in (FINISHED, CANCELLED) else None
            if not self._bump(tx, game_id, old_version, ", status = ?, finished_at = ?", (status, finished)):
                return False
            if finished is not None:
                tx.batch(self._turn_steps(game_id, old_version + 1, {}))  # an ended game: nobody's turn
                state = readable_json(tx.execute("SELECT state FROM games WHERE id = ?", (game_id,)).value())
                if state is not None:  # a cancelled running game: its log goes to the archive too
                    self._archive(tx, game_id, state)
            return True

        return await self._tx(work)

    async def archive_ended(self, limit: int = 500) -> int:
        def work(tx: Tx) -> int:
            rows = tx.execute("SELECT id, state FROM games WHERE status IN ('finished', 'cancelled') "
                              f"AND broken IS NULL AND state IS NOT NULL LIMIT ?{tx.dialect.skip_locked}",
                              (limit,)).rows
            for r in rows:
                state = readable_json(r["state"])
                if state is not None:
                    self._archive(tx, r["id"], state)
            return len(rows)

        return await self._tx(work)

    async def commit_action(self, game_id, old_version, *, state, seat, user_id, action, events,
                            status=RUNNING, results=None, settings=None, expected=None,
                            deadlines=None) -> GameRow | None:
        now = self.clock()
        finished = now if status in (FINISHED, CANCELLED) else None
        sets, params = "state = ?, status = ?, finished_at = ?", [dump_json(state), status, finished]
        if settings is not None:
            sets += ", settings = ?"
            params.append(dump_json(settings))
        turns = finished is None and expected is not None
        if turns:  # the game's turn columns in the same statement, from its seats' old ones
            case, case_params = self._turn_case("s.seat", expected, seat, now)
            sets += f", turn_since = (SELECT MIN({case}) FROM seats s WHERE s.game_id = ?), turn_version = ?"
            params += [*case_params, game_id, old_version + 1]
        cas = (f"UPDATE games SET version = version + 1, updated_at = ?, {sets} WHERE id = ? AND version = ? "
               "RETURNING *", (now, *params, game_id, old_version))
        steps: list[Step] = [(
            "INSERT INTO events (game_id, version, seat, user_id, action, events, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, old_version + 1, seat, user_id, dump_json(action), dump_json(events), now))]
        steps += [("INSERT INTO results (game_id, seat, user_id, score, rank) VALUES (?, ?, ?, ?, ?) "
                   "ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id, "
                   "score = excluded.score, rank = excluded.rank", (game_id, r.seat, r.user_id, r.score, r.rank))
                  for r in results or ()]
        if deadlines is not None and finished is None:
            steps += self._deadline_steps(game_id, old_version + 1, *deadlines)
        if turns:  # every seat of the game written, and read back by the same statement
            case, case_params = self._turn_case("seat", expected, seat, now)
            steps.append((f"UPDATE seats SET turn_since = {case} WHERE game_id = ? RETURNING *",
                          (*case_params, game_id)))
        else:
            if finished is not None:
                steps += self._turn_steps(game_id, old_version + 1, {})
            steps.append(("SELECT * FROM seats WHERE game_id = ?", (game_id,)))

        def work(tx: Tx) -> GameRow | bool:
            # round trip 1: the compare-and-swap; round trip 2: the rest and the COMMIT (PostgreSQL)
            row = tx.execute(*cas).one()
            if row is None:
                return False
            seat_rows = tx.batch(steps, final=finished is None)[-1].rows
            if finished is not None:
                self._archive(tx, game_id, state)
            # the row as it now is (what get_game would read back), without reading it again
            return game_from(row, sorted((seat_from(r) for r in seat_rows), key=lambda x: x.seat))

        result = await self._tx(work)
        return None if result is False else result

    # --- whose turn, since when (issue 16) ------------------------------------------------------
    def _turn_columns(self) -> str:
        return ("g.id, g.kind, g.guild_id, g.channel_id, g.thread_id, g.control_message_id, g.updated_at, "
                "(SELECT " + self.dialect.json_agg.format("x.name") + " FROM (SELECT name FROM seats x "
                "WHERE x.game_id = g.id AND x.turn_since IS NOT NULL ORDER BY x.seat) x) AS waiting")

    async def turn_lists(self, guild_id, user_id, limit) -> TurnLists:
        d = self.dialect
        cols = self._turn_columns()

        def work(tx: Tx) -> tuple[list, list, Any]:
            mine = tx.execute(
                f"SELECT {cols}, s.turn_since AS since FROM seats s{d.index('seats_turns')} {d.ordered_join} "
                "games g ON g.id = s.game_id WHERE s.user_id = ? AND s.turn_since IS NOT NULL AND g.guild_id = ? "
                "AND g.status = 'running' AND g.broken IS NULL ORDER BY s.turn_since, g.id LIMIT ?",
                (user_id, guild_id, limit)).rows
            others = tx.execute(
                f"SELECT {cols}, g.turn_since AS since FROM games g{d.index('games_turns')} "
                "WHERE g.guild_id = ? AND g.status = 'running' AND g.broken IS NULL AND NOT EXISTS "
                "(SELECT 1 FROM seats m WHERE m.game_id = g.id AND m.user_id = ? AND m.turn_since IS NOT NULL) "
                f"ORDER BY g.turn_since{d.nulls_first}, g.id LIMIT ?", (guild_id, user_id, limit)).rows
            # planned for these values: a server's size varies by orders of magnitude, and PostgreSQL's
            # generic plan (a prepared statement's after five calls) counts a busy server 7x slower
            counts = tx.batch([*((s, ()) for s in d.custom_plan), (
                f"SELECT (SELECT COUNT(*) FROM games{d.index('games_turns')} WHERE guild_id = ? "
                "AND status = 'running' AND broken IS NULL) AS total, "
                f"(SELECT COUNT(*) FROM seats s{d.index('seats_turns')} {d.ordered_join} games g "
                "ON g.id = s.game_id WHERE s.user_id = ? AND s.turn_since IS NOT NULL AND g.guild_id = ? "
                "AND g.status = 'running' AND g.broken IS NULL) AS mine", (guild_id, user_id, guild_id))],
                final=True)[-1].one()
            return mine, others, counts

        if d.custom_plan:  # SET LOCAL lives in a transaction
            mine, others, counts = await self._tx(work)
        else:
            mine, others, counts = await self._run(work)
        total, mine_total = int(counts["total"]), int(counts["mine"])
        return TurnLists(mine=[turn_from(r) for r in mine], mine_total=mine_total,
                         others=[turn_from(r) for r in others], others_total=total - mine_total)

    async def running_after(self, after_id, limit=50) -> list[GameRow]:
        return await self._games("games.id IN (SELECT id FROM games WHERE status = 'running' AND broken IS NULL "
                                 "AND id > ? ORDER BY id LIMIT ?)", (after_id, limit))

    async def stale_turns(self, limit=200) -> list[GameRow]:
        return await self._games(
            "games.id IN (SELECT id FROM games WHERE status = 'running' AND broken IS NULL "
            f"AND {self.dialect.distinct('turn_version', 'version')} ORDER BY id LIMIT ?)", (limit,))

    async def set_turns(self, game_id, version, since) -> bool:
        def work(tx: Tx) -> bool:
            if tx.execute("SELECT 1 FROM games WHERE id = ? AND version = ? AND status = 'running'"
                          f"{tx.dialect.for_update}", (game_id, version)).one() is None:
                return False
            tx.batch(self._turn_steps(game_id, version, dict(since)), final=True)
            return True

        return await self._tx(work)

    async def seats_without_deadline(self) -> list[dict[str, Any]]:
        rows = await self._read(
            "SELECT g.id AS game_id, g.guild_id, g.kind, g.version, g.updated_at, s.seat "
            f"FROM seats s{self.dialect.index('seats_expected')} JOIN games g ON g.id = s.game_id "
            "WHERE s.turn_since IS NOT NULL AND s.ai_level IS NULL AND g.status = 'running' AND g.broken IS NULL "
            "AND g.turn_version = g.version AND NOT EXISTS (SELECT 1 FROM deadlines d WHERE d.game_id = s.game_id "
            "AND d.seat = s.seat AND d.version >= COALESCE((SELECT MAX(e.version) FROM events e "
            "WHERE e.game_id = s.game_id AND e.seat = s.seat), -1)) ORDER BY g.id, s.seat")
        return [dict(r) for r in rows]

    async def set_message_ids(self, game_id, *, lobby=None, control=None) -> None:
        steps: list[Step] = []
        if lobby is not None:
            steps.append(("UPDATE games SET lobby_message_id = ? WHERE id = ?", (lobby, game_id)))
        if control is not None:
            steps.append(("UPDATE games SET control_message_id = ? WHERE id = ?", (control, game_id)))
        if steps:
            await self._tx(lambda tx: tx.batch(steps, final=True) and True)

    async def set_thread(self, game_id, thread_id) -> int | None:
        def work(tx: Tx) -> int | None:
            return tx.batch([("UPDATE games SET thread_id = ? WHERE id = ? AND thread_id IS NULL", (thread_id, game_id)),
                             ("SELECT thread_id FROM games WHERE id = ?", (game_id,))], final=True)[-1].value()

        return await self._tx(work)

    @staticmethod
    def _archive(tx: Tx, game_id: int, state: Any) -> None:
        """An ended game: its state and log become one compressed row (lean storage; read back alike)."""
        log_rows = [event_from(r) for r in
                    tx.execute("SELECT * FROM events WHERE game_id = ? ORDER BY version", (game_id,)).rows]
        tx.batch([("INSERT INTO archives (game_id, state, events) VALUES (?, ?, ?) ON CONFLICT (game_id) "
                   "DO UPDATE SET state = excluded.state, events = excluded.events",
                   (game_id, pack(state), pack_log(log_rows))),
                  ("DELETE FROM events WHERE game_id = ?", (game_id,)),
                  ("UPDATE games SET state = NULL WHERE id = ?", (game_id,))])

    async def _log(self, game_id: int, where: str = "", params: Sequence[Any] = (), order: str = "version",
                   also: Sequence[Step] = (), *, point: bool = False,
                   ) -> tuple[list[EventRow], list[EventRow] | None, list[Result]]:
        """The game's log entries ``where`` says, and its archived log (None: not archived), together (one
        hop, one round trip): an ended game's log is in its archive. ``also``: more reads sent with them
        (their results last). ``point``: a few entries (:meth:`_point`)."""
        results = await (self._point if point else self._run)(lambda tx: tx.batch([
            (f"SELECT * FROM events WHERE game_id = ?{where} ORDER BY {order}", (game_id, *params)),
            ("SELECT events FROM archives WHERE game_id = ?", (game_id,)), *also]))
        rows, archive = results[:2]
        blob = archive.value()
        return ([event_from(r) for r in rows.rows], (None if blob is None else unpack_log(game_id, bytes(blob))),
                results[2:])

    async def events(self, game_id) -> list[EventRow]:
        rows, archived, _ = await self._log(game_id)
        return rows or archived or []

    async def events_after(self, game_id, version) -> list[EventRow]:
        rows, archived, _ = await self._log(game_id, " AND version > ?", (version,))
        if not rows and archived is not None:
            return [e for e in archived if e.version > version]
        return rows

    async def mark_published(self, game_id, version, message_id) -> bool:
        return await self._write(
            "UPDATE games SET published_version = ?, control_message_id = COALESCE(?, control_message_id) "
            "WHERE id = ? AND published_version < ?", (version, message_id, game_id, version)) == 1

    async def unpublished_games(self, limit=100) -> list[GameRow]:
        return await self._games(
            "games.id IN (SELECT id FROM games WHERE published_version < version "
            "AND paused IS NULL AND broken IS NULL ORDER BY updated_at LIMIT ?)", (limit,))

    async def set_paused(self, game_id, reason, now) -> None:
        def work(tx: Tx) -> bool:
            if reason is None:
                since = _paused_since(tx.execute(f"SELECT paused FROM games WHERE id = ?{tx.dialect.for_update}",
                                                 (game_id,)).value())
                if since is not None and now > since:
                    tx.execute("UPDATE deadlines SET due = due + ? WHERE game_id = ? AND state = 'pending'",
                               (now - since, game_id))
            tx.execute("UPDATE games SET paused = ? WHERE id = ?", (reason, game_id))
            return True

        await self._tx(work)

    async def paused_games(self, guild_id) -> list[GameRow]:
        return await self._games(f"{self.dialect.same('guild_id')} AND paused IS NOT NULL "
                                 "AND status IN ('running', 'finished')", (guild_id,))

    async def results(self, game_id) -> list[ResultRow]:
        rows = await self._read("SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
        return [ResultRow(game_id=r["game_id"], seat=r["seat"], user_id=r["user_id"], score=r["score"],
                          rank=r["rank"]) for r in rows]

    # --- settings, meta -------------------------------------------------------------------------
    async def guild_settings(self, guild_id) -> dict[str, Any]:
        if (cached := self.cached_settings(guild_id)) is not None:
            return cached
        generation = self.settings_generation()
        rows = await self._read("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return self.remember_settings(guild_id, json.loads(rows[0]["settings"]) if rows else {}, generation)

    async def set_guild_settings(self, guild_id, settings) -> None:
        self.forget_settings(guild_id)
        await self._write(
            "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings", (guild_id, dump_json(settings)))
        self.forget_settings(guild_id)

    async def get_meta(self, key) -> str | None:
        rows = await self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0]["value"] if rows else None

    async def set_meta(self, key, value) -> None:
        await self._write("INSERT INTO meta (key, value) VALUES (?, ?) "
                          "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    async def reserve_slot(self, key: str, now: float, window: float) -> float:
        def work(tx: Tx) -> float:
            # the row lock (PostgreSQL) or the write transaction (SQLite) orders two processes booking one bucket
            tx.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (key, repr(now)))
            raw = tx.execute(f"SELECT value FROM meta WHERE key = ?{tx.dialect.for_update}", (key,)).value()
            at = max(now, float(raw))
            tx.execute("UPDATE meta SET value = ? WHERE key = ?", (repr(at + window), key))
            return at

        return await self._tx(work)

    def _present(self) -> bool:
        """The database is where it was (a backend's own check before asking it)."""
        return True

    async def healthy(self) -> bool:
        """The database answers (``/healthz``)."""
        if not self._present():
            return False
        try:
            await self._read("SELECT 1")
        except Exception:
            return False
        return True

    async def count_running(self) -> dict[str, int]:
        rows = await self._read("SELECT kind, COUNT(*) AS n FROM games WHERE status = 'running' GROUP BY kind")
        return {r["kind"]: int(r["n"]) for r in rows}

    # --- playing over days (issue 9): deadlines, preferences, ratings ---------------------------
    async def schedule_deadlines(self, game_id, version, since, entries) -> None:
        steps = self._deadline_steps(game_id, version, since, entries)
        if steps:
            await self._tx(lambda tx: tx.batch(steps, final=True) and True)

    @staticmethod
    def _deadline_steps(game_id: int, version: int, since: float, entries: list[tuple[int, str, float]]) -> list[Step]:
        """``schedule_deadlines``'s statements (also run by ``commit_action``'s transaction)."""
        if not entries:
            return []
        # older epochs go (lean storage); a leased one is being fired: its owner closes it
        steps: list[Step] = [(
            "DELETE FROM deadlines WHERE game_id = ? AND seat = ? AND version < ? AND (state <> 'pending' "
            "OR lease_until IS NULL OR lease_until <= ?)", (game_id, seat, version, since))
            for seat in sorted({seat for seat, _, _ in entries})]
        steps.append(("INSERT INTO deadlines (game_id, seat, kind, version, due, since) VALUES "
                      + ", ".join(["(?, ?, ?, ?, ?, ?)"] * len(entries)) + " ON CONFLICT DO NOTHING",
                      tuple(v for seat, kind, due in entries for v in (game_id, seat, kind, version, due, since))))
        return steps

    def _shard_filter(self, shards: tuple[tuple[int, ...], int] | None,
                      shard_of: str) -> tuple[str, tuple[Any, ...]] | None:
        """``AND <shard_of> IN (ids)`` and its parameters for ``shards`` = (ids, count) (``shard_of``: a
        server's shard, Discord's formula, its ``?`` the count); ("", ()) for every shard; None when the
        ids are empty (nothing can match)."""
        if shards is None:
            return "", ()
        ids, count = shards
        ids = sorted({int(i) for i in ids})
        if not ids:
            return None
        cond, id_params = self.dialect.any_of(shard_of, ids)
        return f"AND {cond} ", (int(count), *id_params)

    async def due_deadlines(self, now, limit=100, shards=None) -> list[Deadline]:
        # a paused game's clocks are stopped; ``shards``: only the games of those shards' servers
        found = self._shard_filter(shards, "(CASE WHEN g.guild_id IS NULL THEN 0 ELSE (g.guild_id >> 22) % ? END)")
        if found is None:
            return []
        where, params = found
        rows = await self._read(
            "SELECT d.*, COALESCE(g.thread_id, g.channel_id) AS channel FROM deadlines d JOIN games g "
            "ON g.id = d.game_id WHERE d.state = 'pending' AND d.due <= ? AND (d.lease_until IS NULL "
            f"OR d.lease_until <= ?) AND g.paused IS NULL {where}"
            "ORDER BY d.due, d.game_id, d.kind, d.seat LIMIT ?", (now, now, *params, limit))
        return [deadline_from(r) for r in rows]

    async def claim_deadline(self, key, now, lease) -> bool:
        # one statement: the row lock makes a second process re-check the lease and find it taken
        return await self._write(
            "UPDATE deadlines SET lease_until = ?, attempts = attempts + 1 WHERE game_id = ? AND seat = ? "
            "AND kind = ? AND version = ? AND state = 'pending' AND (lease_until IS NULL OR lease_until <= ?)",
            (now + lease, *key, now)) == 1

    async def close_deadline(self, key, state, now) -> bool:
        def work(tx: Tx) -> bool:
            if state == VOID:  # a void deadline is not history: it goes
                return tx.execute("DELETE FROM deadlines WHERE game_id = ? AND seat = ? AND kind = ? "
                                  "AND version = ? AND state = 'pending'", key).rowcount == 1
            return tx.execute(
                "UPDATE deadlines SET state = ?, fired_at = ?, lease_until = NULL WHERE game_id = ? AND seat = ? "
                "AND kind = ? AND version = ? AND state = 'pending'", (state, now, *key)).rowcount == 1

        return await self._tx(work)

    async def release_deadline(self, key) -> None:
        await self._write("UPDATE deadlines SET lease_until = NULL WHERE game_id = ? AND seat = ? "
                          "AND kind = ? AND version = ? AND state = 'pending'", key)

    async def void_game_deadlines(self, game_id, now) -> None:
        # a deadline leased right now is being fired (e.g. the timeout that forfeits): its owner closes it
        await self._write("DELETE FROM deadlines WHERE game_id = ? AND (state <> 'pending' "
                          "OR lease_until IS NULL OR lease_until <= ?)", (game_id, now))

    @staticmethod
    def _deadlines_step(game_id: int) -> Step:
        return ("SELECT * FROM deadlines WHERE game_id = ? ORDER BY version, seat, kind", (game_id,))

    async def deadlines_of(self, game_id) -> list[Deadline]:
        return [deadline_from(r) for r in await self._read(*self._deadlines_step(game_id))]

    async def latest_deadline_version(self, game_id, seat) -> int | None:
        rows = await self._read("SELECT MAX(version) AS v FROM deadlines WHERE game_id = ? AND seat = ?",
                                (game_id, seat))
        return rows[0]["v"] if rows else None

    async def seat_actions(self, game_id, seat, limit=10) -> list[EventRow]:
        return (await self.seat_clock(game_id, seat, limit, deadlines=False))[0]

    async def seat_clock(self, game_id, seat, limit=10, *, deadlines=True) -> tuple[list[EventRow], list[Deadline]]:
        rows, archived, more = await self._log(game_id, " AND seat = ?", (seat,), "version DESC LIMIT " + str(int(limit)),
                                               also=[self._deadlines_step(game_id)] if deadlines else (),
                                               point=True)
        if not rows and archived is not None:
            rows = [e for e in reversed(archived) if e.seat == seat][:limit]
        return rows, [deadline_from(r) for r in more[0].rows] if more else []

    async def cast_ballot(self, game_id, seat, epoch, voter, choice, now) -> None:
        await self._write(
            "INSERT INTO ballots (game_id, seat, epoch, voter, choice, cast_at) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id, seat, epoch, voter) DO UPDATE SET choice = excluded.choice, "
            "cast_at = excluded.cast_at", (game_id, seat, epoch, voter, choice, now))

    async def ballots(self, game_id, seat, epoch) -> dict[int, str]:
        rows = await self._read("SELECT voter, choice FROM ballots WHERE game_id = ? AND seat = ? AND epoch = ? "
                                "ORDER BY voter", (game_id, seat, epoch))
        return {r["voter"]: r["choice"] for r in rows}

    async def turn_since(self, game_ids) -> dict[tuple[int, int], float]:
        if not game_ids:
            return {}
        cond, params = self.dialect.any_of("d.game_id", list(game_ids))
        rows = await self._read(
            f"SELECT d.game_id, d.seat, d.since FROM deadlines d WHERE {cond} AND d.version = "
            "(SELECT MAX(x.version) FROM deadlines x WHERE x.game_id = d.game_id AND x.seat = d.seat)", params)
        return {(r["game_id"], r["seat"]): r["since"] for r in rows}

    async def user_prefs(self, user_id) -> dict[str, Any]:
        rows = await self._read("SELECT prefs FROM user_prefs WHERE user_id = ?", (user_id,))
        return json.loads(rows[0]["prefs"]) if rows else {}

    async def set_user_prefs(self, user_id, prefs) -> None:
        await self._write("INSERT INTO user_prefs (user_id, prefs) VALUES (?, ?) "
                          "ON CONFLICT (user_id) DO UPDATE SET prefs = excluded.prefs", (user_id, dump_json(prefs)))

    # --- vacations (issue 15) ---------------------------------------------------------------
    async def vacations(self, user_id, since) -> list[tuple[float, float]]:
        rows = await self._read("SELECT starts_at, ends_at FROM vacations WHERE user_id = ? AND ends_at > ? "
                                "ORDER BY starts_at", (user_id, since))
        return [(r["starts_at"], r["ends_at"]) for r in rows]

    async def running_vacations(self, now) -> dict[int, float]:
        rows = await self._read("SELECT user_id, MAX(ends_at) AS e FROM vacations WHERE starts_at <= ? "
                                "AND ends_at > ? GROUP BY user_id", (now, now))
        return {r["user_id"]: r["e"] for r in rows}

    @staticmethod
    def _lock(tx: Tx, key: int | str) -> None:
        """A transaction-scoped lock on ``key`` (PostgreSQL; SQLite's write transaction already is one)."""
        d = tx.dialect
        if isinstance(key, int) and d.lock_sql:
            tx.execute(d.lock_sql, (key % (2**62),))
        elif isinstance(key, str) and d.lock_text_sql:
            tx.execute(d.lock_text_sql, (key,))

    async def set_vacation(self, user_id, now, until) -> float:
        def work(tx: Tx) -> float:
            self._lock(tx, user_id)  # one player's vacation changes one at a time (two clicks would shift twice)
            running = tx.execute("SELECT starts_at, ends_at FROM vacations WHERE user_id = ? AND starts_at <= ? "
                                 "AND ends_at > ?", (user_id, now, now)).rows
            old_end = max([now, *(r["ends_at"] for r in running)])
            for r in running:  # the running vacation ends now (a new one replaces it)
                if r["starts_at"] >= now:
                    tx.execute("DELETE FROM vacations WHERE user_id = ? AND starts_at = ?", (user_id, r["starts_at"]))
                else:
                    tx.execute("UPDATE vacations SET ends_at = ? WHERE user_id = ? AND starts_at = ?",
                               (now, user_id, r["starts_at"]))
            new_end = max(now, until)
            if new_end > now:
                tx.execute("INSERT INTO vacations (user_id, starts_at, ends_at) VALUES (?, ?, ?)",
                           (user_id, now, new_end))
            shift = new_end - old_end
            if shift:
                tx.execute(
                    "UPDATE deadlines SET due = due + ? WHERE state = 'pending' AND EXISTS (SELECT 1 FROM seats s "
                    "JOIN games g ON g.id = s.game_id WHERE s.game_id = deadlines.game_id AND s.seat = deadlines.seat "
                    "AND s.user_id = ? AND g.status = 'running')", (shift, user_id))
            return shift

        try:
            return await self._tx(work)
        finally:
            self.forget_vacations()

    # --- ratings --------------------------------------------------------------------------------
    async def rate_game(self, game_id, compute) -> bool:
        def work(tx: Tx) -> bool:
            game = tx.execute("SELECT guild_id, kind, status, finished_at, updated_at FROM games WHERE id = ?",
                              (game_id,)).one()
            if game is None or game["status"] != FINISHED:
                return False
            self._lock(tx, f"{game['guild_id']}:{game['kind']}")  # one rater per board at a time
            seat_rows, result_rows = tx.batch([("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)),
                                               ("SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,))])
            seats = {r["seat"]: seat_from(r) for r in seat_rows.rows}
            results = [ResultRow(game_id=r["game_id"], seat=r["seat"], user_id=r["user_id"], score=r["score"],
                                 rank=r["rank"]) for r in result_rows.rows]
            humans = [r for r in results if r.user_id is not None]
            solo = len(seats) == 1
            finished_at = game["finished_at"] or game["updated_at"]
            guild_id, kind = game["guild_id"], game["kind"]
            if tx.execute("INSERT INTO rated_games (game_id, guild_id, kind, finished_at, solo, humans) "
                          "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING",
                          (game_id, guild_id, kind, finished_at, int(solo), len(humans))).rowcount != 1:
                return False  # already rated
            if guild_id is None or solo or not humans:
                return True
            cond, params = tx.dialect.any_of("user_id", [r.user_id for r in humans])
            current = {r["user_id"]: (r["mu"], r["sigma"]) for r in tx.execute(
                f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND kind = ? AND {cond}",
                (guild_id, kind, *params)).rows}
            info = {"id": game_id, "guild_id": guild_id, "kind": kind, "finished_at": finished_at}
            new = compute(info, results, current)
            g = tx.dialect.greatest
            steps: list[Step] = []
            for r in humans:
                mu, sigma = new.get(r.user_id) or current[r.user_id]
                name = seats[r.seat].name if r.seat in seats else str(r.user_id)
                steps.append((
                    "INSERT INTO ratings (guild_id, kind, user_id, name, mu, sigma, ordinal, games, wins, best_score, "
                    "last_played) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?) "
                    "ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
                    "sigma = excluded.sigma, ordinal = excluded.ordinal, games = ratings.games + 1, "
                    "wins = ratings.wins + excluded.wins, "
                    f"best_score = {g}(COALESCE(ratings.best_score, excluded.best_score), "
                    "COALESCE(excluded.best_score, ratings.best_score)), "
                    f"last_played = {g}(COALESCE(ratings.last_played, 0), excluded.last_played)",
                    (guild_id, kind, r.user_id, name, mu, sigma, mu - 3 * sigma, int(r.rank == 1), r.score,
                     finished_at)))
            tx.batch(steps, final=True)
            return True

        return await self._tx(work)

    async def unrated_games(self) -> list[int]:
        rows = await self._read("SELECT id FROM games g WHERE status = 'finished' AND broken IS NULL AND NOT EXISTS "
                                "(SELECT 1 FROM rated_games r WHERE r.game_id = g.id) ORDER BY finished_at, id")
        return [r["id"] for r in rows]

    async def leaderboard(self, guild_id, kind, since=None, limit=20) -> list[RatingRow]:
        if since is None:
            rows = await self._read(
                "SELECT * FROM ratings WHERE guild_id = ? AND kind = ? ORDER BY ordinal DESC, games DESC, name "
                "LIMIT ?", (guild_id, kind, limit))
        else:
            rows = await self._read(
                "SELECT t.user_id, t.games, t.wins, t.best_score, p.name, p.mu, p.sigma, p.ordinal, p.last_played "
                "FROM (SELECT r.user_id, COUNT(*) AS games, SUM(CASE WHEN r.rank = 1 THEN 1 ELSE 0 END) AS wins, "
                "      MAX(r.score) AS best_score "
                "      FROM rated_games g JOIN results r ON r.game_id = g.game_id "
                "      WHERE g.guild_id = ? AND g.kind = ? AND g.solo = 0 AND g.finished_at >= ? "
                "      AND r.user_id IS NOT NULL GROUP BY r.user_id) t "
                "JOIN ratings p ON p.guild_id = ? AND p.kind = ? AND p.user_id = t.user_id "
                "ORDER BY p.ordinal DESC, t.games DESC, p.name LIMIT ?", (guild_id, kind, since, guild_id, kind, limit))
        return [rating_from(r, guild_id, kind) for r in rows]

    async def player_ratings(self, guild_id, user_id) -> list[tuple[RatingRow, int, int]]:
        rows = await self._read(
            "SELECT p.*, (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = p.guild_id AND o.kind = p.kind "
            "AND o.ordinal > p.ordinal) AS above, (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = p.guild_id "
            "AND o.kind = p.kind) AS total FROM ratings p WHERE p.guild_id = ? AND p.user_id = ? ORDER BY p.kind",
            (guild_id, user_id))
        return [(rating_from(r, guild_id, r["kind"]), int(r["above"]) + 1, int(r["total"])) for r in rows]

    @staticmethod
    def _not_daily(hide_daily: str | None) -> tuple[str, tuple[Any, ...]]:
        """The condition leaving out the daily challenges of ``hide_daily`` and later (issue 37)."""
        if hide_daily is None:
            return "", ()
        return (" AND NOT EXISTS (SELECT 1 FROM daily_plays d WHERE d.game_id = g.game_id AND d.day >= ?)",
                (hide_daily,))

    async def player_recent(self, guild_id, user_id, limit=5, hide_daily=None) -> list[dict[str, Any]]:
        hide, params = self._not_daily(hide_daily)
        rows = await self._read(
            "SELECT g.game_id, g.kind, g.finished_at, g.solo, r.rank, r.score, "
            "(SELECT COUNT(*) FROM results x WHERE x.game_id = g.game_id) AS players "
            "FROM results r JOIN rated_games g ON g.game_id = r.game_id "
            f"WHERE r.user_id = ? AND g.guild_id = ?{hide} ORDER BY g.finished_at DESC, g.game_id DESC LIMIT ?",
            (user_id, guild_id, *params, limit))
        return [dict(r) for r in rows]

    async def player_solo_best(self, guild_id, user_id, hide_daily=None) -> dict[str, tuple[int, int]]:
        hide, params = self._not_daily(hide_daily)
        rows = await self._read(
            "SELECT g.kind, MAX(r.score) AS best, COUNT(*) AS n FROM results r "
            "JOIN rated_games g ON g.game_id = r.game_id "
            f"WHERE r.user_id = ? AND g.guild_id = ? AND g.solo = 1{hide} GROUP BY g.kind",
            (user_id, guild_id, *params))
        return {r["kind"]: (r["best"], int(r["n"])) for r in rows}

    async def player_completion(self, guild_id, user_id) -> tuple[int, int, int]:
        # a running game cancelled has its archive (its log); a lobby cancelled has none. A forfeit leaves
        # no score and the seat last: only those games' archived logs are looked into.
        rows = await self._read(
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
        live = await self._read(
            "SELECT at, w FROM (SELECT e.user_id, e.created_at AS at, e.created_at - LAG(e.created_at) "
            "OVER (PARTITION BY e.game_id ORDER BY e.version) AS w FROM events e WHERE e.game_id IN "
            "(SELECT s.game_id FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? AND g.guild_id = ?)) t "
            "WHERE t.user_id = ? AND t.w IS NOT NULL ORDER BY t.at DESC LIMIT ?", (user_id, guild_id, user_id, limit))
        found = [(r["at"], r["w"]) for r in live]
        for a in await self._read(
                "SELECT a.game_id, a.events FROM archives a JOIN seats s ON s.game_id = a.game_id "
                "JOIN games g ON g.id = a.game_id WHERE s.user_id = ? AND g.guild_id = ? "
                "ORDER BY a.game_id DESC LIMIT ?", (user_id, guild_id, MOVE_SAMPLE_GAMES)):
            found += move_waits(unpack_log(a["game_id"], bytes(a["events"])), user_id)
        found.sort(reverse=True)
        return [w for _, w in found[:limit]]

    async def solo_records(self, guild_id, kind, limit=10, hide_daily=None) -> list[dict[str, Any]]:
        hide, params = self._not_daily(hide_daily)
        rows = await self._read(
            "SELECT g.game_id, g.finished_at, r.user_id, r.score, s.name, gm.options FROM rated_games g "
            "JOIN results r ON r.game_id = g.game_id "
            "JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat "
            "LEFT JOIN games gm ON gm.id = g.game_id "
            f"WHERE g.guild_id = ? AND g.kind = ? AND g.solo = 1 AND r.score IS NOT NULL{hide} "
            "ORDER BY r.score DESC, g.finished_at, g.game_id LIMIT ?", (guild_id, kind, *params, limit))
        return [{**dict(r), "options": json.loads(r["options"] or "{}")} for r in rows]

    async def finished_games(self, guild_id, limit=25, query="") -> list[dict[str, Any]]:
        params: tuple = (guild_id,)
        where = "guild_id = ? AND status = 'finished' AND broken IS NULL"
        if query.isdigit():
            where += " AND CAST(id AS TEXT) LIKE ?"
            params += (f"{query}%",)
        rows = await self._read(f"SELECT id, kind, finished_at FROM games WHERE {where} ORDER BY id DESC LIMIT ?",
                                (*params, limit))
        if not rows:
            return []
        ids = [r["id"] for r in rows]
        names: dict[int, list[str]] = {i: [] for i in ids}
        cond, id_params = self.dialect.any_of("game_id", ids)
        for s in await self._read(f"SELECT game_id, name FROM seats WHERE {cond} ORDER BY game_id, seat", id_params):
            names[s["game_id"]].append(s["name"])
        return [{"id": r["id"], "kind": r["kind"], "finished_at": r["finished_at"], "names": names[r["id"]]}
                for r in rows]

    async def export_guild(self, guild_id) -> dict[str, Any]:
        games = await self._read(
            "SELECT id, kind, channel_id, options, created_at, finished_at FROM games "
            "WHERE guild_id = ? AND status = 'finished' AND broken IS NULL ORDER BY id", (guild_id,))
        ids = [g["id"] for g in games]
        seats: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
        results: dict[int, dict[int, dict[str, Any]]] = {i: {} for i in ids}
        for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
            cond, params = self.dialect.any_of("game_id", chunk)
            for r in await self._read(f"SELECT * FROM results WHERE {cond}", params):
                results[r["game_id"]][r["seat"]] = {"score": r["score"], "rank": r["rank"]}
            for r in await self._read(f"SELECT * FROM seats WHERE {cond} ORDER BY game_id, seat", params):
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
                   for r in await self._read("SELECT * FROM ratings WHERE guild_id = ? ORDER BY kind, "
                                             "ordinal DESC, user_id", (guild_id,))]
        return {"guild_id": guild_id, "games": out_games, "ratings": ratings}

    # --- tournaments (issue 28): bot.community.tournaments.TournamentStore -------------------------
    async def create_tournament(self, row: Any) -> Any:
        def work(tx: Tx) -> Any:
            return tx.execute(
                "INSERT INTO tournaments (guild_id, channel_id, kind, format, rounds, places, creator_id, pace, "
                "reliability, status, round, total, version, created_at, lease_until, seeds, table_size) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?) RETURNING *",
                (row.guild_id, row.channel_id, row.kind, row.format, row.rounds, row.places, row.creator_id,
                 row.pace, row.reliability, row.status, row.round, row.total, row.created_at, row.lease_until,
                 dump_json(row.seeds), row.table)).one()

        return _tournament_from(await self._tx(work))

    async def get_tournament(self, tournament_id: int) -> Any:
        rows = await self._read("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return _tournament_from(rows[0]) if rows else None

    async def tournaments_in(self, guild_id: int, statuses: tuple[str, ...]) -> list[Any]:
        cond, params = self.dialect.any_of("status", statuses)
        rows = await self._read(f"SELECT * FROM tournaments WHERE guild_id = ? AND {cond} ORDER BY id",
                                (guild_id, *params))
        return [_tournament_from(r) for r in rows]

    async def running_tournaments(self) -> list[Any]:
        return [_tournament_from(r) for r in await self._read(
            "SELECT * FROM tournaments WHERE status = 'running' ORDER BY id")]

    async def update_tournament(self, tournament_id: int, old_version: int, **changes: Any) -> Any:
        sets, params = [], []
        for name, value in changes.items():
            column = _TOURNAMENT_COLUMNS.get(name)
            if column is None:
                raise TypeError(f"a tournament has no field {name!r} to change")
            sets.append(f"{column} = ?")
            params.append(dump_json(value) if name == "seeds" else value)

        def work(tx: Tx) -> Any:
            return tx.execute(f"UPDATE tournaments SET {''.join(s + ', ' for s in sets)}version = version + 1 "
                              "WHERE id = ? AND version = ? RETURNING *", (*params, tournament_id, old_version)).one()

        found = await self._tx(work)
        return _tournament_from(found) if found is not None else None

    async def claim_tournament(self, tournament_id: int, now: float, lease: float) -> bool:
        # one statement, like a deadline's claim: the row lock makes a second process re-check the lease
        return await self._write("UPDATE tournaments SET lease_until = ? WHERE id = ? AND lease_until <= ?",
                                 (now + lease, tournament_id, now)) == 1

    async def release_tournament(self, tournament_id: int) -> None:
        await self._write("UPDATE tournaments SET lease_until = 0 WHERE id = ?", (tournament_id,))

    async def add_tournament_entry(self, entry: Any, places: int) -> str:
        def work(tx: Tx) -> str:
            # the tournament's row locked (PostgreSQL; SQLite's write transaction holds the file): entries
            # of one tournament are counted and written one at a time, so the places are never exceeded
            t = tx.execute(f"SELECT status FROM tournaments WHERE id = ?{tx.dialect.for_update}",
                           (entry.tournament_id,)).one()
            if t is None or t["status"] != "open":
                return "closed"
            if tx.execute("SELECT 1 FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
                          (entry.tournament_id, entry.user_id)).rows:
                return "already"
            count = tx.execute("SELECT COUNT(*) AS n, COALESCE(MAX(position), 0) AS last FROM tournament_entries "
                               "WHERE tournament_id = ?", (entry.tournament_id,)).one()
            if count["n"] >= places:
                return "full"
            tx.execute("INSERT INTO tournament_entries (tournament_id, user_id, position, name, rating, locale, "
                       "withdrawn) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (entry.tournament_id, entry.user_id, count["last"] + 1, entry.name, entry.rating,
                        entry.locale, int(entry.withdrawn)))
            # the version moves: a launch that read the entries before this one fails its compare-and-swap
            tx.execute("UPDATE tournaments SET version = version + 1 WHERE id = ?", (entry.tournament_id,))
            return "ok"

        return await self._tx(work)

    async def remove_tournament_entry(self, tournament_id: int, user_id: int) -> bool:
        def work(tx: Tx) -> bool:
            if tx.execute("DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
                          (tournament_id, user_id)).rowcount != 1:
                return False
            tx.execute("UPDATE tournaments SET version = version + 1 WHERE id = ?", (tournament_id,))
            return True

        return await self._tx(work)

    async def withdraw_tournament_entry(self, tournament_id: int, user_id: int) -> bool:
        return await self._write("UPDATE tournament_entries SET withdrawn = 1 WHERE tournament_id = ? AND user_id = ? "
                                 "AND withdrawn = 0", (tournament_id, user_id)) == 1

    async def tournament_entries(self, tournament_id: int) -> list[Any]:
        return [EntryRow(tournament_id=r["tournament_id"], user_id=r["user_id"], name=r["name"],
                         rating=float(r["rating"]), locale=r["locale"], withdrawn=bool(r["withdrawn"]))
                for r in await self._read("SELECT * FROM tournament_entries WHERE tournament_id = ? ORDER BY position",
                                          (tournament_id,))]

    async def add_tournament_round(self, tournament_id: int, old_version: int, number: int, tables: list[Any],
                                   byes: list[tuple[int, Any]]) -> bool:
        def work(tx: Tx) -> bool:
            # the compare-and-swap first: a second writer of this round finds the version moved and writes nothing
            if tx.execute("UPDATE tournaments SET round = ?, version = version + 1 WHERE id = ? AND version = ?",
                          (number, tournament_id, old_version)).rowcount != 1:
                return False
            steps: list[Step] = [
                ("INSERT INTO tournament_tables (tournament_id, round, table_no, players, game_id, ranks, ended) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (tournament_id, number, t.table, dump_json(list(t.players)), t.game_id,
                  None if t.ranks is None else dump_json(list(t.ranks)), int(t.ended))) for t in tables]
            for player, points in byes:
                points = Fraction(points)
                steps.append(("INSERT INTO tournament_byes (tournament_id, round, player, points_num, points_den) "
                              "VALUES (?, ?, ?, ?, ?)", (tournament_id, number, player, points.numerator,
                                                          points.denominator)))
            tx.batch(steps, final=True)
            return True

        return await self._tx(work)

    async def tournament_tables(self, tournament_id: int) -> list[Any]:
        return [_table_from(r) for r in await self._read(
            "SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY round, table_no", (tournament_id,))]

    async def tournament_byes(self, tournament_id: int) -> list[Any]:
        return [Bye(r["round"], r["player"], Fraction(r["points_num"], r["points_den"])) for r in await self._read(
            "SELECT * FROM tournament_byes WHERE tournament_id = ? ORDER BY round, player", (tournament_id,))]

    async def set_tournament_game(self, tournament_id: int, number: int, table: int, game_id: int) -> int | None:
        key = (tournament_id, number, table)

        def work(tx: Tx) -> int | None:
            # set while empty: a second writer (blocked by the row lock, then re-checking) writes nothing and
            # reads the first one's game
            tx.execute("UPDATE tournament_tables SET game_id = ? WHERE tournament_id = ? AND round = ? "
                       "AND table_no = ? AND game_id IS NULL", (game_id, *key))
            return tx.execute("SELECT game_id FROM tournament_tables WHERE tournament_id = ? AND round = ? "
                              "AND table_no = ?", key).value()

        return await self._tx(work)

    async def set_tournament_result(self, tournament_id: int, number: int, table: int,
                                    ranks: tuple[int, ...] | None) -> bool:
        return await self._write(
            "UPDATE tournament_tables SET ranks = ?, ended = 1 WHERE tournament_id = ? AND round = ? AND table_no = ? "
            "AND ended = 0", (None if ranks is None else dump_json(list(ranks)), tournament_id, number, table)) == 1

    async def tournament_table_of(self, game_id: int) -> Any:
        rows = await self._read("SELECT * FROM tournament_tables WHERE game_id = ? ORDER BY tournament_id LIMIT 1",
                                (game_id,))
        return _table_from(rows[0]) if rows else None

    # --- the daily challenge (issue 37): bot.community.daily ---------------------------------------
    async def daily_secret(self, guild_id: int, fresh: str, now: float) -> str:
        def work(tx: Tx) -> str:
            tx.execute("INSERT INTO daily_secrets (guild_id, secret, created_at) VALUES (?, ?, ?) "
                       "ON CONFLICT (guild_id) DO NOTHING", (guild_id, fresh, now))
            return tx.execute("SELECT secret FROM daily_secrets WHERE guild_id = ?", (guild_id,)).value()

        return await self._tx(work)

    async def claim_daily(self, guild_id: int, day: str, kind: str, variant: str, user_id: int, name: str,
                          now: float) -> bool:
        return await self._write(
            "INSERT INTO daily_plays (guild_id, day, kind, variant, user_id, name, started_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (guild_id, day, kind, variant, user_id, name[:100], now)) == 1

    async def set_daily_game(self, guild_id: int, day: str, kind: str, variant: str, user_id: int,
                             game_id: int | None) -> None:
        key = (guild_id, day, kind, variant, user_id)
        if game_id is None:
            await self._write("DELETE FROM daily_plays WHERE guild_id = ? AND day = ? AND kind = ? AND variant = ? "
                              "AND user_id = ? AND game_id IS NULL", key)
            return
        await self._write("UPDATE daily_plays SET game_id = ? WHERE guild_id = ? AND day = ? AND kind = ? "
                          "AND variant = ? AND user_id = ?", (game_id, *key))

    async def daily_entries(self, guild_id: int, kind: str, variant: str, days: list[str]) -> list[dict[str, Any]]:
        cond, params = self.dialect.any_of("p.day", days)
        rows = await self._read(
            "SELECT p.day, p.user_id, p.name, p.game_id, g.status, g.finished_at, r.score FROM daily_plays p "
            "LEFT JOIN games g ON g.id = p.game_id "
            "LEFT JOIN results r ON r.game_id = p.game_id AND r.user_id = p.user_id "
            f"WHERE p.guild_id = ? AND p.kind = ? AND p.variant = ? AND {cond} ORDER BY p.day, p.started_at",
            (guild_id, kind, variant, *params))
        return [dict(r) for r in rows]

    async def daily_mark(self, guild_id: int, day: str, kind: str, variant: str) -> int | None:
        rows = await self._read("SELECT score FROM daily_marks WHERE guild_id = ? AND day = ? AND kind = ? "
                                "AND variant = ?", (guild_id, day, kind, variant))
        return int(rows[0]["score"]) if rows else None

    async def set_daily_mark(self, guild_id: int, day: str, kind: str, variant: str, score: int, level: int) -> int:
        def work(tx: Tx) -> int:
            tx.execute("INSERT INTO daily_marks (guild_id, day, kind, variant, score, level) VALUES (?, ?, ?, ?, ?, ?) "
                       "ON CONFLICT DO NOTHING", (guild_id, day, kind, variant, score, level))
            return int(tx.execute("SELECT score FROM daily_marks WHERE guild_id = ? AND day = ? AND kind = ? "
                                  "AND variant = ?", (guild_id, day, kind, variant)).value())

        return await self._tx(work)

    # --- queues (issue 28): bot.community.matchmaking.QueueStore --------------------------------------
    async def enqueue(self, entry: Any, limit: int) -> str:
        def work(tx: Tx) -> str:
            mine = tx.execute(f"SELECT kind, players, pace FROM queue_entries WHERE guild_id = ? AND user_id = ?"
                              f"{tx.dialect.for_update}", (entry.guild_id, entry.user_id)).rows
            queue = (entry.kind, entry.players, entry.pace or "")
            if any((r["kind"], r["players"], r["pace"]) == queue for r in mine):
                return "already"
            if len(mine) >= limit:
                return "too_many"
            if tx.execute("INSERT INTO queue_entries (guild_id, user_id, kind, players, pace, channel_id, name, since, "
                          "locale) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                          (entry.guild_id, entry.user_id, *queue, entry.channel_id, entry.name, entry.since,
                           entry.locale)).rowcount != 1:
                return "already"  # entered by a second click at the same instant
            return "ok"

        return await self._tx(work)

    async def leave_queues(self, guild_id: int, user_id: int) -> int:
        return await self._write("DELETE FROM queue_entries WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))

    async def expire_waiting(self, guild_id: int, before: float) -> int:
        return await self._write("DELETE FROM queue_entries WHERE guild_id = ? AND since <= ?", (guild_id, before))

    async def waiting(self, guild_id: int, user_id: int | None = None, since: float = 0.0) -> list[Any]:
        where, params = "guild_id = ? AND since > ?", [guild_id, since]
        if user_id is not None:
            where += " AND user_id = ?"
            params.append(user_id)
        return [_waiting_from(r) for r in await self._read(
            f"SELECT * FROM queue_entries WHERE {where} ORDER BY since, user_id", params)]

    async def take_group(self, guild_id: int, kind: str, players: int, pace: str | None, since: float,
                         now: float) -> Any:
        def work(tx: Tx) -> Any:
            d = tx.dialect
            # every entry of the server locked, in one order (PostgreSQL; SQLite's write transaction holds the
            # file): two takers of one server, from two processes, run one after the other, and the second
            # no longer sees the members the first took
            rows = tx.execute(f"SELECT * FROM queue_entries WHERE guild_id = ? "
                              f"ORDER BY user_id, kind, players, pace{d.for_update}", (guild_id,)).rows
            here = sorted((r for r in rows if r["kind"] == kind and r["players"] == players
                           and r["pace"] == (pace or "") and r["since"] > since),
                          key=lambda r: (r["since"], r["user_id"]))
            if len(here) < players:
                return None
            taken = tuple(_waiting_from(r) for r in here[:players])
            cond, params = d.any_of("user_id", [w.user_id for w in taken])
            tx.execute(f"DELETE FROM queue_entries WHERE guild_id = ? AND {cond}", (guild_id, *params))
            match_id = tx.execute(
                "INSERT INTO queue_matches (guild_id, channel_id, kind, pace, members, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, taken[0].channel_id, kind, pace, dump_json([_waiting_json(w) for w in taken]), now)).value()
            return Match(match_id, guild_id, taken[0].channel_id, kind, pace, taken, now)

        return await self._tx(work)

    async def set_match_game(self, match_id: int, game_id: int) -> int | None:
        def work(tx: Tx) -> int | None:
            tx.execute("UPDATE queue_matches SET game_id = ? WHERE id = ? AND game_id IS NULL", (game_id, match_id))
            return tx.execute("SELECT game_id FROM queue_matches WHERE id = ?", (match_id,)).value()

        return await self._tx(work)

    async def set_match_opened(self, match_id: int) -> None:
        await self._write("UPDATE queue_matches SET opened = 1 WHERE id = ? AND opened = 0", (match_id,))

    async def unopened_matches(self) -> list[Any]:
        return [_match_from(r) for r in await self._read(
            "SELECT * FROM queue_matches WHERE opened = 0 ORDER BY id")]

    # --- season ends (issue 28): claimed like a timeout's deadline ----------------------------------------
    async def schedule_season_end(self, guild_id: int, period: str, label: str, due: float) -> bool:
        return await self._write("INSERT INTO season_ends (guild_id, period, label, due) VALUES (?, ?, ?, ?) "
                                 "ON CONFLICT DO NOTHING", (guild_id, period, label, due)) == 1

    async def due_season_ends(self, now: float, limit: int = 100,
                              shards: tuple[tuple[int, ...], int] | None = None) -> list[SeasonEnd]:
        found = self._shard_filter(shards, "((guild_id >> 22) % ?)")
        if found is None:
            return []
        where, params = found
        rows = await self._read(
            "SELECT * FROM season_ends WHERE state = 'pending' AND due <= ? AND (lease_until IS NULL OR "
            f"lease_until <= ?) {where}ORDER BY due, guild_id LIMIT ?", (now, now, *params, limit))
        return [season_end_from(r) for r in rows]

    async def claim_season_end(self, key: tuple[int, str, str], now: float, lease: float) -> SeasonEnd | None:
        def work(tx: Tx) -> SeasonEnd | None:
            # one conditional update: the row lock makes a second process re-check the lease and find it taken
            if tx.execute("UPDATE season_ends SET lease_until = ?, attempts = attempts + 1 WHERE guild_id = ? "
                          "AND period = ? AND label = ? AND state = 'pending' AND (lease_until IS NULL OR "
                          "lease_until <= ?)", (now + lease, *key, now)).rowcount != 1:
                return None
            rows = tx.execute("SELECT * FROM season_ends WHERE guild_id = ? AND period = ? AND label = ?", key).rows
            return season_end_from(rows[0])

        return await self._tx(work)

    async def close_season_end(self, key: tuple[int, str, str], state: str, now: float) -> bool:
        return await self._write(
            "UPDATE season_ends SET state = ?, fired_at = ?, lease_until = NULL WHERE guild_id = ? AND period = ? "
            "AND label = ? AND state = 'pending'", (state, now, *key)) == 1

    async def release_season_end(self, key: tuple[int, str, str]) -> None:
        await self._write("UPDATE season_ends SET lease_until = NULL WHERE guild_id = ? AND period = ? AND label = ? "
                          "AND state = 'pending'", key)


#: the fields of a tournament ``update_tournament`` may change, and their columns
_TOURNAMENT_COLUMNS = {name: name for name in (
    "guild_id", "channel_id", "kind", "format", "rounds", "places", "creator_id", "pace", "reliability", "status",
    "round", "total", "created_at", "lease_until", "seeds", "announced")} | {"table": "table_size"}


def _tournament_from(r: Any) -> Any:
    return TournamentRow(id=r["id"], guild_id=r["guild_id"], channel_id=r["channel_id"], kind=r["kind"],
                         format=r["format"], rounds=r["rounds"], places=r["places"], creator_id=r["creator_id"],
                         pace=r["pace"], reliability=r["reliability"], status=r["status"], round=r["round"],
                         total=r["total"], version=r["version"], created_at=float(r["created_at"]),
                         lease_until=float(r["lease_until"]), seeds=json.loads(r["seeds"]), table=r["table_size"],
                         announced=r["announced"])


def _table_from(r: Any) -> Any:
    return TableRow(tournament_id=r["tournament_id"], round=r["round"], table=r["table_no"],
                    players=tuple(json.loads(r["players"])), game_id=r["game_id"],
                    ranks=None if r["ranks"] is None else tuple(json.loads(r["ranks"])), ended=bool(r["ended"]))


def _waiting_from(r: Any) -> Any:
    return Waiting(guild_id=r["guild_id"], channel_id=r["channel_id"], user_id=r["user_id"], name=r["name"],
                   kind=r["kind"], players=r["players"], pace=r["pace"] or None, since=float(r["since"]),
                   locale=r["locale"])


def _waiting_json(w: Any) -> dict[str, Any]:
    return {"guild_id": w.guild_id, "channel_id": w.channel_id, "user_id": w.user_id, "name": w.name, "kind": w.kind,
            "players": w.players, "pace": w.pace, "since": w.since, "locale": w.locale}


def _match_from(r: Any) -> Any:
    members = tuple(Waiting(**m) for m in json.loads(r["members"]))
    return Match(r["id"], r["guild_id"], r["channel_id"], r["kind"], r["pace"], members, float(r["created_at"]),
                 r["game_id"])


def _seats(text: str | None) -> list[Seat]:
    """A game's seats from the JSON array of ``[seat, user_id, name, ai_level, locale]`` its read carries."""
    return sorted((Seat(seat=s, user_id=u, name=n, ai_level=a, locale=loc) for s, u, n, a, loc in
                   json.loads(text or "[]")), key=lambda x: x.seat)


def _paused_since(value: str | None) -> float | None:
    """When a paused game stopped (the ``since`` of its pause record)."""
    if not value:
        return None
    try:
        since = json.loads(value).get("since")
    except (ValueError, AttributeError):
        return None
    return float(since) if isinstance(since, int | float) else None
