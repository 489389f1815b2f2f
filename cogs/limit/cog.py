"""``/limit``: Take it to the Limit, the simultaneous tile-laying game.

Each round the public message shows the announced tile (an image), who still has to
place it, and two buttons: **Mon plateau** (the player's own boards, ephemeral: the
shared "mine" verb) and **Placer** (an ephemeral reply with selects offering only the
legal positions). ``/limit placer position:`` does the same with an autocomplete of
the legal positions of the user's seat, by name (``D4``, ``X3``, ``O``, ``12``...).

Every placement carries the announced tile and the game of the series (the *tag*
``<game>.<tile>``, in the select's custom id or the autocompleted value), so a select
or a choice made for an earlier round is refused by the engine with its reason
(``limit.error.stale_tile``) and nothing changes. A typed position means the tile
announced now.

Pass variant: the holder of a passed Déchetterie gets a select (and autocomplete
choices) of that Déchetterie's free cells. Orchidée: at the end **Déplacer** (or
``/limit deplacer`` without options) shows the exact best relocation ephemerally
with « Appliquer la meilleure » / « Ne rien déplacer » and every other possibility in
selects, one per number of tiles moved (:func:`relocation_pages`: 25 options a select);
``/limit deplacer a: b: c:`` names the moves directly.

Confirmations are ephemeral (with the player's board); the public message only says
who has placed and who is still awaited. ``join``, ``leave``, ``status`` (who has not
placed), ``rules`` and ``cancel`` come from :class:`GameCog`.
"""

from __future__ import annotations

import asyncio
import io
import logging
from functools import cache
from typing import Any

import discord
from discord import app_commands

from bot import emojis, i18n
from bot.gamecog import PACE_CHOICES, GameCog
from bot.narrate import narrate
from bot.render_pool import Picture, picture
from bot.safe import escape
from bot.sessions import Outcome
from bot.storage import RUNNING, GameRow
from bot.translator import L
from bot.ui import Click, button, edit_answer, lang, matches, select, send, view_of
from engines.base import RuleError
from engines.limit import ENGINE, TILES
from render.limit import (
    LABEL_KEYS,
    final_order,
    render_board,
    render_final,
    render_replay,
    render_tile,
    warm_cache,
)

log = logging.getLogger("ludibot.cogs.limit")

OPTIONS = {o.name: o for o in ENGINE.options}
MAX_OPTIONS = 25  # Discord: choices per select / autocomplete
MAX_RELOCATION_SELECTS = 4  # Discord: 5 rows per message, the relocation buttons take the first
HOLES = ("A", "B", "C")


def _choices(option: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=L(f"limit.choice.{v}"), value=v) for v in OPTIONS[option].choices]


# --- codes carried by custom ids and autocompleted values (pure) -------------------------
def tag_of(view: dict[str, Any]) -> str:
    """The round a choice is made for: ``<game of the series>.<announced tile>``."""
    return f"{view['game_no']}.{view['tile']['id']}"


def parse_tag(raw: str | None) -> tuple[int, str]:
    game, sep, tile = (raw or "").partition(".")
    if not sep or not game.isdigit() or not tile or len(tile) > 20:
        raise RuleError("limit.error.bad_choice", choice=str(raw))
    return int(game), tile


def split_arg(raw: str | None) -> tuple[str, str]:
    """``"<head>.<rest>"`` -> ``(head, rest)``; ``limit.error.bad_choice`` if there is no dot."""
    head, sep, rest = (raw or "").partition(".")
    if not sep or not head or not rest:
        raise RuleError("limit.error.bad_choice", choice=str(raw))
    return head, rest


def encode_moves(moves: dict[str, str]) -> str:
    """A relocation as a short code: ``B=1-11-10,C=1-2-3``; ``-`` for "move nothing"."""
    return ",".join(f"{hole}={tile}" for hole, tile in sorted(moves.items())) or "-"


def decode_moves(raw: str) -> dict[str, str]:
    if raw == "-":
        return {}
    moves: dict[str, str] = {}
    for part in raw.split(","):
        hole, sep, tile = part.partition("=")
        if not sep or not hole or not tile:
            raise RuleError("limit.error.bad_choice", choice=raw)
        if hole in moves:
            raise RuleError("limit.error.hole_twice", hole=hole)
        moves[hole] = tile
    return moves


