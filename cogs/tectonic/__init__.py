"""Tectonic cog extension: ``/tectonic``."""

from cogs.tectonic.cog import TectonicCog


async def setup(bot) -> None:
    await bot.add_cog(TectonicCog(bot))
