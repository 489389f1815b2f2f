"""``/lutinades``: start with a variant; "Voir la carte", gesture and follow buttons.

Public (through :meth:`GameCog.publish`): the turn message (table image, who has
chosen, the lutins' gesture buttons), the reveal of the gestures (follow buttons
for the picker), the reveal of the card and of who picks how many mushrooms.
Private (ephemeral, to one lutin): the turned-up card ("Voir la carte", verb
``card``; the generic ``mine`` does the same) with the gesture buttons under it while the
lutin has not chosen (no need to scroll back to the turn message), and the gesture they just
made. In "en grand" the forbidden gesture is not recorded at the first click: the lutin is
warned privately of what it costs and confirms (verb ``confirm``) or simply picks another.
The picker is refused the card: the card only ever leaves the engine in a
lutin's own view. No game rule lives here: the engine judges every move; the
pre-checks below only turn the session's generic "not your turn" into the
engine's specific refusal, from the public view.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot import emojis, i18n
from bot.gamecog import PACE_CHOICES, GameCog, level_choices
from bot.narrate import event_params, narrate
from bot.render_pool import picture
from bot.safe import escape
from bot.sessions import Outcome, SessionError
from bot.storage import GameRow
from bot.translator import L
from bot.ui import Click, button, label_with_name, lang, send, view_of
from engines.lutinades import (
    EN_GRAND,
    FORBIDDEN_IN_EN_GRAND,
    KINDS,
    MALINS,
    SIDES,
    STANDARD,
    VARIANTS,
    mirror,
)
from render.lutinades import render_card, render_table

GESTURE_EMOJI = {"up": "⬆️", "down": "⬇️", "horizontal": "↔️", "small": "🤏"}


def gesture_emoji(kind: str):
    """The gesture's application emoji (as the table picture draws it), else its unicode arrow."""
    return emojis.emoji("lutinades", kind) or GESTURE_EMOJI[kind]
TABLE_LABELS = ("picker", "deck", "revealed_card")
MAX_TOLD = 1500  # characters of narration per public message (Discord allows 2000 with the turn line)


# --- words -----------------------------------------------------------------------
def gesture_name(kind: str, lg: str) -> str:
    return i18n.t(f"lutinades.gesture.{kind}", lg)


def own_gesture_text(kind: str, side: str | None, lg: str) -> str:
    """A gesture as the lutin who makes it says it (their own left/right)."""
    if side is None:
        return gesture_name(kind, lg)
    return i18n.t("lutinades.button.gesture_side", lg, gesture=gesture_name(kind, lg),
                  side=i18n.t(f"lutinades.side_button.{side}", lg))


def public_gesture_text(gesture: dict[str, Any], lg: str, *, short: bool = False) -> str:
    """A revealed gesture as the picker sees it (``side_for_picker`` in lutins malins);
    ``short`` for a button ("Vers le haut, à gauche")."""
    name = gesture_name(gesture["gesture"], lg)
    if gesture.get("side_for_picker") is None:
        return name
    side = "side_short" if short else "side_seen"
    return i18n.t("lutinades.label.gesture_with_side", lg, gesture=name,
                  side=i18n.t(f"lutinades.{side}.{gesture['side_for_picker']}", lg))


def card_text(view: dict[str, Any], lg: str) -> str:
    """What a lutin is told with the card image (only ever sent to a lutin, ephemerally)."""
    card = view["card"]
    params = {"turn": view["turn"], "kind": gesture_name(card["kind"], lg), "big": card["big"],
              "small": card["small"]}
    lines = []
    if view["variant"] == MALINS:
        truthful = mirror(card["side"])  # the lutin's own arm that points the card's way for the picker
        lines.append(i18n.t("lutinades.label.your_card_side", lg, **params,
                            side=i18n.t(f"lutinades.side_card.{card['side']}", lg),
                            button=i18n.t(f"lutinades.side_button.{truthful}", lg)))
        lines.append(i18n.t("lutinades.label.mirror_hint", lg))
    else:
        lines.append(i18n.t("lutinades.label.your_card", lg, **params))
    if view.get("small_forbidden"):
        lines.append(i18n.t("lutinades.label.small_forbidden", lg))
    mine = view.get("my_gesture")
    if mine:
        lines.append(i18n.t("lutinades.label.your_gesture", lg, gesture=own_gesture_text(mine["gesture"],
                                                                                         mine["side"], lg)))
    return "\n".join(lines)


