"""Each player's clock in words (issue 15): the time left in their bank, or their vacation.

``⏳ Temps restant : Alice 1 jour 4 h · Bruno en vacances jusqu'au <t:…:D>`` on a game's status and
under the turn line of its public messages (see docs/playing-over-days.md).
"""

from __future__ import annotations

import logging
from typing import Any

from bot import i18n
from bot.safe import escape
from bot.storage import GameRow

log = logging.getLogger("ludibot.clocks")

MINUTE, HOUR, DAY = 60, 3600, 86400


def duration(seconds: float, lg: str) -> str:
    """A time left, to the minute, in its two largest units ("2 jours 3 h", "4 h 20 min", "45 s")."""
    total = max(0, int(seconds))
    if total < MINUTE:
        return i18n.t("common.clock.seconds", lg, n=total)
    days, rest = divmod(total, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // MINUTE
    parts = [("days", days), ("hours", hours), ("minutes", minutes)]
    while parts and parts[0][1] == 0:
        parts.pop(0)
    return " ".join(i18n.t(f"common.clock.{unit}", lg, n=n) for unit, n in parts[:2] if n)


def clock_line(game: GameRow, clocks: dict[int, tuple[float | None, float | None]], lg: str) -> str | None:
    """The line for ``clocks`` (``Scheduler.clocks``); None when there is nothing to show."""
    items: list[str] = []
    for seat in sorted(clocks):
        left, away = clocks[seat]
        name = escape(game.seats[seat].name)
        if away is not None:
            items.append(i18n.t("common.clock.away", lg, name=name, until=f"<t:{int(away)}:D>"))
        elif left is not None:
            items.append(i18n.t("common.clock.seat", lg, name=name, time=duration(left, lg)))
    if not items:
        return None
    return i18n.t("common.clock.line", lg, clocks=" · ".join(items))


async def clocks_of(bot: Any, game: GameRow, *, always: bool = True) -> dict[int, tuple[float | None, float | None]]:
    """``Scheduler.clocks`` of ``game`` (empty without a scheduler, or when it fails: a message must
    not break for a clock). ``always=False`` (a public message): the banks only for a game started
    with its own ``rythme``; the vacations always."""
    community = getattr(bot, "community", None)
    if community is None:
        return {}
    try:
        return await community.scheduler.clocks(game, banks=always or "pace" in game.settings)
    except Exception:
        log.exception("clocks of game %s", game.id)
        return {}


async def line_for(bot: Any, game: GameRow, lg: str, *, always: bool = True) -> str | None:
    """The clock line of ``game`` from the bot's scheduler (None without one, or when it fails: a
    status must not break for a clock). ``always=False`` (a public message): only for a game started
    with its own ``rythme``, or when one of its players is on vacation."""
    clocks = await clocks_of(bot, game, always=always)
    return clock_line(game, clocks, lg) if clocks else None
