"""Storage: the ``Store`` interface and the rows it speaks in (backends live beside it).

Everything the bot remembers goes through ``Store``: games and their seats, the
append-only event log, results, guild settings. The session service is the only
writer of game state; it relies on ``commit_action``'s compare-and-swap on the
game's ``version`` so that two clicks (or two processes) can never apply two
actions on one version.

Migrations are numbered SQL scripts, one list written once (``migrations.py``) and rendered for
each dialect, applied in order at start; the applied number is kept in ``PRAGMA user_version``
(SQLite) or the ``ludibot_schema`` table (PostgreSQL). Every method is written once, in
``sql.py``; the backends (``sqlite.py``, ``postgres.py``) are plumbing. A database whose number is above the newest known
(written by a newer release) is refused with :class:`SchemaTooNew`.
"""

from __future__ import annotations

import copy
import json
import time
import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

try:  # a dependency of the bot; the standard library alone still works
    import orjson
except ImportError:  # pragma: no cover
    orjson = None  # type: ignore[assignment]

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
    #: the outbox: the newest version whose public message exists in the channel
    published_version: int = 0
    #: why publication is paused (a permission the bot lost, a locked thread), None when it is not
    paused: str | None = None
    #: why the stored state cannot be read (logged once; the game is skipped everywhere)
    broken: str | None = None
    #: the thread the game's messages go to, when it has its own (None: ``channel_id`` itself)
    thread_id: int | None = None
    #: table settings chosen at start, not rules: ``pace`` (a profile of bot.pace) and
    #: ``thread`` (the game's messages go to a thread of its own); ``{}`` for older games
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def due(self) -> bool:
        """Its channel owes a public message for a newer version than the one shown (a lobby: its card
        is older than its seats; a cancelled game: its controls are still up)."""
        return self.published_version < self.version

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
class TurnRow:
    """A running game as ``/parties`` lists it, read from the turn columns (not from its state):
    ``waiting`` the names of the seats expected now, ``since`` since when (for the caller's own
    games: since when *their* seat is expected; otherwise the longest-waiting seat's)."""

    game_id: int
    kind: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    control_message_id: int | None
    since: float
    waiting: list[str] = field(default_factory=list)


@dataclass
class TurnLists:
    """``/parties``: the caller's games where it is their turn and the server's other running
    games, each bounded by the limit asked for, with the full counts."""

    mine: list[TurnRow]
    mine_total: int
    others: list[TurnRow]
    others_total: int


@dataclass
class ResultRow:
    game_id: int
    seat: int
    user_id: int | None
    score: int | None
    rank: int


# --- playing over days (issue 9): deadlines, preferences, ratings ---------------------------
REMINDER, TIMEOUT = "reminder", "timeout"
#: a stalled player's vote (issue 15): the other players decide by this deadline
VOTE = "vote"
PENDING, DONE, VOID, FAILED = "pending", "done", "void", "failed"


@dataclass
class Deadline:
    """A reminder or a timeout for one seat, from the moment it became expected.

    ``version`` is the game's version when the seat became expected (the schedule's
    epoch): the deadline is void once the seat has acted after that version.
    """

    game_id: int
    seat: int
    kind: str  # REMINDER | TIMEOUT | VOTE
    version: int
    due: float
    since: float
    state: str = PENDING
    attempts: int = 0
    #: where the game's messages go (its thread, else its channel), as ``due_deadlines`` reads it
    #: (None elsewhere): the catch-up paces each channel by it
    channel_id: int | None = field(default=None, compare=False)

    @property
    def key(self) -> tuple[int, int, str, int]:
        return (self.game_id, self.seat, self.kind, self.version)


@dataclass
class RatingRow:
    guild_id: int
    kind: str
    user_id: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    best_score: int | None
    last_played: float | None = None


class SchemaTooNew(RuntimeError):
    """The database was written by a newer release (its schema number is above the newest known)."""

    key = "storage.error.too_new"

    def __init__(self, found: int, known: int) -> None:
        super().__init__(f"database schema {found} is newer than this release's {known}")
        self.found, self.known = found, known

    @property
    def params(self) -> dict[str, int]:
        return {"found": self.found, "known": self.known}


