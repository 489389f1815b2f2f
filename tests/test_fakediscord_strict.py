"""The fake Discord refuses what the real one refuses: rate limits, permissions, threads, DMs,
token expiry and the validation of what a bot sends. Plain HTTP against the fake (no bot process)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from fakediscord import FakeDiscord
from fakediscord import models as m

pytestmark = pytest.mark.asyncio


class Client:
    """A minimal bot-side HTTP client (what discord.py sends, without its rate-limit handling)."""

    def __init__(self, fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
        self.fake = fake
        self.http = http

    async def req(self, method: str, path: str, body: Any = None, *, auth: bool = True,
                  form: aiohttp.FormData | None = None) -> tuple[int, Any, Any]:
        headers = {"Authorization": f"Bot {self.fake.token}"} if auth else {}
        kw: dict[str, Any] = {"data": form} if form is not None else ({} if body is None else {"json": body})
        async with self.http.request(method, self.fake.api_base + path, headers=headers, **kw) as r:
            text = await r.text()
            return r.status, (json.loads(text) if text else None), r.headers

    async def post(self, channel_id: int, content: str = "hi", **extra: Any) -> tuple[int, Any, Any]:
        return await self.req("POST", f"/channels/{channel_id}/messages", {"content": content, **extra})


@pytest_asyncio.fixture
async def env():
    fake = FakeDiscord(guild_name="Strict", channels=["jeux", "autre"])
    alice = fake.add_user("Alice")
    await fake.start()
    async with aiohttp.ClientSession() as http:
        yield fake, Client(fake, http), alice
    await fake.stop()


def interaction(fake: FakeDiscord, user, channel, *, itype: int = m.IT_APPLICATION_COMMAND):
    """Register an interaction as if it had been sent to the bot (for callback / webhook tests)."""
    import time

    rec = fake._new_interaction(itype, user, fake.channel(channel), {"id": "1", "name": "x", "type": 1})
    rec.command_name = "x"
    fake.interactions[rec.id] = rec
    fake._by_token[rec.token] = rec
    rec.sent_wall = time.monotonic()
    rec.sent_at = time.perf_counter()
    rec.sent_clock = fake.clock.now()
    return rec


async def test_channel_post_bucket_headers_and_429(env):
    fake, c, _ = env
    fake.clock.speed = 20  # 5 s windows last 0.25 s of real time
    ch = fake.channel("jeux").id
    remaining = []
    for _ in range(5):
        status, body, headers = await c.post(ch)
        assert status == 200, body
        remaining.append(int(headers["X-RateLimit-Remaining"]))
        assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Bucket"]
        assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 5 / 20
        assert float(headers["X-RateLimit-Reset"]) > 1e9
    assert remaining == [4, 3, 2, 1, 0]
    status, body, headers = await c.post(ch)
    assert status == 429 and body["global"] is False and 0 < body["retry_after"] <= 0.25
    assert body["message"] == "You are being rate limited."
    assert headers["X-RateLimit-Scope"] == "user" and headers["Via"] and "Retry-After" in headers
    assert fake.rate_limited[-1]["bucket"] == f"post:{ch}" and fake.invalid_requests[429] == 1
    assert fake.errors == []  # 429s are counted apart
    # another channel has its own bucket
    assert (await c.post(fake.channel("autre").id))[0] == 200
    await asyncio.sleep(body["retry_after"] + 0.02)
    assert (await c.post(ch))[0] == 200


async def test_malformed_ids_are_404_not_500(env):
    fake, c, _ = env
    for method, path in (("POST", "/channels/abc/messages"), ("PATCH", "/channels/abc/messages/1"),
                         ("GET", "/channels/1/messages/x"), ("GET", "/guilds/x")):
        status, body, _ = await c.req(method, path, {"content": "x"} if method != "GET" else None)
        assert status == 404 and body["code"] in (10003, 10008, 10004), (path, body)


async def test_channel_made_harder_and_global_limit(env):
    fake, c, _ = env
    fake.rate_limit_channel("autre", limit=1, per=60)
    ch = fake.channel("autre").id
    assert (await c.post(ch))[0] == 200
    status, body, headers = await c.post(ch)
    assert status == 429 and headers["X-RateLimit-Limit"] == "1" and body["retry_after"] > 50
    fake.rate_limit.global_limit = 3
    fake.clock.advance(2)  # a fresh global window
    statuses = [(await c.req("GET", "/users/@me"))[0] for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    status, body, headers = await c.req("GET", "/users/@me")
    assert status == 429 and body["global"] is True
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"


async def test_interaction_endpoints_escape_the_channel_and_global_limits(env):
    fake, c, alice = env
    fake.rate_limit_channel("jeux", limit=1, per=60)
    fake.rate_limit.global_limit = 1
    ch = fake.channel("jeux").id
    assert (await c.post(ch))[0] == 200
    assert (await c.post(ch))[0] == 429
    rec = interaction(fake, alice, "jeux")
    status, _, _ = await c.req("POST", f"/interactions/{rec.id}/{rec.token}/callback",
                               {"type": 4, "data": {"content": "réponse"}}, auth=False)
    assert status == 204
    for i in range(3):
        status, body, _ = await c.req("POST", f"/webhooks/{fake.app_id}/{rec.token}?wait=true",
                                      {"content": f"suite {i}"}, auth=False)
        assert status == 200, body
    assert [x.content for x in fake.messages("jeux")][-4:] == ["réponse", "suite 0", "suite 1", "suite 2"]


async def test_edits_of_messages_older_than_an_hour_are_limited(env):
    fake, c, _ = env
    ch = fake.channel("jeux").id
    ids = [(await c.post(ch, f"m{i}"))[1]["id"] for i in range(4)]
    fake.clock.advance(3601)
    fresh = (await c.post(ch, "fresh"))[1]["id"]
    for mid in ids[:3]:
        assert (await c.req("PATCH", f"/channels/{ch}/messages/{mid}", {"components": []}))[0] == 200
    status, body, headers = await c.req("PATCH", f"/channels/{ch}/messages/{ids[3]}", {"components": []})
    assert status == 429 and body["code"] == 30046 and "older than 1 hour" in body["message"]
    assert (await c.req("PATCH", f"/channels/{ch}/messages/{fresh}", {"content": "ok"}))[0] == 200


async def test_interaction_token_expires_after_15_minutes_of_the_clock(env):
    fake, c, alice = env
    rec = interaction(fake, alice, "jeux")
    assert (await c.req("POST", f"/interactions/{rec.id}/{rec.token}/callback",
                        {"type": 5}, auth=False))[0] == 204
    fake.clock.advance(14 * 60)
    status, _, _ = await c.req("PATCH", f"/webhooks/{fake.app_id}/{rec.token}/messages/@original",
                               {"content": "encore là"}, auth=False)
    assert status == 200
    fake.clock.advance(61)
    status, body, _ = await c.req("POST", f"/webhooks/{fake.app_id}/{rec.token}", {"content": "trop tard"},
                                  auth=False)
    assert status == 404 and body["code"] == 10015
    # the initial response keeps Discord's 3 seconds, in real time
    late = interaction(fake, alice, "jeux")
    late.sent_at -= 3.5
    status, body, _ = await c.req("POST", f"/interactions/{late.id}/{late.token}/callback", {"type": 5},
                                  auth=False)
    assert status == 404 and body["code"] == 10062


async def test_bot_channel_permissions_answer_50001_and_50013(env):
    fake, c, alice = env
    ch = fake.channel("jeux")
    full = fake.bot_permissions(ch)
    assert full & m.P_SEND_MESSAGES and full & m.P_ATTACH_FILES
    fake.deny_bot(ch, "attach_files")
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "image", "attachments": [{"id": 0}]}))
    form.add_field("files[0]", b"\x89PNG\r\n\x1a\n" + bytes(20), filename="a.png")
    status, body, _ = await c.req("POST", f"/channels/{ch.id}/messages", form=form)
    assert status == 403 and body["code"] == 50013
    assert (await c.post(ch.id, "texte seul"))[0] == 200
    fake.deny_bot(ch, "embed_links")
    status, body, _ = await c.post(ch.id, "x", embeds=[{"title": "t"}])
    assert status == 403 and body["code"] == 50013
    fake.deny_bot(ch, "send_messages")
    status, body, _ = await c.post(ch.id)
    assert status == 403 and body["code"] == 50013 and body["message"] == "Missing Permissions"
    # an interaction still arrives there, and says what the bot may do
    rec = interaction(fake, alice, ch)
    perms = int(rec.payload["app_permissions"])
    assert perms & m.P_VIEW_CHANNEL and not perms & m.P_SEND_MESSAGES and not perms & m.P_ATTACH_FILES
    assert (await c.req("POST", f"/interactions/{rec.id}/{rec.token}/callback",
                        {"type": 4, "data": {"content": "réponse quand même"}}, auth=False))[0] == 204
    fake.deny_bot(ch, "view_channel")
    status, body, _ = await c.post(ch.id)
    assert status == 403 and body["code"] == 50001 and body["message"] == "Missing Access"
    assert (await c.req("GET", f"/channels/{ch.id}"))[1]["code"] == 50001
    assert int(interaction(fake, alice, ch).payload["app_permissions"]) == 0
    assert fake.invalid_requests[403] == 5
    fake.allow_bot(ch)  # everything back
    assert fake.bot_permissions(ch) == full
    fake.clock.advance(5)  # refusals count toward the channel's 5 posts per 5 s too
    assert (await c.post(ch.id, "de retour"))[0] == 200


async def test_threads_archive_lock_and_private(env):
    fake, c, alice = env
    jeux = fake.channel("jeux")
    status, t, _ = await c.req("POST", f"/channels/{jeux.id}/threads", {"name": "partie 1", "type": 11})
    assert status == 201 and t["type"] == 11 and t["parent_id"] == str(jeux.id)
    assert t["thread_metadata"]["archived"] is False
    thread = fake.channel(int(t["id"]))
    assert (await c.post(thread.id, "dans le fil"))[0] == 200
    fake.archive_thread(thread)
    assert (await c.post(thread.id, "réveil"))[0] == 200  # posting unarchives, as Discord does
    assert not thread.archived
    fake.archive_thread(thread)
    rec = interaction(fake, alice, thread)  # an interaction's answer unarchives it too
    assert (await c.req("POST", f"/interactions/{rec.id}/{rec.token}/callback",
                        {"type": 4, "data": {"content": "coup"}}, auth=False))[0] == 204
    assert not thread.archived
    fake.archive_thread(thread)
    mid = fake.messages(thread)[-1].id
    status, body, _ = await c.req("PATCH", f"/channels/{thread.id}/messages/{mid}", {"content": "x"})
    assert status == 400 and body["code"] == 50083
    fake.lock_thread(thread)
    status, body, _ = await c.post(thread.id, "verrouillé")
    assert status == 403 and body["code"] == 160005 and thread.archived
    assert int(interaction(fake, alice, thread).payload["app_permissions"]) & m.P_VIEW_CHANNEL
    # without Send Messages in Threads
    fake.lock_thread(thread, False)
    fake.deny_bot(jeux, "send_messages_in_threads")
    status, body, _ = await c.post(thread.id)
    assert status == 403 and body["code"] == 50013
    assert (await c.post(jeux.id, "le salon, lui, marche"))[0] == 200
    fake.allow_bot(jeux)
    # a thread from a message has the message's id; a private thread the bot is not in is invisible
    msg_id = (await c.post(jeux.id, "départ"))[1]["id"]
    status, t2, _ = await c.req("POST", f"/channels/{jeux.id}/messages/{msg_id}/threads", {"name": "suite"})
    assert status == 201 and t2["id"] == msg_id and t2["type"] == 11
    private = fake.create_thread(jeux, "secret", private=True, by=alice)
    assert private.type == m.CH_PRIVATE_THREAD
    status, body, _ = await c.post(private.id)
    assert status == 403 and body["code"] == 50001
    fake.add_thread_member(private, fake.bot_user)
    assert (await c.post(private.id, "invité"))[0] == 200
    status, body, _ = await c.req("POST", f"/channels/{jeux.id}/threads", {"name": "", "type": 11})
    assert status == 400 and body["code"] == 50035


async def test_thread_archiving_follows_discord_rules(env):
    fake, c, alice = env
    jeux = fake.channel("jeux")
    msg_id = (await c.post(jeux.id, "salon d'attente"))[1]["id"]
    status, body, _ = await c.req("POST", f"/channels/{jeux.id}/messages/{msg_id}/threads",
                                  {"name": "partie", "auto_archive_duration": 90})
    assert status == 400 and body["code"] == 50035  # 60, 1440, 4320 or 10080 only
    status, t, _ = await c.req("POST", f"/channels/{jeux.id}/messages/{msg_id}/threads",
                               {"name": "partie", "auto_archive_duration": 10080})
    assert status == 201
    status, body, _ = await c.req("POST", f"/channels/{jeux.id}/messages/{msg_id}/threads", {"name": "encore"})
    assert status == 400 and body["code"] == 160004  # one thread per message
    mine = fake.channel(int(t["id"]))
    # the bot archives a thread it created; another's needs Manage Threads
    assert (await c.req("PATCH", f"/channels/{mine.id}", {"archived": True}))[0] == 200 and mine.archived
    # an archived thread refuses changes unless they unarchive it
    status, body, _ = await c.req("PATCH", f"/channels/{mine.id}", {"name": "renommé"})
    assert status == 400 and body["code"] == 50083 and mine.name == "partie"
    assert (await c.req("PATCH", f"/channels/{mine.id}", {"archived": False}))[0] == 200 and not mine.archived
    theirs = fake.create_thread(jeux, "à Alice", by=alice)
    status, body, _ = await c.req("PATCH", f"/channels/{theirs.id}", {"archived": True})
    assert status == 403 and body["code"] == 50013 and not theirs.archived

async def test_dm_channels_and_closed_dms(env):
    fake, c, alice = env
    bob = fake.add_user("Bob", dms_open=False)
    status, dm, _ = await c.req("POST", "/users/@me/channels", {"recipient_id": str(alice.id)})
    assert status == 200 and dm["type"] == 1 and dm["recipients"][0]["id"] == str(alice.id)
    assert (await c.post(int(dm["id"]), "bonjour Alice"))[0] == 200
    assert fake.dms(alice)[-1].content == "bonjour Alice" and fake.dms(alice)[-1].visible_to == alice.id
    status, dm2, _ = await c.req("POST", "/users/@me/channels", {"recipient_id": str(bob.id)})
    assert status == 200  # opening works; sending is refused
    status, body, _ = await c.post(int(dm2["id"]), "bonjour Bob")
    assert status == 403 and body["code"] == 50007


def _codes(tree: dict, path: str) -> list[str]:
    node = tree
    for part in path.split("."):
        node = node[part]
    return [e["code"] for e in node["_errors"]]


async def test_messages_and_components_are_validated_like_discord(env):
    fake, c, _ = env
    fake.rate_limit.channel_post_limit = 1000  # many posts below: keep the channel bucket out of the way
    ch = fake.channel("jeux").id
    cases = [
        ({"content": "x" * 2001}, "content", "BASE_TYPE_MAX_LENGTH"),
        ({"content": "ok", "embeds": [{"title": "t"}] * 11}, "embeds", "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"title": "t" * 257}]}, "embeds.0.title", "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"description": "d" * 4096}, {"description": "d" * 2000}]}, "embeds",
         "MESSAGE_EMBEDS_TOO_LARGE"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, "embeds.0.fields.0.value",
         "BASE_TYPE_BAD_LENGTH"),
        ({"content": "x", "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "b", "custom_id": f"b{i}"} for i in range(6)]}]},
         "components.0.components", "BASE_TYPE_BAD_LENGTH"),
        ({"content": "x", "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "b", "custom_id": "b"}]}] * 6}, "components", "BASE_TYPE_MAX_LENGTH"),
        ({"content": "x", "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "a", "custom_id": "same"}]},
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "b", "custom_id": "same"}]}]},
         "components.1.components.0.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED"),
        ({"content": "x", "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "L" * 81, "custom_id": "a"}]}]},
         "components.0.components.0.label", "BASE_TYPE_MAX_LENGTH"),
        ({"content": "x", "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "a", "custom_id": "c" * 101}]}]},
         "components.0.components.0.custom_id", "BASE_TYPE_BAD_LENGTH"),
        ({"content": "x", "components": [{"type": 1, "components": [
            {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]},
            {"type": 2, "style": 1, "label": "a", "custom_id": "b"}]}]},
         "components.0.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
        ({"content": "x", "components": [{"type": 1, "components": [
            {"type": 3, "custom_id": "s", "options": [{"label": str(i), "value": str(i)} for i in range(26)]}]}]},
         "components.0.components.0.options", "BASE_TYPE_BAD_LENGTH"),
        ({"content": "x", "components": [{"type": 1, "components": [
            {"type": 3, "custom_id": "s", "placeholder": "p" * 151, "options": [{"label": "a", "value": "a"}]}]}]},
         "components.0.components.0.placeholder", "BASE_TYPE_MAX_LENGTH"),
        ({"content": "x", "components": [{"type": 1, "components": [
            {"type": 3, "custom_id": "s", "max_values": 3, "options": [{"label": "a", "value": "a"}]}]}]},
         "components.0.components.0.max_values", "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE"),
        ({"content": "x", "components": [{"type": 1, "components": [
            {"type": 3, "custom_id": "s", "options": [{"label": "a" * 101, "value": "a"}]}]}]},
         "components.0.components.0.options.0.label", "BASE_TYPE_BAD_LENGTH"),
        ({"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}, "allowed_mentions",
         "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"),
        ({"content": "x", "allowed_mentions": {"parse": ["members"]}}, "allowed_mentions.parse",
         "BASE_TYPE_CHOICES"),
    ]
    for payload, path, code in cases:
        status, body, _ = await c.req("POST", f"/channels/{ch}/messages", payload)
        assert status == 400 and body["code"] == 50035, (payload, body)
        assert code in _codes(body["errors"], path), (path, body)
    assert len(fake.validation_errors) == len(cases)
    status, body, _ = await c.req("POST", f"/channels/{ch}/messages", {"content": ""})
    assert status == 400 and body["code"] == 50006
    # the largest valid message passes
    ok = {"content": "x" * 2000, "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "L" * 80, "custom_id": f"{r}-{i}" + "c" * 90} for i in range(5)]}
        for r in range(5)], "allowed_mentions": {"parse": [], "users": ["1"], "replied_user": False}}
    assert (await c.req("POST", f"/channels/{ch}/messages", ok))[0] == 200
    # 10 attachments at most; each file at most 10 MiB
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "files"}))
    for i in range(11):
        form.add_field(f"files[{i}]", b"x", filename=f"f{i}.txt")
    status, body, _ = await c.req("POST", f"/channels/{ch}/messages", form=form)
    assert status == 400 and _codes(body["errors"], "attachments") == ["BASE_TYPE_MAX_LENGTH"]
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "big"}))
    form.add_field("files[0]", b"x" * (10 * 1024 * 1024 + 1), filename="big.bin")
    status, body, _ = await c.req("POST", f"/channels/{ch}/messages", form=form)
    assert status == 413 and body["code"] == 40005


async def test_commands_are_validated_like_discord(env):
    fake, c, _ = env
    base = f"/applications/{fake.app_id}/commands"

    def cmd(**kw):
        return {"name": "jeu", "description": "Un jeu", "type": 1, **kw}

    cases = [
        (cmd(name="Jeu"), "0.name", "APPLICATION_COMMAND_INVALID_NAME"),
        (cmd(name="a b"), "0.name", "APPLICATION_COMMAND_INVALID_NAME"),
        (cmd(name="x" * 33), "0.name", "APPLICATION_COMMAND_INVALID_NAME"),
        (cmd(description=""), "0.description", "BASE_TYPE_BAD_LENGTH"),
        (cmd(description="d" * 101), "0.description", "BASE_TYPE_BAD_LENGTH"),
        (cmd(name_localizations={"fr-FR": "jeu"}), "0.name_localizations.fr-FR", "INVALID_LOCALE"),
        (cmd(name_localizations={"en-US": "Game"}), "0.name_localizations.en-US", "APPLICATION_COMMAND_INVALID_NAME"),
        (cmd(description_localizations={"en-US": "d" * 101}), "0.description_localizations.en-US",
         "BASE_TYPE_BAD_LENGTH"),
        (cmd(options=[{"type": 3, "name": f"o{i}", "description": "o"} for i in range(26)]), "0.options",
         "BASE_TYPE_MAX_LENGTH"),
        (cmd(options=[{"type": 3, "name": "a", "description": "o"},
                      {"type": 3, "name": "b", "description": "o", "required": True}]), "0.options.1.required",
         "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"),
        (cmd(options=[{"type": 3, "name": "a", "description": "o",
                       "choices": [{"name": str(i), "value": str(i)} for i in range(26)]}]), "0.options.0.choices",
         "BASE_TYPE_MAX_LENGTH"),
        (cmd(options=[{"type": 3, "name": "a", "description": "o", "choices": [{"name": "c", "value": "v" * 101}]}]),
         "0.options.0.choices.0.value", "BASE_TYPE_MAX_LENGTH"),
    ]
    for payload, path, code in cases:
        status, body, _ = await c.req("PUT", base, [payload])
        assert status == 400 and body["code"] == 50035, (payload, body)
        assert code in _codes(body["errors"], path), (path, body)
    status, body, _ = await c.req("PUT", base, [cmd(), cmd()])
    assert status == 400 and "APPLICATION_COMMANDS_DUPLICATE_NAME" in _codes(body["errors"], "1.name")
    status, body, _ = await c.req("PUT", base, [cmd(name=f"c{i}") for i in range(101)])
    assert status == 400 and body["errors"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    # what the docs allow passes: letters of any script, digits, - _ ', Devanagari, Thai, all locales
    good = [cmd(name="élève-2_l'été", name_localizations={"hi": "खेल", "th": "เกม", "ja": "ゲーム", "es-419": "juego"},
                description_localizations={"en-US": "A game", "zh-TW": "遊戲"},
                options=[{"type": 4, "name": "nombre", "description": "n", "required": True},
                         {"type": 3, "name": "mode", "description": "m", "choices": [{"name": "a", "value": "a"}]}])]
    status, body, _ = await c.req("PUT", base, good)
    assert status == 200, body
    assert len(fake.validation_errors) == len(cases) + 2


async def test_a_body_with_a_lone_surrogate_is_invalid_json(env):
    fake, c, _ = env
    ch = fake.channel("jeux").id
    status, body, _ = await c.post(ch, "A\ud800B")  # aiohttp's json= writes it as the escape \ud800
    assert status == 400 and body["code"] == 50109, body
    status, body, _ = await c.post(ch, "A\U0001F600B")  # a well-formed pair is text
    assert status == 200, body


async def test_raw_frames_reach_the_gateway_as_they_are(env):
    fake, _, alice = env
    received: list[str] = []
    async with aiohttp.ClientSession() as http, http.ws_connect(fake.gateway_url) as ws:
        await ws.receive_json()  # HELLO
        await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "properties": {}}})
        while True:
            frame = await ws.receive_json(timeout=5)
            if frame.get("t") == "GUILD_CREATE":
                break
        await fake.send_raw_frame("pas du JSON")
        await fake.dispatch_raw("INTERACTION_CREATE", '{"id": "1", "n": 184467440737095516160}')
        for _ in range(2):
            received.append((await ws.receive(timeout=5)).data)
    assert received[0] == "pas du JSON"
    seq = json.loads(received[1])["s"]
    assert received[1] == ('{"op": 0, "t": "INTERACTION_CREATE", "s": ' + str(seq)
                           + ', "d": {"id": "1", "n": 184467440737095516160}}')


async def test_command_mentions_name_a_command_of_the_application(env):
    """reference/message-formatting: ``</NAME SUBCOMMAND_GROUP SUBCOMMAND:ID>``. Discord accepts any
    text, but a mention whose id is no command of the application (or whose path is not that
    command's, by default names, down to a subcommand) runs nothing: recorded for tests to fail on."""
    fake, c, _ = env
    jeux = fake.channel("jeux")
    status, cmds, _ = await c.req("PUT", f"/applications/{fake.app_id}/commands", [
        {"name": "tectonic", "description": "Tectonic", "type": 1, "options": [
            {"type": 1, "name": "jouer", "description": "Jouer", "name_localizations": {"en-US": "play"}},
            {"type": 2, "name": "config", "description": "Réglages", "options": [
                {"type": 1, "name": "rythme", "description": "Rythme"}]}]},
        {"name": "profil", "description": "Profil", "type": 1}])
    assert status == 200, cmds
    tectonic, profil = (int(x["id"]) for x in cmds)
    good = f"</tectonic jouer:{tectonic}> </tectonic config rythme:{tectonic}> </profil:{profil}>"
    assert (await c.post(jeux.id, good))[0] == 200
    assert fake.broken_command_mentions == []
    bad = [f"</tectonic play:{tectonic}>",  # a localized name: mentions use the default names
           f"</tectonic:{tectonic}>", f"</tectonic config:{tectonic}>",  # a command with subcommands, a group
           f"</profil:{tectonic}>",  # another command's id
           "</profil:123456789012345678>"]  # no command at all
    status, body, _ = await c.post(jeux.id, " ".join(bad))
    assert status == 200  # Discord takes the text
    assert [b["mention"] for b in fake.broken_command_mentions] == bad
    # an edit is checked too
    path = f"/channels/{jeux.id}/messages/{body['id']}"
    assert (await c.req("PATCH", path, {"content": f"</profil:{profil}>"}))[0] == 200
    assert len(fake.broken_command_mentions) == len(bad)
    assert (await c.req("PATCH", path, {"content": f"</profile:{profil}>"}))[0] == 200
    assert fake.broken_command_mentions[-1]["mention"] == f"</profile:{profil}>"
