"""Bytes and requests per move for every game (issue 24's budget: "before and after" the cards).

The real bot process plays short games of each of the seven kinds against the strict fake Discord
(the per-game benches' gestures and drivers: the same buttons, selects and commands), and for every
interaction the script reports what went over the wire:

* **requests**: to interaction endpoints (the callback, follow-ups and edits carrying the
  interaction's token) and channel requests (posts, edits, deletions in a channel), from the
  interaction's first request to the next recorded interaction's (the buttons taken off late
  included). Requests of other interactions in that window (an autocomplete) are not counted;
* **bytes sent** by the bot: the request bodies as the fake received them (JSON, or multipart with
  its framing and files), of which **picture** bytes (the files' own bytes);
* **gateway bytes** the bot received (JSON text, uncompressed) between the previous recorded
  interaction and this one: its INTERACTION_CREATE and the events of the messages it caused.

Every interaction is sent once the bot has been quiet for 0.3 s, so each window holds its own
requests whatever the load. Autocomplete requests are not counted (they are not moves). Runs are short
(a capped number of moves per game, then ``/x cancel``) and the bot picks its games' seeds at random,
so two runs differ a little. Rows are grouped as moves, looks (a private view, a status) and lobby steps.

Run: ``python -m bench.bench_bytes [--json out.json]``;
``python -m bench.bench_bytes --compare before.json after.json`` prints the before/after table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from types import SimpleNamespace
from typing import Any

from bench.common import MeasuredNothing, Timings, bot_world, emojis_created, next_control
from tests.e2e.harness import last_control, mentioned

GAMES = ("Ludix", "Ludime", "Range ta Ludothèque", "Take it to the Limit", "Tectonic", "L'Invincible Armada",
         "Lutinades")
CATEGORIES = ("move", "look", "lobby")
#: rows that look at the game without changing it (a player's private view, a status)
LOOKS = ("status", "Ma main", "Mon plateau", "Ma kallax", "Voir la carte", "/ludime table", "refused")
WRITES = ("POST", "PATCH", "PUT", "DELETE")


@dataclass
class Wire:
    """What one interaction cost on the wire."""

    interaction: int = 0  # requests carrying the interaction's token
    channel: int = 0  # posts, edits, deletions in a channel
    other: int = 0  # any other request of the bot in the window (reads...), its bytes not counted
    sent: int = 0  # request body bytes of the interaction and channel requests (JSON or multipart, files included)
    pictures: int = 0  # of which the attached files' bytes
    gateway: int = 0  # gateway bytes received by the bot


def category(name: str) -> str:
    """What a row is: a lobby's step (start, join, leave, launch, cancel), a look, or part of a move."""
    if name.endswith((" start", " cancel", " join", " leave")) or name in ("button Rejoindre", "button Lancer (start)"):
        return "lobby"
    if any(word in name for word in LOOKS):
        return "look"
    return "move"


def tally(window: Sequence, token: str) -> Wire:
    """The figures of one interaction from its window of the fake's request log (entries
    ``(method, path, status)`` with ``body_bytes`` and ``file_bytes``): requests carrying another
    interaction's token are not its own and are left out."""
    w = Wire()
    for entry in window:
        method, path, _ = entry
        if token in path:
            w.interaction += 1
        elif "/interactions/" in path or "/webhooks/" in path:
            continue  # another interaction's (an autocomplete answered meanwhile)
        elif "/channels/" in path and method in WRITES:
            w.channel += 1
        else:
            w.other += 1  # not a move's (a read): its bytes are not counted
            continue
        w.sent += entry.body_bytes
        w.pictures += entry.file_bytes
    return w


def window_of(log: Sequence, token: str, next_token: str | None) -> list:
    """From the first request carrying ``token`` to the first one carrying ``next_token`` (to the end
    without one); empty when ``token`` made no request."""
    first = next((i for i, e in enumerate(log) if token in e[1]), None)
    if first is None:
        return []
    end = len(log) if next_token is None else next(
        (i for i in range(first, len(log)) if next_token in log[i][1]), len(log))
    return list(log[first:end])


