"""Durable publication (issue 17): every committed version reaches its channel.

The real bot process against the fake Discord: a crash between the commit and the answer, random
SIGKILLs during bursts of clicks, a DM, the permission check at start. After each restart, every
running game's newest public message carries live controls for the game's current version, and
no acknowledged move is lost or applied twice.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
from types import SimpleNamespace

import pytest
import pytest_asyncio

from bot.sessions import SessionService
from bot.storage import RUNNING, open_store
from fakediscord import FakeDiscord
from tests.e2e.harness import followed, mentioned, read_game_row, start_bot, strict

pytestmark = pytest.mark.e2e

CID = re.compile(r"^ludibot:(\d+):([a-z_]+):(\d+)")


def controls_of(msg) -> list[tuple[int, str, int]]:
    out = []
    for b in msg.buttons:
        m = CID.match(b.get("custom_id", ""))
        if m:
            out.append((int(m[1]), m[2], int(m[3])))
    return out


def newest_control(fake, game_id: int):
    """The newest public, live message of the channel whose buttons belong to ``game_id``."""
    for msg in reversed(fake.messages("jeux") + fake.messages("autre")):
        if msg.visible_to is None and not msg.deleted and any(g == game_id for g, _, _ in controls_of(msg)):
            return msg
    return None


async def db_games(db) -> dict[int, object]:
    store = open_store(str(db))
    await store.open()
    try:
        return {g.id: g for g in await store.games_with_status((RUNNING,))}
    finally:
        await store.close()


async def start_ludix(fake, u, channel="jeux", target=1000):
    res = await fake.run_command(u.alice, channel, "ludix start", objectif=target)
    lobby = res.message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    game_id = int(lobby.revisions[0].buttons[0]["custom_id"].split(":")[1])
    await fake.wait_until(lambda: newest_control(fake, game_id) is not None, timeout=20)
    return game_id


async def all_games_show_their_version(fake, db, timeout: float = 25.0) -> None:
    """Wait until every running game's newest control message is for its current version."""
    last = {}

    def ok() -> bool:
        return all((m := newest_control(fake, gid)) is not None
                   and {v for g, _, v in controls_of(m) if g == gid} == {game.version}
                   for gid, game in last.items())

    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        last = await db_games(db)
        if ok():
            return
        if asyncio.get_running_loop().time() > deadline:
            stale = {gid: (g.version, controls_of(newest_control(fake, gid)) if newest_control(fake, gid) else None)
                     for gid, g in last.items()}
            pytest.fail(f"games without live controls for their version: {stale}")
        await asyncio.sleep(0.3)


async def restart(world) -> None:
    world.bot.kill()
    await world.fake.wait_disconnected(timeout=10)
    world.bot.start()
    await world.fake.wait_ready(timeout=60, fresh=True)


async def test_a_move_committed_just_before_a_crash_is_published_after_the_restart(world):
    fake, u = world.fake, world.u
    game_id = await start_ludix(fake, u)
    msg = newest_control(fake, game_id)
    (uid,) = mentioned(msg)
    # that message is recorded as the game's (the bot marks it just after posting it): a kill before
    # would be another story (a version never shown), not the one told here
    await fake.wait_until(lambda: read_game_row(world.bot.db, game_id).control_message_id == msg.id, timeout=10)
    world.bot.kill()
    await fake.wait_disconnected(timeout=10)
    # exactly what the bot had done when it died: the move committed, its message never posted
    store = open_store(str(world.bot.db))
    await store.open()
    try:
        outcome = await SessionService(store).act(game_id, uid, {"type": "roll"})
        version = outcome.game.version
        assert outcome.game.published_version < version
    finally:
        await store.close()
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    await all_games_show_their_version(fake, world.bot.db)
    new = newest_control(fake, game_id)
    assert new.id != msg.id and {v for _, _, v in controls_of(new)} == {version}
    # the old message lost its buttons once the new one existed; a stale client still clicking
    # one is told it is out of date; the new ones play
    await fake.wait_until(lambda: msg.buttons == [], timeout=30)  # after the catch-up, off the interaction path
    by_id = {u.alice.id: u.alice, u.bruno.id: u.bruno}
    old_cid = msg.revisions[0].buttons[0]["custom_id"]
    res = await fake.forge_click(by_id[uid], msg, old_cid)
    assert res.ephemeral and "déjà été joué" in res.content
    label = new.button_labels[0]
    res = await fake.click(by_id[mentioned(new)[0]], new, label=label)
    assert not res.ephemeral, res.content
    # (the click may take its own message's buttons off first: the next turn follows, after the settle
    # time under load; the bot marks its version published only once that message exists)
    assert (await followed(fake, res, new)).buttons

    def published() -> bool:
        game = read_game_row(world.bot.db, game_id)
        return game.published_version == game.version

    await fake.wait_until(published, timeout=10, what="the new turn's version marked published")  # nothing owed
    assert not world.bot.tracebacks()


