"""``python -m bot.render_worker``: one render worker of the bot (see :mod:`bot.render_pool`).

It reads jobs on its standard input and answers on its standard output, one at a time, each
message a 4-byte big-endian length then a pickle: a job is a :class:`bot.render_pool.Picture`,
an answer ``(ok, PNG bytes or None or the exception, CPU seconds)``. The end of its input (the
bot stopped, or was killed outright) ends it, so no worker outlives the bot. Anything a
renderer prints goes to standard error, never into the answers.
"""

from __future__ import annotations

import os
import pickle
import sys
import time
from typing import BinaryIO

READY = b"R"
#: the AI workers' niceness (``LUDIBOT_AI_NICE``), above the bot's: the CPU goes first to the event loop and
#: the pictures
AI_NICE = 19
#: the niceness of the worker of long pictures (``LUDIBOT_LONG_NICE``: the animated summaries, see
#: ``RenderPool.run_long``): below the moves' pictures, above the AI's searches
LONG_NICE = 10


def _warm(what: str = "render") -> None:
    """Import the renderers (fonts, PIL) before the first job, so it is as fast as the next ones; an
    AI worker (``python -m bot.render_worker engines``) imports the engines and their AIs instead; the
    worker of long pictures (``long``) the renderers and the animations, at a lower priority."""
    if what == "engines":
        # below the bot's own process and its render workers: on a busy machine, a search that takes a core
        # for seconds yields it to the commands and pictures members wait for (issue 37)
        try:
            os.nice(int(os.environ.get("LUDIBOT_AI_NICE", AI_NICE)))
        except (OSError, ValueError):
            pass
        import engines

        engines.available()
        return
    if what == "long":
        # a summary's seconds of CPU yield to the moves' pictures and the event loop on a busy machine
        try:
            os.nice(int(os.environ.get("LUDIBOT_LONG_NICE", LONG_NICE)))
        except (OSError, ValueError):
            pass
        import render.animation  # noqa: F401
    import render.armada  # noqa: F401
    import render.leaderboard  # noqa: F401
    import render.limit  # noqa: F401
    import render.ludime  # noqa: F401
    import render.ludix  # noqa: F401
    import render.lutinades  # noqa: F401
    import render.ranta  # noqa: F401
    import render.tectonic  # noqa: F401


def _read(inp: BinaryIO) -> bytes | None:
    head = inp.read(4)
    if len(head) < 4:
        return None
    size = int.from_bytes(head, "big")
    body = inp.read(size)
    return body if len(body) == size else None


def _answer(job_bytes: bytes) -> bytes:
    t0 = time.process_time()
    try:
        job = pickle.loads(job_bytes)
        answer = (True, job(), time.process_time() - t0)
    except Exception as exc:  # noqa: BLE001 - the bot raises it where the picture was asked for
        answer = (False, exc, time.process_time() - t0)
    try:
        return pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # an exception that does not pickle: its text, at least
        return pickle.dumps((False, RuntimeError(repr(answer[1])), answer[2]))


def serve(inp: BinaryIO, out: BinaryIO, warm: str = "render") -> None:
    _warm(warm)
    out.write(READY)
    out.flush()
    while (job := _read(inp)) is not None:
        reply = _answer(job)
        out.write(len(reply).to_bytes(4, "big") + reply)
        out.flush()


def main() -> None:
    out = os.fdopen(os.dup(1), "wb")  # the answers' channel, kept apart from anything printed
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        serve(sys.stdin.buffer, out, sys.argv[1] if len(sys.argv) > 1 else "render")
    except (BrokenPipeError, KeyboardInterrupt):  # the bot is gone
        pass


if __name__ == "__main__":
    main()
