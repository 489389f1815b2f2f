"""The render pool: pictures drawn in other processes, a dead worker replaced, a thread fallback, the cache."""

from __future__ import annotations

import asyncio
import os

from bot.render_pool import Picture, RenderPool, picture, workers_from_env
from engines.ludix import ENGINE
from render.ludix import render_table


def _pid() -> int:
    return os.getpid()


def _die_once(marker: str) -> int:
    """Kills the worker that runs it the first time (like an out-of-memory kill), then works."""
    if not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(3)
    return os.getpid()


def _slow(seconds: float, answer: bytes) -> bytes:
    import time

    time.sleep(seconds)
    return answer


def _held(started: str, release: str, answer: bytes) -> bytes:
    """Says it started (a file), then draws until told to finish (another file): a picture in progress."""
    import time

    open(started, "w").close()
    end = time.monotonic() + 30
    while not os.path.exists(release) and time.monotonic() < end:
        time.sleep(0.01)
    return answer


async def _until(cond, what: str, timeout: float = 20) -> None:
    end = asyncio.get_running_loop().time() + timeout
    while not cond():
        assert asyncio.get_running_loop().time() < end, f"waited {timeout}s in vain for {what}"
        await asyncio.sleep(0.01)


def _busy(seconds: float) -> int:
    """Spends ``seconds`` of CPU; the process id."""
    import time

    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return os.getpid()


def _fail(text: str) -> bytes:
    raise ValueError(text)


def _view():
    state = ENGINE.new_game(2, {}, seed=3)
    state, _ = ENGINE.apply(state, 0, {"type": "roll"})
    return ENGINE.view(state, None)


def test_workers_from_env():
    assert workers_from_env({"LUDIBOT_RENDER_WORKERS": "0"}) == 0
    assert workers_from_env({"LUDIBOT_RENDER_WORKERS": "3"}) == 3
    assert workers_from_env({}) == max(1, os.cpu_count() or 1)
    assert workers_from_env({"LUDIBOT_RENDER_WORKERS": "lots"}) >= 1


def test_pictures_are_drawn_in_worker_processes_and_a_dead_worker_is_replaced(tmp_path):
    async def scenario():
        pool = RenderPool(2)
        await pool.start()
        try:
            assert pool.uses_processes
            pids = set(await asyncio.gather(*(pool.run(_pid) for _ in range(6))))
            assert os.getpid() not in pids
            job = picture(render_table, _view(), ["Alice", "Bruno"], None)
            assert await pool.run(job) == job()  # same picture as drawn here
            assert pool.worker_cpu > 0
            # a worker dies mid-job: the pool is replaced and the next job still works
            survivor = await pool.run(_die_once, str(tmp_path / "died"))
            assert pool.restarts == 1 and pool.uses_processes and survivor != os.getpid()
            assert await pool.run(job) == job()
        finally:
            await pool.close()

    asyncio.run(scenario())


def test_a_caller_that_gives_up_leaves_the_worker_in_step(tmp_path):
    """An interaction cancelled while its picture is drawn: the answer is still read off the pipe,
    so the next picture gets its own answer, not the abandoned one; an error raised by a renderer
    reaches its caller and the worker goes on."""
    started, release = str(tmp_path / "started"), str(tmp_path / "release")

    async def scenario():
        pool = RenderPool(1)
        await pool.start()
        try:
            slow = asyncio.create_task(pool.run(_held, started, release, b"abandoned"))
            await _until(lambda: os.path.exists(started), "the worker to start drawing the first picture")
            slow.cancel()
            open(release, "w").close()  # the abandoned picture is finished after its caller gave up
            assert await pool.run(_slow, 0, b"mine") == b"mine"
            try:
                await pool.run(_fail, "no such tile")
            except ValueError as exc:
                assert str(exc) == "no such tile"
            else:
                raise AssertionError("the renderer's error was lost")
            assert await pool.run(_slow, 0, b"next") == b"next"
            assert pool.restarts == 0 and pool.uses_processes
        finally:
            await pool.close()

    asyncio.run(scenario())


