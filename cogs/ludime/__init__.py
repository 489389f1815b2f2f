"""Ludime cog extension: ``/ludime``."""

from cogs.ludime.cog import LudimeCog


async def setup(bot) -> None:
    await bot.add_cog(LudimeCog(bot))
