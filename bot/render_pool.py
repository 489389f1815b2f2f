"""Drawing pictures off the interpreter lock: a pool of render processes, and a picture cache.

Renderers (``render/``) are pure top-level functions of plain data (engine views are JSON-safe
dicts, names and labels are strings), so a drawing job pickles as ``(function, arguments)`` and
runs in another process: the bot's event loop keeps its core while the second core draws and
encodes. :class:`RenderPool` owns a ``ProcessPoolExecutor`` (``spawn`` context: workers do not
inherit the event loop, the database connection or the gateway socket), restarts it when a worker
dies (the job is retried once), and falls back to a thread when processes cannot start or when
``LUDIBOT_RENDER_WORKERS=0`` asks for it. The public picture of a game's version is kept in a
small LRU, so ``status``, spectators and republication reuse it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

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


def _run(job: Picture) -> tuple[bytes | None, float]:
    """In a worker: draw, and say how much CPU it took (for the benchmarks)."""
    t0 = time.process_time()
    data = job()
    return data, time.process_time() - t0


def _watch_parent(parent: int) -> None:
    """In each worker: exit when the bot's process is gone (even killed outright, when the pool
    cannot shut its workers down), so no orphan worker outlives it."""
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _warm(delay: float) -> int:
    """Import the renderers (fonts, PIL) in a fresh worker, then hold it so that each warm-up
    call lands on its own worker."""
    import render.armada  # noqa: F401
    import render.leaderboard  # noqa: F401
    import render.limit  # noqa: F401
    import render.ludime  # noqa: F401
    import render.ludix  # noqa: F401
    import render.lutinades  # noqa: F401
    import render.ranta  # noqa: F401
    import render.tectonic  # noqa: F401

    time.sleep(delay)
    return os.getpid()


def workers_from_env(env: dict[str, str] | None = None) -> int:
    """``LUDIBOT_RENDER_WORKERS``: 0 draws in a thread; default: one worker per core."""
    raw = (env if env is not None else os.environ).get("LUDIBOT_RENDER_WORKERS", "").strip()
    if raw:
        try:
            return max(0, int(raw))
        except ValueError:
            log.warning("LUDIBOT_RENDER_WORKERS=%r is not a number: using one worker per core", raw)
    return max(1, os.cpu_count() or 1)


class RenderPool:
    """Runs :class:`Picture` jobs in worker processes (or a thread), with a public-picture cache."""

    def __init__(self, workers: int | None = None, *, cache_size: int = CACHE_SIZE) -> None:
        self.workers = workers_from_env() if workers is None else max(0, workers)
        self._executor: Executor | None = None
        self._cache: OrderedDict[Hashable, bytes | None] = OrderedDict()
        self._cache_size = cache_size
        self.restarts = 0
        self.worker_cpu = 0.0  # CPU seconds spent drawing in the workers (benchmarks read it)
        self.jobs = 0
        self.hits = 0

    @property
    def uses_processes(self) -> bool:
        return isinstance(self._executor, ProcessPoolExecutor)

    # --- life cycle -------------------------------------------------------------------
    async def start(self) -> None:
        """Start the workers and load the renderers in each; on failure, draw in a thread."""
        if self.workers <= 0:
            log.info("rendering in a thread (LUDIBOT_RENDER_WORKERS=0)")
            return
        try:
            self._executor = self._new_executor()
            loop = asyncio.get_running_loop()
            pids = await asyncio.gather(*(loop.run_in_executor(self._executor, _warm, 0.2)
                                          for _ in range(self.workers)))
            log.info("render pool: %d worker processes (%s)", len(set(pids)), ", ".join(map(str, sorted(set(pids)))))
        except (OSError, BrokenExecutor, RuntimeError):
            log.exception("render processes could not start: rendering in a thread")
            self._shutdown()

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=get_context("spawn"),
                                   initializer=_watch_parent, initargs=(os.getpid(),))

    def _shutdown(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, True, cancel_futures=True)

    # --- drawing ----------------------------------------------------------------------
    async def run(self, job: Picture | Callable[..., bytes | None] | None, *args: Any) -> bytes | None:
        """Draw ``job`` (a :class:`Picture`, or a function and its arguments) off the event loop."""
        if job is None:
            return None
        if not isinstance(job, Picture):
            job = Picture(job, args)
        self.jobs += 1
        executor = self._executor
        if executor is None:
            return await asyncio.to_thread(job)
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                data, cpu = await loop.run_in_executor(executor, _run, job)
                self.worker_cpu += cpu
                return data
            except BrokenProcessPool:
                # a worker died (killed, out of memory): replace the pool, try once more
                log.warning("a render worker died: restarting the pool (attempt %d)", attempt)
                executor = self._restart(executor)
                if executor is None:
                    break
        return await asyncio.to_thread(job)

    def _restart(self, broken: Executor) -> Executor | None:
        if self._executor is broken:
            broken.shutdown(wait=False, cancel_futures=True)
            self.restarts += 1
            try:
                self._executor = self._new_executor()
            except (OSError, RuntimeError):
                log.exception("render processes could not restart: rendering in a thread")
                self._executor = None
        return self._executor

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
