"""Lutinades latency through the real bot and the fake Discord (4 users), plus render times.

Run: ``.venv/bin/python -m bench.bench_lutinades [games]``. Budget: p99 < 150 ms per command/button.
The driver reads whose move it is from the bot's database (a benchmark may; players may not).
"""

from __future__ import annotations

import asyncio
import random
import sys

from bench.common import Timings, bot_world, measure_floor
from cogs.lutinades.cog import own_gesture_text
from engines.lutinades import ENGINE, KINDS, MALINS, SIDES, VARIANTS, card_dict, deck
from render.lutinades import render_card, render_table
from tests.e2e.harness import last_control, read_game_row

BUDGET_MS = 150


def posted(res) -> bool:
    """The public message with the next controls has been created (the answer may come first)."""
    return any(m.visible_to is None and m.buttons for m in res.created) or any(
        "Fin de la partie" in (m.content or "") for m in res.created)


def read_game(db, game_id: int):
    game = read_game_row(str(db), game_id)
    return ENGINE.from_dict(game.state), game.status


async def play_game(t: Timings, fake, db, users, variant: str, rng: random.Random) -> None:
    alice = users[0]
    res = t.record("/lutinades start", await fake.run_command(alice, "jeux", "lutinades start", variante=variant))
    lobby = res.message
    for user in users[1:]:
        t.record("button Rejoindre", await fake.click(user, lobby, label="Rejoindre"))
    t.record("button Lancer (start)", await fake.click(alice, lobby, label="Lancer", until=posted))
    msg = last_control(fake)
    game_id = int(msg.buttons[0]["custom_id"].split(":")[1])
    choices = await fake.autocomplete(alice, "jeux", "lutinades status", {"partie": ""}, focused="partie")
    t.record("autocomplete partie", choices.result)
    for _ in range(80):
        state, status = read_game(db, game_id)
        if status != "running":
            break
        picker = users[state.picker]
        lutins = [s for s in range(state.players) if s != state.picker]
        t.record("button Voir la carte (picker, refused)", await fake.click(picker, msg, label="Voir la carte"))
        t.record("button Voir la carte (lutin)", await fake.click(users[lutins[0]], msg, label="Voir la carte"))
        if state.turn % 4 == 1:
            t.record("/lutinades status", await fake.run_command(picker, "jeux", "lutinades status"))
        for i, s in enumerate(lutins):
            side = rng.choice(SIDES) if variant == MALINS else None
            kind = rng.choice([k for k in KINDS if not (variant == "en-grand" and k == "small")])
            res = await fake.click(users[s], msg, label=own_gesture_text(kind, side, "fr"),
                                   until=posted)
            t.record("button geste (reveal)" if i == len(lutins) - 1 else "button geste", res)
            msg = last_control(fake) or msg
        state, status = read_game(db, game_id)
        if status == "running" and state.phase == "choice":
            lutin = rng.choice(ENGINE.followable(state))
            label = next(lbl for lbl in msg.button_labels if lbl.startswith(f"Suivre {users[lutin].name} ("))
            t.record("button Suivre (reveal card)", await fake.click(picker, msg, label=label, until=posted))
            msg = last_control(fake) or msg
    t.record("/lutinades rules", await fake.run_command(alice, "jeux", "lutinades rules"))


async def main(games: int = 3) -> Timings:
    t = Timings()
    t.expect("/lutinades start", games)
    t.expect("button Lancer (start)", games)
    t.expect("button Suivre (reveal card)", 1)
    t.expect("button geste (reveal)", 1)
    t.expect("/lutinades status", 1)
    fake, bot, users, tmp = await bot_world(["Alice", "Bruno", "Chloé", "Dave"])
    rng = random.Random(1)
    try:
        for g in range(games):
            await play_game(t, fake, tmp / "ludibot.db", users, VARIANTS[g % len(VARIANTS)], rng)
        assert fake.errors == [], fake.errors
    finally:
        bot.kill()
        await fake.stop()
    await measure_floor(t)  # the floor bot, same run, its own fake Discord
    names = [f"Joueur {i + 1}" for i in range(7)]
    for variant in VARIANTS:
        state = ENGINE.new_game(7, {"variante": variant}, seed=1)
        for s in range(1, 7):
            state, _ = ENGINE.apply(state, s, ENGINE.ai_action(state, s, 1))
        view = ENGINE.view(state, None)
        t.time(f"render: table (7 players, {variant})", lambda v=view: render_table(v, names), repeat=20)
    card = card_dict(deck()[0], MALINS)
    t.time("render: card", lambda: render_card(card), repeat=30)
    return t


if __name__ == "__main__":
    timings = asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
    print(timings.table("Lutinades (4 users, through the fake Discord)"))
    print()
    print(timings.rest_table("Lutinades"))
    timings.verify()  # fails loudly when a row was not measured
    worst = max(v for k, v in ((k, timings.worst_p99(k)) for k in timings.samples) if not k.startswith("render"))
    print(f"\nworst p99 (commands and buttons): {worst:.1f} ms — budget {BUDGET_MS} ms")
