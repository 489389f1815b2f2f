"""L'Invincible Armada cog extension: ``/armada``."""

from cogs.armada.cog import ArmadaCog


async def setup(bot) -> None:
    await bot.add_cog(ArmadaCog(bot))
