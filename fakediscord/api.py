"""The test API of the fake Discord: users act (commands, clicks, selects, autocomplete,
modals), the test awaits the bot's complete answer and inspects who sees what."""

from __future__ import annotations

import copy
import inspect
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import models as m
from .models import FakeAttachment, FakeChannel, FakeMessage, FakeUser, find_named
from .server import FakeDiscordServer, InteractionRecord


def describe_wait(cond: Callable[..., Any] | None, what: str | None = None) -> str:
    """What a wait was waiting for, for its TimeoutError: ``what`` when the caller said it, else the
    condition's own source line (a lambda) or name, and where it was written."""
    if what:
        return what
    if cond is None:
        return "nothing new for the settle time"
    code = getattr(cond, "__code__", None)
    where = f" ({code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno})" if code is not None else ""
    try:
        source = " ".join(line.strip() for line in inspect.getsourcelines(cond)[0])
    except (OSError, TypeError):
        source = getattr(cond, "__qualname__", repr(cond))
    return (source if len(source) <= 240 else source[:240] + "…") + where


class NotConnected(RuntimeError):
    """No bot is connected to the fake gateway."""


class DeadlineMissed(AssertionError):
    """The bot did not call back within Discord's 3 s interaction deadline."""

    def __init__(self, result: InteractionResult) -> None:
        super().__init__(f"no interaction callback within {result.record.deadline:.1f}s: {result!r}")
        self.result = result


class Choices(list):
    """Autocomplete choices (a list of {"name", "value"} dicts) plus the interaction result."""

    result: InteractionResult

    @property
    def names(self) -> list[str]:
        return [c.get("name") for c in self]

    @property
    def values(self) -> list[Any]:
        return [c.get("value") for c in self]


@dataclass
class Output:
    """One thing the bot showed: a message or an autocomplete answer, and its audience."""

    kind: str  # "message" | "autocomplete"
    audience: int | None  # None = everyone in the channel; else the only user id who sees it
    channel_id: int | None
    interaction_id: int | None
    message: FakeMessage | None = None
    choices: list[dict[str, Any]] | None = None
    at: float = 0.0


_UNSET: Any = object()


