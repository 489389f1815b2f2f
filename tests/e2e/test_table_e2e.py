"""The living table (issue 24), end to end: a lobby's card is always current — whatever changed it,
a button or a slash command — and shows every table setting; private controls are bound to their
moment."""

from __future__ import annotations

import pytest

from tests.e2e.harness import seat_sections, text_of, wait_control

pytestmark = pytest.mark.e2e


def game_id_of(msg) -> int:
    return int(msg.buttons[0]["custom_id"].split(":")[1])


async def test_the_lobby_card_follows_slash_commands_and_shows_the_table_settings(world):
    fake, u = world.fake, world.u
    lobby = (await fake.run_command(u.alice, "jeux", "ludix start", rythme="rapide", fil=False)).message
    gid = game_id_of(lobby)
    text = text_of(lobby)
    assert "1. Alice" in text and "Joueurs (1, de 2 à 6)" in text
    assert "Rythme\u00a0: Rapide — 2 h par joueur, +30 min par coup" in text
    assert "Fil\u00a0: la partie se joue dans ce salon" in text

    await fake.run_command(u.chloe, "jeux", "ludix join")
    await fake.wait_until(lambda: "2. Chloé" in text_of(fake.message_by_id[lobby.id]))
    assert "Joueurs (2, de 2 à 6)" in text_of(fake.message_by_id[lobby.id])

    await fake.run_command(u.chloe, "jeux", "ludix leave", partie=gid)
    await fake.wait_until(lambda: "Chloé" not in text_of(fake.message_by_id[lobby.id]))
    assert "Rejoindre" in fake.message_by_id[lobby.id].button_labels

    await fake.click(u.bruno, lobby, label="Rejoindre")  # a button: the same card, edited by its answer
    assert "2. Bruno" in text_of(fake.message_by_id[lobby.id])

    await fake.run_command(u.alice, "jeux", "ludix cancel")
    await fake.wait_until(lambda: not fake.message_by_id[lobby.id].buttons)
    card = text_of(fake.message_by_id[lobby.id])
    assert "Partie annulée" in card and "2. Bruno" in card  # no live « Rejoindre » / « Lancer » any more


async def test_a_lobby_cancelled_by_its_number_and_an_ai_seat_show_on_its_card(world):
    fake, u = world.fake, world.u
    first = (await fake.run_command(u.alice, "jeux", "tectonic start", adversaire="joueur")).message
    second = (await fake.run_command(u.bruno, "jeux", "ludix start", ia=1, niveau=2)).message
    assert "2. Bot 1 (IA, Difficile)" in text_of(second)  # the level as the start command names it
    assert "Recul du pic" in text_of(first) or "recul du pic" in text_of(first)
    await fake.run_command(u.alice, "jeux", "tectonic cancel", partie=game_id_of(first))
    await fake.wait_until(lambda: not fake.message_by_id[first.id].buttons)
    assert "Partie annulée" in text_of(fake.message_by_id[first.id])
    assert fake.message_by_id[second.id].buttons  # the other lobby untouched
    # issue 24: the game against the bot starts; its seats: Bruno to play, the AI with its level
    await fake.click(u.bruno, fake.message_by_id[second.id], label="Lancer")
    table = await wait_control(fake)
    seats = seat_sections(table)
    assert [t for t, _ in seats] == ["▶ **Bruno** · 0 point", "Bot 1 · 0 point"]
    assert [(a["label"], a.get("disabled", False)) for _, a in seats] == [("Profil", False), ("🤖 Difficile", False)]
    # issue 37: the AI's button says its level's measured strength, privately, in the clicker's language
    res = await fake.click(u.alice, table, custom_id=seats[1][1]["custom_id"])
    assert res.ephemeral and "🤖 **Bot 1** — IA, niveau **Difficile**\n-# Ludix\n" in res.content, res.content
    assert ("• Face au bot Facile\u00a0: il gagne **60,7\u00a0%** des parties (sur\u00a01\u202f000)."
            in res.content), res.content
    res = await fake.click(u.dave, table, custom_id=seats[1][1]["custom_id"])
    assert res.ephemeral and "🤖 **Bot 1** — AI, level **Hard**\n-# Ludix\n" in res.content, res.content
    assert "• Against the Easy bot: wins **60.7%** of games (out of\u00a01,000)." in res.content, res.content
    res = await fake.click(u.dave, table, custom_id=seats[0][1]["custom_id"])  # in the clicker's language
    assert res.ephemeral and "Bruno has not finished any game on this server yet" in res.content, res.content


