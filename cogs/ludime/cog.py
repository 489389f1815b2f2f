"""``/ludime``: the letter-card game's commands and buttons (the rules live in ``engines.ludime``).

Public turn message (every move): narration, the table picture, whose turn, and buttons —
Piocher / Prendre la défausse (draw), Se défausser (opens the private discard menu),
Reposer la défausse, Passer (variant 2), and « Ma main » for everyone. Words are typed:
``/ludime poser``, ``allonger``, ``echanger``, ``ajouter`` (variant 2), ``declarer`` (variant 3).
After each accepted move the player who made it gets their hand privately (picture + letters),
with the discard select when the turn can end: the select lists the hand, so it is only ever
in an ephemeral message to its owner.
"""

from __future__ import annotations

import io
import re
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands

from bot import i18n
from bot.gamecog import PACE_CHOICES, GameCog
from bot.render_pool import Picture, picture
from bot.sessions import Outcome, SessionError
from bot.storage import FINISHED, LOBBY, RUNNING, GameRow
from bot.translator import L
from bot.ui import Click, lang, public_lang, send, view_of
from cogs.ludime import views
from engines.ludime import MAIN, SINGLE, WHOLE, normalize
from render.ludime import render_hand, render_table

WORD_SPLIT = re.compile(r"[\s,;]+")


