"""Issue 18's flows end to end, through the fake Discord: Ludime's variant-2 turn is one public
message (an addition within a turn is answered privately and edits the turn's message, pinging
nobody), ``/ludime main`` shows the hand at any time, and in Lutinades the forbidden gesture of
"en grand" is warned about before it counts, the gesture buttons sit under the private card, and
an automatic follow says it is automatic."""

from __future__ import annotations

import pytest

from bot import i18n
from engines.ludime import ENGINE as LUDIME
from engines.lutinades import ENGINE as LUTINADES
from tests.e2e.harness import last_control, mentioned, read_game_row
from tests.e2e.ludime_driver import LudimeTable, scan_for_leaks

pytestmark = pytest.mark.e2e

MAX_MOVES = 300


def created_public(fake, after_id: int) -> list:
    return [m for m in fake.messages("jeux") if m.visible_to is None and m.id > after_id]


async def test_variant_two_turn_is_one_public_message_and_pings_once(world):
    fake, u = world.fake, world.u
    # nobody plays here yet: the hand command says so precisely
    res = await fake.run_command(u.alice, "jeux", "ludime main")
    assert res.ephemeral and res.content == i18n.t("ludime.error.no_hand_here", "fr") and not res.attachments
    table = LudimeTable(world, [u.alice, u.bruno, u.chloe])
    await table.open("mot-unique")
    try:
        # /ludime main: the player's own hand, privately, at any time (not only on their turn)
        state, _ = await table.state()
        waiting = next(s for s in range(3) if s != state.current)
        res = await fake.run_command(table.players[waiting], "jeux", "ludime main")
        assert res.ephemeral and res.attachments, res.content
        await table.check_hand_message(res.message, waiting)
        # a spectator has no hand here: refused precisely, nothing shown
        res = await fake.run_command(u.dave, "jeux", "ludime main")
        assert res.ephemeral and res.content == i18n.t("ludime.error.no_hand_here", "en") and not res.attachments
        # play until a player who added letters ends their turn
        ended = False
        for _ in range(MAX_MOVES):
            state, game = await table.state()
            if game.status != "running":
                break
            seat = state.current
            action = LUDIME.ai_action(state, seat)
            adds = sum(table.within_turn_adds)
            newest = max(m.id for m in fake.messages("jeux"))
            await table.play(seat, action)
            if action["type"] != "pass" or sum(table.within_turn_adds) != adds or not table.within_turn_adds:
                continue
            if getattr(table, "_chain_version", None) != (await table.game()).version - 1:
                continue  # this pass did not follow an addition
            # the turn of the additions ends: one new public message, which pings the next player
            # only, never the one who was still acting
            (new,) = created_public(fake, newest)
            state, game = await table.state()
            if game.status == "running" and state.round_no == 1:
                assert mentioned(new) == [table.players[state.current].id], new.content
            assert table.players[seat].id not in mentioned(new)
            ended = True
            break
        assert ended and table.within_turn_adds, "no turn with additions ended in this round"
        scan_for_leaks(fake, table, [u.dave])
    finally:
        await table.close()
    assert fake.errors == []
    assert world.bot.tracebacks() == []


async def test_variant_two_a_turn_message_that_cannot_be_edited_is_posted_again_without_ping(world):
    fake, u = world.fake, world.u
    table = LudimeTable(world, [u.alice, u.bruno])
    await table.open("mot-unique")
    try:
        for _ in range(MAX_MOVES):  # up to an addition that leaves its player acting
            state, game = await table.state()
            assert game.status == "running"
            seat = state.current
            action = LUDIME.ai_action(state, seat)
            if action["type"] == "add":
                after, events = LUDIME.apply(state, seat, action)
                if after.current == seat and not {"passed", "turn"} & {e["type"] for e in events}:
                    break
            await table.play(seat, action)
        else:
            pytest.fail("no addition within a turn")
        game = await table.game()
        table.control().deleted = True  # a moderator deleted the turn message: Discord refuses its edit
        newest = max(m.id for m in fake.messages("jeux", include_deleted=True))
        res = await fake.run_command(table.players[seat], "jeux", "ludime ajouter", mot=action["word"],
                                     until=lambda r: r.ephemeral and r.attachments)
        assert res.ephemeral and res.public_messages == [], res.content
        await fake.wait_until(lambda: created_public(fake, newest), timeout=20)
        (new,) = created_public(fake, newest)
        word = after.words[0][1]
        assert f"**{word}**" in new.content and new.attachments, new.content
        assert new.allowed_mentions is not None and "users" not in new.allowed_mentions.get("parse", []) \
            and not new.allowed_mentions.get("users"), "the player still acting is pinged again"
        assert any(b["custom_id"].endswith(f":pass:{game.version + 1}") for b in new.buttons), new.buttons
        await fake.wait_until(lambda: read_game_row(world.bot.db, game.id).control_message_id == new.id)
    finally:
        await table.close()
    # Discord refused only what it had to: edits of the deleted message (the in-place edit, taking its
    # buttons off)
    assert fake.errors and all(e["status"] == 404 and e["code"] == 10008 and e["method"] == "PATCH"
                               for e in fake.errors), fake.errors
    assert world.bot.tracebacks() == []


