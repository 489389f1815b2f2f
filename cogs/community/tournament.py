"""``/tournoi creer | inscrire | desinscrire | lancer | etat | annuler``: thin, over bot/community/tournaments."""

from __future__ import annotations

import io
import logging
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.community import pairing as P
from bot.community.seasons import ROLE_SETTING
from bot.community.tournament_notice import card_args, entry_names
from bot.community.tournaments import OPEN, STARTED, TournamentRow
from bot.gamecog import PACE_CHOICES, player_of
from bot.safe import escape
from bot.translator import L
from bot.ui import lang, public_lang, refuse, send
from cogs.community.common import game_choices, guild_of, one_game, title
from engines.base import RuleError
from render.tournament import render_standings

log = logging.getLogger("ludibot.tournament")

FORMAT_CHOICES = [app_commands.Choice(name=L(f"tournament.format.{f}"), value=f) for f in P.FORMATS]


def tournament_label(t: TournamentRow, lg: str) -> str:
    return i18n.t("tournament.text.label", lg, id=t.id, game=title(t.kind, lg),
                  format=i18n.t(f"tournament.format.{t.format}", lg), status=i18n.t(f"tournament.status.{t.status}", lg))


# --- the sign-up buttons on a tournament's card (persistent: the custom id carries everything) ----------
class TournamentControl(discord.ui.DynamicItem[discord.ui.Button],
                        template=r"ludibot-tournoi:(?P<guild>[0-9]{1,20}):(?P<tournament>[0-9]{1,18})"
                                 r":(?P<verb>join|leave)"):
    """« S'inscrire » and « Se désinscrire » under a tournament's card: ``/tournoi inscrire`` and
    ``/tournoi desinscrire`` for that tournament, in the server it was created in."""

    def __init__(self, item: discord.ui.Item) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str], /) -> TournamentControl:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        cog = interaction.client.get_cog("TournamentCog")  # type: ignore[attr-defined]
        if cog is None:
            await refuse(interaction, "common.error.forged_button")
            return
        await cog.on_control(interaction)


CONTROL = re.compile(TournamentControl.__discord_ui_compiled_template__.pattern)  # type: ignore[attr-defined]


def control_id(guild_id: int, tournament_id: int, verb: str) -> str:
    return f"ludibot-tournoi:{guild_id}:{tournament_id}:{verb}"


