"""A move is answered within Discord's 3 seconds while its picture cannot be drawn (issue 36).

On a saturated machine a move's picture waited seconds for a render worker, and the click's answer
waited for the picture: past 3 s, Discord shows « Échec de l'interaction ». Here the bot's render
worker is stopped (SIGSTOP) before the move: a click is answered all the same (a deferred update), a
command is deferred (« réfléchit… »), and the new turn, with its picture, follows once the worker
runs again.
"""

from __future__ import annotations

import os
import signal

import pytest

from bench.common import child_pids
from tests.e2e.harness import last_control, mentioned, wait_control
from tests.e2e.test_ludix_e2e import open_game

pytestmark = pytest.mark.e2e

DEFERRED_UPDATE_MESSAGE = 6
DEFERRED_CHANNEL_MESSAGE = 5
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
        # answered in time although no picture can be drawn: deferred (nothing shown, the message as it was)
        await fake.wait_until(lambda: res.record.callback_type is not None, timeout=DISCORD_S,
                              what="the click's answer within Discord's 3 s, its picture not drawn")
        assert res.record.callback_type == DEFERRED_UPDATE_MESSAGE and not res.record.late
        assert res.record.update_pending and last_control(fake) is msg  # the new turn is not out: no picture yet
    finally:
        for pid in workers:
            os.kill(pid, signal.SIGCONT)
    # the worker runs again: the new turn follows, with its picture, as the click's follow-up, and the old
    # turn's buttons are taken off
    await res.wait()
    new = res.message
    assert new is not msg and new.visible_to is None and "Alice lance" in new.content, res
    assert new.attachments and new.attachments[0].bytes[:4] == b"\x89PNG" and last_control(fake) is new
    await fake.wait_until(lambda: msg.buttons == [], timeout=10, what="the old turn's buttons taken off")
    assert res.record.latency is not None and res.record.latency < DISCORD_S and not res.record.update_pending


async def test_a_command_move_is_deferred_while_its_picture_waits_and_its_board_follows(world):
    """A move by command (no clicked message to answer with) is deferred within Discord's 3 s when its
    picture does not come, and its board replaces the « réfléchit… » once drawn."""
    from tests.e2e.tectonic_driver import answered, board_messages

    fake, u = world.fake, world.u
    lobby = (await fake.run_command(u.alice, "jeux", "tectonic start")).message
    await fake.click(u.dave, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer", until=answered)
    workers = render_workers(world.bot.proc.pid)
    assert workers
    for pid in workers:
        os.kill(pid, signal.SIGSTOP)
    try:
        res = await fake.run_command(u.alice, "jeux", "tectonic jouer", de="C2", vers="C6", wait=False)
        await fake.wait_until(lambda: res.record.callback_type is not None, timeout=DISCORD_S,
                              what="the command's answer within Discord's 3 s, its picture not drawn")
        assert res.record.callback_type == DEFERRED_CHANNEL_MESSAGE and not res.record.late
        assert res.record.deferred_pending  # « réfléchit… » until the board comes
    finally:
        for pid in workers:
            os.kill(pid, signal.SIGCONT)
    await res.wait(until=answered)
    (board,) = board_messages(res)
    assert "Alice déplace son mont de C2 à C6." in board.content and mentioned(board) == [u.dave.id]
    assert board.attachments[0].bytes[:4] == b"\x89PNG" and not res.record.deferred_pending
