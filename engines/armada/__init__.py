"""L'Invincible Armada: the asymmetric two-round game of Spanish lines and English pairs.

``ENGINE`` speaks the protocol of engines/base.py; the module-level helpers
(``legal_points``, ``movable_points``, ``pivot_choices``, ``capture_choices``)
feed the cog's autocomplete and choice buttons. See docs/rules/armada.md.
"""

from .engine import (
    BOARDS,
    ENGINE,
    ENGLAND_LIMIT,
    EVENT_TYPES,
    FLEET,
    PLY_LIMIT,
    TO_WIN,
    ArmadaEngine,
    State,
    capture_choices,
    legal_points,
    movable_points,
    pivot_choices,
)

__all__ = ["BOARDS", "ENGINE", "ENGLAND_LIMIT", "EVENT_TYPES", "FLEET", "PLY_LIMIT", "TO_WIN", "ArmadaEngine", "State",
           "capture_choices", "legal_points", "movable_points", "pivot_choices"]

# the registry (``engines.get``) loads this package: it plugs the AI into the engine (the AI module
# depends on the engine, the engine never imports its AI)
from engines.armada import ai as _ai  # noqa: E402

ENGINE.ai = _ai.choose
