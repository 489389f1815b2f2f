"""Shared Discord UI pieces: persistent components, replies, refusals.

Every button and select the bot posts carries, in its custom id, the game id, a verb, the game
version it was drawn for, and an optional argument::

    ludibot:<game id>:<verb>:<version>[:<arg>]

so that after a restart every button posted before still finds its game: nothing is kept in
memory per message. The client routes every click whose custom id is on the clicked message to
:func:`run_component` (``Ludibot.on_interaction``) — not through discord.py's ``DynamicItem``,
which rebuilds the clicked message's whole view (every container, section and button of a card)
at each click only to find the one item, a cost the bot paid on every move. Cogs register a
handler per ``(game kind, verb)`` with :class:`ComponentRouter`, and the lobby registers its verbs
for every kind (``"*"``).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord.http import Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot import emojis, i18n, metrics, rules, trace
from bot.cards import TABLE_ACCENT, Card, card_of, clicked_card, rgb
from bot.language import server_lang
from bot.safe import Safe, allowed_mentions, safe_params
from bot.storage.faults import FAULTS, unwritable
from engines.base import RuleError

if TYPE_CHECKING:
    from bot.storage import GameRow

log = logging.getLogger("ludibot.ui")

PREFIX = "ludibot"
CUSTOM_ID = re.compile(r"^ludibot:(?P<game>[0-9]{1,18}):(?P<verb>[a-z_]{1,20}):(?P<version>[0-9]{1,9})"
                       r"(?::(?P<arg>[^:]{1,60}))?$")


#: the statuses of a game whose controls are all stale, and the verbs that still act after its end
ENDED = ("finished", "cancelled")
AFTER_THE_END = frozenset({"rematch", "profile", "dailyplay"})


def custom_id(game_id: int, verb: str, version: int = 0, arg: str | None = None) -> str:
    cid = f"{PREFIX}:{game_id}:{verb}:{version}"
    if arg is not None:
        cid += f":{arg}"
    if len(cid) > 100 or not CUSTOM_ID.match(cid):
        raise ValueError(f"bad custom id {cid!r}")
    return cid


@dataclass
class Click:
    """A parsed component interaction, handed to the registered handler."""

    interaction: discord.Interaction
    game: GameRow
    verb: str
    version: int  # 0 = no staleness check (lobby buttons, "show my hand")
    arg: str | None
    values: list[str]
    #: a modal's answers: input custom id -> its text (or a select's chosen values)
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def check_version(self) -> int | None:
        return self.version or None

    def one_value(self) -> str:
        """The one value a single-choice select sent; none or several (a crafted interaction: a
        select of the bot's never sends them) is refused, ``common.error.select_one``."""
        if len(self.values) != 1:
            raise RuleError("common.error.select_one", count=len(self.values))
        return self.values[0]

    def chosen(self, offered: Any) -> str:
        """:meth:`one_value`, refused (``common.error.not_offered``) unless it is exactly one of the
        ``offered`` values — the options the select was drawn with, computed again from the game as it
        stands: a value never offered (another letter, another case, an accent) is not folded into one."""
        value = self.one_value()
        if value not in set(offered):
            raise RuleError("common.error.not_offered", value=value[:40])
        return value


Handler = Callable[[Click], Awaitable[None]]


class ComponentRouter:
    """``(kind, verb) -> handler``; ``"*"`` as kind matches every game."""

    def __init__(self) -> None:
        self._handlers: dict[tuple[str, str], Handler] = {}

    def register(self, kind: str, verb: str, handler: Handler) -> None:
        self._handlers[(kind, verb)] = handler

    def unregister_kind(self, kind: str) -> None:
        for key in [k for k in self._handlers if k[0] == kind]:
            del self._handlers[key]

    def unregister_verb(self, verb: str) -> None:
        for key in [k for k in self._handlers if k[1] == verb]:
            del self._handlers[key]

    def find(self, kind: str, verb: str) -> Handler | None:
        return self._handlers.get((kind, verb)) or self._handlers.get(("*", verb))


def lang(interaction: discord.Interaction) -> str:
    """The language of the user who interacts (their Discord client's locale)."""
    return i18n.lang_of(interaction.locale)


async def public_lang(interaction: discord.Interaction) -> str:
    """The language of a public message: the server's (``/ludibot config langue:``), French by default."""
    return await server_lang(getattr(interaction.client, "store", None), interaction.guild_id)


async def send(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = False,
               file: discord.File | None = None, view: discord.ui.View | None = None,
               embed: discord.Embed | None = None, files: list[discord.File] | None = None,
               card: Card | None = None) -> int | None:
    """Answer an interaction (response, or follow-up if already answered); the message id if known.

    A public message, and a private one with a picture or controls, is a card (Components V2,
    :mod:`bot.cards`): ``card`` as given, else one made of ``content``, the files (in one gallery) and
    ``view``'s controls. A private plain text (a refusal) stays a plain message."""
    all_files = ([file] if file is not None else []) + list(files or [])
    if card is None and embed is None and (view is not None or all_files or (content and not ephemeral)):
        card = card_of(content, pictures=[f.filename for f in all_files],
                       controls=list(view.children) if view is not None else ())
    kwargs: dict[str, Any] = {"ephemeral": ephemeral}
    if card is not None:
        kwargs["view"] = card.layout()
        kwargs["allowed_mentions"] = allowed_mentions(card.text)
    else:
        kwargs["allowed_mentions"] = allowed_mentions(content)
        if content is not None:
            kwargs["content"] = content[:2000]
        if view is not None:
            kwargs["view"] = view
        if embed is not None:
            kwargs["embed"] = embed
    if all_files:  # several attachments (a gallery: at most 10)
        kwargs["files"] = all_files[:10]
    try:
        if not interaction.response.is_done():
            trace.mark(interaction, "callback")
            resp = await interaction.response.send_message(**kwargs)
            trace.mark(interaction, "answered")
            return getattr(resp, "message_id", None)
        if card is not None:
            msg_id = await follow_up(interaction, card, all_files[:10], ephemeral=ephemeral)
            trace.mark(interaction, "followed")
            return msg_id
        msg = await interaction.followup.send(wait=True, **kwargs)
        return msg.id
    except discord.NotFound:  # the interaction expired (Unknown interaction)
        log.warning("interaction expired before the answer could be sent")
    except discord.HTTPException:
        log.exception("could not answer an interaction")
    return None


async def send_card(interaction: discord.Interaction, text: str, *, seat: int | None = None,
                    ephemeral: bool = False) -> int | None:
    """A short answer (a confirmation, a waiting notice) as a card: its text in a container with the
    accent of ``seat`` (the player it is about), the table's green without one (issue 36)."""
    from render.common import seat_colour

    accent = rgb(seat_colour(seat)) if seat is not None and seat >= 0 else TABLE_ACCENT
    return await send(interaction, card=Card(text=text, accent=accent), ephemeral=ephemeral)


class _Built:
    """What discord.py's payload builders read of a view (``to_components``, ``has_components_v2``):
    a card's components, already JSON (:meth:`bot.cards.Card.components`)."""

    __slots__ = ("components",)

    def __init__(self, components: list[dict[str, Any]]) -> None:
        self.components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self.components

    def has_components_v2(self) -> bool:
        return True


def _http_of(interaction: discord.Interaction) -> tuple[Any, dict[str, Any]]:
    """discord.py's webhook adapter (its rate-limit handling, retries and errors) and the session,
    proxy and proxy auth this interaction's requests go through."""
    http = interaction._state.http
    return async_context.get(), {"session": interaction._session, "proxy": http.proxy,
                                 "proxy_auth": http.proxy_auth}


async def follow_up(interaction: discord.Interaction, card: Card, files: list[discord.File], *,
                    ephemeral: bool = False) -> int | None:
    """A card as a follow-up of an answered interaction; the new message's id (None: not known).

    Each move's public card goes this way (issue 24's budget): the same request as discord.py's
    ``interaction.followup.send(view=card.layout(), wait=True)``, through the same adapter (its
    rate-limit handling, retries and errors), but without building the card's view objects and
    without turning Discord's answer into a ``Message`` (only its id is read). Raises
    ``discord.HTTPException`` as ``followup.send`` would."""
    adapter, via = _http_of(interaction)
    params = handle_message_parameters(
        view=_Built(card.components()), files=files or MISSING,
        flags=discord.MessageFlags(ephemeral=True) if ephemeral else MISSING,
        allowed_mentions=allowed_mentions(card.text), previous_allowed_mentions=interaction._state.allowed_mentions)
    with params:
        data = await adapter.execute_webhook(interaction.application_id, interaction.token, payload=params.payload,
                                             multipart=params.multipart, files=params.files, wait=True,
                                             with_components=True, **via)
    msg_id = data.get("id") if isinstance(data, dict) else None
    if not (isinstance(msg_id, str) and msg_id.isdigit()):  # never from Discord: the outbox posts it again
        log.warning("a follow-up was answered without a message id")
        return None
    return int(msg_id)


async def update_clicked(interaction: discord.Interaction, card: Card) -> None:
    """Answer a click by editing the clicked message into ``card`` (an UPDATE_MESSAGE callback; its
    attachments stay; an edit pings nobody). As ``interaction.response.edit_message(view=card.layout())``, through
    discord.py's adapter, without the view objects and without asking Discord for the message back
    (``with_response``): nothing reads it. Raises ``discord.HTTPException`` as ``edit_message``
    would; afterwards the interaction counts as answered."""
    if interaction.response.is_done():
        raise discord.InteractionResponded(interaction)
    adapter, via = _http_of(interaction)
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value, view=_Built(card.components()),
        allowed_mentions=allowed_mentions(None), previous_allowed_mentions=interaction._state.allowed_mentions)
    trace.mark(interaction, "callback")
    await adapter.request(Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback",
                                webhook_id=interaction.id, webhook_token=interaction.token),
                          payload=params.payload, **via)
    trace.mark(interaction, "answered")
    interaction.response._response_type = discord.InteractionResponseType.message_update


