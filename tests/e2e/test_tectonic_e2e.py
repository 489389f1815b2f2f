"""Tectonic end to end: the real bot process, the fake Discord.

Moves are computed by the engine (its AI, or picked at random from the bot's own autocomplete)
on the state read from the bot's database (read only: tests/e2e/tectonic_driver.py) and sent
the way a player does: ``/tectonic jouer`` with autocompleted cells, flip-choice buttons,
confirmation buttons. Games against the bot are short (the AI beats a random player in about
twelve of its moves, and the level-1 AI in about ten).
"""

from __future__ import annotations

import random

import pytest

from bot import i18n, rules
from bot.storage import FINISHED, RUNNING
from engines.tectonic import flip_choices, legal_destinations, legal_sources
from tests.e2e.harness import check_table_cards, mentioned
from tests.e2e.tectonic_driver import (
    ENGINE,
    Reader,
    answered,
    board_messages,
    flip_buttons,
    game_id_of,
    random_move,
    step,
)

pytestmark = pytest.mark.e2e

PNG = b"\x89PNG"
MAX_MOVES = 80  # a cap on the user's moves: games against the bot end well before


def piece_at(state, cell: str) -> str:
    return next(p["piece"] for p in ENGINE.view(state, None)["pieces"] if p["cell"] == cell)


async def results_by_user(reader: Reader, game_id: int) -> dict:
    return {r.user_id: r.rank for r in await reader.store.results(game_id)}


async def test_a_whole_game_against_the_bot(world):
    """Alice (her moves by the level-1 AI) against the level-2 bot, to the end."""
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "tectonic start", adversaire="bot", niveau=2, until=answered)
    (first,) = board_messages(res)
    assert "La partie commence" in first.content
    assert "⚪ Alice joue les Blancs (en bas, commence)\u202f; ⚫ Bot 1 joue les Noirs (en haut)." in first.content
    assert mentioned(first) == [u.alice.id]
    # the « Jouer un coup » button offers the moves: no command to type is repeated under it
    assert "Jouer un coup" in first.button_labels and "`de: vers:`" not in first.content
    assert first.attachments[0].bytes[:4] == PNG and first.attachments[0].dimensions == (712, 1068)
    game_id = game_id_of(first)
    users = {0: u.alice}
    deferred = 0
    async with Reader(world.bot.db) as reader:
        for _ in range(MAX_MOVES):
            game, state = await reader.state(game_id)
            if state.finished:
                break
            s = await step(fake, reader, game_id, users)
            res = s.result
            boards = board_messages(res)
            assert len(boards) == 1, (s.action, res.content)
            board = boards[0]
            assert board.attachments[0].bytes[:4] == PNG
            a = s.action
            piece = piece_at(s.before, a["from"])
            mine = "sa colline" if piece == "colline" else f"son {piece}"
            assert f"Alice déplace {mine} de {a['from']} à {a['to']}." in board.content
            deferred += (s.first or res).response_type == 5
            assert res.latency < 2.0
            game, after = await reader.state(game_id)
            if not after.finished:
                assert after.ply == s.before.ply + 2  # the bot replied in the same answer
                assert "Bot 1 déplace" in board.content and mentioned(board) == [u.alice.id]
                assert "Au tour de" not in board.content
        else:
            pytest.fail("the game against the bot did not end")
        assert game.status == FINISHED
        assert "Fin de la partie" in board.content and board.button_labels == ["Revanche"]
        ranks = await results_by_user(reader, game_id)
        assert set(ranks) == {u.alice.id, None} and sorted(ranks.values()) in ([1, 1], [1, 2])
        winner = "d'Alice" if ranks[u.alice.id] == 1 else "de Bot 1"
        assert f"**Fin de la partie**\u00a0: victoire {winner}" in board.content or sorted(ranks.values()) == [1, 1]
    # against the level-2 bot, a move that is not the last is answered with a "thinking" defer
    assert deferred > 0
    # the finished game is still visible to anyone with status
    res = await fake.run_command(u.chloe, "jeux", "tectonic status")
    assert res.ephemeral and "terminée" in res.content and res.attachments
    assert fake.errors == []
    assert world.bot.tracebacks() == []
    check_table_cards(fake, [u.alice.id])  # issue 24: every public message a card, pictures and pings in it


