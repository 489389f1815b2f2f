"""Ludix's stored form: every field of its state, written as the generic dataclass copy wrote it."""

from __future__ import annotations

import json
from dataclasses import asdict

from engines.ludix import ENGINE


def test_to_dict_is_the_full_state_and_round_trips():
    state = ENGINE.new_game(3, {}, seed=11)
    for _ in range(12):  # rolls and stops: scores, banked turns, the last roll
        seat = next(iter(ENGINE.expected(state)))
        action = {"type": "stop"} if state.rolls_this_turn >= 2 else {"type": "roll"}
        try:
            state, _ = ENGINE.apply(state, seat, action)
        except Exception:
            state, _ = ENGINE.apply(state, seat, {"type": "roll"})
        stored = json.loads(json.dumps(ENGINE.to_dict(state)))
        reference = json.loads(json.dumps(asdict(state)))
        if not reference["out"]:
            del reference["out"]  # the stored form of a game nobody left has no "out"
        assert {k: v for k, v in stored.items() if k in reference} == reference
        assert set(stored) - set(reference) == set(ENGINE.to_dict(ENGINE.new_game(2, {}, seed=1))) - set(
            asdict(ENGINE.new_game(2, {}, seed=1)))  # only the schema stamp is added
        assert ENGINE.from_dict(stored) == state
