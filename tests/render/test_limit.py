"""Take it to the Limit pictures: valid PNGs of phone size for every board, variant and
phase, in both languages and without labels; different views give different pictures."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image

from bot import i18n
from engines.limit import ENGINE, TILES
from engines.limit.engine import RELOCATE
from render.limit import LABEL_KEYS, render_board, render_final, render_tile

NAMES = ["Alice", "Bob", "Chloé", "Dédé"]


def labels(lang):
    return {k: i18n.t("limit." + k, lang) for k in LABEL_KEYS}


def png(data: bytes, max_width: int = 1000) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 1_000_000
    img = Image.open(io.BytesIO(data))
    img.load()
    assert 200 <= img.width <= max_width
    return img


def advance(players, options, seed=5, moves=30, until=None):
    rng = random.Random(seed)
    s = ENGINE.new_game(players, options, seed)
    for _ in range(10_000):
        if ENGINE.is_over(s) or (until is None and moves <= 0) or (until is not None and until(s)):
            break
        seat = rng.choice(sorted(ENGINE.expected(s)))
        s, _ = ENGINE.apply(s, seat, ENGINE.ai_action(s, seat))
        moves -= 1
    return s


def test_every_label_key_exists():
    for key in LABEL_KEYS:
        assert i18n.has("limit." + key, "fr") and i18n.has("limit." + key, "en"), key


@pytest.mark.parametrize("tid", ["1-2-3", "4-6-5", "1-6-5", "12-11-10", "9-7-8"])
def test_render_tile(tid):
    img = png(render_tile(TILES[tid].view(), labels("fr")))
    assert img.width < 400
    png(render_tile(TILES[tid].view()))
    assert render_tile(None)


CASES = [
    (1, {}),
    (2, {"variante": "dechetterie-basse"}),
    (3, {"variante": "passe-dechetterie"}),
    (1, {"variante": "sans-dechetterie"}),
    (2, {"plateau": "orchidee"}),
    (1, {"plateau": "orchidee", "variante": "orchidee-64"}),
    (4, {"paires": True}),
]


def shown_board(view, seat):
    """The board a picture for ``seat`` shows: the seat's own, a spectator the first."""
    return next((b for b in view["boards"] if seat is not None and seat in b["seats"]), view["boards"][0])


def assert_board_drawn(view, seat, names, lab) -> list[str]:
    """The picture of ``seat``'s board is valid and shows its content: its players' names, and every
    placed tile with its three values drawn on it, just before its position's name (not in a Déchetterie,
    issue 35: the name covered the tile's numbers). The texts drawn."""
    from render import common

    _tile_cache_clear()  # a cached tile would skip drawing (and recording) its values
    with common.recording_text() as drawn:
        png(render_board(view, seat, names, lab))
    texts = [run.text for run in drawn]
    board = shown_board(view, seat)
    assert board["cells"], "no tile placed yet: nothing to check"
    for pos, tid in board["cells"].items():
        values = sorted(tid.split("-"))
        named = any(texts[at] == pos and sorted(texts[at - 3:at]) == values for at in range(3, len(texts)))
        if pos.startswith("X"):  # a Déchetterie's small hexagon: the tile alone, no name over its numbers
            assert not named and any(sorted(texts[at - 3:at]) == values for at in range(3, len(texts) + 1)), \
                (pos, tid, texts)
        else:
            assert named, (pos, tid, texts)
    title = " & ".join(names[s] for s in board["seats"])
    assert title in texts or all(names[s] in texts for s in board["seats"]), (title, texts[:5])
    return texts


@pytest.mark.parametrize(("players", "options"), CASES)
def test_board_in_play_every_variant(players, options):
    s = advance(players, options, moves=players * 12 + 1)
    for seat in range(players):
        view = ENGINE.view(s, seat)
        drawn = {lang: assert_board_drawn(view, seat, NAMES[:players], labels(lang) if lang else None)
                 for lang in ("fr", "en", None)}
        # the words are the language's: the announced tile's label, none without labels (symbols)
        fr, en = labels("fr")["label.announced"], labels("en")["label.announced"]
        assert fr in drawn["fr"] and en in drawn["en"] and fr not in drawn[None] + drawn["en"], (fr, en)
    spectator = ENGINE.view(s, None)
    assert_board_drawn(spectator, None, NAMES[:players], None)
    png(render_final(spectator, NAMES[:players], labels("fr")))  # running state: no crash