async def edit_answer(interaction: discord.Interaction, content: str | None = None, *,
                      items: list[discord.ui.Item] | None = None, files: list[discord.File] | None = None,
                      card: Card | None = None) -> None:
    """Answer a click by editing the message clicked into a card: ``card``, else ``content`` and
    ``items`` (no items: no controls) with ``files`` as its new pictures (None: the pictures it has).
    A legacy message clicked becomes a card (its content emptied, as Discord requires)."""
    message = interaction.message
    if card is None:
        if files is not None:
            pictures = [f.filename for f in files]
        else:
            shown = clicked_card(interaction)
            pictures = list(shown.pictures) if shown is not None else [
                a.filename for a in getattr(message, "attachments", []) or []]
        card = card_of(content, pictures=pictures, controls=items or ())
    kwargs: dict[str, Any] = {"content": None, "view": card.layout(),
                              "allowed_mentions": allowed_mentions(card.text)}
    if files is not None:
        kwargs["attachments"] = files
    await interaction.response.edit_message(**kwargs)


async def refuse(interaction: discord.Interaction, error: RuleError | str, **params: Any) -> None:
    """An ephemeral, localized, specific refusal. Nothing else happens. Texts in the parameters
    (often what the user typed) are escaped unless the bot built them (:class:`bot.safe.Safe`)."""
    if isinstance(error, RuleError):
        key, params = error.key, {**error.params, **params}
    else:
        key = error
    await send(interaction, i18n.t(key, lang(interaction), **safe_params(params)), ephemeral=True)