class WireTimings(Timings):
    """Timings that also keep, per game and row, the wire figures of every recorded interaction."""

    def __init__(self) -> None:
        super().__init__()
        self.game = ""
        self.wire: dict[str, dict[str, list[Wire]]] = defaultdict(lambda: defaultdict(list))
        self._last: tuple[str, str, str, Wire] | None = None  # game, row, token, its gateway bytes so far
        self._fake: Any = None
        self._gw = 0

    def begin(self, fake, game: str) -> None:
        """A new game starts on ``fake`` (what came before is closed)."""
        self.flush()
        self._fake, self.game, self._gw = fake, game, fake.gateway_bytes_sent

    def record(self, name: str, result) -> Any:
        self.add(name, result.latency)
        fake = result.fake
        gw, self._gw = fake.gateway_bytes_sent - self._gw, fake.gateway_bytes_sent
        if result.kind == "autocomplete":
            return result  # not a move: its traffic is not counted
        token = result.interaction["token"]
        self._close(token)
        self._last = (self.game, name, token, Wire(gateway=gw))
        return result

    def _close(self, next_token: str | None) -> None:
        if self._last is None or self._fake is None:
            return
        game, name, token, w = self._last
        counted = tally(window_of(self._fake.request_log, token, next_token), token)
        counted.gateway = w.gateway
        self.wire[game][name].append(counted)
        self._last = None

    def flush(self) -> None:
        """Close the last interaction's window (call once the bot is quiet)."""
        self._close(None)


def summary(rows: dict[str, list[Wire]], what: str = "move") -> dict[str, float]:
    """Means per interaction over a game's rows of category ``what`` (see :func:`category`; "all":
    every row)."""
    ws = [w for name, lst in rows.items() if what in ("all", category(name)) for w in lst]
    if not ws:
        return {"n": 0}
    out: dict[str, float] = {"n": len(ws)}
    for field in ("interaction", "channel", "other", "sent", "pictures", "gateway"):
        out[field] = sum(getattr(w, field) for w in ws) / len(ws)
    return out


def kib(n: float) -> str:
    return f"{n / 1024:.1f}"


def kind_table(title: str, wire: dict[str, dict[str, list[Wire]]]) -> str:
    lines = [f"### {title}: per interaction kind", "",
             "| game | kind | n | interaction req. | channel req. | sent KiB mean / p50 / max | pictures KiB mean "
             "| gateway KiB mean |", "|---|---|---|---|---|---|---|---|"]
    for game, rows in wire.items():
        for name, ws in rows.items():
            sent = [w.sent for w in ws]
            lines.append(
                f"| {game} | {name} | {len(ws)} | {statistics.mean(w.interaction for w in ws):.2f} "
                f"| {statistics.mean(w.channel for w in ws):.2f} | {kib(statistics.mean(sent))} / "
                f"{kib(statistics.median(sent))} / {kib(max(sent))} | {kib(statistics.mean(w.pictures for w in ws))} "
                f"| {kib(statistics.mean(w.gateway for w in ws))} |")
    return "\n".join(lines)


def game_table(title: str, wire: dict[str, dict[str, list[Wire]]]) -> str:
    lines = [f"### {title}: mean per interaction", "",
             "| game | what | n | interaction req. | channel req. | sent KiB | of which pictures KiB | gateway KiB |",
             "|---|---|---|---|---|---|---|---|"]
    for game, rows in wire.items():
        for what in CATEGORIES:
            s = summary(rows, what)
            if s["n"]:
                lines.append(f"| {game} | {what} | {s['n']:.0f} | {s['interaction']:.2f} | {s['channel']:.2f} "
                             f"| {kib(s['sent'])} | {kib(s['pictures'])} | {kib(s['gateway'])} |")
    return "\n".join(lines)


