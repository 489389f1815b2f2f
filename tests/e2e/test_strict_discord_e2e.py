"""The real bot against the strict fake Discord: channel permissions and threads.

The fake takes permissions away and archives threads as a server's admins would: the bot refuses to open
a game where it could not show it, naming what is missing, and its next publication unarchives a thread.
"""

from __future__ import annotations

import pytest

from tests.e2e.harness import last_control, mentioned, wait_control

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("permission,name", [("send_messages", "Envoyer des messages"),
                                             ("attach_files", "Joindre des fichiers"),
                                             ("embed_links", "Intégrer des liens")])
async def test_start_is_refused_naming_the_missing_permission(world, permission, name):
    fake, u = world.fake, world.u
    fake.deny_bot("jeux", permission)
    res = await fake.run_command(u.alice, "jeux", "ludix start")
    assert res.ephemeral and name in res.content, res.content
    assert res.public_messages == []
    fake.allow_bot("jeux")
    res = await fake.run_command(u.alice, "jeux", "ludix start")
    assert not res.ephemeral and res.message.buttons
    assert fake.errors == []


async def start_two_player_ludix(fake, u, channel="jeux"):
    res = await fake.run_command(u.alice, channel, "ludix start")
    lobby = res.message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    return await wait_control(fake, channel, newer_than=lobby)


async def test_an_archived_thread_is_unarchived_by_the_next_publication(world):
    fake, u = world.fake, world.u
    thread = fake.create_thread("jeux", "ludix-1", by=u.alice)
    msg = await start_two_player_ludix(fake, u, thread)
    fake.archive_thread(thread)
    player = {u.alice.id: u.alice, u.bruno.id: u.bruno}[mentioned(msg)[0]]
    await fake.click(player, msg, label="Lancer les dés")
    await fake.wait_until(lambda: not thread.archived, timeout=10)
    assert last_control(fake, thread) is not None
    assert fake.errors == []
