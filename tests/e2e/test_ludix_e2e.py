"""Ludix end to end: the real bot process, the fake Discord, two users, refusals, a SIGKILL mid-game."""

from __future__ import annotations

import pytest

from tests.e2e.harness import (
    assert_card,
    check_table_cards,
    followed,
    last_control,
    mentioned,
    seat_sections,
    wait_control,
)

pytestmark = pytest.mark.e2e


async def open_game(world, *joiners, target=50):
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "ludix start", objectif=target)
    lobby = res.message
    assert not res.ephemeral and "Ludix" in lobby.content and lobby.button_labels[:2] == ["Rejoindre", "Quitter"]
    for user in joiners:
        res = await fake.click(user, lobby, label="Rejoindre")
        assert res.response_type == 7 and user.name in lobby.content
    return lobby


async def play_turn(fake, users_by_id, msg):
    """The expected player rolls, then stops if the roll did not bust. Returns the newest control message."""
    (uid,) = mentioned(msg)
    user = users_by_id[uid]
    res = await fake.click(user, msg, label="Lancer les dés")
    assert not res.ephemeral and res.attachments and res.attachments[0].bytes[:4] == b"\x89PNG"
    new = await followed(fake, res, msg)
    if "Stop (marquer)" in new.button_labels and mentioned(new) == [uid]:
        res = await fake.click(user, new, label="Stop (marquer)")
        new = await followed(fake, res, new)
    return new


async def test_full_game_between_two_users(world):
    fake, u = world.fake, world.u
    lobby = await open_game(world, u.bruno)
    res = await fake.click(u.alice, lobby, label="Lancer")
    assert "La partie est lancée" in lobby.content and lobby.buttons == []
    msg = await wait_control(fake)
    assert mentioned(msg) == [u.alice.id] and msg.button_labels == ["Lancer les dés"]
    # issue 24: a Section per seat, the seat to play marked, « Profil » beside each
    first = msg
    gid = int(msg.buttons[0]["custom_id"].split(":")[1])
    seats = seat_sections(msg)
    assert [t for t, _ in seats] == ["▶ **Alice** · 0 point", "Bruno · 0 point"]
    assert [(a["label"], a["custom_id"], a.get("disabled", False)) for _, a in seats] == [
        ("Profil", f"ludibot:{gid}:profile:0:0", False), ("Profil", f"ludibot:{gid}:profile:0:1", False)]
    by_id = {u.alice.id: u.alice, u.bruno.id: u.bruno}
    scored = False
    for _ in range(200):
        if "Fin de la partie" in (msg.content or ""):
            break
        msg = await play_turn(fake, by_id, msg)
        if "Fin de la partie" not in (msg.content or ""):  # the seats follow the scores (as the game tells them)
            texts = [t for t, _ in seat_sections(msg)]
            (to_play,) = [t for t in texts if t.startswith("▶ ")]
            assert to_play.startswith("▶ **" + by_id[mentioned(msg)[0]].name + "** · ")
            for t in texts:  # French agreement: "0 point", "1 point", "12 points"
                n, unit = t.rsplit(" · ", 1)[1].split(" ")
                assert unit == ("points" if int(n) >= 2 else "point"), t
                scored = scored or int(n) > 0
    else:
        pytest.fail("the game did not end")
    assert "Classement" in msg.content and "1. " in msg.content
    assert msg.button_labels == ["Revanche"]  # the finished game's only control
    # the result's seats are its ranking, each with « Profil »: that player's profile, privately
    ranking = seat_sections(msg)
    # the seats showed the points banked during the game, unless the first points banked ended it
    # (Bruno, last to play in the round, banks the target on his first turn; then only the ranking shows them)
    assert scored or sorted(int(t.rsplit(" ", 1)[1]) > 0 for t, _ in ranking) == [False, True], ranking
    # (a tie shares the first place: the dice decide the scores, some draws end level)
    assert [t.split(" ")[0] for t, _ in ranking] in (["1.", "2."], ["1.", "1."])
    assert all(" — " in t for t, _ in ranking)
    winner = ranking[0][0].split(" ")[1]
    res = await fake.click(u.chloe, msg, custom_id=ranking[0][1]["custom_id"])
    assert res.ephemeral and (f"Profil d'{winner}" in res.content or f"Profil de {winner}" in res.content)
    assert res.ephemeral and "**Ludix** — cote" in res.content and "1 partie" in res.content, res.content
    assert_card(res.message)  # a card, in the seat's colour (issue 36)
    # the first turn's card lost its controls, not its seats (« Profil » never goes stale)
    old = fake.message_by_id[first.id]
    assert old.buttons == [] and [a["label"] for a in old.accessories] == ["Profil", "Profil"]
    assert [t for t, _ in seat_sections(old)] == ["▶ **Alice** · 0 point", "Bruno · 0 point"]
    # a stale client clicking a button of the finished game is told the game is over
    game_id = int(lobby.revisions[0].buttons[0]["custom_id"].split(":")[1])
    res = await fake.forge_click(u.bruno, msg, f"ludibot:{game_id}:roll:1")
    assert res.ephemeral and f"La partie n°{game_id} est terminée" in res.content
    res = await fake.forge_click(u.dave, msg, f"ludibot:{game_id}:roll:1")
    assert res.ephemeral and f"Game #{game_id} is over" in res.content
    res = await fake.run_command(u.chloe, "jeux", "ludix status")
    assert res.ephemeral and "terminée" in res.content and res.attachments
    assert fake.errors == []
    assert world.bot.tracebacks() == []
    check_table_cards(fake, [u.alice.id, u.bruno.id])  # issue 24: every public message a card, pictures and pings in it