async def test_moves_are_answered_in_time_while_the_old_turn_cards_wait_on_a_rate_limit(world):
    """Issue 36: no game lock is held across an HTTP call that may wait. A move sent by command takes
    the controls off the previous turn card with a channel edit, and Discord rate-limits the edits of a
    channel (here one per 3 s): the edits queue up, and every move is still answered within Discord's
    3 seconds (``run_command`` raises past them); once the edits are through, only the newest turn card
    keeps controls."""
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "tectonic start", adversaire="bot", niveau=1, until=answered)
    game_id = game_id_of(board_messages(res)[0])
    fake.rate_limit.channel_edit_limit, fake.rate_limit.channel_edit_per = 1, 3.0

    def live_cards() -> list:
        return [m for m in fake.messages("jeux") if m.visible_to is None and not m.deleted and m.buttons]

    waiting = 0
    async with Reader(world.bot.db) as reader:
        for _ in range(6):
            _, state = await reader.state(game_id)
            if state.finished:
                break
            s = await step(fake, reader, game_id, {0: u.alice})
            assert s.result.latency < 3.0 and len(board_messages(s.result)) == 1, s.result.content
            waiting = max(waiting, len(live_cards()) - 1)
        game, _ = await reader.state(game_id)
    assert waiting >= 2  # the older cards' edits did wait on the channel's rate limit meanwhile
    await fake.wait_until(lambda: len(live_cards()) == 1, timeout=40)
    (newest,) = live_cards()
    assert newest.id == max(m.id for m in fake.messages("jeux") if m.visible_to is None and m.kind != "user")
    # the controls of the game's newest version (the move's carry it)
    ids = [b["custom_id"].split(":") for b in newest.buttons]
    assert {i[1] for i in ids} == {str(game_id)} and str(game.version) in {i[3] for i in ids}, ids
    assert fake.errors == [] and world.bot.tracebacks() == []


async def test_a_random_player_picking_from_the_autocomplete_loses(world):
    """Alice plays random legal moves, each picked from what the autocomplete offers her (exactly
    the engine's legal cells), through a flip button when she must choose: the bot wins."""
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "tectonic start", adversaire="bot", until=answered)
    (first,) = board_messages(res)
    assert res.response_type == 4  # the level-1 bot answers at once: no defer
    game_id = game_id_of(first)
    rng = random.Random(6)
    async with Reader(world.bot.db) as reader:
        for n in range(MAX_MOVES):
            game, state = await reader.state(game_id)
            if state.finished:
                break
            if n % 4 == 0:  # nobody else is offered anything (the bot's turn never comes to them)
                for who in (u.bruno, u.dave):
                    assert list(await fake.autocomplete(who, "jeux", "tectonic jouer", {"de": ""},
                                                        focused="de")) == []
            s = await random_move(fake, reader, game_id, u.alice, rng)
            boards = board_messages(s.result)
            assert len(boards) == 1 and boards[0].attachments[0].bytes[:4] == PNG, s.result.content
            if s.command == "button Retourner":
                assert s.result.message.content.startswith(f"Vous jouez {s.action['from']} → {s.action['to']}")
                assert s.result.message.buttons == []
        else:
            pytest.fail("the game against the bot did not end")
        game = await reader.game(game_id)
        assert game.status == FINISHED
        assert await results_by_user(reader, game_id) == {None: 1, u.alice.id: 2}
    assert "victoire de Bot 1" in boards[0].content
    assert fake.errors == []
    assert world.bot.tracebacks() == []


async def refused(fake, user, needle, reader, game_id, path="tectonic jouer", **options):
    """A refusal: ephemeral, for the user only, specific, and the game did not change (same
    version, no new public message)."""
    before = (await reader.game(game_id)).version
    public_before = len([m for m in fake.messages("jeux") if m.visible_to is None])
    res = await fake.run_command(user, "jeux", path, **options)
    assert res.ephemeral and needle in res.content, (path, options, res.content)
    assert res.message.visible_to == user.id
    assert (await reader.game(game_id)).version == before
    assert len([m for m in fake.messages("jeux") if m.visible_to is None]) == public_before
    return res


