"""Taking a move back (issue 26), end to end: the real bot, the strict fake Discord.

In one world, for Ludime, Range ta Ludothèque, Take it to the Limit, Tectonic and L'Invincible
Armada: the last move taken back restores the stored state exactly as it was before it (with the
other player's consent, or at once within one's own turn), the game goes on from there, and each
game's revealing moves (a card drawn, a round closed with its next tile or dice, the end of the
game) are refused with their reason. In another: an acceptance racing the next player's move (one
of them wins), a SIGKILL while a request is open (the request survives, is applied once), and the
takeback in /historique and its JSON export.
"""

from __future__ import annotations

import asyncio
import json

import pytest
import pytest_asyncio

import engines
from bot.takeback import open_request as takeback_open
from tests.e2e import armada_driver, tectonic_driver
from tests.e2e.harness import LONG_DRAWING, StateReader, assert_card, usual_world
from tests.e2e.ludime_driver import LudimeTable
from tests.e2e.test_limit_e2e import by_autocomplete
from tests.e2e.test_ranta_e2e import place_box_by_command

pytestmark = pytest.mark.e2e

ENV = {"LUDIBOT_SCHEDULER_POLL": "0.2", "LUDIBOT_PUBLISH_POLL": "0.3"}


@pytest_asyncio.fixture
async def world(tmp_path, bot_db):
    async with usual_world(tmp_path, bot_db, env=ENV) as w:
        yield w


async def stored(world, kind: str, game_id: int):
    """The game as stored, and its log."""
    async with StateReader(world.bot.db, engines.get(kind)) as r:
        game = await r.game(game_id)
        return game, await r.store.events(game_id)


async def start_two(world, command: str, **options) -> int:
    """Alice opens, Bruno joins, Alice starts: the game's id."""
    fake, u = world.fake, world.u
    lobby = (await fake.run_command(u.alice, "jeux", command, **options)).message
    game_id = int(lobby.buttons[0]["custom_id"].split(":")[1])
    await fake.click(u.bruno, lobby, label="Rejoindre")
    res = await fake.click(u.alice, lobby, label="Lancer",
                           until=lambda r: any(m.visible_to is None and m.attachments for m in r.messages))
    assert not res.ephemeral, res.content
    return game_id


def public_text(res) -> str:
    return "\n".join(m.content or "" for m in res.public_messages)


def undo_vote_id(msg, choice: str) -> str:
    return next(b["custom_id"] for b in msg.buttons if b["custom_id"].split(":")[2] == "takeback_vote"
                and b["custom_id"].endswith(f"-{choice}"))


async def ask(world, user, kind: str):
    def answered(r) -> bool:  # a refusal, or the answer and the table's message that follows it
        return r.ephemeral and (bool(r.public_messages) or not any(x in r.content for x in ("Demande envoyée", "Coup repris")))

    return await world.fake.run_command(user, "jeux", f"{kind} annuler-coup", until=answered)


async def take_back_with_consent(world, kind: str, game_id: int, asker, answerer, before_state):
    """``asker`` asks, ``answerer`` accepts: the stored state is the one before the move."""
    fake = world.fake
    res = await ask(world, asker, kind)
    assert res.ephemeral and "Demande envoyée aux autres joueurs" in res.content, res.content
    assert_card(next(m for m in res.messages if m.ephemeral and "Demande envoyée" in m.content))  # issue 36
    request = next(m for m in res.public_messages if "demande à reprendre son dernier coup" in (m.content or ""))
    assert answerer.name in request.content and "<t:" in request.content
    assert f"🔔 <@{answerer.id}>" in request.content and f"<@{asker.id}>" not in request.content  # called
    labels = request.button_labels
    assert any(lb.startswith("Accepter") for lb in labels) and any(lb.startswith("Refuser") for lb in labels)
    # the asker does not answer their own request; nothing changes
    own = await fake.click(asker, request, custom_id=undo_vote_id(request, "accept"))
    assert own.ephemeral and "propre demande" in own.content
    done = await fake.click(answerer, request, custom_id=undo_vote_id(request, "accept"),
                            until=lambda r: bool(r.public_messages))
    assert_card(next(m for m in done.messages if m.ephemeral and "Vous acceptez la reprise" in m.content))
    assert f"{asker.name} a repris son coup, accepté par {answerer.name}" in public_text(done), public_text(done)
    game, rows = await stored(world, kind, game_id)
    assert game.state == before_state
    assert rows[-1].action["type"] == "takeback" and rows[-2].action["type"] == "takeback_asked"
    return game


