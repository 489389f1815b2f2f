"""``/armada``: L'Invincible Armada, against another player or the bot.

Commands: ``start`` (opponent, bot level, board size), ``placer point:`` (place a ship: Spain
from its reserve, or England), ``deplacer de: vers:`` (Spain, once its 20 ships are down),
``pivoter de: vers:`` (England), ``abandon`` (resign, after a confirmation button). Every point
option autocompletes the legal choices of the asking player's seat (nothing for anyone else).
When a move could take several ships, the public message carries one "Prendre …" button per
target. The table card of a player to move also carries « Placer » / « Déplacer » / « Pivoter »
(the move types the side may use now): each opens a form whose selects list only the legal
choices (issue 24: a move without typing coordinates). ``join``/``leave``/``status``/``rules``/``cancel`` come from GameCog. Between rounds the
final position of the round is posted before the new round (sides swapped) starts.
"""

from __future__ import annotations

import dataclasses
import io
from typing import Any

import discord
from discord import app_commands

from bot import i18n
from bot.gamecog import PACE_CHOICES, GameCog, level_choices
from bot.narrate import narrate
from bot.render_pool import Picture, picture
from bot.sessions import Outcome, SessionError
from bot.storage import RUNNING, GameRow
from bot.translator import L
from bot.ui import Click, GameModal, button, lang, pack_groups, send
from engines.armada import State, legal_points, movable_points, pivot_choices
from engines.base import RuleError
from render.armada import render_board

OPPONENTS = [app_commands.Choice(name=L("armada.cmd.vs_player"), value="joueur"),
             app_commands.Choice(name=L("armada.cmd.vs_bot"), value="bot")]
BOARDS = [app_commands.Choice(name=L("armada.option.11x11"), value="11x11"),
          app_commands.Choice(name=L("armada.option.10x10"), value="10x10"),
          app_commands.Choice(name=L("armada.option.9x9"), value="9x9")]
MAX_CHOICES = 25  # Discord's limit for autocomplete

#: what the player to move is told to do next (key of the ``[ui]`` catalog table)
HINTS = {
    "capture": "armada.ui.hint_capture",
    "pass": "armada.ui.hint_pass",
    "spain_place": "armada.ui.hint_spain_place",
    "spain_move": "armada.ui.hint_spain_move",
    "england_place": "armada.ui.hint_england_place",
    "england_any": "armada.ui.hint_england_any",
    "england_pivot": "armada.ui.hint_england_pivot",
}


def _point_key(name: str) -> tuple[str, int]:
    return name[0], int(name[1:])


def _typed(current: str | None) -> str:
    """What the user typed so far, in the engine's spelling of points (case, spaces ignored)."""
    return "".join((current or "").split()).upper()


def _matching(points: list[str], current: str | None) -> list[str]:
    """``points`` (sorted A1, A2 … A11, B1 …) that start with what was typed, else contain it."""
    q = _typed(current)
    ordered = sorted(set(points), key=_point_key)
    found = [p for p in ordered if p.startswith(q)]
    if not found and q:
        found = [p for p in ordered if q in p]
    return found[:MAX_CHOICES]


#: the forms' move types, in the order of their buttons: (button key, emoji)
FORMS = {"place": ("armada.button.place", "⚓"), "move": ("armada.button.move", "⛵"),
         "pivot": ("armada.button.pivot", "🔄")}
MAX_SELECTS = 5  # Discord: at most 5 top-level components in a modal
MAX_OPTIONS = 25  # Discord: at most 25 options in a string select


def form_kinds(state: State, seat: int) -> list[str]:
    """The move types ``seat`` may use now, each with a form: Spain places (reserve) or moves (fleet
    down); England places and/or pivots. None on another's turn, a capture to choose, or a pass."""
    if state.finished or state.pending or seat != state.current:
        return []
    out = ["move"] if movable_points(state, seat) else ["place"] if legal_points(state, seat) else []
    if pivot_choices(state, seat):
        out.append("pivot")
    return out


