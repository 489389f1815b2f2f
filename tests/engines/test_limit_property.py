"""Take it to the Limit: many random complete games of every board and variant.

Each game mixes random legal actions, the greedy AI and the timeout default. After
every game: no exception, every announced tile sits exactly once on every board,
every breakdown's total equals the sum of its items, the result matches the totals.
The quick test plays a dozen per configuration; the slow one plays 600 per configuration in
``make test`` (6,600 in all, about a minute) and 2,000 with ``LUDIBOT_SLOW=1`` (22,000, a few
minutes: the soak); ``LIMIT_PROPERTY_GAMES`` sets that number.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest

from engines.limit import ENGINE, ORCHIDEE

CONFIGS = [
    (1, {}),
    (3, {}),
    (2, {"variante": "dechetterie-basse"}),
    (3, {"variante": "passe-dechetterie"}),
    (1, {"variante": "sans-dechetterie"}),
    (2, {"plateau": "orchidee"}),
    (1, {"plateau": "orchidee", "tuiles": "lune"}),
    (2, {"plateau": "orchidee", "variante": "orchidee-64"}),
    (4, {"paires": True, "variante": "dechetterie-basse"}),
    (2, {"serie": 2, "variante": "passe-dechetterie"}),
    (2, {"serie": 2, "plateau": "orchidee"}),
]
IDS = [f"{p}p-" + "-".join(f"{k}={v}" for k, v in o.items()) for p, o in CONFIGS]


def play_random(players, options, seed, check_views=False):
    rng = random.Random(seed)
    state = ENGINE.new_game(players, options, seed)
    steps = 0
    limit = ENGINE.rounds(state) * players * 3 * state.serie + 50
    while not ENGINE.is_over(state):
        expected = sorted(ENGINE.expected(state))
        assert expected, "a running game always waits for someone"
        seat = rng.choice(expected)
        roll = rng.random()
        if roll < 0.15:
            action = ENGINE.ai_action(state, seat)
        elif roll < 0.2:
            action = ENGINE.default_action(state, seat)
        else:
            action = rng.choice(ENGINE.legal_actions(state, seat))
        state, events = ENGINE.apply(state, seat, action)
        assert all("type" in e for e in events)
        steps += 1
        assert steps < limit
        if check_views and steps % 17 == 0:
            json.dumps(ENGINE.view(state, seat))
            json.dumps(ENGINE.view(state, None))
    return state


def check_invariants(state):
    assert ENGINE.expected(state) == set() and ENGINE.legal_actions(state, 0) == []
    assert len(state.history) == state.serie
    rounds = ENGINE.rounds(state)
    for g, rec in enumerate(state.history):
        announced = Counter(ENGINE._deck(state, g)[:rounds])
        for b, (cells, orchid) in enumerate(zip(rec["cells"], rec["orchids"], strict=True)):
            on_hexes = Counter(t for pos, t in cells.items() if pos not in ORCHIDEE.hole_names)
            assert on_hexes + Counter(orchid) == announced  # every tile used once, on every board
            holes = [t for pos, t in cells.items() if pos in ORCHIDEE.hole_names]
            assert set(holes) <= set(orchid) and len(holes) == len(set(holes))
            bd = rec["breakdowns"][b]
            assert bd["total"] == sum(bd["items"].values()) == rec["scores"][b]
            if "dechetterie" in bd:
                assert bd["dechetterie"]["value"] == max(bd["dechetterie"]["options"].values())
    totals = [sum(rec["scores"][b] for rec in state.history) for b in range(ENGINE.n_boards(state))]
    assert totals == list(state.totals)
    r = ENGINE.result(state)
    assert r.scores == [state.totals[ENGINE.board_of(state, s)] for s in range(state.players)]
    assert min(r.ranks) == 1


@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=IDS)
def test_random_games(players, options):
    for seed in range(12):
        check_invariants(play_random(players, options, 1000 + seed, check_views=seed == 0))


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=IDS)
def test_many_random_games(players, options):
    default = "2000" if os.environ.get("LUDIBOT_SLOW") == "1" else "600"
    for seed in range(int(os.environ.get("LIMIT_PROPERTY_GAMES", default))):
        check_invariants(play_random(players, options, 50_000 + seed))
