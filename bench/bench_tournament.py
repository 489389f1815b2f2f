"""Tournament pairings at scale (bot/community/pairing.py), in-process: every round of a 1,024-player
Swiss (two-player tables, random results with draws and abandoned games), a Swiss at tables of four,
round-robin groups and a seeded elimination bracket. Standings are included in each Swiss round's
time (pairing needs them).

Run: ``.venv/bin/python -m bench.bench_tournament [players] [--round]``. Budget: pairing 1,024 players in at
most 1 s, every round (p99 and max; the script exits non-zero past it). ``--round`` also opens a round of
128 games with the real bot against the strict fake Discord (256 members entered by ``/tournoi inscrire``,
then ``/tournoi lancer``): the time until the last game's first card, and the 429s (budget: none).
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

from bench.common import Timings, percentile
from bot.community import pairing as P

BUDGET_MS = 1000.0
ROUNDS = 10


def outcomes(rnd: P.Round, rng: random.Random) -> list[P.Played]:
    out = []
    for t in rnd.tables:
        if rng.random() < 0.02:
            out.append(P.Played(rnd.number, t.players, None))
        else:
            out.append(P.Played(rnd.number, t.players, tuple(rng.randint(1, len(t.players)) for _ in t.players)))
    return out


def swiss(t: Timings, n: int, lo: int, hi: int, label: str, seed: int) -> None:
    rng = random.Random(seed)
    es = [P.Entrant(10**17 + i, rng.uniform(600, 1800)) for i in range(n)]
    games: list[P.Played] = []
    byes: list[P.Bye] = []
    for r in range(1, ROUNDS + 1):
        t0 = time.perf_counter()
        rnd = P.swiss_round(r, es, games, byes, lo, hi)
        t.add(f"{label}: one round", time.perf_counter() - t0)
        byes += [P.Bye(r, p) for p in rnd.byes]
        games += outcomes(rnd, rng)
    t0 = time.perf_counter()
    P.standings(es, games, byes)
    t.add(f"{label}: final standings", time.perf_counter() - t0)


def open_round(players: int = 256) -> dict:
    from tests.e2e.test_tournament_round_e2e import open_round as run

    tmp = Path(tempfile.mkdtemp(prefix="ludibot-bench-tournament-"))
    return asyncio.run(run(tmp, str(tmp / "ludibot.db"), players))


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    n = int(args[0]) if args else 1024
    t = Timings()
    for seed in range(3):
        swiss(t, n, 2, 2, f"Swiss {n} players, pairs", seed)
        swiss(t, n + 1, 2, 2, f"Swiss {n + 1} players, pairs (a bye)", seed)
        swiss(t, n, 2, 6, f"Swiss {n} players, tables of 4", seed)
    es = [P.Entrant(i, float(i)) for i in range(n)]
    t.time(f"round-robin {n} players in groups of 8: groups + 7 rounds",
           lambda: [P.round_robin_round(r, g) for g in [P.round_robin_groups(es, 2, 2, group_size=8)]
                    for r in range(1, g.rounds + 1)], repeat=10)

    def bracket() -> None:
        rng = random.Random(1)
        b = P.Bracket([e.id for e in es])
        while not b.finished:
            rnd = b.next_round()
            b.advance(rnd, [P.Played(rnd.number, tb.players, (1, 2) if rng.random() < .5 else (2, 1))
                            for tb in rnd.tables])

    t.time(f"elimination bracket of {n}, every round", bracket, repeat=10)
    print(f"### Tournament pairings ({n} players, {ROUNDS} Swiss rounds, 3 runs)\n")
    print("| what | n | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|")
    over = []
    for name, values in t.samples.items():
        p50, p99, mx = percentile(values, 50), percentile(values, 99), max(values)
        print(f"| {name} | {len(values)} | {p50:.1f} | {p99:.1f} | {mx:.1f} |")
        if mx > BUDGET_MS:
            over.append(f"- OVER BUDGET: {name}: max {mx:.0f} ms > {BUDGET_MS:.0f} ms")
    print()
    print("\n".join(over) if over else f"- every round paired within {BUDGET_MS:.0f} ms")
    if "--round" in argv:
        f = open_round(256)
        print(f"\n### Opening a round of {f['games']} games (real bot, strict fake Discord)\n")
        print(f"- last game's first card {f['seconds']:.1f} s after /tournoi lancer; 429s: {f['429']}; "
              f"REST requests over the whole run: {f['requests']}")
        if f["429"]:
            over.append("- 429s while opening the round")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
