"""End-to-end fixtures: a fake Discord on 127.0.0.1 and the real bot process."""

from __future__ import annotations

from types import SimpleNamespace

import pytest_asyncio

from fakediscord import FakeDiscord
from tests.e2e.harness import start_bot


@pytest_asyncio.fixture
async def world(tmp_path):
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux", "autre"], settle=0.12, timeout=20)
    users = SimpleNamespace(
        alice=fake.add_user("Alice", locale="fr"),
        bruno=fake.add_user("Bruno", locale="fr"),
        chloe=fake.add_user("Chloé", locale="fr"),
        dave=fake.add_user("Dave", locale="en-US"),
        modo=fake.add_user("Modo", locale="fr", manage_guild=True),
    )
    await fake.start()
    bot = await start_bot(fake, tmp_path)
    try:
        yield SimpleNamespace(fake=fake, bot=bot, u=users, tmp=tmp_path)
        # strict by default: the bot sent nothing that Discord would refuse for its content
        assert fake.validation_errors == [], f"Discord would refuse: {fake.validation_errors}"
    except BaseException:
        print(bot.log[-5000:])
        raise
    finally:
        bot.kill()
        await fake.stop()
        print(bot.log[-3000:])
