"""A game in its own thread (issue 15): the real bot process against the fake Discord, which is as
strict as Discord about threads (a thread per message, 50083 in archived threads, who may archive).

The lobby stays in the channel, every game message goes to the thread named after the game, the
result comes back to the channel with a link and the thread is archived; the server's default from
``/ludibot config fil:``; a publication into a thread someone archived; a kill between the thread's
creation and its recording (no second thread); the permission refused at start.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
import pytest_asyncio

from bot.sessions import Player, SessionService
from bot.storage import open_store
from fakediscord import FakeDiscord
from tests.e2e.harness import followed, mentioned, read_game_row, start_bot, strict

pytestmark = pytest.mark.e2e

CID = re.compile(r"^ludibot:(\d+):([a-z_]+):(\d+)")


@pytest_asyncio.fixture
async def tw(tmp_path, bot_db):
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux", "autre"], settle=0.12, timeout=20)
    users = SimpleNamespace(alice=fake.add_user("Alice", locale="fr"), bruno=fake.add_user("  Bruno  ", locale="fr"),
                            modo=fake.add_user("Modo", locale="fr", manage_guild=True))
    await fake.start()
    bot = await start_bot(fake, tmp_path, db=bot_db,
                          extra_env={"LUDIBOT_SCHEDULER_POLL": "0.2", "LUDIBOT_PUBLISH_POLL": "0.5"})
    async with strict(SimpleNamespace(fake=fake, bot=bot, u=users, tmp=tmp_path)) as w:
        yield w
        assert not bot.tracebacks()


def game_of(msg) -> int:
    return int(CID.match(msg.revisions[0].buttons[0]["custom_id"])[1])


def threads_of(fake, channel="jeux"):
    parent = fake.channel(channel)
    return [c for c in fake.channels.values() if c.is_thread and c.parent_id == parent.id]


def newest_control(fake, channel):
    for msg in reversed(fake.messages(channel)):
        if msg.visible_to is None and not msg.deleted and msg.buttons:
            return msg
    return None


async def open_lobby(fake, u, **options):
    res = await fake.run_command(u.alice, "jeux", "ludix start", **options)
    assert not res.ephemeral, res.content
    lobby = res.message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    return lobby


async def launch(fake, u, **options):
    """A Ludix game opened in #jeux and started; returns (lobby, thread, first turn message)."""
    lobby = await open_lobby(fake, u, **options)
    await fake.click(u.alice, lobby, label="Lancer")
    await fake.wait_until(lambda: lobby.id in fake.channels, timeout=20)
    thread = fake.channel(lobby.id)  # a thread started from a message has the message's id
    await fake.wait_until(lambda: newest_control(fake, thread) is not None, timeout=20)
    return lobby, thread, newest_control(fake, thread)


async def play_turn(fake, by_id, msg):
    """The expected player rolls, then stops unless the roll busted; the newest message of the game."""
    (uid,) = mentioned(msg)
    res = await fake.click(by_id[uid], msg, label="Lancer les dés")
    assert not res.ephemeral, res.content
    # the click takes its message's buttons off first; the next turn follows, under load after the settle time
    new = await followed(fake, res, msg, channel=msg.channel_id)
    if "Stop (marquer)" in new.button_labels and mentioned(new) == [uid]:
        res = await fake.click(by_id[uid], new, label="Stop (marquer)")
        new = await followed(fake, res, new, channel=new.channel_id)
    return new


