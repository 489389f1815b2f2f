"""``/parties``: the list fits one Discord message, the caller's games first, and says how many were left out."""

from __future__ import annotations

import re

from cogs.community.boards import LIST_BUDGET, MAX_LISTED, BoardsCog


def _items(prefix: str, count: int, width: int) -> list[tuple[float, int, str]]:
    return [(float(i), i, f"• {prefix} n°{i} " + "x" * width) for i in range(count)]


def test_the_list_is_bounded_keeps_its_order_and_counts_the_rest():
    sections = [("**À vous de jouer** (30)\u00a0:", _items("mine", 30, 150)), ("**Autres** (5)\u00a0:", _items("other", 5, 10))]
    text = BoardsCog._bounded(sections, "fr")
    lines = text.splitlines()
    assert len(text) <= LIST_BUDGET
    shown = [line for line in lines if line.startswith("• ")]
    assert shown == [f"• mine n°{i} " + "x" * 150 for i in range(len(shown))] and 0 < len(shown) < 30
    assert "Autres" not in text  # nothing after a game left out
    assert lines[-1] == f"… et {35 - len(shown)} autres."


def test_a_short_list_is_whole_and_a_long_one_stops_at_the_cap():
    sections = [("**À vous de jouer** (1)\u00a0:", _items("mine", 1, 5)), ("**Autres** (2)\u00a0:", _items("other", 2, 5))]
    assert BoardsCog._bounded(sections, "fr").splitlines() == [
        "**À vous de jouer** (1)\u00a0:", "• mine n°0 xxxxx", "**Autres** (2)\u00a0:", "• other n°0 xxxxx", "• other n°1 xxxxx"]
    text = BoardsCog._bounded([("**Autres** (25)\u00a0:", _items("other", MAX_LISTED + 5, 1))], "en")
    assert len(re.findall(r"^• ", text, re.M)) == MAX_LISTED and text.endswith("… and 5 more.")