def compare_table(before: dict, after: dict, what: str = "move") -> str:
    """Before → after per game, from two ``--json`` files: means per interaction of category ``what``."""
    lines = [f"| game | {what} interactions (before / after) | requests: interaction + channel | KiB sent "
             "| of which pictures | gateway KiB |", "|---|---|---|---|---|---|"]
    for game in GAMES:
        b, a = (summary({k: [Wire(**w) for w in v] for k, v in side.get(game, {}).items()}, what)
                for side in (before, after))
        if not b["n"] or not a["n"]:
            lines.append(f"| {game} | {b['n']:.0f} / {a['n']:.0f} | | | | |")
            continue
        lines.append(
            f"| {game} | {b['n']:.0f} / {a['n']:.0f} | {b['interaction']:.2f} + {b['channel']:.2f} → "
            f"{a['interaction']:.2f} + {a['channel']:.2f} | {kib(b['sent'])} → {kib(a['sent'])} "
            f"| {kib(b['pictures'])} → {kib(a['pictures'])} | {kib(b['gateway'])} → {kib(a['gateway'])} |")
    return "\n".join(lines)


# --- the games (the per-game benches' gestures, capped) ---------------------------------------------

async def settle(fake, idle: float = 0.25, at_most: float = 5.0) -> None:
    """Wait until the bot has been quiet (no request, no gateway frame) for ``idle`` seconds: the late
    requests of the last move (its old buttons taken off, a card re-rendered) land in its window."""
    t0 = time.monotonic()
    seen, since = None, t0
    while time.monotonic() - t0 < at_most:
        log = fake.request_log
        now = (len(log), id(log[-1]) if log else 0, fake.gateway_bytes_sent)
        if now != seen:
            seen, since = now, time.monotonic()
        elif time.monotonic() - since >= idle:
            return
        await asyncio.sleep(0.05)


def quiet_first(fake) -> None:
    """Every interaction the drivers send waits first for the bot to be quiet (see :func:`settle`), so
    that each one's window holds its own requests only, whatever the machine's load."""
    for name in ("run_command", "click", "select", "autocomplete", "submit_modal"):
        method = getattr(fake, name, None)
        if method is None:
            continue

        async def quiet_then(*args, _method=method, **kw):
            await settle(fake)
            return await _method(*args, **kw)

        setattr(fake, name, quiet_then)


async def ludix(t: WireTimings, fake, users, moves: int) -> None:
    alice, bruno = users[:2]
    by_id = {alice.id: alice, bruno.id: bruno}
    lobby = t.record("/ludix start", await fake.run_command(alice, "jeux", "ludix start", objectif=500)).message
    t.record("button Rejoindre", await fake.click(bruno, lobby, label="Rejoindre"))
    t.record("button Lancer (start)", await fake.click(
        alice, lobby, label="Lancer", until=lambda r, a=lobby.id: next_control(fake, "jeux", a)))
    msg = next_control(fake, "jeux", lobby.id)
    for n in range(moves):
        if "Fin de la partie" in (msg.content or ""):
            return
        (uid,) = mentioned(msg)
        label = "Stop (marquer)" if ("Stop (marquer)" in msg.button_labels and n % 2) else \
            next(lb for lb in msg.button_labels if lb in ("Lancer les dés", "Relancer"))
        row = "button Stop" if label.startswith("Stop") else "button Lancer les dés"
        after = msg.id
        t.record(row, await fake.click(by_id[uid], msg, label=label,
                                       until=lambda r, a=after: next_control(fake, "jeux", a)))
        msg = next_control(fake, "jeux", after)
        if msg is None:
            raise MeasuredNothing(f"Ludix: no follow-up after {row}")
    t.record("/ludix cancel", await fake.run_command(alice, "jeux", "ludix cancel"))


