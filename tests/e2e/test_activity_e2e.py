"""The board (an Activity) end to end: the real bot process serves its API once the host configured a
client secret and a port; a move made on the board is committed through the session service and
reaches the channel's card; a move made in the chat is what the board shows next."""

from __future__ import annotations

import aiohttp
import pytest
import pytest_asyncio

from tests.e2e.harness import mentioned, usual_world, wait_control

pytestmark = pytest.mark.e2e


@pytest_asyncio.fixture
async def world(tmp_path, bot_db):
    async with usual_world(tmp_path, bot_db, activities=True) as w:
        yield w


async def call(http, w, method, path, token=None, body=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with http.request(method, w.activity_base + path, headers=headers, json=body) as r:
        return r.status, await r.json(content_type=None)


async def test_a_move_on_the_board_reaches_the_chat_and_back(world):
    fake, u = world.fake, world.u
    lobby = (await fake.run_command(u.alice, "jeux", "ludix start", objectif=50)).message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    card = await wait_control(fake)
    assert mentioned(card) == [u.alice.id]
    # the turn card offers the board (the host turned Activities on); a spectator may open it too
    assert card.button_labels == ["Lancer les dés", "Jouer sur le plateau"]
    res = await fake.click(u.alice, card, label="Jouer sur le plateau")
    assert res.response_type == 12 and res.activity_instance_id
    iid = res.activity_instance_id
    async with aiohttp.ClientSession() as http:
        status, body = await call(http, world, "POST", "/api/token", body={"code": fake.authorize_activity(u.alice)})
        assert status == 200, body
        alice = body["access_token"]
        status, body = await call(http, world, "GET", f"/api/games?instance_id={iid}", alice)
        assert status == 200, body
        (game,) = body["games"]
        assert game["kind"] == "ludix" and game["my_turn"] is True
        assert body["focus"] == game["id"]  # the page opens on the game whose card was clicked
        # the table, drawn by the game's own renderer: the picture the card shows
        async with http.get(f"{world.activity_base}/api/games/{game['id']}/picture?instance_id={iid}&which=board",
                            headers={"Authorization": f"Bearer {alice}"}) as r:
            assert r.status == 200 and r.content_type == "image/png"
            assert await r.read() == card.attachments[0].bytes
        # the board's move: committed, and the channel's card follows without any interaction
        status, body = await call(http, world, "POST", f"/api/games/{game['id']}/move", alice,
                                  {"instance_id": iid, "version": game["version"], "action": {"type": "roll"}})
        assert status == 200, body
        after = await wait_control(fake, newer_than=card, timeout=8)  # woken at once (the poll is 10 s): 8 s leaves room for a loaded machine
        assert "Alice" in after.content and after.content != card.content
        # the same version again (a second tap, or a page behind): refused, nothing changes
        status, again = await call(http, world, "POST", f"/api/games/{game['id']}/move", alice,
                                   {"instance_id": iid, "version": game["version"], "action": {"type": "roll"}})
        assert status == 409 and again["error"] == "activity.error.stale"
        # a move made in the chat is what the board shows next
        status, before = await call(http, world, "GET", f"/api/games/{game['id']}?instance_id={iid}", alice)
        expected = mentioned(after)
        player = {u.alice.id: u.alice, u.bruno.id: u.bruno}[expected[0]]
        label = "Stop (marquer)" if "Stop (marquer)" in after.button_labels else "Lancer les dés"
        await fake.click(player, after, label=label)
        status, now = await call(http, world, "GET", f"/api/games/{game['id']}?instance_id={iid}", alice)
        assert status == 200 and now["version"] == before["version"] + 1 and now["view"] != before["view"]
