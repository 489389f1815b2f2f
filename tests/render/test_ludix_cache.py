"""The Ludix table drawn from cached sprites, layers and text masks is the table drawn in full.

``_reference`` is the renderer as it was before the caches (commit ad68fc2, ``render/ludix.py``),
kept here verbatim except that it returns the picture instead of encoding it.
"""

from __future__ import annotations

import copy
import io
import random

import pytest
from PIL import Image, ImageChops, ImageStat

from engines.ludix import ENGINE
from render import ludix
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    TEXT,
    canvas,
    centred_text,
    fit,
    font,
    recording_text,
    seat_colour,
)
from tests.render.gallery import LONG_NAMES

WIDTH, DIE, BUST, SMALL = 720, 120, (214, 48, 49), 24


def _die(draw, x: int, y: int, face: str, colour=(250, 247, 240)) -> None:
    draw.rounded_rectangle((x, y, x + DIE, y + DIE), radius=18, fill=colour, outline=(30, 30, 30), width=3)
    centred_text(draw, (x + DIE / 2, y + DIE / 2), face, font(72, bold=True), fill=(30, 30, 30))


def _reference(view, names, labels=None) -> Image.Image:
    lab = {**ludix.catalog_labels("fr"), **(labels or {})}
    players = view["players"]
    row_h = 84
    height = 30 + DIE + 150 + players * row_h + 24
    img, draw = canvas(WIDTH, height, BACKGROUND)

    roll = view.get("roll")
    dice_w = 4 * DIE + 3 * 24
    x0 = (WIDTH - dice_w) // 2
    y0 = 30
    big = font(40, bold=True)
    if roll:
        bust = roll["bust"]
        for i, face in enumerate(roll["faces"]):
            _die(draw, x0 + i * (DIE + 24), y0, face, colour=(245, 200, 200) if bust else (250, 247, 240))
        who = names[roll["seat"]] if roll.get("seat") is not None and roll["seat"] < len(names) else ""
        tail = f" — {lab['bust']}" if bust else f" — {roll['numeral']} = {roll['value']}"
        line = fit(who, big, WIDTH - 40 - big.getlength(tail)) + tail
        centred_text(draw, (WIDTH / 2, y0 + DIE + 42), line, big, fill=ludix.BUST_TEXT if bust else HIGHLIGHT)
        if not bust and roll.get("others"):
            small = font(SMALL)
            shown = list(roll["others"][:4])
            while shown:
                text = f"{lab['others']}{lab['colon']}" + ", ".join(f"{n} = {v}" for n, v in shown)
                if small.getlength(text) <= WIDTH - 40:
                    break
                shown.pop()
            if shown:
                centred_text(draw, (WIDTH / 2, y0 + DIE + 84), text, small, fill=MUTED)
    else:
        for i in range(4):
            _die(draw, x0 + i * (DIE + 24), y0, "?", colour=ludix.DIE_UNKNOWN)

    y = y0 + DIE + 118
    shown_round = view["round"] - 1 if view.get("finished") and view["round"] > 1 else view["round"]
    header = f"{lab['round']} {shown_round}  ·  {lab['target']} {view['target']}"
    if view.get("finished"):
        header += f"  ·  {lab['final']}"
    elif view.get("last_round"):
        header += f"  ·  {lab['last_round']}"
    centred_text(draw, (WIDTH / 2, y), fit(header, font(SMALL), WIDTH - 40), font(SMALL), fill=MUTED)
    y += 26
    target = max(1, view["target"])
    best = max(view["scores"]) if view["scores"] else 0
    for seat in range(players):
        top = y + seat * row_h
        current = view.get("current") == seat
        draw.rounded_rectangle((20, top + 4, WIDTH - 20, top + row_h - 4), radius=10,
                               fill=PANEL, outline=HIGHLIGHT if current else None, width=3 if current else 1)
        colour = seat_colour(seat)
        draw.ellipse((34, top + 16, 56, top + 38), fill=colour)
        score = view["scores"][seat]
        text = str(score)
        if current and view.get("turn_total"):
            text += f" (+{view['turn_total']})"
        score_font = font(30, bold=score == best and score > 0)
        draw.text((WIDTH - 36, top + 27), text, font=score_font, fill=TEXT, anchor="rm")
        name_font = font(28, bold=current)
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        room = WIDTH - 36 - score_font.getlength(text) - 24 - 68
        draw.text((68, top + 27), fit(name, name_font, room), font=name_font, fill=TEXT, anchor="lm")
        bar_x0, bar_x1 = 68, WIDTH - 36
        draw.rounded_rectangle((bar_x0, top + 52, bar_x1, top + 68), radius=8, fill=(90, 94, 100))
        filled = bar_x0 + int((bar_x1 - bar_x0) * min(1.0, score / target))
        if filled > bar_x0 + 8:
            draw.rounded_rectangle((bar_x0, top + 52, filled, top + 68), radius=8, fill=colour)
    return img


SHORT = ["Alice", "Bruno", "Chloé", "Bot 1", "Émile", "Fanny"]
EN = {"turn_total": "Turn total", "target": "Target", "bust": "Bust!", "round": "Round",
      "last_round": "Last round", "others": "Others", "colon": ": ", "no_roll": "—", "final": "Game over"}


