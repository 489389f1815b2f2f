"""A stalled player, end to end (issue 15, part 3): the real bot on a clock the test moves.

Ludix with three human players: Alice does not play; 48 h later (the default timeout) the others
get a vote instead of the default move. Each outcome — wait, the AI plays for Alice until she takes
her seat back, Alice removed (the game goes on; with two players left, the timeout path is back) —,
the refusals of the players who may not vote, and a kill in the middle of a vote.
"""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio

from cogs.lutinades.cog import own_gesture_text
from tests.e2e.harness import followed, last_control, mentioned, usual_world, wait_control

pytestmark = pytest.mark.e2e

TIMEOUT = 48 * 3600  # the default timeout; the vote lasts as long


@pytest_asyncio.fixture
async def world(tmp_path, bot_db):
    env = {"LUDIBOT_SCHEDULER_POLL": "0.2", "LUDIBOT_PUBLISH_POLL": "0.3"}
    async with usual_world(tmp_path, bot_db, env=env) as w:
        yield w


def public(msg) -> bool:
    return msg.visible_to is None and bool(msg.content)


def is_vote(msg) -> bool:
    return public(msg) and "🗳️" in msg.content and "n'a pas joué à temps" in msg.content


def decisions(fake) -> list:
    return [m for m in fake.messages("jeux") if public(m) and "Les joueurs ont décidé" in m.content]


async def three_player_ludix(world):
    fake, u = world.fake, world.u
    lobby = (await fake.run_command(u.alice, "jeux", "ludix start", objectif=300)).message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.chloe, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    first = await wait_control(fake)
    assert mentioned(first) == [u.alice.id]
    return first


async def alice_stalls(world):
    """48 h without a move from Alice: the vote message (not the default move)."""
    before = {m.id for m in world.fake.messages("jeux")}
    world.bot.advance(TIMEOUT + 5)
    vote = await world.fake.wait_for_message(lambda m: is_vote(m) and m.buttons and m.id not in before, timeout=20)
    assert "Alice" in vote.content and "<t:" in vote.content
    assert "coup par défaut" not in vote.content
    return vote


def labels(msg) -> list[str]:
    return [b.get("label") for b in msg.buttons]


def verb_id(msg, verb: str, arg_end: str = "") -> str | None:
    """The custom id of the message's button for ``verb`` (``ludibot:<game>:<verb>:...``)."""
    for b in msg.buttons:
        parts = b["custom_id"].split(":")
        if parts[2] == verb and b["custom_id"].endswith(arg_end):
            return b["custom_id"]
    return None


async def vote(fake, user, msg, choice: str):
    """A ballot; answered privately in the end (a refusal, or « Votre vote est enregistré » after the
    counts' edit or the decision's publication, which come first: waited for)."""
    return await fake.click(user, msg, custom_id=verb_id(msg, "vote", f"-{choice}"),
                            until=lambda r: bool(r.ephemeral_messages))


async def turn_card(fake, user):
    """The turn card that calls ``user``: waited for (the previous player's last click is answered
    before the next card is published, so the newest card may still be the previous turn's)."""
    await fake.wait_until(lambda: (c := last_control(fake)) is not None and mentioned(c) == [user.id], timeout=20,
                          what=f"the turn card calling {user.name}")
    return last_control(fake)


async def play_turn(fake, user):
    """Roll once, and bank it if the roll did not bust. Each click takes its card's buttons off first
    and the next card follows (under load, after the fake's settle time): waited for."""
    ctrl = await wait_control(fake)
    res = await fake.click(user, ctrl, custom_id=verb_id(ctrl, "roll"))
    assert not res.ephemeral, res.content
    msg = await followed(fake, res, ctrl)
    if verb_id(msg, "stop"):
        res = await fake.click(user, msg, custom_id=verb_id(msg, "stop"))
        assert not res.ephemeral, res.content
        await followed(fake, res, msg)


