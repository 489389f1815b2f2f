"""Throughput of one bot process: 50 concurrent Ludix games, moves offered at rising rates.

Run: ``.venv/bin/python -m bench.bench_throughput [seconds per step] [rates…]``.

Each of the 50 games (its own channel, two players) has a player that clicks as soon as a move
is offered to it; moves are offered at a fixed rate (a token every 1/rate s, shared by all
games). Per rate: moves achieved per second, the callback latency (interaction → the bot's
answer: Discord's 3-second window), the time until the message with the next buttons is posted,
CPU per move in the bot's main process and in its render workers (/proc), and the bot's
event-loop lag (sampled by the bot itself, LUDIBOT_LOOP_LAG), and the games that ended (each is
restarted from a new lobby; its animated summary, issue 27, is drawn in a render worker two seconds
after its result: the later steps carry that work). The application emojis, created once in an
application's life, are created before the first step. Every step must measure moves, or the run fails.

The floor bot (``bench/floor_bot.py``) runs in the same run, on its own fake Discord driven by the same
code (50 channels, one button each, clicked as a token comes). Right after each of Ludibot's steps it is
offered, for 6 s, the moves per second Ludibot achieved (same minute of the machine, same pace: CPU per
move falls as the rate rises, each wake-up serving more moves); at the end it is offered 300 and 400 per
second, until it saturates the driver. Its achieved rate, latency and CPU per click are printed beside
Ludibot's.

The budget is judged against the floor, because this machine's speed drifts by a quarter from one hour
to the next and the floor drifts with it (issue 38):

- **throughput**: Ludibot's moves/s with p99 ≤ 1 s ≥ 0.35 × the floor bot's clicks/s with p99 ≤ 1 s;
- **CPU**: Ludibot's main-process CPU per move ≤ 3.5 × the floor bot's CPU per click (each the median over
  the rates 30-180);
- p99 ≤ 150 ms at 60 moves/s (the latency budget of every command).

The absolute figures of the former budgets (issue 16: ≥ 140 moves/s, ≤ 5 ms per move in the main
process and ≤ 10 ms in all, loop lag p99 ≤ 5 ms at 140 moves/s; issue 24: ≥ 170 moves/s) are printed
beside them, for the record, without a verdict.
"""

from __future__ import annotations

import asyncio
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_ludix import _next_control
from bench.common import CpuMeter, emojis_created, next_control, percentile, process_cpu, start_floor_bot
from fakediscord import FakeDiscord
from tests.e2e.harness import last_control, mentioned, start_bot


def profile_env() -> dict[str, str]:
    """``BENCH_PROFILE=<file>``: the bot's event loop profiled (cProfile, thread CPU time) into <file>,
    from the end of the warm-up to the end of the run."""
    path = os.environ.get("BENCH_PROFILE")
    return {"LUDIBOT_PROFILE": path} if path else {}


GAMES = 50
FINAL = "Fin de la partie"
RATES = (30, 60, 100, 140, 180, 220)
#: the rates the CPU per move is the median of (issue 16's five; 220 is offered for the throughput
#: only, to see past 180 offered, where issue 24's 170 moves/s is close to what is offered)
CPU_RATES = (30, 60, 100, 140, 180)
#: moves per second one process must sustain with p99 ≤ 1 s (issue 16): "full load" for the loop lag
THROUGHPUT_BUDGET = 140
#: moves per second with p99 ≤ 1 s that one process must still sustain with the cards (issue 24)
CARDS_THROUGHPUT_BUDGET = 170
FLOOR_SECONDS = 6.0  # per rate at most, for the floor bot (8 rates: about 55 s with its start)
#: offered to the floor bot beyond Ludibot's rates: its own throughput is where the driver saturates
FLOOR_EXTRA_RATES = (300, 400)
#: the budget, as ratios to the floor bot measured in the same run (issue 38)
THROUGHPUT_RATIO = 0.35  # Ludibot's moves/s with p99 ≤ 1 s ≥ this × the floor's
CPU_RATIO = 3.5  # Ludibot's main-process CPU per move ≤ this × the floor's CPU per click
P99_AT_60_MS = 150.0


