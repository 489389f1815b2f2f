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
