"""Ludix rules: numerals, the seed's worked example, turn flow, end of game, refusals, random games."""

from __future__ import annotations

import json
import random
from itertools import combinations_with_replacement
from unittest import mock

import pytest

from engines.base import RuleError
from engines.ludix import ENGINE, best_numeral, roman_value, valid_numerals


def test_best_numeral_examples_from_the_issue_and_seed():
    assert best_numeral("IIXX") == ("XXII", 22)
    assert best_numeral("LLLL") is None
    assert best_numeral("LVXI") == ("LXVI", 66)  # Julie's second roll (XLIV = 44 is worse)
    assert best_numeral("IXVI") == ("XVII", 17)  # Marc
    assert best_numeral("LVVI") is None  # Marc's bust: two V
    assert ("XLIV", 44) in valid_numerals("ILVX")


def test_fourteen_valid_multisets_with_the_seeds_values():
    valid = {}
    for faces in combinations_with_replacement("IVXL", 4):
        best = best_numeral("".join(faces))
        if best:
            valid["".join(sorted(best[0]))] = best[1]
    assert sorted(valid.values()) == [8, 13, 17, 22, 26, 31, 35, 53, 57, 62, 66, 71, 75, 80]


@pytest.mark.parametrize("numeral", ["IIII", "VIIII", "VVII", "VVVV", "XVVI", "XXVV", "XXXX", "LLII", "LLLL",
                                     "IL", "IC", "VX", "IIX"])
def test_non_canonical_numerals_are_refused(numeral):
    assert roman_value(numeral) is None


def test_probability_of_bust_is_23_in_81():
    busts = 0
    faces = "LXXVII"
    for a in faces:
        for b in faces:
            for c in faces:
                for d in faces:
                    busts += best_numeral(a + b + c + d) is None
    assert busts == 368


def rolls(*faces):
    """Force the dice: each roll takes the next string of four faces."""
    seq = iter("".join(faces))

    class FakeRng:
        def choice(self, _):
            return next(seq)

    return mock.patch("engines.ludix.derive_rng", lambda *a: FakeRng())


def test_julie_and_marc_example():
    state = ENGINE.new_game(3, {}, seed=1)
    with rolls("IIXX", "LVXI", "IXVI", "LVVI"):
        state, ev = ENGINE.apply(state, 0, {"type": "roll"})
        assert ev[0]["numeral"] == "XXII" and state.turn_total == 22
        state, ev = ENGINE.apply(state, 0, {"type": "roll"})
        assert ev[0]["value"] == 66 and state.turn_total == 88
        state, ev = ENGINE.apply(state, 0, {"type": "stop"})
        assert state.scores == (88, 0, 0) and state.current == 1
        state, _ = ENGINE.apply(state, 1, {"type": "roll"})
        assert state.turn_total == 17
        state, ev = ENGINE.apply(state, 1, {"type": "roll"})
        assert ev[0] == {"type": "bust", "seat": 1, "faces": "LVVI", "lost": 17}
        assert state.scores == (88, 0, 0) and state.current == 2 and state.turn_total == 0


def test_round_is_completed_after_the_target_is_reached():
    state = ENGINE.new_game(3, {"target": 50}, seed=1)
    with rolls("LXXX", "IIXX", "LLLL"):
        state, _ = ENGINE.apply(state, 0, {"type": "roll"})
        state, ev = ENGINE.apply(state, 0, {"type": "stop"})
        assert state.scores[0] == 80 and not ENGINE.is_over(state)
        assert ev[-2] == {"type": "target_reached", "seat": 0, "target": 50}  # said once, in words
        assert ev[-1] == {"type": "turn", "seat": 1, "last_round": True}
        state, _ = ENGINE.apply(state, 1, {"type": "roll"})
        state, ev = ENGINE.apply(state, 1, {"type": "stop"})
        assert not ENGINE.is_over(state) and "target_reached" not in [e["type"] for e in ev]
        state, ev = ENGINE.apply(state, 2, {"type": "roll"})  # bust ends the round
    assert ENGINE.is_over(state)
    assert ev[-1]["type"] == "game_over"
    result = ENGINE.result(state)
    assert result.scores == [80, 22, 0] and result.ranks == [1, 2, 3]


def test_ties_share_the_victory():
    state = ENGINE.new_game(2, {"target": 50}, seed=3)
    with rolls("LXXX", "LXXX"):
        for seat in (0, 1):
            state, _ = ENGINE.apply(state, seat, {"type": "roll"})
            state, _ = ENGINE.apply(state, seat, {"type": "stop"})
    result = ENGINE.result(state)
    assert result.ranks == [1, 1] and result.winners == [0, 1]