class Game:
    def __init__(self, fake, channel: str, users) -> None:
        self.fake, self.channel, self.users = fake, channel, users
        self.by_id = {u.id: u for u in users}
        self.msg = None
        self.moves = 0
        self.ended = 0  # games this channel finished (each draws its animated summary, issue 27)
        #: why a move was not answered: no callback within Discord's 3 s (« Échec de l'interaction »),
        #: a callback past them (refused), no next buttons after the answer, the player's own resync
        self.lost = {"no_callback": 0, "late": 0, "no_next": 0, "resync": 0}
        #: each lost move: (wall-clock time of the click, reason, its interaction's record in the fake or None),
        #: for a failed step to say when, where and on whose side (the bot's or the way's, issue 36)
        self.losses: list[tuple[float, str, Any]] = []

    async def start(self) -> None:
        fake, (a, b) = self.fake, self.users
        res = await fake.run_command(a, self.channel, "ludix start", objectif=1000)
        await fake.click(b, res.message, label="Rejoindre")
        lobby = res.message
        await fake.click(a, lobby, label="Lancer", until=lambda r: _next_control(fake, self.channel, lobby.id))
        self.msg = _next_control(fake, self.channel, lobby.id)
        assert self.msg is not None and self.msg.buttons, "a game started without buttons"

    async def move(self) -> tuple[float | None, float]:
        """One move; (callback latency s, time until the next buttons s)."""
        if FINAL in (self.msg.content or ""):
            self.ended += 1
            await self.start()
        msg = self.msg
        who = mentioned(msg)
        labels = [lb for lb in msg.button_labels if lb in ("Lancer les dés", "Relancer", "Stop (marquer)")]
        if len(who) != 1 or not labels:
            # not a turn message (a lost move left us on another one): take the newest again
            await asyncio.sleep(0.05)
            self.msg = last_control(self.fake, self.channel) or msg
            self.lost["resync"] += 1
            self.losses.append((time.time(), "resync", None))
            return None, 0.0
        (uid,) = who
        label = "Stop (marquer)" if "Stop (marquer)" in labels and self.moves % 3 == 2 else \
            next((lb for lb in labels if lb != "Stop (marquer)"), labels[0])
        t0, clicked = time.perf_counter(), time.time()
        res = await self.fake.click(self.by_id[uid], msg, label=label, timeout=30, check_deadline=False,
                                    until=lambda r: r.late or _next_control(self.fake, self.channel, msg.id))
        done = time.perf_counter() - t0
        nxt = _next_control(self.fake, self.channel, msg.id)
        if res.late or nxt is None:
            # Discord refused the late answer (3 s): the move is lost for the player; carry on
            # from the newest message with buttons
            reason = "late" if res.late else "no_callback" if res.latency is None else "no_next"
            self.lost[reason] += 1
            self.losses.append((clicked, reason, res.record))
            self.msg = last_control(self.fake, self.channel) or msg
            return None, done
        self.msg = nxt
        self.moves += 1
        return res.latency, done


class FloorGame:
    """One "game" of the floor bot: its own channel, one player clicking the newest button."""

    def __init__(self, fake, channel: str, user) -> None:
        self.fake, self.channel, self.user = fake, channel, user
        self.msg = None
        self.moves = 0

    async def start(self) -> None:
        self.msg = (await self.fake.run_command(self.user, self.channel, "floor")).message
        assert self.msg is not None and self.msg.buttons, "the floor bot posted no button"

    async def move(self) -> tuple[float | None, float]:
        """One click; (callback latency s, time until the next button s)."""
        msg, fake, channel = self.msg, self.fake, self.channel
        t0 = time.perf_counter()
        res = await fake.click(self.user, msg, label="Encore", timeout=30, check_deadline=False,
                               until=lambda r: r.late or next_control(fake, channel, msg.id))
        done = time.perf_counter() - t0
        nxt = next_control(fake, channel, msg.id)
        if res.late or nxt is None:
            self.msg = last_control(fake, channel) or msg
            return None, done
        self.msg = nxt
        self.moves += 1
        return res.latency, done


