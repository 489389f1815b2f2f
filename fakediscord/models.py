"""Data model of the fake Discord: users, channels, messages, attachments, commands.

Everything here is plain data plus the conversion to the JSON payloads that
Discord's API v10 (and therefore discord.py) uses.  No networking.
"""

from __future__ import annotations

import base64
import copy
import datetime as _dt
import re
import struct
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

try:  # faster copies when installed (the bot installs it)
    import orjson
except ImportError:  # pragma: no cover
    orjson = None  # type: ignore[assignment]

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions)
P_CREATE_INSTANT_INVITE = 1 << 0
P_ADMINISTRATOR = 1 << 3
P_MANAGE_CHANNELS = 1 << 4
P_MANAGE_GUILD = 1 << 5
P_ADD_REACTIONS = 1 << 6
P_VIEW_CHANNEL = 1 << 10
P_SEND_MESSAGES = 1 << 11
P_MANAGE_MESSAGES = 1 << 13
P_MANAGE_THREADS = 1 << 34
P_CREATE_PUBLIC_THREADS = 1 << 35
P_CREATE_PRIVATE_THREADS = 1 << 36
P_EMBED_LINKS = 1 << 14
P_ATTACH_FILES = 1 << 15
P_READ_MESSAGE_HISTORY = 1 << 16
P_MENTION_EVERYONE = 1 << 17
P_USE_EXTERNAL_EMOJIS = 1 << 18
P_CHANGE_NICKNAME = 1 << 26
P_USE_APPLICATION_COMMANDS = 1 << 31
P_SEND_MESSAGES_IN_THREADS = 1 << 38
P_USE_EXTERNAL_APPS = 1 << 50

#: what @everyone may do in a freshly created server
EVERYONE_PERMISSIONS = (
    P_CREATE_INSTANT_INVITE
    | P_ADD_REACTIONS
    | P_VIEW_CHANNEL
    | P_SEND_MESSAGES
    | P_EMBED_LINKS
    | P_ATTACH_FILES
    | P_READ_MESSAGE_HISTORY
    | P_MENTION_EVERYONE
    | P_USE_EXTERNAL_EMOJIS
    | P_CHANGE_NICKNAME
    | P_USE_APPLICATION_COMMANDS
    | P_SEND_MESSAGES_IN_THREADS
    | P_CREATE_PUBLIC_THREADS
    | P_CREATE_PRIVATE_THREADS
    | P_USE_EXTERNAL_APPS
)
#: the permissions the bot's integration role gets (what the invite URL would ask for)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | P_MANAGE_MESSAGES

# Message flags
F_EPHEMERAL = 1 << 6
F_LOADING = 1 << 7
F_SUPPRESS_NOTIFICATIONS = 1 << 12
F_IS_COMPONENTS_V2 = 1 << 15

# Channel types
CH_GUILD_TEXT = 0
CH_DM = 1
CH_ANNOUNCEMENT_THREAD = 10
CH_PUBLIC_THREAD = 11
CH_PRIVATE_THREAD = 12
THREAD_TYPES = (CH_ANNOUNCEMENT_THREAD, CH_PUBLIC_THREAD, CH_PRIVATE_THREAD)

#: the channel permissions of the bot that a test can take away (Permissions.md names)
CHANNEL_PERMISSION_NAMES = {
    "view_channel": P_VIEW_CHANNEL,
    "send_messages": P_SEND_MESSAGES,
    "send_messages_in_threads": P_SEND_MESSAGES_IN_THREADS,
    "attach_files": P_ATTACH_FILES,
    "embed_links": P_EMBED_LINKS,
    "read_message_history": P_READ_MESSAGE_HISTORY,
    "manage_messages": P_MANAGE_MESSAGES,
    "manage_threads": P_MANAGE_THREADS,
    "create_public_threads": P_CREATE_PUBLIC_THREADS,
    "create_private_threads": P_CREATE_PRIVATE_THREADS,
}


