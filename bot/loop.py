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