class FloorRig:
    """The floor bot on its own fake Discord, ``GAMES`` buttons (one per channel), ready to be offered a rate
    at any moment: ``bench_throughput`` runs a floor step right after Ludibot's step at the same rate, so that
    both see the machine in the same minute."""

    def __init__(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="ludibot-throughput-floor-"))
        channels = [f"t{i}" for i in range(GAMES)]
        self.fake = FakeDiscord(guild_name="Floor", channels=channels, settle=0.02, timeout=30)
        self.users = [self.fake.add_user(f"J{i}", locale="fr") for i in range(GAMES)]
        self.channels = channels
        self.proc = None
        self.games: list[FloorGame] = []

    async def start(self) -> FloorRig:
        await self.fake.start()
        self.proc = await start_floor_bot(self.fake, self.tmp)
        self.games = [FloorGame(self.fake, ch, self.users[i]) for i, ch in enumerate(self.channels)]
        await asyncio.gather(*(g.start() for g in self.games))
        await run_step(self.games, 30, 1.0)  # warm-up
        return self

    async def step(self, rate: float, seconds: float) -> dict:
        """One step at ``rate``: its figures (``offered``: that rate) and the floor's CPU per click (ms)."""
        meter = CpuMeter(self.proc.pid)
        step = await run_step(self.games, rate, seconds)
        cpu, _ = meter.lap()
        return {**step, "offered": rate, "cpu_ms": 1000 * cpu / step["moves"] if step["moves"] else float("nan")}

    async def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        await self.fake.stop()


async def floor_steps(rates: tuple[float, ...], seconds: float) -> list[dict]:
    """The same offered rates to the floor bot, one after the other: per rate, the step's figures and the
    floor's CPU per click (ms)."""
    rig = FloorRig()
    try:
        await rig.start()
        return [await rig.step(rate, seconds) for rate in rates]
    finally:
        await rig.stop()


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.1f}×" if b > 0 else "–"


