"""Community extension: ``/classement``, ``/records``, ``/profil``, ``/parties``, ``/historique``, ``/ludibot``,
``/defi-du-jour``."""

from cogs.community.boards import BoardsCog
from cogs.community.daily import DailyCog
from cogs.community.matchmaking import MatchCog
from cogs.community.replays import ReplayCog
from cogs.community.settings import LudibotCog
from cogs.community.tournament import TournamentCog


async def setup(bot) -> None:
    await bot.add_cog(BoardsCog(bot))
    await bot.add_cog(LudibotCog(bot))
    await bot.add_cog(ReplayCog(bot))
    await bot.add_cog(TournamentCog(bot))
    await bot.add_cog(MatchCog(bot))
    await bot.add_cog(DailyCog(bot))
