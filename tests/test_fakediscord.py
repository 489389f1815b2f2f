"""End-to-end proof that the fake Discord carries a real, unmodified discord.py bot.

One bot subprocess (tests/fakediscord_selftest_bot.py) and one fake are shared by the
tests of this module (module-scoped event loop); tests run in file order and the last
one SIGKILLs and restarts the bot.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import pytest
import pytest_asyncio

from fakediscord import DeadlineMissed, FakeDiscord, NotConnected

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

BOT_SCRIPT = Path(__file__).parent / "fakediscord_selftest_bot.py"


def aiohttp_session() -> aiohttp.ClientSession:
    return aiohttp.ClientSession()


class BotProcess:
    def __init__(self, fake: FakeDiscord, log_path: Path) -> None:
        self.fake = fake
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        env = dict(os.environ)
        env.update(self.fake.bot_env)
        env.setdefault("LOG_LEVEL", "INFO")
        log = open(self.log_path, "a")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen([sys.executable, str(BOT_SCRIPT)], env=env, stdout=log,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        log.close()

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    @property
    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def env(tmp_path_factory):
    fake = FakeDiscord(guild_name="Selftest", channels=["jeux", "autre"], settle=0.15)
    alice = fake.add_user("Alice", locale="fr")
    bob = fake.add_user("Bob", locale="en-US")
    await fake.start()
    chloe = fake.add_user("Chloé", locale="fr", manage_guild=True)  # added after start: GUILD_MEMBER_ADD
    bot = BotProcess(fake, tmp_path_factory.mktemp("bot") / "bot.log")
    bot.start()
    try:
        await fake.wait_ready(timeout=20)
        yield SimpleNamespace(fake=fake, bot=bot, alice=alice, bob=bob, chloe=chloe, jeux=fake.channel("jeux"),
                              state={})
    except BaseException:
        print(bot.log)
        raise
    finally:
        bot.kill()
        await fake.stop()


async def test_connect_and_sync(env):
    fake = env.fake
    assert fake.connected
    assert fake.identify_count == 1
    paths = fake.command_names()
    assert "selftest start" in paths and "selftest word" in paths and "gadmin" in paths
    gadmin = next(c for c in fake.commands.values() if c.name == "gadmin")
    assert gadmin.guild_id == fake.guild_id
    start = next(c for c in fake.commands.values() if c.name == "selftest")
    assert start.guild_id is None
    seen = {(mth, path.split("?")[0]) for mth, path, _ in fake.request_log}
    assert ("GET", "/api/v10/users/@me") in seen
    assert ("GET", "/api/v10/oauth2/applications/@me") in seen
    assert ("PUT", f"/api/v10/applications/{fake.app_id}/commands") in seen
    assert ("PUT", f"/api/v10/applications/{fake.app_id}/guilds/{fake.guild_id}/commands") in seen
    assert fake.unhandled == []


@pytest_asyncio.fixture(loop_scope="module")
async def board(env):
    """A fresh public message with buttons and a select, for a test of its own (no test relies on an
    earlier one's message)."""
    res = await env.fake.run_command(env.alice, "jeux", "selftest start", target=300, label="partie", flag=True,
                                     other=env.bob, mode="Rapide")
    assert res.message.button_labels == ["Ping", "Refresh"]
    return res.message


async def test_command_with_typed_options_posts_public_message_with_components(env):
    fake, alice, bob = env.fake, env.alice, env.bob
    res = await fake.run_command(alice, "jeux", "selftest start", target=300, label="partie", flag=True, other=bob,
                                 mode="Rapide")
    assert res.response_type == 4
    assert not res.ephemeral
    assert res.content == f"start target=300 label=partie flag=True other={bob.id} mode=fast"
    assert res.message.visible_to is None
    assert res.message.button_labels == ["Ping", "Refresh"]
    assert res.message.selects[0]["placeholder"] == "Choisir une direction"
    assert res.latency is not None and 0 < res.latency < 3
    assert res.interaction["data"]["options"][0]["name"] == "start"
    # Discord's client validation is mimicked: unknown option, out-of-range, missing required
    with pytest.raises(TypeError):
        await fake.run_command(alice, "jeux", "selftest start", target=3, label="x", nope=1)
    with pytest.raises(ValueError):
        await fake.run_command(alice, "jeux", "selftest start", target=5000, label="x")
    with pytest.raises(ValueError):
        await fake.run_command(alice, "jeux", "selftest start", target=5)


async def test_click_gives_ephemeral_png_only_to_clicker(env, board):
    fake, alice, bob = env.fake, env.alice, env.bob
    res = await fake.click(bob, board, label="Ping")
    assert res.ephemeral
    assert res.message.visible_to == bob.id
    assert res.content.startswith("pong 300 for Bob pid=")
    [png] = res.attachments
    assert png.filename == "pong.png"
    assert png.bytes[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.image().size == (160, 40)
    assert res.message in fake.visible_to(bob)
    assert res.message not in fake.visible_to(alice)
    assert board in fake.visible_to(alice)
    # the clicked message was sent with the interaction
    assert res.interaction["message"]["id"] == str(board.id)
    assert res.interaction["member"]["user"]["id"] == str(bob.id)
    # an ephemeral message cannot be clicked by someone else
    with pytest.raises(PermissionError):
        await fake.click(alice, res.message, label="Ping")


async def test_select_updates_the_message(env, board):
    fake, alice = env.fake, env.alice
    res = await fake.select(alice, board, ["Est"])  # by label; values work too
    assert res.response_type == 7
    assert res.message is board and res.updated == [board]
    assert board.content == "picked ['E'] by Alice"
    assert board.revisions[-1].content.startswith("start target=300")
    assert board.button_labels == ["Ping", "Refresh"]  # components kept
    with pytest.raises(ValueError):
        await fake.select(alice, board, ["Nord"])


async def test_deferred_update_then_edit_original_edits_the_clicked_message(env, board):
    fake, bob = env.fake, env.bob
    res = await fake.click(bob, board, label="Refresh")
    assert res.response_type == 6
    assert res.message is board and res.created == []
    assert board.content == "refreshed 300 by Bob" and board.visible_to is None


async def test_concurrent_clicks(env, board):
    fake, alice, bob = env.fake, env.alice, env.bob
    ra, rb = await asyncio.gather(fake.click(alice, board, label="Ping"), fake.click(bob, board, label="Ping"))
    assert ra.message.visible_to == alice.id and "for Alice" in ra.message.content
    assert rb.message.visible_to == bob.id and "for Bob" in rb.message.content


async def test_autocomplete(env):
    fake, alice = env.fake, env.alice
    choices = await fake.autocomplete(alice, "jeux", "selftest word", {"mot": "all"}, focused="mot")
    assert choices.names == ["ALLER", "ALLONGER"]
    assert choices.result.latency < 3
    outs = [o for o in fake.all_outputs() if o.kind == "autocomplete"]
    assert outs[-1].audience == alice.id and outs[-1].choices == list(choices)


async def test_deferred_answer_and_followups(env):
    fake, alice, bob = env.fake, env.alice, env.bob
    res = await fake.run_command(alice, "jeux", "selftest word", mot="ALLER", until=lambda r: len(r.messages) == 3)
    assert res.response_type == 5 and not res.still_loading
    first, second, third = res.messages
    assert (first.content, first.visible_to, first.loading) == ("mot=ALLER", alice.id, False)
    assert (second.content, second.visible_to) == ("second (ephemeral)", alice.id)
    assert (third.content, third.visible_to) == ("third (public)", None)
    assert third in fake.visible_to(bob) and first not in fake.visible_to(bob)


async def test_edit_original_and_get_original(env):
    fake, alice = env.fake, env.alice
    res = await fake.run_command(alice, "jeux", "selftest edit")
    original, note = res.messages
    assert original.content == "v2" and original.revisions[0].content == "v1"
    assert [a.filename for a in original.attachments] == ["v2.png"]
    assert note.content == "original is v2" and note.ephemeral


async def test_dm_is_recorded_for_its_recipient(env):
    fake, alice, bob = env.fake, env.alice, env.bob
    res = await fake.run_command(alice, "jeux", "selftest dm")
    assert res.ephemeral and res.message.content == "DM sent"
    [dm] = fake.dms(alice)
    assert dm.content == "secret DM" and dm.is_dm and dm.visible_to == alice.id
    assert dm.attachments[0].image().size == (160, 40)
    assert dm in res.dms
    assert dm not in fake.visible_to(bob)


async def test_channel_post_during_interaction_is_part_of_the_answer(env):
    fake, alice = env.fake, env.alice
    res = await fake.run_command(alice, "jeux", "selftest announce")
    assert {m.content for m in res.messages} == {"done", "announce"}
    assert all(m.visible_to is None for m in res.messages)
    announce = next(m for m in res.messages if m.content == "announce")
    assert announce.interaction_id is None and announce.kind == "channel"
    assert announce.attachments[0].filename == "board.png"


async def test_modal_roundtrip(env):
    fake, alice = env.fake, env.alice
    opened = await fake.run_command(alice, "jeux", "selftest modal")
    assert opened.response_type == 9 and opened.modal["title"] == "Proposer un mot"
    res = await fake.submit_modal(alice, opened, {"Mot": "BATEAU"})
    assert res.content == "modal=BATEAU" and res.ephemeral


async def test_interaction_payload_locale_permissions_and_guild_command(env):
    fake, alice, bob, chloe = env.fake, env.alice, env.bob, env.chloe
    res = await fake.run_command(bob, "autre", "selftest whoami")
    assert res.content == (f"user={bob.id} locale=en-US guild_locale=fr manage_guild=False channel=autre "
                           f"guild=Selftest member=True")
    res = await fake.run_command(chloe, "jeux", "selftest whoami")
    assert "locale=fr" in res.content and "manage_guild=True" in res.content
    with pytest.raises(PermissionError):  # default_member_permissions hides /gadmin from Alice
        await fake.run_command(alice, "jeux", "gadmin")
    res = await fake.run_command(chloe, "jeux", "gadmin")
    assert res.content == "admin ok manage_guild=True"
    assert res.interaction["data"]["guild_id"] == str(fake.guild_id)
    # a global command run in the bot's DM: no guild, a plain User
    res = await fake.run_command(bob, fake.dm_channel(bob), "selftest whoami")
    assert f"user={bob.id} locale=en-US guild_locale=None" in res.content and "member=False" in res.content
    assert res.message.is_dm and res.message.visible_to == bob.id
    with pytest.raises(LookupError):  # guild commands do not exist in DMs
        await fake.run_command(chloe, fake.dm_channel(chloe), "gadmin")


async def test_several_servers_with_their_own_members_and_permissions(env):
    fake, alice = env.fake, env.alice
    for _ in range(100):  # the bot's READY first: a server added before it would be in READY's list
        if "READY ludibot" in env.bot.log:
            break
        await asyncio.sleep(0.1)
    club = fake.add_guild("Club", channels=["jeux", "salon"], locale="en-US")  # after start: GUILD_CREATE
    assert club.id != fake.guild_id and fake.guild_id == fake.guild.id
    dora = fake.add_user("Dora", guilds=[club], manage_guild=True)  # admin in Club only
    fake.add_member(alice, club)
    jeux2 = fake.channel("jeux", guild=club)
    assert jeux2.guild_id == club.id and jeux2 is not fake.channel("jeux")
    for _ in range(100):
        if f"guild_create {club.id}" in env.bot.log:
            break
        await asyncio.sleep(0.1)
    assert f"guild_create {club.id} shard=0" in env.bot.log
    res = await fake.run_command(dora, jeux2, "selftest whoami")
    assert res.content == (f"user={dora.id} locale=fr guild_locale=en-US manage_guild=True channel=jeux "
                           f"guild=Club member=True")
    assert res.interaction["guild_id"] == str(club.id) and res.message.guild_id == club.id
    res = await fake.run_command(alice, jeux2, "selftest whoami")
    assert "manage_guild=False" in res.content and "guild=Club" in res.content
    with pytest.raises(PermissionError):  # Dora is not a member of the first server
        await fake.run_command(dora, "jeux", "selftest whoami")
    with pytest.raises(LookupError):  # /gadmin was registered for the first server only
        await fake.run_command(dora, jeux2, "gadmin")
    fake.set_manage_guild(alice, True, guild=club)
    res = await fake.run_command(alice, jeux2, "selftest whoami")
    assert "manage_guild=True" in res.content
    res = await fake.run_command(alice, "jeux", "selftest whoami")  # still not in the first server
    assert "manage_guild=False" in res.content and "guild=Selftest" in res.content
    assert fake.errors == []


async def test_app_permissions_and_threads_seen_by_discord_py(env):
    fake, alice = env.fake, env.alice
    res = await fake.run_command(alice, "autre", "selftest perms")
    assert res.content.startswith("view=True send=True threads=True files=True embeds=True history=True")
    fake.deny_bot("autre", "send_messages")
    res = await fake.run_command(alice, "autre", "selftest perms")  # the interaction still arrives
    assert "view=True send=False" in res.content and "files=False" in res.content  # implicit denial
    fake.allow_bot("autre")
    thread = fake.create_thread("jeux", "partie-1")
    res = await fake.run_command(alice, thread, "selftest perms")
    assert "channel=partie-1 type=public_thread" in res.content and "threads=True" in res.content
    fake.deny_bot("jeux", "send_messages_in_threads")
    res = await fake.run_command(alice, thread, "selftest perms")
    assert "threads=False" in res.content
    fake.allow_bot("jeux")
    fake.archive_thread(thread)
    fake.lock_thread(thread)
    res = await fake.run_command(alice, thread, "selftest perms")  # a locked thread still gets interactions
    assert "channel=partie-1" in res.content and res.ephemeral
    assert fake.errors == []


async def test_no_heartbeat_lag_warning(tmp_path):
    # an immediate ACK beat discord.py's heartbeat thread to recording its send time: "Can't keep up,
    # shard ID None websocket is 41.3s behind" at every heartbeat; with a short interval it shows at once
    # as a measured latency of a whole interval (here 1 s) instead of the network's few milliseconds
    fake = FakeDiscord(channels=["jeux"], heartbeat_interval_ms=1000)
    alice = fake.add_user("Alice")
    await fake.start()
    bot = await _start_selftest(fake, tmp_path)
    try:
        await fake.wait_ready(timeout=20)
        beats = fake.heartbeats
        for _ in range(50):
            if fake.heartbeats >= beats + 3:
                break
            await asyncio.sleep(0.1)
        res = await fake.run_command(alice, "jeux", "selftest latency")
        measured = float(res.content.split("=")[1])
        assert measured < 0.5, res.content
        assert "Can't keep up" not in bot.log
    finally:
        bot.kill()
        await fake.stop()


async def test_discord_py_honours_the_rate_limit_headers(env):
    fake, alice = env.fake, env.alice
    fake.rate_limit_channel("autre", limit=2, per=1.0)
    before = len(fake.rate_limited)
    t0 = time.monotonic()
    res = await fake.run_command(alice, "autre", "selftest burst", n=6,
                                 until=lambda r: "burst done" in r.content, timeout=20)
    elapsed = time.monotonic() - t0
    assert "burst done failed=0" in res.content
    posts = [x for x in fake.messages("autre") if re.fullmatch(r"burst \d", x.content)]
    assert sorted(x.content for x in posts) == [f"burst {i}" for i in range(6)]
    assert elapsed >= 1.8  # three windows of 1 s: discord.py waited as the headers said
    # it waits before exhausting the bucket (X-RateLimit-Remaining: 0); at most the first burst can hit a 429
    assert len(fake.rate_limited) - before <= 6
    fake.rate_limit.channel_overrides.clear()
    assert fake.errors == []


async def test_deadline_is_enforced(env):
    fake, alice = env.fake, env.alice
    with pytest.raises(DeadlineMissed) as info:
        await fake.run_command(alice, "jeux", "selftest slow", seconds=0.4, deadline=0.15, settle=0.5)
    res = info.value.result
    assert res.deadline_missed and res.late
    assert res.messages == []  # Discord refused the late callback ...
    assert res.errors and res.errors[0]["code"] == 10062  # ... with "Unknown interaction"
    res = await fake.run_command(alice, "jeux", "selftest slow", seconds=0.0)
    assert res.content == "late answer" and not res.deadline_missed
    fake.errors.clear()


async def test_gateway_resume(env):
    fake, alice = env.fake, env.alice
    before = fake.resume_count
    await fake.gateway_reconnect()  # op 7: the client reconnects and RESUMEs
    await fake.wait_until(lambda: fake.resume_count > before and fake.connected, timeout=10)
    res = await fake.run_command(alice, "jeux", "selftest whoami")
    assert res.ephemeral
    await fake.gateway_drop()  # abrupt close: the client RESUMEs too
    await fake.wait_until(lambda: fake.resume_count > before + 1 and fake.connected, timeout=10)
    res = await fake.run_command(alice, "jeux", "selftest whoami")
    assert res.ephemeral
    assert fake.identify_count == 1  # never re-identified
    assert "RESUMED" in env.bot.log


async def test_sigkill_restart_and_persistent_button(env, board):
    fake, bob, bot = env.fake, env.bob, env.bot
    old_pid = bot.proc.pid
    bot.kill()
    await fake.wait_disconnected(timeout=10)
    with pytest.raises(NotConnected):
        await fake.click(bob, board, label="Ping")
    t0 = time.monotonic()
    bot.start()
    await fake.wait_ready(timeout=20, fresh=True)
    restart_s = time.monotonic() - t0
    assert restart_s < 15
    res = await fake.click(bob, board, label="Ping")  # button posted before the kill
    assert res.content.startswith("pong 300 for Bob pid=")
    assert f"pid={old_pid}" not in res.content
    assert res.message.visible_to == bob.id
    assert fake.errors == []
    assert fake.unhandled == []


async def test_state_file_roundtrip(tmp_path):
    path = tmp_path / "fake.json"
    fake = FakeDiscord(channels=["jeux"], state_path=path)
    alice = fake.add_user("Alice")
    await fake.start()
    ch = fake.channel("jeux")
    fields = fake._build_fields({"content": "hello"}, {0: ("a.png", b"\x89PNG\r\n\x1a\n" + bytes(20), None)},
                                existing=None, channel_id=ch.id)
    msg = fake._new_message(ch, fields)
    await fake.stop()
    again = FakeDiscord(channels=["jeux"], state_path=path)
    assert again.user("Alice").id == alice.id and again.token == fake.token
    copy = again.message_by_id[msg.id]
    assert copy.content == "hello" and copy.attachments[0].data == msg.attachments[0].data


async def _start_selftest(fake: FakeDiscord, tmp_path: Path, **env_extra: str) -> BotProcess:
    bot = BotProcess(fake, tmp_path / "bot.log")
    os.environ.update(env_extra)
    try:
        bot.start()
    finally:
        for k in env_extra:
            os.environ.pop(k, None)
    return bot


async def test_shards_route_guilds_and_interactions_by_discords_formula(tmp_path):
    fake = FakeDiscord(guild_name="Un", channels=["jeux"], shards=2, max_concurrency=2, settle=0.1)
    deux = fake.add_guild("Deux", channels=["jeux"])
    trois = fake.add_guild("Trois", channels=["jeux"])
    alice = fake.add_user("Alice", guilds=[fake.guild, deux, trois])
    await fake.start()
    async with aiohttp_session() as http:
        async with http.get(f"{fake.api_base}/gateway/bot", headers={"Authorization": f"Bot {fake.token}"}) as r:
            info = await r.json()
    assert info["shards"] == 2 and info["session_start_limit"]["max_concurrency"] == 2
    bot = await _start_selftest(fake, tmp_path, SELFTEST_SHARDS="2")
    try:
        await fake.wait_ready(timeout=30)
        sessions = fake.shard_sessions()
        assert sorted(sessions) == [0, 1] and fake.shard_count == 2
        assert sorted((s, c) for _, s, c in fake.identify_log) == [(0, 2), (1, 2)]
        for g in (fake.guild, deux, trois):
            assert fake.shard_of(g) == (g.id >> 22) % 2
        assert {fake.shard_of(g) for g in (fake.guild, deux, trois)} == {0, 1}  # ids spread over the shards
        for _ in range(100):
            if bot.log.count("SHARD_READY") >= 2:
                break
            await asyncio.sleep(0.1)
        for sid in (0, 1):  # READY listed only that shard's guilds
            expected = sorted(g.id for g in (fake.guild, deux, trois) if fake.shard_of(g) == sid)
            assert f"SHARD_READY {sid} guilds={expected}" in bot.log
        for g in (fake.guild, deux, trois):
            res = await fake.run_command(alice, fake.channel("jeux", guild=g), "selftest whoami")
            assert f"guild={g.name}" in res.content
            assert res.record.shard_id == fake.shard_of(g)
        res = await fake.run_command(alice, fake.dm_channel(alice), "selftest whoami")  # DMs: shard 0
        assert res.record.shard_id == 0 and "guild=None" in res.content
        # Discord closes with 4011 when a bot needs more shards: fatal, discord.py gives up
        await fake.gateway_close(4011)
        for _ in range(100):
            if bot.proc.poll() is not None:
                break
            await asyncio.sleep(0.1)
        assert bot.proc.poll() not in (None, 0)
        assert "4011" in bot.log
        assert fake.errors == []
    finally:
        bot.kill()
        await fake.stop()


async def test_identify_refusals(tmp_path):
    fake = FakeDiscord(channels=["jeux"], required_shards=2)
    await fake.start()
    try:
        async with aiohttp_session() as http:
            for shard, code in (([0, 1], 4011), ([2, 2], 4010)):
                async with http.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
                    hello = await ws.receive_json()
                    assert hello["op"] == 10
                    await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "shard": shard,
                                                      "properties": {}}})
                    msg = await ws.receive()
                    assert ws.close_code == code, (shard, msg)
            async with http.ws_connect(fake.gateway_url + "?v=10&encoding=json") as ws:
                await ws.receive_json()
                t0 = time.perf_counter()
                await ws.send_json({"op": 1, "d": None})
                ack = await ws.receive_json()
                assert ack["op"] == 11 and time.perf_counter() - t0 >= fake.heartbeat_ack_delay * 0.9
    finally:
        await fake.stop()


