"""The board as a control: for each game, which picture a touch names and which engine move a sequence
of touches means.

A game's control lists every legal move of the engine (``engine.legal_actions(state, seat)``) as the
regions a player touches to choose it, in order (a Take it to the Limit cell; a Tectonic piece then
its destination). It holds no rule: the engine's legal moves are the only moves there are, and a
move chosen here still goes through the session service like a button's. :func:`touch` answers a
page's selection with the regions that continue it and the moves it completes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bot.activity.controls import armada, limit, ludix, lutinades, tectonic
from bot.activity.controls.base import Preview

Path = tuple[tuple[str, ...], dict[str, Any]]


class Control(Protocol):
    #: the picture a touch names: ``board`` (the table, as the chat's card shows it) or ``mine``
    which: str

    def paths(self, engine: Any, state: Any, seat: int) -> list[Path]:
        """Every legal move of ``seat`` with the regions that choose it, in touch order."""

    def preview(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> Preview:  # noqa: D102
        """The seat's view with ``action`` made (nothing it may not know) and the change, in words."""


CONTROLS: dict[str, Control] = {"limit": limit.CONTROL, "tectonic": tectonic.CONTROL, "armada": armada.CONTROL,
                                "ludix": ludix.CONTROL, "lutinades": lutinades.CONTROL}


def touch(paths: Sequence[Path], selected: Sequence[str]) -> dict[str, Any]:
    """``targets``: the regions that continue ``selected`` towards a legal move (every move's first
    region when nothing is selected); ``moves``: the moves ``selected`` chooses completely."""
    sel = tuple(selected)
    n = len(sel)
    targets: list[str] = []
    moves: list[dict[str, Any]] = []
    for regions, action in paths:
        if regions[:n] != sel:
            continue
        if len(regions) == n:
            moves.append({"regions": list(regions), "action": action})
        elif regions[n] not in targets:
            targets.append(regions[n])
    return {"targets": targets, "moves": moves}


def regions_of(paths: Sequence[Path]) -> set[str]:
    return {r for regions, _ in paths for r in regions}
