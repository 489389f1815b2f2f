"""A finished game's history: its log told move by move, and its JSON export.

Only what the table could see: events ``private_to`` a seat are left out of the text,
and of the export too unless they belong to the asking player's own seat. The state
(with its seed) is never exported.
"""

from __future__ import annotations

from typing import Any

from bot import i18n
from bot.narrate import narrate
from bot.safe import escape
from bot.storage import EventRow, GameRow, ResultRow

EXPORT_FORMAT = "ludibot-game"
EXPORT_VERSION = 1


def replay_lines(game: GameRow, rows: list[EventRow], lang: str, key: str = "community.history.line") -> list[str]:
    """One line per stored action (the catalog's ``key``): its number, who acted (and how), what the
    table saw."""
    names = game.names
    lines = []
    for n, row in enumerate(rows, start=1):
        who = escape(names[row.seat]) if row.seat is not None and 0 <= row.seat < len(names) else "-"
        by = row.action.get("_by")
        if row.action.get("type") == "forfeit" and by is not None:
            told = [i18n.t("community.history.forfeit", lang, player=who)]
        else:
            told = narrate(game.kind, row.events, names, lang, viewer=None, limit=1000)
            if not told:
                told = [i18n.t("community.history.hidden", lang)]
            if by == "timeout":
                told.append(i18n.t("community.history.by_timeout", lang))
        lines.append(i18n.t(key, lang, n=n, player=who, text=" · ".join(told)))
    return lines


def export(game: GameRow, rows: list[EventRow], results: list[ResultRow],
           viewer_seat: int | None = None) -> dict[str, Any]:
    """A JSON-safe document: the game, its seats and options, the public event log, the results."""
    def visible(event: dict[str, Any]) -> bool:
        owner = event.get("private_to")
        return owner is None or (viewer_seat is not None and owner == viewer_seat)

    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "game": {"id": game.id, "kind": game.kind, "guild_id": game.guild_id, "channel_id": game.channel_id,
                 "status": game.status, "options": game.options, "version": game.version,
                 "created_at": game.created_at, "updated_at": game.updated_at},
        "seats": [{"seat": s.seat, "name": s.name, "user_id": s.user_id, "ai_level": s.ai_level}
                  for s in game.seats],
        "log": [{"n": n, "version": row.version, "seat": row.seat, "user_id": row.user_id,
                 "action": row.action, "events": [e for e in row.events if visible(e)],
                 "at": row.created_at} for n, row in enumerate(rows, start=1)],
        "results": [{"seat": r.seat, "user_id": r.user_id, "rank": r.rank, "score": r.score}
                    for r in sorted(results, key=lambda r: (r.rank, r.seat))],
    }
