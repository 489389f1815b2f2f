"""What Discord sends, read so that no payload can stop the bot (issue 23).

* **Decoding** (:func:`loads`): orjson for speed; when orjson refuses a gateway frame or an HTTP
  body (it refuses a lone UTF-16 surrogate, which JSON's ``\\uD800`` escape can carry and the
  standard library accepts), the standard library reads it instead. Either way every lone
  surrogate left in a string (or a key) becomes U+FFFD: nothing downstream — an engine, SQLite
  and PostgreSQL (both refuse them in UTF-8 text), a message Discord would refuse — ever sees one.
  :func:`install` makes discord.py read its gateway frames and HTTP bodies with it.
* **One event, one failure** (:func:`install` wraps ``DiscordWebSocket.received_message``):
  whatever fails while one gateway frame is decoded, parsed or dispatched — a frame that is not
  JSON, nested deeper than the decoder goes, ``null`` where discord.py expects an object, a
  missing field — is logged (rate-limited, with the frame's length and a short escaped preview,
  never the user's text in full) and that frame alone is dropped. The shard stays connected:
  only discord.py's own reconnect and close signals go through. An interaction in such a frame
  that still has an id and a token is answered privately, in the user's language
  (:func:`answer_unreadable`).
* **An interaction is what Discord documents** (:func:`check_interaction`, before discord.py's
  parser reads it): snowflake ids below 2**63, a token, a known type, its data, channel, member
  (user in a DM) and clicked message; integers past 64 bits are integers. discord.py reads many of
  these without checking, and fails later, in tasks nobody awaits, or acts on a click it cannot scope.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import time
from typing import Any

import discord
from discord import utils as discord_utils
from discord.gateway import DiscordWebSocket, ReconnectWebSocket, WebSocketClosure
from discord.state import ConnectionState

from bot import i18n, trace

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency; the standard library does the same, slower
    orjson = None  # type: ignore[assignment]

log = logging.getLogger("ludibot")

#: a lone surrogate (a well-formed pair was already joined into one code point by the decoder)
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
#: a bare number (not in a string) of 20 digits or more: what orjson reads as a float where Discord
#: meant an integer past 64 bits (in an object, a list, or the whole text). (A number written with an
#: exponent is a float in JSON, read as one by orjson and the standard library alike.)
_BIG_NUMBER = re.compile(rb"(?:^|[:\[,])\s*-?\d{20}")
#: every digit made a 0: a run of 20 zeros is looked for in C (``in``) before the regular expression
#: above, which costs a frame several times its parsing
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
_TWENTY_DIGITS = b"0" * 20
#: what a JSON text holding a surrogate escape looks like (a cheap test before walking the value)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")
REPLACEMENT = "\ufffd"
#: interaction types that can be answered with a message (command, component, modal submit)
ANSWERABLE = (2, 3, 5)
#: how many dropped frames are logged in full per window; the others are counted
LOG_BURST = 10
LOG_WINDOW = 60.0
PREVIEW = 60


def scrub(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (the text itself when it has none)."""
    return LONE_SURROGATE.sub(REPLACEMENT, text) if LONE_SURROGATE.search(text) else text


def scrub_all(value: Any) -> Any:
    """A decoded JSON value with :func:`scrub` applied to every string and every key."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {scrub(k) if isinstance(k, str) else k: scrub_all(v) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_all(v) for v in value]
    return value


def loads(data: str | bytes | bytearray | memoryview) -> Any:
    """JSON as Discord sends it, lone surrogates replaced; raises ``ValueError`` (not JSON) or
    ``RecursionError`` (nested deeper than the standard library reads) like ``json.loads``."""
    if orjson is not None:
        try:
            value = orjson.loads(data)
        except orjson.JSONDecodeError:
            pass  # e.g. "no low surrogate in string": the standard library reads what orjson refuses
        else:
            # orjson reads an integer past 64 bits as a float: only a frame with such a bare number
            # is walked, not every frame (the walk cost a Ludix move 0.1 ms)
            return whole_numbers(value) if _may_hold_big_number(data) else value
    text = bytes(data).decode("utf-8", "replace") if isinstance(data, (bytes, bytearray, memoryview)) else data
    value = json.loads(text)
    return scrub_all(value) if _SURROGATE_ESCAPE.search(text) else value


def _may_hold_big_number(data: str | bytes | bytearray | memoryview) -> bool:
    """Whether a JSON text holds a bare number of 20 digits or more (see :data:`_BIG_NUMBER`). A cheap
    look first: without 20 digits in a row (in a string or not), it holds none."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if _TWENTY_DIGITS not in raw.translate(_DIGITS_TO_ZERO):
        return False
    return _BIG_NUMBER.search(raw) is not None


