"""Range ta Ludothèque scoring on hand-built kallax sheets: every classic and expert rule.

Sheet reminder: columns A-F, rows 1-6 from the bottom; cubby 1 = A1-C3, 2 = D1-F3,
3 = A4-C6, 4 = D4-F6; rows 1 and 4 rest on a shelf.
"""

from __future__ import annotations

import pytest

from engines.ranta import classic_breakdown, expert_breakdown, score


def box(cells: str, category: str, mechanic: str) -> dict:
    return {"cells": cells.split(), "category": category, "mechanic": mechanic}


def mat(cell: str) -> dict:
    return {"cells": [cell], "category": None, "mechanic": None}


def entries(breakdown, rule):
    return [e for e in breakdown if e["rule"] == rule]


def points(breakdown, rule) -> int:
    return sum(e["points"] for e in entries(breakdown, rule))


def fill_rest(items, skip=()):
    """Mats on every free cell (so the empty-cell rule does not get in the way)."""
    taken = {c for it in items for c in it["cells"]} | set(skip)
    return items + [mat(f"{col}{row}") for col in "ABCDEF" for row in range(1, 7)
                    if f"{col}{row}" not in taken]


# --- classic -------------------------------------------------------------------

def test_classic_empty_sheet_is_minus_36():
    bd = classic_breakdown([])
    assert bd == [{"rule": "empty_cells", "points": -36, "detail": {"empty": 36}}]
    assert score([], "classique") == {"total": -36, "breakdown": bd, "empty": 36}


def test_classic_category_group_of_two_adjacent_games():
    items = [box("A1 B1", "C", "bluff"), box("C1", "C", "memory")]
    bd = classic_breakdown(items)
    (group,) = entries(bd, "category_group")
    assert group["points"] == 2
    assert group["detail"] == {"category": "C", "games": 2, "boxes": ["A1", "C1"]}
    assert points(bd, "empty_cells") == -33
    assert not entries(bd, "mechanic_group")


def test_classic_single_game_scores_nothing():
    bd = classic_breakdown([box("A1 B1", "C", "bluff")])
    assert [e["rule"] for e in bd] == ["empty_cells"]


def test_classic_only_the_largest_group_counts():
    items = [box("A1 B1", "P", "bluff"), box("C1", "P", "memory"), box("A2 B2", "P", "deduction"),  # 3 P
             box("E1", "P", "programming"), box("E2 E3", "P", "secret_role")]  # 2 P elsewhere
    bd = classic_breakdown(items)
    (group,) = entries(bd, "category_group")
    assert group["points"] == 3 and sorted(group["detail"]["boxes"]) == ["A1", "A2", "C1"]


def test_classic_diagonal_is_not_adjacent():
    items = [box("A1", "F", "bluff"), box("B1", "T", "memory"), box("B2", "F", "deduction"),
             box("A2", "R", "programming")]
    bd = classic_breakdown(items)
    assert not entries(bd, "category_group")


def test_classic_adjacency_crosses_cubby_walls():
    # C1 (cubby 1) and D1 (cubby 2) are side by side on the shelf; A3 and A4 are one above the other
    bd = classic_breakdown([box("B1 C1", "R", "bluff"), box("D1 E1", "R", "memory")])
    assert points(bd, "category_group") == 2
    bd = classic_breakdown([box("A1 A2 A3", "A", "memory"), box("A4 A5", "T", "memory")])
    assert points(bd, "mechanic_group") == 2


def test_classic_mechanic_group_and_category_group_both_score():
    items = [box("A1 B1", "C", "bluff"), box("C1", "C", "bluff"), box("A2 A3", "T", "bluff")]
    bd = classic_breakdown(items)
    assert points(bd, "category_group") == 2
    (mech,) = entries(bd, "mechanic_group")
    assert mech["points"] == 3 and mech["detail"]["mechanic"] == "bluff"


def test_classic_groups_never_run_through_mats():
    items = [box("A1", "C", "bluff"), mat("B1"), box("C1", "C", "memory")]
    bd = classic_breakdown(items)
    assert not entries(bd, "category_group")
    assert points(bd, "empty_cells") == -33  # the mat fills its cell


def test_classic_total_and_empty():
    items = [box("A1 B1", "C", "bluff"), box("C1", "C", "bluff"), mat("D1")]
    s = score(items, "classique")
    assert s["empty"] == 32
    assert s["total"] == 2 + 2 - 32 == sum(e["points"] for e in s["breakdown"])