def load_json(text: str | bytes) -> Any:
    """JSON the store wrote (:func:`dump_json`), read with orjson when it can (a game's state, its
    events and settings are read several times per move); the standard library reads the rest (an
    integer past 64 bits, NaN) exactly as before."""
    if orjson is not None:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def dump_json(value: Any) -> str:
    """The compact JSON both backends store (identical text, so checksums compare across them)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# --- the archive of an ended game: its final state and its whole log, compressed (lean storage) ---------
def pack(value: Any) -> bytes:
    return zlib.compress(dump_json(value).encode(), 6)


def readable_json(text: str | None) -> Any:
    """The parsed JSON, or None when it does not parse (a broken game is never archived: its row
    stays as it was, for an admin to see)."""
    try:
        return json.loads(text) if text else None
    except (ValueError, TypeError, RecursionError):
        return None


def unpack(blob: bytes) -> Any:
    return load_json(zlib.decompress(blob))


def pack_log(rows: list[EventRow]) -> bytes:
    return pack([[r.id, r.version, r.seat, r.user_id, r.action, r.events, r.created_at] for r in rows])


def unpack_log(game_id: int, blob: bytes) -> list[EventRow]:
    return [EventRow(id=i, game_id=game_id, version=v, seat=seat, user_id=uid, action=action, events=events,
                     created_at=at) for i, v, seat, uid, action, events, at in unpack(blob)]


# --- "mes parties" (issue 15): how a player plays, read from the log ---------------------------
#: how many of a player's latest ended games (their compressed logs) the median time per move reads
MOVE_SAMPLE_GAMES = 10


def move_waits(rows: list[EventRow], user_id: int) -> list[tuple[float, float]]:
    """``(when, seconds)`` of each move of ``user_id`` in one game's log: the time from the game's
    previous logged action (when the turn came to the seat) to the move. A game's first action has
    no previous one and is left out; moves made for the player (timeouts, the AI) are not theirs.
    The same definition as the backends' window function over the live ``events`` table."""
    out: list[tuple[float, float]] = []
    ordered = sorted(rows, key=lambda r: r.version)
    for before, row in zip(ordered, ordered[1:], strict=False):
        if row.user_id == user_id:
            out.append((row.created_at, row.created_at - before.created_at))
    return out


def forfeited(rows: list[EventRow], seat: int) -> bool:
    """The log holds the seat's forfeit (repeated timeouts: ``SessionService.forfeit``), or the other
    players' vote removing it (``SessionService.decide_vote``: the game ended without it)."""
    return any(r.seat == seat and (r.action.get("type") == "forfeit" or (
        r.action.get("type") == "vote_decided" and r.action.get("choice") == "remove")) for r in rows)


def forfeited_packed(game_id: int, blob: bytes | None, seat: int) -> bool:
    """:func:`forfeited` on an archived log, parsing it only when the word is in it (most are not)."""
    if blob is None:
        return False
    data = zlib.decompress(blob)
    return (b'"forfeit"' in data or b'"vote_decided"' in data) and forfeited(unpack_log(game_id, blob), seat)


def completion(rows: list[Any]) -> tuple[int, int, int]:
    """``(finished, cancelled, forfeited)`` from rows of the player's ended games: ``id``, ``status``,
    ``seat`` and ``log`` (the archived log of a finished game the player ended last without a score,
    else None)."""
    finished = cancelled = lost = 0
    for r in rows:
        if r["status"] == CANCELLED:
            cancelled += 1
        elif forfeited_packed(r["id"], r["log"], r["seat"]):
            lost += 1
        else:
            finished += 1
    return finished, cancelled, lost


def _get(r: Any, key: str) -> Any:
    try:
        return r[key]
    except (IndexError, KeyError):
        return None


# --- rows from a mapping (a ``sqlite3.Row`` or a ``postgres.Row``) ---------------------------
def seat_from(r: Any) -> Seat:
    return Seat(seat=r["seat"], user_id=r["user_id"], name=r["name"], ai_level=r["ai_level"], locale=r["locale"])


def game_from(r: Any, seats: list[Seat]) -> GameRow:
    """A row as a GameRow (either backend); a row whose JSON does not parse comes back ``broken``
    (with the reason, which the backend's reader stores) and its state ``None``."""
    broken = r["broken"]
    try:
        options = load_json(r["options"])
        if r["state"]:
            state = load_json(r["state"])
        else:
            packed = _get(r, "packed")
            state = unpack(packed) if packed else None
        if not isinstance(options, dict) or not (state is None or isinstance(state, dict)):
            raise ValueError("not a JSON object")
    except (ValueError, TypeError, RecursionError, zlib.error) as err:
        options, state = {}, None
        broken = broken or f"unreadable JSON: {err}"[:300]
    return GameRow(
        id=r["id"], guild_id=r["guild_id"], channel_id=r["channel_id"], kind=r["kind"],
        options=options, status=r["status"], state=state, version=r["version"],
        seed=r["seed"], creator_id=r["creator_id"], created_at=r["created_at"],
        updated_at=r["updated_at"], lobby_message_id=r["lobby_message_id"],
        control_message_id=r["control_message_id"], seats=seats,
        published_version=r["published_version"], paused=r["paused"], broken=broken,
        thread_id=r["thread_id"], settings=_settings(r),
    )


