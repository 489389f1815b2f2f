"""One unreadable game cannot break the others; admins list and cancel it; /ludibot export
(issue 13, parts 3 and 5): the real bot process, a database corrupted under it, a restart."""

from __future__ import annotations

import json
import sqlite3

import pytest
import pytest_asyncio

from tests.e2e.closed_doors import make_world
from tests.e2e.harness import mentioned, strict, wait_control
from tests.e2e.test_ludix_e2e import play_turn

pytestmark = pytest.mark.e2e


@pytest_asyncio.fixture
async def world(tmp_path):
    async with strict(await make_world(tmp_path, nasty=False, guilds=2)) as w:
        yield w


async def ludix(w, creator, joiner, channel, *, start: bool = True, target: int = 1000):
    fake = w.fake
    lobby = (await fake.run_command(creator, channel, "ludix start", objectif=target)).message
    game_id = int(lobby.buttons[0]["custom_id"].split(":")[1])
    if joiner is not None:
        await fake.click(joiner, lobby, label="Rejoindre")
    if start:
        await fake.click(creator, lobby, label="Lancer")
    return game_id, lobby


async def to_the_end(w, channel, players) -> None:
    msg = await wait_control(w.fake, channel)
    by_id = {p.id: p for p in players}
    for _ in range(300):
        if "Fin de la partie" in (msg.content or ""):
            return
        msg = await play_turn(w.fake, by_id, msg)
    pytest.fail("the game did not end")