def signup_view(t: TournamentRow, lg: str) -> discord.ui.View:
    """The card's buttons: sign up, sign off (inert here: the clicks go to :class:`TournamentControl`)."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=i18n.t("tournament.button.join", lg), emoji="✍️",
                                    style=discord.ButtonStyle.primary, custom_id=control_id(t.guild_id, t.id, "join")))
    view.add_item(discord.ui.Button(label=i18n.t("tournament.button.leave", lg),
                                    style=discord.ButtonStyle.secondary,
                                    custom_id=control_id(t.guild_id, t.id, "leave")))
    view.stop()
    return view


class TournamentCog(commands.GroupCog, group_name="tournoi", group_description=L("tournament.cmd.tournoi")):
    def __init__(self, bot: commands.Bot) -> None:
        super().__init__()
        self.bot = bot
        self.store = bot.store  # type: ignore[attr-defined]

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TournamentControl)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(TournamentControl)

    @property
    def service(self):
        return self.bot.tournaments  # type: ignore[attr-defined]

    async def _organiser(self, interaction: discord.Interaction) -> None:
        """Manage Server, or the organisers' role set with ``/ludibot config``."""
        guild = guild_of(interaction)
        perms = getattr(interaction, "permissions", None)
        if perms is not None and perms.manage_guild:
            return
        role = (await self.store.guild_settings(guild)).get(ROLE_SETTING)
        roles = {r.id for r in getattr(interaction.user, "roles", [])}
        if role is None or int(role) not in roles:
            raise RuleError("tournament.error.organiser_only")

    async def _which(self, interaction: discord.Interaction, tournoi: int | None,
                     statuses: tuple[str, ...] = (OPEN, STARTED)) -> TournamentRow:
        """The tournament named, else the only one of this channel in those statuses."""
        guild = guild_of(interaction)
        if tournoi is not None:
            return await self.service.get_in(tournoi, guild)
        here = [t for t in await self.service.store.tournaments_in(guild, statuses)
                if t.channel_id == interaction.channel_id]
        if len(here) == 1:
            return here[0]
        if not here:
            raise RuleError("tournament.error.none_here")
        lg = lang(interaction)
        raise RuleError("tournament.error.ambiguous", list=", ".join(f"#{t.id}" for t in here[:10]),
                        example=here[0].id, label=tournament_label(here[0], lg))

    # --- /tournoi creer ----------------------------------------------------------------
    @app_commands.command(name="creer", description=L("tournament.cmd.creer"))
    @app_commands.describe(jeu=L("tournament.cmd.jeu"), format=L("tournament.cmd.format"),
                           rondes=L("tournament.cmd.rondes"), rythme=L("tournament.cmd.rythme"),
                           places=L("tournament.cmd.places"), fiabilite=L("tournament.cmd.fiabilite"),
                           joueurs=L("tournament.cmd.joueurs_table"))
    @app_commands.choices(format=FORMAT_CHOICES, rythme=PACE_CHOICES)
    @app_commands.guild_only()
    async def creer(self, interaction: discord.Interaction, jeu: str, format: str = P.SWISS,
                    rondes: app_commands.Range[int, 1, 30] = 3, rythme: str | None = None,
                    places: app_commands.Range[int, 2, 1024] = 16,
                    fiabilite: app_commands.Range[int, 0, 100] = 0,
                    joueurs: app_commands.Range[int, 2, 12] | None = None) -> None:
        await self._organiser(interaction)
        kind = one_game(jeu)
        player = player_of(interaction)
        t = await self.service.create(guild_id=guild_of(interaction), channel_id=interaction.channel_id,
                                      creator=player, kind=kind, fmt=format, rounds=rondes, places=places,
                                      pace=rythme, reliability=fiabilite, table=joueurs)
        lg = await public_lang(interaction)
        await send(interaction, i18n.t("tournament.text.created", lg, id=t.id, game=title(kind, lg),
                                       format=i18n.t(f"tournament.format.{t.format}", lg), rounds=t.rounds,
                                       places=t.places, reliability=t.reliability,
                                       organiser=f"<@{player.user_id}>"), view=signup_view(t, lg))

    @creer.autocomplete("jeu")
    async def _creer_jeu(self, interaction: discord.Interaction, current: str):
        return game_choices(interaction, current)

    # --- /tournoi inscrire, desinscrire ----------------------------------------------------
    @app_commands.command(name="inscrire", description=L("tournament.cmd.inscrire"))
    @app_commands.describe(tournoi=L("tournament.cmd.tournoi_id"))
    @app_commands.guild_only()
    async def inscrire(self, interaction: discord.Interaction, tournoi: int | None = None) -> None:
        t = await self._which(interaction, tournoi, (OPEN,))
        await self._register(interaction, t)

    async def _register(self, interaction: discord.Interaction, t: TournamentRow) -> None:
        entry = await self.service.register(t.id, player_of(interaction))
        count = len(await self.service.store.tournament_entries(t.id))
        lg = await public_lang(interaction)
        await send(interaction, i18n.t("tournament.text.entered", lg, player=escape(entry.name), id=t.id,
                                       count=count, places=t.places, rating=round(entry.rating)))

    async def on_control(self, interaction: discord.Interaction) -> None:
        """A click on a tournament card's button: the same checks and answers as the commands (the
        tournament looked up in the clicking member's server only)."""
        m = CONTROL.fullmatch(str((interaction.data or {}).get("custom_id", "")))
        try:
            if m is None or interaction.guild_id is None or int(m["guild"]) != interaction.guild_id:
                raise RuleError("common.error.forged_button")
            t = await self.service.get_in(int(m["tournament"]), interaction.guild_id)
            if m["verb"] == "join":
                await self._register(interaction, t)
            else:
                how = await self.service.unregister(t.id, player_of(interaction))
                await send(interaction, i18n.t(f"tournament.text.{how}", lang(interaction), id=t.id), ephemeral=True)
        except RuleError as err:
            await refuse(interaction, err)
        except discord.NotFound:
            log.warning("a tournament click expired before its answer")

    @app_commands.command(name="desinscrire", description=L("tournament.cmd.desinscrire"))
    @app_commands.describe(tournoi=L("tournament.cmd.tournoi_id"))
    @app_commands.guild_only()
    async def desinscrire(self, interaction: discord.Interaction, tournoi: int | None = None) -> None:
        t = await self._which(interaction, tournoi)
        how = await self.service.unregister(t.id, player_of(interaction))
        await send(interaction, i18n.t(f"tournament.text.{how}", lang(interaction), id=t.id), ephemeral=True)

    # --- /tournoi lancer, annuler --------------------------------------------------------------
    @app_commands.command(name="lancer", description=L("tournament.cmd.lancer"))
    @app_commands.describe(tournoi=L("tournament.cmd.tournoi_id"))
    @app_commands.guild_only()
    async def lancer(self, interaction: discord.Interaction, tournoi: int | None = None) -> None:
        t = await self._which(interaction, tournoi, (OPEN,))
        t = await self.service.launch(t.id, player_of(interaction), open_round=False)
        lg = await public_lang(interaction)
        await send(interaction, i18n.t("tournament.text.launched", lg, id=t.id, total=t.total,
                                       count=len(t.seeds)))
        # opening a round takes a while (one game per table): after the answer, inside Discord's 3 s
        self.service.advance_soon(t.id)

    @app_commands.command(name="annuler", description=L("tournament.cmd.annuler"))
    @app_commands.describe(tournoi=L("tournament.cmd.tournoi_id"))
    @app_commands.guild_only()
    async def annuler(self, interaction: discord.Interaction, tournoi: int | None = None) -> None:
        t = await self._which(interaction, tournoi)
        t = await self.service.cancel(t.id, player_of(interaction))
        await send(interaction, i18n.t("tournament.text.cancelled", await public_lang(interaction), id=t.id))

    # --- /tournoi etat -----------------------------------------------------------------------
    @app_commands.command(name="etat", description=L("tournament.cmd.etat"))
    @app_commands.describe(tournoi=L("tournament.cmd.tournoi_id"))
    @app_commands.guild_only()
    async def etat(self, interaction: discord.Interaction, tournoi: int | None = None) -> None:
        t = await self._which(interaction, tournoi)
        snap = await self.service.snapshot(t.id, guild_of(interaction))
        lg = await public_lang(interaction)
        names = entry_names(snap.entries)
        head = [tournament_label(t, lg)]
        if t.status == OPEN:
            head.append(i18n.t("tournament.state.open", lg, count=len(snap.entries), places=t.places,
                               players=", ".join(names[e.user_id] for e in snap.entries[:50])))
            await send(interaction, "\n".join(head))
            return
        running = sum(1 for x in snap.tables if not x.ended)
        head.append(i18n.t("tournament.state.round", lg, round=t.round, total=t.total, running=running,
                           count=len(snap.tables)))
        image = await self.bot.render_pool.run(  # type: ignore[attr-defined]
            render_standings, *card_args(t, snap.standings, entry_names(snap.entries, for_text=False), lg,
                                         interaction.user.id))
        file = discord.File(io.BytesIO(image), filename=f"tournoi-{t.id}.png") if image else None
        await send(interaction, "\n".join(head), file=file)

    @inscrire.autocomplete("tournoi")
    @desinscrire.autocomplete("tournoi")
    @lancer.autocomplete("tournoi")
    @annuler.autocomplete("tournoi")
    @etat.autocomplete("tournoi")
    async def _tournoi(self, interaction: discord.Interaction, current: str):
        if interaction.guild_id is None:
            return []
        lg = lang(interaction)
        rows = await self.service.store.tournaments_in(interaction.guild_id, (OPEN, STARTED))
        wanted = current.strip().lstrip("#")
        return [app_commands.Choice(name=tournament_label(t, lg)[:100], value=t.id)
                for t in sorted(rows, key=lambda t: -t.id) if not wanted or wanted in str(t.id)][:25]