async def test_refusals_autocomplete_and_flip_buttons(world):
    """Alice (White) against Dave (Black, English client): every kind of illegal move is refused
    with its reason in the user's language; the autocomplete offers only legal cells to the
    player to move; a move that may flip two pieces goes through the choice buttons."""
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "tectonic start")
    lobby = res.message
    assert not res.ephemeral and "Tectonic" in lobby.content and "recul du pic\u00a0: tout droit" in lobby.content
    assert lobby.button_labels == ["Rejoindre", "Quitter", "Ajouter une IA", "Lancer", "Annuler"]
    game_id = game_id_of(lobby)
    res = await fake.run_command(u.alice, "jeux", "tectonic jouer", de="C2", vers="C6")
    assert res.ephemeral and f"La partie n°{game_id} n'a pas encore commencé" in res.content
    await fake.click(u.dave, lobby, label="Rejoindre")
    res = await fake.click(u.alice, lobby, label="Lancer", until=answered)
    (first,) = board_messages(res)
    assert "⚪ Alice joue les Blancs" in first.content and "⚫ Dave joue les Noirs" in first.content
    assert mentioned(first) == [u.alice.id]
    async with Reader(world.bot.db) as reader:
        game, state = await reader.state(game_id)
        # the autocomplete: Alice's movable pieces with their kind; nothing for anyone else
        got = await fake.autocomplete(u.alice, "jeux", "tectonic jouer", {"de": ""}, focused="de")
        assert got.values == legal_sources(state, 0) == ["C2", "D2", "E2", "F2", "G2", "H2"]
        assert got.names[0] == "C2 (mont)" and got.names[1] == "D2 (pic)" and got.names[2] == "E2 (colline)"
        assert got.result.latency_ms < 1000
        got = await fake.autocomplete(u.alice, "jeux", "tectonic jouer", {"de": "c"}, focused="de")
        assert got.values == ["C2"]
        got = await fake.autocomplete(u.alice, "jeux", "tectonic jouer", {"de": "C2", "vers": ""}, focused="vers")
        assert sorted(got.values) == sorted(legal_destinations(state, 0, "C2"))
        assert "C2 → C6" in got.names and "D2" not in got.values
        got = await fake.autocomplete(u.alice, "jeux", "tectonic jouer", {"de": "D2", "vers": ""}, focused="vers")
        assert "D1" in got.values and "C1" not in got.values  # pic back: straight (the default)
        assert list(await fake.autocomplete(u.alice, "jeux", "tectonic jouer", {"vers": ""}, focused="vers")) == []
        for who in (u.dave, u.chloe):
            assert list(await fake.autocomplete(who, "jeux", "tectonic jouer", {"de": ""}, focused="de")) == []
            assert list(await fake.autocomplete(who, "jeux", "tectonic jouer", {"de": "C9", "vers": ""},
                                                focused="vers")) == []
        # refusals, each with its reason
        await refused(fake, u.dave, "It is not your turn.", reader, game_id, de="C9", vers="C8")
        await refused(fake, u.chloe, f"Vous ne jouez pas dans la partie n°{game_id}", reader, game_id,
                      de="C2", vers="C6")
        await refused(fake, u.alice, "« K1 » n'est pas une case du plateau (de A1 à J10).", reader, game_id,
                      de="K1", vers="C3")
        await refused(fake, u.alice, "« Z99 » n'est pas une case du plateau", reader, game_id, de="C2", vers="Z99")
        await refused(fake, u.alice, "Il n'y a aucune pièce en E5.", reader, game_id, de="E5", vers="E6")
        await refused(fake, u.alice, "La pièce en C9 (mont) appartient à votre adversaire.", reader, game_id,
                      de="C9", vers="C8")
        await refused(fake, u.alice, "La pièce doit quitter sa case (C2).", reader, game_id, de="C2", vers="c2")
        await refused(fake, u.alice, "C2 → D3 n'est pas un déplacement de mont.", reader, game_id,
                      de="C2", vers="D3")
        await refused(fake, u.alice, "D2 → D4 n'est pas un déplacement de pic.", reader, game_id,
                      de="D2", vers="D4")
        await refused(fake, u.alice, "C2 → C7 est trop loin\u00a0: un déplacement de mont fait au plus 4 cases.",
                      reader, game_id, de="C2", vers="C7")
        await refused(fake, u.alice, "La case d'arrivée F2 est déjà occupée.", reader, game_id, de="E2", vers="F2")
        await refused(fake, u.alice, "Ce déplacement ne retourne aucune pièce\u00a0: impossible de retourner C9.",
                      reader, game_id, de="C2", vers="C3", retourner="C9")
        res = await fake.run_command(u.alice, "jeux", "tectonic jouer", de=" c2 ", vers="C6", until=answered)
        (board,) = board_messages(res)
        assert "Alice déplace son mont de C2 à C6." in board.content and mentioned(board) == [u.dave.id]
        assert "`de: vers:`" not in board.content and "Au tour de" not in board.content
        await refused(fake, u.dave, "The piece on C6 (mont) belongs to your opponent.", reader, game_id,
                      de="C6", vers="C5")
        res = await fake.run_command(u.dave, "jeux", "tectonic jouer", de="E9", vers="D8", until=answered)
        assert "Dave déplace sa colline de E9 à D8." in board_messages(res)[0].content
        # White's mont C6 may now go to C8, next to two Black pieces: C9 and D8
        await refused(fake, u.alice, "C6 → C10 est bloqué\u00a0: la case C9 est occupée et on ne passe jamais "
                      "par-dessus une pièce.", reader, game_id, de="C6", vers="C10")
        game, state = await reader.state(game_id)
        got = await fake.autocomplete(u.alice, "jeux", "tectonic jouer", {"de": "C6", "vers": "c"}, focused="vers")
        assert got.values == ["C2", "C3", "C4", "C5", "C7", "C8"]
        assert "C6 → C8 (retourne au choix C9, D8)" in got.names and "C6 → C7" in got.names
        got = await fake.autocomplete(u.alice, "jeux", "tectonic jouer", {"de": "C6", "vers": "C8", "retourner": ""},
                                      focused="retourner")
        assert got.values == flip_choices(state, 0, "C6", "C8") == ["C9", "D8"]
        assert got.names == ["C9 (mont)", "D8 (colline)"]
        got = await fake.autocomplete(u.alice, "jeux", "tectonic jouer", {"de": "C6", "vers": "C7", "retourner": ""},
                                      focused="retourner")
        assert list(got) == []
        await refused(fake, u.alice, "Ce déplacement ne permet pas de retourner la pièce en E5 (choix possibles\u00a0: "
                      "C9, D8).", reader, game_id, de="C6", vers="C8", retourner="E5")
        # without a choice: the reason, and one button per piece, for Alice only
        res = await refused(fake, u.alice, "Plusieurs pièces adverses peuvent être retournées\u00a0: choisissez-en une "
                            "(C9, D8).", reader, game_id, de="C6", vers="C8")
        older = res.message
        assert older.button_labels == ["Retourner C9 (mont)", "Retourner D8 (colline)"]
        version = game.version
        assert all(b["custom_id"].startswith(f"ludibot:{game_id}:flip:{version}:C6-C8-") for b in older.buttons)
        res = await refused(fake, u.alice, "choisissez-en une", reader, game_id, de="c6", vers="c8")
        choice = res.message
        assert all(m.id not in (older.id, choice.id) for who in (u.dave, u.chloe) for m in fake.visible_to(who))
        # the buttons exist only on Alice's ephemeral message: a crafted click elsewhere is refused
        cid = flip_buttons(choice)["D8"]
        for who, needle in ((u.dave, "This button is not valid."), (u.chloe, "Ce bouton n'est pas valide."),
                            (u.alice, "Ce bouton n'est pas valide.")):
            res = await fake.forge_click(who, board, cid)
            assert res.ephemeral and needle in res.content, res.content
        assert (await reader.game(game_id)).version == version
        res = await fake.click(u.alice, choice, label="Retourner D8 (colline)", until=answered)
        assert res.message.content == "Vous jouez C6 → C8 et retournez D8." and res.message.buttons == []
        (board,) = board_messages(res)
        assert "Alice déplace son mont de C6 à C8." in board.content
        assert "🔴 Alice retourne le pion adverse en D8 (colline)\u00a0: il devient rouge." in board.content
        assert mentioned(board) == [u.dave.id]
        # the other message's buttons were drawn for the previous position: refused
        res = await fake.click(u.alice, older, label="Retourner C9 (mont)")
        assert res.ephemeral and "Ce coup a déjà été joué\u00a0: ce bouton n'est plus à jour" in res.content
        game, state = await reader.state(game_id)
        assert game.version == version + 1 and state.last_move["flip"] == "D8"
        # Dave's red colline cannot move, and is not offered
        await refused(fake, u.dave, "The piece on D8 (colline) is red: it is neutral and cannot move.", reader,
                      game_id, de="D8", vers="D7")
        got = await fake.autocomplete(u.dave, "jeux", "tectonic jouer", {"de": ""}, focused="de")
        assert got.values == sorted(legal_sources(state, 1)) and "D8" not in got.values
        assert list(await fake.autocomplete(u.alice, "jeux", "tectonic jouer", {"de": ""}, focused="de")) == []
        # F9 → E8 lands next to it: it comes back in Dave's colour
        res = await fake.run_command(u.dave, "jeux", "tectonic jouer", de="F9", vers="E8", until=answered)
        (board,) = board_messages(res)
        assert "↩️ Dave récupère son pion rouge en D8 (colline)." in board.content
        game = await reader.game(game_id)
        assert game.status == RUNNING
    # nothing private in this game, but every ephemeral answer went to its user only
    for out in fake.all_outputs():
        if out.kind == "message" and out.audience is not None:
            assert out.message.ephemeral or out.message.kind == "dm"
    assert fake.errors == []
    assert world.bot.tracebacks() == []


