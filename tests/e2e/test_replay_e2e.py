"""Issue 27 end to end: ``/historique`` replays a game move by move (each click edits the private
message in place), after a restart of the bot too, only in its own server; its journal reads like
the game; the animated summary has one frame per position; « Partager » posts it publicly, once per
window; a running game replays up to its current move."""

from __future__ import annotations

import io
import json
import re
import sqlite3

import pytest
from PIL import Image

from tests.e2e.harness import LONG_DRAWING, assert_card, last_control, mentioned, wait_control
from tests.e2e.test_ludix_e2e import open_game

pytestmark = pytest.mark.e2e

POSITION = re.compile(r"Coup (\d+) sur (\d+)")


async def answers(fake, res, count: int = 2) -> list:
    """The private messages answering ``/historique`` (the journal follows the viewer, once the
    animation is drawn)."""
    await fake.wait_until(lambda: len([m for m in res.messages if m.ephemeral]) >= count, timeout=LONG_DRAWING)
    return [m for m in res.messages if m.ephemeral][:count]


def position(msg) -> tuple[int, int] | None:
    m = POSITION.search(msg.content or "")
    return (int(m[1]), int(m[2])) if m else None


async def turns(world, count: int | None = None) -> None:
    """Play Ludix from the newest control message: roll, then stop as soon as possible; until the
    game ends (its « Revanche » button), or ``count`` clicks."""
    fake, u = world.fake, world.u
    by_id = {u.alice.id: u.alice, u.bruno.id: u.bruno}
    for _ in range(count or 300):
        msg = await wait_control(fake)
        if "Revanche" in msg.button_labels:
            return
        (uid,) = mentioned(msg)
        label = "Stop (marquer)" if "Stop (marquer)" in msg.button_labels else \
            next(lb for lb in msg.button_labels if lb in ("Lancer les dés", "Relancer"))
        await fake.click(by_id[uid], msg, label=label)
        await fake.wait_until(lambda m=msg: last_control(fake) is not None and last_control(fake).id > m.id,
                              timeout=20)
    if count is None:
        pytest.fail("the game did not end")


async def finished_ludix(world, target: int = 50) -> int:
    fake, u = world.fake, world.u
    lobby = await open_game(world, u.bruno, target=target)
    await fake.click(u.alice, lobby, label="Lancer")
    await turns(world)
    return int(lobby.revisions[0].buttons[0]["custom_id"].split(":")[1])


async def log_count(fake, user, game_id: int) -> int:
    """The moves in the game's log, as its JSON export (finished games) or its database rows tell."""
    res = await fake.run_command(user, "jeux", "historique", partie=game_id, format="json")
    return len(json.loads(res.attachments[0].bytes)["log"])


def running_count(db: str, game_id: int) -> int:
    with sqlite3.connect(db) as con:
        (n,) = con.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()
    return n


