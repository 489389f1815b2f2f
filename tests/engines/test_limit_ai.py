"""Take it to the Limit's level-2 AI: it plays only from its seat's view (the same move whatever the
order of the tiles still to come), legally through whole games on every board and variant, the same move
for the same position, and better than level 1."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import engines.limit.ai as ai
from engines.limit import ENGINE
from engines.limit.engine import RELOCATE

TOP = ENGINE.ai_levels[1]


def test_levels():
    assert ENGINE.ai_levels == (1, 2)


def after_rounds(options: dict, rounds: int, seed: int, players: int = 1):
    """A game after ``rounds`` rounds played by the level-1 AI."""
    state = ENGINE.new_game(players, options, seed)
    while state.round_no <= rounds and not state.finished:
        for seat in sorted(ENGINE.expected(state)):
            if seat in ENGINE.expected(state):
                state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, 1))
    return state


def reshuffled(state, salt: int):
    """The same game as the seat sees it (board, announced tiles) with the undrawn tiles in another order
    and another seed: only what the seat may not see differs."""
    seen = list(state.deck[: state.round_no])
    rest = list(state.deck[state.round_no:])
    random.Random(salt).shuffle(rest)
    return replace(state, seed=state.seed + 1000 + salt, deck=(*seen, *rest))


@pytest.mark.parametrize(("options", "rounds"), [
    ({"plateau": "nexus"}, 8),
    ({"plateau": "nexus"}, 30),
    ({"plateau": "orchidee", "tuiles": "lune"}, 12),
])
def test_the_move_ignores_the_order_of_the_tiles_to_come(options, rounds):
    state = after_rounds(options, rounds, seed=5)
    move = ENGINE.ai_action(state, 0, TOP)
    for salt in (1, 2):
        other = reshuffled(state, salt)
        assert other.deck[state.round_no:] != state.deck[state.round_no:]
        assert ENGINE.view(other, 0) == ENGINE.view(state, 0)  # the seat cannot tell them apart
        assert ENGINE.ai_action(other, 0, TOP) == move


def test_the_same_position_gets_the_same_move():
    state = after_rounds({"plateau": "nexus"}, 12, seed=9)
    move = ENGINE.ai_action(state, 0, TOP)
    assert ENGINE.ai_action(state, 0, TOP) == move
    assert ENGINE.ai_action(ENGINE.from_dict(ENGINE.to_dict(state)), 0, TOP) == move


CASES = [
    (1, {"plateau": "nexus", "variante": "standard"}),
    (1, {"plateau": "nexus", "variante": "sans-dechetterie"}),
    (2, {"plateau": "nexus", "variante": "dechetterie-basse"}),
    (2, {"plateau": "nexus", "variante": "passe-dechetterie"}),
    (3, {"plateau": "nexus", "variante": "passe-dechetterie"}),
    (1, {"plateau": "orchidee", "variante": "standard", "tuiles": "soleil"}),
    (2, {"plateau": "orchidee", "variante": "standard", "tuiles": "lune"}),
    (1, {"plateau": "orchidee", "variante": "orchidee-64"}),
    (4, {"plateau": "nexus", "variante": "standard", "paires": True}),
]


@pytest.mark.parametrize(("players", "options"), CASES)
def test_whole_games_of_legal_moves_on_every_board_and_variant(players, options, monkeypatch):
    # the search made small (one future, two candidates): the same code paths, a fraction of the time
    monkeypatch.setattr(ai, "CANDIDATES", 2)
    monkeypatch.setattr(ai, "BUDGET", 1)
    monkeypatch.setattr(ai, "MIN_FUTURES", 1)
    for seed in (1, 2):
        state = ENGINE.new_game(players, options, seed)
        relocated = False
        while not state.finished:
            for seat in sorted(ENGINE.expected(state)):
                if seat not in ENGINE.expected(state):
                    continue
                action = ENGINE.ai_action(state, seat, TOP)
                relocated |= state.phase == RELOCATE
                if action["type"] != "relocate":
                    assert action in ENGINE.legal_actions(state, seat)
                state, _ = ENGINE.apply(state, seat, action)
        assert relocated == (options["plateau"] == "orchidee")
        assert ENGINE.result(state) is not None


def test_level_two_scores_more_than_level_one():
    """Nexus without the Déchetterie (37 tiles: the shortest game), fixed seeds: the top level's mean is
    higher (the search is deterministic, so this cannot be flaky)."""
    options = {"plateau": "nexus", "variante": "sans-dechetterie"}

    def mean(level: int) -> float:
        scores = []
        for seed in SEEDS:
            state = ENGINE.new_game(1, options, seed)
            while not state.finished:
                state, _ = ENGINE.apply(state, 0, ENGINE.ai_action(state, 0, level))
            scores.append(ENGINE.result(state).scores[0])
        return sum(scores) / len(scores)

    assert mean(TOP) > mean(1)


SEEDS = (0, 1, 2)