# --- expert: categories ------------------------------------------------------------

def test_expert_T_scores_each_game_of_its_cubby_when_nothing_is_shared():
    items = fill_rest([box("A1 B1", "T", "bluff"), box("C1 C2", "A", "memory"), box("A2 B2", "P", "deduction")])
    bd = expert_breakdown(items)
    (t,) = entries(bd, "category_T")
    assert t["points"] == 3 and t["detail"] == {"category": "T", "games": 1, "scoring": 1, "boxes": ["A1"]}


def test_expert_T_scores_nothing_when_two_games_share_a_mechanic_or_category():
    shared_mech = [box("A1 B1", "T", "bluff"), box("C1 C2", "A", "bluff")]
    assert points(expert_breakdown(shared_mech), "category_T") == 0
    two_t = [box("A1 B1", "T", "bluff"), box("C1 C2", "T", "memory")]
    assert points(expert_breakdown(two_t), "category_T") == 0
    # a game with the same mechanic in ANOTHER cubby does not matter
    other_cubby = [box("A1 B1", "T", "bluff"), box("D1 E1", "A", "bluff")]
    assert points(expert_breakdown(other_cubby), "category_T") == 1


def test_expert_A_needs_to_be_off_its_cubby_shelf():
    off = [box("A1 B1", "P", "memory"), box("A2 B2", "A", "deduction")]
    (a,) = entries(expert_breakdown(off), "category_A")
    assert a["points"] == 2
    on = [box("A1 B1", "A", "memory")]
    assert points(expert_breakdown(on), "category_A") == 0
    # row 4 is the bottom of the upper cubbies: an A there touches its own shelf
    upper = [box("A1 A2 A3", "P", "memory"), box("A4 A5", "A", "deduction")]
    assert points(expert_breakdown(upper), "category_A") == 0
    # a tall A standing on the shelf touches it even if it goes up
    assert points(expert_breakdown([box("A1 A2 A3", "A", "memory")]), "category_A") == 0


def test_expert_C_counts_the_other_card_games_of_its_cubby():
    items = [box("A1 B1", "C", "bluff"), box("C1", "C", "memory"), box("A2", "C", "deduction"),
             box("D1", "C", "bluff")]  # D1 is in cubby 2
    (c,) = entries(expert_breakdown(items), "category_C")
    assert c["points"] == 3 * 2  # three C in cubby 1, each sees two others; the D1 one sees none
    assert c["detail"]["games"] == 4 and c["detail"]["scoring"] == 3


def test_expert_P_horizontal_F_six_cells_R_vertical():
    items = [box("A1 B1", "P", "bluff"), box("C1 C2", "P", "memory"),
             box("D1 E1 F1 D2 E2 F2", "F", "deduction"), box("A4 B4 C4", "F", "bluff"),
             box("D4 D5 D6", "R", "memory"), box("E4 F4", "R", "programming")]
    bd = expert_breakdown(items)
    assert points(bd, "category_P") == 1
    assert points(bd, "category_F") == 1
    assert points(bd, "category_R") == 1
    # a six-cell box standing up is vertical
    assert points(expert_breakdown([box("A1 B1 A2 B2 A3 B3", "R", "memory")]), "category_R") == 1
    assert points(expert_breakdown([box("A1 B1 A2 B2 A3 B3", "P", "memory")]), "category_P") == 0


# --- expert: mechanics -------------------------------------------------------------

def test_expert_bluff_counts_neighbours_sharing_category_or_mechanic():
    items = [box("B1", "T", "bluff"),
             box("A1", "T", "memory"),       # same category: counts
             box("C1", "A", "deduction"),    # nothing in common: no
             box("B2", "A", "bluff"),        # same mechanic: counts (and is a bluff itself)
             box("D1", "T", "memory")]       # not adjacent to B1
    (b,) = entries(expert_breakdown(items), "mechanic_bluff")
    # B1: A1 + B2 = 2 ; B2: B1 (bluff) = 1
    assert b["points"] == 3 and b["detail"]["games"] == 2


def test_expert_bluff_across_a_cubby_wall():
    items = [box("C1", "T", "bluff"), box("D1", "T", "memory")]
    assert points(expert_breakdown(items), "mechanic_bluff") == 1


