"""The bot's clock: the wall clock, or (end-to-end tests) the wall clock moved forward by a test.

``LUDIBOT_CLOCK_FILE`` names a file holding a number of seconds; the clock reads it again whenever
the file changes, and adds it to the wall time. A test plays days of a game in seconds by writing
a larger offset (``BotProcess.advance`` in tests/e2e/harness.py); the offset only ever grows, so
the clock never runs backwards. Unset (production), the clock is ``time.time``.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable

log = logging.getLogger("ludibot.clock")

CLOCK_ENV = "LUDIBOT_CLOCK_FILE"


class OffsetClock:
    def __init__(self, path: str) -> None:
        self.path = path
        self._stamp: int | None = None
        self._offset = 0.0

    def __call__(self) -> float:
        try:
            stamp = os.stat(self.path).st_mtime_ns
        except OSError:
            stamp = None
        if stamp is not None and stamp != self._stamp:
            try:
                with open(self.path) as f:
                    offset = float(f.read().strip() or 0)
            except (OSError, ValueError):
                offset = self._offset  # a file being written: keep the last offset
            self._stamp, self._offset = stamp, max(self._offset, offset)
        return time.time() + self._offset


def bot_clock() -> Callable[[], float]:
    path = os.environ.get(CLOCK_ENV)
    if not path:
        return time.time
    log.warning("the clock is moved by %s (a test setting)", path)
    return OffsetClock(path)
