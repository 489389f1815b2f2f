"""Range ta Ludothèque pictures: valid PNGs of sane size for every phase, view and language."""

from __future__ import annotations

import io
import random
import time

import pytest
from PIL import Image

from bot import i18n
from engines.ranta import DICE, ENGINE, action_cells, assignments
from render.ranta import LABEL_KEYS, render_dice, render_final, render_sheet

NAMES = ["Alice", "Bob", "Chloé", "Dédé", "Émile", "Fanny", "Gaspard", "Hélène"]


def labels(lang):
    return {k: i18n.t("ranta." + k, lang) for k in LABEL_KEYS}


def png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 1_000_000
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def game(players=3, mode="expert", seed=5, moves=20):
    rng = random.Random(seed)
    s = ENGINE.new_game(players, {"mode": mode}, seed)
    for _ in range(moves):
        if ENGINE.is_over(s):
            break
        seat = rng.choice(sorted(ENGINE.expected(s)))
        action = ENGINE.ai_action(s, seat) if rng.random() < 0.5 else rng.choice(ENGINE.legal_actions(s, seat))
        s, _ = ENGINE.apply(s, seat, action)
    return s


def finish(s, seed=1):
    rng = random.Random(seed)
    while not ENGINE.is_over(s):
        seat = rng.choice(sorted(ENGINE.expected(s)))
        s, _ = ENGINE.apply(s, seat, rng.choice(ENGINE.legal_actions(s, seat)))
    return s


def test_every_label_key_exists_in_both_catalogs():
    for lang in ("fr", "en"):
        assert all(i18n.has("ranta." + k, lang) for k in LABEL_KEYS)


@pytest.mark.parametrize("lang", [None, "fr", "en"])
def test_sheet_at_start_middle_and_end(lang):
    lab = labels(lang) if lang else None
    start = ENGINE.new_game(2, None, 1)
    mid = game()
    end = finish(game(moves=5))
    for s in (start, mid, end):
        for seat in range(s.players):
            img = png(render_sheet(ENGINE.view(s, seat), seat, NAMES, labels=lab))
            assert 600 <= img.width <= 720 and img.height <= 1600  # phone-sized: the legend under the kallax
        png(render_sheet(ENGINE.view(s, None), 0, NAMES, labels=lab))


def test_a_seats_own_hidden_box_changes_only_its_own_picture():
    s = ENGINE.new_game(2, None, 8)
    s, _ = ENGINE.apply(s, 0, ENGINE.ai_action(s, 0))
    own = render_sheet(ENGINE.view(s, 0), 0, NAMES)
    other = render_sheet(ENGINE.view(s, 1), 0, NAMES)
    public = render_sheet(ENGINE.view(s, None), 0, NAMES)
    assert own != other
    assert other == public


def test_preview_as_cells_or_as_a_box():
    s = game(seed=9, moves=6)
    seat = min(ENGINE.expected(s))
    view = ENGINE.view(s, seat)
    action = next(a for a in ENGINE.legal_actions(s, seat) if a["type"] == "box")
    cells = action_cells(s, seat, action)
    box = next(a for a in assignments(s) if a["dice"] == action["dice"])
    plain = render_sheet(view, seat, NAMES)
    as_cells = render_sheet(view, seat, NAMES, preview=cells)
    as_box = render_sheet(view, seat, NAMES, preview={"cells": cells, "category": box["category"],
                                                      "mechanic": box["mechanic"]}, labels=labels("fr"))
    assert len({plain, as_cells, as_box}) == 3
    png(as_box)
    png(render_sheet(view, seat, NAMES, preview=["Z9", "a1"]))  # junk cells are ignored


def test_dice_for_every_face():
    s = ENGINE.new_game(1, None, 2)
    for dice in [(1, 2, 3), (4, 5, 6), (6, 6, 6)]:
        view = ENGINE.view(s, 0)
        view["dice"] = list(dice)
        view["dice_meaning"] = [DICE.meaning(f) for f in dice]
        for lang in (None, "fr", "en"):
            img = png(render_dice(view, labels=labels(lang) if lang else None))
            assert 600 <= img.width <= 720  # phone-sized (tests/render/test_phone.py)


@pytest.mark.parametrize("players", [1, 2, 3, 8])
def test_final_for_every_table_size(players):
    s = finish(game(players=players, mode="classique" if players % 2 else "expert", moves=players * 3), players)
    for lang in (None, "fr", "en"):
        img = png(render_final(ENGINE.view(s, None), NAMES[:players], labels=labels(lang) if lang else None))
        assert img.width <= 1100
    # names missing or short: still draws
    png(render_final(ENGINE.view(s, 0), []))


