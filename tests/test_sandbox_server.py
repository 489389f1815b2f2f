"""The sandbox's HTTP API without a bot: attachment addresses, paging, localized commands, 4xx on bad input."""

from __future__ import annotations

import aiohttp
import pytest_asyncio

from bot import i18n
from sandbox.server import Sandbox, command_catalog

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
    # a command mention (</ludix start:id>) is written as the reader's client names the command
    assert fr["path"] == en["path"] == fr["shown"] == en["shown"] == "ludix start"
    sb.fake._upsert_command({"name": "tectonic", "description": "Tectonic", "type": 1,
                             "options": [{"type": 1, "name": "jouer", "description": "Jouer",
                                          "name_localizations": {"en-US": "play", "en-GB": "play"}}]}, None)
    (play,) = [c for c in command_catalog(sb.fake, "en-GB") if c["path"] == "tectonic jouer"]
    assert play["shown"] == "tectonic play"
    (jouer,) = [c for c in command_catalog(sb.fake, "fr") if c["path"] == "tectonic jouer"]
    assert jouer["shown"] == "tectonic jouer"
    dave = sb.fake.add_user("Dave", locale="en-US")
    sb.users["Dave"] = dave
    async with http.get(url + f"/api/init?user={dave.id}") as r:
        data = await r.json()
    assert data["commands"][0]["options"][0]["description"] == "The mode"
    assert data["names"]["users"][str(dave.id)] == "Dave"


async def test_a_v2_card_shows_only_what_its_components_show(box):
    from fakediscord import models as m

    sb, url, http = box
    ch = sb.fake.channel("jeux")
    card = {"flags": m.F_IS_COMPONENTS_V2, "components": [{"type": 17, "components": [
        {"type": 10, "content": "Tour 1"}, {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]}]}]}
    fields = sb.fake._build_fields(card, {0: ("board.png", PNG_A, "image/png"), 1: ("hidden.png", PNG_B, "image/png")},
                                   existing=None, channel_id=ch.id)
    msg = sb.fake._new_message(ch, fields)
    alice = sb.users["Alice"]
    async with http.get(url + f"/api/messages?user={alice.id}&channel={ch.id}") as r:
        got = (await r.json())["messages"][-1]
    assert got["v2"] and got["content"] == "" and got["attachments"] == [] and got["files"] == []
    board = msg.attachments[0]
    media = got["components"][0]["components"][1]["items"][0]["media"]
    assert got["media"][media["attachment_id"]] == f"/attachment/{msg.id}/0/0" and media["attachment_id"] == str(board.id)
    async with http.get(url + got["media"][media["attachment_id"]]) as r:
        assert await r.read() == PNG_A


async def test_threads_and_emojis_reach_the_page(box):
    from fakediscord import models as m

    sb, url, http = box
    alice = sb.users["Alice"]
    parent = sb.fake.channel("jeux")
    thread = sb.fake.create_thread(parent, "Ludix n°1 — Alice", by=alice)
    async with http.get(url + f"/api/messages?user={alice.id}&channel={parent.id}") as r:
        data = await r.json()
    assert data["threads"] == [{"id": str(thread.id), "name": "Ludix n°1 — Alice", "parent": str(parent.id),
                                "archived": False}]
    assert data["channel_names"][str(thread.id)] == "Ludix n°1 — Alice"  # a <#thread> mention has its name
    assert str(thread.id) not in {c["id"] for c in data["channels"]}
    sb.fake.app_emojis[77] = m.FakeEmoji(id=77, name="de_1", data=PNG_A, content_type="image/png", user={})
    async with http.get(url + "/emoji/77") as r:
        assert r.status == 200 and await r.read() == PNG_A
    for bad, status in (("/emoji/78", 404), ("/emoji/x", 400)):
        async with http.get(url + bad) as r:
            assert r.status == status, bad