async def test_refusals_are_specific_ephemeral_and_change_nothing(world):
    fake, u = world.fake, world.u
    lobby = await open_game(world, u.bruno)
    # only the creator (or a moderator) starts
    res = await fake.click(u.bruno, lobby, label="Lancer")
    assert res.ephemeral and "Seul le créateur" in res.content
    res = await fake.click(u.alice, lobby, label="Lancer")
    msg = await wait_control(fake)
    # a non-player
    res = await fake.click(u.chloe, msg, label="Lancer les dés")
    assert res.ephemeral and "Vous ne jouez pas" in res.content
    # in English for an English-speaking user
    res = await fake.click(u.dave, msg, label="Lancer les dés")
    assert res.ephemeral and "You are not playing" in res.content
    # out of turn
    res = await fake.click(u.bruno, msg, label="Lancer les dés")
    assert res.ephemeral and "Ce n'est pas votre tour" in res.content
    assert last_control(fake) is msg  # nothing was posted, the game did not move
    # a double click: the first applies, the second is told it was already played
    first = await fake.click(u.alice, msg, label="Lancer les dés", wait=False)
    second = await fake.click(u.alice, msg, label="Lancer les dés", wait=False)
    await first.wait()
    await second.wait()
    answers = sorted([first, second], key=lambda r: r.ephemeral)
    assert not answers[0].ephemeral and answers[0].attachments
    assert answers[1].ephemeral and "déjà été joué" in answers[1].content
    await followed(fake, answers[0], msg)  # the roll's new turn follows the click's own answer
    # the start message and exactly one roll
    assert sum(1 for m in fake.messages("jeux") if m.attachments and m.visible_to is None) == 2
    # cancel: only the creator or a moderator; then the table loses its controls (issue 24), and
    # a click sent with an old client (the button still on its screen) gets "cancelled"
    newest = last_control(fake)
    button = newest.buttons[0]["custom_id"]
    res = await fake.run_command(u.bruno, "jeux", "ludix cancel")
    assert res.ephemeral and "Seul le créateur" in res.content
    res = await fake.run_command(u.modo, "jeux", "ludix cancel")
    assert not res.ephemeral and "annulée" in res.content
    await fake.wait_until(lambda: not fake.message_by_id[newest.id].buttons)
    res = await fake.forge_click(u.alice, newest, button)
    assert res.ephemeral and "annulée" in res.content
    assert fake.errors == []


async def test_forged_custom_ids_get_a_specific_refusal(world):
    fake, u = world.fake, world.u
    lobby = await open_game(world, u.bruno)
    await fake.click(u.alice, lobby, label="Lancer")
    msg = await wait_control(fake)
    for cid, needle in (("ludibot:999999:roll:1", "n'existe pas"), ("ludibot:abc", "pas valide"),
                        (f"ludibot:{msg_game(msg)}:selfdestruct:0", "pas valide"),
                        ("autrebot:1:roll", "pas valide")):
        res = await fake.forge_click(u.alice, msg, cid)
        assert res.ephemeral and needle in res.content, (cid, res.content)
    assert last_control(fake) is msg


def msg_game(msg) -> int:
    cid = msg.buttons[0]["custom_id"]
    return int(cid.split(":")[1])


async def test_the_game_survives_sigkill_and_old_buttons_still_work(world):
    fake, u = world.fake, world.u
    lobby = await open_game(world, u.bruno, target=1000)
    await fake.click(u.alice, lobby, label="Lancer")
    msg = await wait_control(fake)
    by_id = {u.alice.id: u.alice, u.bruno.id: u.bruno}
    msg = await play_turn(fake, by_id, msg)
    before = msg.content
    syncs = fake.sync_count
    assert syncs >= 1
    world.bot.kill()
    await fake.wait_disconnected(timeout=10)
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    await fake.wait_idle(quiet=1.0)
    assert fake.sync_count == syncs  # the command tree did not change: no new sync after a restart
    # the button posted before the kill still works
    (uid,) = mentioned(msg)
    res = await fake.click(by_id[uid], msg, label="Lancer les dés")
    assert not res.ephemeral, (before, res.content)
    assert res.attachments
    # and the game goes on after the restart (the new turn follows the click's own answer)
    msg = await followed(fake, res, msg)
    if "Stop (marquer)" in msg.button_labels and mentioned(msg) == [uid]:
        res = await fake.click(by_id[uid], msg, label="Stop (marquer)")
        msg = await followed(fake, res, msg)
    res = await fake.run_command(u.bruno, "jeux", "ludix status")
    assert res.ephemeral and res.attachments and "en cours" in res.content
    assert fake.errors == []


async def test_a_click_takes_its_own_buttons_off_without_a_channel_edit(world):
    """Issue 16: the turn message a player clicks loses its buttons in the interaction's own answer
    (UPDATE_MESSAGE), the next turn follows as a follow-up: no channel edit, which Discord's global
    rate limit (50 requests/s) would count, so throughput is not capped by it."""
    fake, u = world.fake, world.u
    lobby = await open_game(world, u.bruno, target=1000)
    await fake.click(u.alice, lobby, label="Lancer")
    msg = await wait_control(fake)
    by_id = {u.alice.id: u.alice, u.bruno.id: u.bruno}
    before = len(fake.request_log)
    seen = [msg]
    for _ in range(6):
        msg = await play_turn(fake, by_id, msg)
        seen.append(msg)
    await fake.wait_idle(quiet=0.5)
    edits = [(m, p) for m, p, _ in fake.request_log[before:] if m == "PATCH" and p.startswith("/api/v10/channels/")]
    assert edits == []
    # every older turn message has lost its buttons, the newest has them
    assert all(m.buttons == [] for m in seen[:-1] if m.id != msg.id) and msg.buttons
