"""The /ranta cog's choices: exactly the engine's legal moves, and the custom-id codes that carry them."""

from __future__ import annotations

import random

import pytest

from bot import i18n
from bot.ui import custom_id
from cogs.ranta.cog import box_choices, decode, encode, parse_dice, round_arg, score_change, score_change_text
from engines.base import RuleError
from engines.ranta import BOX, ENGINE, MAT


def random_states(games: int = 12, seed: int = 7):
    """Every (state, seat) met while playing random legal games (1 to 4 players, both modes)."""
    rng = random.Random(seed)
    for g in range(games):
        state = ENGINE.new_game(1 + g % 4, {"mode": ("classique", "expert")[g % 2]}, seed=rng.randrange(10**6))
        while not state.finished:
            for seat in sorted(ENGINE.expected(state)):
                yield state, seat
                state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))


def test_offered_boxes_and_mats_are_exactly_the_legal_ones():
    checked = 0
    for state, seat in random_states():
        legal = ENGINE.legal_actions(state, seat)
        legal_boxes = {(tuple(a["dice"]), a["orientation"], a["cell"]) for a in legal if a["type"] == BOX}
        offered = {(tuple(a["dice"]), o, cell) for a, o, cells in box_choices(ENGINE, state, seat) for cell in cells}
        assert offered == legal_boxes
        assert set(ENGINE.legal_mats(state, seat)) == {a["cell"] for a in legal if a["type"] == MAT}
        checked += 1
    assert checked > 300


def test_every_legal_action_survives_its_custom_id_and_applies():
    for n, (state, seat) in enumerate(random_states(games=4, seed=3)):
        if n % 5:
            continue
        for action in ENGINE.legal_actions(state, seat):
            arg = encode(action)
            assert decode(arg) == action
            assert len(custom_id(123456789012345678, "confirm", 0, arg)) <= 100
            ENGINE.apply(state, seat, decode(arg))  # legal: no RuleError


def test_a_confirm_of_another_round_is_refused_by_the_engine():
    state = ENGINE.new_game(2, {}, seed=1)
    action = {**ENGINE.legal_actions(state, 0)[0]}
    state, _ = ENGINE.apply(state, 0, action)
    state, _ = ENGINE.apply(state, 1, ENGINE.legal_actions(state, 1)[0])
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 0, decode(encode(action)))
    assert err.value.key == "ranta.error.stale_round" and err.value.params == {"round": 1, "current": 2}


@pytest.mark.parametrize("arg", ["", None, "x", "3", "3.", "3.b333vA1", "3.b201xA1", "3.b20vA1", "3.q", "a.mA1",
                                 "3.mA", "3.m11", "3.pA1", "1234.mA1", "3.b201vA1x"])
def test_malformed_choices_are_refused_precisely(arg):
    with pytest.raises(RuleError) as err:
        decode(arg)
    assert err.value.key == "ranta.error.bad_choice"


def test_codes():
    assert decode("12.b201vD1") == {"type": BOX, "round": 12, "dice": [2, 0, 1], "orientation": "vertical",
                                    "cell": "D1"}
    assert decode("3.mb2") == {"type": MAT, "round": 3, "cell": "B2"}
    assert decode("3.p") == {"type": "pass", "round": 3}
    assert parse_dice("201") == [2, 0, 1] and parse_dice(" 012 ") == [0, 1, 2]
    for typed in ("deux", None, "999", "001", "0123", "2 0 1"):  # refused in the player's words
        with pytest.raises(RuleError) as refused:
            parse_dice(typed)
        assert refused.value.key == "ranta.error.bad_dice_typed"
        assert refused.value.params["typed"] == str(typed or "").strip()
    text = i18n.t("ranta.error.bad_dice_typed", "fr", typed="999")
    assert "« 999 »" in text and "[" not in text and "0, 1 et 2" not in text
    assert round_arg("7") == 7
    with pytest.raises(RuleError):
        round_arg("7a")


def test_the_preview_states_the_score_change_of_the_placement():
    state = ENGINE.new_game(1, {"mode": "classique"}, 5)  # dice 5, 2, 1: a 6-cell box fits on the empty kallax
    assert score_change(ENGINE, state, 0, {"type": MAT, "round": 1, "cell": "A1"}) == (
        -36, -35, {"empty_cells": 1})  # one empty cell less
    box = {"type": BOX, "round": 1, "dice": [0, 1, 2], "orientation": "horizontal", "cell": "A1"}
    assert score_change(ENGINE, state, 0, box) == (-36, -30, {"empty_cells": 6})
    assert ENGINE.view(state, 0)["sheets"][0]["items"] == []  # a preview, nothing applied
    assert score_change_text(-36, -30, "fr") == "Score\u00a0: -36 → -30 (+6 points)."
    assert score_change_text(12, 11, "fr") == "Score\u00a0: 12 → 11 (−1 point)."
    assert score_change_text(5, 12, "en") == "Score: 5 → 12 (+7 points)."
    # the preview says why: each scoring rule that moved, the largest first
    assert score_change_text(-36, -28, "fr", {"empty_cells": 3, "category_group": 3, "mechanic_group": 2}) == (
        "Score\u00a0: -36 → -28 (+8 points).\nPourquoi\u00a0: cases vides +3 · groupes de catégories +3 · "
        "groupes de mécaniques +2")
    assert score_change_text(4, 2, "en", {"mechanic_secret_role": -5, "empty_cells": 3}) == (
        "Score: 4 → 2 (−2 points).\nWhy: secret role −5 · empty cells +3")


def test_every_scoring_rule_has_its_reason():
    for state, seat in random_states(games=6, seed=11):
        for entry in ENGINE.view(state, seat)["sheets"][seat]["breakdown"]:
            for lg in ("fr", "en"):
                assert i18n.has(f"ranta.why.{entry['rule']}", lg), entry["rule"]
    with pytest.raises(RuleError):  # a placement that does not fit has no score change
        score_change(ENGINE, state, 0, {"type": MAT, "round": 1, "cell": "A2"})


def test_a_round_that_opens_shows_every_kallax_the_last_one_left():
    from types import SimpleNamespace

    from cogs.ranta.cog import RantaCog

    game = SimpleNamespace(names=["Alice", "Bruno", "Chloé"], id=1)
    state = ENGINE.new_game(3, {"mode": "classique"}, 5)
    gallery = RantaCog.render_public_gallery
    assert gallery(None, game, ENGINE.view(state, None), "fr") == []  # round 1: nothing to reveal yet
    for seat in range(3):
        state, _ = ENGINE.apply(state, seat, {"type": MAT, "round": 1, "cell": "A1"})
    jobs = gallery(None, game, ENGINE.view(state, None), "fr")
    assert len(jobs) == 4  # the new round's dice, then the three kallaxes
    state, _ = ENGINE.apply(state, 0, {"type": MAT, "round": 2, "cell": "A2"})
    assert gallery(None, game, ENGINE.view(state, None), "fr") == []  # mid-round: the dice alone
    solo = ENGINE.new_game(1, {"mode": "classique"}, 5)
    solo, _ = ENGINE.apply(solo, 0, {"type": MAT, "round": 1, "cell": "A1"})
    assert gallery(None, SimpleNamespace(names=["Alice"], id=2), ENGINE.view(solo, None), "fr") == []
