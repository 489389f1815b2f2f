"""``/ranta``: Range ta Ludothèque, the simultaneous roll-and-write.

Each round the public message shows the dice and three buttons: **Ma kallax** (the
player's own sheet, ephemeral: the shared "mine" verb), **Ranger un jeu** (selects:
the box with its orientation, then its bottom-left cell) and **Poser un tapis**
(select: the cell). The same moves are slash commands with autocomplete:
``/ranta placer des orientation case`` and ``/ranta tapis case``. Every path offers
only what the engine says is legal and ends on an ephemeral preview with Confirm /
Give-up buttons; the Confirm custom id carries the choice *and its round*
(:func:`encode`: ``3.b201vD1``, ``3.mB2``, ``3.p``), so a confirm from an earlier
round is refused by the engine (stale round) and nothing changes.

Confirmations are ephemeral (the player's new sheet); the public message only says
who has placed and who is still awaited. ``join``, ``leave``, ``status`` (who has not
placed yet), ``rules`` and ``cancel`` come from :class:`GameCog`.
"""

from __future__ import annotations

import io
import re
from functools import cache
from typing import Any

import discord
from discord import app_commands

from bot import i18n
from bot.gamecog import PACE_CHOICES, GameCog
from bot.narrate import narrate
from bot.render_pool import Picture, picture
from bot.safe import escape
from bot.sessions import SessionError
from bot.storage import FINISHED, LOBBY, RUNNING, GameRow
from bot.translator import L
from bot.ui import Click, button, edit_answer, lang, matches, select, send, view_of
from engines.base import RuleError
from engines.ranta import BOX, HORIZONTAL, MAT, ORIENTATIONS, PASS, VERTICAL
from render.ranta import LABEL_KEYS, final_order, render_dice, render_final, render_replay, render_sheet

ORIENTATION_CODES = {"h": HORIZONTAL, "v": VERTICAL}
CODE_OF = {name: code for code, name in ORIENTATION_CODES.items()}
_CELL = r"[A-Za-z][0-9]{1,2}"
#: a placement carried by a custom id: ``<round>.b<dice><h|v><cell>`` | ``<round>.m<cell>`` | ``<round>.p``
CHOICE = re.compile(rf"^(?P<round>[0-9]{{1,3}})\.(?:b(?P<dice>[0-2]{{3}})(?P<orientation>[hv])(?P<cell>{_CELL})"
                    rf"|m(?P<mat>{_CELL})|(?P<pass>p))$")
#: the value of a "box and orientation" select option: ``<dice><h|v>``
BOX_PICK = re.compile(r"^(?P<dice>[0-2]{3})(?P<orientation>[hv])$")


# --- the choice codes (pure) --------------------------------------------------------
def dice_code(dice: list[int] | tuple[int, ...]) -> str:
    """``[2, 0, 1]`` -> ``"201"`` (die for the size, for the category, for the mechanic)."""
    return "".join(str(i) for i in dice)


def encode(action: dict[str, Any]) -> str:
    """A placement as a short custom-id argument (round included)."""
    if action["type"] == BOX:
        return (f"{action['round']}.b{dice_code(action['dice'])}{CODE_OF[action['orientation']]}"
                f"{action['cell']}")
    if action["type"] == MAT:
        return f"{action['round']}.m{action['cell']}"
    return f"{action['round']}.p"


def decode(arg: str | None) -> dict[str, Any]:
    """The engine action an :func:`encode` argument stands for; ``ranta.error.bad_choice`` if malformed."""
    m = CHOICE.match(arg or "")
    if m is None:
        raise RuleError("ranta.error.bad_choice", choice=str(arg))
    rnd = int(m["round"])
    if m["dice"]:
        return {"type": BOX, "round": rnd, "dice": [int(c) for c in m["dice"]],
                "orientation": ORIENTATION_CODES[m["orientation"]], "cell": m["cell"].upper()}
    if m["mat"]:
        return {"type": MAT, "round": rnd, "cell": m["mat"].upper()}
    return {"type": PASS, "round": rnd}


def parse_dice(text: Any) -> list[int]:
    """``"201"`` (what the autocomplete offers) -> ``[2, 0, 1]``. Anything else is refused here, in
    the player's words (``ranta.error.bad_dice_typed``), not with the engine's internal indices."""
    raw = str(text or "").strip()
    if re.fullmatch(r"[0-2]{3}", raw) and sorted(raw) == ["0", "1", "2"]:
        return [int(c) for c in raw]
    raise RuleError("ranta.error.bad_dice_typed", typed=raw[:40])