def floor_table(rows: list[dict], floor: list[dict], seconds: float) -> str:
    """Ludibot beside the floor bot at each offered rate."""
    lines = [f"### Throughput beside the floor bot (same run, {GAMES} buttons on its own fake Discord, "
             f"{seconds:.0f} s per rate, offered right after each Ludibot step the rate Ludibot achieved)", "",
             "| offered /s | achieved Ludibot | achieved floor | p50 ms Ludibot | p50 ms floor | p50 × floor "
             "| p99 ms Ludibot | p99 ms floor | p99 × floor | CPU/move ms Ludibot (main + workers) "
             "| CPU/click ms floor | CPU × floor |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    ours = {r["rate"]: r for r in rows}
    for f in floor:
        if not f["callbacks"]:
            continue
        f50, f99 = statistics.median(f["callbacks"]), percentile(f["callbacks"], 99)
        r = ours.get(f["rate"])
        if r is None:  # offered to the floor only, to find its own throughput
            lines.append(f"| {f['rate']:.0f} | – | {f['achieved']:.1f} | – | {f50:.1f} | – | – | {f99:.1f} | – | – "
                         f"| {f['cpu_ms']:.2f} | – |")
            continue
        ours50, ours99 = statistics.median(r["callbacks"]), percentile(r["callbacks"], 99)
        cpu = r["main_ms"] + r["workers_ms"]
        lines.append(f"| {r['rate']:.0f} | {r['achieved']:.1f} | {f['achieved']:.1f} | {ours50:.1f} | {f50:.1f} "
                     f"| {_ratio(ours50, f50)} | {ours99:.1f} | {f99:.1f} | {_ratio(ours99, f99)} | {cpu:.1f} "
                     f"| {f['cpu_ms']:.2f} | {_ratio(cpu, f['cpu_ms'])} |")
    return "\n".join(lines)


def sustained(rows: list[dict]) -> float:
    """The highest achieved rate among the steps whose callback p99 stayed within 1 s (0 if none)."""
    return max((r["achieved"] for r in rows if r["callbacks"] and percentile(r["callbacks"], 99) <= 1000),
               default=0.0)


def cpu_median(rows: list[dict], key: str) -> float:
    """The median of ``key`` over the steps at CPU_RATES (over every step when none is at those rates)."""
    chosen = [r for r in rows if r["rate"] in CPU_RATES and r.get("moves")] or [r for r in rows if r.get("moves")]
    return statistics.median(r[key] for r in chosen) if chosen else float("nan")


def verdicts(rows: list[dict], floor: list[dict]) -> tuple[list[tuple[str, bool]], list[str]]:
    """The budget, judged against the floor bot of the same run: (verdicts, informative lines).

    ``rows``: Ludibot's steps (``rate``, ``achieved``, ``callbacks`` ms, ``main_ms``, ``workers_ms``,
    ``lag_p99``); ``floor``: the floor bot's (``rate``, ``achieved``, ``callbacks``, ``cpu_ms``)."""
    out: list[tuple[str, bool]] = []
    info: list[str] = []
    ours_rate, floor_rate = sustained(rows), sustained(floor)
    rate_ratio = ours_rate / floor_rate if floor_rate > 0 else 0.0
    out.append((f"throughput ratio {rate_ratio:.2f} (budget ≥ {THROUGHPUT_RATIO}): {ours_rate:.0f} moves/s with "
                f"p99 ≤ 1 s against the floor bot's {floor_rate:.0f} clicks/s", rate_ratio >= THROUGHPUT_RATIO))
    ours_cpu, floor_cpu = cpu_median(rows, "main_ms"), cpu_median(floor, "cpu_ms")
    cpu_ratio = ours_cpu / floor_cpu if floor_cpu > 0 else float("inf")
    out.append((f"CPU ratio {cpu_ratio:.2f} (budget ≤ {CPU_RATIO}): {ours_cpu:.2f} ms per move in the main process "
                f"against the floor bot's {floor_cpu:.2f} ms per click (medians over the rates 30-180)",
                cpu_ratio <= CPU_RATIO))  # NaN (nothing measured) fails too
    at60 = next((r for r in rows if r["rate"] == 60 and r["callbacks"]), None)
    if at60:
        p = percentile(at60["callbacks"], 99)
        out.append((f"p99 at 60 moves/s: {p:.0f} ms (budget ≤ {P99_AT_60_MS:.0f})", p <= P99_AT_60_MS))
    if rows:
        total = cpu_median([{**r, "total_ms": r["main_ms"] + r["workers_ms"]} for r in rows], "total_ms")
        info.append(f"throughput: {ours_rate:.0f} moves/s with p99 ≤ 1 s (issue 24 asked ≥ "
                    f"{CARDS_THROUGHPUT_BUDGET}, issue 16 ≥ {THROUGHPUT_BUDGET}, on a machine of its own speed)")
        info.append(f"CPU per move: {ours_cpu:.1f} ms in the main process (issue 16 asked ≤ 5), {total:.1f} ms with "
                    f"the render workers (≤ 10)")
        full = next((r for r in rows if r["rate"] >= THROUGHPUT_BUDGET), None)
        if full is not None:
            info.append(f"loop lag p99 at {full['rate']:.0f} offered: {full['lag_p99']:.1f} ms (issue 16 asked ≤ 5)")
    return out, info


def _lag_samples(path: Path, since: float, until: float) -> list[float]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            ts, lag = line.split()
        except ValueError:
            continue
        if since <= float(ts) <= until:
            out.append(float(lag))
    return out


async def run_step(games: list[Game], rate: float, seconds: float) -> dict:
    tokens: asyncio.Queue[None] = asyncio.Queue()
    callbacks: list[float] = []
    follow: list[float] = []
    unanswered = 0
    stop = asyncio.Event()

    async def offer() -> None:
        start = time.perf_counter()
        n = 0
        while not stop.is_set():
            due = start + n / rate
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tokens.put_nowait(None)
            n += 1

    async def player(game: Game) -> None:
        nonlocal unanswered
        while not stop.is_set():
            try:
                await asyncio.wait_for(tokens.get(), timeout=0.5)
            except TimeoutError:
                continue
            latency, done = await game.move()
            if latency is None:
                unanswered += 1
            else:
                callbacks.append(latency * 1000)
            follow.append(done * 1000)

    ended = sum(getattr(g, "ended", 0) for g in games)
    lost0 = [dict(getattr(g, "lost", {})) for g in games]
    offerer = asyncio.create_task(offer())
    players = [asyncio.create_task(player(g)) for g in games]
    t0, wall0 = time.perf_counter(), time.time()
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*players)
    offerer.cancel()
    elapsed = time.perf_counter() - t0
    why: dict[str, int] = {}
    for g, before in zip(games, lost0, strict=True):
        for reason, n in getattr(g, "lost", {}).items():
            if n - before.get(reason, 0):
                why[reason] = why.get(reason, 0) + n - before.get(reason, 0)
    # each lost move of the step: (seconds into the step, its game's channel, reason, its interaction's record)
    losses = sorted(((at - wall0, g.channel, reason, rec) for g in games
                     for at, reason, rec in getattr(g, "losses", ()) if at >= wall0), key=lambda loss: loss[0])
    return {"rate": rate, "moves": len(follow), "achieved": len(follow) / elapsed, "callbacks": callbacks,
            "follow": follow, "unanswered": unanswered, "why": why, "losses": losses,
            "ended": sum(getattr(g, "ended", 0) for g in games) - ended}