class InteractionResult:
    """What the bot did in answer to one interaction.

    Await `wait()` (done for you by `run_command`/`click`/… unless ``wait=False``).
    """

    def __init__(self, fake: FakeDiscord, record: InteractionRecord, kind: str) -> None:
        self.fake = fake
        self.record = record
        self.kind = kind  # "command" | "component" | "autocomplete" | "modal"
        self.deadline_missed = False
        self.still_loading = False
        self.settled = False
        #: the newest message id when the interaction was made: a message with a greater id is new
        self._known_until: int = fake._snowflake.last

    # -- identity
    @property
    def id(self) -> int:
        return self.record.id

    @property
    def interaction(self) -> dict[str, Any]:
        """The INTERACTION_CREATE payload sent to the bot."""
        return self.record.payload

    @property
    def user(self) -> FakeUser:
        return self.record.user

    @property
    def channel(self) -> FakeChannel:
        return self.record.channel

    # -- timing
    @property
    def latency(self) -> float | None:
        """Seconds from the INTERACTION_CREATE frame being sent to the callback request arriving."""
        return self.record.latency

    @property
    def latency_ms(self) -> float | None:
        lat = self.record.latency
        return None if lat is None else lat * 1000.0

    @property
    def late(self) -> bool:
        """The callback came after the deadline (Discord rejects it with 10062 Unknown interaction)."""
        return self.record.late

    # -- the callback
    @property
    def response(self) -> dict[str, Any] | None:
        if self.record.callback_type is None:
            return None
        return {"type": self.record.callback_type, "data": self.record.callback_data}

    @property
    def response_type(self) -> int | None:
        return self.record.callback_type

    @property
    def deferred(self) -> bool:
        return self.record.callback_type in (m.CB_DEFERRED_CHANNEL_MESSAGE, m.CB_DEFERRED_UPDATE_MESSAGE)

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.record.choices

    @property
    def activity_instance_id(self) -> str | None:
        """The instance a LAUNCH_ACTIVITY answer launched or joined."""
        return self.record.activity_instance_id

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.record.modal

    @property
    def errors(self) -> list[dict[str, Any]]:
        """Requests of the bot for this interaction that the fake refused (4xx), like Discord would."""
        return self.record.errors

    # -- messages
    @property
    def messages(self) -> list[FakeMessage]:
        """Messages created or edited while answering (callback, follow-ups, @original edits, and
        bot posts in the same channel / in DMs while the answer was awaited), in order."""
        return [self.fake.message_by_id[i] for i in self.record.message_ids if i in self.fake.message_by_id]

    @property
    def created(self) -> list[FakeMessage]:
        return [x for x in self.messages if x.id > self._known_until]

    @property
    def updated(self) -> list[FakeMessage]:
        return [x for x in self.messages if x.id <= self._known_until]

    @property
    def message(self) -> FakeMessage | None:
        """The primary message: the interaction's original response (or the updated component message).

        A click answered by updating its own message (7, or 6 then an edit) that also posted a new
        public message (a follow-up: the next turn) has that new message as its primary one."""
        clicked = self.fake.message_by_id.get(self.record.component_message_id or 0)
        if self.response_type in (6, 7) and clicked is not None and clicked.visible_to is None:
            fresh = [x for x in self.created if x.visible_to is None and x.interaction_id == self.record.id]
            if fresh:
                return fresh[0]
        if self.response_type == 6 and clicked is not None and clicked.visible_to is not None:
            # a private message's click deferred, then answered by a follow-up: that follow-up
            fresh = [x for x in self.created if x.interaction_id == self.record.id]
            if fresh:
                return fresh[0]
        if self.response_type == 6 and self.record.update_pending:
            return None  # deferred: its answer is still to come
        oid = self.record.original_message_id
        if oid is not None and oid in self.fake.message_by_id:
            return self.fake.message_by_id[oid]
        msgs = self.messages
        return msgs[0] if msgs else None

    @property
    def ephemeral(self) -> bool:
        """Whether the primary response is ephemeral (seen only by the interacting user)."""
        msg = self.message
        return bool(msg and msg.ephemeral)

    @property
    def ephemeral_messages(self) -> list[FakeMessage]:
        return [x for x in self.messages if x.ephemeral]

    @property
    def public_messages(self) -> list[FakeMessage]:
        return [x for x in self.messages if x.visible_to is None]

    @property
    def dms(self) -> list[FakeMessage]:
        return [x for x in self.messages if x.is_dm]

    @property
    def content(self) -> str:
        """Text of every message of the answer (content + embeds), joined by newlines."""
        return "\n".join(x.text for x in self.messages if not x.deleted and x.text)

    @property
    def attachments(self) -> list[FakeAttachment]:
        return [a for x in self.messages if not x.deleted for a in x.attachments]

    @property
    def images(self) -> list[FakeAttachment]:
        """The pictures players see in the answer: on a v2 card only those its components show."""
        return [a for x in self.messages if not x.deleted for a in x.images]

    @property
    def components(self) -> list[dict[str, Any]]:
        msg = self.message
        return msg.components if msg else []

    @property
    def rows(self) -> list[dict[str, Any]]:
        """The primary message's action rows, wherever they are nested."""
        msg = self.message
        return msg.rows if msg else []

    @property
    def buttons(self) -> list[dict[str, Any]]:
        msg = self.message
        return msg.buttons if msg else []

    def visible_to(self, user: FakeUser) -> list[FakeMessage]:
        return [x for x in self.messages if x.visible_to is None or x.visible_to == user.id]

    # -- waiting
    async def wait(
        self,
        *,
        settle: float | None = None,
        timeout: float | None = None,
        until: Callable[[InteractionResult], bool] | None = None,
        check_deadline: bool | None = None,
        what: str | None = None,
    ) -> InteractionResult:
        """Wait for the callback (up to the deadline), then until `until(self)` is true or, without
        `until`, until nothing new happened for `settle` seconds (a deferred "thinking" message keeps
        it waiting until filled in, a deferred update until its edit or a follow-up comes). Raises
        DeadlineMissed if no callback came in time (unless check_deadline=False), TimeoutError if
        `until` never became true within `timeout` (saying which wait it was: `what`, or the
        condition's source)."""
        fake = self.fake
        rec = self.record
        settle = fake.settle if settle is None else settle
        timeout = fake.timeout if timeout is None else timeout
        check_deadline = fake.check_deadline if check_deadline is None else check_deadline
        end = time.monotonic() + timeout
        fake._open_results.add(self)
        try:
            deadline_at = rec.sent_wall + rec.deadline + 0.05
            while rec.callback_type is None and not rec.late:
                now = time.monotonic()
                if now >= deadline_at or now >= end:
                    break
                await fake.wait_changed(min(deadline_at, end) - now)
            self.deadline_missed = rec.callback_type is None or rec.late
            if self.deadline_missed:
                until = None  # nothing more is coming (Discord refuses a late callback): just settle briefly
            while True:
                now = time.monotonic()
                if until is not None:
                    if until(self):
                        break
                elif not rec.deferred_pending and not rec.update_pending and now - rec.last_activity >= settle:
                    break
                if now >= end:
                    if until is not None:
                        raise TimeoutError(f"waited {timeout}s in vain for: {describe_wait(until, what)}\n{self!r}")
                    break
                if until is not None or rec.deferred_pending or rec.update_pending:
                    step = end - now
                else:
                    step = min(end, rec.last_activity + settle) - now
                await fake.wait_changed(max(step, 0.001))
            self.still_loading = rec.deferred_pending or rec.update_pending
        finally:
            fake._open_results.discard(self)
        self.settled = True
        if self.deadline_missed and check_deadline:
            raise DeadlineMissed(self)
        return self

    def raise_for_deadline(self) -> None:
        if self.deadline_missed:
            raise DeadlineMissed(self)

    def __repr__(self) -> str:
        lat = f"{self.latency_ms:.1f}ms" if self.latency is not None else "no callback"
        parts = [f"<InteractionResult {self.kind} by {self.user.name} cb={self.response_type} {lat}"]
        for x in self.messages:
            parts.append(f"  {x!r}")
        if self.choices is not None:
            parts.append(f"  choices={self.choices!r}")
        if self.errors:
            parts.append(f"  errors={self.errors!r}")
        return "\n".join(parts) + ">"