async def test_unreadable_games_are_set_aside_listed_and_cancelled_and_the_rest_works(world):
    w, fake, u = world, world.fake, world.u
    club = fake.channel("jeux", guild=w.club)
    done, _ = await ludix(w, u.alice, u.bruno, "autre", target=50)
    await to_the_end(w, "autre", [u.alice, u.bruno])
    bad_json, _ = await ludix(w, u.alice, u.bruno, "jeux")
    bad_schema, _ = await ludix(w, u.chloe, u.dave, "autre")
    good, _ = await ludix(w, u.bruno, u.chloe, "jeux")
    lobby_id, lobby = await ludix(w, u.dave, None, "jeux", start=False)
    zoe_game, _ = await ludix(w, u.zoe, u.yann, club, target=50)
    await to_the_end(w, club, [u.zoe, u.yann])
    # the database changes under the bot: a truncated row, and a state from a future engine
    w.bot.kill()
    await fake.wait_disconnected(timeout=10)
    with sqlite3.connect(w.bot.db) as db:
        db.execute("UPDATE games SET state = '{\"seed\": 1, \"play' WHERE id = ?", (bad_json,))
        state = json.loads(db.execute("SELECT state FROM games WHERE id = ?", (bad_schema,)).fetchone()[0])
        db.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps({**state, "schema": 99}), bad_schema))
        # a deadline lost in a crash: the sweep must add it back for the good game despite the bad ones
        db.execute("DELETE FROM deadlines WHERE game_id = ?", (good,))
    w.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)

    def swept() -> tuple[dict[int, str], int]:
        with sqlite3.connect(w.bot.db) as db:
            marked = dict(db.execute("SELECT id, broken FROM games WHERE broken IS NOT NULL").fetchall())
            pending = db.execute("SELECT COUNT(*) FROM deadlines WHERE game_id = ? AND state = 'pending'",
                                 (good,)).fetchone()[0]
        return marked, pending

    # the start-up sweep runs after the bot is ready, asking nothing of Discord: a quiet fake does not
    # say it is done (a loaded machine outran a 1 s quiet time); polled until it has done its work
    await fake.wait_until(lambda: (lambda m, p: {bad_json, bad_schema} <= set(m) and p >= 1)(*swept()), timeout=20,
                          what="the start-up sweep: the two unreadable games set aside, the good one's deadline back")
    marked, pending = swept()
    assert set(marked) == {bad_json, bad_schema}
    assert "JSON" in marked[bad_json] and "schema 99" in marked[bad_schema]
    assert pending >= 1  # the start-up sweep went past the unreadable games
    # every other game works: /parties, the good game's buttons, the lobby, the finished game's history
    res = await fake.run_command(u.bruno, "jeux", "parties")
    assert res.ephemeral and f"n°{good}" in res.content and "erreur interne" not in res.content
    assert f"n°{bad_json}" not in res.content and f"n°{bad_schema}" not in res.content
    msg = next(m for m in reversed(fake.messages("jeux")) if m.visible_to is None and not m.deleted
               and any(b["custom_id"].startswith(f"ludibot:{good}:roll") for b in m.buttons))
    (uid,) = mentioned(msg)
    res = await fake.click({u.bruno.id: u.bruno, u.chloe.id: u.chloe}[uid], msg, label="Lancer les dés")
    assert not res.ephemeral and res.attachments
    res = await fake.click(u.alice, lobby, label="Rejoindre")
    assert res.response_type == 7
    res = await fake.run_command(u.alice, "autre", "historique", partie=done)
    assert res.ephemeral and "n'existe pas" not in res.content
    # a game whose stored state no longer loads still replays from its seed and its log (issue 27)
    for unreadable in (bad_schema, bad_json):
        res = await fake.run_command(u.dave, "autre", "historique", partie=unreadable)
        assert res.ephemeral and "Starting position" in res.content and res.attachments, res.content
    # the unreadable ones answer precisely, to players and to the channel's commands
    res = await fake.run_command(u.alice, "jeux", "ludix status", partie=bad_json)
    assert res.ephemeral and "illisible" in res.content
    res = await fake.run_command(u.chloe, "autre", "ludix status")
    assert res.ephemeral and "illisible" not in res.content  # the channel's game here: the finished one
    # admins see them (and only their own server's), and cancel them
    res = await fake.run_command(u.alice, "jeux", "ludibot casse")
    assert res.ephemeral and "Gérer le serveur" in res.content
    res = await fake.run_command(u.zoe, club, "ludibot casse")
    assert res.ephemeral and "Aucune partie illisible" in res.content
    res = await fake.run_command(u.modo, "jeux", "ludibot casse")
    assert res.ephemeral and f"n°{bad_json}" in res.content and f"n°{bad_schema}" in res.content
    res = await fake.run_command(u.zoe, club, "ludibot casse", annuler=bad_json)
    assert res.ephemeral and "n'existe pas" in res.content
    res = await fake.run_command(u.modo, "jeux", "ludibot casse", annuler=good)
    assert res.ephemeral and "n'est pas illisible" in res.content
    for gid in (bad_json, bad_schema):
        res = await fake.run_command(u.modo, "jeux", "ludibot casse", annuler=gid)
        assert res.ephemeral and f"La partie n°{gid} est annulée" in res.content
    res = await fake.run_command(u.modo, "jeux", "ludibot casse")
    assert "Aucune partie illisible" in res.content
    # the export: this server's finished games, results and ratings, for its admins only
    res = await fake.run_command(u.alice, "jeux", "ludibot export")
    assert res.ephemeral and not res.attachments
    res = await fake.run_command(u.modo, "jeux", "ludibot export")
    assert res.ephemeral and res.message.visible_to == u.modo.id and len(res.attachments) == 1
    doc = json.loads(res.attachments[0].bytes)
    assert doc["guild_id"] == fake.guild_id and [g["id"] for g in doc["games"]] == [done]
    assert {p["user_id"] for p in doc["games"][0]["players"]} == {u.alice.id, u.bruno.id}
    assert {r["user_id"] for r in doc["ratings"]} == {u.alice.id, u.bruno.id}
    assert zoe_game not in [g["id"] for g in doc["games"]] and "Zoé" not in res.attachments[0].bytes.decode()
    res = await fake.run_command(u.zoe, club, "ludibot export")
    doc = json.loads(res.attachments[0].bytes)
    assert [g["id"] for g in doc["games"]] == [zoe_game] and "Alice" not in res.attachments[0].bytes.decode()
    # logged once each, no traceback; and a second restart is clean
    assert sum("set aside" in line for line in w.bot.log.splitlines()) == 2
    w.bot.kill()
    await fake.wait_disconnected(timeout=10)
    w.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    await fake.wait_idle(quiet=1.0)
    res = await fake.run_command(u.bruno, "jeux", "parties")
    assert res.ephemeral and f"n°{good}" in res.content
    assert sum("set aside" in line for line in w.bot.log.splitlines()) == 2
    assert "Traceback" not in w.bot.log
    assert fake.errors == []
