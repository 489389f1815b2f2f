"""What the scheduler says on Discord: reminders (channel + opted-in DMs), timeouts, forfeits."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from bot import i18n
from bot.language import server_lang
from bot.narrate import narrate
from bot.sessions import Outcome
from bot.storage import GameRow

log = logging.getLogger("ludibot.notifier")

NO_PINGS = discord.AllowedMentions.none()
USER_PINGS = discord.AllowedMentions(users=True, roles=False, everyone=False)


def jump_link(game: GameRow) -> str:
    """The game's latest public message (or its channel)."""
    where = f"{game.guild_id}/{game.channel_id}" if game.guild_id else f"@me/{game.channel_id}"
    tail = f"/{game.control_message_id}" if game.control_message_id else ""
    return f"https://discord.com/channels/{where}{tail}"


def timestamp(seconds: float) -> str:
    """A Discord timestamp ("3 hours ago"), shown in each reader's own language and time zone."""
    return f"<t:{int(seconds)}:R>"


class DiscordNotifier:
    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def _post(self, channel_id: int, content: str) -> None:
        try:
            await self.bot.get_partial_messageable(channel_id).send(content=content[:2000],
                                                                    allowed_mentions=USER_PINGS)
        except discord.HTTPException:
            log.exception("could not post in channel %s", channel_id)

    async def remind(self, game: GameRow, seats: list[int], since: float) -> None:
        lg = await server_lang(self.bot.store, game.guild_id)
        title = i18n.t(f"{game.kind}.name.title", lg)
        users = [game.seats[s].user_id for s in seats if game.seats[s].user_id is not None]
        if not users:
            return
        await self._post(game.channel_id, i18n.t("community.reminder.channel", lg,
                                                  players=", ".join(f"<@{u}>" for u in users), game=title,
                                                  id=game.id, since=timestamp(since), link=jump_link(game)))
        for seat in seats:
            s = game.seats[seat]
            if s.user_id is None or not (await self.bot.store.user_prefs(s.user_id)).get("dm_reminders"):
                continue
            guild = self.bot.get_guild(game.guild_id) if game.guild_id else None
            text = i18n.t("community.reminder.dm", s.locale, game=i18n.t(f"{game.kind}.name.title", s.locale),
                          id=game.id, server=guild.name if guild else "-", since=timestamp(since),
                          link=jump_link(game))
            try:
                channel = await self.bot.create_dm(discord.Object(s.user_id))
                await channel.send(content=text, allowed_mentions=NO_PINGS)
            except discord.HTTPException:
                log.info("could not DM a reminder to user %s (DMs closed?)", s.user_id)

    def hold(self, game: GameRow) -> Any:
        """The game cog's lock from a move to its publication (so messages come out in order)."""
        lock = getattr(self.bot.game_cogs.get(game.kind), "game_lock", None)
        return lock(game.id) if lock is not None else contextlib.nullcontext()

    async def timed_out(self, outcome: Outcome, seats: list[int], forfeit: int | None) -> None:
        game = outcome.game
        lg = await server_lang(self.bot.store, game.guild_id)
        names = game.names
        extra = [i18n.t("community.timeout.played", lg, player=names[s]) for s in seats if s != forfeit]
        if forfeit is not None:
            extra.append(i18n.t("community.timeout.forfeit", lg, player=names[forfeit]))
        cog = self.bot.game_cogs.get(game.kind)
        if cog is not None:
            await cog.publish(outcome, extra=extra)
            return
        # no cog loaded for this game: the plain story, still in the channel
        lines = narrate(game.kind, outcome.events, names, lg) + extra
        await self._post(game.channel_id, "\n".join(lines) or extra[0])
