"""Range ta Ludothèque's level-2 AI: it plays only from its seat's view (the same move whatever the dice
still to come), legally through whole games in both modes, the same move for the same position, and
better than level 1."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines.ranta import ENGINE
from engines.ranta.engine import roll

TOP = ENGINE.ai_levels[1]


def test_levels():
    assert ENGINE.ai_levels == (1, 2)
    state = ENGINE.new_game(1, {"mode": "classique"}, 3)
    assert ENGINE.ai_action(state, 0, 1) == ENGINE.greedy_action(state, 0, 1)  # level 1 is unchanged


def after_rounds(mode: str, rounds: int, seed: int, players: int = 1):
    state = ENGINE.new_game(players, {"mode": mode}, seed)
    while state.round_no <= rounds and not state.finished:
        for seat in sorted(ENGINE.expected(state)):
            state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, 1))
    return state


@pytest.mark.parametrize(("mode", "rounds"), [("classique", 3), ("expert", 6), ("expert", 10)])
def test_the_move_ignores_the_dice_to_come(mode, rounds):
    """Another seed fixes other dice for the rounds to come; the rolls seen so far and the sheet are the
    same: the seat cannot tell the two games apart, the AI plays the same move."""
    state = after_rounds(mode, rounds, seed=4)
    move = ENGINE.ai_action(state, 0, TOP)
    for other_seed in (104, 204):
        other = replace(state, seed=other_seed)
        future = [roll(state.seed, r) for r in range(state.round_no + 1, ENGINE.rounds + 1)]
        assert future != [roll(other_seed, r) for r in range(state.round_no + 1, ENGINE.rounds + 1)]
        assert ENGINE.view(other, 0) == ENGINE.view(state, 0)
        assert ENGINE.ai_action(other, 0, TOP) == move


def test_the_same_position_gets_the_same_move():
    state = after_rounds("expert", 5, seed=8)
    move = ENGINE.ai_action(state, 0, TOP)
    assert ENGINE.ai_action(state, 0, TOP) == move
    assert ENGINE.ai_action(ENGINE.from_dict(ENGINE.to_dict(state)), 0, TOP) == move


@pytest.mark.parametrize("mode", ["classique", "expert"])
@pytest.mark.parametrize("players", [1, 2])
def test_whole_games_of_legal_moves(mode, players):
    for seed in (1, 2):
        state = ENGINE.new_game(players, {"mode": mode}, seed)
        while not state.finished:
            for seat in sorted(ENGINE.expected(state)):
                action = ENGINE.ai_action(state, seat, TOP)
                assert action in ENGINE.legal_actions(state, seat)
                state, _ = ENGINE.apply(state, seat, action)
        assert ENGINE.result(state) is not None


def test_level_two_scores_more_than_level_one():
    """Fixed seeds, both modes: the top level's total is higher (deterministic, so never flaky)."""

    def total(level: int) -> int:
        out = 0
        for mode in ("classique", "expert"):
            for seed in SEEDS:
                state = ENGINE.new_game(1, {"mode": mode}, seed)
                while not state.finished:
                    state, _ = ENGINE.apply(state, 0, ENGINE.ai_action(state, 0, level))
                out += ENGINE.result(state).scores[0]
        return out

    assert total(TOP) > total(1)


SEEDS = (0, 1, 2, 3)