@pytest.mark.parametrize("kills", [pytest.param(3, id="3-kills"),
                                   pytest.param(20, id="20-kills", marks=pytest.mark.slow)])
async def test_sigkill_during_bursts_of_moves_never_strands_a_game(world, kills):
    if kills > 3 and not os.environ.get("LUDIBOT_SLOW"):
        pytest.skip("the long soak runs with LUDIBOT_SLOW=1")
    fake, u = world.fake, world.u
    rng = random.Random(1717)
    games = [await start_ludix(fake, u, channel) for channel in ("jeux", "autre", "jeux")]
    by_id = {u.alice.id: u.alice, u.bruno.id: u.bruno}
    acknowledged: list[tuple[int, int, int]] = []  # (game, version clicked, user)

    async def click_game(game_id: int) -> None:
        msg = newest_control(fake, game_id)
        if msg is None or not mentioned(msg):
            return
        uid = mentioned(msg)[-1]
        if uid not in by_id:
            return
        label = msg.button_labels[0]
        (_, _, version) = controls_of(msg)[0]
        try:
            res = await fake.click(by_id[uid], msg, label=label, timeout=5, check_deadline=False)
        except Exception:  # the bot died under the click: not acknowledged
            return
        if res.message is not None and not res.ephemeral:
            acknowledged.append((game_id, version, uid))

    for _ in range(kills):
        burst = asyncio.gather(*(click_game(g) for g in games for _ in range(2)), return_exceptions=True)
        await asyncio.sleep(rng.uniform(0.0, 0.4))
        world.bot.kill()
        await burst
        await fake.wait_disconnected(timeout=10)
        world.bot.start()
        await fake.wait_ready(timeout=60, fresh=True)
        await all_games_show_their_version(fake, world.bot.db)
    # every acknowledged click is in the log once, as the move of its version, by its player
    store = open_store(str(world.bot.db))
    await store.open()
    try:
        for game_id, version, uid in acknowledged:
            rows = [e for e in await store.events(game_id) if e.version == version + 1]
            assert len(rows) == 1 and rows[0].user_id == uid, (game_id, version, rows)
    finally:
        await store.close()
    assert acknowledged


async def test_game_commands_are_for_servers_only(world):
    """Decision: games are played in a server's channels and threads. Every game command is
    registered server-only, so Discord does not offer it in DMs (and the bot refuses one anyway)."""
    fake = world.fake
    games = [c.payload for c in fake.commands.values()
             if c.payload["name"] in ("ludix", "ludime", "ranta", "limit", "tectonic", "armada", "lutinades")]
    assert len(games) == 7
    for payload in games:
        assert payload.get("dm_permission") is False or payload.get("contexts") == [0], payload["name"]


# --- the field: a rate-limited channel, permissions, threads ------------------------------------
TIMEOUT_H = 0.0012  # 4.3 s


@pytest_asyncio.fixture
async def field(tmp_path):
    """The usual world, with the scheduler and the publisher looking often."""
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux", "autre"], settle=0.12, timeout=20)
    users = SimpleNamespace(alice=fake.add_user("Alice", locale="fr"), bruno=fake.add_user("Bruno", locale="fr"),
                            modo=fake.add_user("Modo", locale="fr", manage_guild=True))
    await fake.start()
    bot = await start_bot(fake, tmp_path, extra_env={"LUDIBOT_SCHEDULER_POLL": "0.2", "LUDIBOT_PUBLISH_POLL": "0.5"})
    async with strict(SimpleNamespace(fake=fake, bot=bot, u=users, tmp=tmp_path)) as w:
        yield w
        assert not bot.tracebacks()