async def refused_with(world, user, kind: str, game_id: int, reason: str) -> None:
    before, _ = await stored(world, kind, game_id)
    res = await ask(world, user, kind)
    assert res.ephemeral and reason in res.content, res.content
    assert res.public_messages == []
    after, _ = await stored(world, kind, game_id)
    assert (after.version, after.state) == (before.version, before.state)


def expected_user(world, kind: str, game) -> tuple[int, object]:
    (seat,) = sorted(engines.get(kind).expected(engines.get(kind).from_dict(game.state)))
    return seat, (world.u.alice if game.seats[seat].user_id == world.u.alice.id else world.u.bruno)


async def test_five_games_take_their_last_move_back_and_refuse_after_what_they_reveal(world):
    fake, u = world.fake, world.u

    # --- Tectonic: open information; the move comes back with Bruno's consent, the game goes on
    gid = await start_two(world, "tectonic start")
    game, _ = await stored(world, "tectonic", gid)
    seat, mover = expected_user(world, "tectonic", game)
    other = u.bruno if mover is u.alice else u.alice
    engine = engines.get("tectonic")
    action = engine.legal_actions(engine.from_dict(game.state), seat)[0]
    await tectonic_driver.send_move(fake, mover, action, with_flip=True)
    moved, _ = await stored(world, "tectonic", gid)
    assert moved.state != game.state
    # only one's own last move: the other player has none to take back
    res = await ask(world, other, "tectonic")
    assert res.ephemeral and "aucun coup à reprendre" in res.content, res.content
    back = await take_back_with_consent(world, "tectonic", gid, mover, other, game.state)
    res, *_ = await tectonic_driver.send_move(fake, mover, action, with_flip=True)  # the game goes on
    again, _ = await stored(world, "tectonic", gid)
    assert again.version > back.version and again.state == moved.state
    # the end of the game is never taken back
    res = await fake.run_command(other, "jeux", "tectonic abandon")
    await fake.click(other, res.message, label="Abandonner",
                     until=lambda r: bool(r.public_messages))
    await refused_with(world, other, "tectonic", gid, "est terminée")

    # --- L'Invincible Armada: a quiet move back with consent; the game goes on
    gid = await start_two(world, "armada start", plateau="9x9")
    game, _ = await stored(world, "armada", gid)
    seat, mover = expected_user(world, "armada", game)
    other = u.bruno if mover is u.alice else u.alice
    action = armada_driver.quiet(armada_driver.ENGINE.from_dict(game.state), seat)
    await armada_driver.send_action(fake, mover, action)
    moved, _ = await stored(world, "armada", gid)
    assert moved.state != game.state
    # refused first: the move stands, the table is told who refused
    res = await ask(world, mover, "armada")
    request = next(m for m in res.public_messages if "demande à reprendre" in (m.content or ""))
    no = await fake.click(other, request, custom_id=undo_vote_id(request, "refuse"),
                          until=lambda r: bool(r.public_messages))
    assert f"est refusée par {other.name}" in public_text(no), public_text(no)
    assert (await stored(world, "armada", gid))[0].state == moved.state
    await take_back_with_consent(world, "armada", gid, mover, other, game.state)
    await armada_driver.send_action(fake, mover, action)
    again, _ = await stored(world, "armada", gid)
    assert again.state == moved.state
    # the end of the game (a round scored, a resignation) is never taken back
    res = await fake.run_command(other, "jeux", "armada abandon")
    await fake.click(other, res.message, label="Abandonner", until=lambda r: bool(r.public_messages))
    await refused_with(world, other, "armada", gid, "est terminée")

    # --- Range ta Ludothèque: a placement while the other still places comes back; the one that
    # closes the round (placements revealed, dice rolled) does not
    gid = await start_two(world, "ranta start", mode="classique")
    game, _ = await stored(world, "ranta", gid)
    await place_box_by_command(fake, u.alice)
    await take_back_with_consent(world, "ranta", gid, u.alice, u.bruno, game.state)
    await place_box_by_command(fake, u.alice)
    await place_box_by_command(fake, u.bruno)
    await refused_with(world, u.bruno, "ranta", gid, "la manche est close")
    res = await ask(world, u.alice, "ranta")  # Bruno played after her
    assert res.ephemeral and "Un autre joueur a joué depuis" in res.content, res.content

    # --- Take it to the Limit: the same, the closing placement turns the next tile up
    gid = await start_two(world, "limit start", plateau="nexus", variante="standard")
    game, _ = await stored(world, "limit", gid)
    await by_autocomplete(fake, u.bruno)
    await take_back_with_consent(world, "limit", gid, u.bruno, u.alice, game.state)
    await by_autocomplete(fake, u.bruno)
    await by_autocomplete(fake, u.alice)
    await refused_with(world, u.alice, "limit", gid, "la manche est close")

    # --- Ludime: a card drawn from the pile never comes back; taking the discard is a step of the
    # turn, taken back at once (no one is asked)
    table = LudimeTable(world, [u.alice, u.bruno])
    await table.open()
    try:
        for _ in range(2):  # a first turn each: draw from the pile (refused), discard
            state, game = await table.state()
            user = table.players[state.current]
            await table.send(state.current, {"type": "draw", "source": "pile"})
            await refused_with(world, user, "ludime", table.game_id, "une carte a été piochée")
            state, _ = await table.state()
            await table.send(state.current, {"type": "discard", "letter": state.hands[state.current][0]})
        state, game = await table.state()
        user = table.players[state.current]
        took_res = await table.send(state.current, {"type": "draw", "source": "discard"})
        took, _ = await stored(world, "ludime", table.game_id)
        assert took.state != game.state
        # « Reprendre mon coup » on the player's private hand, sent with the move
        hand = next(m for m in took_res.messages if m.ephemeral and "Reprendre mon coup" in m.button_labels)
        res = await fake.click(user, hand, label="Reprendre mon coup",
                               until=lambda r: r.ephemeral and bool(r.public_messages))
        assert "Coup repris" in res.content, res.content
        assert_card(next(m for m in res.messages if m.ephemeral and "Coup repris" in m.content))
        assert f"{user.name} a repris sa dernière action" in public_text(res)
        back, rows = await stored(world, "ludime", table.game_id)
        assert back.state == game.state and rows[-1].action["mode"] == "turn"
        await table.send(state.current, {"type": "draw", "source": "pile"})  # the game goes on
        assert (await stored(world, "ludime", table.game_id))[0].version == back.version + 1
    finally:
        await table.close()
    assert world.bot.tracebacks() == []


