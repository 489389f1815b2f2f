"""The PostgreSQL backend (asyncpg, a connection pool): for several bot processes on one database.

The same tables and the same migration numbers as SQLite (the applied number is kept in
``ludibot_schema``); the same compare-and-swap on ``games.version`` (a row lock makes the second
writer re-check ``version`` and find it moved); deadline claims are one atomic ``UPDATE … WHERE
state = 'pending' AND lease expired``, so two processes never both own one.
JSON is stored as the same compact text as SQLite, so a game's state checksums alike on both.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any

import asyncpg

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
    dump_json,
    event_from,
    game_from,
    move_waits,
    pack,
    pack_log,
    rating_from,
    readable_json,
    seat_from,
    turn_from,
    turn_times,
    unpack_log,
)

log = logging.getLogger("ludibot.storage")

MIGRATIONS: list[str] = [
    # 1: the foundation
    """
    CREATE TABLE games (
        id BIGSERIAL PRIMARY KEY,
        guild_id BIGINT,
        channel_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        seed BIGINT NOT NULL,
        creator_id BIGINT NOT NULL,
        lobby_message_id BIGINT,
        control_message_id BIGINT,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION
    );
    CREATE INDEX games_channel ON games (channel_id, status);
    CREATE INDEX games_guild ON games (guild_id, status, kind);
    CREATE TABLE seats (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id BIGINT,
        name TEXT NOT NULL,
        ai_level INTEGER,
        locale TEXT NOT NULL DEFAULT 'fr',
        PRIMARY KEY (game_id, seat)
    );
    CREATE UNIQUE INDEX seats_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE events (
        id BIGSERIAL PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        seat INTEGER,
        user_id BIGINT,
        action TEXT NOT NULL,
        events TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        UNIQUE (game_id, version)
    );
    CREATE TABLE results (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id BIGINT,
        score INTEGER,
        rank INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_user ON results (user_id);
    CREATE TABLE guild_settings (
        guild_id BIGINT PRIMARY KEY,
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
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('reminder', 'timeout')),
        version INTEGER NOT NULL,
        due DOUBLE PRECISION NOT NULL,
        since DOUBLE PRECISION NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'void', 'failed')),
        lease_until DOUBLE PRECISION,
        attempts INTEGER NOT NULL DEFAULT 0,
        fired_at DOUBLE PRECISION,
        PRIMARY KEY (game_id, seat, kind, version)
    );
    CREATE INDEX deadlines_due ON deadlines (due) WHERE state = 'pending';
    CREATE INDEX events_seat ON events (game_id, seat, version);
    CREATE TABLE user_prefs (
        user_id BIGINT PRIMARY KEY,
        prefs TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE rated_games (
        game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        guild_id BIGINT,
        kind TEXT NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        solo INTEGER NOT NULL,
        humans INTEGER NOT NULL
    );
    CREATE INDEX rated_games_board ON rated_games (guild_id, kind, solo, finished_at);
    CREATE INDEX results_user_game ON results (user_id, game_id);
    CREATE INDEX games_finished ON games (status, finished_at);
    CREATE TABLE ratings (
        guild_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        ordinal DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        best_score INTEGER,
        last_played DOUBLE PRECISION,
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
    ALTER TABLE games ADD COLUMN thread_id BIGINT;
    UPDATE games SET published_version = version;
    CREATE INDEX games_unpublished ON games (updated_at) WHERE published_version < version
        AND status IN ('running', 'finished');
    CREATE INDEX games_paused ON games (guild_id) WHERE paused IS NOT NULL;
    """,
    # 4: lean storage (issue 14): closed deadlines are not history; indexes for the community queries;
    # an ended game's state and log are archived, compressed, in one row
    """
    DELETE FROM deadlines WHERE game_id IN (SELECT id FROM games WHERE status IN ('finished', 'cancelled'));
    DELETE FROM deadlines WHERE state = 'void';
    DELETE FROM deadlines WHERE state <> 'pending' AND version < (SELECT MAX(d.version) FROM deadlines d
        WHERE d.game_id = deadlines.game_id AND d.seat = deadlines.seat);
    CREATE INDEX games_guild_finished ON games (guild_id, status, id);
    CREATE INDEX rated_games_unrated ON rated_games (finished_at);
    CREATE TABLE archives (
        game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        state BYTEA NOT NULL,
        events BYTEA NOT NULL
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
        user_id BIGINT NOT NULL,
        starts_at DOUBLE PRECISION NOT NULL,
        ends_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (user_id, starts_at)
    );
    CREATE INDEX vacations_end ON vacations (user_id, ends_at);
    """,
    # 8: a stalled player (issue 15): the other players' ballots, one per voter and vote (the vote itself is
    # a 'vote' deadline of the stalled seat; its decision goes in the event log)
    """
    CREATE TABLE ballots (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        epoch INTEGER NOT NULL,
        voter BIGINT NOT NULL,
        choice TEXT NOT NULL,
        cast_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seat, epoch, voter)
    );
    ALTER TABLE deadlines DROP CONSTRAINT IF EXISTS deadlines_kind_check;
    ALTER TABLE deadlines ADD CONSTRAINT deadlines_kind_check CHECK (kind IN ('reminder', 'timeout', 'vote'));
    """,
    # 9: whose turn, since when (issue 16): kept with every commit so that /parties and the scheduler's
    # sweep read indexes, not every running game's state. Running games start stale (turn_version
    # NULL): the bot refreshes them at start (SessionService.refresh_turns), in batches.
    """
    ALTER TABLE games ADD COLUMN turn_since DOUBLE PRECISION;
    ALTER TABLE games ADD COLUMN turn_version INTEGER;
    ALTER TABLE seats ADD COLUMN turn_since DOUBLE PRECISION;
    UPDATE games SET turn_version = version WHERE status <> 'running';
    CREATE INDEX games_turns ON games (guild_id, turn_since NULLS FIRST, id) WHERE status = 'running'
        AND broken IS NULL;
    CREATE INDEX games_turn_stale ON games (id) WHERE status = 'running' AND broken IS NULL
        AND turn_version IS DISTINCT FROM version;
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

LATEST = len(MIGRATIONS)

#: any number: the advisory lock that lets one process at a time migrate
_MIGRATION_LOCK = 0x1ad1b07


def _paused_since(value: str | None) -> float | None:
    """When a paused game stopped (the ``since`` of its pause record)."""
    if not value:
        return None
    try:
        since = json.loads(value).get("since")
    except (ValueError, AttributeError):
        return None
    return float(since) if isinstance(since, int | float) else None


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def _count(status: str) -> int:
    """Rows touched, from asyncpg's command tag (``UPDATE 1``)."""
    return int(status.rsplit(" ", 1)[-1]) if status and status[-1].isdigit() else 0


class PostgresStore(Store):
    """PostgreSQL through an asyncpg pool; every write is one transaction."""

    latest_schema = LATEST

    def __init__(self, url: str, *, clock: Callable[[], float] = time.time, min_size: int = 1,
                 max_size: int = 10):
        self.url = url
        self.clock = clock
        self.min_size, self.max_size = min_size, max_size
        self._pool: asyncpg.Pool | None = None

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("store is not open")
        return self._pool

    async def open(self) -> None:
        self._pool = await asyncpg.create_pool(self.url, min_size=self.min_size, max_size=self.max_size)
        try:
            await self.migrate()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def healthy(self) -> bool:
        try:
            await self.pool.fetchval("SELECT 1")
        except Exception:
            return False
        return True

    async def reserve_slot(self, key: str, now: float, window: float) -> float:
        # one statement: the row lock orders two processes booking the same bucket
        at = await self.pool.fetchval(
            "INSERT INTO meta (key, value) VALUES ($1, ($2::float8 + $3::float8)::text) "
            "ON CONFLICT (key) DO UPDATE SET value = (GREATEST($2::float8, meta.value::float8) + $3::float8)::text "
            "RETURNING value::float8 - $3::float8", key, now, window)
        return float(at)

    async def count_running(self) -> dict[str, int]:
        rows = await self._fetch("SELECT kind, COUNT(*) AS n FROM games WHERE status = 'running' GROUP BY kind")
        return {r["kind"]: r["n"] for r in rows}

    async def schema_version(self) -> int:
        async with self.pool.acquire() as con:
            return await self._schema(con)

    @staticmethod
    async def _schema(con) -> int:
        exists = await con.fetchval("SELECT to_regclass('ludibot_schema') IS NOT NULL")
        if not exists:
            return 0
        return int(await con.fetchval("SELECT COALESCE(MAX(version), 0) FROM ludibot_schema"))

    async def migrate(self) -> None:
        async with self.pool.acquire() as con:
            async with con.transaction():
                # two processes starting together: one migrates, the other waits and finds it done
                await con.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
                current = await self._schema(con)
                if current > LATEST:
                    raise SchemaTooNew(current, LATEST)
                await con.execute("CREATE TABLE IF NOT EXISTS ludibot_schema (version INTEGER NOT NULL)")
                for number, script in enumerate(MIGRATIONS, start=1):
                    if number <= current:
                        continue
                    await con.execute(script)
                    await con.execute("DELETE FROM ludibot_schema")
                    await con.execute("INSERT INTO ludibot_schema (version) VALUES ($1)", number)

    # --- helpers -----------------------------------------------------------------
    async def _tx(self, work):
        """Run ``work(con)`` in one transaction; roll back on any error or when it returns False."""
        async with self.pool.acquire() as con:
            tr = con.transaction()
            await tr.start()
            try:
                result = await work(con)
            except BaseException:
                await tr.rollback()
                raise
            if result is False:
                await tr.rollback()
            else:
                await tr.commit()
            return result

    async def _fetch(self, sql: str, *params) -> list[asyncpg.Record]:
        async with self.pool.acquire() as con:
            return await con.fetch(sql, *params)

    async def _games(self, where: str, *params) -> list[GameRow]:
        async with self.pool.acquire() as con:
            rows = await con.fetch(f"SELECT games.*, archives.state AS packed FROM games LEFT JOIN archives "
                                   f"ON archives.game_id = games.id WHERE {where} ORDER BY games.id", *params)
            if not rows:
                return []
            ids = [r["id"] for r in rows]
            seat_rows = await con.fetch("SELECT * FROM seats WHERE game_id = ANY($1::bigint[]) "
                                        "ORDER BY game_id, seat", ids)
        by_game: dict[int, list[Seat]] = {i: [] for i in ids}
        for s in seat_rows:
            by_game[s["game_id"]].append(seat_from(s))
        games = [game_from(r, by_game[r["id"]]) for r in rows]
        for row, game in zip(rows, games, strict=True):
            if game.broken and not row["broken"]:  # found unreadable just now: store why (logged once)
                await self.mark_broken(game.id, game.broken)
        return games

    # --- games that cannot be read (issue 13) ------------------------------------------------
    async def mark_broken(self, game_id: int, reason: str) -> bool:
        async def work(con):
            done = await con.execute("UPDATE games SET broken = $2 WHERE id = $1 AND broken IS NULL",
                                     game_id, reason[:500])
            return done.endswith(" 1")

        newly = await self._tx(work)
        if newly:
            log.error("game %s cannot be read and is set aside: %s", game_id, reason)
        return newly

    async def broken_games(self, guild_id: int | None) -> list[GameRow]:
        return await self._games("guild_id IS NOT DISTINCT FROM $1 AND broken IS NOT NULL "
                                 "AND status IN ('lobby', 'running')", guild_id)

    async def export_guild(self, guild_id) -> dict[str, Any]:
        games = await self._fetch(
            "SELECT id, kind, channel_id, options, created_at, finished_at FROM games "
            "WHERE guild_id = $1 AND status = 'finished' AND broken IS NULL ORDER BY id", guild_id)
        ids = [g["id"] for g in games]
        seats: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
        results: dict[int, dict[int, dict[str, Any]]] = {i: {} for i in ids}
        if ids:
            for r in await self._fetch("SELECT * FROM results WHERE game_id = ANY($1::bigint[])", ids):
                results[r["game_id"]][r["seat"]] = {"score": r["score"], "rank": r["rank"]}
            for r in await self._fetch("SELECT * FROM seats WHERE game_id = ANY($1::bigint[]) "
                                       "ORDER BY game_id, seat", ids):
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
                   for r in await self._fetch("SELECT * FROM ratings WHERE guild_id = $1 ORDER BY kind, "
                                              "ordinal DESC, user_id", guild_id)]
        return {"guild_id": guild_id, "games": out_games, "ratings": ratings}

    @staticmethod
    async def _write_seats(con, game_id: int, seats: list[Seat]) -> None:
        await con.execute("DELETE FROM seats WHERE game_id = $1", game_id)
        await con.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, ai_level, locale) VALUES ($1, $2, $3, $4, $5, $6)",
            [(game_id, s.seat, s.user_id, s.name, s.ai_level, s.locale) for s in seats],
        )

    async def _bump(self, con, game_id: int, old_version: int, sets: str = "", params: tuple = ()) -> bool:
        """``version = version + 1`` if it is still ``old_version``; ``sets`` uses ``$4``, ``$5``…"""
        status = await con.execute(
            f"UPDATE games SET version = version + 1, updated_at = $1{sets} WHERE id = $2 AND version = $3",
            self.clock(), game_id, old_version, *params)
        return _count(status) == 1

    # --- games -------------------------------------------------------------------
    async def create_game(self, *, kind, guild_id, channel_id, creator, options, seed, settings=None) -> GameRow:
        now = self.clock()

        async def work(con):
            game_id = await con.fetchval(
                "INSERT INTO games (guild_id, channel_id, kind, options, status, seed, creator_id, created_at, "
                "updated_at, settings) VALUES ($1, $2, $3, $4, 'lobby', $5, $6, $7, $7, $8) RETURNING id",
                guild_id, channel_id, kind, dump_json(options), seed, creator.user_id, now, dump_json(settings or {}))
            await self._write_seats(con, game_id, [creator])
            return game_id

        game = await self.get_game(await self._tx(work))
        assert game is not None
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        games = await self._games("id = $1", game_id)
        return games[0] if games else None

    async def games_in_channel(self, channel_id, statuses=ACTIVE, kind=None) -> list[GameRow]:
        here = "(channel_id = $1 OR thread_id = $1)"
        if kind is None:
            return await self._games(f"{here} AND status = ANY($2::text[])", channel_id, list(statuses))
        return await self._games(f"{here} AND status = ANY($2::text[]) AND kind = $3", channel_id,
                                 list(statuses), kind)

    async def games_with_status(self, statuses, guild_id=None) -> list[GameRow]:
        if guild_id is None:
            return await self._games("status = ANY($1::text[])", list(statuses))
        return await self._games("status = ANY($1::text[]) AND guild_id = $2", list(statuses), guild_id)

    async def update_lobby(self, game_id, old_version, seats) -> bool:
        async def work(con):
            if not await self._bump(con, game_id, old_version):
                return False
            await self._write_seats(con, game_id, seats)
            return True

        return await self._tx(work)

    async def start_game(self, game_id, old_version, seats, state, expected=None) -> bool:
        async def work(con):
            now = self.clock()
            status = await con.execute(
                "UPDATE games SET version = version + 1, updated_at = $1, status = 'running', state = $2 "
                "WHERE id = $3 AND version = $4 AND status = 'lobby'",
                now, dump_json(state), game_id, old_version)
            if _count(status) != 1:
                return False
            await self._write_seats(con, game_id, seats)
            if expected is not None:
                await self._write_turns(con, game_id, old_version + 1, turn_times({}, expected, None, now))
            return True

        return await self._tx(work)

    @staticmethod
    async def _write_turns(con, game_id: int, version: int, since: dict[int, float]) -> None:
        """The turn columns of ``game_id`` at ``version`` (``since``: the expected seats)."""
        seats = list(since)
        await con.execute(
            "UPDATE seats SET turn_since = t.at FROM (SELECT s.seat, a.at FROM seats s LEFT JOIN "
            "unnest($2::int[], $3::float8[]) AS a(seat, at) ON a.seat = s.seat WHERE s.game_id = $1) t "
            "WHERE seats.game_id = $1 AND seats.seat = t.seat AND seats.turn_since IS DISTINCT FROM t.at",
            game_id, seats, [since[s] for s in seats])
        await con.execute("UPDATE games SET turn_since = $2, turn_version = $3 WHERE id = $1",
                          game_id, min(since.values()) if since else None, version)

    async def set_status(self, game_id, old_version, status) -> bool:
        async def work(con):
            finished = self.clock() if status in (FINISHED, CANCELLED) else None
            if not await self._bump(con, game_id, old_version, ", status = $4, finished_at = $5", (status, finished)):
                return False
            if finished is not None:
                await self._write_turns(con, game_id, old_version + 1, {})  # an ended game: nobody's turn
                state = await con.fetchval("SELECT state FROM games WHERE id = $1", game_id)
                if state:  # a cancelled running game: its log goes to the archive too
                    if (parsed := readable_json(state)) is not None:
                        await self._archive(con, game_id, parsed)
            return True

        return await self._tx(work)

    async def archive_ended(self, limit: int = 500) -> int:
        async def work(con):
            rows = await con.fetch("SELECT id, state FROM games WHERE status IN ('finished', 'cancelled') AND broken IS NULL "
                                   "AND state IS NOT NULL LIMIT $1 FOR UPDATE SKIP LOCKED", limit)
            for r in rows:
                state = readable_json(r["state"])
                if state is not None:
                    await self._archive(con, r["id"], state)
            return len(rows)

        return await self._tx(work)

    async def commit_action(self, game_id, old_version, *, state, seat, user_id, action, events,
                            status=RUNNING, results=None, settings=None, expected=None) -> GameRow | None:
        now = self.clock()
        text = dump_json(state)

        async def work(con):
            finished = now if status in (FINISHED, CANCELLED) else None
            extra, params = "", [now, game_id, old_version, text, status, finished]
            if settings is not None:
                extra = ", settings = $7"
                params.append(dump_json(settings))
            row = await con.fetchrow(
                "UPDATE games SET version = version + 1, updated_at = $1, state = $4, status = $5, finished_at = $6"
                f"{extra} WHERE id = $2 AND version = $3 RETURNING *", *params)
            if row is None:
                return False
            await con.execute(
                "INSERT INTO events (game_id, version, seat, user_id, action, events, created_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7)",
                game_id, old_version + 1, seat, user_id, dump_json(action), dump_json(events), now)
            if results:
                await con.executemany(
                    "INSERT INTO results (game_id, seat, user_id, score, rank) VALUES ($1, $2, $3, $4, $5) "
                    "ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id, "
                    "score = excluded.score, rank = excluded.rank",
                    [(game_id, r.seat, r.user_id, r.score, r.rank) for r in results])
            seat_rows = await con.fetch("SELECT * FROM seats WHERE game_id = $1 ORDER BY seat", game_id)
            if expected is not None or finished is not None:
                old = {r["seat"]: r["turn_since"] for r in seat_rows}
                now_expected = expected if finished is None else ()
                await self._write_turns(con, game_id, old_version + 1, turn_times(old, now_expected, seat, now))
            if finished is not None:
                await self._archive(con, game_id, state)
            # the row as it now is (what get_game would read back), without reading it again
            return game_from(row, [seat_from(r) for r in seat_rows])

        result = await self._tx(work)
        return None if result is False else result

    # --- whose turn, since when (issue 16) ------------------------------------------------------
    _TURN_COLUMNS = ("g.id, g.kind, g.guild_id, g.channel_id, g.thread_id, g.control_message_id, g.updated_at, "
                     "(SELECT json_agg(x.name ORDER BY x.seat)::text FROM seats x WHERE x.game_id = g.id "
                     "AND x.turn_since IS NOT NULL) AS waiting")

    async def turn_lists(self, guild_id, user_id, limit) -> TurnLists:
        async with self.pool.acquire() as con:
            mine = await con.fetch(
                f"SELECT {self._TURN_COLUMNS}, s.turn_since AS since FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE s.user_id = $1 AND s.turn_since IS NOT NULL AND g.guild_id = $2 AND g.status = 'running' "
                "AND g.broken IS NULL ORDER BY s.turn_since, g.id LIMIT $3", user_id, guild_id, limit)
            others = await con.fetch(
                f"SELECT {self._TURN_COLUMNS}, g.turn_since AS since FROM games g "
                "WHERE g.guild_id = $1 AND g.status = 'running' AND g.broken IS NULL AND NOT EXISTS "
                "(SELECT 1 FROM seats m WHERE m.game_id = g.id AND m.user_id = $2 AND m.turn_since IS NOT NULL) "
                "ORDER BY g.turn_since NULLS FIRST, g.id LIMIT $3", guild_id, user_id, limit)
            # planned for these values: a server's size varies by orders of magnitude, and the generic
            # plan a prepared statement switches to after five calls counts a busy server 7x slower
            async with con.transaction():
                await con.execute("SET LOCAL plan_cache_mode = force_custom_plan")
                counts = await con.fetchrow(
                    "SELECT (SELECT COUNT(*) FROM games WHERE guild_id = $1 AND status = 'running' "
                    "AND broken IS NULL) AS total, (SELECT COUNT(*) FROM seats s WHERE s.user_id = $2 "
                    "AND s.turn_since IS NOT NULL AND EXISTS (SELECT 1 FROM games g WHERE g.id = s.game_id "
                    "AND g.guild_id = $1 AND g.status = 'running' AND g.broken IS NULL)) AS mine",
                    guild_id, user_id)
        total, mine_total = int(counts["total"]), int(counts["mine"])
        return TurnLists(mine=[turn_from(r) for r in mine], mine_total=mine_total,
                         others=[turn_from(r) for r in others], others_total=total - mine_total)

    async def running_after(self, after_id, limit=50) -> list[GameRow]:
        return await self._games("games.id IN (SELECT id FROM games WHERE status = 'running' AND broken IS NULL "
                                 "AND id > $1 ORDER BY id LIMIT $2)", after_id, limit)

    async def stale_turns(self, limit=200) -> list[GameRow]:
        return await self._games(
            "games.id IN (SELECT id FROM games WHERE status = 'running' AND broken IS NULL "
            "AND turn_version IS DISTINCT FROM version ORDER BY id LIMIT $1)", limit)

    async def set_turns(self, game_id, version, since) -> bool:
        async def work(con):
            found = await con.fetchval("SELECT 1 FROM games WHERE id = $1 AND version = $2 AND status = 'running' "
                                       "FOR UPDATE", game_id, version)
            if found is None:
                return False
            await self._write_turns(con, game_id, version, dict(since))
            return True

        return await self._tx(work)

    async def seats_without_deadline(self) -> list[dict[str, Any]]:
        rows = await self._fetch(
            "SELECT g.id AS game_id, g.guild_id, g.kind, g.version, g.updated_at, s.seat "
            "FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE s.turn_since IS NOT NULL AND s.ai_level IS NULL AND g.status = 'running' AND g.broken IS NULL "
            "AND g.turn_version = g.version AND NOT EXISTS (SELECT 1 FROM deadlines d WHERE d.game_id = s.game_id "
            "AND d.seat = s.seat AND d.version >= COALESCE((SELECT MAX(e.version) FROM events e "
            "WHERE e.game_id = s.game_id AND e.seat = s.seat), -1)) ORDER BY g.id, s.seat")
        return [dict(r) for r in rows]

    async def set_message_ids(self, game_id, *, lobby=None, control=None) -> None:
        async def work(con):
            if lobby is not None:
                await con.execute("UPDATE games SET lobby_message_id = $1 WHERE id = $2", lobby, game_id)
            if control is not None:
                await con.execute("UPDATE games SET control_message_id = $1 WHERE id = $2", control, game_id)
            return True

        await self._tx(work)

    async def set_thread(self, game_id, thread_id) -> int | None:
        async def work(con):
            await con.execute("UPDATE games SET thread_id = $2 WHERE id = $1 AND thread_id IS NULL", game_id, thread_id)
            return await con.fetchval("SELECT thread_id FROM games WHERE id = $1", game_id)

        return await self._tx(work)

    @staticmethod
    async def _archive(con, game_id: int, state: Any) -> None:
        """An ended game: its state and log become one compressed row (lean storage; read back alike)."""
        log = [event_from(r) for r in await con.fetch("SELECT * FROM events WHERE game_id = $1 ORDER BY version",
                                                      game_id)]
        await con.execute("INSERT INTO archives (game_id, state, events) VALUES ($1, $2, $3) ON CONFLICT (game_id) "
                          "DO UPDATE SET state = excluded.state, events = excluded.events",
                          game_id, pack(state), pack_log(log))
        await con.execute("DELETE FROM events WHERE game_id = $1", game_id)
        await con.execute("UPDATE games SET state = NULL WHERE id = $1", game_id)

    async def _archived_log(self, game_id: int) -> list[EventRow] | None:
        blob = await self.pool.fetchval("SELECT events FROM archives WHERE game_id = $1", game_id)
        return unpack_log(game_id, blob) if blob is not None else None

    async def events(self, game_id) -> list[EventRow]:
        rows = await self._fetch("SELECT * FROM events WHERE game_id = $1 ORDER BY version", game_id)
        if not rows:
            return await self._archived_log(game_id) or []
        return [event_from(r) for r in rows]

    async def events_after(self, game_id, version) -> list[EventRow]:
        rows = await self._fetch("SELECT * FROM events WHERE game_id = $1 AND version > $2 ORDER BY version",
                                 game_id, version)
        if not rows and (log := await self._archived_log(game_id)) is not None:
            return [e for e in log if e.version > version]
        return [event_from(r) for r in rows]

    async def mark_published(self, game_id, version, message_id) -> bool:
        async def work(con):
            status = await con.execute(
                "UPDATE games SET published_version = $1, control_message_id = COALESCE($2, control_message_id) "
                "WHERE id = $3 AND published_version < $1", version, message_id, game_id)
            return _count(status) == 1

        return await self._tx(work)

    async def unpublished_games(self, limit=100) -> list[GameRow]:
        return await self._games(
            "id IN (SELECT id FROM games WHERE published_version < version "
            "AND paused IS NULL AND broken IS NULL ORDER BY updated_at LIMIT $1)", limit)

    async def set_paused(self, game_id, reason, now) -> None:
        async def work(con):
            if reason is None:
                since = _paused_since(await con.fetchval("SELECT paused FROM games WHERE id = $1 FOR UPDATE",
                                                         game_id))
                if since is not None and now > since:
                    await con.execute("UPDATE deadlines SET due = due + $1 WHERE game_id = $2 AND state = 'pending'",
                                      now - since, game_id)
            await con.execute("UPDATE games SET paused = $1 WHERE id = $2", reason, game_id)
            return True

        await self._tx(work)

    async def paused_games(self, guild_id) -> list[GameRow]:
        if guild_id is None:
            return await self._games("guild_id IS NULL AND paused IS NOT NULL AND status IN ('running', 'finished')")
        return await self._games("guild_id = $1 AND paused IS NOT NULL AND status IN ('running', 'finished')",
                                 guild_id)

    async def results(self, game_id) -> list[ResultRow]:
        rows = await self._fetch("SELECT * FROM results WHERE game_id = $1 ORDER BY seat", game_id)
        return [ResultRow(game_id=r["game_id"], seat=r["seat"], user_id=r["user_id"], score=r["score"],
                          rank=r["rank"]) for r in rows]

    async def guild_settings(self, guild_id) -> dict[str, Any]:
        if (cached := self.cached_settings(guild_id)) is not None:
            return cached
        generation = self.settings_generation()
        rows = await self._fetch("SELECT settings FROM guild_settings WHERE guild_id = $1", guild_id)
        return self.remember_settings(guild_id, json.loads(rows[0]["settings"]) if rows else {}, generation)

    async def set_guild_settings(self, guild_id, settings) -> None:
        async def work(con):
            await con.execute("INSERT INTO guild_settings (guild_id, settings) VALUES ($1, $2) "
                              "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
                              guild_id, dump_json(settings))
            return True

        self.forget_settings(guild_id)
        await self._tx(work)
        self.forget_settings(guild_id)

    async def get_meta(self, key) -> str | None:
        rows = await self._fetch("SELECT value FROM meta WHERE key = $1", key)
        return rows[0]["value"] if rows else None

    async def set_meta(self, key, value) -> None:
        async def work(con):
            await con.execute("INSERT INTO meta (key, value) VALUES ($1, $2) "
                              "ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value)
            return True

        await self._tx(work)

    # --- playing over days (issue 9): deadlines, preferences, ratings ---------------------------
    async def schedule_deadlines(self, game_id, version, since, entries) -> None:
        async def work(con):
            for seat in sorted({seat for seat, _, _ in entries}):
                # older epochs go (lean storage); a leased one is being fired: its owner closes it
                await con.execute(
                    "DELETE FROM deadlines WHERE game_id = $1 AND seat = $2 AND version < $3 AND "
                    "(state <> 'pending' OR lease_until IS NULL OR lease_until <= $4)", game_id, seat, version, since)
            await con.executemany(
                "INSERT INTO deadlines (game_id, seat, kind, version, due, since) VALUES ($1, $2, $3, $4, $5, $6) "
                "ON CONFLICT DO NOTHING", [(game_id, seat, kind, version, due, since) for seat, kind, due in entries])
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
            where = ("AND (CASE WHEN g.guild_id IS NULL THEN 0 ELSE (g.guild_id >> 22) % $3 END) "
                     "= ANY($4::bigint[]) ")
            params = (int(count), ids)
        rows = await self._fetch(
            "SELECT d.*, COALESCE(g.thread_id, g.channel_id) AS channel FROM deadlines d JOIN games g "
            "ON g.id = d.game_id WHERE d.state = 'pending' AND d.due <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1) "
            f"AND g.paused IS NULL {where}"
            "ORDER BY d.due, d.game_id, d.kind, d.seat LIMIT $2", now, limit, *params)
        return [deadline_from(r) for r in rows]

    async def claim_deadline(self, key, now, lease) -> bool:
        # one statement: the row lock makes a second process re-check the lease and find it taken
        async def work(con):
            status = await con.execute(
                "UPDATE deadlines SET lease_until = $1, attempts = attempts + 1 WHERE game_id = $2 AND seat = $3 "
                "AND kind = $4 AND version = $5 AND state = 'pending' AND (lease_until IS NULL OR lease_until <= $6)",
                now + lease, *key, now)
            return _count(status) == 1

        return await self._tx(work)

    async def close_deadline(self, key, state, now) -> bool:
        async def work(con):
            if state == VOID:  # a void deadline is not history: it goes
                status = await con.execute("DELETE FROM deadlines WHERE game_id = $1 AND seat = $2 AND kind = $3 "
                                           "AND version = $4 AND state = 'pending'", *key)
                return _count(status) == 1
            status = await con.execute(
                "UPDATE deadlines SET state = $1, fired_at = $2, lease_until = NULL WHERE game_id = $3 AND seat = $4 "
                "AND kind = $5 AND version = $6 AND state = 'pending'", state, now, *key)
            return _count(status) == 1

        return await self._tx(work)

    async def release_deadline(self, key) -> None:
        async def work(con):
            await con.execute("UPDATE deadlines SET lease_until = NULL WHERE game_id = $1 AND seat = $2 "
                              "AND kind = $3 AND version = $4 AND state = 'pending'", *key)
            return True

        await self._tx(work)

    async def void_game_deadlines(self, game_id, now) -> None:
        async def work(con):
            await con.execute("DELETE FROM deadlines WHERE game_id = $1 AND (state <> 'pending' "
                              "OR lease_until IS NULL OR lease_until <= $2)", game_id, now)
            return True

        await self._tx(work)

    async def deadlines_of(self, game_id) -> list[Deadline]:
        rows = await self._fetch("SELECT * FROM deadlines WHERE game_id = $1 ORDER BY version, seat, kind", game_id)
        return [deadline_from(r) for r in rows]

    async def latest_deadline_version(self, game_id, seat) -> int | None:
        return await self.pool.fetchval("SELECT MAX(version) FROM deadlines WHERE game_id = $1 AND seat = $2",
                                        game_id, seat)

    async def seat_actions(self, game_id, seat, limit=10) -> list[EventRow]:
        rows = await self._fetch("SELECT * FROM events WHERE game_id = $1 AND seat = $2 ORDER BY version DESC "
                                 "LIMIT $3", game_id, seat, limit)
        if not rows and (log := await self._archived_log(game_id)) is not None:
            return [e for e in reversed(log) if e.seat == seat][:limit]
        return [event_from(r) for r in rows]

    async def cast_ballot(self, game_id, seat, epoch, voter, choice, now) -> None:
        async def work(con):
            await con.execute("INSERT INTO ballots (game_id, seat, epoch, voter, choice, cast_at) "
                              "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (game_id, seat, epoch, voter) "
                              "DO UPDATE SET choice = excluded.choice, cast_at = excluded.cast_at",
                              game_id, seat, epoch, voter, choice, now)
            return True

        await self._tx(work)

    async def ballots(self, game_id, seat, epoch) -> dict[int, str]:
        rows = await self._fetch("SELECT voter, choice FROM ballots WHERE game_id = $1 AND seat = $2 AND epoch = $3 "
                                 "ORDER BY voter", game_id, seat, epoch)
        return {r["voter"]: r["choice"] for r in rows}

    async def turn_since(self, game_ids) -> dict[tuple[int, int], float]:
        if not game_ids:
            return {}
        rows = await self._fetch(
            "SELECT DISTINCT ON (game_id, seat) game_id, seat, since FROM deadlines "
            "WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, seat, version DESC", list(game_ids))
        return {(r["game_id"], r["seat"]): r["since"] for r in rows}

    async def user_prefs(self, user_id) -> dict[str, Any]:
        rows = await self._fetch("SELECT prefs FROM user_prefs WHERE user_id = $1", user_id)
        return json.loads(rows[0]["prefs"]) if rows else {}

    async def set_user_prefs(self, user_id, prefs) -> None:
        async def work(con):
            await con.execute("INSERT INTO user_prefs (user_id, prefs) VALUES ($1, $2) "
                              "ON CONFLICT (user_id) DO UPDATE SET prefs = excluded.prefs", user_id, dump_json(prefs))
            return True

        await self._tx(work)

    # --- vacations (issue 15) ---------------------------------------------------------------
    async def vacations(self, user_id, since) -> list[tuple[float, float]]:
        rows = await self._fetch("SELECT starts_at, ends_at FROM vacations WHERE user_id = $1 AND ends_at > $2 "
                                 "ORDER BY starts_at", user_id, since)
        return [(r["starts_at"], r["ends_at"]) for r in rows]

    async def running_vacations(self, now) -> dict[int, float]:
        rows = await self._fetch("SELECT user_id, MAX(ends_at) AS e FROM vacations WHERE starts_at <= $1 "
                                 "AND ends_at > $1 GROUP BY user_id", now)
        return {r["user_id"]: r["e"] for r in rows}

    async def set_vacation(self, user_id, now, until) -> float:
        async def work(con):
            # one player's vacation changes one at a time (two clicks at once would shift twice)
            await con.execute("SELECT pg_advisory_xact_lock($1)", user_id % (2**62))
            running = await con.fetch("SELECT starts_at, ends_at FROM vacations WHERE user_id = $1 AND starts_at <= $2 "
                                      "AND ends_at > $2", user_id, now)
            old_end = max([now, *(r["ends_at"] for r in running)])
            for r in running:  # the running vacation ends now (a new one replaces it)
                if r["starts_at"] >= now:
                    await con.execute("DELETE FROM vacations WHERE user_id = $1 AND starts_at = $2",
                                      user_id, r["starts_at"])
                else:
                    await con.execute("UPDATE vacations SET ends_at = $1 WHERE user_id = $2 AND starts_at = $3",
                                      now, user_id, r["starts_at"])
            new_end = max(now, until)
            if new_end > now:
                await con.execute("INSERT INTO vacations (user_id, starts_at, ends_at) VALUES ($1, $2, $3)",
                                  user_id, now, new_end)
            shift = new_end - old_end
            if shift:
                await con.execute(
                    "UPDATE deadlines SET due = due + $1 WHERE state = 'pending' AND EXISTS (SELECT 1 FROM seats s "
                    "JOIN games g ON g.id = s.game_id WHERE s.game_id = deadlines.game_id AND s.seat = deadlines.seat "
                    "AND s.user_id = $2 AND g.status = 'running')", shift, user_id)
            return shift

        try:
            return await self._tx(work)
        finally:
            self.forget_vacations()

    async def rate_game(self, game_id, compute) -> bool:
        async def work(con):
            game = await con.fetchrow("SELECT guild_id, kind, status, finished_at, updated_at FROM games "
                                      "WHERE id = $1", game_id)
            if game is None or game["status"] != FINISHED:
                return False
            # one rater per board at a time (two processes folding games of the same players)
            await con.execute("SELECT pg_advisory_xact_lock(hashtext($1))", f"{game['guild_id']}:{game['kind']}")
            seats = {r["seat"]: seat_from(r) for r in
                     await con.fetch("SELECT * FROM seats WHERE game_id = $1 ORDER BY seat", game_id)}
            results = [ResultRow(game_id=r["game_id"], seat=r["seat"], user_id=r["user_id"], score=r["score"],
                                 rank=r["rank"]) for r in
                       await con.fetch("SELECT * FROM results WHERE game_id = $1 ORDER BY seat", game_id)]
            humans = [r for r in results if r.user_id is not None]
            solo = len(seats) == 1
            finished_at = game["finished_at"] or game["updated_at"]
            guild_id, kind = game["guild_id"], game["kind"]
            inserted = await con.execute(
                "INSERT INTO rated_games (game_id, guild_id, kind, finished_at, solo, humans) "
                "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (game_id) DO NOTHING",
                game_id, guild_id, kind, finished_at, int(solo), len(humans))
            if _count(inserted) != 1:
                return False  # already rated
            if guild_id is None or solo or not humans:
                return True
            current = {r["user_id"]: (r["mu"], r["sigma"]) for r in await con.fetch(
                "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = $1 AND kind = $2 "
                "AND user_id = ANY($3::bigint[])", guild_id, kind, [r.user_id for r in humans])}
            info = {"id": game_id, "guild_id": guild_id, "kind": kind, "finished_at": finished_at}
            new = compute(info, results, current)
            rows = []
            for r in humans:
                mu, sigma = new.get(r.user_id) or current[r.user_id]
                name = seats[r.seat].name if r.seat in seats else str(r.user_id)
                rows.append((guild_id, kind, r.user_id, name, mu, sigma, mu - 3 * sigma, int(r.rank == 1), r.score,
                             finished_at))
            await con.executemany(
                "INSERT INTO ratings (guild_id, kind, user_id, name, mu, sigma, ordinal, games, wins, best_score, "
                "last_played) VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9, $10) "
                "ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
                "sigma = excluded.sigma, ordinal = excluded.ordinal, games = ratings.games + 1, "
                "wins = ratings.wins + excluded.wins, "
                "best_score = GREATEST(ratings.best_score, excluded.best_score), "
                "last_played = GREATEST(COALESCE(ratings.last_played, 0), excluded.last_played)", rows)
            return True

        return await self._tx(work)

    async def unrated_games(self) -> list[int]:
        rows = await self._fetch(
            "SELECT id FROM games g WHERE status = 'finished' AND NOT EXISTS "
            "(SELECT 1 FROM rated_games r WHERE r.game_id = g.id) ORDER BY finished_at, id")
        return [r["id"] for r in rows]

    async def leaderboard(self, guild_id, kind, since=None, limit=20) -> list[RatingRow]:
        if since is None:
            rows = await self._fetch(
                "SELECT * FROM ratings WHERE guild_id = $1 AND kind = $2 ORDER BY ordinal DESC, games DESC, name "
                "LIMIT $3", guild_id, kind, limit)
        else:
            rows = await self._fetch(
                "SELECT t.user_id, t.games, t.wins, t.best_score, p.name, p.mu, p.sigma, p.ordinal, p.last_played "
                "FROM (SELECT r.user_id, COUNT(*) AS games, COUNT(*) FILTER (WHERE r.rank = 1) AS wins, "
                "      MAX(r.score) AS best_score "
                "      FROM rated_games g JOIN results r ON r.game_id = g.game_id "
                "      WHERE g.guild_id = $1 AND g.kind = $2 AND g.solo = 0 AND g.finished_at >= $3 "
                "      AND r.user_id IS NOT NULL GROUP BY r.user_id) t "
                "JOIN ratings p ON p.guild_id = $1 AND p.kind = $2 AND p.user_id = t.user_id "
                "ORDER BY p.ordinal DESC, t.games DESC, p.name LIMIT $4", guild_id, kind, since, limit)
        return [rating_from(r, guild_id, kind) for r in rows]

    async def player_ratings(self, guild_id, user_id) -> list[tuple[RatingRow, int, int]]:
        rows = await self._fetch(
            "SELECT p.*, (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = p.guild_id AND o.kind = p.kind "
            "AND o.ordinal > p.ordinal) AS above, (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = p.guild_id "
            "AND o.kind = p.kind) AS total FROM ratings p WHERE p.guild_id = $1 AND p.user_id = $2 ORDER BY p.kind",
            guild_id, user_id)
        return [(rating_from(r, guild_id, r["kind"]), int(r["above"]) + 1, int(r["total"])) for r in rows]

    async def player_recent(self, guild_id, user_id, limit=5) -> list[dict[str, Any]]:
        rows = await self._fetch(
            "SELECT g.game_id, g.kind, g.finished_at, g.solo, r.rank, r.score, "
            "(SELECT COUNT(*) FROM results x WHERE x.game_id = g.game_id) AS players "
            "FROM results r JOIN rated_games g ON g.game_id = r.game_id "
            "WHERE r.user_id = $1 AND g.guild_id = $2 ORDER BY g.finished_at DESC, g.game_id DESC LIMIT $3",
            user_id, guild_id, limit)
        return [dict(r) for r in rows]

    async def player_solo_best(self, guild_id, user_id) -> dict[str, tuple[int, int]]:
        rows = await self._fetch(
            "SELECT g.kind, MAX(r.score) AS best, COUNT(*) AS n FROM results r "
            "JOIN rated_games g ON g.game_id = r.game_id "
            "WHERE r.user_id = $1 AND g.guild_id = $2 AND g.solo = 1 GROUP BY g.kind", user_id, guild_id)
        return {r["kind"]: (r["best"], r["n"]) for r in rows}

    async def player_completion(self, guild_id, user_id) -> tuple[int, int, int]:
        # a running game cancelled has its archive (its log); a lobby cancelled has none. A forfeit leaves
        # no score and the seat last: only those games' archived logs are looked into.
        rows = await self._fetch(
            "SELECT g.id, g.status, s.seat, CASE WHEN g.status = 'finished' AND r.rank > 1 AND NOT EXISTS "
            "(SELECT 1 FROM results x WHERE x.game_id = g.id AND x.score IS NOT NULL) THEN a.events END AS log "
            "FROM seats s JOIN games g ON g.id = s.game_id "
            "LEFT JOIN results r ON r.game_id = s.game_id AND r.seat = s.seat "
            "LEFT JOIN archives a ON a.game_id = g.id "
            "WHERE s.user_id = $1 AND g.guild_id = $2 AND g.broken IS NULL "
            "AND (g.status = 'finished' OR (g.status = 'cancelled' AND a.game_id IS NOT NULL))",
            user_id, guild_id)
        return completion(rows)

    async def move_times(self, guild_id, user_id, limit=200) -> list[float]:
        live = await self._fetch(
            "SELECT at, w FROM (SELECT e.user_id, e.created_at AS at, e.created_at - LAG(e.created_at) "
            "OVER (PARTITION BY e.game_id ORDER BY e.version) AS w FROM events e WHERE e.game_id IN "
            "(SELECT s.game_id FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = $1 "
            "AND g.guild_id = $2)) t WHERE t.user_id = $1 AND t.w IS NOT NULL ORDER BY t.at DESC LIMIT $3",
            user_id, guild_id, limit)
        found = [(r["at"], r["w"]) for r in live]
        for a in await self._fetch(
                "SELECT a.game_id, a.events FROM archives a JOIN seats s ON s.game_id = a.game_id "
                "JOIN games g ON g.id = a.game_id WHERE s.user_id = $1 AND g.guild_id = $2 "
                "ORDER BY a.game_id DESC LIMIT $3", user_id, guild_id, MOVE_SAMPLE_GAMES):
            found += move_waits(unpack_log(a["game_id"], a["events"]), user_id)
        found.sort(reverse=True)
        return [w for _, w in found[:limit]]

    async def solo_records(self, guild_id, kind, limit=10) -> list[dict[str, Any]]:
        rows = await self._fetch(
            "SELECT g.game_id, g.finished_at, r.user_id, r.score, s.name, gm.options FROM rated_games g "
            "JOIN results r ON r.game_id = g.game_id "
            "JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat "
            "LEFT JOIN games gm ON gm.id = g.game_id "
            "WHERE g.guild_id = $1 AND g.kind = $2 AND g.solo = 1 AND r.score IS NOT NULL "
            "ORDER BY r.score DESC, g.finished_at, g.game_id LIMIT $3", guild_id, kind, limit)
        return [{**dict(r), "options": json.loads(r["options"] or "{}")} for r in rows]

    async def finished_games(self, guild_id, limit=25, query="") -> list[dict[str, Any]]:
        if query.isdigit():
            rows = await self._fetch(
                "SELECT id, kind, finished_at FROM games WHERE guild_id = $1 AND status = 'finished' "
                "AND id::text LIKE $2 ORDER BY id DESC LIMIT $3", guild_id, f"{query}%", limit)
        else:
            rows = await self._fetch(
                "SELECT id, kind, finished_at FROM games WHERE guild_id = $1 AND status = 'finished' "
                "ORDER BY id DESC LIMIT $2", guild_id, limit)
        if not rows:
            return []
        ids = [r["id"] for r in rows]
        names: dict[int, list[str]] = {i: [] for i in ids}
        for s in await self._fetch("SELECT game_id, name FROM seats WHERE game_id = ANY($1::bigint[]) "
                                   "ORDER BY game_id, seat", ids):
            names[s["game_id"]].append(s["name"])
        return [{"id": r["id"], "kind": r["kind"], "finished_at": r["finished_at"], "names": names[r["id"]]}
                for r in rows]
