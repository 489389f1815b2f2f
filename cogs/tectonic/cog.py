"""``/tectonic``: Tectonic, against another player or the bot.

Commands: ``start`` (opponent, bot level, pic backward move), ``jouer de: vers: [retourner:]``
(move a piece; every cell option autocompletes the legal choices of the asking player's seat:
the movable pieces, then the destinations of the chosen piece, then the pieces that move may
flip), ``abandon`` (resign, after a confirmation button, on either player's turn).
``join``/``leave``/``status``/``rules``/``cancel`` come from GameCog.

When a move could flip several enemy pieces and ``retourner`` was not given, the move is
refused with the engine's reason, ephemerally, with one "Retourner E5 (pic)" button per choice;
a button's custom id carries the whole move (``C6-C8-D8``) and the game version, so a button
drawn for an older position is refused.

Against the bot at level 2 or 3 the bot's reply takes a few tenths of a second (computed
inside the session service, on the event loop): a move that will certainly be applied is
answered with a "thinking" defer first and the board follows; everything else (refusals,
moves against a person or the level-1 bot) is answered directly.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import discord
from discord import app_commands

from bot import i18n
from bot.gamecog import PACE_CHOICES, GameCog, level_choices
from bot.render_pool import Picture, picture
from bot.safe import escape, safe_params
from bot.sessions import Outcome, SessionError
from bot.storage import RUNNING, GameRow
from bot.translator import L
from bot.ui import Click, GameModal, button, edit_answer, lang, pack_groups, refuse, send, view_of
from engines.base import RuleError
from engines.tectonic import State, flip_choices, legal_destinations, legal_sources
from render.tectonic import render_board

OPPONENTS = [app_commands.Choice(name=L("tectonic.cmd.vs_player"), value="joueur"),
             app_commands.Choice(name=L("tectonic.cmd.vs_bot"), value="bot")]
PIC_BACK = [app_commands.Choice(name=L("tectonic.choice.droit"), value="droit"),
            app_commands.Choice(name=L("tectonic.choice.diagonale"), value="diagonale")]
MAX_CHOICES = 25  # Discord's limit for autocomplete
_CELL = r"[A-J](?:10|[1-9])"
#: the argument of a flip button: from-to-flip
FLIP_ARG = re.compile(rf"^({_CELL})-({_CELL})-({_CELL})$")
#: the bot levels whose reply is slow enough to answer the human's move with a defer first
DEFER_FROM_LEVEL = 2
HINT_PLIES = 4  # the "how to play" line is shown for the first moves only


def _typed(current: str | None) -> str:
    """What the user typed so far, in the engine's spelling of cells (case, spaces ignored)."""
    return "".join((current or "").split()).upper()


def _cell_key(name: str) -> tuple[str, int]:
    return name[0], int(name[1:])


def _matching(cells: list[str], current: str | None) -> list[str]:
    """``cells`` (sorted A1, A2 … A10, B1 …) that start with what was typed, else contain it."""
    q = _typed(current)
    ordered = sorted(set(cells), key=_cell_key)
    found = [c for c in ordered if c.startswith(q)]
    if not found and q:
        found = [c for c in ordered if q in c]
    return found[:MAX_CHOICES]


def _piece_name(piece: str, lg: str) -> str:
    key = f"tectonic.piece.{piece}"
    return i18n.t(key, lg) if i18n.has(key) else piece


