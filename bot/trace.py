"""Where an interaction's time goes, for the benchmarks (off unless ``LUDIBOT_TRACE`` names a file).

Each stage of an interaction's way through the bot is written as ``<interaction id> <stage>
<time.monotonic()>``: the system's monotonic clock, the one the fake Discord stamps its frames
and callbacks with (``time.monotonic``/``time.perf_counter`` on Linux), so a benchmark can put
the two sides of one click on one time line. Stages: ``frame`` (the gateway frame parsed),
``dispatch`` (the component's handler starts), ``locked`` (the game's lock held), ``acted`` (the
move committed), ``drawn`` (its pictures ready), ``callback`` (the answer's request sent),
``answered`` (Discord said yes to it), ``followed`` (the follow-up with the next turn posted).
Lines are written as they come (one ``write`` each: a killed bot loses nothing).
"""

from __future__ import annotations

import os
import time
from typing import Any

_fd: int | None = None
_opened = False


def _out() -> int | None:
    global _fd, _opened
    if not _opened:
        _opened = True
        path = os.environ.get("LUDIBOT_TRACE", "").strip()
        if path:
            _fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    return _fd


def enabled() -> bool:
    return _out() is not None


def mark(interaction: Any, stage: str) -> None:
    """``stage`` reached now by ``interaction`` (an ``Interaction``, or its id)."""
    fd = _out()
    if fd is None:
        return
    iid = interaction if isinstance(interaction, int | str) else getattr(interaction, "id", None)
    if iid is None:
        return
    os.write(fd, f"{iid} {stage} {time.monotonic():.6f}\n".encode())


def read(path: str | os.PathLike[str]) -> dict[int, dict[str, float]]:
    """A trace file: interaction id -> {stage: monotonic time (its first)}."""
    out: dict[int, dict[str, float]] = {}
    try:
        text = open(path, encoding="utf-8").read()  # noqa: SIM115 - read whole
    except FileNotFoundError:
        return out
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 3 or not parts[0].isdigit():
            continue
        try:
            at = float(parts[2])
        except ValueError:
            continue
        out.setdefault(int(parts[0]), {}).setdefault(parts[1], at)
    return out
