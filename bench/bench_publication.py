"""Publication on the field (issue 17): delay from a committed version to its public message, and
Discord REST calls per move — through the real bot process and the strict fake Discord.

Three measures:
* **interaction path** — a player's click: commit (the event's time in the database) → the public
  message (the fake's timestamp of the message);
* **publisher path** — moves with no interaction (timeouts): commit → the channel post, in a free
  channel and in a channel rate-limited harder than Discord's default (nine games timing out at
  once);
* **REST calls per move** — every request the bot makes to Discord while one move is answered:
  target at most two interaction requests (the answer that takes the clicked message's buttons
  off, and the follow-up with the next turn: interaction endpoints, outside Discord's global rate
  limit) plus at most one channel request (a move that could not strip through its own answer).

The players' clicks (callback latency) are printed beside the floor bot's (``bench/floor_bot.py``,
same run, its own fake Discord), as a ratio. It fails loudly when it measured fewer samples than it
declares.
Run: ``python -m bench.bench_publication``.
"""

from __future__ import annotations

import asyncio
import re
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from bench.common import Timings, measure_floor, percentile
from bot.storage import SQLiteStore
from fakediscord import FakeDiscord
from tests.e2e.harness import mentioned, start_bot

CID = re.compile(r"^ludibot:(\d+):([a-z_]+):(\d+)")
TIMEOUT_H = 0.0012  # 4.3 s
MOVES = 60
RATE_LIMITED_GAMES = 9


def game_of(msg) -> int | None:
    for b in msg.buttons:
        m = CID.match(b.get("custom_id", ""))
        if m:
            return int(m[1])
    return None


def stamp(msg) -> float:
    return datetime.fromisoformat(msg.timestamp.replace("Z", "+00:00")).timestamp()


def newest(fake, gid: int, channel: str = "jeux"):
    for msg in reversed(fake.messages(channel)):
        if msg.visible_to is None and not msg.deleted and game_of(msg) == gid:
            return msg
    return None


async def start_ludix(fake, alice, bruno, channel="jeux") -> int:
    lobby = (await fake.run_command(alice, channel, "ludix start", objectif=1000)).message
    await fake.click(bruno, lobby, label="Rejoindre")
    await fake.click(alice, lobby, label="Lancer")
    gid = int(lobby.revisions[0].buttons[0]["custom_id"].split(":")[1])
    await fake.wait_until(lambda: newest(fake, gid, channel) is not None, timeout=20)
    return gid


async def commit_times(db: Path, gid: int) -> dict[int, tuple[float, str | None]]:
    """version -> (commit time, who: None for a player, 'timeout', 'ai')."""
    store = SQLiteStore(str(db))
    await store.open()
    try:
        return {e.version: (e.created_at, e.action.get("_by")) for e in await store.events(gid)}
    finally:
        await store.close()


def rest_calls(log: list[tuple[str, str, int]]) -> tuple[int, int, int]:
    """(interaction callbacks and webhooks, channel requests, other) in a request log."""
    inter = sum(1 for _, path, _ in log if "/interactions/" in path or "/webhooks/" in path)
    channel = sum(1 for _, path, _ in log if "/channels/" in path)
    return inter, channel, len(log) - inter - channel


CLICK_ROW = "button Ludix move (callback)"


