"""Small helpers shared by the community cogs (no rules here: they live in bot/community)."""

from __future__ import annotations

import discord
from discord import app_commands

import engines
from bot import i18n
from bot.community.settings import ALL, game_kind
from bot.ui import lang
from engines.base import RuleError


def title(kind: str, lg: str) -> str:
    return i18n.t(f"{kind}.name.title", lg)


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise RuleError("community.error.guild_only")
    return interaction.guild_id


def server_name(interaction: discord.Interaction) -> str:
    return interaction.guild.name if interaction.guild is not None else "-"


def one_game(value: str) -> str:
    kind = game_kind(value)
    if kind == ALL:
        raise RuleError("community.error.pick_game")
    return kind


def game_choices(interaction: discord.Interaction, current: str, *, solo_only: bool = False,
                 with_all: bool = False) -> list[app_commands.Choice[str]]:
    lg = lang(interaction)
    wanted = current.strip().lower()
    out = []
    if with_all:
        label = i18n.t("community.choice.all_games", lg)
        if not wanted or wanted in label.lower() or wanted in ("*", "tous", "all"):
            out.append(app_commands.Choice(name=label[:100], value=ALL))
    for kind in engines.available():
        if solo_only and engines.get(kind).min_players != 1:
            continue
        name = title(kind, lg)
        if wanted and wanted not in kind and wanted not in name.lower():
            continue
        out.append(app_commands.Choice(name=name[:100], value=kind))
    return out[:25]
