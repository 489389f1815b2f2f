"""The answer to a control of an older turn (bot.ui.refuse_stale): it names what was used — a menu,
a form or a button — and links to the game's current message with words, not a bare address."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.storage import FINISHED, RUNNING, GameRow, Seat
from bot.ui import refuse_stale


def game(status: str = RUNNING) -> GameRow:
    return GameRow(id=5, guild_id=1, channel_id=2, kind="tectonic", options={}, status=status, state=None,
                   version=9, seed=1, creator_id=10, created_at=0.0, updated_at=0.0, control_message_id=77,
                   seats=[Seat(seat=0, user_id=10, name="Alice"), Seat(seat=1, user_id=11, name="Bruno")])


class Response:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, **kwargs):
        self.sent.append(kwargs)


def interaction(row: GameRow, component_type: int | None, locale: str = "fr") -> SimpleNamespace:
    async def get_game(game_id):
        return row

    kind = discord.InteractionType.modal_submit if component_type is None else discord.InteractionType.component
    return SimpleNamespace(client=SimpleNamespace(store=SimpleNamespace(get_game=get_game)), type=kind,
                           data={"component_type": component_type} if component_type else {},
                           locale=discord.Locale(locale), response=Response())


async def answer(row: GameRow, component_type: int | None, locale: str = "fr", **kw) -> str:
    inter = interaction(row, component_type, locale)
    await refuse_stale(inter, row.id, **kw)
    (sent,) = inter.response.sent
    assert sent["ephemeral"]
    return sent["content"]


async def test_a_stale_menu_is_called_a_menu_and_the_link_has_words():
    link = "https://discord.com/channels/1/2/77"
    text = await answer(game(), 3)
    assert text == f"Ce coup a déjà été joué\u00a0: ce menu n'est plus à jour. [Aller au message actuel de la partie]({link})"
    assert "ce bouton" in await answer(game(), 2)
    assert "ce formulaire" in await answer(game(), None)
    english = await answer(game(), 3, "en-US")
    assert english == f"That move was already played: this menu is out of date. [Go to the game's current message]({link})"
    ended = await answer(game(FINISHED), 3, ended=True)
    assert "Ce menu n'est plus à jour. [Aller au message actuel de la partie](" in ended
