"""Range ta Ludothèque latency through the real bot and the fake Discord, plus render time.

Every /ranta command, button, select and autocomplete, timed from the interaction sent
to the bot's callback (the ephemeral previews and sheets include their image). Games of
three players, each placing by every path (buttons and selects, /ranta placer, /ranta
tapis), plus solo games. Run: ``.venv/bin/python -m bench.bench_ranta [games]``.
Budget: p99 < 150 ms for every command.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time

from bench.common import Timings, bot_world, default_budget, measure_floor, report
from engines.ranta import ENGINE
from render.ranta import LABEL_KEYS, render_dice, render_final, render_sheet
from tests.e2e.harness import last_control


async def confirm(t: Timings, fake, user, preview) -> None:
    # the ephemeral edit answers the click; wait for the public notice that follows it
    t0 = time.perf_counter()
    res = await fake.click(user, preview.message, label="Confirmer", until=lambda r: bool(r.public_messages))
    t.record("button Confirmer", res)
    # until the public notice is posted (its dice image, or every sheet at the end, included)
    t.add("button Confirmer → public notice", time.perf_counter() - t0)


async def place(t: Timings, fake, user, path: str) -> None:
    """One placement of ``user`` by ``path`` (buttons, placer or tapis), timing each step."""
    if path == "placer":
        des = await fake.autocomplete(user, "jeux", "ranta placer", {"des": ""}, focused="des")
        t.record("autocomplete placer des", des.result)
        for value in des.values:
            for orientation in ("horizontal", "vertical"):
                cells = await fake.autocomplete(user, "jeux", "ranta placer",
                                                {"des": value, "orientation": orientation, "case": ""},
                                                focused="case")
                t.record("autocomplete placer case", cells.result)
                if cells.values:
                    res = t.record("/ranta placer (preview)", await fake.run_command(
                        user, "jeux", "ranta placer", des=value, orientation=orientation, case=cells.values[0]))
                    await confirm(t, fake, user, res)
                    return
        path = "tapis"
    if path == "tapis":
        cells = await fake.autocomplete(user, "jeux", "ranta tapis", {"case": ""})
        t.record("autocomplete tapis case", cells.result)
        if cells.values:
            res = t.record("/ranta tapis (preview)", await fake.run_command(user, "jeux", "ranta tapis",
                                                                            case=cells.values[0]))
            await confirm(t, fake, user, res)
            return
    msg = last_control(fake)
    label = "Poser un tapis" if path == "mat" else "Ranger un jeu"
    res = t.record(f"button {label}", await fake.click(user, msg, label=label))
    if "Confirmer" in res.message.button_labels:  # full kallax: pass
        await confirm(t, fake, user, res)
        return
    if not res.message.selects:  # "déjà rangé": a full kallax passes its rounds by itself
        return
    (sel,) = res.message.selects
    verb = sel["custom_id"].split(":")[2]
    res = t.record(f"select {verb}", await fake.select(user, res.message, [sel["options"][0]["value"]]))
    if verb == "pick":
        cell = res.message.selects[1]["options"][-1]["value"]
        res = t.record("select cell (preview)", await fake.select(user, res.message, [cell],
                                                                  placeholder="Case en bas à gauche"))
    await confirm(t, fake, user, res)


async def main(games: int = 3) -> Timings:
    t = Timings()
    t.expect("/ranta start", 1)
    t.expect("button Lancer (start)", 1)
    t.expect("/ranta placer (preview)", 1)
    t.expect("button Confirmer", 1)
    t.expect("/ranta status", 1)
    rng = random.Random(1)
    fake, bot, (alice, bruno, chloe), _ = await bot_world(["Alice", "Bruno", "Chloé"])
    players = [alice, bruno, chloe]
    paths = ("buttons", "placer", "tapis", "mat")
    try:
        for g in range(games):
            mode = ("classique", "expert")[g % 2]
            res = t.record("/ranta start", await fake.run_command(alice, "jeux", "ranta start", mode=mode))
            lobby = res.message
            for user in (bruno, chloe):
                t.record("button Rejoindre", await fake.click(user, lobby, label="Rejoindre"))
            t.record("button Lancer (start)", await fake.click(alice, lobby, label="Lancer",
                                                               until=lambda r: bool(r.public_messages[1:])))
            for rnd in range(1, 13):
                order = players[:]
                rng.shuffle(order)
                for i, user in enumerate(order):
                    if i == 0:
                        t.record("button Ma kallax", await fake.click(user, last_control(fake), label="Ma kallax"))
                        cells = await fake.autocomplete(user, "jeux", "ranta tapis", {"case": ""})
                        if cells.values:  # a preview given up
                            res = await fake.run_command(user, "jeux", "ranta tapis", case=cells.values[-1])
                            t.record("button Renoncer", await fake.click(user, res.message, label="Renoncer"))
                    if i == 1:
                        t.record("/ranta status", await fake.run_command(user, "jeux", "ranta status"))
                        t.record("/ranta kallax joueur", await fake.run_command(user, "jeux", "ranta kallax",
                                                                                  joueur=order[0]))
                    await place(t, fake, user, paths[(rnd + i + g) % len(paths)])
            t.record("/ranta kallax", await fake.run_command(alice, "jeux", "ranta kallax"))
            t.record("/ranta rules", await fake.run_command(alice, "jeux", "ranta rules"))
        # solo games start at once (the first dice image is in the answer)
        for _ in range(games):
            t.record("/ranta start solo", await fake.run_command(bruno, "jeux", "ranta start", mode="expert",
                                                                        solo=True))
            await fake.run_command(bruno, "jeux", "ranta cancel")
    finally:
        bot.kill()
        await fake.stop()
    await measure_floor(t)  # the floor bot, same run, its own fake Discord
    render_times(t)
    return t


def render_times(t: Timings) -> None:
    from bot import i18n

    labels = {k: i18n.t(f"ranta.{k}", "fr") for k in LABEL_KEYS}
    rng = random.Random(2)
    for players in (1, 3, 8):
        state = ENGINE.new_game(players, {"mode": "expert"}, seed=players)
        mid = None
        while not state.finished:
            for seat in sorted(ENGINE.expected(state)):
                state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
            if state.round_no == 7 and mid is None:
                mid = state
        names = [f"Joueur {i + 1}" for i in range(players)]
        final = ENGINE.view(state, None)
        t.time(f"render: final ({players} player{'s' if players > 1 else ''})",
               lambda v=final, n=names: render_final(v, n, labels), repeat=20)
        if players == 3:
            view = ENGINE.view(mid, 0)
            t.time("render: sheet with preview", lambda v=view, n=names: render_sheet(v, 0, n, ["A1"], labels), repeat=30)
            t.time("render: dice", lambda v=view: render_dice(v, labels), repeat=30)


def budget_for(name: str) -> float | None:
    """"Confirmer → public notice" is not a command's answer (it includes the public image)."""
    return None if "→" in name else default_budget(name)


if __name__ == "__main__":
    timings = asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
    sys.exit(report(timings, "Range ta Ludothèque (3 users + solo, through the fake Discord)", budget_for))
