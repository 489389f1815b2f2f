"""Storage behind one interface: :class:`Store`, the rows it speaks in, and its backends.

``open_store(url)`` picks the backend from ``LUDIBOT_DB``: a file path is SQLite (the default),
a ``postgresql://`` URL is PostgreSQL.
"""

from __future__ import annotations

from bot.storage.base import *  # noqa: F403
from bot.storage.base import (  # noqa: F401
    ACTIVE,
    CANCELLED,
    DONE,
    FAILED,
    FINISHED,
    LOBBY,
    PENDING,
    REMINDER,
    RUNNING,
    TIMEOUT,
    VOID,
    VOTE,
    Deadline,
    EventRow,
    GameRow,
    RatingRow,
    ResultRow,
    SeasonEnd,
    Seat,
    Store,
)
from bot.storage.sqlite import MIGRATIONS, SQLiteStore  # noqa: F401


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def open_store(url: str, **kw) -> Store:
    """The backend for ``url`` (not yet opened): a ``postgresql://`` (or ``postgres://``) URL is
    PostgreSQL, anything else the path of a SQLite file."""
    if is_postgres_url(url):
        from bot.storage.postgres import PostgresStore

        return PostgresStore(url, **kw)
    return SQLiteStore(url, **kw)
