"""Lutinades level 2 (standard and en grand): stronger than level 1, from its seat's view only.

Level 2 weighs each move by the mushrooms it brings, its own less its rivals' (a rival ahead counts
more): as a lutin against level-1 lutins and a level-1 picker, as the picker from the gestures shown
and the cards not yet revealed (engines/lutinades.py, ``best_gesture`` and ``best_follow``).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engines.lutinades import ENGINE, KINDS, deck


def _duel(seed: int, top: int) -> bool:
    """A 4-seat standard game, ``top``'s level at seat ``seed % 4`` and level 1 elsewhere: won alone?"""
    state = ENGINE.new_game(4, {}, seed)
    seat = seed % 4
    while not ENGINE.is_over(state):
        for s in sorted(ENGINE.expected(state)):
            if s in ENGINE.expected(state):
                state, _ = ENGINE.apply(state, s, ENGINE.ai_action(state, s, top if s == seat else 1))
    ranks = ENGINE.result(state).ranks
    return [s for s, r in enumerate(ranks) if r == 1] == [seat]


def test_level_2_wins_far_more_than_its_share_against_three_level_1():
    """Seeds 0..399, each seat in turn: level 2 wins alone 157 games (39 %; a fair share is 25 %,
    docs/benchmarks.md: 41.0 % over 2000), where level 1 in its place wins 74."""
    best = sum(_duel(seed, 2) for seed in range(400))
    same = sum(_duel(seed, 1) for seed in range(400))
    assert best >= 0.35 * 400, best
    assert best >= 1.8 * same, (best, same)


def _twin(state, rng: random.Random):
    """The same game as a lutin who has not chosen yet sees it: the other lutins' chosen gestures
    changed, the deck in another order, the mushrooms (face down) swapped with deck cards."""
    gestures = list(state.gestures)
    for s, g in enumerate(gestures):
        if g is not None:
            gestures[s] = (rng.choice([k for k in KINDS if k != g[0]]), g[1])
    pile = list(state.deck)
    mushrooms = []
    for won in state.mushrooms:
        swapped = []
        for c in won:
            i = rng.randrange(len(pile)) if pile else None
            if i is None:
                swapped.append(c)
            else:
                swapped.append(pile[i])
                pile[i] = c
        mushrooms.append(tuple(swapped))
    rng.shuffle(pile)
    return replace(state, gestures=tuple(gestures), deck=tuple(pile), mushrooms=tuple(mushrooms))


@pytest.mark.parametrize("variant", ["standard", "en-grand"])
def test_level_2_plays_from_its_view_only(variant):
    """A lutin's gesture is the same whatever the other lutins chose before it and whatever the
    hidden cards (deck order, face-down mushrooms); the picker's follow likewise, whatever the card
    and the deck (the card swapped with a deck card of another kind)."""
    rng = random.Random(variant)
    lutins = pickers = 0
    for seed in range(24):
        state = ENGINE.new_game(4, {"variante": variant}, seed)
        while not ENGINE.is_over(state):
            for s in sorted(ENGINE.expected(state)):
                if s not in ENGINE.expected(state):
                    continue
                if s != seed % 4:  # level 1 elsewhere (level-2 lutins alike would all make one gesture)
                    state, _ = ENGINE.apply(state, s, ENGINE.ai_action(state, s, 1))
                    continue
                action = ENGINE.ai_action(state, s, 2)
                if state.phase == "gestures":
                    assert ENGINE.ai_action(_twin(state, rng), s, 2) == action
                    lutins += 1
                else:
                    others = [c for c in state.deck if deck()[c].kind != deck()[state.card].kind]
                    if others:
                        other = rng.choice(others)
                        pile = [state.card if c == other else c for c in state.deck]
                        rng.shuffle(pile)
                        twin = _twin(replace(state, card=other, deck=tuple(pile)), rng)
                        assert ENGINE.ai_action(replace(twin, gestures=state.gestures), s, 2) == action
                        pickers += 1
                state, _ = ENGINE.apply(state, s, action)
    assert lutins > 150 and pickers > 40


def test_level_2_picker_counts_the_revealed_cards():
    """Two lutins show « up », one « down »: level 1 follows an « up »; level 2 too, unless every « up »
    card is already revealed — then the « down » lutin is the only one who may be right."""
    state = ENGINE.new_game(4, {}, 3)
    card = next(c.id for c in deck() if c.kind == "down" and c.id != state.card)
    ups = tuple(c.id for c in deck() if c.kind == "up")
    pile = tuple(c.id for c in deck() if c.id not in {card, *ups})
    state = replace(state, card=card, deck=pile)
    for seat, kind in ((1, "up"), (2, "up"), (3, "down")):
        state, _ = ENGINE.apply(state, seat, {"type": "gesture", "gesture": kind, "side": None})
    assert state.phase == "choice"
    assert ENGINE.ai_action(state, 0, 1)["lutin"] in (1, 2)
    assert ENGINE.ai_action(state, 0, 2)["lutin"] in (1, 2)
    assert ENGINE.ai_action(replace(state, discard=ups), 0, 2) == {"type": "follow", "lutin": 3}


def test_level_2_lutin_bluffs_rather_than_pay_the_picker():
    """Scores level, a lutin who sees an « up » card shows another kind (a level-1 picker follows
    the most shown gesture: the truth would mostly pay the picker), and never the forbidden
    « small » in en grand."""
    for variant in ("standard", "en-grand"):
        for seed in range(20):
            state = ENGINE.new_game(4, {"variante": variant}, seed)
            card = deck()[state.card]
            for s in sorted(ENGINE.expected(state)):
                gesture = ENGINE.ai_action(state, s, 2)["gesture"]
                assert gesture != card.kind
                assert variant == "standard" or gesture != "small"