async def test_a_components_v2_card_from_discord_py(env):
    """discord.py's LayoutView against the fake: sent, stored as Discord returns it, clicked, edited
    (new pictures), a V2-style modal opened from it and submitted."""
    fake, alice = env.fake, env.alice
    res = await fake.run_command(alice, "jeux", "selftest card")
    msg = res.message
    assert res.errors == [] and msg.is_v2 and not res.ephemeral
    assert msg.content.startswith("## Tour 1") and f"<@{alice.id}>" in msg.text
    assert msg.mentioned_user_ids(msg.allowed_mentions) == [alice.id]
    assert msg.accent_color == 0x3366FF and msg.button_labels == ["Suivant", "Poser un mot"]
    assert [a.filename for a in msg.gallery] == ["board1.png"] and [a.filename for a in msg.thumbnails] == ["seat.png"]
    assert msg.hidden_attachments == [] and all(isinstance(c.get("id"), int) for c in msg.walk_components())
    res2 = await fake.click(alice, msg, label="Suivant")
    assert res2.errors == [] and res2.response_type == 7 and msg.content.startswith("## Tour 2")
    assert [a.filename for a in msg.gallery] == ["board2.png"] and msg.revisions[0].content.startswith("## Tour 1")
    opened = await fake.click(alice, msg, label="Poser un mot")
    assert opened.response_type == 9 and opened.errors == []
    assert [c["type"] for c in opened.modal["components"]] == [10, 18, 18]
    with pytest.raises(ValueError, match="2..8"):
        await fake.submit_modal(alice, opened, {"Mot": "B", "Sens": "v"})
    done = await fake.submit_modal(alice, opened, {"Mot": "BATEAU", "Sens": "Vertical"})
    assert done.content == "card-modal word=BATEAU way=v" and done.ephemeral and done.errors == []


