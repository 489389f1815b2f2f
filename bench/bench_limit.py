"""Take it to the Limit latency through the real bot and the fake Discord, plus render time.

Every /limit command, button, select and autocomplete, timed from the interaction sent
to the bot's callback. The answers that carry a picture include its rendering: « Mon
plateau », the « Placer » panel and every placement's confirmation (the player's board),
the « Déplacer » panel, ``/limit status`` (the announced tile, or all the boards).
Two-player games on each board and variant (Nexus standard and pass-the-Déchetterie,
Orchidée with its relocation), every player placing by every path in turn (typed name,
autocompleted choice, the Placer button's select), plus solo starts.
Run: ``.venv/bin/python -m bench.bench_limit [rounds]`` (rounds per Nexus game; 0 = whole
games). Budget: p99 < 150 ms for every command.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bench.common import Timings, bot_world, measure_floor, report
from engines.limit import ENGINE, TILES
from render.limit import LABEL_KEYS, render_board, render_final, render_tile, warm_cache
from tests.e2e.harness import last_control

PATHS = ("typed", "autocomplete", "buttons")


async def place_all(t: Timings, fake, user, path: str, tag: str) -> int:
    """Everything ``user`` can do now for the round ``tag`` (``<game>.<tile>``): their tile, a passed
    Déchetterie's tile; by ``path``. Returns how many placements were made."""
    done = 0
    while True:
        choices = await fake.autocomplete(user, "jeux", "limit placer", {"position": ""})
        t.record("autocomplete placer position", choices.result)
        if not choices.values or choices.values[0].split("@")[1] != tag:
            return done
        if path == "buttons":
            panel = t.record("button Placer (panel + board)", await fake.click(user, last_control(fake), label="Placer"))
            sel = panel.message.selects[0]
            verb = sel["custom_id"].split(":")[2]
            preview = t.record(f"select {verb} (preview + board)", await fake.select(
                user, panel.message, [sel["options"][0]["value"]], custom_id=sel["custom_id"]))
            t.record("button Confirmer (confirmation + board)", await fake.click(
                user, preview.message, label="Confirmer", until=lambda r: bool(r.public_messages)))
        elif path == "autocomplete":
            t.record("/limit placer (autocompleted)", await fake.run_command(
                user, "jeux", "limit placer", position=choices.values[0], until=lambda r: bool(r.public_messages)))
        else:
            t.record("/limit placer (typed)", await fake.run_command(
                user, "jeux", "limit placer", position=choices.values[0].split("@")[0],
                until=lambda r: bool(r.public_messages)))
        done += 1


async def play_game(t: Timings, fake, players, options: dict, rounds: int, rng: random.Random, g: int) -> None:
    alice, bruno = players
    res = t.record("/limit start", await fake.run_command(alice, "jeux", "limit start", **options))
    lobby = res.message
    t.record("button Rejoindre", await fake.click(bruno, lobby, label="Rejoindre"))
    t.record("button Lancer (start)", await fake.click(alice, lobby, label="Lancer",
                                                       until=lambda r: bool(r.public_messages[1:])))
    total = 25 if options["plateau"] == "orchidee" else 44
    for rnd in range(1, total + 1):
        if rounds and rnd > rounds and options["plateau"] == "nexus":
            await fake.run_command(alice, "jeux", "limit cancel")
            return
        order = players[:]
        rng.shuffle(order)
        for i, user in enumerate(order):
            if i == 0 and rnd % 3 == 1:
                t.record("button Mon plateau", await fake.click(user, last_control(fake), label="Mon plateau"))
            if i == 1 and rnd % 3 == 2:
                t.record("/limit status", await fake.run_command(user, "jeux", "limit status"))
        # until the round closes (pass variant: a holder fills a Déchetterie once its owner passed)
        place = next(b for b in last_control(fake).buttons if b["custom_id"].split(":")[2] == "place")
        tag = place["custom_id"].split(":")[4]
        while sum([await place_all(t, fake, user, PATHS[(rnd + i + g) % len(PATHS)], tag)
                   for i, user in enumerate(order)]):
            pass
    if options["plateau"] != "orchidee":
        assert_over(fake)
        return
    # the relocation step: the best move by the button or a typed one, another by the select, or nothing
    best = options["variante"] == "standard"
    msg = last_control(fake)
    t.record("/limit status (all boards)", await fake.run_command(bruno, "jeux", "limit status"))
    panel = t.record("button Déplacer (panel + board)", await fake.click(alice, msg, label="Déplacer"))
    labels = panel.message.button_labels
    if best and "Appliquer la meilleure" in labels:
        t.record("button Appliquer la meilleure", await fake.click(alice, panel.message,
                                                                   label="Appliquer la meilleure"))
    elif panel.message.selects:
        sel = panel.message.selects[0]
        t.record("select relocsel", await fake.select(alice, panel.message, [sel["options"][0]["value"]],
                                                      custom_id=sel["custom_id"]))
    else:
        t.record("button Ne rien déplacer", await fake.click(alice, panel.message, label="Ne rien déplacer"))
    if best:
        choices = await fake.autocomplete(bruno, "jeux", "limit deplacer", {"a": ""}, focused="a")
        t.record("autocomplete deplacer a", choices.result)
        t.record("/limit deplacer (panel + board)", await fake.run_command(bruno, "jeux", "limit deplacer"))
        opts = {"a": choices.values[0]} if choices.values else {}
        if opts:
            t.record("/limit deplacer a", await fake.run_command(bruno, "jeux", "limit deplacer", **opts,
                                                                 until=lambda r: bool(r.public_messages)))
            assert_over(fake)
            return
    panel = t.record("button Déplacer (panel + board)", await fake.click(bruno, last_control(fake),
                                                                         label="Déplacer"))
    t.record("button Ne rien déplacer", await fake.click(bruno, panel.message, label="Ne rien déplacer",
                                                         until=lambda r: bool(r.public_messages)))
    assert_over(fake)


