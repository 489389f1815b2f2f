"""Publication from the database: every committed version reaches its channel.

What a channel shows is a *view* of committed state. Each game row carries
``published_version``, the newest version whose public message exists (the outbox: a
version above it is owed to the channel). Two paths publish:

* **the interaction** that made the move answers with the public message (interaction
  responses are not subject to the channel's rate limit nor to the bot's channel
  permissions), then marks the version published (:meth:`GameCog.publish`);
* **this publisher** repairs everything else — a crash between the commit and the answer,
  an answer Discord refused, and the moves that have no interaction (timeouts, forfeits):
  it tells the unpublished part of the game's log, with the table and the controls of the
  newest version, in a channel post.

Rules it keeps:

* no lock is held across an HTTP call: it composes, posts, and only then compare-and-sets
  ``published_version``; if a newer version was published meanwhile (a player's click was
  answered while its post waited on a rate limit), it takes the controls off its own,
  now outdated, post — the newest controls are always the newest version's;
* it never removes the previous controls before the new message exists;
* a game whose interaction is being answered right now (its in-process game lock is held,
  or its last change is younger than ``grace``) is left to that interaction;
* each channel is served by its own task, so one rate-limited channel delays only itself;
  discord.py waits out 429s (``retry_after``); 5xx and network errors back off
  exponentially per game;
* a channel that refuses (403: a permission the bot lost, a locked thread; 404: a deleted
  channel) *pauses* the game (no retry loop, no timeouts against its players), tells the
  creator once by DM; the game resumes when a player interacts there with the permissions
  back, or when the channel or a role of its server changes (one new try each time);
* it catches up at start-up and after a gateway RESUME.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Callable
from typing import Any

import discord

from bot import emojis, i18n
from bot.safe import escape
from bot.sessions import Outcome
from bot.storage import CANCELLED, FINISHED, LOBBY, RUNNING, EventRow, GameRow
from engines.base import Result

log = logging.getLogger("ludibot.publisher")

POLL_ENV = "LUDIBOT_PUBLISH_POLL"

#: Discord's JSON error codes that mean "this channel refuses the bot" (not worth retrying)
MISSING_ACCESS, MISSING_PERMISSIONS, UNKNOWN_CHANNEL, ARCHIVED_THREAD, THREAD_LOCKED = (
    50001, 50013, 10003, 50083, 160005)
REFUSALS = {MISSING_ACCESS: "missing_access", MISSING_PERMISSIONS: "missing_permissions",
            UNKNOWN_CHANNEL: "unknown_channel", ARCHIVED_THREAD: "thread_locked", THREAD_LOCKED: "thread_locked"}


def pause_reason(error: discord.HTTPException) -> str | None:
    """The pause reason for a refusal by Discord, or None for an error worth retrying."""
    if error.code in REFUSALS:
        return REFUSALS[error.code]
    if isinstance(error, discord.Forbidden):
        return "missing_permissions"
    if isinstance(error, discord.NotFound):
        return "unknown_channel"
    return None


def encode_pause(reason: str, since: float) -> str:
    return json.dumps({"reason": reason, "since": since})


def decode_pause(value: str | None) -> dict[str, Any] | None:
    if not value:
        return None
    try:
        data = json.loads(value)
    except ValueError:
        return {"reason": value, "since": None}
    return data if isinstance(data, dict) else {"reason": str(data), "since": None}


def replay_outcome(game: GameRow, rows: list[EventRow], result: Result | None,
                   expected: set[int]) -> Outcome:
    """What a repair post tells: the events of the unpublished versions, the result if the game
    is over, and the players now expected (all of them: the post is a fresh turn notice)."""
    # nothing of this game was ever shown (a crash right after its start): tell the start too
    events: list[dict[str, Any]] = [{"type": "started"}] if game.control_message_id is None else []
    for row in rows:
        events.extend(row.events)
    return Outcome(game=game, events=events, result=result, newly_expected=set(expected))


def timeout_lines(game: GameRow, rows: list[EventRow], lang: str) -> list[str]:
    """The clock's moves among ``rows``: who did not play in time, who forfeits."""
    lines = []
    for row in rows:
        by = row.action.get("_by")
        if by != "timeout" or row.seat is None or not 0 <= row.seat < len(game.seats):
            continue
        name = escape(game.seats[row.seat].name)
        key = "community.timeout.forfeit" if row.action.get("type") == "forfeit" else "community.timeout.played"
        lines.append(i18n.t(key, lang, player=name))
    return lines