async def main() -> int:
    rows: list[str] = []
    failures: list[str] = []
    t = Timings()  # a player's click beside the floor bot's
    t.expect(CLICK_ROW, MOVES)
    with tempfile.TemporaryDirectory() as tmp:
        fake = FakeDiscord(guild_name="Bench", channels=["jeux", "autre"], settle=0.05, timeout=30)
        alice, bruno = fake.add_user("Alice"), fake.add_user("Bruno")
        modo = fake.add_user("Modo", manage_guild=True)
        await fake.start()
        bot = await start_bot(fake, Path(tmp), extra_env={"LUDIBOT_SCHEDULER_POLL": "0.2",
                                                           "LUDIBOT_PUBLISH_POLL": "0.5"})
        try:
            by_id = {alice.id: alice, bruno.id: bruno}
            # 1. the interaction path, and REST calls per move
            games = [await start_ludix(fake, alice, bruno) for _ in range(3)]
            delays: list[float] = []
            await asyncio.sleep(2)
            fake.request_log = []
            for i in range(MOVES):
                gid = games[i % len(games)]
                msg = newest(fake, gid)
                res = await fake.click(by_id[mentioned(msg)[-1]], msg, label=msg.button_labels[0])
                t.add(CLICK_ROW, res.latency)
                new = res.message
                version = int(CID.match(new.buttons[0]["custom_id"])[3]) if new.buttons else None
                if version is not None:
                    commits = await commit_times(bot.db, gid)
                    if version in commits:
                        delays.append((stamp(new) - commits[version][0]) * 1000)
            rows.append(row("commit → public message, a player's click", delays, MOVES // 2, failures))
            await asyncio.sleep(3)  # the last buttons come off (edits are rate-limited too)
            inter, chan, other = rest_calls(list(fake.request_log))
            rows.append(f"| REST calls per Ludix move (over {MOVES} moves) | {MOVES} | interaction "
                        f"{inter / MOVES:.2f}, channel {chan / MOVES:.2f}, other {other / MOVES:.2f} | | |")
            if inter > 2 * MOVES or chan > MOVES:
                failures.append(f"REST calls per move above target: interaction {inter / MOVES:.2f}, "
                                f"channel {chan / MOVES:.2f}")
            # 2. the publisher path: timeouts in a free channel, then in a rate-limited one
            for label, limited in (("free channel", False), ("channel rate-limited to 2 posts / 5 s", True)):
                channel = "autre" if limited else "jeux"
                await fake.run_command(modo, channel, "ludibot config", jeu="ludix", rappel=0, delai=TIMEOUT_H,
                                       forfait=0)
                started = [await start_ludix(fake, alice, bruno, channel) for _ in range(RATE_LIMITED_GAMES)]
                await fake.run_command(modo, channel, "ludibot config", jeu="ludix", rappel=0, delai=10.0, forfait=0)
                if limited:
                    fake.rate_limit_channel(channel, limit=2, per=5.0)
                t0 = time.monotonic()
                samples: list[float] = []
                while time.monotonic() - t0 < 60 and len(samples) < len(started):
                    samples = []
                    for gid in started:
                        commits = await commit_times(bot.db, gid)
                        timeouts = {v: t for v, (t, by) in commits.items() if by == "timeout"}
                        msg = newest(fake, gid, channel)
                        if not timeouts or msg is None:
                            continue
                        version = int(CID.match(msg.buttons[0]["custom_id"])[3])
                        if version in timeouts:
                            samples.append((stamp(msg) - timeouts[version]) * 1000)
                    await asyncio.sleep(0.5)
                rows.append(row(f"commit → public message, a timeout ({label})", samples, len(started), failures))
            errors = [e for e in fake.errors if e.get("status") != 429]
            if fake.validation_errors or errors:
                failures.append(f"Discord would refuse: {fake.validation_errors or errors}")
        finally:
            bot.kill()
            await fake.stop()
    await measure_floor(t)  # the floor bot, same run, its own fake Discord
    failures += [p.removeprefix("- ") for p in t.check()]
    print("### Publication (issue 17)\n")
    print("| what | n | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|")
    print("\n".join(rows))
    print()
    print(t.table("A player's click beside the floor bot (same run)"))
    print()
    for f in failures:
        print(f"- FAILED: {f}")
    return 1 if failures else 0


def row(name: str, values: list[float], expected: int, failures: list[str]) -> str:
    if len(values) < expected:
        failures.append(f"{name}: measured {len(values)} samples, expected at least {expected}")
    if not values:
        return f"| {name} | 0 | – | – | – |"
    return (f"| {name} | {len(values)} | {percentile(values, 50):.0f} | {percentile(values, 99):.0f} "
            f"| {max(values):.0f} |")


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
