"""Tectonic by touch: the piece, then its destination (then the piece to flip, when the move may flip
several). Nothing is hidden in Tectonic: the preview is the engine's own move on the seat's view."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.activity.controls.base import Preview


class TectonicControl:
    which = "board"

    def paths(self, engine: Any, state: Any, seat: int) -> list:
        actions = [a for a in engine.legal_actions(state, seat) if a["type"] == "move"]
        choices = Counter((a["from"], a["to"]) for a in actions)
        out = []
        for a in actions:
            regions = ("cell:" + a["from"], "cell:" + a["to"])
            if choices[(a["from"], a["to"])] > 1:  # a choice of the piece to flip: a third touch
                regions += ("cell:" + a["flip"],)
            out.append((regions, a))
        return out

    def preview(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> Preview:
        after, _ = engine.apply(state, seat, action)
        move = f"{action['from']} → {action['to']}" + (f" ✕ {action['flip']}" if action.get("flip") else "")
        return Preview(engine.view(after, seat), "activity.preview.move", {"move": move})


CONTROL = TectonicControl()
