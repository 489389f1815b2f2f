"""L'Invincible Armada by touch: the point (a ship placed, a capture chosen), or the ship then the point
(a Spanish move, an English pivot). When the move may capture either of several ships, those moves are
the preview's choices (« Prendre C3 »): never a third touch.
Passing, legal only when nothing else is, is a touch outside the picture: the page's « Passer » button
(region ``pass``, through the same touches). Nothing is hidden: the preview is the engine's own move on
the seat's view."""

from __future__ import annotations

from typing import Any

from bot.activity.controls.base import Preview


def _regions(action: dict[str, Any]) -> tuple[str, ...]:
    kind = action["type"]
    if kind == "pass":
        return ("pass",)
    if kind in ("place", "capture"):
        regions: tuple[str, ...] = ("point:" + action["point"],)
    else:  # move, pivot
        regions = ("point:" + action["from"], "point:" + action["to"])
    return regions


class ArmadaControl:
    which = "board"

    @staticmethod
    def label(action: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        return ("activity.choice.capture", {"cell": action["capture"]}) if action.get("capture") else None

    def paths(self, engine: Any, state: Any, seat: int) -> list:
        return [(_regions(a), a) for a in engine.legal_actions(state, seat)]

    def preview(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> Preview:
        after, _ = engine.apply(state, seat, action)
        if action["type"] == "pass":
            return Preview(engine.view(after, seat), "activity.preview.pass")
        where = action.get("point") or f"{action.get('from')} → {action.get('to')}"
        move = where + (f" ✕ {action['capture']}" if action.get("capture") else "")
        return Preview(engine.view(after, seat), "activity.preview.move", {"move": move})


CONTROL = ArmadaControl()
