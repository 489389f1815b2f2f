"""Tectonic latency through the real bot and the fake Discord, plus render and AI time.

Run: ``.venv/bin/python -m bench.bench_tectonic [games]`` (default 3 two-user games, then
games against the bot at each level).

Two times per interaction, both from the fake:
- *callback*: interaction sent → the bot's first answer arrives (what Discord's 3-second
  window measures). For a move against the level-2/3 bot the first answer is a "thinking"
  defer, so this is small;
- *answer*: interaction sent → the last message of the answer (the board, with the bot's reply
  move included: the bot plays inside the session service before the board is posted).

Budgets: p99 < 150 ms for every command and button without the bot's reply, < 100 ms for
autocomplete, a whole answer with the bot's reply < 1 s at every level; under load (several
level-3 games answering at the same instant) every callback < 3 s. Exit status 1 if one is missed.
"""

from __future__ import annotations

import asyncio
import sys
import time

from bench.common import DISCORD_WINDOW_MS, Timings, bot_world, default_budget, measure_floor, report
from engines.tectonic import ENGINE
from render.tectonic import render_board
from tests.e2e.tectonic_driver import Reader, answered, board_messages, game_id_of, step

LOAD_GAMES = 3  # level-3 games moving at the same instant


def answer_time(res) -> float:
    """Seconds from the interaction sent to the last message of its answer."""
    return res.record.last_activity - res.record.sent_wall


def record_move(t: Timings, name: str, res) -> None:
    t.add(f"{name}: callback", res.latency)
    t.add(f"{name}: answer", answer_time(res))


async def autocompletes(t: Timings, fake, user, action: dict, channel: str = "jeux") -> None:
    t.record("autocomplete de", (await fake.autocomplete(user, channel, "tectonic jouer", {"de": ""},
                                                         focused="de")).result)
    t.record("autocomplete vers", (await fake.autocomplete(
        user, channel, "tectonic jouer", {"de": action["from"], "vers": ""}, focused="vers")).result)
    t.record("autocomplete retourner", (await fake.autocomplete(
        user, channel, "tectonic jouer", {"de": action["from"], "vers": action["to"], "retourner": ""},
        focused="retourner")).result)


async def two_user_game(t: Timings, fake, reader: Reader, alice, bruno) -> None:
    """One whole game between two users, each move chosen by the level-1 AI; moves that may
    flip several pieces go through the flip buttons."""
    res = t.record("/tectonic start", await fake.run_command(alice, "jeux", "tectonic start"))
    gid = game_id_of(res.message)
    t.record("button Rejoindre", await fake.click(bruno, res.message, label="Rejoindre"))
    t.record("button Lancer (start)", await fake.click(alice, res.message, label="Lancer", until=answered))
    users = {0: alice, 1: bruno}
    for n in range(400):
        _, state = await reader.state(gid)
        if state.finished:
            break
        (seat,) = ENGINE.expected(state)
        action = ENGINE.ai_action(state, seat, 1)
        await autocompletes(t, fake, users[seat], action)
        if n % 8 == 3:
            res = t.record("refusal (not your turn)", await fake.run_command(
                users[1 - seat], "jeux", "tectonic jouer", de="C2", vers="C3"))
            assert res.ephemeral, res.content
            res = t.record("refusal (illegal move)", await fake.run_command(
                users[seat], "jeux", "tectonic jouer", de=action["from"], vers=action["from"]))
            assert res.ephemeral, res.content
            res = t.record("/tectonic status", await fake.run_command(users[1 - seat], "jeux", "tectonic status"))
            assert res.attachments, res.content
        s = await step(fake, reader, gid, users, choose=lambda st, se, a=action: a)
        if s.command == "button Retourner":
            t.record("/tectonic jouer (flip choice asked)", s.first)
        t.record(s.command, s.result)
    t.record("/tectonic rules", await fake.run_command(alice, "jeux", "tectonic rules"))


