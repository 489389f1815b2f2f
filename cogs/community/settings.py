"""``/ludibot config``, ``casse`` and ``export`` (Manage Server), ``/ludibot preferences`` (each member)."""

from __future__ import annotations

import io
import json
import time

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot import i18n, takeback
from bot.community import seasons
from bot.community import settings as timers
from bot.gamecog import PACE_CHOICES
from bot.language import language_of, languages
from bot.safe import escape
from bot.sessions import Player
from bot.threads import SETTING as THREAD_SETTING
from bot.threads import server_default
from bot.translator import L
from bot.ui import lang, send, send_card
from cogs.community.common import game_choices, guild_of, title
from engines.base import RuleError

SEASON_CHOICES = [app_commands.Choice(name=L(f"tournament.season.{p}"), value=p) for p in seasons.PERIODS]


def _hours(value: float, lg: str, zero_key: str) -> str:
    if value <= 0:
        return i18n.t(zero_key, lg)
    return i18n.t("community.config.hours", lg, value=float(value))


class LudibotCog(commands.GroupCog, group_name="ludibot", group_description=L("community.cmd.ludibot")):
    def __init__(self, bot: commands.Bot) -> None:
        super().__init__()
        self.bot = bot
        self.store = bot.store  # type: ignore[attr-defined]
        self.sessions = bot.sessions  # type: ignore[attr-defined]

    @staticmethod
    def _managing(interaction: discord.Interaction) -> int:
        """The server, if the user may manage it (checked here, whatever the command's visibility)."""
        guild = guild_of(interaction)
        perms = getattr(interaction, "permissions", None)
        if not (perms and perms.manage_guild):
            raise RuleError("community.error.manage_only")
        return guild

    def describe(self, settings: dict, lg: str, only: str | None = None) -> list[str]:
        """The server's settings: its language, threads, then the timers — the server's default once,
        in full, and per game only what differs from it (issue 36: no long text repeated on every line);
        the games that follow the default, named together."""
        own = settings.get("timers") or {}
        kinds = engines.available() if only in (None, timers.ALL) else [only]
        base = timers.resolve(settings, timers.ALL)
        lines = [i18n.t("community.config.language", lg,
                        language=i18n.t(f"community.language.{language_of(settings)}", lg)),
                 i18n.t("community.config.thread", lg, value="on" if server_default(settings) else "off"),
                 i18n.t("community.config.head", lg),
                 i18n.t("community.config.defaults", lg, **self._parts(base, lg))]
        same: list[str] = []
        for kind in kinds:
            t = timers.resolve(settings, kind)
            parts = self._parts(t, lg)
            differs = [i18n.t(f"community.config.part_{name}", lg, value=parts[name])
                       for name, mine, default in (("reminder", t.reminder_h, base.reminder_h),
                                                   ("timeout", t.timeout_h, base.timeout_h),
                                                   ("forfeit", t.forfeit_after, base.forfeit_after),
                                                   ("pace", t.pace, base.pace)) if mine != default]
            mark = i18n.t("community.config.own", lg) if own.get(kind) else ""
            if differs:
                lines.append(i18n.t("community.config.line", lg, game=title(kind, lg), changes=", ".join(differs),
                                    own=mark))
            elif mark:
                lines.append(i18n.t("community.config.same_own", lg, game=title(kind, lg), own=mark))
            else:
                same.append(title(kind, lg))
        if same:
            lines.append(i18n.t("community.config.same", lg, games=", ".join(same), count=len(same)))
        return lines

    @staticmethod
    def _parts(t: timers.TimerSettings, lg: str) -> dict[str, str]:
        forfeit = (i18n.t("community.config.forfeit_after", lg, value=t.forfeit_after) if t.forfeit_after
                   else i18n.t("community.config.never", lg))
        return {"reminder": _hours(t.reminder_h, lg, "community.config.off"),
                "timeout": _hours(t.timeout_h, lg, "community.config.never"), "forfeit": forfeit,
                "pace": i18n.t(f"common.pace.{t.pace}", lg)}

    @app_commands.command(name="config", description=L("community.cmd.config"))
    @app_commands.describe(langue=L("community.cmd.langue"), jeu=L("community.cmd.jeu_config"),
                           rappel=L("community.cmd.rappel"), delai=L("community.cmd.delai"),
                           forfait=L("community.cmd.forfait"), reinitialiser=L("community.cmd.reinitialiser"),
                           fil=L("community.cmd.fil"), rythme=L("community.cmd.rythme_config"),
                           reprises=L("undo.cmd.reprises"), reprises_max=L("undo.cmd.reprises_max"),
                           organisateur=L("tournament.cmd.organisateur"), saison=L("tournament.cmd.saison_config"))
    @app_commands.choices(langue=[app_commands.Choice(name=L("community.language.fr"), value="fr"),
                                  app_commands.Choice(name=L("community.language.en"), value="en")],
                          rythme=PACE_CHOICES, saison=SEASON_CHOICES)
    @app_commands.guild_only()
    async def config(self, interaction: discord.Interaction, langue: str | None = None, jeu: str | None = None,
                     rappel: float | None = None, delai: float | None = None, forfait: int | None = None,
                     reinitialiser: bool = False, fil: bool | None = None, rythme: str | None = None,
                     reprises: bool | None = None,
                     reprises_max: app_commands.Range[int, 0, takeback.MAX_LIMIT] | None = None,
                     organisateur: discord.Role | None = None, saison: str | None = None) -> None:
        guild = self._managing(interaction)
        lg = lang(interaction)
        current = await self.store.guild_settings(guild)
        change_timers = (rappel is not None or delai is not None or forfait is not None or reinitialiser
                         or rythme is not None)
        change_undo = reprises is not None or reprises_max is not None  # takebacks (issue 26)
        community = organisateur is not None or saison is not None  # tournaments and seasons (issue 28)
        if langue is None and fil is None and not change_timers and not change_undo and not community:
            scope = timers.game_kind(jeu)
            await send_card(interaction, "\n".join([*self.describe(current, lg, scope),
                                                    takeback.describe_limits(current, lg),
                                                    *seasons.describe_lines(current, lg)]), ephemeral=True)
            return
        new, scope = dict(current), timers.game_kind(jeu)
        if change_timers:
            new, scope = timers.change(new, jeu, reminder_h=rappel, timeout_h=delai, forfeit_after=forfait,
                                       reset=reinitialiser, pace=rythme)
        if langue is not None:
            new = timers.set_language(new, langue)
        if fil is not None:
            new[THREAD_SETTING] = bool(fil)
        if change_undo:
            new = takeback.change_limits(new, reprises, reprises_max)
        if community:
            new = seasons.configure(new, role=organisateur.id if organisateur is not None else None, season=saison,
                                    channel=interaction.channel_id)
        await self.store.set_guild_settings(guild, new)
        languages(self.store).remember(guild, language_of(new))
        if saison is not None:  # the podium of the season under way is posted when it ends
            await self.bot.seasons.schedule(guild)  # type: ignore[attr-defined]
        lines = []
        if langue is not None:
            lines.append(i18n.t("community.config.language_saved", lg,
                                language=i18n.t(f"community.language.{language_of(new)}", lg)))
        if fil is not None:
            lines.append(i18n.t("community.config.thread_saved", lg, value="on" if fil else "off"))
        if change_undo:
            lines.append(takeback.describe_limits(new, lg))
        if community:
            lines += seasons.saved_lines(new, lg, role=organisateur is not None, season=saison is not None)
        if change_timers:
            name = i18n.t("community.config.scope_all", lg) if scope == timers.ALL else title(scope, lg)
            lines += [i18n.t("community.config.saved", lg, scope=name), *self.describe(new, lg, scope)[2:],
                      i18n.t("community.config.note", lg)]
        await send_card(interaction, "\n".join(lines), ephemeral=True)

    @config.autocomplete("jeu")
    async def _config_jeu(self, interaction: discord.Interaction, current: str):
        return game_choices(interaction, current, with_all=True)

    # --- games that cannot be read --------------------------------------------------------
    @app_commands.command(name="casse", description=L("community.cmd.casse"))
    @app_commands.describe(annuler=L("community.cmd.annuler"))
    @app_commands.guild_only()
    async def casse(self, interaction: discord.Interaction, annuler: int | None = None) -> None:
        """List this server's games set aside because their state cannot be read; cancel one."""
        guild = self._managing(interaction)
        lg = lang(interaction)
        if annuler is not None:
            game = await self.sessions.get_in(annuler, guild, broken_ok=True)
            if not game.broken:
                raise RuleError("community.error.not_broken", game=game.id)
            user = interaction.user
            game = await self.sessions.cancel(game.id, Player(user_id=user.id, name=user.name, locale=lg,
                                                              can_manage=True, guild_id=guild))
            await send(interaction, i18n.t("community.broken.cancelled", lg, id=game.id), ephemeral=True)
            return
        games = await self.store.broken_games(guild)
        if not games:
            await send(interaction, i18n.t("community.broken.none", lg), ephemeral=True)
            return
        lines = [i18n.t("community.broken.head", lg, count=len(games))]
        for g in games[:20]:
            game = title(g.kind, lg) if i18n.has(f"{g.kind}.name.title") else escape(g.kind, limit=30)
            lines.append(i18n.t("community.broken.line", lg, id=g.id, game=game, channel=f"<#{g.channel_id}>",
                                reason=escape(g.broken, limit=120)))
        lines.append(i18n.t("community.broken.how", lg))
        await send(interaction, "\n".join(lines)[:2000], ephemeral=True)

    # --- export ----------------------------------------------------------------------------
    @app_commands.command(name="export", description=L("community.cmd.export"))
    @app_commands.guild_only()
    async def export(self, interaction: discord.Interaction) -> None:
        """This server's finished games, results and ratings as a JSON file (only to the admin)."""
        guild = self._managing(interaction)
        doc = await self.store.export_guild(guild)
        doc = {"format": "ludibot-export", "version": 1, "exported_at": time.time(), **doc}
        data = json.dumps(doc, ensure_ascii=False, indent=1).encode()
        await send(interaction, i18n.t("community.export.ready", lang(interaction), games=len(doc["games"]),
                                       ratings=len(doc["ratings"])), ephemeral=True,
                   file=discord.File(io.BytesIO(data), filename=f"ludibot-export-{guild}.json"))

    @app_commands.command(name="vacances", description=L("community.cmd.vacances"))
    @app_commands.describe(jours=L("community.cmd.jours"))
    async def vacances(self, interaction: discord.Interaction, jours: app_commands.Range[int, 0, 365]) -> None:
        """Stop (``jours`` > 0) or restart (0) the caller's clocks in every game (docs/playing-over-days.md)."""
        lg = lang(interaction)
        scheduler = self.bot.community.scheduler  # type: ignore[attr-defined]
        until, shift = await scheduler.set_vacation(interaction.user.id, int(jours))
        if jours > 0:
            text = i18n.t("community.vacation.started", lg, until=f"<t:{int(until)}:D>",
                          relative=f"<t:{int(until)}:R>")
        else:
            text = i18n.t("community.vacation.ended" if shift else "community.vacation.none", lg)
        await send(interaction, text, ephemeral=True)

    @app_commands.command(name="preferences", description=L("community.cmd.preferences"))
    @app_commands.describe(rappels_mp=L("community.cmd.rappels_mp"))
    async def preferences(self, interaction: discord.Interaction, rappels_mp: bool | None = None) -> None:
        lg = lang(interaction)
        prefs = await self.store.user_prefs(interaction.user.id)
        if rappels_mp is None:
            key = "community.prefs.show_on" if prefs.get("dm_reminders") else "community.prefs.show_off"
            await send(interaction, i18n.t(key, lg), ephemeral=True)
            return
        await self.store.set_user_prefs(interaction.user.id, {**prefs, "dm_reminders": bool(rappels_mp)})
        await send(interaction, i18n.t("community.prefs.on" if rappels_mp else "community.prefs.off", lg),
                   ephemeral=True)
