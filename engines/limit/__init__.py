"""Take it to the Limit: Nexus + Déchetterie, Orchidée, every variant (see engine.py).

Public API: ``ENGINE`` (the protocol object), ``legal_positions(state, seat)``,
the scoring functions on plain data (``score_nexus``, ``score_orchid``,
``dechetterie_value``, ``best_relocation``, ``relocation_options``,
``relocation_gain``), the tile set (``TILES``) and the boards (``NEXUS``,
``DECHETTERIE``, ``ORCHIDEE``).
"""

from engines.limit.boards import BIG_ORCHID, DECHETTERIE, NEXUS, ORCHIDEE, PASS_NAME, Board, Line
from engines.limit.engine import ENGINE, LimitEngine, State, legal_positions
from engines.limit.scoring import (
    best_relocation,
    dechetterie_value,
    relocation_gain,
    relocation_options,
    score_board,
    score_nexus,
    score_orchid,
    shared_penalties,
    threshold_penalty,
)
from engines.limit.tiles import ALL_TILE_IDS, MOON_IDS, SUN_IDS, TILES, Tile, check_tiles, generate_tiles

__all__ = [
    "ALL_TILE_IDS", "BIG_ORCHID", "DECHETTERIE", "ENGINE", "MOON_IDS", "NEXUS", "ORCHIDEE", "PASS_NAME",
    "SUN_IDS", "TILES", "Board", "LimitEngine", "Line", "State", "Tile", "best_relocation", "check_tiles",
    "dechetterie_value", "generate_tiles", "legal_positions", "relocation_gain", "relocation_options",
    "score_board", "score_nexus", "score_orchid", "shared_penalties", "threshold_penalty",
]

# the registry (``engines.get``) loads this package: it plugs the AI into the engine (the AI module
# depends on the engine, the engine never imports its AI)
from engines.limit import ai as _ai  # noqa: E402

ENGINE.ai = _ai.play