async def test_a_whole_ludix_game_in_its_own_thread(tw):
    fake, u = tw.fake, tw.u
    lobby, thread, msg = await launch(fake, u, objectif=50, fil=True)
    gid = game_of(lobby)
    # the lobby stays in the channel and points to the thread, named after the game and its players
    assert "La partie est lancée" in lobby.content and f"<#{thread.id}>" in lobby.content and lobby.buttons == []
    assert thread.type == 11 and thread.name == f"Ludix n°{gid} — Alice, Bruno"
    assert read_game_row(tw.bot.db, gid).thread_id == thread.id
    assert mentioned(msg) == [u.alice.id] and msg.button_labels == ["Lancer les dés"]
    # commands find the game from the thread and from its channel
    for where in (thread, "jeux"):
        res = await fake.run_command(u.bruno, where, "ludix status")
        assert res.ephemeral and f"n°{gid}" in res.content and "en cours" in res.content, res.content
    by_id = {u.alice.id: u.alice, u.bruno.id: u.bruno}
    for _ in range(200):
        if "Fin de la partie" in (msg.content or ""):
            break
        msg = await play_turn(fake, by_id, msg)
    else:
        pytest.fail("the game did not end")
    # the final message is in the thread, without buttons; the result is in the channel, with the
    # link to it and « Revanche »; the thread is archived
    assert msg.channel_id == thread.id and "Classement" in msg.content and msg.buttons == []

    def result():
        return next((m for m in fake.messages("jeux") if m.id != lobby.id and m.visible_to is None), None)

    await fake.wait_until(lambda: result() is not None and fake.channel(thread).archived, timeout=20)
    res_msg = result()
    assert f"Ludix n°{gid}\u00a0: partie terminée" in res_msg.content and "Classement" in res_msg.content
    assert f"https://discord.com/channels/{fake.guild_id}/{thread.id}/{msg.id}" in res_msg.content
    assert res_msg.button_labels == ["Revanche"]
    # every game message went to the thread: the channel has the lobby and the result only
    assert [m.id for m in fake.messages("jeux") if m.visible_to is None] == [lobby.id, res_msg.id]
    assert all(not m.buttons for m in fake.messages(thread))  # no live control left behind
    assert len(threads_of(fake)) == 1
    # the rematch opens its lobby in the channel
    res = await fake.click(u.bruno, res_msg, label="Revanche")
    assert not res.ephemeral and res.message.channel_id == fake.channel("jeux").id and "Rejoindre" in \
        res.message.button_labels
    assert fake.errors == []


async def test_a_click_in_the_thread_takes_its_own_buttons_off_without_a_thread_edit(tw):
    """As in a channel (issue 16), the turn message clicked in a game's thread loses its buttons in the
    interaction's own answer: no PATCH of a thread message per move, which Discord's rate limits count (a
    tournament's games are played in threads) and which, delayed past the game's end, met the archived
    thread (400, 50083)."""
    fake, u = tw.fake, tw.u
    lobby, thread, msg = await launch(fake, u, objectif=50, fil=True)
    by_id = {u.alice.id: u.alice, u.bruno.id: u.bruno}
    await fake.wait_idle(quiet=0.5)
    before = len(fake.request_log)
    seen = [msg]
    for _ in range(200):
        if "Fin de la partie" in (msg.content or ""):
            break
        msg = await play_turn(fake, by_id, msg)
        seen.append(msg)
    else:
        pytest.fail("the game did not end")
    await fake.wait_until(lambda: fake.channel(thread).archived, timeout=20)
    await fake.wait_idle(quiet=0.5)
    edits = [(m, p) for m, p, _ in fake.request_log[before:]
             if m == "PATCH" and p.startswith(f"/api/v10/channels/{thread.id}/messages")]
    assert edits == []
    assert all(not m.buttons for m in fake.messages(thread))  # every turn message lost its buttons all the same
    assert len(seen) > 2 and fake.errors == []


async def test_the_server_default_from_config_gives_each_game_a_thread(tw):
    fake, u = tw.fake, tw.u
    res = await fake.run_command(u.modo, "jeux", "ludibot config", fil=True)
    assert res.ephemeral and "fil à part" in res.content
    res = await fake.run_command(u.modo, "jeux", "ludibot config")
    assert "Un fil par partie**\u00a0: oui" in res.content
    lobby, thread, msg = await launch(fake, u, objectif=1000)  # no « fil »: the server's default
    assert thread.name.startswith(f"Ludix n°{game_of(lobby)} —")
    # « fil:False » still plays in the channel
    lobby2 = await open_lobby(fake, u, objectif=1000, fil=False)
    await fake.click(u.alice, lobby2, label="Lancer")
    gid2 = game_of(lobby2)
    await fake.wait_until(lambda: any(b.get("custom_id", "").startswith(f"ludibot:{gid2}:")
                                      for m in fake.messages("jeux") if m.id != lobby2.id for b in m.buttons),
                          timeout=20)
    assert read_game_row(tw.bot.db, gid2).thread_id is None and len(threads_of(fake)) == 1