def round_arg(arg: str | None) -> int:
    if arg is None or not arg.isdigit():
        raise RuleError("ranta.error.bad_choice", choice=str(arg))
    return int(arg)


def box_choices(engine: Any, state: Any, seat: int) -> list[tuple[dict[str, Any], str, list[str]]]:
    """``(assignment, orientation, legal anchors)`` for every box the seat can store now (anchors non-empty)."""
    out = []
    for assignment in engine.assignments(state):
        for orientation in ORIENTATIONS:
            cells = engine.legal_placements(state, seat, assignment["dice"], orientation)
            if cells:
                out.append((assignment, orientation, cells))
    return out


def assignment_of(view: dict[str, Any], dice: list[int]) -> dict[str, Any]:
    """What a dice assignment gives, read from the view's dice meanings (any permutation, listed or not)."""
    meaning = view["dice_meaning"]
    size, cat, mech = meaning[dice[0]], meaning[dice[1]], meaning[dice[2]]
    return {"dice": list(dice), "size": size["size"], "long": size["long"], "short": size["short"],
            "category": cat["category"], "mechanic": mech["mechanic"], "symbol": mech["symbol"]}


def score_change(engine: Any, state: Any, seat: int, action: dict[str, Any]) -> tuple[int, int, dict[str, int]]:
    """The seat's score before and after ``action`` (the engine's preview: pure, nothing stored, the round
    left open), and what each scoring rule adds or takes away (the engine's breakdown, rule by rule)."""
    p = engine.preview(state, seat, action)["preview"]
    return p["before"], p["after"], p["change"]


def score_change_text(before: int, after: int, lg: str, change: dict[str, int] | None = None) -> str:
    """« Score : -36 → -28 (+8 points) », then why: each rule that moved, with its points."""
    delta = after - before
    text = i18n.t("ranta.prompt.preview_score", lg, before=before, after=after,
                  sign="−" if delta < 0 else "+", delta=abs(delta))
    if change:
        reasons = " · ".join(f"{i18n.t(f'ranta.why.{rule}', lg)} {'−' if n < 0 else '+'}{abs(n)}"
                             for rule, n in sorted(change.items(), key=lambda item: -abs(item[1])))
        text += "\n" + i18n.t("ranta.prompt.preview_why", lg, reasons=reasons)
    return text


# --- labels --------------------------------------------------------------------------
@cache
def render_labels(lg: str) -> dict[str, str]:
    return {k: i18n.t(f"ranta.{k}", lg) for k in LABEL_KEYS}


def assignment_label(a: dict[str, Any], lg: str) -> str:
    return i18n.t("ranta.label.assignment", lg, size=a["size"], category=i18n.t(f"ranta.category.{a['category']}", lg),
                  symbol=a["symbol"], mechanic=i18n.t(f"ranta.mechanic.{a['mechanic']}", lg))


def box_label(a: dict[str, Any], orientation: str, lg: str) -> str:
    width, height = (a["long"], a["short"]) if orientation == HORIZONTAL else (a["short"], a["long"])
    return i18n.t("ranta.label.box_choice", lg, assignment=assignment_label(a, lg),
                  orientation=i18n.t(f"ranta.orientation.{orientation}", lg), width=width, height=height)