def relocation_pages(options: list[dict[str, Any]], best: dict[str, str]) -> list[tuple[int, list[dict[str, Any]]]]:
    """Every relocation but the best one and "move nothing" (those are buttons), as ``(tiles moved,
    options)`` selects: one per number of tiles moved, best gain first, each within Discord's 25
    options, at most :data:`MAX_RELOCATION_SELECTS` (the message has 5 rows; the buttons take one).
    Three tiles and three holes: 9 + 18 + 6 = 33 others, every one offered."""
    by_count: dict[int, list[dict[str, Any]]] = {}
    for o in options:
        if o["moves"] and o["moves"] != best:
            by_count.setdefault(len(o["moves"]), []).append(o)
    pages = [(count, group[start:start + MAX_OPTIONS]) for count, group in sorted(by_count.items())
             for start in range(0, len(group), MAX_OPTIONS)]
    return pages[:MAX_RELOCATION_SELECTS]


# --- words ---------------------------------------------------------------------------------
def preview_text(view: dict[str, Any], lg: str, names: list[str] | None = None) -> str:
    """A preview's words (:meth:`LimitEngine.preview`): the placement, the total if the game ended now,
    and, when the board would pay the Déchetterie's penalty, why, and how many tiles are still to come.
    A fill (pass variant) names the board it goes to: its owner's."""
    p = view["preview"]
    params = {"tile": p["tile"], "position": p["position"], "before": p["before"], "after": p["after"],
              "gain": f"{p['gain']:+d}"}
    if p["board"] != view["board"]:
        owner = seats_names([escape(n) for n in names or []], view["boards"][p["board"]]["seats"])
        lines = [i18n.t("table.limit.preview_fill", lg, owner=owner, **params)]
    else:
        lines = [i18n.t("table.limit.preview", lg, **params)]
    why = p.get("penalty_reason")
    if p.get("penalty") and why:
        reason = i18n.t(f"limit.label.penalty_{why['rule']}", lg, penalty=f"−{p['penalty']}", value=why["value"],
                        threshold=why["threshold"], shared=why.get("shared", 1))
        lines.append(i18n.t("table.limit.preview_penalty", lg, reason=reason, left=view["rounds"] - view["round"]))
    return "\n".join(lines)


@cache
def render_labels(lg: str) -> dict[str, str]:
    return {k: i18n.t(f"limit.{k}", lg) for k in LABEL_KEYS}


def seats_names(names: list[str], seats: list[int]) -> str:
    return " & ".join(names[s] for s in seats if 0 <= s < len(names))


def position_label(view: dict[str, Any], pos: str, lg: str, names: list[str]) -> str:
    """``D4 — Nexus``, ``X3 — Déchetterie``, ``O — grande orchidée``, ``X — confier la tuile à …``."""
    layout = view["layout"]
    if layout.get("pass_name") and pos == layout["pass_name"]:
        mine = view["boards"][view["board"]]
        holder = view["boards"][mine["holder"]]["seats"] if mine.get("holder") is not None else []
        return i18n.t("limit.position.pass", lg, position=pos, holder=seats_names(names, holder))
    if layout.get("big_orchid") and pos == layout["big_orchid"]["name"]:
        return i18n.t("limit.position.big_orchid", lg, position=pos)
    if layout.get("dechetterie") and any(c["name"] == pos for c in layout["dechetterie"]):
        return i18n.t("limit.position.dechetterie", lg, position=pos)
    return i18n.t(f"limit.position.{view['plateau']}", lg, position=pos)


def moves_text(moves: dict[str, str], lg: str) -> str:
    return ", ".join(i18n.t("limit.prompt.move", lg, tile=tile, hole=hole) for hole, tile in sorted(moves.items())) \
        or i18n.t("limit.prompt.no_move", lg)


