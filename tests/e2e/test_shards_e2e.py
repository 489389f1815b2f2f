"""Shards (issue 14 part 2) with the real bot process: one process running two shards, and two
processes splitting them over one database, each firing only its own servers' deadlines."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.storage import open_store
from fakediscord import FakeDiscord
from tests.e2e.harness import BotProcess, mentioned, wait_control

pytestmark = pytest.mark.e2e

REMINDER = "⏰ Rappel"


def two_servers(**kw) -> tuple[FakeDiscord, object, object, object, object]:
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux"], settle=0.1, timeout=20, **kw)
    club = fake.add_guild("Club", channels=["jeux"])
    shard = {g: (g.id >> 22) % 2 for g in (fake.guild, club)}
    assert sorted(shard.values()) == [0, 1], "the two servers must be on different shards"
    alice = fake.add_user("Alice", guilds=[fake.guild, club])
    bruno = fake.add_user("Bruno", guilds=[fake.guild, club])
    by_shard = {shard[g]: g for g in shard}
    return fake, by_shard[0], by_shard[1], alice, bruno


async def start_ludix(fake, guild, alice, bruno):
    ch = fake.channel("jeux", guild=guild)
    res = await fake.run_command(alice, ch, "ludix start", objectif=50)
    assert not res.ephemeral and res.message is not None, res.content
    await fake.click(bruno, res.message, label="Rejoindre")
    res = await fake.click(alice, res.message, label="Lancer")
    return ch, res


async def mentions_commands(fake, proc, guild, user) -> None:
    """The process serving ``guild`` knows the commands' ids (learnt in the background) and a message
    naming a command mentions it: the rules page that names ``/ludix start``."""
    from bot import i18n, rules

    await fake.wait_until(lambda: "command mentions: the ids of" in proc.log, timeout=30)
    (ludix,) = [c for c in fake.commands.values() if c.name == "ludix" and c.type == 1]
    page = next(i for i, key in enumerate(rules.pages("ludix")) if "ludix start" in i18n.catalog("fr")[key])
    res = await fake.run_command(user, fake.channel("jeux", guild=guild), "ludix rules")
    res = await fake.select(user, res.message, [str(page)], placeholder=i18n.t("common.rules.pick", "fr"))
    assert f"</ludix start:{ludix.id}>" in res.message.content, res.message.content
    assert fake.broken_command_mentions == []


async def play(fake, msg, *users):
    """The expected player rolls the dice."""
    (uid,) = mentioned(msg)
    user = next(u for u in users if u.id == uid)
    roll = next(b["custom_id"] for b in msg.buttons if ":roll:" in b["custom_id"])
    res = await fake.click(user, msg, custom_id=roll)
    assert not res.ephemeral, res.content


def reminders(fake, ch) -> list:
    return [m for m in fake.messages(ch) if REMINDER in (m.content or "")]


async def test_one_process_runs_both_shards(tmp_path):
    fake, g0, g1, alice, bruno = two_servers(shards=2, max_concurrency=2)
    await fake.start()
    bot = BotProcess(fake, tmp_path, extra_env={"LUDIBOT_DEV_GUILD": "", "LUDIBOT_SHARD_COUNT": "2"})
    bot.start()
    try:
        await fake.wait_ready(timeout=60)
        sessions = fake.shard_sessions()
        assert sorted(sessions) == [0, 1] and {s.shard_count for s in sessions.values()} == {2}
        # max_concurrency 2: shards 0 and 1 are in different identify buckets, no 5-second wait between them
        t = {sid: when for when, sid, _ in fake.identify_log}
        assert abs(t[1] - t[0]) < 2.5, fake.identify_log
        for guild, shard in ((g0, 0), (g1, 1)):
            ch, res = await start_ludix(fake, guild, alice, bruno)
            assert res.record.shard_id == shard  # the interaction went over that server's shard
            assert (await wait_control(fake, ch)).buttons  # the game's controls, published on that server
        assert fake.validation_errors == []
        assert "Traceback" not in bot.log
    finally:
        bot.kill()
        await fake.stop()


async def test_two_processes_split_the_shards_and_each_fires_its_own_deadlines(tmp_path, bot_db):
    """(On the database of ``bot_db``: SQLite by default; PostgreSQL in test_postgres_e2e.py.)"""
    fake, g0, g1, alice, bruno = two_servers(shards=2)
    db = bot_db
    store = open_store(db)
    await store.open()
    for g in (g0, g1):  # a reminder 5 s after a seat becomes expected, no timeout
        await store.set_guild_settings(g.id, {"timers": {"ludix": {"reminder_h": 5 / 3600, "timeout_h": 0}}})
    await store.close()
    await fake.start()
    procs = {}
    for sid in (0, 1):
        (tmp_path / f"p{sid}").mkdir()
        procs[sid] = BotProcess(fake, tmp_path / f"p{sid}", extra_env={
            "LUDIBOT_DEV_GUILD": "", "LUDIBOT_SHARD_COUNT": "2", "LUDIBOT_SHARD_IDS": str(sid),
            "LUDIBOT_DB": str(db), "LUDIBOT_SCHEDULER_POLL": "0.2"})
        procs[sid].start()
    try:
        await fake.wait_ready(timeout=60)
        assert sorted(fake.shard_sessions()) == [0, 1]
        # started together, the two processes share Discord's IDENTIFY bucket (max_concurrency 1)
        # through the database: their IDENTIFYs are 5 s apart
        t = {sid: when for when, sid, _ in fake.identify_log}
        assert abs(t[1] - t[0]) >= 4.8, fake.identify_log
        assert "synced" in procs[0].log and "synced" not in procs[1].log  # only shard 0's process syncs
        assert "shard 0 is another process's" in procs[1].log
        await mentions_commands(fake, procs[1], g1, alice)  # issue 25: the process that does not sync fetched the ids
        ch0, _ = await start_ludix(fake, g0, alice, bruno)
        ch1, _ = await start_ludix(fake, g1, alice, bruno)
        started = time.monotonic()
        procs[1].kill()  # shard 1's process dies before its server's reminder is due
        await fake.wait_until(lambda: reminders(fake, ch0), timeout=20)  # process 0 fires its own
        assert len(reminders(fake, ch0)) == 1
        before = await wait_control(fake, ch0)
        await play(fake, before, alice, bruno)  # ... and its server's games play on
        await wait_control(fake, ch0, newer_than=before)
        await asyncio.sleep(max(0.0, started + 7 - time.monotonic()))
        assert reminders(fake, ch1) == []  # ... and never another process's
        procs[1].start()  # restarted, shard 1's process catches up with its server's reminder
        await fake.wait_until(lambda: reminders(fake, ch1), timeout=40)
        await asyncio.sleep(1.0)
        assert len(reminders(fake, ch1)) == 1  # fired once
        before = await wait_control(fake, ch1)  # its game kept its controls and plays on
        await play(fake, before, alice, bruno)
        await wait_control(fake, ch1, newer_than=before)
        assert fake.validation_errors == []
        for p in procs.values():
            assert "Traceback" not in p.log
    finally:
        for p in procs.values():
            p.kill()
        await fake.stop()
