"""The hit maps: each picture the board's page lets a player touch says where it drew every region a
touch may name (render.hitmap), from the same drawing. Every legal move of a real game has its regions,
every polygon lies inside the picture, and each region's middle pixel is something drawn for it (a
cell, a tile, a point of the sea), not the picture's background."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import engines
from bot.activity.controls import CONTROLS
from render import armada as armada_render
from render import limit as limit_render
from render import ludime as ludime_render
from render import ludix as ludix_render
from render import lutinades as lutinades_render
from render import ranta as ranta_render
from render import tectonic as tectonic_render
from render.common import BACKGROUND
from render.hitmap import centroid, with_hits


def _check(png: bytes, hits: dict, regions: set[str], background: set[tuple[int, int, int]],
           groups: tuple[str, ...] = ()) -> Image.Image:
    """``groups``: regions that gather several things drawn apart (Ludix's four dice): most of their
    pixels are drawn, rather than their middle one."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    assert regions and regions <= set(hits), sorted(regions - set(hits))
    for rid, poly in hits.items():
        assert len(poly) >= 3, rid
        for x, y in poly:
            assert 0 <= x <= img.width and 0 <= y <= img.height, (rid, x, y, img.size)
        if rid in groups:
            xs, ys = [int(p[0]) for p in poly], [int(p[1]) for p in poly]
            box = img.crop((min(xs), min(ys), max(xs), max(ys)))
            drawn = sum(n for n, colour in box.getcolors(1 << 20) if colour not in background)
            assert drawn > 0.6 * box.width * box.height, rid
            continue
        cx, cy = centroid(poly)
        assert img.getpixel((int(cx), int(cy))) not in background, (rid, img.getpixel((int(cx), int(cy))))
    return img


def _paths(kind: str, state, seat: int):
    engine = engines.get(kind)
    return CONTROLS[kind].paths(engine, state, seat)


@pytest.mark.parametrize("options", [{}, {"plateau": "orchidee"}])
def test_limit_every_legal_cell_is_a_region_of_the_players_board(options):
    engine = engines.get("limit")
    state = engine.new_game(1, options, 3)
    for _ in range(6):  # a few rounds in: placed tiles and empty cells
        view = engine.view(state, 0)
        png, hits = with_hits(limit_render.render_board, (view, 0, ["Alice"], None))
        regions = {r for rs, _ in _paths("limit", state, 0) for r in rs}
        _check(png, hits, regions, {BACKGROUND, limit_render.BOARD_BG})
        state, _ = engine.apply(state, 0, engine.legal_actions(state, 0)[-1])
    assert "orchid" in hits if options else "dump" in hits


def test_limit_the_hit_map_does_not_change_the_picture():
    engine = engines.get("limit")
    view = engine.view(engine.new_game(1, {}, 5), 0)
    png, _ = with_hits(limit_render.render_board, (view, 0, ["Alice"], None))
    assert png == limit_render.render_board(view, 0, ["Alice"], None)


def test_tectonic_every_piece_and_destination_is_a_region():
    engine = engines.get("tectonic")
    state = engine.new_game(2, {}, 1)
    for _ in range(4):
        view = engine.view(state, None)
        png, hits = with_hits(tectonic_render.render_board, (view, ["Alice", "Bruno"]), {"lang": "fr"})
        seat = state.current
        paths = _paths("tectonic", state, seat)
        assert len({a["from"] for _, a in paths}) > 1
        _check(png, hits, {r for rs, _ in paths for r in rs}, {BACKGROUND})
        assert len(hits) == 100
        state, _ = engine.apply(state, seat, paths[0][1])


def test_armada_every_point_is_a_region_for_placing_and_moving():
    engine = engines.get("armada")
    state = engine.new_game(2, {}, 1)
    for _ in range(6):
        view = engine.view(state, None)
        png, hits = with_hits(armada_render.render_board, (view, ["Alice", "Bruno"], "fr"))
        seat = state.current
        paths = _paths("armada", state, seat)
        _check(png, hits, {r for rs, _ in paths for r in rs}, {BACKGROUND})
        state, _ = engine.apply(state, seat, paths[len(paths) // 2][1])


def test_ludix_the_dice_and_the_current_row():
    engine = engines.get("ludix")
    state = engine.new_game(3, {}, 2)
    for _ in range(5):
        view = engine.view(state, None)
        png, hits = with_hits(ludix_render.render_table, (view, ["Alice", "Bruno", "Chloé"]))
        paths = _paths("ludix", state, state.current)
        _check(png, hits, {r for rs, _ in paths for r in rs}, {BACKGROUND}, groups=("dice",))
        assert png == ludix_render.render_table(view, ["Alice", "Bruno", "Chloé"])
        state, _ = engine.apply(state, state.current, paths[0][1])


def test_lutinades_each_row_for_the_picker():
    engine = engines.get("lutinades")
    state = engine.new_game(4, {}, 2)
    for k, seat in enumerate(engine.lutins(state)):  # different gestures: the picker has a choice
        state, _ = engine.apply(state, seat, [a for a in engine.legal_actions(state, seat) if a["gesture"] != "small"][k])
    view = engine.view(state, None)
    names = ["Alice", "Bruno", "Chloé", "Dora"]
    png, hits = with_hits(lutinades_render.render_table, (view, names))
    paths = _paths("lutinades", state, state.picker)
    assert paths
    _check(png, hits, {r for rs, _ in paths for r in rs}, {BACKGROUND})
    assert png == lutinades_render.render_table(view, names)


def test_ranta_the_dice_on_the_table_and_every_cell_of_ones_own_kallax():
    engine = engines.get("ranta")
    state = engine.new_game(2, {}, 5)
    for _ in range(4):  # a few rounds in: boxes, mats and free cells
        view = engine.view(state, 0)
        regions = {r for rs, _ in _paths("ranta", state, 0) for r in rs}
        dice_png, dice_hits = with_hits(ranta_render.render_dice, (view,))
        assert dice_png == ranta_render.render_dice(view)  # the hit map does not change the picture
        _check(dice_png, dice_hits, {r for r in regions if r.startswith("die:")}, {BACKGROUND})
        sheet_png, sheet_hits = with_hits(ranta_render.render_sheet, (view, 0, ["Alice", "Bruno"]))
        assert sheet_png == ranta_render.render_sheet(view, 0, ["Alice", "Bruno"])
        _check(sheet_png, sheet_hits, {r for r in regions if r.startswith("cell:")}, {BACKGROUND})
        assert len(sheet_hits) == 36 and set(dice_hits) == {"die:0", "die:1", "die:2"}
        for seat in range(2):
            state, _ = engine.apply(state, seat, engine.legal_actions(state, seat)[-1 - seat])


def test_ludime_the_pile_and_discard_on_the_table_and_every_card_of_ones_hand():
    engine = engines.get("ludime")
    state = engine.new_game(2, {}, 7)
    seat = state.current
    for _ in range(2):  # the draw, then the cards of a hand of 16
        view = engine.view(state, seat)
        regions = {r for rs, _ in _paths("ludime", state, seat) for r in rs}
        table_png, table_hits = with_hits(ludime_render.render_table, (view, ["Alice", "Bruno"]))
        assert table_png == ludime_render.render_table(view, ["Alice", "Bruno"])  # the same picture
        _check(table_png, table_hits, {"pile", "discard"}, {BACKGROUND})
        hand_png, hand_hits = with_hits(ludime_render.render_hand, (view, ["Alice", "Bruno"]))
        assert hand_png == ludime_render.render_hand(view, ["Alice", "Bruno"])
        assert set(hand_hits) == {f"card:{i}" for i in range(len(view["hand"]))}
        _check(hand_png, hand_hits, {r for r in regions if r.startswith("card:")} or set(hand_hits), {BACKGROUND})
        if state.phase == "draw":
            state, _ = engine.apply(state, seat, {"type": "draw", "source": "pile"})
    assert len(hand_hits) == 16 and regions >= {"card:0", "discard"}


def test_lutinades_each_gesture_under_the_lutins_own_card():
    """A lutin's card on the board's page: its gestures under it, one region each (with the side in lutins
    malins); the card above is the chat's very card, the chat's copy (no hit map) the card alone."""
    from cogs.lutinades.cog import LutinadesCog

    engine = engines.get("lutinades")
    for variant, count in (("standard", 4), ("lutins-malins", 8), ("en-grand", 4)):
        state = engine.new_game(3, {"variante": variant}, 2)
        seat = engine.lutins(state)[0]
        view = engine.view(state, seat)
        for lang in ("fr", "en"):
            gestures = LutinadesCog.touch_gestures(view, lang)
            png, hits = with_hits(lutinades_render.render_card, (view["card"], {}, gestures))
            regions = {r for rs, _ in _paths("lutinades", state, seat) for r in rs}
            assert len(regions) == count and set(hits) == regions
            _check(png, hits, regions, {BACKGROUND})
            chat = lutinades_render.render_card(view["card"], {}, gestures)
            assert Image.open(io.BytesIO(chat)).size == (lutinades_render.CARD_W, lutinades_render.CARD_H)
            shown = Image.open(io.BytesIO(png)).convert("RGB")
            top = shown.crop((0, 0, lutinades_render.CARD_W, lutinades_render.CARD_H))
            assert top.tobytes() == Image.open(io.BytesIO(chat)).convert("RGB").tobytes()
        # once the lutin has chosen, nothing is left to touch: the card alone
        chosen, _ = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
        assert LutinadesCog.touch_gestures(engine.view(chosen, seat), "fr") == []


def test_ludime_every_word_of_the_table_is_a_region():
    engine = engines.get("ludime")
    state = engine.new_game(2, {}, 7)
    from dataclasses import replace
    state = replace(state, words=((1, "CHAT", 0), (2, "PORTE", 1), (3, "ANTICONSTITUTIONNELLEMENT", 0)))
    view = engine.view(state, 0)
    png, hits = with_hits(ludime_render.render_table, (view, ["Alice", "Bruno"]))
    assert png == ludime_render.render_table(view, ["Alice", "Bruno"])
    _check(png, hits, {"word:1", "word:2", "word:3", "pile", "discard"}, {BACKGROUND})


def test_limit_a_passed_tile_its_owners_dechetterie_under_the_holders_board():
    engine = engines.get("limit")
    state = engine.new_game(2, {"variante": "passe-dechetterie"}, 3)
    tile = engine.current_tile(state)
    state, _ = engine.apply(state, 0, {"type": "place", "tile": tile, "position": "X"})
    view = engine.view(state, 1)
    assert view["fills"]
    png, hits = with_hits(limit_render.render_board, (view, 1, ["Alice", "Bruno"], None))
    assert png == limit_render.render_board(view, 1, ["Alice", "Bruno"], None)
    regions = {r for rs, _ in _paths("limit", state, 1) for r in rs}
    fills = {r for r in regions if r.startswith("fill:")}
    assert fills == {f"fill:0:{p}" for p in engine.fill_positions(state, 0)}
    _check(png, hits, regions, {BACKGROUND, limit_render.BOARD_BG})
