"""Storage: the ``Store`` interface and its SQLite implementation (aiosqlite, WAL).

Everything the bot remembers goes through ``Store``: games and their seats, the
append-only event log, results, guild settings. The session service is the only
writer of game state; it relies on ``commit_action``'s compare-and-swap on the
game's ``version`` so that two clicks (or two processes) can never apply two
actions on one version.

Migrations are numbered SQL scripts applied in order at start; the applied number
is kept in ``PRAGMA user_version``.
"""

from __future__ import annotations

import asyncio
import json
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

LOBBY, RUNNING, FINISHED, CANCELLED = "lobby", "running", "finished", "cancelled"
ACTIVE = (LOBBY, RUNNING)


@dataclass
class Seat:
    seat: int
    user_id: int | None  # None for an AI seat
    name: str
    ai_level: int | None = None
    locale: str = "fr"

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    kind: str
    options: dict[str, Any]
    status: str
    state: dict[str, Any] | None
    version: int
    seed: int
    creator_id: int
    created_at: float
    updated_at: float
    lobby_message_id: int | None = None
    control_message_id: int | None = None
    seats: list[Seat] = field(default_factory=list)

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @property
    def names(self) -> list[str]:
        return [s.name for s in sorted(self.seats, key=lambda s: s.seat)]


@dataclass
class EventRow:
    id: int
    game_id: int
    version: int
    seat: int | None
    user_id: int | None
    action: dict[str, Any]
    events: list[dict[str, Any]]
    created_at: float


@dataclass
class ResultRow:
    game_id: int
    seat: int
    user_id: int | None
    score: int | None
    rank: int


