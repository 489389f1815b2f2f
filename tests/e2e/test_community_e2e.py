"""Playing over days, end to end: the real bot's scheduler in real time (tiny delays), reminders in the
channel and by DM, timeouts and a forfeit, then /classement, /profil, /parties, /historique, and the
/ludibot config refusals."""

from __future__ import annotations

import asyncio
import io
import json
import time

import pytest
import pytest_asyncio
from PIL import Image

from tests.e2e.harness import LONG_DRAWING, assert_card, mentioned, read_game_row, usual_world, wait_control

pytestmark = pytest.mark.e2e

REMINDER_H, TIMEOUT_H = 0.0006, 0.0012  # 2.2 s and 4.3 s


@pytest_asyncio.fixture
async def world(tmp_path, bot_db):
    """The usual world, with the scheduler polling every 0.2 s instead of 30 s."""
    async with usual_world(tmp_path, bot_db, env={"LUDIBOT_SCHEDULER_POLL": "0.2"}) as w:
        yield w


def png(att) -> Image.Image:
    assert att.bytes[:4] == b"\x89PNG"
    return Image.open(io.BytesIO(att.bytes))


def public(msg) -> bool:
    return msg.visible_to is None and bool(msg.content)


def is_reminder(msg) -> bool:
    return public(msg) and msg.content.startswith("⏰ Rappel")


def game_id_of(msg) -> int:
    return int(msg.buttons[0]["custom_id"].split(":")[1])


async def test_reminders_timeouts_forfeit_then_boards_and_history(world):
    fake, u = world.fake, world.u
    res = await fake.run_command(u.modo, "jeux", "ludibot config", jeu="ludix", rappel=REMINDER_H, delai=TIMEOUT_H,
                                 forfait=2)
    assert res.ephemeral and "enregistrés" in res.content and "Ludix" in res.content
    res = await fake.run_command(u.alice, "jeux", "ludibot preferences", rappels_mp=True)
    assert res.ephemeral and "message privé" in res.content
    lobby = (await fake.run_command(u.alice, "jeux", "ludix start", objectif=300)).message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    started = time.monotonic()
    first = await wait_control(fake)
    gid = game_id_of(first)
    assert mentioned(first) == [u.alice.id]

    # /parties: whose turn, since when, with a link to the game's message (once the bot has recorded which
    # message it posted: before that, the link is to the channel)
    await fake.wait_until(lambda: read_game_row(world.bot.db, gid).control_message_id == first.id, timeout=10)
    res = await fake.run_command(u.chloe, "jeux", "parties")
    assert res.ephemeral and f"n°{gid}" in res.content and "au tour d'Alice" in res.content
    assert f"/{first.id}" in res.content and "<t:" in res.content

    # the reminder: one channel message mentioning Alice only, and a DM because she opted in
    reminder = await fake.wait_for_message(lambda m: is_reminder(m), timeout=15)
    assert time.monotonic() - started >= REMINDER_H * 3600 - 0.5
    assert reminder.visible_to is None and mentioned(reminder) == [u.alice.id]
    await fake.wait_until(lambda: fake.dms(u.alice), timeout=20)
    (dm,) = fake.dms(u.alice)
    assert f"n°{gid}" in dm.content and "Ludothèque" in dm.content and f"/{first.id}" in dm.content
    assert fake.dms(u.bruno) == []

    # the timeout: Alice's turn is played for her (Ludix: pass), Bruno is told it is his turn
    played = await fake.wait_for_message(lambda m: public(m) and "pas joué à temps" in m.content, timeout=15)
    assert time.monotonic() - started >= TIMEOUT_H * 3600 - 0.5
    assert "Alice" in played.content and mentioned(played) == [u.bruno.id] and played.buttons
    await fake.wait_until(lambda: first.buttons == [], timeout=20)  # the old controls were taken away

    # Bruno times out too, then Alice's second timeout in a row forfeits the game
    end = await fake.wait_for_message(lambda m: public(m) and "forfait" in m.content, timeout=30)
    assert "Fin de la partie" in end.content and end.button_labels == ["Revanche"]
    assert sum(is_reminder(m) for m in fake.messages("jeux")) == 3  # Alice, Bruno, Alice: once each
    assert len(fake.dms(u.alice)) == 2

    # the bot rated the game: Bruno first, Alice (forfeit) second
    res = await fake.run_command(u.chloe, "jeux", "classement", jeu="ludix")
    assert not res.ephemeral and "Classement" in res.content
    img = png(res.attachments[0])
    assert img.width >= 640 and img.height > 200
    res = await fake.run_command(u.alice, "jeux", "profil")
    assert "Profil d'Alice" in res.content and "Ludix" in res.content and "place 2/2" in res.content
    assert not res.ephemeral and assert_card(res.message)  # a card (issue 36)
    res = await fake.run_command(u.chloe, "jeux", "profil", membre=u.bruno)
    assert "Profil de Bruno" in res.content and "1 victoire ·" in res.content
    res = await fake.run_command(u.chloe, "jeux", "classement", jeu="ludix", periode="semaine")
    assert res.attachments

    # /historique: the log move by move, the final picture; and the JSON export
    res = await fake.run_command(u.chloe, "jeux", "historique", partie=gid)
    # (the journal follows the viewer once its animation is drawn, in the bot's low-priority worker)
    await fake.wait_until(lambda: len([m for m in res.messages if m.ephemeral]) >= 2, timeout=LONG_DRAWING)
    viewer, journal = [m for m in res.messages if m.ephemeral][:2]
    assert any(a.filename.endswith(".png") for a in viewer.attachments)
    assert "Coup par coup" not in viewer.content and "coup par coup" in journal.content
    assert "délai dépassé" in journal.content and "forfait" in journal.content and "Classement final" in journal.content
    # a forfeit has no scores: who forfeited, not « — - » nor « — 0 »
    assert "2. Alice — forfait" in journal.content and "1. Bruno\n" in journal.content and " — -" not in journal.content
    res = await fake.run_command(u.chloe, "jeux", "historique", partie=gid, format="json")
    (att,) = res.attachments
    doc = json.loads(att.bytes)
    assert doc["game"]["id"] == gid and [s["name"] for s in doc["seats"]] == ["Alice", "Bruno"]
    assert [r["action"].get("_by") for r in doc["log"]] == ["timeout"] * 3
    assert [(r["seat"], r["rank"]) for r in doc["results"]] == [(1, 1), (0, 2)]
    choices = await fake.autocomplete(u.chloe, "jeux", "historique", {"partie": ""}, focused="partie")
    assert [c["value"] for c in choices][:1] == [gid]

    # refusals: a game that has not started, a game that does not exist
    lobby2 = (await fake.run_command(u.bruno, "jeux", "ludix start")).message
    gid2 = game_id_of(lobby2)
    res = await fake.run_command(u.chloe, "jeux", "historique", partie=gid2)
    assert res.ephemeral and "pas encore commencé" in res.content
    res = await fake.run_command(u.chloe, "jeux", "historique", partie=99999)
    assert res.ephemeral and "n'existe pas" in res.content
    assert fake.errors == []
    assert world.bot.tracebacks() == []