class TectonicCog(GameCog, group_name="tectonic", group_description=L("tectonic.cmd.start")):
    kind = "tectonic"

    # --- start -------------------------------------------------------------------------
    @app_commands.command(name="start", description=L("tectonic.cmd.start"))
    @app_commands.describe(adversaire=L("tectonic.cmd.adversaire"), niveau=L("tectonic.cmd.niveau"),
                           recul_pic=L("tectonic.cmd.recul_pic"),
                           rythme=L("common.cmd.rythme"), fil=L("common.cmd.fil"))
    @app_commands.choices(rythme=PACE_CHOICES, adversaire=OPPONENTS, niveau=level_choices(3), recul_pic=PIC_BACK)
    async def start(self, interaction: discord.Interaction, adversaire: str = "joueur", niveau: int = 1,
                    recul_pic: str = "droit",
                    rythme: str | None = None, fil: bool | None = None) -> None:
        """Against the bot the game starts at once (the user plays White and moves first)."""
        against_bot = adversaire == "bot"
        await self.open_lobby(interaction, {"pic_backward": recul_pic}, ai_seats=1 if against_bot else 0,
                              ai_level=niveau, solo=against_bot, pace=rythme, thread=fil)

    # --- moves -------------------------------------------------------------------------
    @app_commands.command(name="jouer", description=L("tectonic.cmd.jouer"))
    @app_commands.describe(de=L("tectonic.cmd.de"), vers=L("tectonic.cmd.vers"),
                           retourner=L("tectonic.cmd.retourner"), partie=L("common.cmd.partie"))
    async def jouer(self, interaction: discord.Interaction, de: app_commands.Range[str, 1, 20],
                    vers: app_commands.Range[str, 1, 20], retourner: app_commands.Range[str, 1, 20] | None = None,
                    partie: int | None = None) -> None:
        game = await self.resolve(interaction, partie)
        await self._move(interaction, game, {"type": "move", "from": de, "to": vers, "flip": retourner or None})

    async def _move(self, interaction: discord.Interaction, game: GameRow, action: dict[str, Any], *,
                    version: int | None = None, clicked: bool = False) -> None:
        """Play a move for the interacting user and publish it; refusals propagate (ephemeral).

        A move that needs a flip choice is answered with the choice buttons. ``clicked``: the
        move comes from a flip button (its ephemeral message is updated, the board follows).
        """
        user_id = interaction.user.id
        async with self.game_lock(game.id):
            game = await self.sessions.get(game.id)
            sure, bot_thinks = self._dry_run(game, user_id, action, version)
            if clicked and sure:
                await edit_answer(interaction, i18n.t("tectonic.ui.flip_done", lang(interaction), **{
                    "from": action["from"], "to": action["to"], "cell": action["flip"]}))
            elif sure and bot_thinks:
                await interaction.response.defer(thinking=True)
            try:
                outcome = await self.sessions.act(game.id, user_id, action, version=version)
            except RuleError as err:
                if not interaction.response.is_done():
                    if err.key == "tectonic.error.flip_required":
                        await self._offer_flips(interaction, game, action, err)
                        return
                    raise
                await self._late_refusal(interaction, err)
                return
            await self.publish(outcome, interaction)

    def _dry_run(self, game: GameRow, user_id: int, action: dict[str, Any],
                 version: int | None) -> tuple[bool, bool]:
        """(the move will be applied, the bot will then think at a level worth a defer).

        Only decides how to answer: the session service does every check again and refuses.
        """
        if game.status != RUNNING or game.state is None or (version is not None and version != game.version):
            return False, False
        seat = game.seat_of(user_id)
        if seat is None:
            return False, False
        state = self.engine.from_dict(game.state)
        if seat not in self.engine.expected(state):
            return False, False
        try:
            after, _ = self.engine.apply(state, seat, action)
        except RuleError:
            return False, False
        other = game.seats[1 - seat]
        thinks = other.is_ai and (other.ai_level or 1) >= DEFER_FROM_LEVEL and not self.engine.is_over(after)
        return True, thinks

    async def _late_refusal(self, interaction: discord.Interaction, err: RuleError) -> None:
        """A refusal after the answer was started (only if the game changed between the dry run and
        the move, outside this cog's lock: a forfeit). A flip click's answer was an update of its
        ephemeral message: the refusal follows ephemerally. A "thinking" defer is public: its
        placeholder becomes the refusal."""
        if interaction.type == discord.InteractionType.component:
            await refuse(interaction, err)
            return
        try:
            await interaction.edit_original_response(content=i18n.t(err.key, lang(interaction), **safe_params(err.params)))
        except discord.HTTPException:
            pass  # the interaction expired: nothing else to say

    async def _offer_flips(self, interaction: discord.Interaction, game: GameRow, action: dict[str, Any],
                           err: RuleError) -> None:
        """The move needs a flip choice: the reason, with one button per enemy piece it may flip."""
        seat = game.seat_of(interaction.user.id)
        state = self.engine.from_dict(game.state)
        source, dest = _typed(action["from"]), _typed(action["to"])
        cells = flip_choices(state, seat, source, dest)
        pieces = {p["cell"]: p["piece"] for p in self.engine.view(state, None)["pieces"]}
        lg = lang(interaction)
        buttons = [button(game.id, "flip", i18n.t("tectonic.button.flip", lg, cell=c,
                                                  piece=_piece_name(pieces.get(c, ""), lg)),
                          version=game.version, arg=f"{source}-{dest}-{c}", style=discord.ButtonStyle.danger,
                          emoji="🔴")
                   for c in cells]
        text = i18n.t(err.key, lg, **safe_params(err.params)) + "\n" + i18n.t("tectonic.ui.flip_pick", lg)
        await send(interaction, text, ephemeral=True, view=view_of(*buttons))

    @app_commands.command(name="abandon", description=L("tectonic.cmd.abandon"))
    @app_commands.describe(partie=L("common.cmd.partie"))
    async def abandon(self, interaction: discord.Interaction, partie: int | None = None) -> None:
        """Ask for a confirmation (ephemeral buttons); resigning is possible on either player's turn."""
        await self.ask_resign(interaction, partie)

    # --- autocomplete: the legal choices of the asking player's seat only ----------------
    async def _my_state(self, interaction: discord.Interaction) -> tuple[State, int] | None:
        """The state and seat of the user's running game, or None (not seated, no game...)."""
        found = await self.seated(interaction)
        return None if found is None else (found[1], found[2])

    @jouer.autocomplete("de")
    async def _jouer_de(self, interaction: discord.Interaction, current: str):
        found = await self._my_state(interaction)
        if found is None:
            return []
        state, seat = found
        cells = _matching(legal_sources(state, seat), current)
        if not cells:
            return []
        lg = lang(interaction)
        pieces = {p["cell"]: p["piece"] for p in self.engine.view(state, None)["pieces"]}
        return [app_commands.Choice(name=i18n.t("tectonic.label.source", lg, cell=c,
                                                piece=_piece_name(pieces[c], lg)), value=c) for c in cells]

    @jouer.autocomplete("vers")
    async def _jouer_vers(self, interaction: discord.Interaction, current: str):
        found = await self._my_state(interaction)
        source = _typed(getattr(interaction.namespace, "de", None))
        if found is None or not source:
            return []
        state, seat = found
        lg = lang(interaction)
        out = []
        for dest in _matching(legal_destinations(state, seat, source), current):
            flips = flip_choices(state, seat, source, dest)
            params = {"from": source, "to": dest}
            if not flips:
                name = i18n.t("tectonic.label.move", lg, **params)
            elif len(flips) == 1:
                name = i18n.t("tectonic.label.move_flip", lg, cell=flips[0], **params)
            else:
                name = i18n.t("tectonic.label.move_flips", lg, cells=", ".join(flips), **params)
            out.append(app_commands.Choice(name=name[:100], value=dest))
        return out

    @jouer.autocomplete("retourner")
    async def _jouer_retourner(self, interaction: discord.Interaction, current: str):
        found = await self._my_state(interaction)
        source = _typed(getattr(interaction.namespace, "de", None))
        dest = _typed(getattr(interaction.namespace, "vers", None))
        if found is None or not source or not dest:
            return []
        state, seat = found
        if dest not in legal_destinations(state, seat, source):
            return []
        lg = lang(interaction)
        pieces = {p["cell"]: p["piece"] for p in self.engine.view(state, None)["pieces"]}
        return [app_commands.Choice(name=i18n.t("tectonic.label.source", lg, cell=c,
                                                piece=_piece_name(pieces[c], lg)), value=c)
                for c in _matching(flip_choices(state, seat, source, dest), current)]

    @jouer.autocomplete("partie")
    @abandon.autocomplete("partie")
    async def _tectonic_partie(self, interaction: discord.Interaction, current: str):
        return await self.partie_autocomplete(interaction, current)

    # --- components ----------------------------------------------------------------------
    def component_handlers(self) -> dict[str, Any]:
        return {"flip": self.on_flip, "resign": self.on_resign, "keep": self.on_keep, "form": self.on_form}

    # --- a move without typing (issue 24): « Jouer un coup » opens a form of the legal moves -------
    def turn_controls(self, game: GameRow, view: dict[str, Any], lang: str) -> list[discord.ui.Item]:
        state = self.engine.from_dict(game.state) if game.state else None
        if state is None or state.finished or game.seats[state.current].is_ai:
            return []
        return [button(game.id, "form", i18n.t("table.tectonic.button_play", lang), version=game.version,
                       style=discord.ButtonStyle.primary, emoji="♟️")]

    def move_choices(self, state: State, seat: int, lg: str) -> list[tuple[str, str]]:
        """Every legal move of ``seat`` as (value ``from-to``, label naming the piece and the flips)."""
        pieces = {p["cell"]: p["piece"] for p in self.engine.view(state, None)["pieces"]}
        out = []
        for source in legal_sources(state, seat):
            for dest in legal_destinations(state, seat, source):
                flips = flip_choices(state, seat, source, dest)
                label = i18n.t("tectonic.label.source", lg, cell=source, piece=_piece_name(pieces.get(source, ""), lg))
                label += " → " + dest
                if flips:
                    label += " " + i18n.t("table.tectonic.flips", lg, cells=", ".join(flips))
                out.append((f"{source}-{dest}", label))
        return out

    async def on_form(self, click: Click) -> None:
        """The button opens a form (a modal) whose selects list the legal moves, by groups of 25; its
        submission (the same verb) plays the one move chosen, as ``/tectonic jouer`` does (a flip
        still asked with buttons)."""
        game, interaction = click.game, click.interaction
        if interaction.type is discord.InteractionType.modal_submit:
            chosen = [v for values in click.fields.values() if isinstance(values, list) for v in values]
            if len(chosen) != 1 or chosen[0].count("-") != 1:
                raise SessionError("table.tectonic.pick_one")
            if click.check_version is None or click.version == game.version:  # (a stale form: refused as such)
                state, seat = self.mover_state(interaction, game, click.check_version)
                offered = [value for chunk in self.form_lists(state, seat, lang(interaction)) for value, _ in chunk]
                if chosen[0] not in offered:  # a crafted submission: a move the form did not list
                    raise RuleError("common.error.not_offered", value=chosen[0][:40])
            source, dest = chosen[0].split("-")
            await self._move(interaction, game, {"type": "move", "from": source, "to": dest, "flip": None},
                             version=click.check_version)
            return
        state, seat = self.mover_state(interaction, game, click.check_version)
        await interaction.response.send_modal(self.move_form(game, state, seat, lang(interaction)))

    def form_lists(self, state: State, seat: int, lg: str) -> list[list[tuple[str, str]]]:
        """The form's lists of (move, label): 25 at most each, five lists, one piece's moves never split
        over two (what a submission may carry)."""
        return pack_groups(self.move_choices(state, seat, lg), lambda m: m[0].split("-")[0])

    def move_form(self, game: GameRow, state: State, seat: int, lg: str) -> GameModal:
        """The form of ``seat``'s legal moves: lists of 25 at most, each piece's moves in one list, each
        list headed by the pieces it holds."""
        form = GameModal(i18n.t("table.tectonic.modal_title", lg), game.id, "form", version=game.version)
        for k, chunk in enumerate(self.form_lists(state, seat, lg)):  # each piece's moves in one list
            menu = discord.ui.Select(custom_id=f"moves{k}", required=False, min_values=0, max_values=1,
                                     placeholder=i18n.t("table.tectonic.placeholder", lg)[:150],
                                     options=[discord.SelectOption(label=label[:100], value=value)
                                              for value, label in chunk])
            first, last = chunk[0][0].split("-")[0], chunk[-1][0].split("-")[0]
            heading = (i18n.t("table.tectonic.group_one", lg, cell=first) if first == last
                       else i18n.t("table.tectonic.group", lg, first=first, last=last))
            form.add_item(discord.ui.Label(text=heading[:45], component=menu))
        return form

    async def on_flip(self, click: Click) -> None:
        """A flip choice: the button carries the move; the session checks the player and the version."""
        m = FLIP_ARG.match(click.arg or "")
        if m is None:
            raise SessionError("common.error.forged_button")
        action = {"type": "move", "from": m[1], "to": m[2], "flip": m[3]}
        await self._move(click.interaction, click.game, action, version=click.check_version, clicked=True)

    # --- publishing ----------------------------------------------------------------------
    async def publish(self, outcome: Outcome, interaction: discord.Interaction | None = None, *,
                      extra: list[str] | None = None, **kw: Any) -> int | None:
        """As GameCog.publish, with: who plays which colour at the start, pieces and regions in
        the table's language, no "turn" lines (the mention says it), and how to play for the
        first moves."""
        game = outcome.game
        lg = kw.get("lang") or await self.public_lang_of(outcome.game)
        events = self._told(outcome.events, lg)
        hints = []
        if game.status == RUNNING and game.state is not None:
            state = self.engine.from_dict(game.state)
            # the command only where no « Jouer un coup » button offers the moves
            if (state.ply < HINT_PLIES and not game.seats[state.current].is_ai
                    and not self.turn_controls(game, {}, lg)):
                hints.append(i18n.t("tectonic.ui.hint_move", lg))
        return await super().publish(dataclasses.replace(outcome, events=events), interaction,
                                     extra=[*(extra or []), *hints], **kw)

    @staticmethod
    def _told(events: list[dict[str, Any]], lg: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for event in events:
            etype = event.get("type")
            if etype == "turn":
                continue
            out.append(event)  # its piece and region are named in the language by narrate()
            if etype == "started":
                out.append({"type": "sides", "white_seat": 0, "black_seat": 1})
        return out

    def ranking_lines(self, outcome: Outcome, lg: str) -> list[str]:
        """The end: the winner (or a draw) and why; Tectonic has no scores."""
        result = outcome.result
        if result is None:
            return []
        names = outcome.game.names
        details = result.details or {}
        reason = str(details.get("reason") or "")
        why = i18n.t(f"tectonic.reason.{reason}", lg) if i18n.has(f"tectonic.reason.{reason}") else reason or "-"
        firsts = [s for s, rank in enumerate(result.ranks) if rank == 1]
        if len(firsts) == 1:
            return [i18n.t("tectonic.ui.final_win", lg, winner=escape(names[firsts[0]]), reason=why)]
        return [i18n.t("tectonic.ui.final_draw", lg, reason=why)]

    def options_text(self, game: GameRow, lang: str) -> str:
        value = game.options.get("pic_backward", "droit")
        label = i18n.t("tectonic.option.pic_backward", lang)
        choice = i18n.t(f"tectonic.choice.{value}", lang)
        return f"{label}\u00a0: {choice}" if lang == "fr" else f"{label}: {choice}"

    # --- rendering hooks -------------------------------------------------------------------
    def render_public(self, game: GameRow, view: dict[str, Any], lang: str) -> Picture | None:
        return picture(render_board, view, game.names, lang=lang)