def _settings(r: Any) -> dict[str, Any]:
    """A game's table settings; unreadable ones fall back to the defaults (they are not rules)."""
    try:
        value = load_json(_get(r, "settings") or "{}")
    except (ValueError, TypeError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def turn_from(r: Any) -> TurnRow:
    """A row of the ``/parties`` queries (``waiting``: a JSON array of names, seat order)."""
    try:
        waiting = load_json(r["waiting"] or "[]")
    except (ValueError, TypeError):
        waiting = []
    return TurnRow(game_id=r["id"], kind=r["kind"], guild_id=r["guild_id"], channel_id=r["channel_id"],
                   thread_id=r["thread_id"], control_message_id=r["control_message_id"],
                   since=r["since"] if r["since"] is not None else r["updated_at"],
                   waiting=[str(n) for n in waiting] if isinstance(waiting, list) else [])


def turn_times(old: dict[int, float | None], expected: Any, actor: int | None, now: float) -> dict[int, float]:
    """Since when each seat expected after a change is expected: a seat that was already expected
    (and is not the one that just acted) keeps its time, any other starts waiting ``now``."""
    out: dict[int, float] = {}
    for seat in sorted(set(expected or ())):
        kept = old.get(seat)
        out[seat] = kept if kept is not None and seat != actor else now
    return out


def event_from(r: Any) -> EventRow:
    return EventRow(id=r["id"], game_id=r["game_id"], version=r["version"], seat=r["seat"], user_id=r["user_id"],
                    action=load_json(r["action"]), events=load_json(r["events"]), created_at=r["created_at"])


def deadline_from(r: Any) -> Deadline:
    return Deadline(game_id=r["game_id"], seat=r["seat"], kind=r["kind"], version=r["version"], due=r["due"],
                    since=r["since"], state=r["state"], attempts=r["attempts"], channel_id=_get(r, "channel"))


def rating_from(r: Any, guild_id: int, kind: str) -> RatingRow:
    return RatingRow(guild_id=guild_id, kind=kind, user_id=r["user_id"], name=r["name"], mu=r["mu"],
                     sigma=r["sigma"], ordinal=r["ordinal"], games=r["games"], wins=r["wins"] or 0,
                     best_score=r["best_score"], last_played=r["last_played"])


@dataclass(frozen=True)
class SeasonEnd:
    """The end of one season of one server: a deadline claimed like a timeout (a lease, then closed)."""

    guild_id: int
    period: str
    label: str
    due: float
    state: str = PENDING
    lease_until: float | None = None
    attempts: int = 0

    @property
    def key(self) -> tuple[int, str, str]:
        return (self.guild_id, self.period, self.label)


def season_end_from(r: Any) -> SeasonEnd:
    return SeasonEnd(guild_id=r["guild_id"], period=r["period"], label=r["label"], due=float(r["due"]),
                     state=r["state"], lease_until=None if r["lease_until"] is None else float(r["lease_until"]),
                     attempts=r["attempts"])


#: the tables a database holds, parents first (``migrate-db`` copies them in this order)
TABLES = ("meta", "guild_settings", "user_prefs", "games", "seats", "events", "results", "deadlines",
          "ballots", "rated_games", "ratings", "archives", "vacations", "tournaments", "tournament_entries",
          "tournament_tables", "tournament_byes", "queue_entries", "queue_matches", "season_ends",
          "daily_secrets", "daily_plays", "daily_marks")


class Store(ABC):
    """What the bot needs from a database: SQLite (the default) or PostgreSQL, alike."""

    #: the newest schema number this release knows
    latest_schema: int = 0

    #: how long a server's settings are kept in memory (seconds). Written through this store, they
    #: are forgotten at once; written by another process (another shard), they are seen within this
    #: time. A TTL rather than a version check on each read: a check is itself the round trip the
    #: cache saves, and settings change by hand a few times in a server's life; what a stale read
    #: can do is schedule a turn that starts in those seconds with the previous delays, which is what
    #: a turn that started just before the change gets anyway.
    settings_ttl: float = 30.0

    def _settings_cache(self) -> dict[int, tuple[float, dict[str, Any]]]:
        return self.__dict__.setdefault("_guild_settings_cache", {})

    def cached_settings(self, guild_id: int) -> dict[str, Any] | None:
        """A server's settings if read less than ``settings_ttl`` ago (a copy: callers may change it)."""
        found = self._settings_cache().get(guild_id)
        if found is None or time.monotonic() - found[0] > self.settings_ttl:
            return None
        return copy.deepcopy(found[1])

    def settings_generation(self) -> int:
        """Taken before a read: a write through this store in between keeps that read out of the cache."""
        return self.__dict__.get("_guild_settings_gen", 0)

    def remember_settings(self, guild_id: int, settings: dict[str, Any], generation: int) -> dict[str, Any]:
        cache = self._settings_cache()
        if generation != self.settings_generation():
            return settings  # a write happened while this was read: it may be the older value
        if len(cache) > 50_000:  # servers come and go: never grows without bound
            cache.clear()
        cache[guild_id] = (time.monotonic(), copy.deepcopy(settings))
        return settings

    def forget_settings(self, guild_id: int | None = None) -> None:
        """Drop one server's cached settings (all with None); reads under way are not cached."""
        self.__dict__["_guild_settings_gen"] = self.settings_generation() + 1
        if guild_id is None:
            self._settings_cache().clear()
        else:
            self._settings_cache().pop(guild_id, None)

    async def schema_version(self) -> int:
        """The schema number applied to the open database."""
        raise NotImplementedError

    @abstractmethod
    async def archive_ended(self, limit: int = 500) -> int:
        """Archive up to ``limit`` ended games still stored the old way (state and log rows, as releases
        before schema 4 left them) into one compressed row each; how many were done (0: none left).
        Games that end from now on are archived as they end."""

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    # operations (metrics and health); backends may do these more cheaply
    async def healthy(self) -> bool:
        """The database answers (``/healthz``)."""
        try:
            await self.get_meta("healthz")
        except Exception:
            return False
        return True

    async def reserve_slot(self, key: str, now: float, window: float) -> float:
        """Book the next slot of a rate limit shared by every process on this database: one slot per
        ``window`` seconds under ``key`` (e.g. Discord's IDENTIFY buckets). Returns when the booked slot
        starts (``>= now``, wall clock). Backends make it atomic; this default (meta get/set) is not."""
        raw = await self.get_meta(key)
        at = max(now, float(raw) if raw else now)
        await self.set_meta(key, repr(at + window))
        return at

    async def count_running(self) -> dict[str, int]:
        """Running games by kind (the ``ludibot_running_games`` gauge)."""
        counts: dict[str, int] = {}
        for game in await self.games_with_status((RUNNING,)):
            counts[game.kind] = counts.get(game.kind, 0) + 1
        return counts

    # games
    @abstractmethod
    async def create_game(self, *, kind: str, guild_id: int | None, channel_id: int, creator: Seat,
                          options: dict[str, Any], seed: int, settings: dict[str, Any] | None = None) -> GameRow: ...

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
                         state: dict[str, Any], expected: Any = None) -> bool:
        """Lobby -> running (compare-and-swap); ``expected``: the seats expected first (turn columns)."""

    @abstractmethod
    async def set_status(self, game_id: int, old_version: int, status: str) -> bool: ...

    @abstractmethod
    async def commit_action(self, game_id: int, old_version: int, *, state: dict[str, Any],
                            seat: int | None, user_id: int | None, action: dict[str, Any],
                            events: list[dict[str, Any]], status: str = RUNNING,
                            results: list[ResultRow] | None = None,
                            settings: dict[str, Any] | None = None, expected: Any = None,
                            deadlines: tuple[float, list[tuple[int, str, float]]] | None = None
                            ) -> GameRow | None:
        """One action, in one transaction guarded by the version (compare-and-swap): the new row
        (what ``get_game`` would now return) or None if ``old_version`` is no longer the game's.
        ``settings``: the game's new table settings, when the action changes them (a vote).
        ``expected``: the seats expected after it (turn columns; None leaves them stale).
        ``deadlines``: ``(since, entries)`` written as ``schedule_deadlines`` would at the new version,
        in the same transaction (a running game's move; nothing is written if the swap fails)."""

    # --- whose turn, since when (issue 16): the turn columns ------------------------------------
    # ``seats.turn_since`` (since when the seat is expected; NULL: it is not), ``games.turn_since``
    # (the earliest of them) and ``games.turn_version`` (the version they describe: a running game
    # whose ``turn_version`` is not its ``version`` is *stale*, e.g. written before schema 9 or by a
    # caller that did not say who is expected). ``commit_action``/``start_game`` keep them in the
    # same transaction when given ``expected``.
    @abstractmethod
    async def turn_lists(self, guild_id: int, user_id: int, limit: int) -> TurnLists:
        """``/parties`` from the turn columns: at most ``limit`` of each list, oldest wait first;
        running games only, broken ones left out, nothing of another server."""

    @abstractmethod
    async def running_after(self, after_id: int, limit: int = 50) -> list[GameRow]:
        """Running, unbroken games with an id above ``after_id``, by id (a page of a background pass)."""

    @abstractmethod
    async def stale_turns(self, limit: int = 200) -> list[GameRow]:
        """Running, unbroken games whose turn columns do not describe their version (to refresh)."""

    @abstractmethod
    async def set_turns(self, game_id: int, version: int, since: dict[int, float]) -> bool:
        """Write a game's turn columns for ``version`` (``since``: seat -> since when it is expected;
        the other seats are not); False if the game has moved on (compare-and-swap on the version)."""

    @abstractmethod
    async def seats_without_deadline(self) -> list[dict[str, Any]]:
        """The scheduler's start-up sweep in one set-based query: every expected human seat of a
        running, unbroken game with fresh turn columns that has no deadline for its epoch (no
        deadline at all, or only ones older than the seat's last action). Dicts with ``game_id``,
        ``guild_id``, ``kind``, ``version``, ``updated_at``, ``seat``, ordered by game and seat."""

    @abstractmethod
    async def set_message_ids(self, game_id: int, *, lobby: int | None = None,
                              control: int | None = None) -> None: ...

    @abstractmethod
    async def set_thread(self, game_id: int, thread_id: int) -> int | None:
        """Record the game's own thread, once: set only while none is recorded (compare-and-set).
        Returns the thread the game has now (the one recorded first), None for an unknown game."""

    @abstractmethod
    async def events(self, game_id: int) -> list[EventRow]: ...

    # --- publication (the outbox): what each channel owes ----------------------------------
    @abstractmethod
    async def events_after(self, game_id: int, version: int) -> list[EventRow]:
        """The log entries of versions newer than ``version``, oldest first."""

    @abstractmethod
    async def mark_published(self, game_id: int, version: int, message_id: int | None) -> bool:
        """Version ``version``'s public message exists (``message_id``, the one with the controls):
        raise ``published_version`` to it (never lower it); False if a newer one was already marked."""

    @abstractmethod
    async def unpublished_games(self, limit: int = 100) -> list[GameRow]:
        """Games whose newest version has no public message yet — a lobby whose card is older than
        its seats, a game (running, finished, cancelled) whose table is older than its state — not
        paused, not broken, oldest change first."""

    @abstractmethod
    async def mark_broken(self, game_id: int, reason: str) -> bool:
        """Set a game aside because its stored state cannot be read (``reason`` says why). True
        only the first time (the caller logs once); a broken game is skipped by every listing,
        the sweep and the publisher until an admin cancels it."""

    @abstractmethod
    async def broken_games(self, guild_id: int | None) -> list[GameRow]:
        """The broken games of a server still in the lobby or running (for its admins)."""

    @abstractmethod
    async def set_paused(self, game_id: int, reason: str | None, now: float) -> None:
        """Pause (``reason``, a JSON text ``{"reason", "since"}``) or resume (None) a game's
        publication and clocks. Resuming shifts the game's pending deadlines by the time it was
        paused (read from the stored ``since``), in the same transaction."""

    @abstractmethod
    async def paused_games(self, guild_id: int | None) -> list[GameRow]:
        """The server's running or finished games whose publication is paused."""

    @abstractmethod
    async def results(self, game_id: int) -> list[ResultRow]: ...

    # small key/value facts about the deployment (e.g. the synced command tree's hash)
    @abstractmethod
    async def get_meta(self, key: str) -> str | None: ...

    @abstractmethod
    async def set_meta(self, key: str, value: str) -> None: ...

    # guild settings (cached: see ``settings_ttl``)
    @abstractmethod
    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """A server's settings: from the cache when fresh, else read (and cached)."""

    @abstractmethod
    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        """Save a server's settings; this store's cache is updated at once."""

    # --- playing over days (issue 9) ------------------------------------------------------
    # deadlines (reminders and timeouts), stored so that a restart loses none and fires none twice
    @abstractmethod
    async def schedule_deadlines(self, game_id: int, version: int, since: float,
                                 entries: list[tuple[int, str, float]]) -> None:
        """Add ``(seat, kind, due)`` deadlines for epoch ``version`` (idempotent). The seat's older
        epochs are deleted, pending (void) or closed (lean storage), except one leased right now."""

    @abstractmethod
    async def due_deadlines(self, now: float, limit: int = 100,
                            shards: tuple[tuple[int, ...], int] | None = None) -> list[Deadline]:
        """Pending, unleased deadlines due at ``now``, oldest first. ``shards = (ids, count)`` keeps
        only the games of servers on those shards (Discord's ``(guild_id >> 22) % count``; a DM
        game, with no server, is on shard 0); None keeps every game."""

    @abstractmethod
    async def claim_deadline(self, key: tuple[int, int, str, int], now: float, lease: float) -> bool:
        """Take a pending deadline for ``lease`` seconds (compare-and-swap): one process wins."""

    @abstractmethod
    async def close_deadline(self, key: tuple[int, int, str, int], state: str, now: float) -> bool:
        """Mark a pending deadline done/failed, or delete it when void (compare-and-swap on ``pending``)."""

    @abstractmethod
    async def release_deadline(self, key: tuple[int, int, str, int]) -> None: ...

    @abstractmethod
    async def void_game_deadlines(self, game_id: int, now: float) -> None:
        """An ended game's clocks: deleted, except a deadline leased right now (its owner closes it)."""

    @abstractmethod
    async def deadlines_of(self, game_id: int) -> list[Deadline]: ...

    @abstractmethod
    async def latest_deadline_version(self, game_id: int, seat: int) -> int | None: ...

    @abstractmethod
    async def seat_actions(self, game_id: int, seat: int, limit: int = 10) -> list[EventRow]:
        """The seat's latest actions, newest first."""

    @abstractmethod
    async def seat_clock(self, game_id: int, seat: int, limit: int = 10) -> tuple[list[EventRow], list[Deadline]]:
        """``seat_actions`` and ``deadlines_of`` together (what a seat's time bank is computed from), read in
        one call: one round trip on PostgreSQL."""

    @abstractmethod
    async def cast_ballot(self, game_id: int, seat: int, epoch: int, voter: int, choice: str, now: float) -> None:
        """Record (or change) ``voter``'s ballot in the vote about ``seat`` opened at version ``epoch``."""

    @abstractmethod
    async def ballots(self, game_id: int, seat: int, epoch: int) -> dict[int, str]:
        """``voter user id -> choice`` of the vote about ``seat`` opened at version ``epoch``."""

    @abstractmethod
    async def turn_since(self, game_ids: list[int]) -> dict[tuple[int, int], float]:
        """``(game id, seat) -> since when the seat is expected`` (its latest schedule)."""

    # per-user preferences
    @abstractmethod
    async def user_prefs(self, user_id: int) -> dict[str, Any]: ...

    @abstractmethod
    async def set_user_prefs(self, user_id: int, prefs: dict[str, Any]) -> None: ...

    # vacations (issue 15): a player's clocks stop in every game
    @abstractmethod
    async def vacations(self, user_id: int, since: float) -> list[tuple[float, float]]:
        """``(start, end)`` of the player's vacations ending after ``since`` (a running one included),
        oldest first."""

    #: how long the running vacations are kept in memory (seconds). Each move asks whether its players
    #: are away (their clocks stop): one query for every running vacation, kept this long, instead of
    #: a query per move. A vacation changed through this store is seen at once; one started in another
    #: process (another shard) within this time — that process moves the deadlines itself, in its
    #: transaction, so what is late here is only whether a move made in those seconds counts from now.
    vacations_ttl: float = 30.0

    async def vacation_ends(self, user_ids: list[int], now: float) -> dict[int, float]:
        """``user id -> end`` of the players on vacation at ``now`` (from the cache of the running
        vacations, see ``vacations_ttl``)."""
        ids = {int(u) for u in user_ids if u is not None}
        if not ids:
            return {}
        cached = self.__dict__.get("_running_vacations")
        mono = time.monotonic()
        if cached is None or mono - cached[0] > self.vacations_ttl or now < cached[1]:
            generation = self.__dict__.get("_vacations_gen", 0)
            table = await self.running_vacations(now)
            if generation == self.__dict__.get("_vacations_gen", 0):  # no change through this store meanwhile
                self.__dict__["_running_vacations"] = (mono, now, table)
        else:
            table = cached[2]
        return {u: end for u in ids if (end := table.get(u)) is not None and end > now}

    def forget_vacations(self) -> None:
        """A vacation changed through this store: the next question reads them again."""
        self.__dict__["_vacations_gen"] = self.__dict__.get("_vacations_gen", 0) + 1
        self.__dict__.pop("_running_vacations", None)

    @abstractmethod
    async def running_vacations(self, now: float) -> dict[int, float]:
        """``user id -> end`` of every vacation running at ``now`` (few: one query)."""

    @abstractmethod
    async def set_vacation(self, user_id: int, now: float, until: float) -> float:
        """In one transaction: end the player's running vacation now, start one until ``until`` (none
        if ``until <= now``), and move the pending deadlines of their seats in running games by the
        change of the vacation's end (later for a new one, back for an early end). Returns that shift."""

    # ratings
    @abstractmethod
    async def rate_game(self, game_id: int, compute: Callable[..., dict[int, tuple[float, float]]]) -> bool:
        """Fold a finished game into the ratings, once (False if already rated or not finished).

        In one transaction: ``compute(game, results, current)`` gets the game, its results and
        ``{user_id: (mu, sigma)}`` of the human players already rated, and returns the new
        ``{user_id: (mu, sigma)}``; games/wins/best scores are counted here.
        """

    @abstractmethod
    async def unrated_games(self) -> list[int]:
        """Finished games not yet folded into the ratings, oldest first."""

    @abstractmethod
    async def leaderboard(self, guild_id: int, kind: str, since: float | None = None,
                          limit: int = 20) -> list[RatingRow]: ...

    @abstractmethod
    async def player_ratings(self, guild_id: int, user_id: int) -> list[tuple[RatingRow, int, int]]:
        """Each game's rating of the player, with their position and the number of rated players."""

    @abstractmethod
    async def player_recent(self, guild_id: int, user_id: int, limit: int = 5,
                            hide_daily: str | None = None) -> list[dict[str, Any]]:
        """The player's latest rated games. ``hide_daily`` (a day, ``YYYY-MM-DD``): leave out the daily
        challenges of that day and later (their scores are hidden until the day is over, issue 37)."""

    @abstractmethod
    async def player_completion(self, guild_id: int, user_id: int) -> tuple[int, int, int]:
        """``(finished, cancelled, forfeited)``: the player's ended games on this server (seated;
        a lobby cancelled before it started is not a game). ``forfeited``: finished games the
        player lost by forfeit (repeated timeouts), not counted in ``finished``."""

    @abstractmethod
    async def move_times(self, guild_id: int, user_id: int, limit: int = 200) -> list[float]:
        """Seconds the player took per move on this server (see :func:`move_waits`), newest first,
        at most ``limit``: their running games' moves (a window function over ``events``) and
        those of their ``MOVE_SAMPLE_GAMES`` latest ended games (the archived logs)."""

    @abstractmethod
    async def player_solo_best(self, guild_id: int, user_id: int,
                               hide_daily: str | None = None) -> dict[str, tuple[int, int]]:
        """``kind -> (best solo score, solo games played)`` (``hide_daily``: see :meth:`player_recent`)."""

    @abstractmethod
    async def solo_records(self, guild_id: int, kind: str, limit: int = 10,
                           hide_daily: str | None = None) -> list[dict[str, Any]]:
        """The best solo scores: dicts with game_id, finished_at, user_id, score, name and the
        game's options (``{}`` when the game row is gone); ``hide_daily``: see :meth:`player_recent`."""

    @abstractmethod
    async def finished_games(self, guild_id: int, limit: int = 25, query: str = "") -> list[dict[str, Any]]: ...

    @abstractmethod
    async def export_guild(self, guild_id: int) -> dict[str, Any]:
        """One server's finished games (with seats and results) and ratings, JSON-safe, and
        nothing of any other server: ``{"guild_id", "games": [...], "ratings": [...]}``."""

    # --- tournaments and queues (issue 28): the contract is bot.community.tournaments.TournamentStore and
    # bot.community.matchmaking.QueueStore (rows of bot.storage.rows; tests/test_tournament_store.py) ------
    @abstractmethod
    async def create_tournament(self, row: Any) -> Any:
        """Store a new ``TournamentRow`` (open, version 1); returns it with its id."""

    @abstractmethod
    async def get_tournament(self, tournament_id: int) -> Any: ...

    @abstractmethod
    async def tournaments_in(self, guild_id: int, statuses: tuple[str, ...]) -> list[Any]: ...

    @abstractmethod
    async def running_tournaments(self) -> list[Any]: ...

    @abstractmethod
    async def update_tournament(self, tournament_id: int, old_version: int, **changes: Any) -> Any:
        """Apply ``changes`` (fields of ``TournamentRow``) if the version is still ``old_version`` (then
        version + 1): the row after, else None."""

    @abstractmethod
    async def claim_tournament(self, tournament_id: int, now: float, lease: float) -> bool:
        """Take the tournament's lease if it is free (``lease_until <= now``): one process at a time."""

    @abstractmethod
    async def release_tournament(self, tournament_id: int) -> None: ...

    @abstractmethod
    async def add_tournament_entry(self, entry: Any, places: int) -> str:
        """``"ok"``, ``"full"`` (``places`` taken), ``"already"`` or ``"closed"`` (no longer open): checked and
        written at once; an entry (or its removal) moves the tournament's version."""

    @abstractmethod
    async def remove_tournament_entry(self, tournament_id: int, user_id: int) -> bool: ...

    @abstractmethod
    async def withdraw_tournament_entry(self, tournament_id: int, user_id: int) -> bool: ...

    @abstractmethod
    async def tournament_entries(self, tournament_id: int) -> list[Any]:
        """The ``EntryRow``s in the order they entered."""

    @abstractmethod
    async def add_tournament_round(self, tournament_id: int, old_version: int, number: int, tables: list[Any],
                                   byes: list[tuple[int, Any]]) -> bool:
        """Write round ``number`` (its ``TableRow``s and ``(player, points)`` byes) and set ``round``, if the
        version is still ``old_version`` (then version + 1)."""

    @abstractmethod
    async def tournament_tables(self, tournament_id: int) -> list[Any]: ...

    @abstractmethod
    async def tournament_byes(self, tournament_id: int) -> list[Any]: ...

    @abstractmethod
    async def set_tournament_game(self, tournament_id: int, number: int, table: int, game_id: int) -> int | None:
        """Record the table's game if it has none; returns the game recorded (this one or an earlier)."""

    @abstractmethod
    async def set_tournament_result(self, tournament_id: int, number: int, table: int,
                                    ranks: tuple[int, ...] | None) -> bool:
        """Record the table's result once (False if it already was)."""

    @abstractmethod
    async def tournament_table_of(self, game_id: int) -> Any: ...

    @abstractmethod
    async def enqueue(self, entry: Any, limit: int) -> str:
        """A ``Waiting`` member in its queue: ``"ok"``, ``"already"`` or ``"too_many"`` (``limit`` queues)."""

    @abstractmethod
    async def leave_queues(self, guild_id: int, user_id: int) -> int: ...

    @abstractmethod
    async def expire_waiting(self, guild_id: int, before: float) -> int:
        """Forget the server's waits that began at or before ``before`` (they ran out): how many."""

    @abstractmethod
    async def waiting(self, guild_id: int, user_id: int | None = None, since: float = 0.0) -> list[Any]: ...

    @abstractmethod
    async def take_group(self, guild_id: int, kind: str, players: int, pace: str | None, since: float,
                         now: float) -> Any:
        """At once: if ``players`` members wait in this queue (entered after ``since``), take the longest-waiting
        ones out of every queue of the server and record their ``Match``; else None. Exactly once across
        processes."""

    @abstractmethod
    async def set_match_game(self, match_id: int, game_id: int) -> int | None: ...

    @abstractmethod
    async def set_match_opened(self, match_id: int) -> None:
        """The match's game has started (or ended or gone): the tick no longer looks at it."""

    @abstractmethod
    async def unopened_matches(self) -> list[Any]:
        """Matches whose game was not seen started: none recorded yet, or recorded and still a lobby."""

    # --- season ends (issue 28): bot.community.season_board.SeasonEnds --------------------------------------
    @abstractmethod
    async def schedule_season_end(self, guild_id: int, period: str, label: str, due: float) -> bool:
        """Write the server's season-end deadline (pending) unless it exists (in any state): True if written."""

    @abstractmethod
    async def due_season_ends(self, now: float, limit: int = 100,
                              shards: tuple[tuple[int, ...], int] | None = None) -> list[SeasonEnd]:
        """Pending season ends due at ``now`` whose lease is free, oldest first (``shards``: of those servers)."""

    @abstractmethod
    async def claim_season_end(self, key: tuple[int, str, str], now: float, lease: float) -> SeasonEnd | None:
        """Lease a pending season end if free (one conditional update); the row as leased, or None."""

    @abstractmethod
    async def close_season_end(self, key: tuple[int, str, str], state: str, now: float) -> bool:
        """``pending -> state`` (done, void, failed); False if it was no longer pending."""

    @abstractmethod
    async def release_season_end(self, key: tuple[int, str, str]) -> None: ...

    # --- the daily challenge (issue 37): bot.community.daily -----------------------------------------
    @abstractmethod
    async def daily_secret(self, guild_id: int, fresh: str, now: float) -> str:
        """The server's challenge secret: ``fresh`` if it had none (written once, whoever writes first
        wins: two processes agree), else the one stored. Never shown to anyone."""

    @abstractmethod
    async def claim_daily(self, guild_id: int, day: str, kind: str, variant: str, user_id: int, name: str,
                          now: float) -> bool:
        """The member's one play of that day's challenge, taken now: False when it was taken already
        (by an earlier attempt, or by a simultaneous one that won)."""

    @abstractmethod
    async def set_daily_game(self, guild_id: int, day: str, kind: str, variant: str, user_id: int,
                             game_id: int | None) -> None:
        """The game of a claimed play (None: its game could not be opened; the claim is withdrawn)."""

    @abstractmethod
    async def daily_entries(self, guild_id: int, kind: str, variant: str, days: list[str]) -> list[dict[str, Any]]:
        """The plays of those days: ``day, user_id, name, game_id, status, score, finished_at`` (status and
        score None while the game is not opened or not over; score None for a resignation)."""

    @abstractmethod
    async def daily_mark(self, guild_id: int, day: str, kind: str, variant: str) -> int | None: ...

    @abstractmethod
    async def set_daily_mark(self, guild_id: int, day: str, kind: str, variant: str, score: int, level: int) -> int:
        """Keep the AI's score on the day's draw (the first written stays): the score kept."""
