"""Range ta Ludothèque by touch, across the two pictures the page shows: the round's dice (the table)
and the player's own kallax (``mine``).

- A **box**: the die for its size, then the die for its category (the third die is its mechanic), then
  the box's bottom-left cell; when the box fits there both ways, the cell at its far corner says which
  (the top-right cell of the box as it stands).
- A **mat**: its cell, touched first.
- Passing (only when no cell is free) is the chat's button.

Two assignments that give the same box are the engine's one move: either pair of dice chooses it. The
preview is the engine's own: the box in the seat's kallax alone, the round left open."""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import Any

from bot.activity.controls.base import Preview
from engines.ranta.sheet import DICE


def _key(state: Any, dice: Any) -> tuple:
    """The box an assignment of the dice gives (size, category, mechanic)."""
    faces = [state.dice[i] for i in dice]
    return DICE.size(faces[0]).cells, DICE.category(faces[1]), DICE.mechanic(faces[2])


class RantaControl:
    which = "mine"
    #: every picture a touch may name, in the order of a move's touches
    pictures = ("board", "mine")

    def paths(self, engine: Any, state: Any, seat: int) -> list:
        actions = engine.legal_actions(state, seat)
        boxes = [a for a in actions if a["type"] == "box"]
        pairs: dict[tuple, list[tuple[int, int]]] = {}
        for perm in permutations(range(3)):
            pairs.setdefault(_key(state, perm), []).append(perm[:2])
        fits = Counter((tuple(a["dice"]), a["cell"]) for a in boxes)
        out: list = [(("cell:" + a["cell"],), a) for a in actions if a["type"] == "mat"]
        for a in boxes:
            cells = engine.action_cells(state, seat, a)
            corner = max(cells, key=lambda c: (c[0], int(c[1:])))  # the top-right cell
            tail: tuple[str, ...] = ("cell:" + a["cell"],)
            if fits[(tuple(a["dice"]), a["cell"])] > 1:  # both orientations fit here: the far corner says which
                tail += ("cell:" + corner,)
            for size_die, category_die in pairs[_key(state, a["dice"])]:
                out.append(((f"die:{size_die}", f"die:{category_die}") + tail, a))
        return out

    def preview(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> Preview:
        view = engine.preview(state, seat, action)
        p = view["preview"]
        key = "activity.preview.ranta_box" if action["type"] == "box" else "activity.preview.ranta_mat"
        return Preview(view, key, {"cells": " ".join(p["cells"]), "before": p["before"], "after": p["after"]})


CONTROL = RantaControl()
