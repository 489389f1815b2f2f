"""End-to-end fixtures: a fake Discord on 127.0.0.1 and the real bot process."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest
import pytest_asyncio

from fakediscord import FakeDiscord
from tests.e2e.harness import start_bot, strict


@pytest.fixture
def bot_db(request, tmp_path) -> str:
    """The bot's LUDIBOT_DB: a SQLite file, or a fresh database on the throwaway PostgreSQL when
    ``LUDIBOT_TEST_BACKEND=postgresql`` (or when the test module says ``BACKEND = "postgresql"``)."""
    backend = getattr(request.module, "BACKEND", None) or os.environ.get("LUDIBOT_TEST_BACKEND", "sqlite")
    if backend == "postgresql":
        return request.getfixturevalue("pg_server").new_database_sync("e2e")
    return str(tmp_path / "ludibot.db")


@pytest_asyncio.fixture
async def world(tmp_path, bot_db):
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux", "autre"], settle=0.12, timeout=20)
    users = SimpleNamespace(
        alice=fake.add_user("Alice", locale="fr"),
        bruno=fake.add_user("Bruno", locale="fr"),
        chloe=fake.add_user("Chloé", locale="fr"),
        dave=fake.add_user("Dave", locale="en-US"),
        modo=fake.add_user("Modo", locale="fr", manage_guild=True),
    )
    await fake.start()
    bot = await start_bot(fake, tmp_path, db=bot_db)
    # strict by default: the bot may send nothing that Discord would refuse for its content
    async with strict(SimpleNamespace(fake=fake, bot=bot, u=users, tmp=tmp_path)) as w:
        yield w
