"""An AI seat's « Profil » (issue 37): its level's measured strength, from ``data/ai/strength.json``."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

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
    """« vs the level below » names that level as a player chose it (« le bot Facile »), and says who wins."""
    fr = strength.lines("tectonic", 3, names("tectonic", "fr"), "fr")
    assert fr == ["• Face au bot Moyen\u00a0: il gagne **84\u00a0%** des parties (sur\u00a0200)."]
    middle = strength.lines("tectonic", 2, names("tectonic", "en"), "en")
    assert middle == ["• Against the Easy bot: wins **91.7%** of games (out of\u00a060).",
                      "• The Hard bot beats it in **84%** of games (out of\u00a0200)."]
    beaten = strength.lines("armada", 1, names("armada", "fr"), "fr")
    assert beaten == ["• Le bot Moyen le bat dans **53,3\u00a0%** des parties (sur\u00a030)."]


def test_a_solo_measure_names_its_setting_without_the_game():
    """The title names the game: the line says only the board or mode (« plateau Nexus »), not « Take it to the
    Limit — Nexus » again, and « parties » rather than the benchmarks' « tirages ». A stronger level's mean is
    told beside the weaker level's on the same setting, so that a newcomer can tell what it is worth."""
    assert strength.lines("limit", 2, names("limit", "en"), "en") == [
        "• Solo, Nexus board: **498.4 points** on average over 200 games, against 358.6 for the Easy\u00a0bot.",
        "• Solo, Orchidée board: **297.8 points** on average over 30 games, against 233.4 for the Easy\u00a0bot."]
    assert strength.lines("limit", 1, names("limit", "fr"), "fr") == [
        "• En solo, plateau Nexus\u00a0: **358,6 points** en moyenne sur 200 parties.",
        "• En solo, plateau Orchidée\u00a0: **233,4 points** en moyenne sur 30 parties."]
    fr = strength.lines("ranta", 2, names("ranta", "fr"), "fr")
    assert fr == ["• En solo, mode classique\u00a0: **18,4 points** en moyenne sur 200 parties, contre 11,4 pour le "
                  "bot\u00a0Facile.",
                  "• En solo, mode expert\u00a0: **62,31 points** en moyenne sur 200 parties, contre 40,9 pour le "
                  "bot\u00a0Facile."]
    assert [strength.setting_name("community.daily.choice-ranta-expert", lg) for lg in ("fr", "en")] == [
        "mode expert", "expert mode"]
    # a setting with no short name keeps its full catalog text
    assert strength.setting_name("community.daily.choice-ludix", "fr") == i18n.t("community.daily.choice-ludix", "fr")


@pytest.mark.parametrize("kind", sorted(engines.GAMES))
def test_numbers_are_written_the_players_way(kind):
    """French: decimal comma, thousands with a narrow no-break space, « % » and « : » after a no-break space,
    never a plain space that a phone's line could break at; English: decimal point, thousands comma, « 38.2% »."""
    low, high = engines.get(kind).ai_levels
    for level in range(low, high + 1):
        fr = " ".join(strength.lines(kind, level, names(kind, "fr"), "fr"))
        en = " ".join(strength.lines(kind, level, names(kind, "en"), "en"))
        assert set(re.findall(r".(?=[%:])", fr)) <= {"\u00a0"}, fr
        assert not re.search(r"\d\.\d", fr) and not re.search(r"\d,\d(?!\d\d)", en), (fr, en)
        assert not re.search(r"\d{4}", fr + en), (fr, en)  # 1 000, 2 000: grouped
        assert "\u00a0%" not in en and " %" not in en, en
    lutins = strength.lines("lutinades", 2, names("lutinades", "fr"), "fr")
    assert lutins == ["• À quatre, face à trois bots de niveau Facile\u00a0: il gagne **38,2\u00a0%** de 2\u202f000 "
                      "parties (à force égale, ce serait 25\u00a0%)."]
    assert strength.lines("ludix", 2, names("ludix", "en"), "en") == [
        "• Against the Easy bot: wins **60.7%** of games (out of\u00a01,000)."]


@pytest.mark.parametrize("lg", ["fr", "en"])
def test_the_profile_says_which_bot_which_level_and_where_the_figures_come_from(lg):
    """A short title (the seat, « IA, niveau Difficile ») that fits a phone's line, the game below it, one
    bullet per measure, and a note that the figures are the project's tests, not this server's games. A game
    with a single level (Ludime) names none, as its seat's button « 🤖 IA » does."""
    from cogs.community.boards import BoardsCog

    text = BoardsCog.ai_profile_text("limit", SimpleNamespace(name="Bot *1*", ai_level=2), lg)
    head, game, *measured, note = text.split("\n")
    assert head == {"fr": "🤖 **Bot \\*1\\*** — IA, niveau **Difficile**",
                    "en": "🤖 **Bot \\*1\\*** — AI, level **Hard**"}[lg]  # the name escaped
    assert game == "-# Take it to the Limit"
    assert measured == strength.lines("limit", 2, names("limit", lg), lg) and all(m.startswith("• ") for m in measured)
    assert note == "-# " + {"fr": "Mesures des tests du projet, hors de ce serveur.",
                            "en": "Figures from the project's tests, not this server."}[lg]
    assert len(note.removeprefix("-# ")) <= 50  # one line of small text at 390 px (61 characters wrapped)
    ludime = BoardsCog.ai_profile_text("ludime", SimpleNamespace(name="Bot 1", ai_level=1), lg).split("\n")
    assert ludime[:2] == [{"fr": "🤖 **Bot 1** — IA", "en": "🤖 **Bot 1** — AI"}[lg], "-# Ludime"]
    assert "100\u00a0%" in ludime[2] if lg == "fr" else "**100%** of the time" in ludime[2]
    ranta = BoardsCog.ai_profile_text("ranta", SimpleNamespace(name="Bot 2", ai_level=None), lg).split("\n")
    assert ranta[0].endswith({"fr": "niveau **Facile**", "en": "level **Easy**"}[lg])  # no level: the lowest


def test_the_figures_are_the_benchmarks():
    """Each figure is one that docs/benchmarks.md gives (so that a new measurement updates both)."""
    for kind, rows in strength.measures().items():
        for m in rows:
            figure = f"{m['share']:.1f}%" if "share" in m else (f"{m['mean']:.1f}" if "mean" in m else None)
            if m["measure"] == "random":
                figure = f"{m['wins']}/{m['games']}"
            assert figure in DOCS, (kind, m, figure)
