"""What the Ludime cog shows: labels for the pictures, the turn buttons, the private hand message.

Nothing here changes a game. Every function takes a view from ``engines.ludime`` (the
public one for the channel, the seat's own one for its hand) and returns Discord pieces;
texts come from the ``ludime`` catalog.
"""

from __future__ import annotations

from typing import Any

import discord

from bot import emojis, i18n
from bot.narrate import narrate
from bot.safe import escape
from bot.storage import GameRow
from bot.ui import button, select
from engines.ludime import MAIN, SINGLE, WHOLE

#: the ``[label]`` keys the renderer uses
RENDER_LABELS = ("hand", "table", "discard", "pile", "round", "score", "points", "cards", "penalty", "dealer",
                 "turn", "first_turn", "must_use", "drawn", "no_word", "last_round", "target", "abandoned", "die",
                 "went_out", "winner", "finished")

#: the move commands each variant uses (a command of another variant is refused with the right ones)
COMMANDS = {MAIN: ("poser", "allonger", "echanger"), SINGLE: ("poser", "ajouter"), WHOLE: ("declarer",)}


def labels(lang: str) -> dict[str, str]:
    """The renderer's labels in ``lang`` (the same dict for the bot and for tests comparing pictures)."""
    out = {k: i18n.t(f"ludime.label.{k}", lang) for k in RENDER_LABELS}
    # counts agree in the picture too: the word for 0, 1 and 2+ as the language's plural rule says
    for word in ("cards", "points"):
        out.update({f"{word}_{n}": i18n.t(f"ludime.label.{word}_word", lang, count=n) for n in (0, 1, 2)})
    out["colon"] = i18n.t("ludime.label.colon", lang)
    return out


def variant_name(variant: str, lang: str) -> str:
    return i18n.t(f"ludime.variant.{variant}", lang)


def commands_text(variant: str, lang: str) -> str:
    """The variant's move commands, as mentions (or their names in ``lang``)."""
    return ", ".join(i18n.command(f"ludime {c}", lang) for c in COMMANDS[variant])


def hand_text(view: dict[str, Any], lang: str, *, cards: bool = True) -> str:
    """« Votre main : A B E (5 points) »; ``cards``: the letters as card glyphs too (where no picture
    shows the hand: the word form). Beside the hand's picture the letters are said once, as text."""
    hand = view.get("hand") or []
    if not hand:
        return i18n.t("ludime.label.hand_empty", lang)
    values = view.get("values") or {}
    letters = " ".join(hand)
    return i18n.t("ludime.label.hand_text", lang, points=sum(values.get(c, 0) for c in hand),
                  letters=emojis.letters_text(hand, letters) if cards else letters)