def test_a_long_job_never_holds_the_worker_a_picture_waits_for(tmp_path):
    """Issue 36: an animated summary (seconds of CPU) drawn in the pool of one worker held the only
    worker, and a move's picture asked meanwhile waited behind it past Discord's 3 seconds. A long job
    runs in a worker of its own, below the pictures' priority: the pictures asked while it draws are
    drawn at once, by the picture worker."""
    started, release = str(tmp_path / "started"), str(tmp_path / "release")

    async def scenario():
        pool = RenderPool(1)
        await pool.start()
        try:
            (drawer,) = pool._all
            assert pool.long_worker_pids == []  # started at the first long job, not before
            long = asyncio.create_task(pool.run_long(_held, started, release, b"summary"))
            await _until(lambda: os.path.exists(started), "the long job to start")
            (long_pid,) = pool.long_worker_pids
            assert long_pid not in (drawer.proc.pid, os.getpid())
            assert os.getpriority(os.PRIO_PROCESS, long_pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)
            for _ in range(3):  # drawn while the summary is still being drawn, by the picture worker
                assert await asyncio.wait_for(pool.run(_pid), 5) == drawer.proc.pid
            assert not long.done()
            open(release, "w").close()
            assert await long == b"summary"
            cpu = pool.worker_cpu
            assert await pool.run_long(_busy, 0.2) == long_pid  # the same worker, kept for the next one
            assert pool.worker_cpu - cpu >= 0.2  # its CPU counted with the pool's (the benchmarks read it)
        finally:
            await pool.close()
        assert pool.long_worker_pids == []

    asyncio.run(scenario())


def test_a_long_job_without_worker_processes_is_drawn_as_any_other():
    async def scenario():
        pool = RenderPool(0)
        await pool.start()
        assert await pool.run_long(_pid) == os.getpid()  # in a thread of this process, as run() draws
        assert await pool.run_long(None) is None and pool.long_worker_pids == []
        await pool.close()

    asyncio.run(scenario())


def test_the_last_worker_gone_for_good_falls_back_to_a_thread(tmp_path, monkeypatch):
    import bot.render_pool as rp

    async def scenario():
        pool = RenderPool(1)
        await pool.start()

        async def cannot_start():
            raise rp.WorkerGone("no more processes")

        monkeypatch.setattr(rp._Worker, "spawn", staticmethod(cannot_start))
        try:
            # the job kills its worker, no other can start: it is drawn here, and so are the next ones
            assert await pool.run(_die_once, str(tmp_path / "died")) == os.getpid()
            assert not pool.uses_processes and pool.restarts == 1
            assert await pool.run(_pid) == os.getpid()
        finally:
            await pool.close()

    asyncio.run(scenario())


def test_thread_fallback_and_the_cache():
    async def scenario():
        pool = RenderPool(0)
        await pool.start()
        assert not pool.uses_processes
        assert await pool.run(_pid) == os.getpid()  # in a thread of this process
        calls = []

        def draw(n):
            calls.append(n)
            return b"png%d" % n

        for _ in range(3):
            assert await pool.cached((1, 5, "fr", "public"), Picture(draw, (5,))) == b"png5"
        assert calls == [5] and pool.hits == 2
        small = RenderPool(0, cache_size=2)
        for version in range(4):
            await small.cached((1, version, "fr", "public"), Picture(draw, (version,)))
        await small.cached((1, 0, "fr", "public"), Picture(draw, (0,)))
        assert calls == [5, 0, 1, 2, 3, 0]  # version 0 was evicted (bounded LRU) and drawn again
        assert await pool.run(None) is None
        await pool.close()

    asyncio.run(scenario())


def test_workers_do_not_outlive_a_killed_bot():
    """The bot killed outright (SIGKILL: no shutdown) leaves no render worker behind."""
    import signal
    import subprocess
    import sys
    import time

    code = ("import asyncio, os, time\n"
            "from bot.render_pool import RenderPool\n"
            "async def main():\n"
            "    pool = RenderPool(1)\n"
            "    await pool.start()\n"
            "    print(await pool.run(os.getpid), flush=True)\n"
            "    time.sleep(60)\n"
            "asyncio.run(main())\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        worker = int(proc.stdout.readline())
        os.kill(worker, 0)  # alive
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                os.kill(worker, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)
        os.kill(worker, signal.SIGKILL)
        raise AssertionError("the render worker outlived the killed bot")
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_cog_draws_the_public_picture_of_a_version_once():
    """status, spectators and republication reuse the picture of the game's version."""
    from dataclasses import replace

    from tests.render import gallery

    async def scenario():
        cog = gallery._cog("ludix")
        pool = RenderPool(0)
        cog.bot.render_pool = pool
        state = ENGINE.new_game(2, {}, seed=3)
        game = gallery._row("ludix", 2, {}, state, False)
        view = ENGINE.view(state, None)
        first = await cog.render_public_cached(game, view, "fr")
        again = await cog.render_public_cached(game, view, "fr")
        assert first == again and first[:4] == b"\x89PNG" and pool.jobs == 1 and pool.hits == 1
        english = await cog.render_public_cached(game, view, "en")  # another language: its own picture
        assert english != first and pool.jobs == 2
        state, _ = ENGINE.apply(state, 0, {"type": "roll"})
        newer = await cog.render_public_cached(replace(game, version=game.version + 1), ENGINE.view(state, None), "fr")
        assert newer != first and pool.jobs == 3
        assert await cog.render(None) is None

    asyncio.run(scenario())
