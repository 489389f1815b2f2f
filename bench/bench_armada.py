"""L'Invincible Armada latency through the real bot and the fake Discord, plus render and AI time.

Run: ``.venv/bin/python -m bench.bench_armada [games]`` (default 3 two-user games, 11 × 11).
Latency is the fake's (interaction sent → the bot's callback arrives): for a move the callback
carries the new board, so it includes the commit and the picture; against the bot it also
includes the bot's reply (its move is applied before the answer is sent).
Budgets: p99 < 150 ms for every command and button between two users, < 1 s for a move against
the bot (its reply included), < 100 ms for autocomplete. Exit status 1 if one is missed.
"""

from __future__ import annotations

import asyncio
import sys
import time

from bench.common import Timings, bot_world, measure_floor, report
from engines.armada import ENGINE
from render.armada import render_board
from tests.e2e.armada_driver import Reader, answered, game_id_of, quiet, step

SPAIN_MOVES = 8  # re-placements (/armada deplacer) played in the first game


async def autocomplete_for(t: Timings, fake, user, action: dict, channel: str = "jeux") -> None:
    kind = action["type"]
    if kind == "place":
        t.record("autocomplete placer point", (await fake.autocomplete(
            user, channel, "armada placer", {"point": action["point"][0]}, focused="point")).result)
    elif kind == "pivot":
        t.record("autocomplete pivoter de", (await fake.autocomplete(
            user, channel, "armada pivoter", {"de": ""}, focused="de")).result)
        t.record("autocomplete pivoter vers", (await fake.autocomplete(
            user, channel, "armada pivoter", {"de": action["from"], "vers": ""}, focused="vers")).result)
    elif kind == "move":
        t.record("autocomplete deplacer de", (await fake.autocomplete(
            user, channel, "armada deplacer", {"de": action["from"][0]}, focused="de")).result)
        t.record("autocomplete deplacer vers", (await fake.autocomplete(
            user, channel, "armada deplacer", {"de": action["from"], "vers": action["to"][0]},
            focused="vers")).result)


async def two_user_game(t: Timings, fake, reader: Reader, alice, bruno, *, spain_moves: int = 0) -> None:
    """One whole game between two users; with ``spain_moves``, round 1 is played without captures
    until Spain has re-placed that many ships (so ``/armada deplacer`` is measured too)."""
    res = t.record("/armada start", await fake.run_command(alice, "jeux", "armada start"))
    gid = game_id_of(res.message)
    t.record("button Rejoindre", await fake.click(bruno, res.message, label="Rejoindre"))
    t.record("button Lancer (start)", await fake.click(alice, res.message, label="Lancer", until=answered))
    users = {0: alice, 1: bruno}
    moved = 0
    for n in range(1000):
        _, state = await reader.state(gid)
        if state.finished:
            break
        (seat,) = ENGINE.expected(state)
        quiet_phase = state.round_no == 1 and moved < spain_moves
        action = quiet(state, seat) if quiet_phase else ENGINE.ai_action(state, seat, 1)
        await autocomplete_for(t, fake, users[seat], action)
        if n % 10 == 5:
            res = t.record("refusal (not your turn)", await fake.run_command(users[1 - seat], "jeux",
                                                                            "armada placer", point="A1"))
            assert res.ephemeral and "pas votre tour" in res.content, res.content
            res = t.record("/armada status", await fake.run_command(users[1 - seat], "jeux", "armada status"))
            assert res.attachments, res.content
        s = await step(fake, reader, gid, users, choose=lambda st, se, a=action: a)
        moved += s.command == "/armada deplacer"
        name = s.command + (" (round end)" if len([m for m in s.result.created if m.attachments]) > 1 else "")
        t.record(name, s.result)
    t.record("/armada rules", await fake.run_command(alice, "jeux", "armada rules"))


async def bot_game(t: Timings, fake, reader: Reader, user, level: int, channel: str, *, moves: int = 10_000) -> None:
    res = t.record(f"/armada start vs bot (niveau {level})",
                   await fake.run_command(user, channel, "armada start", adversaire="bot", niveau=level))
    gid = game_id_of(res.message)
    for _ in range(moves):
        _, state = await reader.state(gid)
        if state.finished:
            break
        s = await step(fake, reader, gid, {0: user}, channel=channel)
        t.record(f"{s.command} vs bot niveau {level} (+ its reply)", s.result)
    else:
        res = t.record("/armada abandon", await fake.run_command(user, channel, "armada abandon"))
        t.record("button Abandonner", await fake.click(user, res.message, label="Abandonner", until=answered))


def offline(t: Timings) -> None:
    """Render and AI time on a mid-game 11 × 11 position (no Discord)."""
    state = ENGINE.new_game(2, {}, seed=5)
    while state.round_no == 1:
        state, _ = ENGINE.apply(state, state.current, ENGINE.ai_action(state, state.current, 1))
    for _ in range(24):
        state, _ = ENGINE.apply(state, state.current, ENGINE.ai_action(state, state.current, 1))
    view = ENGINE.view(state, None)
    t.time("render: board 11 × 11", lambda: render_board(view, ["Alice", "Bruno"]), repeat=20)
    t.time("render: previous round", lambda: render_board(view, ["Alice", "Bruno"], previous=True), repeat=20)
    t.time("AI move, niveau 1", lambda: ENGINE.ai_action(state, state.current, 1), repeat=20)
    t.time("AI move, niveau 2", lambda: ENGINE.ai_action(state, state.current, 2), repeat=10)


async def main(games: int = 3) -> Timings:
    t = Timings()
    t.expect("/armada start", 1)
    t.expect("button Lancer (start)", 1)
    t.expect("/armada status", 1)
    fake, bot, (alice, bruno), _ = await bot_world(["Alice", "Bruno"], channels=("jeux", "bot1", "bot2"))
    started = time.perf_counter()
    try:
        async with Reader(bot.db) as reader:
            for g in range(games):
                await two_user_game(t, fake, reader, alice, bruno, spain_moves=SPAIN_MOVES if g == 0 else 0)
            for _ in range(games):
                await bot_game(t, fake, reader, alice, 1, "bot1")
            await bot_game(t, fake, reader, bruno, 2, "bot2")
            await bot_game(t, fake, reader, bruno, 2, "bot2", moves=3)  # and a resignation
        assert fake.errors == [], fake.errors
    finally:
        bot.kill()
        await fake.stop()
    await measure_floor(t)  # the floor bot, same run, its own fake Discord
    offline(t)
    print(f"(through the fake Discord in {time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return t


if __name__ == "__main__":
    timings = asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
    sys.exit(report(timings, "L'Invincible Armada (2 users, and against the bot, through the fake Discord)"))