async def set_timeout(fake, u, hours: float) -> None:
    res = await fake.run_command(u.modo, "jeux", "ludibot config", jeu="ludix", rappel=0, delai=hours, forfait=0)
    assert res.ephemeral and "enregistrés" in res.content


async def test_nine_games_timing_out_in_a_rate_limited_channel_while_players_click(field):
    fake, u = field.fake, field.u
    await set_timeout(fake, u, TIMEOUT_H)
    games = [await start_ludix(fake, u) for _ in range(9)]
    await set_timeout(fake, u, 10.0)  # one timeout each (the next turns wait 10 h)
    fake.rate_limit_channel("jeux", limit=2, per=5.0)  # stricter than Discord's default for posts
    by_id = {u.alice.id: u.alice, u.bruno.id: u.bruno}
    latencies: list[float] = []
    acknowledged: list[tuple[int, int, int]] = []
    loop = asyncio.get_running_loop()

    async def timed_out_games() -> int:
        store = open_store(str(field.bot.db))
        await store.open()
        try:
            count = 0
            for g in games:
                count += any(r.action.get("_by") == "timeout" for r in await store.events(g))
            return count
        finally:
            await store.close()

    # the nine timeouts fire together; their posts queue up behind the channel's rate limit
    deadline = loop.time() + 30
    while await timed_out_games() < 9 and loop.time() < deadline:
        await asyncio.sleep(0.3)
    until = loop.time() + 10  # meanwhile every player keeps clicking the newest buttons they see
    while loop.time() < until:
        for gid in games:
            msg = newest_control(fake, gid)
            if msg is None or not mentioned(msg) or mentioned(msg)[-1] not in by_id:
                continue
            (_, _, version) = controls_of(msg)[0]
            res = await fake.click(by_id[mentioned(msg)[-1]], msg, label=msg.button_labels[0])  # raises if > 3 s
            latencies.append(res.latency)
            if not res.ephemeral:
                acknowledged.append((gid, version, mentioned(msg)[-1]))
        await asyncio.sleep(0.2)
    assert latencies and max(latencies) < 3.0
    await all_games_show_their_version(fake, field.bot.db, timeout=60)
    store = open_store(str(field.bot.db))
    await store.open()
    try:
        timed_out = 0
        for gid in games:
            rows = await store.events(gid)
            assert len({r.version for r in rows}) == len(rows)
            timed_out += sum(1 for r in rows if r.action.get("_by") == "timeout")
        for gid, version, uid in acknowledged:
            rows = [e for e in await store.events(gid) if e.version == version + 1]
            assert len(rows) == 1 and rows[0].user_id == uid
    finally:
        await store.close()
    assert timed_out >= 9  # every game timed out, while the channel was rate-limited
    assert any("n'a pas joué à temps" in (m.content or "") for m in fake.messages("jeux"))


async def test_a_lobby_card_waiting_on_the_rate_limit_does_not_delay_the_start(field):
    """Issue 36: no game lock across an HTTP call that may wait. Two members join a lobby by command:
    each join owes the channel the lobby's card, edited in place, and the channel's edits are limited
    (one per 4 s here), so the second edit waits. « Lancer » clicked meanwhile is answered within
    Discord's 3 seconds (``click`` raises past them); once the edits are through, the card says the game
    started and has no buttons, and the first turn has the controls."""
    fake, u = field.fake, field.u
    res = await fake.run_command(u.alice, "jeux", "ludix start", objectif=100)
    lobby = res.message
    fake.rate_limit.channel_edit_limit, fake.rate_limit.channel_edit_per = 1, 4.0
    await fake.run_command(u.bruno, "jeux", "ludix join")
    await fake.wait_until(lambda: "Bruno" in lobby.content, timeout=10)  # the first edit: the card shows Bruno
    await fake.run_command(u.modo, "jeux", "ludix join")  # its card's edit waits on the channel's limit
    assert "Modo" not in lobby.content
    res = await fake.click(u.alice, lobby, label="Lancer")
    assert res.latency < 3.0 and not res.ephemeral
    game_id = int(lobby.revisions[0].buttons[0]["custom_id"].split(":")[1])
    await fake.wait_until(lambda: newest_control(fake, game_id) is not None, timeout=20)
    await fake.wait_until(lambda: "La partie est lancée" in lobby.content and not lobby.buttons
                          and "Modo" in lobby.content, timeout=30)
    await all_games_show_their_version(fake, field.bot.db)


