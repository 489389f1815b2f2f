"""A loopback server speaking enough of Discord's REST API v10 and gateway for discord.py 2.x.

`FakeDiscordServer` owns the state (guild, channels, users, messages, commands,
interactions) and serves it over HTTP + a websocket gateway on 127.0.0.1.  The
user-facing test API (run a command, click a button, …) lives in `api.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import math
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, multipart, web

try:  # faster answers when installed (the bot installs it); the standard library otherwise
    import orjson
except ImportError:  # pragma: no cover
    orjson = None  # type: ignore[assignment]

from . import models as m
from . import validation as v
from .activities import EMBEDDED, Activities, OAuthError
from .client_activity import ActivityClient
from .models import FakeAttachment, FakeChannel, FakeGuild, FakeMessage, FakeUser, RegisteredCommand
from .ratelimit import Bucket, FakeClock, RateLimitConfig
from .validation import Errors

log = logging.getLogger("fakediscord")

BOT_ID = 1100000000000000001
GUILD_ID = 1100000000000000100
EVERYONE_ROLE_ID = GUILD_ID
BOT_ROLE_ID = 1100000000000000201
ADMIN_ROLE_ID = 1100000000000000202
OWNER_ID = 1100000000000000099
CHANNEL_BASE = 1100000000000001000
USER_BASE = 1100000000000002000
DM_BASE = 1100000000000003000

INTERACTION_TOKEN_TTL = 15 * 60.0
ALL_PERMISSIONS = (1 << 51) - 1
#: what the bot may do in a DM channel
DM_PERMISSIONS = (m.P_VIEW_CHANNEL | m.P_SEND_MESSAGES | m.P_EMBED_LINKS | m.P_ATTACH_FILES | m.P_READ_MESSAGE_HISTORY
                  | m.P_ADD_REACTIONS | m.P_USE_EXTERNAL_EMOJIS | m.P_MENTION_EVERYONE | m.P_USE_APPLICATION_COMMANDS)
APP_FLAGS = (1 << 15) | (1 << 19) | (1 << 23)  # members/message-content "limited" intents allowed, command badge
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)
ALL_INTENTS = (1 << 26) - 1  # Gateway.md, "List of Intents": bits 0-25 (some unused bits are accepted too)
#: Opcodes_and_Status_Codes.md, "Gateway Close Event Codes"
GATEWAY_CLOSE_MESSAGES = {
    4000: "Unknown error.", 4001: "Unknown opcode.", 4002: "Decode error.", 4003: "Not authenticated.",
    4004: "Authentication failed.", 4005: "Already authenticated.", 4007: "Invalid seq.", 4008: "Rate limited.",
    4009: "Session timed out.", 4010: "Invalid shard.", 4011: "Sharding required.", 4012: "Invalid API version.",
    4013: "Invalid intent(s).", 4014: "Disallowed intent(s).",
}
#: error codes of a request refused for what it contained: invalid form body, empty message, too large,
#: too many commands, invalid JSON
VALIDATION_CODES = {50035, 50006, 40005, 30032, 50109, 30008}
#: close codes after which Discord says not to reconnect
FATAL_CLOSE_CODES = {4004, 4010, 4011, 4012, 4013, 4014}
#: a request's attached files' bytes, as its body is read (for ``request_log``)
FILE_BYTES = web.RequestKey("fake_file_bytes", int)


class ApiError(Exception):
    """Raised inside a handler to answer like Discord: {"message": ..., "code": ...}."""

    def __init__(self, status: int, code: int, message: str, errors: Any = None, *, validation: bool = False) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        #: a refusal of what the request contained, even without one of VALIDATION_CODES
        self.validation = validation or code in VALIDATION_CODES


@dataclass(eq=False)
class GatewaySession:
    id: str
    intents: int | None
    seq: int = 0
    ws: web.WebSocketResponse | None = None
    #: sent dispatches (seq, json text) kept for RESUME
    buffer: list[tuple[int, str]] = field(default_factory=list)
    identified_at: float = field(default_factory=time.monotonic)
    resumes: int = 0
    presence: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: READY and the GUILD_CREATEs of this shard's guilds were sent
    guild_created: bool = False
    shard_id: int = 0
    shard_count: int = 1

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed


@dataclass(eq=False)
class InteractionRecord:
    """One interaction sent to the bot, and everything the bot did with its token."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    payload: dict[str, Any]
    deadline: float
    sent_at: float = 0.0  # time.perf_counter() when the INTERACTION_CREATE frame was written
    sent_wall: float = 0.0  # time.monotonic() at the same moment
    sent_clock: float = 0.0  # the fake clock at the same moment (token expiry)
    callback_at: float | None = None
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = None
    callback_files: list[FakeAttachment] = field(default_factory=list)
    #: callback arrived after the deadline (rejected with 10062 if enforce_deadline)
    late: bool = False
    #: time.perf_counter() when that late callback arrived
    late_at: float | None = None
    original_message_id: int | None = None
    component_message_id: int | None = None
    #: a deferred (type 5) loading message still waiting for its first follow-up / edit
    deferred_pending: bool = False
    #: a deferred update (type 6: "ACK an interaction and edit the original message later", receiving-and-
    #: responding.mdx) still waiting for that edit or a follow-up (nothing is shown meanwhile)
    update_pending: bool = False
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    #: the instance a LAUNCH_ACTIVITY callback launched or joined
    activity_instance_id: str | None = None
    #: messages created or edited through this interaction (ids, in order of first touch)
    message_ids: list[int] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    last_activity: float = 0.0
    command_name: str | None = None
    #: the gateway shard the INTERACTION_CREATE went to
    shard_id: int | None = None

    @property
    def latency(self) -> float | None:
        if self.callback_at is None:
            return None
        return self.callback_at - self.sent_at

    def touch(self, message_id: int | None = None) -> None:
        self.last_activity = time.monotonic()
        if message_id is not None and message_id not in self.message_ids:
            self.message_ids.append(message_id)


Handler = Callable[..., Awaitable[web.StreamResponse]]