def whole_numbers(value: Any) -> Any:
    """Every float that is a whole number past 2**53 made an ``int`` again, in place (orjson reads
    an integer past 64 bits as a float; discord.py, given a float for flags or permissions, fails
    later in a task nobody awaits). Returns the value (a bare number: the number, made whole)."""
    if type(value) is float:
        return int(value) if math.isfinite(value) and value.is_integer() and abs(value) >= 2**53 else value
    if isinstance(value, dict):
        for k, v in value.items():
            if type(v) is float:
                if math.isfinite(v) and v.is_integer() and abs(v) >= 2**53:
                    value[k] = int(v)
            elif isinstance(v, (dict, list)):
                whole_numbers(v)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if type(v) is float:
                if math.isfinite(v) and v.is_integer() and abs(v) >= 2**53:
                    value[i] = int(v)
            elif isinstance(v, (dict, list)):
                whole_numbers(v)
    return value


def preview(raw: Any) -> str:
    """What the log may say of a frame: its length and its first characters, escaped."""
    if isinstance(raw, (bytes, bytearray)):
        raw = bytes(raw).decode("utf-8", "replace")
    text = raw if isinstance(raw, str) else repr(raw)
    return f"{len(text)} chars, starting {text[:PREVIEW].encode('unicode_escape').decode('ascii')!r}"


class DropLog:
    """At most ``burst`` warnings per ``window`` seconds; the rest are counted and reported once."""

    def __init__(self, burst: int = LOG_BURST, window: float = LOG_WINDOW, clock=time.monotonic) -> None:
        self.burst, self.window, self.clock = burst, window, clock
        self.started = -float("inf")
        self.logged = 0
        self.skipped = 0
        self.total = 0

    def warn(self, message: str, *args: Any) -> bool:
        """Log (or count) one dropped event; True when it was logged."""
        self.total += 1
        now = self.clock()
        if now - self.started >= self.window:
            if self.skipped:
                log.warning("%d more malformed events dropped in the last %.0f s (not logged one by one)",
                            self.skipped, self.window)
            self.started, self.logged, self.skipped = now, 0, 0
        if self.logged >= self.burst:
            self.skipped += 1
            return False
        self.logged += 1
        log.warning(message, *args)
        return True


drops = DropLog()
_answers: set[asyncio.Task] = set()


def _interaction_of(frame: Any) -> dict[str, Any] | None:
    """The INTERACTION_CREATE payload a dropped frame carried, if it can still be answered."""
    if not isinstance(frame, dict) or frame.get("t") != "INTERACTION_CREATE":
        return None
    d = frame.get("d")
    if not isinstance(d, dict):
        return None
    iid, token, kind = d.get("id"), d.get("token"), d.get("type")
    if not (isinstance(iid, str) and iid.isdigit() and len(iid) <= 20 and isinstance(token, str) and token
            and len(token) <= 500 and kind in ANSWERABLE):
        return None
    return d


def missing_field(exc: BaseException) -> str | None:
    """The field a ``KeyError`` names, if it is a short plain name (shown to the user)."""
    if isinstance(exc, KeyError) and exc.args and isinstance(exc.args[0], str):
        name = exc.args[0]
        if re.fullmatch(r"[a-z_]{1,32}", name):
            return name
    return None


def bad_field(exc: BaseException) -> str | None:
    """The field a :class:`Malformed` names (a path such as ``member.user.id``)."""
    if isinstance(exc, Malformed) and exc.args and re.fullmatch(r"[a-z_.]{1,40}", str(exc.args[0])):
        return None if exc.args[0] == "d" else str(exc.args[0])
    return None


def unreadable_text(locale: Any, exc: BaseException | None) -> str:
    """The private answer to an interaction that could not be read: which field, when known."""
    lg = i18n.lang_of(locale if isinstance(locale, str) else getattr(locale, "value", None))
    if exc is not None and (field := bad_field(exc)) is not None:
        return i18n.t("payload.error.bad_field", lg, field=field)
    if exc is not None and (field := missing_field(exc)) is not None:
        return i18n.t("payload.error.missing_field", lg, field=field)
    return i18n.t("payload.error.unreadable", lg)


async def answer_unreadable(state: Any, d: dict[str, Any], exc: BaseException | None) -> None:
    """Answer, privately, an interaction whose payload could not be read: a minimal interaction
    built from its id and token (nothing else of the payload is trusted)."""
    minimal = {"id": d["id"], "type": d["type"], "token": d["token"], "version": 1,
               "application_id": str(getattr(state, "application_id", None) or d.get("application_id") or 0),
               "attachment_size_limit": 8 * 1024 * 1024}
    locale = d.get("locale")
    try:
        interaction = discord.Interaction(data=minimal, state=state)  # type: ignore[arg-type]
        await interaction.response.send_message(unreadable_text(locale, exc), ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())
    except Exception as err:  # the interaction may be gone (expired, unknown): nothing more to do
        drops.warn("could not answer a malformed interaction: %s", type(err).__name__)