async def test_the_hand_command_in_english_and_for_a_lobby(world):
    fake, u = world.fake, world.u
    res = await fake.run_command(u.dave, "jeux", "ludime start")
    lobby = res.message
    # seated in a lobby only: the game has not started
    res = await fake.run_command(u.dave, "jeux", "ludime main")
    assert res.ephemeral and res.content == i18n.t("common.error.not_started", "en", game=int(
        lobby.buttons[0]["custom_id"].split(":")[1])), res.content
    res = await fake.click(u.alice, lobby, label="Rejoindre")
    res = await fake.click(u.dave, lobby, label="Lancer", until=lambda r: any(m.visible_to is None and m.attachments
                                                                                for m in r.messages))
    res = await fake.run_command(u.dave, "jeux", "ludime main")
    assert res.ephemeral and "Your hand:" in res.content and res.attachments, res.content
    # a second table here: each player's own game is meant; a player of neither is refused precisely
    res = await fake.run_command(u.bruno, "jeux", "ludime start")
    second = int(res.message.buttons[0]["custom_id"].split(":")[1])
    res = await fake.run_command(u.alice, "jeux", "ludime main")
    assert res.ephemeral and "Votre main\u00a0:" in res.content and res.attachments, res.content
    res = await fake.run_command(u.bruno, "jeux", "ludime main")
    assert res.ephemeral and res.content == i18n.t("common.error.not_started", "fr", game=second), res.content
    res = await fake.run_command(u.chloe, "jeux", "ludime main")
    assert res.ephemeral and res.content == i18n.t("ludime.error.no_hand_here", "fr") and not res.attachments
    assert fake.errors == []
    assert world.bot.tracebacks() == []


# --- Lutinades ------------------------------------------------------------------------------
def lutinades_state(world, game_id: int):
    row = read_game_row(world.bot.db, game_id)
    return LUTINADES.from_dict(row.state), row


def published(res) -> bool:
    return bool(res.public_messages) and bool(res.ephemeral_messages)


async def test_en_grand_warns_before_the_forbidden_gesture_and_says_the_follow_is_automatic(world):
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "lutinades start", variante="en-grand")
    lobby = res.message
    for user in (u.bruno, u.chloe):
        await fake.click(user, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer",
                     until=lambda r: any(m.visible_to is None and m.buttons for m in r.created))
    msg = last_control(fake)
    game_id = int(msg.buttons[0]["custom_id"].split(":")[1])
    forbidden = i18n.t("lutinades.button.forbidden", "fr", gesture=i18n.t("lutinades.gesture.small", "fr"))
    # « Voir la carte »: the card, and the gesture buttons on that private message itself
    res = await fake.click(u.bruno, msg, label="Voir la carte")
    card_msg = res.message
    assert res.ephemeral and card_msg.visible_to == u.bruno.id and res.attachments
    assert forbidden in card_msg.button_labels and "Vers le haut" in card_msg.button_labels
    # the forbidden gesture: a private warning first, nothing recorded, nothing public
    publics = len([m for m in fake.messages("jeux") if m.visible_to is None])
    res = await fake.click(u.bruno, card_msg, label=forbidden)
    assert res.ephemeral and res.message.visible_to == u.bruno.id, res.content
    assert "interdit" in res.content and "ignoré" in res.content and "champignon" in res.content
    confirm = i18n.t("lutinades.button.confirm_forbidden", "fr")
    assert res.message.button_labels == [confirm]
    state, _ = lutinades_state(world, game_id)
    assert state.gestures[1] is None, "the warning recorded the gesture"
    assert len([m for m in fake.messages("jeux") if m.visible_to is None]) == publics
    # the picker cannot use the warning's way either
    res_p = await fake.click(u.alice, msg, label=forbidden)
    assert res_p.ephemeral and res_p.content == i18n.t("lutinades.error.picker_cannot_gesture", "fr")
    # confirmed: recorded, and applied as the rules say once all have chosen
    res = await fake.click(u.bruno, res.message, label=confirm, until=published)
    assert "De petite taille" in res.ephemeral_messages[0].content
    state, _ = lutinades_state(world, game_id)
    assert state.gestures[1] == ("small", None)
    # Chloé plays from her own card message (no scrolling back to the turn message)
    res = await fake.click(u.chloe, last_control(fake), label="Voir la carte")
    res = await fake.click(u.chloe, res.message, label="Vers le haut", until=published)
    (public,) = res.public_messages
    assert "ignoré (geste interdit)" in public.content
    auto = i18n.t("lutinades.label.followed_auto", "fr", picker="Alice", lutin="Chloé")
    assert auto in public.content and "Suivi automatique" in public.content, public.content
    assert "La carte est révélée" in public.content or "Le panneau" in public.content
    # the card message's buttons belong to its turn: once chosen, refused precisely
    res = await fake.click(u.bruno, card_msg, label="Vers le bas")
    assert res.ephemeral and not res.public_messages, res.content
    assert fake.errors == []
    assert world.bot.tracebacks() == []
