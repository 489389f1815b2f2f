"""Lutinades hidden information: the picker never learns the card before choosing.

Whole games are played; at every step a *twin* state is built that differs only
in what the picker may not know (the turned-up card swapped with another one,
the deck in another order). Everything that reaches the picker or a spectator —
views, legal actions, expected seats, AI and timeout choices, every RuleError a
picker's action raises, every event not private to a lutin up to the reveal —
must be identical for the state and its twin, and must not name the card.
The lutins' gestures are likewise hidden from everyone until all have chosen.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engines.base import RuleError
from engines.lutinades import ENGINE, KINDS, SIDES, State, deck

VARIANTS = ("standard", "lutins-malins", "en-grand")


def twin(state: State, rng: random.Random) -> State:
    """The same game with another hidden card (as different as possible) and a reshuffled deck."""
    card = deck()[state.card]
    others = [c for c in state.deck if deck()[c].kind != card.kind and deck()[c].side != card.side
              and deck()[c].big != card.big] or [c for c in state.deck if deck()[c].kind != card.kind] \
        or list(state.deck)
    other = rng.choice(others)
    pile = [card.id if c == other else c for c in state.deck]
    rng.shuffle(pile)
    return replace(state, card=other, deck=tuple(pile))


def picker_probe_actions(state: State) -> list:
    acts = [{"type": "gesture", "gesture": k, "side": s} for k in KINDS for s in (None, *SIDES)]
    acts += [{"type": "follow", "lutin": s} for s in range(-1, state.players + 1)]
    acts += [{"type": "follow"}, {"type": "peek"}, {"type": "look", "card": 0}, None, {}]
    return acts


def outcome(state: State, seat: int, action) -> tuple:
    try:
        new, events = ENGINE.apply(state, seat, action)
    except RuleError as exc:
        return ("error", exc.key, exc.params)
    return ("ok", before_reveal(events))


def public(events: list[dict], lutins: set[int]) -> list[dict]:
    """Events the picker (or anyone) may be told: everything not private to a lutin."""
    return [e for e in events if e.get("private_to") not in lutins]


def before_reveal(events: list[dict]) -> list[dict]:
    out = []
    for e in events:
        if e["type"] == "revealed":
            break
        out.append(e)
    return out


def names_card(payload, card_id: int) -> bool:
    text = json.dumps(payload, sort_keys=True)
    return f'"id": {card_id},' in text or f'"card": {card_id}' in text


def check_picker_blind(state: State, rng: random.Random) -> None:
    if state.card is None:
        return
    other = twin(state, rng)
    p = state.picker
    for seat in (p, None):
        v = ENGINE.view(state, seat)
        assert v["card"] is None
        assert not names_card(v, state.card)
        assert v == ENGINE.view(other, seat)
    assert ENGINE.expected(state) == ENGINE.expected(other)
    assert ENGINE.legal_actions(state, p) == ENGINE.legal_actions(other, p)
    for action in picker_probe_actions(state):
        got = outcome(state, p, action)
        assert got == outcome(other, p, action), action
        assert not names_card(got, state.card)
    if state.phase == "choice":
        for level in (1, 2):
            assert ENGINE.ai_action(state, p, level) == ENGINE.ai_action(other, p, level)
        assert ENGINE.default_action(state, p) == ENGINE.default_action(other, p)


def check_gestures_hidden(state: State, rng: random.Random) -> None:
    """While lutins are choosing, nobody but the lutin sees a chosen gesture."""
    if state.phase != "gestures":
        return
    done = [s for s in range(state.players) if state.gestures[s] is not None]
    if not done:
        return
    lutin = rng.choice(done)
    kind, side = state.gestures[lutin]
    changed = list(state.gestures)
    changed[lutin] = (rng.choice([k for k in KINDS if k != kind]), side)
    other = replace(state, gestures=tuple(changed))
    for seat in [None, *range(state.players)]:
        if seat == lutin:
            continue
        v = ENGINE.view(state, seat)
        assert v["gestures"] is None
        assert v == ENGINE.view(other, seat)
    waiting = sorted(ENGINE.expected(state))
    if len(waiting) > 1:  # the next gesture does not complete the round: same public events
        nxt = waiting[0]
        action = ENGINE.legal_actions(state, nxt)[0]
        assert ENGINE.apply(state, nxt, action)[1] == ENGINE.apply(other, nxt, action)[1]


def choose_action(state: State, seat: int, rng: random.Random):
    r = rng.random()
    if r < 0.4:
        return rng.choice(ENGINE.legal_actions(state, seat))
    if r < 0.8:
        return ENGINE.ai_action(state, seat, rng.choice((1, 2)))
    return ENGINE.default_action(state, seat)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [3, 4, 5, 7])
def test_whole_games_never_show_the_card_to_the_picker(variant, players):
    for seed in range(4):
        rng = random.Random(f"{variant}-{players}-{seed}")
        state = ENGINE.new_game(players, {"variante": variant}, seed)
        steps = 0
        while not ENGINE.is_over(state):
            check_picker_blind(state, rng)
            check_gestures_hidden(state, rng)
            seat = rng.choice(sorted(ENGINE.expected(state)))
            action = choose_action(state, seat, rng)
            lutins = {s for s in range(players) if s != state.picker}
            card = state.card
            new, events = ENGINE.apply(state, seat, action)
            # the same action on the twin tells the picker exactly the same things until the reveal
            other_events = ENGINE.apply(twin(state, rng), seat, action)[1]
            assert before_reveal(public(events, lutins)) == before_reveal(public(other_events, lutins))
            for e in before_reveal(public(events, lutins)):
                assert "card" not in e and not names_card(e, card)
            revealed = [e for e in events if e["type"] == "revealed"]
            if revealed:
                assert revealed[0]["card"]["id"] == card  # the reveal is of the right card
                assert events.index(revealed[0]) > max(i for i, e in enumerate(events)
                                                       if e["type"] in ("gesture_chosen", "followed",
                                                                        "gestures_revealed"))
            state = new
            steps += 1
        assert steps > 10


def test_lutins_see_the_card_and_their_own_gesture_only():
    state = ENGINE.new_game(4, {"variante": "lutins-malins"}, 9)
    for seat in (1, 2, 3):
        assert ENGINE.view(state, seat)["card"]["id"] == state.card
        assert ENGINE.view(state, seat)["role"] == "lutin"
    assert ENGINE.view(state, 0)["role"] == "picker" and ENGINE.view(state, None)["role"] is None
    state, ev = ENGINE.apply(state, 2, {"type": "gesture", "gesture": "down", "side": "left"})
    assert ev == [{"type": "gesture_chosen", "seat": 2, "waiting": 2}]
    assert ENGINE.view(state, 2)["my_gesture"]["gesture"] == "down"
    for seat in (0, 1, 3, None):
        v = ENGINE.view(state, seat)
        assert v["my_gesture"] is None and v["gestures"] is None and v["chosen"] == [2]
        assert "\"gesture\": \"down\"" not in json.dumps(v)
    state, _ = ENGINE.apply(state, 1, {"type": "gesture", "gesture": "up", "side": "left"})
    state, ev = ENGINE.apply(state, 3, {"type": "gesture", "gesture": "small", "side": "right"})
    if state.phase == "choice":  # now public to all, card still hidden from the picker
        assert ENGINE.view(state, 0)["gestures"][2]["gesture"] == "down"
        assert ENGINE.view(state, 0)["card"] is None


def test_an_unseated_or_out_of_range_seat_gets_the_spectator_view():
    state = ENGINE.new_game(4, {}, 3)
    for seat in (None, 4, 99, -1):
        v = ENGINE.view(state, seat)
        assert v["card"] is None and v["role"] is None
