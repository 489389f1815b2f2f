""""Mes parties" end to end (issue 15, part 6): ``/parties`` puts first the games where it is the caller's
turn, across the server's channels, with links, and never shows another server's games; ``/profil`` shows
the share of games seen through and the median time per move."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
import pytest_asyncio

from fakediscord import FakeDiscord
from tests.e2e.harness import followed, mentioned, read_game_row, start_bot, strict, wait_control

pytestmark = pytest.mark.e2e


@pytest_asyncio.fixture
async def world(tmp_path, bot_db):
    """Two servers: Ludothèque (channels jeux, autre) and Club (channel salon); Alice and Bruno are in both.
    Commands are global (no dev server), as they must be to answer in two servers."""
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux", "autre"], settle=0.12, timeout=20)
    club = fake.add_guild("Club", channels=["salon"])
    users = SimpleNamespace(alice=fake.add_user("Alice", locale="fr", guilds=[None, club]),
                            bruno=fake.add_user("Bruno", locale="fr", guilds=[None, club]))
    await fake.start()
    bot = await start_bot(fake, tmp_path, extra_env={"LUDIBOT_DEV_GUILD": ""}, db=bot_db)
    async with strict(SimpleNamespace(fake=fake, bot=bot, u=users, club=club)) as w:
        yield w


def game_id_of(msg) -> int:
    return int(msg.buttons[0]["custom_id"].split(":")[1])


async def launch(fake, creator, joiner, channel):
    """A two-player Ludix game in ``channel``: the creator plays first. Returns its first control message
    (newer than its lobby: not another game's message, such as a final one with its Revanche button)."""
    lobby = (await fake.run_command(creator, channel, "ludix start", objectif=50)).message
    await fake.click(joiner, lobby, label="Rejoindre")
    await fake.click(creator, lobby, label="Lancer")
    msg = await wait_control(fake, channel, newer_than=lobby)
    assert mentioned(msg) == [creator.id]
    return msg


async def play_to_the_end(fake, users_by_id, msg):
    for _ in range(200):
        if "Fin de la partie" in (msg.content or ""):
            return msg
        (uid,) = mentioned(msg)
        user = users_by_id[uid]
        # each click takes its card's buttons off first; the next card follows, under load after the settle time
        msg = await followed(fake, await fake.click(user, msg, label="Lancer les dés"), msg)
        if "Stop (marquer)" in msg.button_labels and mentioned(msg) == [uid]:
            msg = await followed(fake, await fake.click(user, msg, label="Stop (marquer)"), msg)
    pytest.fail("the game did not end")


def has_game(text: str, game_id: int) -> bool:
    return re.search(rf"n°{game_id}\b", text) is not None


async def test_my_games_across_channels_first_with_links_never_another_server(world):
    fake, u, club = world.fake, world.u, world.club
    jeux, autre, salon = fake.channel("jeux"), fake.channel("autre"), fake.channel("salon", guild=club)

    # a finished game (moves to time), then Alice's turn in jeux and in autre, Bruno's turn in autre,
    # and Alice's turn in the other server
    first = await launch(fake, u.bruno, u.alice, "jeux")  # Bruno starts: Alice's first roll is timed from his
    finished = game_id_of(first)
    await play_to_the_end(fake, {u.alice.id: u.alice, u.bruno.id: u.bruno}, first)
    in_jeux = await launch(fake, u.alice, u.bruno, "jeux")
    in_autre = await launch(fake, u.alice, u.bruno, "autre")
    bruno_turn = await launch(fake, u.bruno, u.alice, "autre")
    elsewhere = await launch(fake, u.alice, u.bruno, salon)
    mine = [game_id_of(in_jeux), game_id_of(in_autre)]
    other, foreign = game_id_of(bruno_turn), game_id_of(elsewhere)
    # /parties links to a game's message once the bot has recorded it (just after posting it)
    for msg in (in_jeux, in_autre, bruno_turn, elsewhere):
        await fake.wait_until(lambda m=msg: read_game_row(world.bot.db, game_id_of(m)).control_message_id == m.id,
                              timeout=10, what=f"message {msg.id} recorded as its game's")

    res = await fake.run_command(u.alice, "autre", "parties")
    text = res.content
    assert res.ephemeral and len(text) <= 2000
    assert "**À vous de jouer** (2)" in text and "**Autres parties en cours sur ce serveur** (1)" in text
    for gid, msg, channel in ((mine[0], in_jeux, jeux), (mine[1], in_autre, autre)):
        line = next(line for line in text.splitlines() if has_game(line, gid))
        assert f"<#{channel.id}>" in line and "à vous, tour commencé <t:" in line
        assert f"https://discord.com/channels/{jeux.guild_id}/{channel.id}/{msg.id}" in line  # the game's message
    mine_at = max(text.index(f"n°{gid} ") for gid in mine)
    assert text.index("Autres parties") > mine_at
    other_line = next(line for line in text.splitlines() if has_game(line, other))
    assert "au tour de Bruno" in other_line and f"/{bruno_turn.id}>" in other_line
    assert not has_game(text, foreign) and not has_game(text, finished)  # another server's; an ended one

    # Bruno: none of his turn in this server except his own game; in the other server, only that server's
    res = await fake.run_command(u.bruno, "jeux", "parties")
    assert "**À vous de jouer** (1)" in res.content and "**Autres parties en cours sur ce serveur** (2)" in res.content
    res = await fake.run_command(u.alice, salon, "parties")
    assert "**À vous de jouer** (1)" in res.content and has_game(res.content, foreign)
    assert not any(has_game(res.content, gid) for gid in (*mine, other)) and "Autres parties" not in res.content
    assert f"/{salon.guild_id}/{salon.id}/{elsewhere.id}" in res.content

    # a crash and a restart: the same list, the same links, nothing lost
    world.bot.kill()
    await fake.wait_disconnected(timeout=10)
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    await fake.wait_idle(quiet=1.0)
    res = await fake.run_command(u.alice, "autre", "parties")
    assert res.content == text

    # /profil: one game seen through, then one cancelled (1 of 2); the median time per move of Alice's moves
    res = await fake.run_command(u.alice, "jeux", "profil")
    assert "Parties menées à terme\u00a0: **100\u202f%** (1 sur 1\u202f; 0 annulée, 0 par forfait)" in res.content
    assert re.search(r"Temps médian par coup\u00a0: \*\*\d+ secondes?\*\* \(sur \d+ coups?\)", res.content)
    res = await fake.run_command(u.bruno, "autre", "ludix cancel", partie=other)
    assert not res.ephemeral
    res = await fake.run_command(u.bruno, "jeux", "profil", membre=u.alice)
    assert "Parties menées à terme\u00a0: **50\u202f%** (1 sur 2\u202f; 1 annulée, 0 par forfait)" in res.content
    res = await fake.run_command(u.alice, salon, "profil")  # the other server: no ended game, moves not timed
    assert "Parties menées à terme" not in res.content and "Temps médian" not in res.content
    assert fake.errors == []
    assert world.bot.tracebacks() == []
