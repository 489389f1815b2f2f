"""Benchmark helpers: drive the real bot through the fake Discord and time every interaction.

Latency = from the interaction sent to the fake until the bot's callback arrives (what
Discord's 3-second window measures). Results print as a Markdown table for the README.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
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


#: The row the floor bot's clicks are recorded under (see ``measure_floor``).
FLOOR_ROW = "floor: button (new message + button)"


def is_bot_interaction(name: str) -> bool:
    """Whether a row times an interaction of the bot (printed as a ratio to the floor), not a render
    or an AI move timed in-process, nor the floor itself."""
    return default_budget(name) is not None and name != FLOOR_ROW


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


class MeasuredNothing(AssertionError):
    """A benchmark did not measure what it claims (no sample, or interactions never answered)."""


class Timings:
    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = defaultdict(list)
        self.unanswered: dict[str, int] = defaultdict(int)
        self.expected: dict[str, int] = {}
        #: REST calls the bot made for each recorded interaction: (interaction endpoints, channel endpoints)
        self.rest: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self._open: tuple[str, Any, str] | None = None  # the last recorded interaction, its window still open
        self.floor: FloorFigures | None = None  # set by ``measure_floor``

    def add(self, name: str, seconds: float | None) -> None:
        if seconds is None:
            self.unanswered[name] += 1  # the bot never answered: a failure, not a missing sample
        else:
            self.samples[name].append(seconds * 1000)

    def expect(self, name: str, at_least: int = 1) -> None:
        """Declare a row this benchmark must measure, with at least ``at_least`` samples."""
        self.expected[name] = max(at_least, self.expected.get(name, 0))

    def check(self) -> list[str]:
        """What the run failed to measure: expected rows short of samples, unanswered interactions,
        or nothing at all."""
        problems = [f"- MEASURED NOTHING: {name}: {len(self.samples.get(name, []))} samples, expected ≥ {n}"
                    for name, n in self.expected.items() if len(self.samples.get(name, [])) < n]
        problems += [f"- UNANSWERED: {name}: {n} interaction(s) got no answer" for name, n in self.unanswered.items()]
        if not any(self.samples.values()):
            problems.append("- MEASURED NOTHING: no sample at all")
        return problems

    def verify(self) -> None:
        problems = self.check()
        if problems:
            raise MeasuredNothing("\n".join(problems))

    def record(self, name: str, result) -> Any:
        self.add(name, result.latency)
        self._count_rest(name, result)
        return result

    def _count_rest(self, name: str, result) -> None:
        """Attribute the fake's request log to interactions: from one recorded interaction's callback
        to the next one's, the requests carrying its token (callback, follow-ups) and the channel
        requests (posts, edits: taking the previous buttons off lands after the answer)."""
        fake = getattr(result, "fake", None)
        token = (getattr(result, "interaction", None) or {}).get("token")
        if fake is None or not token or result.kind == "autocomplete":
            return
        log = fake.request_log
        start = next((i for i in range(len(log) - 1, -1, -1) if token in log[i][1]), None)
        if self._open is not None:
            prev_name, prev_log, prev_token = self._open
            if prev_log is log:
                first = next((i for i, e in enumerate(log) if prev_token in e[1]), None)
                if first is not None:
                    end = start if start is not None else len(log)
                    first_here = next((i for i in range(first, end) if token in log[i][1]), end)
                    window = log[first:first_here]
                    inter = sum(1 for e in window if prev_token in e[1])
                    chan = sum(1 for e in window if "/channels/" in e[1] and e[0] in ("POST", "PATCH"))
                    self.rest[prev_name].append((inter, chan))
        self._open = (name, log, token) if start is not None else None
        self._fake = fake

    def rest_table(self, title: str) -> str:
        """Mean REST calls per interaction, by row (the last recorded interaction is not counted)."""
        lines = [f"### {title}: REST calls per interaction", "", "| what | n | interaction | channel |",
                 "|---|---|---|---|"]
        for name, calls in self.rest.items():
            if calls:
                lines.append(f"| {name} | {len(calls)} | {sum(c[0] for c in calls) / len(calls):.2f} "
                             f"| {sum(c[1] for c in calls) / len(calls):.2f} |")
        fake = getattr(self, "_fake", None)
        if fake is not None:
            counted = sum(len(c) for c in self.rest.values()) + 1
            lines += ["", f"Channel posts and edits over the whole run (buttons taken off late included): "
                          f"{fake.channel_message_writes} for {counted} interactions."]
        return "\n".join(lines)

    def time(self, name: str, fn: Callable[[], Any], repeat: int = 50) -> None:
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            self.add(name, time.perf_counter() - t0)

    def table(self, title: str) -> str:
        """The rows as Markdown; with a floor row measured, the bot's interactions get their p50 and
        p99 as a ratio to the floor's (same run)."""
        floor = self.samples.get(FLOOR_ROW)
        head = "| what | n | p50 ms | p99 ms | max ms |"
        rule = "|---|---|---|---|---|"
        if floor:
            head, rule = head + " p50 × floor | p99 × floor |", rule + "---|---|"
            floor50, floor99 = statistics.median(floor), percentile(floor, 99)
        lines = [f"### {title}", "", head, rule]
        for name, vals in self.samples.items():
            if not vals:
                continue
            p50, p99 = statistics.median(vals), percentile(vals, 99)
            line = f"| {name} | {len(vals)} | {p50:.1f} | {p99:.1f} | {max(vals):.1f} |"
            if floor:
                line += f" {_ratio(p50, floor50)} | {_ratio(p99, floor99)} |" if is_bot_interaction(name) else " | |"
            lines.append(line)
        if self.floor is not None and self.floor.clicks:
            lines += ["", f"Floor bot (bench/floor_bot.py, same run, its own fake Discord): {self.floor.clicks} "
                          f"clicks, CPU per click {self.floor.cpu_ms:.1f} ms."]
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


