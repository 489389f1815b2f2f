"""Ludime latency through the real bot and the fake Discord, render times, and the lexicon figures.

Run: ``.venv/bin/python -m bench.bench_ludime [main games]`` (default 3). Three users play whole
main games (the engine AI's moves, played with their Discord gestures: buttons, the discard
select, ``/ludime poser`` / ``allonger`` / ``echanger``, autocomplete), then one round of each
variant (``ajouter``, « Passer », ``declarer``), plus the shared commands and refusals.
Latency = from the interaction sent to the bot's callback (Discord's 3-second window).
Budget (issue 3): p99 of every Ludime command under 150 ms. Prints Markdown tables.
"""

from __future__ import annotations

import asyncio
import sys
from types import SimpleNamespace

from bench import bench_ludime_lexicon
from bench.common import Timings, bot_world, measure_floor, percentile
from engines.ludime import ENGINE
from render.ludime import render_hand, render_table
from tests.e2e.ludime_driver import BUTTONS, PASS_LABELS, LudimeTable, answered, started

BUDGET_MS = 150.0


async def gesture(t: Timings, table: LudimeTable, seat: int, action: dict, *, via_menu: bool = False) -> None:
    """Play ``action`` like the driver does, timing each interaction under its own name."""
    fake, user = table.fake, table.players[seat]
    kind = action["type"]
    kw = {"until": answered}
    if kind == "draw":
        src = action.get("source", "pile")
        t.record(f"button {BUTTONS[src]}", await fake.click(user, table.control(), label=BUTTONS[src], **kw))
    elif kind == "undo_take":
        t.record("button Reposer la défausse", await fake.click(user, table.control(), label=BUTTONS["undo"], **kw))
    elif kind == "pass":
        private = await table.private_end_turn(user)  # variant 2 after additions: in the private answer
        if private is not None:
            t.record("button Finir mon tour (private)", await fake.click(user, private, label=PASS_LABELS[2], **kw))
            return
        msg = table.control()
        label = next(lbl for lbl in msg.button_labels if lbl in PASS_LABELS)  # its label says what it does
        t.record("button Passer", await fake.click(user, msg, label=label, **kw))
    elif kind == "discard":
        msg = None if via_menu else table._latest_select(user)
        if msg is None or action["letter"] not in [o["value"] for o in msg.selects[0]["options"]]:
            res = t.record("button Se défausser", await fake.click(user, table.control(), label=BUTTONS["menu"]))
            msg = res.message
        t.record("select (discard a letter)", await fake.select(user, msg, [action["letter"]], **kw))
    elif kind == "play":
        t.record("/ludime poser", await fake.run_command(user, "jeux", "ludime poser",
                                                          mot=", ".join(action["words"]), **kw))
    elif kind == "extend":
        choices = await fake.autocomplete(user, "jeux", "ludime allonger", {"mot": ""}, focused="mot")
        t.record("autocomplete /ludime allonger mot", choices.result)
        t.record("/ludime allonger", await fake.run_command(user, "jeux", "ludime allonger",
                                                             mot=f"#{action['target']}", nouveau=action["word"], **kw))
    elif kind == "exchange":
        t.record("/ludime echanger", await fake.run_command(user, "jeux", "ludime echanger",
                                                             lettres=" ".join(action["letters"]), **kw))
    elif kind == "add":
        t.record("/ludime ajouter", await fake.run_command(user, "jeux", "ludime ajouter", mot=action["word"], **kw))
    elif kind == "declare":
        t.record("/ludime declarer", await fake.run_command(user, "jeux", "ludime declarer",
                                                             mot=action["word"], **kw))
    else:
        raise AssertionError(action)


async def open_game(t: Timings, world, players, variant: str, passer_by=None) -> LudimeTable:
    fake = world.fake
    table = LudimeTable(world, players)
    res = t.record("/ludime start", await fake.run_command(players[0], "jeux", "ludime start", variant=variant))
    lobby = res.message
    table.game_id = int(lobby.buttons[0]["custom_id"].split(":")[1])
    t.record("/ludime join", await fake.run_command(players[1], "jeux", "ludime join"))
    for user in players[2:]:
        t.record("button Rejoindre", await fake.click(user, lobby, label="Rejoindre"))
    if passer_by is not None:
        t.record("/ludime join", await fake.run_command(passer_by, "jeux", "ludime join"))
        t.record("/ludime leave", await fake.run_command(passer_by, "jeux", "ludime leave"))
    t.record("button Lancer (start)", await fake.click(players[0], lobby, label="Lancer", until=started))
    from bot.storage import SQLiteStore

    table.store = SQLiteStore(str(world.bot.db))
    await table.store.open()
    return table


