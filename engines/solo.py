"""The AI's work as functions of plain data, run by the bot in its AI worker process (a pool of the
render pool's kind), never on its event loop (issue 37): one AI seat's move (:func:`ai_move`), and
a solo game played through by an engine's AI, the mark a daily challenge shows (:func:`ai_score`).

Pure and deterministic: the same state, seat and level give the same move; the same game, options,
seed and level the same score. A strong AI thinks up to seconds a move; arguments and answers are
plain data (an engine's ``to_dict``, an action dict), so a job pickles as (function, arguments).
"""

from __future__ import annotations

import time
from typing import Any

import engines
from engines.base import validate_options

#: a guard against an engine that would never end (a Limit game is 20-odd moves, Range ta Ludothèque 12)
MAX_MOVES = 500


def ai_move(kind: str, state: dict[str, Any], seat: int, level: int) -> tuple[dict[str, Any], float]:
    """The move of ``kind``'s AI at ``level`` for ``seat`` in ``state`` (the engine's ``to_dict``), and the
    CPU seconds it took to find (the thread's own: the budget is 2 s a move at the top level)."""
    t0 = time.thread_time()
    engine = engines.get(kind)
    action = engine.ai_action(engine.from_dict(state), seat, level)
    return action, time.thread_time() - t0


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