def form_offers(state: State, seat: int, kind: str) -> dict[str, list[str]]:
    """What each select of a form of ``kind`` offers (its custom id -> the option values), as
    :meth:`ArmadaCog.form` draws it (it draws from this): what a submission of that form may carry."""
    if kind == "pivot":  # each ship's pivots in one list
        chunks = pack_groups(pivot_options(state, seat), lambda p: p[1], size=MAX_OPTIONS, lists=MAX_SELECTS)
        return {f"pivot{n}": [value for value, *_ in chunk] for n, chunk in enumerate(chunks)}
    out: dict[str, list[str]] = {}
    lists = MAX_SELECTS
    if kind == "move":
        out["ship"] = sorted(movable_points(state, seat), key=_point_key)[:MAX_OPTIONS]
        lists -= 1
    # the legal points only (never an occupied one), in board order, 25 a list: 121 at most
    points = sorted(legal_points(state, seat), key=_point_key)
    for n, k in enumerate(range(0, len(points), MAX_OPTIONS)):
        if n < lists:
            out[f"point{n}"] = points[k:k + MAX_OPTIONS]
    return out


def pivot_options(state: State, seat: int) -> list[tuple[str, str, str, str]]:
    """England's legal pivots as (value ``from-to``, from, to, around), by ship then destination."""
    found = pivot_choices(state, seat)
    found.sort(key=lambda c: (_point_key(c["from"]), _point_key(c["to"])))
    return [(f"{c['from']}-{c['to']}", c["from"], c["to"], c["around"]) for c in found]


def _choices(points: list[str], current: str | None) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=p, value=p) for p in _matching(points, current)]