async def play(t: Timings, table: LudimeTable, *, one_round: bool, max_moves: int = 600) -> None:
    """The AI's moves; on the side: others look at their hand and the table, try out of turn; and once
    per game an exchange and a discard taken then put back, so that every button is timed."""
    fake = table.fake
    exchanged = returned = False
    for n in range(max_moves):
        state, game = await table.state()
        if game.status != "running" or (one_round and state.round_no > 1):
            return
        seat = state.current
        if n % 10 == 0:
            other = table.players[(seat + 1) % len(table.players)]
            t.record("button Ma main", await fake.click(other, table.control(), label=BUTTONS["hand"]))
            t.record("/ludime table", await fake.run_command(other, "jeux", "ludime table"))
            t.record("/ludime status", await fake.run_command(other, "jeux", "ludime status"))
            t.record("/ludime poser (refused: not your turn)",
                     await fake.run_command(other, "jeux", "ludime poser", mot="MAISON"))
        action = ENGINE.ai_action(state, seat)
        if state.variant == "main" and state.phase == "play" and not exchanged and state.turns[seat] == 0 \
                and not state.laid and not state.exchanged:
            action, exchanged = {"type": "exchange", "letters": [state.hands[seat][0]]}, True
        elif state.variant == "main" and not returned and state.phase == "draw" and \
                {"type": "draw", "source": "discard"} in ENGINE.legal_actions(state, seat):
            await gesture(t, table, seat, {"type": "draw", "source": "discard"})
            action, returned = {"type": "undo_take"}, True
        await gesture(t, table, seat, action, via_menu=n % 4 == 0)


async def main(games: int = 3) -> Timings:
    t = Timings()
    t.expect("/ludime start", games)
    t.expect("button Lancer (start)", games)
    t.expect("/ludime poser", 1)
    t.expect("button Ma main", 1)
    t.expect("/ludime status", 1)
    fake, bot, (*users, dave), _ = await bot_world(["Alice", "Bruno", "Chloé", "Dave"])
    world = SimpleNamespace(fake=fake, bot=bot)
    try:
        for _ in range(games):
            table = await open_game(t, world, users, "main", passer_by=dave)
            await play(t, table, one_round=False)
            await table.close()
            t.record("/ludime rules", await fake.run_command(users[1], "jeux", "ludime rules"))
        for variant in ("mot-unique", "main-entiere") * max(1, games // 2):
            table = await open_game(t, world, users, variant)
            await play(t, table, one_round=True)
            _, game = await table.state()
            if game.status == "running":
                t.record("/ludime cancel", await fake.run_command(users[0], "jeux", "ludime cancel"))
            await table.close()
    finally:
        bot.kill()
        await fake.stop()
    await measure_floor(t)  # the floor bot, same run, its own fake Discord
    state = ENGINE.new_game(4, {}, seed=1)
    for _ in range(40):
        state, _ = ENGINE.apply(state, state.current, ENGINE.ai_action(state, state.current))
    names = ["Alice", "Bruno", "Chloé", "Dave"]
    public, own = ENGINE.view(state, None), ENGINE.view(state, state.current)
    t.time(f"render: table ({len(public['words'])} words, 4 players)", lambda: render_table(public, names))
    t.time("render: hand", lambda: render_hand(own, names))
    return t


def report(t: Timings) -> tuple[str, bool]:
    commands = {k: v for k, v in t.samples.items() if not k.startswith("render")}
    worst = max(percentile(v, 99) for v in commands.values())
    ok = worst < BUDGET_MS
    verdict = f"Worst p99 of a Ludime interaction: {worst:.1f} ms (budget {BUDGET_MS:.0f} ms) -> " \
              f"{'OK' if ok else 'OVER BUDGET'}."
    return (t.table("Ludime (3 users, through the fake Discord)") + "\n\n" + t.rest_table("Ludime") + "\n\n"
            + verdict, ok)


if __name__ == "__main__":
    figures = bench_ludime_lexicon.measure()  # first, while the process has not loaded the lexicon yet
    timings = asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
    text, latency_ok = report(timings)
    print(text)
    timings.verify()  # fails loudly when a row was not measured
    print()
    print(bench_ludime_lexicon.markdown(figures))
    raise SystemExit(0 if latency_ok and figures["ok"] else 1)
