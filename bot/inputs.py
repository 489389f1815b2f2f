"""Every slash command's options checked against what the command declares, before it runs.

Discord's own client keeps options within their declared choices and ranges, and integers
within ±2**53; a crafted client does not. Each option that is out of its declaration gets a
precise, translated refusal here, instead of reaching the code (and SQLite's 64-bit
integers) with a value nothing expects.
"""

from __future__ import annotations

import math
from typing import Any

from discord import app_commands

from bot.safe import escape
from engines.base import Phrase, RuleError

#: Discord's integer options lie strictly between -2**53 and 2**53, its numbers within ±2**53
DISCORD_INT = 2**53

STRING, INTEGER, BOOLEAN, NUMBER = 3, 4, 5, 10


class Refused(app_commands.CheckFailure):
    """An option refused before the command runs; ``original`` is the refusal (a RuleError),
    where the error handlers look for the reason."""

    def __init__(self, error: RuleError) -> None:
        super().__init__(error.key)
        self.original = error


class Stale(Refused):
    """The options do not match the command the bot declares: a Discord client whose list of
    commands is older (or newer) than the bot's — a required option missing, an option the
    command no longer has, or one of another type. Answered "this command has just changed"."""

    def __init__(self) -> None:
        super().__init__(RuleError("payload.error.stale_command"))


def check_signature(command: Any, options: list[Any], *, autocomplete: bool = False) -> None:
    """Raise :class:`Stale` when the options do not fit the command's declared parameters: an
    unknown name, another type, or (except while autocompleting) a required one missing."""
    params = {p.display_name: p for p in getattr(command, "parameters", None) or []}
    given: set[str] = set()
    for option in options:
        if not isinstance(option, dict):
            raise Stale()
        param = params.get(option.get("name"))  # type: ignore[arg-type]
        if param is None or option.get("type") != param.type.value:
            raise Stale()
        given.add(param.display_name)
    if not autocomplete and any(p.required and name not in given for name, p in params.items()):
        raise Stale()


def _param(command: Any, name: str) -> app_commands.Parameter | None:
    for p in getattr(command, "parameters", None) or []:
        if p.display_name == name or p.name == name:
            return p
    return None


def _choice_names(choices: list[Any]) -> tuple[Phrase, ...] | str:
    """The choices as the user's client shows them: their catalog names (« Facile, Difficile »), in the
    reader's language; the values when a choice has no catalog name."""
    keys = [(getattr(getattr(c, "_locale_name", None) or c.name, "extras", None) or {}).get("key") for c in choices]
    if all(keys):
        return tuple(Phrase(k) for k in keys)
    return ", ".join(str(c.value) for c in choices)


def check_option(command: Any, option: dict[str, Any]) -> None:
    """Raise :class:`Refused` when one raw option (``{"name", "type", "value"}``) does not fit."""
    name = str(option.get("name", ""))[:32]
    kind, value = option.get("type"), option.get("value")
    if kind == INTEGER and isinstance(value, float) and value.is_integer() and abs(value) >= 2**63:
        value = int(value)  # a whole number past 64 bits reaches us as a float (orjson reads it so)
    if kind in (INTEGER, NUMBER):
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not number or (isinstance(value, float) and not math.isfinite(value)) or (
                kind == INTEGER and not isinstance(value, int)):
            raise Refused(RuleError("common.error.bad_value", option=name, value=escape(value, limit=40)))
        limit = DISCORD_INT - 1 if kind == INTEGER else DISCORD_INT
        if abs(value) > limit:
            raise Refused(RuleError("common.error.number_out_of_range", option=name, min=-limit, max=limit))
    elif kind == BOOLEAN and not isinstance(value, bool):
        raise Refused(RuleError("common.error.bad_value", option=name, value=escape(value, limit=40)))
    elif kind == STRING and not isinstance(value, str):
        raise Refused(RuleError("common.error.bad_value", option=name, value=escape(value, limit=40)))
    param = _param(command, name)
    if param is None:
        return
    if param.choices and not param.autocomplete:
        allowed = [c.value for c in param.choices]
        if value not in allowed:
            raise Refused(RuleError("common.error.bad_choice", option=name, value=escape(value, limit=40),
                                    allowed=_choice_names(param.choices)))
    if kind in (INTEGER, NUMBER):
        low, high = param.min_value, param.max_value
        if (low is not None and value < low) or (high is not None and value > high):
            raise Refused(RuleError("common.error.number_out_of_range", option=name,
                                    min=1 - DISCORD_INT if low is None else low,
                                    max=DISCORD_INT - 1 if high is None else high))


def check_options(command: Any, options: list[dict[str, Any]]) -> None:
    for option in options or []:
        if isinstance(option, dict) and "value" in option:
            check_option(command, option)
