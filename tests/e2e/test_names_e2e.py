"""Nasty display names over a whole game of each kind (issue 13, part 2).

Alice is nicknamed ``<@Modo's id> **gras** @everyone`` with right-to-left and zero-width
characters, Bruno is a masked link, Chloé a heading with @here and role/channel mentions, Dave a
subtext line with code and strikethrough. Every message the bot sends during the game (lobby,
turns, narration, rankings, waiting lines, status, /parties, /profil, /historique) is checked: its
text shows the names literally and its ``allowed_mentions`` names exactly the users the bot
pinged itself; Modo is never pinged.
"""

from __future__ import annotations

import pytest
import pytest_asyncio

import engines
from bot.storage import FINISHED
from tests.e2e.closed_doors import Shown, check_sent, make_world
from tests.e2e.harness import mentioned, read_game_row, strict, wait_control

pytestmark = pytest.mark.e2e


@pytest_asyncio.fixture
async def world(tmp_path):
    async with strict(await make_world(tmp_path)) as w:
        yield w


async def community_views(w, game_id: int, kind: str, users) -> None:
    """The community commands that show names, after the game: /parties, /profil, /historique."""
    fake = w.fake
    await fake.run_command(users[0], "jeux", "parties")
    for user in users:
        res = await fake.run_command(users[0], "jeux", "profil", membre=user)
        assert not res.ephemeral
    res = await fake.run_command(users[0], "jeux", "historique", partie=game_id)
    assert res.ephemeral, res.content
    res = await fake.run_command(users[0], "jeux", f"{kind} status", partie=game_id)
    assert res.ephemeral


def finish(w, users, game_id: int | None = None) -> None:
    checked = check_sent(w.rec, [u.name for u in users], w.u.modo.id, {u.id for u in users})
    assert checked > 5
    assert w.fake.errors == []
    assert w.bot.tracebacks() == []


async def test_ludix_four_nasty_names(world):
    from tests.e2e.test_ludix_e2e import play_turn

    w, fake, u = world, world.fake, world.u
    players = [u.alice, u.bruno, u.chloe, u.dave]
    res = await fake.run_command(u.alice, "jeux", "ludix start", objectif=50)
    lobby = res.message
    for user in players[1:]:
        res = await fake.click(user, lobby, label="Rejoindre")
        assert res.response_type == 7
    await fake.click(u.alice, lobby, label="Lancer")
    game_id = int(lobby.revisions[0].buttons[0]["custom_id"].split(":")[1])
    msg = await wait_control(fake)
    by_id = {p.id: p for p in players}
    for _ in range(300):
        if "Fin de la partie" in (msg.content or ""):
            break
        msg = await play_turn(fake, by_id, msg)
    else:
        pytest.fail("the game did not end")
    await community_views(w, game_id, "ludix", players)
    finish(w, players)


async def test_tectonic_against_the_bot(world):
    from tests.e2e.tectonic_driver import Reader, answered, board_messages, game_id_of, step

    w, fake, u = world, world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "tectonic start", adversaire="bot", niveau=1, until=answered)
    (first,) = board_messages(res)
    game_id = game_id_of(first)
    async with Reader(w.bot.db) as reader:
        for _ in range(400):  # a game against the level-1 bot may last long (its seed is random)
            game, state = await reader.state(game_id)
            if game.status == FINISHED:
                break
            await step(fake, reader, game_id, {0: u.alice})
        else:
            pytest.fail("the game did not end")
    await community_views(w, game_id, "tectonic", [u.alice])
    finish(w, [u.alice])


async def test_armada_two_nasty_names(world):
    from tests.e2e.armada_driver import Reader, step

    w, fake, u = world, world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "armada start", plateau="9x9")
    lobby = res.message
    game_id = int(lobby.buttons[0]["custom_id"].split(":")[1])
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer",
                     until=lambda r: any(m.visible_to is None and m.attachments for m in r.created))
    async with Reader(w.bot.db) as reader:
        for _ in range(400):
            game, state = await reader.state(game_id)
            if game.status == FINISHED:
                break
            await step(fake, reader, game_id, {0: u.alice, 1: u.bruno}, level=2)
        else:
            pytest.fail("the game did not end")
    await community_views(w, game_id, "armada", [u.alice, u.bruno])
    finish(w, [u.alice, u.bruno])