async def test_private_controls_are_bound_to_their_moment(world):
    """A discard select of an earlier turn is refused like a stale button, and changes nothing; once
    the game is cancelled, « Ma main » and the hand's select of an old client are refused too."""
    from tests.e2e.ludime_driver import LudimeTable

    fake, u = world.fake, world.u
    table = LudimeTable(world, [u.alice, u.bruno])
    await table.open("main")
    try:
        state, game = await table.state()
        first = state.current
        res = await table.play(first, {"type": "draw", "source": "pile"})
        old = next(m for m in res.ephemeral_messages if m.selects)  # the hand, with its discard select
        old_letter = old.selects[0]["options"][0]["value"]
        state, _ = await table.state()
        await table.play(first, {"type": "discard", "letter": state.hands[first][0]})
        second = 1 - first
        await table.play(second, {"type": "draw", "source": "pile"})
        state, _ = await table.state()
        await table.play(second, {"type": "discard", "letter": state.hands[second][0]})
        await table.play(first, {"type": "draw", "source": "pile"})  # the first player's turn again

        user = table.players[first]
        res = await table.refused(user, lambda: fake.select(user, old, [old_letter]), "déjà été joué")
        assert "https://discord.com/channels/" in res.content  # with a link to the current message
        assert (await table.state())[0].current == first  # the turn was not ended

        hand_button = table.control().find_component(label="Ma main")["custom_id"]
        control = table.control()
        res = await fake.run_command(u.alice, "jeux", "ludime cancel")
        assert not res.ephemeral
        await fake.wait_until(lambda: not fake.message_by_id[control.id].buttons)
        for send in (lambda: fake.forge_click(u.bruno, control, hand_button),
                     lambda: fake.select(user, old, [old_letter])):
            res = await send()
            assert res.ephemeral and "annulée" in res.content and "n'est plus à jour" in res.content, res.content
            assert "À vous" not in res.content and not res.attachments
    finally:
        await table.close()


async def test_lutinades_turns_keep_their_table_picture_once_the_bot_plays_for_an_absent_lutin(tmp_path, bot_db):
    """Issue 24: once the others let the bot play for Chloé, her gesture is made as the turn opens;
    the new turn's card still shows the table (it did not: « a gesture only » hid the picture)."""
    from cogs.lutinades.cog import own_gesture_text
    from tests.e2e.harness import last_control, usual_world

    env = {"LUDIBOT_SCHEDULER_POLL": "0.2", "LUDIBOT_PUBLISH_POLL": "0.3"}
    async with usual_world(tmp_path, bot_db, env=env) as world:
        fake, u = world.fake, world.u
        lobby = (await fake.run_command(u.alice, "jeux", "lutinades start")).message
        await fake.click(u.bruno, lobby, label="Rejoindre")
        await fake.click(u.chloe, lobby, label="Rejoindre")
        await fake.click(u.alice, lobby, label="Lancer",
                         until=lambda r: any(m.visible_to is None and m.buttons for m in r.created))
        table = last_control(fake)
        await fake.click(u.bruno, table, label=own_gesture_text("up", None, "fr"))  # Chloé does not
        world.bot.advance(48 * 3600 + 5)
        vote_msg = await fake.wait_for_message(
            lambda m: m.visible_to is None and "🗳️" in m.content and m.buttons and "Chloé" in m.content, timeout=20)
        for user in (u.alice, u.bruno):
            cid = next(b["custom_id"] for b in vote_msg.buttons if b["custom_id"].endswith("-ai"))
            await fake.click(user, vote_msg, custom_id=cid)
        # the bot made Chloé's gesture: the gestures are shown and Alice (the picker) follows a lutin —
        # or, the same gesture twice, the turn resolves by itself; either way a new turn opens
        up = own_gesture_text("up", None, "fr")

        def public_after(after: int, *labels: str):
            return lambda m: (m.visible_to is None and m.id > after and not m.deleted
                              and any(label.startswith(labels) for label in m.button_labels))

        msg = await fake.wait_for_message(public_after(vote_msg.id, "Suivre", up), timeout=30)
        if any(label.startswith("Suivre") for label in msg.button_labels):
            assert msg.is_v2 and msg.images, "the reveal shows the table"
            follow = next(b for b in msg.buttons if b.get("label", "").startswith("Suivre"))
            await fake.click(u.alice, msg, custom_id=follow["custom_id"])
            msg = await fake.wait_for_message(public_after(msg.id, up), timeout=30)
        gid = msg.buttons[0]["custom_id"].split(":")[1]
        assert msg.is_v2 and [a.filename for a in msg.images] == [f"lutinades-{gid}.png"], msg.content
        assert world.bot.tracebacks() == []


