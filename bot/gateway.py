"""The gateway side of the process: intents, shards, identify pacing, and fatal closes explained.

* Intents: slash commands and components arrive as interactions, which need no intent;
  ``guilds`` keeps the guild and channel cache (channel types, threads, the bot's own
  permissions). Nothing else: no messages, typing, reactions, voice, members, presences.
* Shards: ``LUDIBOT_SHARD_COUNT`` / ``LUDIBOT_SHARD_IDS`` (see :mod:`bot.config`). A server
  belongs to shard ``(guild_id >> 22) % shard_count``; DMs are on shard 0.
* Identify: Discord allows ``max_concurrency`` IDENTIFYs per 5 seconds, in buckets
  ``shard_id % max_concurrency``. discord.py 2.x does not read ``max_concurrency``: its
  ``before_identify_hook`` waits 5 s before every IDENTIFY but the first (as if it were 1).
  :class:`IdentifyGate` paces each bucket instead (the first IDENTIFY of each bucket goes at
  once, the next one 5 s after the bucket's previous one). A process running some of the shards
  books the buckets in the database (``Store.reserve_slot``), shared by every process.
* Fatal closes (4004, 4010–4014) end the process with a translated message and status 2.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import discord

#: Discord's gateway close codes after which reconnecting cannot help (catalog key under config.gateway)
FATAL_CLOSES: dict[int, str] = {
    4004: "auth_failed",
    4010: "invalid_shard",
    4011: "sharding_required",
    4012: "invalid_api_version",
    4013: "invalid_intents",
    4014: "disallowed_intents",
}

#: exit status of a fatal start-up problem (bad settings, token, intents, shards)
EXIT_FATAL = 2

IDENTIFY_WINDOW = 5.0  # seconds, per rate-limit bucket


def intents() -> discord.Intents:
    """Only what the bot uses: the guilds (cache of servers, channels, threads and roles)."""
    return discord.Intents(guilds=True)


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """Discord's formula; a DM (no guild) is on shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def fatal_message(exc: BaseException) -> tuple[str, dict[str, object]] | None:
    """The catalog key (and parameters) explaining why the bot stopped, or None if not a known fatal end."""
    if isinstance(exc, discord.LoginFailure):
        return "config.bad_token", {}
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return "config.gateway.disallowed_intents", {"code": 4014, "shard": exc.shard_id}
    if isinstance(exc, discord.ConnectionClosed):
        name = FATAL_CLOSES.get(exc.code)
        if name is None:
            return "config.gateway.closed", {"code": exc.code, "reason": exc.reason or "-", "shard": exc.shard_id}
        return f"config.gateway.{name}", {"code": exc.code, "shard": exc.shard_id}
    return None


class IdentifyGate:
    """Paces IDENTIFYs by Discord's rate-limit buckets (``shard_id % max_concurrency``)."""

    def __init__(self, max_concurrency: int = 1, *, clock: Callable[[], float] = time.monotonic,
                 window: float = IDENTIFY_WINDOW) -> None:
        self.max_concurrency = max(1, int(max_concurrency))
        self.clock = clock
        self.window = window
        self._next: dict[int, float] = {}  # bucket -> earliest time of its next IDENTIFY

    def bucket(self, shard_id: int | None) -> int:
        return (shard_id or 0) % self.max_concurrency

    def reserve(self, shard_id: int | None) -> float:
        """Book the next IDENTIFY slot of the shard's bucket; returns how long to wait for it."""
        b = self.bucket(shard_id)
        now = self.clock()
        at = max(now, self._next.get(b, now))
        self._next[b] = at + self.window
        return at - now

    async def wait(self, shard_id: int | None) -> float:
        delay = self.reserve(shard_id)
        if delay > 0:
            await asyncio.sleep(delay)
        return delay
