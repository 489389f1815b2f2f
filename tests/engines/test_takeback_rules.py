"""What each engine lets a player take back (issue 26; docs/rules/<game>.md, "Takebacks").

Rule cases per game, then one property over random playouts of every game: a move an engine
calls undoable used no chance — applied again from a state with another seed, it gives the same
state — and never ended the game.
"""

from __future__ import annotations

import random

import pytest

import engines
from engines.base import refusal_from_events

ALL = sorted(engines.GAMES)


def refusal(engine, state, seat, action):
    after, events = engine.apply(state, seat, action)
    return after, engine.takeback_refusal(state, seat, action, after, events)


def current(engine, state):
    return sorted(engine.expected(state))[0]


# --- per game ---------------------------------------------------------------------------------------------
def test_ludime_a_card_drawn_from_the_pile_never_comes_back_the_discard_taken_does():
    e = engines.get("ludime")
    s = e.new_game(2, {"variant": "main"}, 3)
    seat = s.current
    s1, why = refusal(e, s, seat, {"type": "draw", "source": "pile"})
    assert why == "undo.reason.pile"
    # an exchange (first turn, after the draw) receives cards from the pile: never
    letters = list(s1.hands[seat][:2])
    _, why = refusal(e, s1, seat, {"type": "exchange", "letters": letters})
    assert why == "undo.reason.pile"
    # a discard reveals nothing by itself: the others may let it be taken back
    s2, why = refusal(e, s1, seat, {"type": "discard", "letter": s1.hands[seat][0]})
    assert why is None
    other = s2.current
    s3, _ = e.apply(s2, other, {"type": "draw", "source": "pile"})
    s4, _ = e.apply(s3, other, {"type": "discard", "letter": s3.hands[other][0]})
    # taking the (public) discard: a step of the turn, taken back at once
    _, why = refusal(e, s4, seat, {"type": "draw", "source": "discard"})
    assert why is None


def test_ranta_the_placement_that_closes_the_round_rolls_the_dice():
    e = engines.get("ranta")
    solo = e.new_game(1, {}, 5)
    _, why = refusal(e, solo, 0, e.legal_actions(solo, 0)[0])
    assert why in ("undo.reason.dice", "undo.reason.round_closed")
    duo = e.new_game(2, {}, 5)
    s1, why = refusal(e, duo, 0, e.legal_actions(duo, 0)[0])
    assert why is None  # hidden from the others until the round closes, no die yet
    _, why = refusal(e, s1, 1, e.legal_actions(s1, 1)[0])
    assert why in ("undo.reason.dice", "undo.reason.round_closed")


def test_limit_the_placement_that_closes_the_round_turns_the_next_tile_up():
    e = engines.get("limit")
    s = e.new_game(2, {}, 5)
    s1, why = refusal(e, s, 0, e.legal_actions(s, 0)[0])
    assert why is None
    _, why = refusal(e, s1, 1, e.legal_actions(s1, 1)[0])
    assert why in ("undo.reason.tile", "undo.reason.round_closed")


def test_tectonic_every_move_but_the_last_one_may_be_taken_back():
    e = engines.get("tectonic")
    s = e.new_game(2, {}, 1)
    for action in e.legal_actions(s, 0):
        assert refusal(e, s, 0, action)[1] is None
    _, why = refusal(e, s, 0, {"type": "resign"})
    assert why == "undo.reason.game_over"


def test_armada_a_placement_may_be_taken_back_the_end_of_a_round_not():
    e = engines.get("armada")
    s = e.new_game(2, {}, 1)
    seat = current(e, s)
    assert refusal(e, s, seat, e.legal_actions(s, seat)[0])[1] is None
    rng = random.Random(4)
    for _ in range(3000):  # play to the end of the first round: that move is refused
        seat = current(e, s)
        action = rng.choice(e.legal_actions(s, seat))
        after, events = e.apply(s, seat, action)
        if any(ev["type"] in ("round_over", "round_drawn") for ev in events):
            assert e.takeback_refusal(s, seat, action, after, events) in ("undo.reason.round_scored",
                                                                          "undo.reason.game_over")
            break
        s = after
    else:
        pytest.fail("no round ended")


@pytest.mark.parametrize("kind,reason", [("ludix", "undo.reason.ludix"), ("lutinades", "undo.reason.lutinades")])
def test_games_where_nothing_is_ever_taken_back_say_why(kind, reason):
    e = engines.get(kind)
    s = e.new_game(max(2, e.min_players), None, 2)
    seat = current(e, s)
    assert refusal(e, s, seat, e.legal_actions(s, seat)[0])[1] == reason


def test_the_common_form_reads_the_first_revealing_event_and_the_end():
    table = {"rolled": "undo.reason.dice"}
    assert refusal_from_events([{"type": "placed"}], table) is None
    assert refusal_from_events([{"type": "placed"}, {"type": "rolled"}], table) == "undo.reason.dice"
    assert refusal_from_events([{"type": "game_over"}], table) == "undo.reason.game_over"


# --- every game: what may be taken back used no chance ------------------------------------------------------
def reseeded(engine, state, seed):
    return engine.from_dict({**engine.to_dict(state), "seed": seed})


@pytest.mark.parametrize("kind", ALL)
def test_an_undoable_move_used_no_chance_and_did_not_end_the_game(kind):
    e = engines.get(kind)
    rng = random.Random(kind)
    undoable = 0
    for game in range(3):
        s = e.new_game(max(2, e.min_players), None, 100 + game)
        for _ in range(300):
            if e.is_over(s):
                break
            seat = rng.choice(sorted(e.expected(s)))
            actions = e.legal_actions(s, seat) or [e.default_action(s, seat)]
            action = rng.choice(actions)
            after, events = e.apply(s, seat, action)
            if e.takeback_refusal(s, seat, action, after, events) is None:
                undoable += 1
                assert not e.is_over(after)
                other, _ = e.apply(reseeded(e, s, 987654), seat, action)
                assert {**e.to_dict(other), "seed": None} == {**e.to_dict(after), "seed": None}, action
            s = after
    if kind in ("ludix", "lutinades"):
        assert undoable == 0
    else:
        assert undoable > 0
