"""Seasons (issue 28): the server's ratings season by season, monthly or quarterly.

A season is a window of UTC calendar time: a month ("2026-11") or a quarter ("2026-q4"), set per
server with ``/ludibot config saison:`` (monthly by default). A season's table is computed from
the games of that window only, every player starting fresh (OpenSkill's newcomer rating), the
games folded in the order they finished with the same model and rules as the all-time ratings
(:func:`bot.community.ratings.compute`: AI seats out, solo games not rated). So a past season is
always browsable and always the same; nothing is stored but the games themselves.

This module is pure (no I/O): windows, labels, the table of a season from its games' results, and
the settings ``/ludibot config`` writes (the season period and the tournament organisers' role).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot import i18n
from bot.community.ratings import MODEL, compute, display
from bot.storage import ResultRow

MONTH, QUARTER = "month", "quarter"
PERIODS = (MONTH, QUARTER)
SETTING = "season"
#: the channel the season podiums are posted in (where ``saison:`` was set)
CHANNEL_SETTING = "season_channel"
#: the role that may create tournaments besides Manage Server (``/ludibot config organisateur:``)
ROLE_SETTING = "tournament_role"


def period_of(settings: dict[str, Any]) -> str:
    value = settings.get(SETTING)
    return value if value in PERIODS else MONTH


@dataclass(frozen=True, order=True)
class Season:
    year: int
    index: int  # month 1..12, or quarter 1..4
    period: str = MONTH

    @property
    def label(self) -> str:
        """The season's id as typed in ``/classement saison:`` ("2026-11", "2026-q4")."""
        return f"{self.year}-{self.index:02d}" if self.period == MONTH else f"{self.year}-q{self.index}"

    @property
    def first_month(self) -> int:
        return self.index if self.period == MONTH else 3 * (self.index - 1) + 1

    @property
    def start(self) -> float:
        return datetime(self.year, self.first_month, 1, tzinfo=UTC).timestamp()

    @property
    def end(self) -> float:
        return self.next().start

    def next(self) -> Season:
        size = 12 if self.period == MONTH else 4
        return Season(self.year + self.index // size, self.index % size + 1, self.period)

    def previous(self) -> Season:
        size = 12 if self.period == MONTH else 4
        return Season(self.year - (self.index == 1), (self.index - 2) % size + 1, self.period)

    def name(self, lg: str) -> str:
        if self.period == MONTH:
            return i18n.t(f"tournament.month.m{self.index}", lg, year=str(self.year))
        return i18n.t("tournament.season.quarter_name", lg, index=self.index, year=str(self.year))


def season_at(when: float, period: str = MONTH) -> Season:
    d = datetime.fromtimestamp(when, UTC)
    return Season(d.year, d.month if period == MONTH else (d.month - 1) // 3 + 1, period)


def parse(label: str, period: str, now: float) -> Season | None:
    """``"2026-11"``, ``"2026-q4"`` (``t4`` in French too), or empty for the current season; None
    when it is not a season of this server's period or lies in the future."""
    text = (label or "").strip().lower()
    current = season_at(now, period)
    if not text:
        return current
    try:
        year_s, part = text.split("-", 1)
        year = int(year_s)
        if period == QUARTER:
            if part[:1] not in ("q", "t"):
                return None
            index, size = int(part[1:]), 4
        else:
            index, size = int(part), 12
    except ValueError:
        return None
    if not (1970 <= year <= 9999 and 1 <= index <= size):
        return None
    season = Season(year, index, period)
    return season if season <= current else None


def recent(now: float, period: str, count: int = 12) -> list[Season]:
    """The current season and the ones before it, newest first (for autocomplete)."""
    out = [season_at(now, period)]
    while len(out) < count:
        out.append(out[-1].previous())
    return out


@dataclass(frozen=True)
class SeasonRow:
    user_id: int
    name: str
    rating: int  # displayed (1000 + 40 × ordinal), this season only
    games: int
    wins: int


def season_table(games: Iterable[Sequence[ResultRow]], names: dict[int, str] | None = None) -> list[SeasonRow]:
    """The season's table from its games' results (in the order they finished): each player's
    season rating (fresh start), games and wins, best first."""
    current: dict[int, tuple[float, float]] = {}
    played: dict[int, int] = {}
    wins: dict[int, int] = {}
    names = dict(names or {})
    for results in games:
        humans = [r for r in results if r.user_id is not None]
        if len(results) < 2 or not humans:
            continue  # solo games feed the records, not the ratings
        current.update(compute({}, list(results), current))
        best = min(r.rank for r in results)
        for r in humans:
            played[r.user_id] = played.get(r.user_id, 0) + 1
            wins[r.user_id] = wins.get(r.user_id, 0) + (r.rank == best)
    rows = []
    for uid, (mu, sigma) in current.items():
        ordinal = MODEL.rating(mu=mu, sigma=sigma).ordinal()
        rows.append(SeasonRow(uid, names.get(uid, str(uid)), display(ordinal), played.get(uid, 0), wins.get(uid, 0)))
    return sorted(rows, key=lambda r: (-r.rating, -r.games, r.name, r.user_id))


# --- /ludibot config ----------------------------------------------------------------------------


def configure(settings: dict[str, Any], *, role: int | None = None, season: str | None = None,
              channel: int | None = None) -> dict[str, Any]:
    """The settings after ``/ludibot config organisateur: saison:``; the season's podiums go to
    ``channel`` (where ``saison:`` was set)."""
    new = dict(settings)
    if season is not None and channel is not None:
        new[CHANNEL_SETTING] = int(channel)
    if role is not None:
        new[ROLE_SETTING] = int(role)
    if season is not None:
        if season not in PERIODS:
            raise ValueError(season)
        new[SETTING] = season
    return new


def describe_lines(settings: dict[str, Any], lg: str) -> list[str]:
    role = settings.get(ROLE_SETTING)
    return [i18n.t("tournament.config.role", lg, role=f"<@&{role}>") if role else i18n.t("tournament.config.role_none", lg),
            i18n.t("tournament.config.season", lg, season=i18n.t(f"tournament.season.{period_of(settings)}", lg))]


def saved_lines(settings: dict[str, Any], lg: str, *, role: bool, season: bool) -> list[str]:
    lines = []
    if role:
        lines.append(i18n.t("tournament.config.role_saved", lg, role=f"<@&{settings[ROLE_SETTING]}>"))
    if season:
        lines.append(i18n.t("tournament.config.season_saved", lg,
                            season=i18n.t(f"tournament.season.{period_of(settings)}", lg)))
    return lines