async def test_a_publication_into_a_thread_someone_archived_unarchives_it(tw):
    fake, u = tw.fake, tw.u
    res = await fake.run_command(u.modo, "jeux", "ludibot config", jeu="ludix", rappel=1.0, delai=10.0, forfait=0)
    assert res.ephemeral
    lobby, thread, msg = await launch(fake, u, objectif=1000, fil=True)
    fake.archive_thread(thread)  # a moderator tidies the channel list
    # the reminder goes to the thread too (and unarchives it)
    tw.bot.advance(3600 + 5)
    await fake.wait_until(lambda: "Rappel" in (fake.messages(thread)[-1].content or ""), timeout=30)
    assert mentioned(fake.messages(thread)[-1]) == [u.alice.id] and not fake.channel(thread).archived
    fake.archive_thread(thread)
    before = len(fake.messages(thread))
    # the timeout plays for Alice: the publisher posts into the archived thread, which unarchives it
    tw.bot.advance(9 * 3600)
    await fake.wait_until(lambda: len(fake.messages(thread)) > before and newest_control(fake, thread) is not msg,
                          timeout=30)
    assert not fake.channel(thread).archived
    new = newest_control(fake, thread)
    assert "n'a pas joué à temps" in new.content and mentioned(new) == [u.bruno.id]
    # the old controls are taken off once the thread is open again (an edit there would be 50083)
    await fake.wait_until(lambda: msg.buttons == [], timeout=10)
    assert [m.id for m in fake.messages("jeux") if m.visible_to is None] == [lobby.id]
    assert read_game_row(tw.bot.db, game_of(lobby)).paused is None


async def killed_after_starting(tw, gid: int):
    """The bot is killed, having started game ``gid`` (committed) and published nothing: the start's
    outcome, made through the session service on the bot's database while the bot is down."""
    tw.bot.kill()
    await tw.fake.wait_disconnected(timeout=10)
    store = open_store(str(tw.bot.db))
    await store.open()
    try:
        return await SessionService(store).start(gid, Player(user_id=tw.u.alice.id, name="Alice", locale="fr",
                                                             guild_id=tw.fake.guild_id))
    finally:
        await store.close()


async def test_a_kill_between_the_thread_and_its_record_makes_no_second_thread(tw):
    fake, u = tw.fake, tw.u
    lobby = await open_lobby(fake, u, objectif=1000, fil=True)
    gid = game_of(lobby)
    # what the bot had done when it died: the game started, its thread created from the lobby
    # message, the thread's id not yet recorded, nothing published
    outcome = await killed_after_starting(tw, gid)
    assert outcome.game.thread_id is None and outcome.game.published_version < outcome.game.version
    thread = fake.create_thread("jeux", f"Ludix n°{gid} — Alice, Bruno", message=lobby)
    tw.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    # the publisher adopts that thread (Discord refuses a second one from the same message)
    await fake.wait_until(lambda: newest_control(fake, thread) is not None, timeout=30)
    assert len(threads_of(fake)) == 1 and read_game_row(tw.bot.db, gid).thread_id == thread.id
    msg = newest_control(fake, thread)
    assert mentioned(msg) == [u.alice.id]
    # a plain kill mid-game: the game goes on in the same thread after the restart
    by_id = {u.alice.id: u.alice, u.bruno.id: u.bruno}
    msg = await play_turn(fake, by_id, msg)
    version = read_game_row(tw.bot.db, gid).version
    tw.bot.kill()
    await fake.wait_disconnected(timeout=10)
    tw.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    assert read_game_row(tw.bot.db, gid).version == version  # nothing lost
    msg = await play_turn(fake, by_id, msg)
    assert msg.channel_id == thread.id and len(threads_of(fake)) == 1
    assert [m.id for m in fake.messages("jeux") if m.visible_to is None] == [lobby.id]


