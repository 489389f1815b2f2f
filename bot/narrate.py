"""Turn engine events into sentences from the catalogs.

An event ``{"type": "rolled", "seat": 0, "value": 22}`` of game ``ludix`` is told
with the template ``ludix.event.rolled``. Parameters that name seats (``seat``,
``lutin``, ``picker``, ``owner``, ``winner``, anything ending in ``_seat``) are
replaced by the player's name; lists of seats (``winners``, ``seats``,
``lutins``) by the names joined. Events ``private_to`` another seat are skipped. A text
``<key>_shown`` is how ``<key>`` is shown (a Ludime word laid as TUÉE, played with the cards
T U E E): the template's ``<key>`` says it; events logged before it existed tell ``<key>``.
"""

from __future__ import annotations

from typing import Any

from bot import emojis, i18n
from bot.safe import escape

SEAT_KEYS = {"seat", "lutin", "picker", "owner", "winner", "player", "opponent", "loser", "by_seat",
             "from_seat", "to_seat", "victim", "previous_owner", "new_owner", "dealer", "next"}
SEAT_LISTS = {"winners", "seats", "lutins", "players", "losers"}
#: string parameters that name one of a game's things (Tectonic's pieces and board regions): told by
#: the catalog's name for it (``<kind>.<param>.<value>``, « hill » on an English server), the raw
#: value kept as ``<param>_kind`` (French picks « sa colline » / « son pic » by it). Every narration
#: goes through here — the turn messages, the replay viewer, /historique's journal.
NAMED_THINGS = {"tectonic": ("piece", "region")}


def _is_seat_key(key: str) -> bool:
    return key in SEAT_KEYS or key.endswith("_seat")


def event_params(event: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The template's parameters; every text (players' names, words they typed) escaped."""
    names = [escape(n) for n in names]
    params: dict[str, Any] = {}
    for key, value in event.items():
        if key.startswith("_") or key.endswith("_shown"):
            continue
        shown = event.get(f"{key}_shown")
        if isinstance(shown, str) and shown:
            value = shown
        if _is_seat_key(key) and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
            params[key] = names[value]
            params[f"{key}_index"] = value
        elif key in SEAT_LISTS and isinstance(value, list) and all(isinstance(v, int) for v in value):
            params[key] = ", ".join(names[v] for v in value if 0 <= v < len(names))
        elif isinstance(value, list):
            params[key] = ", ".join(escape(v) for v in value)
        elif isinstance(value, str):
            params[key] = escape(value)
        else:
            params[key] = value
    return params


def named_things(kind: str, event: dict[str, Any], lang: str) -> dict[str, Any]:
    """``event`` with the game's things named in ``lang`` (see :data:`NAMED_THINGS`)."""
    keys = [k for k in NAMED_THINGS.get(kind, ()) if isinstance(event.get(k), str)]
    if not keys:
        return event
    told = dict(event)
    for key in keys:
        value = event[key]
        told.setdefault(f"{key}_kind", value)
        if i18n.has(f"{kind}.{key}.{value}"):
            told[key] = i18n.t(f"{kind}.{key}.{value}", lang)
    return told


def narrate(kind: str, events: list[dict[str, Any]], names: list[str], lang: str,
            viewer: int | None = None, limit: int = 30) -> list[str]:
    lines: list[str] = []
    #: every line may say whether the move also ends the game ($game_ends: 1 or 0), e.g. Ludix's target
    #: reached by the last seat of a lap: no "last round" is announced for a game over at once
    game_ends = int(any(isinstance(e, dict) and e.get("type") == "game_over" for e in events))
    for event in events:
        event = named_things(kind, event, lang)
        private = event.get("private_to")
        if private is not None and private != viewer:
            continue
        etype = event.get("type", "")
        key = f"{kind}.event.{etype}"
        if not i18n.has(key):
            key = f"common.event.{etype}"
            if not i18n.has(key):
                key = f"undo.event.{etype}"  # a takeback (bot.takeback), in every game
                if not i18n.has(key):
                    continue
        params = event_params(event, names)
        params.setdefault("game_ends", game_ends)
        text = i18n.t(key, lang, **emojis.event_glyphs(kind, event, params))
        if text.strip():  # a catalog may say nothing for a case (a series of one game has no "1/1")
            lines.append(text)
    if len(lines) > limit:
        skipped = len(lines) - limit
        lines = lines[: limit // 2] + [i18n.t("common.event.skipped", lang, count=skipped)] + lines[-limit // 2:]
    return lines
