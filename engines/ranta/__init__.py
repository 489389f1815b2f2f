"""Range ta Ludothèque (short name ``ranta``): engine, sheet geometry and scoring.

``ENGINE`` is the protocol object; the helpers the cog needs to offer only legal
choices are both methods of ``ENGINE`` and module-level names here.
"""

from engines.ranta.engine import BOX, ENGINE, MAT, PASS, Item, RantaEngine, State, fit_error, roll
from engines.ranta.scoring import CLASSIC, EXPERT, MODES, classic_breakdown, expert_breakdown, score
from engines.ranta.sheet import DICE, HORIZONTAL, ORIENTATIONS, SHEET, VERTICAL

assignments = ENGINE.assignments
legal_placements = ENGINE.legal_placements
legal_mats = ENGINE.legal_mats
can_place_box = ENGINE.can_place_box
action_cells = ENGINE.action_cells
visible_items = ENGINE.visible_items

__all__ = [
    "BOX", "CLASSIC", "DICE", "ENGINE", "EXPERT", "HORIZONTAL", "MAT", "MODES", "ORIENTATIONS", "PASS",
    "SHEET", "VERTICAL", "Item", "RantaEngine", "State", "action_cells", "assignments", "can_place_box",
    "classic_breakdown", "expert_breakdown", "fit_error", "legal_mats", "legal_placements", "roll", "score",
    "visible_items",
]

# the registry (``engines.get``) loads this package: it plugs the AI into the engine (the AI module
# depends on the engine, the engine never imports its AI)
from engines.ranta import ai as _ai  # noqa: E402

ENGINE.ai = _ai.play
