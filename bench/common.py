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

from fakediscord import FakeDiscord
from tests.e2e.harness import start_bot

#: Budgets (p99, ms): every command well inside Discord's 3 s window (see the issues).
BUDGET_MS = 150.0
AUTOCOMPLETE_MS = 100.0
BOT_BUDGET_MS = 1000.0  # a move answered together with the AI's reply
DISCORD_WINDOW_MS = 3000.0


def default_budget(name: str) -> float | None:
    """The p99 budget of a measured row, by its name; None = informative only (renders, AI alone)."""
    if name.startswith(("render", "AI move")):
        return None
    if name.startswith("autocomplete"):
        return AUTOCOMPLETE_MS
    if "vs bot" in name:
        return BOT_BUDGET_MS
    return BUDGET_MS


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

    def over_budget(self, budget_for: Callable[[str], float | None] = default_budget) -> list[str]:
        """One line per row whose p99 reaches its budget."""
        over = []
        for name, values in self.samples.items():
            budget = budget_for(name)
            p99 = percentile(values, 99)
            if budget is not None and p99 >= budget:
                over.append(f"- OVER BUDGET: {name}: p99 {p99:.1f} ms ≥ {budget:.0f} ms")
        return over

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


def report(timings: Timings, title: str, budget_for: Callable[[str], float | None] = default_budget) -> int:
    """Print the table and the budget verdict; the exit status (1 when a budget is missed)."""
    print(timings.table(title))
    over = timings.over_budget(budget_for)
    print("\n".join(over) if over else "- every budget met")
    return 1 if over else 0