@pytest.mark.parametrize("seat,action,key", [
    (1, {"type": "roll"}, "common.error.not_your_turn"),
    (0, {"type": "stop"}, "ludix.error.roll_first"),
    (0, {"type": "fly"}, "common.error.unknown_action"),
    (0, {}, "common.error.unknown_action"),
])
def test_illegal_moves_are_refused_and_change_nothing(seat, action, key):
    state = ENGINE.new_game(2, {}, seed=5)
    before = json.dumps(ENGINE.to_dict(state), sort_keys=True)
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, seat, action)
    assert err.value.key == key
    assert json.dumps(ENGINE.to_dict(state), sort_keys=True) == before


def test_pass_only_before_rolling_and_actions_after_the_end_are_refused():
    state = ENGINE.new_game(2, {"target": 50}, seed=5)
    with rolls("LXXX"):
        state, _ = ENGINE.apply(state, 0, {"type": "roll"})
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 0, {"type": "pass"})
    assert err.value.key == "ludix.error.pass_after_roll"
    state, _ = ENGINE.apply(state, 0, {"type": "stop"})
    state, _ = ENGINE.apply(state, 1, {"type": "pass"})
    assert ENGINE.is_over(state)
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 0, {"type": "roll"})
    assert err.value.key == "common.error.game_over"


@pytest.mark.parametrize("options,key", [({"target": 10}, "common.error.bad_option"),
                                         ({"target": "300"}, "common.error.bad_option"),
                                         ({"cible": 300}, "common.error.unknown_option")])
def test_bad_options_are_refused(options, key):
    with pytest.raises(RuleError) as err:
        ENGINE.new_game(2, options, seed=1)
    assert err.value.key == key


@pytest.mark.parametrize("players", [1, 7])
def test_player_count(players):
    with pytest.raises(RuleError) as err:
        ENGINE.new_game(players, {}, seed=1)
    assert err.value.key == "common.error.player_count"


def test_same_seed_same_game_and_json_round_trip():
    def play(seed):
        state = ENGINE.new_game(3, {}, seed=seed)
        log = []
        while not ENGINE.is_over(state):
            seat = next(iter(ENGINE.expected(state)))
            state, ev = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat))
            log.append(ev)
            restored = ENGINE.from_dict(json.loads(json.dumps(ENGINE.to_dict(state))))
            assert restored == state
        return log

    assert play(42) == play(42)
    assert play(42) != play(43)


def test_view_is_public_and_json_safe():
    state = ENGINE.new_game(2, {}, seed=9)
    state, _ = ENGINE.apply(state, 0, {"type": "roll"})
    v = ENGINE.view(state, None)
    json.dumps(v)
    assert v["roll"]["faces"] == state.last_roll and v["current"] == 0


def test_ai_rolls_until_about_100_then_stops():
    state = ENGINE.new_game(2, {}, seed=9)
    assert ENGINE.ai_action(state, 0) == {"type": "roll"}
    from dataclasses import replace
    assert ENGINE.ai_action(replace(state, turn_total=90, rolls_this_turn=2), 0) == {"type": "roll"}
    assert ENGINE.ai_action(replace(state, turn_total=105, rolls_this_turn=3), 0) == {"type": "stop"}
    assert ENGINE.default_action(state, 0) == {"type": "pass"}
    assert ENGINE.default_action(replace(state, turn_total=10, rolls_this_turn=1), 0) == {"type": "stop"}


def test_thousands_of_random_games():
    rng = random.Random(2026)
    for _game in range(2000):
        players = rng.randint(2, 6)
        state = ENGINE.new_game(players, {"target": rng.choice([50, 100, 300])}, seed=rng.getrandbits(40))
        for _ in range(100_000):
            if ENGINE.is_over(state):
                break
            (seat,) = ENGINE.expected(state)
            actions = ENGINE.legal_actions(state, seat)
            assert actions
            state, _ = ENGINE.apply(state, seat, rng.choice(actions))
            assert all(sum(b) == s for b, s in zip(state.banked, state.scores, strict=True))
        else:
            pytest.fail("game did not end")
        result = ENGINE.result(state)
        assert max(result.scores) >= state.target
        assert min(result.ranks) == 1
        # everyone played the same number of turns
        assert state.turn_no % players == 0
