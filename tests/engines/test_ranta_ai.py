"""Range ta Ludothèque's level-2 AI: it plays only from its seat's view (the same move whatever the dice
still to come, whatever the others drew this round), legally through whole games in both modes, the same
move for the same position, and clearly better than level 1. Its fast model of a kallax
(``engines/ranta/model.py``) scores exactly as the engine and offers exactly the engine's moves."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines.ranta import ENGINE
from engines.ranta import model as M
from engines.ranta.engine import _items_data, roll
from engines.ranta.scoring import score

TOP = ENGINE.ai_levels[1]


def test_levels():
    assert ENGINE.ai_levels == (1, 2)
    state = ENGINE.new_game(1, {"mode": "classique"}, 3)
    assert ENGINE.ai_action(state, 0, 1) == ENGINE.greedy_action(state, 0, 1)  # level 1 is unchanged


def after_rounds(mode: str, rounds: int, seed: int, players: int = 1):
    state = ENGINE.new_game(players, {"mode": mode}, seed)
    while state.round_no <= rounds and not state.finished:
        for seat in sorted(ENGINE.expected(state)):
            state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, 1))
    return state


@pytest.mark.parametrize(("mode", "rounds"), [("classique", 3), ("expert", 6), ("expert", 10)])
def test_the_move_ignores_the_dice_to_come(mode, rounds):
    """Another seed fixes other dice for the rounds to come; the rolls seen so far and the sheet are the
    same: the seat cannot tell the two games apart, the AI plays the same move."""
    state = after_rounds(mode, rounds, seed=4)
    move = ENGINE.ai_action(state, 0, TOP)
    for other_seed in (104, 204):
        other = replace(state, seed=other_seed)
        future = [roll(state.seed, r) for r in range(state.round_no + 1, ENGINE.rounds + 1)]
        assert future != [roll(other_seed, r) for r in range(state.round_no + 1, ENGINE.rounds + 1)]
        assert ENGINE.view(other, 0) == ENGINE.view(state, 0)
        assert ENGINE.ai_action(other, 0, TOP) == move


def test_the_move_ignores_what_the_others_drew_this_round():
    """Two players: seat 1 has placed this round (hidden from seat 0 until the round closes); whatever it
    drew, seat 0's view and its AI's move are the same."""
    state = after_rounds("expert", 4, seed=6, players=2)
    moves = ENGINE.legal_actions(state, 1)
    seen = []
    for other_move in (moves[0], moves[-1], ENGINE.greedy_action(state, 1)):
        other, _ = ENGINE.apply(state, 1, other_move)
        assert ENGINE.view(other, 0)["sheets"] == ENGINE.view(state, 0)["sheets"]
        seen.append(ENGINE.ai_action(other, 0, TOP))
    assert seen[0] == seen[1] == seen[2] == ENGINE.ai_action(state, 0, TOP)


def test_the_model_scores_and_moves_as_the_engine():
    """On sheets met in games (greedy and random moves), the fast model's score is the engine's and its
    moves are exactly the engine's legal boxes and mats."""
    import random

    for mode in ("classique", "expert"):
        for seed in range(12):
            state = ENGINE.new_game(1, {"mode": mode}, seed)
            rng = random.Random(seed)
            while not state.finished:
                occ, _games = M.from_items(state.sheets[0])
                legal = [a for a in ENGINE.legal_actions(state, 0) if a["type"] != "pass"]
                modelled = []
                for perm, orientation, slot, _cat, _mech in M.moves(occ, state.dice):
                    if perm is None:
                        modelled.append({"type": "mat", "round": state.round_no, "cell": slot.anchor})
                    else:
                        modelled.append({"type": "box", "round": state.round_no, "dice": list(perm),
                                         "orientation": orientation, "cell": slot.anchor})
                assert sorted(map(repr, modelled)) == sorted(map(repr, legal))
                actions = ENGINE.legal_actions(state, 0)
                action = rng.choice(actions) if rng.random() < 0.5 else ENGINE.greedy_action(state, 0)
                state, _ = ENGINE.apply(state, 0, action)
                occ, games = M.from_items(state.sheets[0])
                assert M.points(games, occ, mode) == score(_items_data(state.sheets[0]), mode)["total"]


def test_the_same_position_gets_the_same_move():
    state = after_rounds("expert", 5, seed=8)
    move = ENGINE.ai_action(state, 0, TOP)
    assert ENGINE.ai_action(state, 0, TOP) == move
    assert ENGINE.ai_action(ENGINE.from_dict(ENGINE.to_dict(state)), 0, TOP) == move


@pytest.mark.parametrize("mode", ["classique", "expert"])
def test_whole_games_of_legal_moves(mode):
    """Two seats at the top level: every move is legal (solo games are played in the test below)."""
    state = ENGINE.new_game(2, {"mode": mode}, 1)
    while not state.finished:
        for seat in sorted(ENGINE.expected(state)):
            action = ENGINE.ai_action(state, seat, TOP)
            assert action in ENGINE.legal_actions(state, seat)
            state, _ = ENGINE.apply(state, seat, action)
    assert ENGINE.result(state) is not None