def dropped(ws: Any, raw: Any, exc: BaseException) -> None:
    """Log one frame that failed, and answer the interaction it carried if that is still possible."""
    try:
        frame = loads(raw) if isinstance(raw, (str, bytes, bytearray)) else None
    except (ValueError, RecursionError):
        frame = None
    event = frame.get("t") if isinstance(frame, dict) else None
    drops.warn("dropped a malformed gateway event (shard %s, event %s): %s: %s; frame %s",
               getattr(ws, "shard_id", None), str(event)[:40] if event is not None else "-",
               type(exc).__name__, str(exc)[:120].encode("unicode_escape").decode("ascii"), preview(raw))
    d = _interaction_of(frame)
    state = getattr(ws, "_connection", None)
    if d is None or state is None:
        return
    try:
        task = asyncio.get_running_loop().create_task(answer_unreadable(state, d, exc))
    except RuntimeError:
        return
    _answers.add(task)
    task.add_done_callback(_answers.discard)


#: where an interaction names who and where: Discord writes each as a string of a 64-bit snowflake
SNOWFLAKES: tuple[tuple[str, ...], ...] = (("id",), ("application_id",), ("guild_id",), ("channel_id",),
                                           ("channel", "id"), ("member", "user", "id"), ("user", "id"),
                                           ("message", "id"), ("data", "guild_id"))
#: ``data.id`` is a command's snowflake for a command or an autocomplete; for a component it is the
#: component's numeric id in its message (an integer, Components V2: components/reference.mdx)
COMMAND_TYPES = (2, 4)
#: the message flag IS_COMPONENTS_V2 (message.mdx, "Message Flags")
V2_FLAG = 1 << 15


class Malformed(ValueError):
    """A payload field is not what Discord writes there (the field's path is the message)."""


