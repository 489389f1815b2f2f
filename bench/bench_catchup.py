"""The catch-up after downtime, through the real bot and the fake Discord: 5,000 due reminders.

A database holds 5,000 running Ludix games in 50 channels whose seats have been waiting for 13 hours
(the bot was down): every reminder (12 h) is due, no timeout (48 h). The bot starts on it and fires
them at its bounded pace while two players play a Ludix game in another channel; every click of
theirs is timed.

Time is compressed ``SPEED`` times, honestly: the fake Discord's clock (its rate-limit windows: 50
requests per second, 5 posts per 5 s per channel) runs ``SPEED`` times faster, and the bot's pace is
set ``SPEED`` times faster too (``LUDIBOT_CATCHUP_RATE``, ``LUDIBOT_CATCHUP_CHANNEL``), so the ratio
between the two is the production one.

The floor bot (``bench/floor_bot.py``) is measured in the same run, after the catch-up, on its own
fake Discord: the players' clicks are printed as a ratio to its clicks.

Run: ``.venv/bin/python -m bench.bench_catchup [deadlines] [speed]``. It asserts what it measured
(every reminder posted once, the players' clicks counted) and exits non-zero past a budget: no 429
from the fake, the players' clicks p99 ≤ 150 ms meanwhile.
"""

from __future__ import annotations

import asyncio
import re
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_storage import fill_plan, templates
from bench.common import BUDGET_MS, Timings, measure_floor, percentile
from bot.storage import SQLiteStore
from fakediscord import FakeDiscord
from tests.e2e.harness import BotProcess, mentioned, wait_control

CHANNELS = 50
MEMBERS = 24
HOUR = 3600.0
ROW = "Ludix click during the catch-up"
GAME_ID = re.compile(r"n°(\d+)")


def is_reminder(msg) -> bool:
    return msg.visible_to is None and bool(msg.content) and msg.content.startswith("⏰ Rappel")


async def seed(path: Path, fake: FakeDiscord, channels: list[int], members: list[tuple[int, str]], n: int) -> None:
    """``n`` running Ludix games (the engine's own, a few moves in), their seats waiting for 13 hours."""
    tpl = await templates()
    ludix = tpl["ludix"][1]
    now = time.time()
    store = SQLiteStore(str(path))
    await store.open()
    await fill_plan(store, [(fake.guild_id, channels[i % len(channels)], members, ludix, now - 13 * HOUR - i * 0.01)
                            for i in range(n)], seed=3)
    await store.execute("UPDATE games SET published_version = version")  # their messages exist
    await store.close()


async def play(fake: FakeDiscord, users: dict[int, object], t: Timings, done: asyncio.Event, speed: float) -> None:
    """Alice and Bruno play Ludix in #jeux, turn after turn (a new game when one ends), until the
    catch-up is over."""
    alice, bruno = users.values()
    while not done.is_set():
        lobby = (await fake.run_command(alice, "jeux", "ludix start", objectif=1000)).message
        await fake.click(bruno, lobby, label="Rejoindre")
        await fake.click(alice, lobby, label="Lancer")
        msg = await wait_control(fake)
        while not done.is_set() and "Lancer les dés" in msg.button_labels:
            (uid,) = mentioned(msg)
            msg = t.record(ROW, await fake.click(users[uid], msg, label="Lancer les dés")).message
            if "Stop (marquer)" in msg.button_labels and mentioned(msg) == [uid]:
                msg = t.record(ROW, await fake.click(users[uid], msg, label="Stop (marquer)")).message
            # a player reads the table before clicking again (1.5 s of the fake's compressed time: a quick
            # player, within Discord's 5 edits per 5 s of the channel that taking the old buttons off makes)
            await asyncio.sleep(1.5 / speed)