async def refuse_unwritable(interaction: discord.Interaction, exc: BaseException) -> bool:
    """The database refused to write (a full disk, a read-only file or server): the user is told that
    nothing could be saved and nothing changed, the fault is remembered for ``/healthz`` and the metrics
    and logged once a minute (:mod:`bot.storage.faults`). False for any other error."""
    reason = unwritable(exc)
    if reason is None:
        return False
    FAULTS.record(reason, exc)
    await refuse(interaction, "common.error.unwritable")
    return True


async def run_component(interaction: discord.Interaction) -> None:
    """A click (or a select) on one of the bot's components, checked to be on the clicked message:
    refused in a DM that reached the wrong process, otherwise handed to :func:`dispatch_component`."""
    if not await dm_guard(interaction):
        return
    t0 = time.perf_counter()
    interaction.extras.setdefault("received", time.monotonic())  # (bot.gamecog: its answer within 3 s)
    trace.mark(interaction, "dispatch")
    try:
        await dispatch_component(interaction)
    finally:
        metrics.observe_command(component_command(interaction), time.perf_counter() - t0)


async def dm_guard(interaction: discord.Interaction) -> bool:
    """DMs reach the process holding shard 0 only; one reaching another process is refused, not played."""
    bot = interaction.client
    settings = getattr(bot, "settings", None)
    if interaction.guild_id is not None or settings is None or settings.runs_shard_zero:
        return True
    log.warning("DM interaction reached a process without shard 0 (shards %s)", settings.shard_ids)
    if interaction.type is not discord.InteractionType.autocomplete:
        await refuse(interaction, "common.error.dm_elsewhere")
    return False