class LimitCog(GameCog, group_name="limit", group_description=L("limit.cmd.start")):
    kind = "limit"

    def seat_scores(self, game: GameRow, view: dict[str, Any]) -> list[Any] | None:
        """The seats' totals over the games of a match of several, once one has been scored (a board
        scores at its game's end: before that, and in a match of one game, there is no score to show)."""
        totals = view.get("totals")
        if not view.get("history") or not isinstance(totals, list) or len(totals) != len(game.seats):
            return None
        return totals

    def __init__(self, bot) -> None:
        super().__init__(bot)
        self._warming: asyncio.Task | None = None

    async def cog_load(self) -> None:
        await super().cog_load()
        # draw every tile once, off the event loop, so the first pictures are as fast as the next ones
        tiles = [t.view() for t in TILES.values()]
        pool = getattr(self.bot, "render_pool", None)
        if pool is not None and pool.uses_processes:
            return  # the boards are drawn in the render workers, which fill their own tile cache as they go
        self._warming = asyncio.create_task(asyncio.to_thread(warm_cache, tiles))

    # --- start -----------------------------------------------------------------------------
    @app_commands.command(name="start", description=L("limit.cmd.start"))
    @app_commands.describe(plateau=L("limit.cmd.plateau"), variante=L("limit.cmd.variante"),
                           tuiles=L("limit.cmd.tuiles"), paires=L("limit.cmd.paires"), serie=L("limit.cmd.serie"),
                           solo=L("limit.cmd.solo"), ia=L("limit.cmd.ia"),
                           rythme=L("common.cmd.rythme"), fil=L("common.cmd.fil"))
    @app_commands.choices(rythme=PACE_CHOICES, plateau=_choices("plateau"), variante=_choices("variante"),
                          tuiles=_choices("tuiles"))
    async def start(self, interaction: discord.Interaction, plateau: str, variante: str = "standard",
                    tuiles: str = OPTIONS["tuiles"].default, paires: bool = False,
                    serie: app_commands.Range[int, 1, 10] = 1, solo: bool = False,
                    ia: app_commands.Range[int, 0, 5] = 0,
                    rythme: str | None = None, fil: bool | None = None) -> None:
        options = {"plateau": plateau, "variante": variante, "tuiles": tuiles, "paires": paires, "serie": serie}
        # a board and variant that do not go together are refused now, with the engine's reason
        # (the player count is checked again by the engine when the game starts)
        seats = 1 + ia if solo else max(1 + ia, 4 if paires else 2)
        if paires and not solo:
            seats += seats % 2
        self.engine.new_game(seats, options, 0)
        await self.open_lobby(interaction, options, ai_seats=ia, solo=solo, pace=rythme, thread=fil)

    def options_text(self, game: GameRow, lang: str) -> str:
        o = game.options
        parts = [i18n.t(f"limit.choice.{o['plateau']}", lang), i18n.t(f"limit.choice.{o['variante']}", lang)]
        if o["plateau"] == "orchidee" and o["variante"] == "standard":
            parts.append(i18n.t(f"limit.choice.{o['tuiles']}", lang))
        if o.get("paires"):
            parts.append(i18n.t("limit.option.paires", lang))
        if o.get("serie", 1) > 1:
            parts.append(i18n.t("limit.prompt.serie", lang, count=o["serie"]))
        return ", ".join(parts)

    # --- where the interacting player stands ---------------------------------------------------
    @staticmethod
    def _check_game_no(view: dict[str, Any], game_no: int | None) -> None:
        if game_no is not None and game_no != view["game_no"]:
            raise RuleError("limit.error.stale_game", game=game_no, current=view["game_no"])

    async def _board_file(self, game: GameRow, view: dict[str, Any], lg: str) -> discord.File:
        data = await self.render(render_board, view, view["seat"], game.names, render_labels(lg))
        return discord.File(io.BytesIO(data), filename=f"limit-{game.id}-private.png")

    # --- acting -----------------------------------------------------------------------------
    async def _act(self, interaction: discord.Interaction, game_id: int, action: dict[str, Any], *,
                   edit: bool, game_no: int | None = None) -> None:
        """Apply ``action`` for the user, answer them ephemerally (their board), then publish.

        Players of a round act at the same moment: commit and publish one at a time, so the
        public messages come in the order of the moves and the newest one carries the live round.
        """
        async with self.game_lock(game_id):
            game = await self.sessions.get(game_id)
            state, seat = self.player_state(interaction, game)
            self._check_game_no(self.engine.view(state, None), game_no)
            outcome = await self.sessions.act(game_id, interaction.user.id, action)
            await self._confirm(interaction, outcome, seat, action, edit=edit)
            await self.publish(outcome, interaction)

    async def _confirm(self, interaction: discord.Interaction, outcome: Outcome, seat: int,
                       action: dict[str, Any], *, edit: bool) -> None:
        game = outcome.game
        lg = lang(interaction)
        mine = [e for e in outcome.events if e.get("private_to") == seat]
        lines = narrate(self.kind, mine, game.names, lg, viewer=seat)
        view = await self.sessions.view_for(game, interaction.user.id)
        if action["type"] == "relocate":
            done = next((e for e in outcome.events if e.get("type") == "relocated" and e.get("seat") == seat), None)
            if done is not None and done["moves"]:
                lines.append(i18n.t("limit.prompt.relocated", lg, moves=moves_text(done["moves"], lg),
                                    gain=done["gain"]))
            else:
                lines.append(i18n.t("limit.prompt.kept", lg))
        elif not any(e.get("type") == "round_closed" for e in outcome.events):
            lines.append(i18n.t("limit.prompt.placed_wait", lg))
        elif view["phase"] == "place" and not view["finished"]:
            closed = next(e for e in outcome.events if e.get("type") == "round_closed")
            lines.append(i18n.t("limit.prompt.placed_round_closed", lg, boards=closed.get("boards", 2)))
        file = await self._board_file(game, view, lg)
        content = "\n".join(lines)[:2000] or None
        if edit:
            await edit_answer(interaction, content, files=[file])
        else:
            await send(interaction, content, ephemeral=True, file=file)

    # --- publishing ---------------------------------------------------------------------------
    async def publish(self, outcome: Outcome, interaction: discord.Interaction | None = None, *,
                      extra: list[str] | None = None, **kw: Any) -> int | None:
        """GameCog's public message, plus the announced tile's line when no event announced it,
        and, between two games of a series, the finished game's boards."""
        game = outcome.game
        lg = kw.get("lang") or await self.public_lang_of(outcome.game)
        lines = list(extra or [])
        if game.status == RUNNING:
            types = {e.get("type") for e in outcome.events}
            view = await self.sessions.public_view(game)
            if "game_scored" in types and view.get("final"):
                await self._post_boards(game, view, interaction, lg)
            if view["phase"] == "place" and view["tile"] and "announced" not in types:
                lines.append(i18n.t("limit.event.announced", lg, round=view["round"], rounds=view["rounds"],
                                    tile=emojis.tile_text(view["tile"]["id"])))
        return await super().publish(outcome, interaction, extra=lines, **kw)

    async def _post_boards(self, game: GameRow, view: dict[str, Any], interaction: discord.Interaction | None,
                           lg: str) -> None:
        """Between two games of a series: the finished game's boards, one picture each."""
        images = [await self.render(job) for job in self._final_pictures(game, view, lg)]
        files = [discord.File(io.BytesIO(data), filename=f"limit-{game.id}-{view['final']['game']}-{i + 1}.png")
                 for i, data in enumerate(images) if data]
        text = i18n.t("limit.prompt.game_boards", lg, game=view["final"]["game"], games=view["games"])
        if interaction is not None:
            await send(interaction, text, files=files)
        else:
            await self.post(game.channel_id, text, files=files)

    @staticmethod
    def _final_pictures(game: GameRow, view: dict[str, Any], lang: str) -> list[Picture]:
        return [picture(render_final, view, game.names, render_labels(lang), b) for b in final_order(view)]

    def render_public(self, game: GameRow, view: dict[str, Any], lang: str) -> Picture | None:
        if view["finished"] or view["phase"] == "relocate":
            return picture(render_final, view, game.names, render_labels(lang))
        return picture(render_tile, view["tile"], render_labels(lang)) if view["tile"] else None

    def render_replay(self, game: GameRow, view: dict[str, Any], lang: str) -> Picture | None:
        """A replay frame: every board as the table knew it (this round's tiles hidden), then the end."""
        if view["finished"] or view["phase"] == "relocate":
            return self.render_public(game, view, lang)
        return picture(render_replay, view, game.names, render_labels(lang))

    def render_public_gallery(self, game: GameRow, view: dict[str, Any], lang: str) -> list[Picture]:
        """The end of the game: every board, one attachment each (a phone shows each across its width)."""
        return self._final_pictures(game, view, lang) if view["finished"] else []

    def render_private(self, game: GameRow, view: dict[str, Any], lang: str) -> Picture | None:
        return picture(render_board, view, view["seat"], game.names, render_labels(lang))

    def turn_controls(self, game: GameRow, view: dict[str, Any], lang: str) -> list[discord.ui.Item]:
        items: list[discord.ui.Item] = [button(game.id, "mine", i18n.t("limit.button.my_board", lang),
                                               style=discord.ButtonStyle.primary)]
        if view["phase"] == "place" and view["tile"]:
            items.append(button(game.id, "place", i18n.t("limit.button.place", lang), arg=tag_of(view),
                                style=discord.ButtonStyle.success))
        elif view["phase"] == "relocate":
            items.append(button(game.id, "relocate", i18n.t("limit.button.relocate", lang),
                                arg=str(view["game_no"]), style=discord.ButtonStyle.success))
        return items

    # --- the "Placer" button and its selects -----------------------------------------------------
    def component_handlers(self) -> dict[str, Any]:
        return {"place": self.on_place, "pos": self.on_position, "fill": self.on_fill,
                "pconfirm": self.on_preview_confirm, "pchange": self.on_preview_change,
                "relocate": self.on_relocate, "reloc": self.on_reloc, "relocsel": self.on_reloc_select}

    def _position_selects(self, game: GameRow, view: dict[str, Any], lg: str) -> list[discord.ui.Item]:
        tag = tag_of(view)
        items: list[discord.ui.Item] = []
        legal = view["legal"]
        if legal:
            parts = -(-len(legal) // MAX_OPTIONS)
            size = -(-len(legal) // parts)
            for k in range(parts):
                chunk = legal[k * size:(k + 1) * size]
                options = [(p, position_label(view, p, lg, game.names)) for p in chunk]
                items.append(select(game.id, "pos", i18n.t("limit.prompt.placeholder", lg, first=chunk[0],
                                                           last=chunk[-1]), options, arg=f"{k}.{tag}"))
        for fill in view["fills"]:
            owner = seats_names(game.names, fill["seats"])
            options = [(p, i18n.t("limit.position.fill", lg, position=p, owner=owner)) for p in fill["legal"]]
            items.append(select(game.id, "fill", i18n.t("limit.prompt.fill_placeholder", lg, owner=owner), options,
                                arg=f"{fill['board']}.{tag}"))
        return items

    async def on_place(self, click: Click) -> None:
        interaction, game = click.interaction, click.game
        game_no, tile = parse_tag(click.arg)
        state, seat = self.player_state(interaction, game)
        view = self.engine.view(state, seat)
        self._check_game_no(view, game_no)
        current = view["tile"]["id"] if view["tile"] else None
        if current is not None and tile != current:
            raise RuleError("limit.error.stale_tile", tile=tile, current=current)
        if not view["legal"] and not view["fills"]:
            self.sessions.refuse_out_of_turn(self.engine, state, seat,
                                             {"type": "place", "tile": tile, "position": ""})
        lg = lang(interaction)
        file = await self._board_file(game, view, lg)
        await send(interaction, self._place_prompt(game, view, lg), ephemeral=True, file=file,
                   view=view_of(*self._position_selects(game, view, lg)))

    def _place_prompt(self, game: GameRow, view: dict[str, Any], lg: str) -> str:
        current = view["tile"]["id"] if view["tile"] else None
        lines = []
        if view["legal"]:
            lines.append(i18n.t("limit.prompt.place", lg, round=view["round"], rounds=view["rounds"],
                                tile=emojis.tile_text(current)))
        for fill in view["fills"]:
            lines.append(i18n.t("limit.prompt.fill", lg, owner=seats_names([escape(n) for n in game.names], fill["seats"]), tile=current))
        return "\n".join(lines)

    def _chosen(self, click: Click, tile: str, offered: Any) -> str:
        """The select's one value. While its round is the current one and the player may still place,
        it must be one of the positions the select offered (``offered(view)``: the legal ones, as
        written); otherwise the engine refuses it with its own reason (a stale tile, already placed)."""
        state, seat = self.player_state(click.interaction, click.game)
        view = self.engine.view(state, seat)
        current = view["tile"]["id"] if view["tile"] else None
        legal = offered(view)
        if tile == current and legal:
            return click.chosen(legal)
        return click.one_value()

    async def on_position(self, click: Click) -> None:
        _part, tag = split_arg(click.arg)
        game_no, tile = parse_tag(tag)
        position = self._chosen(click, tile, lambda view: view["legal"])
        await self._preview(click, {"type": "place", "tile": tile, "position": position}, f"p.{position}.{tag}",
                            game_no)

    async def on_fill(self, click: Click) -> None:
        board, tag = split_arg(click.arg)
        if not board.isdigit():
            raise RuleError("limit.error.bad_choice", choice=str(click.arg))
        game_no, tile = parse_tag(tag)
        position = self._chosen(click, tile, lambda view: next(
            (f["legal"] for f in view["fills"] if f["board"] == int(board)), []))
        await self._preview(click, {"type": "fill", "board": int(board), "tile": tile, "position": position},
                            f"f{board}.{position}.{tag}", game_no)

    # --- a placement is irreversible: a preview first, then « Confirmer » / « Changer » (issue 24) ----
    async def _preview(self, click: Click, action: dict[str, Any], arg: str, game_no: int) -> None:
        """The board with the tile in place and the score change, with « Confirmer » (the placement is
        made only then) and « Changer » (back to the choice). Nothing is stored: the engine's refusals
        come first (the tile of another round, a cell taken, not this player's board). The engine's
        preview stages the placement only: the round stays open, so the next tile is never shown; the
        total is the one the board would score if the game ended now, with the Déchetterie's penalty
        said when there is one."""
        interaction, game = click.interaction, click.game
        state, seat = self.player_state(interaction, game)
        self._check_game_no(self.engine.view(state, None), game_no)
        view = self.engine.preview(state, seat, action)  # pure: the precise refusal, or the preview
        lg = lang(interaction)
        shown = view["boards"][view["preview"]["board"]]["seats"][0]  # the board it goes on (a fill: the owner's)
        data = await self.render(render_board, view, shown, game.names, render_labels(lg))
        file = discord.File(io.BytesIO(data), filename=f"limit-{game.id}-private.png")
        text = preview_text(view, lg, game.names)
        tag = f"{game_no}.{action['tile']}"
        items = [button(game.id, "pconfirm", i18n.t("table.limit.confirm", lg), arg=arg,
                        style=discord.ButtonStyle.success, emoji="✅"),
                 button(game.id, "pchange", i18n.t("table.limit.change", lg), arg=tag, emoji="↩️")]
        await edit_answer(interaction, text, items=items, files=[file])

    async def on_preview_confirm(self, click: Click) -> None:
        kind, _, rest = (click.arg or "").partition(".")
        position, _, tag = rest.partition(".")
        game_no, tile = parse_tag(tag)
        if kind == "p":
            action: dict[str, Any] = {"type": "place", "tile": tile, "position": position}
        elif kind[:1] == "f" and kind[1:].isdigit():
            action = {"type": "fill", "board": int(kind[1:]), "tile": tile, "position": position}
        else:
            raise RuleError("limit.error.bad_choice", choice=str(click.arg))
        await self._act(click.interaction, click.game.id, action, edit=True, game_no=game_no)

    async def on_preview_change(self, click: Click) -> None:
        """« Changer »: the choice again, in the same private message."""
        interaction, game = click.interaction, click.game
        game_no, _tile = parse_tag(click.arg)
        state, seat = self.player_state(interaction, game)
        view = self.engine.view(state, seat)
        self._check_game_no(view, game_no)
        lg = lang(interaction)
        file = await self._board_file(game, view, lg)
        await edit_answer(interaction, self._place_prompt(game, view, lg), files=[file],
                          items=self._position_selects(game, view, lg))

    # --- the relocation step (Orchidée) ----------------------------------------------------------
    async def _relocation_panel(self, interaction: discord.Interaction, game: GameRow,
                                game_no: int | None = None) -> None:
        state, seat = self.player_state(interaction, game)
        view = self.engine.view(state, seat)
        self._check_game_no(view, game_no)
        reloc = view["relocation"]
        if reloc is None or reloc["done"]:
            self.sessions.refuse_out_of_turn(self.engine, state, seat, {"type": "relocate", "moves": {}})
        lg = lang(interaction)
        gno = view["game_no"]
        best = reloc["best"]
        if reloc["orchid"]:
            text = i18n.t("limit.prompt.relocation", lg, tiles=", ".join(reloc["orchid"]),
                          moves=moves_text(best["moves"], lg), gain=best["gain"])
        else:
            text = i18n.t("limit.prompt.relocation_empty", lg)
        items: list[discord.ui.Item] = []
        if best["moves"]:
            items.append(button(game.id, "reloc", i18n.t("limit.button.best", lg),
                                arg=f"{gno}.{encode_moves(best['moves'])}", style=discord.ButtonStyle.success))
        items.append(button(game.id, "reloc", i18n.t("limit.button.keep", lg), arg=f"{gno}.-"))
        for k, (count, chunk) in enumerate(relocation_pages(reloc["options"], best["moves"])):
            options = [(encode_moves(o["moves"]), i18n.t("limit.prompt.option", lg, moves=moves_text(o["moves"], lg),
                                                         gain=o["gain"])) for o in chunk]
            items.append(select(game.id, "relocsel", i18n.t("limit.prompt.relocation_placeholder", lg, count=count),
                                options, arg=f"{gno}.{k}"))
        file = await self._board_file(game, view, lg)
        await send(interaction, text, ephemeral=True, file=file, view=view_of(*items))

    async def on_relocate(self, click: Click) -> None:
        if not (click.arg or "").isdigit():
            raise RuleError("limit.error.bad_choice", choice=str(click.arg))
        await self._relocation_panel(click.interaction, click.game, int(click.arg))

    async def on_reloc(self, click: Click) -> None:
        game_no, code = split_arg(click.arg)
        if not game_no.isdigit():
            raise RuleError("limit.error.bad_choice", choice=str(click.arg))
        await self._act(click.interaction, click.game.id, {"type": "relocate", "moves": decode_moves(code)},
                        edit=True, game_no=int(game_no))

    async def on_reloc_select(self, click: Click) -> None:
        game_no = (click.arg or "").partition(".")[0]  # "<game>.<select>" (or "<game>" from older messages)
        if not game_no.isdigit():
            raise RuleError("limit.error.bad_choice", choice=str(click.arg))
        state, seat = self.player_state(click.interaction, click.game)
        reloc = self.engine.view(state, seat)["relocation"]
        if reloc is not None and not reloc["done"]:  # the relocations offered (else the engine says why not)
            code = click.chosen(encode_moves(o["moves"]) for o in reloc["options"])
        else:
            code = click.one_value()
        await self._act(click.interaction, click.game.id, {"type": "relocate", "moves": decode_moves(code)},
                        edit=True, game_no=int(game_no))

    # --- slash commands: placer, deplacer -------------------------------------------------------
    def _typed_action(self, state: Any, seat: int, raw: str) -> tuple[dict[str, Any], int | None]:
        """``D4`` (typed: the tile announced now) or an autocompleted ``D4@<tag>`` / ``X3@<tag>@<board>``."""
        parts = str(raw or "").strip().split("@")
        position = parts[0].strip()
        if len(parts) == 1:
            view = self.engine.view(state, seat)
            tile = view["tile"]["id"] if view["tile"] else None
            upper = position.upper()
            owner = next((f["board"] for f in view["fills"] if upper in f["legal"] and upper not in view["legal"]),
                         None)
            game_no = None
        elif len(parts) in (2, 3):
            game_no, tile = parse_tag(parts[1])
            owner = None
            if len(parts) == 3:
                if not parts[2].isdigit():
                    raise RuleError("limit.error.bad_choice", choice=str(raw))
                owner = int(parts[2])
        else:
            raise RuleError("limit.error.bad_choice", choice=str(raw))
        if owner is not None:
            return {"type": "fill", "board": owner, "tile": tile, "position": position}, game_no
        return {"type": "place", "tile": tile, "position": position}, game_no

    @app_commands.command(name="placer", description=L("limit.cmd.placer"))
    @app_commands.describe(position=L("limit.cmd.position"), partie=L("common.cmd.partie"))
    async def placer_cmd(self, interaction: discord.Interaction, position: str, partie: int | None = None) -> None:
        game = await self.resolve(interaction, partie)
        state, seat = self.player_state(interaction, game)
        action, game_no = self._typed_action(state, seat, position)
        await self._act(interaction, game.id, action, edit=False, game_no=game_no)

    @app_commands.command(name="deplacer", description=L("limit.cmd.deplacer"))
    @app_commands.describe(a=L("limit.cmd.a"), b=L("limit.cmd.b"), c=L("limit.cmd.c"), partie=L("common.cmd.partie"))
    async def deplacer_cmd(self, interaction: discord.Interaction, a: str | None = None, b: str | None = None,
                           c: str | None = None, partie: int | None = None) -> None:
        game = await self.resolve(interaction, partie)
        moves = {hole: tile.strip() for hole, tile in zip(HOLES, (a, b, c), strict=True) if tile and tile.strip()}
        if not moves:
            await self._relocation_panel(interaction, game)
            return
        await self._act(interaction, game.id, {"type": "relocate", "moves": moves}, edit=False)

    # --- autocomplete: only the legal choices of the user's own seat ------------------------------
    async def _ac_context(self, interaction: discord.Interaction) -> tuple[GameRow, Any, int] | None:
        try:
            game = await self.resolve(interaction, getattr(interaction.namespace, "partie", None))
            state, seat = self.player_state(interaction, game)
        except RuleError:
            return None
        if seat not in self.engine.expected(state):
            return None
        return game, state, seat

    @placer_cmd.autocomplete("position")
    async def _position_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        ctx = await self._ac_context(interaction)
        if ctx is None:
            return []
        game, state, seat = ctx
        view = self.engine.view(state, seat)
        if view["phase"] != "place" or not view["tile"]:
            return []
        lg = lang(interaction)
        tag = tag_of(view)
        found = [(p, position_label(view, p, lg, game.names), f"{p}@{tag}") for p in view["legal"]]
        for fill in view["fills"]:
            owner = seats_names(game.names, fill["seats"])
            found += [(p, i18n.t("limit.position.fill", lg, position=p, owner=owner), f"{p}@{tag}@{fill['board']}")
                      for p in fill["legal"]]
        wanted = (current or "").strip().casefold()
        first = [f for f in found if f[0].casefold().startswith(wanted)]  # the name typed so far, first
        rest = [f for f in found if f not in first and matches(current, f[1])]
        return [app_commands.Choice(name=label[:100], value=value) for _, label, value in first + rest][:MAX_OPTIONS]

    async def _hole_ac(self, interaction: discord.Interaction, current: str,
                       hole: str) -> list[app_commands.Choice[str]]:
        ctx = await self._ac_context(interaction)
        if ctx is None:
            return []
        game, state, seat = ctx
        reloc = self.engine.view(state, seat)["relocation"]
        if not reloc or reloc["done"]:
            return []
        lg = lang(interaction)
        # a tile already named for another hole is not offered again
        taken = {str(getattr(interaction.namespace, other, None) or "").strip().upper()
                 for other in ("a", "b", "c") if other != hole.lower()} - {""}
        out = []
        for tile in reloc["orchid"]:
            gain = next((o["gain"] for o in reloc["options"] if o["moves"] == {hole: tile}), None)
            if gain is None or not matches(current, tile) or str(tile).upper() in taken:
                continue
            out.append(app_commands.Choice(name=i18n.t("limit.prompt.option", lg, moves=tile, gain=gain)[:100],
                                           value=tile))
        return out[:MAX_OPTIONS]

    @deplacer_cmd.autocomplete("a")
    async def _a_ac(self, interaction: discord.Interaction, current: str):
        return await self._hole_ac(interaction, current, "A")

    @deplacer_cmd.autocomplete("b")
    async def _b_ac(self, interaction: discord.Interaction, current: str):
        return await self._hole_ac(interaction, current, "B")

    @deplacer_cmd.autocomplete("c")
    async def _c_ac(self, interaction: discord.Interaction, current: str):
        return await self._hole_ac(interaction, current, "C")

    @placer_cmd.autocomplete("partie")
    @deplacer_cmd.autocomplete("partie")
    async def _limit_partie_ac(self, interaction: discord.Interaction, current: str):
        return await self.partie_autocomplete(interaction, current)
