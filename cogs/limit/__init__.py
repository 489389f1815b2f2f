"""Take it to the Limit cog extension: ``/limit``."""

from cogs.limit.cog import LimitCog


async def setup(bot) -> None:
    await bot.add_cog(LimitCog(bot))
