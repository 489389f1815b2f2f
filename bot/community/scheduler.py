"""Reminders and timeouts, kept in the database.

When a seat becomes expected (the session service's ``on_change`` hook, with
``Outcome.newly_expected``), two deadlines are written for it: a reminder and a timeout at
``now + the seat's time bank`` (issue 15: the game's speed profile, :mod:`bot.pace`, on the
server's and the game's timers, :mod:`bot.community.settings`; the bank a seat keeps is stored
with each of its moves, and a player's vacation moves their deadlines). Their key is ``(game, seat, kind, version)``
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
* the N-th consecutive timeout of a seat (``forfeit_after``, 0 = never) forfeits the game;
* with at least two other human players, a timeout opens the others' vote instead
  (:mod:`bot.community.votes`), decided at its own ``vote`` deadline unless a majority came first.

At start, a sweep schedules any expected seat that has no deadline for its epoch
(a change committed just before a crash) from the game's last change.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from bot import metrics
from bot.community.settings import TimerSettings, resolve
from bot.community.votes import Votes
from bot.pace import DAY, VACATION_WINDOW, Profile, bank_after_move, check_vacation, profile, reminder_at
from bot.sessions import Outcome, SessionError, SessionService, ai_played, open_votes
from bot.storage import (
    CANCELLED,
    DONE,
    FAILED,
    FINISHED,
    PENDING,
    REMINDER,
    RUNNING,
    TIMEOUT,
    VOID,
    VOTE,
    Deadline,
    GameRow,
    Store,
)
from bot.takeback import Takebacks
from engines.base import RuleError

log = logging.getLogger("ludibot.scheduler")

MAX_ATTEMPTS = 3
#: firings of a paced catch-up running at once (across all channels' lanes)
IN_FLIGHT = 2


class Notifier(Protocol):
    async def remind(self, game: GameRow, seats: list[int], since: float) -> None: ...

    async def timed_out(self, outcome: Outcome, seats: list[int], forfeit: int | None) -> None: ...



def _paused_since(paused: str | None) -> float | None:
    """When a paused game stopped (``set_paused``'s ``since``), if it is paused."""
    if not paused:
        return None
    try:
        since = json.loads(paused).get("since")
    except (ValueError, TypeError, AttributeError):
        return None
    return float(since) if isinstance(since, int | float) and not isinstance(since, bool) else None


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
        #: a stalled player in a game of three humans or more: the others vote (bot.community.votes)
        self.votes = Votes(store, sessions)

    async def timers(self, guild_id: int | None, kind: str) -> TimerSettings:
        settings = await self.store.guild_settings(guild_id) if guild_id is not None else {}
        return resolve(settings, kind)

    # --- scheduling ------------------------------------------------------------------
    async def on_change(self, outcome: Outcome) -> None:
        game = outcome.game
        if game.status == RUNNING:
            if outcome.scheduled:  # written by the move's own transaction (``plan``)
                return
            expected = self.sessions.expected_seats(game)
            seats = sorted(s for s in outcome.newly_expected & expected if s not in ai_played(game))
            if seats:
                await self.schedule(game, seats, self.clock())
        elif game.status in (FINISHED, CANCELLED):
            await self.store.void_game_deadlines(game.id, self.clock())

    async def schedule(self, game: GameRow, seats: list[int], since: float) -> None:
        """The seats' reminder and timeout from ``since``: the timeout when their time bank runs out
        (``since + bank``), the clock starting only after a running vacation."""
        await self.store.schedule_deadlines(game.id, game.version, since, await self._entries(game, seats, since))

    async def plan(self, game: GameRow, seats: list[int],
                   banks: dict[int, float]) -> tuple[float, list[tuple[int, str, float]]]:
        """``(since, entries)``: what ``schedule`` would write for ``seats`` now, for a player's move to
        write in its own transaction (the session service's ``plan_deadlines``): one trip to the
        database instead of two, and no moment when the move is stored but its deadlines are not.
        ``banks``: a seat's bank as its move being committed keeps it (not stored yet)."""
        since = self.clock()
        return since, await self._entries(game, seats, since, banks)

    async def _entries(self, game: GameRow, seats: list[int], since: float,
                       banks: dict[int, float] | None = None) -> list[tuple[int, str, float]]:
        if not seats:
            return []
        p = await self.profile_of(game)
        away = await self.store.vacation_ends([game.seats[s].user_id for s in seats], self.clock())
        entries: list[tuple[int, str, float]] = []
        for seat in seats:
            start = max(since, away.get(game.seats[seat].user_id, since))
            if banks and seat in banks:  # as ``_stored`` will read it back once the move is stored
                bank = min(max(0.0, float(banks[seat])), p.bank_s)
            else:
                bank = await self.stored_bank(game, seat, p)
            remind = reminder_at(start, bank, p)
            if remind is not None:
                entries.append((seat, REMINDER, remind))
            if p.timed:
                entries.append((seat, TIMEOUT, start + bank))
        return entries

    # --- time banks (issue 15) -------------------------------------------------------
    async def profile_of(self, game: GameRow) -> Profile:
        """The game's clock: its ``rythme`` (else the server's default one) on the server's timers."""
        t = await self.timers(game.guild_id, game.kind)
        return profile(game.settings.get("pace") or t.pace, t.reminder_s, t.timeout_s)

    @staticmethod
    def _stored(rows: list[Any], p: Profile) -> float:
        """The bank kept with the seat's latest move (``_bank`` in its logged action), else the full one."""
        for row in rows:
            if "_bank" in row.action and row.action["_bank"] is None:
                return p.bank_s  # a takeback to before the seat's first timed move: the full bank (issue 26)
            bank = row.action.get("_bank")
            if isinstance(bank, int | float) and not isinstance(bank, bool):
                return min(max(0.0, float(bank)), p.bank_s)
        return p.bank_s

    async def stored_bank(self, game: GameRow, seat: int, p: Profile) -> float:
        return self._stored(await self.store.seat_actions(game.id, seat, 5), p)

    async def _running_bank(self, game: GameRow, seat: int, p: Profile, now: float,
                            away: float | None) -> tuple[float, bool]:
        """``(seconds left, running)``: a seat expected with a pending timeout has ``due - now`` left
        (its clock stopped until the end of a vacation), any other seat the bank of its last move."""
        if seat not in self.sessions.expected_seats(game):
            return self._stored(await self.store.seat_actions(game.id, seat, 5), p), False
        rows, deadlines = await self.store.seat_clock(game.id, seat, 5)  # one read (one round trip)
        stored = self._stored(rows, p)
        timeouts = [d for d in deadlines if d.seat == seat and d.kind == TIMEOUT]
        if not timeouts:
            return stored, False
        d = max(timeouts, key=lambda d: d.version)
        if rows and rows[0].version > d.version:  # an older epoch's: the seat has acted since
            return stored, False
        if d.state != PENDING:  # its time already ran out
            return 0.0, True
        stopped = _paused_since(game.paused)  # a paused game's clocks stand still (resuming moves them)
        ref = min(now, stopped) if stopped is not None else now
        return max(0.0, d.due - max(ref, away or ref)), True

    async def bank_after_move(self, game: GameRow, seat: int, turn_over: bool = True) -> float | None:
        """The bank ``seat`` keeps after the move it is making on ``game`` (the session service stores it
        with the move, in the same transaction: ``_bank``): what was left, plus the increment when the
        move ends its turn or the time had run out (capped); None when the game has no clock."""
        if not 0 <= seat < len(game.seats) or game.seats[seat].is_ai:
            return None
        p = await self.profile_of(game)
        if not p.timed:
            return None
        now = self.clock()
        user = game.seats[seat].user_id
        away = (await self.store.vacation_ends([user], now)).get(user) if user is not None else None
        left, running = await self._running_bank(game, seat, p, now, away)
        # a turn that goes on keeps what is left, unless it ran out (a timeout mid-turn: the next
        # default action comes after the increment, not at once)
        return round(bank_after_move(left, p) if running and (turn_over or left <= 0) else left, 3)

    async def clocks(self, game: GameRow, *, banks: bool = True) -> dict[int, tuple[float | None, float | None]]:
        """``seat -> (seconds left or None when the game has no clock, end of a running vacation or None)``
        for every human seat of a running game (``banks=False``: only the vacations, one query)."""
        if game.status != RUNNING:
            return {}
        now = self.clock()
        humans = [s for s in game.seats if not s.is_ai]
        away = await self.store.vacation_ends([s.user_id for s in humans], now)
        p = await self.profile_of(game) if banks else None
        out: dict[int, tuple[float | None, float | None]] = {}
        for s in humans:
            end = away.get(s.user_id)
            left = (await self._running_bank(game, s.seat, p, now, end))[0] if p is not None and p.timed else None
            out[s.seat] = (left, end)
        return out

    async def set_vacation(self, user_id: int, days: int) -> tuple[float, float]:
        """Start (``days`` > 0) or end (0) the player's vacation; refused beyond the yearly allowance.
        Returns ``(end, shift)``: when it ends and how far their deadlines moved."""
        now = self.clock()
        check_vacation(days, await self.store.vacations(user_id, now - VACATION_WINDOW), now)
        until = now + days * DAY
        shift = await self.store.set_vacation(user_id, now, until)
        return until, shift

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
                # a seat the others voted to let the bot play has no deadlines (issue 15)
                missing = [r["seat"] for r in seats if r["seat"] not in ai_played(game)]
                if missing:
                    await self.schedule(game, missing, game.updated_at)
                added += len(missing)
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
        if game.status != RUNNING or d.seat >= len(game.seats) or d.seat in ai_played(game):
            return False
        if str(d.seat) in open_votes(game):  # the others are deciding about this seat
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
        votes = [d for d in items if d.kind == VOTE]
        undo = [d for d in votes if Takebacks.owns(game, d)]  # a takeback request's expiry (issue 26)
        if undo:
            votes = [d for d in votes if d not in undo]
            expired = await Takebacks(self.store, self.sessions).fire(game, undo, now, self.lease)
            fired += len(expired)
            game = await self.store.get_game(game_id) or game
            if expired and self.notifier is not None:
                try:
                    await self.notifier.timed_out(expired[-1], [], None)
                except Exception:
                    log.exception("takeback notice for game %s failed", game_id)
        if votes:
            decided = await self.votes.fire(game, votes, now, self.lease)
            fired += len(decided)
            game = await self.store.get_game(game_id) or game
            if decided and self.notifier is not None:
                try:  # the decision is published from the outbox, like a timeout's move
                    await self.notifier.timed_out(decided[-1], [], None)
                except Exception:
                    log.exception("vote notice for game %s failed", game_id)
            if game.status != RUNNING:
                return fired
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
        # three human players or more: the others vote (wait / AI / remove) instead, for as long as
        # a turn of the game's pace (a live game does not wait two days; normal: the server's delay)
        p = await self.profile_of(game)
        opened = await self.votes.open(game, seat, self.clock(), p.bank_s if p.timed else t.timeout_s)
        if opened is not None:
            return opened, False
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