def _options_here(bot: Any) -> rules.Lookup:
    async def options_of(game_id: int, guild_id: int | None) -> dict[str, Any] | None:
        game = await bot.store.get_game(game_id)
        return game.options if game is not None and game.guild_id == guild_id else None

    return options_of


def component_command(interaction: discord.Interaction) -> str:
    """The metrics label of a component: its verb (a small fixed set), e.g. ``component play``."""
    m = CUSTOM_ID.match(str((interaction.data or {}).get("custom_id", "")))
    return f"component {m['verb']}" if m else "component ?"


async def dispatch_component(interaction: discord.Interaction) -> None:
    bot = interaction.client
    data = interaction.data or {}
    cid = str(data.get("custom_id", ""))
    m = CUSTOM_ID.match(cid)
    if not m:
        try:
            page = await rules.turn_page(interaction, _options_here(bot))
        except RuleError as err:  # a page the select did not offer
            await refuse(interaction, err)
            return
        if page is None:
            await refuse(interaction, "common.error.forged_button")
        else:  # a rules card's page, turned in place
            await edit_answer(interaction, page[0], items=page[1])
        return
    sessions = bot.sessions  # type: ignore[attr-defined]
    router: ComponentRouter = bot.router  # type: ignore[attr-defined]
    try:
        # another server's game does not exist here; another channel's is refused as such
        game = await sessions.get_in(int(m["game"]), interaction.guild_id, interaction.channel_id)
        if game.status in ENDED and m["verb"] not in AFTER_THE_END:
            # a control of a game over or cancelled — a private one too (« Ma main », a select of the
            # hand), whatever version it carries: it changes nothing, and says where the game is
            await refuse_stale(interaction, game.id, ended=True)
            return
        handler = router.find(game.kind, m["verb"])
        if handler is None:
            await refuse(interaction, "common.error.forged_button")
            return
        click = Click(interaction=interaction, game=game, verb=m["verb"], version=int(m["version"]),
                      arg=m["arg"], values=[str(v) for v in data.get("values", [])], fields=modal_fields(data))
        await handler(click)
    except RuleError as err:
        if err.key == "common.error.already_played":
            await refuse_stale(interaction, int(m["game"]))
        else:
            await refuse(interaction, err)
    except Exception as exc:
        if await refuse_unwritable(interaction, exc):
            return
        emojis.refused(exc)  # an emoji deleted while the bot runs: the next try goes out with texts
        log.exception("component %s failed", cid)
        await refuse(interaction, "common.error.internal")


def modal_fields(data: dict[str, Any]) -> dict[str, Any]:
    """The answers of a submitted modal (``data.components``: labels, or legacy action rows, each
    holding one input): input custom id -> its text, or a select's list of values."""
    found: dict[str, Any] = {}

    def walk(components: Any) -> None:
        for comp in components or []:
            if not isinstance(comp, dict):
                continue
            cid = comp.get("custom_id")
            if cid and "value" in comp:
                found[str(cid)] = str(comp.get("value") or "")
            elif cid and "values" in comp:
                found[str(cid)] = [str(v) for v in comp.get("values") or []]
            walk(comp.get("components"))
            if isinstance(comp.get("component"), dict):
                walk([comp["component"]])

    walk(data.get("components"))
    return found


def pack_groups(items: list[Any], key: Callable[[Any], Any], *, size: int = 25, lists: int = 5) -> list[list[Any]]:
    """``items`` (in order) cut into at most ``lists`` lists of at most ``size`` each (a form's selects),
    never splitting a run of items of the same ``key`` (one piece's moves, one ship's pivots) over two
    lists — unless that run alone is longer than ``size``. Whatever does not fit is left out."""
    runs: list[list[Any]] = []
    for item in items:
        if runs and key(runs[-1][-1]) == key(item):
            runs[-1].append(item)
        else:
            runs.append([item])
    out: list[list[Any]] = []
    for run in runs:
        while run:
            if out and len(out[-1]) + len(run) <= size:
                out[-1].extend(run)
                run = []
            elif len(out) < lists:
                out.append(run[:size])
                run = run[size:]
            else:
                return out
    return out