def hint(view: dict[str, Any], lang: str, table_lang: str | None = None,
         legal: list[dict[str, Any]] | None = None) -> str | None:
    """What the seat whose turn it is can do now (None when it is not their turn).

    The hint is in the player's ``lang``; the buttons it names are quoted as the public
    message shows them, in the table's language ``table_lang``. It offers only what the engine
    accepts now: ``legal`` (``engine.legal_actions`` of the seat) decides whether the discard may
    be taken; the seat's own view whether it may lengthen (it owns a word) or take (``can_take``).
    """
    table_lang = table_lang or lang
    buttons = {name: i18n.t(f"ludime.button.{key}", table_lang)
               for name, key in (("draw", "draw_pile"), ("discard", "draw_discard"), ("put_back", "undo_take"))}
    seat = view.get("seat")
    if seat is None or view.get("current") != seat or view.get("finished"):
        return None
    variant, phase = view.get("variant"), view.get("phase")
    if variant == SINGLE:
        return i18n.t("ludime.hint.single_open" if phase == "open" else "ludime.hint.single_add", lang)
    if variant == WHOLE:
        return i18n.t("ludime.hint.whole_draw" if phase == "draw" else "ludime.hint.whole_play", lang)
    if phase == "draw":
        if legal is not None:
            may_take = any(a.get("type") == "draw" and a.get("source") == "discard" for a in legal)
        else:
            may_take = not view.get("first_turn")
        if not may_take:  # first turn, the discard put back this turn, or no discard: no such button
            return i18n.t("ludime.hint.draw_pile_only", lang, draw=buttons["draw"])
        return i18n.t("ludime.hint.draw", lang, draw=buttons["draw"], discard=buttons["discard"])
    if view.get("must_use") and view.get("discard_taken"):
        return i18n.t("ludime.hint.must_use", lang, letter=view["discard_taken"], put_back=buttons["put_back"])
    if view.get("first_turn") and not view.get("laid") and not view.get("exchanged"):
        return i18n.t("ludime.hint.first", lang)
    if view.get("first_turn"):  # one word or one exchange on the first turn, then only the discard is left
        return i18n.t("ludime.hint.discard_only", lang)
    if view.get("can_take"):  # owns a word laid before this turn: lay, lengthen and take
        return i18n.t("ludime.hint.play", lang)
    if any(w.get("owner") == seat for w in view.get("words") or []):  # its first word is this turn's
        return i18n.t("ludime.hint.play_own", lang)
    return i18n.t("ludime.hint.play_new", lang)  # no word of its own yet: nothing to lengthen or take


def may_discard(view: dict[str, Any]) -> bool:
    """Whether the seat's own view shows a turn where a card may be chosen to end it."""
    seat = view.get("seat")
    return (seat is not None and view.get("current") == seat and not view.get("finished")
            and view.get("variant") in (MAIN, WHOLE) and view.get("phase") == "play" and bool(view.get("hand")))


def may_end_turn(view: dict[str, Any]) -> bool:
    """Whether the seat's own view shows a variant-2 turn with letters added (« Finir mon tour »)."""
    seat = view.get("seat")
    return (seat is not None and view.get("current") == seat and not view.get("finished")
            and view.get("variant") == SINGLE and view.get("phase") == "add" and bool(view.get("letters_added")))


def discard_select(game: GameRow, view: dict[str, Any], lang: str) -> discord.ui.Select:
    """The letters of the seat's own hand (ephemeral only: the options list the hand)."""
    letters = sorted(set(view.get("hand") or []))
    values = view.get("values") or {}
    options = [(c, i18n.t("ludime.label.letter_option", lang, letter=c, value=values.get(c, 0)), emojis.emoji("ludime", c))
               for c in letters]
    # bound to the version it was drawn for: a select of an earlier turn or round is stale (issue 24)
    return select(game.id, "discard", i18n.t("ludime.label.discard_placeholder", lang), options,
                  version=game.version)


def private_lines(game: GameRow, events: list[dict[str, Any]], seat: int, lang: str) -> list[str]:
    """The events only ``seat`` may be told (the card drawn, the cards received in an exchange)."""
    own = [e for e in events if e.get("private_to") == seat]
    return narrate("ludime", own, game.names, lang, viewer=seat)


def hand_message(game: GameRow, view: dict[str, Any], lang: str,
                 events: list[dict[str, Any]] | None = None,
                 table_lang: str | None = None, legal: list[dict[str, Any]] | None = None,
                 told: bool = False) -> tuple[str, list[discord.ui.Item]]:
    """Text and components of the ephemeral hand message for the seat of ``view`` (in the player's
    ``lang``; buttons of the public message named in ``table_lang``; the hint from ``legal``).

    ``told``: the move is told here and nowhere else (variant 2's additions within a turn,
    which post no public message): the whole narration of ``events``, not only the private part.
    """
    seat = view["seat"]
    if told:
        lines = narrate("ludime", events or [], game.names, lang, viewer=seat)
    else:
        lines = private_lines(game, events or [], seat, lang)
    lines.append(hand_text(view, lang, cards=False))  # the message's picture shows the cards
    tip = hint(view, lang, table_lang, legal)
    if tip:
        lines.append(tip)
    items: list[discord.ui.Item] = []
    if may_discard(view):
        items.append(discard_select(game, view, lang))
    if may_end_turn(view):  # variant 2, letters added: end the turn from here (the public button may lag)
        items.append(button(game.id, "pass", i18n.t("ludime.button.end_turn", lang), version=game.version))
    return "\n".join(lines), items


