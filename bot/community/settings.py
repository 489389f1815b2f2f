"""Reminder and timeout settings per server and per game, and the server's language (``/ludibot config``).

Stored in the guild's settings (``guild_settings``) under ``"timers"``::

    {"timers": {"*": {"reminder_h": 6}, "ludix": {"timeout_h": 12, "forfeit_after": 2}}}

``"*"`` is the server's default; a game's own entry overrides it field by field;
anything unset falls back to :data:`DEFAULTS` (and :data:`FORFEIT_DEFAULTS`); that reading is
:func:`bot.timers.resolve` (below the takebacks and the scheduler that use it), re-exported here.
A delay of 0 turns that deadline off. ``"pace"`` (a profile of :mod:`bot.pace`) is the speed of the
games started without ``rythme``; the ``normal`` profile is these reminder and timeout delays.

The server's public language is ``"language"`` (``"fr"`` or ``"en"``, French when
unset); it is read through :mod:`bot.language`, which caches it per guild.
"""

from __future__ import annotations

import math
from typing import Any

import engines
from bot import i18n
from bot.language import SETTING
from bot.pace import check_pace
from bot.timers import ALL, DEFAULTS, FORFEIT_DEFAULTS, TimerSettings, resolve  # noqa: F401  (re-exported)
from engines.base import Phrase, RuleError

FIELDS = ("reminder_h", "timeout_h", "forfeit_after", "pace")
MAX_HOURS = 720.0  # 30 days
MAX_FORFEIT = 20


def game_kind(value: str | None) -> str:
    """A game named by its short name or its title (either language); ``ALL`` for none/"tous"."""
    if value is None or not value.strip() or value.strip().lower() in (ALL, "tous", "all"):
        return ALL
    wanted = value.strip().lower()
    for kind in engines.available():
        titles = {i18n.t(f"{kind}.name.title", lg).lower() for lg in i18n.LANGS}
        if wanted == kind or wanted in titles:
            return kind
    raise RuleError("community.error.unknown_game", game=value.strip()[:50],
                    allowed=", ".join(engines.available()))


def _hours(value: float | None, negative: str, too_long: str) -> float | None:
    if value is None:
        return None
    if not value >= 0:  # also refuses NaN
        raise RuleError(negative, value=_fmt(value))
    if not math.isfinite(value) or value > MAX_HOURS:
        raise RuleError(too_long, value=_fmt(value), max=_fmt(MAX_HOURS))
    return float(value)


def _fmt(value: float) -> float:
    """A number of hours as a message parameter (the catalog writes it the language's way: "0,5 h")."""
    return float(value)


def set_language(settings: dict[str, Any], lang: str) -> dict[str, Any]:
    """The settings with the server's public language set to ``lang`` (``fr`` or ``en``)."""
    if lang not in i18n.LANGS:
        raise RuleError("community.error.unknown_language", language=str(lang)[:20], allowed=", ".join(i18n.LANGS))
    return {**settings, SETTING: lang}


def change(settings: dict[str, Any], game: str | None, *, reminder_h: float | None = None,
           timeout_h: float | None = None, forfeit_after: int | None = None,
           reset: bool = False, pace: str | None = None) -> tuple[dict[str, Any], str]:
    """The new settings after a ``/ludibot config`` (refusals are RuleErrors); returns (settings, scope)."""
    scope = game_kind(game)
    reminder = _hours(reminder_h, "community.error.negative_reminder", "community.error.reminder_too_long")
    timeout = _hours(timeout_h, "community.error.negative_timeout", "community.error.timeout_too_long")
    if forfeit_after is not None and forfeit_after < 0:
        raise RuleError("community.error.negative_forfeit", value=forfeit_after)
    if forfeit_after is not None and forfeit_after > MAX_FORFEIT:
        raise RuleError("community.error.forfeit_too_big", value=forfeit_after, max=MAX_FORFEIT)
    check_pace(pace)
    new = dict(settings)
    timers = {k: dict(v) for k, v in (settings.get("timers") or {}).items()}
    entry = {} if reset else timers.get(scope, {})
    for name, value in (("reminder_h", reminder), ("timeout_h", timeout), ("forfeit_after", forfeit_after),
                        ("pace", pace)):
        if value is not None:
            entry[name] = value
    if entry:
        timers[scope] = entry
    else:
        timers.pop(scope, None)
    new["timers"] = timers
    for kind in ([scope] if scope != ALL else engines.available()):
        t = resolve(new, kind)
        if t.reminder_h > 0 and t.timeout_h > 0 and t.timeout_h <= t.reminder_h:
            raise RuleError("community.error.timeout_before_reminder", reminder=_fmt(t.reminder_h),
                            timeout=_fmt(t.timeout_h), game=Phrase(f"{kind}.name.title"))
    return new, scope