def permission_bits(perms: int | str | list[str] | tuple[str, ...] | set[str]) -> int:
    """A bit field from an int or permission names ("send_messages", "attach_files", ...)."""
    if isinstance(perms, int):
        return perms
    if isinstance(perms, str):
        perms = [perms]
    out = 0
    for name in perms:
        key = name.lower().replace(" ", "_")
        if key not in CHANNEL_PERMISSION_NAMES:
            raise KeyError(f"unknown permission {name!r}; known: {sorted(CHANNEL_PERMISSION_NAMES)}")
        out |= CHANNEL_PERMISSION_NAMES[key]
    return out

# Interaction types
IT_PING = 1
IT_APPLICATION_COMMAND = 2
IT_MESSAGE_COMPONENT = 3
IT_AUTOCOMPLETE = 4
IT_MODAL_SUBMIT = 5

# Interaction callback types
CB_PONG = 1
CB_CHANNEL_MESSAGE = 4
CB_DEFERRED_CHANNEL_MESSAGE = 5
CB_DEFERRED_UPDATE_MESSAGE = 6
CB_UPDATE_MESSAGE = 7
CB_AUTOCOMPLETE_RESULT = 8
CB_MODAL = 9
CB_LAUNCH_ACTIVITY = 12  # receiving-and-responding.mdx: apps with Activities enabled only

# Application command option types
OPT_SUB_COMMAND = 1
OPT_SUB_COMMAND_GROUP = 2
OPT_STRING = 3
OPT_INTEGER = 4
OPT_BOOLEAN = 5
OPT_USER = 6
OPT_CHANNEL = 7
OPT_ROLE = 8
OPT_MENTIONABLE = 9
OPT_NUMBER = 10
OPT_ATTACHMENT = 11

# Component types
C_ACTION_ROW = 1
C_BUTTON = 2
C_STRING_SELECT = 3
C_TEXT_INPUT = 4
C_USER_SELECT = 5
C_ROLE_SELECT = 6
C_MENTIONABLE_SELECT = 7
C_CHANNEL_SELECT = 8
SELECT_TYPES = (C_STRING_SELECT, C_USER_SELECT, C_ROLE_SELECT, C_MENTIONABLE_SELECT, C_CHANNEL_SELECT)
C_SECTION = 9
C_TEXT_DISPLAY = 10
C_THUMBNAIL = 11
C_MEDIA_GALLERY = 12
C_FILE = 13
C_SEPARATOR = 14
C_CONTAINER = 17
C_LABEL = 18
C_FILE_UPLOAD = 19
C_RADIO_GROUP = 21
C_CHECKBOX_GROUP = 22
C_CHECKBOX = 23

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class SnowflakeGenerator:
    """Time-based, strictly increasing snowflakes (so ``created_at`` looks right)."""

    def __init__(self) -> None:
        self._last = 0
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
            value = (ms << 22) | (1 << 17)
            if value <= self._last:
                value = self._last + 1
            self._last = value
            return value

    @property
    def last(self) -> int:
        """The newest snowflake given (or seen: :meth:`at_least`)."""
        return self._last

    def at_least(self, value: int) -> None:
        """Never give ``value`` or an older snowflake again (one loaded from a saved state)."""
        with self._lock:
            self._last = max(self._last, value)


def iso_now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat()


def parse_data_uri(uri: str) -> tuple[str, bytes] | None:
    """(content type, bytes) of ``data:<type>;base64,<data>`` (reference.mdx, "Image Data"), or None."""
    mm = re.fullmatch(r"data:([\w/+.-]+);base64,([A-Za-z0-9+/=\s]*)", uri)
    if not mm:
        return None
    try:
        return mm.group(1).lower(), base64.b64decode(mm.group(2), validate=False)
    except ValueError:
        return None


