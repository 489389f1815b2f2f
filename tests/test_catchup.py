"""The catch-up after downtime (issue 16): many due deadlines fire at a bounded pace, never more
than Discord allows in one channel or in all, each exactly once."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.community import Community
from bot.community.scheduler import Pacer
from bot.sessions import Player, SessionService
from bot.storage import REMINDER, open_store

GUILD = 1
HOUR = 3600.0
ALICE, BRUNO = Player(100, "Alice"), Player(101, "Bruno")


class Time:
    """A monotonic clock running ``SPEED`` times faster than real time, and its sleep: the pacer's
    waits are real (the lanes really run side by side) but short."""

    SPEED = 100.0

    def __init__(self) -> None:
        self.t0 = time.monotonic()

    def __call__(self) -> float:
        return (time.monotonic() - self.t0) * self.SPEED

    @property
    def now(self) -> float:
        return self()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds / self.SPEED)


def check_pace(times: list[tuple[float, int]], rate: float, per_channel: int, window: float) -> None:
    ordered = sorted(times)
    for (a, _), (b, _) in zip(ordered, ordered[1:], strict=False):
        assert b - a >= 1 / rate - 1e-9, "two firings closer than the global rate allows"
    by_channel: dict[int, list[float]] = {}
    for at, channel in ordered:
        by_channel.setdefault(channel, []).append(at)
    for channel, ats in by_channel.items():
        for i in range(len(ats) - per_channel):
            assert ats[i + per_channel] - ats[i] >= window - 1e-9, f"channel {channel} fired too often"


async def test_the_pacer_keeps_the_global_rate_and_each_channel_window():
    t = Time()
    pacer = Pacer(rate=10, per_channel=2, window=5, clock=t, sleep=t.sleep)
    fired: list[tuple[float, int]] = []

    async def lane(channel: int, n: int) -> None:
        for _ in range(n):
            await pacer.take(channel)
            fired.append((pacer._next - pacer.gap, channel))  # the instant the pacer granted

    await asyncio.gather(*(lane(c, 6) for c in range(5)))
    assert len(fired) == 30
    check_pace(fired, 10, 2, 5)
    # the channels are served side by side: a channel waiting for its window does not hold the others
    assert {c for _, c in sorted(fired)[:10]} == set(range(5))


def test_a_pace_comes_from_its_settings_text():
    p = Pacer.parse("40", "3/5")
    assert (p.gap, p.per_channel, p.window) == (1 / 40, 3, 5.0)
    assert Pacer.parse(None, None).per_channel == 2
    with pytest.raises(ValueError):
        Pacer.parse("0", "2/5")


class Recorder:
    def __init__(self, t: Time) -> None:
        self.t = t
        self.reminded: list[tuple[float, int, int]] = []

    async def remind(self, game, seats, since):
        self.reminded.append((self.t.now, game.channel_id, game.id))

    async def timed_out(self, outcome, seats, forfeit):
        raise AssertionError("no timeout is due")


async def test_a_backlog_of_reminders_fires_once_each_within_the_pace(db_url):
    clock = [1_000_000.0]
    store = open_store(db_url, clock=lambda: clock[0])
    await store.open()
    try:
        t = Time()
        rec = Recorder(t)
        svc = SessionService(store, clock=lambda: clock[0], seed_source=lambda: 7)
        pacer = Pacer(rate=20, per_channel=2, window=5, clock=t, sleep=t.sleep)
        com = Community(store, svc, rec, clock=lambda: clock[0], pacer=pacer)
        com.scheduler.page = 25  # several pages
        taken: list[tuple[float, int]] = []
        take = pacer.take

        async def counted(channel):
            await take(channel)
            taken.append((pacer._next - pacer.gap, channel))  # the instant the pacer granted

        pacer.take = counted  # type: ignore[method-assign]
        ids = []
        for i in range(60):
            g = await svc.open_lobby("ludix", guild_id=GUILD, channel_id=10 + i % 4, player=ALICE)
            g = await svc.join(g.id, BRUNO)
            ids.append((await svc.start(g.id, ALICE)).game.id)
        clock[0] += 13 * HOUR  # the bot was down: every reminder (12 h) is due, no timeout (48 h)
        assert await com.scheduler.tick() == 60
        assert sorted(g for _, _, g in rec.reminded) == sorted(ids)  # each once
        assert len(taken) == 60  # one slot per game fired: the pace covers every firing
        check_pace(taken, 20, 2, 5)
        assert {ch for _, ch in sorted(taken)[:8]} == {10, 11, 12, 13}  # side by side
        assert await com.scheduler.tick() == 0
        for g in ids:
            assert [d.state for d in await store.deadlines_of(g) if d.kind == REMINDER] == ["done"]
    finally:
        await store.close()
