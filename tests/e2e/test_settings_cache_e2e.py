"""The server settings are cached (issue 16: no settings read per move) and ``/ludibot config``
invalidates them: a turn that starts after the change gets the new delays at once."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
import pytest_asyncio

from fakediscord import FakeDiscord
from tests.e2e.harness import followed, mentioned, start_bot, strict, wait_control

pytestmark = pytest.mark.e2e

REMINDER_H = 0.0006  # 2.2 s


@pytest_asyncio.fixture
async def world(tmp_path, bot_db):
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux"], settle=0.12, timeout=20)
    users = SimpleNamespace(alice=fake.add_user("Alice", locale="fr"), bruno=fake.add_user("Bruno", locale="fr"),
                            modo=fake.add_user("Modo", locale="fr", manage_guild=True))
    await fake.start()
    bot = await start_bot(fake, tmp_path, extra_env={"LUDIBOT_SCHEDULER_POLL": "0.2"}, db=bot_db)
    async with strict(SimpleNamespace(fake=fake, bot=bot, u=users, tmp=tmp_path)) as w:
        yield w


def is_reminder(msg) -> bool:
    return msg.visible_to is None and bool(msg.content) and msg.content.startswith("⏰ Rappel")


async def test_a_config_change_applies_to_the_next_turn_despite_the_cache(world):
    fake, u = world.fake, world.u
    lobby = (await fake.run_command(u.alice, "jeux", "ludix start", objectif=300)).message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    first = await wait_control(fake)
    assert mentioned(first) == [u.alice.id]  # Alice's turn, scheduled with the defaults (12 h): settings cached
    res = await fake.run_command(u.modo, "jeux", "ludibot config", jeu="ludix", rappel=REMINDER_H)
    assert res.ephemeral and "enregistrés" in res.content
    res = await fake.click(u.alice, first, label="Lancer les dés")
    started = time.monotonic()  # (the move is committed before the click is answered)
    # each click takes its card's buttons off first; the next card follows, under load after the settle time
    msg = await followed(fake, res, first)
    if "Stop (marquer)" in msg.button_labels and mentioned(msg) == [u.alice.id]:
        res = await fake.click(u.alice, msg, label="Stop (marquer)")
        started = time.monotonic()
        msg = await followed(fake, res, msg)
    assert mentioned(msg) == [u.bruno.id]
    # Bruno's turn started after the change: his reminder comes in seconds, not in 12 hours
    reminder = await fake.wait_for_message(is_reminder, timeout=20)
    assert mentioned(reminder) == [u.bruno.id]
    assert time.monotonic() - started >= REMINDER_H * 3600 - 0.6
    assert world.bot.tracebacks() == []