def png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of a PNG, read from its IHDR chunk; None if not a PNG."""
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    return None


# ---------------------------------------------------------------------------
# users, channels, guild


@dataclass(eq=False)
class FakeUser:
    """A Discord user who is a member of the fake guild."""

    id: int
    name: str
    locale: str = "fr"
    bot: bool = False
    #: guild-level permissions (bit field) before role computation; see `permissions`
    extra_permissions: int = 0
    role_ids: list[int] = field(default_factory=list)
    #: when False, the bot cannot open a DM with this user (403, code 50007)
    dms_open: bool = True
    joined_at: str = field(default_factory=iso_now)
    #: ids of the guilds this user is a member of
    guild_ids: list[int] = field(default_factory=list)

    @property
    def username(self) -> str:
        base = "".join(ch for ch in self.name.lower() if ch.isalnum() or ch in "._") or "user"
        return base[:32]

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.name

    def user_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "avatar_decoration_data": None,
            "banner": None,
            "accent_color": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"<FakeUser {self.name!r} id={self.id}>"


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel or a DM channel."""

    id: int
    name: str
    type: int = CH_GUILD_TEXT
    guild_id: int | None = None
    position: int = 0
    #: for DM channels: the (non-bot) user on the other side
    recipient_id: int | None = None
    topic: str | None = None
    #: permission bits the bot is denied in this channel (an overwrite on the bot's member)
    bot_deny: int = 0
    #: threads: the parent text channel, the message it started from, state
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    archive_timestamp: str | None = None
    #: private threads: ids of the members (the bot sees a private thread only as a member)
    member_ids: list[int] = field(default_factory=list)

    @property
    def is_dm(self) -> bool:
        return self.type == CH_DM

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def __repr__(self) -> str:
        kind = " DM" if self.is_dm else (" thread" if self.is_thread else "")
        return f"<FakeChannel {self.name!r} id={self.id}{kind}>"


@dataclass(eq=False)
class FakeGuild:
    """A server: its roles (id -> role dict), owner and locale. Channels and members point to it."""

    id: int
    name: str
    locale: str = "fr"
    owner_id: int = 0
    everyone_role_id: int = 0
    bot_role_id: int = 0
    admin_role_id: int = 0
    roles: dict[int, dict[str, Any]] = field(default_factory=dict)
    joined_at: str = field(default_factory=iso_now)

    @property
    def shard_key(self) -> int:
        """(guild_id >> 22): Discord's shard is this modulo the shard count."""
        return self.id >> 22

    def shard_id(self, shard_count: int) -> int:
        return (self.id >> 22) % max(1, shard_count)

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name!r} id={self.id}>"


# ---------------------------------------------------------------------------
# messages


@dataclass(eq=False)
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    ephemeral: bool = False
    url: str = ""

    @property
    def bytes(self) -> bytes:  # noqa: A003 - the brief's spelling: attachments [{filename, bytes}]
        return self.data

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def dimensions(self) -> tuple[int, int] | None:
        return png_size(self.data)

    def image(self):
        """The attachment opened with Pillow (imported lazily)."""
        import io

        from PIL import Image

        return Image.open(io.BytesIO(self.data))

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type or _guess_content_type(self.filename, self.data),
        }
        dims = png_size(self.data)
        if dims:
            out["width"], out["height"] = dims
        if self.description is not None:
            out["description"] = self.description
        if self.ephemeral:
            out["ephemeral"] = True
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "filename": self.filename,
            "data": base64.b64encode(self.data).decode(),
            "content_type": self.content_type,
            "description": self.description,
            "ephemeral": self.ephemeral,
            "url": self.url,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> FakeAttachment:
        d = dict(d)
        d["data"] = base64.b64decode(d["data"])
        return cls(**d)

    def __repr__(self) -> str:
        return f"<FakeAttachment {self.filename!r} {len(self.data)} bytes>"


def _guess_content_type(filename: str, data: bytes) -> str:
    if png_size(data):
        return "image/png"
    lower = filename.lower()
    for ext, ct in ((".jpg", "image/jpeg"), (".jpeg", "image/jpeg"), (".gif", "image/gif"), (".txt", "text/plain"),
                    (".json", "application/json"), (".webp", "image/webp")):
        if lower.endswith(ext):
            return ct
    return "application/octet-stream"


