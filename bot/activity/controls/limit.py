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
        engine.apply(state, seat, action)  # the engine's precise refusal, or nothing: the move is legal
        view = engine.view(state, seat)
        b = view["board"]
        board = dict(view["boards"][b])
        cells, orchid = dict(board["cells"]), list(board["orchid"])
        tile, position = view["tile"]["id"], action["position"]
        if position == BIG_ORCHID:
            orchid.append(tile)
        elif position != PASS_NAME:  # a passed tile leaves the board (the next player places it)
            cells[position] = tile
        # the board as it will stand, staged on the seat's own board: the next tile is not drawn
        board.update(cells=cells, orchid=orchid, this_round=position, placed=True,
                     score=engine.breakdown(state, cells, tuple(orchid)))
        boards = list(view["boards"])
        boards[b] = board
        before, after = view["boards"][b]["score"]["total"], board["score"]["total"]
        staged = dict(view, boards=boards, legal=[])
        return Preview(staged, "activity.preview.limit", {"tile": tile, "position": position, "before": before,
                                                          "after": after, "gain": f"{after - before:+d}"})


CONTROL = LimitControl()