@pytest.mark.parametrize("permission,named", [("send_messages", "Envoyer des messages"),
                                              ("attach_files", "Joindre des fichiers"),
                                              ("view_channel", "Voir le salon")])
async def test_start_is_refused_where_the_bot_cannot_show_a_game(field, permission, named):
    fake, u = field.fake, field.u
    fake.deny_bot("autre", permission)
    res = await fake.run_command(u.alice, "autre", "ludix start")
    assert res.ephemeral and named in res.content
    store = open_store(str(field.bot.db))
    await store.open()
    try:
        assert await store.games_with_status(("lobby", "running")) == []  # nothing was created
    finally:
        await store.close()


async def test_a_permission_lost_mid_game_pauses_it_and_its_return_resumes_it(field):
    fake, u = field.fake, field.u
    await set_timeout(fake, u, TIMEOUT_H)
    gid = await start_ludix(fake, u)
    fake.deny_bot("jeux", "send_messages")
    # the timeout fires and its post is refused: the game pauses, its creator is told once by DM
    await fake.wait_until(lambda: any("en pause" in (m.content or "") for m in fake.dms(u.alice)), timeout=20)
    games = await db_games(field.bot.db)
    assert games[gid].paused and "missing_permissions" in games[gid].paused
    version = games[gid].version
    # no clock runs while paused: a game in another channel, its delay 10 hours, times out once the
    # bot's clock is 11 hours on — the scheduler has looked at every deadline due by then — and the
    # paused game, due since long before, is as it was
    await set_timeout(fake, u, 10.0)
    witness = await start_ludix(fake, u, channel="autre")
    before = (await db_games(field.bot.db))[witness].version
    field.bot.advance(11 * 3600)
    loop = asyncio.get_running_loop()
    end = loop.time() + 30
    while (await db_games(field.bot.db))[witness].version == before:
        assert loop.time() < end, "the game of the other channel never timed out 11 hours later"
        await asyncio.sleep(0.1)
    assert (await db_games(field.bot.db))[gid].version == version
    assert len([m for m in fake.dms(u.alice) if "en pause" in (m.content or "")]) == 1
    # permission back (CHANNEL_UPDATE): the publisher catches up with live controls
    fake.allow_bot("jeux")
    await all_games_show_their_version(fake, field.bot.db)
    assert (await db_games(field.bot.db))[gid].paused is None


async def test_a_player_is_told_when_their_game_is_paused(field):
    fake, u = field.fake, field.u
    await set_timeout(fake, u, TIMEOUT_H)
    gid = await start_ludix(fake, u)
    msg = newest_control(fake, gid)
    fake.deny_bot("jeux", "send_messages", "attach_files")
    await fake.wait_until(lambda: any("en pause" in (m.content or "") for m in fake.dms(u.alice)), timeout=20)
    # the next interaction: the move is the interaction's answer (not a channel post), plus the warning
    msg = newest_control(fake, gid)
    await set_timeout(fake, u, 10.0)
    (uid,) = mentioned(msg)
    # (the warning follows the move's publication, after the settle time under load: waited for)
    res = await fake.click({u.alice.id: u.alice, u.bruno.id: u.bruno}[uid], msg, label=msg.button_labels[0],
                           until=lambda r: any(m.ephemeral for m in r.messages))
    assert any(m.ephemeral and "en pause" in (m.content or "") for m in res.messages), res.content