class Store(ABC):
    """What the bot needs from a database. SQLite now; another backend can follow."""

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    # games
    @abstractmethod
    async def create_game(self, *, kind: str, guild_id: int | None, channel_id: int, creator: Seat,
                          options: dict[str, Any], seed: int) -> GameRow: ...

    @abstractmethod
    async def get_game(self, game_id: int) -> GameRow | None: ...

    @abstractmethod
    async def games_in_channel(self, channel_id: int, statuses: tuple[str, ...] = ACTIVE,
                               kind: str | None = None) -> list[GameRow]: ...

    @abstractmethod
    async def games_with_status(self, statuses: tuple[str, ...], guild_id: int | None = None) -> list[GameRow]: ...

    @abstractmethod
    async def update_lobby(self, game_id: int, old_version: int, seats: list[Seat]) -> bool: ...

    @abstractmethod
    async def start_game(self, game_id: int, old_version: int, seats: list[Seat],
                         state: dict[str, Any]) -> bool: ...

    @abstractmethod
    async def set_status(self, game_id: int, old_version: int, status: str) -> bool: ...

    @abstractmethod
    async def commit_action(self, game_id: int, old_version: int, *, state: dict[str, Any],
                            seat: int | None, user_id: int | None, action: dict[str, Any],
                            events: list[dict[str, Any]], status: str = RUNNING,
                            results: list[ResultRow] | None = None) -> bool: ...

    @abstractmethod
    async def set_message_ids(self, game_id: int, *, lobby: int | None = None,
                              control: int | None = None) -> None: ...

    @abstractmethod
    async def events(self, game_id: int) -> list[EventRow]: ...

    @abstractmethod
    async def results(self, game_id: int) -> list[ResultRow]: ...

    # small key/value facts about the deployment (e.g. the synced command tree's hash)
    @abstractmethod
    async def get_meta(self, key: str) -> str | None: ...

    @abstractmethod
    async def set_meta(self, key: str, value: str) -> None: ...

    # guild settings
    @abstractmethod
    async def guild_settings(self, guild_id: int) -> dict[str, Any]: ...

    @abstractmethod
    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None: ...


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
]


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class SQLiteStore(Store):
    """SQLite through aiosqlite: WAL mode, busy timeout, numbered migrations.

    One connection per process; an asyncio lock keeps each transaction whole
    (coroutines sharing the connection must not interleave inside one).
    Several processes may share the file: WAL + busy timeout + the version
    compare-and-swap keep them honest.
    """

    def __init__(self, path: str, *, clock: Callable[[], float] = time.time, busy_timeout_ms: int = 5000):
        self.path = path
        self.clock = clock
        self.busy_timeout_ms = busy_timeout_ms
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    async def open(self) -> None:
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        if self.path != ":memory:":
            await self._db.execute("PRAGMA journal_mode = WAL")
        await self._db.execute("PRAGMA synchronous = NORMAL")
        await self._db.execute("PRAGMA foreign_keys = ON")
        await self.migrate()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0])

    async def migrate(self) -> None:
        async with self._lock:
            current = await self.schema_version()
            for number, script in enumerate(MIGRATIONS, start=1):
                if number <= current:
                    continue
                await self.db.execute("BEGIN IMMEDIATE")
                try:
                    for statement in script.split(";"):
                        if statement.strip():
                            await self.db.execute(statement)
                    await self.db.execute(f"PRAGMA user_version = {number}")
                    await self.db.execute("COMMIT")
                except BaseException:
                    await self.db.execute("ROLLBACK")
                    raise

    # --- helpers -----------------------------------------------------------------
    async def _tx(self, work):
        """Run ``work(db)`` in one IMMEDIATE transaction; roll back on any error."""
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                result = await work(self.db)
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            if result is False:
                await self.db.execute("ROLLBACK")
            else:
                await self.db.execute("COMMIT")
            return result

    async def _fetchall(self, sql: str, params: tuple = ()) -> list[aiosqlite.Row]:
        async with self._lock:
            async with self.db.execute(sql, params) as cur:
                return list(await cur.fetchall())

    @staticmethod
    def _seat(row: aiosqlite.Row) -> Seat:
        return Seat(seat=row["seat"], user_id=row["user_id"], name=row["name"],
                    ai_level=row["ai_level"], locale=row["locale"])

    def _game(self, row: aiosqlite.Row, seats: list[Seat]) -> GameRow:
        return GameRow(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], kind=row["kind"],
            options=json.loads(row["options"]), status=row["status"],
            state=json.loads(row["state"]) if row["state"] else None, version=row["version"],
            seed=row["seed"], creator_id=row["creator_id"], created_at=row["created_at"],
            updated_at=row["updated_at"], lobby_message_id=row["lobby_message_id"],
            control_message_id=row["control_message_id"], seats=seats,
        )

    async def _games(self, where: str, params: tuple) -> list[GameRow]:
        rows = await self._fetchall(f"SELECT * FROM games WHERE {where} ORDER BY id", params)
        if not rows:
            return []
        ids = [r["id"] for r in rows]
        marks = ",".join("?" * len(ids))
        seat_rows = await self._fetchall(
            f"SELECT * FROM seats WHERE game_id IN ({marks}) ORDER BY game_id, seat", tuple(ids))
        by_game: dict[int, list[Seat]] = {i: [] for i in ids}
        for s in seat_rows:
            by_game[s["game_id"]].append(self._seat(s))
        return [self._game(r, by_game[r["id"]]) for r in rows]

    @staticmethod
    async def _write_seats(db: aiosqlite.Connection, game_id: int, seats: list[Seat]) -> None:
        await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, ai_level, locale) VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.name, s.ai_level, s.locale) for s in seats],
        )

    async def _bump(self, db: aiosqlite.Connection, game_id: int, old_version: int, sets: str = "",
                    params: tuple = ()) -> bool:
        cur = await db.execute(
            f"UPDATE games SET version = version + 1, updated_at = ?{sets} WHERE id = ? AND version = ?",
            (self.clock(), *params, game_id, old_version),
        )
        return cur.rowcount == 1

    # --- games -------------------------------------------------------------------
    async def create_game(self, *, kind, guild_id, channel_id, creator, options, seed) -> GameRow:
        now = self.clock()

        async def work(db):
            cur = await db.execute(
                "INSERT INTO games (guild_id, channel_id, kind, options, status, seed, creator_id, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                (guild_id, channel_id, kind, _dump(options), seed, creator.user_id, now, now),
            )
            game_id = cur.lastrowid
            await self._write_seats(db, game_id, [creator])
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
        where = f"channel_id = ? AND status IN ({marks})"
        params: tuple = (channel_id, *statuses)
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
        async def work(db):
            if not await self._bump(db, game_id, old_version):
                return False
            await self._write_seats(db, game_id, seats)
            return True

        return await self._tx(work)

    async def start_game(self, game_id, old_version, seats, state) -> bool:
        async def work(db):
            cur = await db.execute(
                "UPDATE games SET version = version + 1, updated_at = ?, status = 'running', state = ? "
                "WHERE id = ? AND version = ? AND status = 'lobby'",
                (self.clock(), _dump(state), game_id, old_version),
            )
            if cur.rowcount != 1:
                return False
            await self._write_seats(db, game_id, seats)
            return True

        return await self._tx(work)

    async def set_status(self, game_id, old_version, status) -> bool:
        async def work(db):
            finished = self.clock() if status in (FINISHED, CANCELLED) else None
            return await self._bump(db, game_id, old_version, ", status = ?, finished_at = ?",
                                    (status, finished))

        return await self._tx(work)

    async def commit_action(self, game_id, old_version, *, state, seat, user_id, action, events,
                            status=RUNNING, results=None) -> bool:
        now = self.clock()

        async def work(db):
            finished = now if status in (FINISHED, CANCELLED) else None
            ok = await self._bump(db, game_id, old_version, ", state = ?, status = ?, finished_at = ?",
                                  (_dump(state), status, finished))
            if not ok:
                return False
            await db.execute(
                "INSERT INTO events (game_id, version, seat, user_id, action, events, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, old_version + 1, seat, user_id, _dump(action), _dump(events), now),
            )
            if results:
                await db.executemany(
                    "INSERT OR REPLACE INTO results (game_id, seat, user_id, score, rank) VALUES (?, ?, ?, ?, ?)",
                    [(game_id, r.seat, r.user_id, r.score, r.rank) for r in results],
                )
            return True

        return await self._tx(work)

    async def set_message_ids(self, game_id, *, lobby=None, control=None) -> None:
        async def work(db):
            if lobby is not None:
                await db.execute("UPDATE games SET lobby_message_id = ? WHERE id = ?", (lobby, game_id))
            if control is not None:
                await db.execute("UPDATE games SET control_message_id = ? WHERE id = ?", (control, game_id))
            return True

        await self._tx(work)

    async def events(self, game_id) -> list[EventRow]:
        rows = await self._fetchall("SELECT * FROM events WHERE game_id = ? ORDER BY version", (game_id,))
        return [EventRow(id=r["id"], game_id=r["game_id"], version=r["version"], seat=r["seat"],
                         user_id=r["user_id"], action=json.loads(r["action"]),
                         events=json.loads(r["events"]), created_at=r["created_at"]) for r in rows]

    async def results(self, game_id) -> list[ResultRow]:
        rows = await self._fetchall("SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
        return [ResultRow(game_id=r["game_id"], seat=r["seat"], user_id=r["user_id"], score=r["score"],
                          rank=r["rank"]) for r in rows]

    async def guild_settings(self, guild_id) -> dict[str, Any]:
        rows = await self._fetchall("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(rows[0]["settings"]) if rows else {}

    async def set_guild_settings(self, guild_id, settings) -> None:
        async def work(db):
            await db.execute(
                "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
                (guild_id, _dump(settings)),
            )
            return True

        await self._tx(work)

    async def get_meta(self, key) -> str | None:
        rows = await self._fetchall("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0]["value"] if rows else None

    async def set_meta(self, key, value) -> None:
        async def work(db):
            await db.execute("INSERT INTO meta (key, value) VALUES (?, ?) "
                             "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))
            return True

        await self._tx(work)
