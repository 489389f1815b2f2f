"""``/ludibot config`` (Manage Server) and ``/ludibot preferences`` (each member)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot import i18n
from bot.community import settings as timers
from bot.language import language_of, languages
from bot.translator import L
from bot.ui import lang, send
from cogs.community.common import game_choices, guild_of, title
from engines.base import RuleError


def _hours(value: float, lg: str, zero_key: str) -> str:
    if value <= 0:
        return i18n.t(zero_key, lg)
    return i18n.t("community.config.hours", lg, value=float(value))


class LudibotCog(commands.GroupCog, group_name="ludibot", group_description=L("community.cmd.ludibot")):
    def __init__(self, bot: commands.Bot) -> None:
        super().__init__()
        self.bot = bot
        self.store = bot.store  # type: ignore[attr-defined]

    def describe(self, settings: dict, lg: str, only: str | None = None) -> list[str]:
        own = settings.get("timers") or {}
        kinds = engines.available() if only in (None, timers.ALL) else [only]
        lines = [i18n.t("community.config.language", lg,
                        language=i18n.t(f"community.language.{language_of(settings)}", lg)),
                 i18n.t("community.config.head", lg)]
        for kind in kinds:
            t = timers.resolve(settings, kind)
            forfeit = (i18n.t("community.config.forfeit_after", lg, value=t.forfeit_after) if t.forfeit_after
                       else i18n.t("community.config.never", lg))
            lines.append(i18n.t("community.config.line", lg, game=title(kind, lg),
                                reminder=_hours(t.reminder_h, lg, "community.config.off"),
                                timeout=_hours(t.timeout_h, lg, "community.config.never"), forfeit=forfeit,
                                own=i18n.t("community.config.own", lg) if own.get(kind) else ""))
        return lines

    @app_commands.command(name="config", description=L("community.cmd.config"))
    @app_commands.describe(langue=L("community.cmd.langue"), jeu=L("community.cmd.jeu_config"),
                           rappel=L("community.cmd.rappel"), delai=L("community.cmd.delai"),
                           forfait=L("community.cmd.forfait"), reinitialiser=L("community.cmd.reinitialiser"))
    @app_commands.choices(langue=[app_commands.Choice(name=L("community.language.fr"), value="fr"),
                                  app_commands.Choice(name=L("community.language.en"), value="en")])
    @app_commands.guild_only()
    async def config(self, interaction: discord.Interaction, langue: str | None = None, jeu: str | None = None,
                     rappel: float | None = None, delai: float | None = None, forfait: int | None = None,
                     reinitialiser: bool = False) -> None:
        guild = guild_of(interaction)
        perms = getattr(interaction, "permissions", None)
        if not (perms and perms.manage_guild):  # checked here, whatever the command's visibility
            raise RuleError("community.error.manage_only")
        lg = lang(interaction)
        current = await self.store.guild_settings(guild)
        change_timers = rappel is not None or delai is not None or forfait is not None or reinitialiser
        if langue is None and not change_timers:
            scope = timers.game_kind(jeu)
            await send(interaction, "\n".join(self.describe(current, lg, scope)), ephemeral=True)
            return
        new, scope = dict(current), timers.game_kind(jeu)
        if change_timers:
            new, scope = timers.change(new, jeu, reminder_h=rappel, timeout_h=delai, forfeit_after=forfait,
                                       reset=reinitialiser)
        if langue is not None:
            new = timers.set_language(new, langue)
        await self.store.set_guild_settings(guild, new)
        languages(self.store).remember(guild, language_of(new))
        lines = []
        if langue is not None:
            lines.append(i18n.t("community.config.language_saved", lg,
                                language=i18n.t(f"community.language.{language_of(new)}", lg)))
        if change_timers:
            name = i18n.t("community.config.scope_all", lg) if scope == timers.ALL else title(scope, lg)
            lines += [i18n.t("community.config.saved", lg, scope=name), *self.describe(new, lg, scope)[1:],
                      i18n.t("community.config.note", lg)]
        await send(interaction, "\n".join(lines), ephemeral=True)

    @config.autocomplete("jeu")
    async def _config_jeu(self, interaction: discord.Interaction, current: str):
        return game_choices(interaction, current, with_all=True)

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