class ArmadaCog(GameCog, group_name="armada", group_description=L("armada.cmd.start")):
    kind = "armada"

    # --- start -------------------------------------------------------------------------
    @app_commands.command(name="start", description=L("armada.cmd.start"))
    @app_commands.describe(adversaire=L("armada.cmd.adversaire"), niveau=L("armada.cmd.niveau"),
                           plateau=L("armada.cmd.plateau"),
                           rythme=L("common.cmd.rythme"), fil=L("common.cmd.fil"))
    @app_commands.choices(rythme=PACE_CHOICES, adversaire=OPPONENTS, plateau=BOARDS, niveau=level_choices(3))
    async def start(self, interaction: discord.Interaction, adversaire: str = "joueur",
                    niveau: int = 1, plateau: str = "11x11",
                    rythme: str | None = None, fil: bool | None = None) -> None:
        """Against the bot the game starts at once (the bot takes seat 2: England first)."""
        against_bot = adversaire == "bot"
        await self.open_lobby(interaction, {"plateau": plateau}, ai_seats=1 if against_bot else 0,
                              ai_level=niveau, solo=against_bot, pace=rythme, thread=fil)

    # --- moves -------------------------------------------------------------------------
    @app_commands.command(name="placer", description=L("armada.cmd.placer"))
    @app_commands.describe(point=L("armada.cmd.point"), partie=L("common.cmd.partie"))
    async def placer(self, interaction: discord.Interaction, point: app_commands.Range[str, 1, 20],
                     partie: int | None = None) -> None:
        game = await self.resolve(interaction, partie)
        await self.play(interaction, game, {"type": "place", "point": point})

    @app_commands.command(name="deplacer", description=L("armada.cmd.deplacer"))
    @app_commands.describe(de=L("armada.cmd.deplacer_de"), vers=L("armada.cmd.deplacer_vers"),
                           partie=L("common.cmd.partie"))
    async def deplacer(self, interaction: discord.Interaction, de: app_commands.Range[str, 1, 20],
                       vers: app_commands.Range[str, 1, 20], partie: int | None = None) -> None:
        game = await self.resolve(interaction, partie)
        await self.play(interaction, game, {"type": "move", "from": de, "to": vers})

    @app_commands.command(name="pivoter", description=L("armada.cmd.pivoter"))
    @app_commands.describe(de=L("armada.cmd.de"), vers=L("armada.cmd.vers"), partie=L("common.cmd.partie"))
    async def pivoter(self, interaction: discord.Interaction, de: app_commands.Range[str, 1, 20],
                      vers: app_commands.Range[str, 1, 20], partie: int | None = None) -> None:
        game = await self.resolve(interaction, partie)
        await self.play(interaction, game, {"type": "pivot", "from": de, "to": vers})

    @app_commands.command(name="abandon", description=L("armada.cmd.abandon"))
    @app_commands.describe(partie=L("common.cmd.partie"))
    async def abandon(self, interaction: discord.Interaction, partie: int | None = None) -> None:
        """Ask for a confirmation (ephemeral buttons); resigning is possible on either player's turn."""
        await self.ask_resign(interaction, partie)

    # --- autocomplete: the legal choices of the asking player's seat only ----------------
    async def _my_turn_state(self, interaction: discord.Interaction) -> tuple[State, int] | None:
        """The state and seat of the user's running game, or None (not seated, no game, AI...)."""
        found = await self.seated(interaction)
        return None if found is None else (found[1], found[2])

    @placer.autocomplete("point")
    async def _placer_point(self, interaction: discord.Interaction, current: str):
        found = await self._my_turn_state(interaction)
        if found is None:
            return []
        state, seat = found
        if movable_points(state, seat):  # Spain's 20 ships are down: it moves (deplacer), never places
            return []
        return _choices(legal_points(state, seat), current)

    @deplacer.autocomplete("de")
    async def _deplacer_de(self, interaction: discord.Interaction, current: str):
        found = await self._my_turn_state(interaction)
        return _choices(movable_points(*found), current) if found else []

    @deplacer.autocomplete("vers")
    async def _deplacer_vers(self, interaction: discord.Interaction, current: str):
        found = await self._my_turn_state(interaction)
        if found is None or not movable_points(*found):
            return []
        origin = _typed(getattr(interaction.namespace, "de", None)) or None
        return _choices(legal_points(*found, origin=origin), current)

    @pivoter.autocomplete("de")
    async def _pivoter_de(self, interaction: discord.Interaction, current: str):
        found = await self._my_turn_state(interaction)
        return _choices([c["from"] for c in pivot_choices(*found)], current) if found else []

    @pivoter.autocomplete("vers")
    async def _pivoter_vers(self, interaction: discord.Interaction, current: str):
        found = await self._my_turn_state(interaction)
        if found is None:
            return []
        origin = _typed(getattr(interaction.namespace, "de", None)) or None
        options = pivot_choices(*found, origin=origin)
        if origin is None:  # no ship chosen yet: every destination, once
            return _choices([c["to"] for c in options], current)
        around = {c["to"]: c["around"] for c in options}
        lg = lang(interaction)
        return [app_commands.Choice(name=i18n.t("armada.ui.pivot_choice", lg, to=p, around=around[p])[:100], value=p)
                for p in _matching(list(around), current)]

    @placer.autocomplete("partie")
    @deplacer.autocomplete("partie")
    @pivoter.autocomplete("partie")
    @abandon.autocomplete("partie")
    async def _armada_partie(self, interaction: discord.Interaction, current: str):
        return await self.partie_autocomplete(interaction, current)

    # --- components ----------------------------------------------------------------------
    def component_handlers(self) -> dict[str, Any]:
        return {"capture": self.on_capture, "pass": self.on_pass, "resign": self.on_resign, "keep": self.on_keep,
                "form": self.on_form}

    async def on_capture(self, click: Click) -> None:
        """One button per capturable ship; only the player choosing may use them (sessions checks)."""
        await self.play(click.interaction, click.game, {"type": "capture", "point": click.arg or ""},
                        version=click.check_version)

    async def on_pass(self, click: Click) -> None:
        await self.play(click.interaction, click.game, {"type": "pass"}, version=click.check_version)

    # --- a move without typing (issue 24): a form of the legal choices per move type ----------
    async def on_form(self, click: Click) -> None:
        """« Placer » / « Déplacer » / « Pivoter » (the form's type is the button's argument) opens a
        form of the legal choices; its submission (the same verb and argument) plays the move chosen
        through the session service, as the slash command does (same refusals, same version check:
        a form of an earlier turn is refused as stale)."""
        game, interaction, kind = click.game, click.interaction, click.arg or ""
        if kind not in FORMS:
            raise SessionError("common.error.forged_button")
        if interaction.type is discord.InteractionType.modal_submit:
            offered = None
            if click.check_version is None or click.version == game.version:  # (a stale form: refused as such)
                state, seat = self.mover_state(interaction, game, click.check_version)
                offered = form_offers(state, seat, kind)
            await self.play(interaction, game, self._form_action(kind, click.fields, offered),
                            version=click.check_version)
            return
        state, seat = self.mover_state(interaction, game, click.check_version)
        if kind not in form_kinds(state, seat):  # e.g. « Placer » once England has 5 ships at sea
            raise SessionError("armada.form.not_now", move=i18n.t(FORMS[kind][0], lang(interaction)))
        await interaction.response.send_modal(self.form(game, state, seat, kind, lang(interaction)))

    @staticmethod
    def form(game: GameRow, state: State, seat: int, kind: str, lg: str) -> GameModal:
        """The form of one move type: a ship (to lift) and/or the legal points, or the pivots."""
        modal = GameModal(i18n.t(f"armada.form.title_{kind}", lg), game.id, "form", version=game.version, arg=kind)

        def select(key: str, label: str, options: list[tuple[str, str]], *, required: bool = True) -> None:
            menu = discord.ui.Select(custom_id=key, required=required, min_values=1 if required else 0,
                                     max_values=1, placeholder=i18n.t("armada.form.placeholder", lg)[:150],
                                     options=[discord.SelectOption(label=text[:100], value=value)
                                              for value, text in options[:MAX_OPTIONS]])
            modal.add_item(discord.ui.Label(text=label[:45], component=menu))

        offers = form_offers(state, seat, kind)
        if kind == "pivot":  # each ship's pivots in one list
            labels = {value: (a, b, c) for value, a, b, c in pivot_options(state, seat)}
            for key, values in offers.items():
                first, last = labels[values[0]][0], labels[values[-1]][0]
                heading = (i18n.t("armada.form.pivots_one", lg, ship=first) if first == last
                           else i18n.t("armada.form.pivots", lg, first=first, last=last))
                select(key, heading, [(v, i18n.t("armada.form.pivot", lg, **dict(zip(("from", "to", "around"),
                                                                                    labels[v], strict=True))))
                                      for v in values], required=len(offers) == 1)
            return modal
        if kind == "move":
            select("ship", i18n.t("armada.form.ship", lg), [(p, p) for p in offers["ship"]])
        chunks = [values for key, values in offers.items() if key.startswith("point")]
        for n, chunk in enumerate(chunks):
            heading = (i18n.t("armada.form.points_one", lg, point=chunk[0]) if len(chunk) == 1
                       else i18n.t("armada.form.points", lg, first=chunk[0], last=chunk[-1]))
            select(f"point{n}", heading, [(p, p) for p in chunk], required=len(chunks) == 1)
        return modal

    @staticmethod
    def _form_action(kind: str, fields: dict[str, Any], offered: dict[str, list[str]] | None = None) -> dict[str, Any]:
        """The move a submitted form asks for; the engine (through the session service) judges it.
        ``offered`` (:func:`form_offers`): a value its select did not offer (a crafted submission) is
        refused, as are several values in one select."""
        for key, values in fields.items():
            if isinstance(values, list) and len(values) > 1:
                raise RuleError("common.error.select_one", count=len(values))
            if offered is not None and isinstance(values, list) and any(v not in offered.get(key, ()) for v in values):
                raise RuleError("common.error.not_offered", value=str(values[0])[:40])

        def one(key: str) -> str | None:
            values = fields.get(key)
            return values[0] if isinstance(values, list) and len(values) == 1 else None

        if kind == "pivot":
            chosen = [v for key, values in fields.items() if key.startswith("pivot") and isinstance(values, list)
                      for v in values]
            if len(chosen) != 1 or chosen[0].count("-") != 1:
                raise SessionError("armada.form.pick_one")
            source, dest = chosen[0].split("-")
            return {"type": "pivot", "from": source, "to": dest}
        chosen = [v for key, values in fields.items() if key.startswith("point") and isinstance(values, list)
                  for v in values]
        point = str(chosen[0]) if len(chosen) == 1 else None
        if point is None or (kind == "move" and one("ship") is None):
            raise SessionError("armada.form.incomplete")
        if kind == "move":
            return {"type": "move", "from": one("ship"), "to": point}
        return {"type": "place", "point": point}

    # --- publishing ----------------------------------------------------------------------
    async def publish(self, outcome: Outcome, interaction: discord.Interaction | None = None, *,
                      extra: list[str] | None = None, **kw: Any) -> int | None:
        """As GameCog.publish, plus: a round that ends (and is followed by another) gets its own
        message with its final position; who plays which side is told at each round's start;
        the player to move is told which command to use."""
        game = outcome.game
        lg = kw.get("lang") or await self.public_lang_of(outcome.game)
        view = await self.sessions.public_view(game) if game.state is not None else {}
        events = self._told(outcome.events, view)
        end = next((i for i, e in enumerate(events) if e.get("type") in ("round_over", "round_drawn")), None)
        if end is not None and game.status == RUNNING:
            await self._publish_round_end(game, view, events[:end + 1], interaction, lg)
            events = events[end + 1:]
        hints = self._hints(game, view, lg) if game.status == RUNNING else []
        return await super().publish(dataclasses.replace(outcome, events=events), interaction,
                                     extra=[*(extra or []), *hints], **kw)

    @staticmethod
    def _told(events: list[dict[str, Any]], view: dict[str, Any]) -> list[dict[str, Any]]:
        """The events to narrate: no "turn" lines (the mention says it), the sides at the start
        of round 1 and the change of sides before round 2."""
        out: list[dict[str, Any]] = []
        for event in events:
            etype = event.get("type")
            if etype == "turn":
                continue
            if etype == "round_started" and event.get("round") == 2:
                out.append({"type": "sides_swapped"})
            out.append(event)
            if etype == "started" and view:
                first = next(iter(view.get("rounds") or []), None)
                spain = first["spain_seat"] if first else view["sides"]["spain"]
                out.append({"type": "round_started", "round": 1, "tiebreak": False, "spain_seat": spain,
                            "england_seat": 1 - spain})
        return out

    async def _publish_round_end(self, game: GameRow, view: dict[str, Any], events: list[dict[str, Any]],
                                 interaction: discord.Interaction | None, lg: str) -> None:
        """The events up to the end of a round, with the picture of that round's final position."""
        content = "\n".join(narrate(self.kind, events, game.names, lg))[:2000] or None
        image = await self.render(render_board, view, game.names, lg, True)
        file = discord.File(io.BytesIO(image), filename=f"armada-{game.id}-round-{view['round'] - 1}.png")
        if interaction is not None:
            await send(interaction, content, file=file)
        else:
            await self.post(game.channel_id, content, file=file)

    def _must_pass(self, game: GameRow) -> bool:
        state = self.engine.from_dict(game.state)
        return not state.finished and not state.pending and not self.engine.has_move(state)

    def _hints(self, game: GameRow, view: dict[str, Any], lg: str) -> list[str]:
        """What to do now, for a player, told only when it is news: a capture to choose, a pass, Spain
        that must now move, England at its limit (each names its button). An ordinary placement is not
        told: the « Placer » button says it."""
        current = view.get("current")
        if current is None or game.seats[current].is_ai:
            return []
        if view["phase"] == "capture":
            key = "capture"
        elif self._must_pass(game):
            key = "pass"
        elif view["turn_side"] == "spain":
            key = "spain_move" if view["spain_must_move"] else "spain_place"
        elif view["on_board"]["england"] >= view["england_limit"]:
            key = "england_pivot"
        else:
            key = "england_any" if view["pairs"] else "england_place"
        if key in ("spain_place", "england_place", "england_any"):
            return []
        return [i18n.t(HINTS[key], lg)]

    # --- rendering hooks -------------------------------------------------------------------
    def render_public(self, game: GameRow, view: dict[str, Any], lang: str) -> Picture | None:
        return picture(render_board, view, game.names, lang)

    def turn_controls(self, game: GameRow, view: dict[str, Any], lang: str) -> list[discord.ui.Item]:
        current = view.get("current")
        if current is None or game.seats[current].is_ai:
            return []
        if view["phase"] == "capture":
            return [button(game.id, "capture", i18n.t("armada.button.capture", lang, point=p), version=game.version,
                           arg=p, style=discord.ButtonStyle.danger, emoji="💥")
                    for p in view["pending_captures"][:MAX_CHOICES]]
        if self._must_pass(game):
            return [button(game.id, "pass", i18n.t("armada.button.pass", lang), version=game.version)]
        state = self.engine.from_dict(game.state)
        return [button(game.id, "form", i18n.t(FORMS[kind][0], lang), version=game.version, arg=kind,
                       style=discord.ButtonStyle.primary, emoji=FORMS[kind][1])
                for kind in form_kinds(state, current)]