def totals_after(events: list[dict[str, Any]], index: int, view: dict[str, Any], seats: int) -> list[int | None]:
    """Every seat's mushrooms once ``events[:index + 1]`` happened: the view's counts (the state after
    all ``events``) less what the later events gave or took back; None where the view has no count."""
    counts = list(view.get("mushrooms") or [])
    if len(counts) != seats:
        return [None] * seats
    for later in events[index + 1:]:
        if later.get("type") == "gained":
            counts[later["seat"]] -= int(later.get("count") or 0)
        elif later.get("type") == "ignored":
            counts[later["seat"]] += int(later.get("returned") or 0)
    return counts


def tell(events: list[dict[str, Any]], view: dict[str, Any], names: list[str], lg: str) -> list[str]:
    """The public story of ``events``: the engine's narrations, plus the revealed gestures (one line
    each), the revealed card and the turn's scoring sentence, in the order they happened."""
    lines: list[str] = []
    shown = [escape(n) for n in names]  # for the lines told here; narrate escapes its own
    new_turn = False
    for index, event in enumerate(events):
        kind = event.get("type")
        if kind == "gained":
            continue  # told with the card it follows (below): the outcome line, any shortfall, then the totals
        if kind == "followed" and event.get("auto"):  # nobody chose: say the bot did, and why
            lines.append(i18n.t("lutinades.label.followed_auto", lg, **event_params(event, names)))
            continue
        lines += narrate("lutinades", [event], names, lg)
        if kind == "started":
            picker = next((e["picker"] for e in events if "picker" in e), view.get("picker"))
            if picker is not None:
                lines.append(i18n.t("lutinades.label.first_picker", lg, picker=shown[picker]))
            new_turn = True
        elif kind == "turn":
            new_turn = True
        elif kind == "gestures_revealed":
            for g in event["gestures"]:
                if g is None:
                    continue
                key = "lutinades.label.gesture_line_ignored" if g["ignored"] else "lutinades.label.gesture_line"
                lines.append(i18n.t(key, lg, seat=shown[g["seat"]], gesture=public_gesture_text(g, lg)))
        elif kind == "revealed":
            card = event["card"]
            if card.get("malins"):
                lines.append(i18n.t("lutinades.label.card_revealed_side", lg, kind=gesture_name(card["kind"], lg),
                                    side=i18n.t(f"lutinades.side_card.{card['side']}", lg)))
            else:
                lines.append(i18n.t("lutinades.label.card_revealed", lg, kind=gesture_name(card["kind"], lg)))
            lines.append(i18n.t(f"lutinades.outcome.{event['outcome']}", lg, **event_params(event, names)))
            gains = []
            for later in events[index + 1:]:
                if later.get("type") != "gained":
                    break
                gains.append(later)
            short = [g for g in gains if g.get("count") != g.get("wanted")]  # the deck ran short
            lines += narrate("lutinades", short, names, lg)
            if gains:
                totals = totals_after(events, index + len(gains), view, len(names))
                for g in gains:
                    totals[g["seat"]] = g["total"]
                lines.append(i18n.t("lutinades.label.totals", lg, totals=" · ".join(
                    f"{shown[s]} {total}" for s, total in enumerate(totals) if total is not None)))
    if new_turn and view.get("phase") == "gestures" and not view.get("finished"):
        lines.append(i18n.t("lutinades.label.how_to", lg))
    return shorten(lines, lg)


