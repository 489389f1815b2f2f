"""The event loop the bot runs on: uvloop (libuv) when it is installed, else asyncio's own.

The bot spends a good share of each move in the event loop's machinery (callbacks, sockets,
pipes to the render workers, hand-overs from the database thread); uvloop does the same work in
C, with the same semantics. ``LUDIBOT_EVENT_LOOP=asyncio`` keeps asyncio's loop (e.g. to compare).
"""

from __future__ import annotations

import asyncio
import logging
import os

log = logging.getLogger("ludibot")


def wanted(env: dict[str, str] | None = None) -> str:
    """``uvloop`` (the default) or ``asyncio``, from ``LUDIBOT_EVENT_LOOP``."""
    value = (env if env is not None else os.environ).get("LUDIBOT_EVENT_LOOP", "").strip().lower()
    return "asyncio" if value == "asyncio" else "uvloop"


def install(env: dict[str, str] | None = None) -> str:
    """Make the loop that ``asyncio.run`` creates from now on the wanted one; returns its name."""
    if wanted(env) == "asyncio":
        return "asyncio"
    try:
        import uvloop
    except ImportError:  # not installed (e.g. Windows): asyncio's loop does the same, more slowly
        log.info("uvloop is not installed: running on asyncio's event loop")
        return "asyncio"
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return "uvloop"


#: the cyclic collector's young-generation threshold once the process is up (CPython's default: 700)
YOUNG_THRESHOLD = 20_000


def settle_heap(env: dict[str, str] | None = None) -> bool:
    """Once the process is up (modules, catalogs, caches loaded): move everything alive into the
    collector's permanent generation (``gc.freeze``), so its full collections no longer scan the tens of
    thousands of start-up objects that live as long as the process, and let the young generation grow
    larger before it is collected. Each move allocates thousands of short-lived objects (discord.py's
    models, the card, the events); at CPython's default thresholds the collector ran several times per
    move and took about 8 % of the event loop's thread at 100 moves/s. Objects freed by reference
    counting are unaffected; only cycles wait a little longer. ``LUDIBOT_GC=default`` keeps CPython's
    settings (to compare). True when settled."""
    import gc

    if (env if env is not None else os.environ).get("LUDIBOT_GC", "").strip().lower() == "default":
        return False
    gc.collect()
    gc.freeze()
    _, g1, g2 = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, g1, g2)
    return True
