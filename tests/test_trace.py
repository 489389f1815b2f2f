"""bot.trace: each stage of an interaction on the system's monotonic clock, read back by the benchmarks."""

from __future__ import annotations

import os
import time

from bot import trace


def test_marks_are_written_only_when_asked_and_read_back_per_interaction(tmp_path, monkeypatch):
    path = tmp_path / "trace.txt"
    monkeypatch.setattr(trace, "_opened", False)
    monkeypatch.setattr(trace, "_fd", None)
    monkeypatch.delenv("LUDIBOT_TRACE", raising=False)
    trace.mark(1, "frame")
    assert not trace.enabled() and not path.exists()  # off: nothing written

    monkeypatch.setattr(trace, "_opened", False)
    monkeypatch.setenv("LUDIBOT_TRACE", str(path))
    before = time.monotonic()
    trace.mark("12", "frame")  # the gateway frame's id, a string
    trace.mark(type("Interaction", (), {"id": 12})(), "callback")
    trace.mark(13, "frame")
    trace.mark(12, "frame")  # a stage seen again keeps its first time
    trace.mark(None, "frame")  # no id: nothing
    after = time.monotonic()
    read = trace.read(path)
    assert sorted(read) == [12, 13] and sorted(read[12]) == ["callback", "frame"]
    assert before <= read[12]["frame"] <= read[12]["callback"] <= after
    assert trace.read(tmp_path / "none.txt") == {}
    os.close(trace._fd)
