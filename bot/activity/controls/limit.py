"""Take it to the Limit by touch: the cell of the player's own board (a Déchetterie cell too; the
Déchetterie itself when it passes the tile on, the big orchid on the Orchidée).

- **A tile given** (« Donner à votre voisin »): the player touches their Déchetterie; the preview names the
  neighbour who will place it.
- **A passed tile**: its holder touches the cell of the owner's Déchetterie,
  drawn under the holder's own board (``fill:<owner board>:X3``).
- **The relocation** (the Orchidée, at the end of a game): the big orchid; its tiles' relocations are the
  preview's choices, the best first (at most :data:`MAX_RELOCATIONS`; the chat lists them all)."""

from __future__ import annotations

from typing import Any

from bot.activity.controls.base import Preview
from engines.limit.boards import BIG_ORCHID, PASS_NAME

#: the relocations offered as the preview's choices, the best first
MAX_RELOCATIONS = 6


def _region(position: str) -> str:
    if position == PASS_NAME:
        return "dump"
    if position == BIG_ORCHID:
        return "orchid"
    return "cell:" + position


def _moves_text(moves: dict[str, str]) -> str:
    return ", ".join(f"{hole} ← {tile}" for hole, tile in sorted(moves.items()))


class LimitControl:
    which = "mine"

    def paths(self, engine: Any, state: Any, seat: int) -> list:
        out: list = []
        relocations = 0
        for a in engine.legal_actions(state, seat):
            if a["type"] == "place":
                out.append(((_region(a["position"]),), a))
            elif a["type"] == "fill":
                out.append(((f"fill:{a['board']}:{a['position']}",), a))
            elif a["type"] == "relocate" and relocations < MAX_RELOCATIONS:
                relocations += 1
                out.append((("orchid",), a))
        return out

    def label(self, action: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        if action["type"] != "relocate":
            return None
        if not action["moves"]:
            return "activity.choice.relocate_none", {}
        return "activity.preview.move", {"move": _moves_text(action["moves"])}

    def preview(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> Preview:
        if action["type"] == "relocate":
            return self._relocation(engine, state, seat, action)
        # the engine's own staging: the placement on the seat's board alone, the round left open (the
        # next tile is not drawn, no other board revealed); the score is the board's if the game ended now
        view = engine.preview(state, seat, action)
        p = view["preview"]
        # (a passed tile: the owner's Déchetterie stays drawn under the holder's board, the tile on it)
        fills = [{"board": action["board"], "seats": [], "legal": []}] if action["type"] == "fill" else []
        view = dict(view, legal=[], fills=fills)
        key = "activity.preview.limit_fill" if action["type"] == "fill" else "activity.preview.limit"
        params = {"tile": p["tile"], "position": p["position"], "before": p["before"], "after": p["after"],
                  "gain": f"{p['gain']:+d}"}
        if action["type"] == "place" and action["position"] == PASS_NAME:
            # the Déchetterie passes the tile on: who places it (the board's holder, public from the start)
            key = "activity.preview.limit_pass"
            params["seat"] = engine.seats_of(state, state.holders[engine.board_of(state, seat)])[0]
        return Preview(view, key, params)

    @staticmethod
    def _relocation(engine: Any, state: Any, seat: int, action: dict[str, Any]) -> Preview:
        """The seat's board with the big orchid's tiles moved, nothing else: the engine's own gain for it
        (the game is scored once every board has relocated; no other board changes here)."""
        view = engine.view(state, seat)
        b = view["board"]
        option = next(o for o in view["relocation"]["options"] if o["moves"] == action["moves"])
        board = dict(view["boards"][b])
        board["cells"] = {**board["cells"], **action["moves"]}
        board["score"] = engine.breakdown(state, board["cells"], tuple(board["orchid"]))
        board["relocated"] = dict(action["moves"])
        boards = list(view["boards"])
        boards[b] = board
        view = dict(view, boards=boards, relocation=dict(view["relocation"], done=True))
        if not action["moves"]:
            return Preview(view, "activity.preview.limit_relocate_none")
        return Preview(view, "activity.preview.limit_relocate", {"moves": _moves_text(action["moves"]),
                                                                  "gain": f"{option['gain']:+d}"})


CONTROL = LimitControl()
