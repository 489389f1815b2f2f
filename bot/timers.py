"""A game's reminder and timeout delays, from its server's settings (``guild_settings["timers"]``).

The reading of the ``/ludibot config`` settings that the session-level services need (the scheduler,
the takebacks): below them and below :mod:`bot.community.settings`, which writes these settings and
re-exports these names. ``"*"`` (:data:`ALL`) is the server's default; a game's own entry overrides it
field by field; anything unset falls back to :data:`DEFAULTS` (and :data:`FORFEIT_DEFAULTS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.pace import DEFAULT_PACE, PACES

ALL = "*"


@dataclass(frozen=True)
class TimerSettings:
    reminder_h: float  # hours after a seat becomes expected: reminder (0 = none)
    timeout_h: float  # hours after a seat becomes expected: default action (0 = never)
    forfeit_after: int  # the N-th consecutive timeout of a seat forfeits the game (0 = never)
    #: the speed profile of a game started without ``rythme`` (bot.pace; ``normal`` is these timers)
    pace: str = DEFAULT_PACE

    @property
    def reminder_s(self) -> float:
        return self.reminder_h * 3600

    @property
    def timeout_s(self) -> float:
        return self.timeout_h * 3600


DEFAULTS = TimerSettings(reminder_h=12.0, timeout_h=48.0, forfeit_after=0)
#: Tectonic and Armada: the AI plays the absent player's turns, and the third consecutive timeout forfeits.
FORFEIT_DEFAULTS = {"tectonic": 3, "armada": 3}


def resolve(settings: dict[str, Any], kind: str) -> TimerSettings:
    """The effective timers of game ``kind`` from a guild's settings dict."""
    timers = settings.get("timers") or {}
    base = {"reminder_h": DEFAULTS.reminder_h, "timeout_h": DEFAULTS.timeout_h,
            "forfeit_after": FORFEIT_DEFAULTS.get(kind, DEFAULTS.forfeit_after), "pace": DEFAULT_PACE}
    for scope in (ALL, kind):
        for name, value in (timers.get(scope) or {}).items():
            if name in base and value is not None:
                base[name] = value
    return TimerSettings(reminder_h=float(base["reminder_h"]), timeout_h=float(base["timeout_h"]),
                         forfeit_after=int(base["forfeit_after"]),
                         pace=base["pace"] if base["pace"] in PACES else DEFAULT_PACE)

