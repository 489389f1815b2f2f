"""Range ta Ludothèque's AI. Level 1: the greedy move (the engine's ``greedy_action``: the box or mat
that scores most right now). Level 2: the greedy's best few moves, each valued by the score it leaves plus
what the next roll is expected to add — the next dice are sampled from their distribution (three fair
dice), never read from the seed, and the greedy answers each sample. The samples come from a generator
seeded by what the seat sees (its sheet, the rolls so far), so a position always gets the same move."""

from __future__ import annotations

from dataclasses import replace

from engines.base import Action, derive_rng
from engines.ranta.engine import PASS, RantaEngine, State, _items_data
from engines.ranta.scoring import score

CANDIDATES = 4  # the greedy's best moves the lookahead compares
SAMPLES = 8  # next rolls sampled per move


def ranked(engine: RantaEngine, state: State, seat: int) -> list[tuple[tuple, Action, State]]:
    """Every legal move with the greedy's key and the state after it, best first."""
    base = _items_data(state.sheets[seat])
    out = []
    for action in engine.legal_actions(state, seat):
        if action["type"] == PASS:
            return [((0,), action, state)]
        _, item, anchor = engine._check(state, seat, action)
        total = score(base + _items_data((item,)), state.mode)["total"]
        key = (total, len(item.cells), -anchor[1], -anchor[0])
        sheets = list(state.sheets)
        sheets[seat] = sheets[seat] + (item,)
        out.append((key, action, replace(state, sheets=tuple(sheets))))
    out.sort(key=lambda x: x[0], reverse=True)
    return out


def best_total(engine: RantaEngine, state: State, seat: int) -> int:
    moves = ranked(engine, state, seat)
    return moves[0][0][0] if moves else score(_items_data(state.sheets[seat]), state.mode)["total"]


def play(engine: RantaEngine, state: State, seat: int, level: int = 1) -> Action:
    if level <= 1 or state.finished or state.round_no >= engine.rounds or seat not in engine.expected(state):
        return engine.greedy_action(state, seat, level)
    moves = ranked(engine, state, seat)
    if not moves or moves[0][1]["type"] == PASS:
        return engine.greedy_action(state, seat, level)
    # what the seat sees: its sheet and the dice so far (never the seed, which fixes the rolls to come)
    seen = repr((state.mode, state.rolls, [it.to_dict() for it in state.sheets[seat]]))
    rng = derive_rng(0, "ranta-ai", seen)
    rolls = [(rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)) for _ in range(SAMPLES)]
    best, best_value = moves[0][1], float("-inf")
    for _key, action, after in moves[:CANDIDATES]:
        value = 0.0
        for dice in rolls:
            nxt = replace(after, round_no=state.round_no + 1, rolls=(*state.rolls, dice),
                          placed=tuple(False for _ in state.placed), out=())
            value += best_total(engine, nxt, seat)
        if value > best_value:
            best, best_value = action, value
    return best