async def main(n: int = 5_000, speed: float = 5.0) -> int:
    t = Timings()
    t.expect(ROW, 50)
    tmp = Path(tempfile.mkdtemp(prefix="ludibot-bench-catchup-"))
    names = ["jeux"] + [f"salon-{i:02d}" for i in range(CHANNELS)]
    fake = FakeDiscord(guild_name="Bench", channels=names, settle=0.02, timeout=30, clock_speed=speed)
    members = [fake.add_user(f"Joueur {i:02d}", locale="fr") for i in range(MEMBERS)]
    alice, bruno = fake.add_user("Alice", locale="fr"), fake.add_user("Bruno", locale="fr")
    await fake.start()
    channels = [fake.channel(name).id for name in names[1:]]
    t0 = time.perf_counter()
    await seed(tmp / "ludibot.db", fake, channels, [(m.id, m.name) for m in members], n)
    print(f"seeded {n} running games with a due reminder in {time.perf_counter() - t0:.0f} s", flush=True)
    bot = BotProcess(fake, tmp, extra_env={"LUDIBOT_SCHEDULER_POLL": "0.5", "LUDIBOT_CATCHUP_RATE": str(20 * speed),
                                           "LUDIBOT_CATCHUP_CHANNEL": f"2/{5 / speed}"})
    done = asyncio.Event()
    try:
        bot.start()
        await fake.wait_ready(timeout=120)
        started = time.perf_counter()
        player = asyncio.create_task(play(fake, {alice.id: alice, bruno.id: bruno}, t, done, speed))

        def reminded() -> list[int]:
            return [int(m) for name in names[1:] for msg in fake.messages(name) if is_reminder(msg)
                    for m in GAME_ID.findall(msg.content)[:1]]

        while len(reminded()) < n and time.perf_counter() - started < 20 * n / (20 * speed) + 120:
            if player.done():
                player.result()  # a failure of the players' loop is the benchmark's
            await asyncio.sleep(0.5)
        elapsed = time.perf_counter() - started
        done.set()
        await player
        ids = reminded()
        print(f"{len(ids)} reminders posted in {elapsed:.0f} s ({len(ids) / elapsed:.0f}/s, time ×{speed:g}: "
              f"{len(ids) / elapsed / speed:.1f}/s at Discord's real limits)", flush=True)
        per_channel = max(sum(1 for _ in fake.messages(name)) for name in names[1:])
        problems = []
        if sorted(ids) != sorted(set(ids)) or len(set(ids)) != n:
            problems.append(f"- MEASURED NOTHING: {len(set(ids))} games reminded (of {n}), {len(ids) - len(set(ids))} twice")
        if fake.rate_limited:
            problems.append(f"- 429: the fake answered {len(fake.rate_limited)} rate-limited requests "
                            f"(first: {fake.rate_limited[0]})")
        if bot.tracebacks():
            problems.append(f"- the bot logged errors: {bot.tracebacks()[:3]}")
        assert fake.errors == [], fake.errors[:3]
    finally:
        done.set()
        bot.stop()
        await fake.stop()
    floor = await measure_floor(t)  # the floor bot, same run, its own fake Discord (no catch-up there)
    print()
    print(t.table(f"Players during a catch-up of {n} reminders (time ×{speed:g})"))
    print(f"\n- busiest channel: {per_channel} messages; 429 answered by the fake: {len(fake.rate_limited)}")
    p99 = percentile(t.samples.get(ROW, []), 99)
    p50 = percentile(t.samples.get(ROW, []), 50)
    if floor.clicks:
        print(f"- players' clicks during the catch-up: p50 {p50:.1f} ms, p99 {p99:.1f} ms; the floor bot's clicks "
              f"(same run, idle): p50 {floor.p50:.1f} ms, p99 {floor.p99:.1f} ms; ratio p50 "
              f"{p50 / floor.p50:.1f}×, p99 {p99 / floor.p99:.1f}×")
    problems += t.check()
    if p99 >= BUDGET_MS:
        problems.append(f"- OVER BUDGET: {ROW}: p99 {p99:.1f} ms ≥ {BUDGET_MS:.0f} ms")
    print("\n".join(problems) if problems else "- every reminder posted once, no 429, every budget met")
    return 1 if problems else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(asyncio.run(main(int(args[0]) if args else 5_000, float(args[1]) if len(args) > 1 else 5.0)))