async def test_a_modal_is_submitted_by_the_user_it_was_opened_for(box, monkeypatch):
    from fakediscord.api import InteractionResult
    from tests.test_fakediscord_strict import interaction

    sb, url, http = box
    alice, bruno = sb.users["Alice"], sb.users["Bruno"]
    rec = interaction(sb.fake, alice, "jeux")
    rec.modal = {"custom_id": "m", "title": "Mot", "components": [
        {"type": 18, "id": 1, "label": "Mot", "component": {"type": 4, "id": 2, "custom_id": "word", "style": 1,
                                                            "max_length": 8}}]}
    answer = sb._answer(InteractionResult(sb.fake, rec, "component"), alice)
    import json

    opened = json.loads(answer.body)
    assert opened["modal"]["id"] == str(rec.id) and opened["modal"]["title"] == "Mot"
    sent = []

    async def fire(rec2, kind, *a):
        sent.append(rec2)
        return InteractionResult(sb.fake, rec2, kind)

    monkeypatch.setattr(sb.fake, "_fire", fire)
    body = {"user": str(bruno.id), "modal": str(rec.id), "values": {"word": "BATEAU"}}
    async with http.post(url + "/api/modal", json=body) as r:
        got = await r.json()
    assert not got["ok"] and "plus ouvert" in got["error"] and sent == []  # not Bruno's modal
    async with http.post(url + "/api/modal", json=dict(body, user=str(alice.id), values={"word": "TROPLONGMOT"})) as r:
        got = await r.json()
    assert not got["ok"] and "0..8" in got["error"] and sent == []  # the form refuses it, as a client would
    async with http.post(url + "/api/modal", json=dict(body, user=str(alice.id))) as r:
        assert (await r.json())["ok"]
    assert sent[0].payload["data"]["components"][0]["component"]["value"] == "BATEAU"
    async with http.post(url + "/api/modal", json=dict(body, user=str(alice.id))) as r:
        assert not (await r.json())["ok"]  # submitted once: gone
    async with http.post(url + "/api/modal", json={"user": str(alice.id), "modal": "1", "values": []}) as r:
        assert r.status == 400


async def test_the_command_box_names_every_command_as_each_client_does(box):
    """The language test of the sandbox's command names: the real command tree, as the bot registers it,
    named in the page as a French and an English Discord client name it (the commands catalog), every
    path and option; each name leads to one command only."""
    from tests.test_i18n import _command_payloads

    sb, url, http = box
    for payload in await _command_payloads():
        sb.fake._upsert_command(payload, sb.fake.guild_id)

    def client_name(kind: str, name: str, lang: str) -> str:
        key = f"commands.{kind}.{name}"
        return i18n.t(key, lang) if i18n.has(key, lang) else name

    catalogs = {lang: command_catalog(sb.fake, locale) for lang, locale in (("fr", "fr"), ("en", "en-US"))}
    assert catalogs["fr"] and [c["path"] for c in catalogs["fr"]] == [c["path"] for c in catalogs["en"]]
    for lang, catalog in catalogs.items():
        for cmd in catalog:
            assert cmd["shown"] == " ".join(client_name("command", part, lang) for part in cmd["path"].split()), cmd
            for option in cmd["options"]:
                assert option["shown"] == client_name("option", option["name"], lang), (cmd["path"], option)
        shown = [c["shown"] for c in catalog]
        assert len(shown) == len(set(shown)), lang  # the box finds one command for each name it accepts
    fr = {c["path"]: c for c in catalogs["fr"]}
    en = {c["path"]: c for c in catalogs["en"]}
    # the names the rules and the bot write: « /ludix lancer », « /tectonic undo », « /history »
    assert fr["ludix start"]["shown"] == "ludix lancer" and en["ludix start"]["shown"] == "ludix start"
    assert en["tectonic annuler-coup"]["shown"] == "tectonic undo" and en["historique"]["shown"] == "history"
    assert fr["historique"]["shown"] == "historique"
    target = {o["name"]: o for o in en["ludix start"]["options"]}["objectif"]
    assert target["shown"] == "target" and (target["min"], target["max"]) == (50, 1000)


