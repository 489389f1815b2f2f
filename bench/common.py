"""Benchmark helpers: drive the real bot through the fake Discord and time every interaction.

Latency = from the interaction sent to the fake until the bot's callback arrives (what
Discord's 3-second window measures). Results print as a Markdown table for the README.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.fakediscord import FakeDiscord
from tests.e2e.harness import start_bot


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


class Timings:
    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = defaultdict(list)

    def add(self, name: str, seconds: float | None) -> None:
        if seconds is not None:
            self.samples[name].append(seconds * 1000)

    def record(self, name: str, result) -> Any:
        self.add(name, result.latency)
        return result

    def time(self, name: str, fn: Callable[[], Any], repeat: int = 50) -> None:
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            self.add(name, time.perf_counter() - t0)

    def table(self, title: str) -> str:
        lines = [f"### {title}", "", "| what | n | p50 ms | p99 ms | max ms |", "|---|---|---|---|---|"]
        for name, vals in self.samples.items():
            lines.append(f"| {name} | {len(vals)} | {statistics.median(vals):.1f} | {percentile(vals, 99):.1f} "
                         f"| {max(vals):.1f} |")
        return "\n".join(lines)

    def worst_p99(self, prefix: str = "") -> float:
        return max(percentile(v, 99) for k, v in self.samples.items() if k.startswith(prefix))


async def bot_world(users: list[str], *, channels: tuple[str, ...] = ("jeux",)):
    """A fake Discord with ``users`` and the real bot connected to it; returns (fake, bot, users, tmpdir)."""
    tmp = Path(tempfile.mkdtemp(prefix="ludibot-bench-"))
    fake = FakeDiscord(guild_name="Bench", channels=list(channels), settle=0.02, timeout=30)
    members = [fake.add_user(name, locale="fr") for name in users]
    await fake.start()
    bot = await start_bot(fake, tmp)
    return fake, bot, members, tmp
