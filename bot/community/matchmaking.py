"""Finding opponents (issue 28): ``/chercher`` queues and ``/defi`` challenges, above the session service.

**Queues.** A queue is (server, game, number of players, pace). ``/chercher`` puts a member in one
(once: a second time in the same queue is refused; several different queues are fine). As soon as
enough members wait in a queue, the longest-waiting ones are *taken* in one atomic step of the
storage (:meth:`QueueStore.take_group`): they leave every queue they were in, and a match is
recorded. Two shard processes (or two members completing the queue at the same instant) can never
take the same member twice: the database decides, not the memory of a process. Then the match's
game is opened through the session service like a tournament table's (a lobby marked with the match,
recorded on the match by compare-and-set, its other members seated, started, then the match marked
opened; the loser of a race cancels its own lobby), in the channel of the member who waited longest;
the outbox publishes it. A match not marked opened :data:`GRACE` seconds after it was taken (a crash
anywhere in between) is opened by the next ``tick`` of any process: its recorded lobby, else the lobby
marked with it, else a new one, completed and started — one game per match.

**Challenges.** ``/defi`` opens an ordinary lobby reserved to one member (``reserved_for`` in the
game's settings: the session service refuses anybody else's join).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

import engines
from bot.pace import check_pace
from bot.sessions import Player, SessionError, SessionService
from bot.storage import LOBBY, GameRow, Store
from bot.storage.rows import Match, Waiting

log = logging.getLogger("ludibot.matchmaking")

TTL = 24 * 3600.0  # a member waits at most a day in a queue
MAX_QUEUES = 10  # queues one member may wait in at once
GRACE = 60.0  # seconds before the tick opens a match's game itself (the taker crashed)


class QueueStore(Protocol):
    async def enqueue(self, entry: Waiting, limit: int) -> str:
        """``"ok"``, ``"already"`` (this member waits in this queue) or ``"too_many"`` (``limit`` queues)."""

    async def leave_queues(self, guild_id: int, user_id: int) -> int: ...

    async def expire_waiting(self, guild_id: int, before: float) -> int:
        """Forget the server's waits that began at or before ``before`` (they ran out): how many."""

    async def waiting(self, guild_id: int, user_id: int | None = None, since: float = 0.0) -> list[Waiting]: ...

    async def take_group(self, guild_id: int, kind: str, players: int, pace: str | None, since: float,
                         now: float) -> Match | None:
        """At once: if ``players`` members wait in this queue (entered after ``since``), take the
        longest-waiting ones out of *every* queue and record their match; else None."""

    async def set_match_game(self, match_id: int, game_id: int) -> int | None:
        """Record the match's game if it has none; returns the game recorded."""

    async def set_match_opened(self, match_id: int) -> None:
        """The match's game started (or is over, or gone): nothing left to open."""

    async def unopened_matches(self) -> list[Match]:
        """Matches not marked opened: without a game yet, or whose recorded game may still be a lobby."""


class MemoryQueueStore:
    """:class:`QueueStore` in memory (tests; one process): each method runs without awaiting inside,
    so it is atomic on the event loop as the SQL one is in its transaction."""

    def __init__(self) -> None:
        self._waiting: list[Waiting] = []
        self._matches: dict[int, Match] = {}
        self._opened: set[int] = set()

    async def enqueue(self, entry: Waiting, limit: int) -> str:
        mine = [w for w in self._waiting if w.guild_id == entry.guild_id and w.user_id == entry.user_id]
        if any(w.queue == entry.queue for w in mine):
            return "already"
        if len(mine) >= limit:
            return "too_many"
        self._waiting.append(entry)
        return "ok"

    async def leave_queues(self, guild_id: int, user_id: int) -> int:
        before = len(self._waiting)
        self._waiting = [w for w in self._waiting if not (w.guild_id == guild_id and w.user_id == user_id)]
        return before - len(self._waiting)

    async def expire_waiting(self, guild_id: int, before: float) -> int:
        gone = [w for w in self._waiting if w.guild_id == guild_id and w.since <= before]
        self._waiting = [w for w in self._waiting if w not in gone]
        return len(gone)

    async def waiting(self, guild_id: int, user_id: int | None = None, since: float = 0.0) -> list[Waiting]:
        return [w for w in self._waiting if w.guild_id == guild_id and w.since > since
                and (user_id is None or w.user_id == user_id)]

    async def take_group(self, guild_id: int, kind: str, players: int, pace: str | None, since: float,
                         now: float) -> Match | None:
        queue = (guild_id, kind, players, pace)
        here = sorted((w for w in self._waiting if w.queue == queue and w.since > since), key=lambda w: w.since)
        if len(here) < players:
            return None
        taken = tuple(here[:players])
        users = {w.user_id for w in taken}
        self._waiting = [w for w in self._waiting if not (w.guild_id == guild_id and w.user_id in users)]
        match = Match(len(self._matches) + 1, guild_id, taken[0].channel_id, kind, pace, taken, now)
        self._matches[match.id] = match
        return match

    async def set_match_game(self, match_id: int, game_id: int) -> int | None:
        m = self._matches.get(match_id)
        if m is None:
            return None
        if m.game_id is None:
            self._matches[match_id] = dataclasses.replace(m, game_id=game_id)
            return game_id
        return m.game_id

    async def set_match_opened(self, match_id: int) -> None:
        self._opened.add(match_id)

    async def unopened_matches(self) -> list[Match]:
        return [m for m in self._matches.values() if m.id not in self._opened]


