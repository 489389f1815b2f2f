"""``/ludix``: start with options; Roll / Stop buttons; the shared commands come from GameCog."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import i18n
from bot.gamecog import PACE_CHOICES, GameCog, level_choices
from bot.render_pool import picture
from bot.translator import L
from bot.ui import Click, button
from render.ludix import render_table

LABEL_KEYS = ("turn_total", "target", "bust", "round", "last_round", "others", "colon", "final")


class LudixCog(GameCog, group_name="ludix", group_description=L("ludix.cmd.start")):
    kind = "ludix"

    @app_commands.command(name="start", description=L("ludix.cmd.start"))
    @app_commands.describe(objectif=L("ludix.cmd.objectif"), ia=L("ludix.cmd.ia"), niveau=L("ludix.cmd.niveau"),
                           rythme=L("common.cmd.rythme"), fil=L("common.cmd.fil"))
    @app_commands.choices(rythme=PACE_CHOICES, niveau=level_choices(2))
    async def start(self, interaction: discord.Interaction,
                    objectif: app_commands.Range[int, 50, 1000] = 300,
                    ia: app_commands.Range[int, 0, 5] = 0,
                    niveau: int = 1,
                    rythme: str | None = None, fil: bool | None = None) -> None:
        await self.open_lobby(interaction, {"target": objectif}, ai_seats=ia, ai_level=niveau, pace=rythme, thread=fil)

    # --- components ------------------------------------------------------------------
    def component_handlers(self) -> dict[str, Any]:
        return {"roll": self.on_roll, "stop": self.on_stop}

    async def on_roll(self, click: Click) -> None:
        await self.play(click.interaction, click.game, {"type": "roll"}, version=click.check_version)

    async def on_stop(self, click: Click) -> None:
        await self.play(click.interaction, click.game, {"type": "stop"}, version=click.check_version)

    # --- rendering -------------------------------------------------------------------
    def render_public(self, game, view, lang):
        labels = {k: i18n.t(f"ludix.label.{k}", lang) for k in LABEL_KEYS}
        return picture(render_table, view, game.names, labels)

    def turn_controls(self, game, view, lang):
        if view.get("current") is None or game.seats[view["current"]].is_ai:
            return []
        rolled = view["rolls_this_turn"] > 0
        items = [button(game.id, "roll", i18n.t("ludix.button.reroll" if rolled else "ludix.button.roll", lang),
                        version=game.version, style=discord.ButtonStyle.primary, emoji="🎲")]
        if rolled:
            items.append(button(game.id, "stop", i18n.t("ludix.button.stop", lang), version=game.version,
                                style=discord.ButtonStyle.success))
        return items