def test_expert_deduction_needs_exactly_two_cells():
    items = [box("A1 B1", "T", "deduction"), box("C1 C2 C3", "A", "deduction")]
    (d,) = entries(expert_breakdown(items), "mechanic_deduction")
    assert d["points"] == 1 and d["detail"]["boxes"] == ["A1"]


def test_expert_deck_building_counts_non_deck_building_games_of_its_cubby():
    items = [box("A1 B1", "T", "deck_building"), box("C1", "A", "bluff"), box("A2", "C", "memory"),
             box("B2", "P", "deck_building"), box("D1", "R", "bluff")]  # D1 in another cubby
    (db,) = entries(expert_breakdown(items), "mechanic_deck_building")
    assert db["points"] == 2 + 2


def test_expert_programming_counts_adjacent_programming_games():
    items = [box("A1 B1", "T", "programming"), box("A2", "A", "programming"), box("C1", "C", "programming"),
             box("F1", "P", "programming")]
    (p,) = entries(expert_breakdown(items), "mechanic_programming")
    # A1 touches A2 and C1 (2), A2 touches A1 (1), C1 touches A1 (1), F1 alone (0)
    assert p["points"] == 4 and p["detail"]["scoring"] == 3


def test_expert_memory_counts_memory_games_of_the_shelf_up_to_three():
    two = [box("A1", "T", "memory"), box("F6", "A", "memory")]
    assert points(expert_breakdown(two), "mechanic_memory") == 2 * 2
    four = two + [box("D1", "C", "memory"), box("A4", "P", "memory")]
    assert points(expert_breakdown(four), "mechanic_memory") == 4 * 3


def test_expert_secret_role_only_if_alone():
    one = [box("A1", "T", "secret_role")]
    assert points(expert_breakdown(one), "mechanic_secret_role") == 5
    two = one + [box("F4", "A", "secret_role")]
    assert points(expert_breakdown(two), "mechanic_secret_role") == 0


def test_expert_full_cubby_two_points_per_game_mats_fill_but_do_not_count():
    cubby1 = [box("A1 B1 C1 A2 B2 C2", "F", "bluff"), box("A3 B3", "T", "memory"), mat("C3")]
    bd = expert_breakdown(cubby1)
    (full,) = entries(bd, "full_cubby")
    assert full == {"rule": "full_cubby", "points": 4, "detail": {"cubby": 1, "games": 2}}
    assert points(bd, "empty_cells") == -27
    # one cell short: no bonus
    assert not entries(expert_breakdown(cubby1[:2]), "full_cubby")


def test_expert_all_mats_sheet():
    items = fill_rest([])
    s = score(items, "expert")
    assert s["empty"] == 0
    assert [e["points"] for e in s["breakdown"] if e["rule"] == "full_cubby"] == [0, 0, 0, 0]
    assert s["total"] == 0


def test_expert_worked_sheet_total_is_the_sum_of_its_breakdown():
    items = [box("A1 B1 C1 A2 B2 C2", "F", "deck_building"),  # F +1; DB: T,A in cubby -> +2
             box("A3 B3", "T", "deduction"),                    # T: 0 (cubby has F,T,A distinct? yes) ...
             box("C3", "A", "memory"),                          # A off shelf +2; memory: 1 memory game -> +1
             box("D1 D2 D3", "R", "secret_role"),               # R vertical +1; only secret role +5
             box("E1 F1", "P", "bluff")]                        # P horizontal +1; bluff: neighbour D1 no
    s = score(items, "expert")
    by_rule = {e["rule"]: e["points"] for e in s["breakdown"]}
    assert by_rule == {"category_T": 3, "category_A": 2, "category_P": 1, "category_F": 1, "category_R": 1,
                       "mechanic_deduction": 1, "mechanic_deck_building": 2, "mechanic_memory": 1,
                       "mechanic_secret_role": 5, "full_cubby": 6, "empty_cells": -22}
    assert s["total"] == sum(by_rule.values()) == 1
    assert s["empty"] == 22


def test_unknown_mode_and_bad_cell_are_programming_errors():
    with pytest.raises(ValueError):
        score([], "nope")
    with pytest.raises(ValueError):
        score([box("Z9", "T", "bluff")], "classique")


def test_lowercase_cell_names_are_accepted():
    assert score([box("a1 b1", "C", "bluff")], "expert")["empty"] == 34