async def test_only_the_other_players_vote_a_vote_changes_and_wait_gives_a_new_timeout(world):
    fake, u = world.fake, world.u
    await three_player_ludix(world)
    vote_msg = await alice_stalls(world)
    assert "Attendre Alice (0)" in labels(vote_msg) and "Bot pour Alice (0)" in labels(vote_msg)
    assert "Retirer Alice (0)" in labels(vote_msg)

    # refusals: ephemeral, precise, in the voter's language; nothing counted
    res = await vote(fake, u.dave, vote_msg, "remove")
    assert res.ephemeral and "Only the other players of game" in res.content
    res = await vote(fake, u.alice, vote_msg, "wait")
    assert res.ephemeral and "propre place" in res.content

    # Bruno votes, then changes his mind: one ballot, the message counts it
    res = await vote(fake, u.bruno, vote_msg, "remove")
    assert any(m.ephemeral and "Votre vote est enregistré\u00a0: retirer" in m.content for m in res.messages)
    await fake.wait_until(lambda: "Retirer Alice (1)" in labels(vote_msg), timeout=20)
    await vote(fake, u.bruno, vote_msg, "wait")
    await fake.wait_until(lambda: "Attendre Alice (1)" in labels(vote_msg) and "Retirer Alice (0)" in labels(vote_msg),
                          timeout=20)
    assert decisions(fake) == []  # one of two voters is not a majority

    # the vote's deadline: 1-0-0 for waiting; Alice is called again, with a new timeout of 48 h
    world.bot.advance(TIMEOUT + 5)
    await fake.wait_until(lambda: decisions(fake), timeout=20)
    (decided,) = decisions(fake)
    assert "décidé\u00a0: attendre encore Alice" in decided.content and "1 pour attendre" in decided.content
    assert mentioned(decided) == [u.alice.id]
    await fake.wait_until(lambda: vote_msg.buttons == [], timeout=20)  # the vote's buttons are gone
    # the same delay again: another vote 48 h later, not before
    world.bot.advance(TIMEOUT - 3600)
    await asyncio.sleep(1.0)  # several polls: nothing is due yet
    assert sum(is_vote(m) for m in fake.messages("jeux")) == 1
    world.bot.advance(3600 + 5)
    await fake.wait_until(lambda: sum(is_vote(m) for m in fake.messages("jeux")) == 2, timeout=20)
    assert len(decisions(fake)) == 1
    assert world.bot.tracebacks() == []


async def test_the_ai_plays_for_a_stalled_player_until_they_take_their_seat_back(world):
    fake, u = world.fake, world.u
    await three_player_ludix(world)
    vote_msg = await alice_stalls(world)
    await vote(fake, u.bruno, vote_msg, "ai")
    res = await vote(fake, u.chloe, vote_msg, "ai")  # two of two: decided at once
    await fake.wait_until(lambda: decisions(fake), timeout=10)
    (decided,) = decisions(fake)
    assert "décidé\u00a0: laisser le bot jouer pour Alice" in decided.content and "2 pour le bot" in decided.content
    assert mentioned(decided) == [u.bruno.id]  # the AI played Alice's turn: Bruno's turn
    assert res.ephemeral_messages and "Votre vote est enregistré" in res.ephemeral_messages[-1].content
    ctrl = await wait_control(fake)
    assert any("Reprendre ma place" in label for label in labels(ctrl))

    # while the AI plays for her, Alice's moves are refused with the reason; Bruno has no seat to take back
    res = await fake.click(u.alice, ctrl, custom_id=verb_id(ctrl, "roll"))
    assert res.ephemeral and "Le bot joue pour vous" in res.content
    res = await fake.click(u.bruno, ctrl, custom_id=verb_id(ctrl, "reclaim"))
    assert res.ephemeral and "ne joue pas à votre place" in res.content

    # Bruno and Chloé play: the AI plays Alice's turn again, nobody waits 48 h for her
    await play_turn(fake, u.bruno)
    await play_turn(fake, u.chloe)
    ctrl = await turn_card(fake, u.bruno)

    # Alice takes her seat back; from her next turn she plays herself
    ctrl = await wait_control(fake)
    res = await fake.click(u.alice, ctrl, custom_id=verb_id(ctrl, "reclaim"))
    assert not res.ephemeral, res.content
    back = await followed(fake, res, ctrl)  # (the card follows the click's own answer)
    assert "Alice reprend sa place" in back.content
    assert not any("Reprendre ma place" in label for label in labels(back))
    await play_turn(fake, u.bruno)
    await play_turn(fake, u.chloe)
    # her own turn, not the AI's move for her: the newest control calls Alice (it would call Bruno if
    # the AI had played for her). Waited for, not read at once: under a loaded machine the newest
    # control was once, for an instant, a card without a ping (stop 34's full run; not reproduced)
    await fake.wait_until(lambda: (c := last_control(fake)) is not None and mentioned(c) == [u.alice.id], timeout=10)
    await play_turn(fake, u.alice)
    assert world.bot.tracebacks() == []


