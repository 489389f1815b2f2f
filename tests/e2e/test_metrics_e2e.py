"""Metrics and health of the real bot process (issue 14 part 5): /metrics after a few moves, /healthz."""

from __future__ import annotations

import asyncio
import os
import socket
from types import SimpleNamespace

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from fakediscord import FakeDiscord
from tests.e2e.harness import followed, mentioned, start_bot, wait_control

pytestmark = pytest.mark.e2e


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def samples(text: str) -> dict[tuple[str, tuple], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


async def get(url: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as resp:
        return resp.status, resp.headers.get("Content-Type", ""), await resp.text()


async def test_metrics_after_a_few_moves_and_health(tmp_path):
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux"], settle=0.1, timeout=20, heartbeat_interval_ms=300)
    u = SimpleNamespace(alice=fake.add_user("Alice", locale="fr"), bruno=fake.add_user("Bruno", locale="fr"))
    await fake.start()
    port = free_port()
    bot = await start_bot(fake, tmp_path, extra_env={"LUDIBOT_METRICS_PORT": str(port)})
    base = f"http://127.0.0.1:{port}"
    try:
        res = await fake.run_command(u.alice, "jeux", "ludix start", objectif=50)
        await fake.click(u.bruno, res.message, label="Rejoindre")
        await fake.click(u.alice, res.message, label="Lancer")
        msg = await wait_control(fake)
        by_id = {u.alice.id: u.alice, u.bruno.id: u.bruno}
        rolls = 0
        for _ in range(3):
            (uid,) = mentioned(msg)
            roll = next(b["custom_id"] for b in msg.buttons if ":roll:" in b["custom_id"])
            res = await fake.click(by_id[uid], msg, custom_id=roll)
            assert not res.ephemeral, res.content
            msg = await followed(fake, res, msg)  # the next card follows the click's own answer (buttons off)
            rolls += 1
        await asyncio.sleep(1.0)  # a heartbeat or two (300 ms) for the gateway latency
        # a click's time is counted once its handler is done (after its follow-up and the version's mark), and
        # the publication backlog is measured at the publisher's sweeps (one may have seen a move in flight:
        # the next, after its grace, measures again): read once both say the moves are through
        roll_count = ("ludibot_command_seconds_count", (("command", "component roll"),))
        for _ in range(100):
            status, ctype, text = await get(f"{base}/metrics")
            m = samples(text) if status == 200 else {}
            if m.get(roll_count) == rolls and m.get(("ludibot_publication_backlog", ())) == 0:
                break
            await asyncio.sleep(0.2)
        assert status == 200 and ctype.startswith("text/plain")
        assert m[("ludibot_command_seconds_count", (("command", "ludix start"),))] == 1
        assert m[("ludibot_command_seconds_count", (("command", "component roll"),))] == rolls
        assert m[("ludibot_command_seconds_count", (("command", "component join"),))] == 1
        assert m[("ludibot_moves_total", (("by", "player"), ("game", "ludix")))] == rolls
        assert m[("ludibot_running_games", (("game", "ludix"),))] == 1
        assert m[("ludibot_shard_connected", (("shard", "0"),))] == 1
        assert 0 <= m[("ludibot_gateway_latency_seconds", (("shard", "0"),))] < 1
        assert m[("ludibot_discord_http_requests_total", (("method", "POST"),))] >= 4  # sync, responses
        assert m[("ludibot_publication_backlog", ())] == 0  # the publisher counted no game left unpublished
        assert ("ludibot_scheduler_lag_seconds_count", ()) in m
        assert not any(k[0] == "ludibot_discord_http_responses_total" and v for k, v in m.items())

        for _ in range(100):  # ready once every shard has streamed its servers (discord.py waits up to 2 s)
            status, _, body = await get(f"{base}/healthz")
            if status == 200:
                break
            assert '"ready": false' in body, body
            await asyncio.sleep(0.1)
        assert status == 200 and '"ok": true' in body, body
        for suffix in ("", "-wal", "-shm"):  # the volume is gone
            path = f"{bot.db}{suffix}"
            if os.path.exists(path):
                os.remove(path)
        status, _, body = await get(f"{base}/healthz")
        assert status == 503 and '"database": false' in body and '"connected": true' in body
        assert bot.tracebacks() == []
    finally:
        bot.kill()
        await fake.stop()


async def test_metrics_are_off_unless_asked(tmp_path):
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux"], settle=0.1, timeout=20)
    await fake.start()
    bot = await start_bot(fake, tmp_path)
    try:
        assert "metrics and health on" not in bot.log
    finally:
        bot.kill()
        await fake.stop()


async def test_a_403_from_discord_is_counted(tmp_path):
    from bot.storage import SQLiteStore

    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux"], settle=0.1, timeout=20)
    u = SimpleNamespace(alice=fake.add_user("Alice", locale="fr"), bruno=fake.add_user("Bruno", locale="fr"))
    store = SQLiteStore(str(tmp_path / "ludibot.db"))
    await store.open()
    await store.set_guild_settings(fake.guild_id, {"timers": {"ludix": {"reminder_h": 3 / 3600, "timeout_h": 0}}})
    await store.close()
    await fake.start()
    port = free_port()
    bot = await start_bot(fake, tmp_path, extra_env={"LUDIBOT_METRICS_PORT": str(port),
                                                     "LUDIBOT_SCHEDULER_POLL": "0.2"})
    try:
        res = await fake.run_command(u.alice, "jeux", "ludix start", objectif=50)
        await fake.click(u.bruno, res.message, label="Rejoindre")
        await fake.click(u.alice, res.message, label="Lancer")
        await wait_control(fake)
        fake.deny_bot("jeux", "send_messages")  # the reminder, 3 s later, is refused: 403 50013
        forbidden = 0.0
        for _ in range(100):
            m = samples((await get(f"http://127.0.0.1:{port}/metrics"))[2])
            forbidden = m.get(("ludibot_discord_http_responses_total", (("scope", ""), ("status", "403"))), 0)
            if forbidden:
                break
            await asyncio.sleep(0.2)
        assert forbidden >= 1
        assert m[("ludibot_scheduler_lag_seconds_count", ())] >= 1  # the reminder was taken up
        assert m[("ludibot_scheduler_lag_seconds_sum", ())] < 5 * m[("ludibot_scheduler_lag_seconds_count", ())]
    finally:
        bot.kill()
        await fake.stop()
