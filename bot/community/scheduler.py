"""Reminders and timeouts, kept in the database.

When a seat becomes expected (the session service's ``on_change`` hook, with
``Outcome.newly_expected``), two deadlines are written for it: a reminder at
``now + reminder delay`` and a timeout at ``now + timeout delay`` (per server and per
game, see :mod:`bot.community.settings`). Their key is ``(game, seat, kind, version)``
where ``version`` is the game's version at that moment (the *epoch*). A deadline is
void once the game is over, the seat is no longer expected, or the seat acted after
that version (or a newer epoch was scheduled for it).

The loop polls the table (every ``poll`` seconds, no sleeping per deadline):

* a reminder is taken with a compare-and-swap ``pending -> done`` and only then sent:
  of two processes, one sends it; a crash right after loses it rather than repeating it;
* a timeout is leased (compare-and-swap), then the seat's default action is applied by
  ``SessionService.act_for(..., version=…, actor="timeout")`` (itself a compare-and-swap
  on the game's version), then marked done. A crash in between leaves it pending; once
  the lease runs out it is checked again, and since the seat has then acted, it is void:
  the default action is applied exactly once.
* the N-th consecutive timeout of a seat (``forfeit_after``, 0 = never) forfeits the game.

At start, a sweep schedules any expected seat that has no deadline for its epoch
(a change committed just before a crash) from the game's last change.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from bot import metrics
from bot.community.settings import TimerSettings, resolve
from bot.sessions import Outcome, SessionError, SessionService
from bot.storage import (
    CANCELLED,
    DONE,
    FAILED,
    FINISHED,
    REMINDER,
    RUNNING,
    TIMEOUT,
    VOID,
    Deadline,
    GameRow,
    Store,
)
from engines.base import RuleError

log = logging.getLogger("ludibot.scheduler")

MAX_ATTEMPTS = 3
#: firings of a paced catch-up running at once (across all channels' lanes)
IN_FLIGHT = 2


class Notifier(Protocol):
    async def remind(self, game: GameRow, seats: list[int], since: float) -> None: ...

    async def timed_out(self, outcome: Outcome, seats: list[int], forfeit: int | None) -> None: ...



class Pacer:
    """A bounded rate for firing deadlines, so that a catch-up after downtime never floods Discord:
    at most ``rate`` firings per second in all (Discord: 50 requests per second for the bot; a
    firing makes one or two: a reminder, or a timeout's post and the edit of the old controls) and
    at most ``per_channel`` firings per ``window`` seconds in one channel (Discord: 5 posts per 5 s).
    ``take`` waits for both; ``clock``/``sleep`` are injectable for tests."""

    def __init__(self, rate: float = 20.0, per_channel: int = 2, window: float = 5.0, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Any] = asyncio.sleep) -> None:
        if rate <= 0 or per_channel < 1 or window < 0:
            raise ValueError("a pace needs a positive rate and at least one firing per channel window")
        self.gap = 1.0 / rate
        self.per_channel, self.window = per_channel, window
        self.clock, self.sleep = clock, sleep
        self._next = -math.inf
        self._recent: dict[int | None, deque[float]] = {}

    @classmethod
    def parse(cls, rate: str | None, channel: str | None) -> Pacer:
        """From settings text: ``rate`` firings per second, ``channel`` as ``"2/5"`` (firings/seconds)."""
        per, window = (channel or "2/5").split("/", 1)
        return cls(float(rate or 20), int(per), float(window))

    def _wait(self, channel: int | None, now: float) -> float:
        recent = self._recent.get(channel)
        wait = self._next - now
        if recent is not None and len(recent) >= self.per_channel:
            wait = max(wait, recent[0] + self.window - now)
        return wait

    async def take(self, channel: int | None) -> None:
        """Wait for a slot (global and ``channel``'s), then count this firing in both."""
        while (wait := self._wait(channel, self.clock())) > 0:
            await self.sleep(wait)
        now = self.clock()
        self._next = now + self.gap
        recent = self._recent.setdefault(channel, deque(maxlen=self.per_channel))
        recent.append(now)
        if len(self._recent) > 10_000:  # forget channels quiet for a whole window
            self._recent = {c: r for c, r in self._recent.items() if r and r[-1] + self.window > now}


class Scheduler:
    def __init__(self, store: Store, sessions: SessionService, notifier: Notifier | None = None, *,
                 clock: Callable[[], float] = time.time, poll: float = 30.0, lease: float = 120.0,
                 batch: int = 100, shards: tuple[tuple[int, ...], int] | None = None,
                 pacer: Pacer | None = None, page: int = 1000) -> None:
        self.store = store
        #: the bounded rate of firing (None: as fast as the database answers, for tests); with one, a
        #: backlog is read ``page`` deadlines at a time and each channel fires in its own lane
        self.pacer = pacer
        self.page = page
        self._in_flight = asyncio.Semaphore(IN_FLIGHT)
        #: (shard ids, shard count) of this process: it fires only its servers' deadlines (None = all)
        self.shards = shards
        self.sessions = sessions
        self.notifier = notifier
        self.clock = clock
        self.poll = poll
        self.lease = lease
        self.batch = batch

    async def timers(self, guild_id: int | None, kind: str) -> TimerSettings:
        settings = await self.store.guild_settings(guild_id) if guild_id is not None else {}
        return resolve(settings, kind)

    # --- scheduling ------------------------------------------------------------------
    async def on_change(self, outcome: Outcome) -> None:
        game = outcome.game
        if game.status == RUNNING:
            expected = self.sessions.expected_seats(game)
            seats = sorted(s for s in outcome.newly_expected & expected if not game.seats[s].is_ai)
            if seats:
                await self.schedule(game, seats, self.clock())
        elif game.status in (FINISHED, CANCELLED):
            await self.store.void_game_deadlines(game.id, self.clock())

    async def schedule(self, game: GameRow, seats: list[int], since: float) -> None:
        t = await self.timers(game.guild_id, game.kind)
        entries: list[tuple[int, str, float]] = []
        for seat in seats:
            if t.reminder_s > 0:
                entries.append((seat, REMINDER, since + t.reminder_s))
            if t.timeout_s > 0:
                entries.append((seat, TIMEOUT, since + t.timeout_s))
        await self.store.schedule_deadlines(game.id, game.version, since, entries)

    async def sweep(self) -> int:
        """Schedule expected seats left without a deadline for their epoch (after a crash): one
        set-based query over the turn columns (refreshed first where stale), not a loop over every
        running game. A missed seat is scheduled from the game's last change, as before."""
        await self.sessions.refresh_turns()
        rows = await self.store.seats_without_deadline()
        by_game: dict[int, list[dict[str, Any]]] = {}
        for r in rows:
            by_game.setdefault(r["game_id"], []).append(r)
        added = 0
        for n, (game_id, seats) in enumerate(by_game.items()):
            try:  # one game that cannot be scheduled must not stop the others
                # only the games found (few: changes a crash cut off) are read, at the epoch found
                game = await self.store.get_game(game_id)
                if game is None or game.version != seats[0]["version"]:
                    continue  # it moved on meanwhile: that change scheduled its seats
                await self.schedule(game, [r["seat"] for r in seats], game.updated_at)
                added += len(seats)
            except Exception:
                log.exception("sweep of game %s failed", game_id)
            if n % 50 == 49:
                await asyncio.sleep(0)  # players' commands go first
        return added

    # --- firing ----------------------------------------------------------------------
    async def tick(self) -> int:
        """Fire what is due now; returns how many deadlines fired (reminders sent + timeouts applied).

        A backlog (a long stop) is read in pages, oldest first. With a :class:`Pacer`, each page's
        games are grouped by channel and every channel fires in its own lane, each firing waiting for
        its slot (the global rate, the channel's window): one busy channel delays only itself, and
        between firings the loop is free for players' commands."""
        now = self.clock()
        fired = 0
        size = self.batch if self.pacer is None else self.page
        for _ in range(100):  # a backlog after a long stop: keep going while full pages come
            due = await self.store.due_deadlines(now, size, shards=self.shards)
            if not due:
                break
            by_game: dict[int, list[Deadline]] = {}
            for d in due:
                by_game.setdefault(d.game_id, []).append(d)
                metrics.observe_scheduler_lag(now - d.due)
            if self.pacer is None:
                for game_id, items in by_game.items():
                    fired += await self._fire_safely(game_id, items, now)
            else:
                lanes: dict[int | None, list[tuple[int, list[Deadline]]]] = {}
                for game_id, items in by_game.items():
                    lanes.setdefault(items[0].channel_id, []).append((game_id, items))
                done = await asyncio.gather(*(self._lane(self.pacer, channel, games, now)
                                              for channel, games in lanes.items()))
                fired += sum(done)
            if len(due) < size:
                break
        return fired

    async def _lane(self, pacer: Pacer, channel: int | None, games: list[tuple[int, list[Deadline]]],
                    now: float) -> int:
        """One channel's due games, one after the other, each when the pace allows."""
        fired = 0
        for game_id, items in games:
            await pacer.take(channel)
            # few firings in flight at once, whatever the number of lanes: a player's command never
            # queues behind a crowd of them (at the database, on the loop); the pace has the margin for
            # the short wait between a granted slot and its firing
            async with self._in_flight:
                fired += await self._fire_safely(game_id, items, now)
            await asyncio.sleep(0)  # players' commands go first
        return fired

    async def _fire_safely(self, game_id: int, items: list[Deadline], now: float) -> int:
        try:
            return await self._fire_game(game_id, items, now)
        except Exception:
            log.exception("deadlines of game %s failed", game_id)
            return 0

    def _playable(self, kind: str) -> bool:
        """The game's engine is part of this deployment (else its deadlines are void, not retried)."""
        try:
            self.sessions.engine(kind)
        except (KeyError, ImportError):
            log.warning("no engine for %s: its deadlines are void", kind)
            return False
        return True

    async def _valid(self, game: GameRow, d: Deadline) -> bool:
        if game.status != RUNNING or d.seat >= len(game.seats) or game.seats[d.seat].is_ai:
            return False
        if d.seat not in self.sessions.expected_seats(game):
            return False
        last = await self.store.seat_actions(game.id, d.seat, 1)
        if last and last[0].version > d.version:
            return False
        latest = await self.store.latest_deadline_version(game.id, d.seat)
        return latest is None or latest <= d.version

    async def _fire_game(self, game_id: int, items: list[Deadline], now: float) -> int:
        game = await self.store.get_game(game_id)
        if game is not None:
            game = await self.sessions.readable(game)
        if game is None or game.status != RUNNING or game.broken or not self._playable(game.kind):
            for d in items:
                await self.store.close_deadline(d.key, VOID, now)
            return 0
        fired = 0
        timeouts = [d for d in items if d.kind == TIMEOUT]
        timing_out = {(d.seat, d.version) for d in timeouts}
        seats, since = [], now
        for d in (d for d in items if d.kind == REMINDER):
            # a reminder whose timeout is due too (a long stop) would only be noise
            if (d.seat, d.version) in timing_out or not await self._valid(game, d):
                await self.store.close_deadline(d.key, VOID, now)
            elif await self.store.close_deadline(d.key, DONE, now):
                seats.append(d.seat)
                since = min(since, d.since)
        if seats and self.notifier is not None:
            fired += len(seats)
            try:
                await self.notifier.remind(game, seats, since)
            except Exception:
                log.exception("reminder for game %s failed", game_id)
        elif seats:
            fired += len(seats)
        if timeouts:
            # no lock is held: the move is committed (compare-and-swap on the version), and its
            # public message comes from the outbox (bot.publisher), never blocking a click
            fired += await self._time_out(game, timeouts, now)
        return fired

    async def _time_out(self, game: GameRow, timeouts: list[Deadline], now: float) -> int:
        before = self.sessions.expected_seats(game)
        outcomes: list[Outcome] = []
        acted: list[int] = []
        forfeit: int | None = None
        for d in timeouts:
            game = await self.store.get_game(game.id) or game
            if not await self._valid(game, d):
                await self.store.close_deadline(d.key, VOID, now)
                continue
            if not await self.store.claim_deadline(d.key, now, self.lease):
                continue  # another process has it
            try:
                outcome, forfeited = await self._apply(game, d.seat)
            except SessionError as err:
                log.info("timeout of game %s seat %s refused (%s): retrying later", game.id, d.seat, err.key)
                await self.store.release_deadline(d.key)
                continue
            except Exception:
                log.exception("timeout of game %s seat %s failed", game.id, d.seat)
                if d.attempts + 1 >= MAX_ATTEMPTS:
                    await self.store.close_deadline(d.key, FAILED, now)
                else:
                    await self.store.release_deadline(d.key)
                continue
            await self.store.close_deadline(d.key, DONE, now)
            outcomes.append(outcome)
            acted.append(d.seat)
            if forfeited:
                forfeit = d.seat
                break
        if outcomes and self.notifier is not None:
            last = outcomes[-1]
            result = next((o.result for o in reversed(outcomes) if o.result is not None), None)
            after = self.sessions.expected_seats(last.game)
            merged = Outcome(game=last.game, events=[e for o in outcomes for e in o.events], result=result,
                             newly_expected=after - (before - set(acted)))
            try:
                await self.notifier.timed_out(merged, acted, forfeit)
            except Exception:
                log.exception("timeout notice for game %s failed", game.id)
        return len(outcomes)

    async def consecutive_timeouts(self, game_id: int, seat: int, limit: int) -> int:
        count = 0
        for row in await self.store.seat_actions(game_id, seat, limit):
            if row.action.get("_by") != "timeout":
                break
            count += 1
        return count

    async def _apply(self, game: GameRow, seat: int) -> tuple[Outcome, bool]:
        t = await self.timers(game.guild_id, game.kind)
        if t.forfeit_after > 0:
            prior = await self.consecutive_timeouts(game.id, seat, t.forfeit_after)
            if prior + 1 >= t.forfeit_after:
                return await self.sessions.forfeit(game.id, seat, reason="timeout", version=game.version), True
        engine = self.sessions.engine(game.kind)
        action = engine.default_action(engine.from_dict(game.state), seat)
        if not isinstance(action, dict):
            raise RuleError("common.error.internal")
        outcome = await self.sessions.act_for(game.id, seat, action, version=game.version, actor="timeout")
        return outcome, False

    # --- the loop --------------------------------------------------------------------
    async def run(self, stop: asyncio.Event, before: Callable[[], Any] | None = None) -> None:
        if before is not None:
            try:
                res = before()
                if asyncio.iscoroutine(res):
                    await res
            except Exception:
                log.exception("scheduler start-up sweep failed")
        while not stop.is_set():
            try:
                # a change committed without its turn columns (a path that did not say who is expected)
                # is caught up at the next poll: one indexed look when there is none
                await self.sessions.refresh_turns()
            except Exception:
                log.exception("turn columns refresh failed")
            try:
                await self.tick()
            except Exception:
                log.exception("scheduler tick failed")
            try:
                await asyncio.wait_for(stop.wait(), timeout=self.poll)
            except TimeoutError:
                pass