def shorten(lines: list[str], lg: str, budget: int = MAX_TOLD) -> list[str]:
    """Keep the story within ``budget`` characters: drop lines from the middle, say how many."""
    if sum(len(x) + 1 for x in lines) <= budget:
        return lines
    head, tail = lines[:3], list(lines[3:])
    dropped = 0
    while tail and sum(len(x) + 1 for x in head + tail) + 40 > budget:
        tail.pop(0)
        dropped += 1
    return head + [i18n.t("common.event.skipped", lg, count=dropped)] + tail


def parse_gesture_arg(arg: str | None) -> tuple[int, str, str | None]:
    """``"<turn>.<kind>[.<side>]"`` (drawn by :meth:`LutinadesCog.gesture_buttons`)."""
    parts = (arg or "").split(".")
    if len(parts) not in (2, 3) or not parts[0].isdigit():
        raise SessionError("common.error.forged_button")
    return int(parts[0]), parts[1], parts[2] if len(parts) == 3 else None


class LutinadesCog(GameCog, group_name="lutinades", group_description=L("lutinades.cmd.start")):
    kind = "lutinades"
    score_key = "cards.seat.mushrooms"

    def seat_scores(self, game: GameRow, view: dict[str, Any]) -> list[Any] | None:
        """The mushrooms each lutin has won so far."""
        won = view.get("mushrooms")
        return won if isinstance(won, list) and len(won) == len(game.seats) else None
    #: « Voir la carte » is the lutin's own view: its row is apart from the gestures (issue 24)
    private_verbs = frozenset({"mine", "card"})

    @app_commands.command(name="start", description=L("lutinades.cmd.start"))
    @app_commands.describe(variante=L("lutinades.cmd.variante"), ia=L("lutinades.cmd.ia"),
                           niveau=L("lutinades.cmd.niveau"),
                           rythme=L("common.cmd.rythme"), fil=L("common.cmd.fil"))
    @app_commands.choices(rythme=PACE_CHOICES, niveau=level_choices(2), variante=[app_commands.Choice(name=L(f"lutinades.variant.{v}"), value=v)
                                    for v in VARIANTS])
    async def start(self, interaction: discord.Interaction, variante: str = STANDARD,
                    ia: app_commands.Range[int, 0, 6] = 0,
                    niveau: int = 1,
                    rythme: str | None = None, fil: bool | None = None) -> None:
        await self.open_lobby(interaction, {"variante": variante}, ai_seats=ia, ai_level=niveau, pace=rythme, thread=fil)

    def options_text(self, game: GameRow, lang: str) -> str:
        variant = game.options.get("variante", STANDARD)
        return i18n.t("lutinades.label.options", lang, variant=i18n.t(f"lutinades.variant.{variant}", lang))

    # --- components ------------------------------------------------------------------
    def component_handlers(self) -> dict[str, Any]:
        return {"card": self.on_card, "gesture": self.on_gesture, "confirm": self.on_confirm_gesture,
                "follow": self.on_follow}

    async def on_card(self, click: Click) -> None:
        await self.show_private(click.interaction, click.game)

    async def show_private(self, interaction: discord.Interaction, game: GameRow) -> None:
        """The turned-up card, ephemerally, to a lutin; the picker is refused (``card_for_picker``)."""
        self.player_state(interaction, game)  # running, and the user is seated
        view = await self.sessions.view_for(game, interaction.user.id)
        if view["role"] == "picker":
            raise SessionError("lutinades.label.card_for_picker")
        lg = lang(interaction)
        image = await self.render(self.render_private(game, view, lg))
        if image is None:
            raise SessionError("common.error.no_private_view")
        # the lutin who has not chosen yet gets the gesture buttons right under the card
        items: list[discord.ui.Item] = []
        if view.get("phase") == "gestures" and view.get("role") == "lutin" and not view.get("my_gesture"):
            for r, row in enumerate(self.gesture_buttons(game, view, lg)):
                for item in row:
                    item.row = r
                    items.append(item)
        await send(interaction, card_text(view, lg), ephemeral=True,
                   file=discord.File(io.BytesIO(image), filename=f"lutinades-{game.id}-card.png"),
                   view=view_of(*items) if items else None)

    async def on_gesture(self, click: Click) -> None:
        turn, kind, side = parse_gesture_arg(click.arg)
        state, seat = self.player_state(click.interaction, click.game)
        if state.variant == EN_GRAND and kind == FORBIDDEN_IN_EN_GRAND:
            # warn before it counts: the engine's refusals first (the picker, a stale turn, already
            # chosen…: apply is pure), then what the forbidden gesture costs, and a button to confirm
            self.engine.apply(state, seat, {"type": "gesture", "gesture": kind, "side": side, "turn": turn})
            lg = lang(click.interaction)
            confirm = button(click.game.id, "confirm", i18n.t("lutinades.button.confirm_forbidden", lg),
                             arg=click.arg, emoji=gesture_emoji(kind), style=discord.ButtonStyle.danger)
            await send(click.interaction, i18n.t("lutinades.label.forbidden_warning", lg, turn=turn,
                                                 gesture=gesture_name(kind, lg)),
                       ephemeral=True, view=view_of(confirm))
            return
        await self.record_gesture(click, turn, kind, side)

    async def on_confirm_gesture(self, click: Click) -> None:
        """« Confirmer » under the warning: the forbidden gesture is made, and penalised as the rules say."""
        turn, kind, side = parse_gesture_arg(click.arg)
        await self.record_gesture(click, turn, kind, side)

    async def record_gesture(self, click: Click, turn: int, kind: str, side: str | None) -> None:
        game, user_id = click.game, click.interaction.user.id
        # The engine gives the precise refusals (stale turn, the picker, gestures closed, already
        # chosen) through the session service. No version check: the lutins act at once, and the
        # "turn" in the action makes the engine refuse a stale button. The game lock keeps the
        # public messages in the order the gestures were recorded.
        async with self.game_lock(game.id):
            outcome = await self.sessions.act(game.id, user_id,
                                              {"type": "gesture", "gesture": kind, "side": side, "turn": turn})
            lg = lang(click.interaction)
            await send(click.interaction, i18n.t("lutinades.label.gesture_recorded", lg, turn=turn,
                                                 gesture=own_gesture_text(kind, side, lg)), ephemeral=True)
            await self.publish(outcome, click.interaction)

    async def on_follow(self, click: Click) -> None:
        if not (click.arg or "").isdigit():
            raise SessionError("common.error.forged_button")
        game = click.game
        await self.play(click.interaction, game, {"type": "follow", "lutin": int(click.arg)},
                        version=click.check_version)

    # --- publishing --------------------------------------------------------------------
    async def publish(self, outcome: Outcome, interaction: discord.Interaction | None = None, *,
                      extra: list[str] | None = None, **kw: Any) -> int | None:
        """GameCog.publish, with this game's story (gestures and card revealed in order)."""
        lg = kw.get("lang") or await self.public_lang_of(outcome.game)
        view = await self.sessions.public_view(outcome.game)
        lines = tell(outcome.events, view, outcome.game.names, lg) + (extra or [])
        told = Outcome(game=outcome.game, events=[], result=outcome.result, newly_expected=outcome.newly_expected)
        return await super().publish(told, interaction, extra=lines, image=self.publish_image(outcome, view), **kw)

    # --- rendering -------------------------------------------------------------------
    def table_labels(self, game: GameRow, view: dict[str, Any], lg: str) -> dict[str, str]:
        labels = {k: i18n.t(f"lutinades.label.{k}", lg) for k in TABLE_LABELS}
        labels["turn"] = i18n.t("lutinades.label.turn", lg, turn="{turn}")
        labels["variant"] = i18n.t(f"lutinades.variant.{view['variant']}", lg)
        return labels

    def render_public(self, game, view, lang):
        return picture(render_table, view, game.names, self.table_labels(game, view, lang))

    def publish_image(self, outcome, view):
        """No table picture after gestures that leave others to choose and nothing else: nothing
        visible changed (the text says who has chosen), and a picture per lutin would flood the
        channel. A new turn shows the table even when a seat the bot plays for (an AI seat, an
        absent player after a vote) chose its gesture at once (issue 24)."""
        only_gestures = bool(outcome.events) and all(e.get("type") == "gesture_chosen" for e in outcome.events)
        return not (view.get("phase") == "gestures" and view.get("chosen") and only_gestures)

    def render_private(self, game, view, lang):
        if not view.get("card"):
            return None
        return picture(render_card, view["card"], {k: gesture_name(k, lang) for k in KINDS},
                       self.touch_gestures(view, lang))

    @staticmethod
    def touch_gestures(view: dict[str, Any], lg: str) -> list[tuple[str, str, str | None, str, bool]]:
        """The gestures a lutin who has not chosen yet may touch under their card on the board's page
        (render_card draws them only there, with its hit map): the buttons' gestures, in their order."""
        if view.get("phase") != "gestures" or view.get("role") != "lutin" or view.get("my_gesture"):
            return []
        sides: tuple[str | None, ...] = SIDES if view["variant"] == MALINS else (None,)
        return [("gesture:" + kind + (f":{side}" if side else ""), kind, side, own_gesture_text(kind, side, lg),
                 view["variant"] == EN_GRAND and kind == FORBIDDEN_IN_EN_GRAND) for side in sides for kind in KINDS]

    def turn_controls(self, game, view, lang):
        if view.get("finished"):
            return []
        humans = [s for s in range(len(game.seats)) if not game.seats[s].is_ai]
        rows: list[list[discord.ui.Item]] = []
        if view["phase"] == "gestures" and any(s in view["waiting"] for s in humans):
            rows += self.gesture_buttons(game, view, lang)
        elif view["phase"] == "choice" and view["picker"] in humans:
            follows = [button(game.id, "follow",
                              label_with_name("lutinades.button.follow", lang, "lutin", game.names[s],
                                              gesture=public_gesture_text(view["gestures"][s], lang, short=True)),
                              version=game.version, arg=str(s), style=discord.ButtonStyle.primary)
                       for s in view["followable"]]
            rows += [follows[i:i + 5] for i in range(0, len(follows), 5)]
        if any(s != view["picker"] for s in humans):  # a human lutin may want to (re)see the card
            rows.append([button(game.id, "card", i18n.t("lutinades.label.see_card", lang),
                                style=discord.ButtonStyle.success, emoji="🃏")])
        items = []
        for r, row in enumerate(rows):
            for item in row:
                item.row = r
                items.append(item)
        return items

    def gesture_buttons(self, game: GameRow, view: dict[str, Any], lg: str) -> list[list[discord.ui.Item]]:
        """One row of gestures (one per side in lutins malins); the custom id carries the turn."""
        sides: tuple[str | None, ...] = SIDES if view["variant"] == MALINS else (None,)
        rows = []
        for side in sides:
            row = []
            for kind in KINDS:
                forbidden = view["variant"] == EN_GRAND and kind == FORBIDDEN_IN_EN_GRAND
                label = own_gesture_text(kind, side, lg)
                if forbidden:
                    label = i18n.t("lutinades.button.forbidden", lg, gesture=label)
                arg = f"{view['turn']}.{kind}" + (f".{side}" if side else "")
                row.append(button(game.id, "gesture", label, arg=arg, emoji=gesture_emoji(kind),
                                  style=discord.ButtonStyle.danger if forbidden else discord.ButtonStyle.secondary))
            rows.append(row)
        return rows
