"""Lutinades by touch: the picker follows a lutin by touching their row of the table (each row shows
the gesture once all are public). The lutins' gestures are chosen in the chat (the card has no
gestures to touch). A follow's preview shows the table as it is: the card is revealed by the move."""

from __future__ import annotations

from typing import Any

from bot.activity.controls.base import Preview


class LutinadesControl:
    which = "board"

    def paths(self, engine: Any, state: Any, seat: int) -> list:
        return [((f"seat:{a['lutin']}",), a) for a in engine.legal_actions(state, seat) if a["type"] == "follow"]

    def preview(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> Preview:
        return Preview(engine.view(state, seat), "activity.preview.follow", {"seat": action["lutin"]})


CONTROL = LutinadesControl()
