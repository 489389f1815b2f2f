"""Discord Activities, as far as a bot's server sees them: the OAuth2 code exchange, the user of a
bearer token, activity instances, and the LAUNCH_ACTIVITY interaction callback.

Facts, from Discord's documentation (discord-api-docs):

- ``POST /oauth2/token`` (topics/oauth2.mdx, "Authorization Code Grant"): form-encoded
  ``grant_type=authorization_code``, ``code``, the client's credentials (``client_id`` and
  ``client_secret`` in the body, or HTTP Basic); ``redirect_uri`` is checked only when the
  authorization named one. The answer: ``access_token``, ``token_type`` "Bearer", ``expires_in``
  (604800), ``refresh_token``, ``scope``. A code is used once. Errors follow RFC 6749:
  ``{"error": "invalid_grant" | "invalid_client" | "unsupported_grant_type" | "invalid_request"}``.
- ``GET /users/@me`` with ``Authorization: Bearer <token>`` (resources/user.mdx): the user the
  token was granted by; it needs the ``identify`` scope; 401 otherwise.
- ``GET /applications/{application.id}/activity-instances/{instance_id}`` (resources/application.mdx,
  "Get Application Activity Instance"): bot token only; the instance object
  (``application_id``, ``instance_id``, ``launch_id``, ``location`` {``id``, ``kind`` "gc" | "pc",
  ``channel_id``, ``guild_id``?}, ``users``: ids of the users connected now), or
  ``{"message": "404: Not Found", "code": 0}``.
- Interaction callback ``LAUNCH_ACTIVITY`` (type 12, interactions/receiving-and-responding.mdx):
  for APPLICATION_COMMAND, MESSAGE_COMPONENT and MODAL_SUBMIT interactions, "only available for
  apps with Activities enabled"; the callback's resource carries ``activity_instance.id``.

What a Discord *client* does (the user's consent to ``authorize``, launching, joining and leaving
an instance) is the test API: :meth:`Activities.authorize`, :meth:`Activities.launch`,
:meth:`Activities.join`, :meth:`Activities.leave`.
"""
from __future__ import annotations

import base64
import secrets
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

#: seconds an access token lives (the documentation's example answers 604800, a week)
TOKEN_LIFETIME = 604800
#: seconds an authorization code may wait before its exchange (Discord does not document it; codes are
#: short-lived in every OAuth2 server, and a test can shorten it)
CODE_LIFETIME = 600
#: application flag EMBEDDED (1 << 17): "an app is embedded within the Discord client"
EMBEDDED = 1 << 17
SCOPES = {"identify", "guilds", "guilds.members.read", "rpc.activities.write", "applications.commands"}


class OAuthError(Exception):
    """An RFC 6749 error answer of ``/oauth2/token``."""

    def __init__(self, status: int, error: str, description: str) -> None:
        super().__init__(f"{error}: {description}")
        self.status, self.error, self.description = status, error, description

    def body(self) -> dict[str, str]:
        return {"error": self.error, "error_description": self.description}


@dataclass
class Grant:
    user_id: int
    scopes: tuple[str, ...]
    expires_at: float
    redirect_uri: str | None = None
    used: bool = False


@dataclass
class Instance:
    instance_id: str
    launch_id: int
    channel_id: int
    guild_id: int | None
    users: list[int] = field(default_factory=list)

    @property
    def location_id(self) -> str:
        kind = "gc" if self.guild_id is not None else "pc"
        return f"{kind}-{self.guild_id}-{self.channel_id}" if self.guild_id is not None else f"pc-{self.channel_id}"

    def payload(self, app_id: int) -> dict[str, Any]:
        location: dict[str, Any] = {"id": self.location_id, "kind": "gc" if self.guild_id is not None else "pc",
                                    "channel_id": str(self.channel_id)}
        if self.guild_id is not None:
            location["guild_id"] = str(self.guild_id)
        return {"application_id": str(app_id), "instance_id": self.instance_id, "launch_id": str(self.launch_id),
                "location": location, "users": [str(u) for u in self.users]}