class GameModal(discord.ui.Modal):
    """A form opened by a game's button. Its custom id is a game's (``ludibot:<game>:<verb>:<version>``),
    and its submission is routed like a click (:func:`dispatch_component`, from the bot's
    ``on_interaction``), so a form filled across a restart still reaches its game."""

    def __init__(self, title: str, game_id: int, verb: str, *, version: int = 0, arg: str | None = None) -> None:
        super().__init__(title=fit(title, 45), custom_id=custom_id(game_id, verb, version, arg), timeout=900)

    async def on_submit(self, interaction: discord.Interaction, /) -> None:
        return None  # answered by dispatch_component (Bot.on_interaction): also after a restart


def text_input(key: str, label: str, *, placeholder: str | None = None, min_length: int = 1,
               max_length: int = 200, description: str | None = None) -> discord.ui.Label:
    """A labelled one-line text input of a modal."""
    field_ = discord.ui.TextInput(custom_id=key, min_length=min_length, max_length=max_length,
                                  placeholder=placeholder[:100] if placeholder else None)
    return discord.ui.Label(text=fit(label, 45), description=description[:100] if description else None,
                            component=field_)


async def explain_refused_component(interaction: discord.Interaction) -> None:
    """Refuse a component that is not on its message (stale client, crafted id) with the precise
    reason: no such game, game over or cancelled, already played; otherwise "not valid"."""
    m = CUSTOM_ID.match(str((interaction.data or {}).get("custom_id", "")))
    key, params = "common.error.forged_button", {}
    if m:
        game = await interaction.client.store.get_game(int(m["game"]))  # type: ignore[attr-defined]
        if game is None or game.guild_id != interaction.guild_id:  # another server's: no such game here
            key, params = "common.error.no_such_game", {"game": int(m["game"])}
        elif game.status in ENDED:
            await refuse_stale(interaction, game.id, ended=True)
            return
        elif int(m["version"]) and int(m["version"]) != game.version:
            await refuse_stale(interaction, game.id)
            return
    await refuse(interaction, key, **params)


def jump_link(game: GameRow, message_id: int | None = None) -> str:
    """A link to the game's latest public message (or its channel)."""
    where = f"{game.guild_id}/{game.thread_id or game.channel_id}" if game.guild_id else f"@me/{game.channel_id}"
    target = message_id or game.control_message_id
    return f"https://discord.com/channels/{where}" + (f"/{target}" if target else "")


def control_kind(interaction: discord.Interaction) -> str:
    """What was used, as the stale answer names it: ``menu`` (a select), ``form`` (a submitted form) or
    ``button``."""
    if interaction.type is discord.InteractionType.modal_submit:
        return "form"
    kind = (interaction.data or {}).get("component_type")
    return "menu" if kind in (3, 5, 6, 7, 8) else "button"


def markdown_link(text: str, url: str) -> Safe:
    """``[text](url)``: a link Discord shows as its words (the bot's own text and address only)."""
    return Safe(f"[{text}]({url})")


async def refuse_stale(interaction: discord.Interaction, game_id: int, *, ended: bool = False) -> None:
    """A button of an older turn: say so, with a link to the game's current message. (Old messages
    keep their buttons when they are too old to edit: this answer is what makes that harmless.)
    A paused game says why it waits. ``ended``: any control of a game over or cancelled (a private
    one too): the game's end is said first."""
    game = await interaction.client.store.get_game(game_id)  # type: ignore[attr-defined]
    lg = lang(interaction)
    control = control_kind(interaction)
    if ended and game is not None:
        head = i18n.t("common.error.game_finished" if game.status == "finished" else "common.error.game_cancelled",
                      lg, game=game.id)
        link = markdown_link(i18n.t("table.stale.link_text", lg),
                             jump_link(game, game.control_message_id or game.lobby_message_id))
        await send(interaction, head + "\n" + i18n.t("table.stale.ended_link", lg, link=link, control=control),
                   ephemeral=True)
        return
    if game is not None and game.control_message_id:
        text = i18n.t("common.error.already_played_link", lg, control=control,
                      link=markdown_link(i18n.t("table.stale.link_text", lg), jump_link(game)))
    else:
        text = i18n.t("common.error.already_played", lg)
    note = await pause_note(interaction, game) if game is not None else None
    await send(interaction, text + (f"\n{note}" if note else ""), ephemeral=True)


def in_thread(interaction: discord.Interaction) -> bool:
    """The interaction comes from a thread (a game opened there plays there)."""
    channel = interaction.channel
    return isinstance(channel, discord.Thread) or getattr(channel, "type", None) in (
        discord.ChannelType.public_thread, discord.ChannelType.private_thread)


