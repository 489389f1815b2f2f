"""Take it to the Limit: the generated tile set, the boards, every scoring rule on
hand-built boards (the rulebook's own examples), the simultaneous rounds, every
variant, every refusal (state unchanged), hidden placements, persistence."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from bot import i18n
from engines import get
from engines.base import Phrase, RuleError
from engines.limit import (
    ALL_TILE_IDS,
    DECHETTERIE,
    ENGINE,
    MOON_IDS,
    NEXUS,
    ORCHIDEE,
    SUN_IDS,
    TILES,
    best_relocation,
    check_tiles,
    dechetterie_value,
    generate_tiles,
    legal_positions,
    relocation_gain,
    relocation_options,
    score_nexus,
    score_orchid,
    shared_penalties,
    threshold_penalty,
)
from engines.limit.engine import PENDING, RELOCATE
from engines.limit.tiles import RULE

ROOT = Path(__file__).resolve().parents[2]


def refused(state, seat, action, key, /, **params):
    before = ENGINE.to_dict(state)
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, seat, action)
    assert err.value.key == key, err.value.params
    for name, value in params.items():
        assert err.value.params[name] == value, (name, err.value.params)
    assert ENGINE.to_dict(state) == before
    return err.value


def place(state, seat, position):
    return ENGINE.apply(state, seat, {"type": "place", "tile": ENGINE.current_tile(state), "position": position})


def distinct(cells):
    assert len(set(cells.values())) == len(cells), "a hand-built board uses a tile twice"
    return cells


# --- tiles -------------------------------------------------------------------------

def test_the_64_tiles_are_generated_from_the_rule():
    assert len(TILES) == 64 and len(SUN_IDS) == len(MOON_IDS) == 32
    assert ALL_TILE_IDS[0] == "1-2-3" and ALL_TILE_IDS[-1] == "12-11-10"
    gold = sorted(t for t in TILES if TILES[t].bonus == "gold")
    assert gold == ["1-2-3", "4-6-5"]
    assert TILES["1-2-3"].sun and not TILES["4-6-5"].sun
    silver_suns = sorted(t for t in SUN_IDS if TILES[t].bonus == "silver")
    silver_moons = sorted(t for t in MOON_IDS if TILES[t].bonus == "silver")
    assert silver_suns == ["1-6-5", "4-2-5", "4-6-3"]
    assert silver_moons == ["1-2-5", "1-6-3", "4-2-3"]
    assert {TILES[t].bonus_value for t in gold} == {80}
    for half in (SUN_IDS, MOON_IDS):
        for d in range(3):  # every value on 8 suns and 8 moons
            assert set(Counter(TILES[t].values[d] for t in half).values()) == {8}
    # the rulebook's tiles of the Orchidée example are suns
    assert all(TILES[t].sun for t in ("1-11-10", "1-2-3", "9-11-10"))
    assert TILES["1-11-10"].colours == ("grey", "white", "black")


def test_the_checks_catch_a_wrong_rule():
    bad = json.loads(json.dumps(RULE))
    bad["bonus_rule"]["gold"] = [[0, 0, 0]]
    with pytest.raises(ValueError):
        check_tiles(generate_tiles(bad), bad)
    bad = json.loads(json.dumps(RULE))
    bad["sun_rule"]["index_sum_parity"] = 1  # suns and moons swapped: the bonus split breaks
    tiles = generate_tiles(bad)
    assert sum(t.sun for t in tiles.values()) == 32
    assert not tiles["1-2-3"].sun


# --- boards ------------------------------------------------------------------------

def test_boards_come_from_the_geometry_data():
    assert NEXUS.names[:4] == ("A1", "A2", "A3", "A4") and NEXUS.names[-1] == "G4"
    assert [sum(1 for n in NEXUS.names if n[0] == c) for c in "ABCDEFG"] == [4, 5, 6, 7, 6, 5, 4]
    assert len(NEXUS.lines) == 21 and len(DECHETTERIE.lines) == 9 and len(ORCHIDEE.lines) == 18
    assert DECHETTERIE.names == tuple(f"X{i}" for i in range(1, 8))
    assert ORCHIDEE.names == tuple(str(i) for i in range(1, 23)) and ORCHIDEE.hole_names == ("A", "B", "C")
    rows = {ln.cells for ln in ORCHIDEE.lines if len(ln.holes) == 1}
    assert ("19", "20", "A", "21", "22") in rows  # orchid row A: vertical, 2 hexes, the hole, 2 hexes
    for hole in "ABC":
        assert len(ORCHIDEE.lines_through[hole]) == 3
    # the short lines between two orchid rows end in two holes
    assert {ln.cells for ln in ORCHIDEE.lines if len(ln.holes) == 2} == {
        ("B", "6", "7", "C"), ("C", "11", "16", "A"), ("B", "9", "15", "A")}


# --- Nexus scoring: lines, bonuses, rays --------------------------------------------

def line_of(direction, length):
    return next(ln for ln in NEXUS.lines if ln.direction == direction and len(ln.cells) == length)


def test_line_examples_from_the_rulebook():
    # "Quatre tuiles barrées de jaune en une ligne verticale valent 36 (4×9)"
    yellow = distinct({"A1": "9-2-3", "A2": "9-6-5", "A3": "9-7-8", "A4": "9-11-10"})
    s = score_nexus(yellow)
    assert [(ln["value"], ln["length"], ln["points"]) for ln in s["lines"]] == [(9, 4, 36)]
    # seven blue vertical = 28; six orange diagonal = 48; seven white diagonal = 77
    blue = {c: t for c, t in zip(line_of(0, 7).cells, [t for t in ALL_TILE_IDS if t.startswith("4-")], strict=False)}
    assert score_nexus(distinct(blue))["items"]["lines"] == 28
    orange_ids = [t for t in ALL_TILE_IDS if TILES[t].values[2] == 8]
    orange = dict(zip(line_of(2, 6).cells, orange_ids, strict=False))
    assert score_nexus(distinct(orange))["items"]["lines"] == 48
    white_ids = [t for t in ALL_TILE_IDS if TILES[t].values[1] == 11]
    white = dict(zip(line_of(1, 7).cells, white_ids, strict=False))
    assert score_nexus(distinct(white))["items"]["lines"] == 77


def test_one_wrong_colour_or_a_hole_kills_the_line():
    yellow = {"A1": "9-2-3", "A2": "9-6-5", "A3": "9-7-8", "A4": "12-11-10"}
    assert score_nexus(yellow)["lines"] == []
    assert score_nexus({"A1": "9-2-3", "A2": "9-6-5", "A3": "9-7-8"})["lines"] == []


def bonus_board():
    """Gold 1-2-3 on D4 with its three 7-long lines (column D, row r=0, the long diagonal)."""
    centre = "D4"
    col = [c for c in line_of(0, 7).cells if c != centre]
    row = [c for c in next(ln for ln in NEXUS.lines if ln.direction == 2 and len(ln.cells) == 7).cells if c != centre]
    diag = [c for c in line_of(1, 7).cells if c != centre]
    cells = {centre: "1-2-3"}
    cells.update(zip(col, ["1-6-5", "1-7-8", "1-11-10", "1-6-8", "1-7-5", "1-11-3"], strict=True))
    cells.update(zip(row, ["4-6-3", "9-7-3", "12-11-3", "4-7-3", "9-11-3", "12-6-3"], strict=True))
    cells.update(zip(diag, ["4-2-5", "9-2-8", "12-2-10", "4-2-8", "9-2-10", "12-2-5"], strict=True))
    return distinct(cells), col, row, diag


def test_bonus_full_half_and_nothing():
    cells, col, row, diag = bonus_board()
    s = score_nexus(cells)
    assert s["items"]["lines"] == 7 * 1 + 7 * 3 + 7 * 2
    by_pos = {b["position"]: b for b in s["bonuses"]}
    assert by_pos["D4"] == {"position": "D4", "tile": "1-2-3", "kind": "gold", "lines": 3, "points": 80}
    # the silver tiles on the arms have a single scoring line through them: nothing
    assert all(b["points"] == 0 and b["lines"] == 1 for p, b in by_pos.items() if p != "D4")
    assert s["items"]["bonuses"] == 80
    half = {**cells, diag[0]: "9-6-8"}  # the diagonal is broken: two lines left -> half
    assert {b["position"]: b["points"] for b in score_nexus(half)["bonuses"]}["D4"] == 40
    one = {**half, row[0]: "9-6-5"}
    assert {b["position"]: b["points"] for b in score_nexus(one)["bonuses"]}["D4"] == 0
    moon_gold = {b["position"]: b for b in score_nexus({**cells, "D4": "4-6-5"})["bonuses"]}
    assert moon_gold["D4"]["lines"] == 0 and moon_gold["D4"]["points"] == 0  # 4-6-5 matches no line
    silver = {**cells, "D4": "1-6-3"}  # silver moon: vertical 1 and nw_se 3 match, sw_ne 6 does not
    assert {b["position"]: b["points"] for b in score_nexus(silver)["bonuses"]}["D4"] == 20


def test_longest_ray_counts_once():
    suns = [t for t in SUN_IDS]
    moons = [t for t in MOON_IDS]
    col_a = NEXUS.names[:4]
    col_g = NEXUS.names[-4:]
    cells = distinct({**dict(zip(col_a, suns[:4], strict=True)), **dict(zip(col_g, moons[:4], strict=True))})
    ray = score_nexus(cells)["ray"]
    assert ray["length"] == 4 and ray["points"] == 40 and ray["tie"] is True  # equal sun and moon: one
    assert score_nexus(cells)["items"]["ray"] == 40
    col_b = NEXUS.names[4:9]
    cells = distinct({**cells, **dict(zip(col_b, moons[4:9], strict=True))})
    ray = score_nexus(cells)["ray"]
    assert (ray["kind"], ray["length"], ray["points"], ray["tie"]) == ("moon", 5, 50, False)
    mixed = {**cells, "B3": suns[10]}
    assert score_nexus(mixed)["ray"]["length"] == 4


def test_no_rays_on_the_dechetterie_and_rays_along_any_line():
    cells = dict(zip(DECHETTERIE.names, SUN_IDS[:7], strict=True))
    assert "ray" not in dechetterie_value(cells)["options"]


# perfect colour: V by column, sw_ne by s, nw_se by r (indices found by a search, all 37 tiles distinct)
PERFECT_V = [1, 3, 2, 0, 2, 1, 3]
PERFECT_D = [2, 1, 0, 3, 2, 1, 0]
PERFECT_E = [0, 3, 2, 1, 3, 2, 1]


def perfect_board():
    from engines.limit.tiles import VALUES
    cells = {}
    for name, q, r in NEXUS.cells:
        s = -q - r
        cells[name] = f"{VALUES[0][PERFECT_V[q + 3]]}-{VALUES[1][PERFECT_D[s + 3]]}-{VALUES[2][PERFECT_E[r + 3]]}"
    return distinct(cells)


def test_a_perfect_colour_board_scores_every_line():
    cells = perfect_board()
    s = score_nexus(cells)
    assert len(s["lines"]) == 21
    expected = sum(TILES[cells[ln.cells[0]]].values[ln.direction] * len(ln.cells) for ln in NEXUS.lines)
    assert s["items"]["lines"] == expected
    assert all(b["lines"] == 3 and b["points"] == TILES[b["tile"]].bonus_value for b in s["bonuses"])
    assert s["total"] == sum(s["items"].values())


# The rulebook's worked Nexus game: 498 (lines) + 190 (gold 80, half silver 20, full silver 40,
# a silver crossed by no line, a silver crossed by one line, moon ray of 5 = 50) - 60 (Déchetterie 53)
# = 628. Built by a search to match every number the seed gives.
NEXUS_EXAMPLE = {
    "A1": "9-7-3", "A2": "4-11-3", "A3": "12-6-5", "A4": "4-7-10", "B1": "4-7-8", "B2": "4-11-5",
    "B3": "4-6-3", "B4": "4-7-3", "B5": "4-2-10", "C1": "9-7-10", "C2": "9-11-10", "C3": "1-6-3",
    "C4": "12-7-3", "C5": "12-2-8", "C6": "12-11-10", "D1": "1-7-8", "D2": "1-11-10", "D3": "1-6-5",
    "D4": "1-7-10", "D5": "1-2-3", "D6": "1-11-8", "D7": "1-2-10", "E1": "4-11-8", "E2": "9-6-10",
    "E3": "1-7-3", "E4": "4-2-8", "E5": "1-11-3", "E6": "4-2-3", "F1": "12-6-8", "F2": "12-7-10",
    "F3": "12-2-5", "F4": "12-11-8", "F5": "12-2-3", "G1": "9-7-8", "G2": "9-2-10", "G3": "9-11-8",
    "G4": "9-6-5",
}
DECH_53 = {"X1": "9-6-8", "X2": "1-11-5", "X3": "12-2-10", "X4": "9-11-3", "X5": "12-7-8", "X6": "4-11-10",
           "X7": "9-2-5"}


def test_the_rulebook_nexus_total_628():
    s = score_nexus(NEXUS_EXAMPLE)
    assert s["items"] == {"lines": 498, "bonuses": 140, "ray": 50}
    assert sorted((b["kind"], b["lines"], b["points"]) for b in s["bonuses"]) == [
        ("gold", 3, 80), ("silver", 0, 0), ("silver", 1, 0), ("silver", 2, 20), ("silver", 3, 40)]
    assert (s["ray"]["kind"], s["ray"]["length"], s["ray"]["tie"]) == ("moon", 5, False)
    assert dechetterie_value(DECH_53)["value"] == 53
    # through the engine: the 44th tile closes the game with 498 + 190 - 60 = 628
    cells = {**NEXUS_EXAMPLE, **DECH_53}
    last = "D4"
    deck = tuple(t for p, t in sorted(cells.items()) if p != last) + (cells[last],)
    deck += tuple(t for t in ALL_TILE_IDS if t not in deck)
    s0 = ENGINE.new_game(1, {}, 1)
    state = replace(s0, deck=deck, round_no=44, boards=({p: t for p, t in cells.items() if p != last},))
    assert legal_positions(state, 0) == [last]
    end, events = ENGINE.apply(state, 0, {"type": "place", "tile": cells[last], "position": last})
    assert events[-2] == {"type": "game_scored", "game": 1, "games": 1, "scores": [628], "totals": [628]}
    bd = end.history[0]["breakdowns"][0]
    assert bd["items"] == {"lines": 498, "bonuses": 140, "ray": 50, "penalty": -60} and bd["total"] == 628
    assert ENGINE.result(end).scores == [628]


# --- the Déchetterie ---------------------------------------------------------------

DECH_EXAMPLES = {
    # value: (cells, option, pays the 60 penalty)
    89: ({"X1": "1-7-5", "X2": "4-11-8", "X3": "12-2-10", "X4": "12-11-3", "X5": "12-6-5", "X6": "9-11-10",
          "X7": "9-6-8"}, "lines", False),
    80: ({"X1": "4-6-3", "X2": "9-2-8", "X3": "1-7-8", "X4": "1-2-3", "X5": "1-11-10", "X6": "12-2-10",
          "X7": "9-7-3"}, "gold", False),
    58: ({"X1": "1-2-5", "X2": "4-6-8", "X3": "12-7-8", "X4": "12-6-10", "X5": "12-11-5", "X6": "1-7-3",
          "X7": "9-11-3"}, "lines", True),
    42: ({"X1": "9-2-10", "X2": "1-11-3", "X3": "4-7-8", "X4": "4-11-10", "X5": "4-6-8", "X6": "9-7-5",
          "X7": "12-7-10"}, "lines", True),
    53: ({"X1": "9-6-8", "X2": "1-11-5", "X3": "12-2-10", "X4": "9-11-3", "X5": "12-7-8", "X6": "4-11-10",
          "X7": "9-2-5"}, "lines", True),
}


@pytest.mark.parametrize("value", sorted(DECH_EXAMPLES))
def test_dechetterie_values_from_the_rulebook(value):
    cells, option, pays = DECH_EXAMPLES[value]
    d = dechetterie_value(distinct(cells))
    assert d["value"] == value and d["option"] == option
    assert (threshold_penalty(d["value"]) == 60) is pays


def test_dechetterie_89_takes_only_the_three_best_lines():
    d = dechetterie_value(DECH_EXAMPLES[89][0])
    assert sorted(ln["points"] for ln in d["lines"]) == [12, 18, 20, 33, 36]
    assert [ln["points"] for ln in d["counted"]] == [36, 33, 20]


def test_dechetterie_silver_and_gold_notes():
    # full silver (1-6-5 on X4, three lines) + half silver (4-6-3 on X6, two lines) = 60: no penalty,
    # although the three best lines only make 24 + 18 + 15 = 57
    cells = distinct({"X1": "12-2-5", "X2": "12-6-10", "X3": "1-7-3", "X4": "1-6-5", "X5": "1-11-8",
                      "X6": "4-6-3", "X7": "9-7-5"})
    d = dechetterie_value(cells)
    assert sorted(b["points"] for b in d["bonuses"] if b["kind"] == "silver") == [20, 40]
    assert d["options"] == {"lines": 57, "silver": 60, "gold": 0}
    assert d["value"] == 60 and d["option"] == "silver" and threshold_penalty(60) == 0
    assert [b["points"] for b in d["counted"]] == [40, 20]
    # three half silvers: only two count (40)
    three = distinct({"X1": "4-6-3", "X2": "4-2-10", "X3": "1-6-5", "X4": "12-2-5", "X5": "4-6-5",
                      "X6": "4-2-5", "X7": "1-2-3"})
    d = dechetterie_value(three)
    assert sorted(b["points"] for b in d["bonuses"] if b["kind"] == "silver") == [20, 20, 20]
    assert d["value"] == 40 and d["option"] == "silver" and len(d["counted"]) == 2
    assert threshold_penalty(d["value"]) == 60


def test_dechetterie_two_half_golds_count_once():
    # 1-2-3 on X1 (vertical 1s + sw_ne 2s) and 4-6-5 on X7 (vertical 4s + sw_ne 6s): two half golds
    cells = distinct({"X1": "1-2-3", "X2": "1-7-8", "X3": "9-2-10", "X6": "4-7-10", "X7": "4-6-5",
                      "X5": "12-6-3", "X4": "9-11-8"})
    d = dechetterie_value(cells)
    golds = [b for b in d["bonuses"] if b["kind"] == "gold"]
    assert [g["points"] for g in golds] == [40, 40]
    assert d["options"]["gold"] == 40 and d["value"] == 40


def test_shared_penalties():
    assert shared_penalties([53, 89, 53], lowest=True) == [30, 0, 30]
    assert shared_penalties([10, 10, 10], lowest=True) == [20, 20, 20]
    assert shared_penalties([89, 89, 42, 0], lowest=False) == [30, 30, 0, 0]
    assert shared_penalties([100, 0], lowest=True) == [0, 60]


# --- the Orchidée relocation example ---------------------------------------------------

#: Built to match the rulebook's "Remplacement des tuiles sur le plateau Orchidée" (sun tiles):
#: after moving 1-11-10 to B (+11) and 1-2-3 to C (+86) the board scores 294 + 140 = 434,
#: and 9-11-10 on A would then lose 27.
ORCHID_EXAMPLE = {
    "1": "4-2-10", "2": "4-6-3", "3": "12-6-3", "4": "4-6-8", "5": "4-11-3", "6": "1-6-5", "7": "1-11-5",
    "8": "12-11-8", "9": "1-6-10", "10": "9-2-8", "11": "1-2-8", "12": "1-7-3", "13": "12-2-10",
    "14": "12-6-8", "15": "12-7-10", "16": "12-2-5", "17": "12-7-5", "18": "12-11-3", "19": "9-6-10",
    "20": "9-7-8", "21": "9-7-3", "22": "9-11-5",
}
ORCHID_TILES = ("1-11-10", "1-2-3", "9-11-10")


def test_orchid_example_is_a_legal_sun_board():
    tiles = list(ORCHID_EXAMPLE.values()) + list(ORCHID_TILES)
    assert len(set(tiles)) == 25 and all(TILES[t].sun for t in tiles)


def test_orchid_relocation_example_from_the_rulebook():
    base = ORCHID_EXAMPLE
    # 1-11-10 on B: grey 2 -> 3 (+1), black 2 -> 3 (+10)
    assert relocation_gain(base, {"B": "1-11-10"}) == 11
    after_b = {**base, "B": "1-11-10"}
    # 1-2-3 on C: pink, cherry and grey one longer (+6) and the full gold bonus (+80)
    assert relocation_gain(after_b, {"C": "1-2-3"}) == 86
    assert relocation_gain(base, {"C": "1-2-3"}) == 86
    after_c = {**after_b, "C": "1-2-3"}
    # 9-11-10 on A: yellow and black longer (+19) but the pink line breaks (-6) and the gold drops to half (-40)
    assert relocation_gain(after_c, {"A": "9-11-10"}) == -27
    s = score_orchid(after_c)
    assert s["items"] == {"lines": 294, "bonuses": 140} and s["total"] == 434
    assert sorted(b["points"] for b in s["bonuses"] if b["points"]) == [20, 40, 80]
    best = best_relocation(base, ORCHID_TILES)
    assert best["moves"] == {"B": "1-11-10", "C": "1-2-3"} and best["gain"] == 97 and best["score"] == 434
    options = relocation_options(base, ORCHID_TILES)
    assert len(options) == 34 and options[0] == best
    assert {"moves": {}, "score": 337, "gain": 0} in options


def orchid_relocation_state():
    s = ENGINE.new_game(2, {"plateau": "orchidee"}, 3)
    return replace(s, phase=RELOCATE, round_no=25, boards=(dict(ORCHID_EXAMPLE), dict(ORCHID_EXAMPLE)),
                   orchids=(ORCHID_TILES, ORCHID_TILES), relocations=(None, None))


def test_relocation_step_offers_the_best_move_and_scores_it():
    s = orchid_relocation_state()
    assert ENGINE.expected(s) == {0, 1}
    v = ENGINE.view(s, 0)
    assert v["relocation"]["best"]["moves"] == {"B": "1-11-10", "C": "1-2-3"}
    assert v["relocation"]["best"]["gain"] == 97 and len(v["relocation"]["options"]) == 34
    assert ENGINE.default_action(s, 0) == {"type": "relocate", "moves": {"B": "1-11-10", "C": "1-2-3"}}
    assert len(ENGINE.legal_actions(s, 1)) == 34
    s1, ev = ENGINE.apply(s, 0, ENGINE.default_action(s, 0))
    assert ev == [{"type": "relocated", "seat": 0, "board": 0, "moves": {"B": "1-11-10", "C": "1-2-3"},
                   "moved": 2, "gain": 97}]
    assert ENGINE.expected(s1) == {1}
    refused(s1, 0, {"type": "relocate", "moves": {}}, "limit.error.already_relocated")
    s2, ev = ENGINE.apply(s1, 1, {"type": "relocate", "moves": {"a": "9-11-10"}})
    assert ev[0]["gain"] == 15  # alone, 9-11-10 on A: +9 +10 -4
    assert ENGINE.is_over(s2)
    r = ENGINE.result(s2)
    assert r.scores == [434, 337 + 15] and r.ranks == [1, 2]
    final = ENGINE.view(s2, None)["final"]
    b0 = final["breakdowns"][0]
    assert b0["items"] == {"lines": 294, "bonuses": 140} and b0["unplaced"] == ["9-11-10"]
    assert final["breakdowns"][1]["unplaced"] == ["1-11-10", "1-2-3"]


def test_relocation_refusals():
    s = orchid_relocation_state()
    refused(s, 0, {"type": "relocate", "moves": ["B"]}, "limit.error.bad_moves")
    refused(s, 0, {"type": "relocate", "moves": {"D": "1-2-3"}}, "limit.error.bad_hole", hole="D")
    refused(s, 0, {"type": "relocate", "moves": {"a": "1-2-3", "A": "1-11-10"}}, "limit.error.hole_twice", hole="A")
    refused(s, 0, {"type": "relocate", "moves": {"A": "4-6-5"}}, "limit.error.tile_not_on_orchid", tile="4-6-5")
    refused(s, 0, {"type": "relocate", "moves": {"A": "1-2-3", "B": "1-2-3"}}, "limit.error.tile_twice",
            tile="1-2-3")
    refused(s, 0, {"type": "place", "tile": "1-2-3", "position": "1"}, "limit.error.relocation_phase")
    fresh = ENGINE.new_game(1, {"plateau": "orchidee"}, 3)
    refused(fresh, 0, {"type": "relocate", "moves": {}}, "limit.error.not_relocation_phase")


# --- the game flow -------------------------------------------------------------------

def test_registry_and_protocol():
    assert get("limit") is ENGINE
    assert ENGINE.simultaneous and ENGINE.has_ai and ENGINE.min_players == 1
    names = {o.name for o in ENGINE.options}
    assert names == {"plateau", "variante", "tuiles", "paires", "serie"}


def test_a_nexus_round_is_simultaneous_and_hidden():
    s = ENGINE.new_game(3, {}, 42)
    tile = ENGINE.current_tile(s)
    assert ENGINE.expected(s) == {0, 1, 2}
    assert legal_positions(s, 0)[:7] == list(DECHETTERIE.names) and legal_positions(s, 0)[7:] == list(NEXUS.names)
    s1, ev = place(s, 0, "d4")
    assert ev[0] == {"type": "placed", "seat": 0, "board": 0, "tile": tile, "position": "D4", "round": 1,
                     "private_to": 0}
    assert ev[1]["type"] == "waiting" and ev[1]["remaining"] == 2
    assert ENGINE.expected(s1) == {1, 2}
    assert legal_positions(s1, 0) == []
    refused(s1, 0, {"type": "place", "tile": tile, "position": "D5"}, "limit.error.already_placed",
            position="D4")
    # seat 0's placement is hidden from the others until the round closes
    for seat in (1, 2, None):
        v = ENGINE.view(s1, seat)
        assert v["boards"][0]["cells"] == {} and v["boards"][0]["placed"] is True
        assert "D4" not in json.dumps(v["boards"][0]) and "this_round" not in v["boards"][0]
        assert f'"D4": "{tile}"' not in json.dumps(v)
    assert ENGINE.view(s1, 0)["boards"][0]["cells"] == {"D4": tile}
    assert ENGINE.view(s1, 0)["boards"][0]["this_round"] == "D4"
    s2, _ = place(s1, 1, "X1")
    s3, ev = place(s2, 2, "A1")
    kinds = [e["type"] for e in ev]
    assert kinds == ["placed", "round_closed", "announced"]
    assert ev[1]["placements"] == [{"board": 0, "position": "D4"}, {"board": 1, "position": "X1"},
                                   {"board": 2, "position": "A1"}]
    assert ev[2]["round"] == 2 and ev[2]["rounds"] == 44 and ev[2]["tile"] == ENGINE.current_tile(s3)
    v = ENGINE.view(s3, 2)
    assert v["boards"][0]["cells"] == {"D4": tile} and v["boards"][1]["cells"] == {"X1": tile}
    assert v["announced"] == [tile, ENGINE.current_tile(s3)]
    # the stale tile is refused with its reason
    refused(s3, 0, {"type": "place", "tile": tile, "position": "D5"}, "limit.error.stale_tile",
            tile=tile, current=ENGINE.current_tile(s3))


def test_refusals_leave_the_state_unchanged():
    s = ENGINE.new_game(2, {}, 9)
    tile = ENGINE.current_tile(s)
    s, _ = place(s, 0, "D4")
    s, _ = place(s, 1, "X2")
    tile2 = ENGINE.current_tile(s)
    act = {"type": "place", "tile": tile2}
    refused(s, 0, {**act, "position": "D4"}, "limit.error.occupied", position="D4", tile=tile)
    refused(s, 1, {**act, "position": "x2"}, "limit.error.occupied", position="X2", tile=tile)
    refused(s, 0, {**act, "position": "Z9"}, "limit.error.unknown_position", position="Z9")
    refused(s, 0, {**act, "position": "H1"}, "limit.error.unknown_position", position="H1")
    refused(s, 0, {**act, "position": ""}, "limit.error.unknown_position")
    refused(s, 0, {**act, "position": "12"}, "limit.error.wrong_board", position="12", plateau=Phrase("limit.board.nexus"))
    refused(s, 0, {**act, "position": "O"}, "limit.error.wrong_board", position="O")
    refused(s, 0, {**act, "position": "X"}, "limit.error.dechetterie_cell", position="X")
    refused(s, 0, act, "limit.error.missing_field", field="position")
    refused(s, 0, {"type": "place", "position": "A1"}, "limit.error.missing_field", field="tile")
    refused(s, 0, {**act, "tile": "13-2-3", "position": "A1"}, "limit.error.unknown_tile", tile="13-2-3")
    refused(s, 0, {**act, "tile": "1-3-2", "position": "A1"}, "limit.error.unknown_tile")
    refused(s, 0, {**act, "tile": tile, "position": "A1"}, "limit.error.stale_tile", tile=tile, current=tile2)
    refused(s, 0, {"type": "jump"}, "common.error.unknown_action", action="jump")
    refused(s, 0, "place", "common.error.unknown_action")
    refused(s, 5, {**act, "position": "A1"}, "limit.error.no_seat", seat=5)
    refused(s, 0, {"type": "fill", "board": 1, "tile": tile2, "position": "X3"}, "limit.error.no_fill")
    # the tile id is accepted in other spellings
    t = TILES[tile2].values
    s2, _ = ENGINE.apply(s, 0, {"type": "place", "tile": f"{t[0]} / {t[1]} / {t[2]}", "position": "a1"})
    assert s2.boards[0]["A1"] == tile2


def test_once_one_board_is_full_the_rest_goes_to_the_other():
    s = ENGINE.new_game(1, {}, 4)
    dech = {x: ALL_TILE_IDS[i] for i, x in enumerate(DECHETTERIE.names)}
    s = replace(s, boards=({k: v for k, v in dech.items()},))
    assert legal_positions(s, 0) == list(NEXUS.names)
    refused(s, 0, {"type": "place", "tile": ENGINE.current_tile(s), "position": "X3"}, "limit.error.occupied")
    nexus_full = {n: "1-2-3" for n in NEXUS.names}  # scoring is not looked at here
    s = replace(s, boards=(nexus_full,))
    assert legal_positions(s, 0) == list(DECHETTERIE.names)
    assert ENGINE.default_action(s, 0)["position"] == "X1"


def test_timeout_goes_to_the_dechetterie_or_orchid_first_then_the_first_hex():
    s = ENGINE.new_game(1, {}, 4)
    assert ENGINE.default_action(s, 0) == {"type": "place", "tile": ENGINE.current_tile(s), "position": "X1"}
    s = ENGINE.new_game(1, {"variante": "sans-dechetterie"}, 4)
    assert ENGINE.default_action(s, 0)["position"] == "A1"
    s = ENGINE.new_game(1, {"plateau": "orchidee"}, 4)
    assert ENGINE.default_action(s, 0)["position"] == "O"


def test_options_are_validated():
    for opts, key in [
        ({"plateau": "orchidee", "variante": "dechetterie-basse"}, "limit.error.variant_board"),
        ({"variante": "orchidee-64"}, "limit.error.variant_board"),
        ({"tuiles": "lune"}, "limit.error.tiles_option"),
        ({"plateau": "orchidee", "variante": "orchidee-64", "tuiles": "lune"}, "limit.error.tiles_option"),
        ({"variante": "passe-dechetterie"}, "limit.error.variant_needs_boards"),
        ({"variante": "dechetterie-basse"}, "limit.error.variant_needs_boards"),
        ({"plateau": "carre"}, "common.error.bad_option"),
        ({"serie": 0}, "common.error.bad_option"),
        ({"couleur": 1}, "common.error.unknown_option"),
    ]:
        with pytest.raises(RuleError) as err:
            ENGINE.new_game(1, opts, 1)
        assert err.value.key == key, opts
    with pytest.raises(RuleError) as err:
        ENGINE.new_game(3, {"paires": True}, 1)
    assert err.value.key == "limit.error.pairs_even"
    with pytest.raises(RuleError) as err:
        ENGINE.new_game(7, {}, 1)
    assert err.value.key == "limit.error.too_many_boards" and err.value.params == {"count": 7, "max": 6}
    with pytest.raises(RuleError) as err:
        ENGINE.new_game(0, {}, 1)
    assert err.value.key == "common.error.player_count"
    assert ENGINE.n_boards(ENGINE.new_game(12, {"paires": True}, 1)) == 6


def test_decks_come_from_the_seed():
    a, b = ENGINE.new_game(2, {}, 11), ENGINE.new_game(2, {}, 11)
    assert a.deck == b.deck and sorted(a.deck) == sorted(ALL_TILE_IDS)
    assert ENGINE.new_game(2, {}, 12).deck != a.deck
    sun = ENGINE.new_game(1, {"plateau": "orchidee"}, 11)
    moon = ENGINE.new_game(1, {"plateau": "orchidee", "tuiles": "lune"}, 11)
    full = ENGINE.new_game(1, {"plateau": "orchidee", "variante": "orchidee-64"}, 11)
    assert set(sun.deck) == set(SUN_IDS) and set(moon.deck) == set(MOON_IDS) and len(full.deck) == 64
    assert ENGINE.rounds(sun) == 25 and ENGINE.rounds(a) == 44
    assert ENGINE.rounds(ENGINE.new_game(1, {"variante": "sans-dechetterie"}, 1)) == 37


def play(state, seats_order=None, policy="ai"):
    """Play to the end: each expected seat in order takes the AI (or default) move."""
    events = []
    while not ENGINE.is_over(state):
        seat = min(ENGINE.expected(state)) if seats_order is None else seats_order(state)
        action = ENGINE.ai_action(state, seat) if policy == "ai" else ENGINE.default_action(state, seat)
        state, ev = ENGINE.apply(state, seat, action)
        events += ev
    return state, events


def check_final(state):
    for rec in state.history:
        for bd, score in zip(rec["breakdowns"], rec["scores"], strict=True):
            assert bd["total"] == sum(bd["items"].values()) == score
    r = ENGINE.result(state)
    assert r.scores == [state.totals[ENGINE.board_of(state, s)] for s in range(state.players)]
    return r


def test_solo_nexus_game_to_the_end():
    s, events = play(ENGINE.new_game(1, {}, 2024))
    assert [e["type"] for e in events].count("announced") == 43
    assert events[-1]["type"] == "game_over" and events[-1]["winners"] == [0]
    cells = s.boards[0]
    assert len(cells) == 44 and set(cells.values()) == set(s.deck[:44])
    r = check_final(s)
    bd = s.history[0]["breakdowns"][0]
    assert set(bd["items"]) == {"lines", "bonuses", "ray", "penalty"}
    assert bd["items"]["penalty"] == (-60 if bd["dechetterie"]["value"] < 60 else 0)
    assert r.scores == [bd["total"]]
    v = ENGINE.view(s, 0)
    assert v["finished"] and v["final"]["scores"] == r.scores and v["expected"] == [] and v["tile"] is None
    json.dumps(v)


def test_lowest_dechetterie_variant_shares_the_penalty():
    s, _ = play(ENGINE.new_game(3, {"variante": "dechetterie-basse"}, 5))
    bds = s.history[0]["breakdowns"]
    values = [b["dechetterie"]["value"] for b in bds]
    assert [-b["items"]["penalty"] for b in bds] == shared_penalties(values, lowest=True)
    assert sum(-b["items"]["penalty"] for b in bds) == 60
    check_final(s)


def test_pass_the_dechetterie_variant():
    s = ENGINE.new_game(3, {"variante": "passe-dechetterie"}, 8)
    assert s.holders == (1, 2, 0)  # each board's Déchetterie is filled by the next seat
    tile = ENGINE.current_tile(s)
    assert legal_positions(s, 0)[0] == "X" and "X1" not in legal_positions(s, 0)
    refused(s, 0, {"type": "place", "tile": tile, "position": "X1"}, "limit.error.passed_dechetterie",
            position="X1", name="X")
    s1, _ = place(s, 1, "A1")
    s2, ev = place(s1, 0, "X")
    assert ev[1] == {"type": "passed", "seat": 0, "board": 0, "holder": 1, "tile": tile, "private_to": 1}
    assert s2.fills[0] == PENDING and ENGINE.expected(s2) == {1, 2}
    assert ENGINE.pending_fills(s2, 1) == [0]
    v1 = ENGINE.view(s2, 1)
    assert v1["fills"] == [{"board": 0, "seats": [0], "legal": list(DECHETTERIE.names)}]
    fill = {"type": "fill", "board": 0, "tile": tile, "position": "X4"}
    refused(s2, 2, fill, "limit.error.not_holder", board=0, holder=1)
    refused(s2, 1, {**fill, "board": 2}, "limit.error.not_holder")
    refused(s2, 1, {**fill, "board": 9}, "limit.error.bad_board", board="9")
    refused(s2, 1, {**fill, "position": "D4"}, "limit.error.not_dechetterie_cell", position="D4")
    refused(s1, 1, {**fill}, "limit.error.no_fill_pending", board=0)
    assert ENGINE.default_action(s2, 1) == {**fill, "position": "X1"}
    s3, ev = ENGINE.apply(s2, 1, fill)
    assert ev[0] == {"type": "filled", "seat": 1, "board": 0, "tile": tile, "position": "X4", "private_to": 1}
    # the holder and the owner see the tile on the Déchetterie; the third player does not, yet
    assert ENGINE.view(s3, 1)["boards"][0]["cells"] == {"X4": tile}
    assert ENGINE.view(s3, 0)["boards"][0]["cells"] == {"X4": tile}
    assert ENGINE.view(s3, 2)["boards"][0]["cells"] == {}
    s4, ev = place(s3, 2, "B2")
    assert ev[-2]["placements"][0] == {"board": 0, "position": "X", "fill": "X4"}
    assert ENGINE.view(s4, 2)["boards"][0]["cells"] == {"X4": tile}
    # once the Déchetterie is full, X is refused
    full = {x: ALL_TILE_IDS[-1 - i] for i, x in enumerate(DECHETTERIE.names)}
    s5 = replace(s4, boards=(full, s4.boards[1], s4.boards[2]))
    refused(s5, 0, {"type": "place", "tile": ENGINE.current_tile(s5), "position": "X"},
            "limit.error.dechetterie_full")
    end, _ = play(s4)
    bds = end.history[0]["breakdowns"]
    values = [b["dechetterie"]["value"] for b in bds]
    assert [-b["items"]["penalty"] for b in bds] == shared_penalties(values, lowest=False)
    check_final(end)


def test_no_dechetterie_variant():
    s = ENGINE.new_game(1, {"variante": "sans-dechetterie"}, 8)
    assert legal_positions(s, 0) == list(NEXUS.names)
    refused(s, 0, {"type": "place", "tile": ENGINE.current_tile(s), "position": "X1"},
            "limit.error.no_dechetterie", position="X1")
    refused(s, 0, {"type": "place", "tile": ENGINE.current_tile(s), "position": "X"}, "limit.error.no_dechetterie")
    end, _ = play(s)
    bd = end.history[0]["breakdowns"][0]
    assert set(bd["items"]) == {"lines", "bonuses", "ray"} and "dechetterie" not in bd
    assert len(end.boards[0]) == 37
    check_final(end)


def test_orchid_game_with_the_relocation_step():
    s = ENGINE.new_game(2, {"plateau": "orchidee"}, 77)
    tile = ENGINE.current_tile(s)
    assert TILES[tile].sun
    assert legal_positions(s, 0)[0] == "O" and legal_positions(s, 0)[1:] == list(ORCHIDEE.names)
    refused(s, 0, {"type": "place", "tile": tile, "position": "B"}, "limit.error.hole_at_end", position="B")
    refused(s, 0, {"type": "place", "tile": tile, "position": "D4"}, "limit.error.wrong_board", plateau=Phrase("limit.board.orchidee"))
    refused(s, 0, {"type": "place", "tile": tile, "position": "X1"}, "limit.error.wrong_board")
    s1, _ = place(s, 0, "O")
    assert ENGINE.view(s1, 1)["boards"][0]["orchid"] == [] and ENGINE.view(s1, 0)["boards"][0]["orchid"] == [tile]
    full = replace(s, orchids=(("1-2-3", "1-6-5", "1-7-8"), ()))
    refused(full, 0, {"type": "place", "tile": tile, "position": "O"}, "limit.error.orchid_full", capacity=3)
    assert "O" not in legal_positions(full, 0)
    # play to the relocation step
    while s.phase != RELOCATE:
        seat = min(ENGINE.expected(s))
        s, ev = ENGINE.apply(s, seat, ENGINE.ai_action(s, seat))
    assert ev[-1] == {"type": "relocation", "game": 1}
    assert all(len(o) == 3 for o in s.orchids) and all(len(b) == 22 for b in s.boards)
    assert ENGINE.expected(s) == {0, 1}
    v = ENGINE.view(s, 0)
    assert v["phase"] == "relocate" and v["relocation"]["best"] == ENGINE.relocation_choices(s, 0)[0]
    end, _ = play(s)
    check_final(end)
    for b, bd in enumerate(end.history[0]["breakdowns"]):
        assert set(bd["items"]) == {"lines", "bonuses"}
        moved = end.history[0]["relocations"][b]
        assert sorted(bd["unplaced"]) == sorted(t for t in end.orchids[b] if t not in moved.values())


def test_orchid_64_counts_rays():
    s, _ = play(ENGINE.new_game(1, {"plateau": "orchidee", "variante": "orchidee-64"}, 3))
    bd = s.history[0]["breakdowns"][0]
    assert set(bd["items"]) == {"lines", "bonuses", "ray"}
    # an orchid row is a ray only if all its tiles are suns (or all moons)
    row_a = {"19": "1-2-3", "20": "1-2-8", "21": "1-6-5", "22": "1-7-3"}  # four suns
    assert score_orchid(row_a, rays=True)["ray"]["length"] == 4
    assert score_orchid({**row_a, "A": "4-6-5"}, rays=True)["ray"] is None  # a moon in the hole
    assert score_orchid({**row_a, "A": "9-2-3"}, rays=True)["ray"]["length"] == 5
    check_final(s)


def test_pairs_share_a_board():
    s = ENGINE.new_game(4, {"paires": True}, 6)
    assert ENGINE.n_boards(s) == 2 and ENGINE.seats_of(s, 1) == [2, 3]
    s1, _ = place(s, 1, "C3")
    assert ENGINE.expected(s1) == {2, 3}
    refused(s1, 0, {"type": "place", "tile": ENGINE.current_tile(s1), "position": "C4"},
            "limit.error.already_placed", position="C3")
    assert ENGINE.view(s1, 0)["boards"][0]["cells"] == {"C3": ENGINE.current_tile(s1)}  # the partner sees it
    assert ENGINE.view(s1, 2)["boards"][0]["cells"] == {}
    end, _ = play(s1)
    r = check_final(end)
    assert r.scores[0] == r.scores[1] and r.scores[2] == r.scores[3]
    assert r.ranks[0] == r.ranks[1]


def test_a_series_sums_scores_and_passes_by_standings():
    s = ENGINE.new_game(3, {"variante": "passe-dechetterie", "serie": 2}, 15)
    s, events = play(s)
    kinds = [e["type"] for e in events]
    assert kinds.count("game_scored") == 2 and kinds.count("next_game") == 1
    assert len(s.history) == 2
    first, second = s.history
    assert [a + b for a, b in zip(first["scores"], second["scores"], strict=True)] == list(s.totals)
    order = sorted(range(3), key=lambda b: (-first["totals"][b], b))
    for k, b in enumerate(order):  # the leader passes to the second, ..., the last to the leader
        assert second["holders"][b] == order[(k + 1) % 3]
    assert first["holders"] == [1, 2, 0]
    assert ENGINE.view(s, 0)["history"] == [{"game": r["game"], "scores": r["scores"], "totals": r["totals"]}
                                            for r in s.history]
    check_final(s)


def test_series_deals_a_fresh_shuffle_each_game():
    s = ENGINE.new_game(1, {"serie": 2, "variante": "sans-dechetterie"}, 1)
    first_deck = s.deck
    while s.game_no == 0:
        s, ev = ENGINE.apply(s, 0, ENGINE.default_action(s, 0))
    assert s.deck != first_deck and s.boards == ({},) and s.round_no == 1
    assert [e["type"] for e in ev][-3:] == ["game_scored", "next_game", "announced"]
    v = ENGINE.view(s, 0)
    assert v["game_no"] == 2 and v["final"]["game"] == 1


def test_round_trip_and_determinism():
    s = ENGINE.new_game(2, {"variante": "passe-dechetterie", "serie": 2}, 99)
    for _ in range(30):
        seat = min(ENGINE.expected(s))
        s, _ = ENGINE.apply(s, seat, ENGINE.ai_action(s, seat))
        d = json.loads(json.dumps(ENGINE.to_dict(s)))
        assert ENGINE.from_dict(d) == s
    assert d["schema"] == ENGINE.SCHEMA
    with pytest.raises(ValueError):
        ENGINE.from_dict({**d, "schema": 99})
    a, _ = play(ENGINE.new_game(2, {}, 31))
    b, _ = play(ENGINE.new_game(2, {}, 31))
    assert ENGINE.to_dict(a) == ENGINE.to_dict(b)
    assert ENGINE.from_dict(json.loads(json.dumps(ENGINE.to_dict(a)))) == a
    c, _ = play(ENGINE.new_game(2, {"plateau": "orchidee", "serie": 2}, 5))
    assert ENGINE.from_dict(json.loads(json.dumps(ENGINE.to_dict(c)))) == c
    o = orchid_relocation_state()
    assert ENGINE.from_dict(json.loads(json.dumps(ENGINE.to_dict(o)))) == o


def test_game_over_refuses_everything():
    s, _ = play(ENGINE.new_game(1, {"variante": "sans-dechetterie"}, 2))
    refused(s, 0, {"type": "place", "tile": "1-2-3", "position": "A1"}, "common.error.game_over")
    assert ENGINE.legal_actions(s, 0) == [] and ENGINE.expected(s) == set()
    with pytest.raises(RuleError):
        ENGINE.default_action(s, 0)


def test_views_are_json_safe_and_complete():
    s = ENGINE.new_game(2, {}, 3)
    v = ENGINE.view(s, 0)
    json.dumps(v)
    assert v["tile"]["id"] == ENGINE.current_tile(s) and v["legal"] == legal_positions(s, 0)
    assert {c["name"] for c in v["layout"]["main"]} == set(NEXUS.names)
    assert {c["name"] for c in v["layout"]["dechetterie"]} == set(DECHETTERIE.names)
    assert v["tiles"][ENGINE.current_tile(s)]["colours"] == list(TILES[ENGINE.current_tile(s)].colours)
    spectator = ENGINE.view(s, None)
    assert spectator["legal"] == [] and spectator["board"] is None
    # the view never shows tiles still in the deck
    future = set(s.deck[1:])
    assert not future & set(v["tiles"])


# --- catalogs --------------------------------------------------------------------------

def engine_keys():
    src = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "engines" / "limit").glob("*.py"))
    return set(re.findall(r'RuleError\(\s*"([a-z_]+\.error\.[a-z_]+)"', src))


def test_every_error_key_and_event_has_a_message_in_both_languages():
    keys = engine_keys()
    assert "limit.error.stale_tile" in keys and len(keys) > 25
    for key in keys:
        assert i18n.has(key, "fr") and i18n.has(key, "en"), key
    src = (ROOT / "engines" / "limit" / "engine.py").read_text(encoding="utf-8")
    events = set(re.findall(r'"type": "([a-z_]+)"', src)) - {"place", "fill", "relocate"}
    assert {"announced", "placed", "passed", "filled", "waiting", "round_closed", "relocation", "relocated",
            "game_scored", "next_game", "game_over"} <= events
    for ev in events:
        assert i18n.has(f"limit.event.{ev}", "fr") and i18n.has(f"limit.event.{ev}", "en"), ev
    for lang in ("fr", "en"):
        assert len(i18n.t("limit.rules.page_1", lang)) <= 1800
        for opt in ENGINE.options:
            assert i18n.has(f"limit.option.{opt.name}", lang)
            for choice in opt.choices or ():
                assert i18n.has(f"limit.choice.{choice}", lang), choice
        for t in TILES.values():
            for c in t.colours:
                assert i18n.has(f"limit.colour.{c}", lang)
