"""Ludime pictures: a player's hand (letter cards with their values) and the public table.

Both take a view from ``engines.ludime`` (``ENGINE.view(state, seat)``) and the players'
names in seat order; ``labels`` are the already-translated words of the catalog's
``[label]`` section (French by default).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from PIL import ImageDraw

from engines.ludime.lexicon import normalize
from render import catalog
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    TEXT,
    canvas,
    centred_text,
    encode_png,
    fit,
    font,
    legible,
    seat_colour,
)

#: Sized for a phone: shown about 360 px wide, the smallest text (22 px) stays 11 px high.
WIDTH = 720
SMALL = 22
CARD_FACE = (250, 246, 236)
CARD_INK = (35, 35, 40)
CARD_EDGE = (30, 30, 30)
VOWEL_TINT = (232, 240, 252)
BACK = (96, 72, 140)
#: an exchange's preview: the cards given back to the pile (outline, badge and note)
GIVING = (255, 140, 90)

def catalog_labels(lang: str = "fr") -> dict[str, str]:
    """The picture's words in ``lang``: the ``[label]`` section of the Ludime catalog, and the nouns
    of ``n cards`` / ``n points`` for 0, 1 and 2+ as the language's plural rule says (what a caller
    gives nothing for is drawn in French, from the catalog: no word is written here)."""
    out = dict(catalog.section("ludime", lang, "label"))
    for word in ("cards", "points"):
        out.update({f"{word}_{n}": catalog.message("ludime", lang, f"label.{word}_word", count=n) or out[word]
                    for n in (0, 1, 2)})
    return out


def _count(lab: dict[str, str], word: str, n: int) -> str:
    """``n`` and its noun, agreeing (``cards_0``/``cards_1``/``cards_2`` come from the catalog's plural rule)."""
    return f"{n} {lab.get(f'{word}_{min(abs(n), 2)}', lab[word])}"
VOWELS = set("AEIOUY")


def _name(names: list[str], seat: int | None) -> str:
    if seat is None:
        return ""
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def _card(draw, x: int, y: int, w: int, h: int, letter: str, value: int | None,
          outline=CARD_EDGE, width: int = 2) -> None:
    """One letter card: the letter big in the middle, its value small in the corner."""
    base = normalize(letter)  # É is an E card, Œ the O and E cards
    fill = VOWEL_TINT if base and set(base) <= VOWELS else CARD_FACE
    draw.rounded_rectangle((x, y, x + w, y + h), radius=max(4, min(w, h) // 8), fill=fill, outline=outline, width=width)
    centred_text(draw, (x + w / 2, y + h * 0.47), letter, font(int(h * 0.52), bold=True), fill=CARD_INK)
    if value is not None and h >= 40:
        vf = font(max(11, int(h * 0.2)), bold=True)
        draw.text((x + w - max(5, w // 10), y + h - max(4, h // 14)), str(value), font=vf, fill=(90, 90, 100),
                  anchor="rd")


def _back(draw, x: int, y: int, w: int, h: int, text: str = "") -> None:
    draw.rounded_rectangle((x, y, x + w, y + h), radius=max(4, w // 8), fill=BACK, outline=CARD_EDGE, width=2)
    if text:
        centred_text(draw, (x + w / 2, y + h / 2), text, font(int(h * 0.3), bold=True), fill=TEXT)


def render_hand(view: dict[str, Any], names: list[str], labels: dict[str, str] | None = None,
                hits: dict[str, list] | None = None) -> bytes:
    """The viewing seat's hand as cards with values (an ephemeral picture: only its owner sees it).
    ``hits`` receives every card (``card:0`` → its polygon, in the hand's order, in the picture's pixels)."""
    lab = {**catalog_labels("fr"), **(labels or {})}
    hand: list[str] = list(view.get("hand") or [])
    values: dict[str, int] = view.get("values") or {}
    seat = view.get("seat")
    per_row = 6
    card_w, card_h, gap = 104, 136, 12
    rows = max(1, (len(hand) + per_row - 1) // per_row)
    notes = _hand_notes(view, lab)
    top = 110
    height = top + rows * (card_h + gap) + 34 * len(notes) + 26
    img, draw = canvas(WIDTH, height, BACKGROUND)

    colour = seat_colour(seat) if seat is not None else MUTED
    draw.ellipse((24, 26, 52, 54), fill=colour)
    title_font = font(32, bold=True)
    title = fit(f"{lab['hand']} — {_name(names, seat)}", title_font, WIDTH - 64 - 24)
    draw.text((64, 40), title, font=title_font, fill=TEXT, anchor="lm")
    total = sum(values.get(c, 0) for c in hand)
    info = f"{_count(lab, 'cards', len(hand))} · {_count(lab, 'points', total)}"
    draw.text((64, 80), info, font=font(24), fill=MUTED, anchor="lm")

    must = view.get("discard_taken") if view.get("must_use") and view.get("current") == seat else None
    drawn = view.get("drawn")
    x0 = (WIDTH - (min(per_row, max(1, len(hand))) * (card_w + gap) - gap)) // 2
    marked_must = marked_drawn = False
    giving = Counter(view.get("giving") or ())  # an exchange's preview: the cards given back
    for i, letter in enumerate(hand):
        r, c = divmod(i, per_row)
        x = x0 + c * (card_w + gap)
        y = top + r * (card_h + gap)
        outline, width = CARD_EDGE, 2
        if giving[letter] > 0:
            giving[letter] -= 1
            _card(draw, x, y, card_w, card_h, letter, values.get(letter), GIVING, 6)
            _given_back(draw, x, y)
            if hits is not None:
                hits[f"card:{i}"] = [(x, y), (x + card_w, y), (x + card_w, y + card_h), (x, y + card_h)]
            continue
        if must and letter == must and not marked_must:
            outline, width, marked_must = HIGHLIGHT, 6, True
        elif drawn and letter == drawn and not marked_drawn:
            outline, width, marked_drawn = (120, 200, 255), 6, True
        _card(draw, x, y, card_w, card_h, letter, values.get(letter), outline, width)
        if hits is not None:
            hits[f"card:{i}"] = [(x, y), (x + card_w, y), (x + card_w, y + card_h), (x, y + card_h)]
    if not hand:
        centred_text(draw, (WIDTH / 2, top + card_h / 2), "—", font(48, bold=True), fill=MUTED)
    y = top + rows * (card_h + gap) + 6
    for text, fill in notes:
        draw.text((28, y), fit(text, font(24), WIDTH - 56), font=font(24), fill=fill)
        y += 34
    return encode_png(img)


def _given_back(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """A card given back to the pile (an exchange's preview): a badge « ↩ » on its top-left corner."""
    draw.ellipse((x - 8, y - 8, x + 32, y + 32), fill=GIVING, outline=BACKGROUND, width=3)
    centred_text(draw, (x + 12, y + 12), "↩", font(26, bold=True), fill=BACKGROUND)


def _hand_notes(view: dict[str, Any], lab: dict[str, str]) -> list[tuple[str, tuple[int, int, int]]]:
    notes = []
    if view.get("giving"):
        notes.append((f"{lab['giving']}{lab['colon']}{' '.join(view['giving'])}", GIVING))
    mine = view.get("current") == view.get("seat") and view.get("seat") is not None
    if mine and view.get("variant") == "main" and view.get("first_turn") and not view.get("laid") \
            and not view.get("exchanged"):
        notes.append((lab["first_turn"], HIGHLIGHT))
    if mine and view.get("must_use") and view.get("discard_taken"):
        notes.append((f"{view['discard_taken']}{lab['colon']}{lab['must_use']}", HIGHLIGHT))
    if mine and view.get("drawn"):
        notes.append((f"{lab['drawn']}{lab['colon']}{view['drawn']}", (120, 200, 255)))
    return notes


def _faces(word: str, shown: str | None) -> list[tuple[str, int]]:
    """What each card of ``word`` shows, as (text, cards): the spelling's characters (É on an E card),
    a ligature over the two cards it stands for (Œ on O and E); the card letters when ``shown`` is
    not a spelling of ``word``."""
    if not shown or normalize(shown) != word:
        return [(c, 1) for c in word]
    return [(ch, len(normalize(ch))) for ch in shown]


HALF_MAX = 9  # longest word drawn in a half-width slot when the table has two columns


def _layout(words: list[dict[str, Any]], two_cols: bool) -> tuple[list[tuple[int, int, int]], int]:
    """(row, column, span) of each word, and the number of rows: long words take a whole row."""
    if not two_cols:
        return [(i, 0, 1) for i in range(len(words))], len(words)
    slots = []
    row = col = 0
    for w in words:
        if len(w["word"]) > HALF_MAX:
            if col:
                row, col = row + 1, 0
            slots.append((row, 0, 2))
            row += 1
        else:
            slots.append((row, col, 1))
            row, col = (row + 1, 0) if col else (row, 1)
    return slots, row + (1 if col else 0)


def render_table(view: dict[str, Any], names: list[str], labels: dict[str, str] | None = None,
                 hits: dict[str, list] | None = None) -> bytes:
    """The public table: every word with its owner's colour and value, discard, pile, scores. ``hits``
    receives the discard and the pile (``discard``, ``pile`` → their card's polygon) and each word's row
    (``word:<id>``: a word to lengthen or take)."""
    lab = {**catalog_labels("fr"), **(labels or {})}
    players = view["players"]
    words = list(view.get("words") or [])
    values: dict[str, int] = view.get("values") or {}
    tile = 46
    row_h = tile + 16
    rows = len(words)
    header_h = 212
    score_h = players * 84
    height = header_h + 12 + max(1, rows) * row_h + 24 + score_h + 20
    img, draw = canvas(WIDTH, height, BACKGROUND)
    small = font(SMALL)

    # header: round, whose turn, discard top card and pile (on the right)
    cw, ch = 82, 112  # the value in the corner: 22 px
    left_room = WIDTH - 24 - 2 * cw - 24 - 24 - 16 if view.get("variant", "main") != "mot-unique" else WIDTH - 48
    variant = view.get("variant", "main")
    if variant == "main":
        head = f"{lab['round']} {view['round']}/{view.get('rounds') or 3}"
    else:
        head = f"{lab['round']} {view['round']} · {lab['target']} {view.get('target') or 100}"
    draw.text((24, 18), fit(head, font(30, bold=True), left_room), font=font(30, bold=True), fill=TEXT)
    sub = f"{lab['dealer']}{lab['colon']}{_name(names, view.get('dealer'))}"
    if variant == "main-entiere" and view.get("die"):
        sub = f"{lab['die']} {view['die']} → {_count(lab, 'cards', view.get('hand_size') or 0)}"
    draw.text((24, 60), fit(sub, small, left_room), font=small, fill=MUTED)
    if view.get("finished"):
        winners = ", ".join(_name(names, s) for s in view.get("winners") or [])
        status, fill = f"{lab['winner']}{lab['colon']}{winners}", HIGHLIGHT
    elif view.get("current") is not None:
        status, fill = (f"{lab['turn']}{lab['colon']}{_name(names, view['current'])}",
                        legible(seat_colour(view["current"]), BACKGROUND))
    else:
        status, fill = "", TEXT
    draw.text((24, 94), fit(status, font(28, bold=True), left_room), font=font(28, bold=True), fill=fill)
    last = view.get("last_round") or {}
    if view.get("out_seat") is not None and not view.get("finished"):
        draw.text((24, 176), fit(lab["went_out"], small, WIDTH - 48), font=small, fill=HIGHLIGHT)
    elif variant != "main" and last.get("word") and last.get("scorer") is not None:
        said = last.get("shown") or last["word"]
        line = f"{lab['last_round']}{lab['colon']}{said} +{last['value']} · {_name(names, last['scorer'])}"
        draw.text((24, 176), fit(line, small, WIDTH - 48), font=small, fill=HIGHLIGHT)

    if variant != "mot-unique":
        x = WIDTH - 24 - cw
        top = view.get("discard_top")
        if top:
            _card(draw, x, 24, cw, ch, top, values.get(top))
        else:
            draw.rounded_rectangle((x, 24, x + cw, 24 + ch), radius=9, outline=MUTED, width=2)
        centred_text(draw, (x + cw / 2, 24 + ch + 18), lab["discard"], small, fill=MUTED)
        px = x - cw - 24
        _back(draw, px, 24, cw, ch, str(view.get("pile_count", 0)))
        if hits is not None:
            for name, left in (("discard", x), ("pile", px)):
                hits[name] = [(left, 24), (left + cw, 24), (left + cw, 24 + ch), (left, 24 + ch)]
        centred_text(draw, (px + cw / 2, 24 + ch + 18), lab["pile"], small, fill=MUTED)

    # the words, one a row: letter cards, or the word in big letters when it is too long for cards
    y0 = header_h + 12
    if not words:
        centred_text(draw, (WIDTH / 2, y0 + row_h / 2), lab["no_word"], font(26), fill=MUTED)
    for r, w in enumerate(words):
        x, y, width = 24, y0 + r * row_h, WIDTH - 48
        colour = seat_colour(w["owner"])
        mid = y + (row_h - 6) / 2
        draw.rounded_rectangle((x, y, x + width, y + row_h - 6), radius=10, fill=PANEL)
        if hits is not None:
            hits[f"word:{w['id']}"] = [(x, y), (x + width, y), (x + width, y + row_h - 6), (x, y + row_h - 6)]
        draw.ellipse((x + 8, mid - 10, x + 28, mid + 10), fill=colour)
        value_font = font(26, bold=True)
        value_text = str(w["value"])
        room = width - 38 - value_font.getlength(value_text) - 28
        word = w["word"]
        step = min(tile + 3, int(room // max(1, len(word))))
        if step - 3 >= 44:
            k = 0
            for text, cards in _faces(word, w.get("shown")):  # a ligature spans its two cards
                _card(draw, x + 38 + k * step, int(mid - (step - 3) / 2), cards * step - 3, step - 3, text, None)
                k += cards
        else:
            word_font = font(30, bold=True)
            said = w.get("shown") or word
            draw.text((x + 40, mid), fit(said, word_font, room), font=word_font, fill=TEXT, anchor="lm")
        draw.text((x + width - 14, mid), value_text, font=value_font, fill=legible(colour, PANEL), anchor="rm")

    # scores: name and points on a line, the details under them
    y = y0 + max(1, rows) * row_h + 24
    draw.line((24, y - 10, WIDTH - 24, y - 10), fill=PANEL, width=2)
    abandoned = view.get("abandoned") or []
    for seat in range(players):
        top = y + seat * 84
        current = view.get("current") == seat and not view.get("finished")
        draw.rounded_rectangle((24, top, WIDTH - 24, top + 76), radius=10, fill=PANEL,
                               outline=HIGHLIGHT if current else None, width=3 if current else 1)
        draw.ellipse((36, top + 14, 58, top + 36), fill=seat_colour(seat))
        points = _count(lab, "points", view["scores"][seat])
        points_font = font(28, bold=True)
        draw.text((WIDTH - 40, top + 25), points, font=points_font, fill=TEXT, anchor="rm")
        name_font = font(26, bold=current)
        room = WIDTH - 40 - points_font.getlength(points) - 20 - 70
        draw.text((70, top + 25), fit(_name(names, seat), name_font, room), font=name_font, fill=TEXT,
                  anchor="lm")
        counts = view.get("hand_counts") or []
        info = _count(lab, "cards", counts[seat] if seat < len(counts) else 0)
        if seat < len(abandoned) and abandoned[seat]:
            info += f" · {lab['abandoned']}"
        if last.get("points"):
            pts = last["points"][seat]
            info += f" · {lab['last_round']} {pts:+d}"
        draw.text((70, top + 57), fit(info, small, WIDTH - 48 - 70), font=small, fill=MUTED, anchor="lm")
    return encode_png(img)
