"""Lutinades: an action may name the turn it was drawn for; a stale one is refused, nothing changes.

The bot's gesture buttons carry no version check (the lutins act at once, each
gesture bumps the version), so the engine checks the optional ``"turn"`` key:
a button left from an earlier turn can never act on the current one.
"""

from __future__ import annotations

import pytest

from engines.base import RuleError
from engines.lutinades import ENGINE


def test_a_gesture_for_another_turn_is_refused_and_the_state_is_untouched():
    state = ENGINE.new_game(4, {}, seed=3)
    assert state.turn == 1
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 1, {"type": "gesture", "gesture": "up", "side": None, "turn": 2})
    assert err.value.key == "lutinades.error.stale_turn"
    assert err.value.params == {"turn": "2", "current": 1}
    assert state.gestures == (None,) * 4


def test_the_right_turn_or_no_turn_is_accepted():
    state = ENGINE.new_game(4, {}, seed=3)
    state, events = ENGINE.apply(state, 1, {"type": "gesture", "gesture": "up", "side": None, "turn": 1})
    assert events[0]["type"] == "gesture_chosen"
    state, _ = ENGINE.apply(state, 2, {"type": "gesture", "gesture": "down", "side": None})
    assert state.gestures[1] == ("up", None) and state.gestures[2] == ("down", None)


def test_a_follow_for_another_turn_is_refused():
    state = ENGINE.new_game(3, {}, seed=5)
    state, _ = ENGINE.apply(state, 1, {"type": "gesture", "gesture": "up", "side": None})
    state, _ = ENGINE.apply(state, 2, {"type": "gesture", "gesture": "down", "side": None})
    assert ENGINE.expected(state) == {0}
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 0, {"type": "follow", "lutin": 1, "turn": 7})
    assert err.value.key == "lutinades.error.stale_turn"
    new, events = ENGINE.apply(state, 0, {"type": "follow", "lutin": 1, "turn": 1})
    assert any(e["type"] == "revealed" for e in events) and new.turn == 2
