"""Season tables from storage, and the podium of a season that ended (issue 28; the rules are in
:mod:`bot.community.seasons`).

The games of a season come from :class:`SeasonSource`. Until the unified SQL store answers
``season_results`` with one indexed query, :class:`ExportSource` reads them from the server's
export (every finished game of the server, filtered here): correct, but its cost grows with the
server's history, so a past season's table (which never changes) is cached, the current one for a
minute.

**The podium of a season that ended** is posted in the channel where ``/ludibot config saison:`` was
last set, when the season ends, quiet server or not. A season's end is a *claimed deadline* of the
server (table ``season_ends``, one row per server, period and season): written when seasons are set
up and, after each end, for the next season (also by any finished game of the server, which catches
up servers set up before the deadlines existed); every process's community poll fires the due ones
of its shards: it leases the row (one conditional update, like a timeout's deadline), posts the
podium, then closes the row. Two processes never both post: only the lease holder does, and a row
is closed once. A crash after the lease and before the close leaves it pending; once the lease runs
out the next poll takes it again and, before posting, looks at the channel's latest messages for
the podium already posted (a crash between the post and the close): at most once per server and
season.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

import engines
from bot import i18n
from bot.community import seasons as S
from bot.storage import DONE, FAILED, VOID, ResultRow, SeasonEnd, Store

log = logging.getLogger("ludibot.seasons")

CURRENT_TTL = 60.0
CACHE_MAX = 512
CHANNEL_SETTING = S.CHANNEL_SETTING
LEASE = 120.0  # seconds a process holds a season end it is posting
MAX_ATTEMPTS = 3
#: before season ends were deadlines: the season announced last, by server (read once, to catch up)
LEGACY_KEY = "season_announced:{}"

#: ``post(guild_id, channel_id, season, podiums, retry)``: posts the podium; ``retry``: an earlier claim
#: of this season end was never closed (the podium may be in the channel already)
Poster = Callable[[int, int, S.Season, dict[str, list[S.SeasonRow]], bool], Any]


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

    def forget(self, guild_id: int) -> None:
        """Read the server's games afresh next time."""
        self._docs.pop(guild_id, None)

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
        #: season ends this process wrote or found written (spares a write per finished game)
        self._scheduled: set[tuple[int, str, str]] = set()
        #: (shard ids, shard count) of this process: it fires its servers' season ends only (None = all)
        self.shards: tuple[tuple[int, ...], int] | None = None
        self.post: Poster | None = None
        self.kinds: Callable[[], list[str]] = engines.available

    async def period(self, guild_id: int) -> str:
        return S.period_of(await self.store.guild_settings(guild_id))

    async def table(self, guild_id: int, kind: str, season: S.Season) -> list[S.SeasonRow]:
        now = self.clock()
        key = (guild_id, kind, season.period, season.label)
        hit = self._cache.get(key)
        # a table read after the season's end is final; one read before it, only for a minute (else a podium
        # would miss the games of the season's last minute)
        if hit is not None and (hit[0] >= season.end or now - hit[0] < CURRENT_TTL):
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

    async def schedule(self, guild_id: int) -> SeasonEnd | None:
        """The end of the server's current season as a deadline, when its podiums have a channel (once:
        an existing row, in any state, is kept). Catches up a season the former path (the first finished
        game after the end) never announced. Returns the deadline (None: no season channel)."""
        settings = await self.store.guild_settings(guild_id)
        if not settings.get(CHANNEL_SETTING):
            return None
        season = S.season_at(self.clock(), S.period_of(settings))
        end = SeasonEnd(guild_id, season.period, season.label, season.end)
        if end.key in self._scheduled:
            return end
        await self.store.schedule_season_end(guild_id, season.period, season.label, season.end)
        last = await self.store.get_meta(LEGACY_KEY.format(guild_id))
        before = season.previous()
        if last is not None and last != f"{before.period}:{before.label}":
            # set up under the former path, the season before ended unannounced: its end is due now
            await self.store.schedule_season_end(guild_id, before.period, before.label, before.end)
            await self.store.set_meta(LEGACY_KEY.format(guild_id), f"{before.period}:{before.label}")  # caught up
        if len(self._scheduled) > 10_000:
            self._scheduled.clear()
        self._scheduled.add(end.key)
        return end

    async def podiums(self, guild_id: int, season: S.Season) -> dict[str, list[S.SeasonRow]]:
        """The top three of each game in the season (games nobody played are left out), from the games as
        stored now (not a table cached before the season's last minutes)."""
        forget = getattr(self.source, "forget", None)
        if forget is not None:
            forget(guild_id)
        for key in [k for k in self._cache if k[0] == guild_id and k[2:] == (season.period, season.label)]:
            del self._cache[key]
        out = {}
        for kind in self.kinds():
            rows = await self.table(guild_id, kind, season)
            if rows:
                out[kind] = rows[:3]
        return out

    async def tick(self) -> int:
        """Fire the season ends due now (this process's servers): how many podiums were posted."""
        now = self.clock()
        posted = 0
        for due in await self.store.due_season_ends(now, 100, shards=self.shards):
            end = await self.store.claim_season_end(due.key, now, LEASE)
            if end is None:
                continue  # another process holds it, or closed it
            try:
                posted += await self._fire(end, now)
            except Exception:
                log.exception("season end %s of server %s failed", end.label, end.guild_id)
                if end.attempts >= MAX_ATTEMPTS:
                    await self.store.close_season_end(end.key, FAILED, now)
                else:
                    await self.store.release_season_end(end.key)
                continue
            try:
                await self.schedule(end.guild_id)  # the next season's end
            except Exception:
                log.exception("next season end of server %s not scheduled", end.guild_id)
        return posted

    async def _fire(self, end: SeasonEnd, now: float) -> int:
        """Under the lease: post the season's podium in the season channel, then close the deadline."""
        settings = await self.store.guild_settings(end.guild_id)
        channel = settings.get(CHANNEL_SETTING)
        season = S.parse(end.label, end.period, now)
        if not channel or season is None or S.period_of(settings) != end.period:
            # seasons no longer posted, or now counted by another period: nothing ends under this one
            await self.store.close_season_end(end.key, VOID, now)
            return 0
        podiums = await self.podiums(end.guild_id, season)
        if podiums and self.post is not None:
            res = self.post(end.guild_id, int(channel), season, podiums, end.attempts > 1)
            if asyncio.iscoroutine(res):
                await res
        await self.store.close_season_end(end.key, DONE, now)
        return int(bool(podiums))


def podium_text(season: S.Season, podiums: dict[str, list[S.SeasonRow]], lg: str) -> str:
    lines = [i18n.t("tournament.season_end.head", lg, season=season.name(lg))]
    for kind, rows in podiums.items():
        medals = " · ".join(i18n.t("tournament.season_end.place", lg, rank=i + 1, player=f"<@{r.user_id}>",
                                   rating=r.rating) for i, r in enumerate(rows))
        lines.append(i18n.t("tournament.season_end.line", lg, game=i18n.t(f"{kind}.name.title", lg), podium=medals))
    return "\n".join(lines)
