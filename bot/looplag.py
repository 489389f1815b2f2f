"""Event-loop lag, measured for the benchmarks (off unless ``LUDIBOT_LOOP_LAG`` names a file).

A task sleeps 10 ms again and again; how late it wakes up is how long something held the loop
(a callback, a render on the loop, the interpreter lock held by another thread). Samples go to
the file once a second as ``<unix time> <lag ms>`` lines, for the benchmark to read.
"""

from __future__ import annotations

import asyncio
import os
import time

INTERVAL = 0.010


async def monitor(path: str) -> None:
    buffer: list[str] = []
    flushed = time.monotonic()
    with open(path, "a", buffering=1 << 16) as out:
        while True:
            # the process's own clock, not the loop's: uvloop's loop.time() is libuv's cached
            # millisecond clock (its timers fire on whole milliseconds, a lag of < 1 ms by design)
            start = time.perf_counter()
            await asyncio.sleep(INTERVAL)
            lag = (time.perf_counter() - start - INTERVAL) * 1000
            buffer.append(f"{time.time():.3f} {max(0.0, lag):.3f}\n")
            if time.monotonic() - flushed >= 1.0:
                out.writelines(buffer)
                out.flush()
                buffer.clear()
                flushed = time.monotonic()


def start_if_asked() -> asyncio.Task | None:
    path = os.environ.get("LUDIBOT_LOOP_LAG", "").strip()
    return asyncio.create_task(monitor(path)) if path else None
