"""Prometheus metrics and the health check (issue 14 part 5), opt-in with ``LUDIBOT_METRICS_PORT``.

The metrics live in one registry of their own; recording is always on and costs a few
dictionary look-ups, serving is only when a port is set. ``/metrics`` and ``/healthz`` are
served by aiohttp on the bot's own event loop (no thread), bound to ``LUDIBOT_METRICS_HOST``
(127.0.0.1 by default).

For other parts of the bot (the publisher calls these)::

    from bot import metrics
    metrics.publication_backlog.set(n)      # games whose public message is due
    metrics.publication_retries.inc()       # a publication tried again (429, 5xx, …)
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import aiohttp
from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)

from bot.storage.faults import FAULTS, unwritable

log = logging.getLogger("ludibot.metrics")

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)

_LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)

command_latency = Histogram(
    "ludibot_command_seconds", "Time to handle an interaction, by command (slash command or button's game)",
    ["command"], buckets=_LATENCY_BUCKETS, registry=REGISTRY)
moves = Counter("ludibot_moves_total", "Moves committed, by game and by who played them (player, ai, timeout…)",
                ["game", "by"], registry=REGISTRY)
running_games = Gauge("ludibot_running_games", "Games running now, by game (every process's, from the database)",
                      ["game"], registry=REGISTRY)
publication_backlog = Gauge("ludibot_publication_backlog", "Games whose public message for their latest version "
                            "is still due", registry=REGISTRY)
publication_retries = Counter("ludibot_publication_retries_total", "Publications tried again (rate limit, "
                              "server error…)", registry=REGISTRY)
discord_responses = Counter("ludibot_discord_http_responses_total", "Discord REST responses that matter: 429 (by "
                            "X-RateLimit-Scope) and 403, and every other error status",
                            ["status", "scope"], registry=REGISTRY)
discord_requests = Counter("ludibot_discord_http_requests_total", "Discord REST requests made", ["method"],
                           registry=REGISTRY)
scheduler_lag = Histogram("ludibot_scheduler_lag_seconds", "How late a deadline (reminder or timeout) was taken "
                          "up: now - due", buckets=(0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 3600),
                          registry=REGISTRY)
gateway_latency = Gauge("ludibot_gateway_latency_seconds", "Heartbeat latency, by shard of this process",
                        ["shard"], registry=REGISTRY)
shard_connected = Gauge("ludibot_shard_connected", "1 when the shard's gateway connection is open", ["shard"],
                        registry=REGISTRY)
render_workers = Gauge("ludibot_render_workers", "Render worker processes alive in this process's pool "
                       "(0: pictures drawn in a thread)", registry=REGISTRY)
render_worker_restarts = Gauge("ludibot_render_worker_restarts", "Render workers that died and were replaced "
                               "since this process started", registry=REGISTRY)

storage_writable = Gauge("ludibot_storage_writable", "1 while the database takes writes; 0 after it refused one "
                         "(full disk, read-only), until a write goes through again", registry=REGISTRY)
storage_refused = Counter("ludibot_storage_refused_writes_total", "Player actions refused because the database "
                          "could not be written, by reason (full, readonly)", ["reason"], registry=REGISTRY)

RUNNING_CACHE_S = 5.0  # the running-games count is read from the database at most this often
HEALTH_LOG_EVERY_S = 60  # a failing database check is logged at most this often per kind of failure


class BotMetrics:
    """What the bot's parts record through ``bot.metrics`` (the publisher calls these)."""

    @staticmethod
    def publication_backlog(n: int) -> None:
        publication_backlog.set(n)

    @staticmethod
    def publication_retry() -> None:
        publication_retries.inc()


def observe_command(command: str, seconds: float) -> None:
    command_latency.labels(command=command or "?").observe(max(0.0, seconds))


def count_move(game: str, by: str | None) -> None:
    moves.labels(game=game, by=by or "player").inc()


def observe_scheduler_lag(seconds: float) -> None:
    scheduler_lag.observe(max(0.0, seconds))


def http_trace() -> aiohttp.TraceConfig:
    """An aiohttp trace for discord.py's HTTP client (``Client(http_trace=…)``): every REST answer is
    seen here, including the 429s discord.py retries by itself."""
    trace = aiohttp.TraceConfig()

    async def on_request_end(session, ctx, params: aiohttp.TraceRequestEndParams) -> None:
        discord_requests.labels(method=params.method).inc()
        status = params.response.status
        if status >= 400:
            scope = params.response.headers.get("X-RateLimit-Scope", "") if status == 429 else ""
            if status == 429 and not scope:
                scope = "global" if params.response.headers.get("X-RateLimit-Global") else "unknown"
            discord_responses.labels(status=str(status), scope=scope).inc()

    trace.on_request_end.append(on_request_end)
    return trace


