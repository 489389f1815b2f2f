"""Range ta Ludothèque cog extension: ``/ranta``."""

from cogs.ranta.cog import RantaCog


async def setup(bot) -> None:
    await bot.add_cog(RantaCog(bot))