async def main(seconds: float = 8.0, rates: tuple[float, ...] = RATES) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="ludibot-throughput-"))
    channels = [f"t{i}" for i in range(GAMES)]
    fake = FakeDiscord(guild_name="Bench", channels=channels, settle=0.02, timeout=30)
    users = [fake.add_user(f"J{i}", locale="fr") for i in range(2 * GAMES)]
    await fake.start()
    lag_file = tmp / "lag.txt"
    # the wall clock, as in production: the tests' movable clock reads a file at every call
    # (LUDIBOT_GC and LUDIBOT_EVENT_LOOP pass through, to compare the runtime's settings)
    passed = {k: os.environ[k] for k in ("LUDIBOT_GC", "LUDIBOT_EVENT_LOOP") if k in os.environ}
    bot = await start_bot(fake, tmp, extra_env={"LUDIBOT_LOOP_LAG": str(lag_file), "LUDIBOT_CLOCK_FILE": "",
                                                **passed, **profile_env()})
    rows, failures = [], []
    limited: list[dict] = []
    floor: list[dict] = []
    floor_seconds = min(seconds, FLOOR_SECONDS)
    rig = FloorRig()
    try:
        await rig.start()
        games = [Game(fake, ch, users[2 * i:2 * i + 2]) for i, ch in enumerate(channels)]
        await asyncio.gather(*(g.start() for g in games))
        # the application emojis are created once (at an application's first start), not by a move:
        # a fresh fake Discord has none, so the bot creates them now; the steps measure after
        await emojis_created(fake)
        await run_step(games, 30, 2.0)  # warm-up: every worker has drawn a few pictures
        if profile_env():
            bot.proc.send_signal(signal.SIGUSR1)  # the profile starts here: moves only, not the start
        for rate in rates:
            meter = CpuMeter(bot.proc.pid)
            driver0 = process_cpu(os.getpid())
            since = time.time()
            step = await run_step(games, rate, seconds)
            main_cpu, worker_cpu = meter.lap()
            driver_cpu = process_cpu(os.getpid()) - driver0
            # the floor bot at once, offered the moves per second Ludibot achieved: both measured in the same
            # minute of the machine and at the same pace (a process's CPU per move falls as its rate rises:
            # each wake-up serves more moves), under the Ludibot step's rate
            floor.append({**await rig.step(max(1.0, step["achieved"]), floor_seconds), "rate": rate})
            lag = _lag_samples(lag_file, since, since + seconds)  # written once a second: long written now
            if step["moves"] == 0 or not step["callbacks"]:
                failures.append(f"- MEASURED NOTHING at {rate} moves/s")
                continue
            if not lag:
                failures.append(f"- MEASURED NOTHING: no loop-lag sample at {rate} moves/s")
            if step["unanswered"]:
                failures.append(f"- UNANSWERED or past Discord's 3 s: {step['unanswered']} moves at {rate} moves/s")
            rows.append({**step, "main_ms": 1000 * main_cpu / step["moves"],
                         "workers_ms": 1000 * worker_cpu / step["moves"],
                         "driver_ms": 1000 * driver_cpu / step["moves"],
                         "lag_p99": percentile(lag, 99) if lag else float("nan"), "lag_n": len(lag)})
        limited = list(fake.rate_limited)
        bot.stop() if profile_env() else bot.kill()  # SIGTERM: a profiled bot writes its statistics
        # past Ludibot's rates, the floor alone: its own throughput is where the driver saturates
        for rate in (r for r in FLOOR_EXTRA_RATES if r > max(rates)):
            floor.append(await rig.step(rate, floor_seconds))
    finally:
        if bot.proc.poll() is None:
            bot.kill()
        await rig.stop()
        await fake.stop()
    for f in floor:
        if not f["callbacks"]:
            failures.append(f"- MEASURED NOTHING: the floor bot at {f['rate']:.0f} clicks/s")
        if f["unanswered"] and f["rate"] in rates:
            failures.append(f"- UNANSWERED or past Discord's 3 s: {f['unanswered']} floor clicks at {f['rate']:.0f}/s")
    print(f"### Throughput: {GAMES} concurrent Ludix games, one bot process ({seconds:.0f} s per rate)\n")
    print("| offered moves/s | achieved | n | callback p50 ms | callback p99 ms | next buttons p99 ms "
          "| CPU/move main ms | CPU/move workers ms | loop lag p99 ms | CPU/move fake + players ms | games ended |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['rate']:.0f} | {r['achieved']:.1f} | {r['moves']} | {statistics.median(r['callbacks']):.1f} "
              f"| {percentile(r['callbacks'], 99):.1f} | {percentile(r['follow'], 99):.1f} | {r['main_ms']:.1f} "
              f"| {r['workers_ms']:.1f} | {r['lag_p99']:.1f} | {r['driver_ms']:.1f} | {r['ended']} |")
    print(f"\n(load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    by_route: dict[str, int] = {}
    for r in limited:
        key = f"{r.get('method')} {r.get('bucket') or r.get('path')}{' (global)' if r.get('global') else ''}"
        by_route[key] = by_route.get(key, 0) + 1
    print(f"(429 answered by the fake Discord: {len(limited)}"
          + (": " + ", ".join(f"{k} ×{n}" for k, n in sorted(by_route.items(), key=lambda kv: -kv[1])[:4])
             if limited else "") + ")\n")
    print(floor_table(rows, floor, floor_seconds) + "\n")
    judged, info = verdicts(rows, floor)
    for line in info:
        print(f"- (absolute, no verdict) {line}")
    for r in rows:
        if r["rate"] > THROUGHPUT_BUDGET:
            print(f"- (absolute, no verdict) loop lag p99 at {r['rate']:.0f} offered: {r['lag_p99']:.1f} ms")
    for text, ok in judged:
        print(f"- {'ok' if ok else 'OVER BUDGET'}: {text}")
    print("\n".join(failures))
    return 1 if failures or not all(ok for _, ok in judged) else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    secs = float(args[0]) if args else 8.0
    chosen = tuple(float(x) for x in args[1:]) or RATES
    sys.exit(asyncio.run(main(secs, chosen)))
