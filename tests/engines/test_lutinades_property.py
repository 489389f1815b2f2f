"""Lutinades property test: thousands of random complete games keep every invariant and end.

``LUTINADES_GAMES`` (default 2000) sets how many games are played.
"""

from __future__ import annotations

import os
import random

from engines.lutinades import ENGINE, deck

GAMES = int(os.environ.get("LUTINADES_GAMES", "2000"))
#: the games where the AI seats also play at level 2 (all of them with LUDIBOT_SLOW=1)
LEVEL_2_GAMES = GAMES if os.environ.get("LUDIBOT_SLOW") else 200
VARIANTS = ("standard", "lutins-malins", "en-grand")


def check(state) -> None:
    held = list(state.deck) + list(state.discard) + [c for m in state.mushrooms for c in m]
    if state.card is not None:
        held.append(state.card)
    assert sorted(held) == list(range(len(deck())))  # every card is somewhere, once
    n = state.players
    assert 1 <= state.turn <= 48 and state.picker == (state.turn - 1) % n
    lutins = {s for s in range(n) if s != state.picker}
    expected = ENGINE.expected(state)
    if state.phase == "gestures":
        assert state.card is not None and expected and expected <= lutins
        assert expected == {s for s in lutins if state.gestures[s] is None}
        assert state.gestures[state.picker] is None
    elif state.phase == "choice":
        assert expected == {state.picker} and state.card is not None
        followable = [a["lutin"] for a in ENGINE.legal_actions(state, state.picker)]
        assert len(followable) >= 2 and not set(followable) & set(state.ignored)
        assert len({state.gestures[s] for s in followable}) >= 2  # otherwise unanimous
    else:
        assert state.phase == "over" and expected == set() and state.card is None and len(state.deck) < 2
    if state.variant != "en-grand":
        assert state.ignored == ()


def test_thousands_of_random_games_end_with_every_invariant():
    rng = random.Random(20160105)
    outcomes = set()
    for g in range(GAMES):
        players = rng.randint(3, 7)
        variant = VARIANTS[g % 3]
        state = ENGINE.new_game(players, {"variante": variant}, rng.randrange(1 << 30))
        style = rng.random()
        actions = 0
        while not ENGINE.is_over(state):
            check(state)
            seat = rng.choice(sorted(ENGINE.expected(state)))
            r = rng.random()
            if r < style:
                action = rng.choice(ENGINE.legal_actions(state, seat))
            elif r < (1 + style) / 2:
                # level 2 weighs every gesture against the picker's history (a few ms a move): in the
                # first games only, so that the thousands of games stay a matter of seconds
                action = ENGINE.ai_action(state, seat, rng.choice((1, 2)) if g < LEVEL_2_GAMES else 1)
            else:
                action = ENGINE.default_action(state, seat)
            before = state.mushrooms
            state, events = ENGINE.apply(state, seat, action)
            actions += 1
            assert actions < 48 * 8
            for e in events:
                if e["type"] == "revealed":
                    outcomes.add((variant, e["outcome"]))
                if e["type"] == "gained":
                    assert 0 <= e["count"] <= e["wanted"]
            if variant != "en-grand":  # mushrooms only ever grow without the penalty
                assert all(len(a) <= len(b) for a, b in zip(before, state.mushrooms, strict=True))
        check(state)
        res = ENGINE.result(state)
        assert res.scores == [len(m) for m in state.mushrooms]
        best = max(res.scores)
        assert res.winners == [s for s in range(players) if res.scores[s] == best]
        assert sorted(res.ranks)[0] == 1
    assert {o for v, o in outcomes if v == "standard"} == {"unanimous", "match", "mismatch"}
    assert {o for v, o in outcomes if v == "lutins-malins"} == {"unanimous", "match", "mismatch", "wrong_side"}
