"""The stalled-player vote on Discord: its buttons, a ballot, taking a seat back (see votes.py).

The buttons sit under the game's newest public message while a vote is open (``GameCog.publish``
adds them, their labels counted from the stored ballots), so a restart, a republication or a
move of another player in a simultaneous game shows them as they are. Their custom id carries
the vote's epoch (``ludibot:<game>:vote:<epoch>:<seat>-<choice>``): a ballot for a vote already
decided is refused as such.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import discord

from bot import i18n
from bot.cards import clicked_card
from bot.community.votes import Votes, choices_for, counts, majority, voters
from bot.safe import allowed_mentions
from bot.sessions import SessionError, open_votes
from bot.storage import DONE, RUNNING, VOTE, GameRow, Store
from bot.ui import Click, button, label_with_name, lang, refuse, send, view_of

log = logging.getLogger("ludibot.voting")

EMOJI = {"wait": "⏳", "ai": "🤖", "remove": "🚪"}
STYLE = {"wait": discord.ButtonStyle.secondary, "ai": discord.ButtonStyle.primary,
         "remove": discord.ButtonStyle.danger}


async def vote_controls(store: Store, game: GameRow, lg: str, has_ai: bool) -> list[discord.ui.Item]:
    """The buttons of the game's open votes (with their counts) and "take my seat back"."""
    items: list[discord.ui.Item] = []
    for key, vote in sorted(open_votes(game).items()):
        try:
            seat, epoch = int(key), int(vote["epoch"])
        except (KeyError, TypeError, ValueError):
            continue
        if not 0 <= seat < len(game.seats):
            continue
        choices = choices_for(has_ai)
        tally = counts(await store.ballots(game.id, seat, epoch), voters(game, seat), choices)
        for choice in choices:
            label = label_with_name(f"community.vote.button_{choice}", lg, "player", game.seats[seat].name,
                                    emoji=True, count=tally[choice])
            items.append(button(game.id, "vote", label, version=epoch, arg=f"{seat}-{choice}",
                                style=STYLE[choice], emoji=EMOJI[choice]))
    if game.settings.get("ai_for"):
        items.append(button(game.id, "reclaim", i18n.t("community.vote.button_reclaim", lg),
                            style=discord.ButtonStyle.success, emoji="🙋"))
    return items


async def on_vote(click: Click) -> None:
    """A ballot: refused (ephemeral, precise) unless from another seated player while the vote is
    open; a majority decides at once, otherwise the message's counts are updated."""
    inter, game = click.interaction, click.game
    bot: Any = inter.client
    cog = bot.game_cogs.get(game.kind)
    if cog is None:
        await refuse(inter, "common.error.game_unavailable")
        return
    try:
        seat_text, choice = (click.arg or "").split("-", 1)
        seat = int(seat_text)
    except ValueError:
        await refuse(inter, "common.error.forged_button")
        return
    has_ai = cog.engine.has_ai
    vote = open_votes(game).get(str(seat))
    if game.status != RUNNING or vote is None or vote.get("epoch") != click.version:
        raise SessionError("community.vote.closed", game=game.id)
    if not 0 <= seat < len(game.seats) or choice not in choices_for(has_ai):
        await refuse(inter, "common.error.forged_button")
        return
    if game.seats[seat].user_id == inter.user.id:
        raise SessionError("community.vote.own_seat", game=game.id)
    allowed = voters(game, seat)
    if inter.user.id not in allowed:
        raise SessionError("community.vote.not_voter", game=game.id)
    store = bot.store
    await store.cast_ballot(game.id, seat, click.version, inter.user.id, choice, bot.clock())
    votes = Votes(store, bot.sessions)
    tally = await votes.tally(game, seat, click.version)
    decided = majority(tally, len(allowed))
    lg = lang(inter)
    cast = i18n.t("community.vote.cast", lg, choice=choice, due=f"<t:{int(vote.get('due', 0))}:R>")
    if decided is None:
        await _update_buttons(inter, cog, game)
        await send(inter, cast, ephemeral=True)
        return
    async with cog.game_lock(game.id):
        outcome = await votes.decide(game, seat, click.version, decided)
        if outcome is None:  # decided meanwhile (another voter, the deadline, another process)
            raise SessionError("community.vote.closed", game=game.id)
        await store.close_deadline((game.id, seat, VOTE, click.version), DONE, bot.clock())
        await cog.publish(outcome, inter)
    await send(inter, cast, ephemeral=True)


async def _update_buttons(inter: discord.Interaction, cog: Any, game: GameRow) -> None:
    """The counts on the message clicked, if it is the game's newest (else a plain answer follows).
    The newest may be newer than the one the game has recorded: a click that comes right after the
    vote's message appeared, before its publication recorded it (ids grow with time)."""
    if inter.message is None or inter.message.id < (game.control_message_id or 0):
        return
    lg = await cog.public_lang_of(game)
    view = await cog.sessions.public_view(game)
    groups = await cog.control_groups(game, view, lg)
    shown = clicked_card(inter)
    try:
        if shown is None:  # a message posted before cards
            controls = [item for group in groups for item in group]
            await inter.response.edit_message(view=view_of(*controls) if controls else None)
        else:  # the same card, its controls (the counts) redrawn
            await inter.response.edit_message(view=replace(shown, groups=tuple(tuple(g) for g in groups)).layout(),
                                              allowed_mentions=allowed_mentions(None))
    except discord.HTTPException:
        log.info("could not update the vote counts of game %s", game.id)


async def on_reclaim(click: Click) -> None:
    """The player the AI stood in for takes their seat back."""
    inter, game = click.interaction, click.game
    cog = inter.client.game_cogs.get(game.kind)  # type: ignore[attr-defined]
    if cog is None:
        await refuse(inter, "common.error.game_unavailable")
        return
    async with cog.game_lock(game.id):
        outcome = await cog.sessions.reclaim(game.id, inter.user.id)
        await cog.publish(outcome, inter)


def register_votes(router) -> None:
    router.register("*", "vote", on_vote)
    router.register("*", "reclaim", on_reclaim)
