"""The board as a control: a Discord Activity's server side (docs/architecture.md, "The board").

``identity`` asks Discord who is asking and where; ``service`` decides what they may see and do;
``web`` is the HTTP surface. It sits beside the community modules: it uses the session service and
the store, and nothing below it knows it exists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.activity.identity import ActivityError, DiscordIdentity, User
from bot.activity.live import Hub, PgListener
from bot.activity.service import Board
from bot.activity.web import ActivityServer
from bot.storage import is_postgres_url

__all__ = ["ActivityError", "ActivityServer", "Board", "DiscordIdentity", "Hub", "User", "start_server"]


async def start_server(sessions: Any, settings: Any, *, app_id: int,
                       moved: Callable[[Any], Any] | None = None, draw: Any = None,
                       private: Callable[[str], bool] | None = None) -> ActivityServer:
    """Start the Activity's endpoints of one bot process (``settings.activities`` must be true): its
    pages hear of this process's commits, and with PostgreSQL of every process's."""
    identity = DiscordIdentity(api_base=settings.api_base, app_id=app_id, client_secret=settings.client_secret,
                               bot_token=settings.token or "")
    hub = Hub()
    sessions.watchers.append(hub.watcher())
    server = ActivityServer(Board(sessions, moved=moved, draw=draw, private=private), identity, hub=hub)
    if is_postgres_url(settings.db_path):
        server.listener = PgListener(settings.db_path, hub)
        server.listener.start()
    await server.start(settings.activity_host, settings.activity_port)
    return server
