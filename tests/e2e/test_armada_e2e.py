"""L'Invincible Armada end to end: the real bot process, the fake Discord.

Moves are computed by the engine (its AI, or a scripted policy) on the state read from
the bot's database (read only: tests/e2e/armada_driver.py) and sent the way a player
does: slash commands with autocompleted points, capture-choice buttons, confirmation
buttons. Boards are 9 × 9 to keep games short.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bot import i18n, rules
from bot.storage import FINISHED, RUNNING
from engines.armada import legal_points, movable_points, pivot_choices
from tests.e2e.armada_driver import ENGINE, Reader, answered, game_id_of, quiet, send_action, step
from tests.e2e.harness import check_table_cards, mentioned

pytestmark = pytest.mark.e2e

PNG = b"\x89PNG"


def board_messages(res) -> list:
    """The public messages with a picture this interaction produced, in order."""
    return [m for m in res.created if m.visible_to is None and m.attachments and not m.deleted]


async def open_game(world, plateau: str = "9x9"):
    """Alice opens a game, Bruno joins, Alice starts it; returns (game id, the first board message)."""
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "armada start", plateau=plateau)
    lobby = res.message
    assert not res.ephemeral and "L'Invincible Armada" in lobby.content
    assert lobby.button_labels == ["Rejoindre", "Quitter", "Ajouter une IA", "Lancer", "Annuler"]
    game_id = game_id_of(lobby)
    # a move before the game has started is refused, specifically
    res = await fake.run_command(u.alice, "jeux", "armada placer", point="E5")
    assert res.ephemeral and f"La partie n°{game_id} n'a pas encore commencé" in res.content
    await fake.click(u.bruno, lobby, label="Rejoindre")
    res = await fake.click(u.alice, lobby, label="Lancer", until=answered)
    (first,) = board_messages(res)
    assert "Manche 1\u00a0: Alice joue l'Espagne (rouge), Bruno l'Angleterre (blanc)" in first.content
    assert mentioned(first) == [u.alice.id]
    assert first.button_labels == ["Placer"] and "/armada placer" not in first.content  # the button, no command
    assert first.attachments[0].bytes[:4] == PNG
    return game_id, first


async def check_autocomplete(fake, users, state, seat, action, outsider) -> None:
    """The mover is offered the move (and only legal points); the other player and a non-player nothing."""
    mover, other = users[seat], users[1 - seat]
    kind = action["type"]
    if kind == "place":
        typed = action["point"][0].lower()  # the column letter, as a player starts typing
        got = await fake.autocomplete(mover, "jeux", "armada placer", {"point": typed}, focused="point")
        assert action["point"] in got.values and set(got.values) <= set(legal_points(state, seat))
        assert len(got) <= 25 and all(v.startswith(typed.upper()) for v in got.values)
        assert got.result.latency_ms < 1000
        for who in (other, outsider):
            assert list(await fake.autocomplete(who, "jeux", "armada placer", {"point": typed}, focused="point")) == []
    elif kind == "pivot":
        got = await fake.autocomplete(mover, "jeux", "armada pivoter", {"de": ""}, focused="de")
        assert action["from"] in got.values
        got = await fake.autocomplete(mover, "jeux", "armada pivoter", {"de": action["from"], "vers": ""},
                                      focused="vers")
        legal = {c["to"] for c in pivot_choices(state, seat, action["from"])}
        assert action["to"] in got.values and set(got.values) == legal
        assert all("(autour de " in n for n in got.names)
        assert list(await fake.autocomplete(other, "jeux", "armada pivoter", {"de": ""}, focused="de")) == []
    elif kind == "move":
        got = await fake.autocomplete(mover, "jeux", "armada deplacer", {"de": action["from"][0]}, focused="de")
        assert action["from"] in got.values and set(got.values) <= set(movable_points(state, seat))
        got = await fake.autocomplete(mover, "jeux", "armada deplacer",
                                      {"de": action["from"], "vers": action["to"][0]}, focused="vers")
        assert action["to"] in got.values and set(got.values) <= set(legal_points(state, seat, action["from"]))
        # Spain's 20 ships are down: nothing to place
        assert list(await fake.autocomplete(mover, "jeux", "armada placer", {"point": ""}, focused="point")) == []


async def test_two_users_play_both_rounds(world):
    fake, u = world.fake, world.u
    game_id, _ = await open_game(world)
    users = {0: u.alice, 1: u.bruno}
    used: Counter = Counter()
    rounds_seen = []
    async with Reader(world.bot.db) as reader:
        for n in range(400):
            game, state = await reader.state(game_id)
            if state.finished:
                break
            (seat,) = ENGINE.expected(state)
            action = ENGINE.ai_action(state, seat, 1)
            if n % 3 == 0 or action["type"] != "place":  # keep the test lean: every move kind, a third of placements
                await check_autocomplete(fake, users, state, seat, action, u.chloe)
            s = await step(fake, reader, game_id, users)
            used[s.command] += 1
            res = s.result
            assert not res.ephemeral, (s.action, res.content)
            boards = board_messages(res)
            assert boards and boards[-1].attachments[0].bytes[:4] == PNG
            game, after = await reader.state(game_id)
            if after.round_no != state.round_no and not after.finished:
                # the round's end, with its final position, then the new round
                assert len(boards) == 2, [m.content for m in boards]
                end, new = boards
                assert f"Fin de la manche {state.round_no}" in end.content and "🔔" not in end.content
                assert end.attachments[0].bytes != new.attachments[0].bytes
                if after.round_no == 2:  # sides swapped
                    assert "Changement de camp" in new.content
                    assert "Manche 2\u00a0: Bruno joue l'Espagne (rouge), Alice l'Angleterre (blanc)" in new.content
                else:  # tied after two rounds
                    assert "manche décisive" in new.content
                rounds_seen.append(after.round_no)
            if not after.finished:
                (nxt,) = ENGINE.expected(after)
                assert mentioned(boards[-1]) == [users[nxt].id], boards[-1].content
                if after.pending:
                    names = ENGINE.view(after, None)["pending_captures"]
                    assert boards[-1].button_labels == [f"Prendre {p}" for p in names]
                    assert "Choisissez le navire à prendre" in boards[-1].content
        else:
            pytest.fail("the game did not end")
        game, final = await reader.state(game_id)
    assert rounds_seen[:1] == [2] and game.status == FINISHED and len(final.rounds) >= 2
    last = board_messages(res)[-1]
    assert "Fin de la partie" in last.content and "Classement" in last.content and last.button_labels == ["Revanche"]
    for seat, user in users.items():
        assert f"{user.name} — {final.scores[seat]}" in last.content
    assert used["/armada placer"] > 10
    # the finished game is still visible to anyone with status
    res = await fake.run_command(u.chloe, "jeux", "armada status")
    assert res.ephemeral and "terminée" in res.content and res.attachments
    res = await fake.run_command(u.alice, "jeux", "armada rules")
    assert res.ephemeral and "11 prises" in res.content  # the rules card opens at its first page
    assert "/armada deplacer" in rules.page_text("armada", 3, "fr", {})  # the commands page
    assert fake.errors == []
    assert world.bot.tracebacks() == []
    check_table_cards(fake, [u.alice.id, u.bruno.id])  # issue 24: every public message a card, pictures and pings in it


async def refused(fake, user, path, needle, reader, game_id, **options):
    """A refusal: ephemeral, specific, and the game did not change (same version, no new public message)."""
    before = (await reader.game(game_id)).version
    public_before = len([m for m in fake.messages("jeux") if m.visible_to is None])
    res = await fake.run_command(user, "jeux", path, **options)
    assert res.ephemeral and needle in res.content, (path, options, res.content)
    assert (await reader.game(game_id)).version == before
    assert len([m for m in fake.messages("jeux") if m.visible_to is None]) == public_before
    return res


async def test_refusals_capture_choice_and_pivots(world):
    fake, u = world.fake, world.u
    game_id, _ = await open_game(world)
    async with Reader(world.bot.db) as reader:
        await refused(fake, u.bruno, "armada placer", "Ce n'est pas votre tour", reader, game_id, point="E5")
        await refused(fake, u.chloe, "armada placer", f"Vous ne jouez pas dans la partie n°{game_id}", reader,
                      game_id, point="E5")
        await refused(fake, u.dave, "armada placer", f"You are not playing in game #{game_id}", reader, game_id,
                      point="E5")
        await refused(fake, u.alice, "armada placer", "« Z99 » n'est pas une intersection du plateau (de A1 en bas "
                      "à gauche à I9 en haut à droite)", reader, game_id, point="Z99")
        await refused(fake, u.alice, "armada placer", "« J1 » n'est pas une intersection", reader, game_id,
                      point="J1")
        await refused(fake, u.alice, "armada pivoter", "Seule l'Angleterre peut pivoter", reader, game_id,
                      de="D5", vers="E6")
        await refused(fake, u.alice, "armada deplacer", "Il vous reste 20 navires à poser", reader, game_id,
                      de="D5", vers="E6")
        got = await fake.autocomplete(u.alice, "jeux", "armada placer", {"partie": ""}, focused="partie")
        assert got.values == [game_id] and "Alice, Bruno" in got.names[0]
        res = await fake.run_command(u.alice, "jeux", "armada placer", point="d 5", partie=game_id)  # any case
        assert not res.ephemeral and "Alice pose un navire en D5" in res.content
        assert mentioned(res.message) == [u.bruno.id]
        # the button offers the move: no command to type is repeated under it
        assert res.message.button_labels == ["Placer"] and "Angleterre\u00a0: posez" not in res.content
        await refused(fake, u.bruno, "armada placer", "L'intersection D5 est déjà occupée", reader, game_id,
                      point="D5")
        await refused(fake, u.bruno, "armada deplacer", "Seule l'Espagne déplace ses navires", reader, game_id,
                      de="D5", vers="E6")
        for user, point in ((u.bruno, "B5"), (u.alice, "A9"), (u.bruno, "G5")):
            res = await fake.run_command(user, "jeux", "armada placer", point=point)
            assert not res.ephemeral and res.attachments
        # E5 makes the line D5-E5 (range 2): B5 and G5 are both in range; Alice must choose
        res = await fake.run_command(u.alice, "jeux", "armada placer", point="E5")
        msg = res.message
        assert "Alice peut prendre un navire au choix\u00a0: B5, G5" in msg.content
        assert msg.button_labels == ["Prendre B5", "Prendre G5"] and mentioned(msg) == [u.alice.id]
        await refused(fake, u.alice, "armada placer", "Choisissez d'abord le navire à prendre\u00a0: B5, G5", reader,
                      game_id, point="C3")
        # the buttons are only for the player who chooses
        version = (await reader.game(game_id)).version
        res = await fake.click(u.bruno, msg, label="Prendre G5")
        assert res.ephemeral and "Ce n'est pas votre tour" in res.content
        res = await fake.click(u.chloe, msg, label="Prendre G5")
        assert res.ephemeral and "Vous ne jouez pas" in res.content
        assert (await reader.game(game_id)).version == version
        assert list(await fake.autocomplete(u.alice, "jeux", "armada placer", {"point": ""}, focused="point")) == []
        # (the click takes its card's buttons off first; the new turn follows, under load after the settle time)
        res = await fake.click(u.alice, msg, label="Prendre G5", until=answered)
        assert not res.ephemeral and "Alice prend le navire en G5 (1/11 prises)" in res.content
        assert res.message.button_labels == ["Placer"]  # no "Prendre …" left: England's form (issue 24)
        # England (Bruno) now: the autocomplete offers exactly the legal points, 25 at most
        game, state = await reader.state(game_id)
        got = await fake.autocomplete(u.bruno, "jeux", "armada placer", {"point": ""}, focused="point")
        assert 0 < len(got) <= 25 and set(got.values) <= set(legal_points(state, 1))
        got = await fake.autocomplete(u.bruno, "jeux", "armada placer", {"point": "b"}, focused="point")
        assert set(got.values) == {p for p in legal_points(state, 1) if p.startswith("B")}
        for user in (u.alice, u.chloe):
            assert list(await fake.autocomplete(user, "jeux", "armada placer", {"point": ""}, focused="point")) == []
        # B5-B6 is a pair; B7 would align three English ships
        for user, point in ((u.bruno, "B6"), (u.alice, "H1")):
            res = await fake.run_command(user, "jeux", "armada placer", point=point)
            assert not res.ephemeral
        assert res.message.button_labels == ["Placer", "Pivoter"] and "`point:`" not in res.content
        await refused(fake, u.bruno, "armada placer", "En B7, vous aligneriez trois navires anglais (B5-B6-B7)",
                      reader, game_id, point="B7")
        # pivots: only the ships of a pair, only onto the neighbours of the other ship
        got = await fake.autocomplete(u.bruno, "jeux", "armada pivoter", {"de": ""}, focused="de")
        assert sorted(got.values) == ["B5", "B6"]
        got = await fake.autocomplete(u.bruno, "jeux", "armada pivoter", {"de": "b6", "vers": ""}, focused="vers")
        assert "C6 (autour de B5)" in got.names and "B7" not in got.values and "B4" in got.values
        assert list(await fake.autocomplete(u.alice, "jeux", "armada pivoter", {"de": ""}, focused="de")) == []
        await refused(fake, u.bruno, "armada pivoter", "Le navire en B6 ne peut pas aller en E8", reader, game_id,
                      de="B6", vers="E8")
        await refused(fake, u.bruno, "armada pivoter", "Il n'y a pas de navire à vous en H1", reader, game_id,
                      de="H1", vers="H2")
        res = await fake.run_command(u.bruno, "jeux", "armada pivoter", de="B6", vers="C6")
        assert not res.ephemeral and "Bruno fait pivoter le navire de B6 en C6 autour de B5" in res.content
        game, state = await reader.state(game_id)
        assert ENGINE.view(state, None)["england"] == ["B5", "C6"]
    # nothing private in this game, but every ephemeral answer went to its user only
    for out in fake.all_outputs():
        if out.kind == "message" and out.audience is not None:
            assert out.message.ephemeral or out.message.kind == "dm"
    assert fake.errors == []
    assert world.bot.tracebacks() == []


async def test_fleet_down_spain_moves_england_pivots_and_resigning(world):
    fake, u = world.fake, world.u
    game_id, _ = await open_game(world)
    users = {0: u.alice, 1: u.bruno}
    async with Reader(world.bot.db) as reader:
        at_limit_checked = False
        for _ in range(60):
            game, state = await reader.state(game_id)
            view = ENGINE.view(state, None)
            if view["spain_must_move"] and view["turn_side"] == "spain":
                break
            if view["turn_side"] == "england" and view["on_board"]["england"] == 5 and not at_limit_checked:
                assert "5 navires en mer" in last_message_text(fake)
                await refused(fake, u.bruno, "armada placer", "Vous avez déjà 5 navires sur le plateau", reader,
                              game_id, point=empty_points(view)[0])
                assert list(await fake.autocomplete(u.bruno, "jeux", "armada placer", {"point": ""},
                                                    focused="point")) == []
                at_limit_checked = True
            s = await step(fake, reader, game_id, users, choose=quiet)
            assert not s.result.ephemeral, s.result.content
        else:
            pytest.fail("Spain never placed its 20 ships")
        assert at_limit_checked
        assert "déplacez-en un (bouton « Déplacer »)" in last_message_text(fake)
        await refused(fake, u.alice, "armada placer",
                      f"Vos 20 navires sont tous posés\u00a0: déplacez-en un avec {i18n.command('armada deplacer')}", reader, game_id,
                      point="A1")
        action = quiet(state, 0)
        await check_autocomplete(fake, users, state, 0, action, u.chloe)
        empty = empty_points(view)
        await refused(fake, u.alice, "armada deplacer", f"Il n'y a pas de navire à vous en {empty[0]}", reader,
                      game_id, de=empty[0], vers=empty[1])
        await refused(fake, u.alice, "armada deplacer", f"L'intersection {view['england'][0]} est déjà occupée",
                      reader, game_id, de=action["from"], vers=view["england"][0])
        res, _ = await send_action(fake, u.alice, action)
        assert not res.ephemeral and f"Alice déplace un navire de {action['from']} en {action['to']}" in res.content
        # Alice resigns on Bruno's turn: a confirmation first, that only she sees
        _, state = await reader.state(game_id)
        assert ENGINE.expected(state) == {1}
        res = await fake.run_command(u.chloe, "jeux", "armada abandon")
        assert res.ephemeral and "Vous ne jouez pas" in res.content
        res = await fake.run_command(u.alice, "jeux", "armada abandon")
        confirm = res.message
        assert res.ephemeral and "Abandonner la partie" in confirm.content and "Bruno la gagnera" in confirm.content
        assert confirm.button_labels == ["Abandonner", "Continuer la partie"]
        assert confirm.visible_to == u.alice.id
        assert all(m.id != confirm.id for who in (u.bruno, u.chloe) for m in fake.visible_to(who))
        res = await fake.click(u.alice, confirm, label="Continuer la partie")
        assert "continue" in res.content and (await reader.game(game_id)).status == RUNNING
        res = await fake.run_command(u.alice, "jeux", "armada abandon")
        res = await fake.click(u.alice, res.message, label="Abandonner", until=answered)
        assert "Vous avez abandonné" in res.message.content
        (public,) = [m for m in res.created if m.visible_to is None]
        assert "Alice abandonne" in public.content and "Vainqueur\u00a0: Bruno" in public.content
        assert public.attachments and public.button_labels == ["Revanche"]
        game = await reader.game(game_id)
        assert game.status == FINISHED
        results = await reader.store.results(game_id)
        assert {r.user_id: r.rank for r in results} == {u.bruno.id: 1, u.alice.id: 2}
    res = await fake.run_command(u.alice, "jeux", "armada placer", point="A1")
    assert res.ephemeral and "Aucune partie de ce jeu n'est en cours" in res.content
    assert fake.errors == []
    assert world.bot.tracebacks() == []


def empty_points(view) -> list[str]:
    taken = set(view["spain"]) | set(view["england"])
    return [f"{c}{r}" for c in view["columns"] for r in range(1, view["size"] + 1) if f"{c}{r}" not in taken]


def last_message_text(fake) -> str:
    msgs = [m for m in fake.messages("jeux") if m.visible_to is None and m.attachments]
    return msgs[-1].content


async def test_a_game_against_the_bot(world):
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "armada start", adversaire="bot", plateau="9x9")
    (first,) = board_messages(res)
    assert "La partie commence" in first.content and "Alice joue l'Espagne (rouge), Bot 1 l'Angleterre" in first.content
    assert mentioned(first) == [u.alice.id] and first.attachments[0].bytes[:4] == PNG
    game_id = game_id_of(first)
    users = {0: u.alice}
    async with Reader(world.bot.db) as reader:
        for _ in range(200):
            game, state = await reader.state(game_id)
            if state.finished:
                break
            s = await step(fake, reader, game_id, users)
            res = s.result
            assert not res.ephemeral, res.content
            assert res.latency < 2.0
            boards = board_messages(res)
            game, after = await reader.state(game_id)
            if not after.finished:
                assert ENGINE.expected(after) == {0} and mentioned(boards[-1]) == [u.alice.id]
                if not after.pending:
                    assert "Bot 1" in boards[-1].content  # the bot's reply came with the answer
            if after.round_no == 2 and state.round_no == 1:
                assert len(boards) == 2
                assert "Manche 2\u00a0: Bot 1 joue l'Espagne (rouge), Alice l'Angleterre" in boards[1].content
                assert "Bot 1 pose un navire" in boards[1].content  # Spain (the bot) opens round 2 at once
        else:
            pytest.fail("the game against the bot did not end")
        assert game.status == FINISHED and len(after.rounds) >= 2
    assert "Fin de la partie" in s.result.content
    # a new game in the same channel: status means the running one, not the finished one
    res = await fake.run_command(u.alice, "jeux", "armada start", adversaire="bot", plateau="9x9")
    again = game_id_of(board_messages(res)[0])
    res = await fake.run_command(u.alice, "jeux", "armada status")
    assert res.ephemeral and f"partie n°{again}, en cours" in res.content and res.attachments
    # level 2, in another channel: the bot still answers at once
    res = await fake.run_command(u.bruno, "autre", "armada start", adversaire="bot", niveau=2, plateau="11x11")
    (first,) = board_messages(res)
    assert mentioned(first) == [u.bruno.id]
    res = await fake.run_command(u.bruno, "autre", "armada placer", point="F6")
    assert not res.ephemeral and "Bot 1 pose un navire" in res.content and res.latency < 2.0
    assert fake.errors == []
    assert world.bot.tracebacks() == []
