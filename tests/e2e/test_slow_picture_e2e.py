"""A move is answered within Discord's 3 seconds while its picture cannot be drawn (issue 36).

On a saturated machine a move's picture waited seconds for a render worker, and the click's answer
waited for the picture: past 3 s, Discord shows « Échec de l'interaction ». Here the bot's render
worker is stopped (SIGSTOP) before the click: the answer (the clicked message's buttons taken off)
must come all the same, and the new turn, with its picture, once the worker runs again.
"""

from __future__ import annotations

import os
import signal

import pytest

from bench.common import child_pids
from tests.e2e.harness import last_control, mentioned, wait_control
from tests.e2e.test_ludix_e2e import open_game

pytestmark = pytest.mark.e2e

UPDATE_MESSAGE = 7
DISCORD_S = 3.0


def render_workers(pid: int) -> list[int]:
    """The bot's picture workers (``python -m bot.render_worker render``)."""
    found = []
    for child in child_pids(pid):
        try:
            argv = open(f"/proc/{child}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        if b"bot.render_worker" in argv and b"render" in argv:
            found.append(child)
    return found


async def test_a_click_is_answered_while_its_picture_waits_for_a_stopped_worker(world):
    fake, u = world.fake, world.u
    lobby = await open_game(world, u.bruno)
    await fake.click(u.alice, lobby, label="Lancer")
    msg = await wait_control(fake)
    assert mentioned(msg) == [u.alice.id]
    workers = render_workers(world.bot.proc.pid)
    assert workers, "the bot draws in a worker process (LUDIBOT_RENDER_WORKERS=1)"
    for pid in workers:
        os.kill(pid, signal.SIGSTOP)
    try:
        res = await fake.click(u.alice, msg, label="Lancer les dés", wait=False)
        # answered in time although no picture can be drawn: the click's own message loses its buttons
        await fake.wait_until(lambda: res.record.callback_type is not None, timeout=DISCORD_S,
                              what="the click's answer within Discord's 3 s, its picture not drawn")
        assert res.record.callback_type == UPDATE_MESSAGE and not res.record.late
        assert msg.buttons == [] and last_control(fake) is None  # the new turn is not out: no picture yet
    finally:
        for pid in workers:
            os.kill(pid, signal.SIGCONT)
    # the worker runs again: the new turn follows, with its picture
    new = await wait_control(fake, newer_than=msg)
    assert new.attachments and new.attachments[0].bytes[:4] == b"\x89PNG"
    assert res.record.latency is not None and res.record.latency < DISCORD_S