def _game(players: int, seed: int, target: int = 300) -> list[dict]:
    """Every view of an AI game, from the first (no roll yet) to the finished one."""
    state = ENGINE.new_game(players, {"target": target}, seed=seed)
    rng = random.Random(seed)
    views = [ENGINE.view(state, None)]
    for _ in range(2000):
        if ENGINE.is_over(state):
            break
        (seat,) = ENGINE.expected(state)
        action = ENGINE.ai_action(state, seat) if rng.random() < 0.7 else {"type": "roll"}
        state, _ = ENGINE.apply(state, seat, action)
        views.append(ENGINE.view(state, None))
    assert ENGINE.is_over(state)
    return views


def _cases() -> list[tuple[str, dict, list[str], dict | None]]:
    cases = []
    for players, names, labels in ((2, SHORT, None), (6, LONG_NAMES, EN), (6, SHORT, None), (3, LONG_NAMES, None)):
        views = _game(players, seed=players * 7, target=150)
        for i, view in enumerate(views[:: max(1, len(views) // 25)] + views[-2:]):
            cases.append((f"{players}p-{names[0][:5]}-{i}", view, names[:players], labels))
    # the cases the brief names, on purpose: each must be among the views above or built here
    view = copy.deepcopy(cases[0][1])
    view["roll"] = {"faces": "DCLX", "seat": 1, "bust": False, "numeral": "DCLX", "value": 660,
                    "others": [["DCL", 650], ["DCX", 610], ["DLX", 560], ["CLX", 160], ["LX", 60]]}
    view["current"], view["turn_total"], view["scores"] = 1, 660, [999, 12345]
    cases.append(("big-numbers-and-others", view, ["", "Jean-Baptiste Éloi Duchâteau de la Tour"], None))
    view = copy.deepcopy(view)
    view["roll"]["seat"], view["current"] = 7, None
    cases.append(("unknown-seat-no-current", view, ["A"], None))
    return cases


CASES = _cases()


def test_the_cases_cover_bust_no_roll_finished_and_others():
    views = [view for _, view, _, _ in CASES]
    assert any(v["roll"] is None for v in views)
    assert any(v["roll"] and v["roll"]["bust"] for v in views)
    assert any(v["roll"] and not v["roll"]["bust"] and v["roll"]["others"] for v in views)
    assert any(v.get("finished") for v in views)
    assert any(v.get("last_round") and not v.get("finished") for v in views)
    assert any(v["players"] == 6 for v in views)


def _clear() -> None:
    for cached in (ludix._die_sprite, ludix._rows, ludix._text_tile, ludix._fit, ludix._length):
        cached.cache_clear()


@pytest.mark.parametrize("warm", [False, True], ids=["cold-caches", "warm-caches"])
def test_the_cached_table_is_the_table_drawn_in_full_then_put_in_its_palette(warm):
    _clear()
    for name, view, names, labels in CASES if not warm else reversed(CASES):
        if not warm:
            _clear()
        drawn = ludix.draw_table(view, names, labels)
        expected = ludix.PALETTE.map(_reference(view, names, labels))
        assert drawn.mode == "P" and drawn.size == expected.size, name
        assert drawn.getpalette() == expected.getpalette(), name
        assert ImageChops.difference(drawn.convert("RGB"), expected.convert("RGB")).getbbox() is None, \
            f"{name}: pixels differ"


def test_the_table_records_the_same_texts_as_drawn_in_full():
    name, view, names, labels = CASES[5]
    with recording_text() as full:
        _reference(view, names, labels)
    ludix.draw_table(view, names, labels)  # warm: the texts come from the cache
    with recording_text() as cached:
        ludix.draw_table(view, names, labels)
    def texts(runs):
        return [(r.size, r.text, r.fill) for r in runs]

    assert sorted(texts(cached)) == sorted(t for t in texts(full) if t[0] != 72)  # the dice are sprites
    _clear()
    with recording_text() as cold:
        ludix.draw_table(view, names, labels)
    assert set(texts(cold)) == set(texts(full))  # a face shown twice is one sprite


def _channel_max(img: Image.Image) -> Image.Image:
    r, g, b = img.split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b)


def test_the_known_palette_keeps_the_table_s_look():
    """Closer to the picture drawn in RGB than the adaptive palette it replaces (mean difference
    0.04 against up to 0.4 on these views): the flat colours are exact, the text edges ≤ 8 off."""
    for i, (name, view, names, labels) in enumerate(CASES):
        expected = _reference(view, names, labels)
        back = Image.open(io.BytesIO(ludix.render_table(view, names, labels)))
        assert back.format == "PNG" and back.mode == "P", name
        diff = ImageChops.difference(expected, back.convert("RGB"))
        assert max(ImageStat.Stat(diff).mean) < 0.1, f"{name}: mean difference {ImageStat.Stat(diff).mean}"
        assert max(hi for _, hi in diff.getextrema()) <= 8, f"{name}: a pixel far off its colour"
        if i % 10 == 0:
            off = _channel_max(diff)
            flat = [BACKGROUND, PANEL, TEXT, MUTED, HIGHLIGHT, ludix.BAR, ludix.DIE_FACE, ludix.INK,
                    *(seat_colour(s) for s in range(view["players"]))]
            for colour in flat:
                where = _channel_max(ImageChops.difference(expected, Image.new("RGB", expected.size, colour)))
                mask = where.point(lambda v: 255 if v == 0 else 0)
                assert ImageChops.multiply(off, mask).getbbox() is None, f"{name}: {colour} not kept exactly"