@pytest.mark.parametrize("mode", ["classique", "expert"])
def test_level_two_beats_level_one_clearly(mode):
    """Fixed seeds, solo: the top level's total is at least 50 % above level 1's (the issue's target, on
    average over 200 seeds; here 55 against 26 in classic, 190 against 83 in expert; deterministic, so
    never flaky). Every move is legal (the engine's ``apply`` refuses any other)."""

    def total(level: int) -> int:
        out = 0
        for seed in SEEDS:
            state = ENGINE.new_game(1, {"mode": mode}, seed)
            while not state.finished:
                state, _ = ENGINE.apply(state, 0, ENGINE.ai_action(state, 0, level))
            out += ENGINE.result(state).scores[0]
        return out

    assert total(TOP) >= 3 * total(1) / 2


SEEDS = (0, 1, 2)


def _features_as_first_written(games, occ, mode, left):
    """The estimate's features, written plainly (the AI computes them in one pass): the reference."""
    empty = len(M.CELLS) - bin(occ).count("1")
    fill = room = cover = 0
    room_of, fill_of = {}, {}
    for cubby in M.CUBBIES:
        f, g, c = M.LOCAL_TABLE[M.cubby_bits(occ, cubby)]
        fill, room, cover = fill + f, room + g, cover + c
        room_of[cubby], fill_of[cubby] = g, f
    common = [empty, max(0, fill - left), min(left, room), empty - cover]
    if mode == "classique":
        now, grow, open_best, singles = -empty, 0, 0, 0
        for attr in (0, 1):
            best_open = 0
            for size, halo, count in M.largest_groups(games, attr):
                now += size if size >= 2 else 0
                if size and halo & ~occ:
                    grow += size
                    best_open = max(best_open, size)
                singles += count - size
            open_best += best_open
        return now, [*common, grow, open_best, singles]
    effects, full = M.expert_parts(games, occ)
    mates = {}
    for g in games:
        mates.setdefault(g.cubby, []).append(g)

    def count(test):
        return sum(1 for g in games if test(g))

    def not_full(g):
        return occ & M.CUBBY_MASK[g.cubby] != M.CUBBY_MASK[g.cubby]

    def different(g):
        near = mates[g.cubby]
        return len({m.category for m in near}) == len(near) and len({m.mechanic for m in near}) == len(near)

    memory, secrets = count(lambda g: g.mechanic == M.MEMORY), count(lambda g: g.mechanic == M.SECRET)
    return effects + full - empty, [
        *common, 2 * count(not_full),
        sum(room_of[g.cubby] for g in games if g.mechanic == M.DECK),
        sum(room_of[g.cubby] for g in games if g.category == M.C),
        secrets == 0, max(0, 3 - memory) if memory else 0,
        count(lambda g: g.category == M.T and room_of[g.cubby]),
        count(lambda g: g.mechanic == M.BLUFF and g.halo & ~occ),
        count(lambda g: g.mechanic == M.PROGRAMMING and g.halo & ~occ),
        count(lambda g: g.category == M.T and not different(g)),
        secrets >= 2, count(lambda g: not_full(g) and fill_of[g.cubby] > left), memory == 1]


@pytest.mark.parametrize("mode", ["classique", "expert"])
def test_the_one_pass_features_are_the_plain_ones(mode):
    """Every kallax met in games (greedy, random and level-2 moves) and every move from it: the AI's
    one-pass features and exact score are the plain definitions' (and the score is the model's)."""
    import random

    from engines.ranta import ai

    rng = random.Random(7)
    checked = 0
    for seed in range(40):
        occ, games = 0, ()
        for r in range(1, ENGINE.rounds + 1):
            left = ENGINE.rounds - r
            options = []
            for perm, _o, slot, cat, mech in M.moves(occ, roll(seed, r)):
                new_games = games if perm is None else (*games, M.game_of(slot, cat, mech))
                new_occ = occ | slot.mask
                now, feats = ai.features(new_games, new_occ, mode, left)
                ref_now, ref = _features_as_first_written(new_games, new_occ, mode, left)
                assert (now, [float(f) for f in feats]) == (ref_now, [float(f) for f in ref])
                assert now == M.points(new_games, new_occ, mode)
                options.append((new_games, new_occ))
                checked += 1
            if options:
                games, occ = rng.choice(options) if seed % 2 else ai.policy_step(
                    games, occ, roll(seed, r), left, mode, ai.WEIGHTS[mode])
    assert checked > 5000


def test_the_move_by_move_estimate_is_the_whole_one():
    """The rollouts' hot path (``expert_values``: each move's estimate from its parent kallax) gives,
    move for move, the estimate computed from scratch, at every number of rounds left."""
    import random

    from engines.ranta import ai

    rng = random.Random(11)
    weights = tuple(rng.uniform(-2, 2) for _ in ai.WEIGHTS["expert"])  # every feature counts
    checked = 0
    for seed in range(60):
        occ, games = 0, ()
        for r in range(1, ENGINE.rounds + 1):
            dice = roll(seed, r)
            for left in {ENGINE.rounds - r, 0, 5}:
                got = list(ai.expert_values(games, occ, dice, left, weights))
                moves = M.moves(occ, dice)
                assert len(got) == len(moves)
                for (v, new_games, new_occ), (perm, _o, slot, cat, mech) in zip(got, moves, strict=True):
                    expected_games = games if perm is None else (*games, M.game_of(slot, cat, mech))
                    assert (new_games, new_occ) == (expected_games, occ | slot.mask)
                    assert v == ai.value(new_games, new_occ, "expert", left, weights)
                    checked += 1
            if got:
                games, occ = rng.choice(got)[1:] if seed % 3 == 0 else ai.policy_step(
                    games, occ, dice, ENGINE.rounds - r, "expert", ai.WEIGHTS["expert"])
    assert checked > 10000