async def test_games_in_threads_unarchive_and_a_locked_thread_pauses(field):
    fake, u = field.fake, field.u
    await set_timeout(fake, u, TIMEOUT_H)
    thread = fake.create_thread("jeux", "Ludix du soir", by=u.alice)
    res = await fake.run_command(u.alice, thread, "ludix start", objectif=1000)
    lobby = res.message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    gid = int(lobby.revisions[0].buttons[0]["custom_id"].split(":")[1])
    await fake.wait_until(lambda: newest_control_in(fake, thread, gid) is not None, timeout=20)
    before = len(fake.messages(thread))
    fake.archive_thread(thread)
    # the timeout's post goes into the archived thread, which unarchives it (as Discord does)
    await fake.wait_until(lambda: len(fake.messages(thread)) > before, timeout=20)
    assert not fake.channel(thread).archived
    # locked: the next post is refused, the game pauses
    fake.lock_thread(thread)
    await fake.wait_until(lambda: any("en pause" in (m.content or "") for m in fake.dms(u.alice)), timeout=30)
    assert (await db_games(field.bot.db))[gid].paused


def newest_control_in(fake, channel, game_id):
    for msg in reversed(fake.messages(channel)):
        if msg.visible_to is None and any(g == game_id for g, _, _ in controls_of(msg)):
            return msg
    return None


async def test_an_answer_discord_refused_is_published_by_the_outbox(field):
    """The bot answers too late (Discord: 404 Unknown interaction): the move is committed, its
    answer refused — the publisher posts it in the channel, with live controls."""
    fake, u = field.fake, field.u
    gid = await start_ludix(fake, u)
    msg = newest_control(fake, gid)
    (uid,) = mentioned(msg)
    user = {u.alice.id: u.alice, u.bruno.id: u.bruno}[uid]
    res = await fake.click(user, msg, label=msg.button_labels[0], deadline=0.0005, check_deadline=False)
    assert res.deadline_missed
    await all_games_show_their_version(fake, field.bot.db)
    new = newest_control(fake, gid)
    assert new.id != msg.id and new.kind == "channel"  # a channel post, not an interaction answer
    fake.errors.clear()  # the late callback's 404 was the point of this test


async def test_rematch_opens_a_lobby_with_the_same_seats_and_options(world):
    fake, u = world.fake, world.u
    lobby = (await fake.run_command(u.alice, "jeux", "ludix start", objectif=50, ia=1)).message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    game_id = int(lobby.revisions[0].buttons[0]["custom_id"].split(":")[1])
    by_id = {u.alice.id: u.alice, u.bruno.id: u.bruno}
    final = None
    for _ in range(400):
        await fake.wait_until(lambda: newest_control(fake, game_id) is not None, timeout=20)
        msg = newest_control(fake, game_id)
        if msg is not None and "Fin de la partie" in (msg.content or ""):
            final = msg
            break
        uid = mentioned(msg)[-1]
        label = "Stop (marquer)" if "Stop (marquer)" in msg.button_labels else msg.button_labels[0]
        await fake.click(by_id[uid], msg, label=label)
    assert final is not None and final.button_labels == ["Revanche"]
    res = await fake.click(u.chloe, final, label="Revanche")  # not a player of that game
    assert res.ephemeral and "Vous ne jouez pas" in res.content
    res = await fake.click(u.bruno, final, label="Revanche")
    rematch = res.message
    assert not res.ephemeral and "Rejoindre" in rematch.button_labels
    assert f"<@{u.alice.id}>" in rematch.content and "Bot 1" in rematch.content and "50" in rematch.content
    # only the bot's own mentions ping: the former player called back, and the lobby's creator
    assert {int(x) for x in res.message.allowed_mentions.get("users", [])} == {u.alice.id, u.bruno.id}
    again = await fake.click(u.alice, final, label="Revanche")  # once per game: the same lobby
    assert again.ephemeral and "déjà ouverte" in again.content
    await fake.click(u.alice, rematch, label="Rejoindre")
    res = await fake.click(u.bruno, rematch, label="Lancer")
    assert "La partie est lancée" in rematch.content
