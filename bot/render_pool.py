"""Drawing pictures off the interpreter lock: a pool of render processes, and a picture cache.

Renderers (``render/``) are pure top-level functions of plain data (engine views are JSON-safe
dicts, names and labels are strings), so a drawing job pickles as ``(function, arguments)`` and
runs in another process: the bot's event loop keeps its core while the second core draws and
encodes. :class:`RenderPool` starts its workers as fresh processes (``python -m bot.render_worker``:
they inherit neither the event loop, the database connection nor the gateway socket) and talks to
each through its standard input and output, read and written by the event loop itself: no thread
in the bot's process and one wake-up per picture (a ``ProcessPoolExecutor`` took two threads and
three hand-overs per job). A dead worker is replaced and its job tried once more; the pool draws in
a thread when processes cannot start or when ``LUDIBOT_RENDER_WORKERS=0`` asks for it. A worker
ends with its input, so none outlives the bot, even killed outright. The public picture of a
game's version is kept in a small LRU, so ``status``, spectators and republication reuse it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import sys
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from bot.render_worker import READY

log = logging.getLogger("ludibot.render")

#: Pictures kept by the cache (public pictures weigh 10-40 KB: a few MB at most).
CACHE_SIZE = 256


@dataclass(frozen=True)
class Picture:
    """A drawing job: ``fn(*args)`` returns PNG bytes (or None). Picklable when ``fn`` is a
    module-level function and ``args`` plain data."""

    fn: Callable[..., bytes | None]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)

    def __call__(self) -> bytes | None:
        return self.fn(*self.args, **self.kwargs)


def picture(fn: Callable[..., bytes | None], *args: Any, **kwargs: Any) -> Picture:
    return Picture(fn, args, kwargs)


#: how long a worker may take to start (Python, PIL and the fonts) before the pool gives up on it
START_TIMEOUT = 60.0


class WorkerGone(Exception):
    """A render worker died (killed, out of memory) or could not start."""


class _Worker:
    """One ``python -m bot.render_worker`` process and its two pipes, read and written by the
    event loop itself: no thread in the bot's process, one job at a time."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def spawn(cls, warm: str = "render") -> _Worker:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.render_worker", warm, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=None, limit=1 << 16)
        worker = cls(proc)
        try:
            ready = await asyncio.wait_for(proc.stdout.readexactly(1), START_TIMEOUT)  # type: ignore[union-attr]
        except (TimeoutError, asyncio.IncompleteReadError) as exc:
            worker.kill()
            raise WorkerGone("a render worker did not start") from exc
        if ready != READY:
            worker.kill()
            raise WorkerGone("a render worker answered garbage at start")
        return worker

    async def call(self, payload: bytes) -> tuple[bool, Any, float]:
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(len(payload).to_bytes(4, "big") + payload)
            await stdin.drain()
            size = int.from_bytes(await stdout.readexactly(4), "big")
            return pickle.loads(await stdout.readexactly(size))
        except (asyncio.IncompleteReadError, ConnectionError, BrokenPipeError, OSError) as exc:
            self.kill()
            raise WorkerGone(str(exc)) from exc

    @property
    def alive(self) -> bool:
        return self.proc.returncode is None

    def kill(self) -> None:
        if self.proc.returncode is None:
            try:
                self.proc.kill()
            except ProcessLookupError:
                pass

    async def stop(self) -> None:
        """End of input: the worker finishes its job and exits; killed if it does not."""
        if self.proc.stdin is not None and not self.proc.stdin.is_closing():
            self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 5)
        except TimeoutError:
            self.kill()
            await self.proc.wait()


def workers_from_env(env: dict[str, str] | None = None) -> int:
    """``LUDIBOT_RENDER_WORKERS``: 0 draws in a thread; default: one worker per core."""
    raw = (env if env is not None else os.environ).get("LUDIBOT_RENDER_WORKERS", "").strip()
    if raw:
        try:
            return max(0, int(raw))
        except ValueError:
            log.warning("LUDIBOT_RENDER_WORKERS=%r is not a number: using one worker per core", raw)
    return max(1, os.cpu_count() or 1)