def test_sheet_is_fast_enough():
    s = game(moves=24)
    view = ENGINE.view(s, 0)
    lab = labels("fr")
    render_sheet(view, 0, NAMES, labels=lab)  # warm the font cache
    best = min(_timed(lambda: render_sheet(view, 0, NAMES, labels=lab)) for _ in range(3))
    assert best < 0.25  # ~20-40 ms on the dev machine; generous for a busy CI box


def _timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


@pytest.mark.parametrize("players", [2, 8])
def test_one_final_picture_per_sheet_best_rank_first(players):
    from render import common
    from render.ranta import final_order

    s = finish(game(players=players, mode="classique", moves=players * 3), players)
    view = ENGINE.view(s, None)
    order = final_order(view)
    ranks = view["result"]["ranks"]
    assert sorted(order) == list(range(players)) and [ranks[seat] for seat in order] == sorted(ranks)
    together = png(render_final(view, NAMES[:players], labels("fr")))
    for seat in order:
        with common.recording_text() as drawn:
            img = png(render_final(view, NAMES[:players], labels("fr"), seat))
        texts = [run.text for run in drawn]
        assert img.width == together.width and img.height < 2 * img.width  # about one phone screen
        assert f"{ranks[seat]}. {NAMES[seat]}" in texts and str(view["sheets"][seat]["score"]) in texts
        assert not any(f". {NAMES[other]}" in t for t in texts for other in range(players) if other != seat)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_dice_card_letters_are_the_kallax_legend_s_and_its_names_are_whole(lang):
    """Issue 36: the dice card lettered categories with the engine's French initials (« P » a board
    game) while the kallax's legend used the language's (« P » a puzzle in English); and « Role-playing
    g… » was cut. Read from both pictures as drawn: each die's letter is the one the legend gives its
    category's name, and every name is drawn whole (wrapped, never with « … »)."""
    from render import common

    lab = labels(lang)
    state = ENGINE.new_game(2, {}, seed=3)
    view = ENGINE.view(state, 0)
    assert "R" in {d["category"] for d in view["dice_meaning"]}  # « Role-playing game »: the longest name
    with common.recording_text() as legend_runs:
        render_sheet(view, 0, NAMES, None, lab)
    legend = {}  # a category's name -> its letter, from the legend (the letter, then its name)
    for letter, name in zip(legend_runs, legend_runs[1:], strict=False):
        if letter.size == 20 and len(letter.text) == 1 and name.text in {lab[f"category.{c}"] for c in "TACPFR"}:
            legend[name.text] = letter.text
    assert len(legend) == 6 and len(set(legend.values())) == 6
    with common.recording_text() as dice_runs:
        render_dice(view, lab)
    letters = [run for run in dice_runs if run.size == 32]
    assert len(letters) == 3
    for letter, d in zip(letters, view["dice_meaning"], strict=True):
        name = lab[f"category.{d['category']}"]
        after = dice_runs[dice_runs.index(letter) + 1:]
        lines = []
        for run in after:  # the name's lines: the next texts in the caption's size until the next caption
            if run.size != 22 or " ".join([*lines, run.text]) not in name:
                break
            lines.append(run.text)
        assert " ".join(lines) == name, (lines, name)
        assert legend[name] == letter.text, (name, letter.text)
    assert not any("…" in run.text for run in dice_runs)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_score_lines_letter_a_category_as_the_kallax_does(lang):
    """The final picture's score lines (the last frame of the animated summary too) badge a category
    group with the letter its boxes carry in the picture's language: « D » for a dexterity game in
    English (it was the engine's French initial « A »), « A » in French."""
    from render import common

    lab = labels(lang)
    view = ENGINE.view(finish(game(players=2, mode="classique", seed=4)), None)
    groups = [entry["detail"]["category"] for sheet in view["sheets"] for entry in sheet["breakdown"]
              if "category" in entry.get("detail", {})]
    assert any(lab[f"code.{c}"] != c for c in groups) == (lang == "en")  # a letter English changes
    with common.recording_text() as runs:
        render_final(view, NAMES, lab)
    texts = [run.text for run in runs]
    boxes = {t for t in texts if len(t) == 1 and t.isupper()}
    for category in groups:
        name = lab[f"category.{category}"]
        lines = [i for i, t in enumerate(texts) if name in t]  # « Dexterity game group: 2 games »
        assert lines and all(texts[i - 1] == lab[f"code.{category}"] for i in lines), (category, name)
        assert lab[f"code.{category}"] in boxes
