"""The real bot process and the gateway: the intents it asks, and fatal closes explained (issue 17 part 4)."""

from __future__ import annotations

import asyncio
import time

import pytest

from fakediscord import FakeDiscord
from tests.e2e.harness import BotProcess, start_bot

pytestmark = pytest.mark.e2e

EXPLAINED = {
    "en": "Discord closed the connection (code 4011): the bot is in too many servers for one shard.",
    "fr": "Discord a fermé la connexion (code 4011)\u00a0: le bot est sur trop de serveurs pour un seul shard.",
}


async def exit_status(bot: BotProcess, timeout: float = 60.0) -> int:
    deadline = time.monotonic() + timeout
    while bot.proc.poll() is None and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert bot.proc.poll() is not None, "the bot kept running after a fatal close:\n" + bot.log[-4000:]
    return bot.proc.returncode


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_sharding_required_at_start_ends_the_process_with_the_explained_message(tmp_path, lang):
    # Discord closes every IDENTIFY with fewer shards than it requires with 4011
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux"], settle=0.1, timeout=20, required_shards=2)
    await fake.start()
    bot = BotProcess(fake, tmp_path, extra_env={"LUDIBOT_LANG": lang, "LUDIBOT_SHARD_COUNT": "1"})
    bot.start()
    try:
        assert await exit_status(bot) == 2
        assert EXPLAINED[lang] in bot.log
        assert "Traceback" not in bot.log
        assert bot.log.count("identifying shard 0") == 1  # no retry loop
    finally:
        bot.kill()
        await fake.stop()


async def test_close_4011_while_running_ends_the_process(tmp_path):
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux"], settle=0.1, timeout=20)
    await fake.start()
    bot = await start_bot(fake, tmp_path, extra_env={"LUDIBOT_LANG": "en"})
    try:
        (sess,) = fake.shard_sessions().values()
        assert sess.intents == 1  # GUILDS only: no messages, typing, reactions, voice, members, presences
        # the bot grew past what one shard may hold: Discord closes with 4011, and would close any new
        # IDENTIFY of one shard the same way (so a close frame lost to a TCP reset changes nothing)
        fake.required_shards = 2
        await fake.gateway_close(4011)
        assert await exit_status(bot) == 2
        assert EXPLAINED["en"] in bot.log and "Traceback" not in bot.log
    finally:
        bot.kill()
        await fake.stop()


async def test_a_discord_recommending_two_shards_gets_two(tmp_path):
    """LUDIBOT_SHARD_COUNT unset: Discord's recommendation (GET /gateway/bot) is followed."""
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux"], settle=0.1, timeout=20, required_shards=2,
                       max_concurrency=2)
    await fake.start()
    bot = await start_bot(fake, tmp_path)
    try:
        assert sorted(fake.shard_sessions()) == [0, 1] and fake.shard_count == 2
        assert bot.proc.poll() is None
    finally:
        bot.kill()
        await fake.stop()
