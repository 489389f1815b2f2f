"""Game speeds (issue 15): the ``rythme`` option of every ``start``.

A profile names how fast a game is meant to be played, from live (minutes a move) to slow (days
a move). The profile chosen at start is kept in the game's table settings (``GameRow.settings``,
key ``pace``); a game without one follows the server's default.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.base import RuleError

#: the profiles, fastest first (their values are stored: never rename one)
PACES = ("direct", "rapide", "normal", "lent")


def check_pace(pace: str | None) -> str | None:
    """``pace`` if it names a profile (None: the server's default); else a refusal."""
    if pace is None or pace in PACES:
        return pace
    raise RuleError("common.error.bad_pace", pace=str(pace)[:30], allowed=", ".join(PACES))


# --- time banks (issue 15) -------------------------------------------------------------------
MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0


@dataclass(frozen=True)
class Profile:
    """A speed profile's clock: each player starts with ``bank_s`` seconds; each of their moves
    adds ``increment_s``, capped at ``bank_s``; a reminder comes once they waited ``reminder_s``, or
    halfway through their bank when ``reminder_s`` would leave them less than a quarter of it. 0 turns
    a part off."""

    bank_s: float
    increment_s: float
    reminder_s: float

    @property
    def timed(self) -> bool:
        return self.bank_s > 0


#: the fixed profiles; ``normal`` is the server's ``/ludibot config`` ``delai``/``rappel`` (see :func:`profile`)
FIXED = {
    "direct": Profile(bank_s=5 * MINUTE, increment_s=1 * MINUTE, reminder_s=2 * MINUTE),
    "rapide": Profile(bank_s=2 * HOUR, increment_s=30 * MINUTE, reminder_s=30 * MINUTE),
    "lent": Profile(bank_s=7 * DAY, increment_s=3 * DAY, reminder_s=2 * DAY),
}
DEFAULT_PACE = "normal"


def profile(pace: str | None, reminder_s: float, timeout_s: float) -> Profile:
    """The clock of profile ``pace`` on a server whose (per-game) settings are ``reminder_s`` and
    ``timeout_s``. ``normal`` (and an unknown name) *is* the server's setting: a bank of ``delai``,
    half of it back at each move, the reminder after ``rappel``. The other profiles have fixed
    values, but the server's 0 still turns their timeout (``delai 0``) or reminder (``rappel 0``) off."""
    if pace not in FIXED:
        return Profile(bank_s=max(0.0, timeout_s), increment_s=max(0.0, timeout_s) / 2,
                       reminder_s=max(0.0, reminder_s))
    p = FIXED[pace]
    return Profile(bank_s=p.bank_s if timeout_s > 0 else 0.0, increment_s=p.increment_s,
                   reminder_s=p.reminder_s if reminder_s > 0 else 0.0)


def bank_after_move(remaining: float, p: Profile) -> float:
    """The bank of a seat that just moved with ``remaining`` seconds left: plus the increment, capped
    at the starting allowance (a timeout leaves 0: the next turn has the increment)."""
    return min(max(0.0, remaining) + p.increment_s, p.bank_s)


def reminder_at(start: float, bank: float, p: Profile) -> float | None:
    """When a seat expected from ``start`` (its clock running) with ``bank`` seconds is reminded."""
    if p.reminder_s <= 0:
        return None
    if p.bank_s <= 0 or p.reminder_s <= 0.75 * bank:  # it leaves them a quarter of their time at least
        return start + p.reminder_s
    return start + bank / 2


# --- vacations (issue 15) --------------------------------------------------------------------
#: a player may be on vacation this many days in any 365 days (rolling, counted as taken: an early end
#: gives the rest back)
VACATION_DAYS = 30
VACATION_WINDOW = 365 * DAY


def vacation_used(periods: list[tuple[float, float]], now: float) -> float:
    """Seconds of vacation taken in the 365 days up to ``now`` (a running one counts up to ``now``)."""
    low = now - VACATION_WINDOW
    return sum(max(0.0, min(end, now) - max(start, low)) for start, end in periods)


def check_vacation(days: int, periods: list[tuple[float, float]], now: float) -> None:
    """Refuse a vacation of ``days`` from ``now`` that the allowance does not cover (``periods``: the
    player's vacations, a running one included: it ends now if this one is granted)."""
    if isinstance(days, bool) or not isinstance(days, int) or days < 0:
        raise RuleError("community.error.vacation_days", days=str(days)[:20], max=VACATION_DAYS)
    if days > VACATION_DAYS:
        raise RuleError("community.error.vacation_days", days=days, max=VACATION_DAYS)
    if days == 0:  # coming back is always allowed
        return
    used = vacation_used(periods, now)
    left = max(0, int((VACATION_DAYS * DAY - used) // DAY))
    if days * DAY + used > VACATION_DAYS * DAY + 1e-6:
        raise RuleError("community.error.vacation_allowance", days=days, left=left, allowance=VACATION_DAYS)
