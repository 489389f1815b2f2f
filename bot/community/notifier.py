"""What the scheduler says on Discord: reminders (channel + opted-in DMs), timeouts, forfeits."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot import i18n
from bot.cards import TABLE_ACCENT, Card, rgb
from bot.language import server_lang
from bot.narrate import narrate
from bot.safe import allowed_mentions, escape
from bot.sessions import Outcome
from bot.storage import GameRow
from bot.ui import jump_link  # noqa: F401 (also used by the community cogs)
from render.common import seat_colour

log = logging.getLogger("ludibot.notifier")

NO_PINGS = discord.AllowedMentions.none()


def timestamp(seconds: float) -> str:
    """A Discord timestamp ("3 hours ago"), shown in each reader's own language and time zone."""
    return f"<t:{int(seconds)}:R>"


class DiscordNotifier:
    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def _post(self, channel_id: int, content: str, accent: int = TABLE_ACCENT) -> None:
        """A card of the game in its channel (a reminder, a timeout told without its cog)."""
        card = Card(text=content, accent=accent)
        try:
            await self.bot.get_partial_messageable(channel_id).send(view=card.layout(),
                                                                    allowed_mentions=allowed_mentions(card.text))
        except discord.HTTPException:
            log.exception("could not post in channel %s", channel_id)

    async def remind(self, game: GameRow, seats: list[int], since: float) -> None:
        lg = await server_lang(self.bot.store, game.guild_id)
        title = i18n.t(f"{game.kind}.name.title", lg)
        users = [game.seats[s].user_id for s in seats if game.seats[s].user_id is not None]
        if not users:
            return
        await self._post(game.thread_id or game.channel_id, i18n.t("community.reminder.channel", lg,
                                                  players=", ".join(f"<@{u}>" for u in users), game=title,
                                                  id=game.id, since=timestamp(since), link=jump_link(game)),
                         accent=rgb(seat_colour(seats[0])))
        for seat in seats:
            s = game.seats[seat]
            if s.user_id is None or not (await self.bot.store.user_prefs(s.user_id)).get("dm_reminders"):
                continue
            guild = self.bot.get_guild(game.guild_id) if game.guild_id else None
            text = i18n.t("community.reminder.dm", s.locale, game=i18n.t(f"{game.kind}.name.title", s.locale),
                          id=game.id, server=escape(guild.name) if guild else "-", since=timestamp(since),
                          link=jump_link(game))
            try:
                channel = await self.bot.create_dm(discord.Object(s.user_id))
                await channel.send(content=text, allowed_mentions=NO_PINGS)
            except discord.HTTPException:
                log.info("could not DM a reminder to user %s (DMs closed?)", s.user_id)

    async def timed_out(self, outcome: Outcome, seats: list[int], forfeit: int | None) -> None:
        """The clock played (or forfeited): the outbox owes the channel this version, and the
        publisher tells it ("⌛ … n'a pas joué à temps" first) — no lock, no waiting here."""
        game = outcome.game
        publisher = getattr(self.bot, "publisher", None)
        if publisher is not None and game.kind in self.bot.game_cogs:
            publisher.wake(game.id, urgent=True)
            return
        lg = await server_lang(self.bot.store, game.guild_id)
        names = game.names
        shown = [escape(n) for n in names]
        extra = [i18n.t("community.timeout.played", lg, player=shown[s]) for s in seats if s != forfeit]
        if forfeit is not None:
            extra.append(i18n.t("community.timeout.forfeit", lg, player=shown[forfeit]))
        # no cog loaded for this game: the plain story, still in the channel
        lines = narrate(game.kind, outcome.events, names, lg) + extra
        await self._post(game.thread_id or game.channel_id, "\n".join(lines) or extra[0])
