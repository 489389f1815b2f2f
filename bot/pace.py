"""Game speeds (issue 15): the ``rythme`` option of every ``start``.

A profile names how fast a game is meant to be played, from live (minutes a move) to slow (days
a move). The profile chosen at start is kept in the game's table settings (``GameRow.settings``,
key ``pace``); a game without one follows the server's default.
"""

from __future__ import annotations

from engines.base import RuleError

#: the profiles, fastest first (their values are stored: never rename one)
PACES = ("direct", "rapide", "normal", "lent")


def check_pace(pace: str | None) -> str | None:
    """``pace`` if it names a profile (None: the server's default); else a refusal."""
    if pace is None or pace in PACES:
        return pace
    raise RuleError("common.error.bad_pace", pace=str(pace)[:30], allowed=", ".join(PACES))