class Readable:
    """How a test reads a message (or one of its revisions), legacy or Components V2 alike.

    For a v2 card, ``content`` holds the text of its text displays (the bot itself is sent ""), so
    tests that read ``content`` / ``text`` work for both kinds; ``buttons``, ``selects`` and ``rows``
    are found wherever they are nested; ``images`` are the attachments a reader actually sees."""

    # provided by the dataclasses: content, embeds, components, attachments, flags
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[FakeAttachment]
    flags: int

    @property
    def is_v2(self) -> bool:
        """Sent with IS_COMPONENTS_V2: a card made of components, no content or embeds."""
        return bool(self.flags & F_IS_COMPONENTS_V2)

    @property
    def text(self) -> str:
        """Content plus the text of embeds; for a v2 card, the text of its text displays."""
        if self.is_v2:
            return components_text(self.components)
        parts = [self.content] if self.content else []
        for e in self.embeds:
            for key in ("title", "description"):
                if e.get(key):
                    parts.append(str(e[key]))
            for f in e.get("fields", []) or []:
                parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
            if (e.get("footer") or {}).get("text"):
                parts.append(e["footer"]["text"])
        return "\n".join(parts)

    def walk_components(self) -> Iterator[dict[str, Any]]:
        return walk_components(self.components)

    @property
    def rows(self) -> list[dict[str, Any]]:
        """The action rows, wherever they are (top level, or inside a container)."""
        return [c for c in walk_components(self.components) if c.get("type") == C_ACTION_ROW]

    @property
    def containers(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") == C_CONTAINER]

    @property
    def accent_color(self) -> int | None:
        """The accent colour of the card's first container (None: no container, or no accent)."""
        return next((c.get("accent_color") for c in self.containers), None)

    @property
    def text_displays(self) -> list[str]:
        return [str(c.get("content") or "") for c in walk_components(self.components)
                if c.get("type") == C_TEXT_DISPLAY]

    def _media_attachment(self, item: dict[str, Any]) -> FakeAttachment | None:
        aid = str(item.get("attachment_id") or "")
        return next((a for a in self.attachments if str(a.id) == aid), None)

    @property
    def gallery(self) -> list[FakeAttachment]:
        """The attachments shown in the card's media galleries, in order."""
        out = []
        for kind, item in media_items(self.components):
            a = self._media_attachment(item) if kind == "gallery" else None
            if a is not None:
                out.append(a)
        return out

    @property
    def thumbnails(self) -> list[FakeAttachment]:
        return [a for kind, item in media_items(self.components) if kind == "thumbnail"
                for a in [self._media_attachment(item)] if a is not None]

    @property
    def images(self) -> list[FakeAttachment]:
        """The attachments a reader sees: all of them on a legacy message; on a v2 card only those
        a gallery, a thumbnail or a file shows ("Attachments won't show by default")."""
        if not self.flags & F_IS_COMPONENTS_V2:
            return list(self.attachments)
        shown = {str(item.get("attachment_id")) for _, item in media_items(self.components)}
        return [a for a in self.attachments if str(a.id) in shown]

    @property
    def hidden_attachments(self) -> list[FakeAttachment]:
        """Attachments of a v2 card that no component shows: sent, but invisible to players."""
        seen = {a.id for a in self.images}
        return [a for a in self.attachments if a.id not in seen]

    def mentioned_user_ids(self, allowed_mentions: dict[str, Any] | None = None) -> list[int]:
        """Users this message mentions as Discord computes ``mentions``: ``<@id>`` in the content, or in
        the text displays of a v2 card (components/reference.mdx, Text Display), filtered by
        ``allowed_mentions`` (None: Discord's default, every user mention)."""
        ids: list[int] = []
        for found in re.findall(r"<@!?(\d+)>", self.text):
            if int(found) not in ids:
                ids.append(int(found))
        am = allowed_mentions
        if am is None:
            return ids
        if "users" in (am.get("parse") or []):
            return ids
        allowed = {int(u) for u in am.get("users") or []}
        return [u for u in ids if u in allowed]

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """The message's controls: the buttons of its action rows, wherever the rows are nested (a
        section's accessory is not among them: see :attr:`accessories`)."""
        return [c for row in self.rows for c in row.get("components") or [] if isinstance(c, dict)
                and c.get("type") == C_BUTTON]

    @property
    def accessories(self) -> list[dict[str, Any]]:
        """The accessories of its sections (a button or a thumbnail beside a text), in reading order."""
        return [c["accessory"] for c in walk_components(self.components)
                if c.get("type") == C_SECTION and isinstance(c.get("accessory"), dict)]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") in SELECT_TYPES]

    @property
    def button_labels(self) -> list[str]:
        return [b.get("label") or "" for b in self.buttons]

    def find_component(
        self,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        placeholder: str | None = None,
        types: tuple[int, ...] | None = None,
        emoji: str | None = None,
    ) -> dict[str, Any]:
        comps = [c for c in walk_components(self.components) if types is None or c.get("type") in types]
        found = [c for c in comps if _component_matches(c, label, custom_id, placeholder, emoji, exact=True)]
        if not found:
            found = [c for c in comps if _component_matches(c, label, custom_id, placeholder, emoji, exact=False)]
        if not found:
            raise LookupError(
                f"no component label={label!r} custom_id={custom_id!r} placeholder={placeholder!r} on message {getattr(self, 'id', '?')}; "
                f"components: {describe_components(self.components)}"
            )
        if len(found) > 1:
            raise LookupError(f"several components match on message {getattr(self, 'id', '?')}: {describe_components(found)}")
        return found[0]



@dataclass(eq=False)
class FakeEmoji:
    """An application emoji (resources/emoji.mdx, "Application-Owned Emoji"): usable by the app
    everywhere as ``<:name:id>`` in text, or as ``{"id", "name"}`` on buttons and select options."""

    id: int
    name: str
    data: bytes
    content_type: str
    user: dict[str, Any]

    @property
    def animated(self) -> bool:
        return self.content_type == "image/gif"

    @property
    def mention(self) -> str:
        return f"<{'a' if self.animated else ''}:{self.name}:{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "roles": [], "user": self.user, "require_colons": True,
                "managed": False, "animated": self.animated, "available": True}

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "data": base64.b64encode(self.data).decode(),
                "content_type": self.content_type, "user": self.user}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> FakeEmoji:
        d = dict(d)
        d["data"] = base64.b64decode(d["data"])
        return cls(**d)