def _at(data: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def check_interaction(data: Any) -> None:
    """Refuse an interaction that is not what Discord documents, before discord.py reads it:

    * an integer past 64 bits is an ``int`` again, as :func:`loads` reads it (:func:`whole_numbers`);
    * its ids must be Discord's: a user, server or channel id that is not a snowflake string (an
      integer past 2**64, a float, a word) would reach SQLite, whose integers stop at 2**63, or
      name someone it is not;
    * what Discord always sends must be there: a token, a known type, the data of a command
      (its name), of a component (its custom id and type, and the message it is on) or of a modal,
      the channel it comes from, the member who acts in a server (the user in a DM).

    discord.py reads many of these without checking (a message without ``components`` gives a
    ``Message`` without that attribute, found missing later in a task nobody awaits).
    """
    if not isinstance(data, dict):
        raise Malformed("d")
    for path in SNOWFLAKES:
        node = _at(data, path)
        if node is None:
            continue
        if not (isinstance(node, str) and node.isdigit() and len(node) <= 20 and int(node) < 2**63):
            raise Malformed(".".join(path))
    token, kind = data.get("token"), data.get("type")
    if not isinstance(token, str) or not token or len(token) > 500:
        raise Malformed("token")
    if type(kind) is not int or kind not in (1, 2, 3, 4, 5):
        raise Malformed("type")
    inner = _at(data, ("data", "id"))
    if inner is not None:
        if kind in COMMAND_TYPES:
            if not (isinstance(inner, str) and inner.isdigit() and len(inner) <= 20 and int(inner) < 2**63):
                raise Malformed("data.id")
        elif type(inner) is not int or not 0 <= inner < 2**31:
            raise Malformed("data.id")
    if kind == 1:
        return
    # the channel: without it discord.py knows no channel_id, and nothing could check where the click was
    needed: list[tuple[tuple[str, ...], type | tuple[type, ...]]] = [(("data",), dict), (("channel",), dict),
                                                                      (("channel", "id"), str)]
    if kind in (2, 4):
        needed.append((("data", "name"), str))
    elif kind == 3:
        needed += [(("data", "custom_id"), str), (("data", "component_type"), int), (("message",), dict),
                   (("message", "components"), list)]  # discord.py rebuilds the clicked message's view from it
    else:
        needed += [(("data", "custom_id"), str), (("data", "components"), list)]
    if data.get("guild_id") is not None:
        needed += [(("member",), dict), (("member", "user"), dict), (("member", "user", "id"), str)]
    else:
        needed += [(("user",), dict), (("user", "id"), str)]
    for path, want in needed:
        value = _at(data, path)
        if not isinstance(value, want) or isinstance(value, bool):
            raise Malformed(".".join(path))
    if kind == 3:
        # a message whose top level holds more than action rows is a Components V2 one and carries that
        # flag (message.mdx): without it discord.py rebuilds it as a legacy view, which fails in a task
        message = data["message"]
        flags = message.get("flags", 0)
        v2 = any(not isinstance(c, dict) or c.get("type") != 1 for c in message["components"])
        if type(flags) is not int or (v2 and not flags & V2_FLAG):
            raise Malformed("message.flags")
        if not _components_readable(message["components"]):
            raise Malformed("message.components")


#: the fields of a component discord.py reads as a string, and those holding child components
_COMPONENT_TEXTS = ("custom_id", "label", "placeholder", "content", "url")
_COMPONENT_CHILDREN = ("components", "children")


def _components_readable(nodes: Any, depth: int = 0) -> bool:
    """The clicked message's components as discord.py rebuilds them: each an object with an integer
    type, its texts strings, its children lists (Discord nests them at most 3 deep: a container, a
    section or action row, its items)."""
    if not isinstance(nodes, list) or depth > 4:
        return False
    for node in nodes:
        if not isinstance(node, dict) or type(node.get("type")) is not int:
            return False
        for key in _COMPONENT_TEXTS:
            value = node.get(key)
            if value is not None and not isinstance(value, str):
                return False
        for key in _COMPONENT_CHILDREN:
            children = node.get(key)
            if children is not None and not _components_readable(children, depth + 1):
                return False
        accessory = node.get("accessory")
        if accessory is not None and not _components_readable([accessory], depth + 1):
            return False
    return True


#: what must still end a frame's handling: discord.py's own reconnects and closes, and cancellation
PASS_THROUGH: tuple[type[BaseException], ...] = (ReconnectWebSocket, WebSocketClosure, discord.ConnectionClosed,
                                                 asyncio.CancelledError)

_installed: dict[str, Any] = {}


#: where :func:`lighten` leaves a clicked card's components, as Discord sent them, in the interaction's
#: ``data`` (never from the wire: the key is dropped from every interaction first)
CLICKED = "ludibot.clicked"


def lighten(data: dict[str, Any], prefixes: tuple[str, ...]) -> None:
    """A click on a control whose id starts with one of ``prefixes``: the clicked message's components
    move to ``data["data"][CLICKED]``, so that discord.py does not build an object for each of them
    (a turn card has 20 to 40; the bot reads them as JSON, :func:`bot.cards.clicked_card`). Any other
    interaction only loses a ``CLICKED`` key someone sent. ``data`` passed :func:`check_interaction`."""
    inner = data.get("data")
    if not isinstance(inner, dict):
        return
    inner.pop(CLICKED, None)
    if data.get("type") == 3 and prefixes and inner["custom_id"].startswith(prefixes):
        message = data["message"]
        inner[CLICKED] = message["components"]
        message["components"] = []


def install(lighter: tuple[str, ...] = ()) -> None:
    """discord.py reads JSON with :func:`loads`, and one failing gateway frame is dropped, not fatal;
    the clicks on the controls whose ids start with ``lighter`` keep their message's components as
    JSON (:func:`lighten`). Idempotent."""
    if _installed:
        return
    _installed["from_json"] = discord_utils._from_json
    _installed["received_message"] = original = DiscordWebSocket.received_message
    discord_utils._from_json = loads  # gateway frames (DiscordWebSocket) and HTTP bodies (json_or_text)
    # (before the client builds its ConnectionState: its parsers are bound when it is created)
    _installed["parse_interaction_create"] = parse = ConnectionState.parse_interaction_create

    def parse_interaction_create(self: ConnectionState, data: Any) -> None:
        if isinstance(data, dict):
            trace.mark(data.get("id"), "frame")
        check_interaction(data)
        lighten(data, lighter)
        parse(self, data)

    ConnectionState.parse_interaction_create = parse_interaction_create  # type: ignore[method-assign]

    async def received_message(self: DiscordWebSocket, msg: Any, /) -> None:
        try:
            await original(self, msg)
        except PASS_THROUGH:
            raise
        except Exception as exc:  # one event, one failure: the shard goes on with the next frame
            dropped(self, msg, exc)

    received_message.__doc__ = original.__doc__
    DiscordWebSocket.received_message = received_message  # type: ignore[method-assign]


def uninstall() -> None:
    """Back to discord.py's own reading (tests)."""
    if not _installed:
        return
    discord_utils._from_json = _installed.pop("from_json")
    DiscordWebSocket.received_message = _installed.pop("received_message")  # type: ignore[method-assign]
    ConnectionState.parse_interaction_create = _installed.pop("parse_interaction_create")  # type: ignore