async def test_each_player_has_a_client_language(box):
    """The page's switch sets one player's client language: the locale of that player's interactions, the
    page's words and the command names while playing as them; the others keep theirs."""
    sb, url, http = box
    alice, bruno = sb.users["Alice"], sb.users["Bruno"]
    assert alice.locale == bruno.locale == "fr"
    sb.fake._upsert_command({"name": "ludix", "description": "Ludix", "type": 1, "options": [
        {"type": 1, "name": "start", "description": "Lancer", "name_localizations": {"fr": "lancer"}}]}, None)
    async with http.post(url + "/api/locale", json={"user": str(bruno.id), "lang": "en"}) as r:
        assert (await r.json()) == {"ok": True, "locale": "en-US"}
    assert bruno.locale == "en-US" and alice.locale == "fr"
    async with http.get(url + f"/api/init?user={bruno.id}") as r:
        data = await r.json()
    assert data["labels"]["dismiss"] == "Dismiss message" and data["user"] == str(bruno.id)
    assert [c["shown"] for c in data["commands"]] == ["ludix start"]
    assert {u["name"]: u["lang"] for u in data["users"]} == {"Alice": "fr", "Bruno": "en", "Chloé": "fr"}
    async with http.get(url + f"/api/init?user={alice.id}") as r:
        data = await r.json()
    assert data["labels"]["dismiss"] == "Ignorer ce message" and [c["shown"] for c in data["commands"]] == ["ludix lancer"]
    # the locale a player's interaction carries
    rec = sb.fake._new_interaction(2, bruno, sb.fake.channel("jeux"), {"name": "ludix"})
    assert rec.payload["locale"] == "en-US"
    for body in ({"user": str(bruno.id), "lang": "de"}, {"user": "nobody", "lang": "en"}, {"user": str(bruno.id)}):
        async with http.post(url + "/api/locale", json=body) as r:
            assert r.status == 400, body
    assert bruno.locale == "en-US"


async def test_a_sandbox_in_english_makes_an_english_server(tmp_path):
    """The server is made in the console's language: its channels' names, and its public language (as its
    admin's `/ludibot config langue:en` would), written before the bot's first start and never again."""
    from bot.language import language_of
    from bot.storage import open_store

    sb = Sandbox(tmp_path / "sb", port=0, start_bot=False, lang="en")
    names = {c.name for c in sb.fake.channels.values() if not c.is_dm}
    assert {"games", "tournament"} <= names and not {"jeux", "tournoi"} & names
    assert {u.locale for u in sb.users.values()} == {"en-US"}

    async def server_language(set_to: str | None = None) -> str:
        store = open_store(str(sb.data_dir / "sandbox.db"))
        await store.open()
        try:
            if set_to is not None:
                await store.set_guild_settings(sb.fake.guild_id, {"language": set_to})
            return language_of(await store.guild_settings(sb.fake.guild_id))
        finally:
            await store.close()

    sb.data_dir.mkdir(parents=True)
    await sb._seed_server_language()
    assert await server_language() == "en"
    assert await server_language(set_to="fr") == "fr"  # the admin's /ludibot config langue:fr
    await sb._seed_server_language()  # the next start, in English again: the admin's choice stays
    assert await server_language() == "fr"
    french = Sandbox(tmp_path / "fr", port=0, start_bot=False, lang="fr")
    french.data_dir.mkdir(parents=True)
    await french._seed_server_language()
    assert not (french.data_dir / "sandbox.db").exists()  # French is what a server that never chose speaks


def _walk_ids(value, where: str = "", in_components: bool = False):
    """Every (path, key, value) of `value` whose key names an id, and every integer past 2^53."""
    if isinstance(value, dict):
        component = in_components and isinstance(value.get("type"), int)
        for key, sub in value.items():
            here = f"{where}.{key}"
            if (key == "id" or key.endswith("_id")) and not (component and key == "id"):
                yield here, sub
            yield from _walk_ids(sub, here, in_components or key in ("components", "accessory", "component"))
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from _walk_ids(sub, f"{where}[{i}]", in_components)
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53 - 1:
        yield where, value