async def test_options_status_rules_and_resigning(world):
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "tectonic start", adversaire="bot", recul_pic="diagonale",
                                 until=answered)
    game_id = game_id_of(board_messages(res)[0])
    async with Reader(world.bot.db) as reader:
        game, state = await reader.state(game_id)
        assert game.options == {"pic_backward": "diagonale"}
        # pics go back diagonally in this variant
        got = await fake.autocomplete(u.alice, "jeux", "tectonic jouer", {"de": "D2", "vers": ""}, focused="vers")
        assert sorted(got.values) == sorted(legal_destinations(state, 0, "D2"))
        assert {"C1", "E1"} <= set(got.values) and "D1" not in got.values
        res = await fake.run_command(u.alice, "jeux", "tectonic status")
        assert res.ephemeral and f"partie n°{game_id}, en cours" in res.content and res.attachments
        res = await fake.run_command(u.dave, "jeux", "tectonic rules")
        assert res.ephemeral and "hill" in res.content  # the rules card, in the reader's language (Dave: English)
        assert i18n.command("tectonic jouer", "en") in rules.page_text("tectonic", 3, "en", {})  # the commands page
        s = await step(fake, reader, game_id, {0: u.alice})
        assert "Bot 1 déplace" in board_messages(s.result)[0].content
        # resigning: a confirmation first, that only Alice sees
        res = await fake.run_command(u.chloe, "jeux", "tectonic abandon")
        assert res.ephemeral and "Vous ne jouez pas" in res.content
        res = await fake.run_command(u.alice, "jeux", "tectonic abandon")
        confirm = res.message
        assert res.ephemeral and f"Abandonner la partie n°{game_id}\u202f? Bot 1 la gagnera." in confirm.content
        assert confirm.button_labels == ["Abandonner", "Continuer la partie"] and confirm.visible_to == u.alice.id
        res = await fake.click(u.alice, confirm, label="Continuer la partie")
        assert "continue" in res.content and (await reader.game(game_id)).status == RUNNING
        res = await fake.run_command(u.alice, "jeux", "tectonic abandon")
        res = await fake.click(u.alice, res.message, label="Abandonner", until=answered)
        assert "Vous avez abandonné" in res.message.content
        (public,) = board_messages(res)
        assert "🏳️ Alice abandonne\u00a0: victoire de Bot 1." in public.content
        assert "**Fin de la partie**\u00a0: victoire de Bot 1 (abandon)." in public.content
        assert (await reader.game(game_id)).status == FINISHED
        assert await results_by_user(reader, game_id) == {None: 1, u.alice.id: 2}
    res = await fake.run_command(u.alice, "jeux", "tectonic jouer", de="C2", vers="C3")
    assert res.ephemeral and "Aucune partie de ce jeu n'est en cours" in res.content
    # the level-3 bot, in another channel: a "thinking" answer at once, then the board with its reply
    res = await fake.run_command(u.bruno, "autre", "tectonic start", adversaire="bot", niveau=3, until=answered)
    res = await fake.run_command(u.bruno, "autre", "tectonic jouer", de="E2", vers="E3", until=answered)
    assert res.response_type == 5 and res.latency < 1.0
    (board,) = board_messages(res)
    assert "Bruno déplace sa colline de E2 à E3." in board.content and "Bot 1 déplace" in board.content
    assert mentioned(board) == [u.bruno.id]
    assert fake.errors == []
    assert world.bot.tracebacks() == []
