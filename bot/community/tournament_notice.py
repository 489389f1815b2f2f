"""What a tournament says on Discord: a round opened (who plays whom, who rests), the podium and
the standings card at the end. Posted in the tournament's channel, one message each (the games
themselves are published by the outbox, each in its own thread)."""

from __future__ import annotations

import asyncio
import io
import logging
import time
from typing import Any

import discord

from bot import i18n
from bot.cards import MAX_TEXT, Card, rgb
from bot.community import pairing as P
from bot.community.season_board import podium_text as podium_of_season
from bot.community.tournaments import EntryRow, TableRow, TournamentRow
from bot.language import server_lang
from bot.safe import allowed_mentions, escape
from bot.ui import jump_link
from render.common import HIGHLIGHT
from render.tournament import points_text, render_standings

log = logging.getLogger("ludibot.tournaments")

CARD_ROWS = 20  # the standings card shows the top of the table
MESSAGE_MAX = 2000
SEASON_LOOKBACK = 50  # messages looked at before posting a season's podium again
#: the tournament's colour on its cards (a round's pairings, the podium): the podium's gold
ACCENT = rgb(HIGHLIGHT)
#: seconds a round's card goes on completing its links (each game's first card, posted by the outbox
#: after the round opened): it is edited once they are all known, or when this time is up
LINK_WAIT, LINK_POLL = 120.0, 1.0


def card_args(t: TournamentRow, standings: list[P.Standing], names: dict[int, str], lg: str,
              highlight_user: int | None = None) -> tuple[str, str, dict[str, str], list[dict[str, Any]], int | None,
                                                          bool]:
    """The arguments of :func:`render.tournament.render_standings` for this tournament."""
    game = i18n.t(f"{t.kind}.name.title", lg)
    title = i18n.t("tournament.card.title", lg, id=t.id, game=game)
    subtitle = i18n.t("tournament.card.subtitle", lg, format=i18n.t(f"tournament.format.{t.format}", lg),
                      round=t.round, total=t.total or t.rounds, count=len(standings))
    labels = {k: i18n.t(f"tournament.card.{k}", lg) for k in ("rank", "player", "points", "games", "buchholz",
                                                               "sb", "rating", "empty")}
    half = i18n.t("tournament.card.half", lg)
    rows = [{"rank": s.rank, "player": names.get(s.id, str(s.id)), "points": points_text(s.points, half),
             "games": s.games, "buchholz": points_text(s.buchholz, half),
             "sb": points_text(s.sonneborn_berger, half), "rating": round(s.rating)} for s in standings[:CARD_ROWS]]
    mine = next((i for i, s in enumerate(standings[:CARD_ROWS]) if s.id == highlight_user), None)
    return title, subtitle, labels, rows, mine, t.format != P.ELIMINATION


def podium_text(t: TournamentRow, standings: list[P.Standing], lg: str) -> str:
    lines = [i18n.t("tournament.podium.head", lg, id=t.id, game=i18n.t(f"{t.kind}.name.title", lg))]
    for s in standings:
        if s.rank > 3:
            break
        lines.append(i18n.t("tournament.podium.line", lg, rank=s.rank, player=f"<@{s.id}>",
                            points=points_text(s.points, i18n.t("tournament.card.half", lg))))
    return "\n".join(lines)


def round_text(t: TournamentRow, number: int, tables: list[TableRow], byes: list[int], lg: str,
               links: dict[int, str] | None = None) -> str:
    """Who plays whom, each table with a link to its game (``links``: game id -> its jump link, the
    game's first card in its thread once posted), who rests."""
    lines = [i18n.t("tournament.round.head", lg, id=t.id, round=number, total=t.total, count=len(tables))]
    for x in tables:
        players = ", ".join(f"<@{p}>" for p in x.players)
        link = (links or {}).get(x.game_id or 0)
        lines.append(i18n.t("tournament.round.table_link" if link else "tournament.round.table", lg,
                            table=x.table + 1, players=players, game=x.game_id or 0, link=link or ""))
    if byes:
        lines.append(i18n.t("tournament.round.byes", lg, players=", ".join(f"<@{p}>" for p in byes), count=len(byes)))
    text = "\n".join(lines)
    if len(text) > MAX_TEXT:  # a big round: the head and where to look (/tournoi etat), every name pinged
        text = "\n".join(lines[:1] + [i18n.t("tournament.round.many", lg, id=t.id)])
    return text