class LudimeCog(GameCog, group_name="ludime", group_description=L("ludime.cmd.start")):
    kind = "ludime"

    # --- start -----------------------------------------------------------------------
    @app_commands.command(name="start", description=L("ludime.cmd.start"))
    @app_commands.rename(variant=L("ludime.cmd.variant_name"))
    @app_commands.describe(variant=L("ludime.cmd.variant"), ia=L("ludime.cmd.ia"),
                           rythme=L("common.cmd.rythme"), fil=L("common.cmd.fil"))
    @app_commands.choices(rythme=PACE_CHOICES, variant=[app_commands.Choice(name=L("ludime.variant.main"), value=MAIN),
                                   app_commands.Choice(name=L("ludime.variant.mot-unique"), value=SINGLE),
                                   app_commands.Choice(name=L("ludime.variant.main-entiere"), value=WHOLE)])
    async def start(self, interaction: discord.Interaction, variant: str = MAIN,
                    ia: app_commands.Range[int, 0, 3] = 0,
                    rythme: str | None = None, fil: bool | None = None) -> None:
        await self.open_lobby(interaction, {"variant": variant}, ai_seats=ia, pace=rythme, thread=fil)

    def options_text(self, game: GameRow, lang: str) -> str:
        label = i18n.t("ludime.option.variant", lang)
        name = views.variant_name(game.options.get("variant", MAIN), lang)
        return f"{label} : {name}" if lang == "fr" else f"{label}: {name}"

    # --- moves typed as commands -------------------------------------------------------
    async def _game_for(self, interaction: discord.Interaction, partie: int | None, command: str) -> GameRow:
        """The game meant, refusing a command its variant does not use (say which ones it does)."""
        game = await self.resolve(interaction, partie)
        variant = game.options.get("variant", MAIN)
        if command not in views.COMMANDS.get(variant, ()):
            raise SessionError("ludime.error.wrong_command", command=command,
                               variant=views.variant_name(variant, lang(interaction)),
                               use=views.commands_text(variant))
        return game

    @app_commands.command(name="poser", description=L("ludime.cmd.poser"))
    @app_commands.describe(mot=L("ludime.cmd.poser_mot"), partie=L("common.cmd.partie"))
    async def poser(self, interaction: discord.Interaction, mot: app_commands.Range[str, 1, 200],
                    partie: int | None = None) -> None:
        game = await self._game_for(interaction, partie, "poser")
        words = [w for w in WORD_SPLIT.split(mot) if w]
        await self.move(interaction, game, {"type": "play", "words": words})

    @app_commands.command(name="allonger", description=L("ludime.cmd.allonger"))
    @app_commands.describe(mot=L("ludime.cmd.allonger_mot"), nouveau=L("ludime.cmd.allonger_nouveau"),
                           partie=L("common.cmd.partie"))
    async def allonger(self, interaction: discord.Interaction, mot: app_commands.Range[str, 1, 60],
                       nouveau: app_commands.Range[str, 1, 60], partie: int | None = None) -> None:
        game = await self._game_for(interaction, partie, "allonger")
        await self.move(interaction, game, {"type": "extend", "target": mot.strip(), "word": nouveau})

    @app_commands.command(name="echanger", description=L("ludime.cmd.echanger"))
    @app_commands.describe(lettres=L("ludime.cmd.echanger_lettres"), partie=L("common.cmd.partie"))
    async def echanger(self, interaction: discord.Interaction, lettres: app_commands.Range[str, 1, 60],
                       partie: int | None = None) -> None:
        game = await self._game_for(interaction, partie, "echanger")
        await self.move(interaction, game, {"type": "exchange", "letters": lettres})

    @app_commands.command(name="ajouter", description=L("ludime.cmd.ajouter"))
    @app_commands.describe(mot=L("ludime.cmd.ajouter_mot"), partie=L("common.cmd.partie"))
    async def ajouter(self, interaction: discord.Interaction, mot: app_commands.Range[str, 1, 60],
                      partie: int | None = None) -> None:
        game = await self._game_for(interaction, partie, "ajouter")
        await self.move(interaction, game, {"type": "add", "word": mot})

    @app_commands.command(name="declarer", description=L("ludime.cmd.declarer"))
    @app_commands.describe(mot=L("ludime.cmd.declarer_mot"), partie=L("common.cmd.partie"))
    async def declarer(self, interaction: discord.Interaction, mot: app_commands.Range[str, 1, 60],
                       partie: int | None = None) -> None:
        game = await self._game_for(interaction, partie, "declarer")
        await self.move(interaction, game, {"type": "declare", "word": mot})

    @app_commands.command(name="table", description=L("ludime.cmd.table"))
    @app_commands.describe(partie=L("common.cmd.partie"))
    async def table(self, interaction: discord.Interaction, partie: int | None = None) -> None:
        game = await self._table_game(interaction, partie)
        if game.status == LOBBY:
            raise SessionError("common.error.not_started", game=game.id)
        lg = await public_lang(interaction)
        view = await self.sessions.public_view(game)
        image = await self.render_public_cached(game, view, lg)
        await send(interaction, views.table_text(game, view, lg),
                   file=discord.File(io.BytesIO(image), filename=f"ludime-{game.id}-table.png"))

    async def _table_game(self, interaction: discord.Interaction, partie: int | None) -> GameRow:
        """The game meant, or else the channel's latest finished one (its final table)."""
        if partie is not None:
            return await self.resolve(interaction, partie, (LOBBY, RUNNING, FINISHED))
        try:
            return await self.resolve(interaction, None)
        except SessionError as err:
            if err.key != "common.error.no_game_here":
                raise
        done = await self.sessions.store.games_in_channel(interaction.channel_id, (FINISHED,), kind=self.kind)
        if not done:
            raise SessionError("common.error.no_game_here")
        return max(done, key=lambda g: g.id)

    @allonger.autocomplete("mot")
    async def _word_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The table's words this player may change now: their own, and others' once they may take."""
        partie = getattr(interaction.namespace, "partie", None)
        try:
            game = await self.resolve(interaction, partie if isinstance(partie, int) else None, (RUNNING,))
        except SessionError:
            return []
        if game.status != RUNNING:
            return []
        seat = game.seat_of(interaction.user.id)
        if seat is None or game.options.get("variant", MAIN) != MAIN:
            return []
        view = await self.sessions.view_for(game, interaction.user.id)
        if view.get("current") != seat or view.get("first_turn"):
            return []
        typed = normalize(current or "").lstrip("#")
        lg = lang(interaction)
        names = game.names
        out = []
        for w in view.get("words") or []:
            if w["owner"] != seat and not view.get("can_take"):
                continue
            if typed and typed not in w["word"] and typed != str(w["id"]):
                continue
            label = i18n.t("ludime.label.word_choice", lg, word=w["word"], owner=names[w["owner"]], value=w["value"])
            out.append(app_commands.Choice(name=label[:100], value=f"#{w['id']}"))
        return out[:25]

    @poser.autocomplete("partie")
    @allonger.autocomplete("partie")
    @echanger.autocomplete("partie")
    @ajouter.autocomplete("partie")
    @declarer.autocomplete("partie")
    @table.autocomplete("partie")
    async def _ludime_partie_ac(self, interaction: discord.Interaction, current: str):
        return await self.partie_autocomplete(interaction, current)

    # --- buttons and the discard select ------------------------------------------------
    def component_handlers(self) -> dict[str, Any]:
        return {"draw": self.on_draw, "take": self.on_take, "undo": self.on_undo, "pass": self.on_pass,
                "discard_menu": self.on_discard_menu, "discard": self.on_discard}

    async def on_draw(self, click: Click) -> None:
        await self.move(click.interaction, click.game, {"type": "draw", "source": "pile"},
                        version=click.check_version)

    async def on_take(self, click: Click) -> None:
        await self.move(click.interaction, click.game, {"type": "draw", "source": "discard"},
                        version=click.check_version)

    async def on_undo(self, click: Click) -> None:
        await self.move(click.interaction, click.game, {"type": "undo_take"}, version=click.check_version)

    async def on_pass(self, click: Click) -> None:
        await self.move(click.interaction, click.game, {"type": "pass"}, version=click.check_version)

    async def on_discard_menu(self, click: Click) -> None:
        """« Se défausser »: the current player's hand and the select of its letters, privately."""
        game = click.game
        _, seat = self.player_state(click.interaction, game)
        if seat not in self.sessions.expected_seats(game):
            raise SessionError("common.error.not_your_turn")
        await self.send_hand(click.interaction, game)

    async def on_discard(self, click: Click) -> None:
        """The select of the hand's letters: discarding ends the turn (the engine says if it may)."""
        letter = click.values[0] if click.values else ""
        await self.move(click.interaction, click.game, {"type": "discard", "letter": letter})

    # --- applying a move ---------------------------------------------------------------
    async def move(self, interaction: discord.Interaction, game: GameRow, action: dict[str, Any], *,
                   version: int | None = None) -> Outcome:
        """Apply the move and post the public message (GameCog.play), then show the mover their hand."""
        outcome = await self.play(interaction, game, action, version=version)
        if outcome.game.status == RUNNING:
            await self.send_hand(interaction, outcome.game, outcome.events)
        return outcome

    async def show_private(self, interaction: discord.Interaction, game: GameRow) -> None:
        """« Ma main » (GameCog's "mine" verb): the same private hand message as after a move."""
        if game.status == LOBBY:
            raise SessionError("common.error.not_started", game=game.id)
        if game.seat_of(interaction.user.id) is None:
            raise SessionError("common.error.not_a_player", game=game.id)
        await self.send_hand(interaction, game)

    async def send_hand(self, interaction: discord.Interaction, game: GameRow,
                        events: list[dict[str, Any]] | None = None) -> None:
        """The interacting player's hand: picture, letters, what to do now, the discard select if due."""
        view = await self.sessions.view_for(game, interaction.user.id)
        if view.get("seat") is None:
            raise SessionError("common.error.not_a_player", game=game.id)
        lg = lang(interaction)
        image = await self.render(self.render_private(game, view, lg))
        content, items = views.hand_message(game, view, lg, events, await self.public_lang_of(game))
        await send(interaction, content, ephemeral=True,
                   file=discord.File(io.BytesIO(image), filename=f"ludime-{game.id}-private.png"),
                   view=view_of(*items) if items else None)

    async def publish(self, outcome: Outcome, interaction: discord.Interaction | None = None, *,
                      extra: list[str] | None = None, **kw: Any) -> int | None:
        """As GameCog's, telling the first deal and every player's points after each end of round."""
        view = await self.sessions.public_view(outcome.game) if outcome.game.state else {}
        outcome = replace(outcome, events=views.told_events(outcome.game, outcome.events, view))
        return await super().publish(outcome, interaction, extra=extra, **kw)

    # --- rendering ---------------------------------------------------------------------
    def render_public(self, game: GameRow, view: dict[str, Any], lang: str) -> Picture | None:
        return picture(render_table, view, game.names, views.labels(lang))

    def render_private(self, game: GameRow, view: dict[str, Any], lang: str) -> Picture | None:
        return picture(render_hand, view, game.names, views.labels(lang))

    def turn_controls(self, game: GameRow, view: dict[str, Any], lang: str) -> list[discord.ui.Item]:
        current = view.get("current")
        if current is None:
            return []
        legal = self.engine.legal_actions(self.engine.from_dict(game.state), current)
        return views.turn_buttons(game, view, legal, lang)
