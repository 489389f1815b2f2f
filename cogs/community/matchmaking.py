"""``/chercher`` (the server's queues) and ``/defi`` (a lobby only one member may join): thin, over
bot/community/matchmaking."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.cards import TABLE_ACCENT, Card
from bot.gamecog import PACE_CHOICES, player_of
from bot.threads import server_default
from bot.translator import L
from bot.ui import in_thread, jump_link, lang, public_lang, send
from cogs.community.common import game_choices, guild_of, one_game, title
from engines.base import RuleError

log = logging.getLogger("ludibot.matchmaking")


class MatchCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def mm(self):
        return self.bot.matchmaking  # type: ignore[attr-defined]

    @app_commands.command(name="chercher", description=L("tournament.cmd.chercher"))
    @app_commands.describe(jeu=L("tournament.cmd.jeu_chercher"), joueurs=L("tournament.cmd.joueurs"),
                           rythme=L("tournament.cmd.rythme_chercher"), quitter=L("tournament.cmd.quitter"))
    @app_commands.choices(rythme=PACE_CHOICES)
    @app_commands.guild_only()
    async def chercher(self, interaction: discord.Interaction, jeu: str | None = None,
                       joueurs: app_commands.Range[int, 2, 12] | None = None, rythme: str | None = None,
                       quitter: bool = False) -> None:
        guild_of(interaction)
        player = player_of(interaction)
        lg = lang(interaction)
        if quitter:
            left = await self.mm.leave(player)
            await send(interaction, i18n.t("tournament.queue.left", lg, count=left), ephemeral=True)
            return
        if jeu is None:
            raise RuleError("tournament.error.queue_game")
        kind = one_game(jeu)
        entry, match, count = await self.mm.search(player, interaction.channel_id, kind, joueurs, rythme)
        if match is None:  # a card: the game, who is awaited, and how to leave the queue
            await send(interaction, card=Card(text=i18n.t("tournament.queue.waiting", lg, game=title(kind, lg),
                                                          players=entry.players, count=count), accent=TABLE_ACCENT),
                       ephemeral=True)
            return
        plg = await public_lang(interaction)
        game = await self.bot.store.get_game(match.game_id)  # type: ignore[attr-defined]
        await send(interaction, card=Card(text=i18n.t(
            "tournament.queue.found", plg, game=title(kind, plg), id=match.game_id,
            players=", ".join(f"<@{w.user_id}>" for w in match.members),
            link=jump_link(game) if game is not None else "-"), accent=TABLE_ACCENT))

    @chercher.autocomplete("jeu")
    async def _chercher_jeu(self, interaction: discord.Interaction, current: str):
        return game_choices(interaction, current)

    @app_commands.command(name="defi", description=L("tournament.cmd.defi"))
    @app_commands.describe(membre=L("tournament.cmd.membre_defi"), jeu=L("tournament.cmd.jeu_defi"),
                           rythme=L("tournament.cmd.rythme_chercher"))
    @app_commands.choices(rythme=PACE_CHOICES)
    @app_commands.guild_only()
    async def defi(self, interaction: discord.Interaction, membre: discord.Member, jeu: str,
                   rythme: str | None = None) -> None:
        guild = guild_of(interaction)
        kind = one_game(jeu)
        if membre.bot:
            raise RuleError("tournament.error.challenge_bot")
        cog = self.bot.game_cogs.get(kind)  # type: ignore[attr-defined]
        if cog is None:
            raise RuleError("tournament.error.game", game=kind)
        thread = False if in_thread(interaction) else server_default(
            await self.bot.store.guild_settings(guild))  # type: ignore[attr-defined]
        cog.require_permissions(interaction, thread=thread)
        player = player_of(interaction)
        game = await self.mm.challenge(player, interaction.channel_id, membre.id, kind, rythme, thread)
        lg = await public_lang(interaction)
        head = i18n.t("tournament.challenge.head", lg, member=f"<@{membre.id}>", creator=f"<@{player.user_id}>",
                      game=title(kind, lg))
        msg_id = await send(interaction, card=await cog.lobby_card(game, lg, note=head))  # the game's lobby card
        if msg_id:
            await self.bot.store.set_message_ids(game.id, lobby=msg_id)  # type: ignore[attr-defined]
            await self.bot.store.mark_published(game.id, game.version, None)  # type: ignore[attr-defined]
            game.lobby_message_id = msg_id
        try:  # a DM when the member allows them (a refusal is no error: the channel already says it)
            dm = await membre.create_dm()
            await dm.send(i18n.t("tournament.challenge.dm", lg, creator=player.name and f"<@{player.user_id}>",
                                 game=title(kind, lg), id=game.id, link=jump_link(game, msg_id)),
                          allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("challenge %s: no DM to member %s (closed?)", game.id, membre.id)

    @defi.autocomplete("jeu")
    async def _defi_jeu(self, interaction: discord.Interaction, current: str):
        return game_choices(interaction, current)