async def test_the_viewer_replays_an_archived_game_after_a_restart_and_shares_it(world):
    fake, u = world.fake, world.u
    gid = await finished_ludix(world, target=200)  # a few rounds
    moves = await log_count(fake, u.chloe, gid)
    res = await fake.run_command(u.chloe, "jeux", "historique", partie=gid)
    viewer, journal = await answers(fake, res)
    # the viewer, a card: the last move (the end of the game), its picture, the four buttons and the
    # rounds' select, each in its own row
    assert viewer.visible_to == u.chloe.id and position(viewer) == (moves, moves), viewer.content
    assert_card(viewer, pictures=1)
    assert "fin de la partie" in viewer.text_displays[0] and viewer.gallery[0].bytes[:4] == b"\x89PNG"
    assert viewer.button_labels == ["Début", "Coup précédent", "Coup suivant", "Dernier coup"]
    assert len(viewer.selects) == 1 and len(viewer.rows) == 2, viewer.text
    last_round = re.search(r"Manche (\d+)", viewer.text)
    assert last_round and viewer.selects[0]["options"][-1]["label"].startswith(f"Manche {last_round[1]} ")
    # the journal: the ranking with scores, the animation (one frame per position) and « Partager »
    assert "Classement final" in journal.content and " points" in journal.content and " — -" not in journal.content
    assert_card(journal, pictures=1)  # the animation in the gallery
    (anim,) = [a for a in journal.gallery if a.filename.endswith((".webp", ".gif"))]
    img = Image.open(io.BytesIO(anim.bytes))
    assert img.n_frames == moves + 1 and len(anim.bytes) <= 8 * 1024 * 1024
    assert journal.button_labels == ["Partager"]

    # ◀ edits the same message in place, one move back; ⏮ goes to the start
    res = await fake.click(u.chloe, viewer, label="Coup précédent")
    assert res.response_type == 7 and res.message.id == viewer.id, res.content
    assert position(fake.message_by_id[viewer.id]) == (moves - 1, moves)
    assert_card(fake.message_by_id[viewer.id], pictures=1)
    res = await fake.click(u.chloe, viewer, label="Début")
    assert res.response_type == 7 and "Position de départ" in fake.message_by_id[viewer.id].content
    assert fake.message_by_id[viewer.id].attachments
    shown = fake.message_by_id[viewer.id]
    assert next(b for b in shown.buttons if b["custom_id"].endswith(":prev")).get("disabled")

    # the bot restarts: the same buttons still work
    world.bot.kill()
    await fake.wait_disconnected(timeout=10)
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    res = await fake.click(u.chloe, viewer, label="Coup suivant")
    assert res.response_type == 7 and position(fake.message_by_id[viewer.id]) == (1, moves), res.content
    option = fake.message_by_id[viewer.id].selects[0]["options"][-1]  # the last round
    assert option["label"].startswith("Manche ")
    res = await fake.select(u.chloe, viewer, [option["value"]])
    assert res.response_type == 7 and position(fake.message_by_id[viewer.id]) == (int(option["value"]), moves)
    res = await fake.click(u.chloe, viewer, label="Début")
    assert "Position de départ" in fake.message_by_id[viewer.id].content

    # forged ids (another server's, a position past the end): refused, nothing changes
    for forged in (f"ludibot-replay:999:{gid}:1:next", f"ludibot-replay:{fake.guild_id}:{gid}:{moves}:next"):
        res = await fake.forge_click(u.chloe, viewer, forged)
        assert res.ephemeral and res.content, res.content
    assert "Position de départ" in fake.message_by_id[viewer.id].content  # unchanged

    # « Partager »: the animation and the result, publicly, in the channel; once per window
    res = await fake.click(u.chloe, journal, label="Partager")
    posted = [m for m in res.messages if m.visible_to is None]
    assert posted and "Chloé partage la partie de Ludix n°" in posted[-1].content
    assert_card(posted[-1], pictures=1)
    assert posted[-1].gallery[0].filename.endswith((".webp", ".gif"))
    assert " points" in posted[-1].content
    res = await fake.click(u.chloe, journal, label="Partager")
    assert res.ephemeral and "déjà partagé" in res.content and "<t:" in res.content
    assert fake.errors == []
    assert world.bot.tracebacks() == []


