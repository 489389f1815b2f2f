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

from bot.activity.controls import armada, limit, ludime, ludix, lutinades, ranta, tectonic
from bot.activity.controls.base import Path, Preview, touch

__all__ = ["CONTROLS", "Control", "Path", "Preview", "touch"]


class Control(Protocol):
    #: the picture a touch names: ``board`` (the table, as the chat's card shows it) or ``mine``; the
    #: preview redraws it. A control whose touches name both pictures (Range ta Ludothèque: the table's
    #: dice, then one's own kallax) lists them as ``pictures``; region ids are unique across them.
    which: str

    def paths(self, engine: Any, state: Any, seat: int) -> list[Path]:
        """Every legal move of ``seat`` with the regions that choose it, in touch order."""

    def preview(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> Preview:  # noqa: D102
        """The seat's view with ``action`` made (nothing it may not know) and the change, in words."""


CONTROLS: dict[str, Control] = {"limit": limit.CONTROL, "tectonic": tectonic.CONTROL, "armada": armada.CONTROL,
                                "ludix": ludix.CONTROL, "lutinades": lutinades.CONTROL, "ranta": ranta.CONTROL,
                                "ludime": ludime.CONTROL}


def which(control: Control, state: dict[str, Any] | None = None, seat: int | None = None) -> str:
    """The picture a seat's touches name and its preview redraws: the control's ``which``, or its
    ``which_for(state, seat)`` when that depends on the seat's role (a Lutinades lutin's own card, the
    picker's table); ``state`` is the stored state (a dict)."""
    own = getattr(control, "which_for", None)
    return own(state or {}, seat) if own else control.which


def pictures(control: Control, state: dict[str, Any] | None = None, seat: int | None = None) -> tuple[str, ...]:
    """The pictures ``control``'s touches name (its ``which`` alone, unless it lists several)."""
    own = getattr(control, "pictures_for", None)
    if own:
        return tuple(own(state or {}, seat))
    return tuple(getattr(control, "pictures", (which(control, state, seat),)))


def hit_pictures(control: Control) -> tuple[str, ...]:
    """Every picture some seat's touches may name: drawn with its hit map, whoever asks first."""
    return tuple(getattr(control, "pictures", (control.which,)))


def label(control: Control, action: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """What tells ``action`` from the other moves the same touches choose (a catalog key and its
    parameters: a Tectonic flip's piece, a relocation's moves), shown as the preview's choices."""
    own = getattr(control, "label", None)
    return own(action) if own else None


def enabled(control: Control, state: dict[str, Any]) -> bool:
    """The board is this game's control (a control may leave a variant to the chat: Ludime's one word)."""
    check = getattr(control, "enabled", None)
    return check is None or bool(check(state))


def answer(control: Control, engine: Any, state: Any, seat: int, selected: Sequence[str]) -> dict[str, Any]:
    """:func:`touch` on the control's listed moves, or the control's own answer when its moves are not
    all listed (Ludime's words: free text, checked by the engine)."""
    own = getattr(control, "answer", None)
    return own(engine, state, seat, list(selected)) if own else touch(control.paths(engine, state, seat), selected)


def allows(control: Control, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> bool:
    """``action`` is one of the moves the control offers now."""
    own = getattr(control, "allows", None)
    return own(engine, state, seat, action) if own else action in [a for _, a in control.paths(engine, state, seat)]


def regions_of(paths: Sequence[Path]) -> set[str]:
    return {r for regions, _ in paths for r in regions}
