"""Tectonic AI: legal answers at every level, takes wins, parries threats, beats a random player,
answers in well under a second."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

from engines.base import RuleError
from engines.tectonic import ENGINE, core
from engines.tectonic.ai import evaluate


def position(pieces: dict[str, str], current: int = 0, reserves=(1, 1, 1, 1, 1, 1), pic_backward="droit"):
    board = ["."] * 100
    for cell, ch in pieces.items():
        board[core.parse_cell(cell)] = ch
    text = "".join(board)
    state = ENGINE.new_game(2, {"pic_backward": pic_backward}, seed=3)
    key = core.position_key(core.board_from_text(text), list(reserves), current)
    return replace(state, board=text, reserves=tuple(reserves), current=current, history={key: 1})


def mid_game(seed: int, plies: int = 12):
    """A position after a few random opening moves (both sides still complete)."""
    rng = random.Random(seed)
    state = ENGINE.new_game(2, None, seed=seed)
    for _ in range(plies):
        actions = ENGINE.legal_actions(state, state.current)
        quiet = [a for a in actions if not a["flip"]] or actions
        nxt, _ = ENGINE.apply(state, state.current, rng.choice(quiet))
        if nxt.finished:
            break
        state = nxt
    return state


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("pic_backward", ["droit", "diagonale"])
def test_every_level_answers_a_legal_move(level, pic_backward):
    state = ENGINE.new_game(2, {"pic_backward": pic_backward}, seed=level)
    for _ in range(4 if level < 3 else 2):
        action = ENGINE.ai_action(state, state.current, level)
        assert action in ENGINE.legal_actions(state, state.current)
        state, _ = ENGINE.apply(state, state.current, action)


def test_default_action_is_the_level_one_move():
    state = mid_game(8)
    assert ENGINE.default_action(state, state.current) == ENGINE.ai_action(state, state.current, 1)
    assert ENGINE.default_action(state, state.current) in ENGINE.legal_actions(state, state.current)


def test_ai_refuses_out_of_turn_and_after_the_end():
    state = ENGINE.new_game(2, None, seed=1)
    with pytest.raises(RuleError) as info:
        ENGINE.ai_action(state, 1, 1)
    assert info.value.key == "common.error.not_your_turn"
    over, _ = ENGINE.apply(state, 0, {"type": "resign"})
    with pytest.raises(RuleError) as info:
        ENGINE.ai_action(over, 1, 1)
    assert info.value.key == "common.error.game_over"


@pytest.mark.parametrize("level", [1, 2, 3])
def test_takes_a_region_win_at_once(level):
    state = position({"A10": "C", "B9": "P", "A4": "M", "F5": "C", "E9": "c", "D8": "m"})
    action = ENGINE.ai_action(state, 0, level)
    after, events = ENGINE.apply(state, 0, action)
    assert after.reason == "region" and after.winner == 0


@pytest.mark.parametrize("level", [1, 2, 3])
def test_takes_an_all_red_win_at_once(level):
    state = position({"C6": "M", "F6": "p", "A10": "5", "J1": "C", "B2": "M"}, reserves=(1, 1, 1, 1, 0, 1))
    after, _ = ENGINE.apply(state, 0, ENGINE.ai_action(state, 0, level))
    assert after.reason == "all_red" and after.winner == 0


@pytest.mark.parametrize("level", [2, 3])
def test_parries_a_region_win_threat(level):
    # White threatens A4 -> A8 (colline A10 and pic B9 already in the NO region). Black must react.
    state = position({"A10": "C", "B9": "P", "A4": "M", "J1": "C", "D8": "c", "G8": "m", "F9": "p"}, current=1)
    after, _ = ENGINE.apply(state, 1, ENGINE.ai_action(state, 1, level))
    for action in ENGINE.legal_actions(after, 0):
        won, _ = ENGINE.apply(after, 0, action)
        assert won.reason != "region", action


def test_evaluation_is_symmetric_and_likes_material():
    state = ENGINE.new_game(2, None, seed=1)
    board, res = core.board_from_text(state.board), list(state.reserves)
    assert evaluate(board, res, "droit", 0) == evaluate(board, res, "droit", 1) == 0
    board[core.parse_cell("C9")] = core.red(1, core.MONT)
    assert evaluate(board, res, "droit", 0) > 0 > evaluate(board, res, "droit", 1)


def _versus_random(level: int, games: int, first_seed: int = 0) -> tuple[int, list[float]]:
    wins, times = 0, []
    for g in range(games):
        rng = random.Random(first_seed + g)
        ai_seat = g % 2
        state = ENGINE.new_game(2, {"pic_backward": core.PIC_BACK[(g // 2) % 2]}, seed=first_seed + g)
        while not state.finished:
            if state.current == ai_seat:
                start = time.process_time()
                action = ENGINE.ai_action(state, ai_seat, level)
                times.append(time.process_time() - start)
            else:
                action = rng.choice(ENGINE.legal_actions(state, state.current))
            state, _ = ENGINE.apply(state, state.current, action)
        wins += state.winner == ai_seat
    return wins, times


def test_level_one_beats_a_random_player():
    wins, times = _versus_random(1, 40)
    assert wins >= 38  # >= 95 %
    assert max(times) < 1.0


def test_level_two_beats_a_random_player():
    wins, times = _versus_random(2, 6, first_seed=500)
    assert wins >= 5
    assert max(times) < 1.0


def test_level_three_thinks_under_a_second_of_cpu_in_busy_positions():
    """CPU time, not the wall clock: the search has a node budget, and a loaded machine (a parallel
    test run) stretches the wall clock, not the work (issue 37's budget is 2 s of CPU a move)."""
    for seed in (1, 2, 3):
        state = mid_game(seed)
        start = time.process_time()
        action = ENGINE.ai_action(state, state.current, 3)
        assert time.process_time() - start < 1.0
        assert action in ENGINE.legal_actions(state, state.current)


@pytest.mark.slow
def test_two_hundred_games_against_random():
    wins, times = _versus_random(1, 200, first_seed=10_000)
    assert wins >= 190
    assert max(times) < 1.0
    wins, times = _versus_random(2, 40, first_seed=20_000)
    assert wins >= 38
    assert max(times) < 1.0
