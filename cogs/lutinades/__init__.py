"""Lutinades cog extension: ``/lutinades``."""

from cogs.lutinades.cog import LutinadesCog


async def setup(bot) -> None:
    await bot.add_cog(LutinadesCog(bot))