@pytest.mark.parametrize("config", [False, True])
async def test_start_is_refused_where_the_bot_may_not_create_threads(tw, config):
    fake, u = tw.fake, tw.u
    fake.deny_bot("jeux", "create_public_threads")
    if config:
        await fake.run_command(u.modo, "jeux", "ludibot config", fil=True)
        res = await fake.run_command(u.alice, "jeux", "ludix start")
    else:
        res = await fake.run_command(u.alice, "jeux", "ludix start", fil=True)
    assert res.ephemeral and "« Créer des fils publics »" in res.content, res.content
    store = open_store(str(tw.bot.db))
    await store.open()
    try:
        assert await store.games_with_status(("lobby", "running")) == []  # nothing was created
    finally:
        await store.close()
    # without a thread the game opens as usual
    res = await fake.run_command(u.alice, "jeux", "ludix start", fil=False)
    assert not res.ephemeral and res.message.button_labels[0] == "Rejoindre"
    assert threads_of(fake) == []


async def test_a_solo_game_starts_its_thread_from_its_first_answer(tw):
    fake, u = tw.fake, tw.u
    res = await fake.run_command(u.alice, "jeux", "ranta start", mode="classique", solo=True, fil=True)
    start = res.message
    assert not res.ephemeral and start.channel_id == fake.channel("jeux").id and start.buttons == []
    await fake.wait_until(lambda: start.id in fake.channels and newest_control(fake, start.id) is not None,
                          timeout=20)
    thread = fake.channel(start.id)
    msg = newest_control(fake, thread)
    assert mentioned(msg) == [u.alice.id] and msg.attachments
    gid = int(CID.match(msg.buttons[0]["custom_id"])[1])
    assert thread.name == f"Range ta Ludothèque n°{gid} — Alice"
    assert read_game_row(tw.bot.db, gid).thread_id == thread.id
    # a command typed in the channel finds the game played in the thread
    res = await fake.run_command(u.alice, "jeux", "ranta status")
    assert res.ephemeral and f"n°{gid}" in res.content
    assert [m.id for m in fake.messages("jeux") if m.visible_to is None] == [start.id]


async def test_a_game_whose_lobby_message_is_gone_adopts_the_thread_it_made_by_its_name(tw):
    fake, u = tw.fake, tw.u
    lobby = await open_lobby(fake, u, objectif=1000, fil=True)
    gid = game_of(lobby)
    await killed_after_starting(tw, gid)
    # someone deleted the lobby message; the bot had created the game's thread in the channel
    # before it died, without recording it
    fake._delete_message(lobby)  # (the bot is down: no gateway event to send)
    thread = fake.create_thread("jeux", f"Ludix n°{gid} — Alice, Bruno")
    fake.create_thread("jeux", f"Ludix n°{gid + 1} — Alice, Bruno")  # another game's: not this one
    tw.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    await fake.wait_until(lambda: newest_control(fake, thread) is not None, timeout=30)
    assert read_game_row(tw.bot.db, gid).thread_id == thread.id and len(threads_of(fake)) == 2