def test_hidden_placement_changes_the_picture_only_for_its_owner():
    s = ENGINE.new_game(2, {}, 3)
    before0 = render_board(ENGINE.view(s, 0), 0, NAMES)
    before1 = render_board(ENGINE.view(s, 1), 0, NAMES)  # seat 1 looking at seat 0's board
    s, _ = ENGINE.apply(s, 0, {"type": "place", "tile": ENGINE.current_tile(s), "position": "D4"})
    assert render_board(ENGINE.view(s, 0), 0, NAMES) != before0
    assert render_board(ENGINE.view(s, 1), 0, NAMES) == before1


def test_relocation_phase_and_final():
    s = advance(2, {"plateau": "orchidee"}, until=lambda st: st.phase == RELOCATE)
    assert s.phase == RELOCATE
    for lang in ("fr", "en"):
        png(render_board(ENGINE.view(s, 0), 0, NAMES, labels(lang)))
    s, _ = ENGINE.apply(s, 0, ENGINE.default_action(s, 0))
    png(render_board(ENGINE.view(s, 0), 0, NAMES, labels("fr")))
    s, _ = ENGINE.apply(s, 1, {"type": "relocate", "moves": {}})
    assert ENGINE.is_over(s)
    img = png(render_final(ENGINE.view(s, None), NAMES, labels("fr")))
    assert img.height < 2000
    png(render_board(ENGINE.view(s, 1), 1, NAMES, labels("en")))


@pytest.mark.parametrize(("players", "options"), [(1, {}), (3, {"variante": "passe-dechetterie"}),
                                                  (4, {"paires": True, "variante": "dechetterie-basse"}),
                                                  (6, {}), (2, {"plateau": "orchidee", "variante": "orchidee-64"})])
def test_final_pictures(players, options):
    s = advance(players, options, until=lambda st: False)
    assert ENGINE.is_over(s)
    boards = len(ENGINE.view(s, None)["boards"])
    for lang in ("fr", None):
        img = png(render_final(ENGINE.view(s, None), NAMES, labels(lang) if lang else None))
        # one board across a phone's width, the boards one under the other
        assert img.width <= 600
        # a board about one phone screen (390 × 844), its legend of the rings and frames included
        assert img.height < 100 + 1.85 * img.width * boards


def test_series_between_games_and_at_the_end():
    s = advance(2, {"serie": 2, "variante": "sans-dechetterie"}, until=lambda st: st.game_no == 1)
    v = ENGINE.view(s, 0)
    assert v["final"]["game"] == 1
    png(render_final(v, NAMES, labels("fr")))
    png(render_board(v, 0, NAMES, labels("fr")))
    end = advance(2, {"serie": 2, "variante": "sans-dechetterie"}, until=lambda st: False)
    png(render_final(ENGINE.view(end, None), NAMES, labels("en")))


def test_a_board_drawn_again_draws_no_tile_again():
    """What keeps a move's board at about 20 ms (the render benchmarks measure it, bench/bench_render.py):
    its tiles and empty cells are drawn once per worker and pasted after; drawing the same board again
    draws none of them again, and the picture is the same."""
    from render import limit

    s = advance(2, {}, moves=50)
    v = ENGINE.view(s, 0)
    first = render_board(v, 0, NAMES, labels("fr"))  # draws the tiles once
    tiles, empties = limit._tile_image.cache_info(), limit._empty_image.cache_info()
    assert tiles.currsize >= 20
    assert render_board(v, 0, NAMES, labels("fr")) == first
    assert limit._tile_image.cache_info().misses == tiles.misses and limit._tile_image.cache_info().hits > tiles.hits
    assert limit._empty_image.cache_info().misses == empties.misses


def test_empty_orchid_and_unknown_seat():
    s = ENGINE.new_game(1, {"plateau": "orchidee"}, 1)
    view = ENGINE.view(s, 0)
    png(render_board(view, 0, None))
    positions = {c["name"] for c in view["layout"]["main"]}
    texts = drawn_texts(render_board, view, 0, None)
    assert "#1" in texts and positions <= set(texts)  # no names: the seat numbered; every empty position named
    # a seat the view does not know: the first board, titled with its player's name
    png(render_board(view, 7, ["Solo"]))
    assert render_board(view, 7, ["Solo"]) == render_board(view, 0, ["Solo"])
    assert "Solo" in drawn_texts(render_board, view, 7, ["Solo"])
    # a tile on the big orchid: drawn there (its values), under the big orchid's label
    s = replace(s, orchids=(("1-2-3",),))
    lab = labels("fr")
    with_orchid = png(render_board(ENGINE.view(s, 0), 0, ["Solo"], lab))
    texts = drawn_texts(render_board, ENGINE.view(s, 0), 0, ["Solo"], lab)
    at = next(i for i, t in enumerate(texts) if t.startswith("O ") and t.endswith(lab["board.big_orchid"]))
    assert sorted(texts[at + 1:at + 4]) == ["1", "2", "3"], texts
    empty = png(render_board(view, 0, ["Solo"], lab))
    assert with_orchid.size == empty.size and with_orchid.tobytes() != empty.tobytes()