async def test_a_ludime_word_is_laid_from_the_form_that_shows_the_hand(world):
    """« Poser un mot » opens a form with the player's hand; the word typed there is laid (a wrong one
    is refused privately and changes nothing); another player cannot open it."""
    import json

    from engines.ludime import ENGINE
    from tests.e2e.ludime_driver import LudimeTable, answered, hand_letters

    fake, u = world.fake, world.u
    table = LudimeTable(world, [u.alice, u.bruno])
    await table.open("main")
    try:
        for _ in range(80):  # the AI's moves until one lays words
            state, _ = await table.state()
            seat = state.current
            action = ENGINE.ai_action(state, seat)
            if action["type"] == "play":
                break
            await table.play(seat, action)
        else:
            pytest.fail("no word laid in 80 moves")
        user, other = table.players[seat], table.players[1 - seat]
        control = table.control()
        res = await fake.click(other, control, label="Poser un mot")
        assert res.ephemeral and res.modal is None, res.content  # not their turn: no form
        opened = await fake.click(user, control, label="Poser un mot")
        assert opened.modal is not None and opened.modal["title"] == "Poser un mot"
        assert hand_letters(state.hands[seat]) in json.dumps(opened.modal, ensure_ascii=False)

        await table.refused(user, lambda: fake.submit_modal(user, opened, {"mot": "ZZZZZZ"}), "ZZZZZZ")
        opened = await fake.click(user, control, label="Poser un mot")
        version = (await table.game()).version
        res = await fake.submit_modal(user, opened, {"mot": ", ".join(action["words"])}, until=answered)
        assert not res.ephemeral and res.public_messages, res.content
        after, game = await table.state()
        assert game.version > version and {w for _, w, _ in after.words} >= {w.upper() for w in action["words"]}
    finally:
        await table.close()


async def test_a_limit_placement_is_made_only_after_confirmer(world):
    """Choosing a position shows the board with the tile in place and the score change; nothing is
    stored until « Confirmer »; « Changer » brings the choice back."""
    from tests.e2e.harness import read_game_row

    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "limit start", plateau="nexus", solo=True)
    table = res.message
    gid = int(table.buttons[0]["custom_id"].split(":")[1])
    version = read_game_row(world.bot.db, gid).version
    panel = await fake.click(u.alice, table, label="Placer")
    first = panel.message.selects[0]["options"][0]["value"]
    preview = await fake.select(u.alice, panel.message, [first], custom_id=panel.message.selects[0]["custom_id"])
    assert preview.response_type == 7 and "Aperçu" in preview.content and f"en {first}" in preview.content
    assert preview.message.button_labels == ["Confirmer", "Changer"] and preview.message.images
    assert read_game_row(world.bot.db, gid).version == version and preview.public_messages == []  # nothing placed

    back = await fake.click(u.alice, preview.message, label="Changer")
    assert back.response_type == 7 and back.message.selects and read_game_row(world.bot.db, gid).version == version
    second = back.message.selects[0]["options"][1]["value"]
    preview = await fake.select(u.alice, back.message, [second], custom_id=back.message.selects[0]["custom_id"])
    confirm_id = preview.message.find_component(label="Confirmer")["custom_id"]
    done = await fake.click(u.alice, preview.message, label="Confirmer", until=lambda r: bool(r.public_messages))
    assert "Vous avez posé" in done.content and second in done.content, done.content
    placed = read_game_row(world.bot.db, gid).version
    assert placed > version and not done.message.buttons
    res = await fake.forge_click(u.alice, preview.message, confirm_id)  # an old client clicks again
    assert res.ephemeral and read_game_row(world.bot.db, gid).version == placed


async def test_a_tectonic_move_is_chosen_in_a_form_without_typing(world):
    """« Jouer un coup » opens a form whose lists hold the legal moves; the one chosen is played; none
    chosen is refused privately and changes nothing."""
    from tests.e2e.harness import read_game_row

    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "tectonic start", adversaire="bot", niveau=1,
                                 until=lambda r: any(m.buttons for m in r.public_messages))
    card = next(m for m in res.public_messages if m.buttons)
    assert card.is_v2 and card.button_labels == ["Jouer un coup"]
    gid = int(card.buttons[0]["custom_id"].split(":")[1])
    opened = await fake.click(u.alice, card, label="Jouer un coup")
    form = opened.modal
    assert form is not None and form["title"] == "Votre coup"
    selects = [c["component"] for c in form["components"] if c.get("type") == 18]
    assert selects and all(len(s["options"]) <= 25 for s in selects)
    move = selects[0]["options"][0]
    assert "→" in move["label"]
    version = read_game_row(world.bot.db, gid).version
    res = await fake.submit_modal(u.alice, opened, {})
    assert res.ephemeral and "un seul" in res.content and read_game_row(world.bot.db, gid).version == version
    opened = await fake.click(u.alice, card, label="Jouer un coup")
    res = await fake.submit_modal(u.alice, opened, {selects[0]["custom_id"]: [move["value"]]},
                                  until=lambda r: r.ephemeral or any(m.buttons for m in r.public_messages))
    source, dest = move["value"].split("-")
    if res.ephemeral:  # the move flips a piece: the flip is asked with buttons, as for a typed move
        assert "retourner" in res.content.lower() and res.message.buttons, res.content
    else:
        assert f"{source.upper()}" in res.public_messages[0].content.upper()
        assert read_game_row(world.bot.db, gid).version > version
