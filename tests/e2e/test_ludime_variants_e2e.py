"""Ludime's two variants end to end: one round of each, through the fake Discord.

« Un seul mot » (mot-unique) between three users; « Une main, un mot » (main-entiere)
between a French and an English-speaking user (whose private answers are in English);
and a round of the main game against two AI seats.
"""

from __future__ import annotations

import pytest

from bot import i18n
from tests.e2e.ludime_driver import LudimeTable, scan_for_leaks

pytestmark = pytest.mark.e2e

MAX_MOVES = 300


async def play_one_round(table: LudimeTable) -> None:
    for _ in range(MAX_MOVES):
        state, game = await table.state()
        if game.status != "running" or state.round_no > 1:
            return
        await table.step()
    pytest.fail("the round did not end")


def public_text(fake) -> str:
    return "\n".join(m.content or "" for m in fake.messages("jeux") if m.visible_to is None)


async def play_round_then_cancel(world, table, scored: str) -> None:
    """Play round 1 to its end, check its public scoring line, then cancel the game if it goes on."""
    fake = world.fake
    await play_one_round(table)
    text = public_text(fake)
    assert "Points de la manche 1" in text
    assert (scored in text) or ("personne ne marque" in text)
    game = await table.game()
    if game.status == "running":
        res = await fake.run_command(world.u.alice, "jeux", "ludime cancel")
        assert not res.ephemeral and "annulée" in res.content


def final_checks(world, table, spectators) -> None:
    """Nothing private leaked to anyone, Discord refused nothing, the bot logged no error."""
    scan_for_leaks(world.fake, table, spectators)
    assert world.fake.errors == []
    assert world.bot.tracebacks() == []


async def test_one_round_of_the_single_word_variant(world):
    fake, u = world.fake, world.u
    table = LudimeTable(world, [u.alice, u.bruno, u.chloe])
    await table.open("mot-unique")
    try:
        state, _ = await table.state()
        opener = table.players[state.current]
        msg = table.control()
        assert msg.button_labels == ["Passer", "Ma main"]
        assert "distribue 12 cartes" in msg.content
        await table.show_hand(opener)
        assert len(state.hands[state.current]) == 15  # the dealer's 12 + 3
        # the main game's and variant 3's commands are refused with the right ones
        await table.refused(opener, lambda: fake.run_command(opener, "jeux", "ludime allonger", mot="#1",
                                                             nouveau="MOTS"),
                            "ne sert pas dans cette variante", f"{i18n.command('ludime poser')}, {i18n.command('ludime ajouter')}")
        await table.refused(opener, lambda: fake.run_command(opener, "jeux", "ludime poser", mot="AMI, ELU"),
                            "un seul mot de 3 lettres")
        await table.refused(opener, lambda: fake.run_command(opener, "jeux", "ludime ajouter", mot="AMIS"),
                            "Aucun mot sur la table")
        await play_round_then_cancel(world, table, "marque **")
    finally:
        await table.close()
    final_checks(world, table, [u.dave])


async def test_one_round_of_the_whole_hand_variant_in_two_languages(world):
    fake, u = world.fake, world.u
    table = LudimeTable(world, [u.alice, u.dave])
    await table.open("main-entiere")
    try:
        state, _ = await table.state()
        msg = table.control()
        assert "lance le dé" in msg.content and f"{state.hand_size} cartes" in msg.content
        assert msg.button_labels == ["Piocher", "Prendre la défausse", "Ma main"]
        for user in table.players:
            await table.show_hand(user)  # Dave's in English: checked against the English picture
        current = table.players[state.current]
        await table.refused(current, lambda: fake.run_command(current, "jeux", "ludime poser", mot="MAISON"),
                            "/ludime declarer")
        # a word that is not the whole hand
        await table.refused(u.dave, lambda: fake.run_command(u.dave, "jeux", "ludime declarer", mot="ZZZ"),
                            "Your word must use your whole hand" if current is u.dave else "It is not your turn")
        res = await fake.click(u.dave, table.control(), label="Ma main")
        assert "Your hand:" in res.content and res.ephemeral
        await play_round_then_cancel(world, table, "abat toute sa main")
    finally:
        await table.close()
    final_checks(world, table, [u.bruno])


async def test_a_round_against_two_ai_seats(world):
    fake, u = world.fake, world.u
    table = LudimeTable(world, [u.alice], ai=2)
    await table.open("main")
    try:
        _, game = await table.state()
        assert [s.name for s in game.seats] == ["Alice", "Bot 1", "Bot 2"]
        for _ in range(MAX_MOVES):
            state, game = await table.state()
            if game.status != "running" or state.round_no > 1:
                break
            assert state.current == 0  # the bots have played their turns in the same answer
            await table.step()
        else:
            pytest.fail("the round did not end")
        assert "Points de la manche 1" in public_text(fake)
    finally:
        await table.close()
    scan_for_leaks(fake, table, [u.bruno])
    assert fake.errors == []
    assert world.bot.tracebacks() == []