@pytest.mark.parametrize(("players", "options"), [(2, {}), (2, {"plateau": "orchidee", "variante": "orchidee-64"})])
def test_the_phone_board_names_every_position_a_move_may_name(players, options):
    """Re-laid out for a phone, a player's board still prints the name of every position the
    player may place the tile on (main board, Déchetterie, holes), and the tile's values."""
    from render import common
    from render import limit as limit_render

    s = advance(players, options, moves=6)
    view = ENGINE.view(s, 0)
    assert view["phase"] == "place" and view["legal"]
    limit_render._tile_image.cache_clear()  # a cached tile would skip drawing (and recording) its values
    with common.recording_text() as drawn:
        img = png(render_board(view, 0, NAMES, labels("fr")))
    texts = {run.text for run in drawn}
    assert set(view["legal"]) - {"O"} <= texts
    assert {str(v) for v in view["tile"]["values"]} <= texts
    assert img.width <= 600  # one board across a phone


def drawn_texts(fn, *args) -> list[str]:
    from render import common

    _tile_cache_clear()
    with common.recording_text() as drawn:
        fn(*args)
    return [run.text for run in drawn]


def _tile_cache_clear():
    import render.limit as module

    for value in vars(module).values():
        if hasattr(value, "cache_clear") and value.__module__ == module.__name__:
            value.cache_clear()


def test_the_relocation_picture_is_not_titled_game_over():
    s = advance(2, {"plateau": "orchidee"}, until=lambda st: st.phase == RELOCATE)
    texts = drawn_texts(render_final, ENGINE.view(s, None), NAMES, labels("fr"))
    assert "Avant le décompte\u00a0: les déplacements" in texts and "Fin de partie" not in texts
    assert "Before scoring: moving tiles" in drawn_texts(render_final, ENGINE.view(s, None), NAMES, labels("en"))
    for seat in (0, 1):
        s, _ = ENGINE.apply(s, seat, {"type": "relocate", "moves": {}})
    texts = drawn_texts(render_final, ENGINE.view(s, None), NAMES, labels("fr"))
    assert "Fin de partie" in texts and "Avant le décompte\u00a0: les déplacements" not in texts


def final_state(players, options, seed=5):
    s = advance(players, options, seed=seed, until=lambda st: False)
    assert ENGINE.is_over(s)
    return s


@pytest.mark.parametrize(("options", "rule", "words"), [
    ({}, "threshold", "sous le seuil de 60"),
    ({"variante": "dechetterie-basse"}, "lowest", "la Déchetterie la plus basse de la table"),
    ({"variante": "passe-dechetterie"}, "highest", "la Déchetterie la plus haute de la table"),
])
def test_a_penalty_says_why(options, rule, words):
    for seed in range(5, 40):  # a game where some board pays
        s = final_state(2, options, seed)
        bds = ENGINE.final_breakdowns(s)
        payers = [b for b, bd in enumerate(bds) if bd["items"]["penalty"]]
        if payers:
            break
    assert payers
    for b, bd in enumerate(bds):
        why = bd["penalty_reason"]
        if b not in payers:
            assert why is None
            continue
        value = bd["dechetterie"]["value"]
        assert why == {"rule": rule, "value": value, "threshold": 60, "shared": len(payers)}
        if rule == "threshold":
            assert value < 60
        else:
            values = [o["dechetterie"]["value"] for o in bds]
            assert value == (min(values) if rule == "lowest" else max(values))
    texts = " ".join(drawn_texts(render_final, ENGINE.view(s, None), NAMES, labels("fr")))
    b = payers[0]
    penalty = bds[b]["items"]["penalty"]
    assert f"Pénalité −{-penalty}\u00a0:" in texts and words in texts, texts
    assert f"({bds[b]['dechetterie']['value']})" in texts or f"à {bds[b]['dechetterie']['value']}," in texts


