"""bench_ai's level-against-level lines: the top level takes every seat in turn and is counted right."""

from __future__ import annotations

from bench import bench_ai


def test_a_duel_seats_each_level_where_it_is_told():
    seen = []
    real = bench_ai.get

    def spying(game):
        engine = real(game)

        class Spy:
            def __getattr__(self, name):
                return getattr(engine, name)

            def ai_action(self, state, seat, level=1):
                seen.append((seat, level))
                return engine.ai_action(state, seat, level)

        return Spy()

    bench_ai.get = spying
    try:
        ranks, times = bench_ai.duel("ludix", 2, {"target": 100}, [1, 2], seed=3)
    finally:
        bench_ai.get = real
    assert sorted(set(seen)) == [(0, 1), (1, 2)]
    assert sorted(ranks) in ([1, 2], [1, 1]) and set(times) == {1, 2}
    assert len(times[1]) + len(times[2]) == len(seen)


def test_shares_count_lone_first_places_and_ludix_level_2_beats_level_1():
    r = bench_ai.measure_duel("lutinades", 4, {}, 2, 1, range(8))
    assert r["games"] == 8 and 0 <= r["wins"] + r["shared"] <= 8 and r["share"] == r["wins"] / 8
    # level 2 against level 1 at Ludix over 300 games: it wins more than half (57 % over 1000 in the bench)
    assert bench_ai.measure_duel("ludix", 2, {"target": 300}, 2, 1, range(300))["share"] > 0.5