class FakeDiscord(FakeDiscordServer):
    """The fake Discord with its test API.

    ::

        fake = FakeDiscord(guild_name="Test", channels=["jeux"])
        await fake.start()          # fake.api_base, fake.gateway_url, fake.token, fake.app_id, fake.guild_id
        alice = fake.add_user("Alice", locale="fr")
        ... start the bot with fake.bot_env ...
        await fake.wait_ready()
        res = await fake.run_command(alice, "jeux", "ludix start", target=300)
        res = await fake.click(alice, res.message, label="Rejoindre")
    """

    def __init__(
        self,
        *,
        settle: float = 0.3,
        timeout: float = 10.0,
        check_deadline: bool = True,
        buffer_when_disconnected: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        #: quiet time after which an answer is considered complete
        self.settle = settle
        #: maximum time `InteractionResult.wait` waits
        self.timeout = timeout
        #: raise DeadlineMissed when a callback misses the deadline
        self.check_deadline = check_deadline
        #: when the bot is disconnected, queue interactions for its RESUME instead of raising NotConnected
        self.buffer_when_disconnected = buffer_when_disconnected
        self._open_results: set[InteractionResult] = set()
        self.results: list[InteractionResult] = []

    # ------------------------------------------------------------------ readiness

    async def wait_ready(self, timeout: float = 20.0, *, commands: bool = True, min_commands: int = 1,
                         fresh: bool = False) -> None:
        """Wait until a bot is identified (READY + GUILD_CREATE sent) and, with `commands`, at least
        `min_commands` application commands are registered. `fresh`: require a new IDENTIFY after this call."""
        start_identify = self.identify_count
        end = time.monotonic() + timeout

        def ok() -> bool:
            if not self.connected:
                return False
            if fresh and self.identify_count <= start_identify:
                return False
            return not commands or len(self.commands) >= min_commands

        while not ok():
            now = time.monotonic()
            if now >= end:
                raise TimeoutError(
                    f"bot not ready after {timeout}s (connected={self.connected}, commands={len(self.commands)}, "
                    f"identifies={self.identify_count}, unhandled={self.unhandled[-5:]}, errors={self.errors[-3:]})")
            await self.wait_changed(end - now)

    async def wait_disconnected(self, timeout: float = 10.0) -> None:
        end = time.monotonic() + timeout
        while self.connected:
            now = time.monotonic()
            if now >= end:
                raise TimeoutError(f"the bot is still connected after {timeout}s")
            await self.wait_changed(end - now)

    async def wait_synced(self, after: int, timeout: float = 20.0) -> None:
        """Wait until `sync_count` exceeds `after` (a command sync happened)."""
        await self.wait_until(lambda: self.sync_count > after, timeout,
                              what=f"a command sync after sync number {after} (syncs: {self.sync_count})")

    async def wait_until(self, cond: Callable[[], bool], timeout: float = 10.0, *, poll: float = 0.1,
                         what: str | None = None) -> None:
        """Wait until `cond()` holds; re-checked at every change of the fake and every `poll` seconds
        (conditions may depend on things the fake does not see, e.g. a process's log). A TimeoutError
        says which wait it was: `what`, or the condition's source and where it was written."""
        end = time.monotonic() + timeout
        while not cond():
            now = time.monotonic()
            if now >= end:
                raise TimeoutError(f"waited {timeout}s in vain for: {describe_wait(cond, what)}")
            await self.wait_changed(min(end - now, poll))

    async def wait_idle(self, quiet: float | None = None, timeout: float = 10.0) -> None:
        """Wait until nothing changed for `quiet` seconds."""
        quiet = self.settle if quiet is None else quiet
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if not await self.wait_changed(quiet):
                return

    async def wait_for_message(self, predicate: Callable[[FakeMessage], bool], timeout: float = 10.0, *,
                               what: str | None = None) -> FakeMessage:
        end = time.monotonic() + timeout
        while True:
            for msg in self.message_by_id.values():
                if not msg.deleted and predicate(msg):
                    return msg
            now = time.monotonic()
            if now >= end:
                raise TimeoutError(f"waited {timeout}s in vain for a message: {describe_wait(predicate, what)}")
            await self.wait_changed(end - now)

    # ------------------------------------------------------------------ output queries

    def messages(self, channel: FakeChannel | str | int | None = None, *, include_deleted: bool = False,
                    visible_to: FakeUser | None = None) -> list[FakeMessage]:
        ch = self.channel(channel) if channel is not None else None
        out = []
        every = self.message_by_id.values() if ch is None else \
            [self.message_by_id[i] for i in self.channel_message_ids.get(ch.id, ()) if i in self.message_by_id]
        for msg in every:
            if ch is not None and msg.channel_id != ch.id:
                continue
            if msg.deleted and not include_deleted:
                continue
            if visible_to is not None and msg.visible_to not in (None, visible_to.id):
                continue
            out.append(msg)
        return out

    def visible_to(self, user: FakeUser, channel: FakeChannel | str | int | None = None) -> list[FakeMessage]:
        """Every (non-deleted) message this user could see: public ones, their ephemerals, their DMs."""
        return self.messages(channel, visible_to=user)

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        ch = self.dm_channels.get(user.id)
        return self.messages(ch) if ch else []

    def last_message(self, channel: FakeChannel | str | int | None = None, *, user: FakeUser | None = None,
                     public: bool | None = None) -> FakeMessage | None:
        msgs = self.messages(channel, visible_to=user)
        if public is not None:
            msgs = [x for x in msgs if (x.visible_to is None) == public]
        return msgs[-1] if msgs else None

    def all_outputs(self) -> list[Output]:
        """Every bot message (any audience, deleted ones included) and every autocomplete answer."""
        outs: list[Output] = []
        for msg in self.message_by_id.values():
            if msg.kind == "user":
                continue
            outs.append(Output("message", msg.visible_to, msg.channel_id, msg.interaction_id, message=msg,
                               at=msg.created_at))
        for entry in self.autocomplete_log:
            rec = self.interactions.get(entry["interaction_id"])
            outs.append(Output("autocomplete", entry["user_id"], rec.channel.id if rec else None,
                               entry["interaction_id"], choices=entry["choices"],
                               at=rec.last_activity if rec else 0.0))
        outs.sort(key=lambda o: o.at)
        return outs

    def command_names(self) -> list[str]:
        """Every invocable slash path ("ludix start", …) with the registered (base) names."""
        out = []
        for cmd in self.commands.values():
            if cmd.type != 1:
                continue

            def walk(prefix: str, opts: list[dict[str, Any]]) -> None:
                subs = [o for o in opts if o.get("type") in (m.OPT_SUB_COMMAND, m.OPT_SUB_COMMAND_GROUP)]
                if not subs:
                    out.append(prefix)
                for o in subs:
                    walk(f"{prefix} {o['name']}", o.get("options") or [])

            walk(cmd.name, cmd.payload.get("options") or [])
        return sorted(out)

    # ------------------------------------------------------------------ users act

    async def run_command(
        self,
        user: FakeUser,
        channel: FakeChannel | str | int,
        path: str,
        options: dict[str, Any] | None = None,
        *,
        wait: bool = True,
        settle: float | None = None,
        timeout: float | None = None,
        until: Callable[[InteractionResult], bool] | None = None,
        deadline: float | None = None,
        check_deadline: bool | None = None,
        validate: bool = True,
        via: Any = None,
        **kwoptions: Any,
    ) -> InteractionResult:
        """User runs ``/path`` (e.g. "ludix start") in a channel with typed options.

        Names may be the registered names or any localization. Values: str/int/bool/float, a
        FakeUser for user options, a FakeChannel for channel options, a choice's value or name
        for options with choices, (filename, bytes) for attachments. ``via``: the gateway session
        (one of :meth:`sessions_of_shard` of the channel's shard) the interaction goes over, when
        two processes run that shard; by default the newest."""
        ch = self.channel(channel)
        given = dict(options or {})
        given.update(kwoptions)
        data = self._command_data(user, ch, path, given, focused=None, validate=validate)
        rec = self._new_interaction(m.IT_APPLICATION_COMMAND, user, ch, data, deadline=deadline)
        rec.command_name = data["name"]
        return await self._fire(rec, "command", wait, settle, timeout, until, check_deadline, via=via)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel | str | int,
        path: str,
        options: dict[str, Any] | None = None,
        *,
        focused: str | None = None,
        timeout: float | None = None,
        deadline: float | None = None,
        check_deadline: bool | None = None,
        mangle: Callable[[dict[str, Any]], str] | None = None,
        **kwoptions: Any,
    ) -> Choices:
        """User types in an autocompleted option; returns the choices the bot offered. ``mangle``:
        as :meth:`raw_command`'s (the payload sent as the JSON text it returns)."""
        ch = self.channel(channel)
        given = dict(options or {})
        given.update(kwoptions)
        if focused is None:
            if len(given) != 1:
                raise TypeError("say which option is focused (focused=...)")
            focused = next(iter(given))
        data = self._command_data(user, ch, path, given, focused=focused, validate=False)
        rec = self._new_interaction(m.IT_AUTOCOMPLETE, user, ch, data, deadline=deadline)
        rec.command_name = data["name"]
        res = await self._fire(rec, "autocomplete", True, 0.0, timeout,
                               lambda r: r.record.callback_type is not None, check_deadline, raw=mangle)
        out = Choices(res.choices or [])
        out.result = res
        return out

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        emoji: str | None = None,
        wait: bool = True,
        settle: float | None = None,
        timeout: float | None = None,
        until: Callable[[InteractionResult], bool] | None = None,
        deadline: float | None = None,
        check_deadline: bool | None = None,
        allow_disabled: bool = False,
    ) -> InteractionResult:
        """User clicks the button (by label, custom_id or emoji) on a message they can see."""
        msg = self._current(message, user)
        if label is None and custom_id is None and emoji is None:
            raise TypeError("click needs label=, custom_id= or emoji=")
        comp = msg.find_component(label=label, custom_id=custom_id, emoji=emoji, types=(m.C_BUTTON,))
        if comp.get("disabled") and not allow_disabled:
            raise ValueError(f"button {comp.get('label')!r} is disabled")
        if comp.get("style") in (5, 6):
            raise ValueError("link / premium buttons do not send interactions")
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": m.C_BUTTON}
        if "id" in comp:
            data["id"] = comp["id"]
        ch = self.channel(msg.channel_id)
        rec = self._new_interaction(m.IT_MESSAGE_COMPONENT, user, ch, data, message=msg, deadline=deadline)
        return await self._fire(rec, "component", wait, settle, timeout, until, check_deadline)

    async def forge_click(self, user: FakeUser, message: FakeMessage | int, custom_id: str, *,
                          settle: float | None = None, timeout: float | None = None) -> InteractionResult:
        """A crafted client sends a button interaction with a custom id that is not on the message."""
        msg = self._current(message, user)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": m.C_BUTTON}
        ch = self.channel(msg.channel_id)
        rec = self._new_interaction(m.IT_MESSAGE_COMPONENT, user, ch, data, message=msg)
        return await self._fire(rec, "component", True, settle, timeout, None, None)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        values: list[Any],
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
        wait: bool = True,
        settle: float | None = None,
        timeout: float | None = None,
        until: Callable[[InteractionResult], bool] | None = None,
        deadline: float | None = None,
        check_deadline: bool | None = None,
    ) -> InteractionResult:
        """User picks `values` (option values or labels; FakeUsers for user selects) in a select menu."""
        msg = self._current(message, user)
        if custom_id is None and placeholder is None:
            selects = msg.selects
            if len(selects) != 1:
                raise LookupError(f"say which select (custom_id= or placeholder=): {m.describe_components(selects)}")
            comp = selects[0]
        else:
            comp = msg.find_component(custom_id=custom_id, placeholder=placeholder, types=m.SELECT_TYPES)
        if comp.get("disabled"):
            raise ValueError("select is disabled")
        ctype = comp["type"]
        lo = comp.get("min_values", 1)
        hi = comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select takes {lo}..{hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": ctype}
        if "id" in comp:
            data["id"] = comp["id"]
        ctx_guild = self.channel(msg.channel_id).guild_id
        if ctype == m.C_STRING_SELECT:
            out = []
            for v in values:
                opt = next((o for o in comp.get("options", []) if o.get("value") == v), None)
                if opt is None:
                    opt = next((o for o in comp.get("options", [])
                                if str(o.get("label", "")).casefold() == str(v).casefold()), None)
                if opt is None:
                    raise ValueError(f"{v!r} is not an option of the select: "
                                     f"{[(o.get('label'), o.get('value')) for o in comp.get('options', [])]}")
                out.append(opt["value"])
            data["values"] = out
        else:
            resolved: dict[str, Any] = {}
            out = []
            for v in values:
                if ctype in (m.C_USER_SELECT, m.C_MENTIONABLE_SELECT) and not isinstance(v, FakeChannel):
                    u = self._as_user(v)
                    out.append(str(u.id))
                    resolved.setdefault("users", {})[str(u.id)] = u.user_payload()
                    mem = self._member_payload(u, self.guilds.get(ctx_guild or 0), with_permissions=True)
                    mem.pop("user")
                    resolved.setdefault("members", {})[str(u.id)] = mem
                elif ctype == m.C_CHANNEL_SELECT:
                    c = self.channel(v)
                    out.append(str(c.id))
                    resolved.setdefault("channels", {})[str(c.id)] = self._resolved_channel(c, user)
                else:
                    rid = int(v)
                    out.append(str(rid))
                    resolved.setdefault("roles", {})[str(rid)] = self._role_payload(self._role(rid))
            data["values"] = out
            data["resolved"] = resolved
        ch = self.channel(msg.channel_id)
        rec = self._new_interaction(m.IT_MESSAGE_COMPONENT, user, ch, data, message=msg, deadline=deadline)
        return await self._fire(rec, "component", wait, settle, timeout, until, check_deadline)

    async def submit_modal(
        self,
        user: FakeUser,
        opened_by: InteractionResult,
        values: dict[str, Any],
        *,
        wait: bool = True,
        settle: float | None = None,
        timeout: float | None = None,
        until: Callable[[InteractionResult], bool] | None = None,
        check_deadline: bool | None = None,
        what: str | None = None,
    ) -> InteractionResult:
        """User fills the modal the bot opened (callback 9) and submits it. `values` keys are the
        inputs' custom_ids or labels; values are strings (or lists for selects in labels)."""
        modal = opened_by.modal
        if modal is None:
            raise ValueError("that interaction did not open a modal")

        used: set[str] = set()

        def value_for(c: dict[str, Any], label: str | None) -> Any:
            required = c.get("required", True)
            for key in (c.get("custom_id"), label):
                if key is not None and key in values:
                    used.add(key)
                    return values[key]
            if required and c.get("type") != m.C_CHECKBOX:
                raise ValueError(f"modal input {label or c.get('custom_id')!r} is required")
            return None

        def answer(c: dict[str, Any], label: str | None) -> dict[str, Any]:
            """What the client sends back for one input, refusing what its form would not let through."""
            t = c.get("type")
            v = value_for(c, label)
            out: dict[str, Any] = {"type": t, "custom_id": c.get("custom_id")}
            if "id" in c:
                out["id"] = c["id"]
            name = label or c.get("custom_id")
            if t == m.C_TEXT_INPUT:
                text = "" if v is None else str(v)
                lo, hi = c.get("min_length") or 0, c.get("max_length") or 4000
                if not text and c.get("required", True):
                    raise ValueError(f"modal input {name!r} is required")
                if text and not lo <= len(text) <= hi:
                    raise ValueError(f"{name!r} takes {lo}..{hi} characters, got {len(text)}")
                if c.get("style") == 1 and "\n" in text:
                    raise ValueError(f"{name!r} is a single-line input")
                out["value"] = text
            elif t == m.C_CHECKBOX:
                out["value"] = bool(v)
            elif t in (m.C_STRING_SELECT, m.C_RADIO_GROUP, m.C_CHECKBOX_GROUP):
                picked = [] if v is None else ([v] if isinstance(v, str) else list(v))
                opts = c.get("options") or []
                chosen = []
                for p in picked:
                    opt = next((o for o in opts if o.get("value") == p), None) or next(
                        (o for o in opts if str(o.get("label", "")).casefold() == str(p).casefold()), None)
                    if opt is None:
                        raise ValueError(f"{p!r} is not an option of {name!r}: {[o.get('label') for o in opts]}")
                    chosen.append(opt["value"])
                if t == m.C_RADIO_GROUP:
                    if len(chosen) > 1:
                        raise ValueError(f"{name!r} takes one option")
                    out["value"] = chosen[0] if chosen else None
                else:
                    lo = c.get("min_values", 1)
                    hi = c.get("max_values", 1 if t == m.C_STRING_SELECT else len(opts))
                    if chosen and not lo <= len(chosen) <= hi:
                        raise ValueError(f"{name!r} takes {lo}..{hi} values, got {len(chosen)}")
                    out["values"] = chosen
            else:  # user / role / mentionable / channel selects, file uploads: ids as given
                out["values"] = [str(getattr(x, "id", x)) for x in ([] if v is None else v)]
            return out

        comps_out = []
        for top in modal.get("components", []):
            if top.get("type") == m.C_ACTION_ROW:
                row = [answer(c, c.get("label")) for c in top.get("components", []) if c.get("type") == m.C_TEXT_INPUT]
                comps_out.append({"type": m.C_ACTION_ROW, **({"id": top["id"]} if "id" in top else {}),
                                  "components": row})
            elif top.get("type") == m.C_LABEL:
                comps_out.append({"type": m.C_LABEL, **({"id": top["id"]} if "id" in top else {}),
                                  "component": answer(top.get("component") or {}, top.get("label"))})
            elif top.get("type") == m.C_TEXT_DISPLAY:
                comps_out.append({"type": m.C_TEXT_DISPLAY, **({"id": top["id"]} if "id" in top else {})})
        unknown = set(values) - used
        if unknown:
            raise ValueError(f"the modal has no input {sorted(unknown)!r}")
        data = {"custom_id": modal["custom_id"], "components": comps_out}
        prev = opened_by.record
        msg = self.message_by_id.get(prev.component_message_id or 0)
        rec = self._new_interaction(m.IT_MODAL_SUBMIT, user, prev.channel, data, message=msg)
        return await self._fire(rec, "modal", wait, settle, timeout, until, check_deadline)

    # -- what a crafted client (or a Discord bug) sends: payloads the bot did not expect (fuzzing)
    async def raw_command(self, user: FakeUser, channel: FakeChannel | str | int, path: str,
                          options: dict[str, Any] | None = None, *, mangle: Callable[[dict[str, Any]], str],
                          wait: bool = True, settle: float | None = None,
                          timeout: float | None = None) -> InteractionResult:
        """``/path`` as :meth:`run_command` builds it (options not validated), then ``mangle(payload)``
        — the INTERACTION_CREATE payload, a copy — gives the JSON text the bot receives as ``d``: it
        may be anything (lone surrogates, fields removed or null, unknown types, not JSON at all).
        Waits (unless ``wait=False``) for an answer without raising when none comes
        (``result.deadline_missed``)."""
        ch = self.channel(channel)
        data = self._command_data(user, ch, path, dict(options or {}), focused=None, validate=False)
        rec = self._new_interaction(m.IT_APPLICATION_COMMAND, user, ch, data)
        rec.command_name = data["name"]
        return await self._fire(rec, "command", wait, settle, timeout, None, False, raw=mangle)

    async def raw_click(self, user: FakeUser, message: FakeMessage | int, *, custom_id: str,
                        mangle: Callable[[dict[str, Any]], str], component_type: int = m.C_BUTTON,
                        wait: bool = True, settle: float | None = None,
                        timeout: float | None = None) -> InteractionResult:
        """A component interaction on ``message`` (the custom id need not be on it), mangled like
        :meth:`raw_command`'s."""
        msg = self._current(message, user)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        ch = self.channel(msg.channel_id)
        rec = self._new_interaction(m.IT_MESSAGE_COMPONENT, user, ch, data, message=msg)
        return await self._fire(rec, "component", wait, settle, timeout, None, False, raw=mangle)

    async def send_message(self, user: FakeUser, channel: FakeChannel | str | int, content: str) -> FakeMessage:
        """A user posts a plain message (dispatched to the bot as MESSAGE_CREATE)."""
        ch = self.channel(channel)
        if not ch.is_dm and not self.is_member(user, ch.guild_id or 0):
            raise PermissionError(f"{user.name} is not a member of the server of {ch.name!r}")
        msg = FakeMessage(id=self._snowflake(), channel_id=ch.id, guild_id=None if ch.is_dm else ch.guild_id,
                          author=user.user_payload(), content=content, kind="user",
                          visible_to=ch.recipient_id if ch.is_dm else None)
        self.add_message(msg)
        self._emit("message_create", msg)
        payload = msg.payload()
        if not ch.is_dm:
            member = self._member_payload(user, self.guild_of(ch))
            member.pop("user")
            payload["member"] = member
        await self.dispatch_event("MESSAGE_CREATE", payload)
        return msg

    # ------------------------------------------------------------------ internals

    # --- Activities: what a Discord client does (fakediscord/activities.py has the server's side) ---------
    def enable_activities(self, on: bool = True) -> str:
        """Turn Activities on for the application (the Developer Portal's switch); returns the client
        secret the bot's host configures for the OAuth2 code exchange."""
        self.activities.enable(on)
        return self.activities.client_secret

    def authorize_activity(self, user: FakeUser, scopes: tuple[str, ...] = ("identify",)) -> str:
        """The Embedded App SDK's ``commands.authorize`` once the user consents: an OAuth2 code."""
        return self.activities.authorize(user.id, scopes)

    def launch_activity(self, user: FakeUser, channel: FakeChannel | str | int) -> str:
        """The user opens the Activity in a channel (the App Launcher): the instance id (joined if one
        already runs there)."""
        ch = self.channel(channel)
        if not ch.is_dm and ch.guild_id is not None and ch.guild_id not in user.guild_ids:
            raise PermissionError(f"{user.name} is not a member of the channel's server")
        return self.activities.launch(user.id, ch.id, None if ch.is_dm else ch.guild_id).instance_id

    def map_activity(self, url: str) -> None:
        """The Activity's URL mapping (prefix ``/``): its proxy forwards ``/_fake/activity/…`` there."""
        self.activities.url_mapping = url

    def activity_client_url(self, user: FakeUser, channel: FakeChannel | str | int, *, platform: str = "mobile") -> str:
        """The page of a Discord client in which ``user`` opens the Activity in ``channel``."""
        return f"{self.base_url}/_fake/client/activity?user={user.id}&channel={self.channel(channel).id}&platform={platform}"

    def leave_activity(self, user: FakeUser, instance_id: str) -> None:
        self.activities.leave(user.id, instance_id)

    def _current(self, message: FakeMessage | int, user: FakeUser) -> FakeMessage:
        mid = message.id if isinstance(message, FakeMessage) else int(message)
        msg = self.message_by_id.get(mid)
        if msg is None or msg.deleted:
            raise LookupError(f"message {mid} does not exist (deleted?)")
        if msg.visible_to not in (None, user.id):
            raise PermissionError(f"{user.name} cannot see message {mid} (visible only to {msg.visible_to})")
        return msg

    def _as_user(self, v: Any) -> FakeUser:
        if isinstance(v, FakeUser):
            return v
        u = self._find_any_user(int(v)) if str(v).isdigit() else None
        return u or self.user(v)

    def _resolved_channel(self, c: FakeChannel, user: FakeUser) -> dict[str, Any]:
        return {"id": str(c.id), "name": c.name, "type": c.type,
                "permissions": str(self.channel_permissions(user, c)),
                "parent_id": None, "nsfw": False, "flags": 0}

    def _command_data(self, user: FakeUser, ch: FakeChannel, path: str, given: dict[str, Any],
                      *, focused: str | None, validate: bool) -> dict[str, Any]:
        names = path.strip().lstrip("/").split()
        if not names:
            raise ValueError("empty command path")
        candidates = [c for c in self.commands.values() if c.type == 1 and (
            (c.guild_id == ch.guild_id and not ch.is_dm) or c.guild_id is None)]
        candidates.sort(key=lambda c: c.guild_id is None)  # guild commands shadow global ones
        top = find_named([c.payload for c in candidates], names[0])
        if top is None:
            raise LookupError(f"no command /{names[0]}; registered: {self.command_names()}")
        cmd = next(c for c in candidates if c.payload is top)
        dmp = top.get("default_member_permissions")
        if dmp is not None and not ch.is_dm:
            need = int(dmp)
            if self.permissions_of(user, ch.guild_id) & need != need:
                raise PermissionError(f"{user.name} cannot see /{top['name']} (needs permissions {need})")
        if ch.is_dm and (top.get("contexts") is not None and 1 not in top["contexts"]):
            raise PermissionError(f"/{top['name']} is not available in DMs")
        chain: list[dict[str, Any]] = []
        node = top
        for nm in names[1:]:
            subs = [o for o in node.get("options") or [] if o.get("type") in (m.OPT_SUB_COMMAND,
                                                                                m.OPT_SUB_COMMAND_GROUP)]
            opt = find_named(subs, nm)
            if opt is None:
                raise LookupError(f"/{' '.join(names)}: no subcommand {nm!r}; registered: {self.command_names()}")
            chain.append(opt)
            node = opt
        leaf_defs = node.get("options") or []
        if any(o.get("type") in (m.OPT_SUB_COMMAND, m.OPT_SUB_COMMAND_GROUP) for o in leaf_defs):
            raise LookupError(f"/{' '.join(names)} needs a subcommand; registered: {self.command_names()}")
        opts, resolved = self._build_options(user, leaf_defs, given, focused=focused, validate=validate,
                                             ctx_guild=ch.guild_id)
        for opt in reversed(chain):
            opts = [{"name": opt["name"], "type": opt["type"], "options": opts}]
        data: dict[str, Any] = {"id": str(cmd.id), "name": top["name"], "type": 1, "options": opts}
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        if resolved:
            data["resolved"] = resolved
        return data

    def _build_options(self, user: FakeUser, defs: list[dict[str, Any]], given: dict[str, Any], *,
                       focused: str | None, validate: bool,
                       ctx_guild: int | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        out: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        provided: set[str] = set()
        for key, value in given.items():
            d = find_named(defs, key)
            if d is None:
                raise TypeError(f"unknown option {key!r}; options: {[o.get('name') for o in defs]}")
            if value is None:
                continue
            name = d["name"]
            t = d.get("type")
            provided.add(name)
            entry: dict[str, Any] = {"name": name, "type": t}
            if focused is not None and find_named([d], focused) is not None:
                entry["value"] = str(value)
                entry["focused"] = True
                out.append(entry)
                continue
            entry["value"] = self._coerce_option(user, d, value, resolved, validate=validate, ctx_guild=ctx_guild)
            out.append(entry)
        if validate and focused is None:
            missing = [o["name"] for o in defs if o.get("required") and o["name"] not in provided]
            if missing:
                raise ValueError(f"missing required option(s) {missing}")
        return out, resolved

    def _coerce_option(self, user: FakeUser, d: dict[str, Any], value: Any, resolved: dict[str, Any], *,
                       validate: bool, ctx_guild: int | None = None) -> Any:
        t = d.get("type")
        name = d["name"]
        choices = d.get("choices") or []
        if choices:
            match = next((c for c in choices if c.get("value") == value), None)
            if match is None:
                match = next((c for c in choices if str(c.get("value")) == str(value)), None)
            if match is None:
                match = next((c for c in choices if str(value) in m.localized_names(c)
                              or str(value).casefold() in {n.casefold() for n in m.localized_names(c)}), None)
            if match is None:
                if validate:
                    raise ValueError(f"{value!r} is not a choice of {name!r}: "
                                     f"{[(c.get('name'), c.get('value')) for c in choices]}")
            else:
                return match["value"]
        if t == m.OPT_STRING:
            v = str(value)
            if validate:
                lo, hi = d.get("min_length"), d.get("max_length")
                if (lo is not None and len(v) < lo) or (hi is not None and len(v) > hi) or len(v) > 6000:
                    raise ValueError(f"option {name!r}: length of {v!r} outside [{lo}, {hi}]")
            return v
        if t in (m.OPT_INTEGER, m.OPT_NUMBER):
            if isinstance(value, bool) and validate:
                raise ValueError(f"option {name!r} wants a number, got {value!r}")
            v = int(value) if t == m.OPT_INTEGER else float(value)
            if validate:
                lo, hi = d.get("min_value"), d.get("max_value")
                if (lo is not None and v < lo) or (hi is not None and v > hi):
                    raise ValueError(f"option {name!r}: {v} outside [{lo}, {hi}]")
            return v
        if t == m.OPT_BOOLEAN:
            if isinstance(value, str):
                return value.strip().lower() in ("true", "1", "yes", "oui", "vrai")
            return bool(value)
        if t in (m.OPT_USER, m.OPT_MENTIONABLE):
            if isinstance(value, FakeChannel):
                raise ValueError(f"option {name!r} wants a user")
            u = self._as_user(value)
            resolved.setdefault("users", {})[str(u.id)] = u.user_payload()
            mem = self._member_payload(u, self.guilds.get(ctx_guild or 0), with_permissions=True)
            mem.pop("user")
            resolved.setdefault("members", {})[str(u.id)] = mem
            return str(u.id)
        if t == m.OPT_CHANNEL:
            c = self.channel(value)
            resolved.setdefault("channels", {})[str(c.id)] = self._resolved_channel(c, user)
            return str(c.id)
        if t == m.OPT_ROLE:
            rid = int(value)
            resolved.setdefault("roles", {})[str(rid)] = self._role_payload(self._role(rid))
            return str(rid)
        if t == m.OPT_ATTACHMENT:
            if isinstance(value, FakeAttachment):
                att = value
            else:
                fname, blob = value
                att = FakeAttachment(id=self._snowflake(), filename=fname, data=bytes(blob), ephemeral=True)
            att.url = f"{self.base_url}/attachments/0/{att.id}/{att.filename}"
            self._uploads[att.id] = att
            resolved.setdefault("attachments", {})[str(att.id)] = att.payload()
            return str(att.id)
        return value

    @property
    def _uploads(self) -> dict[int, FakeAttachment]:
        if not hasattr(self, "_uploads_store"):
            self._uploads_store: dict[int, FakeAttachment] = {}
        return self._uploads_store

    def _serve_attachment(self, path: str):  # also serve attachments given as command options
        resp = super()._serve_attachment(path)
        if resp.status == 404:
            from aiohttp import web
            try:
                att = self._uploads.get(int(path.split("/")[3]))
            except (IndexError, ValueError):
                att = None
            if att is not None:
                return web.Response(body=att.data, content_type=att.payload()["content_type"])
        return resp

    def _new_interaction(self, itype: int, user: FakeUser, ch: FakeChannel, data: dict[str, Any], *,
                         message: FakeMessage | None = None, deadline: float | None = None) -> InteractionRecord:
        iid = self._snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": itype,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(ch.id),
            "channel": self._channel_payload(ch, with_permissions_for=user),
            "locale": user.locale,
            "app_permissions": str(self.channel_permissions(self.bot_user, ch)),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": m.ATTACHMENT_SIZE_LIMIT,
        }
        if ch.is_dm:
            payload["user"] = user.user_payload()
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
        else:
            g = self.guild_of(ch)
            assert g is not None
            if not self.is_member(user, g):
                raise PermissionError(f"{user.name} is not a member of {g.name!r}, where {ch.name!r} is")
            payload["guild_id"] = str(g.id)
            payload["guild"] = {"id": str(g.id), "locale": g.locale, "features": []}
            payload["guild_locale"] = g.locale
            payload["member"] = self._member_payload(user, g, with_permissions=True)
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(g.id)}
        if message is not None:
            payload["message"] = message.payload()
        rec = InteractionRecord(id=iid, token=token, type=itype, user=user, channel=ch, payload=payload,
                                deadline=self.callback_deadline if deadline is None else deadline)
        if message is not None:
            rec.component_message_id = message.id
        return rec

    async def _fire(self, rec: InteractionRecord, kind: str, wait: bool, settle: float | None,
                    timeout: float | None, until, check_deadline: bool | None, *,
                    raw: Callable[[dict[str, Any]], str] | None = None, via: Any = None) -> InteractionResult:
        sess = self.session_for_guild(rec.channel.guild_id)
        if via is not None:
            # Discord sends a server's interactions over that server's shard only
            if via not in self.sessions_of_shard(self.shard_of(rec.channel.guild_id)):
                raise ValueError("via: not a connected session of this channel's shard")
            sess = via
        if sess is None or (not sess.connected and not self.buffer_when_disconnected) or not sess.guild_created:
            raise NotConnected("no bot is connected to the fake Discord gateway")
        self.interactions[rec.id] = rec
        self._by_token[rec.token] = rec
        result = InteractionResult(self, rec, kind)
        self.results.append(result)
        self._open_results.add(result)
        rec.sent_wall = time.monotonic()
        rec.sent_clock = self.clock.now()
        rec.last_activity = rec.sent_wall
        rec.sent_at = time.perf_counter()
        rec.shard_id = sess.shard_id
        if raw is None:
            await self.dispatch_event("INTERACTION_CREATE", rec.payload, session=sess)
        else:
            await self.dispatch_raw("INTERACTION_CREATE", raw(copy.deepcopy(rec.payload)), session=sess)
        self._emit("interaction", rec)
        if not wait:
            return result
        return await result.wait(settle=settle, timeout=timeout, until=until, check_deadline=check_deadline)

    def _attribute(self, msg: FakeMessage) -> None:
        # bot posts (not via an interaction token) in the same channel, or any DM, while an answer is
        # being awaited are counted as part of that answer
        if msg.interaction_id is not None:
            return
        now = time.monotonic()
        for res in list(self._open_results):
            rec = res.record
            if now - rec.sent_wall > 60:
                self._open_results.discard(res)
                continue
            if msg.channel_id == rec.channel.id or msg.is_dm:
                rec.touch(msg.id)
