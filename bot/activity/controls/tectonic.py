"""Tectonic by touch: the piece, then its destination. When the move may flip either of several enemy
pieces, the destination chooses all those moves at once: the page previews the first and offers the
others as the preview's choices (« Retourner C3 »), so a flip is still two touches and « Confirmer ».
Nothing is hidden in Tectonic: the preview is the engine's own move on the seat's view."""

from __future__ import annotations

from typing import Any

from bot.activity.controls.base import Preview


class TectonicControl:
    which = "board"

    def paths(self, engine: Any, state: Any, seat: int) -> list:
        return [(("cell:" + a["from"], "cell:" + a["to"]), a)
                for a in engine.legal_actions(state, seat) if a["type"] == "move"]

    @staticmethod
    def label(action: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        return ("activity.choice.flip", {"cell": action["flip"]}) if action.get("flip") else None

    def preview(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> Preview:
        after, _ = engine.apply(state, seat, action)
        move = f"{action['from']} → {action['to']}" + (f" ✕ {action['flip']}" if action.get("flip") else "")
        return Preview(engine.view(after, seat), "activity.preview.move", {"move": move})


CONTROL = TectonicControl()
