"""Who is asking, as Discord says it: the page's OAuth2 code exchanged by this server, the user of an
access token (``/users/@me``), and where an Activity instance runs (the activity-instance endpoint).

The page never names a user, a server or a channel: each comes from Discord here. Answers are kept
for a short while (a token's user for ``USER_TTL``, an instance for ``INSTANCE_TTL``) so that a page
touching the board does not cost a Discord request per touch; both caches are bounded.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot import i18n

#: seconds a token's user is kept (a revoked token stops working within this time)
USER_TTL = 300.0
#: seconds an instance's location and users are kept (a user who left loses access within this time)
INSTANCE_TTL = 5.0
CACHE_SIZE = 4096
TIMEOUT = aiohttp.ClientTimeout(total=5)


class ActivityError(Exception):
    """A refusal of the Activity API: an HTTP status, a catalog key (``activity.error.*``) and its
    parameters, said in the asker's language."""

    def __init__(self, status: int, key: str, **params: Any) -> None:
        super().__init__(key)
        self.status, self.key, self.params = status, key, params

    def message(self, lang: str) -> str:
        return i18n.t(self.key, lang, **self.params)


@dataclass(frozen=True)
class User:
    id: int
    name: str
    lang: str


@dataclass(frozen=True)
class Instance:
    id: str
    guild_id: int | None
    channel_id: int
    users: frozenset[int]


class _Bounded(OrderedDict):
    """An LRU of (expiry, value)."""

    def get_fresh(self, key: str, now: float) -> Any:
        hit = self.get(key)
        if hit is None or hit[0] < now:
            return None
        self.move_to_end(key)
        return hit[1]

    def put(self, key: str, value: Any, until: float) -> None:
        self[key] = (until, value)
        self.move_to_end(key)
        while len(self) > CACHE_SIZE:
            self.popitem(last=False)


class DiscordIdentity:
    """The three Discord calls of an Activity's server, over one HTTP session."""

    def __init__(self, *, api_base: str, app_id: int, client_secret: str, bot_token: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.api_base = api_base.rstrip("/")
        self.app_id = app_id
        self._secret = client_secret
        self._bot_token = bot_token
        self._clock = clock
        self._http: aiohttp.ClientSession | None = None
        self._users = _Bounded()
        self._instances = _Bounded()

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._http

    async def _call(self, method: str, path: str, **kw: Any) -> tuple[int, Any]:
        try:
            async with self._session().request(method, self.api_base + path, **kw) as resp:
                try:
                    body = await resp.json(content_type=None)
                except ValueError:
                    body = None
                return resp.status, body
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise ActivityError(503, "activity.error.discord_down") from exc

    async def exchange(self, code: str) -> str:
        """The page's authorization code for an access token (``POST /oauth2/token``)."""
        status, body = await self._call("POST", "/oauth2/token", data={
            "client_id": str(self.app_id), "client_secret": self._secret,
            "grant_type": "authorization_code", "code": code})
        if status >= 500 or status == 429:
            raise ActivityError(503, "activity.error.discord_down")
        if status != 200 or not isinstance(body, dict) or not isinstance(body.get("access_token"), str):
            raise ActivityError(401, "activity.error.bad_code")
        return body["access_token"]

    async def user(self, token: str) -> User:
        """The user an access token belongs to (``GET /users/@me``), never an id the page sends."""
        key = hashlib.sha256(token.encode()).hexdigest()  # tokens are not kept in memory as they are
        now = self._clock()
        hit = self._users.get_fresh(key, now)
        if hit is not None:
            return hit
        status, body = await self._call("GET", "/users/@me", headers={"Authorization": f"Bearer {token}"})
        if status >= 500 or status == 429:
            raise ActivityError(503, "activity.error.discord_down")
        if status != 200 or not isinstance(body, dict) or not str(body.get("id", "")).isdigit():
            raise ActivityError(401, "activity.error.bad_token")
        name = body.get("global_name") or body.get("username") or "?"
        user = User(int(body["id"]), str(name), i18n.lang_of(body.get("locale")))
        self._users.put(key, user, now + USER_TTL)
        return user

    async def instance(self, instance_id: str, *, member: int | None = None) -> Instance:
        """Where an instance runs and who is in it (``GET /applications/{app}/activity-instances/{id}``).
        A kept answer that lacks ``member`` is asked again: they may have just joined."""
        if not instance_id or len(instance_id) > 200 or "/" in instance_id or "?" in instance_id:
            raise ActivityError(400, "activity.error.bad_request", field="instance_id")
        now = self._clock()
        hit = self._instances.get_fresh(instance_id, now)
        if hit is not None and (member is None or member in hit.users):
            return hit
        status, body = await self._call("GET", f"/applications/{self.app_id}/activity-instances/{instance_id}",
                                        headers={"Authorization": f"Bot {self._bot_token}"})
        if status >= 500 or status == 429:
            raise ActivityError(503, "activity.error.discord_down")
        if status != 200 or not isinstance(body, dict):
            raise ActivityError(404, "activity.error.no_instance")
        location = body.get("location") if isinstance(body.get("location"), dict) else {}
        try:
            found = Instance(
                id=instance_id,
                guild_id=int(location["guild_id"]) if location.get("guild_id") else None,
                channel_id=int(location["channel_id"]),
                users=frozenset(int(u) for u in body.get("users") or []))
        except (KeyError, TypeError, ValueError) as exc:
            raise ActivityError(503, "activity.error.discord_down") from exc
        self._instances.put(instance_id, found, now + INSTANCE_TTL)
        return found