def queue_store(store: Any) -> QueueStore:
    if hasattr(store, "take_group"):
        return store
    log.warning("this store has no queue tables: queues are kept in memory (one process, lost on restart)")
    return MemoryQueueStore()


class Matchmaking:
    def __init__(self, store: QueueStore, games: Store, sessions: SessionService, *,
                 clock: Callable[[], float] = time.time, opened: Callable[[int], Any] | None = None) -> None:
        self.store = store
        self.games = games
        self.sessions = sessions
        self.clock = clock
        self.opened = opened

    @staticmethod
    def table_size(kind: str, players: int | None) -> int:
        """The number of players asked for, within what the game allows (two by default)."""
        if kind not in engines.available():
            raise SessionError("tournament.error.game", game=str(kind)[:30])
        e = engines.get(kind)
        lo, hi = max(2, e.min_players), e.max_players
        if players is None:
            return lo
        if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
            raise SessionError("tournament.error.queue_players", min=lo, max=hi)
        return players

    async def search(self, player: Player, channel_id: int, kind: str, players: int | None = None,
                     pace: str | None = None) -> tuple[Waiting, Match | None, int]:
        """Wait in a queue; returns the entry, the match if this made one (its game opened), and how
        many wait in the queue now."""
        if player.guild_id is None:
            raise SessionError("community.error.guild_only")
        size = self.table_size(kind, players)
        check_pace(pace)
        now = self.clock()
        entry = Waiting(player.guild_id, channel_id, player.user_id, player.name, kind, size, pace, now,
                        player.locale)
        # a wait that ran out neither blocks this queue nor counts among the member's queues
        await self.store.expire_waiting(player.guild_id, now - TTL)
        got = await self.store.enqueue(entry, MAX_QUEUES)
        if got == "already":
            raise SessionError("tournament.error.queue_already")
        if got == "too_many":
            raise SessionError("tournament.error.queue_too_many", max=MAX_QUEUES)
        match = await self.store.take_group(player.guild_id, kind, size, pace, now - TTL, now)
        if match is not None:
            match = await self.open(match)
            return entry, match, 0
        count = sum(1 for w in await self.store.waiting(player.guild_id, since=now - TTL) if w.queue == entry.queue)
        return entry, None, count

    async def leave(self, player: Player) -> int:
        if player.guild_id is None:
            raise SessionError("community.error.guild_only")
        return await self.store.leave_queues(player.guild_id, player.user_id)

    async def open(self, match: Match) -> Match:
        """Open the match's game (resumable: see the module's doc)."""
        def seat(w: Waiting) -> Player:
            return Player(w.user_id, w.name, w.locale, guild_id=w.guild_id)

        first = seat(match.members[0])
        game_id = match.game_id
        if game_id is None:
            # a lobby an opener created for this match and died before recording it is taken up, not doubled
            found = [g for g in await self.games.games_in_channel(match.channel_id, (LOBBY,), match.kind)
                     if g.settings.get("queue_match") == match.id]
            lobby = found[0] if found else await self.sessions.open_lobby(
                match.kind, guild_id=match.guild_id, channel_id=match.channel_id, player=first, pace=match.pace,
                thread=None, queue_match=match.id)
            game_id = await self.store.set_match_game(match.id, lobby.id)
            if game_id != lobby.id:
                await self.sessions.cancel(lobby.id, dataclasses.replace(first, can_manage=True))
                return dataclasses.replace(match, game_id=game_id)
        game = await self.games.get_game(game_id)
        if game is not None and game.status == LOBBY:
            for w in match.members[1:]:  # (seated already by an opener that died before the start)
                if game.seat_of(w.user_id) is None:
                    try:
                        game = await self.sessions.join(game_id, seat(w))
                    except SessionError as err:
                        if err.key != "lobby.error.already_joined":
                            raise
            try:
                await self.sessions.start(game_id, first)
            except SessionError:
                # started meanwhile by another opener (the tick of another process): the database decided
                game = await self.games.get_game(game_id)
                if game is not None and game.status == LOBBY:
                    raise
            else:
                if self.opened is not None:
                    res = self.opened(game_id)
                    if asyncio.iscoroutine(res):
                        await res
        await self.store.set_match_opened(match.id)
        return dataclasses.replace(match, game_id=game_id)

    async def tick(self) -> int:
        """Open the games of matches a crash left unopened (taken :data:`GRACE` seconds ago at least: a
        match just taken is being opened by the call that took it, in this process or another)."""
        done = 0
        for m in await self.store.unopened_matches():
            if m.created_at > self.clock() - GRACE:
                continue
            try:
                await self.open(m)
                done += 1
            except Exception:
                log.exception("match %s could not be opened", m.id)
        return done

    # --- /defi ---------------------------------------------------------------------------------
    async def challenge(self, player: Player, channel_id: int, member_id: int, kind: str,
                        pace: str | None = None, thread: bool | None = None) -> GameRow:
        """A lobby of ``kind`` with ``player`` seated, that only ``member_id`` may join."""
        if member_id == player.user_id:
            raise SessionError("tournament.error.challenge_self")
        self.table_size(kind, None)
        return await self.sessions.open_lobby(kind, guild_id=player.guild_id, channel_id=channel_id, player=player,
                                              pace=pace, thread=thread, reserved_for=member_id)