class FakeDiscordServer:
    """State and transport of the fake Discord.  See `FakeDiscord` (api.py) for the test API."""

    def __init__(
        self,
        *,
        guild_name: str = "Ludibot Test",
        channels: list[str] | tuple[str, ...] = ("jeux",),
        bot_name: str = "Ludibot",
        token: str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        guild_locale: str = "fr",
        callback_deadline: float = 3.0,
        enforce_deadline: bool = True,
        heartbeat_interval_ms: int = 41250,
        privileged_intents: bool = True,
        shards: int = 1,
        required_shards: int = 0,
        max_concurrency: int = 1,
        heartbeat_ack_delay: float = 0.05,
        clock_speed: float = 1.0,
        rate_limits: bool = True,
        state_path: str | Path | None = None,
    ) -> None:
        if host not in ("127.0.0.1", "::1", "localhost"):
            raise ValueError("the fake Discord only listens on loopback")
        self.host = host
        self.port = port
        self._explicit_token = token is not None
        self.token = token or "fake-bot-token-" + secrets.token_hex(12)
        self.app_id = BOT_ID
        #: Activities (off until ``activities.enable()``): OAuth2 codes and tokens, instances (activities.py)
        self.activities = Activities(self.app_id)
        self.activity_client = ActivityClient(self)
        self.bot_name = bot_name
        self.callback_deadline = callback_deadline
        self.enforce_deadline = enforce_deadline
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.privileged_intents = privileged_intents
        #: shards recommended by GET /gateway/bot
        self.recommended_shards = shards
        #: IDENTIFY with fewer shards than this is closed with 4011 (Sharding required)
        self.required_shards = required_shards
        #: session_start_limit.max_concurrency (identify buckets)
        self.max_concurrency = max_concurrency
        #: delay of the heartbeat ACK (a real gateway is across a network)
        self.heartbeat_ack_delay = heartbeat_ack_delay
        self.heartbeats = 0
        #: the clock of rate-limit windows, token expiry and message age (`clock.speed`, `clock.advance()`)
        self.clock = FakeClock(clock_speed)
        #: what is rate-limited and how much (see ratelimit.RateLimitConfig)
        self.rate_limit = RateLimitConfig(enabled=rate_limits)
        self._buckets: dict[str, Bucket] = {}
        #: every 429 the fake answered: {"method", "path", "bucket", "scope", "global", "retry_after", "code"}
        self.rate_limited: list[dict[str, Any]] = []
        #: invalid requests by status (401, 403, 429), as Discord counts them toward its 10,000 per 10 minutes
        self.invalid_requests: dict[int, int] = {401: 0, 403: 0, 429: 0}
        #: every request refused for what it contained (400 Invalid Form Body, empty message, too large...)
        self.validation_errors: list[dict[str, Any]] = []
        #: (monotonic time, shard id, shard count) of each IDENTIFY
        self.identify_log: list[tuple[float, int, int]] = []
        self.state_path = Path(state_path) if state_path else None

        self.bot_user = FakeUser(id=BOT_ID, name=bot_name, bot=True, locale="en-US", role_ids=[BOT_ROLE_ID])
        #: every guild, the first one (``guild_id``) being the default of the single-guild API
        self.guilds: dict[int, FakeGuild] = {}
        self.users: dict[int, FakeUser] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channels: dict[int, FakeChannel] = {}  # user id -> DM channel
        self.message_by_id: dict[int, FakeMessage] = {}
        #: channel id -> its messages' ids, oldest first (an index of message_by_id: see add_message)
        self.channel_message_ids: dict[int, list[int]] = {}
        #: the application's own emojis (GET/POST/PATCH/DELETE /applications/{app_id}/emojis)
        self.app_emojis: dict[int, m.FakeEmoji] = {}
        #: ``<:name:id>`` in a bot message that names no emoji of the application (shown as plain text)
        self.broken_emojis: list[dict[str, Any]] = []
        #: ``</name sub:id>`` mentions in the bot's messages that name no command of the application
        self.broken_command_mentions: list[dict[str, Any]] = []
        self.commands: dict[int, RegisteredCommand] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self.autocomplete_log: list[dict[str, Any]] = []
        #: every 4xx/5xx the fake answered (the bot did something Discord would refuse)
        self.errors: list[dict[str, Any]] = []
        #: requests to routes the fake does not implement
        self.unhandled: list[str] = []
        #: (method, path, status) of every REST request, for debugging; each entry also tells the bytes
        #: of its body as received and of its attached files (``LoggedRequest.body_bytes``, ``file_bytes``)
        self.request_log: list[LoggedRequest] = []
        #: bytes of every gateway frame sent to the bot (JSON text, uncompressed)
        self.gateway_bytes_sent = 0
        self.channel_message_writes = 0
        self.listeners: list[Callable[[str, Any], Any]] = []
        self.sync_count = 0
        self.identify_count = 0
        self.resume_count = 0
        self._snowflake = m.SnowflakeGenerator()
        self._sessions: dict[str, GatewaySession] = {}
        self._active: GatewaySession | None = None
        #: the newest identified session of each shard id
        self._shard_sessions: dict[int, GatewaySession] = {}
        self._websockets: set[web.WebSocketResponse] = set()
        self._changed: asyncio.Event | None = asyncio.Event()
        self._tasks: set[asyncio.Task] = set()
        self._runner: web.AppRunner | None = None
        self._routes: list[tuple[str, re.Pattern[str], Handler, bool, str]] = []
        self._save_handle: asyncio.TimerHandle | None = None
        self._started = False
        self._build_routes()
        self.add_guild(guild_name, channels=channels, locale=guild_locale)
        if self.state_path and self.state_path.exists():
            self._load_state()

    # ------------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        return f"http://{self._url_host}:{self.port}"

    @property
    def _url_host(self) -> str:
        return "[::1]" if self.host == "::1" else self.host

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Value for ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (as a yarl.URL)."""
        return f"ws://{self._url_host}:{self.port}/gateway"

    @property
    def bot_env(self) -> dict[str, str]:
        """Environment variables for a bot subprocess (both naming conventions)."""
        return {
            "FAKE_API_BASE": self.api_base,
            "FAKE_GATEWAY_URL": self.gateway_url,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "TOKEN": self.token,
            "DISCORD_TOKEN": self.token,
            "FAKE_GUILD_ID": str(self.guild_id),
        }

    async def start(self) -> None:
        if self._started:
            return
        self._changed = asyncio.Event()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._dispatch)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        addr = self._runner.addresses[0]
        self.port = int(addr[1])
        self._started = True
        log.info("fake Discord listening on %s", self.base_url)

    async def stop(self) -> None:
        if not self._started:
            return
        self._started = False
        for ws in list(self._websockets):
            try:
                await ws.close(code=1001, message=b"fake discord stopping")
            except Exception:  # pragma: no cover - best effort
                pass
        if self._runner is not None:
            await self._runner.cleanup()
        self._runner = None
        await self.activity_client.close()
        if self.state_path:
            self.save_state()

    async def __aenter__(self):
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    # ------------------------------------------------------------------ state: guilds, users, channels

    @property
    def guild(self) -> FakeGuild:
        """The default (first) guild."""
        return self.guilds[self.guild_id]

    @property
    def guild_id(self) -> int:
        return next(iter(self.guilds))

    @property
    def guild_name(self) -> str:
        return self.guild.name

    @guild_name.setter
    def guild_name(self, value: str) -> None:
        self.guild.name = value

    @property
    def guild_locale(self) -> str:
        return self.guild.locale

    @guild_locale.setter
    def guild_locale(self, value: str) -> None:
        self.guild.locale = value

    @property
    def owner_id(self) -> int:
        return self.guild.owner_id

    @owner_id.setter
    def owner_id(self, value: int) -> None:
        self.guild.owner_id = value

    @property
    def roles(self) -> dict[int, dict[str, Any]]:
        """The roles of the default guild."""
        return self.guild.roles

    def _guild_ids_for(self, k: int) -> tuple[int, int, int, int]:
        """(guild, @everyone, bot role, admin role) ids of the k-th guild. Consecutive guilds have consecutive
        ``guild_id >> 22``, so they spread over the shards by Discord's formula."""
        if k == 0:
            return GUILD_ID, EVERYONE_ROLE_ID, BOT_ROLE_ID, ADMIN_ROLE_ID
        gid = (((GUILD_ID >> 22) + k) << 22) | 100
        return gid, gid, gid + 101, gid + 102

    def add_guild(self, name: str, *, channels: list[str] | tuple[str, ...] = ("jeux",), locale: str = "fr",
                  owner: FakeUser | None = None) -> FakeGuild:
        """Add a server (the bot is a member of it). Once started, the bot gets its GUILD_CREATE on the
        guild's shard. Returns the existing guild of that name if there is one."""
        for g in self.guilds.values():
            if g.name == name:
                return g
        gid, everyone, bot_role, admin_role = self._guild_ids_for(len(self.guilds))
        g = FakeGuild(id=gid, name=name, locale=locale, owner_id=owner.id if owner else OWNER_ID,
                      everyone_role_id=everyone, bot_role_id=bot_role, admin_role_id=admin_role)
        g.roles = {
            everyone: {"id": everyone, "name": "@everyone", "permissions": m.EVERYONE_PERMISSIONS, "position": 0},
            bot_role: {"id": bot_role, "name": self.bot_name, "permissions": m.BOT_PERMISSIONS, "position": 2,
                       "managed": True, "tags": {"bot_id": str(BOT_ID)}},
            admin_role: {"id": admin_role, "name": "Admin", "permissions": m.P_MANAGE_GUILD | m.P_MANAGE_MESSAGES,
                         "position": 1},
        }
        self.guilds[gid] = g
        if bot_role not in self.bot_user.role_ids:
            self.bot_user.role_ids.append(bot_role)
        self.bot_user.guild_ids.append(gid)
        if owner is not None and gid not in owner.guild_ids:
            owner.guild_ids.append(gid)
        for cname in channels:
            self.add_channel(cname, guild=g)
        if self._started:
            sess = self.session_for_guild(gid)
            if sess is not None:
                payload = self._guild_payload(g, full=True)
                del payload["unavailable"]  # the bot joins a new guild (no "unavailable" key, as on Discord)
                self._spawn(self.dispatch_event("GUILD_CREATE", payload, session=sess))
        self._emit("guild_create", g)
        return g

    def get_guild(self, guild: FakeGuild | str | int | None) -> FakeGuild:
        if guild is None:
            return self.guild
        if isinstance(guild, FakeGuild):
            return guild
        for g in self.guilds.values():
            if g.id == guild or g.name == guild:
                return g
        raise KeyError(f"no guild {guild!r}")

    def add_channel(self, name: str, *, topic: str | None = None,
                    guild: FakeGuild | str | int | None = None) -> FakeChannel:
        g = self.get_guild(guild)
        for ch in self.channels.values():
            if ch.name == name and ch.guild_id == g.id and not ch.is_thread:
                return ch
        cid = CHANNEL_BASE + len(self.channels) + 1
        while cid in self.channels:
            cid += 1
        position = sum(1 for c in self.channels.values() if c.guild_id == g.id and not c.is_thread)
        ch = FakeChannel(id=cid, name=name, guild_id=g.id, position=position, topic=topic)
        self.channels[cid] = ch
        if self._started:
            self._spawn(self.dispatch_event("CHANNEL_CREATE", self._channel_payload(ch)))
        self._emit("channel_create", ch)
        return ch

    def add_user(
        self,
        name: str,
        *,
        locale: str = "fr",
        manage_guild: bool = False,
        administrator: bool = False,
        permissions: int = 0,
        dms_open: bool = True,
        owner: bool = False,
        guilds: list[FakeGuild | str | int] | None = None,
    ) -> FakeUser:
        """Add a user, member of `guilds` (default: the default guild), or return the existing one with
        that name. `manage_guild`/`administrator`/`owner` apply in each of those guilds."""
        for u in self.users.values():
            if u.name == name:
                return u
        uid = USER_BASE + len(self.users) + 1
        extra = permissions | (m.P_ADMINISTRATOR if administrator else 0)
        user = FakeUser(id=uid, name=name, locale=locale, extra_permissions=extra, role_ids=[], dms_open=dms_open)
        self.users[uid] = user
        for g in [self.get_guild(x) for x in (guilds if guilds is not None else [None])]:
            self.add_member(user, g, manage_guild=manage_guild, owner=owner, _emit=False)
        self._emit("user_add", user)
        return user

    def add_member(self, user: FakeUser, guild: FakeGuild | str | int | None = None, *, manage_guild: bool = False,
                   owner: bool = False, _emit: bool = True) -> None:
        """Make `user` a member of `guild` (GUILD_MEMBER_ADD once started)."""
        g = self.get_guild(guild)
        if g.id not in user.guild_ids:
            user.guild_ids.append(g.id)
        if manage_guild and g.admin_role_id not in user.role_ids:
            user.role_ids.append(g.admin_role_id)
        if owner:
            g.owner_id = user.id
        if self._started:
            d = self._member_payload(user, g)
            d["guild_id"] = str(g.id)
            self._spawn(self.dispatch_event("GUILD_MEMBER_ADD", d))
        if _emit:
            self._emit("member_add", (user, g))

    def remove_member(self, user: FakeUser, guild: FakeGuild | str | int | None = None) -> None:
        g = self.get_guild(guild)
        if g.id in user.guild_ids:
            user.guild_ids.remove(g.id)
        user.role_ids = [r for r in user.role_ids if r not in g.roles]
        if self._started:
            self._spawn(self.dispatch_event("GUILD_MEMBER_REMOVE", {"guild_id": str(g.id),
                                                                    "user": user.user_payload()}))

    def is_member(self, user: FakeUser, guild: FakeGuild | int) -> bool:
        gid = guild.id if isinstance(guild, FakeGuild) else guild
        return user.id == self.bot_user.id or gid in user.guild_ids

    def set_manage_guild(self, user: FakeUser, value: bool = True, guild: FakeGuild | str | int | None = None) -> None:
        g = self.get_guild(guild)
        if value and g.admin_role_id not in user.role_ids:
            user.role_ids.append(g.admin_role_id)
        if not value and g.admin_role_id in user.role_ids:
            user.role_ids.remove(g.admin_role_id)

    def user(self, name_or_id: str | int) -> FakeUser:
        for u in self.users.values():
            if u.id == name_or_id or u.name == name_or_id:
                return u
        raise KeyError(f"no user {name_or_id!r}")

    def channel(self, name_or_id: str | int | FakeChannel, guild: FakeGuild | str | int | None = None) -> FakeChannel:
        """A channel by object, id or name (names: the default guild's first, or those of `guild`)."""
        if isinstance(name_or_id, FakeChannel):
            return name_or_id
        gid = self.get_guild(guild).id if guild is not None else None
        everything = list(self.channels.values()) + list(self.dm_channels.values())
        for ch in everything:
            if ch.id == name_or_id:
                return ch
        named = [ch for ch in everything if ch.name == name_or_id and (gid is None or ch.guild_id == gid)]
        named.sort(key=lambda c: (c.guild_id != self.guild_id, c.is_thread))
        if named:
            return named[0]
        raise KeyError(f"no channel {name_or_id!r}")

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        ch = self.dm_channels.get(user.id)
        if ch is None:
            ch = FakeChannel(id=DM_BASE + len(self.dm_channels) + 1, name=f"dm-{user.name}", type=m.CH_DM,
                             recipient_id=user.id)
            self.dm_channels[user.id] = ch
        return ch

    def guild_of(self, ch: FakeChannel) -> FakeGuild | None:
        return self.guilds.get(ch.guild_id or 0)

    def permissions_of(self, user: FakeUser, guild: FakeGuild | str | int | None = None) -> int:
        """A member's guild-level permissions (roles; administrator and owner get everything)."""
        g = self.get_guild(guild)
        perms = g.roles[g.everyone_role_id]["permissions"] | user.extra_permissions
        for rid in user.role_ids:
            if rid in g.roles:
                perms |= g.roles[rid]["permissions"]
        if perms & m.P_ADMINISTRATOR or user.id == g.owner_id:
            perms = ALL_PERMISSIONS
        return perms

    def channel_permissions(self, user: FakeUser, ch: FakeChannel) -> int:
        """Permissions of `user` in `ch` (Discord's computation: guild base, then the channel's overwrite for
        the bot; threads inherit their parent; no View Channel means nothing)."""
        if ch.is_dm:
            return DM_PERMISSIONS
        g = self.guild_of(ch)
        if g is None:
            return 0
        base = self.permissions_of(user, g)
        if base & m.P_ADMINISTRATOR or base == ALL_PERMISSIONS:
            return ALL_PERMISSIONS
        if user.id == self.bot_user.id:
            deny = ch.bot_deny
            parent = self.channels.get(ch.parent_id or 0)
            if parent is not None:
                deny |= parent.bot_deny
            base &= ~deny
        if not base & m.P_VIEW_CHANNEL:
            return 0
        if not base & (m.P_SEND_MESSAGES_IN_THREADS if ch.is_thread else m.P_SEND_MESSAGES):
            # Permissions.md, "Implicit Permissions": without Send Messages, no embeds, files or @everyone
            base &= ~(m.P_MENTION_EVERYONE | m.P_EMBED_LINKS | m.P_ATTACH_FILES | (1 << 12))
        if ch.is_thread and ch.type == m.CH_PRIVATE_THREAD and user.id not in ch.member_ids \
                and not base & m.P_MANAGE_THREADS:
            return 0
        return base

    def bot_permissions(self, ch: FakeChannel | str | int) -> int:
        """The bot's computed permissions in a channel (what interactions carry as ``app_permissions``)."""
        return self.channel_permissions(self.bot_user, self.channel(ch))

    def deny_bot(self, channel: FakeChannel | str | int, *perms: str | int) -> None:
        """Take permissions away from the bot in a channel (an overwrite), e.g.
        ``fake.deny_bot("jeux", "send_messages")``; names are those of `models.CHANNEL_PERMISSION_NAMES`."""
        ch = self.channel(channel)
        for p in perms:
            ch.bot_deny |= m.permission_bits(p)
        self._channel_changed(ch)

    def allow_bot(self, channel: FakeChannel | str | int, *perms: str | int) -> None:
        """Give back permissions taken by `deny_bot` (all of them without arguments)."""
        ch = self.channel(channel)
        if not perms:
            ch.bot_deny = 0
        for p in perms:
            ch.bot_deny &= ~m.permission_bits(p)
        self._channel_changed(ch)

    def _channel_changed(self, ch: FakeChannel) -> None:
        if self._started and not ch.is_dm:
            event = "THREAD_UPDATE" if ch.is_thread else "CHANNEL_UPDATE"
            self._spawn(self.dispatch_event(event, self._channel_payload(ch)))
        self._emit("channel_update", ch)

    def _role(self, role_id: int) -> dict[str, Any]:
        for g in self.guilds.values():
            if role_id in g.roles:
                return g.roles[role_id]
        raise KeyError(f"no role {role_id}")

    def _all_members(self, guild: FakeGuild | None = None) -> list[FakeUser]:
        g = guild or self.guild
        return [self.bot_user, *(u for u in self.users.values() if g.id in u.guild_ids)]

    def _find_any_user(self, uid: int) -> FakeUser | None:
        if uid == self.bot_user.id:
            return self.bot_user
        return self.users.get(uid)

    # ------------------------------------------------------------------ payload builders

    def _role_payload(self, r: dict[str, Any]) -> dict[str, Any]:
        out = {
            "id": str(r["id"]), "name": r["name"], "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False, "icon": None, "unicode_emoji": None, "position": r.get("position", 0),
            "permissions": str(r["permissions"]), "managed": r.get("managed", False), "mentionable": False,
            "flags": 0,
        }
        if "tags" in r:
            out["tags"] = r["tags"]
        return out

    def _member_payload(self, user: FakeUser, guild: FakeGuild | None = None, *,
                        with_permissions: bool = False) -> dict[str, Any]:
        g = guild or self.guild
        out: dict[str, Any] = {
            "user": user.user_payload(),
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in user.role_ids if r in g.roles and r != g.everyone_role_id],
            "joined_at": user.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_permissions:
            out["permissions"] = str(self.permissions_of(user, g))
        return out

    def _channel_payload(self, ch: FakeChannel, *, with_permissions_for: FakeUser | None = None) -> dict[str, Any]:
        if ch.is_dm:
            recipient = self.users.get(ch.recipient_id or 0)
            out = {"id": str(ch.id), "type": m.CH_DM, "last_message_id": None, "flags": 0,
                   "recipients": [recipient.user_payload()] if recipient else []}
        elif ch.is_thread:
            out = {
                "id": str(ch.id), "type": ch.type, "guild_id": str(ch.guild_id), "name": ch.name,
                "parent_id": str(ch.parent_id), "owner_id": str(ch.owner_id or self.bot_user.id),
                "last_message_id": self._last_message_id(ch.id), "rate_limit_per_user": 0, "flags": 0,
                "message_count": sum(1 for x in self.message_by_id.values() if x.channel_id == ch.id),
                "member_count": len(ch.member_ids), "total_message_sent": 0, "applied_tags": [],
                "thread_metadata": {
                    "archived": ch.archived, "auto_archive_duration": ch.auto_archive_duration,
                    "archive_timestamp": ch.archive_timestamp or m.iso_now(), "locked": ch.locked,
                    "invitable": ch.invitable, "create_timestamp": ch.archive_timestamp or m.iso_now(),
                },
            }
            if self.bot_user.id in ch.member_ids:
                out["member"] = {"id": str(ch.id), "user_id": str(self.bot_user.id), "join_timestamp": m.iso_now(),
                                 "flags": 0}
        else:
            overwrites = []
            if ch.bot_deny:
                overwrites.append({"id": str(self.bot_user.id), "type": 1, "allow": "0", "deny": str(ch.bot_deny)})
            out = {
                "id": str(ch.id), "type": ch.type, "guild_id": str(ch.guild_id), "name": ch.name,
                "position": ch.position, "permission_overwrites": overwrites, "nsfw": False, "parent_id": None,
                "topic": ch.topic, "rate_limit_per_user": 0, "last_message_id": self._last_message_id(ch.id),
                "flags": 0,
            }
        if with_permissions_for is not None:
            out["permissions"] = str(self.channel_permissions(with_permissions_for, ch))
        return out

    def add_message(self, msg: FakeMessage) -> None:
        """A new message (ids only grow: the snowflake generator never goes back past a loaded one)."""
        self.message_by_id[msg.id] = msg
        self.channel_message_ids.setdefault(msg.channel_id, []).append(msg.id)
        self._snowflake.at_least(msg.id)

    def _last_message_id(self, channel_id: int) -> str | None:
        for mid in reversed(self.channel_message_ids.get(channel_id, ())):
            msg = self.message_by_id.get(mid)
            if msg is not None and msg.channel_id == channel_id and msg.visible_to is None:
                return str(mid)
        return None

    def _guild_payload(self, guild: FakeGuild | None = None, *, full: bool) -> dict[str, Any]:
        g = guild or self.guild
        members = self._all_members(g)
        channels = [c for c in self.channels.values() if c.guild_id == g.id and not c.is_thread]
        threads = [c for c in self.channels.values() if c.guild_id == g.id and c.is_thread and not c.archived
                   and self.channel_permissions(self.bot_user, c)]
        out: dict[str, Any] = {
            "id": str(g.id), "name": g.name, "icon": None, "icon_hash": None, "splash": None,
            "discovery_splash": None, "owner_id": str(g.owner_id), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 1, "explicit_content_filter": 0,
            "roles": [self._role_payload(r) for r in g.roles.values()], "emojis": [], "stickers": [],
            "features": [], "mfa_level": 0, "application_id": None,
            "system_channel_id": str(channels[0].id) if channels else None,
            "system_channel_flags": 0, "rules_channel_id": None, "max_members": 500000, "vanity_url_code": None,
            "description": None, "banner": None, "premium_tier": 0, "premium_subscription_count": 0,
            "preferred_locale": g.locale, "public_updates_channel_id": None, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "safety_alerts_channel_id": None, "max_video_channel_users": 25,
        }
        if full:
            out.update({
                "joined_at": g.joined_at, "large": False, "unavailable": False,
                "member_count": len(members), "voice_states": [],
                "members": [self._member_payload(u, g) for u in members],
                "channels": [self._channel_payload(c) for c in channels],
                "threads": [self._channel_payload(c) for c in threads], "presences": [], "stage_instances": [],
                "guild_scheduled_events": [], "soundboard_sounds": [],
            })
        return out

    def _bot_user_payload(self) -> dict[str, Any]:
        out = self.bot_user.user_payload()
        out.update({"verified": True, "mfa_enabled": False, "locale": "en-US", "email": None, "bio": ""})
        return out

    def _application_payload(self) -> dict[str, Any]:
        owner = FakeUser(id=self.owner_id, name="Owner").user_payload()
        return {
            "id": str(self.app_id), "name": self.bot_name, "icon": None, "description": "", "summary": "",
            "type": None, "bot_public": True, "bot_require_code_grant": False,
            "verify_key": "0" * 64, "owner": owner, "team": None,
            "flags": APP_FLAGS | (EMBEDDED if self.activities.enabled else 0), "guild_id": None,
            "rpc_origins": [], "terms_of_service_url": None, "privacy_policy_url": None,
            "interactions_endpoint_url": None, "role_connections_verification_url": None, "tags": [],
            "install_params": {"scopes": ["bot", "applications.commands"], "permissions": str(m.BOT_PERMISSIONS)},
            "integration_types_config": {"0": {}}, "custom_install_url": None, "approximate_guild_count": 1,
            "redirect_uris": [], "bot": self._bot_user_payload(),
        }

    # ------------------------------------------------------------------ notifications

    def _emit(self, kind: str, obj: Any) -> None:
        for cb in list(self.listeners):
            try:
                res = cb(kind, obj)
                if asyncio.iscoroutine(res):
                    self._spawn(res)
            except Exception:  # pragma: no cover - listener bugs must not break the fake
                log.exception("listener failed on %s", kind)
        self._notify()
        self._schedule_save()

    def _notify(self) -> None:
        ev = self._changed
        if ev is not None:
            ev.set()
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self._changed = asyncio.Event()

    async def wait_changed(self, timeout: float | None) -> bool:
        """Wait until something changes (any REST write, gateway event…); False on timeout."""
        ev = self._changed
        if ev is None:
            ev = self._changed = asyncio.Event()
        try:
            await asyncio.wait_for(ev.wait(), timeout)
            return True
        except TimeoutError:
            return False

    def _spawn(self, coro) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            coro.close()
            return
        task = loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ gateway

    @property
    def connected(self) -> bool:
        """True when every shard of the newest IDENTIFYs is identified, has its guilds and an open websocket."""
        if not self._shard_sessions:
            return False
        count = max(s.shard_count for s in self._shard_sessions.values())
        for sid in range(count):
            sess = self._shard_sessions.get(sid)
            if sess is None or sess.shard_count != count or not sess.connected or not sess.guild_created:
                return False
        return True

    @property
    def shard_count(self) -> int:
        """The shard count the connected bot identified with (1 before any IDENTIFY)."""
        if not self._shard_sessions:
            return 1
        return max(s.shard_count for s in self._shard_sessions.values())

    def shard_of(self, guild: FakeGuild | int | None) -> int:
        """Discord's formula: (guild_id >> 22) % shard_count; DMs (None) go to shard 0."""
        if guild is None:
            return 0
        gid = guild.id if isinstance(guild, FakeGuild) else int(guild)
        return (gid >> 22) % self.shard_count

    def session_for_guild(self, guild: FakeGuild | int | None) -> GatewaySession | None:
        return self._shard_sessions.get(self.shard_of(guild))

    def shard_sessions(self) -> dict[int, GatewaySession]:
        return dict(self._shard_sessions)

    def sessions_of_shard(self, shard_id: int) -> list[GatewaySession]:
        """Every connected, identified session of one shard (of the current shard count), oldest first:
        more than one while two processes run the same shard (a rolling restart's overlap). Events go to
        the newest; :meth:`run_command`'s ``via`` sends an interaction over another one."""
        count = self.shard_count
        return sorted((s for s in self._sessions.values() if s.shard_id == shard_id and s.shard_count == count
                       and s.connected and s.guild_created), key=lambda s: s.identified_at)

    async def dispatch_event(self, event: str, data: Any, *, session: GatewaySession | None = None) -> None:
        """Send a dispatch; without `session`, to the shard of ``data["guild_id"]`` (shard 0 without one)."""
        sess = session
        if sess is None:
            gid = data.get("guild_id") if isinstance(data, dict) else None
            sess = self.session_for_guild(int(gid) if gid else None)
        if sess is None:
            return
        async with sess.lock:
            sess.seq += 1
            text = json.dumps({"op": 0, "t": event, "s": sess.seq, "d": data})
            self.gateway_bytes_sent += len(text)  # ASCII: json.dumps escapes the rest
            sess.buffer.append((sess.seq, text))
            if len(sess.buffer) > 2000:
                del sess.buffer[:1000]
            if sess.connected:
                try:
                    await sess.ws.send_str(text)  # type: ignore[union-attr]
                except (ConnectionError, RuntimeError):
                    pass

    async def dispatch_raw(self, event: str, data_text: str, *, session: GatewaySession | None = None,
                           guild: FakeGuild | int | None = None) -> None:
        """A dispatch whose ``d`` is ``data_text`` as it is, not re-encoded: it may be invalid JSON,
        hold lone surrogates (``\\ud800``), integers past 2**64, nesting 1,000 deep (fuzzing the bot)."""
        sess = session or self.session_for_guild(guild)
        if sess is None:
            return
        async with sess.lock:
            sess.seq += 1
            text = f'{{"op": 0, "t": {json.dumps(event)}, "s": {sess.seq}, "d": {data_text}}}'
            self.gateway_bytes_sent += len(text.encode(errors="surrogatepass"))
            sess.buffer.append((sess.seq, text))
            if sess.connected:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await sess.ws.send_str(text)  # type: ignore[union-attr]

    async def send_raw_frame(self, text: str, *, session: GatewaySession | None = None,
                             guild: FakeGuild | int | None = None) -> None:
        """One gateway frame of any text (not JSON, not an object, no sequence number...), sent as
        it is on the shard of ``guild`` (shard 0 without one); not kept for a RESUME."""
        sess = session or self.session_for_guild(guild)
        if sess is None or not sess.connected:
            return
        async with sess.lock:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await sess.ws.send_str(text)  # type: ignore[union-attr]

    async def _send_op(self, ws: web.WebSocketResponse, op: int, d: Any) -> None:
        text = json.dumps({"op": op, "d": d})
        self.gateway_bytes_sent += len(text)
        await ws.send_str(text)

    async def _heartbeat_ack(self, ws: web.WebSocketResponse) -> None:
        # A real gateway answers over the network. discord.py's heartbeat thread records the send time only
        # after its send completed, so an ACK that beats it reads as "websocket is 41.3s behind": wait a bit.
        await asyncio.sleep(self.heartbeat_ack_delay)
        if not ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self._send_op(ws, 11, None)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self._websockets.add(ws)
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"only encoding=json is supported by the fake")
            return ws
        session: GatewaySession | None = None
        try:
            await self._send_op(ws, 10, {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake"]})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    data = msg.data
                elif msg.type == WSMsgType.BINARY:
                    data = msg.data.decode()
                else:
                    break
                try:
                    packet = json.loads(data)
                except ValueError:
                    await ws.close(code=4002, message=b"decode error")
                    break
                op = packet.get("op")
                d = packet.get("d")
                self.heartbeats += op == 1
                if op == 1:  # heartbeat
                    self._spawn(self._heartbeat_ack(ws))
                elif op == 2:  # identify
                    if session is not None:
                        await ws.close(code=4005, message=b"Already authenticated.")
                        break
                    session = await self._identify(ws, d or {})
                    if session is None:
                        break
                elif op == 6:  # resume
                    session = await self._resume(ws, d or {})
                elif op == 3:  # presence update
                    if session is not None:
                        session.presence = d
                elif op == 8:  # request guild members
                    await self._members_chunk(session, d or {})
                elif op in (4, 31):  # voice state, soundboard: ignore
                    pass
                else:
                    await ws.close(code=4001, message=b"Unknown opcode.")
                    break
        finally:
            self._websockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
            self._emit("gateway_disconnect", session)
        return ws

    def _shard_guilds(self, shard_id: int, shard_count: int) -> list[FakeGuild]:
        return [g for g in self.guilds.values() if (g.id >> 22) % shard_count == shard_id]

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> GatewaySession | None:
        if d.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = d.get("shard") or [0, 1]
        try:
            shard_id, shard_count = int(shard[0]), int(shard[1])
        except (TypeError, ValueError, IndexError):
            shard_id, shard_count = -1, 0
        if shard_count < 1 or not 0 <= shard_id < shard_count:
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        if self.required_shards and shard_count < self.required_shards:
            await ws.close(code=4011, message=b"Sharding required.")
            return None
        intents = d.get("intents")
        if intents is not None and intents & PRIVILEGED_INTENTS and not self.privileged_intents:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        if intents is not None and intents & ~ALL_INTENTS:
            await ws.close(code=4013, message=b"Invalid intent(s).")
            return None
        sess = GatewaySession(id=secrets.token_hex(16), intents=intents, ws=ws, shard_id=shard_id,
                              shard_count=shard_count)
        self._sessions[sess.id] = sess
        # a new shard count replaces every session of the old layout
        for sid, old in list(self._shard_sessions.items()):
            if old.shard_count != shard_count:
                del self._shard_sessions[sid]
        self._shard_sessions[shard_id] = sess
        if shard_id == 0 or self._active is None or self._active.shard_count != shard_count:
            self._active = sess
        self.identify_count += 1
        self.identify_log.append((time.monotonic(), shard_id, shard_count))
        guilds = self._shard_guilds(shard_id, shard_count)
        ready = {
            "v": 10,
            "user": self._bot_user_payload(),
            "user_settings": {},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": sess.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": [shard_id, shard_count],
            "application": {"id": str(self.app_id), "flags": APP_FLAGS},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["fake"],
            "auth": {},
            "_trace": ["fake-discord"],
        }
        await self.dispatch_event("READY", ready, session=sess)
        for g in guilds:
            await self.dispatch_event("GUILD_CREATE", self._guild_payload(g, full=True), session=sess)
        sess.guild_created = True
        self._emit("gateway_ready", sess)
        return sess

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> GatewaySession | None:
        sess = self._sessions.get(str(d.get("session_id")))
        if sess is None or d.get("token") != self.token:
            await asyncio.sleep(0.05)
            await self._send_op(ws, 9, False)
            return None
        last = d.get("seq") or 0
        async with sess.lock:
            old = sess.ws
            sess.ws = ws
            if old is not None and old is not ws and not old.closed:
                self._spawn(old.close(code=4000))
            for seq, text in sess.buffer:
                if seq > last:
                    self.gateway_bytes_sent += len(text)
                    await ws.send_str(text)
        sess.resumes += 1
        self.resume_count += 1
        if sess.shard_id == 0:
            self._active = sess
        await self.dispatch_event("RESUMED", {"_trace": ["fake-discord"]}, session=sess)
        self._emit("gateway_resumed", sess)
        return sess

    async def _members_chunk(self, sess: GatewaySession | None, d: dict[str, Any]) -> None:
        if sess is None:
            return
        g = self.guilds.get(int(d.get("guild_id") or 0))
        if g is None:
            return
        members = self._all_members(g)
        if d.get("user_ids"):
            ids = d["user_ids"] if isinstance(d["user_ids"], list) else [d["user_ids"]]
            wanted = {int(x) for x in ids}
            members = [u for u in members if u.id in wanted]
        elif d.get("query"):
            q = str(d["query"]).lower()
            members = [u for u in members if u.username.startswith(q) or u.name.lower().startswith(q)]
        limit = d.get("limit") or 0
        if limit:
            members = members[:limit]
        chunk = {"guild_id": str(g.id), "members": [self._member_payload(u, g) for u in members],
                 "chunk_index": 0, "chunk_count": 1, "not_found": [], "presences": []}
        if d.get("nonce"):
            chunk["nonce"] = d["nonce"]
        await self.dispatch_event("GUILD_MEMBERS_CHUNK", chunk, session=sess)

    def _target_sessions(self, shard: int | None) -> list[GatewaySession]:
        if shard is None:
            return [s for s in self._shard_sessions.values()]
        sess = self._shard_sessions.get(shard)
        return [sess] if sess else []

    async def gateway_reconnect(self, shard: int | None = None) -> None:
        """Send op 7 RECONNECT (to every shard, or one): the bot closes and RESUMEs (missed events replayed)."""
        for sess in self._target_sessions(shard):
            if sess.connected:
                await self._send_op(sess.ws, 7, None)  # type: ignore[arg-type]

    async def gateway_drop(self, code: int = 4000, shard: int | None = None) -> None:
        """Close the bot's websocket(s) abruptly (resumable close code by default)."""
        for sess in self._target_sessions(shard):
            if sess.ws is not None:
                await sess.ws.close(code=code)

    async def gateway_close(self, code: int, message: str = "", shard: int | None = None) -> None:
        """Close the bot's websocket(s) with any close code, as Discord does: 4004 authentication failed,
        4010 invalid shard, 4011 sharding required, 4013 invalid intents, 4014 disallowed intents...
        Fatal codes also forget the session (no RESUME)."""
        text = message or GATEWAY_CLOSE_MESSAGES.get(code, "")
        for sess in self._target_sessions(shard):
            if code in FATAL_CLOSE_CODES:
                self._sessions.pop(sess.id, None)
            if sess.ws is not None:
                await sess.ws.close(code=code, message=text.encode())

    async def gateway_invalidate(self, shard: int | None = None) -> None:
        """Send op 9 (not resumable): the bot must IDENTIFY again."""
        for sess in self._target_sessions(shard):
            if sess.connected:
                self._sessions.pop(sess.id, None)
                await self._send_op(sess.ws, 9, False)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ HTTP plumbing

    def _route(self, method: str, pattern: str, handler: Handler, *, auth: bool | str = True) -> None:
        """``auth``: True, the bot's token; False, none (the handler checks what it needs); "bearer", the
        bot's token or a user's ``Bearer`` OAuth2 token."""
        regex = "^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern) + "$"
        self._routes.append((method, re.compile(regex), handler, auth, pattern))

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if path.rstrip("/") == "/gateway" and request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._gateway(request)
        if path.startswith("/attachments/"):
            return self._serve_attachment(path)
        if path.startswith("/emojis/"):
            return self._serve_emoji(path)
        if path.startswith("/_fake/"):
            return await self._fake_endpoint(request)
        api = re.match(r"^/api(?:/v\d+)?(/.*)$", path)
        if not api:
            return self._record(request, json_response({"message": "404: Not Found", "code": 0}, status=404))
        sub = api.group(1).rstrip("/") or "/"
        for method, regex, handler, auth, pattern in self._routes:
            if method != request.method:
                continue
            mm = regex.match(sub)
            if not mm:
                continue
            if auth == "bearer" and request.headers.get("Authorization", "").startswith("Bearer "):
                auth = False  # a user's OAuth2 token (the handler checks it); the bot's limits don't apply
            if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                return self._record(request, self._error_response(request, ApiError(401, 0, "401: Unauthorized")))
            params = mm.groupdict()
            bucket = None
            try:
                bucket = self._bucket_for(method, pattern, params) if auth else None
                limited = self._take(request, bucket, global_=bool(auth))
                if limited is not None:
                    return self._record(request, limited)
                resp = await handler(request, **params)
            except ApiError as exc:
                resp = self._error_response(request, exc)
            if bucket is not None and "X-RateLimit-Scope" not in resp.headers:
                self._rate_headers(resp, bucket)
            return self._record(request, resp)
        self.unhandled.append(f"{request.method} {sub}")
        log.warning("fake Discord: unhandled route %s %s", request.method, sub)
        return self._record(request, self._error_response(request, ApiError(404, 0, "404: Not Found")))

    # ------------------------------------------------------------------ rate limits

    def rate_limit_channel(self, channel: FakeChannel | str | int, limit: int = 1, per: float = 5.0) -> None:
        """Make posting in a channel harder: `limit` messages per `per` (fake-clock) seconds."""
        self.rate_limit.channel_overrides[self.channel(channel).id] = (limit, per)

    def _bucket(self, key: str, limit: int, per: float) -> Bucket:
        b = self._buckets.get(key)
        if b is None or b.limit != limit or b.per != per:
            b = self._buckets[key] = Bucket(key=key, limit=limit, per=per)
        return b

    def _bucket_for(self, method: str, pattern: str, params: dict[str, str]) -> Bucket | None:
        rl = self.rate_limit
        if not rl.enabled:
            return None
        if pattern == "/channels/{channel_id}/messages" and method == "POST":
            cid = _int(params["channel_id"], 10003, "Unknown Channel")
            limit, per = rl.channel_overrides.get(cid, (rl.channel_post_limit, rl.channel_post_per))
            return self._bucket(f"post:{cid}", limit, per)
        if pattern == "/channels/{channel_id}/messages/{message_id}" and method in ("PATCH", "DELETE"):
            return self._bucket(f"{method}:edit:{params['channel_id']}", rl.channel_edit_limit, rl.channel_edit_per)
        if rl.thread_limit is not None and method == "POST" and pattern.endswith("/threads"):
            return self._bucket(f"threads:{params['channel_id']}", rl.thread_limit, rl.thread_per)
        major = params.get("channel_id") or params.get("guild_id") or ""
        return self._bucket(f"{method} {pattern}:{major}", rl.route_limit, rl.route_per)

    def _take(self, request: web.Request, bucket: Bucket | None, *, global_: bool) -> web.Response | None:
        """Consume the global and the route bucket; a 429 response if either is exhausted."""
        rl = self.rate_limit
        if not rl.enabled:
            return None
        now = self.clock.now()
        if global_:
            g = self._bucket("global", rl.global_limit, rl.global_per)
            if not g.try_hit(now):
                return self._too_many(request, g, scope="global", now=now)
        if bucket is not None and not bucket.try_hit(now):
            return self._too_many(request, bucket, scope="user", now=now)
        return None

    def _rate_headers(self, resp: web.StreamResponse, bucket: Bucket, now: float | None = None) -> None:
        now = self.clock.now() if now is None else now
        after = self.clock.to_real(bucket.reset_after(now))
        resp.headers["X-RateLimit-Limit"] = str(bucket.limit)
        resp.headers["X-RateLimit-Remaining"] = str(bucket.remaining(now))
        resp.headers["X-RateLimit-Reset"] = f"{time.time() + after:.3f}"
        resp.headers["X-RateLimit-Reset-After"] = f"{after:.3f}"
        resp.headers["X-RateLimit-Bucket"] = bucket.hash

    def _too_many(self, request: web.Request, bucket: Bucket, *, scope: str, now: float, code: int | None = None,
                  message: str = "You are being rate limited.") -> web.Response:
        retry = max(self.clock.to_real(bucket.reset_after(now)), 0.001)
        is_global = scope == "global"
        body: dict[str, Any] = {"message": message, "retry_after": round(retry, 3), "global": is_global}
        if code is not None:
            body["code"] = code
        resp = json_response(body, status=429)
        # "Via" is what tells discord.py a 429 comes from Discord and not from a Cloudflare ban
        resp.headers["Via"] = "1.1 google"
        resp.headers["Retry-After"] = str(max(1, math.ceil(retry)))
        resp.headers["X-RateLimit-Scope"] = scope
        if is_global:
            resp.headers["X-RateLimit-Global"] = "true"
        else:
            self._rate_headers(resp, bucket, now)
        entry = {"method": request.method, "path": request.path, "bucket": bucket.key, "scope": scope,
                 "global": is_global, "retry_after": retry, "code": code}
        self.rate_limited.append(entry)
        if scope != "shared":
            self.invalid_requests[429] += 1
        log.info("fake Discord: 429 %s %s (%s, retry after %.3fs)", request.method, request.path, bucket.key, retry)
        self._notify()
        return resp

    def _record(self, request: web.Request, resp: web.StreamResponse) -> web.StreamResponse:
        self.request_log.append(LoggedRequest(request.method, request.path_qs, resp.status,
                                              request.content.total_bytes, request.get(FILE_BYTES, 0)))
        if request.method in ("POST", "PATCH") and "/channels/" in request.path and "/messages" in request.path:
            self.channel_message_writes += 1  # posts and edits in channels (the log itself is trimmed)
        if len(self.request_log) > 5000:
            del self.request_log[:2500]
        return resp

    def _error_response(self, request: web.Request, exc: ApiError, rec: InteractionRecord | None = None) -> web.Response:
        body: dict[str, Any] = {"message": exc.message, "code": exc.code}
        if exc.errors is not None:
            body["errors"] = exc.errors
        entry = {"method": request.method, "path": request.path, "status": exc.status, "code": exc.code,
                 "message": exc.message, "errors": exc.errors}
        if exc.status != 401 or "/gateway" not in request.path:
            self.errors.append(entry)
        if exc.status in (401, 403):
            self.invalid_requests[exc.status] += 1
        if exc.validation:
            # Discord refused what the bot sent: the bot broke one of Discord's rules
            self.validation_errors.append(entry)
        tok = re.search(r"/(?:interactions/\d+|webhooks/\d+)/([^/]+)", request.path)
        rec = rec or (self._by_token.get(tok.group(1)) if tok else None)
        if rec is not None:
            rec.errors.append(entry)
            rec.touch()
        log.warning("fake Discord: %s %s -> %s %s", request.method, request.path, exc.status, exc.message)
        self._notify()
        return json_response(body, status=exc.status)

    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], dict[int, tuple[str, bytes, str | None]]]:
        """JSON body, or multipart payload_json + files[n]; returns (payload, {index: (filename, bytes, ctype)})."""
        files: dict[int, tuple[str, bytes, str | None]] = {}
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            payload: dict[str, Any] = {}
            reader = await request.multipart()
            auto = 0
            while True:
                part = await reader.next()
                if part is None:
                    break
                name, filename = _part_names(part.headers.get("Content-Disposition", ""))
                raw = await part.read(decode=False)
                if name == "payload_json":
                    payload = json.loads(raw.decode() or "{}")
                    if _SURROGATE_ESCAPE.search(raw) and has_lone_surrogate(payload):
                        raise ApiError(400, 50109, "The request body contains invalid JSON.")
                    continue
                mm = re.match(r"^files\[(\d+)\]$", name)
                idx = int(mm.group(1)) if mm else auto
                auto += 1
                request[FILE_BYTES] = request.get(FILE_BYTES, 0) + len(raw)
                pct = part.headers.get("Content-Type")
                files[idx] = (filename or f"file{idx}", bytes(raw),
                              None if pct in (None, "application/octet-stream") else pct)
            return payload, files
        raw = await request.read()
        if not raw:
            return {}, files
        try:
            body = json.loads(raw)
        except ValueError as exc:
            raise ApiError(400, 50109, "The request body contains invalid JSON.") from exc
        if _SURROGATE_ESCAPE.search(raw) and has_lone_surrogate(body):  # "\ud800": JSON for Python, not UTF-8
            raise ApiError(400, 50109, "The request body contains invalid JSON.")
        return (body if isinstance(body, dict) else {"_list": body}), files

    def _serve_attachment(self, path: str) -> web.StreamResponse:
        parts = path.split("/")
        try:
            att_id = int(parts[3])
        except (IndexError, ValueError):
            return web.Response(status=404)
        for msg in self.message_by_id.values():
            for a in msg.attachments:
                if a.id == att_id:
                    return web.Response(body=a.data, content_type=a.payload()["content_type"])
        return web.Response(status=404)

    async def _fake_endpoint(self, request: web.Request) -> web.StreamResponse:
        if request.path == "/_fake/state":
            return json_response(self.snapshot())
        answer = await self.activity_client.handle(request)  # Discord's proxy and client for an Activity
        return answer if answer is not None else web.Response(status=404)

    # ------------------------------------------------------------------ messages

    def _build_fields(
        self,
        payload: dict[str, Any],
        files: dict[int, tuple[str, bytes, str | None]],
        *,
        existing: FakeMessage | None,
        channel_id: int,
    ) -> dict[str, Any]:
        """Validate a create/edit payload like Discord does and compute the new field values."""
        errors = Errors()
        out: dict[str, Any] = {}
        if isinstance(payload.get("allowed_mentions"), dict):
            out["allowed_mentions"] = payload["allowed_mentions"]
        if "content" in payload:
            content = payload["content"] if payload["content"] is not None else ""
            if not isinstance(content, str):
                content = str(content)
            v.validate_content(payload, errors)
            out["content"] = content
        if "embeds" in payload:
            embeds = payload["embeds"] or []
            v.validate_embeds(embeds, errors)
            out["embeds"] = embeds
        v.validate_allowed_mentions(payload.get("allowed_mentions"), errors)
        flags = existing.flags if existing else 0
        if "flags" in payload and payload["flags"] is not None:
            req = int(payload["flags"])
            if existing is None:
                flags = req & (m.F_EPHEMERAL | 4 | m.F_SUPPRESS_NOTIFICATIONS | m.F_IS_COMPONENTS_V2)
            else:
                flags = (flags & ~4) | (req & 4)
                if req & m.F_IS_COMPONENTS_V2:
                    flags |= m.F_IS_COMPONENTS_V2
                elif flags & m.F_IS_COMPONENTS_V2:
                    # resources/message.mdx, Edit Message: "the IS_COMPONENTS_V2 flag can only be set"
                    errors.add("flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                               "The IS_COMPONENTS_V2 flag cannot be removed from a message")
        out["flags"] = flags
        v2 = bool(flags & m.F_IS_COMPONENTS_V2)
        if v2:
            self._check_v2_legacy_fields(payload, existing, errors)
        # attachments
        old_atts = list(existing.attachments) if existing else []
        new_by_index: dict[int, FakeAttachment] = {}
        for idx, (fname, data, ctype) in files.items():
            new_by_index[idx] = FakeAttachment(id=self._snowflake(), filename=fname, data=data, content_type=ctype)
        if "attachments" in payload and payload["attachments"] is not None:
            atts: list[FakeAttachment] = []
            old_ids = {a.id: a for a in old_atts}
            used: set[int] = set()
            for spec in payload["attachments"]:
                try:
                    sid = int(spec.get("id"))
                except (TypeError, ValueError):
                    errors.add("attachments", "ATTACHMENT_ID_INVALID", "Invalid attachment id")
                    continue
                if sid in old_ids:
                    atts.append(old_ids[sid])
                elif sid in new_by_index:
                    a = new_by_index[sid]
                    if spec.get("filename"):
                        a.filename = spec["filename"]
                    if spec.get("description") is not None:
                        a.description = spec["description"]
                    atts.append(a)
                    used.add(sid)
                else:
                    errors.add("attachments", "ATTACHMENT_NOT_FOUND", f"Unknown attachment id {sid}")
            atts.extend(a for i, a in sorted(new_by_index.items()) if i not in used)
            out["attachments"] = atts
        elif new_by_index:
            out["attachments"] = old_atts + [a for _, a in sorted(new_by_index.items())]
        if any(len(a.data) > v.UPLOAD_LIMIT for a in new_by_index.values()):
            raise ApiError(413, 40005, "Request entity too large")  # the limit applies to each file
        if len(out.get("attachments", [])) > v.ATTACHMENTS_MAX:
            errors.too_long("attachments", v.ATTACHMENTS_MAX)
        for a in out.get("attachments", []):
            a.url = f"{self.base_url}/attachments/{channel_id}/{a.id}/{a.filename}"
        final_atts = out.get("attachments", existing.attachments if existing else [])
        if "components" in payload or (v2 and "attachments" in out):
            comps = payload["components"] or [] if "components" in payload else existing.components  # type: ignore[union-attr]
            v.validate_components(comps, flags, errors, attachment_names={a.filename for a in final_atts} if v2 else None,
                                  emoji_ids=set(self.app_emojis))
            if not errors:
                out["components"] = m.resolve_components(comps, final_atts, v2=v2)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors.tree)
        # emptiness check (creates only, and edits that would empty everything)
        final_content = out.get("content", existing.content if existing else "")
        final_embeds = out.get("embeds", existing.embeds if existing else [])
        final_comps = out.get("components", existing.components if existing else [])
        if not (final_content or final_embeds or final_atts or payload.get("sticker_ids") or payload.get("poll")
                or (flags & m.F_IS_COMPONENTS_V2 and final_comps)):
            raise ApiError(400, 50006, "Cannot send an empty message")
        if v2:
            # a reader sees the text displays where content was; the bot still gets "" (FakeMessage.payload)
            out["content"] = m.components_text(final_comps)
        return out

    def _check_v2_legacy_fields(self, payload: dict[str, Any], existing: FakeMessage | None, errors: Errors) -> None:
        """resources/message.mdx: with IS_COMPONENTS_V2 a message "can only contain components";
        `content`, `embeds`, `sticker_ids`, `poll` (and `shared_client_theme`) fail with 400, and an edit
        that sets the flag on a message must reset the ones it used (content and poll to null, embeds and
        sticker_ids to [])."""
        for key in ("content", "embeds", "sticker_ids", "poll", "shared_client_theme"):
            if payload.get(key):
                errors.add(key, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                           f"The '{key}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
        if existing is not None and not existing.flags & m.F_IS_COMPONENTS_V2:
            for key, used in (("content", existing.content), ("embeds", existing.embeds)):
                if used and key not in payload:
                    errors.add(key, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                               f"Setting IS_COMPONENTS_V2 on a message needs '{key}' reset to empty")

    def _new_message(
        self,
        channel: FakeChannel,
        fields: dict[str, Any],
        *,
        author: dict[str, Any] | None = None,
        visible_to: int | None = None,
        rec: InteractionRecord | None = None,
        kind: str = "channel",
        msg_type: int = 0,
        message_reference: dict[str, Any] | None = None,
    ) -> FakeMessage:
        if channel.is_thread and channel.archived and not channel.locked:
            self.set_thread_state(channel, archived=False)  # any new message unarchives an unlocked thread
        msg = FakeMessage(
            id=self._snowflake(),
            channel_id=channel.id,
            guild_id=None if channel.is_dm else channel.guild_id,
            author=author or self.bot_user.user_payload(),
            content=fields.get("content", ""),
            embeds=fields.get("embeds", []),
            components=fields.get("components", []),
            attachments=fields.get("attachments", []),
            flags=fields.get("flags", 0),
            visible_to=visible_to,
            kind=kind,
            type=msg_type,
            message_reference=message_reference,
            allowed_mentions=fields.get("allowed_mentions"),
            clock_created=self.clock.now(),
        )
        for a in msg.attachments:
            a.ephemeral = msg.ephemeral
            a.url = f"{self.base_url}/attachments/{channel.id}/{a.id}/{a.filename}"
        if rec is not None:
            msg.interaction_id = rec.id
            msg.interaction_user_id = rec.user.id
            msg.webhook_id = self.app_id
            meta: dict[str, Any] = {
                "id": str(rec.id), "type": rec.type, "user": rec.user.user_payload(),
                "authorizing_integration_owners": {"0": str(channel.guild_id)} if not channel.is_dm else {"1": str(rec.user.id)},
            }
            if rec.type == m.IT_APPLICATION_COMMAND:
                meta["name"] = rec.command_name
                meta["command_type"] = 1
            if rec.component_message_id:
                meta["interacted_message_id"] = str(rec.component_message_id)
            if kind == "followup" and rec.original_message_id:
                meta["original_response_message_id"] = str(rec.original_message_id)
            msg.interaction_metadata = meta
            rec.touch(msg.id)
        self.add_message(msg)
        self._check_emojis(msg)
        self._check_command_mentions(msg)
        self._attribute(msg)
        self._emit("message_create", msg)
        return msg

    def _edit_message(self, msg: FakeMessage, fields: dict[str, Any], rec: InteractionRecord | None = None) -> FakeMessage:
        msg.revisions.append(msg._snapshot())
        for key in ("content", "embeds", "components", "attachments", "flags", "allowed_mentions"):
            if key in fields:
                setattr(msg, key, fields[key])
        for a in msg.attachments:
            a.ephemeral = msg.ephemeral
        msg.edited_at = time.monotonic()
        msg.edited_timestamp = m.iso_now()
        if rec is not None:
            rec.touch(msg.id)
        self._check_emojis(msg)
        self._check_command_mentions(msg)
        self._attribute(msg)
        self._emit("message_update", msg)
        return msg

    def _check_emojis(self, msg: FakeMessage) -> None:
        """A ``<:name:id>`` naming no emoji of the application is accepted by Discord but shows as plain
        ``:name:`` text: recorded in ``broken_emojis`` for tests to assert on."""
        if msg.kind == "user":
            return
        for animated, name, eid in m.CUSTOM_EMOJI.findall(msg.text):
            e = self.app_emojis.get(int(eid))
            if e is None or e.name != name or e.animated != bool(animated):
                self.broken_emojis.append({"message_id": msg.id, "emoji": f"<{animated}:{name}:{eid}>"})

    def _check_command_mentions(self, msg: FakeMessage) -> None:
        """A ``</name sub:id>`` whose id is not a chat input command of the application (in the guild
        or global), or whose path is not that command's (by default names), is text Discord shows but
        that runs nothing: recorded in ``broken_command_mentions``."""
        if msg.kind == "user" or "</" not in msg.text:
            return
        for path, cid in m.COMMAND_MENTION.findall(msg.text):
            cmd = self.commands.get(int(cid))
            ok = cmd is not None and cmd.type == 1 and cmd.guild_id in (None, msg.guild_id)
            if ok:
                parts, node = path.split(), cmd.payload
                ok = parts[0] == node.get("name")
                for part in parts[1:]:
                    node = next((o for o in node.get("options") or [] if o.get("name") == part and o.get("type") in (1, 2)), None)
                    if node is None:
                        ok = False
                        break
                ok = ok and not any(o.get("type") in (1, 2) for o in node.get("options") or [])  # a group: not a command
            if not ok:
                self.broken_command_mentions.append({"message_id": msg.id, "mention": f"</{path}:{cid}>"})

    def _attribute(self, msg: FakeMessage) -> None:
        """Hook for the API layer: relate a message to interactions whose answer is being awaited."""

    def _get_message(self, channel_id: int, message_id: int, *, allow_ephemeral: bool = False) -> FakeMessage:
        msg = self.message_by_id.get(message_id)
        if msg is None or msg.deleted or msg.channel_id != channel_id or (msg.ephemeral and not allow_ephemeral):
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _get_channel(self, channel_id: str | int) -> FakeChannel:
        try:
            cid = int(channel_id)
        except ValueError as exc:
            raise ApiError(404, 10003, "Unknown Channel") from exc
        ch = self.channels.get(cid)
        if ch is None:
            ch = next((c for c in self.dm_channels.values() if c.id == cid), None)
        if ch is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return ch

    # ------------------------------------------------------------------ REST handlers

    def _build_routes(self) -> None:
        r = self._route
        r("GET", "/users/@me", self._h_me_any, auth="bearer")
        r("PATCH", "/users/@me", self._h_me)
        r("POST", "/oauth2/token", self._h_oauth_token, auth=False)
        r("GET", "/applications/{app_id}/activity-instances/{instance_id}", self._h_activity_instance)
        r("GET", "/users/{user_id}", self._h_user)
        r("POST", "/users/@me/channels", self._h_create_dm)
        r("GET", "/oauth2/applications/@me", self._h_appinfo)
        r("GET", "/applications/@me", self._h_appinfo)
        r("PATCH", "/applications/@me", self._h_appinfo)
        r("GET", "/gateway", self._h_gateway, auth=False)
        r("GET", "/gateway/bot", self._h_gateway_bot)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            r("GET", prefix + "/commands", self._h_cmd_list)
            r("PUT", prefix + "/commands", self._h_cmd_bulk)
            r("POST", prefix + "/commands", self._h_cmd_create)
            r("GET", prefix + "/commands/{command_id}", self._h_cmd_get)
            r("PATCH", prefix + "/commands/{command_id}", self._h_cmd_edit)
            r("DELETE", prefix + "/commands/{command_id}", self._h_cmd_delete)
        r("GET", "/applications/{app_id}/guilds/{guild_id}/commands/permissions", self._h_empty_list)
        r("GET", "/applications/{app_id}/emojis", self._h_app_emojis)
        r("POST", "/applications/{app_id}/emojis", self._h_app_emoji_create)
        r("GET", "/applications/{app_id}/emojis/{emoji_id}", self._h_app_emoji_get)
        r("PATCH", "/applications/{app_id}/emojis/{emoji_id}", self._h_app_emoji_edit)
        r("DELETE", "/applications/{app_id}/emojis/{emoji_id}", self._h_app_emoji_delete)
        r("GET", "/applications/{app_id}/entitlements", self._h_empty_list)
        r("GET", "/applications/{app_id}/skus", self._h_empty_list)
        r("GET", "/guilds/{guild_id}", self._h_guild)
        r("GET", "/guilds/{guild_id}/channels", self._h_guild_channels)
        r("GET", "/guilds/{guild_id}/roles", self._h_guild_roles)
        r("GET", "/guilds/{guild_id}/members", self._h_guild_members)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._h_guild_member)
        r("GET", "/channels/{channel_id}", self._h_channel)
        r("GET", "/channels/{channel_id}/messages", self._h_history)
        r("POST", "/channels/{channel_id}/messages", self._h_msg_create)
        r("POST", "/channels/{channel_id}/messages/bulk-delete", self._h_bulk_delete)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._h_msg_get)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._h_msg_edit)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._h_msg_delete)
        r("POST", "/channels/{channel_id}/typing", self._h_typing)
        r("PATCH", "/channels/{channel_id}", self._h_channel_edit)
        r("POST", "/channels/{channel_id}/threads", self._h_thread_create)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._h_thread_from_message)
        r("PUT", "/channels/{channel_id}/thread-members/@me", self._h_thread_join)
        r("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._h_thread_add)
        r("GET", "/channels/{channel_id}/thread-members", self._h_thread_members)
        r("GET", "/guilds/{guild_id}/threads/active", self._h_active_threads)
        r("GET", "/channels/{channel_id}/pins", self._h_empty_list)
        r("GET", "/channels/{channel_id}/messages/pins", self._h_pins)
        r("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._h_no_content)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._h_no_content)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions", self._h_no_content)
        r("POST", "/interactions/{interaction_id}/{token}/callback", self._h_callback, auth=False)
        r("POST", "/webhooks/{app_id}/{token}", self._h_followup, auth=False)
        r("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._h_wh_get, auth=False)
        r("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._h_wh_edit, auth=False)
        r("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._h_wh_delete, auth=False)

    async def _h_me(self, request: web.Request) -> web.Response:
        return json_response(self._bot_user_payload())

    async def _h_me_any(self, request: web.Request) -> web.Response:
        """``GET /users/@me``: the bot's user with the bot token; with ``Bearer <token>``, the user who
        granted it (the ``identify`` scope); 401 otherwise."""
        auth = request.headers.get("Authorization") or ""
        if not auth.startswith("Bearer "):
            return json_response(self._bot_user_payload())  # the dispatcher checked the bot's token
        uid = self.activities.bearer_user(auth)
        user = self._find_any_user(uid) if uid is not None else None
        if user is None:
            raise ApiError(401, 0, "401: Unauthorized")
        # resources/user.mdx: with the identify scope the user object also says mfa_enabled and locale
        return json_response({**user.user_payload(), "mfa_enabled": False, "locale": user.locale})

    async def _h_oauth_token(self, request: web.Request) -> web.Response:
        body = await request.read()
        try:
            answer = self.activities.exchange(body, request.headers.get("Content-Type", ""),
                                              request.headers.get("Authorization"))
        except OAuthError as exc:
            self.errors.append({"method": request.method, "path": request.path, "status": exc.status,
                                "code": 0, "message": exc.error, "errors": None})
            return json_response(exc.body(), status=exc.status)
        return json_response(answer)

    async def _h_activity_instance(self, request: web.Request, app_id: str, instance_id: str) -> web.Response:
        self._app(app_id)
        inst = self.activities.instances.get(instance_id)
        if inst is None:
            raise ApiError(404, 0, "404: Not Found")
        return json_response(inst.payload(self.app_id))

    async def _h_user(self, request: web.Request, user_id: str) -> web.Response:
        u = self._find_any_user(_int(user_id, 10013, "Unknown User"))
        if u is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(u.user_payload())

    async def _h_appinfo(self, request: web.Request) -> web.Response:
        return json_response(self._application_payload())

    async def _h_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def _h_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response({
            "url": self.gateway_url, "shards": max(self.recommended_shards, self.required_shards, 1),
            "session_start_limit": {"total": 1000, "remaining": max(0, 1000 - self.identify_count),
                                    "reset_after": 14400000, "max_concurrency": self.max_concurrency},
        })

    async def _h_no_content(self, request: web.Request, **_: str) -> web.Response:
        return web.Response(status=204)

    async def _h_empty_list(self, request: web.Request, **_: str) -> web.Response:
        return json_response([])

    async def _h_pins(self, request: web.Request, **_: str) -> web.Response:
        return json_response({"items": [], "has_more": False})

    # -- application emojis (resources/emoji.mdx: List / Get / Create / Modify / Delete Application Emoji)

    def _app(self, app_id: str) -> None:
        if _int(app_id, 10002, "Unknown Application") != self.app_id:
            raise ApiError(404, 10002, "Unknown Application")

    def _app_emoji(self, app_id: str, emoji_id: str) -> m.FakeEmoji:
        self._app(app_id)
        e = self.app_emojis.get(_int(emoji_id, 10014, "Unknown Emoji"))
        if e is None:
            raise ApiError(404, 10014, "Unknown Emoji")
        return e

    def _check_emoji_name(self, name: Any, errors: Errors, *, exclude: int | None = None) -> None:
        """2 to 32 characters, letters, digits and underscores, unique among the application's emojis.
        (The docs state no name rule for emojis; these are the client's and the API's, and the codes are
        the ones Discord answers.)"""
        if not isinstance(name, str) or not 2 <= len(name) <= v.EMOJI_NAME_MAX:
            errors.bad_length("name", v.EMOJI_NAME_MIN, v.EMOJI_NAME_MAX)
        elif not re.fullmatch(r"[A-Za-z0-9_]+", name):
            errors.add("name", "STRING_TYPE_REGEX", "String value did not match validation regex.")
        elif any(e.name == name and e.id != exclude for e in self.app_emojis.values()):
            errors.add("name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken")

    async def _h_app_emojis(self, request: web.Request, app_id: str) -> web.Response:
        self._app(app_id)
        return json_response({"items": [e.payload() for e in self.app_emojis.values()]})

    async def _h_app_emoji_get(self, request: web.Request, app_id: str, emoji_id: str) -> web.Response:
        return json_response(self._app_emoji(app_id, emoji_id).payload())

    async def _h_app_emoji_create(self, request: web.Request, app_id: str) -> web.Response:
        self._app(app_id)
        payload, _ = await self._read_body(request)
        errors = Errors()
        name = payload.get("name")
        self._check_emoji_name(name, errors)
        image = payload.get("image")
        parsed = m.parse_data_uri(image) if isinstance(image, str) else None
        if parsed is None or parsed[0] not in v.EMOJI_IMAGE_TYPES:
            # reference.mdx, "Image Data": a data URI of JPG, GIF or PNG (emoji.mdx adds WebP and AVIF)
            errors.add("image", "IMAGE_INVALID", "Invalid image data")
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors.tree)
        assert parsed is not None
        if len(parsed[1]) > v.EMOJI_IMAGE_MAX:
            # emoji.mdx: "maximum file size of 256 KiB ... 400 Bad Request and an error message, but not a
            # JSON status code"
            raise ApiError(400, 0, f"Asset exceeds maximum size: {v.EMOJI_IMAGE_MAX}", validation=True)
        if len(self.app_emojis) >= v.APP_EMOJIS_MAX:
            raise ApiError(400, 30008, "Maximum number of emojis reached (2000)")
        e = m.FakeEmoji(id=self._snowflake(), name=name, data=parsed[1], content_type=parsed[0],
                        user=self.bot_user.user_payload())
        self.app_emojis[e.id] = e
        self._emit("emoji_create", e)
        self._schedule_save()
        return json_response(e.payload(), status=201)

    async def _h_app_emoji_edit(self, request: web.Request, app_id: str, emoji_id: str) -> web.Response:
        e = self._app_emoji(app_id, emoji_id)
        payload, _ = await self._read_body(request)
        if "name" in payload:
            errors = Errors()
            self._check_emoji_name(payload["name"], errors, exclude=e.id)
            if errors:
                raise ApiError(400, 50035, "Invalid Form Body", errors.tree)
            e.name = payload["name"]
        self._schedule_save()
        return json_response(e.payload())

    async def _h_app_emoji_delete(self, request: web.Request, app_id: str, emoji_id: str) -> web.Response:
        e = self._app_emoji(app_id, emoji_id)
        del self.app_emojis[e.id]
        self._schedule_save()
        return web.Response(status=204)

    def _serve_emoji(self, path: str) -> web.StreamResponse:
        """The CDN's /emojis/{id}.{png,gif,webp}: the image as uploaded."""
        mm = re.match(r"^/emojis/(\d+)(?:\.\w+)?$", path)
        e = self.app_emojis.get(int(mm.group(1))) if mm else None
        if e is None:
            return web.Response(status=404)
        return web.Response(body=e.data, content_type=e.content_type,
                            headers={"Cache-Control": "max-age=86400"})

    # -- commands

    def _check_app(self, app_id: str, guild_id: str | None) -> int | None:
        if _int(app_id, 10002, "Unknown Application") != self.app_id:
            raise ApiError(403, 50001, "Missing Access")
        if guild_id is None:
            return None
        gid = _int(guild_id, 10004, "Unknown Guild")
        if gid not in self.guilds:
            raise ApiError(403, 50001, "Missing Access")
        return gid

    def commands_in(self, guild_id: int | None) -> list[RegisteredCommand]:
        return [c for c in self.commands.values() if c.guild_id == guild_id]

    def _validate_command(self, p: dict[str, Any]) -> None:
        errors = Errors()
        v.validate_command(p, errors)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors.tree)

    def _upsert_command(self, p: dict[str, Any], gid: int | None) -> RegisteredCommand:
        self._validate_command(p)
        ctype = int(p.get("type", 1))
        for cmd in self.commands.values():
            if cmd.guild_id == gid and cmd.name == p["name"] and cmd.type == ctype:
                if cmd.payload != p:
                    cmd.payload = p
                    cmd.version += 1
                return cmd
        cmd = RegisteredCommand(id=self._snowflake(), payload=p, guild_id=gid)
        self.commands[cmd.id] = cmd
        return cmd

    async def _h_cmd_list(self, request: web.Request, app_id: str, guild_id: str | None = None) -> web.Response:
        gid = self._check_app(app_id, guild_id)
        return json_response([c.response(self.app_id) for c in self.commands_in(gid)])

    async def _h_cmd_bulk(self, request: web.Request, app_id: str, guild_id: str | None = None) -> web.Response:
        gid = self._check_app(app_id, guild_id)
        body, _ = await self._read_body(request)
        payloads = body.get("_list", [])
        errors = Errors()
        v.validate_command_list(payloads, errors)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors.tree)
        keep = [self._upsert_command(p, gid) for p in payloads]
        keep_ids = {c.id for c in keep}
        for cid in [c.id for c in self.commands_in(gid) if c.id not in keep_ids]:
            del self.commands[cid]
        self.sync_count += 1
        self._emit("commands_sync", gid)
        return json_response([c.response(self.app_id) for c in keep])

    async def _h_cmd_create(self, request: web.Request, app_id: str, guild_id: str | None = None) -> web.Response:
        gid = self._check_app(app_id, guild_id)
        body, _ = await self._read_body(request)
        ctype = int(body.get("type", 1) or 1)
        scope = [c for c in self.commands_in(gid) if c.type == ctype]
        if len(scope) >= v.COMMANDS_MAX.get(ctype, 100) and not any(c.name == body.get("name") for c in scope):
            raise ApiError(400, 30032, "Maximum number of application commands reached")
        cmd = self._upsert_command(body, gid)
        self.sync_count += 1
        self._emit("commands_sync", gid)
        return json_response(cmd.response(self.app_id), status=201)

    def _cmd(self, command_id: str, gid: int | None) -> RegisteredCommand:
        cmd = self.commands.get(_int(command_id, 10063, "Unknown application command"))
        if cmd is None or cmd.guild_id != gid:
            raise ApiError(404, 10063, "Unknown application command")
        return cmd

    async def _h_cmd_get(self, request: web.Request, app_id: str, command_id: str, guild_id: str | None = None):
        gid = self._check_app(app_id, guild_id)
        return json_response(self._cmd(command_id, gid).response(self.app_id))

    async def _h_cmd_edit(self, request: web.Request, app_id: str, command_id: str, guild_id: str | None = None):
        gid = self._check_app(app_id, guild_id)
        cmd = self._cmd(command_id, gid)
        body, _ = await self._read_body(request)
        new = dict(cmd.payload)
        new.update(body)
        self._validate_command(new)
        cmd.payload = new
        cmd.version += 1
        self._emit("commands_sync", gid)
        return json_response(cmd.response(self.app_id))

    async def _h_cmd_delete(self, request: web.Request, app_id: str, command_id: str, guild_id: str | None = None):
        gid = self._check_app(app_id, guild_id)
        cmd = self._cmd(command_id, gid)
        del self.commands[cmd.id]
        self._emit("commands_sync", gid)
        return web.Response(status=204)

    # -- guild, users, channels

    def _check_guild(self, guild_id: str) -> FakeGuild:
        g = self.guilds.get(_int(guild_id, 10004, "Unknown Guild"))
        if g is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return g

    async def _h_guild(self, request: web.Request, guild_id: str) -> web.Response:
        g = self._check_guild(guild_id)
        out = self._guild_payload(g, full=False)
        if request.query.get("with_counts") in ("true", "1", "True"):
            out["approximate_member_count"] = len(self._all_members(g))
            out["approximate_presence_count"] = len(self._all_members(g))
        return json_response(out)

    async def _h_guild_channels(self, request: web.Request, guild_id: str) -> web.Response:
        g = self._check_guild(guild_id)
        return json_response([self._channel_payload(c) for c in self.channels.values()
                              if c.guild_id == g.id and not c.is_thread])

    async def _h_guild_roles(self, request: web.Request, guild_id: str) -> web.Response:
        g = self._check_guild(guild_id)
        return json_response([self._role_payload(r) for r in g.roles.values()])

    async def _h_guild_members(self, request: web.Request, guild_id: str) -> web.Response:
        g = self._check_guild(guild_id)
        after = int(request.query.get("after", 0) or 0)
        limit = int(request.query.get("limit", 1) or 1)
        members = sorted((u for u in self._all_members(g) if u.id > after), key=lambda u: u.id)[:limit]
        return json_response([self._member_payload(u, g) for u in members])

    async def _h_guild_member(self, request: web.Request, guild_id: str, user_id: str) -> web.Response:
        g = self._check_guild(guild_id)
        u = self._find_any_user(_int(user_id, 10007, "Unknown Member"))
        if u is None or not self.is_member(u, g):
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(self._member_payload(u, g))

    async def _h_create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        uid = _int(str(body.get("recipient_id", "")), 10013, "Unknown User")
        u = self.users.get(uid)
        if u is None:
            raise ApiError(400, 50007, "Cannot send messages to this user")
        ch = self.dm_channel(u)
        return json_response(self._channel_payload(ch))

    def _require(self, ch: FakeChannel, need: int = 0) -> int:
        """The bot's permissions in `ch`; 403 50001 without View Channel, 403 50013 without `need`."""
        perms = self.channel_permissions(self.bot_user, ch)
        if not perms & m.P_VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if perms & need != need:
            raise ApiError(403, 50013, "Missing Permissions")
        return perms

    def _check_thread_writable(self, ch: FakeChannel, perms: int, *, unarchive: bool) -> None:
        """Threads.md: without Manage Threads nothing can be posted or edited in a locked thread; posting
        in an archived (unlocked) thread unarchives it; other writes in an archived thread get 50083."""
        if not ch.is_thread:
            return
        if ch.locked and not perms & m.P_MANAGE_THREADS:
            raise ApiError(403, 160005, "Thread is locked")
        if ch.archived:
            if not unarchive:
                raise ApiError(400, 50083, "Thread is archived")
            self.set_thread_state(ch, archived=False)

    async def _h_channel(self, request: web.Request, channel_id: str) -> web.Response:
        ch = self._get_channel(channel_id)
        self._require(ch)
        return json_response(self._channel_payload(ch))

    async def _h_history(self, request: web.Request, channel_id: str) -> web.Response:
        ch = self._get_channel(channel_id)
        perms = self._require(ch)
        if not perms & m.P_READ_MESSAGE_HISTORY:
            return json_response([])  # Discord answers an empty history without Read Message History
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        msgs = sorted((msg for msg in self.message_by_id.values()
                       if msg.channel_id == ch.id and not msg.deleted and not msg.ephemeral), key=lambda x: x.id)
        if "before" in q:
            b = int(q["before"])
            msgs = [x for x in msgs if x.id < b][-limit:]
        elif "after" in q:
            a = int(q["after"])
            msgs = [x for x in msgs if x.id > a][:limit]
        elif "around" in q:
            a = int(q["around"])
            before = [x for x in msgs if x.id < a][-(limit // 2):] if limit > 1 else []
            rest = [x for x in msgs if x.id >= a][: limit - len(before)]
            msgs = before + rest
        else:
            msgs = msgs[-limit:]
        return json_response([x.payload() for x in reversed(msgs)])

    async def _h_msg_get(self, request: web.Request, channel_id: str, message_id: str) -> web.Response:
        ch = self._get_channel(channel_id)
        self._require(ch, m.P_READ_MESSAGE_HISTORY)
        msg = self._get_message(ch.id, _int(message_id, 10008, "Unknown Message"))
        return json_response(msg.payload())

    async def _h_msg_create(self, request: web.Request, channel_id: str) -> web.Response:
        ch = self._get_channel(channel_id)
        payload, files = await self._read_body(request)
        visible_to = None
        if ch.is_dm:
            u = self.users.get(ch.recipient_id or 0)
            if u is None or not u.dms_open:
                raise ApiError(403, 50007, "Cannot send messages to this user")
            visible_to = u.id
        else:
            need = m.P_SEND_MESSAGES_IN_THREADS if ch.is_thread else m.P_SEND_MESSAGES
            if files or any(isinstance(a, dict) for a in payload.get("attachments") or []):
                need |= m.P_ATTACH_FILES
            if payload.get("embeds"):
                need |= m.P_EMBED_LINKS
            if (payload.get("message_reference") or {}).get("message_id"):
                need |= m.P_READ_MESSAGE_HISTORY
            perms = self._require(ch, need)
            self._check_thread_writable(ch, perms, unarchive=True)
        fields = self._build_fields(payload, files, existing=None, channel_id=ch.id)
        fields["flags"] &= ~m.F_EPHEMERAL  # only interaction responses can be ephemeral
        ref = payload.get("message_reference")
        msg_type = 0
        if ref and ref.get("message_id"):
            target = self.message_by_id.get(int(ref["message_id"]))
            if target is None or target.deleted:
                if ref.get("fail_if_not_exists", True):
                    raise ApiError(400, 50035, "Invalid Form Body", {"message_reference": "Unknown message"})
                ref = None
            else:
                ref = {"type": 0, "message_id": str(target.id), "channel_id": str(target.channel_id),
                       **({"guild_id": str(target.guild_id)} if target.guild_id else {})}
                msg_type = 19
        msg = self._new_message(ch, fields, visible_to=visible_to, kind="dm" if ch.is_dm else "channel",
                                msg_type=msg_type, message_reference=ref or None)
        return json_response(msg.payload())

    async def _h_msg_edit(self, request: web.Request, channel_id: str, message_id: str) -> web.Response:
        ch = self._get_channel(channel_id)
        payload, files = await self._read_body(request)
        if not ch.is_dm:
            perms = self._require(ch, m.P_ATTACH_FILES if files else 0)
            self._check_thread_writable(ch, perms, unarchive=False)
        msg = self._get_message(ch.id, _int(message_id, 10008, "Unknown Message"))
        if msg.author.get("id") != str(self.bot_user.id):
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        now = self.clock.now()
        rl = self.rate_limit
        if rl.enabled and now - msg.clock_created > rl.old_message_age:
            old = self._bucket(f"oldedit:{ch.id}", rl.old_edit_limit, rl.old_edit_per)
            if not old.try_hit(now):
                return self._too_many(request, old, scope="user", now=now, code=30046,
                                      message="Maximum number of edits to messages older than 1 hour reached. "
                                              "Try again later")
        fields = self._build_fields(payload, files, existing=msg, channel_id=ch.id)
        self._edit_message(msg, fields)
        return json_response(msg.payload())

    async def _h_msg_delete(self, request: web.Request, channel_id: str, message_id: str) -> web.Response:
        ch = self._get_channel(channel_id)
        msg = self._get_message(ch.id, _int(message_id, 10008, "Unknown Message"))
        if not ch.is_dm:
            perms = self._require(ch, 0 if msg.author.get("id") == str(self.bot_user.id) else m.P_MANAGE_MESSAGES)
            self._check_thread_writable(ch, perms, unarchive=False)
        self._delete_message(msg)
        return web.Response(status=204)

    async def _h_bulk_delete(self, request: web.Request, channel_id: str) -> web.Response:
        ch = self._get_channel(channel_id)
        self._require(ch, m.P_MANAGE_MESSAGES)
        body, _ = await self._read_body(request)
        for mid in body.get("messages", []):
            msg = self.message_by_id.get(int(mid))
            if msg and msg.channel_id == ch.id and not msg.deleted:
                self._delete_message(msg)
        return web.Response(status=204)

    async def _h_typing(self, request: web.Request, channel_id: str) -> web.Response:
        ch = self._get_channel(channel_id)
        if not ch.is_dm:
            self._require(ch, m.P_SEND_MESSAGES_IN_THREADS if ch.is_thread else m.P_SEND_MESSAGES)
        return web.Response(status=204)

    # -- threads

    def create_thread(self, parent: FakeChannel | str | int, name: str, *, private: bool = False,
                      by: FakeUser | None = None, message: FakeMessage | None = None,
                      members: list[FakeUser] | None = None) -> FakeChannel:
        """Create a thread (THREAD_CREATE): public (type 11) or private (12), optionally from a message
        (the thread then has the message's id, as on Discord). `by` is the creator (the bot by default);
        the creator and `members` are its members."""
        p = self.channel(parent)
        if p.is_thread or p.is_dm:
            raise ValueError("threads are created in guild text channels")
        creator = by or self.bot_user
        tid = message.id if message is not None else self._snowflake()
        t = FakeChannel(id=tid, name=name[:100], type=m.CH_PRIVATE_THREAD if private else m.CH_PUBLIC_THREAD,
                        guild_id=p.guild_id, parent_id=p.id, owner_id=creator.id, archive_timestamp=m.iso_now(),
                        member_ids=[creator.id, *(u.id for u in members or [])])
        self.channels[t.id] = t
        if message is not None:
            message.flags |= 1 << 5  # HAS_THREAD
        if self._started and self.channel_permissions(self.bot_user, t):
            d = self._channel_payload(t)
            d["newly_created"] = True
            self._spawn(self.dispatch_event("THREAD_CREATE", d))
        self._emit("channel_create", t)
        return t

    def set_thread_state(self, thread: FakeChannel | str | int, *, archived: bool | None = None,
                         locked: bool | None = None) -> FakeChannel:
        """Archive / unarchive / lock / unlock a thread (THREAD_UPDATE)."""
        t = self.channel(thread)
        if not t.is_thread:
            raise ValueError(f"{t!r} is not a thread")
        if archived is not None and archived != t.archived:
            t.archived = archived
            t.archive_timestamp = m.iso_now()
        if locked is not None:
            t.locked = locked
        self._channel_changed(t)
        return t

    def archive_thread(self, thread: FakeChannel | str | int) -> FakeChannel:
        return self.set_thread_state(thread, archived=True)

    def unarchive_thread(self, thread: FakeChannel | str | int) -> FakeChannel:
        return self.set_thread_state(thread, archived=False)

    def lock_thread(self, thread: FakeChannel | str | int, locked: bool = True) -> FakeChannel:
        return self.set_thread_state(thread, locked=locked)

    def add_thread_member(self, thread: FakeChannel | str | int, user: FakeUser) -> None:
        t = self.channel(thread)
        if user.id not in t.member_ids:
            t.member_ids.append(user.id)
            if user.id == self.bot_user.id and self._started:
                d = self._channel_payload(t)
                self._spawn(self.dispatch_event("THREAD_CREATE", d))
            self._channel_changed(t)

    async def _h_thread_create(self, request: web.Request, channel_id: str) -> web.Response:
        parent = self._get_channel(channel_id)
        body, _ = await self._read_body(request)
        if parent.is_dm or parent.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        ttype = int(body.get("type") or m.CH_PRIVATE_THREAD)
        if ttype not in (m.CH_PUBLIC_THREAD, m.CH_PRIVATE_THREAD):
            raise ApiError(400, 50035, "Invalid Form Body", {"type": {"_errors": [
                {"code": "BASE_TYPE_CHOICES", "message": "Value must be one of {11, 12}."}]}})
        self._check_thread_name(body)
        self._check_archive_duration(body)
        self._require(parent, m.P_CREATE_PRIVATE_THREADS if ttype == m.CH_PRIVATE_THREAD
                      else m.P_CREATE_PUBLIC_THREADS)
        t = self.create_thread(parent, body["name"], private=ttype == m.CH_PRIVATE_THREAD)
        t.auto_archive_duration = int(body.get("auto_archive_duration") or 1440)
        t.invitable = bool(body.get("invitable", True))
        return json_response(self._channel_payload(t), status=201)

    async def _h_thread_from_message(self, request: web.Request, channel_id: str, message_id: str) -> web.Response:
        parent = self._get_channel(channel_id)
        body, _ = await self._read_body(request)
        if parent.is_dm or parent.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        self._check_thread_name(body)
        self._check_archive_duration(body)
        self._require(parent, m.P_CREATE_PUBLIC_THREADS | m.P_READ_MESSAGE_HISTORY)
        msg = self._get_message(parent.id, _int(message_id, 10008, "Unknown Message"))
        if msg.id in self.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        t = self.create_thread(parent, body["name"], message=msg)
        t.auto_archive_duration = int(body.get("auto_archive_duration") or 1440)
        return json_response(self._channel_payload(t), status=201)

    @staticmethod
    def _check_archive_duration(body: dict[str, Any]) -> None:
        """Channel.md: auto_archive_duration (minutes) can be set to 60, 1440, 4320 or 10080."""
        if "auto_archive_duration" in body and body["auto_archive_duration"] not in (60, 1440, 4320, 10080):
            raise ApiError(400, 50035, "Invalid Form Body", {"auto_archive_duration": {"_errors": [
                {"code": "BASE_TYPE_CHOICES", "message": "Value must be one of {60, 1440, 4320, 10080}."}]}})

    @staticmethod
    def _check_thread_name(body: dict[str, Any]) -> None:
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise ApiError(400, 50035, "Invalid Form Body", {"name": {"_errors": [
                {"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 100 in length."}]}})

    async def _h_channel_edit(self, request: web.Request, channel_id: str) -> web.Response:
        ch = self._get_channel(channel_id)
        body, _ = await self._read_body(request)
        perms = self._require(ch)
        if not ch.is_thread:
            self._require(ch, m.P_MANAGE_CHANNELS)
            if "name" in body:
                ch.name = str(body["name"])
            if "topic" in body:
                ch.topic = body["topic"]
            self._channel_changed(ch)
            return json_response(self._channel_payload(ch))
        manage = bool(perms & m.P_MANAGE_THREADS)
        creator = ch.owner_id == self.bot_user.id
        self._check_archive_duration(body)
        # Channel.md (Modify Channel, thread): the thread must be unarchived or unarchived by this request
        if ch.archived and body.get("archived", True) is not False:
            raise ApiError(400, 50083, "Thread is archived")
        # Threads.md: changing name, archived or auto_archive_duration needs Manage Threads or being its creator
        if body.get("archived") and not ch.archived and not (manage or creator):
            raise ApiError(403, 50013, "Missing Permissions")
        if "locked" in body and bool(body["locked"]) != ch.locked and not manage:
            raise ApiError(403, 50013, "Missing Permissions")
        if ("name" in body or "auto_archive_duration" in body) and not (manage or creator):
            raise ApiError(403, 50013, "Missing Permissions")
        if "archived" in body and not body["archived"] and ch.locked and not manage:
            raise ApiError(403, 160005, "Thread is locked")
        if "name" in body:
            ch.name = str(body["name"])[:100]
        if "auto_archive_duration" in body:
            ch.auto_archive_duration = int(body["auto_archive_duration"])
        self.set_thread_state(ch, archived=body.get("archived"), locked=body.get("locked"))
        return json_response(self._channel_payload(ch))

    async def _h_thread_join(self, request: web.Request, channel_id: str) -> web.Response:
        ch = self._get_channel(channel_id)
        if not ch.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        self._require(ch)
        if ch.archived:
            raise ApiError(400, 50083, "Thread is archived")
        self.add_thread_member(ch, self.bot_user)
        return web.Response(status=204)

    async def _h_thread_add(self, request: web.Request, channel_id: str, user_id: str) -> web.Response:
        """Add Thread Member (resources/channel.mdx): the bot adds a member of the server to a thread it
        can send messages in, not archived; 204."""
        ch = self._get_channel(channel_id)
        if not ch.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        self._require(ch, m.P_SEND_MESSAGES_IN_THREADS)
        if ch.archived:
            raise ApiError(400, 50083, "Thread is archived")
        user = self.users.get(_int(user_id, 10013, "Unknown User"))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        self.add_thread_member(ch, user)
        return web.Response(status=204)

    async def _h_thread_members(self, request: web.Request, channel_id: str) -> web.Response:
        ch = self._get_channel(channel_id)
        self._require(ch)
        return json_response([{"id": str(ch.id), "user_id": str(uid), "join_timestamp": m.iso_now(), "flags": 0}
                              for uid in ch.member_ids])

    async def _h_active_threads(self, request: web.Request, guild_id: str) -> web.Response:
        g = self._check_guild(guild_id)
        threads = [c for c in self.channels.values() if c.guild_id == g.id and c.is_thread and not c.archived
                   and self.channel_permissions(self.bot_user, c)]
        return json_response({"threads": [self._channel_payload(t) for t in threads], "members": []})

    def _delete_message(self, msg: FakeMessage) -> None:
        msg.deleted = True
        self._emit("message_delete", msg)

    # -- interactions

    def _interaction_by_token(self, token: str, app_id: str | None = None) -> InteractionRecord:
        rec = self._by_token.get(token)
        if rec is None or (app_id is not None and _int(app_id, 10015, "Unknown Webhook") != self.app_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        if self.clock.now() - rec.sent_clock > INTERACTION_TOKEN_TTL:
            raise ApiError(404, 10015, "Unknown Webhook")  # an interaction token lives 15 minutes
        return rec

    async def _h_callback(self, request: web.Request, interaction_id: str, token: str) -> web.Response:
        arrived = time.perf_counter()
        rec = self.interactions.get(_int(interaction_id, 10062, "Unknown interaction"))
        if rec is None or rec.token != token:
            raise ApiError(404, 10062, "Unknown interaction")
        payload, files = await self._read_body(request)
        if rec.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if arrived - rec.sent_at > rec.deadline:
            rec.late = True
            rec.late_at = arrived
            rec.touch()
            if self.enforce_deadline:
                self._emit("interaction_expired", rec)
                raise ApiError(404, 10062, "Unknown interaction")
        ctype = payload.get("type")
        data = payload.get("data") or {}
        allowed = {
            m.IT_PING: {m.CB_PONG},
            m.IT_APPLICATION_COMMAND: {m.CB_CHANNEL_MESSAGE, m.CB_DEFERRED_CHANNEL_MESSAGE, m.CB_MODAL,
                                       m.CB_LAUNCH_ACTIVITY},
            m.IT_MESSAGE_COMPONENT: {m.CB_CHANNEL_MESSAGE, m.CB_DEFERRED_CHANNEL_MESSAGE, m.CB_DEFERRED_UPDATE_MESSAGE,
                                     m.CB_UPDATE_MESSAGE, m.CB_MODAL, m.CB_LAUNCH_ACTIVITY},
            m.IT_AUTOCOMPLETE: {m.CB_AUTOCOMPLETE_RESULT},
            m.IT_MODAL_SUBMIT: {m.CB_CHANNEL_MESSAGE, m.CB_DEFERRED_CHANNEL_MESSAGE, m.CB_LAUNCH_ACTIVITY}
            | ({m.CB_DEFERRED_UPDATE_MESSAGE, m.CB_UPDATE_MESSAGE} if rec.component_message_id else set()),
        }[rec.type]
        if ctype not in allowed:
            raise ApiError(400, 50035, "Invalid Form Body", {"type": f"Interaction callback type {ctype} is not valid "
                                                                      f"for interaction type {rec.type}"})
        message: FakeMessage | None = None
        fields = None
        if ctype in (m.CB_CHANNEL_MESSAGE, m.CB_UPDATE_MESSAGE):
            existing = self.message_by_id.get(rec.component_message_id or 0) if ctype == m.CB_UPDATE_MESSAGE else None
            fields = self._build_fields(data, files, existing=existing, channel_id=rec.channel.id)
        elif ctype == m.CB_AUTOCOMPLETE_RESULT:
            errors = Errors()
            v.validate_choices(data.get("choices") or [], errors)
            if errors:
                raise ApiError(400, 50035, "Invalid Form Body", errors.tree)
        elif ctype == m.CB_MODAL:
            errors = Errors()
            v.validate_modal(data, errors, emoji_ids=set(self.app_emojis))
            if errors:
                raise ApiError(400, 50035, "Invalid Form Body", errors.tree)
        elif ctype == m.CB_LAUNCH_ACTIVITY and not self.activities.enabled:
            # receiving-and-responding.mdx: LAUNCH_ACTIVITY is "only available for apps with Activities enabled"
            raise ApiError(400, 50035, "Invalid Form Body",
                           {"type": "LAUNCH_ACTIVITY needs Activities enabled for the application"})
        elif ctype == m.CB_DEFERRED_CHANNEL_MESSAGE and int(data.get("flags") or 0) & ~m.F_EPHEMERAL:
            # receiving-and-responding.mdx: with DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE "the only valid message
            # flag you may use is EPHEMERAL"; IS_COMPONENTS_V2 goes with the edit of the original response
            errors = Errors()
            errors.add("data.flags", "INTERACTION_DEFERRED_FLAGS_INVALID",
                       "Only EPHEMERAL can be set on a deferred response; set IS_COMPONENTS_V2 when editing it")
            raise ApiError(400, 50035, "Invalid Form Body", errors.tree)

        # accepted
        rec.callback_at = arrived
        rec.callback_type = ctype
        rec.callback_data = data
        rec.touch()
        visible_to = rec.user.id
        if ctype == m.CB_CHANNEL_MESSAGE:
            assert fields is not None
            ephemeral = bool(fields["flags"] & m.F_EPHEMERAL)
            rec.callback_files = list(fields.get("attachments", []))
            message = self._new_message(
                rec.channel, fields, visible_to=visible_to if ephemeral or rec.channel.is_dm else None, rec=rec,
                kind="response", msg_type=20 if rec.type == m.IT_APPLICATION_COMMAND else 0)
            rec.original_message_id = message.id
        elif ctype == m.CB_DEFERRED_CHANNEL_MESSAGE:
            flags = m.F_LOADING | (int(data.get("flags") or 0) & m.F_EPHEMERAL)
            ephemeral = bool(flags & m.F_EPHEMERAL)
            message = self._new_message(
                rec.channel, {"content": "", "flags": flags},
                visible_to=visible_to if ephemeral or rec.channel.is_dm else None, rec=rec, kind="response",
                msg_type=20 if rec.type == m.IT_APPLICATION_COMMAND else 0)
            rec.original_message_id = message.id
            rec.deferred_pending = True
        elif ctype == m.CB_DEFERRED_UPDATE_MESSAGE:
            rec.original_message_id = rec.component_message_id
            rec.update_pending = True
        elif ctype == m.CB_UPDATE_MESSAGE:
            target = self.message_by_id.get(rec.component_message_id or 0)
            if target is None or target.deleted:
                raise ApiError(404, 10008, "Unknown Message")
            assert fields is not None
            message = self._edit_message(target, fields, rec)
            rec.original_message_id = target.id
        elif ctype == m.CB_AUTOCOMPLETE_RESULT:
            rec.choices = list(data.get("choices") or [])
            self.autocomplete_log.append({"interaction_id": rec.id, "user_id": rec.user.id, "visible_to": rec.user.id,
                                          "choices": rec.choices, "data": rec.payload.get("data")})
            self._emit("autocomplete", rec)
        elif ctype == m.CB_LAUNCH_ACTIVITY:
            guild_id = None if rec.channel.is_dm else rec.channel.guild_id
            rec.activity_instance_id = self.activities.launch(rec.user.id, rec.channel.id, guild_id).instance_id
            self._emit("activity_launch", rec)
        elif ctype == m.CB_MODAL:
            # as for messages, Discord numbers the modal's components (their ids come back on submit)
            rec.modal = dict(data, components=m.resolve_components(data.get("components") or [], [], v2=True))
            self._emit("modal", rec)
        self._emit("callback", rec)

        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        inter: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        out: dict[str, Any] = {"interaction": inter}
        if message is not None:
            inter["response_message_id"] = str(message.id)
            inter["response_message_loading"] = ctype == m.CB_DEFERRED_CHANNEL_MESSAGE
            inter["response_message_ephemeral"] = message.ephemeral
            out["resource"] = {"type": ctype, "message": message.payload()}
        elif ctype == m.CB_LAUNCH_ACTIVITY:
            inter["activity_instance_id"] = rec.activity_instance_id
            out["resource"] = {"type": ctype, "activity_instance": {"id": rec.activity_instance_id}}
        elif ctype != m.CB_MODAL:
            out["resource"] = {"type": ctype}
        return json_response(out)

    def _resolve_webhook_message(self, rec: InteractionRecord, message_id: str) -> FakeMessage:
        if message_id == "@original":
            mid = rec.original_message_id
        else:
            mid = _int(message_id, 10008, "Unknown Message")
            msg = self.message_by_id.get(mid)
            if msg is None or (msg.interaction_id != rec.id and mid != rec.original_message_id):
                raise ApiError(404, 10008, "Unknown Message")
        msg = self.message_by_id.get(mid or 0)
        if msg is None or msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def _h_followup(self, request: web.Request, app_id: str, token: str) -> web.Response:
        rec = self._interaction_by_token(token, app_id)
        if rec.callback_type is None or (rec.late and self.enforce_deadline):
            raise ApiError(404, 10015, "Unknown Webhook")
        payload, files = await self._read_body(request)
        wait = request.query.get("wait") in ("1", "true", "True")
        rec.update_pending = False
        if rec.deferred_pending and rec.original_message_id in self.message_by_id:
            # the first follow-up after a "thinking" defer replaces the loading message
            msg = self.message_by_id[rec.original_message_id]
            fields = self._build_fields(payload, files, existing=msg, channel_id=rec.channel.id)
            fields["flags"] = fields["flags"] & ~m.F_LOADING  # keeps ephemeral; IS_COMPONENTS_V2 may be set now
            rec.deferred_pending = False
            self._edit_message(msg, fields, rec)
        else:
            fields = self._build_fields(payload, files, existing=None, channel_id=rec.channel.id)
            ephemeral = bool(fields["flags"] & m.F_EPHEMERAL)
            msg = self._new_message(rec.channel, fields,
                                    visible_to=rec.user.id if ephemeral or rec.channel.is_dm else None,
                                    rec=rec, kind="followup")
        if not wait:
            return web.Response(status=204)
        return json_response(msg.payload())

    async def _h_wh_get(self, request: web.Request, app_id: str, token: str, message_id: str) -> web.Response:
        rec = self._interaction_by_token(token, app_id)
        return json_response(self._resolve_webhook_message(rec, message_id).payload())

    async def _h_wh_edit(self, request: web.Request, app_id: str, token: str, message_id: str) -> web.Response:
        rec = self._interaction_by_token(token, app_id)
        msg = self._resolve_webhook_message(rec, message_id)
        payload, files = await self._read_body(request)
        fields = self._build_fields(payload, files, existing=msg, channel_id=msg.channel_id)
        rec.update_pending = False
        if msg.loading:
            fields["flags"] = fields.get("flags", msg.flags) & ~m.F_LOADING
            if msg.id == rec.original_message_id:
                rec.deferred_pending = False
        self._edit_message(msg, fields, rec)
        return json_response(msg.payload())

    async def _h_wh_delete(self, request: web.Request, app_id: str, token: str, message_id: str) -> web.Response:
        rec = self._interaction_by_token(token, app_id)
        msg = self._resolve_webhook_message(rec, message_id)
        rec.touch(msg.id)
        rec.update_pending = False
        self._delete_message(msg)
        return web.Response(status=204)

    # ------------------------------------------------------------------ persistence & snapshot

    def snapshot(self) -> dict[str, Any]:
        """A JSON-safe picture of the whole fake (attachments as URLs)."""
        def msg_json(x: FakeMessage) -> dict[str, Any]:
            d = x.payload()
            d.update({"visible_to": None if x.visible_to is None else str(x.visible_to), "deleted": x.deleted,
                      "kind": x.kind, "interaction_id": str(x.interaction_id) if x.interaction_id else None})
            return d

        return {
            "guild": {"id": str(self.guild_id), "name": self.guild_name},
            "guilds": [{"id": str(g.id), "name": g.name, "locale": g.locale} for g in self.guilds.values()],
            "bot": self.bot_user.user_payload(),
            "connected": self.connected,
            "users": [dict(u.user_payload(), locale=u.locale) for u in self.users.values()],
            "channels": [self._channel_payload(c) for c in self.channels.values()],
            "dm_channels": [self._channel_payload(c) for c in self.dm_channels.values()],
            "commands": [c.response(self.app_id) for c in self.commands.values()],
            "app_emojis": [e.payload() for e in self.app_emojis.values()],
            "messages": [msg_json(x) for x in self.message_by_id.values()],
        }

    def save_state(self, path: str | Path | None = None) -> None:
        path = Path(path) if path else self.state_path
        if path is None:
            return
        data = {
            "version": 2,
            "guild_name": self.guild_name,
            "guilds": [{"name": g.name, "locale": g.locale, "owner_id": g.owner_id} for g in self.guilds.values()],
            "token": self.token,
            "owner_id": self.owner_id,
            "users": [{"id": u.id, "name": u.name, "locale": u.locale, "extra_permissions": u.extra_permissions,
                       "role_ids": u.role_ids, "dms_open": u.dms_open, "joined_at": u.joined_at,
                       "guild_ids": u.guild_ids}
                      for u in self.users.values()],
            "channels": [{"id": c.id, "name": c.name, "position": c.position, "topic": c.topic,
                          "guild_id": c.guild_id, "type": c.type, "parent_id": c.parent_id, "owner_id": c.owner_id,
                          "archived": c.archived, "locked": c.locked, "member_ids": c.member_ids}
                         for c in self.channels.values()],
            "dm_channels": [{"id": c.id, "name": c.name, "recipient_id": c.recipient_id}
                            for c in self.dm_channels.values()],
            "commands": [{"id": c.id, "payload": c.payload, "guild_id": c.guild_id, "version": c.version}
                         for c in self.commands.values()],
            "messages": [x.to_json() for x in self.message_by_id.values()],
            "app_emojis": [e.to_json() for e in self.app_emojis.values()],
        }
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(data))
        tmp.replace(path)

    def _load_state(self) -> None:
        assert self.state_path is not None
        data = json.loads(self.state_path.read_text())
        if not self._explicit_token:
            self.token = data.get("token", self.token)
        for gd in data.get("guilds", [])[1:]:
            self.add_guild(gd["name"], channels=(), locale=gd.get("locale", "fr"))
        for g, gd in zip(self.guilds.values(), data.get("guilds", []), strict=False):
            g.owner_id = gd.get("owner_id", g.owner_id)
        self.owner_id = data.get("owner_id", self.owner_id)
        self.users = {u["id"]: FakeUser(**u) for u in data.get("users", [])}
        for u in self.users.values():
            if not u.guild_ids:
                u.guild_ids = [self.guild_id]
        self.channels.clear()
        for c in data.get("channels", []):
            self.channels[c["id"]] = FakeChannel(**{"guild_id": self.guild_id, **c})
        for c in data.get("dm_channels", []):
            self.dm_channels[c["recipient_id"]] = FakeChannel(id=c["id"], name=c["name"], type=m.CH_DM,
                                                              recipient_id=c["recipient_id"])
        self.commands = {c["id"]: RegisteredCommand(**c) for c in data.get("commands", [])}
        self.message_by_id = {}
        self.channel_message_ids = {}
        for x in sorted(data.get("messages", []), key=lambda x: x["id"]):
            self.add_message(FakeMessage.from_json(x))
        self.app_emojis = {e["id"]: m.FakeEmoji.from_json(e) for e in data.get("app_emojis", [])}

    def _schedule_save(self) -> None:
        if not self.state_path:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._save_handle is None:
            def _do() -> None:
                self._save_handle = None
                try:
                    self.save_state()
                except OSError:  # pragma: no cover
                    log.exception("could not save fake Discord state")

            self._save_handle = loop.call_later(0.5, _do)


@functools.lru_cache(maxsize=1024)
def _part_names(disposition: str) -> tuple[str, str | None]:
    """A multipart part's name and file name, read from its Content-Disposition as aiohttp reads them
    (``part.name``, ``part.filename``), once per distinct header: the same few headers come with every
    upload, and aiohttp parses the header anew at each property."""
    _, params = multipart.parse_content_disposition(disposition or None)
    return (multipart.content_disposition_filename(params, "name") or "",
            multipart.content_disposition_filename(params, "filename"))


class LoggedRequest(tuple):
    """One entry of ``request_log``: the tuple (method, path, status) it always was, plus the bytes of
    the request's body as the fake received it (multipart framing and files included) and of its files."""

    def __new__(cls, method: str, path: str, status: int, body_bytes: int = 0, file_bytes: int = 0):
        entry = super().__new__(cls, (method, path, status))
        entry.body_bytes = body_bytes
        entry.file_bytes = file_bytes
        return entry

    body_bytes: int
    file_bytes: int


def json_response(data: Any, status: int = 200) -> web.Response:
    """Like Discord: Content-Type exactly "application/json" (discord.py compares it verbatim)."""
    if orjson is not None:
        try:
            body = orjson.dumps(data)
        except (TypeError, orjson.JSONEncodeError):  # a lone surrogate, an integer past 64 bits: as json does
            body = json.dumps(data).encode()
    else:
        body = json.dumps(data).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})


def _int(value: str, code: int, message: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError) as exc:
        raise ApiError(404, code, message) from exc



_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
#: a body can only hold a surrogate through a ``\uD8xx``–``\uDFxx`` escape (raw UTF-8 cannot encode
#: one): bodies without one are not walked
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def has_lone_surrogate(value: Any) -> bool:
    """A string (or key) anywhere in a decoded JSON value holds a lone UTF-16 surrogate: Discord
    refuses such a body (its text is not UTF-8)."""
    if isinstance(value, str):
        return _LONE_SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(x) for k, x in value.items())
    if isinstance(value, list):
        return any(has_lone_surrogate(x) for x in value)
    return False
