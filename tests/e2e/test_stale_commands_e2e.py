"""A stale command makes the bot check the commands Discord holds (issue 23): when they are not the
bot's, it re-syncs them, once; a client that is merely older gets its answer and nothing is synced."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot import i18n

pytestmark = pytest.mark.e2e

STALE_FR = i18n.t("payload.error.stale_command", "fr")


def without_partie(p: dict) -> str:
    """``/ludime poser`` as a client that does not know its required ``mot`` option."""
    leaf = p["data"]["options"][0]
    leaf["options"] = [o for o in leaf.get("options") or [] if o["name"] != "mot"]
    return json.dumps(p)


async def test_a_stale_command_resyncs_what_discord_lost_once(world):
    fake, u, bot = world.fake, world.u, world.bot
    # Discord lost one of the bot's commands (or holds an older tree): the bot does not know yet
    lost = next(c for c in fake.commands.values() if c.name == "classement")
    del fake.commands[lost.id]
    synced = fake.sync_count
    res = await fake.raw_command(u.alice, "jeux", "ludime poser", {"mot": "CHAT"}, mangle=without_partie)
    assert res.ephemeral and res.content == STALE_FR, res
    await fake.wait_synced(synced, timeout=10)
    assert any(c.name == "classement" for c in fake.commands.values())
    await fake.wait_until(lambda: "re-synced" in bot.log, timeout=20)
    # a second stale command at once: answered the same, no second check nor sync (Discord's limits)
    res = await fake.raw_command(u.dave, "jeux", "ludime poser", {"mot": "CHAT"}, mangle=without_partie)
    assert res.ephemeral and res.content == i18n.t("payload.error.stale_command", "en"), res
    await asyncio.sleep(1)
    assert fake.sync_count == synced + 1
    assert world.bot.tracebacks() == []