async def test_moves_typed_in_the_channel_or_the_thread_both_play_and_publish_in_the_thread(tw):
    fake, u = tw.fake, tw.u
    res = await fake.run_command(u.alice, "jeux", "armada start", plateau="9x9", fil=True)
    lobby = res.message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    await fake.wait_until(lambda: lobby.id in fake.channels and fake.messages(lobby.id), timeout=20)
    thread = fake.channel(lobby.id)
    before = len(fake.messages(thread))
    # typed in the channel: the move is played, its board goes to the thread, the player is told where
    (point, *_) = await fake.autocomplete(u.alice, "jeux", "armada placer", {"point": ""}, focused="point")
    res = await fake.run_command(u.alice, "jeux", "armada placer", point=point["value"])
    assert res.ephemeral and f"<#{thread.id}>" in res.content and "se joue dans son fil" in res.content
    await fake.wait_until(lambda: len(fake.messages(thread)) > before, timeout=10)
    assert mentioned(fake.messages(thread)[-1]) == [u.bruno.id]
    # typed in the thread: the answer is the public message there
    (point, *_) = await fake.autocomplete(u.bruno, thread, "armada placer", {"point": ""}, focused="point")
    res = await fake.run_command(u.bruno, thread, "armada placer", point=point["value"])
    assert not res.ephemeral and res.message.channel_id == thread.id and res.message.attachments
    assert mentioned(res.message) == [u.alice.id]
    assert [m.id for m in fake.messages("jeux") if m.visible_to is None] == [lobby.id]
    # cancelled from the thread: the thread ends with the game
    res = await fake.run_command(u.alice, thread, "armada cancel")
    assert not res.ephemeral and "annulée" in res.content and res.message.channel_id == thread.id
    await fake.wait_until(lambda: fake.channel(thread).archived, timeout=10)


async def test_start_is_refused_when_the_permission_went_away_after_the_lobby(tw):
    fake, u = tw.fake, tw.u
    lobby = await open_lobby(fake, u, objectif=1000, fil=True)
    fake.deny_bot("jeux", "create_public_threads")
    res = await fake.click(u.alice, lobby, label="Lancer")
    assert res.ephemeral and "« Créer des fils publics »" in res.content, res.content
    assert read_game_row(tw.bot.db, game_of(lobby)).status == "lobby" and threads_of(fake) == []
    fake.allow_bot("jeux")
    res = await fake.click(u.alice, lobby, label="Lancer")
    await fake.wait_until(lambda: lobby.id in fake.channels and newest_control(fake, lobby.id) is not None,
                          timeout=20)


def public_in(fake, channel) -> list:
    return [m for m in fake.messages(channel) if m.visible_to is None and not m.deleted]


async def armada_in_its_thread(fake, u):
    """An Armada game opened in #jeux with its own thread and started; returns (lobby, thread)."""
    res = await fake.run_command(u.alice, "jeux", "armada start", plateau="9x9", fil=True)
    lobby = res.message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    await fake.wait_until(lambda: lobby.id in fake.channels and newest_control(fake, lobby.id) is not None, timeout=20)
    return lobby, fake.channel(lobby.id)


async def test_a_start_whose_thread_waits_on_a_rate_limit_is_answered_in_time(tw):
    """Issue 36: no game lock across an HTTP call that may wait. Creating the game's thread is
    rate-limited (here it waits until the test lets it through): « Lancer » is still answered within
    Discord's 3 seconds (``click`` raises past them), the card says the game started; once the thread
    can be made, there is exactly one, the card points to it and the first turn is in it, once."""
    fake, u = tw.fake, tw.u
    lobby = await open_lobby(fake, u, objectif=1000, fil=True)
    fake.rate_limit.thread_limit, fake.rate_limit.thread_per = 0, 2.0  # no thread for now
    res = await fake.click(u.alice, lobby, label="Lancer")
    assert res.latency < 3.0 and not res.ephemeral and "La partie est lancée" in lobby.content
    assert threads_of(fake) == [] and lobby.buttons == []
    fake.rate_limit.thread_limit = 1  # the channel may make threads again: the bot's retry goes through
    await fake.wait_until(lambda: lobby.id in fake.channels and newest_control(fake, lobby.id) is not None, timeout=30)
    thread = fake.channel(lobby.id)
    await fake.wait_until(lambda: f"<#{thread.id}>" in lobby.content, timeout=10)
    (turn,) = public_in(fake, thread)
    assert mentioned(turn) == [u.alice.id] and turn.button_labels == ["Lancer les dés"]
    assert len(threads_of(fake)) == 1 and read_game_row(tw.bot.db, game_of(lobby)).thread_id == thread.id
    assert [m.id for m in public_in(fake, "jeux")] == [lobby.id]
    assert fake.errors == []


