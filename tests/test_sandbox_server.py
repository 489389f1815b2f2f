"""The sandbox's HTTP API without a bot: attachment addresses, paging, localized commands, 4xx on bad input."""

from __future__ import annotations

import aiohttp
import pytest
import pytest_asyncio

from sandbox.server import Sandbox, command_catalog

pytestmark = pytest.mark.asyncio
PNG_A = b"\x89PNG\r\n\x1a\n" + bytes(8) + b"IHDR" + (1).to_bytes(4, "big") + (1).to_bytes(4, "big") + b"A" * 8
PNG_B = PNG_A[:-1] + b"B"


@pytest_asyncio.fixture
async def box(tmp_path):
    sb = Sandbox(tmp_path / "sb", port=0, start_bot=False)
    url = await sb.start()
    async with aiohttp.ClientSession() as http:
        yield sb, url.rstrip("/"), http
    await sb.stop()


def post(sb: Sandbox, content: str, files: dict | None = None, channel: str = "jeux"):
    ch = sb.fake.channel(channel)
    fields = sb.fake._build_fields({"content": content}, files or {}, existing=None, channel_id=ch.id)
    return sb.fake._new_message(ch, fields)


async def test_favicon_and_malformed_requests_are_4xx(box):
    sb, url, http = box
    async with http.get(url + "/favicon.ico") as r:
        assert r.status == 200 and r.content_type.startswith("image/")
    for path in ("/attachment/x/0", "/attachment/x/0/0", "/attachment/1/0", "/attachment/12/zz/1"):
        async with http.get(url + path) as r:
            assert 400 <= r.status < 500, path
            assert "Traceback" not in await r.text()
    alice = str(sb.users["Alice"].id)
    for body in ({"user": alice, "channel": "abc", "path": "x", "focused": "y"}, {"user": alice, "options": []},
                 {"user": "nobody"}, [1, 2], {"user": alice, "channel": "1", "options": {}, "focused": "o"}):
        async with http.post(url + "/api/autocomplete", json=body) as r:
            assert 400 <= r.status < 500, body
            assert "Traceback" not in await r.text()
    async with http.post(url + "/api/autocomplete", data=b"{not json", headers={"Content-Type": "application/json"}) as r:
        assert r.status == 400
    async with http.get(url + f"/api/messages?user={alice}&channel=x") as r:
        assert r.status == 400
    for route, body in (("/api/command", {"user": alice, "options": [1]}), ("/api/command", {"user": alice, "channel": "x"}),
                        ("/api/select", {"user": alice, "message": "1", "custom_id": "x", "values": "abc"}),
                        ("/api/click", {"user": alice, "message": "nope", "custom_id": "x"}), ("/api/click", "text")):
        async with http.post(url + route, json=body) as r:
            assert r.status < 500 and "Traceback" not in await r.text(), (route, body)


async def test_each_revision_of_a_picture_has_its_own_address(box):
    sb, url, http = box
    msg = post(sb, "image", {0: ("board.png", PNG_A, "image/png")})
    alice = sb.users["Alice"]
    async with http.get(url + f"/api/messages?user={alice.id}&channel={msg.channel_id}") as r:
        first = (await r.json())["messages"][-1]["attachments"][0]
    fields = sb.fake._build_fields({"attachments": []}, {0: ("board.png", PNG_B, "image/png")}, existing=msg,
                                   channel_id=msg.channel_id)
    sb.fake._edit_message(msg, fields)
    async with http.get(url + f"/api/messages?user={alice.id}&channel={msg.channel_id}") as r:
        second = (await r.json())["messages"][-1]["attachments"][0]
    assert first != second
    async with http.get(url + first) as r:
        assert await r.read() == PNG_A and "immutable" in r.headers["Cache-Control"]
    async with http.get(url + second) as r:
        assert await r.read() == PNG_B


async def test_history_pages_back_past_the_newest_150(box):
    sb, url, http = box
    msgs = [post(sb, f"m{i}") for i in range(320)]
    alice = sb.users["Alice"]
    base = url + f"/api/messages?user={alice.id}&channel={msgs[0].channel_id}"
    async with http.get(base) as r:
        page = await r.json()
    assert [m["content"] for m in page["messages"]] == [f"m{i}" for i in range(170, 320)] and page["has_more"]
    async with http.get(base + f"&before={page['messages'][0]['id']}") as r:
        page2 = await r.json()
    assert [m["content"] for m in page2["messages"]] == [f"m{i}" for i in range(20, 170)] and page2["has_more"]
    async with http.get(base + f"&before={page2['messages'][0]['id']}") as r:
        page3 = await r.json()
    assert [m["content"] for m in page3["messages"]] == [f"m{i}" for i in range(20)] and not page3["has_more"]


async def test_command_descriptions_in_the_users_language(box):
    sb, url, http = box
    sb.fake._upsert_command({"name": "ludix", "description": "Jeu de dés", "type": 1,
                             "description_localizations": {"en-US": "Dice game"},
                             "options": [{"type": 1, "name": "start", "description": "Lancer une partie",
                                          "description_localizations": {"en-GB": "Start a game"},
                                          "options": [{"type": 3, "name": "mode", "description": "Le mode",
                                                       "description_localizations": {"en-US": "The mode"},
                                                       "choices": [{"name": "rapide", "value": "fast",
                                                                    "name_localizations": {"en-US": "quick"}}]}]}]},
                            None)
    fr = command_catalog(sb.fake, "fr")[0]
    en = command_catalog(sb.fake, "en-GB")[0]
    assert fr["description"] == "Lancer une partie" and fr["options"][0]["description"] == "Le mode"
    assert en["description"] == "Start a game" and en["options"][0]["description"] == "The mode"  # en-GB → en-US
    assert en["options"][0]["choices"][0]["name"] == "quick"
    dave = sb.fake.add_user("Dave", locale="en-US")
    sb.users["Dave"] = dave
    async with http.get(url + f"/api/init?user={dave.id}") as r:
        data = await r.json()
    assert data["commands"][0]["options"][0]["description"] == "The mode"
    assert data["names"]["users"][str(dave.id)] == "Dave"