async def test_removal_goes_on_without_the_player_then_two_players_keep_the_forfeit(world):
    fake, u = world.fake, world.u
    res = await fake.run_command(u.modo, "jeux", "ludibot config", jeu="ludix", forfait=1)
    assert res.ephemeral and "enregistrés" in res.content
    await three_player_ludix(world)
    # three players: a vote, even though the server forfeits at the first timeout
    vote_msg = await alice_stalls(world)
    await vote(fake, u.bruno, vote_msg, "remove")
    await vote(fake, u.chloe, vote_msg, "remove")
    await fake.wait_until(lambda: decisions(fake), timeout=10)
    (decided,) = decisions(fake)
    assert "décidé\u00a0: retirer Alice de la partie" in decided.content and "La partie continue sans Alice" in decided.content
    assert mentioned(decided) == [u.bruno.id]
    # Alice has no turn any more: Bruno, Chloé, Bruno...
    await play_turn(fake, u.bruno)
    await turn_card(fake, u.chloe)
    await play_turn(fake, u.chloe)
    await turn_card(fake, u.bruno)
    # two players left: Bruno's timeout is the usual forfeit, no vote
    world.bot.advance(TIMEOUT + 5)
    end = await fake.wait_for_message(lambda m: public(m) and "forfait" in m.content, timeout=20)
    assert "Fin de la partie" in end.content
    assert sum(is_vote(m) for m in fake.messages("jeux")) == 1
    assert world.bot.tracebacks() == []


async def test_a_kill_in_the_middle_of_a_vote_loses_no_ballot_and_decides_once(world):
    fake, u = world.fake, world.u
    await three_player_ludix(world)
    vote_msg = await alice_stalls(world)
    await vote(fake, u.bruno, vote_msg, "remove")
    await fake.wait_until(lambda: "Retirer Alice (1)" in labels(vote_msg), timeout=20)
    world.bot.kill()
    await fake.wait_disconnected(timeout=10)
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    # the same message's buttons still work; Bruno's ballot was kept: Chloé's makes the majority
    res = await vote(fake, u.chloe, vote_msg, "remove")
    await fake.wait_until(lambda: decisions(fake), timeout=10)
    assert any(m.ephemeral for m in res.messages)
    (decided,) = decisions(fake)
    assert "2 pour retirer" in decided.content
    # the vote's deadline passes, the bot restarts again: nothing is decided a second time
    world.bot.kill()
    await fake.wait_disconnected(timeout=10)
    world.bot.advance(TIMEOUT + 5)
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    ctrl = await wait_control(fake)
    assert mentioned(ctrl) == [u.bruno.id] or "Bruno" in ctrl.content
    assert vote_msg.buttons == []
    assert len(decisions(fake)) == 1
    assert sum(is_vote(m) for m in fake.messages("jeux")) == 1  # the vote was never posted twice
    assert world.bot.tracebacks() == []


async def test_lutinades_with_three_players_ends_without_the_removed_lutin_ranked_last(world):
    """Lutinades needs three players: removing one of three ends the game, that seat last."""
    fake, u = world.fake, world.u
    lobby = (await fake.run_command(u.alice, "jeux", "lutinades start")).message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.chloe, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer",
                     until=lambda r: any(m.visible_to is None and m.buttons for m in r.created))
    table = last_control(fake)
    # Alice picks; Bruno gestures; Chloé, the other lutin, does not
    await fake.click(u.bruno, table, label=own_gesture_text("up", None, "fr"))
    world.bot.advance(TIMEOUT + 5)
    vote_msg = await fake.wait_for_message(lambda m: is_vote(m) and m.buttons and "Chloé" in m.content, timeout=20)
    assert "Retirer Chloé (0)" in labels(vote_msg)
    res = await vote(fake, u.chloe, vote_msg, "remove")
    assert res.ephemeral and "propre place" in res.content
    await vote(fake, u.alice, vote_msg, "remove")  # the picker votes too: she is another player
    await vote(fake, u.bruno, vote_msg, "remove")
    await fake.wait_until(lambda: decisions(fake), timeout=10)
    (decided,) = decisions(fake)
    assert "ne peut pas continuer sans Chloé" in decided.content and "Fin de la partie" in decided.content
    lines = decided.content.splitlines()
    assert any(line.startswith("3") and "Chloé" in line for line in lines)  # ranked last
    assert world.bot.tracebacks() == []