async def ludime(t: WireTimings, fake, bot, users, moves: int) -> None:
    from bench.bench_ludime import open_game, play

    table = await open_game(t, SimpleNamespace(fake=fake, bot=bot), users[:3], "main")
    try:
        await play(t, table, one_round=False, max_moves=moves)
        _, game = await table.state()
        if game.status == "running":
            t.record("/ludime cancel", await fake.run_command(users[0], "jeux", "ludime cancel"))
    finally:
        await table.close()


async def ranta(t: WireTimings, fake, users, rounds: int) -> None:
    from bench.bench_ranta import place

    rng = random.Random(1)
    players = users[:3]
    paths = ("buttons", "placer", "tapis", "mat")
    lobby = t.record("/ranta start", await fake.run_command(players[0], "jeux", "ranta start", mode="classique")).message
    for user in players[1:]:
        t.record("button Rejoindre", await fake.click(user, lobby, label="Rejoindre"))
    t.record("button Lancer (start)", await fake.click(players[0], lobby, label="Lancer",
                                                       until=lambda r: bool(r.public_messages[1:])))
    for rnd in range(1, rounds + 1):
        order = players[:]
        rng.shuffle(order)
        for i, user in enumerate(order):
            if i == 0:
                t.record("button Ma kallax", await fake.click(user, last_control(fake), label="Ma kallax"))
            if i == 1:
                t.record("/ranta status", await fake.run_command(user, "jeux", "ranta status"))
            await place(t, fake, user, paths[(rnd + i) % len(paths)])
    t.record("/ranta cancel", await fake.run_command(players[0], "jeux", "ranta cancel"))


async def limit(t: WireTimings, fake, users, rounds: int) -> None:
    from bench.bench_limit import play_game

    await play_game(t, fake, users[:2], {"plateau": "nexus", "variante": "standard"}, rounds, random.Random(1), 0)


async def duel(t: WireTimings, fake, bot, users, moves: int, kind: str, status_every: tuple[int, int]) -> None:
    """Tectonic or L'Invincible Armada (their e2e drivers share one shape): a lobby, then ``moves``
    moves by the drivers' ``step``, a status now and then by the player waiting (every
    ``status_every[0]`` moves, at ``status_every[1]``), and the cancel."""
    import importlib

    engine = importlib.import_module(f"engines.{kind}").ENGINE
    driver = importlib.import_module(f"tests.e2e.{kind}_driver")
    alice, bruno = users[:2]
    res = t.record(f"/{kind} start", await fake.run_command(alice, "jeux", f"{kind} start"))
    gid = driver.game_id_of(res.message)
    t.record("button Rejoindre", await fake.click(bruno, res.message, label="Rejoindre"))
    t.record("button Lancer (start)", await fake.click(alice, res.message, label="Lancer", until=driver.answered))
    every, at = status_every
    async with driver.Reader(bot.db) as reader:
        for n in range(moves):
            _, state = await reader.state(gid)
            if state.finished:
                return
            if n % every == at:
                (seat,) = engine.expected(state)
                t.record(f"/{kind} status", await fake.run_command((alice, bruno)[1 - seat], "jeux", f"{kind} status"))
            s = await driver.step(fake, reader, gid, {0: alice, 1: bruno})
            name = s.command
            if kind == "tectonic" and s.command == "button Retourner":
                t.record("/tectonic jouer (flip choice asked)", s.first)
            if kind == "armada" and len([m for m in s.result.created if m.attachments]) > 1:
                name += " (round end)"
            t.record(name, s.result)
        t.record(f"/{kind} cancel", await fake.run_command(alice, "jeux", f"{kind} cancel"))


