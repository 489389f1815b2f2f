"""The board's live pages: a page learns within a second that a game of its channel has a new version,
whichever process (or the chat) made the move.

A socket frame carries only what the channel shows anyway — ``{"game", "version", "status"}`` — never a
view: the page then asks for its own seat's view over HTTP, through the same checks as every request.

Sources of changes:
- this process's session service (``SessionService.watchers``): every committed change, at once;
- with PostgreSQL, ``LISTEN ludibot_games``: a trigger (migration 14) notifies every process at commit,
  so a move committed by another process reaches this one's pages. After the listening connection is
  lost and found again, every page is told to read its games again (``{"resync": true}``): nothing
  missed meanwhile stays unseen.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

#: the PostgreSQL notification channel of the trigger of migration 14
CHANNEL = "ludibot_games"
#: frames a slow page may have waiting before it is dropped (it reads its games again on reconnect)
QUEUE_SIZE = 64


class Hub:
    """Pages subscribed by Discord channel; :meth:`changed` fans a game's new version out to them."""

    def __init__(self) -> None:
        self._pages: dict[int, set[asyncio.Queue]] = {}
        self._last: dict[int, int] = {}

    @property
    def pages(self) -> int:
        return sum(len(s) for s in self._pages.values())

    def subscribe(self, channel_id: int) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue(QUEUE_SIZE)
        self._pages.setdefault(channel_id, set()).add(queue)
        return queue

    def unsubscribe(self, channel_id: int, queue: asyncio.Queue) -> None:
        pages = self._pages.get(channel_id)
        if pages is not None:
            pages.discard(queue)
            if not pages:
                del self._pages[channel_id]

    def changed(self, game_id: int, version: int, channel_id: int, status: str | None = None) -> None:
        """A game's new version (several sources may tell the same one: it is sent once)."""
        if self._last.get(game_id, -1) >= version:
            return
        self._last[game_id] = version
        if len(self._last) > 100_000:
            self._last.clear()
        frame = {"game": game_id, "version": version, **({"status": status} if status else {})}
        self._send(channel_id, frame)

    def resync(self) -> None:
        self._last.clear()
        for channel_id in list(self._pages):
            self._send(channel_id, {"resync": True})

    def _send(self, channel_id: int, frame: dict[str, Any]) -> None:
        for queue in list(self._pages.get(channel_id, ())):
            try:
                queue.put_nowait(frame)
            except asyncio.QueueFull:  # a page that does not keep up: one frame tells it to read everything again
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait({"resync": True})

    def watcher(self) -> Callable[[Any], None]:
        """For ``SessionService.watchers``: this process's own commits."""
        def watch(game: Any) -> None:
            self.changed(game.id, game.version, game.thread_id or game.channel_id, game.status)
            if game.thread_id:
                self.changed(game.id, game.version, game.channel_id, game.status)
        return watch


class PgListener:
    """``LISTEN ludibot_games`` on a connection of its own, reconnecting with a backoff."""

    def __init__(self, url: str, hub: Hub, *, retry: float = 1.0) -> None:
        self.url, self.hub, self.retry = url, hub, retry
        self._task: asyncio.Task | None = None
        self.listening = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="ludibot-activity-listen")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        import psycopg  # the PostgreSQL driver is there whenever the store is PostgreSQL

        delay, lost = self.retry, False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as con:
                    await con.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if lost:
                        self.hub.resync()  # what was committed while we did not listen
                    delay = self.retry
                    async for note in con.notifies():
                        self._note(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database restarted, the network broke: listen again
                log.warning("board notifications lost (%s); listening again in %.0f s", exc, delay)
            self.listening.clear()
            lost = True
            await asyncio.sleep(delay)
            delay = min(delay * 2, 30.0)

    def _note(self, payload: str) -> None:
        try:
            game, version, channel = (int(x) for x in payload.split(":"))
        except ValueError:
            log.warning("unreadable board notification %r", payload[:100])
            return
        self.hub.changed(game, version, channel)
