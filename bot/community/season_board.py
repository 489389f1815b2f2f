"""Season tables from storage, and the podium of a season that ended (issue 28; the rules are in
:mod:`bot.community.seasons`).

The games of a season come from :class:`SeasonSource`. Until the unified SQL store answers
``season_results`` with one indexed query, :class:`ExportSource` reads them from the server's
export (every finished game of the server, filtered here): correct, but its cost grows with the
server's history, so a past season's table (which never changes) is cached, the current one for a
minute.

**The podium of a season that ended** is posted in the channel where ``/ludibot config saison:``
was last set, by the first game to finish on that server after the season's end (a server without
any game since has nothing new to crown). Once: the season announced last is kept in the store's
``meta`` under the server's key, and a server belongs to one shard process, the one whose games
finish there.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from bot import i18n
from bot.community import seasons as S
from bot.storage import ResultRow, Store

log = logging.getLogger("ludibot.seasons")

CURRENT_TTL = 60.0
CACHE_MAX = 512
CHANNEL_SETTING = S.CHANNEL_SETTING


class SeasonSource(Protocol):
    async def season_results(self, guild_id: int, kind: str, start: float,
                             end: float) -> tuple[list[list[ResultRow]], dict[int, str]]:
        """The results of the server's finished games of ``kind`` in [start, end), in the order they
        finished, and the players' names."""


class ExportSource:
    """:class:`SeasonSource` over ``Store.export_guild`` (see the module's doc). One export serves a
    few seconds (a ``/profil`` reads several games' seasons at once)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic, ttl: float = 5.0) -> None:
        self.store = store
        self.clock = clock
        self.ttl = ttl
        self._docs: dict[int, tuple[float, dict[str, Any]]] = {}

    async def _export(self, guild_id: int) -> dict[str, Any]:
        hit = self._docs.get(guild_id)
        if hit is not None and self.clock() - hit[0] < self.ttl:
            return hit[1]
        doc = await self.store.export_guild(guild_id)
        if len(self._docs) > 64:
            self._docs.clear()
        self._docs[guild_id] = (self.clock(), doc)
        return doc

    async def season_results(self, guild_id: int, kind: str, start: float,
                             end: float) -> tuple[list[list[ResultRow]], dict[int, str]]:
        doc = await self._export(guild_id)
        games = sorted((g for g in doc["games"] if g["game"] == kind and g["finished_at"] is not None
                        and start <= g["finished_at"] < end), key=lambda g: (g["finished_at"], g["id"]))
        names: dict[int, str] = {}
        out = []
        for g in games:
            rows = []
            for p in g["players"]:
                if p.get("rank") is None:
                    continue
                rows.append(ResultRow(g["id"], p["seat"], p["user_id"], p.get("score"), p["rank"]))
                if p["user_id"] is not None:
                    names[p["user_id"]] = p["name"]
            if rows:
                out.append(rows)
        return out, names


def season_source(store: Any, clock: Callable[[], float] = time.time) -> SeasonSource:
    return store if hasattr(store, "season_results") else ExportSource(store, clock)


class SeasonBoard:
    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 source: SeasonSource | None = None) -> None:
        self.store = store
        self.clock = clock
        self.source = source or season_source(store, clock)
        self._cache: dict[tuple, tuple[float, list[S.SeasonRow]]] = {}

    async def period(self, guild_id: int) -> str:
        return S.period_of(await self.store.guild_settings(guild_id))

    async def table(self, guild_id: int, kind: str, season: S.Season) -> list[S.SeasonRow]:
        now = self.clock()
        key = (guild_id, kind, season.period, season.label)
        hit = self._cache.get(key)
        past = season.end <= now
        if hit is not None and (past or now - hit[0] < CURRENT_TTL):
            return hit[1]
        games, names = await self.source.season_results(guild_id, kind, season.start, season.end)
        rows = S.season_table(games, names)
        if len(self._cache) >= CACHE_MAX:
            self._cache.clear()
        self._cache[key] = (now, rows)
        return rows

    async def player_seasons(self, guild_id: int, user_id: int, kinds: list[str],
                             count: int = 2) -> list[tuple[S.Season, str, int, int, S.SeasonRow]]:
        """``(season, kind, position, players, row)`` of the member in the latest ``count`` seasons."""
        out = []
        for season in S.recent(self.clock(), await self.period(guild_id), count):
            for kind in kinds:
                rows = await self.table(guild_id, kind, season)
                for i, r in enumerate(rows):
                    if r.user_id == user_id:
                        out.append((season, kind, i + 1, len(rows), r))
        return out

    async def ended(self, guild_id: int, kinds: list[str]) -> tuple[int, S.Season, dict[str, list[S.SeasonRow]]] | None:
        """The season to crown now, once: ``(channel, season, {kind: podium})``, or None."""
        settings = await self.store.guild_settings(guild_id)
        channel = settings.get(CHANNEL_SETTING)
        if not channel:
            return None
        season = S.season_at(self.clock(), S.period_of(settings)).previous()
        key = f"season_announced:{guild_id}"
        last = await self.store.get_meta(key)
        if last == f"{season.period}:{season.label}":
            return None
        await self.store.set_meta(key, f"{season.period}:{season.label}")
        if last is None:
            return None  # the first look after seasons were set up: nothing ended under them yet
        podiums = {}
        for kind in kinds:
            rows = await self.table(guild_id, kind, season)
            if rows:
                podiums[kind] = rows[:3]
        return (int(channel), season, podiums) if podiums else None


def podium_text(season: S.Season, podiums: dict[str, list[S.SeasonRow]], lg: str) -> str:
    lines = [i18n.t("tournament.season_end.head", lg, season=season.name(lg))]
    for kind, rows in podiums.items():
        medals = " · ".join(i18n.t("tournament.season_end.place", lg, rank=i + 1, player=f"<@{r.user_id}>",
                                   rating=r.rating) for i, r in enumerate(rows))
        lines.append(i18n.t("tournament.season_end.line", lg, game=i18n.t(f"{kind}.name.title", lg), podium=medals))
    return "\n".join(lines)
