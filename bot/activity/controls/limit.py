"""Take it to the Limit by touch: the cell of the player's own board (a Déchetterie cell too; the
Déchetterie itself when it passes the tile on, the big orchid on the Orchidée)."""

from __future__ import annotations

from typing import Any

from bot.activity.controls.base import Preview
from engines.limit.boards import BIG_ORCHID, PASS_NAME


def _region(position: str) -> str:
    if position == PASS_NAME:
        return "dump"
    if position == BIG_ORCHID:
        return "orchid"
    return "cell:" + position


class LimitControl:
    which = "mine"

    def paths(self, engine: Any, state: Any, seat: int) -> list:
        # placements on the player's own board; a passed tile (the holder's fill) and the end-of-game
        # relocation are chosen in the chat
        return [((_region(a["position"]),), a) for a in engine.legal_actions(state, seat) if a["type"] == "place"]

    def preview(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> Preview:
        # the engine's own staging: the placement on the seat's board alone, the round left open (the
        # next tile is not drawn, no other board revealed); the score is the board's if the game ended now
        view = engine.preview(state, seat, action)
        p = view["preview"]
        view = dict(view, legal=[])
        return Preview(view, "activity.preview.limit", {"tile": p["tile"], "position": p["position"],
                                                        "before": p["before"], "after": p["after"],
                                                        "gain": f"{p['gain']:+d}"})


CONTROL = LimitControl()