async def test_a_running_game_replays_up_to_its_current_move_and_a_lobby_is_refused(world):
    fake, u = world.fake, world.u
    lobby = await open_game(world, u.bruno, target=300)
    gid = int(lobby.revisions[0].buttons[0]["custom_id"].split(":")[1])
    res = await fake.run_command(u.chloe, "jeux", "historique", partie=gid)
    assert res.ephemeral and "pas encore commencé" in res.content
    await fake.click(u.alice, lobby, label="Lancer")
    await turns(world, 4)
    moves = running_count(world.bot.db, gid)
    res = await fake.run_command(u.dave, "jeux", "historique", partie=gid)
    viewer, journal = await answers(fake, res)
    assert position(viewer) is None and f"Move {moves} of {moves}" in viewer.content, viewer.content
    assert "in progress" in viewer.content and "end of the game" not in viewer.content
    assert_card(viewer, pictures=1)
    assert_card(journal, pictures=0)
    assert not any(a.filename.endswith((".webp", ".gif")) for a in journal.attachments)
    assert "Share" not in journal.button_labels
    # a move later, the same viewer goes one step further
    await turns(world, 1)
    res = await fake.click(u.dave, viewer, label="Previous move")
    res = await fake.click(u.dave, viewer, label="Last move")
    now = running_count(world.bot.db, gid)
    assert now > moves and f"Move {now} of {now}" in fake.message_by_id[viewer.id].content

    # a log entry the rules no longer accept (a game of an older release): said plainly, the journal stays
    world.bot.kill()
    await fake.wait_disconnected(timeout=10)
    with sqlite3.connect(world.bot.db) as db:
        first = db.execute("SELECT MIN(id) FROM events WHERE game_id = ?", (gid,)).fetchone()[0]
        db.execute("UPDATE events SET action = ? WHERE id = ?", (json.dumps({"type": "lancer"}), first))
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    res = await fake.run_command(u.chloe, "jeux", "historique", partie=gid)
    assert res.ephemeral and "version antérieure des règles" in res.content and "Journal" in res.content
    assert not res.message.buttons and not res.attachments
    assert_card(res.message, pictures=0)
    res = await fake.click(u.dave, viewer, label="Start")  # the old viewer says it too
    assert res.ephemeral and "earlier version of the rules" in res.content
    assert fake.errors == []
    assert world.bot.tracebacks() == []


async def test_the_result_card_gets_the_animation_in_its_gallery(world):
    """The result is published at once; its animated summary is drawn in a worker afterwards and
    added to the card's gallery by an edit that keeps the card's text, pictures and « Revanche »."""
    fake, u = world.fake, world.u
    gid = await finished_ludix(world)
    result = await wait_control(fake)
    assert "Revanche" in result.button_labels and f"{gid}" in result.content
    before, text = [a.filename for a in result.images], result.content

    def animated():
        msg = fake.message_by_id[result.id]
        return [a for a in msg.images if a.filename.endswith((".webp", ".gif"))]

    await fake.wait_until(lambda: animated(), timeout=LONG_DRAWING)  # drawn in a low-priority worker
    msg = fake.message_by_id[result.id]
    (anim,) = animated()
    moves = await log_count(fake, u.chloe, gid)
    img = Image.open(io.BytesIO(anim.bytes))
    assert img.n_frames == moves + 1 and len(anim.bytes) <= 8 * 1024 * 1024
    # the pictures the card had stay shown; its text and its « Revanche » too
    assert [a.filename for a in msg.images][:len(before)] == before and msg.hidden_attachments == []
    assert "Revanche" in msg.button_labels and msg.content == text
    assert fake.errors == [] and fake.validation_errors == []
    assert world.bot.tracebacks() == []


async def test_a_result_card_a_restart_left_without_its_animation_gets_it_from_historique(world):
    """The bot dies between the result and the edit that adds its animation (drawn two seconds
    later): the card stays as published, its « Revanche » working; the first ``/historique`` of
    the game after the restart draws the summary and completes the card; a second one changes
    nothing."""
    fake, u = world.fake, world.u
    gid = await finished_ludix(world)
    world.bot.kill()  # right after the result: before the summary is drawn
    await fake.wait_disconnected(timeout=10)
    result = await wait_control(fake)
    assert "Revanche" in result.button_labels
    assert not [a for a in result.images if a.filename.endswith((".webp", ".gif"))]
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    edits = len(fake.message_by_id[result.id].revisions)

    def animated():
        return [a for a in fake.message_by_id[result.id].images if a.filename.endswith((".webp", ".gif"))]

    await answers(fake, await fake.run_command(u.chloe, "jeux", "historique", partie=gid))
    await fake.wait_until(lambda: animated(), timeout=LONG_DRAWING)  # drawn in a low-priority worker
    msg = fake.message_by_id[result.id]
    assert "Revanche" in msg.button_labels and len(msg.revisions) == edits + 1
    await answers(fake, await fake.run_command(u.dave, "jeux", "historique", partie=gid))
    assert len(fake.message_by_id[result.id].revisions) == edits + 1 and len(animated()) == 1
    assert fake.errors == [] and fake.validation_errors == []
    assert world.bot.tracebacks() == []