async def bot_game(t: Timings, fake, reader: Reader, user, level: int, channel: str, *, moves: int = 10_000) -> None:
    res = t.record(f"/tectonic start vs bot (niveau {level})",
                   await fake.run_command(user, channel, "tectonic start", adversaire="bot", niveau=level,
                                          until=answered))
    gid = game_id_of(board_messages(res)[0])
    for _ in range(moves):
        _, state = await reader.state(gid)
        if state.finished:
            break
        s = await step(fake, reader, gid, {0: user}, channel=channel)
        if s.first is not s.result:
            t.record("/tectonic jouer (flip choice asked)", s.first)
        record_move(t, f"{s.command} vs bot niveau {level}", s.result)
    else:
        res = t.record("/tectonic abandon", await fake.run_command(user, channel, "tectonic abandon"))
        t.record("button Abandonner", await fake.click(user, res.message, label="Abandonner", until=answered))


async def under_load(t: Timings, fake, reader: Reader, users, channels) -> None:
    """LOAD_GAMES level-3 games: every user sends a move at the same instant, a few times."""
    gids = []
    for user, channel in zip(users, channels, strict=True):
        res = await fake.run_command(user, channel, "tectonic start", adversaire="bot", niveau=3, until=answered)
        gids.append(game_id_of(board_messages(res)[0]))
    for _ in range(4):
        pending = []
        for user, channel, gid in zip(users, channels, gids, strict=True):
            _, state = await reader.state(gid)
            if state.finished:
                continue
            action = ENGINE.ai_action(state, 0, 1)
            options = {"de": action["from"], "vers": action["to"], "retourner": action["flip"]}
            options = {k: v for k, v in options.items() if v}
            pending.append(await fake.run_command(user, channel, "tectonic jouer", wait=False, until=answered,
                                                  **options))
        for res in pending:
            await res.wait()
            record_move(t, f"/tectonic jouer vs bot niveau 3, {LOAD_GAMES} games at once", res)


def offline(t: Timings) -> None:
    """Render and AI time on a mid-game position (no Discord)."""
    state = ENGINE.new_game(2, {}, seed=5)
    for _ in range(12):
        state, _ = ENGINE.apply(state, state.current, ENGINE.ai_action(state, state.current, 1))
    view = ENGINE.view(state, None)
    t.time("render: board", lambda: render_board(view, ["Alice", "Bruno"]), repeat=20)
    for level, repeat in ((1, 20), (2, 10), (3, 5)):
        t.time(f"AI move, niveau {level}", lambda lv=level: ENGINE.ai_action(state, state.current, lv), repeat=repeat)


def budget_for(name: str) -> float | None:
    """Several level-3 games at once: only the first answer must stay inside Discord's window."""
    if "games at once" in name:
        return DISCORD_WINDOW_MS if name.endswith("callback") else None
    return default_budget(name)


async def main(games: int = 3) -> Timings:
    t = Timings()
    t.expect("/tectonic start", 1)
    t.expect("button Lancer (start)", 1)
    t.expect("/tectonic status", 1)
    channels = ("jeux", "bot1", "bot2", "bot3", "load1", "load2", "load3")
    fake, bot, users, _ = await bot_world(["Alice", "Bruno", "Chloé", "Dave", "Eve"], channels=channels)
    alice, bruno, chloe, dave, eve = users
    started = time.perf_counter()
    try:
        async with Reader(bot.db) as reader:
            for _ in range(games):
                await two_user_game(t, fake, reader, alice, bruno)
            for level, channel in ((1, "bot1"), (2, "bot2"), (3, "bot3")):
                for _ in range(games):
                    await bot_game(t, fake, reader, alice, level, channel)
            await bot_game(t, fake, reader, bruno, 3, "bot3", moves=2)  # and a resignation
            await under_load(t, fake, reader, [chloe, dave, eve], ["load1", "load2", "load3"])
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
    sys.exit(report(timings, "Tectonic (2 users, and against the bot, through the fake Discord)", budget_for))
