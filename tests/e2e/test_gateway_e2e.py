"""The real bot process and the gateway: the intents it asks, and a fatal close explained (issue 17 part 4)."""

from __future__ import annotations

import asyncio
import time

import pytest

from fakediscord import FakeDiscord
from tests.e2e.harness import start_bot

pytestmark = pytest.mark.e2e


async def _close_until_exit(fake: FakeDiscord, bot, code: int, timeout: float = 30.0) -> int:
    """Close the bot's gateway connection with ``code``, again on each reconnection, as Discord does
    (the close frame can race the TCP close, which the client then sees as 1006 and resumes)."""
    deadline = time.monotonic() + timeout
    while bot.proc.poll() is None and time.monotonic() < deadline:
        if fake._active is not None and fake._active.connected:
            await fake.gateway_drop(code)
        await asyncio.sleep(0.1)
    assert bot.proc.poll() is not None, "the bot kept running after a fatal close:\n" + bot.log[-4000:]
    return bot.proc.returncode


@pytest.mark.parametrize("lang,needle", [
    ("en", "Discord closed the connection (code 4011): the bot is in too many servers for one shard."),
    ("fr", "Discord a fermé la connexion (code 4011) : le bot est sur trop de serveurs pour un seul shard."),
])
async def test_close_4011_ends_the_process_with_the_explained_message(tmp_path, lang, needle):
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux"], settle=0.1, timeout=20)
    await fake.start()
    bot = await start_bot(fake, tmp_path, extra_env={"LUDIBOT_LANG": lang})
    try:
        assert fake._active.intents == 1  # GUILDS only: no messages, typing, reactions, voice, members
        status = await _close_until_exit(fake, bot, 4011)
        assert status == 2, bot.log[-3000:]
        log = bot.log
        assert needle in log
        assert "Traceback" not in log
    finally:
        bot.kill()
        await fake.stop()