class Activities:
    """The Activity state of one application. Off until :meth:`enable` (as in the Developer Portal)."""

    def __init__(self, app_id: int, clock=time.monotonic) -> None:
        self.app_id = app_id
        self.enabled = False
        self.client_secret = "fake-client-secret-" + secrets.token_hex(12)
        self._clock = clock
        self._codes: dict[str, Grant] = {}
        self._tokens: dict[str, Grant] = {}
        self._refresh: dict[str, Grant] = {}
        self.instances: dict[str, Instance] = {}
        self._launches = 0
        #: every refused token exchange or bearer request: {"what", "error"} (a test reads it)
        self.refused: list[dict[str, str]] = []
        #: the URL mapping of the prefix ``/`` (the Developer Portal's Activities › URL Mappings): where
        #: Discord's proxy forwards the Activity's requests (fakediscord/client_activity.py)
        self.url_mapping: str | None = None

    def enable(self, on: bool = True) -> None:
        self.enabled = on

    # --- what the client does ------------------------------------------------------------------
    def authorize(self, user_id: int, scopes=("identify",), *, redirect_uri: str | None = None) -> str:
        """The SDK's ``commands.authorize``: the user consents, the page receives a code."""
        if not self.enabled:
            raise PermissionError("Activities are not enabled for this application")
        unknown = set(scopes) - SCOPES
        if unknown:
            raise ValueError(f"unknown OAuth2 scopes {sorted(unknown)}")
        code = secrets.token_urlsafe(24)
        self._codes[code] = Grant(user_id, tuple(scopes), self._clock() + CODE_LIFETIME, redirect_uri)
        return code

    def launch(self, user_id: int, channel_id: int, guild_id: int | None) -> Instance:
        """A user opens the Activity in a channel (the App Launcher, or a LAUNCH_ACTIVITY callback).
        One instance per location: a second launch there joins the running one."""
        if not self.enabled:
            raise PermissionError("Activities are not enabled for this application")
        for inst in self.instances.values():
            if inst.channel_id == channel_id and inst.guild_id == guild_id:
                self.join(user_id, inst.instance_id)
                return inst
        self._launches += 1
        launch_id = 1276580072400224306 + self._launches
        where = f"gc-{guild_id}-{channel_id}" if guild_id is not None else f"pc-{channel_id}"
        inst = Instance(f"i-{launch_id}-{where}", launch_id, channel_id, guild_id, [user_id])
        self.instances[inst.instance_id] = inst
        return inst

    def join(self, user_id: int, instance_id: str) -> None:
        inst = self.instances[instance_id]
        if user_id not in inst.users:
            inst.users.append(user_id)

    def leave(self, user_id: int, instance_id: str) -> None:
        """A user closes the Activity; the instance ends with its last user (then 404)."""
        inst = self.instances.get(instance_id)
        if inst is None:
            return
        if user_id in inst.users:
            inst.users.remove(user_id)
        if not inst.users:
            del self.instances[instance_id]

    def expire_tokens(self) -> None:
        """Every access token expires now (a test of a page whose token has run out)."""
        for grant in self._tokens.values():
            grant.expires_at = self._clock() - 1

    # --- what the bot's server calls -----------------------------------------------------------
    def exchange(self, body: bytes, content_type: str, authorization: str | None) -> dict[str, Any]:
        """``POST /oauth2/token``: the answer's JSON, or :class:`OAuthError`."""
        if not content_type.startswith("application/x-www-form-urlencoded"):
            raise self._refuse(400, "invalid_request", "the body must be application/x-www-form-urlencoded")
        form = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
        client_id, secret = form.get("client_id"), form.get("client_secret")
        if authorization and authorization.startswith("Basic "):
            try:
                client_id, _, secret = base64.b64decode(authorization[6:]).decode().partition(":")
            except (ValueError, UnicodeDecodeError):
                raise self._refuse(401, "invalid_client", "malformed Basic credentials") from None
        if client_id != str(self.app_id) or not secret or not secrets.compare_digest(secret, self.client_secret):
            raise self._refuse(401, "invalid_client", "Invalid client")
        grant_type = form.get("grant_type")
        if grant_type == "authorization_code":
            code = form.get("code") or ""
            grant = self._codes.pop(code, None)
            if grant is None or grant.used or grant.expires_at < self._clock():
                raise self._refuse(400, "invalid_grant", 'Invalid "code" in request.')
            if grant.redirect_uri is not None and form.get("redirect_uri") != grant.redirect_uri:
                raise self._refuse(400, "invalid_grant", 'Invalid "redirect_uri" in request.')
        elif grant_type == "refresh_token":
            grant = self._refresh.pop(form.get("refresh_token") or "", None)
            if grant is None:
                raise self._refuse(400, "invalid_grant", 'Invalid "refresh_token" in request.')
        else:
            raise self._refuse(400, "unsupported_grant_type", f'Unsupported grant type "{grant_type}"')
        access, refresh = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        issued = Grant(grant.user_id, grant.scopes, self._clock() + TOKEN_LIFETIME)
        self._tokens[access] = issued
        self._refresh[refresh] = Grant(grant.user_id, grant.scopes, float("inf"))
        return {"access_token": access, "token_type": "Bearer", "expires_in": TOKEN_LIFETIME,
                "refresh_token": refresh, "scope": " ".join(grant.scopes)}

    def grant_of(self, token: str) -> Grant:
        return self._tokens[token]

    def bearer_user(self, authorization: str) -> int | None:
        """The user id of a valid bearer token with the ``identify`` scope, else None (a 401)."""
        token = authorization[len("Bearer "):].strip()
        grant = self._tokens.get(token)
        if grant is None or grant.expires_at < self._clock() or "identify" not in grant.scopes:
            self.refused.append({"what": "bearer", "error": "401: Unauthorized"})
            return None
        return grant.user_id

    def _refuse(self, status: int, error: str, description: str) -> OAuthError:
        self.refused.append({"what": "token", "error": error})
        return OAuthError(status, error, description)
