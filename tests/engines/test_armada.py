"""L'Invincible Armada: every rule is a test (docs/rules/armada.md, ../shared/rules/invincible-armada.md)."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from bot import i18n
from engines import get
from engines.armada import (
    ENGINE,
    ENGLAND_LIMIT,
    EVENT_TYPES,
    FLEET,
    PLY_LIMIT,
    TO_WIN,
    State,
    capture_choices,
    legal_points,
    movable_points,
    pivot_choices,
)
from engines.armada.board import DIRS, EMPTY, ENGLAND, SPAIN, geometry, three_aligned
from engines.base import RuleError

LETTERS = "ABCDEFGHIJK"


def pt(x: int, y: int) -> str:
    """Point name of column ``x`` (0 = A) and row ``y`` (0 = row 1)."""
    return f"{LETTERS[x]}{y + 1}"


def make(spain=(), england=(), turn="spain", size="11x11", captures=(0, 0), spain_reserve=None,
         england_reserve=None, **extra) -> State:
    """A position: ships on the named points, reserves counted from them unless given."""
    state = ENGINE.new_game(2, {"plateau": size}, seed=7)
    geo = geometry(state.size)
    board = [EMPTY] * (state.size * state.size)
    for name in spain:
        board[geo.index[name]] = SPAIN
    for name in england:
        board[geo.index[name]] = ENGLAND
    if spain_reserve is None:
        spain_reserve = FLEET - len(spain) - captures[1]
    if england_reserve is None:
        england_reserve = FLEET - len(england) - captures[0]
    return replace(state, board=tuple(board), turn=SPAIN if turn == "spain" else ENGLAND,
                   reserve=(spain_reserve, england_reserve), captures=captures, **extra)


def ships(state: State, side: int) -> set[str]:
    geo = geometry(state.size)
    return {geo.names[p] for p, c in enumerate(state.board) if c == side}


def refused(state: State, seat: int, action: dict, key: str) -> RuleError:
    before = ENGINE.to_dict(state)
    with pytest.raises(RuleError) as info:
        ENGINE.apply(state, seat, action)
    assert info.value.key == key, info.value.params
    assert ENGINE.to_dict(state) == before  # nothing changed
    return info.value


def types(events):
    return [e["type"] for e in events]


# --- setup, options, names ------------------------------------------------------------------------

def test_registry_and_protocol():
    assert get("armada") is ENGINE
    assert (ENGINE.min_players, ENGINE.max_players, ENGINE.has_ai, ENGINE.simultaneous) == (2, 2, True, False)


@pytest.mark.parametrize("choice,size,last", [("11x11", 11, "K11"), ("10x10", 10, "J10"), ("9x9", 9, "I9")])
def test_board_options(choice, size, last):
    state = ENGINE.new_game(2, {"plateau": choice}, seed=1)
    view = ENGINE.view(state, None)
    assert view["size"] == size and len(state.board) == size * size
    assert geometry(size).names[0] == "A1" and geometry(size).names[-1] == last
    assert len(legal_points(state, 0)) == size * size
    # a point outside the smaller board is refused with its name and the board's last point
    if size < 11:
        err = refused(state, 0, {"type": "place", "point": "K11"}, "armada.error.bad_point")
        assert err.params == {"point": "K11", "last": last}


def test_default_board_is_11_by_11_and_bad_options_refused():
    assert ENGINE.new_game(2, None, seed=1).size == 11
    with pytest.raises(RuleError) as info:
        ENGINE.new_game(2, {"plateau": "8x8"}, seed=1)
    assert info.value.key == "common.error.bad_option"
    with pytest.raises(RuleError) as info:
        ENGINE.new_game(2, {"couleur": "rouge"}, seed=1)
    assert info.value.key == "common.error.unknown_option"
    with pytest.raises(RuleError) as info:
        ENGINE.new_game(3, None, seed=1)
    assert info.value.key == "common.error.player_count"


def test_point_names_are_case_and_space_insensitive():
    state = ENGINE.new_game(2, None, seed=1)
    new, _ = ENGINE.apply(state, 0, {"type": "place", "point": " c 4 "})
    assert ships(new, SPAIN) == {"C4"}


def test_spain_starts_seat_zero_then_alternate():
    state = ENGINE.new_game(2, None, seed=1)
    assert ENGINE.expected(state) == {0}
    view = ENGINE.view(state, None)
    assert view["sides"] == {"spain": 0, "england": 1} and view["side_of_seat"] == ["spain", "england"]
    state, events = ENGINE.apply(state, 0, {"type": "place", "point": "F6"})
    assert ENGINE.expected(state) == {1} and events[-1] == {"type": "turn", "seat": 1, "side": "england"}
    assert state.reserve == (FLEET - 1, FLEET)


# --- Spain: lines, range, the single choice -----------------------------------------------------------

@pytest.mark.parametrize("d", DIRS)
def test_spain_captures_in_every_direction_at_range_limit(d):
    dx, dy = d
    # line of two: F6 (already there) + the placed ship; range 2 beyond the new end
    placed = pt(5 + dx, 5 + dy)
    target = pt(5 + 3 * dx, 5 + 3 * dy)  # 2 points beyond the end: exactly at the limit
    state = make(spain=["F6"], england=[target])
    new, events = ENGINE.apply(state, 0, {"type": "place", "point": placed})
    assert target not in ships(new, ENGLAND)
    assert {"type": "captured", "seat": 0, "side": "spain", "point": target, "total": 1,
            "needed": TO_WIN} in events
    assert new.captures == (1, 0)


@pytest.mark.parametrize("d", DIRS)
def test_spain_range_one_beyond_the_limit_is_safe(d):
    dx, dy = d
    placed = pt(5 + dx, 5 + dy)
    target = pt(5 + 4 * dx, 5 + 4 * dy)  # 3 points beyond a line of 2
    state = make(spain=["F6"], england=[target])
    new, events = ENGINE.apply(state, 0, {"type": "place", "point": placed})
    assert target in ships(new, ENGLAND) and "captured" not in types(events)


@pytest.mark.parametrize("d", DIRS)
def test_spain_captures_behind_the_line_too(d):
    dx, dy = d
    placed = pt(5 + dx, 5 + dy)
    behind = pt(5 - 2 * dx, 5 - 2 * dy)  # 2 beyond the old end, on the other side
    new, _ = ENGINE.apply(make(spain=["F6"], england=[behind]), 0, {"type": "place", "point": placed})
    assert behind not in ships(new, ENGLAND)
    too_far = pt(5 - 3 * dx, 5 - 3 * dy)
    new, _ = ENGINE.apply(make(spain=["F6"], england=[too_far]), 0, {"type": "place", "point": placed})
    assert too_far in ships(new, ENGLAND)


def test_seed_example_two_ships_ship_one_in_range_ship_two_not():
    # 2 Spanish ships in a row: range 2. English 1 at 2 points beyond, English 2 at 3.
    state = make(spain=["C5"], england=["F5", "G5"])
    new, events = ENGINE.apply(state, 0, {"type": "place", "point": "D5"})
    assert ships(new, ENGLAND) == {"G5"}
    assert [e["point"] for e in events if e["type"] == "captured"] == ["F5"]


@pytest.mark.parametrize("length", [3, 4, 5])
def test_range_equals_number_of_ships(length):
    line = [pt(x, 2) for x in range(length - 1)]  # A3.. ; the placed ship completes the line
    placed = pt(length - 1, 2)
    at_limit = pt(length - 1 + length, 2)
    beyond = pt(length - 1 + length + 1, 2) if length - 1 + length + 1 < 11 else None
    new, _ = ENGINE.apply(make(spain=line, england=[at_limit]), 0, {"type": "place", "point": placed})
    assert at_limit not in ships(new, ENGLAND)
    if beyond:
        new, _ = ENGINE.apply(make(spain=line, england=[beyond]), 0, {"type": "place", "point": placed})
        assert beyond in ships(new, ENGLAND)


def test_seed_example_three_ships_takes_only_one_and_spain_chooses():
    # 3 in a row (range 3): English 1 and 2 in range, English 3 not; Spain takes ONE of 1 and 2.
    state = make(spain=["B4", "C4"], england=["E4", "F4", "H4"])
    new, events = ENGINE.apply(state, 0, {"type": "place", "point": "D4"})
    assert new.pending and types(events)[-1] == "capture_pending"
    assert events[-1]["choices"] == ["E4", "F4"]
    assert ENGINE.expected(new) == {0}  # still Spain's decision
    assert capture_choices(new, 0) == ["E4", "F4"]
    assert ENGINE.legal_actions(new, 0) == [{"type": "capture", "point": "E4"},
                                            {"type": "capture", "point": "F4"}]
    assert ENGINE.view(new, None)["phase"] == "capture"
    done, events = ENGINE.apply(new, 0, {"type": "capture", "point": "F4"})
    assert ships(done, ENGLAND) == {"E4", "H4"} and done.captures == (1, 0)
    assert ENGINE.expected(done) == {1} and done.last_move["captured"] == "F4"


def test_shielding_decision_nearer_english_ship_does_not_shield():
    # the further ship may be chosen although a nearer English ship stands between
    state = make(spain=["B4", "C4"], england=["E4", "F4"])
    new, _ = ENGINE.apply(state, 0, {"type": "place", "point": "D4", "capture": "F4"})
    assert ships(new, ENGLAND) == {"E4"}
    # and a Spanish ship between the line and the target does not shield either
    state = make(spain=["B4", "C4", "F4"], england=["G4"])
    new, _ = ENGINE.apply(state, 0, {"type": "place", "point": "D4"})  # B4-D4 run; F4 not adjacent
    assert "G4" not in ships(new, ENGLAND)


def test_capture_choice_given_with_the_move_and_capture_choices_helper():
    state = make(spain=["B4", "C4"], england=["E4", "F4"])
    assert capture_choices(state, 0, {"type": "place", "point": "D4"}) == ["E4", "F4"]
    assert capture_choices(state, 0, {"type": "place", "point": "K11"}) == []
    with pytest.raises(RuleError):
        capture_choices(state, 0, {"type": "place", "point": "B4"})
    err = refused(state, 0, {"type": "place", "point": "D4", "capture": "H4"}, "armada.error.not_a_target")
    assert err.params == {"point": "H4", "choices": "E4, F4"}
    refused(state, 0, {"type": "place", "point": "K11", "capture": "E4"}, "armada.error.not_a_target")
    listed = [a for a in ENGINE.legal_actions(state, 0) if a.get("point") == "D4"]
    assert listed == [{"type": "place", "point": "D4", "capture": "E4"},
                      {"type": "place", "point": "D4", "capture": "F4"}]


def test_one_capture_even_with_lines_in_two_directions():
    # D4 makes a row C4-D4 and a column D3-D4: targets in both lines, one capture only
    state = make(spain=["C4", "D3"], england=["F4", "D6"])
    new, events = ENGINE.apply(state, 0, {"type": "place", "point": "D4"})
    assert new.pending == tuple(sorted(geometry(11).index[p] for p in ("F4", "D6")))
    done, _ = ENGINE.apply(new, 0, {"type": "capture", "point": "D6"})
    assert ships(done, ENGLAND) == {"F4"} and done.captures == (1, 0)


def test_single_ship_and_unrelated_lines_do_not_capture():
    # a lone ship is no line
    new, events = ENGINE.apply(make(england=["G6"]), 0, {"type": "place", "point": "F6"})
    assert "G6" in ships(new, ENGLAND) and "captured" not in types(events)
    # an old line aiming at an English ship fires only when the placed ship makes or extends it
    new, events = ENGINE.apply(make(spain=["C3", "D3"], england=["E3"]), 0, {"type": "place", "point": "J9"})
    assert "E3" in ships(new, ENGLAND) and "captured" not in types(events)
    # a broken line is no line: C3 . E3 with the ship placed on F3 makes E3-F3 only (range 2)
    new, _ = ENGINE.apply(make(spain=["C3", "E3"], england=["I3"]), 0, {"type": "place", "point": "F3"})
    assert "I3" in ships(new, ENGLAND)


def test_last_lines_and_ranges_in_the_view():
    state = make(spain=["B4", "C4", "D5"], england=["H8"])
    new, _ = ENGINE.apply(state, 0, {"type": "place", "point": "D4"})
    lines = ENGINE.view(new, None)["last_lines"]
    row = next(li for li in lines if li["line"] == ["B4", "C4", "D4"])
    assert row["range"] == 3 and row["reach"] == ["A4", "E4", "F4", "G4"]
    col = next(li for li in lines if li["line"] == ["D4", "D5"])
    assert col["range"] == 2 and col["reach"] == ["D2", "D3", "D6", "D7"]


# --- Spain's re-placement ---------------------------------------------------------------------------

def full_spain(extra=()):
    """Spain with all 20 placed: ships on rows 11 and 1 (A11..K11, A1..), plus ``extra``."""
    base = [pt(x, 10) for x in range(11)] + [pt(x, 0) for x in range(11)]
    base = base[: FLEET - len(extra)] + list(extra)
    assert len(set(base)) == FLEET
    return base


def test_spain_moves_only_once_all_twenty_are_down():
    state = make(spain=["C3"])
    refused(state, 0, {"type": "move", "from": "C3", "to": "D4"}, "armada.error.reserve_left")
    assert movable_points(state, 0) == []
    full = make(spain=full_spain(), spain_reserve=0)
    err = refused(full, 0, {"type": "place", "point": "F6"}, "armada.error.spain_reserve_empty")
    assert err.params == {"fleet": FLEET}
    assert len(movable_points(full, 0)) == FLEET
    assert ENGINE.view(full, None)["spain_must_move"] is True
    new, events = ENGINE.apply(full, 0, {"type": "move", "from": "A11", "to": "F6"})
    assert "A11" not in ships(new, SPAIN) and "F6" in ships(new, SPAIN)
    assert events[0] == {"type": "moved", "seat": 0, "side": "spain", "from": "A11", "to": "F6"}
    assert new.reserve[0] == 0


def test_spain_move_refusals():
    full = make(spain=full_spain(), england=["F5"], spain_reserve=0)
    refused(full, 0, {"type": "move", "from": "F6", "to": "F7"}, "armada.error.not_your_ship")
    refused(full, 0, {"type": "move", "from": "A11", "to": "A11"}, "armada.error.same_point")
    refused(full, 0, {"type": "move", "from": "A11", "to": "B11"}, "armada.error.occupied")
    refused(full, 0, {"type": "move", "from": "A11", "to": "F5"}, "armada.error.occupied")
    refused(full, 0, {"type": "move", "from": "A11"}, "armada.error.missing_point")
    refused(full, 0, {"type": "move", "from": "Z99", "to": "F6"}, "armada.error.bad_point")


def test_spain_move_captures_with_the_line_it_makes():
    # lift the ship on C1 and put it on E5 next to D5: line D5-E5 reaches G5
    spain = full_spain(extra=["D5"])
    state = make(spain=spain, england=["G5"], spain_reserve=0)
    assert "C1" in spain
    new, events = ENGINE.apply(state, 0, {"type": "move", "from": "C1", "to": "E5"})
    assert "G5" not in ships(new, ENGLAND) and "captured" in types(events)


def test_spain_move_along_its_own_line_lifts_the_ship_first():
    # line B6-C6-D6 (range 3): lift B6 and place E6 -> C6-D6-E6, range 3 reaches H6 but also B6..?
    spain = full_spain(extra=["B6", "C6", "D6"])
    state = make(spain=spain, england=["H6", "A6"], spain_reserve=0)
    assert capture_choices(state, 0, {"type": "move", "from": "B6", "to": "E6"}) == ["A6", "H6"]
    # lifting the middle ship breaks the line: E6 joins D6 only (range 2): H6 is 3 away
    assert capture_choices(state, 0, {"type": "move", "from": "C6", "to": "E6"}) == []


# --- England: the 5-ship limit, no three aligned, the forced pair --------------------------------------

def test_england_five_ship_limit_forces_a_pivot():
    state = make(england=["B2", "C2", "F6", "H8", "K1"], turn="england")
    err = refused(state, 1, {"type": "place", "point": "D9"}, "armada.error.fleet_full")
    assert err.params == {"limit": ENGLAND_LIMIT}
    assert legal_points(state, 1) == []
    assert pivot_choices(state, 1)  # the pair B2-C2 may pivot
    assert all(a["type"] == "pivot" for a in ENGINE.legal_actions(state, 1))


@pytest.mark.parametrize("pair,third", [
    (("C3", "D3"), "E3"), (("C3", "D3"), "B3"), (("C3", "C4"), "C5"), (("C3", "D4"), "E5"),
    (("D3", "C4"), "B5"), (("C3", "E3"), "D3"),  # filling the middle of C3 . E3 aligns three too
])
def test_no_three_english_ships_aligned(pair, third):
    state = make(england=list(pair), turn="england")
    err = refused(state, 1, {"type": "place", "point": third}, "armada.error.three_aligned")
    assert err.params["point"] == third and len(err.params["line"].split("-")) == 3
    assert third not in legal_points(state, 1)


def test_two_aligned_with_a_gap_and_bent_groups_are_allowed():
    # C3 D3 . F3: not three in a row; an L shape C3-D3-D4 is not aligned either (decision)
    state = make(england=["C3", "D3"], turn="england")
    new, _ = ENGINE.apply(state, 1, {"type": "place", "point": "F3"})
    assert ships(new, ENGLAND) == {"C3", "D3", "F3"}
    new, _ = ENGINE.apply(state, 1, {"type": "place", "point": "D4"})
    assert ships(new, ENGLAND) == {"C3", "D3", "D4"}
    view = ENGINE.view(new, None)
    assert sorted(map(sorted, view["pairs"])) == [["C3", "D3"], ["C3", "D4"], ["D3", "D4"]]


def test_fifth_ship_must_form_a_pair_when_four_are_free():
    state = make(england=["B2", "F2", "B8", "H8"], turn="england")
    err = refused(state, 1, {"type": "place", "point": "F6"}, "armada.error.must_pair")
    assert err.params == {"point": "F6"}
    points = legal_points(state, 1)
    geo = geometry(11)
    assert points and all(any(q in geo.neighbour_sets[geo.index[p]] for q in
                              (geo.index[s] for s in ("B2", "F2", "B8", "H8"))) for p in points)
    new, _ = ENGINE.apply(state, 1, {"type": "place", "point": "C3"})
    assert len(ships(new, ENGLAND)) == 5 and ["B2", "C3"] in ENGINE.view(new, None)["pairs"]


def test_fifth_ship_is_free_when_a_pair_already_exists():
    state = make(england=["B2", "C2", "B8", "H8"], turn="england")
    new, _ = ENGINE.apply(state, 1, {"type": "place", "point": "F6"})
    assert "F6" in ships(new, ENGLAND)


def test_seed_example_fifth_ship_pairs_and_captures():
    # 4 free ships; the 5th, next to ship 4 (H8), forms a pair aimed at the Spanish ship on J8
    state = make(spain=["J8", "C9"], england=["B2", "F2", "B6", "H8"], turn="england")
    refused(state, 1, {"type": "place", "point": "E9"}, "armada.error.must_pair")
    new, events = ENGINE.apply(state, 1, {"type": "place", "point": "G8"})
    assert "J8" in ships(new, SPAIN)  # G8-H8 aims at I8 (empty) and F8: nothing
    new, events = ENGINE.apply(state, 1, {"type": "place", "point": "I8"})
    assert ships(new, SPAIN) == {"C9"} and new.captures == (0, 1)
    assert [e for e in events if e["type"] == "captured"][0]["point"] == "J8"


# --- England: pivots and pair captures ---------------------------------------------------------------

def test_seed_example_pivot_onto_the_seven_other_neighbours():
    state = make(england=["D4", "E4"], turn="england")
    choices = pivot_choices(state, 1, "E4")
    # the 8 neighbours of D4 minus E4 itself (C4 is fine: E4 has left, C4-D4 is just a pair)
    assert sorted(c["to"] for c in choices) == ["C3", "C4", "C5", "D3", "D5", "E3", "E5"]
    assert all(c["around"] == "D4" for c in choices)
    new, events = ENGINE.apply(state, 1, {"type": "pivot", "from": "E4", "to": "D5"})
    assert ships(new, ENGLAND) == {"D4", "D5"}
    assert events[0] == {"type": "pivoted", "seat": 1, "side": "england", "from": "E4", "to": "D5",
                         "around": "D4"}
    assert new.reserve == state.reserve  # a pivot uses no new ship


def test_pivot_refusals():
    state = make(spain=["E5"], england=["D4", "E4", "B4", "H9"], turn="england")
    err = refused(state, 1, {"type": "pivot", "from": "E4", "to": "F4"}, "armada.error.not_a_pivot")
    assert err.params == {"point": "E4", "to": "F4"}
    refused(state, 1, {"type": "pivot", "from": "E4", "to": "E5"}, "armada.error.occupied")
    refused(state, 1, {"type": "pivot", "from": "E4", "to": "E4"}, "armada.error.same_point")
    refused(state, 1, {"type": "pivot", "from": "H9", "to": "H10"}, "armada.error.not_in_pair")
    refused(state, 1, {"type": "pivot", "from": "F6", "to": "F7"}, "armada.error.not_your_ship")
    refused(state, 1, {"type": "pivot", "from": "E5", "to": "F6"}, "armada.error.not_your_ship")
    # E4 around D4 onto C4 would align B4-C4-D4
    err = refused(state, 1, {"type": "pivot", "from": "E4", "to": "C4"}, "armada.error.three_aligned")
    assert err.params["line"] == "B4-C4-D4"
    assert "C4" not in [c["to"] for c in pivot_choices(state, 1, "E4")]
    refused(state, 1, {"type": "pivot", "to": "E3"}, "armada.error.missing_point")
    # only England pivots, only Spain moves
    refused(make(spain=["C3", "C4"]), 0, {"type": "pivot", "from": "C3", "to": "D3"},
            "armada.error.pivot_england_only")
    refused(state, 1, {"type": "move", "from": "E4", "to": "F4"}, "armada.error.move_spain_only")


def test_seed_example_pair_takes_only_the_aligned_ship():
    # pair D4-E4 (placed E4); Spanish 1 on E5 and 2 on F5 touch it, 3 on F4 is in its alignment
    state = make(spain=["E5", "F5", "F4"], england=["D4"], turn="england")
    new, events = ENGINE.apply(state, 1, {"type": "place", "point": "E4"})
    assert ships(new, SPAIN) == {"E5", "F5"}
    assert [e["point"] for e in events if e["type"] == "captured"] == ["F4"]


@pytest.mark.parametrize("d", DIRS)
def test_england_pair_captures_in_every_direction(d):
    dx, dy = d
    placed = pt(5 + dx, 5 + dy)
    ahead, behind, too_far = pt(5 + 2 * dx, 5 + 2 * dy), pt(5 - dx, 5 - dy), pt(5 + 3 * dx, 5 + 3 * dy)
    new, _ = ENGINE.apply(make(spain=[ahead], england=["F6"], turn="england"), 1,
                          {"type": "place", "point": placed})
    assert ships(new, SPAIN) == set() and new.captures == (0, 1)
    new, _ = ENGINE.apply(make(spain=[behind], england=["F6"], turn="england"), 1,
                          {"type": "place", "point": placed})
    assert ships(new, SPAIN) == set()
    new, _ = ENGINE.apply(make(spain=[too_far], england=["F6"], turn="england"), 1,
                          {"type": "place", "point": placed})
    assert ships(new, SPAIN) == {too_far}


def test_pivot_pointing_the_pair_at_a_spanish_ship_captures_it():
    state = make(spain=["D6"], england=["D4", "E4"], turn="england")
    new, events = ENGINE.apply(state, 1, {"type": "pivot", "from": "E4", "to": "D5"})
    assert ships(new, SPAIN) == set() and new.captures == (0, 1)
    assert new.last_move == {"type": "pivot", "seat": 1, "side": "england", "from": "E4", "to": "D5",
                             "around": "D4", "captured": "D6"}


def test_england_chooses_between_both_ends_of_a_pair():
    state = make(spain=["C4", "F4"], england=["D4"], turn="england")
    new, events = ENGINE.apply(state, 1, {"type": "place", "point": "E4"})
    assert events[-1] == {"type": "capture_pending", "seat": 1, "side": "england", "choices": ["C4", "F4"]}
    done, _ = ENGINE.apply(new, 1, {"type": "capture", "choice": "C4"})
    assert ships(done, SPAIN) == {"F4"}


def test_an_existing_pair_does_not_fire_without_being_formed():
    # the pair D4-E4 already aims at F4; placing a free ship elsewhere takes nothing
    state = make(spain=["F4"], england=["D4", "E4"], turn="england")
    new, events = ENGINE.apply(state, 1, {"type": "place", "point": "J10"})
    assert ships(new, SPAIN) == {"F4"} and "captured" not in types(events)


# --- pending captures, passing, generic refusals ------------------------------------------------------

def test_pending_capture_refusals():
    state = make(spain=["B4", "C4"], england=["E4", "F4"])
    refused(state, 0, {"type": "capture", "point": "E4"}, "armada.error.no_capture_pending")
    pending, _ = ENGINE.apply(state, 0, {"type": "place", "point": "D4"})
    err = refused(pending, 0, {"type": "place", "point": "J9"}, "armada.error.capture_pending")
    assert err.params == {"choices": "E4, F4"}
    err = refused(pending, 0, {"type": "capture", "point": "A1"}, "armada.error.not_a_target")
    assert err.params == {"point": "A1", "choices": "E4, F4"}
    refused(pending, 0, {"type": "capture", "point": "Q7"}, "armada.error.bad_point")
    refused(pending, 0, {"type": "capture"}, "armada.error.missing_point")
    refused(pending, 1, {"type": "capture", "point": "E4"}, "common.error.not_your_turn")


def test_generic_refusals():
    state = make(spain=["C3"], england=["D5"])
    refused(state, 1, {"type": "place", "point": "F6"}, "common.error.not_your_turn")
    refused(state, 0, {"type": "fire"}, "common.error.unknown_action")
    refused(state, 0, {"type": "place", "point": "C3"}, "armada.error.occupied")
    refused(state, 0, {"type": "place", "point": "D5"}, "armada.error.occupied")
    refused(state, 0, {"type": "place"}, "armada.error.missing_point")
    refused(state, 0, {"type": "place", "point": "L1"}, "armada.error.bad_point")
    refused(state, 0, {"type": "place", "point": 12}, "armada.error.bad_point")
    refused(state, 0, {"type": "pass"}, "armada.error.cannot_pass")
    with pytest.raises(RuleError) as info:
        ENGINE.apply(state, 0, "place C4")  # type: ignore[arg-type]
    assert info.value.key == "common.error.unknown_action"
    eng = make(england=["C3"], turn="england")
    refused(eng, 1, {"type": "place", "point": "C3"}, "armada.error.occupied")
    refused(make(england=["C3"], turn="england", england_reserve=0), 1, {"type": "place", "point": "H7"},
            "armada.error.reserve_empty")
    over, _ = ENGINE.apply(state, 1, {"type": "resign"})
    refused(over, 0, {"type": "place", "point": "F6"}, "common.error.game_over")
    refused(over, 0, {"type": "resign"}, "common.error.game_over")


def test_england_with_no_legal_move_passes():
    # the pair A1-B1 boxed in by Spanish ships, 5 English ships: no pivot, no placement
    spain = ["A2", "B2", "C2", "C1"]
    england = ["A1", "B1", "F6", "H6", "F9"]
    state = make(spain=spain, england=england, turn="england")
    assert ENGINE.legal_actions(state, 1) == [{"type": "pass"}]
    new, events = ENGINE.apply(state, 1, {"type": "pass"})
    assert types(events) == ["passed", "turn"] and ENGINE.expected(new) == {0}
    assert ENGINE.ai_action(state, 1) == {"type": "pass"}


# --- rounds, scoring, side swap, tie-break -----------------------------------------------------------

def test_round_ends_at_eleven_captures_and_scores_eleven_minus_losers():
    state = make(spain=["C5"], england=["F5"], captures=(TO_WIN - 1, 4))
    new, events = ENGINE.apply(state, 0, {"type": "place", "point": "D5"})
    over = next(e for e in events if e["type"] == "round_over")
    assert over == {"type": "round_over", "round": 1, "winner": 0, "side": "spain", "points": 11 - 4,
                    "reason": "captures", "spain_captures": 11, "england_captures": 4, "scores": [7, 0]}
    assert new.scores == (7, 0) and new.rounds[0]["winner"] == 0
    # round 2: sides swapped, fresh board and reserves, Spain (now seat 1) starts
    assert new.round_no == 2 and new.spain_seat == 1 and ENGINE.expected(new) == {1}
    assert new.board == (EMPTY,) * 121 and new.reserve == (FLEET, FLEET) and new.captures == (0, 0)
    assert {"type": "round_started", "round": 2, "tiebreak": False, "spain_seat": 1,
            "england_seat": 0} in events
    view = ENGINE.view(new, 0)
    assert view["side_of_seat"] == ["england", "spain"] and view["round"] == 2
    assert view["previous_round"]["spain"] == ["C5", "D5"] and view["previous_round"]["england"] == []
    assert view["previous_round"]["last_move"]["captured"] == "F5"


def test_england_can_win_a_round():
    state = make(spain=["F4"], england=["D4"], turn="england", captures=(3, TO_WIN - 1))
    new, events = ENGINE.apply(state, 1, {"type": "place", "point": "E4"})
    over = next(e for e in events if e["type"] == "round_over")
    assert over["winner"] == 1 and over["side"] == "england" and over["points"] == 8
    assert new.scores == (0, 8)


def finish_round(state: State, winner_side: str, loser_caps: int) -> tuple[State, list]:
    """Play the winning capture of the current round from a set-up position."""
    spain_seat = state.spain_seat
    if winner_side == "spain":
        pos = make(spain=["C5"], england=["F5"], captures=(TO_WIN - 1, loser_caps))
        action = {"type": "place", "point": "D5"}
        seat = spain_seat
    else:
        pos = make(spain=["F4"], england=["D4"], turn="england", captures=(loser_caps, TO_WIN - 1))
        action = {"type": "place", "point": "E4"}
        seat = 1 - spain_seat
    pos = replace(pos, round_no=state.round_no, spain_seat=spain_seat, scores=state.scores,
                  rounds=state.rounds, first_spain=state.first_spain)
    return ENGINE.apply(pos, seat, action)


def test_two_rounds_then_the_higher_total_wins():
    state = ENGINE.new_game(2, None, seed=3)
    state, _ = finish_round(state, "spain", 4)  # seat 0 (Spain) scores 7
    assert state.round_no == 2 and state.spain_seat == 1
    state, events = finish_round(state, "spain", 6)  # seat 1 (Spain now) scores 5
    assert state.finished and state.scores == (7, 5)
    assert events[-1] == {"type": "game_over", "winners": [0], "scores": [7, 5]}
    result = ENGINE.result(state)
    assert result.scores == [7, 5] and result.ranks == [1, 2] and len(result.details["rounds"]) == 2
    assert ENGINE.expected(state) == set() and ENGINE.legal_actions(state, 0) == []


def test_tie_after_two_rounds_plays_a_third_round_with_first_round_sides():
    state = ENGINE.new_game(2, None, seed=3)
    state, _ = finish_round(state, "spain", 4)  # seat 0 (Spain): 7
    state, events = finish_round(state, "england", 4)  # seat 0 again (England now): 7 more
    assert state.scores == (14, 0) and state.finished and state.round_no == 2
    state = ENGINE.new_game(2, None, seed=3)
    state, _ = finish_round(state, "spain", 4)  # seat 0: 7
    state, events = finish_round(state, "spain", 4)  # seat 1 (Spain): 7 -> tie
    assert not state.finished and state.round_no == 3 and state.spain_seat == 0
    assert "tiebreak" in types(events)
    assert {"type": "round_started", "round": 3, "tiebreak": True, "spain_seat": 0,
            "england_seat": 1} in events
    assert ENGINE.view(state, None)["tiebreak"] is True
    state, events = finish_round(state, "england", 2)  # seat 1 (England) wins the decider: 9
    assert state.finished and state.scores == (7, 16) and ENGINE.result(state).ranks == [2, 1]


def test_ply_limit_stops_a_round_and_the_leader_scores_the_difference():
    state = make(spain=["C3"], england=["J9"], captures=(5, 3), ply=PLY_LIMIT - 1)
    new, events = ENGINE.apply(state, 0, {"type": "place", "point": "H1"})
    over = next(e for e in events if e["type"] == "round_over")
    assert over["reason"] == "limit" and over["winner"] == 0 and over["points"] == 2
    drawn = make(spain=["C3"], england=["J9"], captures=(4, 4), ply=PLY_LIMIT - 1)
    new, events = ENGINE.apply(drawn, 0, {"type": "place", "point": "H1"})
    assert "round_drawn" in types(events) and new.scores == (0, 0) and new.round_no == 2


def test_drawn_tiebreak_ends_the_game_drawn():
    state = make(spain=["C3"], england=["J9"], captures=(4, 4), ply=PLY_LIMIT - 1, round_no=3,
                 scores=(7, 7))
    new, events = ENGINE.apply(state, 0, {"type": "place", "point": "H1"})
    assert new.finished and ENGINE.result(new).ranks == [1, 1] and types(events)[-1] == "game_drawn"


def test_resign_ends_the_game_for_either_seat():
    state = make(spain=["C3"], scores=(9, 0), round_no=2, spain_seat=1)
    new, events = ENGINE.apply(state, 1, {"type": "resign"})
    assert events == [{"type": "resigned", "seat": 1}, {"type": "game_over", "winners": [0], "scores": [9, 0]}]
    assert ENGINE.result(new).ranks == [1, 2]
    new, _ = ENGINE.apply(state, 0, {"type": "resign"})  # not seat 0's turn: allowed anyway
    assert ENGINE.result(new).ranks == [2, 1] and ENGINE.view(new, 0)["resigned"] == 0


# --- persistence, views, catalogs ------------------------------------------------------------------

def random_game(seed: int, size: str = "11x11", stop: int | None = None) -> tuple[State, list[State]]:
    rng = random.Random(seed)
    state = ENGINE.new_game(2, {"plateau": size}, seed=seed)
    seen = [state]
    while not ENGINE.is_over(state) and (stop is None or len(seen) < stop):
        seat = next(iter(ENGINE.expected(state)))
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        seen.append(state)
    return state, seen


def test_round_trip_through_json():
    _, states = random_game(11, stop=400)
    pending = ENGINE.apply(make(spain=["B4", "C4"], england=["E4", "F4"]), 0,
                           {"type": "place", "point": "D4"})[0]
    for state in states[::7] + [states[-1], pending]:
        data = json.loads(json.dumps(ENGINE.to_dict(state)))
        back = ENGINE.from_dict(data)
        assert back == state and ENGINE.to_dict(back) == ENGINE.to_dict(state)
        assert ENGINE.view(back, 0) == ENGINE.view(state, 0)
    with pytest.raises(ValueError):
        ENGINE.from_dict({**ENGINE.to_dict(states[0]), "schema": 99})


def test_views_are_json_safe_public_and_complete():
    state, _ = random_game(5, stop=120)
    public = ENGINE.view(state, None)
    json.dumps(public)
    for seat in (0, 1):
        view = ENGINE.view(state, seat)
        assert {k: v for k, v in view.items() if k != "seat"} == \
               {k: v for k, v in public.items() if k != "seat"}  # nothing is hidden in this game
    for key in ("size", "columns", "spain", "england", "pairs", "round", "sides", "side_of_seat", "current",
                "turn_side", "phase", "captures", "to_win", "reserve", "scores", "last_lines", "last_move"):
        assert key in public
    assert public["columns"] == "ABCDEFGHIJK"


def test_determinism_from_the_seed():
    a, _ = random_game(21, stop=150)
    b, _ = random_game(21, stop=150)
    assert ENGINE.to_dict(a) == ENGINE.to_dict(b)
    assert ENGINE.ai_action(a, a.current) == ENGINE.ai_action(b, b.current)


ENGINE_DIR = Path(__file__).resolve().parents[2] / "engines" / "armada"


def test_every_error_key_is_in_both_catalogs():
    source = "\n".join(p.read_text() for p in ENGINE_DIR.glob("*.py"))
    keys = set(re.findall(r'"((?:armada|common)\.error\.[a-z_]+)"', source))
    assert len(keys) >= 20
    for key in keys:
        for lang in ("fr", "en"):
            assert i18n.has(key, lang), (key, lang)


def test_every_event_type_has_a_narration_and_every_emitted_event_is_known():
    for etype in EVENT_TYPES:
        for lang in ("fr", "en"):
            assert i18n.has(f"armada.event.{etype}", lang), (etype, lang)
    rng = random.Random(2)
    state = ENGINE.new_game(2, None, seed=2)
    seen = set()
    while not state.finished:
        seat = state.current
        state, events = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        seen |= set(types(events))
    assert seen <= set(EVENT_TYPES) and {"placed", "captured", "round_over", "game_over"} <= seen


def test_catalog_templates_format_with_the_event_params():
    samples = [
        {"type": "placed", "seat": "Ana", "side": "spain", "point": "C4"},
        {"type": "moved", "seat": "Ana", "side": "spain", "from": "C4", "to": "D5"},
        {"type": "pivoted", "seat": "Bob", "side": "england", "from": "C4", "to": "D5", "around": "C5"},
        {"type": "captured", "seat": "Ana", "side": "spain", "point": "C4", "total": 3, "needed": 11},
        {"type": "capture_pending", "seat": "Ana", "side": "spain", "choices": "C4, D4"},
        {"type": "round_over", "round": 1, "winner": "Ana", "side": "spain", "points": 7, "reason": "captures",
         "spain_captures": 11, "england_captures": 4, "scores": "7, 0"},
    ]
    for event in samples:
        for lang in ("fr", "en"):
            text = i18n.t(f"armada.event.{event['type']}", lang, **event)
            assert "{" not in text, text
    for lang in ("fr", "en"):
        assert len(i18n.t("armada.rules.page_1", lang)) <= 1800
        assert i18n.has("armada.name.title", lang)


def test_invariants_hold_through_random_games():
    check_random_games([(1, "11x11"), (2, "10x10"), (3, "9x9"), (4, "11x11"), (5, "9x9"), (6, "10x10")])


@pytest.mark.slow
def test_invariants_hold_through_many_random_games():
    check_random_games([(100 + i, ("11x11", "10x10", "9x9")[i % 3]) for i in range(40)])


def check_random_games(games: list[tuple[int, str]]) -> None:
    """Play complete random games (uniform over legal_actions): no exception, invariants, an end."""
    for seed, size in games:
        rng = random.Random(seed)
        state = ENGINE.new_game(2, {"plateau": size}, seed=seed)
        steps = 0
        while not state.finished:
            seat = state.current
            actions = ENGINE.legal_actions(state, seat)
            assert actions and ENGINE.legal_actions(state, 1 - seat) == []
            state, _ = ENGINE.apply(state, seat, rng.choice(actions))
            steps += 1
            geo = geometry(state.size)
            spain = [p for p, c in enumerate(state.board) if c == SPAIN]
            england = [p for p, c in enumerate(state.board) if c == ENGLAND]
            assert len(england) <= ENGLAND_LIMIT
            assert all(three_aligned(state.board, p, geo) is None for p in england)
            if not state.finished:
                assert len(spain) + state.reserve[0] + state.captures[1] == FLEET
                assert len(england) + state.reserve[1] + state.captures[0] == FLEET
                assert max(state.captures) < TO_WIN and state.ply < PLY_LIMIT
                assert len(state.pending) != 1
        assert steps < 3 * PLY_LIMIT + 10
        assert len(state.rounds) in (2, 3) and ENGINE.result(state) is not None