async def tectonic_pair(world):
    """A Tectonic game between Alice and Bruno, with one move made: (id, state before it, mover, other)."""
    fake, u = world.fake, world.u
    gid = await start_two(world, "tectonic start")
    game, _ = await stored(world, "tectonic", gid)
    seat, mover = expected_user(world, "tectonic", game)
    engine = engines.get("tectonic")
    await tectonic_driver.send_move(fake, mover, engine.legal_actions(engine.from_dict(game.state), seat)[0],
                                    with_flip=True)
    return gid, game.state, mover, (u.bruno if mover is u.alice else u.alice)


async def test_a_takeback_races_the_next_move_survives_a_kill_and_shows_in_the_history(world):
    fake, u = world.fake, world.u
    engine = engines.get("tectonic")

    # --- the other player accepts at the very moment they play their own move: exactly one of the
    # two wins (a few times: either may come first)
    winners = []
    for attempt in range(3):
        gid, before, mover, other = await tectonic_pair(world)
        res = await ask(world, mover, "tectonic")
        request = next(m for m in res.public_messages if "demande à reprendre" in (m.content or ""))
        game, _ = await stored(world, "tectonic", gid)
        seat = 1 - game.seat_of(mover.id)
        move = engine.legal_actions(engine.from_dict(game.state), seat)[0]
        clicks = [fake.click(other, request, custom_id=undo_vote_id(request, "accept"),
                             until=lambda r: r.ephemeral or bool(r.public_messages)),
                  tectonic_driver.send_move(fake, other, move, with_flip=True)]
        if attempt % 2:
            clicks.reverse()
        results = await asyncio.gather(*clicks)
        accepted, (played, *_) = results if attempt % 2 == 0 else results[::-1]
        game, rows = await stored(world, "tectonic", gid)
        kinds = [r.action["type"] for r in rows]
        assert kinds.count("takeback") + kinds[kinds.index("takeback_asked"):].count("move") == 1, kinds
        if kinds[-1] == "takeback":  # the move was refused: it is not the player's turn any more
            assert game.state == before and played.ephemeral, played.content
        else:  # the move cancelled the request: the acceptance comes too late
            assert kinds[-1] == "move" and accepted.ephemeral and "close" in accepted.content, accepted.content
        winners.append(kinds[-1])
        await fake.run_command(u.alice, "jeux", "tectonic cancel")
    print("race winners:", winners)

    # --- a SIGKILL while a request is open: it is still there after the restart, applied once
    gid, before, mover, other = await tectonic_pair(world)
    # from another channel, the game is not reachable
    res = await fake.run_command(mover, "autre", "tectonic annuler-coup", partie=gid)
    assert res.ephemeral and "se joue dans" in res.content, res.content
    res = await ask(world, mover, "tectonic")
    request = next(m for m in res.public_messages if "demande à reprendre" in (m.content or ""))
    asked, _ = await stored(world, "tectonic", gid)
    world.bot.kill()
    await fake.wait_disconnected(timeout=10)
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    still, _ = await stored(world, "tectonic", gid)
    assert still.version == asked.version and still.settings["takeback"]["epoch"] == still.version
    # the button posted before the kill still works
    done = await fake.click(other, request, custom_id=undo_vote_id(request, "accept"),
                            until=lambda r: bool(r.public_messages))
    assert "a repris son coup" in public_text(done)
    again = await fake.click(other, request, custom_id=undo_vote_id(request, "accept"))
    assert again.ephemeral and ("close" in again.content or "plus à jour" in again.content), again.content
    # its expiry (the pace's reminder delay: 12 h) passes, the bot restarts again: nothing is
    # applied a second time
    world.bot.kill()
    await fake.wait_disconnected(timeout=10)
    world.bot.advance(13 * 3600)
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    await asyncio.sleep(1.5)  # several polls of the scheduler
    game, rows = await stored(world, "tectonic", gid)
    assert game.state == before and [r.action["type"] for r in rows].count("takeback") == 1
    assert rows[-1].action["type"] == "takeback"

    # --- the server forbids takebacks (/ludibot config): refused as such
    res = await fake.run_command(u.modo, "jeux", "ludibot config", reprises=False)
    assert res.ephemeral and "Reprises de coups\u00a0: interdites." in res.content, res.content
    game, _ = await stored(world, "tectonic", gid)
    await tectonic_driver.send_move(fake, mover, engine.legal_actions(engine.from_dict(game.state),
                                                                      game.seat_of(mover.id))[0], with_flip=True)
    await refused_with(world, mover, "tectonic", gid, "ne sont pas permises")
    res = await fake.run_command(u.alice, "jeux", "ludibot config", reprises=True)  # only who manages the server
    assert res.ephemeral and "Reprises" not in res.content, res.content
    res = await fake.run_command(u.modo, "jeux", "ludibot config", reprises=True, reprises_max=2)
    assert "permises, 2 au plus par joueur et par partie" in res.content, res.content

    # --- a request open at a SIGKILL whose time runs out while the bot is down: cleanly expired once
    # after the restart (the move stands), never applied
    res = await ask(world, mover, "tectonic")
    assert "Demande envoyée" in res.content, res.content
    world.bot.kill()
    await fake.wait_disconnected(timeout=10)
    world.bot.advance(13 * 3600)
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    await fake.wait_for_message(lambda m: m.visible_to is None and "a expiré\u00a0: le coup est maintenu" in (m.content or ""),
                                timeout=20)
    game, rows = await stored(world, "tectonic", gid)
    kinds = [r.action["type"] for r in rows]
    assert kinds[-1] == "takeback_expired" and kinds.count("takeback_expired") == 1 and kinds.count("takeback") == 1
    assert takeback_open(game) is None

    # --- the history and its JSON export tell it
    res = await fake.run_command(other, "jeux", "tectonic abandon")
    await fake.click(other, res.message, label="Abandonner",
                     until=lambda r: bool(r.public_messages))
    res = await fake.run_command(u.chloe, "jeux", "historique", partie=gid)
    # the viewer comes first, then the journal (inline or as a text file): the takeback is in the journal
    # (the journal follows the viewer once its animation is drawn, in the bot's low-priority worker)
    await fake.wait_until(lambda: len([m for m in res.messages if m.ephemeral]) >= 2, timeout=LONG_DRAWING)
    journal = "\n".join([m.content or "" for m in res.messages if m.ephemeral]
                        + [a.bytes.decode() for m in res.messages if m.ephemeral for a in m.attachments
                           if a.filename.endswith(".txt")])
    assert res.ephemeral and f"{mover.name} a repris son coup, accepté par {other.name}" in journal, journal
    assert "demande à reprendre son dernier coup" in journal
    res = await fake.run_command(u.chloe, "jeux", "historique", partie=gid, format="json")
    doc = json.loads(res.attachments[0].bytes)
    kinds = [r["action"]["type"] for r in doc["log"]]
    assert kinds[:3] == ["move", "takeback_asked", "takeback"], kinds
    taken = doc["log"][2]
    assert taken["action"]["to"] == doc["log"][0]["version"] - 1 and taken["events"][0]["type"] == "takeback"
    assert world.bot.tracebacks() == []