class Publisher:
    """One per process. ``wake()`` after a commit that no interaction will publish."""

    def __init__(self, bot: Any, *, poll: float = 10.0, grace: float = 4.0, batch: int = 50,
                 clock: Callable[[], float] = time.time, max_channels: int = 20) -> None:
        self.bot = bot
        self.store = bot.store
        self.poll = poll
        self.grace = grace
        self.batch = batch
        self.clock = clock
        self._wake = asyncio.Event()
        self._urgent: set[int] = set()  # games whose interaction answer failed: no grace
        self._retry_at: dict[int, float] = {}
        self._retrying: dict[int, str] = {}  # resumed games on their first new try (their old pause)
        self._failures: dict[int, int] = {}
        self._channels: dict[int, asyncio.Task] = {}
        #: games being published right now, by this publisher or by an interaction's follow-up that
        #: runs after the game's lock (:meth:`hold`): never published twice at once (issue 36)
        self._held: dict[int, int] = {}
        self._slots = asyncio.Semaphore(max_channels)
        self._task: asyncio.Task | None = None
        self._stop = asyncio.Event()
        #: for tests and metrics: posts made, refusals, retries
        self.stats = {"posted": 0, "paused": 0, "retries": 0, "superseded": 0}

    @classmethod
    def for_bot(cls, bot: Any) -> Publisher:
        """``LUDIBOT_PUBLISH_POLL``: seconds between two looks at the outbox when nothing wakes it."""
        try:
            poll = float(os.environ.get(POLL_ENV) or 10)
        except ValueError:
            poll = 10.0
        return cls(bot, poll=max(0.05, poll), clock=getattr(bot, "clock", time.time))

    # --- lifecycle -------------------------------------------------------------------
    def start(self) -> None:
        if self._task is None:
            self._stop.clear()
            self._task = asyncio.create_task(self._run(), name="ludibot-publisher")

    async def catch_up(self, timeout: float = 20.0) -> int:
        """At start-up, before the scheduler fires any deadline: publish now every game of this
        process that the outbox owes (a crash left it unpublished). No interaction can be answering
        one yet (the gateway is not connected), so no grace; waits for the channels' tasks, at most
        ``timeout`` seconds. The number of games owed."""
        owed = [g for g in await self.store.unpublished_games(self.batch) if self._mine(g)]
        self._urgent.update(g.id for g in owed)
        await self.sweep()
        tasks = [t for t in self._channels.values() if not t.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)
        return len(owed)

    async def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        tasks = [t for t in (self._task, *self._channels.values()) if t is not None]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._task = None
        self._channels.clear()

    def wake(self, game_id: int | None = None, *, urgent: bool = False) -> None:
        """Look at the outbox now (``urgent``: this game's interaction could not publish it)."""
        if game_id is not None and urgent:
            self._urgent.add(game_id)
            self._retry_at.pop(game_id, None)
        self._wake.set()

    async def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            try:
                await self.sweep()
            except Exception:
                log.exception("publication sweep failed")
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=self.poll)
            except TimeoutError:
                pass
            await asyncio.sleep(0.05)  # gather the wakes of a burst into one sweep

    def hold(self, game_id: int) -> None:
        """The caller publishes this game now, without its lock (a thread's result after the move's
        answer): left alone until :meth:`release`."""
        self._held[game_id] = self._held.get(game_id, 0) + 1

    def release(self, game_id: int) -> None:
        n = self._held.pop(game_id, 0) - 1
        if n > 0:
            self._held[game_id] = n
        self._wake.set()  # (a version committed meanwhile is owed)

    # --- one look at the outbox --------------------------------------------------------
    def _mine(self, game: GameRow) -> bool:
        """This process serves the game's server (its shard), or the game is in DMs (shard 0)."""
        owns = getattr(self.bot, "owns_guild", None)
        return owns(game.guild_id) if owns is not None else True

    async def sweep(self) -> int:
        """Hand every game that owes its channel a message to that channel's task."""
        now = self.clock()
        games = await self.store.unpublished_games(self.batch)
        backlog = 0
        for game in games:
            if not self._mine(game):
                continue
            backlog += 1
            if self._retry_at.get(game.id, 0) > now:
                continue
            urgent = game.id in self._urgent
            if not urgent and now - game.updated_at < self.grace:
                self._wake_later(self.grace)
                continue
            cog = self.bot.game_cogs.get(game.kind)
            if cog is None:
                continue
            if cog.game_lock(game.id).locked() or game.id in self._held:
                self._wake_later(0.5)  # an interaction is answering it right now, or it is being published
                continue
            channel = game.thread_id or game.channel_id
            task = self._channels.get(channel)
            if task is None or task.done():
                self._channels[channel] = asyncio.create_task(self._serve_channel(channel),
                                                              name=f"ludibot-publish-{channel}")
        metrics = getattr(self.bot, "metrics", None)
        if metrics is not None:
            metrics.publication_backlog(backlog)
        return backlog

    def _wake_later(self, delay: float) -> None:
        loop = asyncio.get_running_loop()
        loop.call_later(delay, self._wake.set)

    async def _serve_channel(self, channel_id: int) -> None:
        """Publish, in order, every due game of one channel (re-read each time from the database)."""
        async with self._slots:
            for _ in range(1000):
                games = [g for g in await self.store.unpublished_games(self.batch)
                         if (g.thread_id or g.channel_id) == channel_id and self._ready(g)]
                if not games:
                    return
                for game in games:
                    await self.publish_game(game)

    def _ready(self, game: GameRow) -> bool:
        now = self.clock()
        if self._retry_at.get(game.id, 0) > now:
            return False
        if game.id not in self._urgent and now - game.updated_at < self.grace:
            return False
        cog = self.bot.game_cogs.get(game.kind)
        return cog is not None and not cog.game_lock(game.id).locked() and game.id not in self._held

    async def publish_game(self, game: GameRow) -> int | None:
        """Post the game's newest version (telling what its channel has not seen). Not twice at once:
        a game whose thread was recorded meanwhile is served by its thread's task too."""
        cog = self.bot.game_cogs.get(game.kind)
        if cog is None or game.id in self._held:
            return None
        self._urgent.discard(game.id)
        self.hold(game.id)
        try:
            fresh = await self.store.get_game(game.id)  # (published by another task since it was read?)
            if fresh is None or not fresh.due:
                return None
            return await self._publish_game(cog, fresh)
        finally:
            self.release(game.id)

    async def _publish_game(self, cog: Any, game: GameRow) -> int | None:
        try:
            if game.status in (LOBBY, CANCELLED):  # the lobby's card, a cancelled game's controls
                msg_id = await cog.publish_lobby(game)
            else:
                msg_id = await self._publish_turn(cog, game)
        except discord.HTTPException as err:
            emojis.refused(err)  # an emoji deleted meanwhile: the retry goes out with texts
            reason = pause_reason(err)
            if reason is not None:
                await self.pause(game, reason)
            else:
                self._back_off(game.id, err)
            return None
        except (TimeoutError, OSError) as err:
            self._back_off(game.id, err)
            return None
        self._failures.pop(game.id, None)
        self._retry_at.pop(game.id, None)
        self._retrying.pop(game.id, None)
        self.stats["posted"] += 1
        return msg_id

    async def _publish_turn(self, cog: Any, game: GameRow) -> int | None:
        """A running or finished game: what its channel has not seen, with the newest table."""
        rows = await self.store.events_after(game.id, game.published_version)
        result = None
        if game.status == FINISHED:
            results = sorted(await self.store.results(game.id), key=lambda r: r.seat)
            if results:
                result = Result(scores=[r.score for r in results], ranks=[r.rank for r in results], details={})
        lg = await cog.public_lang_of(game)
        expected = cog.sessions.expected_seats(game) if game.status == RUNNING else set()
        outcome = replay_outcome(game, rows, result, expected)
        await cog.refresh_started_lobby(game)  # never shown: its lobby card still has its buttons
        return await cog.publish(outcome, None, first=timeout_lines(game, rows, lg), lang=lg)

    def _back_off(self, game_id: int, err: BaseException) -> None:
        n = self._failures.get(game_id, 0) + 1
        self._failures[game_id] = n
        delay = min(300.0, 2.0 ** n)
        self._retry_at[game_id] = self.clock() + delay
        self.stats["retries"] += 1
        metrics = getattr(self.bot, "metrics", None)
        if metrics is not None:
            metrics.publication_retry()
        log.warning("publication of game %s failed (%s): retry in %.0f s", game_id, err, delay)
        self._wake_later(delay)

    # --- pausing -------------------------------------------------------------------------
    async def pause(self, game: GameRow, reason: str) -> None:
        """The channel refuses the bot: stop publishing and stop the clocks; tell the creator once."""
        if game.paused:
            return
        await self.store.set_paused(game.id, encode_pause(reason, self.clock()), self.clock())
        self.stats["paused"] += 1
        log.warning("game %s paused: channel %s refuses the bot (%s)", game.id, game.channel_id, reason)
        if self._retrying.pop(game.id, None) is not None:
            return  # a new try after a pause, refused again: the creator knows already
        cog = self.bot.game_cogs.get(game.kind)
        if cog is not None:
            await cog.tell_creator_paused(game, reason)

    async def resume(self, game: GameRow) -> None:
        """Permissions are back (or may be): publish again, restart the clocks where they stopped."""
        if not game.paused:
            return
        await self.store.set_paused(game.id, None, self.clock())
        self._retrying[game.id] = game.paused
        log.info("game %s resumed", game.id)
        self.wake(game.id, urgent=True)

    async def resume_guild(self, guild_id: int) -> int:
        """A channel or a role of this server changed: give its paused games one new try."""
        games = await self.store.paused_games(guild_id)
        for game in games:
            await self.resume(game)
        return len(games)
