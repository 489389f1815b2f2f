"""Throughput by deployment (issue 14): one bot process on SQLite, one on PostgreSQL, two processes
(shards 0 and 1 of 2) on one PostgreSQL.

Run: ``.venv/bin/python -m bench.bench_processes [seconds per step] [rates…]``.

The same world for the three: a fake Discord with two shards and two servers (one on each shard),
50 concurrent Ludix games split between them, driven by bench_throughput's players (moves offered at
rising rates, a token every 1/rate s shared by all games). One process runs both shards
(``LUDIBOT_SHARD_COUNT=2``); two processes run one each (``LUDIBOT_SHARD_IDS``). Per deployment: the
highest rate achieved with the callback p99 ≤ 1 s and no move unanswered, and the CPU per move at
that rate: the bot (every process, main + render workers) and the PostgreSQL server. The floor bot
(``bench/floor_bot.py``) is offered the same rates in the same run, on its own fake Discord: each
deployment's figures are printed as a ratio to its.

The run fails when it did not measure what it claims: a step without moves, a server (shard)
without moves, a process without CPU, or games missing from the database the bot was given; and
when a step left a move unanswered or answered past Discord's 3 s (on Discord: « Échec de
l'interaction »), with the reason of each (no callback, a late one, no next buttons, the driver's
own resync) and whose loss it was: each bot traces every interaction's way (``LUDIBOT_TRACE``,
:mod:`bot.trace`), so a move the bot answered within 3 s of reading it but that reached the fake
late (a starved driver or machine: the fake and the players share one event loop, whose lag is
sampled) fails the run as NOT MEASURED, not as the bot's loss (issue 36).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_throughput import FLOOR_SECONDS, Game, _lag_samples, floor_steps, run_step
from bench.common import CpuMeter, percentile
from bot import looplag, trace
from fakediscord import FakeDiscord
from tests.e2e.harness import BotProcess

GAMES = 50
RATES = (30, 60, 90, 120)
P99_MS = 1000.0
DISCORD_MS = 3000.0  # an interaction not answered within this is « Échec de l'interaction »
LOSSES_SHOWN = 5  # a failed step says when and where its first lost moves were


def blame(reason: str, rec, times: dict[str, float] | None) -> tuple[str, str]:
    """Who lost a move (issue 36): ``("bot", why)`` when the bot took more than this bench's latency budget
    (``P99_MS``, 1 s) from reading the click's frame to sending its answer, or never sent one, or never
    posted the next turn (``no_next``); ``("way", why)`` when it answered within that budget and the time
    was lost on the way: the frame reaching the bot, the answer reaching the fake (a starved driver or
    machine; on Discord, the network).
    ``rec``: the click's record in the fake (``sent_at``, ``callback_at`` or ``late_at``: its monotonic
    clock); ``times``: the bot's trace of that interaction (:mod:`bot.trace`: ``frame``, ``callback``),
    None when the bot was not traced (then every loss is the bot's)."""
    if reason == "no_next" or rec is None or times is None:
        return "bot", reason
    frame, answer = times.get("frame"), times.get("callback")
    if frame is None:
        return "bot", f"{reason}: the bot never read its frame"
    if answer is None:
        return "bot", f"{reason}: read by the bot +{(frame - rec.sent_at) * 1000:.0f} ms, never answered"
    bot_ms = (answer - frame) * 1000
    arrived = rec.callback_at if rec.callback_at is not None else getattr(rec, "late_at", None)
    way = (f"frame read by the bot +{(frame - rec.sent_at) * 1000:.0f} ms, answered {bot_ms:.0f} ms later"
           + (f", seen by the fake {(arrived - answer) * 1000:.0f} ms after that" if arrived is not None else ""))
    return ("bot" if bot_ms > P99_MS else "way"), f"{reason}: {way}"


def lost_moves(name: str, step: dict, shard_of=None, traces: dict[int, dict[str, float]] | None = None,
               driver_lag_ms: float | None = None) -> str | None:
    """The failure of a step that left a move unanswered or answered past Discord's 3 s (on Discord:
    « Échec de l'interaction »), with the reason of each (``step["why"]``: bench_throughput's players
    count them) and, for the first ones, when in the step, where and why (``step["losses"]``: seconds into
    the step, the game's channel, the reason, the click's record in the fake; ``shard_of(guild id)``: its
    server's shard, the process that served it); None when every move of the step was answered in time.

    With the bots' ``traces`` (interaction id -> stage -> time, :mod:`bot.trace`), each loss is the bot's
    or the way's (:func:`blame`): a step whose lost moves were all answered by the bot within 1 s (and the
    driver's resyncs after them) is not the bot's failure but a step that measured nothing, the driver or
    the machine starved (its loop lag ``driver_lag_ms`` said), and is said so."""
    late = [c for c in step["callbacks"] if c > DISCORD_MS]
    if not step["unanswered"] and not late:
        return None
    why = ", ".join(f"{n} {reason}" for reason, n in sorted(step["why"].items()) if n) or "-"
    losses = [(*loss, None)[:4] for loss in step.get("losses", [])]
    # (a resync is the driver finding its way back after a lost move: no click of its own)
    blamed = [(at, channel, reason, *(("-", reason) if reason == "resync" else blame(
        reason, rec, None if traces is None or rec is None else traces.get(rec.id, {}))))
        for at, channel, reason, rec in losses]
    theirs = [b for b in blamed if b[3] == "bot"]
    where = []
    for at, channel, _, _, said in blamed[:LOSSES_SHOWN]:
        shard = f"shard {shard_of(channel.guild_id)}, " if shard_of is not None else ""
        where.append(f"{said} at +{at:.1f} s ({shard}#{channel.name})")
    if traces is not None and blamed and not theirs and not late:
        lag = f"; the driver's loop lag reached {driver_lag_ms:.0f} ms" if driver_lag_ms is not None else ""
        return (f"- NOT MEASURED: {name} at {step['rate']:.0f} moves/s: {step['unanswered']} move(s) unanswered "
                f"({why}), none by the bot: it answered each within {P99_MS / 1000:.0f} s of reading its frame "
                f"(a resync is the driver finding its way back after a lost move){lag}: the driver or the machine "
                "was starved: " + "; ".join(where))
    line = (f"- {name} at {step['rate']:.0f} moves/s: {step['unanswered']} move(s) unanswered ({why}), "
            f"{len(late)} answered past {DISCORD_MS / 1000:.0f} s")
    return line + (": " + "; ".join(where) if where else "")


def world() -> tuple[FakeDiscord, list, list]:
    fake = FakeDiscord(guild_name="Bench", channels=[f"t{i}" for i in range(GAMES // 2)], settle=0.02,
                       timeout=30, shards=2)
    other = fake.add_guild("Bench 2", channels=[f"t{i}" for i in range(GAMES // 2)])
    guilds = [fake.guild, other]
    users = [fake.add_user(f"J{i}", locale="fr", guilds=guilds) for i in range(2 * GAMES)]
    # interleaved: bench_throughput's players serve the first games of the list first at low rates
    channels = [fake.channel(f"t{i}", guild=g) for i in range(GAMES // 2) for g in guilds]
    return fake, guilds, [Game(fake, ch, users[2 * i:2 * i + 2]) for i, ch in enumerate(channels)]


async def count_games(db: str) -> int:
    from bot.storage import RUNNING, open_store

    store = open_store(db)
    await store.open()
    try:
        return len(await store.games_with_status((RUNNING,)))
    finally:
        await store.close()


def postmaster_pid(pg) -> int:
    return int((pg.data / "postmaster.pid").read_text().split()[0])


async def deployment(name: str, db: str, processes: int, rates, seconds: float, pg=None) -> tuple[dict, list[str]]:
    tmp = Path(tempfile.mkdtemp(prefix="ludibot-processes-"))
    fake, guilds, games = world()
    await fake.start()
    shard_ids = ["0,1"] if processes == 1 else ["0", "1"]
    bots = []
    for i, ids in enumerate(shard_ids):
        (tmp / f"p{i}").mkdir()
        # each interaction's way through the bot (bot.trace), to tell a move the bot lost from one lost on
        # the way (issue 36); the wall clock, as deployed (the tests' movable clock reads a file at every call)
        bots.append(BotProcess(fake, tmp / f"p{i}", db=db, extra_env={
            "LUDIBOT_DEV_GUILD": "", "LUDIBOT_SHARD_COUNT": "2", "LUDIBOT_SHARD_IDS": ids,
            "LUDIBOT_TRACE": str(tmp / f"p{i}" / "trace.txt"), "LUDIBOT_CLOCK_FILE": ""}))
    failures: list[str] = []
    rows = []
    driver_lag = tmp / "driver-lag.txt"  # this process's own loop lag: the fake and the players
    lag_task = asyncio.create_task(looplag.monitor(str(driver_lag)))
    try:
        for b in bots:
            b.start()
        await fake.wait_ready(timeout=60)
        await fake.wait_until(lambda: sorted(fake.shard_sessions()) == [0, 1], timeout=60)
        assert sorted(fake.shard_of(g) for g in guilds) == [0, 1], "one server on each shard"
        await asyncio.gather(*(g.start() for g in games))
        if await count_games(db) != GAMES:
            failures.append(f"- {name}: the database given to the bot does not hold the {GAMES} games")
        await run_step(games, 30, 2.0)  # warm-up
        for rate in rates:
            meters = [CpuMeter(b.proc.pid) for b in bots]
            db_meter = CpuMeter(postmaster_pid(pg)) if pg else None
            before = {id(g): g.moves for g in games}
            limited0 = len(fake.rate_limited)
            since = time.time()
            step = await run_step(games, rate, seconds)
            until = time.time()
            per_process = [sum(m.lap()) for m in meters]
            db_cpu = sum(db_meter.lap()) if db_meter else 0.0
            by_shard = {0: 0, 1: 0}
            for g in games:
                by_shard[fake.shard_of(g.channel.guild_id)] += g.moves - before[id(g)]
            if not step["callbacks"]:
                failures.append(f"- MEASURED NOTHING: {name} at {rate} moves/s")
                continue
            if min(by_shard.values()) == 0:
                failures.append(f"- MEASURED NOTHING: {name} at {rate} moves/s: a shard without moves {by_shard}")
            if min(per_process) <= 0:
                failures.append(f"- MEASURED NOTHING: {name} at {rate} moves/s: a process without CPU")
            if pg and db_cpu <= 0:
                failures.append(f"- MEASURED NOTHING: {name} at {rate} moves/s: no PostgreSQL CPU")
            traces: dict[int, dict[str, float]] = {}
            lag: list[float] = []
            if step["unanswered"]:
                for i in range(len(bots)):
                    traces.update(trace.read(tmp / f"p{i}" / "trace.txt"))
                await asyncio.sleep(1.1)  # the lag samples are written once a second
                lag = _lag_samples(driver_lag, since, until)
            lost = lost_moves(name, step, fake.shard_of, traces or None, max(lag) if lag else None)
            if lost:
                failures.append(lost)
            rows.append({**step, "bot_ms": 1000 * sum(per_process) / step["moves"],
                         "db_ms": 1000 * db_cpu / step["moves"], "p99": percentile(step["callbacks"], 99),
                         "p50": statistics.median(step["callbacks"]),
                         "429": len(fake.rate_limited) - limited0})
    finally:
        lag_task.cancel()
        for b in bots:
            b.kill()
        await fake.stop()
    for b in bots:
        if "Traceback" in b.log:
            failures.append(f"- {name}: a traceback in the bot's log ({b.log_path})")
    ok = [r for r in rows if r["p99"] <= P99_MS and not r["unanswered"]]
    best = max(ok, key=lambda r: r["achieved"], default=None)
    return {"name": name, "rows": rows, "best": best, "pg": pg is not None}, failures


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.1f}×" if b > 0 else "–"


def db_ms(res: dict, row: dict) -> str:
    return f"{row['db_ms']:.1f}" if res["pg"] else "– (in the bot)"


async def main(seconds: float = 6.0, rates: tuple[float, ...] = RATES) -> int:
    from tests.pg import PgServer, missing_reason

    results, failures = [], []
    tmp = Path(tempfile.mkdtemp(prefix="ludibot-processes-db-"))
    r, f = await deployment("1 process, SQLite", str(tmp / "ludibot.db"), 1, rates, seconds)
    results.append(r)
    failures += f
    reason = missing_reason()
    if reason:
        failures.append(f"- MEASURED NOTHING on PostgreSQL: {reason}")
    else:
        pg = PgServer().start()
        try:
            for name, n in (("1 process, PostgreSQL", 1), ("2 processes (shards 0 and 1), PostgreSQL", 2)):
                r, f = await deployment(name, await pg.new_database("bench"), n, rates, seconds, pg)
                results.append(r)
                failures += f
        finally:
            pg.stop()
    floor_seconds = min(seconds, FLOOR_SECONDS)
    floor = {f["rate"]: f for f in await floor_steps(rates, floor_seconds) if f["callbacks"]}
    failures += [f"- MEASURED NOTHING: the floor bot at {rate:.0f} clicks/s" for rate in rates if rate not in floor]
    print(f"### Throughput by deployment: {GAMES} concurrent Ludix games on two servers (shards 0 and 1), "
          f"{seconds:.0f} s per rate\n")
    print("| deployment | offered moves/s | achieved | n | callback p50 ms | callback p99 ms | unanswered "
          "| CPU/move bot ms | CPU/move PostgreSQL ms | 429s | p50 × floor | p99 × floor | CPU × floor |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for res in results:
        for r in res["rows"]:
            f = floor.get(r["rate"])
            ratios = (f"{_ratio(r['p50'], statistics.median(f['callbacks']))} "
                      f"| {_ratio(r['p99'], percentile(f['callbacks'], 99))} | {_ratio(r['bot_ms'], f['cpu_ms'])}"
                      if f else "– | – | –")
            print(f"| {res['name']} | {r['rate']:.0f} | {r['achieved']:.1f} | {r['moves']} | {r['p50']:.1f} "
                  f"| {r['p99']:.1f} | {r['unanswered']} | {r['bot_ms']:.1f} | {db_ms(res, r)} | {r['429']} "
                  f"| {ratios} |")
    print(f"\nThe floor bot at the same offered rates (same run, {GAMES} buttons on its own fake Discord, "
          f"{floor_seconds:.0f} s per rate):\n")
    print("| offered clicks/s | achieved | n | callback p50 ms | callback p99 ms | unanswered | CPU/click ms |")
    print("|---|---|---|---|---|---|---|")
    for rate, f in floor.items():
        print(f"| {rate:.0f} | {f['achieved']:.1f} | {f['moves']} | {statistics.median(f['callbacks']):.1f} "
              f"| {percentile(f['callbacks'], 99):.1f} | {f['unanswered']} | {f['cpu_ms']:.2f} |")
    print("\n| deployment | moves/s at p99 ≤ 1 s | CPU/move bot ms | CPU/move PostgreSQL ms |")
    print("|---|---|---|---|")
    for res in results:
        b = res["best"]
        print(f"| {res['name']} | " + (f"{b['achieved']:.0f} | {b['bot_ms']:.1f} | {db_ms(res, b)} |" if b
                                        else "none | – | – |"))
    print(f"\n(load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; bot CPU = every bot process, "
          "main + render workers)")
    for res in results:
        if res["best"] is None:
            failures.append(f"- {res['name']}: no rate with p99 ≤ 1 s")
    print("\n".join(failures) if failures else "- every deployment measured")
    return 1 if failures else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    secs = float(args[0]) if args else 6.0
    chosen = tuple(float(x) for x in args[1:]) or RATES
    t0 = time.perf_counter()
    code = asyncio.run(main(secs, chosen))
    print(f"({time.perf_counter() - t0:.0f} s)")
    sys.exit(code)
