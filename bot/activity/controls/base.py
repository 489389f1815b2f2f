"""What every game's control answers with."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: a legal move with the regions that choose it, in touch order
Path = tuple[tuple[str, ...], dict[str, Any]]


@dataclass
class Preview:
    """The seat's view with the move made (nothing it may not know) and the change in words: a catalog
    key and its parameters."""

    view: dict[str, Any]
    key: str
    params: dict[str, Any] = field(default_factory=dict)


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