class MetricsServer:
    """``/metrics`` and ``/healthz`` for one bot process."""

    def __init__(self, bot: Any, host: str, port: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.bot = bot
        self.host = host
        self.port = port
        self.clock = clock
        self._runner: web.AppRunner | None = None
        self._running_at: float | None = None
        self._running_kinds: set[str] = set()
        self._health_logged: dict[str, float] = {}  # failure kind -> when it was last logged
        self._health_quiet: dict[str, int] = {}  # failure kind -> failures not logged since
        self._refused_seen: dict[str, int] = {}

    # --- gauges computed when scraped -------------------------------------------------------
    def expected_shards(self) -> list[int]:
        ids = getattr(self.bot, "shard_ids", None)
        if ids is not None:
            return sorted(ids)
        count = getattr(self.bot, "shard_count", None)
        return list(range(count)) if count else [0]

    def shard_states(self) -> dict[int, tuple[bool, float | None]]:
        """shard id -> (connected, latency in seconds or None)."""
        shards = getattr(self.bot, "shards", {}) or {}
        out: dict[int, tuple[bool, float | None]] = {}
        for sid in self.expected_shards():
            info = shards.get(sid)
            if info is None:
                out[sid] = (False, None)
                continue
            connected = not info.is_closed()
            latency = info.latency
            out[sid] = (connected, latency if latency == latency and latency != float("inf") else None)
        return out

    def refresh_storage(self) -> None:
        """The database's writability and the refusals counted since the last scrape (bot.storage.faults)."""
        storage_writable.set(1 if FAULTS.writable else 0)
        for reason, count in FAULTS.refused.items():
            seen = self._refused_seen.get(reason, 0)
            if count > seen:
                storage_refused.labels(reason=reason).inc(count - seen)
            self._refused_seen[reason] = count

    async def writable(self) -> bool:
        """The database takes writes: after a refusal, one small write tries again (clears the fault when
        it goes through)."""
        if FAULTS.writable:
            return True
        try:
            await asyncio.wait_for(self.bot.store.set_meta("healthz:write", str(time.time())), timeout=3)
        except Exception as exc:
            reason = unwritable(exc)
            if reason is not None:
                FAULTS.reason = reason
            return False
        FAULTS.recovered()
        return True

    async def refresh(self) -> None:
        self.refresh_storage()
        pool = getattr(self.bot, "render_pool", None)
        if pool is not None:
            render_workers.set(pool.alive_workers)
            render_worker_restarts.set(pool.restarts)
        for sid, (connected, latency) in self.shard_states().items():
            shard_connected.labels(shard=str(sid)).set(1 if connected else 0)
            if latency is not None:
                gateway_latency.labels(shard=str(sid)).set(latency)
        now = self.clock()
        if self._running_at is None or now - self._running_at >= RUNNING_CACHE_S:
            counts = await self.bot.store.count_running()
            for kind in self._running_kinds - set(counts):
                running_games.labels(game=kind).set(0)
            for kind, n in counts.items():
                running_games.labels(game=kind).set(n)
            self._running_kinds |= set(counts)
            self._running_at = now

    # --- handlers -------------------------------------------------------------------------
    async def handle_metrics(self, request: web.Request) -> web.Response:
        try:
            await asyncio.wait_for(self.refresh(), timeout=5)
        except Exception:
            log.exception("metrics refresh failed")  # still serve what we have
        return web.Response(body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def health(self) -> dict[str, Any]:
        try:
            db = bool(await asyncio.wait_for(self.bot.store.healthy(), timeout=3))
        except Exception as exc:  # unhealthy, and said in the log (a probe may call every few seconds)
            db = False
            self._log_health_failure(exc)
        writable = await self.writable() if db else False
        self.refresh_storage()
        shards = self.shard_states()
        ready = self.bot.is_ready() if hasattr(self.bot, "is_ready") else True
        ok = db and writable and ready and all(c for c, _ in shards.values())
        report: dict[str, Any] = {"ok": ok, "database": db, "writable": writable, "ready": ready,
                                  "shards": {str(s): {"connected": c, "latency": lat} for s, (c, lat) in shards.items()}}
        if db and not writable:
            report["reason"] = f"database not writable: {FAULTS.reason or 'unknown'}"
        return report

    def _log_health_failure(self, exc: BaseException) -> None:
        """Log a failed database check with its traceback, at most once a minute per kind of failure."""
        kind = type(exc).__name__
        now = self.clock()
        last = self._health_logged.get(kind)
        if last is not None and now - last < HEALTH_LOG_EVERY_S:
            self._health_quiet[kind] = self._health_quiet.get(kind, 0) + 1
            return
        self._health_logged[kind] = now
        quiet = self._health_quiet.pop(kind, 0)
        log.error("health check: the database check failed (%s; %d more like it not logged in the last %d s)",
                  kind, quiet, HEALTH_LOG_EVERY_S, exc_info=exc)

    async def handle_healthz(self, request: web.Request) -> web.Response:
        report = await self.health()
        return web.json_response(report, status=200 if report["ok"] else 503)

    # --- life -----------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self.handle_metrics)
        app.router.add_get("/healthz", self.handle_healthz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        log.info("metrics and health on http://%s:%d/metrics and /healthz", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