async def test_config_refusals_preferences_and_boards_refusals(world):
    fake, u = world.fake, world.u
    # only Manage Server, whatever the client shows
    res = await fake.run_command(u.alice, "jeux", "ludibot config", rappel=1)
    assert res.ephemeral and "Gérer le serveur" in res.content
    res = await fake.run_command(u.dave, "jeux", "ludibot config")
    assert res.ephemeral and "Manage Server" in res.content
    # precise refusals for a moderator
    for options, needle in (({"rappel": -1}, "ne peut pas être négatif"),
                            ({"delai": -3}, "délai ne peut pas être négatif"),
                            ({"forfait": -1}, "forfait ne peut pas être négatif"),
                            ({"jeu": "monopoly", "rappel": 1}, "Jeu inconnu\u00a0: « monopoly »"),
                            ({"jeu": "ludix", "rappel": 10, "delai": 5}, "doit être plus long que le rappel"),
                            ({"delai": 5000}, "ne peut pas dépasser")):
        res = await fake.run_command(u.modo, "jeux", "ludibot config", validate=False, **options)
        assert res.ephemeral and needle in res.content, (options, res.content)
    res = await fake.run_command(u.modo, "jeux", "ludibot config")
    assert res.ephemeral and "rappel après 12 h, délai après 48 h, forfait jamais" in res.content
    # the default once; a game says only what differs from it (issue 36)
    assert "• L'Invincible Armada\u00a0: forfait dès 3 délais dépassés d'affilée\n" in res.content
    assert res.content.count("rappel après 12 h") == 1 and res.message.is_v2
    choices = await fake.autocomplete(u.modo, "jeux", "ludibot config", {"jeu": "lu"}, focused="jeu")
    assert "ludix" in [c["value"] for c in choices] and len(choices) <= 25
    # preferences
    res = await fake.run_command(u.bruno, "jeux", "ludibot preferences")
    assert res.ephemeral and "désactivés" in res.content
    res = await fake.run_command(u.dave, "jeux", "ludibot preferences", rappels_mp=True)
    assert res.ephemeral and "direct message" in res.content
    # boards: unknown game, no solo mode, empty board
    res = await fake.run_command(u.chloe, "jeux", "classement", jeu="monopoly")
    assert res.ephemeral and "Jeu inconnu" in res.content
    res = await fake.run_command(u.chloe, "jeux", "records", jeu="ludix")
    assert res.ephemeral and "ne se joue pas en solo" in res.content
    res = await fake.run_command(u.chloe, "jeux", "records", jeu="ranta")
    assert not res.ephemeral and res.attachments
    res = await fake.run_command(u.chloe, "jeux", "classement", jeu="ludix", periode="mois")
    assert not res.ephemeral and res.attachments
    res = await fake.run_command(u.chloe, "jeux", "profil")
    assert "n'a encore terminé aucune partie" in res.content
    res = await fake.run_command(u.chloe, "jeux", "parties")
    assert res.ephemeral and "Aucune partie en cours" in res.content
    assert fake.errors == []
    assert world.bot.tracebacks() == []


async def test_the_bot_clock_moved_by_the_test_plays_days_in_seconds_and_survives_a_restart(world):
    """bot.clock: the default timers (a reminder after 12 h, the turn played after 48 h) fire when the
    test moves the bot's clock, not before; the moved clock holds across a restart."""
    fake, u = world.fake, world.u
    lobby = (await fake.run_command(u.alice, "jeux", "ludix start", objectif=300)).message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    await wait_control(fake)
    await asyncio.sleep(1.0)  # several polls: nothing is due at the real time
    assert not [m for m in fake.messages("jeux") if is_reminder(m)]
    world.bot.advance(12 * 3600 + 5)
    reminder = await fake.wait_for_message(is_reminder, timeout=15)
    assert mentioned(reminder) == [u.alice.id]
    world.bot.kill()
    await fake.wait_disconnected(timeout=10)
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    world.bot.advance(36 * 3600)
    played = await fake.wait_for_message(lambda m: public(m) and "pas joué à temps" in m.content, timeout=20)
    assert "Alice" in played.content