def turn_buttons(game: GameRow, view: dict[str, Any], legal: list[dict[str, Any]], lang: str) -> list[discord.ui.Item]:
    """The public turn message's buttons: the current player's finite moves, and "Ma main" for all.

    ``legal`` is ``engine.legal_actions`` of the current seat; only the kinds of move are
    used (never the letters, which would reveal the hand).
    """
    kinds = {(a["type"], a.get("source")) for a in legal}
    v = game.version
    items: list[discord.ui.Item] = []
    if ("draw", "pile") in kinds:
        items.append(button(game.id, "draw", i18n.t("ludime.button.draw_pile", lang), version=v,
                            style=discord.ButtonStyle.primary))
    if ("draw", "discard") in kinds:
        items.append(button(game.id, "take", i18n.t("ludime.button.draw_discard", lang), version=v))
    if view.get("variant") in (MAIN, WHOLE) and view.get("phase") == "play":
        # a word from a form that shows the hand (issue 24): no slash command to type on a phone
        items.append(button(game.id, "word", i18n.t("table.ludime.button_word", lang), version=v,
                            style=discord.ButtonStyle.success, emoji="✍️"))
        items.append(button(game.id, "discard_menu", i18n.t("ludime.button.discard", lang),
                            style=discord.ButtonStyle.primary))
    if ("undo_take", None) in kinds:
        items.append(button(game.id, "undo", i18n.t("ludime.button.undo_take", lang), version=v))
    if ("pass", None) in kinds:
        # variant 2: a pass without any addition abandons the round; after an addition it ends the turn
        key = "ludime.button.pass"
        if view.get("variant") == SINGLE and view.get("phase") != "open":
            key = "ludime.button.end_turn" if view.get("letters_added") else "ludime.button.abandon"
        items.append(button(game.id, "pass", i18n.t(key, lang), version=v))
    items.append(button(game.id, "mine", i18n.t("ludime.button.hand", lang), style=discord.ButtonStyle.success,
                        emoji="🃏"))
    return items


def told_events(game: GameRow, events: list[dict[str, Any]], view: dict[str, Any]) -> list[dict[str, Any]]:
    """``events`` as the channel is told them: the first deal after the start (the engine deals in
    ``new_game``, which has no events), and every player's points after each end of round."""
    out: list[dict[str, Any]] = []
    for e in events:
        out.append(e)
        if e.get("type") == "started" and view.get("dealer") is not None:
            if view.get("die"):
                out.append({"type": "die_rolled", "seat": view["dealer"], "die": view["die"],
                            "cards": view.get("hand_size")})
            out.append({"type": "dealt", "round": view.get("round"), "dealer": view["dealer"],
                        "cards": view.get("hand_size")})
        if e.get("type") == "round_end" and isinstance(e.get("points"), list):
            points = ", ".join(f"{name} {p:+d}" for name, p in zip(game.names, e["points"], strict=False))
            out.append({"type": "round_points", "round": e.get("round"), "points": points})
    return out


def table_text(game: GameRow, view: dict[str, Any], lang: str) -> str:
    lines = [i18n.t("ludime.label.table_head", lang, id=game.id, round=view.get("round"))]
    names = game.names
    for w in view.get("words") or []:
        owner = escape(names[w["owner"]]) if 0 <= w["owner"] < len(names) else "?"
        lines.append("• " + i18n.t("ludime.label.table_word", lang, word=w.get("shown") or w["word"], owner=owner,
                                           value=w["value"]))
    if not view.get("words"):
        lines.append(i18n.t("ludime.label.table_empty", lang))
    return "\n".join(lines)