def assert_over(fake) -> None:
    last = [m for m in fake.messages("jeux") if m.visible_to is None][-1]
    assert "Fin de la partie" in last.content, last.content


async def main(rounds: int = 0) -> Timings:
    t = Timings()
    t.expect("/limit start", 1)
    t.expect("button Lancer (start)", 1)
    t.expect("button Placer (panel + board)", 1)
    t.expect("button Mon plateau", 1)
    t.expect("/limit status", 1)
    rng = random.Random(1)
    fake, bot, (alice, bruno), _ = await bot_world(["Alice", "Bruno"])
    await asyncio.sleep(2)  # the bot draws every tile once at start-up (warm_cache, off the event loop)
    games = [
        {"plateau": "nexus", "variante": "standard"},
        {"plateau": "orchidee", "variante": "standard", "tuiles": "lune"},
        {"plateau": "nexus", "variante": "passe-dechetterie"},
        {"plateau": "orchidee", "variante": "orchidee-64"},
    ]
    try:
        for g, options in enumerate(games):
            await play_game(t, fake, [alice, bruno], options, rounds, rng, g)
        t.record("/limit rules", await fake.run_command(alice, "jeux", "limit rules"))
        for plateau in ("nexus", "orchidee"):  # solo games start at once (the first tile is in the answer)
            t.record("/limit start solo", await fake.run_command(bruno, "jeux", "limit start", plateau=plateau,
                                                                 variante="standard", solo=True))
            t.record("button Mon plateau", await fake.click(bruno, last_control(fake), label="Mon plateau"))
            await fake.run_command(bruno, "jeux", "limit cancel")
    finally:
        bot.kill()
        await fake.stop()
    await measure_floor(t)  # the floor bot, same run, its own fake Discord
    render_times(t)
    return t


def render_times(t: Timings) -> None:
    from bot import i18n

    labels = {k: i18n.t(f"limit.{k}", "fr") for k in LABEL_KEYS}
    warm_cache([tile.view() for tile in TILES.values()])
    rng = random.Random(2)
    for plateau, players in (("nexus", 1), ("orchidee", 2), ("nexus", 6)):
        state = ENGINE.new_game(players, {"plateau": plateau}, seed=players)
        mid = None
        while not state.finished:
            for seat in sorted(ENGINE.expected(state)):
                state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
            if state.round_no == 12 and mid is None:
                mid = state
        names = [f"Joueur {i + 1}" for i in range(players)]
        final = ENGINE.view(state, None)
        t.time(f"render: final ({players} board{'s' if players > 1 else ''}, {plateau})",
               lambda v=final, n=names: render_final(v, n, labels), repeat=10)
        if players <= 2:
            view = ENGINE.view(mid, 0)
            t.time(f"render: board ({plateau})", lambda v=view, n=names: render_board(v, 0, n, labels), repeat=20)
            t.time("render: tile", lambda v=view: render_tile(v["tile"], labels), repeat=20)


if __name__ == "__main__":
    timings = asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 0))
    sys.exit(report(timings, "Take it to the Limit (2 users + solo, through the fake Discord)"))
