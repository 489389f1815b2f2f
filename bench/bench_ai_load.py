"""The AI off the event loop (issue 37): other members' commands under 20 concurrent top-level AI games.

Run: ``.venv/bin/python -m bench.bench_ai_load [--seconds 25] [--ai-games 20] [--no-thread]``.

The real bot against the fake Discord (``tests/e2e/harness.py``). ``LUDIX`` Ludix games (two members each,
their own channels) are played throughout at a steady pace (each player clicks as soon as the next buttons
show, then waits ``PAUSE`` s); their callback latency (interaction → the bot's answer) is the "other
commands" whose p99 must stay under 150 ms. Per mode, one bot process:

1. **no AI**: the Ludix games alone for ``--seconds`` s (the reference, in the same minutes as 2.);
2. **20 AI games**: meanwhile ``--ai-games`` members each play Tectonic against the level-3 bot (its top
   level: iterative deepening within its node budget) in their own channel, each move by ``/tectonic jouer``
   (her moves by the level-1 AI) ``--think`` s (default 3) after the bot's answer. ``--level 1`` is the
   control: the same games and pace with a search of a few ms, so the games' own traffic (commands,
   pictures) is told apart from the top level's CPU.

Modes: ``pool`` (the AI seats think in the AI worker process, ``LUDIBOT_AI_WORKERS=1``: what the bot does)
and ``thread`` (``LUDIBOT_AI_WORKERS=0``: the former path, a thread of the bot's own process, holding its
interpreter lock), for comparison. ``LUDIBOT_AI_NICE`` passes through to the bot (the AI worker's niceness). The AI's CPU per move comes from the bot's log (``thought … s of CPU``,
measured by the thread that searched): max and mean per game, and over all. The load average is printed
beside each figure: the machine is shared. The exit status is 1 when the pool's p99 with the AI games is
over the budget or an AI move is over 2 s of CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_throughput import Game
from bench.common import percentile
from fakediscord import FakeDiscord
from fakediscord.api import DeadlineMissed
from tests.e2e.harness import start_bot
from tests.e2e.tectonic_driver import ENGINE, Reader, answered, board_messages, game_id_of, send_move

LUDIX = 5  # Ludix games (10 members) played throughout
PAUSE = 0.2  # s a Ludix player waits after each answer: about 20 moves/s in all
THINK = 3.0  # s a member of an AI game thinks before each move (``--think``): the same traffic at every level
LEVEL = 3  # Tectonic's top level (``--level 1``: the same games' traffic with a search of a few ms)
BUDGET_MS = 150.0  # p99 of every command (issue 37's "must hold")
MOVE_CPU_BUDGET = 2.0  # s of CPU per AI move at the top level
THOUGHT = re.compile(r"game (\d+): the level-(\d) AI of seat \d thought ([0-9.]+) s of CPU")


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


async def ludix_phase(games: list[Game], seconds: float) -> tuple[list[float], int]:
    """The Ludix games played for ``seconds``: (callback latencies ms, moves not answered in time)."""
    latencies: list[float] = []
    lost = 0
    end = time.perf_counter() + seconds

    async def player(game: Game) -> None:
        nonlocal lost
        while time.perf_counter() < end:
            latency, _ = await game.move()
            if latency is None:
                lost += 1
            else:
                latencies.append(latency * 1000)
            await asyncio.sleep(PAUSE)

    await asyncio.gather(*(player(g) for g in games))
    return latencies, lost


async def ai_game(fake, reader: Reader, user, channel: str, stop: asyncio.Event, ids: list[int],
                  late: list[str], level: int, think: float) -> int:
    """One member against the level-3 bot until ``stop``; returns the moves she made. A command of hers
    answered past Discord's 3 s is noted in ``late`` (not one of the measured commands) and play goes on."""
    res = await fake.run_command(user, channel, "tectonic start", adversaire="bot", niveau=level, until=answered,
                                 check_deadline=False)
    if res.late or res.latency is None:
        late.append(f"{channel} start")
    boards = board_messages(res)
    if len(boards) != 1:  # the start itself was lost (no callback in time): this member does not play
        late.append(f"{channel} no game")
        return 0
    game_id = game_id_of(boards[0])
    ids.append(game_id)
    moves = 0
    while not stop.is_set():
        _, state = await reader.state(game_id)
        if state.finished:
            break
        if ENGINE.expected(state) != {0}:  # the bot still thinking: its answer is on its way
            await asyncio.sleep(0.1)
            continue
        await asyncio.sleep(think)
        if stop.is_set():
            break
        try:
            await send_move(fake, user, ENGINE.ai_action(state, 0, 1), channel=channel)
        except DeadlineMissed:
            late.append(f"{channel} move")
            await asyncio.sleep(0.5)
            continue
        moves += 1
    return moves