def missing_permissions(interaction: discord.Interaction, *, thread: bool = False,
                        private: bool = False) -> list[str]:
    """The permissions a game needs in this channel (or thread) that the bot lacks; ``thread``: the
    game will have a thread of its own, started here (see bot.threads); ``private``: a private one."""
    perms = interaction.app_permissions
    threaded = in_thread(interaction)
    needed = ["view_channel", "send_messages_in_threads" if threaded else "send_messages", "attach_files",
              "embed_links", "read_message_history"]
    if thread and not threaded:
        needed += ["create_private_threads" if private else "create_public_threads", "send_messages_in_threads"]
    return [name for name in needed if not getattr(perms, name, False)]


def permission_names(names: list[str], lg: str) -> str:
    return ", ".join(i18n.t(f"common.permission.{p}", lg) for p in names)


async def pause_note(interaction: discord.Interaction, game: GameRow) -> str | None:
    """For a player acting on a paused game: resume it when the bot may post there again (None),
    else the sentence that says why it waits."""
    if not game.paused:
        return None
    missing = missing_permissions(interaction)
    if not missing:
        publisher = getattr(interaction.client, "publisher", None)
        if publisher is not None:
            await publisher.resume(game)
        return None
    lg = lang(interaction)
    return i18n.t("common.paused.player", lg, id=game.id, permissions=permission_names(missing, lg))


def matches(current: str, *texts: str) -> bool:
    """Autocomplete filter: what the user typed appears (case-insensitively) in one of ``texts``."""
    wanted = (current or "").strip().casefold()
    return not wanted or any(wanted in t.casefold() for t in texts)


#: Discord's guideline for button labels (clients cut longer ones, phones first): 34 characters
#: beside an emoji, 38 without. The hard limit is 80.
LABEL_MAX, LABEL_MAX_WITH_EMOJI = 38, 34


def fit(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, cut with an ellipsis (a long display name, say)."""
    text = re.sub(r"[^\S\u00a0\u202f]+", " ", text).strip()  # a French no-break space stays
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def label_with_name(key: str, lang: str, name_param: str, name: str, *, emoji: bool = False,
                    **params: Any) -> str:
    """A catalog label naming a player, within the guideline: the *name* is cut, not the rest
    ("Suivre Jean-Christo… (Vers le haut)")."""
    limit = LABEL_MAX_WITH_EMOJI if emoji else LABEL_MAX
    room = limit - len(i18n.t(key, lang, **{name_param: "", **params}))
    return i18n.t(key, lang, **{name_param: fit(name, max(2, room)), **params})


def button(game_id: int, verb: str, label: str, *, version: int = 0, arg: str | None = None,
           style: discord.ButtonStyle = discord.ButtonStyle.secondary, emoji: str | None = None,
           disabled: bool = False) -> discord.ui.Button:
    label = fit(label, LABEL_MAX_WITH_EMOJI if emoji else LABEL_MAX)
    return discord.ui.Button(label=label, custom_id=custom_id(game_id, verb, version, arg), style=style,
                             emoji=emoji, disabled=disabled)


def select(game_id: int, verb: str, placeholder: str, options: list[tuple[str, str]] | list[tuple[str, str, Any]],
           *, version: int = 0, arg: str | None = None, min_values: int = 1, max_values: int = 1) -> discord.ui.Select:
    """``options``: ``(value, label)`` or ``(value, label, emoji)`` (an emoji or None)."""
    opts = [discord.SelectOption(label=label[:100], value=value[:100], emoji=rest[0] if rest else None)
            for value, label, *rest in options[:25]]
    return discord.ui.Select(custom_id=custom_id(game_id, verb, version, arg), placeholder=placeholder[:150],
                             options=opts, min_values=min_values, max_values=min(max_values, len(opts)))


def view_of(*items: discord.ui.Item) -> discord.ui.View:
    """A View (timeout=None) holding persistent items; rows fill in order."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()  # inert, like a card's (bot.cards.Card.layout): discord.py keeps no copy of it
    return view


async def png_file(render: Callable[..., bytes], *args: Any, filename: str = "ludibot.png") -> discord.File:
    """Render off the event loop and wrap as a Discord attachment."""
    import io

    data = await asyncio.to_thread(render, *args)
    return discord.File(io.BytesIO(data), filename=filename)
