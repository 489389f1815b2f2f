"""``/ludime``: the letter-card game's commands and buttons (the rules live in ``engines.ludime``).

Public turn message (every move): narration, the table picture, whose turn, and buttons —
Piocher / Prendre la défausse (draw), Se défausser (opens the private discard menu),
Reposer la défausse, Passer (variant 2), and « Ma main » for everyone. Words are typed:
``/ludime poser``, ``allonger``, ``echanger``, ``ajouter`` (variant 2), ``declarer`` (variant 3), and
shown as typed (``as_typed``: « TUÉE » laid with the cards T U E E).
After each accepted move the player who made it gets their hand privately (picture + letters),
with the discard select when the turn can end: the select lists the hand, so it is only ever
in an ephemeral message to its owner. ``/ludime main`` shows the same hand at any time.

Variant 2 (mot unique): a player may add several letters in one turn. An addition that leaves
them acting posts nothing new: their feedback is private, and the turn's public message is
edited in place (new picture, the addition told, the buttons of the new version; an edit pings
nobody). The next public message is posted when the turn ends.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands

from bot import i18n, takeback
from bot.cards import Card
from bot.community.clocks import clocks_of
from bot.gamecog import PACE_CHOICES, GameCog
from bot.narrate import narrate
from bot.publisher import timeout_lines
from bot.render_pool import Picture, picture
from bot.safe import Safe
from bot.sessions import Outcome, SessionError
from bot.storage import FINISHED, LOBBY, RUNNING, GameRow
from bot.translator import L
from bot.ui import Click, GameModal, lang, public_lang, send, text_input, view_of
from cogs.ludime import views
from engines.ludime import MAIN, SINGLE, WHOLE, normalize
from render.ludime import render_hand, render_table

WORD_SPLIT = re.compile(r"[\s,;]+")
log = logging.getLogger("ludibot.cogs.ludime")
#: events after which another player acts (or a new round begins): the end of a variant-2 turn
TURN_ENDS = {"turn", "round_end", "passed", "abandoned", "game_over"}
#: how far back the log is read to find the move that began the current turn (additions in a turn
#: are bounded by the hand: 15 cards)
TURN_LOOKBACK = 40
#: seconds an in-place edit may wait on Discord's rate limits before it is given up (the player
#: acting has their buttons privately; the turn's next message shows everything)
EDIT_WAIT = 30.0


class LudimeCog(GameCog, group_name="ludime", group_description=L("ludime.cmd.start")):
    kind = "ludime"

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        #: variant 2: the newest version owed to each game's turn message, and the task editing it
        self._edit_due: dict[int, Outcome] = {}
        self._edit_tasks: dict[int, asyncio.Task] = {}

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
        return f"{label}\u00a0: {name}" if lang == "fr" else f"{label}: {name}"

    # --- moves typed as commands -------------------------------------------------------
    async def _game_for(self, interaction: discord.Interaction, partie: int | None, command: str) -> GameRow:
        """The game meant, refusing a command its variant does not use (say which ones it does)."""
        game = await self.resolve(interaction, partie)
        variant = game.options.get("variant", MAIN)
        if command not in views.COMMANDS.get(variant, ()):
            lg = lang(interaction)
            raise SessionError("ludime.error.wrong_command", command=Safe(i18n.command(f"ludime {command}", lg)),
                               variant=views.variant_name(variant, lg), use=Safe(views.commands_text(variant, lg)))
        return game

    @app_commands.command(name="poser", description=L("ludime.cmd.poser"))
    @app_commands.describe(mot=L("ludime.cmd.poser_mot"), partie=L("common.cmd.partie"))
    async def poser(self, interaction: discord.Interaction, mot: app_commands.Range[str, 1, 200],
                    partie: int | None = None) -> None:
        game = await self._game_for(interaction, partie, "poser")
        words = [w for w in WORD_SPLIT.split(mot) if w]
        await self.move(interaction, game, {"type": "play", "words": words, "as_typed": True})

    @app_commands.command(name="allonger", description=L("ludime.cmd.allonger"))
    @app_commands.describe(mot=L("ludime.cmd.allonger_mot"), nouveau=L("ludime.cmd.allonger_nouveau"),
                           partie=L("common.cmd.partie"))
    async def allonger(self, interaction: discord.Interaction, mot: app_commands.Range[str, 1, 60],
                       nouveau: app_commands.Range[str, 1, 60], partie: int | None = None) -> None:
        game = await self._game_for(interaction, partie, "allonger")
        await self.move(interaction, game, {"type": "extend", "target": mot.strip(), "word": nouveau,
                                            "as_typed": True})

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
        await self.move(interaction, game, {"type": "add", "word": mot, "as_typed": True})

    @app_commands.command(name="declarer", description=L("ludime.cmd.declarer"))
    @app_commands.describe(mot=L("ludime.cmd.declarer_mot"), partie=L("common.cmd.partie"))
    async def declarer(self, interaction: discord.Interaction, mot: app_commands.Range[str, 1, 60],
                       partie: int | None = None) -> None:
        game = await self._game_for(interaction, partie, "declarer")
        await self.move(interaction, game, {"type": "declare", "word": mot, "as_typed": True})

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

    @app_commands.command(name="main", description=L("ludime.cmd.main"))
    @app_commands.describe(partie=L("common.cmd.partie"))
    async def hand_cmd(self, interaction: discord.Interaction, partie: int | None = None) -> None:
        """Your hand, privately, at any time (the same message as « Ma main »)."""
        game = await self._hand_game(interaction, partie)
        await self.show_private(interaction, game)

    async def _hand_game(self, interaction: discord.Interaction, partie: int | None) -> GameRow:
        """The game whose hand ``/ludime main`` shows: ``partie``, else the user's own game here (the
        only one, or the only one they sit at); ``ludime.error.no_hand_here`` when they sit at none."""
        if partie is not None:
            return await self.resolve(interaction, partie, (LOBBY, RUNNING))
        user_id = interaction.user.id
        try:
            game = await self.resolve(interaction, None, (LOBBY, RUNNING))
        except SessionError as err:
            if err.key == "common.error.ambiguous":  # several here: refuse as any command only if they sit at several
                here = await self.sessions.store.games_in_channel(interaction.channel_id, (LOBBY, RUNNING),
                                                                  kind=self.kind)
                if sum(1 for g in here if g.seat_of(user_id) is not None) > 1:
                    raise
            elif err.key != "common.error.no_game_here":
                raise
            raise SessionError("ludime.error.no_hand_here") from None
        if game.seat_of(user_id) is None:
            raise SessionError("ludime.error.no_hand_here")
        return game

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
            label = i18n.t("ludime.label.word_choice", lg, word=w.get("shown") or w["word"],
                           owner=names[w["owner"]], value=w["value"])
            out.append(app_commands.Choice(name=label[:100], value=f"#{w['id']}"))
        return out[:25]

    @poser.autocomplete("partie")
    @allonger.autocomplete("partie")
    @echanger.autocomplete("partie")
    @ajouter.autocomplete("partie")
    @declarer.autocomplete("partie")
    @table.autocomplete("partie")
    @hand_cmd.autocomplete("partie")
    async def _ludime_partie_ac(self, interaction: discord.Interaction, current: str):
        return await self.partie_autocomplete(interaction, current)

    # --- buttons and the discard select ------------------------------------------------
    def component_handlers(self) -> dict[str, Any]:
        return {"draw": self.on_draw, "take": self.on_take, "undo": self.on_undo, "pass": self.on_pass,
                "discard_menu": self.on_discard_menu, "discard": self.on_discard,
                "word": self.on_word}

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

    async def on_word(self, click: Click) -> None:
        """« Poser un mot »: the button opens a form showing the player's hand; its submission (the
        same verb, a modal) lays the words typed, as ``/ludime poser`` does."""
        game, interaction = click.game, click.interaction
        if click.interaction.type is discord.InteractionType.modal_submit:
            text = str(click.fields.get("mot") or "")
            words = [w for w in WORD_SPLIT.split(text) if w]
            if not words:
                raise SessionError("table.ludime.no_word")
            await self.move(interaction, game, {"type": "play", "words": words, "as_typed": True},
                            version=click.check_version)
            return
        _, seat = self.player_state(interaction, game)
        if seat not in self.sessions.expected_seats(game):
            raise SessionError("common.error.not_your_turn")
        if click.check_version is not None and click.version != game.version:
            raise SessionError("common.error.already_played")
        lg = lang(interaction)
        view = await self.sessions.view_for(game, interaction.user.id)
        form = GameModal(i18n.t("table.ludime.modal_title", lg), game.id, "word", version=game.version)
        form.add_item(discord.ui.TextDisplay(views.hand_text(view, lg)))
        form.add_item(text_input("mot", i18n.t("table.ludime.modal_label", lg),
                                 description=i18n.t("table.ludime.modal_hint", lg), max_length=200))
        await interaction.response.send_modal(form)

    async def on_discard(self, click: Click) -> None:
        """The select of the hand's letters: discarding ends the turn (the engine says if it may). The
        one value sent must be a letter the select offered (the hand's, as written): a crafted ``é`` or
        ``a`` is refused, not folded into a letter held; a select of an earlier version is stale."""
        game = click.game
        if click.check_version is not None and click.version != game.version:
            raise SessionError("common.error.already_played")
        state, seat = self.player_state(click.interaction, game)
        letter = click.chosen(self.engine.view(state, seat).get("hand") or [])
        await self.move(click.interaction, click.game, {"type": "discard", "letter": letter},
                        version=click.check_version)

    # --- applying a move ---------------------------------------------------------------
    async def move(self, interaction: discord.Interaction, game: GameRow, action: dict[str, Any], *,
                   version: int | None = None) -> Outcome:
        """Apply the move and post the public message (:meth:`play`), then show the mover their hand
        (already shown, with the move told, for a variant-2 addition within a turn)."""
        outcome = await self.play(interaction, game, action, version=version)
        if outcome.game.status == RUNNING and not self.within_turn(outcome):
            await self.send_hand(interaction, outcome.game, outcome.events)
        return outcome

    @staticmethod
    def within_turn(outcome: Outcome) -> bool:
        """Variant 2: an addition after which the same player is still acting (no new public message)."""
        game = outcome.game
        if game.status != RUNNING or game.options.get("variant", MAIN) != SINGLE:
            return False
        types = {e.get("type") for e in outcome.events}
        return "added" in types and not types & TURN_ENDS

    async def play(self, interaction: discord.Interaction, game: GameRow, action: dict[str, Any], *,
                   version: int | None = None) -> Outcome:
        """As GameCog's; a variant-2 addition within a turn is answered privately (the move told,
        the hand, the hint) and the turn's public message is edited in place, pinging nobody."""
        async with self.game_lock(game.id):
            outcome = await self.sessions.act(game.id, interaction.user.id, action, version=version)
            if self.within_turn(outcome):
                await self.send_hand(interaction, outcome.game, outcome.events, told=True)
                await self.publish_in_place(outcome)
            else:
                await self.publish(outcome, interaction)
        return outcome

    async def publish_in_place(self, outcome: Outcome) -> None:
        """Show ``outcome``'s version on the turn's public message: the version is marked published
        on that message (it exists: no repair post, no ping), and the edit runs outside the game
        lock (a rate-limited edit must not hold the next move), the newest version only."""
        game = outcome.game
        if game.control_message_id and await self.sessions.store.mark_published(game.id, game.version,
                                                                                game.control_message_id):
            self._edit_due[game.id] = outcome
            task = self._edit_tasks.get(game.id)
            if task is None or task.done():
                self._edit_tasks[game.id] = asyncio.create_task(self._edit_turn_messages(game.id))
            return
        publisher = getattr(self.bot, "publisher", None)
        if publisher is not None:  # no message to edit: the publisher posts the version
            publisher.wake(game.id, urgent=True)

    async def _edit_turn_messages(self, game_id: int) -> None:
        while (outcome := self._edit_due.pop(game_id, None)) is not None:
            try:
                await self._edit_turn_message(outcome)
            except Exception:  # noqa: BLE001 - a failed edit must not kill the loop; the log says why
                log.exception("game %s: could not show version %s in place", game_id, outcome.game.version)
        self._edit_tasks.pop(game_id, None)

    async def _edit_turn_message(self, outcome: Outcome) -> None:
        """Edit the turn's message to show ``outcome``'s version, unless a newer version has come
        (its own publication shows it). If Discord refuses the edit, post the version instead."""
        game = await self.sessions.store.get_game(outcome.game.id)
        if game is None or game.version != outcome.game.version or game.status != RUNNING:
            return
        msg_id, channel_id = game.control_message_id, game.thread_id or game.channel_id
        lg = await self.public_lang_of(game)
        view = await self.sessions.public_view(game)
        content = await self.turn_story(game, view, lg)
        image = await self.render_public_cached(game, view, lg)
        name = f"ludime-{game.id}.png"
        seats = self.seats_of(game, view, lg)
        shown = self._shown.get(msg_id) if msg_id else None
        if shown is not None and len(shown.seats) == len(seats) and all(s.line is None for s in shown.seats):
            # the same turn, redrawn: the clocks this process showed on it still hold (a turn's deadline
            # moves only when it ends) — no store query on this path
            seats = tuple(replace(s, clock=old.clock) for s, old in zip(seats, shown.seats, strict=True))
        else:
            seats = self.seats_of(game, view, lg, clocks=await clocks_of(self.bot, game, always=False))
        card = Card(text=content, accent=self.accent(game), pictures=(name,) if image else (),
                    groups=tuple(tuple(g) for g in await self.control_groups(game, view, lg)), seats=seats)

        def picture() -> list[discord.File]:
            return [discord.File(io.BytesIO(image), filename=name)] if image else []

        # the same card, redrawn (a legacy turn message becomes a card: its content emptied); no ping
        edit = self.bot.get_partial_messageable(channel_id).get_partial_message(msg_id).edit(
            content=None, attachments=picture(), view=card.layout(), allowed_mentions=discord.AllowedMentions.none())
        try:
            await asyncio.wait_for(edit, EDIT_WAIT)
            self.remember_card(msg_id, card)
        except TimeoutError:  # rate-limited for long: the turn's next message will show it all
            log.info("game %s: the turn message edit for version %s gave up after %s s", game.id, game.version,
                     EDIT_WAIT)
        except discord.HTTPException as err:  # too old to edit, deleted…: a new message instead
            log.info("game %s: the turn message could not be edited (%s); posting instead", game.id, err)
            latest = await self.sessions.store.get_game(game.id)
            if latest is None or latest.version != game.version or latest.control_message_id != msg_id:
                return  # a newer message shows the game meanwhile
            posted = await self.post(channel_id, files=picture(), card=card, silent=True)
            await self.sessions.store.set_message_ids(game.id, control=posted)
            asyncio.create_task(self._strip_controls(channel_id, msg_id))

    async def turn_story(self, game: GameRow, view: dict[str, Any], lg: str) -> str:
        """The text of the current turn's public message: what began the turn (the move logged with
        the ``turn`` event), this turn's additions since, and whose turn it is."""
        rows = await self.sessions.store.events_after(game.id, max(0, game.version - TURN_LOOKBACK))
        start = 0
        for i in range(len(rows) - 1, -1, -1):
            if any(e.get("type") == "turn" for e in rows[i].events):
                start = i
                break
        rows = rows[start:]
        events = [e for row in rows for e in row.events]
        lines = timeout_lines(game, rows, lg)
        lines += narrate(self.kind, views.told_events(game, events, view), game.names, lg)
        turn = self.turn_line(game, lg)
        if turn:
            lines.append(turn)
        return "\n".join(lines)[:2000]

    async def show_private(self, interaction: discord.Interaction, game: GameRow) -> None:
        """« Ma main » (GameCog's "mine" verb): the same private hand message as after a move."""
        if game.status == LOBBY:
            raise SessionError("common.error.not_started", game=game.id)
        if game.seat_of(interaction.user.id) is None:
            raise SessionError("common.error.not_a_player", game=game.id)
        await self.send_hand(interaction, game)

    async def send_hand(self, interaction: discord.Interaction, game: GameRow,
                        events: list[dict[str, Any]] | None = None, *, told: bool = False) -> None:
        """The interacting player's hand: picture, letters, what to do now (from the legal moves), the
        discard select if due. ``told``: the move is told here (see ``views.hand_message``)."""
        view = await self.sessions.view_for(game, interaction.user.id)
        seat = view.get("seat")
        if seat is None:
            raise SessionError("common.error.not_a_player", game=game.id)
        lg = lang(interaction)
        image = await self.render(self.render_private(game, view, lg))
        legal = None
        if game.status == RUNNING and game.state is not None:
            legal = self.engine.legal_actions(self.engine.from_dict(game.state), seat)
        content, items = views.hand_message(game, view, lg, events, await self.public_lang_of(game),
                                            legal=legal, told=told)
        if legal and view.get("phase") == "play" and seat == view.get("current"):
            # a step of the turn taken back (issue 26), offered when it would be
            items = [*items, *await takeback.undo_items(self.bot, game, interaction.user.id, lg)]
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
