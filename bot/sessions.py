"""The session service: the only path by which anything changes a game.

Every Discord action (a slash command, a click, a select) becomes one call here:

1. load the game; check it exists, its status, that the user is seated and is
   expected to act (and, for buttons, that the button is not stale);
2. ``engine.apply`` (pure; a ``RuleError`` leaves everything unchanged);
3. commit state + event log (+ results at the end) in one transaction guarded
   by the version (compare-and-swap): of two clicks on one version, exactly one
   wins, the other gets ``common.error.already_played``;
4. let AI seats play while they are the ones expected, each move through the
   same compare-and-swap;
5. return the events for the cog to narrate and render.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import engines
from bot import metrics
from bot.pace import check_pace
from bot.safe import Safe, escape
from bot.storage import CANCELLED, FINISHED, LOBBY, RUNNING, GameRow, ResultRow, Seat, Store
from engines.base import Engine, Phrase, Result, RuleError, validate_options
from engines.solo import ai_move

log = logging.getLogger("ludibot.sessions")

MAX_AI_MOVES = 2000  # guard against an engine that would let AIs play forever
#: Discord's integer options lie strictly between -2**53 and 2**53; game ids are positive, within it
MAX_ID = 2**53 - 1
#: a lobby change that lost a compare-and-swap to a concurrent one is tried again, up to this
#: many times (each loss means another change went through, so this only ends a pathological storm)
LOBBY_RETRIES = 500


#: the table settings a rematch copies (the rest of ``GameRow.settings`` is this game's own: votes...)
TABLE_SETTINGS = ("pace", "thread")
#: a stalled player's vote (issue 15): its choices
WAIT, AI, REMOVE = "wait", "ai", "remove"
CHOICES = (WAIT, AI, REMOVE)


def table_settings(settings: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in settings.items() if k in TABLE_SETTINGS}


def ai_played(game: GameRow) -> set[int]:
    """The seats the AI plays: AI seats, and human seats taken over after a vote (``ai_for``)."""
    taken = {s for s in game.settings.get("ai_for", ()) if isinstance(s, int)}
    return {s.seat for s in game.seats if s.is_ai} | taken


def removed_seats(game: GameRow) -> set[int]:
    """Seats the other players voted out (the game goes on without them)."""
    return {s for s in game.settings.get("removed", ()) if isinstance(s, int)}


def voters(game: GameRow, seat: int) -> list[int]:
    """The users who may vote about ``seat``: the other seated human players, not voted out."""
    out = removed_seats(game)
    return [s.user_id for s in game.seats
            if s.user_id is not None and not s.is_ai and s.seat != seat and s.seat not in out]


def open_votes(game: GameRow) -> dict[str, dict[str, Any]]:
    """``str(seat) -> {"epoch", "due"}``: the votes about stalled seats not decided yet."""
    votes = game.settings.get("votes")
    return votes if isinstance(votes, dict) else {}


def without_vote(settings: dict[str, Any], seat: int) -> dict[str, Any]:
    votes = {k: v for k, v in (settings.get("votes") or {}).items() if k != str(seat)}
    return {**settings, "votes": votes}


class SessionError(RuleError):
    """A refusal by the session service (not a game rule): same shape as RuleError."""


@dataclass
class Player:
    """Who is acting: a Discord user as the service needs them."""

    user_id: int
    name: str
    locale: str = "fr"
    can_manage: bool = False  # Manage Server permission in ``guild_id``
    guild_id: int | None = None  # the server the user acts from


@dataclass
class Outcome:
    game: GameRow
    events: list[dict[str, Any]] = field(default_factory=list)
    result: Result | None = None
    #: seats expected now that were not expected before this change (who to notify)
    newly_expected: set[int] = field(default_factory=set)
    #: their deadlines were written with the move, in its transaction (``plan_deadlines``)
    scheduled: bool = False

    @property
    def finished(self) -> bool:
        return self.game.status == FINISHED


class SessionService:
    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 seed_source: Callable[[], int] | None = None,
                 on_change: Callable[[Outcome], Any] | None = None,
                 offload: Callable[..., Awaitable[Any]] | None = None):
        self.store = store
        #: ``await offload(fn, *args)`` runs an AI seat's search (``engines.solo.ai_move``, plain data)
        #: off the event loop: the bot's AI worker process (issue 37); by default a thread
        self.offload: Callable[..., Awaitable[Any]] = offload or asyncio.to_thread
        self.clock = clock
        self._seed = seed_source or (lambda: secrets.randbits(62))
        self._locks: dict[int, asyncio.Lock] = {}
        self._readable_ok: set[tuple[int, int]] = set()  # (game, version) whose state loads
        self._expected: OrderedDict[tuple[int, int], tuple[Any, frozenset[int]]] = OrderedDict()
        #: called after every committed change (turn notices, schedules); may be a coroutine.
        self.on_change = on_change
        #: ``(game, seat, turn over) -> bank`` kept by a human seat after its move (issue 15, the
        #: scheduler's ``bank_after_move``): stored with the move (``_bank``), in the same transaction
        self.clock_bank: Callable[[GameRow, int, bool], Any] | None = None
        #: ``(game, seats, banks) -> (since, [(seat, kind, due)])``: the deadlines of the seats a player's
        #: move makes expected (the scheduler's ``plan``), written by the move's own transaction rather
        #: than by a second one after it; ``banks``: what the mover keeps, just computed (issue 24)
        self.plan_deadlines: Callable[[GameRow, list[int], dict[int, float]], Any] | None = None
        #: ``(game) -> None`` after every committed change, before ``on_change``: cheap and synchronous
        #: (the board's live pages learn a new version here; with PostgreSQL, also from other processes)
        self.watchers: list[Callable[[GameRow], None]] = []

    # --- helpers -------------------------------------------------------------------
    @staticmethod
    def engine(kind: str) -> Engine:
        return engines.get(kind)

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def get(self, game_id: int, *, broken_ok: bool = False) -> GameRow:
        """The game ``game_id``; a game whose state cannot be read is refused (``game_broken``)
        unless ``broken_ok`` (an admin cancelling it)."""
        if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 < game_id <= MAX_ID:
            raise SessionError("common.error.no_such_game", game=str(game_id)[:30])
        game = await self.store.get_game(game_id)
        if game is None:
            raise SessionError("common.error.no_such_game", game=game_id)
        game = await self.readable(game)
        if game.broken and not broken_ok:
            raise SessionError("common.error.game_broken", game=game.id)
        return game

    async def load(self, game: GameRow, engine: Engine | None = None) -> Any:
        """The engine state of ``game``; a state that does not load marks the game broken (logged
        once) and is refused (``common.error.game_broken``) instead of failing as an internal error."""
        engine = engine or self.engine(game.kind)
        try:
            return engine.from_dict(game.state)
        except Exception as err:
            await self.store.mark_broken(game.id, f"{type(err).__name__}: {err}"[:300])
            raise SessionError("common.error.game_broken", game=game.id) from err

    async def readable(self, game: GameRow) -> GameRow:
        """``game``, or the same game marked broken (stored, logged once) if its engine is gone
        or its state does not load (invalid, unknown schema: what an engine upgrade can do)."""
        if game.broken:
            return game
        key = (game.id, game.version)
        if key in self._readable_ok:
            return game
        try:
            engine = self.engine(game.kind)
            if game.state is not None:
                engine.from_dict(game.state)
        except Exception as err:  # any failure of a stored game must stay within that game
            reason = f"{type(err).__name__}: {err}"[:300]
            await self.store.mark_broken(game.id, reason)
            return dataclasses.replace(game, broken=reason)
        if len(self._readable_ok) > 10_000:
            self._readable_ok.clear()
        self._readable_ok.add(key)
        return game

    @staticmethod
    def check_scope(game: GameRow, guild_id: int | None, channel_id: int | None = None) -> None:
        """A game is only reachable from its own server (elsewhere it does not exist, same answer
        as an unknown id) and, when ``channel_id`` is given, from its own channel or thread."""
        if game.guild_id != guild_id:
            raise SessionError("common.error.no_such_game", game=game.id)
        if channel_id is not None and channel_id not in (game.channel_id, game.thread_id):
            raise SessionError("common.error.other_channel", game=game.id, channel=Safe(f"<#{game.channel_id}>"))

    async def get_in(self, game_id: int, guild_id: int | None, channel_id: int | None = None, *,
                     broken_ok: bool = False) -> GameRow:
        """:meth:`get`, scoped to a server (and a channel): see :meth:`check_scope`."""
        game = await self.get(game_id, broken_ok=True)
        self.check_scope(game, guild_id, channel_id)
        if game.broken and not broken_ok:
            raise SessionError("common.error.game_broken", game=game.id)
        return game

    @staticmethod
    def require_status(game: GameRow, *allowed: str) -> None:
        if game.status in allowed:
            return
        key = {
            LOBBY: "common.error.not_started",
            RUNNING: "common.error.already_started",
            FINISHED: "common.error.game_finished",
            CANCELLED: "common.error.game_cancelled",
        }[game.status]
        raise SessionError(key, game=game.id)

    @staticmethod
    def _may_manage(game: GameRow, player: Player) -> bool:
        """The creator, or a member with Manage Server in the game's own server (not another one)."""
        if player.user_id == game.creator_id:
            return True
        return player.can_manage and game.guild_id is not None and player.guild_id == game.guild_id

    async def _notify(self, outcome: Outcome) -> None:
        for watcher in self.watchers:  # the board's live pages (bot/activity/live.py): a version, no I/O
            try:
                watcher(outcome.game)
            except Exception:
                log.exception("watcher failed for game %s", outcome.game.id)
        if self.on_change is None:
            return
        try:
            res = self.on_change(outcome)
            if asyncio.iscoroutine(res):
                await res
        except Exception:  # a notice must never undo or break a committed move
            log.exception("on_change hook failed for game %s", outcome.game.id)

    # --- finding games -------------------------------------------------------------
    async def find(self, *, channel_id: int, kind: str, user_id: int | None = None,
                   guild_id: int | None, game_id: int | None = None,
                   statuses: tuple[str, ...] = (LOBBY, RUNNING)) -> GameRow:
        """The game a command typed in a channel of a server refers to.

        With ``game_id``: that game, if it is in this server (else: no such game) and this
        channel or its thread, and of this kind. Otherwise the only
        active game of this kind in the channel; if several, the only one where
        the user is seated; else ``common.error.ambiguous`` listing them. When
        ``statuses`` includes finished games (``status``), they only count if no game
        is active, and then the newest one is meant.
        """
        if game_id is not None:
            game = await self.get_in(game_id, guild_id, channel_id)
            if game.kind != kind:
                raise SessionError("common.error.wrong_game", game=game_id)
            return game
        games = [g for g in await self.store.games_in_channel(channel_id, statuses, kind=kind)
                 if g.guild_id == guild_id and not g.broken]
        if not games:
            raise SessionError("common.error.no_game_here")
        active = [g for g in games if g.status in (LOBBY, RUNNING)]
        if not active:
            return max(games, key=lambda g: g.id)
        games = active
        if len(games) == 1:
            return games[0]
        mine = [g for g in games if user_id is not None and g.seat_of(user_id) is not None]
        if len(mine) == 1:
            return mine[0]
        listed = tuple(Phrase("common.label.game_listed", (("id", g.id), ("players", Safe(", ".join(
            escape(n) for n in g.names))), ("status", Phrase(f"common.status.{g.status}")))) for g in (mine or games))
        raise SessionError("common.error.ambiguous", games=listed)

    # --- lobby ---------------------------------------------------------------------
    async def open_lobby(self, kind: str, *, guild_id: int | None, channel_id: int, player: Player,
                         options: dict[str, Any] | None = None, ai_seats: int = 0,
                         ai_level: int = 1, pace: str | None = None, thread: bool | None = None,
                         tournament: int | None = None, reserved_for: int | None = None,
                         queue_match: int | None = None, seed: int | None = None,
                         daily: dict[str, Any] | None = None) -> GameRow:
        """A lobby for ``kind`` with ``player`` seated. ``pace`` and ``thread`` are table settings
        (None: the server's default when the game starts). ``tournament``: the game of a tournament's
        table (bot.community.tournaments): only a server manager may cancel it. ``queue_match``: the
        game of a queue's match (bot.community.matchmaking), found back after a crash. ``seed`` and
        ``daily``: the game of a daily challenge (bot.community.daily), on the day's draw: ``{"day",
        "variant"}`` in its settings (no takeback, its replay kept to its player until the day is over)."""
        engine = self.engine(kind)
        opts = validate_options(kind, engine.options, options)
        settings: dict[str, Any] = {}
        if check_pace(pace) is not None:
            settings["pace"] = pace
        if thread is not None:
            settings["thread"] = bool(thread)
        if tournament is not None:
            settings["tournament"] = int(tournament)
        if reserved_for is not None:
            settings["reserved_for"] = int(reserved_for)
        if queue_match is not None:
            settings["queue_match"] = int(queue_match)
        if daily is not None:  # played in a private thread: nobody watches the day's draw (bot.threads)
            settings["daily"] = dict(daily)
            settings["thread"] = "private"
        if ai_seats and not engine.has_ai:
            raise SessionError("lobby.error.no_ai", game=kind)
        if ai_seats < 0 or 1 + ai_seats > engine.max_players:
            raise SessionError("lobby.error.too_many_ai", max=engine.max_players - 1)
        self.check_ai_level(engine, ai_level)
        creator = Seat(seat=0, user_id=player.user_id, name=player.name, locale=player.locale)
        game = await self.store.create_game(kind=kind, guild_id=guild_id, channel_id=channel_id,
                                            creator=creator, options=opts,
                                            seed=self._seed() if seed is None else int(seed), settings=settings)
        for _ in range(ai_seats):
            game = await self._add_ai_seat(game, ai_level)
        return game

    async def rematch(self, game_id: int, player: Player) -> tuple[GameRow, bool]:
        """A new lobby for a finished game: same game, options and AI seats (same levels), in the
        same channel, opened by ``player`` (who must have played it). The other players confirm by
        joining. Once per game: a second click gets the lobby already opened (``False``)."""
        async with self._lock(game_id):
            game = await self.get(game_id)
            self.require_status(game, FINISHED)
            if game.seat_of(player.user_id) is None:
                raise SessionError("common.error.not_a_player", game=game.id)
            key = f"rematch:{game.id}"
            existing = await self.store.get_meta(key)
            if existing is not None:
                lobby = await self.store.get_game(int(existing))
                if lobby is not None:
                    return lobby, False
            creator = Seat(seat=0, user_id=player.user_id, name=player.name, locale=player.locale)
            lobby = await self.store.create_game(kind=game.kind, guild_id=game.guild_id, channel_id=game.channel_id,
                                                 creator=creator, options=dict(game.options), seed=self._seed(),
                                                 settings=table_settings(game.settings))
            for seat in game.seats:
                if seat.is_ai:
                    lobby = await self._add_ai_seat(lobby, seat.ai_level or 1)
            await self.store.set_meta(key, str(lobby.id))
            return lobby, True

    async def _lobby_update(self, game_id: int, change: Callable[[GameRow], list[Seat]]) -> GameRow:
        for attempt in range(LOBBY_RETRIES):  # retry while concurrent joins/leaves win the race
            game = await self.get(game_id)
            self.require_status(game, LOBBY)  # started or cancelled meanwhile: that refusal
            seats = change(game)  # full, already joined...: that refusal
            if await self.store.update_lobby(game.id, game.version, seats):
                return await self.get(game_id)
            await asyncio.sleep(0.001 * (attempt % 8))  # let the winners finish; no lockstep
        raise SessionError("common.error.busy")

    @staticmethod
    def check_ai_level(engine: Engine, level: int) -> None:
        """The level against the engine's declared range (``lobby.error.bad_level``)."""
        low, high = getattr(engine, "ai_levels", (1, 1))
        if isinstance(level, bool) or not isinstance(level, int) or not low <= level <= high:
            raise SessionError("lobby.error.bad_level", min=low, max=high, value=str(level)[:30])

    async def _add_ai_seat(self, game: GameRow, level: int) -> GameRow:
        engine = self.engine(game.kind)
        self.check_ai_level(engine, level)

        def change(g: GameRow) -> list[Seat]:
            if len(g.seats) >= engine.max_players:
                raise SessionError("lobby.error.full", max=engine.max_players)
            n = sum(1 for s in g.seats if s.is_ai) + 1
            return [*g.seats, Seat(seat=len(g.seats), user_id=None, name=f"Bot {n}", ai_level=level)]

        return await self._lobby_update(game.id, change)

    async def add_ai(self, game_id: int, player: Player, level: int = 1) -> GameRow:
        game = await self.get(game_id)
        if not self.engine(game.kind).has_ai:
            raise SessionError("lobby.error.no_ai", game=game.kind)
        if not self._may_manage(game, player):
            raise SessionError("lobby.error.only_creator")
        if game.settings.get("reserved_for") is not None:  # a /defi lobby waits for its member only
            raise SessionError("lobby.error.challenge_ai")
        return await self._add_ai_seat(game, level)

    async def join(self, game_id: int, player: Player) -> GameRow:
        engine = self.engine((await self.get(game_id)).kind)

        def change(g: GameRow) -> list[Seat]:
            if g.seat_of(player.user_id) is not None:
                raise SessionError("lobby.error.already_joined")
            reserved = g.settings.get("reserved_for")
            if reserved is not None and reserved != player.user_id:
                raise SessionError("tournament.error.reserved", member=Safe(f"<@{int(reserved)}>"))
            if len(g.seats) >= engine.max_players:
                raise SessionError("lobby.error.full", max=engine.max_players)
            return [*g.seats, Seat(seat=len(g.seats), user_id=player.user_id, name=player.name,
                                   locale=player.locale)]

        return await self._lobby_update(game_id, change)

    async def leave(self, game_id: int, player: Player) -> GameRow:
        def change(g: GameRow) -> list[Seat]:
            if g.seat_of(player.user_id) is None:
                raise SessionError("lobby.error.not_joined")
            if player.user_id == g.creator_id:
                raise SessionError("lobby.error.creator_leaves")
            kept = [s for s in g.seats if s.user_id != player.user_id]
            return [Seat(seat=i, user_id=s.user_id, name=s.name, ai_level=s.ai_level, locale=s.locale)
                    for i, s in enumerate(kept)]

        return await self._lobby_update(game_id, change)

    @staticmethod
    def challenge_complete(game: GameRow) -> bool:
        """A ``/defi`` lobby whose challenged member has taken the seat reserved to them: it starts
        by itself (:meth:`start` with ``challenge=True``)."""
        reserved = game.settings.get("reserved_for")
        return game.status == LOBBY and reserved is not None and game.seat_of(int(reserved)) is not None

    async def start(self, game_id: int, player: Player, *, challenge: bool = False) -> Outcome:
        """Start a lobby: by its creator (or a server manager); with ``challenge``, by the challenged
        member of a ``/defi`` lobby once seated (:meth:`challenge_complete`), nobody else."""
        async with self._lock(game_id):
            # joins and leaves change a lobby without this lock (a compare-and-swap each): a start
            # that lost to one reads the lobby again and starts it with the seats it now has
            for _ in range(LOBBY_RETRIES):
                game = await self.get(game_id)
                self.require_status(game, LOBBY)
                if challenge:
                    if not self.challenge_complete(game) or game.settings.get("reserved_for") != player.user_id:
                        raise SessionError("lobby.error.only_creator")
                elif not self._may_manage(game, player):
                    raise SessionError("lobby.error.only_creator")
                engine = self.engine(game.kind)
                if len(game.seats) < engine.min_players:
                    raise SessionError("lobby.error.not_enough", min=engine.min_players, count=len(game.seats))
                state = engine.new_game(len(game.seats), game.options, game.seed)
                if await self.store.start_game(game.id, game.version, game.seats, engine.to_dict(state),
                                               expected=engine.expected(state)):
                    break
            else:
                raise SessionError("common.error.already_played")
            game = await self.get(game_id)
            outcome = Outcome(game=game, events=[{"type": "started"}])
            outcome = await self._play_ai(outcome)
            outcome.newly_expected = self.expected_seats(outcome.game)
        await self._notify(outcome)
        return outcome

    async def cancel(self, game_id: int, player: Player) -> GameRow:
        """Cancel a lobby or running game (also a broken one: that is how an admin clears it)."""
        async with self._lock(game_id):
            game = await self.get(game_id, broken_ok=True)
            self.require_status(game, LOBBY, RUNNING)
            if not self._may_manage(game, player):
                raise SessionError("lobby.error.only_creator_cancel")
            if game.settings.get("tournament") and not (player.can_manage and player.guild_id == game.guild_id):
                # a player about to lose must not wipe the game out: a server manager decides
                raise SessionError("tournament.error.game_cancel", id=game.settings["tournament"])
            if not await self.store.set_status(game.id, game.version, CANCELLED):
                raise SessionError("common.error.already_played")
            return await self.get(game_id, broken_ok=True)

    # --- playing -------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int, action: dict[str, Any], *,
                  version: int | None = None, any_turn: bool = False, row: GameRow | None = None) -> Outcome:
        """Apply ``action`` for the seat of ``user_id``. ``version``: the button's, if any.

        ``any_turn``: for an action the engine accepts from a seat that is not expected
        (resigning): skip the turn check; the engine still validates the action.
        ``row``: the game as the caller just read it (a button's game, read to check its scope): used
        instead of reading it again when it is the button's version. Were it outdated meanwhile, the
        commit's compare-and-swap refuses (``already_played``), as the version check would have.
        """
        async with self._lock(game_id):
            if row is not None and row.id == game_id and version is not None and row.version == version \
                    and not row.broken:
                game = row
            else:
                game = await self.get(game_id)
            self.require_status(game, RUNNING)
            seat = game.seat_of(user_id)
            if seat is None:
                raise SessionError("common.error.not_a_player", game=game.id)
            if seat in ai_played(game) - {s.seat for s in game.seats if s.is_ai}:
                raise SessionError("community.vote.taken_over", game=game.id)
            if version is not None and version != game.version:
                raise SessionError("common.error.already_played")
            engine = self.engine(game.kind)
            state = await self.load(game, engine)
            if not any_turn and seat not in engine.expected(state):
                # The engine may know a more precise reason ("the picker cannot gesture",
                # "you have already chosen"): apply is pure, so asking it changes nothing.
                self.refuse_out_of_turn(engine, state, seat, action)
            before = engine.expected(state)
            # the stalled player is back before the others decided: their vote is closed
            settings = without_vote(game.settings, seat) if str(seat) in open_votes(game) else None
            if "takeback" in game.settings:  # a move cancels a takeback request (bot.takeback)
                settings = {k: v for k, v in (settings or game.settings).items() if k != "takeback"}
            outcome = await self._commit(game, engine, state, seat, user_id, action, settings=settings,
                                         before=before)
            outcome = await self._play_ai(outcome)
            outcome.newly_expected = self.expected_seats(outcome.game) - (before - {seat})
        await self._notify(outcome)
        return outcome

    async def act_for(self, game_id: int, seat: int, action: dict[str, Any], *,
                      version: int | None = None, actor: str = "timeout") -> Outcome:
        """Apply an action on behalf of a seat (timeouts): same checks, same commit."""
        async with self._lock(game_id):
            game = await self.get(game_id)
            self.require_status(game, RUNNING)
            if version is not None and version != game.version:
                raise SessionError("common.error.already_played")
            engine = self.engine(game.kind)
            state = await self.load(game, engine)
            if seat not in engine.expected(state):
                raise SessionError("common.error.not_your_turn")
            before = engine.expected(state)
            outcome = await self._commit(game, engine, state, seat, None, {**action, "_by": actor})
            outcome = await self._play_ai(outcome)
            outcome.newly_expected = self.expected_seats(outcome.game) - (before - {seat})
        await self._notify(outcome)
        return outcome

    @staticmethod
    def refuse_out_of_turn(engine: Engine, state: Any, seat: int, action: dict[str, Any]) -> None:
        """Refuse an action from a seat that is not expected, with the engine's reason if it has one."""
        engine.apply(state, seat, {k: v for k, v in action.items() if not k.startswith("_")})
        raise SessionError("common.error.not_your_turn")

    async def _commit(self, game: GameRow, engine: Engine, state: Any, seat: int, user_id: int | None,
                      action: dict[str, Any], *, settings: dict[str, Any] | None = None,
                      before: set[int] | None = None) -> Outcome:
        engine_action = {k: v for k, v in action.items() if not k.startswith("_")}
        new_state, events = engine.apply(state, seat, engine_action)
        return await self._commit_state(game, engine, new_state, seat, user_id, action, events, settings=settings,
                                        before=before)

    @staticmethod
    def _bot_turn(game: GameRow, engine: Engine, state: Any,
                  expected: set[int]) -> tuple[int, str, dict[str, Any] | None, int] | None:
        """What the bot plays next after this state, the one test of ``_play_ai`` and ``_planned``:
        ``(seat, "auto", the move, 0)`` for a move without a choice, ``(seat, "ai", None, level)`` for an
        expected seat the bot plays (AI seats, and human seats the others voted to let the bot play
        until they are back; its move still to think), None when the bot does not move."""
        forced = getattr(engine, "forced_action", None)
        if forced is not None:
            for s in sorted(expected):
                if (action := forced(state, s)) is not None:
                    return s, "auto", action, 0
        played = ai_played(game)
        ai = next((s for s in game.seats if s.seat in played and s.seat in expected), None)
        return (ai.seat, "ai", None, ai.ai_level or 1) if ai is not None else None

    async def _planned(self, game: GameRow, engine: Engine, new_state: Any, seat: int, before: set[int],
                       bank: float | None) -> tuple[float, list[tuple[int, str, float]]] | None:
        """The deadlines of the seats this move makes expected, to be written by its own transaction
        (None: left to ``on_change`` after it, as any other change: the bot moves next, or no planner)."""
        if self.plan_deadlines is None:
            return None
        expected = engine.expected(new_state)
        if self._bot_turn(game, engine, new_state, expected) is not None:
            return None
        seats = sorted(expected - (before - {seat}))  # what ``act`` will call newly expected
        try:
            since, entries = await self.plan_deadlines(game, seats, {seat: bank} if bank is not None else {})
        except Exception:  # the scheduler then writes them after the commit, as before
            log.exception("deadlines of game %s not planned with the move", game.id)
            return None
        return since, list(entries)

    async def _commit_state(self, game: GameRow, engine: Engine, new_state: Any, seat: int, user_id: int | None,
                            action: dict[str, Any], events: list[dict[str, Any]], *,
                            settings: dict[str, Any] | None = None, before: set[int] | None = None) -> Outcome:
        result = engine.result(new_state) if engine.is_over(new_state) else None
        results = None
        status = RUNNING
        if result is not None:
            status = FINISHED
            results = [ResultRow(game_id=game.id, seat=s.seat, user_id=s.user_id,
                                 score=result.scores[s.seat], rank=result.ranks[s.seat]) for s in game.seats]
        tagged = [{**e, "_seat": seat} for e in events]
        if self.clock_bank is not None and action.get("_by") != "ai":
            # the increment comes once a turn: when the move ends the seat's turn (or the game)
            try:
                bank = await self.clock_bank(game, seat, result is not None or seat not in engine.expected(new_state))
            except Exception:  # a clock must never cost a move: the seat keeps its previous bank
                log.exception("time bank of game %s seat %s", game.id, seat)
                bank = None
            if bank is not None:
                action = {**action, "_bank": bank}
        expected = engine.expected(new_state) if status == RUNNING else set()
        plan = None
        if before is not None and status == RUNNING:
            after = game if settings is None else dataclasses.replace(game, settings=settings)
            plan = await self._planned(after, engine, new_state, seat, before, action.get("_bank"))
        row = await self.store.commit_action(game.id, game.version, state=engine.to_dict(new_state), seat=seat,
                                             user_id=user_id, action=action, events=tagged, status=status,
                                             results=results, settings=settings, expected=expected,
                                             deadlines=plan)
        if row is None:
            raise SessionError("common.error.already_played")
        metrics.count_move(game.kind, action.get("_by"))
        # the committed row comes back from the commit (no second read); its state is the engine's own
        self._vouch(row)
        return Outcome(game=row, events=tagged, result=result, scheduled=plan is not None)

    def _vouch(self, game: GameRow) -> None:
        """``game``'s state was just written from the engine's own ``to_dict``: it loads."""
        if len(self._readable_ok) > 10_000:
            self._readable_ok.clear()
        self._readable_ok.add((game.id, game.version))

    async def _play_ai(self, outcome: Outcome) -> Outcome:
        game = outcome.game
        events = list(outcome.events)
        result = outcome.result
        for _ in range(MAX_AI_MOVES):
            if game.status != RUNNING:
                break
            engine = self.engine(game.kind)
            state = await self.load(game, engine)
            turn = self._bot_turn(game, engine, state, engine.expected(state))
            if turn is None:
                break
            seat_no, by, action, level = turn
            if action is None:
                # off the event loop and, in the bot, off its process (its AI worker): a strong AI thinks
                # for up to seconds, and other games must not wait (issue 37); the stored state is the
                # engine's own ``to_dict``, plain data
                action, cpu = await self.offload(ai_move, game.kind, game.state, seat_no, level)
                # (a long think is worth a host's eye; the others only when debugging)
                log.log(logging.INFO if cpu >= 1.0 else logging.DEBUG,
                        "game %d: the level-%d AI of seat %d thought %.3f s of CPU", game.id, level, seat_no, cpu)
            step = await self._commit(game, engine, state, seat_no, None, {**action, "_by": by})
            game, result = step.game, step.result or result
            events.extend(step.events)
        # deadlines written with the move stand only when the bot did not move after it
        return Outcome(game=game, events=events, result=result,
                       scheduled=outcome.scheduled and game is outcome.game)

    # --- looking -------------------------------------------------------------------
    async def view_for(self, game: GameRow, user_id: int | None) -> dict[str, Any]:
        """The view of ``user_id``'s seat, or the public view if they are not seated."""
        engine = self.engine(game.kind)
        state = await self.load(game, engine)
        seat = game.seat_of(user_id) if user_id is not None else None
        return engine.view(state, seat)

    async def public_view(self, game: GameRow) -> dict[str, Any]:
        engine = self.engine(game.kind)
        return engine.view(await self.load(game, engine), None)

    def expected_seats(self, game: GameRow) -> set[int]:
        if game.status != RUNNING or game.state is None:
            return set()
        key = (game.id, game.version)
        known = self._expected.get(key)
        if known is not None and known[0] is game.state:  # the same row's state: asked 5 times a move
            return set(known[1])
        engine = self.engine(game.kind)
        expected = engine.expected(engine.from_dict(game.state))
        self._expected[key] = (game.state, frozenset(expected))
        while len(self._expected) > self.EXPECTED_KEPT:
            self._expected.popitem(last=False)
        return set(expected)

    #: the seats expected in the last rows asked (:meth:`expected_seats`), by (game, version), with the
    #: state they were read from (the very object: a row staged with another state is read anew)
    EXPECTED_KEPT: ClassVar[int] = 512

    # --- whose turn, since when (issue 16) -------------------------------------------------
    async def refresh_turns(self, batch: int = 200) -> int:
        """Write the turn columns of running games whose columns are stale (a database from before
        schema 9, a change written without ``expected``), ``batch`` games at a time, yielding between
        batches. Since when a seat waits: its latest deadline's ``since``, else the game's last change.
        Returns how many games were refreshed; an unreadable game is set aside (broken), not retried."""
        done = 0
        while games := await self.store.stale_turns(batch):
            since = await self.store.turn_since([g.id for g in games])
            progress = False
            for game in games:
                game = await self.readable(game)
                if game.broken:  # marked now: no longer stale
                    progress = True
                    continue
                seats = self.expected_seats(game)
                times = {s: since.get((game.id, s), game.updated_at) for s in seats}
                if await self.store.set_turns(game.id, game.version, times):
                    done += 1
                    progress = True
            if not progress:  # each moved on meanwhile (and its commit wrote the columns), or cannot be
                break
            await asyncio.sleep(0)  # players' commands go first
        return done

    async def check_running(self, page: int = 50, pause: float = 0.005) -> int:
        """Set aside (broken, logged once) every running game whose state no longer loads (a database
        changed under the bot, an engine upgrade): a background pass after start, a page at a time,
        yielding after each game and pausing between pages so that players' commands never wait
        behind it. Nothing else depends on it: a game that does not load is refused when touched
        anyway. Returns how many were set aside."""
        after, found = 0, 0
        while games := await self.store.running_after(after, page):
            for game in games:
                if (await self.readable(game)).broken:
                    found += 1
                await asyncio.sleep(0)
            after = games[-1].id
            await asyncio.sleep(pause)
        return found

    # --- playing over days (issue 9) ------------------------------------------------------
    async def forfeit(self, game_id: int, seat: int, *, reason: str = "timeout",
                      version: int | None = None) -> Outcome:
        """End a running game because ``seat`` forfeits (repeated timeouts).

        Results: the forfeiting seat is ranked last; every other seat shares first place;
        no scores (the game did not reach its end). The log gets a ``forfeit`` action
        (``_by`` = reason) with a ``forfeit`` event; the state is left as it was.
        """
        async with self._lock(game_id):
            game = await self.get(game_id)
            self.require_status(game, RUNNING)
            if version is not None and version != game.version:
                raise SessionError("common.error.already_played")
            if not 0 <= seat < len(game.seats):
                raise SessionError("common.error.not_a_player", game=game.id)
            n = len(game.seats)
            ranks = [n if s.seat == seat else 1 for s in game.seats]
            result = Result(scores=[None] * n, ranks=ranks, details={"forfeit": seat, "reason": reason})
            results = [ResultRow(game_id=game.id, seat=s.seat, user_id=s.user_id, score=None, rank=ranks[s.seat])
                       for s in game.seats]
            events = [{"type": "forfeit", "seat": seat, "reason": reason, "_seat": seat}]
            row = await self.store.commit_action(game.id, game.version, state=game.state or {}, seat=seat,
                                                 user_id=None, action={"type": "forfeit", "_by": reason},
                                                 events=events, status=FINISHED, results=results)
            if row is None:
                raise SessionError("common.error.already_played")
            outcome = Outcome(game=row, events=events, result=result)
        await self._notify(outcome)
        return outcome

    # --- a stalled player: the others vote (issue 15) ---------------------------------------
    async def _commit_note(self, game: GameRow, seat: int, action: dict[str, Any], events: list[dict[str, Any]],
                           settings: dict[str, Any], user_id: int | None = None) -> Outcome:
        """A log entry that leaves the engine state as it is (a vote opened or decided, a seat back)."""
        tagged = [{**e, "_seat": seat} for e in events]
        row = await self.store.commit_action(game.id, game.version, state=game.state or {}, seat=seat,
                                             user_id=user_id, action=action, events=tagged, settings=settings,
                                             expected=self.expected_seats(game))
        if row is None:
            raise SessionError("common.error.already_played")
        return Outcome(game=row, events=tagged)

    async def open_vote(self, game_id: int, seat: int, *, version: int, due: float, voters: int) -> Outcome:
        """``seat``'s time is out: open the others' vote (until ``due``). The log gets a ``vote_open``
        entry; the vote's epoch is the version it makes (its deadline's and its buttons' key)."""
        async with self._lock(game_id):
            game = await self.get(game_id)
            self.require_status(game, RUNNING)
            if version != game.version:
                raise SessionError("common.error.already_played")
            votes = {**open_votes(game), str(seat): {"epoch": game.version + 1, "due": due}}
            has_ai = self.engine(game.kind).has_ai
            event = {"type": "vote_open", "seat": seat, "due": int(due), "voters": voters,
                     "ai": "yes" if has_ai else "no"}
            outcome = await self._commit_note(game, seat, {"type": "vote_open", "_by": "vote"}, [event],
                                              {**game.settings, "votes": votes})
        await self._notify(outcome)
        return outcome

    async def decide_vote(self, game_id: int, seat: int, epoch: int, choice: str,
                          tally: dict[str, int]) -> Outcome:
        """Apply the others' decision about ``seat`` (once: the vote must still be open).

        ``wait``: the seat is expected again, with a new timeout (``newly_expected``); ``ai``: the
        AI plays the seat until its player takes it back (:meth:`reclaim`); ``remove``: the engine
        goes on without the seat where its rules allow (``remove_seat``), else the game ends with
        the seat ranked last, like a forfeit of that seat only."""
        if choice not in CHOICES:
            raise SessionError("common.error.internal")
        async with self._lock(game_id):
            game = await self.get(game_id)
            self.require_status(game, RUNNING)
            vote = open_votes(game).get(str(seat))
            if not vote or vote.get("epoch") != epoch:
                raise SessionError("community.vote.closed", game=game.id)
            engine = self.engine(game.kind)
            if choice == AI and not engine.has_ai:
                choice = WAIT
            settings = without_vote(game.settings, seat)
            event = {"type": "vote_decided", "seat": seat, "choice": choice,
                     **{c: int(tally.get(c, 0)) for c in CHOICES}}
            action = {"type": "vote_decided", "choice": choice, "_by": "vote"}
            state = await self.load(game, engine)
            before = engine.expected(state)
            if choice == WAIT:
                outcome = await self._commit_note(game, seat, action, [event], settings)
                outcome.newly_expected = self.expected_seats(outcome.game) & {seat}
            elif choice == AI:
                settings["ai_for"] = sorted(set(settings.get("ai_for", [])) | {seat})
                outcome = await self._commit_note(game, seat, action, [event], settings)
                outcome = await self._play_ai(outcome)
                outcome.newly_expected = self.expected_seats(outcome.game) - before
            else:
                settings["removed"] = sorted(set(settings.get("removed", [])) | {seat})
                remove = getattr(engine, "remove_seat", None)
                try:
                    if remove is None:
                        raise RuleError("community.vote.no_removal")
                    new_state, events = remove(state, seat)
                except RuleError:
                    outcome = await self._end_without(game, seat, action, event, settings)
                else:
                    outcome = await self._commit_state(game, engine, new_state, seat, None, action,
                                                       [event, *events], settings=settings)
                    outcome = await self._play_ai(outcome)
                    outcome.newly_expected = self.expected_seats(outcome.game) - (before - {seat})
        await self._notify(outcome)
        return outcome

    async def _end_without(self, game: GameRow, seat: int, action: dict[str, Any], event: dict[str, Any],
                           settings: dict[str, Any]) -> Outcome:
        """Removal where the rules cannot go on without the seat: the game ends, that seat ranked
        last and the others sharing first place, no scores (as a forfeit of that seat)."""
        n = len(game.seats)
        ranks = [n if s.seat == seat else 1 for s in game.seats]
        result = Result(scores=[None] * n, ranks=ranks, details={"removed": seat, "reason": "vote"})
        results = [ResultRow(game_id=game.id, seat=s.seat, user_id=s.user_id, score=None, rank=ranks[s.seat])
                   for s in game.seats]
        events = [{**event, "_seat": seat}, {"type": "removed_end", "seat": seat, "_seat": seat}]
        row = await self.store.commit_action(game.id, game.version, state=game.state or {}, seat=seat, user_id=None,
                                             action=action, events=events, status=FINISHED, results=results,
                                             settings=settings)
        if row is None:
            raise SessionError("common.error.already_played")
        return Outcome(game=row, events=events, result=result)

    async def reclaim(self, game_id: int, user_id: int) -> Outcome:
        """A player the AI stood in for takes their seat back (it is theirs from their next turn)."""
        async with self._lock(game_id):
            game = await self.get(game_id)
            self.require_status(game, RUNNING)
            seat = game.seat_of(user_id)
            if seat is None:
                raise SessionError("common.error.not_a_player", game=game.id)
            taken = [s for s in game.settings.get("ai_for", []) if s != seat]
            if len(taken) == len(game.settings.get("ai_for", [])):
                raise SessionError("community.vote.not_taken_over", game=game.id)
            outcome = await self._commit_note(game, seat, {"type": "seat_back", "_by": "player"},
                                              [{"type": "seat_back", "seat": seat}],
                                              {**game.settings, "ai_for": taken}, user_id=user_id)
            outcome.newly_expected = self.expected_seats(outcome.game) & {seat}
        await self._notify(outcome)
        return outcome