def _ratio(value: float, floor: float) -> str:
    return f"{value / floor:.1f}×" if floor > 0 else "–"


def report(timings: Timings, title: str, budget_for: Callable[[str], float | None] = default_budget) -> int:
    """Print the table and the budget verdict; the exit status (1 when a budget is missed)."""
    print(timings.table(title))
    print()
    print(timings.rest_table(title))
    over = timings.check() + timings.over_budget(budget_for)
    print("\n".join(over) if over else "- every row measured, every budget met")
    return 1 if over else 0


# --- process CPU (Linux /proc), for CPU per move in the bot and in its render workers --------

def _ticks() -> float:
    import os

    return float(os.sysconf("SC_CLK_TCK"))


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid``; 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _ticks()


def child_pids(pid: int) -> list[int]:
    """Direct children of ``pid`` (the render workers of the bot)."""
    from pathlib import Path

    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            continue
    return sorted(set(found))


class CpuMeter:
    """CPU used by a process and by its children between two readings."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.start = self._read()

    def _read(self) -> tuple[float, dict[int, float]]:
        return process_cpu(self.pid), {c: process_cpu(c) for c in child_pids(self.pid)}

    def lap(self) -> tuple[float, float]:
        """(main-process seconds, children seconds) since the last lap, and start a new one."""
        main0, kids0 = self.start
        main1, kids1 = self.start = self._read()
        return main1 - main0, sum(v - kids0.get(c, 0.0) for c, v in kids1.items())


async def start_floor_bot(fake, workdir: Path):
    """The floor bot (bench/floor_bot.py) connected to ``fake``: a subprocess to ``kill()``."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LUDIBOT_"))}
    env.update(fake.bot_env)
    env.update({"PYTHONPATH": str(root), "PYTHONUNBUFFERED": "1"})
    log = open(workdir / "floor.log", "a")  # noqa: SIM115 - handed to the child
    proc = subprocess.Popen([sys.executable, "-m", "bench.floor_bot"], cwd=workdir, env=env, stdout=log,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    log.close()
    await fake.wait_ready(timeout=60)
    return proc


def next_control(fake, channel: str, after_id: int, final: str = "Fin de la partie"):
    """The newest public message with buttons posted after ``after_id`` (or a game's final message)."""
    for msg in reversed(fake.messages(channel)):
        if msg.id <= after_id:
            break
        if msg.visible_to is None and not msg.deleted and (msg.buttons or final in (msg.content or "")):
            return msg
    return None


@dataclass
class FloorFigures:
    """What the floor bot did in a run: clicks answered, its CPU seconds, and their latencies (ms)."""

    clicks: int
    cpu: float
    latencies: list[float]

    @property
    def cpu_ms(self) -> float:
        """CPU per click (ms)."""
        return 1000 * self.cpu / self.clicks if self.clicks else float("nan")

    @property
    def p50(self) -> float:
        return statistics.median(self.latencies) if self.latencies else float("nan")

    @property
    def p99(self) -> float:
        return percentile(self.latencies, 99)


async def measure_floor(t: Timings, clicks: int = 60) -> FloorFigures:
    """The floor bot answering ``clicks`` clicks on its own fake Discord, recorded in ``t`` under
    ``FLOOR_ROW`` (which ``t`` then expects: a run where the floor measured nothing fails)."""
    t.expect(FLOOR_ROW, clicks)
    tmp = Path(tempfile.mkdtemp(prefix="ludibot-floor-"))
    fake = FakeDiscord(guild_name="Floor", channels=["jeux"], settle=0.02, timeout=30)
    alice = fake.add_user("Alice", locale="fr")
    await fake.start()
    proc = None
    before = len(t.samples[FLOOR_ROW])
    try:
        proc = await start_floor_bot(fake, tmp)
        msg = (await fake.run_command(alice, "jeux", "floor")).message
        meter = CpuMeter(proc.pid)
        for _ in range(clicks):
            after = msg.id
            res = await fake.click(alice, msg, label="Encore", until=lambda r, a=after: next_control(fake, "jeux", a))
            t.add(FLOOR_ROW, res.latency)  # not ``record``: the REST counts are the bot's
            msg = next_control(fake, "jeux", after)
            if msg is None:
                raise MeasuredNothing("the floor bot did not answer a click")
        cpu, _ = meter.lap()
    finally:
        if proc is not None:
            proc.kill()
            proc.wait(timeout=10)
        await fake.stop()
    t.floor = FloorFigures(clicks, cpu, t.samples[FLOOR_ROW][before:])
    return t.floor


async def emojis_created(fake, quiet: float = 3.0, at_most: float = 90.0) -> int:
    """Wait until the bot's application emojis are all created (none for ``quiet`` seconds): their
    uploads are made once at start-up, not by a move (a tree without them returns at once)."""
    t0 = time.monotonic()
    count, since = -1, time.monotonic()
    while time.monotonic() - t0 < at_most:
        now = len(getattr(fake, "app_emojis", ()))
        if now != count:
            count, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            break
        await asyncio.sleep(0.2)
    return count