async def test_a_legacy_message_becomes_a_card_only_when_its_content_is_cleared(env):
    fake, alice = env.fake, env.alice
    before = len(fake.validation_errors)
    res = await fake.run_command(alice, "jeux", "selftest tocard", clear=False)
    assert "refused 400 50035" in res.content and res.message.content == "legacy text" and not res.message.is_v2
    assert len(fake.validation_errors) == before + 1
    assert fake.validation_errors[-1]["errors"]["content"]["_errors"][0]["code"] == \
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
    fake.errors.clear()  # that refusal was the point; later tests of the module expect none
    res = await fake.run_command(alice, "jeux", "selftest tocard", clear=True)
    assert res.message.is_v2 and res.message.content == "now a card" and "refused" not in res.content


async def test_application_emojis_from_discord_py(env):
    """create_application_emoji / fetch_application_emojis against the fake; the emoji in text and on a
    button; created once, reused after; a bad name refused."""
    fake, alice = env.fake, env.alice
    res = await fake.run_command(alice, "jeux", "selftest emoji", name="de_6")
    (e,) = [x for x in fake.app_emojis.values() if x.name == "de_6"]
    assert res.content == f"<:de_6:{e.id}> created=True" and res.errors == []
    assert res.message.buttons[0]["emoji"]["id"] in (e.id, str(e.id)) and fake.broken_emojis == []
    res = await fake.run_command(alice, "jeux", "selftest emoji", name="de_6")
    assert res.content == f"<:de_6:{e.id}> created=False" and len(fake.app_emojis) == 1
    before = len(fake.validation_errors)
    res = await fake.run_command(alice, "jeux", "selftest emoji", name="dé-6")
    assert res.content == "refused 400 50035" and len(fake.validation_errors) == before + 1
    fake.errors.clear()


async def test_a_wait_that_times_out_says_which_wait_it_was():
    """A TimeoutError names what was awaited: the caller's words, or the condition's own source line
    and where it is written (a test that times out points at its wait, not at « condition not met »)."""
    fake = FakeDiscord(guild_name="Quiet", channels=["jeux"])
    await fake.start()
    try:
        cards: list = []
        with pytest.raises(TimeoutError, match=r"len\(cards\) >= 2.*test_fakediscord\.py:\d+"):
            await fake.wait_until(lambda: len(cards) >= 2, timeout=0.05)
        with pytest.raises(TimeoutError, match="the second card of the table"):
            await fake.wait_until(lambda: len(cards) >= 2, timeout=0.05, what="the second card of the table")
        with pytest.raises(TimeoutError, match=r'a message: .*"Lancer" in m\.button_labels'):
            await fake.wait_for_message(lambda m: "Lancer" in m.button_labels, timeout=0.05)
    finally:
        await fake.stop()
