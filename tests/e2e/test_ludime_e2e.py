"""Ludime end to end: a whole main game between three users with every output scanned for hands.

The moves are the engine AI's, decided on the state in the bot's database and played with
the users' Discord gestures (see ``ludime_driver``). Along the way the other players look
at their own hand, try to play out of turn and ask for autocompletion; at the end every
message, picture, autocomplete answer and refusal each player could see is scanned: no
player ever sees another's hand.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest

from bot import i18n
from engines.ludime import ENGINE, is_word
from tests.e2e.harness import check_table_cards, mentioned
from tests.e2e.ludime_driver import LudimeTable, answered, scan_for_leaks

pytestmark = pytest.mark.e2e

MAX_MOVES = 400
#: real words of 6+ letters, several with rare letters: a 16-card hand always lacks a letter of one
LONG_WORDS = ("WHISKY", "JUKEBOX", "XYLOPHONE", "QUARTZ", "BIJOUX", "ZIGZAG", "FROMAGE", "JARDIN")


def missing_letter(hand, word: str) -> str | None:
    """The first letter of ``word`` the hand cannot provide (the one the refusal names)."""
    left = Counter(hand)
    for c in word:
        if left[c] <= 0:
            return c
        left[c] -= 1
    return None


def word_you_cannot_make(hand) -> tuple[str, str]:
    for word in LONG_WORDS:
        letter = missing_letter(hand, word)
        if letter:
            return word, letter
    raise AssertionError(f"the hand {hand} makes every test word")


def letters_that_are_no_word(hand, length: int = 6) -> str:
    for perm in permutations(sorted(hand), length):
        junk = "".join(perm)
        if not is_word(junk):
            return junk
    raise AssertionError(f"every arrangement of {hand} is a word")


async def test_a_whole_main_game_between_three_users_never_shows_a_hand_to_another(world):
    fake, u = world.fake, world.u
    table = LudimeTable(world, [u.alice, u.bruno, u.chloe])
    await table.open("main")
    try:
        msg = table.control()
        state, game = await table.state()
        assert mentioned(msg) == [table.players[state.current].id]
        assert msg.button_labels == ["Piocher", "Ma main"]  # first turn: no discard to take
        assert msg.attachments and "Manche 1\u00a0: " in msg.content
        for user in table.players:
            await table.show_hand(user)
        # a spectator has no hand
        res = await fake.click(u.dave, msg, label="Ma main")
        assert res.ephemeral and "You are not playing" in res.content and not res.attachments

        rounds_seen = {1}
        while table.moves < MAX_MOVES:
            state, game = await table.state()
            if game.status != "running":
                break
            if state.round_no not in rounds_seen or table.moves % 25 == 0:
                rounds_seen.add(state.round_no)
                # the others, meanwhile: their own hand, a move out of turn, an autocomplete
                for seat, user in enumerate(table.players):
                    if seat == state.current:
                        continue
                    await table.show_hand(user)
                    await table.refused(user, lambda user=user: fake.run_command(user, "jeux", "ludime poser",
                                                                                 mot="MAISON"),
                                        "Ce n'est pas votre tour")
                    choices = await fake.autocomplete(user, "jeux", "ludime allonger", {"mot": ""}, focused="mot")
                    assert list(choices) == []  # nothing is legal out of turn
                res = await fake.run_command(u.dave, "jeux", "ludime table")
                assert not res.ephemeral and res.attachments and "la table" in res.content
            await table.step()
        else:
            pytest.fail("the game did not end")

        game = await table.game()
        assert game.status == "finished"
        final = fake.messages("jeux")[-1]
        assert "Fin de la partie" in final.content and "Classement" in final.content
        assert "Points de la manche 3" in final.content
        assert rounds_seen == {1, 2, 3}
        results = await table.store.results(table.game_id)
        assert sorted(r.rank for r in results)[0] == 1 and len(results) == 3
        # the table of a finished game is still public
        res = await fake.run_command(u.chloe, "jeux", "ludime table")
        assert not res.ephemeral and res.attachments
    finally:
        await table.close()
    checked = scan_for_leaks(fake, table, [u.dave, u.modo])
    assert checked > 200 and len(table.hand_images) > 20
    assert fake.errors == []
    assert world.bot.tracebacks() == []
    check_table_cards(fake, [u.alice.id, u.bruno.id, u.chloe.id])  # issue 24: every public message a card, pictures and pings in it


async def test_every_refusal_says_why_privately_and_changes_nothing(world):
    fake, u = world.fake, world.u
    table = LudimeTable(world, [u.alice, u.bruno, u.chloe])
    await table.open("main")
    try:
        state, _ = await table.state()
        first = state.current
        me, other = table.players[first], table.players[(first + 1) % 3]

        def poser(user, mot):
            return lambda: fake.run_command(user, "jeux", "ludime poser", mot=mot)

        await table.refused(other, poser(other, "MAISON"), "Ce n'est pas votre tour")
        await table.refused(u.dave, poser(u.dave, "MAISON"), "You are not playing in game")
        await table.refused(me, lambda: fake.run_command(me, "jeux", "ludime ajouter", mot="MAISONS"),
                            f"{i18n.command('ludime ajouter')} ne sert pas dans cette variante",
                            f"{i18n.command('ludime poser')}, {i18n.command('ludime allonger')}")
        await table.refused(me, poser(me, "MAISON"), "Piochez d'abord")
        res = await fake.autocomplete(me, "jeux", "ludime allonger", {"mot": ""}, focused="mot")
        assert list(res) == []  # nothing to lengthen on a first turn

        # a double click on « Piocher »: one draw, one private "already played"
        control = table.control()
        version = (await table.game()).version
        one = await fake.click(me, control, label="Piocher", wait=False)
        two = await fake.click(me, control, label="Piocher", wait=False)
        # (the draw's public turn follows the click's own answer, later than the settle time under load)
        await one.wait(until=answered)
        await two.wait(until=answered)
        done, stale = sorted([one, two], key=lambda r: r.ephemeral)
        assert not done.ephemeral and done.attachments
        assert stale.ephemeral and "déjà été joué" in stale.content
        assert (await table.game()).version == version + 1 and table.control().button_labels[:2] == ["Poser un mot", "Se défausser"]
        await table.remember_hands()
        # the drawer's new hand is a private follow-up, which may come after the result settled
        await fake.wait_until(lambda: done.ephemeral_messages, timeout=20, what="the drawer's private hand")
        await table.check_hand_message(done.ephemeral_messages[0], first)

        state, _ = await table.state()
        hand = state.hands[first]
        # first turn: exactly one word of at least 6 letters
        await table.refused(me, poser(me, "son"), "Premier tour", "au moins 6 lettres", "SON est trop court")
        await table.refused(me, poser(me, "MAISON, SON"), "Premier tour", "un seul mot")
        # a letter you do not hold, and which
        word, letter = word_you_cannot_make(hand)
        await table.refused(me, poser(me, word.lower()), f"Il vous manque la lettre {letter} pour {word}")
        # not in the lexicon (made of letters you hold)
        junk = letters_that_are_no_word(hand)
        await table.refused(me, poser(me, junk), f"{junk} n'est pas dans le dictionnaire")
        await table.refused(me, poser(me, "porte-clé"), "contient autre chose que des lettres")
        # accents are kept on show, but only French ones (issue 25): a letter no card stands for is named
        await table.refused(me, poser(me, "tuñe"), "Ñ n'est pas une lettre du français", "tapez TUNE")
        await table.refused(me, lambda: fake.run_command(me, "jeux", "ludime allonger", mot="#1", nouveau="MAISONS"),
                            "Premier tour")

        # the next seat never lays a word: it draws and discards until someone else owns a word
        victim = (first + 1) % 3
        vuser = table.players[victim]
        for _ in range(60):
            state, _ = await table.state()
            if state.current == victim and state.turns[victim] >= 1 and state.phase == "draw" and any(
                    o != victim for _, _, o in state.words) and {"type": "draw", "source": "discard"} in \
                    ENGINE.legal_actions(state, victim):
                break
            seat = state.current
            if seat == victim:
                action = ENGINE.ai_action(state, seat) if state.phase == "draw" else None
                if action is None or action["type"] != "draw":
                    action = {"type": "discard", "letter": state.hands[seat][-1]}
                elif action.get("source") == "discard":
                    action = {"type": "draw", "source": "pile"}
            else:
                action = ENGINE.ai_action(state, seat)
            await table.play(seat, action)
        else:
            pytest.fail("no position to test taking a word")

        state, _ = await table.state()
        assert not any(o == victim for _, _, o in state.words)
        # the discard taken but not used: the turn cannot end
        top = state.discard[-1]
        await table.play(victim, {"type": "draw", "source": "discard"})
        assert "Reposer la défausse" in table.control().button_labels
        select = table._latest_select(vuser)
        await table.refused(vuser, lambda: fake.select(vuser, select, [top]),
                            f"Vous avez pris le {top} de la défausse", "l'utiliser dans un mot")
        await table.play(victim, {"type": "undo_take"})
        assert table.control().button_labels == ["Piocher", "Ma main"]  # no second try at the discard
        await table.play(victim, {"type": "draw", "source": "pile"})
        # too short
        await table.refused(vuser, poser(vuser, "LA"), "LA est trop court", "3 lettres au minimum")
        # taking a word before owning one
        wid, word, _ = next(w for w in state.words if w[2] != victim)
        choices = await fake.autocomplete(vuser, "jeux", "ludime allonger", {"mot": ""}, focused="mot")
        assert list(choices) == []  # no word of theirs, none they may take
        await table.refused(vuser, lambda: fake.run_command(vuser, "jeux", "ludime allonger", mot=f"#{wid}",
                                                            nouveau=word + "S"),
                            f"Pour prendre {word}", "avoir un mot à vous")
        await table.refused(vuser, lambda: fake.run_command(vuser, "jeux", "ludime allonger", mot="#99",
                                                            nouveau="MAISONS"), "Aucun mot « 99 » sur la table")
        # and the turn still ends normally
        state, _ = await table.state()
        await table.play(victim, {"type": "discard", "letter": state.hands[victim][0]})
    finally:
        await table.close()
    scan_for_leaks(fake, table, [u.dave, u.modo])
    assert fake.errors == []
    assert world.bot.tracebacks() == []
