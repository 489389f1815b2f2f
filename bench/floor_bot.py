"""The floor: the smallest discord.py bot that does what a Ludix move does, for the benchmarks.

``/floor`` posts a message with a button; clicking the button answers with a new message that
carries a button again (a Ludix roll answers the same way, plus a picture and a database
write). Measured on the same fake Discord, in the same run as Ludibot, it shows what the
library and the fake cost by themselves: Ludibot's figures are printed as a ratio to it.

Run as a subprocess with the fake's environment (``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``,
``DISCORD_TOKEN``, ``FAKE_GUILD_ID``): ``python -m bench.floor_bot``.
"""

from __future__ import annotations

import os

import discord
import yarl
from discord.ext import commands


class Again(discord.ui.DynamicItem[discord.ui.Button], template=r"floor:again:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Encore", style=discord.ButtonStyle.primary,
                                           custom_id=f"floor:again:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Again(self.n + 1))
        await interaction.response.send_message(f"{interaction.user.mention} : coup {self.n + 1}", view=view)


class FloorBot(commands.Bot):
    def __init__(self, guild_id: int | None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.guild_id = guild_id

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Again)

        @self.tree.command(name="floor", description="Floor benchmark")
        async def floor(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(Again(0))
            await interaction.response.send_message("coup 0", view=view)

        guild = discord.Object(self.guild_id) if self.guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


def main() -> None:
    discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])
    FloorBot(int(os.environ.get("FAKE_GUILD_ID") or 0) or None).run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
