"""Tectonic rules: board and setup, the three movement patterns, blocking, flips, red pieces coming
back (recolour / substitution / empty reserve), both wins, no-move loss, threefold repetition,
every refusal with its key and an unchanged state, views, persistence, catalogs, random games."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from bot import i18n
from bot.narrate import narrate
from engines import get
from engines.base import RuleError
from engines.tectonic import ENGINE, core, flip_choices, legal_destinations, legal_sources
from engines.tectonic.engine import ERROR_KEYS, EVENT_TYPES, REASONS

# --- helpers -----------------------------------------------------------------------------------
# Position letters (core.CHARS): C P M = White colline/pic/mont, c p m = Black's,
# 1 2 3 = red pieces owned by White (colline/pic/mont), 4 5 6 = red pieces owned by Black.


def position(pieces: dict[str, str], current: int = 0, reserves=(1, 1, 1, 1, 1, 1), pic_backward="droit"):
    board = ["."] * 100
    for cell, ch in pieces.items():
        board[core.parse_cell(cell)] = ch
    text = "".join(board)
    state = ENGINE.new_game(2, {"pic_backward": pic_backward}, seed=7)
    key = core.position_key(core.board_from_text(text), list(reserves), current)
    return replace(state, board=text, reserves=tuple(reserves), current=current, history={key: 1})


def at(state, cell: str) -> str:
    return state.board[core.parse_cell(cell)]


def move(frm: str, to: str, flip: str | None = None) -> dict:
    return {"type": "move", "from": frm, "to": to, "flip": flip}


def dests(state, cell: str) -> set[str]:
    return set(legal_destinations(state, state.current, cell))


def refused(state, seat: int, act, key: str, **params):
    before = json.dumps(ENGINE.to_dict(state), sort_keys=True)
    with pytest.raises(RuleError) as info:
        ENGINE.apply(state, seat, act)
    assert info.value.key == key
    for name, value in params.items():
        assert info.value.params[name] == value, (name, info.value.params)
    assert json.dumps(ENGINE.to_dict(state), sort_keys=True) == before
    return info.value


def types(events) -> list[str]:
    return [e["type"] for e in events]


# --- board and setup -----------------------------------------------------------------------------
def test_registry_and_protocol_attributes():
    assert get("tectonic") is ENGINE
    assert (ENGINE.name, ENGINE.min_players, ENGINE.max_players) == ("tectonic", 2, 2)
    assert ENGINE.has_ai and not ENGINE.simultaneous
    assert [o.name for o in ENGINE.options] == ["pic_backward"]


def test_regions_are_the_four_corner_staircases_from_data():
    regions = {name: (owner, sorted(core.cell_name(i) for i in cells)) for name, (owner, cells) in core.REGIONS.items()}
    assert regions == {
        "SO": (0, sorted(["A1", "B1", "C1", "A2", "B2", "A3"])),
        "SE": (0, sorted(["H1", "I1", "J1", "I2", "J2", "J3"])),
        "NO": (1, sorted(["A10", "B10", "C10", "A9", "B9", "A8"])),
        "NE": (1, sorted(["H10", "I10", "J10", "I9", "J9", "J8"])),
    }
    assert core.TARGETS == {0: ("NO", "NE"), 1: ("SO", "SE")}


def test_setup_places_six_pieces_each_with_one_of_each_kind_in_reserve():
    state = ENGINE.new_game(2, None, seed=1)
    view = ENGINE.view(state, None)
    placed = {p["cell"]: (p["owner"], p["piece"], p["red"]) for p in view["pieces"]}
    row = ["mont", "pic", "colline", "colline", "pic", "mont"]
    assert placed == {**{f"{f}2": (0, k, False) for f, k in zip("CDEFGH", row, strict=True)},
                      **{f"{f}9": (1, k, False) for f, k in zip("CDEFGH", row, strict=True)}}
    assert view["reserves"] == [{"colline": 1, "pic": 1, "mont": 1}] * 2
    assert ENGINE.expected(state) == {0} and view["current"] == 0
    assert legal_sources(state, 0) == ["C2", "D2", "E2", "F2", "G2", "H2"]
    assert legal_sources(state, 1) == []  # not Black's turn


def test_player_count_and_options_are_validated():
    with pytest.raises(RuleError) as info:
        ENGINE.new_game(3, None, seed=1)
    assert info.value.key == "common.error.player_count"
    with pytest.raises(RuleError) as info:
        ENGINE.new_game(2, {"pic_backward": "sideways"}, seed=1)
    assert info.value.key == "common.error.bad_option"
    with pytest.raises(RuleError) as info:
        ENGINE.new_game(2, {"pics": "droit"}, seed=1)
    assert info.value.key == "common.error.unknown_option"
    assert ENGINE.new_game(2, {"pic_backward": "diagonale"}, seed=1).pic_backward == "diagonale"


@pytest.mark.parametrize("text,expected", [("A1", 0), ("a1", 0), (" J10 ", 99), ("E5", 44), ("b10", 91)])
def test_cell_names(text, expected):
    assert core.parse_cell(text) == expected
    assert core.cell_name(expected) == text.strip().upper()


@pytest.mark.parametrize("text", ["K1", "A0", "A11", "A01", "", "1A", "AA", None, 12, "E5x"])
def test_not_cells(text):
    assert core.parse_cell(text) is None


# --- movement patterns -----------------------------------------------------------------------------
def test_colline_moves_one_cell_in_eight_directions_and_at_edges():
    assert dests(position({"E5": "C"}), "E5") == {"D4", "E4", "F4", "D5", "F5", "D6", "E6", "F6"}
    assert dests(position({"A1": "C"}), "A1") == {"A2", "B1", "B2"}
    assert dests(position({"J10": "C"}), "J10") == {"I10", "I9", "J9"}
    assert dests(position({"A5": "C"}), "A5") == {"A4", "A6", "B4", "B5", "B6"}


def test_mont_moves_up_to_four_cells_orthogonally_and_at_edges():
    assert dests(position({"E5": "M"}), "E5") == {"E6", "E7", "E8", "E9", "E4", "E3", "E2", "E1",
                                                  "D5", "C5", "B5", "A5", "F5", "G5", "H5", "I5"}
    assert dests(position({"A1": "M"}), "A1") == {"A2", "A3", "A4", "A5", "B1", "C1", "D1", "E1"}
    assert dests(position({"J10": "m"}, current=1), "J10") == {"J9", "J8", "J7", "J6", "I10", "H10", "G10", "F10"}


def test_white_pic_goes_diagonally_forward_and_straight_back():
    assert dests(position({"E5": "P"}), "E5") == {"D6", "C7", "B8", "F6", "G7", "H8", "E4", "E3", "E2"}
    assert dests(position({"A1": "P"}), "A1") == {"B2", "C3", "D4"}  # nothing backward from rank 1
    assert dests(position({"J10": "P"}), "J10") == {"J9", "J8", "J7"}  # nothing forward from rank 10
    assert dests(position({"J8": "P"}), "J8") == {"I9", "H10", "J7", "J6", "J5"}


def test_black_pic_forward_is_towards_rank_one():
    assert dests(position({"E5": "p"}, current=1), "E5") == {"D4", "C3", "B2", "F4", "G3", "H2",
                                                             "E6", "E7", "E8"}
    assert dests(position({"A10": "p"}, current=1), "A10") == {"B9", "C8", "D7"}
    assert dests(position({"J1": "p"}, current=1), "J1") == {"J2", "J3", "J4"}


def test_option_pic_backward_diagonal():
    white = position({"E5": "P"}, pic_backward="diagonale")
    assert dests(white, "E5") == {"D6", "C7", "B8", "F6", "G7", "H8", "D4", "C3", "B2", "F4", "G3", "H2"}
    black = position({"E5": "p"}, current=1, pic_backward="diagonale")
    assert dests(black, "E5") == {"D4", "C3", "B2", "F4", "G3", "H2", "D6", "C7", "B8", "F6", "G7", "H8"}
    assert dests(position({"A2": "P"}, pic_backward="diagonale"), "A2") == {"B3", "C4", "D5", "B1"}
    refused(white, 0, move("E5", "E4"), "tectonic.error.wrong_pattern", piece="pic")
    after, _ = ENGINE.apply(white, 0, move("E5", "C3"))
    assert at(after, "C3") == "P"


def test_pieces_never_pass_over_or_land_on_a_piece_red_ones_included():
    state = position({"E5": "M", "E7": "c", "C5": "4", "H5": "M", "D6": "P"}, reserves=(1, 1, 1, 1, 1, 1))
    assert dests(state, "E5") == {"E6", "E4", "E3", "E2", "E1", "D5", "F5", "G5"}
    refused(state, 0, move("E5", "E8"), "tectonic.error.blocked", cell="E7", piece="mont")
    refused(state, 0, move("E5", "B5"), "tectonic.error.blocked", cell="C5")
    refused(state, 0, move("E5", "H5"), "tectonic.error.occupied", cell="H5")
    refused(state, 0, move("E5", "C5"), "tectonic.error.occupied", cell="C5")
    pic = position({"E5": "P", "F6": "c", "E3": "1"})
    assert dests(pic, "E5") == {"D6", "C7", "B8", "E4"}
    refused(pic, 0, move("E5", "G7"), "tectonic.error.blocked", cell="F6", piece="pic")
    refused(pic, 0, move("E5", "E2"), "tectonic.error.blocked", cell="E3")


# --- refusals ------------------------------------------------------------------------------------
def test_every_illegal_move_is_refused_with_its_reason_and_nothing_changes():
    state = position({"E5": "C", "B2": "M", "D2": "P", "G5": "c", "H2": "2", "A9": "m", "E2": "C"})
    refused(state, 1, move("G5", "G4"), "common.error.not_your_turn")
    refused(state, 0, move("K1", "A1"), "tectonic.error.off_board", cell="K1")
    refused(state, 0, move("E5", "E11"), "tectonic.error.off_board", cell="E11")
    refused(state, 0, {"type": "move", "to": "E6"}, "tectonic.error.off_board", cell="")
    refused(state, 0, move("E5", "E6", "Z9"), "tectonic.error.off_board", cell="Z9")
    refused(state, 0, move("F5", "F6"), "tectonic.error.empty_cell", cell="F5")
    refused(state, 0, move("H2", "H3"), "tectonic.error.red_piece", cell="H2", piece="pic")
    refused(state, 0, move("G5", "G4"), "tectonic.error.enemy_piece", cell="G5", piece="colline")
    refused(state, 0, move("E5", "E5"), "tectonic.error.same_cell", cell="E5")
    refused(state, 0, move("E5", "F7"), "tectonic.error.wrong_pattern", piece="colline", **{"from": "E5", "to": "F7"})
    refused(state, 0, move("E5", "E7"), "tectonic.error.too_far", piece="colline", max=1)
    refused(state, 0, move("B2", "D4"), "tectonic.error.wrong_pattern", piece="mont")
    refused(state, 0, move("B2", "B7"), "tectonic.error.too_far", piece="mont", max=4)
    refused(state, 0, move("D2", "D3"), "tectonic.error.wrong_pattern", piece="pic")  # straight forward
    refused(state, 0, move("D2", "C1"), "tectonic.error.wrong_pattern", piece="pic")  # diagonal back
    refused(state, 0, move("D2", "H6"), "tectonic.error.too_far", piece="pic", max=3)
    refused(state, 0, {"type": "fly"}, "common.error.unknown_action", action="fly")
    refused(state, 0, "move", "common.error.unknown_action")
    with pytest.raises(RuleError) as info:
        flip_choices(state, 0, "E5", "E7")
    assert info.value.key == "tectonic.error.too_far"


def test_flip_choice_refusals():
    state = position({"E5": "C", "F7": "c", "G6": "p", "A1": "C", "J10": "m"})
    refused(state, 0, move("E5", "F6"), "tectonic.error.flip_required", choices="F7, G6")
    refused(state, 0, move("E5", "F6", "E6"), "tectonic.error.bad_flip", cell="E6", choices="F7, G6")
    refused(state, 0, move("E5", "E6", "F7"), "tectonic.error.no_flip", cell="F7")
    assert flip_choices(state, 0, "E5", "F6") == ["F7", "G6"]
    assert flip_choices(state, 0, "E5", "E6") == []


def test_actions_after_the_end_are_refused():
    state, _ = ENGINE.apply(ENGINE.new_game(2, None, seed=3), 1, {"type": "resign"})
    refused(state, 0, move("C2", "C3"), "common.error.game_over")
    refused(state, 1, {"type": "resign"}, "common.error.game_over")
    assert ENGINE.legal_actions(state, 0) == [] and ENGINE.expected(state) == set()
    assert legal_sources(state, 0) == [] and legal_destinations(state, 0, "C2") == []


# --- flips -----------------------------------------------------------------------------------------
def test_a_single_adjacent_enemy_is_flipped_even_without_naming_it():
    state = position({"C6": "M", "F6": "p", "J10": "m"})
    after, events = ENGINE.apply(state, 0, move("C6", "C8"))  # no enemy neighbour: nothing flips
    assert types(events) == ["moved", "turn"] and at(after, "F6") == "p"
    after, events = ENGINE.apply(state, 0, {"type": "move", "from": "C6", "to": "E6"})
    assert at(after, "F6") == "5"  # Black's pic turned red
    assert events[1] == {"type": "flipped", "seat": 0, "cell": "F6", "piece": "pic", "owner": 1}
    assert after.last_move["flip"] == "F6"
    assert {"type": "move", "from": "C6", "to": "E6", "flip": "F6"} in ENGINE.legal_actions(state, 0)
    named, _ = ENGINE.apply(state, 0, move("C6", "E6", "F6"))
    assert named == after


def test_diagonal_neighbours_are_not_flipped_and_only_the_moved_piece_flips():
    state = position({"D4": "C", "F6": "p", "J10": "m"})
    after, events = ENGINE.apply(state, 0, move("D4", "E5"))  # F6 is diagonal to E5
    assert at(after, "F6") == "p" and "flipped" not in types(events)
    side = position({"E6": "C", "F6": "p", "A1": "M", "J10": "m"})  # E6 already touches F6
    after, events = ENGINE.apply(side, 0, move("A1", "A2"))
    assert at(after, "F6") == "p" and "flipped" not in types(events)


def test_the_mover_chooses_which_piece_to_flip():
    state = position({"E5": "C", "F7": "c", "G6": "p", "E7": "m", "A1": "M"})
    options = [a for a in ENGINE.legal_actions(state, 0) if a["from"] == "E5" and a["to"] == "F6"]
    assert sorted(a["flip"] for a in options) == ["F7", "G6"]
    after, events = ENGINE.apply(state, 0, move("E5", "F6", "g6"))
    assert (at(after, "G6"), at(after, "F7")) == ("5", "c")
    after, _ = ENGINE.apply(state, 0, move("E5", "F6", "F7"))
    assert (at(after, "G6"), at(after, "F7")) == ("p", "4")


# --- red pieces coming back --------------------------------------------------------------------------
def test_own_red_piece_is_simply_turned_back():
    state = position({"C4": "M", "E5": "2", "J10": "m"})
    after, events = ENGINE.apply(state, 0, move("C4", "E4"))
    assert at(after, "E5") == "P"
    assert after.reserves == state.reserves
    assert {"type": "recoloured", "seat": 0, "cell": "E5", "piece": "pic", "owner": 0} in events
    assert after.last_move["recoloured"] == ["E5"]


def test_enemy_red_piece_is_swapped_for_one_of_the_movers_reserve():
    state = position({"C4": "M", "E5": "5", "J10": "m"}, reserves=(1, 1, 1, 1, 0, 1))
    after, events = ENGINE.apply(state, 0, move("C4", "E4"))
    assert at(after, "E5") == "P"  # now a White pic
    assert after.reserves == (1, 0, 1, 1, 1, 1)  # White's reserve pic used, Black's red pic back in reserve
    assert {"type": "substituted", "seat": 0, "cell": "E5", "piece": "pic", "owner": 1} in events
    view = ENGINE.view(after, None)
    assert view["reserves"] == [{"colline": 1, "pic": 0, "mont": 1}, {"colline": 1, "pic": 1, "mont": 1}]


def test_enemy_red_piece_stays_red_when_the_movers_reserve_has_none_of_its_kind():
    state = position({"C4": "M", "E5": "5", "J10": "m"}, reserves=(1, 0, 1, 1, 0, 1))
    after, events = ENGINE.apply(state, 0, move("C4", "E4"))
    assert at(after, "E5") == "5" and after.reserves == state.reserves
    assert {"type": "stays_red", "seat": 0, "cell": "E5", "piece": "pic", "owner": 1} in events
    empty = position({"C4": "M", "E5": "6", "J10": "m"}, reserves=(0, 0, 0, 3, 3, 2))
    after, events = ENGINE.apply(empty, 0, move("C4", "E4"))
    assert at(after, "E5") == "6" and "stays_red" in types(events) and after.reserves == empty.reserves


def test_every_red_neighbour_comes_back_then_one_enemy_is_flipped():
    # A colline reaches E4: D4 its own red colline, F4 a Black red mont, E5 a Black red colline
    # (White's reserve has no colline left), E3 a coloured Black pic to flip.
    state = position({"D3": "C", "D4": "1", "F4": "6", "E5": "4", "E3": "p", "J10": "m"},
                     reserves=(0, 1, 1, 1, 1, 1))
    after, events = ENGINE.apply(state, 0, move("D3", "E4"))
    assert at(after, "D4") == "C"  # own red colline turned back
    assert at(after, "F4") == "M"  # Black's red mont swapped for White's reserve mont
    assert at(after, "E5") == "4"  # no colline in White's reserve: stays red
    assert at(after, "E3") == "5"  # then the flip
    assert after.reserves == (0, 1, 0, 1, 1, 2)
    assert types(events)[0] == "moved" and types(events)[4:] == ["flipped", "turn"]
    assert sorted(types(events)[1:4]) == ["recoloured", "stays_red", "substituted"]
    assert after.last_move | {} == {"seat": 0, "piece": "colline", "from": "D3", "to": "E4", "flip": "E3",
                                    "recoloured": ["D4"], "substituted": ["F4"], "stayed_red": ["E5"]}


def test_a_freshly_flipped_piece_is_not_brought_back_by_the_same_move():
    state = position({"D3": "C", "E3": "p", "J10": "m"})
    after, _ = ENGINE.apply(state, 0, move("D3", "E4"))
    assert at(after, "E3") == "5"


def test_black_substitutes_too():
    state = position({"F7": "c", "E6": "2", "A1": "M"}, current=1, reserves=(1, 0, 1, 1, 1, 1))
    after, events = ENGINE.apply(state, 1, move("F7", "E7"))
    assert at(after, "E6") == "p" and after.reserves == (1, 1, 1, 1, 0, 1)


# --- end of game ----------------------------------------------------------------------------------
def test_region_win_with_a_colline_a_pic_and_a_mont_in_one_opponent_region():
    state = position({"A10": "C", "B9": "P", "A4": "M", "J1": "c"})
    after, events = ENGINE.apply(state, 0, move("A4", "A8"))
    assert after.finished and after.winner == 0 and after.reason == "region" and after.region == "NO"
    assert events[-1] == {"type": "won_region", "winner": 0, "region": "NO"}
    result = ENGINE.result(after)
    assert result.ranks == [1, 2] and result.winners == [0] and result.details["reason"] == "region"


def test_black_region_win_and_what_does_not_count():
    black = position({"I1": "c", "J2": "p", "H4": "m", "A10": "C"}, current=1)
    after, events = ENGINE.apply(black, 1, move("H4", "H3"))
    assert not after.finished
    after, events = ENGINE.apply(black, 1, move("H4", "H1"))
    assert after.winner == 1 and after.region == "SE" and events[-1]["type"] == "won_region"
    # split across two regions, red pieces, the opponent's colour, one's own region: no win
    for pieces in ({"A10": "C", "B9": "P", "J9": "M"},
                   {"A10": "C", "B9": "2", "A9": "M"},
                   {"A10": "C", "B9": "p", "A9": "M"},
                   {"A1": "C", "B1": "P", "A2": "M"}):
        state = position({**pieces, "E5": "C", "J1": "c"})
        after, _ = ENGINE.apply(state, 0, move("E5", "E6"))
        assert not after.finished, pieces


def test_a_substitution_can_complete_a_region():
    state = position({"A10": "C", "A8": "M", "B9": "5", "C8": "C", "J1": "c"}, reserves=(1, 1, 1, 1, 0, 1))
    after, events = ENGINE.apply(state, 0, move("C8", "C9"))
    assert at(after, "B9") == "P" and after.reason == "region" and after.region == "NO"


def test_turning_every_enemy_piece_red_wins():
    state = position({"C6": "M", "F6": "p", "A10": "5", "J10": "4"}, reserves=(1, 1, 1, 1, 0, 2))
    after, events = ENGINE.apply(state, 0, move("C6", "E6"))
    assert after.finished and after.winner == 0 and after.reason == "all_red"
    assert events[-1] == {"type": "won_all_red", "winner": 0, "loser": 1}


def test_a_player_without_legal_move_loses():
    # Black's only piece, a pic on J10, can go only diagonally forward through I9 (a red piece).
    state = position({"J10": "p", "I9": "1", "A1": "M"})
    assert legal_sources(replace(state, current=1), 1) == []
    after, events = ENGINE.apply(state, 0, move("A1", "A2"))
    assert after.finished and after.winner == 0 and after.reason == "no_moves"
    assert events[-1] == {"type": "won_no_moves", "winner": 0, "loser": 1}


def test_threefold_repetition_is_a_draw():
    state = ENGINE.new_game(2, None, seed=5)
    shuffle = [(0, "C2", "C3"), (1, "C9", "C8"), (0, "C3", "C2"), (1, "C8", "C9")]
    for n, (seat, a, b) in enumerate(shuffle * 2):
        assert not state.finished
        state, events = ENGINE.apply(state, seat, move(a, b))
        if n == 3:
            assert ENGINE.view(state, None)["repetitions"] == 2
    assert state.finished and state.reason == "repetition" and state.winner is None
    assert events[-1] == {"type": "draw_repetition", "winners": [0, 1]}
    assert ENGINE.result(state).ranks == [1, 1]


def test_resigning_at_any_time():
    state = ENGINE.new_game(2, None, seed=5)
    after, events = ENGINE.apply(state, 1, {"type": "resign"})  # even out of turn
    assert after.winner == 0 and after.reason == "resign"
    assert events == [{"type": "resigned", "seat": 1, "winner": 0}]
    after, _ = ENGINE.apply(state, 0, {"type": "resign"})
    assert ENGINE.result(after).ranks == [2, 1]
    refused(state, 2, {"type": "resign"}, "common.error.not_your_turn")
    assert ENGINE.result(state) is None and not ENGINE.is_over(state)


# --- helpers for the bot ------------------------------------------------------------------------
def test_sources_destinations_and_flip_choices_agree_with_legal_actions():
    rng = random.Random(4)
    state = ENGINE.new_game(2, None, seed=4)
    for _ in range(60):
        seat = state.current
        actions = ENGINE.legal_actions(state, seat)
        assert {a["from"] for a in actions} == set(legal_sources(state, seat))
        for src in legal_sources(state, seat):
            for dst in legal_destinations(state, seat, src):
                flips = [a["flip"] for a in actions if a["from"] == src and a["to"] == dst]
                choices = flip_choices(state, seat, src, dst)
                assert flips == (choices or [None])
        assert legal_destinations(state, seat, "Z1") == [] and legal_destinations(state, 1 - seat, "C2") == []
        state, _ = ENGINE.apply(state, seat, rng.choice(actions))
        if state.finished:
            break


# --- views, persistence, determinism --------------------------------------------------------------
def test_views_are_json_safe_and_identical_for_everyone():
    state = ENGINE.new_game(2, None, seed=9)
    state, _ = ENGINE.apply(state, 0, move("C2", "C6"))
    views = [ENGINE.view(state, s) for s in (None, 0, 1)]
    for v in views:
        json.dumps(v)
    assert {k: v for k, v in views[0].items() if k != "seat"} == {k: v for k, v in views[1].items() if k != "seat"}
    v = views[0]
    assert v["last_move"]["from"] == "C2" and v["last_move"]["to"] == "C6" and v["current"] == 1
    assert v["options"] == {"pic_backward": "droit"} and v["ply"] == 1
    assert set(v["regions"]) == {"NO", "NE", "SO", "SE"}


def test_round_trip_and_determinism():
    def play(seed):
        state = ENGINE.new_game(2, None, seed=seed)
        log = []
        for _ in range(30):
            if state.finished:
                break
            action = ENGINE.ai_action(state, state.current, 1)
            log.append(action)
            state, _ = ENGINE.apply(state, state.current, action)
            data = json.loads(json.dumps(ENGINE.to_dict(state)))
            back = ENGINE.from_dict(data)
            assert back == state and ENGINE.to_dict(back) == ENGINE.to_dict(state)
        return log, ENGINE.to_dict(state)

    assert play(21) == play(21)
    with pytest.raises(ValueError):
        ENGINE.from_dict({**ENGINE.to_dict(ENGINE.new_game(2, None, 1)), "schema": 99})


# --- catalogs --------------------------------------------------------------------------------------
def test_every_error_event_and_reason_has_both_catalog_entries():
    source = (core.DATA_FILE.parent.parent.parent / "engines" / "tectonic" / "engine.py").read_text()
    import re

    raised = set(re.findall(r'_err\(\s*"([a-z_]+)"', source))
    assert raised == set(ERROR_KEYS)
    emitted = set(re.findall(r'"type": "([a-z_]+)"', source)) - {"move", "resign"}
    assert emitted == set(EVENT_TYPES)
    for lang in ("fr", "en"):
        for key in ERROR_KEYS:
            assert i18n.has(f"tectonic.error.{key}", lang), key
        for etype in EVENT_TYPES:
            assert i18n.has(f"tectonic.event.{etype}", lang), etype
        for reason in REASONS:
            assert i18n.has(f"tectonic.reason.{reason}", lang), reason
        for name in ("name.title", "rules.page_1", "option.pic_backward", "choice.droit", "choice.diagonale",
                     "piece.colline", "piece.pic", "piece.mont", "render.reserve", "button.flip"):
            assert i18n.has(f"tectonic.{name}", lang), name
        assert len(i18n.t("tectonic.rules.page_1", lang)) <= 1800
    for key in ("common.error.not_your_turn", "common.error.game_over", "common.error.unknown_action"):
        assert i18n.has(key, "fr") and i18n.has(key, "en")


def test_error_params_fill_their_templates():
    cases = [
        (position({"E5": "C"}), move("E5", "E7")),
        (position({"E5": "C", "E6": "c"}), move("E5", "E6")),
        (position({"E5": "M", "E6": "c"}), move("E5", "E8")),
        (position({"E5": "C", "F7": "c", "G6": "p"}), move("E5", "F6", "A1")),
    ]
    for state, action in cases:
        with pytest.raises(RuleError) as info:
            ENGINE.apply(state, 0, action)
        for lang in ("fr", "en"):
            assert i18n.variables(info.value.key, lang) <= set(info.value.params), info.value.key


def test_narration_of_a_whole_game_leaves_no_placeholder():
    rng = random.Random(12)
    state = ENGINE.new_game(2, None, seed=12)
    seen = set()
    while not state.finished:
        state, events = ENGINE.apply(state, state.current, rng.choice(ENGINE.legal_actions(state, state.current)))
        seen.update(types(events))
        for lang in ("fr", "en"):
            for line in narrate("tectonic", events, ["Alice", "Bob"], lang):
                assert "{" not in line, line
    assert {"moved", "flipped", "turn"} <= seen


# --- random games (property) ---------------------------------------------------------------------
def _check_invariants(state) -> None:
    board = state.board
    for owner in (0, 1):
        for kind in range(3):
            total = (board.count(core.CHARS[core.coloured(owner, kind)]) + board.count(core.CHARS[core.red(owner, kind)])
                     + state.reserves[3 * owner + kind])
            assert total == core.PIECES_PER_KIND  # so never more than 3 of a kind per player
            assert 0 <= state.reserves[3 * owner + kind] <= core.PIECES_PER_KIND


def _random_games(count: int, first_seed: int, uniform_every: int) -> dict[str, int]:
    """``count`` random games through legal_actions/apply.

    Uniformly random players wander for about a thousand moves per game, so most games use
    random players that pick a flipping move (when there is one) with probability 0.3, 0.6 or
    0.9 — still random legal moves, but games end in about a hundred moves. One game in
    ``uniform_every`` is fully uniform.
    """
    reasons: dict[str, int] = {}
    for n, seed in enumerate(range(first_seed, first_seed + count)):
        rng = random.Random(seed)
        bias = 0.0 if n % uniform_every == 0 else (0.3, 0.6, 0.9)[n % 3]
        state = ENGINE.new_game(2, {"pic_backward": core.PIC_BACK[seed % 2]}, seed=seed)
        while not state.finished:
            seat = state.current
            actions = ENGINE.legal_actions(state, seat)
            assert actions  # a player without moves would already have lost
            flips = [a for a in actions if a["flip"]] if bias else None
            action = rng.choice(flips) if flips and rng.random() < bias else rng.choice(actions)
            state, events = ENGINE.apply(state, seat, action)
            assert events and set(types(events)) <= set(EVENT_TYPES)
            _check_invariants(state)
        result = ENGINE.result(state)
        assert sorted(result.ranks) in ([1, 2], [1, 1])
        reasons[state.reason] = reasons.get(state.reason, 0) + 1
    return reasons


def test_random_games_end_without_error_and_keep_three_pieces_of_each_kind():
    reasons = _random_games(300, 1000, uniform_every=30)
    assert sum(reasons.values()) == 300
    assert {"region", "all_red", "no_moves"} <= set(reasons)


@pytest.mark.slow
def test_thousands_of_random_games():
    reasons = _random_games(2000, 100_000, uniform_every=40)
    assert sum(reasons.values()) == 2000