async def run_mode(mode: str, seconds: float, ai_games: int, level: int = LEVEL, think: float = THINK) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix=f"ludibot-ai-{mode}-"))
    ludix_channels = [f"ludix{i}" for i in range(LUDIX)]
    ai_channels = [f"ia{i}" for i in range(ai_games)]
    fake = FakeDiscord(guild_name="Bench", channels=ludix_channels + ai_channels, settle=0.02, timeout=60)
    players = [fake.add_user(f"J{i}", locale="fr") for i in range(2 * LUDIX)]
    ai_players = [fake.add_user(f"IA{i}", locale="fr") for i in range(ai_games)]
    await fake.start()
    nice = {"LUDIBOT_AI_NICE": os.environ["LUDIBOT_AI_NICE"]} if "LUDIBOT_AI_NICE" in os.environ else {}
    bot = await start_bot(fake, tmp, extra_env={"LUDIBOT_AI_WORKERS": "1" if mode == "pool" else "0",
                                                "LUDIBOT_CLOCK_FILE": "", **nice})
    out: dict = {"mode": mode}
    try:
        games = [Game(fake, ch, players[2 * i:2 * i + 2]) for i, ch in enumerate(ludix_channels)]
        await asyncio.gather(*(g.start() for g in games))
        await ludix_phase(games, 3.0)  # warm-up: the render workers have drawn, the emojis are made
        out["base"], out["base_lost"] = await ludix_phase(games, seconds)
        out["base_load"] = load()
        stop = asyncio.Event()
        ids: list[int] = []
        out["ai_late"] = late = []
        async with Reader(bot.db) as reader:
            ai = []
            for u, ch in zip(ai_players, ai_channels, strict=True):  # the games open within a few seconds
                ai.append(asyncio.create_task(ai_game(fake, reader, u, ch, stop, ids, late, level, think)))
                await asyncio.sleep(0.15)
            await asyncio.sleep(2.0)  # every AI game started and thinking
            out["ai"], out["ai_lost"] = await ludix_phase(games, seconds)
            out["ai_load"] = load()
            stop.set()
            out["ai_moves"] = sum(await asyncio.gather(*ai))
        out["ids"] = set(ids)
        out["errors"] = list(fake.errors)
    finally:
        bot.kill()
        await fake.stop()
    per_game: dict[int, list[float]] = {}
    for m in THOUGHT.finditer(bot.log):
        if int(m.group(2)) == level and int(m.group(1)) in out["ids"]:
            per_game.setdefault(int(m.group(1)), []).append(float(m.group(3)))
    out["cpu"] = per_game
    return out


def show(rows: list[dict], ai_games: int, seconds: float, level: int = LEVEL) -> int:
    failures = 0
    print(f"### Other commands under {ai_games} Tectonic games against the level-{level} bot "
          f"({LUDIX} Ludix games played meanwhile, {seconds:.0f} s per phase)\n")
    print("| AI thinks in | phase | Ludix moves | callback p50 ms | p99 ms | max ms | unanswered | AI moves "
          "| load average |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        for phase, key in (("no AI game", "base"), (f"{ai_games} AI games", "ai")):
            lat = r[key]
            moves = r["ai_moves"] if key == "ai" else 0
            print(f"| {r['mode']} | {phase} | {len(lat)} | {statistics.median(lat):.1f} | {percentile(lat, 99):.1f} "
                  f"| {max(lat):.1f} | {r[key + '_lost']} | {moves} | {r[key + '_load']} |")
        base, ai = percentile(r["base"], 99), percentile(r["ai"], 99)
        print(f"| {r['mode']} | ratio p99 AI / no AI | | | {ai / base:.2f}× | | | | |")
    print()
    for r in rows:
        cpu = r["cpu"]
        every = [c for v in cpu.values() for c in v]
        if not every:
            print(f"- MEASURED NOTHING: no AI move in the {r['mode']} run")
            failures += 1
            continue
        print(f"AI CPU per move ({r['mode']}): {len(every)} moves in {len(cpu)} games, mean "
              f"{1000 * statistics.fmean(every):.0f} ms, max {1000 * max(every):.0f} ms; per game (max / mean ms): "
              + ", ".join(f"{1000 * max(v):.0f}/{1000 * statistics.fmean(v):.0f}" for _, v in sorted(cpu.items())))
        if max(every) > MOVE_CPU_BUDGET:
            print(f"- OVER BUDGET: an AI move took {max(every):.2f} s of CPU (budget {MOVE_CPU_BUDGET} s)")
            failures += 1
        if r["ai_late"]:
            print(f"- ({r['mode']}) the AI games' own commands answered past 3 s: {len(r['ai_late'])} "
                  f"({', '.join(r['ai_late'][:5])})")
        if r["errors"]:
            print(f"- the fake Discord refused {len(r['errors'])} requests: {r['errors'][:3]}")
            failures += not r["ai_late"]  # a late answer's callback is refused (404): counted above
    pool = next((r for r in rows if r["mode"] == "pool"), None)
    if pool is not None:
        p99 = percentile(pool["ai"], 99)
        word = "ok" if p99 < BUDGET_MS else "OVER BUDGET"
        print(f"\n- {word}: p99 of other commands under {ai_games} AI games {p99:.1f} ms (budget < {BUDGET_MS:.0f} ms; "
              f"{percentile(pool['base'], 99):.1f} ms without them, load average {pool['ai_load']})")
        failures += p99 >= BUDGET_MS
    return 1 if failures else 0


async def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=25.0)
    ap.add_argument("--ai-games", type=int, default=20)
    ap.add_argument("--no-thread", action="store_true", help="skip the former thread path")
    ap.add_argument("--think", type=float, default=THINK, help="s a member of an AI game waits before her move")
    ap.add_argument("--level", type=int, default=LEVEL, help="the bot's level (1: the games' traffic alone)")
    args = ap.parse_args(argv)
    print(f"(load average at the start: {load()} on {os.cpu_count()} cores)")
    rows = [await run_mode("pool", args.seconds, args.ai_games, args.level, args.think)]
    if not args.no_thread:
        rows.append(await run_mode("thread", args.seconds, args.ai_games, args.level, args.think))
    return show(rows, args.ai_games, args.seconds, args.level)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
