"""The benchmarks' tables: the bot's interactions printed as a ratio to the floor bot of the same run."""

from __future__ import annotations

from bench.common import FLOOR_ROW, FloorFigures, Timings


def _rows(table: str) -> dict[str, list[str]]:
    """Markdown table rows by their first cell, cells stripped."""
    out = {}
    for line in table.splitlines():
        if line.startswith("| ") and not line.startswith("| what"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            out[cells[0]] = cells[1:]
    return out


def _timings(rows: dict[str, list[float]]) -> Timings:
    t = Timings()
    for name, values in rows.items():
        for ms in values:
            t.add(name, ms / 1000)
    return t


def test_bot_rows_get_their_ratio_to_the_floor():
    t = _timings({"button Lancer les dés": [30.0] * 98 + [90.0, 90.0], FLOOR_ROW: [10.0] * 98 + [20.0, 20.0],
                  "render: table": [5.0] * 10})
    table = t.table("Ludix")
    assert "p50 × floor | p99 × floor |" in table.splitlines()[2]
    rows = _rows(table)
    # p50 30 / 10, p99 90 / 20
    assert rows["button Lancer les dés"][-2:] == ["3.0×", "4.5×"]
    assert rows["render: table"][-2:] == ["", ""]  # a render is no interaction of the bot
    assert rows[FLOOR_ROW][-2:] == ["", ""]


def test_no_floor_row_no_ratio_column():
    table = _timings({"button Lancer les dés": [30.0] * 10}).table("Ludix")
    assert "floor" not in table
    assert _rows(table)["button Lancer les dés"] == ["10", "30.0", "30.0", "30.0"]


def test_floor_cpu_per_click_printed_when_measured():
    t = _timings({"/profil": [12.0] * 5, FLOOR_ROW: [4.0] * 5})
    t.floor = FloorFigures(clicks=5, cpu=0.010, latencies=[4.0] * 5)
    assert "5 clicks, CPU per click 2.0 ms" in t.table("x")


def test_an_expected_floor_that_measured_nothing_fails_the_check():
    t = _timings({"/profil": [12.0] * 5})
    t.expect(FLOOR_ROW, 60)
    assert any(FLOOR_ROW in p and "MEASURED NOTHING" in p for p in t.check())
