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
