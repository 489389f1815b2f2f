"""bench/bench_activity.py's own logic: its verdicts against the issue's budgets and the page's size (no
timing here: the figures are the benchmark's)."""

from __future__ import annotations

import gzip

from bench import bench_activity


def test_a_figure_at_or_under_its_budget_passes_and_over_it_is_flagged():
    assert bench_activity.verdict("targets p95", 100.0, 100.0).startswith("- ok: targets p95 100.0 ms")
    over = bench_activity.verdict("preview p95", 300.4, 300.0)
    assert over.startswith("- OVER BUDGET: preview p95 300.4 ms") and over.endswith("(budget ≤ 300 ms)")
    assert "KiB" in bench_activity.verdict("size", 48.4, 150, "KiB")


def test_the_page_size_counts_every_file_of_the_built_page_gzipped(tmp_path, monkeypatch):
    (tmp_path / "assets").mkdir()
    files = {"index.html": b"<html>" * 100, "assets/main-1.js": bytes(range(256)) * 40, "assets/s.css": b"a{}"}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    monkeypatch.setattr(bench_activity, "DIST", tmp_path)
    rows, total = bench_activity.page_size()
    assert total == sum(len(gzip.compress(d, compresslevel=6)) for d in files.values())
    assert sorted(r.split(" | ")[0].strip("| ") for r in rows) == sorted(files)