def ai_workers_from_env(env: dict[str, str] | None = None) -> int:
    """``LUDIBOT_AI_WORKERS``: the processes where the AI seats think (issue 37), apart from the
    pictures'; ``0`` thinks in a thread. Default: one, or none when ``LUDIBOT_RENDER_WORKERS=0``
    asked for no process at all."""
    env = env if env is not None else os.environ
    raw = env.get("LUDIBOT_AI_WORKERS", "").strip()
    if raw:
        try:
            return max(0, int(raw))
        except ValueError:
            log.warning("LUDIBOT_AI_WORKERS=%r is not a number: using one worker", raw)
    return min(1, workers_from_env(env))


class RenderPool:
    """Runs :class:`Picture` jobs in worker processes (or a thread), with a public-picture cache."""

    def __init__(self, workers: int | None = None, *, cache_size: int = CACHE_SIZE, warm: str = "render") -> None:
        self.workers = workers_from_env() if workers is None else max(0, workers)
        #: what a worker imports before its first job: ``render`` (pictures) or ``engines`` (AI moves)
        self.warm = warm
        self._idle: asyncio.Queue[_Worker | None] | None = None
        self._all: list[_Worker] = []
        self._spawning = 0  # workers being started to replace dead ones
        self._cache: OrderedDict[Hashable, bytes | None] = OrderedDict()
        self._cache_size = cache_size
        self.restarts = 0
        #: the lane of the long jobs (:meth:`run_long`): a pool of one worker of its own, started at the first one
        self._long: RenderPool | None = None
        self._long_start = asyncio.Lock()
        self._cpu = 0.0  # CPU seconds spent drawing in this pool's own workers
        self.jobs = 0
        self.hits = 0

    @property
    def uses_processes(self) -> bool:
        return bool(self._all)

    @property
    def idle_workers(self) -> int:
        """Worker processes waiting for a job now (drawing ahead is only worth it when one is)."""
        return self._idle.qsize() if self._idle is not None else 0

    @property
    def alive_workers(self) -> int:
        """Worker processes alive now (the metrics' gauge)."""
        return sum(1 for w in self._all if w.alive)

    # --- life cycle -------------------------------------------------------------------
    async def start(self) -> None:
        """Start the workers (each loads the renderers); on failure, draw in a thread."""
        if self.workers <= 0:
            log.info("rendering in a thread (LUDIBOT_RENDER_WORKERS=0)")
            return
        self._idle = asyncio.Queue()
        started = await asyncio.gather(*(_Worker.spawn(self.warm) for _ in range(self.workers)), return_exceptions=True)
        for w in started:
            if isinstance(w, _Worker):
                self._add(w)
            else:
                log.error("a render worker could not start: %r", w)
        if self._all:
            log.info("render pool: %d worker processes (%s)", len(self._all),
                     ", ".join(str(w.proc.pid) for w in self._all))
        else:
            log.error("render processes could not start: rendering in a thread")

    async def close(self) -> None:
        workers, self._all = self._all, []
        self._idle = None
        long, self._long = self._long, None
        await asyncio.gather(*(w.stop() for w in workers), *([long.close()] if long is not None else []),
                             return_exceptions=True)

    # --- drawing ----------------------------------------------------------------------
    async def run(self, job: Picture | Callable[..., bytes | None] | None, *args: Any) -> bytes | None:
        """Draw ``job`` (a :class:`Picture`, or a function and its arguments) off the event loop."""
        if job is None:
            return None
        if not isinstance(job, Picture):
            job = Picture(job, args)
        self.jobs += 1
        if not self._all and not self._spawning:
            return await asyncio.to_thread(job)
        payload = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
        for attempt in (1, 2):
            worker = await self._take()
            if worker is None:
                break
            # shielded: a caller that gives up (a cancelled interaction) must not leave an answer
            # unread in the pipe; the worker goes back to the pool once its answer is in
            task = asyncio.ensure_future(worker.call(payload))
            task.add_done_callback(lambda t, w=worker: self._back(w, t))
            try:
                ok, value, cpu = await asyncio.shield(task)
            except WorkerGone:
                # a worker died (killed, out of memory): a new one replaces it, the job is tried once more
                log.warning("a render worker died: starting another (attempt %d)", attempt)
                continue
            self._cpu += cpu
            if not ok:
                raise value
            return value
        return await asyncio.to_thread(job)

    async def run_long(self, job: Picture | Callable[..., bytes | None] | None, *args: Any) -> bytes | None:
        """A job of seconds (an animated summary: ~2 s of CPU, more on a busy machine) in a worker of its
        own, never in the workers that draw the moves' pictures: with one picture worker (a small host,
        the tests), a move's picture waited behind a summary past Discord's 3 seconds (issue 36). That
        worker starts at the first long job and runs below the picture workers' priority
        (``LUDIBOT_LONG_NICE``, see :mod:`bot.render_worker`); without worker processes (a thread pool,
        or it cannot start), as :meth:`run`."""
        if job is None:
            return None
        if not self._all and not self._spawning:
            return await self.run(job, *args)
        async with self._long_start:
            if self._long is None:
                self._long = RenderPool(1, cache_size=0, warm="long")
                await self._long.start()
        if not self._long.uses_processes and not self._long._spawning:
            return await self.run(job, *args)
        return await self._long.run(job, *args)

    @property
    def worker_cpu(self) -> float:
        """CPU seconds spent drawing in the workers, the long jobs' included (benchmarks read it)."""
        return self._cpu + (self._long.worker_cpu if self._long is not None else 0.0)

    @property
    def long_worker_pids(self) -> list[int]:
        """The process ids of the long jobs' worker (none before the first long job)."""
        return [w.proc.pid for w in self._long._all] if self._long is not None else []

    async def _take(self) -> _Worker | None:
        """An idle worker (waiting for one), or None when there is none left to wait for."""
        while True:
            if self._idle is None or (not self._all and not self._spawning):
                return None
            worker = await self._idle.get()
            if worker is None:  # the last worker could not be replaced: wake the next waiter too
                self._idle.put_nowait(None)
                return None
            if worker.alive and worker in self._all:
                return worker
            # a worker that died while idle: its watcher is replacing it

    def _back(self, worker: _Worker, task: asyncio.Future) -> None:
        if task.cancelled() or task.exception() is not None or not worker.alive:
            self._lost(worker)
        elif self._idle is not None and worker in self._all:
            self._idle.put_nowait(worker)

    def _add(self, worker: _Worker) -> None:
        assert self._idle is not None
        self._all.append(worker)
        self._idle.put_nowait(worker)
        asyncio.ensure_future(self._watch(worker))

    async def _watch(self, worker: _Worker) -> None:
        """A worker that dies, even idle (killed, out of memory), is replaced at once."""
        await worker.proc.wait()
        self._lost(worker)

    def _lost(self, worker: _Worker) -> None:
        if worker in self._all:  # once per worker (its failed job and its watcher both report it)
            self._all.remove(worker)
            worker.kill()
            self.restarts += 1
            self._spawning += 1
            asyncio.ensure_future(self._replace())

    async def _replace(self) -> None:
        try:
            worker: _Worker | None = await _Worker.spawn(self.warm)
        except (OSError, WorkerGone):
            log.exception("a render worker could not be replaced (%d left)", len(self._all))
            worker = None
        finally:
            self._spawning -= 1
        if self._idle is None:  # closed meanwhile
            if worker is not None:
                await worker.stop()
            return
        if worker is not None:
            self._add(worker)
        elif not self._all and not self._spawning:
            log.error("no render worker left: rendering in a thread")
            self._idle.put_nowait(None)

    async def cached(self, key: Hashable, job: Picture | None) -> bytes | None:
        """The picture stored under ``key``, drawing ``job`` the first time (LRU, bounded)."""
        if key in self._cache:
            self._cache.move_to_end(key)
            self.hits += 1
            return self._cache[key]
        data = await self.run(job)
        self._cache[key] = data
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return data
