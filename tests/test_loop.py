"""The bot's event loop: uvloop unless LUDIBOT_EVENT_LOOP=asyncio asks for asyncio's own."""

from __future__ import annotations

import asyncio

import pytest

from bot import loop


def test_the_wanted_loop():
    assert loop.wanted({}) == "uvloop"
    assert loop.wanted({"LUDIBOT_EVENT_LOOP": " Asyncio "}) == "asyncio"
    assert loop.wanted({"LUDIBOT_EVENT_LOOP": "uvloop"}) == "uvloop"


def test_install_makes_asyncio_run_use_it():
    uvloop = pytest.importorskip("uvloop")
    before = asyncio.get_event_loop_policy()
    try:
        assert loop.install({}) == "uvloop"
        assert asyncio.run(_loop_type()) is uvloop.Loop
        asyncio.set_event_loop_policy(before)
        assert loop.install({"LUDIBOT_EVENT_LOOP": "asyncio"}) == "asyncio"
        assert asyncio.run(_loop_type()) is not uvloop.Loop
    finally:
        asyncio.set_event_loop_policy(before)


async def _loop_type():
    return type(asyncio.get_running_loop())


def _settled(env: str) -> list[str]:
    import subprocess
    import sys

    code = ("import gc; from bot import loop; before = gc.get_threshold()[0]; "
            f"done = loop.settle_heap({env}); print(done, before, gc.get_threshold()[0], gc.get_freeze_count() > 1000)")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()


def test_settle_heap_freezes_the_start_up_heap_and_raises_the_young_threshold():
    """Once up, the collector no longer rescans the start-up objects and runs less often (bot.loop);
    LUDIBOT_GC=default keeps CPython's settings."""
    assert _settled("{}") == ["True", "700", str(loop.YOUNG_THRESHOLD), "True"]
    assert _settled("{'LUDIBOT_GC': 'default'}") == ["False", "700", "700", "False"]
