"""Playing over days (issue 9), once for every game: reminders and timeouts, ratings, history.

:class:`Community` plugs into the session service's ``on_change`` hook (schedule the
newly expected seats, rate a finished game) and runs the scheduler's polling loop.
See docs/playing-over-days.md.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable

from bot.community import ratings
from bot.community.daily import DailyChallenges
from bot.community.matchmaking import Matchmaking
from bot.community.scheduler import Notifier, Pacer, Scheduler
from bot.community.season_board import SeasonBoard
from bot.community.tournaments import TournamentService
from bot.sessions import Outcome, SessionService
from bot.storage import FINISHED, Store

log = logging.getLogger("ludibot.community")

POLL_ENV = "LUDIBOT_SCHEDULER_POLL"  # seconds between two looks at the deadlines (default 30)
#: the catch-up's pace (bot.community.scheduler.Pacer): firings per second in all (default 20), and
#: firings per channel per seconds (default "2/5"), under Discord's 50 requests/s and 5 posts/5 s
RATE_ENV, CHANNEL_ENV = "LUDIBOT_CATCHUP_RATE", "LUDIBOT_CATCHUP_CHANNEL"


def process_shards(settings) -> tuple[tuple[int, ...], int] | None:
    """The deadline filter of a process running some of the shards (None when it runs them all)."""
    ids, count = getattr(settings, "shard_ids", None), getattr(settings, "shard_count", None)
    if ids is None or count is None or set(ids) >= set(range(count)):
        return None
    return tuple(ids), count


class Community:
    def __init__(self, store: Store, sessions: SessionService, notifier: Notifier | None = None, *,
                 clock: Callable[[], float] = time.time, poll: float = 30.0,
                 shards: tuple[tuple[int, ...], int] | None = None, pacer: Pacer | None = None) -> None:
        self.store = store
        self.sessions = sessions
        self.scheduler = Scheduler(store, sessions, notifier, clock=clock, poll=poll, shards=shards, pacer=pacer)
        self._stop = asyncio.Event()
        self._task: asyncio.Task | None = None
        #: tournaments (issue 28): told of every change, moved on at every poll (set by the bot)
        self.tournaments: TournamentService | None = None
        self.matchmaking: Matchmaking | None = None
        #: seasons: each season's end a claimed deadline of its server, fired at every poll (set by the bot)
        self.seasons: SeasonBoard | None = None
        #: the daily challenge (issue 37): told of every change (a challenge's end posts its share card)
        self.daily: DailyChallenges | None = None
        self._tour_task: asyncio.Task | None = None
        self._check: asyncio.Task | None = None
        sessions.on_change = self.on_change
        sessions.clock_bank = self.scheduler.bank_after_move
        sessions.plan_deadlines = self.scheduler.plan

    @classmethod
    def for_bot(cls, bot) -> Community:
        from bot.community.notifier import DiscordNotifier

        try:
            poll = float(os.environ.get(POLL_ENV) or 30)
        except ValueError:
            poll = 30.0
        try:
            pacer = Pacer.parse(os.environ.get(RATE_ENV), os.environ.get(CHANNEL_ENV))
        except ValueError:
            log.warning("%s / %s not understood: the default pace", RATE_ENV, CHANNEL_ENV)
            pacer = Pacer()
        return cls(bot.store, bot.sessions, DiscordNotifier(bot), poll=max(0.05, poll), clock=bot.clock,
                   shards=process_shards(getattr(bot, "settings", None)), pacer=pacer)

    async def on_change(self, outcome: Outcome) -> None:
        await self.scheduler.on_change(outcome)
        if outcome.game.status == FINISHED:
            try:
                await ratings.rate(self.store, outcome.game.id)
            except Exception:
                log.exception("could not rate game %s", outcome.game.id)
        if self.daily is not None and outcome.game.status == FINISHED:
            try:
                await self.daily.on_change(outcome)
            except Exception:
                log.exception("daily challenge game %s: its end", outcome.game.id)
        if self.tournaments is not None:
            # after the rating: a tournament's next round pairs on the results just stored; in the
            # background: the move is answered without waiting for the next round's games to open
            self.tournaments.on_change_soon(outcome)
        if self.seasons is not None and outcome.game.status == FINISHED and outcome.game.guild_id is not None:
            try:  # catch-up: the season end of a server set up before season ends were deadlines (once a process)
                await self.seasons.schedule(outcome.game.guild_id)
            except Exception:
                log.exception("season end of server %s not scheduled", outcome.game.guild_id)

    async def _tournament_loop(self) -> None:
        """Every poll: move on the tournaments of this process's servers (a restart, a lost lease, a
        cancelled game, which has no hook), open matches a crash left, post the podiums of seasons that
        ended."""
        while not self._stop.is_set():
            for part in (self.tournaments, self.matchmaking, self.seasons):
                if part is not None:
                    try:
                        await part.tick()
                    except Exception:
                        log.exception("%s tick failed", type(part).__name__)
            try:
                await asyncio.wait_for(self._stop.wait(), timeout=self.scheduler.poll)
            except TimeoutError:
                pass

    async def catch_up(self) -> None:
        """After a restart: rate finished games left unrated, schedule seats left without deadlines."""
        await ratings.rate_pending(self.store)
        await self.scheduler.sweep()

    def start(self) -> None:
        if self._task is None:
            self._stop.clear()
            self._task = asyncio.create_task(self.scheduler.run(self._stop, before=self.catch_up))
            self._check = asyncio.create_task(self._check_running())
            self._tour_task = asyncio.create_task(self._tournament_loop())

    async def _check_running(self) -> None:
        """After start, in the background: running games whose state no longer loads are set aside
        (for the admins' list), without holding up the sweep or anyone's command."""
        try:
            found = await self.sessions.check_running()
        except Exception:
            log.exception("the check of running games failed")
            return
        if found:
            log.warning("%s running game(s) found unreadable after start (each logged above)", found)

    async def stop(self) -> None:
        if self._check is not None and not self._check.done():
            self._check.cancel()
            await asyncio.gather(self._check, return_exceptions=True)
        self._check = None
        self._stop.set()
        if self._tour_task is not None:
            await asyncio.gather(self._tour_task, return_exceptions=True)
            self._tour_task = None
        if self._task is not None:
            try:
                await asyncio.wait_for(self._task, timeout=10)
            except (TimeoutError, asyncio.CancelledError):
                self._task.cancel()
            self._task = None
