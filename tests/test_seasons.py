"""Seasons (bot/community/seasons.py): calendar windows, labels typed by members, a season's table from its
games only (a fresh start each season, AI seats and solo games as in the all-time ratings)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.community import seasons as S
from bot.storage import ResultRow


def ts(*args) -> float:
    return datetime(*args, tzinfo=UTC).timestamp()


def test_windows_and_neighbours():
    nov = S.season_at(ts(2026, 11, 26, 8), S.MONTH)
    assert nov.label == "2026-11" and nov.start == ts(2026, 11, 1) and nov.end == ts(2026, 12, 1)
    assert nov.next().label == "2026-12" and nov.next().next().label == "2027-01"
    assert S.Season(2027, 1).previous().label == "2026-12"
    q = S.season_at(ts(2026, 11, 26), S.QUARTER)
    assert q.label == "2026-q4" and q.start == ts(2026, 10, 1) and q.end == ts(2027, 1, 1)
    assert S.Season(2027, 1, S.QUARTER).previous().label == "2026-q4"
    assert S.season_at(ts(2026, 12, 31, 23, 59, 59)).label == "2026-12"
    assert S.season_at(ts(2027, 1, 1)).label == "2027-01"


def test_parse_what_members_type():
    now = ts(2026, 11, 26)
    assert S.parse("", S.MONTH, now).label == "2026-11"
    assert S.parse(" 2026-03 ", S.MONTH, now).label == "2026-03"
    assert S.parse("2026-t2", S.QUARTER, now).label == "2026-q2"
    assert S.parse("2026-Q4", S.QUARTER, now).label == "2026-q4"
    for bad in ("2026-13", "2026-00", "mars", "2026-q2", "2027-01", "-1", "2026-"):
        assert S.parse(bad, S.MONTH, now) is None, bad
    assert S.parse("2026-05", S.QUARTER, now) is None  # a month on a quarterly server
    assert [s.label for s in S.recent(now, S.QUARTER, 3)] == ["2026-q4", "2026-q3", "2026-q2"]


def test_names():
    assert S.Season(2026, 11).name("fr") == "novembre 2026"
    assert S.Season(2026, 11).name("en") == "November 2026"
    assert S.Season(2026, 1, S.QUARTER).name("fr") == "1er trimestre 2026"
    assert S.Season(2026, 4, S.QUARTER).name("en") == "Q4 2026"


def rows(game_id, *placed):
    """``placed``: (user id or None for an AI, rank) per seat."""
    return [ResultRow(game_id, seat, uid, None, rank) for seat, (uid, rank) in enumerate(placed)]


def test_season_table_fresh_start_wins_and_ai():
    games = [rows(1, (1, 1), (2, 2)), rows(2, (1, 1), (3, 2)), rows(3, (2, 1), (3, 2), (None, 3)),
             rows(4, (3, 1))]  # game 4 is solo: not in the table
    table = S.season_table(games, {1: "Alice", 2: "Bruno", 3: "Chloé"})
    assert [r.name for r in table] == ["Alice", "Bruno", "Chloé"]
    assert [(r.games, r.wins) for r in table] == [(2, 2), (2, 1), (2, 0)]
    assert table[0].rating > table[1].rating > table[2].rating
    assert S.season_table([]) == []
    # a season starts fresh: the same two games give the same table whatever came before
    assert S.season_table(games[:2]) == S.season_table(games[:2])


def test_settings_written_by_config():
    new = S.configure({"language": "fr"}, role=42, season=S.QUARTER)
    assert new == {"language": "fr", S.ROLE_SETTING: 42, S.SETTING: S.QUARTER}
    assert S.period_of({}) == S.MONTH and S.period_of({"season": "weird"}) == S.MONTH
    assert "<@&42>" in S.describe_lines(new, "fr")[0] and "trimestrielles" in S.describe_lines(new, "fr")[1]


def test_an_unset_organisers_role_is_said_in_words():
    from bot.community.seasons import ROLE_SETTING, describe_lines

    assert describe_lines({}, "en")[0] == "Tournament organisers: Manage Server (no organisers' role chosen)"
    assert "—" not in describe_lines({}, "fr")[0] and "aucun rôle" in describe_lines({}, "fr")[0]
    assert describe_lines({ROLE_SETTING: 42}, "en")[0] == "Tournament organisers: Manage Server or the <@&42> role"
