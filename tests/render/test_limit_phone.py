"""Take it to the Limit's tiles on a phone (issue 24): the values' digits are 11 CSS px high at
390 px on every board picture, and nothing on a tile (the three values, the sun or moon, the cell's
name, the rings drawn over it) runs into anything else. Measured from the renderer's own drawing
(``render.common.recording_text``) and its layout constants, not by eye."""

from __future__ import annotations

import itertools
import math

import pytest

from engines.limit import ENGINE, TILES
from render import common
from render import limit as module
from tests.render.test_limit import NAMES, advance, labels, png
from tests.render.test_phone import CARD_PADDING, PHONE_WIDTH, tile_values, value_faults

#: a board picture alone in its card's gallery is shown across the card (tests/render/test_phone.py)
SHOWN = PHONE_WIDTH - CARD_PADDING


def _clear() -> None:
    for value in vars(module).values():
        if hasattr(value, "cache_clear") and getattr(value, "__module__", None) == module.__name__:
            value.cache_clear()


def _board_runs(view, seat):
    _clear()
    with common.recording_text() as runs:
        img = png(module.render_board(view, seat, NAMES[:2], labels("fr")))
    _clear()
    return img.width, list(runs)


@pytest.mark.parametrize("plateau", ["nexus", "orchidee"])
def test_the_values_digits_are_11_css_px_high_and_were_not_at_the_former_size(plateau, monkeypatch):
    view = ENGINE.view(advance(2, {"plateau": plateau}, moves=24), 0)
    width, runs = _board_runs(view, 0)
    values = tile_values(runs)
    board = view["boards"][0]
    drawn = len(board["cells"]) + len(board.get("orchid", [])) + (view["tile"] is not None)  # the big orchid's
    assert len(values) == 3 * drawn and value_faults(runs, width, SHOWN) == []
    scale = min(1, SHOWN / width)
    assert min(run.ink for run in values) * scale >= 11
    # the same board with the values drawn as before issue 24's fix (DejaVu Sans Bold, 0.44 of the
    # tile's radius): the check finds every one of them too small across a card (about 10 CSS px)
    monkeypatch.setattr(module, "_value_font", lambda s: common.font(max(8, int(s * 0.44)), bold=True))
    width, old = _board_runs(view, 0)
    assert len(tile_values(old)) == len(values)
    faults = value_faults(old, width, SHOWN)
    assert len(faults) == len(values)


def _apart(a, b, gap: float) -> bool:
    return a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1]


def _inside_hex(box, apothem: float) -> bool:
    """Every corner of ``box`` (relative to the tile's centre) inside the flat-top hexagon of ``apothem``."""
    return all(abs(y) <= apothem and abs(x) * math.sqrt(3) / 2 + abs(y) / 2 <= apothem
               for x, y in itertools.product(box[0::2], box[1::2]))


@pytest.mark.parametrize("size", [44, 120])
@pytest.mark.parametrize("tid", ["12-11-10", "1-2-3", "9-7-8", "4-6-5"])
def test_nothing_on_a_tile_runs_into_its_values(tid, size):
    """The three values (their glyphs' boxes as drawn), the sun or moon and the cell's name badge
    (in the phone font of the widest board) stay 2 px apart, inside the rings drawn over the tile."""
    t = TILES[tid].view()
    _clear()
    with common.recording_text() as runs:
        tile = module._tile_image(tuple(t["values"]), tuple(t["colours"]), bool(t["sun"]), "gold", size)
    _clear()
    values = tile_values(runs)
    assert sorted(run.text for run in values) == sorted(str(v) for v in t["values"])
    cx, cy = tile.width / 2, tile.height / 2  # the tile's centre, in px of the finished tile
    boxes = [tuple(v / module.SS - c for v, c in zip(run.box, (cx, cy, cx, cy), strict=True)) for run in values]
    mark = module._mark_box(0, 0, size)
    img, draw = common.canvas(4 * size, 4 * size)
    fnt = common.font(module._min_font(563), bold=True)  # the badge's font on the widest board picture (the final boards, 563 px)
    badges = [tuple(module._name_badge_box(draw, size * module.NAME_AT[0], size * module.NAME_AT[1], name, fnt))
              for name in ("G4", "X7", "22", "D4", "O")]
    for a, b in itertools.combinations(boxes, 2):
        assert _apart(a, b, 2), (a, b)
    for box in boxes:
        assert _apart(box, mark, 2) and all(_apart(box, badge, 2) for badge in badges), box
    assert all(_apart(mark, badge, 2) for badge in badges)
    # on a board (its tile size) the rings (best ray, this round's placement) are drawn over the
    # tile, inwards from the hexagon's edge; the large announced tile has none, only its own edge
    inner = (min(at * math.sqrt(3) / 2 * size - module._ring_width(size, k) for k, at in enumerate(module.RING_AT))
             if size in module.TILE_SIZES else 0.97 * math.sqrt(3) / 2 * size - 1)
    for box in boxes + badges:
        assert _inside_hex(box, inner), (box, inner)
    x, y, r = (mark[0] + mark[2]) / 2, (mark[1] + mark[3]) / 2, (mark[2] - mark[0]) / 2  # the sun's rays' disc
    assert abs(y) + r <= inner and abs(x) * math.sqrt(3) / 2 + abs(y) / 2 + r <= inner


def test_the_former_layout_fails_the_tile_check(monkeypatch):
    """The check above is not vacuous: the values as large as now at their former places (on their
    lines, 0.9 and 0.77 of the way up) run into one another."""
    t = TILES["12-11-10"].view()
    old = ((0.0, -0.644), (0.356, -0.206), (-0.356, -0.206))  # VALUE_AT's former places, as centres
    monkeypatch.setattr(module, "VALUE_AT", old)
    _clear()
    with common.recording_text() as runs:
        tile = module._tile_image(tuple(t["values"]), tuple(t["colours"]), bool(t["sun"]), None, 44)
    _clear()
    c = (tile.width / 2, tile.height / 2) * 2
    boxes = [tuple(v / module.SS - o for v, o in zip(run.box, c, strict=True)) for run in tile_values(runs)]
    assert not all(_apart(a, b, 2) for a, b in itertools.combinations(boxes, 2))


@pytest.mark.parametrize("final", [False, True])
def test_line_points_and_empty_positions_names_have_letters_11_css_px_high(final):
    """The other marks on the board in its number font (each scoring line's points, the names of
    the positions still empty): their glyphs, too, are 11 CSS px high on the widest pictures."""
    s = advance(2, {}, until=lambda st: False) if final else advance(2, {}, moves=30)
    view = ENGINE.view(s, None if final else 0)
    _clear()
    with common.recording_text() as runs:
        img = png(module.render_final(view, NAMES[:2], labels("fr"), 0) if final
                  else module.render_board(view, 0, NAMES[:2], labels("fr")))
    _clear()
    marks = [run for run in runs if run.size == int(module.TILE_SIZES[0] * module.NUMBER_RATIO)]
    scale = min(1, SHOWN / img.width)
    lines = view["final"]["breakdowns"][0]["lines"] if final else view["boards"][0]["score"]["lines"]
    assert {str(ln["points"]) for ln in lines if ln["cells"]} <= {run.text for run in marks}
    assert img.width > 550 and min(run.ink for run in marks) * scale >= 11