#: ``<:name:id>`` or ``<a:name:id>`` in text (resources/emoji.mdx; reference.mdx "Message Formatting")
CUSTOM_EMOJI = re.compile(r"<(a?):(\w{2,32}):(\d{15,21})>")
#: a slash command mention (reference/message-formatting: ``</NAME SUBCOMMAND_GROUP SUBCOMMAND:ID>``)
COMMAND_MENTION = re.compile(r"</([-_\w]{1,32}(?: [-_\w]{1,32}){0,2}):(\d{15,21})>")


@dataclass(eq=False)
class MessageRevision(Readable):
    at: float
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[FakeAttachment]
    flags: int


@dataclass(eq=False)
class FakeMessage(Readable):
    """A message the bot (or a fake user) posted.

    ``visible_to`` is None for a message everyone in the channel sees, or the id
    of the only user who sees it (ephemeral messages, and DMs: the recipient).
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: dict[str, Any]
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    visible_to: int | None = None
    #: id of the interaction whose callback / follow-up / @original edit produced it (None for channel posts)
    interaction_id: int | None = None
    #: user who triggered that interaction
    interaction_user_id: int | None = None
    #: "response" (callback 4/5), "followup", "channel" (POST /channels/x/messages), "user" (sent by a fake user)
    kind: str = "channel"
    #: the "interaction_metadata" block returned to the bot (for interaction responses)
    interaction_metadata: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    #: the ``allowed_mentions`` the bot sent with the latest create/edit (None: not sent)
    allowed_mentions: dict[str, Any] | None = None
    webhook_id: int | None = None
    type: int = 0
    created_at: float = field(default_factory=time.monotonic)
    #: creation time on the fake's clock (for the age of messages: edits of messages older than an hour)
    clock_created: float = 0.0
    edited_at: float | None = None
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    deleted: bool = False
    #: earlier versions of the message, oldest first
    revisions: list[MessageRevision] = field(default_factory=list)
    tts: bool = False

    # -- convenience ------------------------------------------------------

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & F_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response ("Bot is thinking…") not yet filled in."""
        return bool(self.flags & F_LOADING)

    @property
    def audience(self) -> int | None:
        return self.visible_to

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None

    def _snapshot(self) -> MessageRevision:
        return MessageRevision(
            at=self.edited_at or self.created_at,
            content=self.content,
            embeds=list(self.embeds),
            components=list(self.components),
            attachments=list(self.attachments),
            flags=self.flags,
        )

    def payload(self, *, bot_app_id: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "channel_id": str(self.channel_id),
            "author": self.author,
            "content": "" if self.flags & F_IS_COMPONENTS_V2 else self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            out["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            out["webhook_id"] = str(self.webhook_id)
            out["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            out["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            out["message_reference"] = self.message_reference
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "channel_id": self.channel_id,
            "guild_id": self.guild_id,
            "author": self.author,
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.to_json() for a in self.attachments],
            "flags": self.flags,
            "visible_to": self.visible_to,
            "interaction_id": self.interaction_id,
            "interaction_user_id": self.interaction_user_id,
            "kind": self.kind,
            "interaction_metadata": self.interaction_metadata,
            "message_reference": self.message_reference,
            "webhook_id": self.webhook_id,
            "type": self.type,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "deleted": self.deleted,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> FakeMessage:
        d = dict(d)
        d["attachments"] = [FakeAttachment.from_json(a) for a in d.get("attachments", [])]
        string_emoji_ids(d.get("components") or [])  # saved by an older fake, which kept the bot's numbers
        return cls(**d)

    def __repr__(self) -> str:
        who = "public" if self.visible_to is None else f"only {self.visible_to}"
        content = self.content if len(self.content) < 60 else self.content[:57] + "..."
        extra = f" +{len(self.attachments)} files" if self.attachments else ""
        return f"<FakeMessage {self.id} ch={self.channel_id} {who} {content!r}{extra}{' DELETED' if self.deleted else ''}>"


def walk_components(components: list[dict[str, Any]] | None) -> Iterator[dict[str, Any]]:
    """Every component, depth first, through action rows, sections, containers, labels."""
    for c in components or []:
        if not isinstance(c, dict):
            continue
        yield c
        yield from walk_components(c.get("components"))
        for key in ("accessory", "component"):
            sub = c.get(key)
            if isinstance(sub, dict):
                yield from walk_components([sub])


def components_text(components: list[dict[str, Any]] | None) -> str:
    """The text of every text display, in reading order, one per line (what a v2 card says)."""
    return "\n".join(str(c["content"]) for c in walk_components(components)
                     if c.get("type") == C_TEXT_DISPLAY and c.get("content"))


def media_items(components: list[dict[str, Any]] | None) -> list[tuple[str, dict[str, Any]]]:
    """Every unfurled media item of a v2 message, in reading order: ("gallery" | "thumbnail" | "file", item)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for c in walk_components(components):
        t = c.get("type")
        if t == C_MEDIA_GALLERY:
            out.extend(("gallery", it.get("media") or {}) for it in c.get("items") or [] if isinstance(it, dict))
        elif t == C_THUMBNAIL:
            out.append(("thumbnail", c.get("media") or {}))
        elif t == C_FILE:
            out.append(("file", c.get("file") or {}))
    return out


def _copy_json(value: Any) -> Any:
    """A deep copy of a decoded JSON value (through orjson when installed: ten times copy.deepcopy's speed)."""
    if orjson is not None:
        try:
            return orjson.loads(orjson.dumps(value))
        except (TypeError, orjson.JSONEncodeError):  # what orjson cannot write (an integer past 64 bits)
            pass
    return copy.deepcopy(value)


def string_emoji_ids(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every custom emoji id of `components` (buttons', select options') as a string, in place."""
    for c in walk_components(components):
        for e in [c.get("emoji"), *(o.get("emoji") for o in c.get("options") or [] if isinstance(o, dict))]:
            if isinstance(e, dict) and isinstance(e.get("id"), int) and not isinstance(e.get("id"), bool):
                e["id"] = str(e["id"])
    return components


def resolve_components(components: list[dict[str, Any]], attachments: list[FakeAttachment], *,
                       v2: bool) -> list[dict[str, Any]]:
    """What Discord stores and returns for the components a bot sent (components/reference.mdx):
    - ids: "generated sequentially if left empty", never reusing an id given to another component of
      the message (an id of 0 counts as empty). Legacy messages are stored as sent.
    - unfurled media items: an `attachment://name` reference becomes the attachment's url, with
      `proxy_url`, `content_type`, `width` / `height` and `attachment_id` filled in; a File gets its
      `name` and `size`.
    - a custom emoji's id (a button's, a select option's) is a snowflake: returned as a string, as
      every id is (reference.mdx, "Snowflakes"), whatever number the bot sent."""
    comps = string_emoji_ids(_copy_json(components))
    if not v2:
        return comps
    used = {c["id"] for c in walk_components(comps) if isinstance(c.get("id"), int) and c["id"]}
    nxt = 1
    for c in walk_components(comps):
        if not c.get("id"):
            while nxt in used:
                nxt += 1
            c["id"] = nxt
            used.add(nxt)
    by_name = {a.filename: a for a in attachments}

    def unfurl(item: dict[str, Any]) -> FakeAttachment | None:
        url = item.get("url") or ""
        a = by_name.get(url[len("attachment://"):]) if url.startswith("attachment://") else None
        if a is None:
            item.setdefault("proxy_url", url)
            return None
        meta = a.payload()
        item.update(url=a.url, proxy_url=a.url, content_type=meta["content_type"], attachment_id=str(a.id), flags=0)
        if "width" in meta:
            item.update(width=meta["width"], height=meta["height"])
        return a

    for c in walk_components(comps):
        t = c.get("type")
        if t == C_MEDIA_GALLERY:
            for it in c.get("items") or []:
                if isinstance(it, dict) and isinstance(it.get("media"), dict):
                    unfurl(it["media"])
        elif t == C_THUMBNAIL and isinstance(c.get("media"), dict):
            unfurl(c["media"])
        elif t == C_FILE and isinstance(c.get("file"), dict):
            a = unfurl(c["file"])
            if a is not None:
                c.update(name=a.filename, size=a.size)
    return comps


def _emoji_text(c: dict[str, Any]) -> str:
    e = c.get("emoji") or {}
    return str(e.get("name") or "")


def _component_matches(c, label, custom_id, placeholder, emoji, *, exact: bool) -> bool:
    def eq(a: Any, b: str | None) -> bool:
        if b is None:
            return True
        if a is None:
            return False
        return a == b if exact else str(a).casefold().strip() == b.casefold().strip()

    if label is not None and not eq(c.get("label"), label):
        return False
    if custom_id is not None and c.get("custom_id") != custom_id:
        return False
    if placeholder is not None and not eq(c.get("placeholder"), placeholder):
        return False
    if emoji is not None and _emoji_text(c) != emoji:
        return False
    return True


def describe_components(components: list[dict[str, Any]]) -> list[str]:
    out = []
    for c in walk_components(components):
        t = c.get("type")
        if t == C_BUTTON:
            out.append(f"button({c.get('label')!r}, {c.get('custom_id')!r}{', disabled' if c.get('disabled') else ''})")
        elif t in SELECT_TYPES:
            out.append(f"select({c.get('placeholder')!r}, {c.get('custom_id')!r})")
    return out


# ---------------------------------------------------------------------------
# commands


@dataclass(eq=False)
class RegisteredCommand:
    """An application command as registered by the bot (PUT/POST …/commands)."""

    id: int
    payload: dict[str, Any]
    guild_id: int | None = None
    version: int = 1

    @property
    def name(self) -> str:
        return self.payload["name"]

    @property
    def type(self) -> int:
        return int(self.payload.get("type", 1))

    def response(self, application_id: int) -> dict[str, Any]:
        out = dict(self.payload)
        out.setdefault("type", 1)
        out.setdefault("description", "")
        out.setdefault("options", [])
        out.setdefault("default_member_permissions", None)
        out.setdefault("nsfw", False)
        out["id"] = str(self.id)
        out["application_id"] = str(application_id)
        out["version"] = str(self.version)
        if self.guild_id is not None:
            out["guild_id"] = str(self.guild_id)
        return out


def localized_names(obj: dict[str, Any]) -> set[str]:
    names = {obj.get("name", "")}
    names.update((obj.get("name_localizations") or {}).values())
    return {n for n in names if n}


def find_named(items: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    for it in items:
        if it.get("name") == name:
            return it
    for it in items:
        if name in localized_names(it):
            return it
    folded = name.casefold()
    for it in items:
        if folded in {n.casefold() for n in localized_names(it)}:
            return it
    return None

