"""An AI seat's « Profil » (issue 37): its level's measured strength, from ``data/ai/strength.json``."""

from __future__ import annotations

from pathlib import Path

import pytest

import engines
from bot import i18n
from bot.community import strength
from bot.gamecog import level_name

DOCS = (Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md").read_text(encoding="utf-8")


def names(kind: str, lg: str):
    levels = engines.get(kind).ai_levels
    return lambda level: i18n.t(level_name(levels, level).key, lg)


@pytest.mark.parametrize("lg", ["fr", "en"])
@pytest.mark.parametrize("kind", sorted(engines.GAMES))
def test_every_level_of_every_game_says_how_strong_it_was_measured(kind, lg):
    low, high = engines.get(kind).ai_levels
    for level in range(low, high + 1):
        found = strength.lines(kind, level, names(kind, lg), lg)
        assert found, (kind, level)
        assert all(line and "{" not in line and "community.profile" not in line for line in found), found


def test_a_duel_is_said_by_both_levels():
    fr = strength.lines("tectonic", 3, names("tectonic", "fr"), "fr")
    assert fr == ["Contre le niveau Moyen\u00a0: **84 %** des parties gagnées, sur 200."]
    middle = strength.lines("tectonic", 2, names("tectonic", "en"), "en")
    assert middle == ["Against level Easy: wins **91.7%** of games, over 60.",
                      "Level Hard beats it in 84% of games, over 200."]
    solo = strength.lines("limit", 2, names("limit", "en"), "en")
    assert solo == ["Solo (Take it to the Limit — Nexus): **498.4** points on average over 200 draws."]


def test_the_figures_are_the_benchmarks():
    """Each figure is one that docs/benchmarks.md gives (so that a new measurement updates both)."""
    for kind, rows in strength.measures().items():
        for m in rows:
            figure = f"{m['share']:.1f}%" if "share" in m else (f"{m['mean']:.1f}" if "mean" in m else None)
            if m["measure"] == "random":
                figure = f"{m['wins']}/{m['games']}"
            assert figure in DOCS, (kind, m, figure)