async def test_moves_typed_in_the_channel_are_answered_in_time_while_the_thread_waits_on_a_rate_limit(tw):
    """Issue 36: a move typed in the channel of a game played in its thread is published in the
    thread, whose posts are rate-limited (here none passes until the test lets them through): each
    move is still answered within Discord's 3 seconds (``run_command`` raises past them), telling where
    the game plays; once the thread may be posted in, both moves are there once, in order, and only the
    newest board keeps the controls."""
    fake, u = tw.fake, tw.u
    lobby, thread = await armada_in_its_thread(fake, u)
    before = len(public_in(fake, thread))
    fake.rate_limit_channel(thread, 0, 2.0)  # the thread's posts wait
    for user in (u.alice, u.bruno):
        (point, *_) = await fake.autocomplete(user, "jeux", "armada placer", {"point": ""}, focused="point")
        res = await fake.run_command(user, "jeux", "armada placer", point=point["value"])
        assert res.latency < 3.0 and res.ephemeral and f"<#{thread.id}>" in res.content, res.content
    assert len(public_in(fake, thread)) == before
    fake.rate_limit_channel(thread, 5, 5.0)
    await fake.wait_until(lambda: len(public_in(fake, thread)) > before
                          and mentioned(public_in(fake, thread)[-1]) == [u.alice.id], timeout=30)
    await fake.wait_until(lambda: sum(bool(m.buttons) for m in public_in(fake, thread)) == 1, timeout=20)
    told = "\n".join(m.content or "" for m in public_in(fake, thread)[before:])
    assert told.count("Alice pose") == 1 and told.count("Bruno   pose") == 1  # both moves, once, in order
    assert told.index("Alice pose") < told.index("Bruno   pose")
    posted = public_in(fake, thread)[before:]
    assert newest_control(fake, thread).id == posted[-1].id
    assert [m.id for m in public_in(fake, "jeux")] == [lobby.id]
    assert fake.errors == []


async def test_a_command_racing_the_end_is_answered_in_time_while_the_result_waits_on_a_rate_limit(tw):
    """Issue 36: a game ended in its thread posts its result in the channel, whose posts are
    rate-limited (here none passes until the test lets them through). Alice resigns in the thread;
    Bruno's « /armada undo » typed just after is answered within Discord's 3 seconds (``run_command``
    raises past them): refused, the game is over. Once the channel may be posted in, the result is
    there once, and the thread is archived."""
    fake, u = tw.fake, tw.u
    lobby, thread = await armada_in_its_thread(fake, u)
    res = await fake.run_command(u.alice, thread, "armada abandon")
    assert res.ephemeral and "Abandonner la partie" in res.content
    fake.rate_limit_channel("jeux", 0, 2.0)  # the channel's posts wait
    res = await fake.click(u.alice, res.message, label="Abandonner")
    assert res.latency < 3.0 and "Vous avez abandonné" in res.message.content

    def finals() -> list:
        return [m for m in public_in(fake, thread) if "Vainqueur\u00a0:   Bruno" in (m.content or "")]

    await fake.wait_until(lambda: finals(), timeout=10)
    res = await fake.run_command(u.bruno, thread, "armada undo")
    assert res.latency < 3.0 and res.ephemeral and "terminée" in res.content, res.content
    assert [m.id for m in public_in(fake, "jeux")] == [lobby.id]
    fake.rate_limit_channel("jeux", 5, 5.0)
    await fake.wait_until(lambda: len(public_in(fake, "jeux")) == 2 and fake.channel(thread).archived, timeout=30)
    result = public_in(fake, "jeux")[-1]
    assert "partie terminée" in result.content and result.button_labels == ["Revanche"]
    assert f"/{thread.id}/{finals()[0].id}" in result.content  # the link to the final message
    assert len(finals()) == 1 and not any(m.buttons for m in public_in(fake, thread))
    assert read_game_row(tw.bot.db, game_of(lobby)).status == "finished"
    assert fake.errors == []