async def test_lutinades_against_three_ais(world):
    from engines.lutinades import ENGINE
    from tests.e2e.harness import followed, last_control
    from tests.e2e.test_lutinades_e2e import game_id_of, gesture_label, open_table, published, read_game

    w, fake, u = world, world.fake, world.u
    msg = await open_table(w, "en-grand", (), ia=3, niveau=2)
    game_id = game_id_of(msg)
    for _ in range(200):
        state, status = read_game(w, game_id)
        if status != "running":
            break
        if 0 not in ENGINE.expected(state):
            pytest.fail(f"Alice is not expected: {state.phase}")
        action = ENGINE.ai_action(state, 0, 1)  # Alice plays as the AI would, through the buttons
        msg = last_control(fake)
        if action["type"] == "gesture":
            label = gesture_label(action["gesture"], action["side"], state.variant)
            await fake.click(u.alice, msg, label=label, until=published)
        else:
            label = next(x for x in msg.button_labels if x.startswith(f"Suivre Bot {action['lutin']} ("))
            res = await fake.click(u.alice, msg, label=label)
            assert not res.ephemeral, res.content
            # the reveal (the next turn's card) follows the click's own answer (buttons off): waited for,
            # so that the next gesture is made on it
            await followed(fake, res, msg)
    else:
        pytest.fail("the game did not end")
    assert status == "finished"
    await community_views(w, game_id, "lutinades", [u.alice])
    finish(w, [u.alice])


async def test_limit_solo(world):
    from tests.e2e.test_limit_e2e import NEXUS_ORDER, typed

    w, fake, u = world, world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "limit start", plateau="nexus", variante="standard", solo=True)
    assert mentioned(res.message) == [u.alice.id]
    game_id = int(res.message.buttons[0]["custom_id"].split(":")[1])
    used: list[str] = []
    for _ in range(44):
        position = next(p for p in NEXUS_ORDER if p not in used)
        await typed(fake, u.alice, position)
        used.append(position)
    await community_views(w, game_id, "limit", [u.alice])
    finish(w, [u.alice])


async def test_ranta_two_players(world):
    from tests.e2e.test_ranta_e2e import place_box_by_command

    w, fake, u = world, world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "ranta start", mode="classique")
    lobby = res.message
    game_id = int(lobby.buttons[0]["custom_id"].split(":")[1])
    await fake.click(u.chloe, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer",
                     until=lambda r: any(m.visible_to is None and m.attachments for m in r.created))
    engine = engines.get("ranta")
    for _ in range(12):
        for user in (u.alice, u.chloe):
            row = read_game_row(w.bot.db, game_id)
            if row.status != "running":
                break  # full kallaxes pass their last rounds by themselves: the game may end early
            if row.seat_of(user.id) in engine.expected(engine.from_dict(row.state)):
                await place_box_by_command(fake, Shown(user))
    await community_views(w, game_id, "ranta", [u.alice, u.chloe])
    finish(w, [u.alice, u.chloe])


async def test_ludime_against_two_ais(world):
    from tests.e2e.ludime_driver import LudimeTable
    from tests.e2e.test_ludime_e2e import MAX_MOVES

    w, u = world, world.u
    table = LudimeTable(w, [u.alice], ai=2)
    await table.open("main")
    try:
        for _ in range(MAX_MOVES):
            _, game = await table.state()
            if game.status != "running":
                break
            await table.step()
        else:
            pytest.fail("the game did not end")
        assert game.status == FINISHED
    finally:
        await table.close()
    await community_views(w, table.game_id, "ludime", [u.alice])
    finish(w, [u.alice])
