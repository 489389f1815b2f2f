"""Metrics: Discord's 429s and 403s counted from discord.py's HTTP layer, the scheduler's lag, /healthz."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import aiohttp
from aiohttp import web

from bot import metrics
from bot.metrics import REGISTRY, MetricsServer


def value(name: str, **labels: str) -> float:
    v = REGISTRY.get_sample_value(name, labels)
    return 0.0 if v is None else v


async def test_429s_and_403s_are_counted_from_the_http_trace():
    async def limited(request):
        return web.json_response({"message": "You are being rate limited.", "retry_after": 0.01, "global": False},
                                 status=429, headers={"X-RateLimit-Scope": "shared"})

    async def forbidden(request):
        return web.json_response({"message": "Missing Permissions", "code": 50013}, status=403)

    async def global_limit(request):
        return web.json_response({"global": True}, status=429, headers={"X-RateLimit-Global": "true"})

    async def ok(request):
        return web.json_response({})

    app = web.Application()
    app.router.add_post("/limited", limited)
    app.router.add_post("/global", global_limit)
    app.router.add_post("/forbidden", forbidden)
    app.router.add_get("/ok", ok)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    before = {k: value("ludibot_discord_http_responses_total", status=s, scope=c)
              for k, (s, c) in {"shared": ("429", "shared"), "global": ("429", "global"), "403": ("403", "")}.items()}
    posts = value("ludibot_discord_http_requests_total", method="POST")
    try:
        async with aiohttp.ClientSession(trace_configs=[metrics.http_trace()]) as http:
            for path, method in [("/limited", "POST"), ("/limited", "POST"), ("/global", "POST"),
                                 ("/forbidden", "POST"), ("/ok", "GET")]:
                async with http.request(method, f"http://127.0.0.1:{port}{path}") as resp:
                    await resp.read()
    finally:
        await runner.cleanup()
    assert value("ludibot_discord_http_responses_total", status="429", scope="shared") == before["shared"] + 2
    assert value("ludibot_discord_http_responses_total", status="429", scope="global") == before["global"] + 1
    assert value("ludibot_discord_http_responses_total", status="403", scope="") == before["403"] + 1
    assert value("ludibot_discord_http_requests_total", method="POST") == posts + 4


def test_the_bot_gives_discord_py_the_trace():
    from bot.client import Ludibot
    from bot.config import load_settings

    bot = Ludibot(load_settings(env={}), store=object())
    assert bot.http.http_trace is not None and bot.http.http_trace.on_request_end


async def test_scheduler_lag_is_observed(db_path):
    from bot.community import Community
    from bot.sessions import Player, SessionService
    from bot.storage import SQLiteStore

    now = [1_000_000.0]
    store = SQLiteStore(db_path, clock=lambda: now[0])
    await store.open()
    try:
        svc = SessionService(store, clock=lambda: now[0], seed_source=lambda: 1)
        com = Community(store, svc, None, clock=lambda: now[0])
        g = await svc.open_lobby("ludix", guild_id=1, channel_id=2, player=Player(10, "A"))
        g = await svc.join(g.id, Player(11, "B"))
        await svc.start(g.id, Player(10, "A"))
        first = min(d.due for d in await store.deadlines_of(g.id))
        count, total = value("ludibot_scheduler_lag_seconds_count"), value("ludibot_scheduler_lag_seconds_sum")
        now[0] = first + 42
        assert await com.scheduler.tick() >= 1
        assert value("ludibot_scheduler_lag_seconds_count") == count + 1
        assert value("ludibot_scheduler_lag_seconds_sum") - total == 42
    finally:
        await store.close()


class _Shard:
    def __init__(self, closed: bool, latency: float) -> None:
        self._closed, self.latency = closed, latency

    def is_closed(self) -> bool:
        return self._closed


class _Store:
    def __init__(self) -> None:
        self.ok, self.counts, self.reads = True, {"ludix": 2}, 0

    async def healthy(self) -> bool:
        return self.ok

    async def count_running(self):
        self.reads += 1
        return dict(self.counts)


async def test_health_needs_the_database_and_every_shard_of_the_process():
    store = _Store()
    bot = SimpleNamespace(store=store, shard_ids=[2, 3], shard_count=4, is_ready=lambda: True,
                          shards={2: _Shard(False, 0.05), 3: _Shard(False, float("inf"))})
    server = MetricsServer(bot, "127.0.0.1", 0)
    assert (await server.health())["ok"]
    bot.shards[3]._closed = True  # a shard lost its connection
    report = await server.health()
    assert not report["ok"] and report["shards"]["3"]["connected"] is False and report["database"]
    bot.shards[3]._closed = False
    del bot.shards[3]  # not launched yet
    assert not (await server.health())["ok"]
    bot.shards[3] = _Shard(False, 0.1)
    store.ok = False
    report = await server.health()
    assert not report["ok"] and not report["database"]


async def test_running_games_are_read_cheaply():
    now = [0.0]
    store = _Store()
    bot = SimpleNamespace(store=store, shard_ids=None, shard_count=1, shards={0: _Shard(False, 0.02)},
                          is_ready=lambda: True)
    server = MetricsServer(bot, "127.0.0.1", 0, clock=lambda: now[0])
    await server.refresh()
    assert value("ludibot_running_games", game="ludix") == 2 and store.reads == 1
    assert value("ludibot_gateway_latency_seconds", shard="0") == 0.02
    store.counts = {"ranta": 1}
    now[0] = 1.0
    await server.refresh()
    assert store.reads == 1  # cached for a few seconds: scraping often costs no query
    now[0] = 10.0
    await server.refresh()
    assert value("ludibot_running_games", game="ludix") == 0 and value("ludibot_running_games", game="ranta") == 1


async def test_render_workers_are_reported(tmp_path):
    """The scrape says how many render workers are alive and how many died and were replaced."""
    import os

    from bot.render_pool import RenderPool

    pool = RenderPool(2)
    await pool.start()
    try:
        bot = SimpleNamespace(store=_Store(), shard_ids=None, shard_count=1, shards={0: _Shard(False, 0.02)},
                              is_ready=lambda: True, render_pool=pool)
        server = MetricsServer(bot, "127.0.0.1", 0)
        await server.refresh()
        assert value("ludibot_render_workers") == 2 and value("ludibot_render_worker_restarts") == 0
        victim = pool._all[0].proc.pid
        os.kill(victim, 9)  # an out-of-memory kill, say
        await pool._all[0].proc.wait()
        await server.refresh()
        assert value("ludibot_render_workers") == 1
        for _ in range(200):  # replaced at once, before any picture needs it
            if pool.alive_workers == 2:
                break
            await asyncio.sleep(0.05)
        await server.refresh()
        assert value("ludibot_render_workers") == 2 and value("ludibot_render_worker_restarts") == 1
        assert len(set(await asyncio.gather(*(pool.run(os.getpid) for _ in range(6))))) == 2
    finally:
        await pool.close()
    await server.refresh()
    assert value("ludibot_render_workers") == 0


async def test_a_failing_database_check_is_logged_once_a_minute_per_kind_and_reported_unhealthy(caplog):
    now = [0.0]
    store = _Store()
    failure: list[BaseException] = [OSError("connection refused")]

    async def healthy() -> bool:
        raise failure[0]

    store.healthy = healthy  # type: ignore[method-assign]
    bot = SimpleNamespace(store=store, shard_ids=None, shard_count=1, shards={0: _Shard(False, 0.02)},
                          is_ready=lambda: True)
    server = MetricsServer(bot, "127.0.0.1", 0, clock=lambda: now[0])

    def logged() -> list[logging.LogRecord]:
        return [r for r in caplog.records if r.name == "ludibot.metrics" and r.levelno >= logging.ERROR]

    with caplog.at_level(logging.ERROR, logger="ludibot.metrics"):
        for _ in range(3):  # a probe every 10 s: one line, with the exception
            report = await server.health()
            assert not report["ok"] and report["database"] is False
            now[0] += 10
        assert len(logged()) == 1 and logged()[0].exc_info[1] is failure[0]
        failure[0] = RuntimeError("another kind")  # a new kind of failure is logged at once
        assert not (await server.health())["ok"]
        assert len(logged()) == 2 and logged()[1].exc_info[0] is RuntimeError
        failure[0] = OSError("still refused")
        now[0] += 60  # a minute after the first: logged again, with the count of the quiet ones
        assert not (await server.health())["ok"]
        assert len(logged()) == 3 and "2 more like it" in logged()[2].getMessage()