def entry_names(entries: list[EntryRow], *, for_text: bool = True) -> dict[int, str]:
    """The entrants' names: escaped for a message, as they are for a picture (drawn, not parsed)."""
    return {e.user_id: str(escape(e.name)) if for_text else " ".join(e.name.split()) for e in entries}


class DiscordAnnouncer:
    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def _post(self, channel_id: int, content: str, file: discord.File | None = None) -> Any:
        """A card of the tournament (its colour; a picture in its gallery) in its channel; the message."""
        card = Card(text=content, accent=ACCENT, pictures=(file.filename,) if file is not None else ())
        try:
            return await self.bot.get_partial_messageable(channel_id).send(
                view=card.layout(), allowed_mentions=allowed_mentions(card.text),
                **({"file": file} if file is not None else {}))
        except discord.HTTPException:
            log.exception("could not post in channel %s", channel_id)
            return None

    async def links(self, tables: list[TableRow]) -> tuple[dict[int, str], bool]:
        """Each table's game -> a link to it: its first card, in its thread; a game whose first card is
        not posted yet links to its thread (or channel). And whether every link is a card's."""
        games = [g for g in [await self.bot.store.get_game(x.game_id) for x in tables if x.game_id is not None]
                 if g is not None]
        return {g.id: jump_link(g) for g in games}, all(g.control_message_id for g in games)

    async def _complete(self, message: Any, text_of: Any, tables: list[TableRow]) -> None:
        """The round's card, edited once every game's first card is posted (the outbox posts them after
        the round opened): each pairing then links to its game's message."""
        deadline = time.monotonic() + LINK_WAIT
        try:
            while time.monotonic() < deadline:
                await asyncio.sleep(LINK_POLL)
                links, complete = await self.links(tables)
                if complete:
                    break
            card = Card(text=text_of(links), accent=ACCENT)
            await message.edit(view=card.layout(), allowed_mentions=allowed_mentions(card.text))
        except Exception:  # the card keeps the links it has (threads)
            log.exception("could not complete the links of a round's card")

    async def season_podium(self, guild_id: int, channel_id: int, season, podiums, retry: bool = False) -> None:
        """The podium of a season that ended (bot.community.season_board, under the season end's lease). A
        failure Discord may get over raises (the season end is retried); a channel gone or closed to the bot
        is logged. ``retry``: an earlier attempt may have posted it already (a crash before its close): the
        channel's latest messages are looked at first."""
        lg = await server_lang(self.bot.store, guild_id)
        content = podium_of_season(season, podiums, lg)[:MESSAGE_MAX]
        channel = self.bot.get_partial_messageable(channel_id)
        head = content.split("\n", 1)[0]
        try:
            if retry:
                me = self.bot.user.id if self.bot.user is not None else None
                async for msg in channel.history(limit=SEASON_LOOKBACK):
                    if msg.author.id == me and msg.content.split("\n", 1)[0] == head:
                        log.info("season %s of server %s: podium already posted", season.label, guild_id)
                        return
            await channel.send(content=content, allowed_mentions=allowed_mentions(content))
        except (discord.Forbidden, discord.NotFound):
            log.warning("season %s of server %s: the season channel %s is closed to the bot or gone", season.label,
                        guild_id, channel_id)

    async def round_opened(self, t: TournamentRow, number: int, tables: list[TableRow], byes: list[int]) -> None:
        lg = await server_lang(self.bot.store, t.guild_id)
        links, complete = await self.links(tables)
        message = await self._post(t.channel_id, round_text(t, number, tables, byes, lg, links))
        if message is not None and not complete:
            asyncio.ensure_future(self._complete(message, lambda found: round_text(t, number, tables, byes, lg, found),
                                                 tables))

    async def finished(self, t: TournamentRow, standings: list[P.Standing]) -> None:
        lg = await server_lang(self.bot.store, t.guild_id)
        names = entry_names(await self.bot.tournaments.store.tournament_entries(t.id), for_text=False)
        args = card_args(t, standings, names, lg)
        image = await self.bot.render_pool.run(render_standings, *args)
        file = discord.File(io.BytesIO(image), filename=f"tournoi-{t.id}.png") if image else None
        await self._post(t.channel_id, podium_text(t, standings, lg), file)