async def test_every_id_reaches_the_page_as_a_string(box):
    """Discord sends every snowflake as a string; an emoji id above 2^53 sent as a JSON number is
    rounded by the browser (a broken picture). The bot sends a custom emoji's id as a number (discord.py's
    PartialEmoji): the fake stores and returns it as a string, as Discord does, and every id in what the
    page receives is a string (a component's own `id`, an int32, excepted)."""
    from fakediscord import models as m

    sb, url, http = box
    big = 1234567890123456789  # past 2^53: a double rounds it to ...800
    sb.fake.app_emojis[big] = m.FakeEmoji(id=big, name="lut_up", data=PNG_A, content_type="image/png", user={})
    ch = sb.fake.channel("jeux")
    legacy = {"content": "x", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Lancer", "custom_id": "roll", "emoji": {"id": big, "name": "lut_up"}}]}, {
        "type": 1, "components": [{"type": 3, "custom_id": "pick", "options": [
            {"label": "Dé", "value": "1", "emoji": {"id": big, "name": "lut_up"}}]}]}]}
    card = {"flags": m.F_IS_COMPONENTS_V2, "components": [{"type": 17, "components": [
        {"type": 10, "content": f"<:lut_up:{big}>"},
        {"type": 9, "components": [{"type": 10, "content": "Alice"}], "accessory": {
            "type": 2, "style": 2, "label": "Profil", "custom_id": "p", "emoji": {"id": big, "name": "lut_up"}}},
        {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]}]}]}
    for payload, files in ((legacy, {}), (card, {0: ("board.png", PNG_A, "image/png")})):
        msg = sb.fake._new_message(ch, sb.fake._build_fields(payload, files, existing=None, channel_id=ch.id))
        emojis = [c["emoji"] for c in m.walk_components(msg.payload()["components"]) if "emoji" in c]
        emojis += [o["emoji"] for c in m.walk_components(msg.payload()["components"]) for o in c.get("options", [])]
        assert emojis and all(e["id"] == str(big) for e in emojis), emojis  # what the bot reads back, too
    assert sb.fake.validation_errors == []
    alice = sb.users["Alice"]
    sb.fake.create_thread(ch, "Ludix n°1", by=alice)
    frames = []
    for path in (f"/api/init?user={alice.id}", f"/api/messages?user={alice.id}&channel={ch.id}"):
        async with http.get(url + path) as r:
            frames.append((path, await r.json()))
    found = [(path, where, value) for path, frame in frames for where, value in _walk_ids(frame)]
    assert sum(where.endswith("emoji.id") for _, where, _ in found) >= 3, found
    wrong = [(path, where, value) for path, where, value in found
             if not (isinstance(value, str) or (isinstance(value, list) and all(isinstance(x, str) for x in value))
                     or value is None)]
    assert wrong == [], wrong
    assert frames[1][1]["messages"][0]["components"][0]["components"][0]["emoji"]["id"] == str(big)


async def test_animated_pictures_show_in_place(box):
    """A legacy message's WebP or GIF (the animated summary of /historique, a share) is drawn in the
    message, as Discord does; a text file stays a download."""
    sb, url, http = box
    msg = post(sb, "summary", {0: ("ludibot-ludix-1.txt", b"log", "text/plain"),
                               1: ("ludibot-ludix-1.webp", b"RIFF\x00\x00\x00\x00WEBPVP8X", None),
                               2: ("ludibot-ludix-2.gif", b"GIF89a", None)})
    alice = sb.users["Alice"]
    async with http.get(url + f"/api/messages?user={alice.id}&channel={msg.channel_id}") as r:
        got = (await r.json())["messages"][-1]
    assert got["attachments"] == [f"/attachment/{msg.id}/0/1", f"/attachment/{msg.id}/0/2"]
    assert got["files"] == [{"name": "ludibot-ludix-1.txt", "url": f"/attachment/{msg.id}/0/0"}]
    async with http.get(url + got["attachments"][0]) as r:
        assert r.content_type == "image/webp"


def test_a_saved_sandbox_of_an_older_fake_reads_its_emoji_ids_as_strings():
    """sandbox-data/ saved before the fake turned emoji ids into strings: read back as strings."""
    from fakediscord import models as m

    big = 1234567890123456789
    saved = {"id": 5, "channel_id": 6, "guild_id": 8, "author": {"id": "7", "username": "Ludibot"}, "content": "x", "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "a", "emoji": {"id": big, "name": "de"}},
                                   {"type": 2, "style": 2, "custom_id": "b", "emoji": {"name": "🎲"}}]},
        {"type": 1, "components": [{"type": 3, "custom_id": "c", "options": [
            {"label": "A", "value": "a", "emoji": {"id": big, "name": "de"}}]}]}]}
    msg = m.FakeMessage.from_json(saved)
    emojis = [c["emoji"] for c in m.walk_components(msg.components) if "emoji" in c]
    emojis += [o["emoji"] for c in m.walk_components(msg.components) for o in c.get("options", [])]
    assert emojis == [{"id": str(big), "name": "de"}, {"name": "🎲"}, {"id": str(big), "name": "de"}]