@pytest.mark.parametrize(("players", "options"), [(3, {}), (2, {"plateau": "orchidee"}), (4, {"paires": True})])
def test_one_final_picture_per_board(players, options):
    from render.limit import final_order

    s = final_state(players, options)
    view = ENGINE.view(s, None)
    order = final_order(view)
    assert sorted(order) == list(range(len(view["boards"])))
    scores = view["final"]["scores"]
    assert [scores[b] for b in order] == sorted(scores, reverse=True)
    together = png(render_final(view, NAMES, labels("fr")))
    for b in order:
        img = png(render_final(view, NAMES, labels("fr"), b))
        assert img.width == together.width and img.height < together.height / len(order) + 100
        assert img.height < 2 * img.width  # one board: about one phone screen, no long scroll
        names = " & ".join(NAMES[s] for s in view["boards"][b]["seats"])
        texts = drawn_texts(render_final, view, NAMES, labels("fr"), b)
        assert names in texts and all(n not in texts for n in NAMES if n not in names)


def _phone_runs(fn, *args):
    """The texts a picture draws, with the picture's width."""
    from render import common

    _tile_cache_clear()
    with common.recording_text() as drawn:
        img = png(fn(*args))
    return img.width, list(drawn)


@pytest.mark.parametrize("final", [False, True])
def test_placed_tiles_keep_their_names_and_their_values_are_large_on_a_phone(final):
    """Issue 24: every position keeps its name once a tile covers it, and a tile's values show at
    least 13 CSS px high on a 390 px phone, the picture across its card (cell names and every other
    text at least 11)."""
    s = final_state(2, {}) if final else advance(2, {}, moves=20)
    view = ENGINE.view(s, None if final else 0)
    if final:
        width, runs = _phone_runs(render_final, view, NAMES[:2], labels("fr"), 0)
        cells = view["final"]["cells"][0]
    else:
        width, runs = _phone_runs(render_board, view, 0, NAMES[:2], labels("fr"))
        cells = view["boards"][0]["cells"]
    texts = [run.text for run in runs]
    placed = [name for name in cells if name in {c["name"] for c in view["layout"]["main"]}]
    assert len(placed) >= 8 and set(placed) <= set(texts)
    from tests.render.test_phone import CARD_PADDING, PHONE_WIDTH

    scale = min(1, (PHONE_WIDTH - CARD_PADDING) / width)
    values = {str(v) for tid in cells.values() for v in view["tiles"][tid]["values"]}
    value_runs = [run for run in runs if run.text in values and run.size * scale < 20]  # not a title
    assert value_runs and min(run.size for run in value_runs) * scale >= 13
    assert min(run.size for run in runs) * scale >= 11


def test_the_best_ray_is_ringed_on_the_board_in_its_colour():
    from render import limit as module
    from render.common import canvas

    view = ENGINE.view(advance(1, {}, moves=10), 0)
    tid = next(iter(view["tiles"]))
    layout = [{"name": "D4", "q": 0, "r": 0}]
    for kind, colour in (("sun", module.SUN), ("moon", module.MOON)):
        img, draw = canvas(200, 200)
        module._draw_grid(img, draw, view, layout, {"D4": tid}, 44, 100, 100,
                          ray={"kind": kind, "cells": ["D4"], "length": 5})
        assert img.getpixel((100 + int(44 * 0.99) - 2, 100)) == colour
        img, draw = canvas(200, 200)
        module._draw_grid(img, draw, view, layout, {"D4": tid}, 44, 100, 100, ray=None)
        assert img.getpixel((100 + int(44 * 0.99) - 2, 100)) != colour


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_replay_frame_shows_every_board_with_its_dechetterie_and_score_rule_by_rule(lang):
    """Issue 36: a replay frame is drawn as the end draws the boards — each main board, its Déchetterie
    and its score rule by rule — under the last tile placed (« Tile 7/44 », the step the viewer names),
    the start under the first tile announced."""
    from render.limit import render_replay

    s = ENGINE.new_game(2, {}, 5)
    view = ENGINE.view(s, None)
    texts = drawn_texts(render_replay, view, NAMES[:2], labels(lang))
    assert i18n.t("limit.label.announced", lang) + f" · {view['tile']['id']}" in texts
    s = advance(2, {}, moves=14)  # seven tiles, each placed by both boards
    view = ENGINE.view(s, None)
    assert view["phase"] == "place" and view["round"] == 8
    texts = drawn_texts(render_replay, view, NAMES[:2], labels(lang))
    assert i18n.t("limit.label.round", lang, round=7, rounds=view["rounds"]) in texts
    for key in ("label.lines", "label.total", "label.dechetterie_value"):
        assert sum(t.startswith(i18n.t(f"limit.{key}", lang)) for t in texts) == 2, (key, texts)  # each board
    assert sum(t == "X1" for t in texts) >= 2  # both Déchetteries drawn
    assert not any(t == i18n.t("limit.label.final", lang) for t in texts)  # not titled « game over »