async def lutinades(t: WireTimings, fake, bot, users, turns: int) -> None:
    from bench.bench_lutinades import posted, read_game
    from cogs.lutinades.cog import own_gesture_text
    from engines.lutinades import ENGINE, KINDS

    rng = random.Random(1)
    alice = users[0]
    lobby = t.record("/lutinades start", await fake.run_command(alice, "jeux", "lutinades start")).message
    for user in users[1:]:
        t.record("button Rejoindre", await fake.click(user, lobby, label="Rejoindre"))
    t.record("button Lancer (start)", await fake.click(alice, lobby, label="Lancer", until=posted))
    msg = last_control(fake)
    game_id = int(msg.buttons[0]["custom_id"].split(":")[1])
    db = bot.db
    for _ in range(turns):
        state, status = read_game(db, game_id)
        if status != "running":
            return
        picker = users[state.picker]
        lutins = [s for s in range(state.players) if s != state.picker]
        t.record("button Voir la carte (lutin)", await fake.click(users[lutins[0]], msg, label="Voir la carte"))
        if state.turn % 4 == 1:
            t.record("/lutinades status", await fake.run_command(picker, "jeux", "lutinades status"))
        for i, s in enumerate(lutins):
            kind = rng.choice(KINDS)
            res = await fake.click(users[s], msg, label=own_gesture_text(kind, None, "fr"), until=posted)
            t.record("button geste (reveal)" if i == len(lutins) - 1 else "button geste", res)
            msg = last_control(fake) or msg
        state, status = read_game(db, game_id)
        if status == "running" and state.phase == "choice":
            lutin = rng.choice(ENGINE.followable(state))
            label = next(lbl for lbl in msg.button_labels if lbl.startswith(f"Suivre {users[lutin].name} ("))
            t.record("button Suivre (reveal card)", await fake.click(picker, msg, label=label, until=posted))
            msg = last_control(fake) or msg
    t.record("/lutinades cancel", await fake.run_command(alice, "jeux", "lutinades cancel"))


async def run(scale: float = 1.0) -> WireTimings:
    """Every game, one after the other, in one bot process and one fake Discord."""
    t = WireTimings()
    fake, bot, users, _ = await bot_world(["Alice", "Bruno", "Chloé", "Dave"])
    quiet_first(fake)
    n = max(4, round(30 * scale))
    plays = [
        ("Ludix", lambda: ludix(t, fake, users, n)),
        ("Ludime", lambda: ludime(t, fake, bot, users, n)),
        ("Range ta Ludothèque", lambda: ranta(t, fake, users, max(2, round(6 * scale)))),
        ("Take it to the Limit", lambda: limit(t, fake, users, max(2, round(10 * scale)))),
        ("Tectonic", lambda: duel(t, fake, bot, users, n, "tectonic", (8, 3))),
        ("L'Invincible Armada", lambda: duel(t, fake, bot, users, n, "armada", (10, 5))),
        ("Lutinades", lambda: lutinades(t, fake, bot, users, max(2, round(6 * scale)))),
    ]
    try:
        await asyncio.sleep(2)  # the start-up's own requests (commands, emojis) are not a move's
        print(f"({await emojis_created(fake)} application emojis)", file=sys.stderr)
        for game, play in plays:
            t0 = time.perf_counter()
            t.begin(fake, game)
            await play()
            await settle(fake, idle=4.0, at_most=30.0)  # a finished game's animated summary comes later
            t.flush()
            print(f"({game}: {time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        if fake.validation_errors:
            raise MeasuredNothing(f"Discord would refuse: {fake.validation_errors[:3]}")
    finally:
        bot.kill()
        await fake.stop()
    missing = [g for g in GAMES if not summary(t.wire.get(g, {}))["n"]]
    if missing:
        raise MeasuredNothing(f"no move measured for {missing}")
    return t


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--scale", type=float, default=1.0, help="moves per game, relative to the default")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="print the before/after table")
    args = parser.parse_args(argv)
    if args.compare:
        before, after = (json.loads(open(p).read()) for p in args.compare)
        for what in (*CATEGORIES, "all"):
            print(f"#### {what}")
            print(compare_table(before, after, what))
            print()
        return 0
    t = asyncio.run(run(args.scale))
    print(game_table("Bytes and requests", t.wire))
    print()
    print(kind_table("Bytes and requests", t.wire))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({g: {k: [asdict(w) for w in v] for k, v in rows.items()} for g, rows in t.wire.items()}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
