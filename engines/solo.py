"""A solo game played through by an engine's AI: the mark a daily challenge shows (issue 37).

Pure and deterministic: the same game, options, seed and level give the same score. It is a
function of plain data, so the bot runs it in a worker process (its render pool), never on its
event loop: a strong AI thinks for seconds over a whole game.
"""

from __future__ import annotations

from typing import Any

import engines
from engines.base import validate_options

#: a guard against an engine that would never end (a Limit game is 20-odd moves, Range ta Ludothèque 12)
MAX_MOVES = 500


def ai_score(kind: str, options: dict[str, Any], seed: int, level: int) -> int | None:
    """The score of ``kind``'s AI at ``level`` playing alone on ``seed`` (None: the game has no score)."""
    engine = engines.get(kind)
    state = engine.new_game(1, validate_options(kind, engine.options, options), seed)
    forced = getattr(engine, "forced_action", None)
    for _ in range(MAX_MOVES):
        if engine.is_over(state):
            break
        action = forced(state, 0) if forced is not None else None
        if action is None:
            action = engine.ai_action(state, 0, level)
        state, _ = engine.apply(state, 0, action)
    result = engine.result(state)
    if result is None:
        return None
    score = result.scores[0]
    return None if score is None else int(score)