class RantaCog(GameCog, group_name="ranta", group_description=L("ranta.cmd.start")):
    kind = "ranta"

    @app_commands.command(name="start", description=L("ranta.cmd.start"))
    @app_commands.describe(mode=L("ranta.cmd.mode"), solo=L("ranta.cmd.solo"), ia=L("ranta.cmd.ia"),
                           rythme=L("common.cmd.rythme"), fil=L("common.cmd.fil"))
    @app_commands.choices(rythme=PACE_CHOICES, mode=[app_commands.Choice(name=L("ranta.mode.classique"), value="classique"),
                                app_commands.Choice(name=L("ranta.mode.expert"), value="expert")])
    async def start(self, interaction: discord.Interaction, mode: str, solo: bool = False,
                    ia: app_commands.Range[int, 0, 7] = 0,
                    rythme: str | None = None, fil: bool | None = None) -> None:
        await self.open_lobby(interaction, {"mode": mode}, ai_seats=ia, solo=solo, pace=rythme, thread=fil)

    # --- where the interacting player stands ---------------------------------------------
    @staticmethod
    def _check_turn(view: dict[str, Any], seat: int, rnd: int | None = None) -> None:
        """Refuse early, with the engine's own reasons, a choice for another round or after placing."""
        current = view["round"]
        if rnd is not None and rnd != current:
            raise RuleError("ranta.error.stale_round", round=rnd, current=current)
        if view["placed"][seat]:
            raise RuleError("ranta.error.already_placed", round=current)

    async def _sheet_file(self, game: GameRow, view: dict[str, Any], seat: int, lg: str,
                          preview: Any = None) -> discord.File:
        data = await self.render(render_sheet, view, seat, game.names, preview, render_labels(lg))
        return discord.File(io.BytesIO(data), filename=f"ranta-{game.id}-kallax.png")

    # --- the selects -----------------------------------------------------------------------
    def _box_select(self, game: GameRow, rnd: int, choices, lg: str) -> discord.ui.Select:
        options = [(f"{dice_code(a['dice'])}{CODE_OF[o]}", box_label(a, o, lg)) for a, o, _ in choices]
        return select(game.id, "pick", i18n.t("ranta.prompt.placeholder_box", lg), options, arg=str(rnd))

    def _cell_select(self, game: GameRow, state: Any, seat: int, rnd: int, dice: list[int], orientation: str,
                     cells: list[str], lg: str) -> discord.ui.Select:
        options = []
        for cell in cells:
            action = {"type": BOX, "round": rnd, "dice": dice, "orientation": orientation, "cell": cell}
            covered = self.engine.action_cells(state, seat, action)
            options.append((cell, i18n.t("ranta.label.cell_choice", lg, cell=cell, cells=" ".join(covered))))
        return select(game.id, "cell", i18n.t("ranta.prompt.placeholder_cell", lg), options,
                      arg=f"{rnd}.b{dice_code(dice)}{CODE_OF[orientation]}")

    def _mat_select(self, game: GameRow, rnd: int, cells: list[str], lg: str) -> discord.ui.Select:
        return select(game.id, "matcell", i18n.t("ranta.prompt.placeholder_mat", lg),
                      [(cell, cell) for cell in cells], arg=f"{rnd}.m")

    # --- the preview and the confirmation ------------------------------------------------
    async def _preview(self, interaction: discord.Interaction, game: GameRow, state: Any, seat: int,
                       action: dict[str, Any], *, edit: bool) -> None:
        """Check ``action`` exactly as the engine would apply it, then show it drawn on the sheet: the
        engine's preview (the seat's own kallax with the box in it and its new score; the round left
        open, so the next dice are never shown), the text and the picture telling the same score."""
        view = self.engine.preview(state, seat, action)
        staged = view["preview"]
        cells = staged["cells"]
        lg = lang(interaction)
        rnd = action["round"]
        preview: Any = None
        if action["type"] == BOX:
            action = {**action, "cell": cells[0]}  # canonical bottom-left cell ("d1" -> "D1")
            a = assignment_of(view, action["dice"])
            preview = {"cells": cells, "category": staged["category"], "mechanic": staged["mechanic"]}
            text = i18n.t("ranta.prompt.preview_box", lg, round=rnd, box=box_label(a, action["orientation"], lg),
                          cell=action["cell"], cells=" ".join(cells))
        elif action["type"] == MAT:
            action = {**action, "cell": cells[0]}
            preview = cells
            text = i18n.t("ranta.prompt.preview_mat", lg, round=rnd, cell=action["cell"])
        else:
            text = i18n.t("ranta.prompt.full", lg, round=rnd)
        if action["type"] != PASS:
            text += "\n" + score_change_text(staged["before"], staged["after"], lg, staged["change"])
        file = await self._sheet_file(game, view, seat, lg, preview)
        controls = [
            button(game.id, "confirm", i18n.t("ranta.button.confirm", lg), arg=encode(action),
                   style=discord.ButtonStyle.success),
            button(game.id, "discard", i18n.t("ranta.button.discard", lg))]
        if edit:
            await edit_answer(interaction, text, items=controls, files=[file])
        else:
            await send(interaction, text, ephemeral=True, file=file, view=view_of(*controls))

    async def on_confirm(self, click: Click) -> None:
        interaction = click.interaction
        action = decode(click.arg)
        state, seat = self.player_state(interaction, click.game)
        self.engine.action_cells(state, seat, action)  # the precise reason: stale round, placed, does not fit
        # Players confirm at the same moment: commit and publish one at a time, so the public
        # messages come in the order of the moves and the newest one carries the live round.
        async with self.game_lock(click.game.id):
            await self._confirm(click, action, seat)

    async def _confirm(self, click: Click, action: dict[str, Any], seat: int) -> None:
        interaction = click.interaction
        try:
            outcome = await self.sessions.act(click.game.id, interaction.user.id, action)
        except SessionError as err:
            if err.key == "common.error.not_your_turn":  # a concurrent confirm of this player won the race
                fresh = await self.sessions.get(click.game.id)
                self.engine.action_cells(self.engine.from_dict(fresh.state), seat, action)
            raise
        game = outcome.game
        lg = lang(interaction)
        mine = [e for e in outcome.events if e.get("private_to") == seat]
        lines = narrate(self.kind, mine, game.names, lg, viewer=seat)
        if action["type"] == PASS:
            lines.append(i18n.t("ranta.prompt.confirmed_pass", lg, round=action["round"]))
        elif any(e.get("type") == "round_closed" for e in outcome.events):
            lines.append(i18n.t("ranta.prompt.confirmed_closed", lg, round=action["round"], players=len(outcome.game.seats)))
        else:
            lines.append(i18n.t("ranta.prompt.confirmed", lg, round=action["round"]))
        # the preview's picture stays: it shows exactly what was stored ("Ma kallax" shows the new sheet)
        await edit_answer(interaction, "\n".join(lines))
        await self.publish(outcome, interaction)

    async def on_discard(self, click: Click) -> None:
        await edit_answer(click.interaction, i18n.t("ranta.prompt.discarded", lang(click.interaction)), files=[])

    # --- the round message's buttons and the selects they open ---------------------------
    async def _start_choice(self, click: Click, want_box: bool) -> None:
        interaction = click.interaction
        state, seat = self.player_state(interaction, click.game)
        view = self.engine.view(state, seat)
        self._check_turn(view, seat, round_arg(click.arg))
        rnd = view["round"]
        lg = lang(interaction)
        mats = self.engine.legal_mats(state, seat)
        if not mats:  # the kallax is full: the only move is to pass
            await self._preview(interaction, click.game, state, seat, {"type": PASS, "round": rnd}, edit=False)
            return
        choices = box_choices(self.engine, state, seat) if want_box else []
        if choices:
            text = i18n.t("ranta.prompt.pick_box", lg, round=rnd)
            item = self._box_select(click.game, rnd, choices, lg)
        else:
            text = i18n.t("ranta.prompt.no_box_fits" if want_box else "ranta.prompt.pick_mat", lg, round=rnd)
            item = self._mat_select(click.game, rnd, mats, lg)
        file = await self._sheet_file(click.game, view, seat, lg)
        await send(interaction, text, ephemeral=True, file=file, view=view_of(item))

    async def on_box(self, click: Click) -> None:
        await self._start_choice(click, want_box=True)

    async def on_mat(self, click: Click) -> None:
        await self._start_choice(click, want_box=False)

    async def on_pick(self, click: Click) -> None:
        interaction = click.interaction
        rnd = round_arg(click.arg)
        state, seat = self.player_state(interaction, click.game)
        view = self.engine.view(state, seat)
        self._check_turn(view, seat, rnd)
        # the boxes the select offered, as written (a legal permutation it did not list is not taken)
        value = click.chosen(f"{dice_code(a['dice'])}{CODE_OF[o]}" for a, o, _ in box_choices(self.engine, state, seat))
        m = BOX_PICK.match(value)
        if m is None:
            raise RuleError("ranta.error.bad_choice", choice=value)
        dice, orientation = [int(c) for c in m["dice"]], ORIENTATION_CODES[m["orientation"]]
        cells = self.engine.legal_placements(state, seat, dice, orientation)
        if not cells:
            raise RuleError("ranta.error.bad_choice", choice=value)
        lg = lang(interaction)
        text = i18n.t("ranta.prompt.pick_cell", lg, round=rnd, box=box_label(assignment_of(view, dice), orientation, lg))
        items = [self._box_select(click.game, rnd, box_choices(self.engine, state, seat), lg),
                 self._cell_select(click.game, state, seat, rnd, dice, orientation, cells, lg)]
        await edit_answer(interaction, text, items=items)

    async def _on_cell_or_mat(self, click: Click) -> None:
        """A cell: one of those the select offered (the legal anchors of its box, or the mat cells) while
        its round is open to the player; otherwise the engine refuses it with its reason (stale, placed)."""
        value = click.one_value()
        action = decode(f"{click.arg}{value}")
        state, seat = self.player_state(click.interaction, click.game)
        if action["round"] == state.round_no and seat in self.engine.expected(state):
            if action["type"] == BOX:
                offered = self.engine.legal_placements(state, seat, action["dice"], action["orientation"])
            else:
                offered = self.engine.legal_mats(state, seat)
            click.chosen(offered)
        await self._preview(click.interaction, click.game, state, seat, action, edit=True)

    def component_handlers(self) -> dict[str, Any]:
        return {"box": self.on_box, "mat": self.on_mat, "pick": self.on_pick, "cell": self._on_cell_or_mat,
                "matcell": self._on_cell_or_mat, "confirm": self.on_confirm, "discard": self.on_discard}

    # --- slash commands: placer, tapis, kallax -------------------------------------------
    @app_commands.command(name="placer", description=L("ranta.cmd.placer"))
    @app_commands.describe(des=L("ranta.cmd.des"), orientation=L("ranta.cmd.orientation"), case=L("ranta.cmd.case"),
                           partie=L("common.cmd.partie"))
    @app_commands.choices(orientation=[
        app_commands.Choice(name=L("ranta.orientation.horizontal"), value=HORIZONTAL),
        app_commands.Choice(name=L("ranta.orientation.vertical"), value=VERTICAL)])
    async def placer_cmd(self, interaction: discord.Interaction, des: str, orientation: str, case: str,
                         partie: int | None = None) -> None:
        game = await self.resolve(interaction, partie)
        state, seat = self.player_state(interaction, game)
        rnd = self.engine.view(state, seat)["round"]
        action = {"type": BOX, "round": rnd, "dice": parse_dice(des), "orientation": orientation, "cell": case}
        await self._preview(interaction, game, state, seat, action, edit=False)

    @app_commands.command(name="tapis", description=L("ranta.cmd.tapis"))
    @app_commands.describe(case=L("ranta.cmd.tapis_case"), partie=L("common.cmd.partie"))
    async def tapis_cmd(self, interaction: discord.Interaction, case: str, partie: int | None = None) -> None:
        game = await self.resolve(interaction, partie)
        state, seat = self.player_state(interaction, game)
        rnd = self.engine.view(state, seat)["round"]
        action: dict[str, Any] = {"type": MAT, "round": rnd, "cell": case}
        if seat in self.engine.expected(state) and not self.engine.legal_mats(state, seat):
            action = {"type": PASS, "round": rnd}  # the kallax is full: the only move is to pass
        await self._preview(interaction, game, state, seat, action, edit=False)

    @app_commands.command(name="kallax", description=L("ranta.cmd.kallax"))
    @app_commands.describe(joueur=L("ranta.cmd.joueur"), partie=L("common.cmd.partie"))
    async def kallax_cmd(self, interaction: discord.Interaction, joueur: discord.User | None = None,
                         partie: int | None = None) -> None:
        game = await self.resolve(interaction, partie, (LOBBY, RUNNING, FINISHED))
        if joueur is None or joueur.id == interaction.user.id:
            await self.show_private(interaction, game)
            return
        if game.status == LOBBY:
            raise SessionError("common.error.not_started", game=game.id)
        seat = game.seat_of(joueur.id)
        if seat is None:
            raise RuleError("ranta.error.not_in_game", player=escape(joueur.display_name), game=game.id)
        lg = lang(interaction)
        view = await self.sessions.view_for(game, interaction.user.id)  # hides the current round of others
        file = await self._sheet_file(game, view, seat, lg)
        await send(interaction, i18n.t("ranta.prompt.sheet_of", lg, player=escape(game.seats[seat].name), id=game.id),
                   ephemeral=True, file=file)

    # --- autocomplete: only the legal choices of the user's own seat ---------------------
    async def _ac_context(self, interaction: discord.Interaction) -> tuple[Any, int] | None:
        try:
            game = await self.resolve(interaction, getattr(interaction.namespace, "partie", None))
            state, seat = self.player_state(interaction, game)
        except RuleError:
            return None
        if seat not in self.engine.expected(state):
            return None
        return state, seat

    @placer_cmd.autocomplete("des")
    async def _des_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        ctx = await self._ac_context(interaction)
        if ctx is None:
            return []
        state, seat = ctx
        lg = lang(interaction)
        chosen = interaction.namespace.orientation
        orientations = [chosen] if chosen in ORIENTATIONS else list(ORIENTATIONS)
        out = []
        for a in self.engine.assignments(state):
            if not any(self.engine.legal_placements(state, seat, a["dice"], o) for o in orientations):
                continue
            name, value = assignment_label(a, lg), dice_code(a["dice"])
            if matches(current, name, value):
                out.append(app_commands.Choice(name=name[:100], value=value))
        return out[:25]

    @placer_cmd.autocomplete("case")
    async def _box_cell_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        ctx = await self._ac_context(interaction)
        if ctx is None:
            return []
        state, seat = ctx
        dice, orientation = parse_dice(interaction.namespace.des), interaction.namespace.orientation
        if not isinstance(dice, list) or orientation not in ORIENTATIONS:
            return []
        try:
            cells = self.engine.legal_placements(state, seat, dice, orientation)
        except RuleError:
            return []
        lg = lang(interaction)
        rnd = self.engine.view(state, seat)["round"]
        out = []
        for cell in cells:
            covered = self.engine.action_cells(state, seat, {"type": BOX, "round": rnd, "dice": dice,
                                                             "orientation": orientation, "cell": cell})
            name = i18n.t("ranta.label.cell_choice", lg, cell=cell, cells=" ".join(covered))
            if matches(current, cell):
                out.append(app_commands.Choice(name=name[:100], value=cell))
        return out[:25]

    @tapis_cmd.autocomplete("case")
    async def _mat_cell_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        ctx = await self._ac_context(interaction)
        if ctx is None:
            return []
        state, seat = ctx
        return [app_commands.Choice(name=cell, value=cell)
                for cell in self.engine.legal_mats(state, seat) if matches(current, cell)][:25]

    @placer_cmd.autocomplete("partie")
    @tapis_cmd.autocomplete("partie")
    @kallax_cmd.autocomplete("partie")
    async def _ranta_partie_ac(self, interaction: discord.Interaction, current: str):
        return await self.partie_autocomplete(interaction, current)

    # --- rendering hooks ---------------------------------------------------------------
    def render_public(self, game: GameRow, view: dict[str, Any], lang: str) -> Picture | None:
        if view.get("finished"):
            return picture(render_final, view, game.names, render_labels(lang))
        return picture(render_dice, view, render_labels(lang))

    def render_replay(self, game: GameRow, view: dict[str, Any], lang: str) -> Picture | None:
        """A replay frame: the dice and every kallax as the table knew it (this round's boxes hidden)."""
        if view.get("finished"):
            return self.render_public(game, view, lang)
        return picture(render_replay, view, game.names, render_labels(lang))

    def render_public_gallery(self, game: GameRow, view: dict[str, Any], lang: str) -> list[Picture]:
        """The end: every sheet. A round that has just opened: its dice, then every kallax as the last
        round left it (what "the kallaxes are revealed" shows), with two players or more. Otherwise the
        dice alone."""
        labels = render_labels(lang)
        if view.get("finished"):
            return [picture(render_final, view, game.names, labels, seat) for seat in final_order(view)]
        out = set(view.get("out") or ())
        opened = view["round"] > 1 and not any(p for s, p in enumerate(view["placed"]) if s not in out)
        if not opened or view["players"] < 2:  # alone, the kallax is the player's own private view
            return []
        sheets = [picture(render_sheet, view, seat, game.names, None, labels) for seat in range(view["players"])]
        return [picture(render_dice, view, labels), *sheets][:10]  # a gallery holds 10 pictures

    def render_private(self, game: GameRow, view: dict[str, Any], lang: str) -> Picture | None:
        return picture(render_sheet, view, view["seat"], game.names, None, render_labels(lang))

    def turn_controls(self, game: GameRow, view: dict[str, Any], lang: str) -> list[discord.ui.Item]:
        rnd = str(view["round"])
        return [button(game.id, "mine", i18n.t("ranta.button.mine", lang), style=discord.ButtonStyle.primary),
                button(game.id, "box", i18n.t("ranta.button.box", lang), arg=rnd,
                       style=discord.ButtonStyle.success),
                button(game.id, "mat", i18n.t("ranta.button.mat", lang), arg=rnd)]
