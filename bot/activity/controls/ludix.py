"""Ludix by touch: the dice (roll them) or one's own row (« Stop »: bank the turn's points). A roll's
preview shows the table as it is: its dice are chance, unknown until rolled."""

from __future__ import annotations

from typing import Any

from bot.activity.controls.base import Preview

REGIONS = {"roll": "dice", "stop": "stop"}


class LudixControl:
    which = "board"

    def paths(self, engine: Any, state: Any, seat: int) -> list:
        return [((REGIONS[a["type"]],), a) for a in engine.legal_actions(state, seat) if a["type"] in REGIONS]

    def preview(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> Preview:
        view = engine.view(state, seat)
        if action["type"] == "roll":
            return Preview(view, "activity.preview.roll", {"total": view.get("turn_total") or 0})
        after, _ = engine.apply(state, seat, action)  # banking is certain: the table as it will be
        before = view["scores"][seat]
        return Preview(engine.view(after, seat), "activity.preview.stop",
                       {"before": before, "after": engine.view(after, seat)["scores"][seat]})


CONTROL = LudixControl()
