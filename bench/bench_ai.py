"""Benchmark: the solo scores of the Take it to the Limit and Range ta Ludothèque AIs, per level.

Run ``.venv/bin/python -m bench.bench_ai [--seeds 200] [--board-seeds 20] [--first 0] [--games limit ranta]
[--levels 1 2] [--ranta-modes classique expert] [--quick] [--raw]``. Each line is one board/variant
(Limit) or mode (Ranta) and one level, a game for each seed ``first .. first+seeds-1`` (``ENGINE.new_game(players, options, seed)``, the AI playing
every seat) — ``--board-seeds`` of them for Limit's other boards and variants (a level-2 Limit game takes
about 8 s of CPU):
mean, median, best and worst score of seat 0, and the AI's CPU time per move (mean and max,
``time.process_time``, so a loaded machine does not inflate it). Limit's two-board variants
(Déchetterie la plus basse, passe-Déchetterie) need two boards: both are AI seats at the same level, seat
0 is reported. ``--quick`` keeps the headline lines (Limit Nexus standard, Ranta classic and expert). The
figures are kept in docs/benchmarks.md (AI strength) with the seeds used. Targets (issue 37): Limit Nexus standard
solo mean >= 480; Ranta classic and expert +50 % over level 1; every move under 2 s of CPU.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from engines import get

LIMIT_CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("Nexus standard (solo)", 1, {"plateau": "nexus", "variante": "standard"}),
    ("Nexus sans Déchetterie (solo)", 1, {"plateau": "nexus", "variante": "sans-dechetterie"}),
    ("Nexus Déchetterie la plus basse (2 boards)", 2, {"plateau": "nexus", "variante": "dechetterie-basse"}),
    ("Nexus passe-Déchetterie (2 boards)", 2, {"plateau": "nexus", "variante": "passe-dechetterie"}),
    ("Orchidée soleils (solo)", 1, {"plateau": "orchidee", "variante": "standard", "tuiles": "soleil"}),
    ("Orchidée lunes (solo)", 1, {"plateau": "orchidee", "variante": "standard", "tuiles": "lune"}),
    ("Orchidée 64 tuiles (solo)", 1, {"plateau": "orchidee", "variante": "orchidee-64"}),
]
RANTA_CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("classique (solo)", 1, {"mode": "classique"}),
    ("expert (solo)", 1, {"mode": "expert"}),
]
MOVE_BUDGET = 2.0  # seconds of CPU per move at the top level


def play(game: str, players: int, options: dict[str, Any], level: int, seed: int) -> tuple[int, list[float]]:
    """One game, every seat the AI at ``level``: (seat 0's score, CPU seconds of each AI move)."""
    engine = get(game)
    state = engine.new_game(players, options, seed)
    times: list[float] = []
    while not engine.is_over(state):
        for seat in sorted(engine.expected(state)):
            if seat not in engine.expected(state):
                continue
            t0 = time.process_time()
            action = engine.ai_action(state, seat, level)
            times.append(time.process_time() - t0)
            state, _ = engine.apply(state, seat, action)
    return engine.result(state).scores[0], times


#: level-against-level matches: (game, label, seats, options, top level, level below, games, needed share).
#: The top level takes seat ``seed % seats`` (every side in turn); the other seats play the level below.
#: Tectonic and Armada: wins of the top level over whole games (Armada: every round, both sides); Ludix:
#: 2-player games to 300; Lutinades: 4 seats, the top level's share of wins against a fair share (1/4).
DUEL_CASES: list[tuple[str, str, int, dict[str, Any], int, int, int, float]] = [
    ("tectonic", "pic droit, 3 vs 2", 2, {"pic_backward": "droit"}, 3, 2, 200, 0.70),
    ("tectonic", "pic droit, 2 vs 1", 2, {"pic_backward": "droit"}, 2, 1, 200, 0.0),
    ("armada", "11x11, 3 vs 2", 2, {"plateau": "11x11"}, 3, 2, 200, 0.70),
    ("armada", "11x11, 2 vs 1", 2, {"plateau": "11x11"}, 2, 1, 200, 0.0),
    ("ludix", "2 players to 300, 2 vs 1", 2, {"target": 300}, 2, 1, 1000, 0.60),
    ("ludix", "2 players to 300, 1 vs 1", 2, {"target": 300}, 1, 1, 1000, 0.0),
    ("lutinades", "4 seats, 2 vs three 1", 4, {}, 2, 1, 2000, 0.375),
    ("lutinades", "4 seats, 1 vs three 1", 4, {}, 1, 1, 2000, 0.0),
]


def duel(game: str, players: int, options: dict[str, Any], levels: list[int], seed: int
         ) -> tuple[list[int], dict[int, list[float]]]:
    """One game, seat ``s`` the AI at ``levels[s]``: (ranks, CPU seconds of each move per level)."""
    engine = get(game)
    state = engine.new_game(players, options, seed)
    times: dict[int, list[float]] = {level: [] for level in levels}
    while not engine.is_over(state):
        for seat in sorted(engine.expected(state)):
            if seat not in engine.expected(state):
                continue
            t0 = time.process_time()
            action = engine.ai_action(state, seat, levels[seat])
            times[levels[seat]].append(time.process_time() - t0)
            state, _ = engine.apply(state, seat, action)
    return engine.result(state).ranks, times


def measure_duel(game: str, players: int, options: dict[str, Any], top: int, below: int, seeds: range,
                 raw: bool = False) -> dict[str, Any]:
    """The top level at seat ``seed % players`` against the level below everywhere else: its wins
    (alone at rank 1), shared first places, and the CPU per move of the top level."""
    wins = shared = 0
    times: list[float] = []
    for seed in seeds:
        seat = seed % players
        levels = [below] * players
        levels[seat] = top
        ranks, t = duel(game, players, options, levels, seed)
        first = [s for s, r in enumerate(ranks) if r == 1]
        won = first == [seat]
        wins += won
        shared += seat in first and not won
        times += t[top]
        if raw:
            print(f"  {game} | {top} vs {below} | seed {seed} | seat {seat} | ranks {ranks} | "
                  f"{'won' if won else 'tie' if seat in first else 'lost'}", flush=True)
    n = len(seeds)
    return {"wins": wins, "shared": shared, "games": n, "share": wins / n,
            "cpu_mean": statistics.mean(times) if times else 0.0, "cpu_max": max(times, default=0.0)}


def measure(game: str, label: str, players: int, options: dict[str, Any], level: int,
            seeds: range, raw: bool = False) -> dict[str, Any]:
    scores: list[int] = []
    times: list[float] = []
    for seed in seeds:
        s, t = play(game, players, options, level, seed)
        scores.append(s)
        times += t
        if raw:  # game by game, so an interrupted run still tells what it measured
            print(f"  {game} | {label} | {level} | seed {seed} | {s} | max {max(t) * 1000:.0f} ms | "
                  f"sum {sum(t):.2f} s / {len(t)} moves", flush=True)
    return {"game": game, "case": label, "level": level, "mean": statistics.mean(scores),
            "median": statistics.median(scores), "best": max(scores), "worst": min(scores),
            "cpu_mean": statistics.mean(times), "cpu_max": max(times), "games": len(scores), "scores": scores}


DUEL_GAMES = tuple(dict.fromkeys(case[0] for case in DUEL_CASES))


def _anagrams() -> dict[str, list[str]]:
    """Every word of Ludime's lexicon (excluded words left out) by its sorted letters."""
    from engines.ludime.lexicon import excluded, trie

    skip = excluded()
    out: dict[str, list[str]] = {}
    for word in trie().keys():
        if word not in skip:
            out.setdefault("".join(sorted(word)), []).append(word)
    return out


def brute_best(hand: tuple[str, ...] | list[str], min_len: int, anagrams: dict[str, list[str]]) -> int:
    """The best word value a hand allows, found without the AI's search: every choice of some of its
    letters (each letter 0..its count times) looked up among the lexicon's anagrams."""
    from collections import Counter
    from itertools import product

    from engines.ludime.scoring import word_value

    counts = sorted(Counter(hand).items())
    best = 0
    for picks in product(*(range(n + 1) for _, n in counts)):
        if sum(picks) < min_len:
            continue
        key = "".join(letter * k for (letter, _), k in zip(counts, picks, strict=True))
        for word in anagrams.get(key, ()):
            best = max(best, word_value(word))
    return best


def ludime_words(hands: int, first: int) -> int:
    """The Ludime AI's word (its lexicon search) against the exhaustive best of as many 15-letter hands
    (dealt from the shuffled deck, seeds ``first ..``): how often its word scores the best, its CPU per hand."""
    import random

    from engines.ludime.engine import ENGINE as LUDIME
    from engines.ludime.engine import HAND, WORD_MIN
    from engines.ludime.scoring import deck, word_value

    anagrams = _anagrams()
    agree, times = 0, []
    for seed in range(first, first + hands):
        cards = deck()
        random.Random(seed).shuffle(cards)
        hand = tuple(cards[:HAND])
        t0 = time.process_time()
        word = LUDIME.best_word(hand, WORD_MIN)
        times.append(time.process_time() - t0)
        agree += (word_value(word) if word else 0) == brute_best(hand, WORD_MIN, anagrams)
    print("| game | hands (seeds) | the AI's word scores the best | CPU/hand mean | CPU/hand max |")
    print("|---|---|---|---|---|")
    print(f"| ludime | {hands} ({first}..{first + hands - 1}) | {agree} ({agree / hands:.1%}) | "
          f"{statistics.mean(times) * 1000:.0f} ms | {max(times) * 1000:.0f} ms |")
    return 0 if agree == hands and max(times) < MOVE_BUDGET else 1


def duels(games: list[str], first: int, count: int | None, raw: bool, targets_only: bool = False) -> int:
    """Print the level-against-level table of ``games``; 1 when a target or the CPU budget is missed."""
    print("| game | match | seats | games (seeds) | top level wins | shared first | share | target | CPU/move mean "
          "| CPU/move max |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ok = True
    for game, label, players, options, top, below, n, target in DUEL_CASES:
        if game not in games or (targets_only and not target):
            continue
        seeds = range(first, first + (count or n))
        r = measure_duel(game, players, options, top, below, seeds, raw)
        met = r["share"] >= target
        print(f"| {game} | {label} | {players} | {r['games']} ({seeds.start}..{seeds.stop - 1}) | {r['wins']} | "
              f"{r['shared']} | {r['share']:.1%} | {f'≥ {target * 100:g} %' if target else '—'}"
              f"{'' if met else ' MISSED'} | {r['cpu_mean'] * 1000:.0f} ms | {r['cpu_max'] * 1000:.0f} ms |", flush=True)
        ok &= met and r["cpu_max"] < MOVE_BUDGET
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--board-seeds", type=int, default=20, help="seeds for Limit's other boards and variants")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--games", nargs="+", default=["limit", "ranta"], choices=("limit", "ranta"))
    parser.add_argument("--duels", nargs="*", default=None, choices=DUEL_GAMES,
                        help="level-against-level tables instead (every duel game when given alone)")
    parser.add_argument("--duel-games", type=int, default=None, help="games per duel line (default: the case's)")
    parser.add_argument("--targets-only", action="store_true", help="only the duel lines that have a target")
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2], choices=(1, 2))
    parser.add_argument("--ranta-modes", nargs="+", default=[o["mode"] for _, _, o in RANTA_CASES],
                        choices=[o["mode"] for _, _, o in RANTA_CASES], help="the Ranta modes measured")
    parser.add_argument("--quick", action="store_true", help="only Limit Nexus standard, Ranta classic and expert")
    parser.add_argument("--raw", action="store_true", help="also print every game's score as it ends")
    parser.add_argument("--ludime-words", type=int, default=None, metavar="HANDS",
                        help="Ludime's word search against an exhaustive one on HANDS hands instead")
    args = parser.parse_args(argv)
    if args.ludime_words is not None:
        return ludime_words(args.ludime_words, args.first)
    if args.duels is not None:
        return duels(args.duels or list(DUEL_GAMES), args.first, args.duel_games, args.raw, args.targets_only)
    seeds = range(args.first, args.first + args.seeds)
    print("| game | board / mode | level | games (seeds) | mean | median | best | worst | CPU/move mean "
          "| CPU/move max |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ok = True
    for game in args.games:
        cases = LIMIT_CASES if game == "limit" else [c for c in RANTA_CASES if c[2]["mode"] in args.ranta_modes]
        if args.quick and game == "limit":
            cases = cases[:1]
        for i, (label, players, options) in enumerate(cases):
            some = seeds if game == "ranta" or i == 0 else range(args.first, args.first + args.board_seeds)
            if not some:  # (--seeds 0: only Limit's other boards and variants)
                continue
            for level in args.levels:
                r = measure(game, label, players, options, level, some, args.raw)
                print(f"| {game} | {label} | {level} | {len(some)} ({some.start}..{some.stop - 1}) | {r['mean']:.1f} | {r['median']:g} | {r['best']} | "
                      f"{r['worst']} | {r['cpu_mean'] * 1000:.0f} ms | {r['cpu_max'] * 1000:.0f} ms |", flush=True)
                ok &= r["cpu_max"] < MOVE_BUDGET
    if not ok:
        print(f"FAILED: a move took {MOVE_BUDGET} s of CPU or more")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
