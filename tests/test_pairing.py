"""Tournament pairings (bot/community/pairing.py): rules on literal cases, then properties over random
tournaments of up to 256 players: no rematch in Swiss, byes spread fairly, everyone seated exactly once
per round, tables of a size the game allows, elimination brackets consistent."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.community import pairing as P
from bot.community.pairing import Bracket, Bye, Entrant, Played, Table

F = Fraction


def entrants(n: int, rng: random.Random | None = None) -> list[Entrant]:
    rng = rng or random.Random(n)
    return [Entrant(1000 + i, round(rng.uniform(800, 1600), 1)) for i in range(n)]


def play(rnd: P.Round, rng: random.Random, abandon: float = 0.05) -> list[Played]:
    """Random outcomes for every table of a round (ties and abandoned games included)."""
    out = []
    for t in rnd.tables:
        if rng.random() < abandon:
            out.append(Played(rnd.number, t.players, None))
        else:
            out.append(Played(rnd.number, t.players, tuple(rng.randint(1, len(t.players)) for _ in t.players)))
    return out


def assert_seated_once(rnd: P.Round, ids: list[int], lo: int, hi: int) -> None:
    seated = rnd.seated()
    assert sorted(seated) == sorted(ids), "everyone seated exactly once"
    for t in rnd.tables:
        assert lo <= len(t.players) <= hi, t


# -- literal cases --------------------------------------------------------------------------------


def test_game_points_two_players_and_tables():
    assert P.game_points([1, 2]) == [1, 0]
    assert P.game_points([2, 1]) == [0, 1]
    assert P.game_points([1, 1]) == [F(1, 2), F(1, 2)]
    assert P.game_points([1, 2, 3, 4]) == [1, F(2, 3), F(1, 3), 0]
    # two tied for second at a table of four share places 2 and 3: (2/3 + 1/3) / 2
    assert P.game_points([1, 2, 2, 4]) == [1, F(1, 2), F(1, 2), 0]
    assert P.game_points(None) == []


def test_standings_tie_breaks_by_hand():
    # A beats B, C beats D (round 1); A beats C, B beats D (round 2). D has a bye in round 3.
    es = [Entrant(1, 1500), Entrant(2, 1400), Entrant(3, 1300), Entrant(4, 1600)]
    games = [Played(1, (1, 2), (1, 2)), Played(1, (3, 4), (1, 2)),
             Played(2, (1, 3), (1, 2)), Played(2, (2, 4), (1, 2))]
    st_ = P.standings(es, games, [Bye(3, 4)])
    table = {s.id: (s.rank, s.points, s.buchholz, s.sonneborn_berger) for s in st_}
    # points: A 2, B 1, C 1, D 1 (bye). Buchholz: A = B + C = 2; B = A + D = 3; C = D + A = 3; D = C + B = 2.
    # Sonneborn-Berger: A = 1*1 + 1*1 = 2; B = 0*2 + 1*1 = 1; C = 1*1 + 0*2 = 1; D = 0 + 0 = 0.
    # B and C: same points, Buchholz, SB -> rating (B 1400 > C 1300).
    assert [s.id for s in st_] == [1, 2, 3, 4]
    assert table[1] == (1, 2, 2, 2)
    assert table[2] == (2, 1, 3, 1)
    assert table[3] == (3, 1, 3, 1)
    assert table[4] == (4, 1, 2, 0)


def test_standings_share_a_rank_on_equal_keys():
    es = [Entrant(1, 1000), Entrant(2, 1000)]
    st_ = P.standings(es, [Played(1, (1, 2), (1, 1))])
    assert [s.rank for s in st_] == [1, 1]


def test_table_sizes_respect_the_game():
    assert P.table_sizes(8, 2, 6) == [4, 4]
    assert P.table_sizes(7, 3, 7) in ([4, 3], [7])
    assert P.table_sizes(9, 2, 4) == [3, 3, 3]  # two tables would need one of five
    assert P.table_sizes(5, 2, 2) == []
    for n in range(3, 60):
        sizes = P.table_sizes(n, 3, 7)
        assert sum(sizes) == n and all(3 <= s <= 7 for s in sizes)
    assert P.table_bounds(1, 8) == (2, 8)  # a solo-capable game is still played against someone
    with pytest.raises(ValueError):
        P.table_bounds(1, 1)


def test_swiss_first_round_follows_the_ratings_and_the_bye_goes_to_the_last():
    es = [Entrant(i, 2000 - i) for i in range(1, 6)]
    rnd = P.swiss_round(1, es, [])
    assert rnd.tables == (Table((1, 2)), Table((3, 4)))
    assert rnd.byes == (5,)


def test_swiss_avoids_a_rematch_even_when_the_greedy_pass_gets_stuck():
    # down the order 1 2 3 4, the greedy pass pairs 1-2 and is left with 3-4, who already met
    assert P.pair_without_rematch([1, 2, 3, 4], {3: {4}, 4: {3}}) in ([(1, 3), (2, 4)], [(1, 4), (2, 3)])
    # a longer chain: 1-2, 3-4 and 5-6 already met, and the bottom pair is stuck twice over
    met = {1: {2}, 2: {1}, 3: {4}, 4: {3}, 5: {6}, 6: {5}}
    pairs = P.pair_without_rematch([1, 2, 3, 4, 5, 6], met)
    assert pairs is not None and not any(b in met.get(a, ()) for a, b in pairs)
    assert sorted(x for p in pairs for x in p) == [1, 2, 3, 4, 5, 6]
    assert P.pair_without_rematch([1, 2, 3, 4], {1: {2, 3, 4}, 2: {1}, 3: {1}, 4: {1}}) is None


def test_swiss_refuses_when_every_pairing_repeats():
    es = [Entrant(1), Entrant(2)]
    with pytest.raises(P.PairingImpossible):
        P.swiss_round(2, es, [Played(1, (1, 2), (1, 2))])


def test_second_bye_only_after_everyone_had_one():
    es = [Entrant(i, 100 - i) for i in range(1, 4)]  # 3 players: a bye every round
    byes: list[Bye] = []
    got = []
    for r in range(1, 4):  # games left out: three rounds of three players would need rematches
        rnd = P.swiss_round(r, es, [], byes)
        got.append(rnd.byes[0])
        byes.append(Bye(r, rnd.byes[0]))
    assert sorted(got) == [1, 2, 3]


def test_bracket_order_and_top_seed_byes():
    assert P.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    b = Bracket([10, 20, 30, 40, 50, 60])  # 6 players in a bracket of 8: seeds 1 and 2 rest
    r1 = b.next_round()
    assert set(r1.byes) == {10, 20}
    assert {frozenset(t.players) for t in r1.tables} == {frozenset((40, 50)), frozenset((30, 60))}
    assert b.rounds_total() == 3


def test_round_robin_circle_everyone_meets_everyone_once():
    es = entrants(7)
    groups = P.round_robin_groups(es, 2, 2)
    assert groups.rounds == 7  # 7 players padded to 8: 7 rounds, one bye each round
    seen = []
    for r in range(1, groups.rounds + 1):
        rnd = P.round_robin_round(r, groups)
        assert_seated_once(rnd, [e.id for e in es], 2, 2)
        assert len(rnd.byes) == 1
        seen += [frozenset(t.players) for t in rnd.tables]
    assert sorted(seen, key=sorted) == sorted({frozenset(p) for p in combinations([e.id for e in es], 2)}, key=sorted)


# -- properties over random tournaments -----------------------------------------------------------

GAMES = st.sampled_from([(2, 2), (2, 6), (3, 7), (2, 4), (2, 8)])  # tectonic/armada, ludix, lutinades, ludime, ranta


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 256), bounds=GAMES, seed=st.integers(0, 10_000), rounds=st.integers(1, 9))
def test_swiss_property(n, bounds, seed, rounds):
    lo, hi = bounds
    if n < lo:
        return
    rng = random.Random(seed)
    es = entrants(n, rng)
    ids = [e.id for e in es]
    games: list[Played] = []
    byes: list[Bye] = []
    rounds = min(rounds, P.max_swiss_rounds(n)) if hi == 2 else rounds
    for r in range(1, rounds + 1):
        before = {p: sum(1 for b in byes if b.player == p) for p in ids}
        rnd = P.swiss_round(r, es, games, byes, lo, hi)
        assert_seated_once(rnd, ids, lo, hi)
        if hi == 2:
            already = P.met(games)
            for t in rnd.tables:
                a, b = t.players
                assert b not in already.get(a, set()), f"rematch {a}-{b} in round {r}"
            assert len(rnd.byes) == n % 2
        for p in rnd.byes:  # fair byes: only the fewest-byes players get one
            assert before[p] == min(before.values())
        byes += [Bye(r, p) for p in rnd.byes]
        counts = [sum(1 for b in byes if b.player == p) for p in ids]
        assert max(counts) - min(counts) <= 1
        games += play(rnd, rng)
    st_ = P.standings(es, games, byes)
    assert sorted(s.id for s in st_) == sorted(ids)
    assert all(a.points >= b.points for a, b in zip(st_, st_[1:], strict=False))
    assert st_[0].rank == 1 and all(a.rank <= b.rank for a, b in zip(st_, st_[1:], strict=False))


@settings(max_examples=200, deadline=None)
@given(n=st.integers(2, 14), seed=st.integers(0, 10_000))
def test_swiss_up_to_the_round_cap_never_repeats(n, seed):
    """The full ``max_swiss_rounds`` with random results: a rematch-free pairing always exists and is found."""
    rng = random.Random(seed)
    es = entrants(n, rng)
    games: list[Played] = []
    byes: list[Bye] = []
    pairs: set[frozenset[int]] = set()
    for r in range(1, P.max_swiss_rounds(n) + 1):
        rnd = P.swiss_round(r, es, games, byes)
        for t in rnd.tables:
            assert frozenset(t.players) not in pairs
            pairs.add(frozenset(t.players))
        byes += [Bye(r, p) for p in rnd.byes]
        games += play(rnd, rng, abandon=0.0)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 256), bounds=GAMES, seed=st.integers(0, 10_000), size=st.integers(2, 12))
def test_round_robin_property(n, bounds, seed, size):
    lo, hi = bounds
    if n < lo:
        return
    rng = random.Random(seed)
    es = entrants(n, rng)
    ids = [e.id for e in es]
    groups = P.round_robin_groups(es, lo, hi, group_size=size)
    assert sorted(p for g in groups.members for p in g) == sorted(ids)
    rounds = groups.rounds or 3
    meetings: dict[frozenset[int], int] = {}
    for r in range(1, rounds + 1):
        rnd = P.round_robin_round(r, groups)
        assert_seated_once(rnd, ids, lo, hi)
        for t in rnd.tables:
            key = frozenset(t.players)
            meetings[key] = meetings.get(key, 0) + 1
    if groups.two_player:
        expected = {frozenset(p) for g in groups.members for p in combinations(g, 2)}
        assert set(meetings) == expected and set(meetings.values()) == {1}
        assert all(len(g) <= size for g in groups.members) or len(groups.members) == 1
        sizes = [len(g) for g in groups.members]
        assert max(sizes) - min(sizes) <= 1


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 256), bounds=GAMES, seed=st.integers(0, 10_000))
def test_elimination_property(n, bounds, seed):
    lo, hi = bounds
    if n < max(2, lo):
        return
    rng = random.Random(seed)
    es = entrants(n, rng)
    seeds = [e.id for e in sorted(es, key=lambda e: -e.rating)]
    b = Bracket(seeds, lo, hi)
    total = b.rounds_total()
    alive = set(seeds)
    out: set[int] = set()
    rounds = 0
    while not b.finished:
        rnd = b.next_round()
        rounds += 1
        assert rounds <= total
        assert sorted(rnd.seated()) == sorted(alive), "every survivor seated once, nobody eliminated plays"
        for t in rnd.tables:
            assert min(lo, len(alive)) <= len(t.players) <= hi
        if hi == 2:
            size = P.next_power_of_two(n)
            if rounds == 1:  # the byes are the top seeds, exactly enough to fill the bracket
                assert sorted(rnd.byes, key=seeds.index) == seeds[: size - n]
            else:
                assert rnd.byes == ()
        results = []
        for t in rnd.tables:  # no tie for first in an elimination game (the service breaks ties by seed)
            ranks = tuple(rng.randint(1, len(t.players)) for _ in t.players)
            results.append(Played(rnd.number, t.players, ranks))
        b.advance(rnd, results)
        now = set(b.slots) - {None}
        assert now <= alive
        assert all(any(p in t.players for t in rnd.tables) or p in rnd.byes for p in now)
        out |= alive - now
        alive = now
        assert len(alive) >= 1
    assert rounds == total
    assert b.champion in seeds and b.champion not in out
    st_ = b.standings(es)
    assert st_[0].id == b.champion and st_[0].rank == 1
    assert sorted(s.id for s in st_) == sorted(seeds)
    assert Bracket.from_dict(b.to_dict()) == b
