"""Lutinades by touch. A **lutin** touches their gesture under their own card (``mine``: the card with
the gestures drawn under it, ``gesture:up``, ``gesture:up:left`` in lutins malins); the **picker**
follows a lutin by touching their row of the table (each row shows the gesture once all are public).

Nothing the seat may not know: a gesture's preview is the lutin's own card with their gesture recorded
(the others' stay secret); a follow's preview shows the table as it is (the card is revealed by the move)."""

from __future__ import annotations

from typing import Any

from bot.activity.controls.base import Preview
from engines.base import Phrase


def _gesture_region(action: dict[str, Any]) -> str:
    return "gesture:" + action["gesture"] + (f":{action['side']}" if action.get("side") else "")


class LutinadesControl:
    which = "board"
    #: every picture some seat touches: the table (the picker), one's own card (a lutin)
    pictures = ("board", "mine")

    @staticmethod
    def which_for(state: dict[str, Any], seat: int | None) -> str:
        """A lutin touches their card's gestures; the picker (and anyone once the gestures are in) the table."""
        lutin = state.get("phase") == "gestures" and seat is not None and seat != state.get("picker") \
            and seat not in (state.get("out") or ())
        return "mine" if lutin else "board"

    def pictures_for(self, state: dict[str, Any], seat: int | None) -> tuple[str, ...]:
        return (self.which_for(state, seat),)

    def paths(self, engine: Any, state: Any, seat: int) -> list:
        out: list = []
        for a in engine.legal_actions(state, seat):
            if a["type"] == "follow":
                out.append(((f"seat:{a['lutin']}",), a))
            elif a["type"] == "gesture":
                out.append(((_gesture_region(a),), a))
        return out

    def preview(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> Preview:
        if action["type"] == "gesture":
            engine.apply(state, seat, action)  # the engine's own check; its state is not shown: when this is
            # the last gesture, the move reveals every lutin's, which this lutin may not see before confirming
            view = dict(engine.view(state, seat), my_gesture={"seat": seat, "gesture": action["gesture"],
                                                              "side": action.get("side")})
            gesture = Phrase(f"lutinades.gesture.{action['gesture']}")
            if action.get("side"):
                gesture = Phrase("lutinades.button.gesture_side", (
                    ("gesture", gesture), ("side", Phrase(f"lutinades.side_button.{action['side']}"))))
            forbidden = view.get("small_forbidden") and action["gesture"] == "small"
            return Preview(view, "activity.preview.gesture_forbidden" if forbidden else "activity.preview.gesture",
                           {"gesture": gesture})
        return Preview(engine.view(state, seat), "activity.preview.follow", {"seat": action["lutin"]})


CONTROL = LutinadesControl()
