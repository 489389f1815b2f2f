"""A database that cannot be written (issue 36): a full disk, a read-only file or server.

:func:`unwritable` tells such an error apart from a bug, whichever backend raised it: SQLite's
``database or disk is full`` / ``attempt to write a readonly database``, PostgreSQL's SQLSTATE 53100
(disk full) / 25006 (read-only transaction), an ``OSError`` ENOSPC / EROFS. The player is then told
that nothing could be saved and nothing changed (``storage.error.unwritable``), not « erreur
interne ». :data:`FAULTS` remembers it for ``/healthz`` and the metrics (until a write succeeds
again) and logs it at most once a minute.
"""

from __future__ import annotations

import errno
import logging
import sqlite3
import time
from collections.abc import Callable

log = logging.getLogger("ludibot.storage")

FULL = "full"
READONLY = "readonly"

#: SQLSTATE -> reason (PostgreSQL: disk_full, read_only_sql_transaction)
SQLSTATES = {"53100": FULL, "25006": READONLY}
#: how often the log says it again while it lasts
LOG_EVERY = 60.0


def _reason_of(exc: BaseException) -> str | None:
    if isinstance(exc, sqlite3.Error):
        text = str(exc).lower()
        if "disk is full" in text or "database or disk is full" in text:
            return FULL
        if "readonly database" in text or "read-only database" in text:
            return READONLY
        return None
    state = getattr(exc, "sqlstate", None) or getattr(getattr(exc, "diag", None), "sqlstate", None)
    if isinstance(state, str) and state in SQLSTATES:
        return SQLSTATES[state]
    if isinstance(exc, OSError):
        if exc.errno == errno.ENOSPC:
            return FULL
        if exc.errno == errno.EROFS:
            return READONLY
    return None


def unwritable(exc: BaseException | None) -> str | None:
    """``full`` or ``readonly`` when ``exc`` (or what caused it: a command's ``original``, a chained
    error) is the database refusing to write; None for anything else."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        reason = _reason_of(exc)
        if reason is not None:
            return reason
        exc = getattr(exc, "original", None) or exc.__cause__ or exc.__context__
    return None


class StorageFaults:
    """What this process saw of its database refusing writes."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.reason: str | None = None  # the last refusal's, until a write succeeds again
        self.refused: dict[str, int] = {FULL: 0, READONLY: 0}
        self._logged_at = -float("inf")
        self._unlogged = 0

    @property
    def writable(self) -> bool:
        return self.reason is None

    def record(self, reason: str, exc: BaseException | None = None) -> None:
        """A write refused: remembered, counted, logged (once a minute: a full disk refuses every move)."""
        self.reason = reason
        self.refused[reason] = self.refused.get(reason, 0) + 1
        now = self.clock()
        if now - self._logged_at >= LOG_EVERY:
            more = f" ({self._unlogged} more refused since the last line)" if self._unlogged else ""
            log.error("the database cannot be written (%s): moves and settings are refused, nothing changes%s: %s",
                      reason, more, exc)
            self._logged_at = now
            self._unlogged = 0
        else:
            self._unlogged += 1

    def recovered(self) -> None:
        """A write went through again."""
        if self.reason is not None:
            log.warning("the database can be written again (was: %s)", self.reason)
        self.reason = None


#: this process's
FAULTS = StorageFaults()
