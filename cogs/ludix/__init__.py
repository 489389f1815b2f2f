"""Ludix cog extension: ``/ludix``."""

from cogs.ludix.cog import LudixCog


async def setup(bot) -> None:
    await bot.add_cog(LudixCog(bot))
