"""bench_throughput's budget is judged against the floor bot of the same run (issue 38): Ludibot's moves/s with
p99 ≤ 1 s ≥ 0.35 × the floor's, its main-process CPU per move ≤ 3.5 × the floor's CPU per click."""

from __future__ import annotations

from bench.bench_throughput import CPU_RATIO, THROUGHPUT_RATIO, verdicts


def step(rate: float, achieved: float, p99: float, cpu: float, workers: float = 2.0) -> dict:
    """A measured step: 100 callbacks of 5 ms but the slowest, ``p99`` ms."""
    return {"rate": rate, "achieved": achieved, "moves": int(achieved * 8), "callbacks": [5.0] * 98 + [p99] * 2,
            "main_ms": cpu, "workers_ms": workers, "lag_p99": 2.0}


def floor_step(rate: float, achieved: float, p99: float, cpu: float) -> dict:
    return {"rate": rate, "achieved": achieved, "moves": int(achieved * 6), "callbacks": [1.0] * 98 + [p99] * 2,
            "cpu_ms": cpu}


FLOOR = [floor_step(r, r * 0.95, 3.0, 1.0) for r in (30, 60, 100, 140, 180, 220)] + \
    [floor_step(300, 280.0, 40.0, 0.9), floor_step(400, 300.0, 1500.0, 0.9)]


def judged(rows, floor=FLOOR) -> dict[str, tuple[str, bool]]:
    out, _ = verdicts(rows, floor)
    return {text.split(" ")[0]: (text, ok) for text, ok in out}


def test_the_ratios_are_to_the_floor_of_the_same_run():
    # the floor sustains 280 clicks/s (400 offered: past 1 s), 1.0 ms per click over the rates 30-180
    rows = [step(r, r * 0.94, 20.0, 3.0) for r in (30, 60, 100, 140, 180)] + [step(220, 196.0, 900.0, 3.0)]
    v = judged(rows)
    assert v["throughput"] == (f"throughput ratio 0.70 (budget ≥ {THROUGHPUT_RATIO}): 196 moves/s with p99 ≤ 1 s "
                               "against the floor bot's 280 clicks/s", True)
    assert v["CPU"][1] and v["CPU"][0].startswith(f"CPU ratio 3.00 (budget ≤ {CPU_RATIO}): 3.00 ms per move")
    assert v["p99"] == ("p99 at 60 moves/s: 20 ms (budget ≤ 150)", True)


def test_a_machine_twice_slower_keeps_the_verdict_that_absolute_budgets_would_change():
    rows = [step(r, r * 0.94, 20.0, 3.0) for r in (30, 60, 100, 140, 180)] + [step(220, 150.0, 900.0, 3.0)]
    slow_rows = [{**r, "main_ms": r["main_ms"] * 2, "achieved": r["achieved"] / 2} for r in rows]
    slow_floor = [{**f, "cpu_ms": f["cpu_ms"] * 2, "achieved": f["achieved"] / 2} for f in FLOOR]
    assert [ok for _, ok in verdicts(rows, FLOOR)[0]] == [ok for _, ok in verdicts(slow_rows, slow_floor)[0]]
    # the absolute figures are printed, with no verdict
    info = verdicts(slow_rows, slow_floor)[1]
    assert any("6.0 ms in the main process" in line for line in info)


def test_over_either_ratio_is_over_budget():
    slow = [step(r, r * 0.9, 2000.0 if r >= 100 else 20.0, 3.0) for r in (30, 60, 100, 140, 180, 220)]
    assert judged(slow)["throughput"][1] is False  # 54 moves/s with p99 ≤ 1 s: 0.19 × 280
    heavy = [step(r, r * 0.94, 20.0, 3.6) for r in (30, 60, 100, 140, 180, 220)]
    assert judged(heavy)["CPU"][1] is False  # 3.6 × the floor's 1.0 ms
    assert judged(heavy)["throughput"][1] is True


def test_a_floor_that_measured_nothing_fails_both_ratios():
    rows = [step(r, r * 0.94, 20.0, 3.0) for r in (30, 60, 100, 140, 180)]
    v = judged(rows, [])
    assert v["throughput"][1] is False and v["CPU"][1] is False
