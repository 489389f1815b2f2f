"""A clock the tests control, and Discord's rate-limit buckets on top of it.

Rate-limit windows, interaction-token expiry and the age of messages are measured on `FakeClock`,
which runs `speed` times faster than real time (and can jump with `advance`). What the bot is told
(``retry_after``, ``X-RateLimit-Reset-After``) is converted back to real seconds, so a bot that
honours the headers waits ``window / speed``: a test compresses the limits instead of disabling them.

Facts from Discord's documentation (topics/rate-limits): the headers ``X-RateLimit-Limit``,
``-Remaining``, ``-Reset`` (epoch seconds), ``-Reset-After`` (seconds, decimals allowed), ``-Bucket``;
on 429 a JSON body ``{"message", "retry_after", "global"}``, a ``Retry-After`` header and
``X-RateLimit-Scope`` (``user``, ``global`` or ``shared``), plus ``X-RateLimit-Global`` for the global
limit; a global limit of 50 requests per second that interaction endpoints are not bound to; and
401/403/429 counted as invalid requests (10,000 per 10 minutes), 429s of scope ``shared`` excepted.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, field


class FakeClock:
    """Monotonic seconds that run `speed` times real time, plus whatever `advance` added."""

    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("speed must be positive")
        self._speed = float(speed)
        self._real0 = time.monotonic()
        self._fake0 = 0.0

    def now(self) -> float:
        return self._fake0 + (time.monotonic() - self._real0) * self._speed

    @property
    def speed(self) -> float:
        return self._speed

    @speed.setter
    def speed(self, value: float) -> None:
        if value <= 0:
            raise ValueError("speed must be positive")
        self._fake0 = self.now()
        self._real0 = time.monotonic()
        self._speed = float(value)

    def advance(self, seconds: float) -> None:
        """Jump forward (e.g. past an interaction token's 15 minutes)."""
        self._fake0 += seconds

    def to_real(self, fake_seconds: float) -> float:
        return fake_seconds / self._speed


@dataclass
class Bucket:
    """A fixed window: `limit` requests, then wait until `per` seconds after the window's first request."""

    key: str
    limit: int
    per: float
    window_start: float = -math.inf
    used: int = 0

    @property
    def hash(self) -> str:
        return hashlib.sha1(self.key.encode()).hexdigest()[:16]

    def _roll(self, now: float) -> None:
        if now >= self.window_start + self.per:
            self.window_start = now
            self.used = 0

    def try_hit(self, now: float) -> bool:
        self._roll(now)
        if self.used >= self.limit:
            return False
        self.used += 1
        return True

    def remaining(self, now: float) -> int:
        self._roll(now)
        return max(0, self.limit - self.used)

    def reset_after(self, now: float) -> float:
        return max(0.0, self.window_start + self.per - now)


@dataclass
class RateLimitConfig:
    """What the fake enforces (fake-clock seconds). Defaults: the issue's 5 posts per 5 s per channel,
    Discord's documented 50 requests per second globally."""

    enabled: bool = True
    global_limit: int = 50
    global_per: float = 1.0
    channel_post_limit: int = 5
    channel_post_per: float = 5.0
    channel_edit_limit: int = 5
    channel_edit_per: float = 5.0
    #: every other route: per route (and top-level resource)
    route_limit: int = 50
    route_per: float = 1.0
    #: thread creations (from a message or not) per channel; None: the route's limit above
    thread_limit: int | None = None
    thread_per: float = 1.0
    #: edits of messages older than an hour: at most this many per channel per `old_edit_per`
    old_message_age: float = 3600.0
    old_edit_limit: int = 3
    old_edit_per: float = 3600.0
    #: per-channel overrides of the post limit: channel id -> (limit, per)
    channel_overrides: dict[int, tuple[int, float]] = field(default_factory=dict)
