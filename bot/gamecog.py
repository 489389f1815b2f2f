"""What every game cog shares: the lobby, the common commands, publishing a turn.

A game cog subclasses :class:`GameCog`, names its ``kind``, defines its own
``start`` command (with the game's options as typed choices) that calls
:meth:`GameCog.open_lobby`, its moves (commands or component verbs) that call
:meth:`GameCog.play`, and the rendering hooks. ``join``, ``leave``, ``status``,
``rules`` and ``cancel`` come from here, as do the lobby's buttons.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable
from dataclasses import replace
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot import emojis, i18n, rules, takeback, trace
from bot.cards import MAX_GALLERY, TABLE_ACCENT, Card, Seat, card_of, clicked_card, from_message, rgb
from bot.community.clocks import clock_line, clocks_of, duration
from bot.community.clocks import line_for as clock_line_for
from bot.community.daily import day_end, replay_open
from bot.community.voting import register_votes, vote_controls
from bot.language import server_lang
from bot.narrate import narrate
from bot.pace import DEFAULT_PACE, FIXED, PACES
from bot.publisher import pause_reason
from bot.render_pool import Picture, RenderPool
from bot.safe import allowed_mentions, escape, ping
from bot.sessions import Outcome, Player, SessionError
from bot.storage import CANCELLED, FINISHED, LOBBY, RUNNING, GameRow
from bot.threads import archive, ensure_thread, private_thread, server_default, thread_link, wants_thread
from bot.translator import L
from bot.ui import (
    CUSTOM_ID,
    Click,
    button,
    custom_id,
    edit_answer,
    in_thread,
    jump_link,
    lang,
    missing_permissions,
    pause_note,
    permission_names,
    public_lang,
    refuse,
    refuse_unwritable,
    send,
    update_clicked,
    view_of,
)
from engines.base import Phrase, RuleError
from render.common import seat_colour

log = logging.getLogger("ludibot.cogs")

#: controls are taken off messages younger than this only (Discord limits edits of older ones)
STRIP_MAX_AGE = 55 * 60
#: seconds after an interaction came by which a publication still drawing its pictures defers its answer:
#: Discord's 3 s, less the way there and back and a margin (issue 36)
ACK_WITHIN = 1.5
#: seconds between a game's end and the drawing of its animated summary (the result's own pictures first)
SUMMARY_DELAY = 2.0
#: a lobby's card edited again at most this many times when the lobby changed during its edit
LOBBY_TRIES = 3
#: Discord's upload limit per file for a bot on a server without boosts (the summary stays under 8 MiB)
UPLOAD_LIMIT = 10 * 1024 * 1024
#: Discord's JSON error code for an edit of a message too old to edit in a busy channel
EDIT_TOO_OLD = 30046


#: the ``rythme`` option of every ``start`` (see bot.pace)
PACE_CHOICES = [app_commands.Choice(name=L(f"common.pace.{p}"), value=p) for p in PACES]


#: the names of an AI's levels, by how many it has: 2 levels are easy and hard
LEVEL_NAMES = {1: ("easy",), 2: ("easy", "hard"), 3: ("easy", "medium", "hard")}


def level_choices(levels: int) -> list[app_commands.Choice[int]]:
    """An AI's levels as named choices (easy … hard), never a bare number."""
    return [app_commands.Choice(name=L(f"common.level.{name}"), value=i + 1)
            for i, name in enumerate(LEVEL_NAMES[levels])]


def level_name(levels: tuple[int, int], level: int) -> Phrase:
    """The name of ``level`` among an engine's ``(lowest, highest)`` levels, as the start command offers it."""
    low, high = levels
    names = LEVEL_NAMES.get(high - low + 1, LEVEL_NAMES[3])
    return Phrase(f"common.level.{names[max(0, min(level - low, len(names) - 1))]}")



def player_of(interaction: discord.Interaction) -> Player:
    perms = getattr(interaction, "permissions", None)
    user = interaction.user
    return Player(user_id=user.id, name=getattr(user, "display_name", None) or user.name,
                  locale=lang(interaction), can_manage=bool(perms and perms.manage_guild),
                  guild_id=interaction.guild_id)


def ended_by(result: Any) -> tuple[str, int] | None:
    """How a game ended before its natural end, from its result's details: ``("resigned" |
    "forfeit" | "removed", seat)`` (a resignation, a forfeit after timeouts, a table's vote), else None."""
    details = getattr(result, "details", None) or {}
    for key, kind in (("resigned", "resigned"), ("forfeit", "forfeit"), ("removed", "removed")):
        seat = details.get(key)
        if type(seat) is int:
            return kind, seat
    losers = [s for s, rank in enumerate(result.ranks) if rank != 1]
    if details.get("reason") == "resign" and len(losers) == 1:  # Tectonic names the reason, not the seat
        return "resigned", losers[0]
    return None


def rank_line(result: Any, seat: int, name: str, lg: str) -> str:
    """A seat's line in a result's ranking (``name`` already escaped): its rank and score (« 1. Alice —
    12 »); a game without scores, or ended before its end, gives none (« 1. Bot 1 »), the seat that
    resigned, forfeited or was voted out says so (« 2. Alice — abandon ») — never « — - »."""
    ended = ended_by(result)
    if ended is not None and seat == ended[1]:
        return i18n.t(f"replay.rank.{ended[0]}", lg, rank=result.ranks[seat], player=name)
    score = result.scores[seat]
    if ended is not None or score is None:
        return i18n.t("replay.rank.plain", lg, rank=result.ranks[seat], player=name)
    return i18n.t("common.label.rank_line", lg, rank=result.ranks[seat], player=name, score=score)


def mention(game: GameRow, seat: int) -> str:
    s = game.seats[seat]
    return escape(s.name) if s.user_id is None else ping(s.user_id)


class GameCog(commands.GroupCog):
    """Base of every game cog. Subclasses set ``kind`` and pass ``group_name``.

    Games are played in servers only (channels and threads): Discord hides the game commands
    in DMs (``guild_only``), and a DM interaction that reaches the bot anyway is refused."""

    kind: ClassVar[str] = ""
    __discord_app_commands_guild_only__ = True

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__()
        self.bot = bot
        self.sessions = bot.sessions  # type: ignore[attr-defined]
        self.engine = engines.get(self.kind)
        self._game_locks: dict[int, asyncio.Lock] = {}

    def game_lock(self, game_id: int) -> asyncio.Lock:
        """Held from a move until its public message is posted, so that in simultaneous games
        two players acting at once publish in the order their moves were applied (and the
        newest message is the one that keeps the controls)."""
        lock = self._game_locks.get(game_id)
        if lock is None:
            lock = self._game_locks[game_id] = asyncio.Lock()
        return lock

    # --- hooks for subclasses --------------------------------------------------------
    def component_handlers(self) -> dict[str, Any]:
        """``verb -> async handler(click)`` for this game's buttons and selects."""
        return {}

    def render_public(self, game: GameRow, view: dict[str, Any], lang: str) -> Picture | None:
        """The table picture, as a job for the render pool: ``picture(render_fn, view, ...)``."""
        return None

    def render_replay(self, game: GameRow, view: dict[str, Any], lang: str) -> Picture | None:
        """A frame of a replay (the viewer, the animated summary) from a public ``view``: the table
        picture, unless the game draws something fuller for it (every board as it stands)."""
        return self.render_public(game, view, lang)

    def render_private(self, game: GameRow, view: dict[str, Any], lang: str) -> Picture | None:
        """The player's own picture, as a job for the render pool (see :meth:`render_public`)."""
        return None

    # --- drawing (in the render pool, off the interpreter lock) ----------------------
    async def render(self, job: Picture | Any, *args: Any) -> bytes | None:
        """Draw a :class:`Picture` (or a render function and its arguments) in the render pool."""
        if job is None:
            return None
        pool: RenderPool | None = getattr(self.bot, "render_pool", None)
        if pool is None:
            return await asyncio.to_thread(job if isinstance(job, Picture) else Picture(job, args))
        return await pool.run(job, *args)

    async def render_public_cached(self, game: GameRow, view: dict[str, Any], lang: str) -> bytes | None:
        """The public picture of this version of the game (drawn once: status, spectators and
        republication reuse it)."""
        job = self.render_public(game, view, lang)
        pool: RenderPool | None = getattr(self.bot, "render_pool", None)
        if pool is None or job is None:
            return await self.render(job) if job is not None else None
        return await pool.cached((game.id, game.version, lang, "public"), job)

    def render_public_gallery(self, game: GameRow, view: dict[str, Any], lang: str) -> list[Picture]:
        """Several public pictures instead of :meth:`render_public`'s one — the final boards, one
        attachment each, so that a phone shows every board across its width. Empty: the one picture."""
        return []

    async def public_files(self, game: GameRow, view: dict[str, Any], lang: str) -> list[discord.File]:
        """The public message's attachments: the gallery if the game draws one, else the one picture."""
        jobs = self.render_public_gallery(game, view, lang)
        if not jobs:
            image = await self.render_public_cached(game, view, lang)
            return [discord.File(io.BytesIO(image), filename=f"{self.kind}-{game.id}.png")] if image else []
        pool: RenderPool | None = getattr(self.bot, "render_pool", None)
        if pool is None:
            images = [await self.render(job) for job in jobs]
        else:
            images = await asyncio.gather(*(pool.cached((game.id, game.version, lang, "public", i), job)
                                            for i, job in enumerate(jobs)))
        return [discord.File(io.BytesIO(image), filename=f"{self.kind}-{game.id}-{i + 1}.png")
                for i, image in enumerate(images) if image][:10]

    def publish_image(self, outcome: Outcome, view: dict[str, Any]) -> bool:
        """Whether this public message carries the table image (a game may skip it for small steps)."""
        return True

    def turn_controls(self, game: GameRow, view: dict[str, Any], lang: str) -> list[discord.ui.Item]:
        """Buttons shown under the public turn message (custom ids carry game.version)."""
        return []

    def options_text(self, game: GameRow, lang: str) -> str:
        parts = []
        for name, value in game.options.items():
            label = i18n.t(f"{self.kind}.option.{name}", lang) if i18n.has(f"{self.kind}.option.{name}") else name
            words = self.option_words(value, lang)
            parts.append(f"{label}\u00a0: {words}" if lang == "fr" else f"{label}: {words}")
        return ", ".join(parts) or "-"

    def option_words(self, value: Any, lang: str) -> str:
        """An option's value in words: yes/no, the label of a named choice (``<kind>.choice|mode|
        variant|option.<value>`` in the game's catalog), else the value itself (a number)."""
        if isinstance(value, bool):
            return i18n.t(f"table.value.{'yes' if value else 'no'}", lang)
        for family in ("choice", "mode", "variant", "option"):
            key = f"{self.kind}.{family}.{value}"
            if isinstance(value, str) and i18n.has(key):
                return i18n.t(key, lang)
        return escape(str(value))

    # --- registration ----------------------------------------------------------------
    async def cog_load(self) -> None:
        self.bot.game_cogs[self.kind] = self  # type: ignore[attr-defined]
        router = self.bot.router  # type: ignore[attr-defined]
        for verb, handler in self.component_handlers().items():
            router.register(self.kind, verb, handler)
        router.register(self.kind, "mine", self._on_show_private)

    async def cog_unload(self) -> None:
        self.bot.game_cogs.pop(self.kind, None)  # type: ignore[attr-defined]
        self.bot.router.unregister_kind(self.kind)  # type: ignore[attr-defined]

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.NoPrivateMessage):
            await refuse(interaction, "common.error.dm_game")
            return
        if isinstance(error, app_commands.CommandSignatureMismatch):  # a client's list of commands is stale
            await refuse(interaction, "payload.error.stale_command")
            return
        original = getattr(error, "original", error)
        if isinstance(original, RuleError):
            await refuse(interaction, original)
            return
        if await refuse_unwritable(interaction, original):
            return
        emojis.refused(original)  # an emoji deleted while the bot runs: the next try goes out with texts
        log.exception("command failed", exc_info=original)
        await refuse(interaction, "common.error.internal")

    # --- finding the game a command means -------------------------------------------
    async def resolve(self, interaction: discord.Interaction, partie: int | None = None,
                      statuses: tuple[str, ...] = (LOBBY, RUNNING)) -> GameRow:
        """The game of this kind a command typed here means: ``partie`` if it is a game of this
        server and this channel (or thread), else the only one here (see ``SessionService.find``). A daily
        challenge is its player's until its day is over (issue 37): nobody else sees its draw."""
        game = await self.sessions.find(channel_id=interaction.channel_id, kind=self.kind,
                                        user_id=interaction.user.id, game_id=partie, statuses=statuses,
                                        guild_id=interaction.guild_id)
        if not replay_open(game, interaction.user.id, getattr(self.bot, "clock", time.time)()):
            raise SessionError("community.daily.private", game=game.id,
                               until=f"<t:{int(day_end(game.settings['daily']['day']))}:R>")
        return game

    def player_state(self, interaction: discord.Interaction, game: GameRow) -> tuple[Any, int]:
        """The running game's engine state and the user's seat, or a specific refusal
        (not started / over / cancelled / not a player)."""
        self.sessions.require_status(game, RUNNING)
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise SessionError("common.error.not_a_player", game=game.id)
        return self.engine.from_dict(game.state), seat

    def mover_state(self, interaction: discord.Interaction, game: GameRow, version: int | None) -> tuple[Any, int]:
        """:meth:`player_state` for a game of one player at a time whose form is about to open: the user is
        the seat to play, and a control that carries a version (``Click.check_version``, None: none) is
        of the current one."""
        state, seat = self.player_state(interaction, game)
        if seat != state.current:
            raise SessionError("common.error.not_your_turn")
        if version is not None and version != game.version:
            raise SessionError("common.error.already_played")
        return state, seat

    async def seated(self, interaction: discord.Interaction) -> tuple[GameRow, Any, int] | None:
        """For autocomplete: the user's running game here (the ``partie`` option if typed), its
        state and the user's seat; None when there is none. Never raises: autocomplete answers
        an empty list rather than an error."""
        partie = getattr(interaction.namespace, "partie", None)
        try:
            game = await self.resolve(interaction, int(partie) if partie is not None else None, (RUNNING,))
        except (RuleError, ValueError, TypeError, OverflowError):
            return None
        seat = game.seat_of(interaction.user.id)
        if seat is None or game.status != RUNNING or game.state is None:
            return None
        return game, self.engine.from_dict(game.state), seat

    async def partie_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[int]]:
        games = [g for g in await self.sessions.store.games_in_channel(interaction.channel_id, (LOBBY, RUNNING),
                                                                       kind=self.kind)
                 if g.guild_id == interaction.guild_id and not g.broken]
        lg = lang(interaction)
        out = []
        for g in games:
            label = i18n.t("common.label.game_choice", lg, id=g.id, players=", ".join(g.names),
                           status=i18n.t(f"common.status.{g.status}", lg))
            if current and current not in str(g.id) and current.lower() not in label.lower():
                continue
            out.append(app_commands.Choice(name=label[:100], value=g.id))
        return out[:25]

    # --- the lobby (issue 24: its card always shows the newest seats, through the outbox) ----------
    def lobby_text(self, game: GameRow, lg: str, table: list[str] | None = None) -> str:
        """The lobby's words: its seats (AI seats with their level), options, and ``table`` (the pace
        with its clock and the thread, see :meth:`table_lines`)."""
        low, high = getattr(self.engine, "ai_levels", (1, 1))
        levels = high > low  # a game with one AI level does not name it
        seats = "\n".join(
            f"{i + 1}. {escape(s.name)}" + (
                f" ({i18n.t('table.lobby.ai', lg, level=level_name((low, high), s.ai_level or low))})"
                if s.is_ai and levels
                else f" ({i18n.t('common.label.ai', lg)})" if s.is_ai else "")
            for i, s in enumerate(game.seats))
        text = i18n.t("common.lobby.text", lg, game=i18n.t(f"{self.kind}.name.title", lg), id=game.id,
                      creator=ping(game.creator_id), count=len(game.seats), min=self.engine.min_players,
                      max=self.lobby_max(game), seats=seats, options=self.options_text(game, lg),
                      fixed="yes" if self.engine.min_players == self.lobby_max(game) else "no",
                      reserved=ping(int(reserved)) if (reserved := game.settings.get("reserved_for")) else "none")
        if table:
            head, _, tail = text.rpartition("\n")  # the table settings above the closing instruction
            text = "\n".join([head, *table, tail]) if head else "\n".join([text, *table])
        return text

    def lobby_max(self, game: GameRow) -> int:
        """The seats a lobby offers: a /defi lobby is a table of two (its creator and the member
        challenged), whatever the game allows."""
        if game.settings.get("reserved_for") is not None:
            return min(2, self.engine.max_players)
        return self.engine.max_players

    async def table_lines(self, game: GameRow, lg: str) -> list[str]:
        """The table settings in words: the pace with its clock (the server's timers for ``normal``),
        and whether the game gets a thread of its own."""
        pace = game.settings.get("pace")
        bank = increment = None
        community = getattr(self.bot, "community", None)
        if community is not None:
            try:
                scheduler = community.scheduler
                pace = pace or (await scheduler.timers(game.guild_id, game.kind)).pace
                clock = await scheduler.profile_of(game)
                if clock.timed:
                    bank, increment = clock.bank_s, clock.increment_s
            except Exception:  # a lobby must not break for a clock
                log.exception("game %s: its clock could not be read for the lobby", game.id)
        elif pace in FIXED:
            bank, increment = FIXED[pace].bank_s, FIXED[pace].increment_s
        name = i18n.t(f"table.pace.{pace if pace in PACES else DEFAULT_PACE}", lg)
        lines = [i18n.t("table.lobby.pace", lg, pace=name, bank=duration(bank, lg), increment=duration(increment, lg))
                 if bank else i18n.t("table.lobby.pace_untimed", lg, pace=name)]
        if game.guild_id is not None:
            lines.append(i18n.t("table.lobby.thread_own" if wants_thread(game) else "table.lobby.thread_here", lg))
        return lines

    async def lobby_card(self, game: GameRow, lg: str, *, note: str | None = None) -> Card:
        """The lobby's card for the game's state: seats and settings, with the lobby's buttons while
        it is open; "started" or "cancelled" (no buttons) once it is not."""
        text = self.lobby_text(game, lg, await self.table_lines(game, lg))
        if game.status == LOBBY:
            return Card(text=text + (f"\n{note}" if note else ""), accent=TABLE_ACCENT,
                        groups=(tuple(self.lobby_controls(game, lg)),))
        ending = i18n.t("table.lobby.cancelled" if game.status == CANCELLED else "common.lobby.started", lg)
        return Card(text="\n".join([text, ending, *([note] if note else [])]), accent=TABLE_ACCENT)

    def lobby_controls(self, game: GameRow, lg: str) -> list[discord.ui.Item]:
        items = [
            button(game.id, "join", i18n.t("common.button.join", lg), style=discord.ButtonStyle.primary),
            button(game.id, "leave", i18n.t("common.button.leave", lg)),
        ]
        challenge = game.settings.get("reserved_for") is not None  # /defi: starts once its member joins
        if self.engine.has_ai and not challenge:
            items.append(button(game.id, "addai", i18n.t("common.button.add_ai", lg)))
        if not challenge:
            items.append(button(game.id, "start", i18n.t("common.button.start", lg),
                                style=discord.ButtonStyle.success))
        items.append(button(game.id, "cancel", i18n.t("common.button.cancel", lg), style=discord.ButtonStyle.danger))
        return items

    async def lobby_changed(self, game: GameRow) -> None:
        """A lobby changed (or a game was cancelled) outside its card's buttons — a slash command:
        its card is owed to the channel (the outbox); publish it now, the publisher retrying it if
        Discord refuses or the process dies meanwhile."""
        if game.status not in (LOBBY, CANCELLED):
            return  # started meanwhile: its turn is published as a turn
        publisher = getattr(self.bot, "publisher", None)
        if publisher is not None:
            await publisher.publish_game(game)
            return
        try:
            await self.publish_lobby(game)
        except discord.HTTPException:
            log.info("game %s: its lobby card could not be updated", game.id)

    async def publish_lobby(self, game: GameRow) -> int | None:
        """Make the channel show the newest version of a lobby (its card edited in place, or posted
        anew when it is gone or too old to edit) or of a cancelled game (its card says so, the controls
        of its table are taken off); then mark it published. A game that started meanwhile is left to
        its turn.

        The game's lock is held to read the game and compose its card, and again to mark it published,
        never across the edit, which may wait on the channel's rate limit: a click on the lobby
        (« Rejoindre », « Lancer ») meanwhile is answered at once (issue 36). If the game changed during
        the edit, the card shown may be the older one: it is composed and edited again, with the game's
        newest version (« started » once it started: the start's answer may have been overwritten)."""
        msg_id: int | None = None
        for attempt in range(LOBBY_TRIES):
            async with self.game_lock(game.id):
                fresh = await self.sessions.store.get_game(game.id)
                # (again after an edit that may have overwritten a newer card: even if that one was marked)
                if fresh is None or (not fresh.due and attempt == 0) or fresh.status not in (LOBBY, CANCELLED):
                    return None
                game = fresh
                strip = game.status == CANCELLED and game.control_message_id
                card = None if strip else await self.lobby_card(game, await self.public_lang_of(game))
            msg_id = game.lobby_message_id
            if strip:  # a running game cancelled: its table's buttons off
                await self._strip_controls(game.thread_id or game.channel_id, game.control_message_id)
            else:
                try:
                    msg_id = await self._edit_or_post(game.channel_id, msg_id, card, post=game.status == LOBBY)
                except discord.HTTPException:
                    if game.status == LOBBY:
                        raise  # retried, or the lobby paused, by the publisher
                    log.info("game %s: its lobby card could not say it was cancelled", game.id)
            async with self.game_lock(game.id):
                if msg_id and msg_id != game.lobby_message_id:
                    await self.sessions.store.set_message_ids(game.id, lobby=msg_id)
                now = await self.sessions.store.get_game(game.id)
                if now is None or now.version == game.version:
                    await self.sessions.store.mark_published(game.id, game.version, None)
                    return msg_id
            if now.status not in (LOBBY, CANCELLED):  # started while the card was edited
                if not strip and msg_id:
                    await self._show_started(now, msg_id)
                return msg_id
            game = now  # changed while the card was edited: show the newest version
        return msg_id

    async def _show_started(self, game: GameRow, message_id: int) -> None:
        """A lobby edit that may have landed after the start's answer: the card says it started (and
        where, in a thread of its own). Best effort: the turn matters."""
        lg = await self.public_lang_of(game)
        card = await self.lobby_card(game, lg)
        if game.thread_id:
            card = replace(card, text=card.text + "\n" + i18n.t("common.thread.started", lg, thread=f"<#{game.thread_id}>"))
        try:
            await self._edit_or_post(game.channel_id, message_id, card, post=False)
        except discord.HTTPException:
            log.info("game %s: its lobby card could not be marked started", game.id)

    async def refresh_started_lobby(self, game: GameRow) -> None:
        """A game the channel has not seen start (a crash between the start and its answer; a game in
        its own thread, whose thread and first turn are the publisher's): its lobby card says it
        started (and where: the thread, created now from the card), before the first turn is posted.
        Best effort: the turn matters."""
        if game.lobby_message_id is None or game.control_message_id is not None:
            return
        try:
            lg = await self.public_lang_of(game)
            card = await self.lobby_card(game, lg)
            if wants_thread(game) and not private_thread(game):  # started from this card: it points to it
                thread_id = await ensure_thread(self.bot, game, lg)
                card = replace(card, text=card.text + "\n" + i18n.t("common.thread.started", lg, thread=f"<#{thread_id}>"))
            await self._edit_or_post(game.channel_id, game.lobby_message_id, card, post=False)
        except discord.HTTPException:
            log.info("game %s: its lobby card could not be marked started", game.id)

    async def _edit_or_post(self, channel_id: int, message_id: int | None, card: Card, *,
                            post: bool) -> int | None:
        """Edit ``message_id`` to show ``card`` (a legacy message becomes a card: its content emptied);
        when it is gone (or Discord refuses to edit a message that old, 30046) post it anew if
        ``post``. Other refusals propagate (the publisher decides)."""
        channel = self.bot.get_partial_messageable(channel_id)
        if message_id:
            try:
                await channel.get_partial_message(message_id).edit(content=None, view=card.layout(),
                                                                   allowed_mentions=allowed_mentions(card.text))
                return message_id
            except discord.NotFound:
                pass
            except discord.HTTPException as err:
                if err.code != EDIT_TOO_OLD:
                    raise
        if not post:
            return None
        return await self.post(channel_id, card=card)

    async def open_lobby(self, interaction: discord.Interaction, options: dict[str, Any], *,
                         ai_seats: int = 0, ai_level: int = 1, solo: bool = False,
                         pace: str | None = None, thread: bool | None = None) -> None:
        """Create a lobby (the creator is seated) and post it with its buttons.

        A game for one player (solo) starts at once. ``pace`` (``rythme``) and ``thread`` (``fil``)
        are the table settings every ``start`` offers (None: the server's default). Whether the
        game gets a thread of its own is decided here (see bot.threads): a lobby opened in a thread
        plays in it.
        """
        if in_thread(interaction):
            thread = False
        elif thread is None and interaction.guild_id is not None:
            thread = server_default(await self.sessions.store.guild_settings(interaction.guild_id))
        self.require_permissions(interaction, thread=bool(thread))
        player = player_of(interaction)
        game = await self.sessions.open_lobby(self.kind, guild_id=interaction.guild_id,
                                              channel_id=interaction.channel_id, player=player,
                                              options=options, ai_seats=ai_seats, ai_level=ai_level,
                                              pace=pace, thread=thread)
        lg = await public_lang(interaction)
        if solo and self.engine.min_players <= len(game.seats):
            await self.publish_started(interaction, await self.sessions.start(game.id, player), lg)
            return
        msg_id = await send(interaction, card=await self.lobby_card(game, lg))
        if msg_id:
            await self.sessions.store.set_message_ids(game.id, lobby=msg_id)
            await self.sessions.store.mark_published(game.id, game.version, None)

    async def publish_started(self, interaction: discord.Interaction, outcome: Outcome, lg: str, *,
                              first: list[str] | None = None) -> None:
        """The answer to a command (or a click) that started a solo game at once: its first turn (in a
        thread of its own, the answer is the message the thread starts from)."""
        if wants_thread(outcome.game) and not private_thread(outcome.game):
            # (a private thread starts from no message: the answer then says where the game is, privately)
            msg_id = await send(interaction, card=await self.lobby_card(outcome.game, lg))
            if msg_id:
                await self.sessions.store.set_message_ids(outcome.game.id, lobby=msg_id)
                outcome.game.lobby_message_id = msg_id
        await self.publish(outcome, interaction, first=first)

    async def _lobby_refresh(self, click: Click, game: GameRow, note: str | None = None) -> None:
        """A lobby button changed the lobby: its answer is the card, edited, with the newest seats
        (read again under the game's lock: of two clicks at once, the later answer shows both)."""
        async with self.game_lock(game.id):
            game = await self.sessions.store.get_game(game.id) or game
            lg = await public_lang(click.interaction)
            await edit_answer(click.interaction, card=await self.lobby_card(game, lg, note=note))
            message = click.interaction.message
            if message is not None and message.id == game.lobby_message_id and game.status in (LOBBY, CANCELLED):
                await self.sessions.store.mark_published(game.id, game.version, None)
        if message is None or message.id != game.lobby_message_id:
            await self.lobby_changed(game)  # a copy of the card was clicked: the card itself too

    async def on_join(self, click: Click) -> None:
        player = player_of(click.interaction)
        game = await self.sessions.join(click.game.id, player)
        if self.sessions.challenge_complete(game):  # /defi: the challenged member took their seat
            await self._start_clicked(click, player, challenge=True)
            return
        await self._lobby_refresh(click, game)

    async def on_leave(self, click: Click) -> None:
        game = await self.sessions.leave(click.game.id, player_of(click.interaction))
        await self._lobby_refresh(click, game)

    async def on_add_ai(self, click: Click) -> None:
        game = await self.sessions.add_ai(click.game.id, player_of(click.interaction))
        await self._lobby_refresh(click, game)

    async def on_start(self, click: Click) -> None:
        await self._start_clicked(click, player_of(click.interaction))

    async def _start_clicked(self, click: Click, player: Player, *, challenge: bool = False) -> None:
        """Start the clicked lobby (« Lancer », or the challenged member's « Rejoindre » on a /defi
        lobby): its card says so, the game's first turn follows."""
        if wants_thread(click.game):
            self.require_permissions(click.interaction, thread=True)
        async with self.game_lock(click.game.id):
            outcome = await self.sessions.start(click.game.id, player, challenge=challenge)
            lg = await public_lang(click.interaction)
            card = await self.lobby_card(outcome.game, lg)
            await edit_answer(click.interaction, card=Card(text=card.text, accent=card.accent))
            # a game in its own thread: the thread is created, the card points to it and the first turn
            # is posted there by the publisher, after the lock (issue 36: creating a thread may wait)
            await self.publish(outcome, click.interaction)

    async def on_rematch(self, click: Click) -> None:
        """« Revanche » under a finished game: a new lobby with the same seats and options; the
        former players are called to confirm by joining."""
        lobby, fresh = await self.sessions.rematch(click.game.id, player_of(click.interaction))
        lg = await self.public_lang_of(click.game)
        if not fresh:
            await send(click.interaction, i18n.t("common.lobby.rematch_exists", lang(click.interaction), id=lobby.id,
                                                 link=jump_link(lobby, lobby.lobby_message_id)), ephemeral=True)
            return
        others = [s.user_id for s in click.game.seats if s.user_id and s.user_id != click.interaction.user.id]
        call = i18n.t("common.lobby.rematch_call", lg, id=click.game.id,
                      players=", ".join(f"<@{u}>" for u in others)) if others else ""
        msg_id = await send(click.interaction, card=await self.lobby_card(lobby, lg, note=call or None))
        if msg_id:
            await self.sessions.store.set_message_ids(lobby.id, lobby=msg_id)
            await self.sessions.store.mark_published(lobby.id, lobby.version, None)

    async def on_cancel(self, click: Click) -> None:
        game = await self.sessions.cancel(click.game.id, player_of(click.interaction))
        lg = await public_lang(click.interaction)
        text = i18n.t("common.lobby.cancelled", lg, game=i18n.t(f"{self.kind}.name.title", lg), id=game.id,
                      by=click.interaction.user.mention)
        if click.game.status == LOBBY:
            await self._lobby_refresh(click, game, note=text)  # the card says who cancelled it, without buttons
        else:
            await send(click.interaction, text)
            await self.lobby_changed(game)  # the table's controls off

    # --- resigning (games where a player may give up on either turn) ----------------------
    async def ask_resign(self, interaction: discord.Interaction, partie: int | None = None) -> None:
        """Ephemeral confirmation buttons; the keys come from the game's own catalog
        (``<kind>.button.resign|keep``, ``<kind>.ui.resign_confirm|resign_done|resign_kept``)."""
        game = await self.resolve(interaction, partie)
        if game.status == LOBBY:
            raise SessionError("common.error.not_started", game=game.id)
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise SessionError("common.error.not_a_player", game=game.id)
        lg = lang(interaction)
        owner = str(interaction.user.id)
        controls = view_of(
            button(game.id, "resign", i18n.t(f"{self.kind}.button.resign", lg), arg=owner,
                   style=discord.ButtonStyle.danger, emoji="🏳️"),
            button(game.id, "keep", i18n.t(f"{self.kind}.button.keep", lg), arg=owner))
        opponents = ", ".join(escape(s.name) for s in game.seats if s.seat != seat)
        await send(interaction, i18n.t(f"{self.kind}.ui.resign_confirm", lg, id=game.id, opponent=opponents),
                   ephemeral=True, view=controls)

    async def on_resign(self, click: Click) -> None:
        user = click.interaction.user
        if click.arg != str(user.id):
            raise RuleError(f"{self.kind}.error.not_your_button")
        async with self.game_lock(click.game.id):
            outcome = await self.sessions.act(click.game.id, user.id, {"type": "resign"}, any_turn=True)
            await edit_answer(click.interaction, i18n.t(f"{self.kind}.ui.resign_done", lang(click.interaction),
                                                        id=click.game.id))
            await self.publish(outcome, click.interaction)

    async def on_keep(self, click: Click) -> None:
        if click.arg != str(click.interaction.user.id):
            raise RuleError(f"{self.kind}.error.not_your_button")
        await edit_answer(click.interaction, i18n.t(f"{self.kind}.ui.resign_kept", lang(click.interaction),
                                                    id=click.game.id))

    # --- publishing a turn -----------------------------------------------------------
    def ranking_lines(self, outcome: Outcome, lg: str) -> list[str]:
        result = outcome.result
        game = outcome.game
        if result is None:
            return []
        lines = [i18n.t("common.event.final", lg)]
        for seat in sorted(range(len(game.seats)), key=lambda s: (result.ranks[s], s)):
            lines.append(rank_line(result, seat, escape(game.seats[seat].name), lg))
        return lines

    # --- the seats of a card (issue 24) ------------------------------------------------
    #: the catalog key of a seat's score on a card (``n``: the number): points, or the game's own unit
    score_key: ClassVar[str] = "cards.seat.points"

    def seat_scores(self, game: GameRow, view: dict[str, Any]) -> list[Any] | None:
        """Each seat's score while the game runs, from the public view (None: the game shows none):
        the view's ``scores`` by default."""
        scores = view.get("scores")
        return scores if isinstance(scores, list) and len(scores) == len(game.seats) else None

    def seats_of(self, game: GameRow, view: dict[str, Any], lg: str, *,
                 clocks: dict[int, tuple[float | None, float | None]] | None = None,
                 result: Any = None) -> tuple[Seat, ...]:
        """The seats of the game's card: while it runs, each player's name, score (games that keep
        one) and clock (the deadline of the seat to play, the bank of the others, a vacation); at
        the end, the ranking, one seat per rank line. Each has « Profil », an AI seat its level
        (disabled). Pure Python over the row and the view: no store query."""
        if game.status not in (RUNNING, FINISHED):
            return ()
        ranked = result if game.status == FINISHED else None
        if game.status == FINISHED and ranked is None:
            return ()
        expected = self.sessions.expected_seats(game) if game.status == RUNNING else set()
        scores = self.seat_scores(game, view) if ranked is None else None
        low, high = getattr(self.engine, "ai_levels", (1, 1))
        profile = i18n.t("cards.seat.profile", lg)
        now = getattr(self.bot, "clock", time.time)()  # the scheduler's clock: its deadlines
        seats: list[Seat] = []
        order = (sorted(range(len(game.seats)), key=lambda s: (ranked.ranks[s], s)) if ranked is not None
                 else range(len(game.seats)))
        for i in order:
            s = game.seats[i]
            ai = None
            if s.is_ai:
                level = (level_name((low, high), s.ai_level or low) if high > low
                         else i18n.t("common.label.ai", lg))
                ai = i18n.t("cards.seat.ai", lg, level=level)
            name = escape(s.name)
            line = score = clock = None
            if ranked is not None:
                line = rank_line(ranked, i, name, lg)
            else:
                if scores is not None and scores[i] is not None:
                    score = i18n.t(self.score_key, lg, n=scores[i])
                left, away = (clocks or {}).get(i, (None, None))
                if away is not None:
                    clock = i18n.t("cards.seat.away", lg, until=f"<t:{int(away)}:D>")
                elif left is not None and i in expected:
                    clock = i18n.t("cards.seat.deadline", lg, deadline=f"<t:{int(now + left)}:R>")
                elif left is not None:
                    clock = i18n.t("cards.seat.bank", lg, time=duration(left, lg))
            seats.append(Seat(name=name, score=score, clock=clock, to_play=i in expected, ai=ai,
                              button=custom_id(game.id, "profile", 0, str(i)), label=ai or profile, line=line))
        return tuple(seats)

    def turn_line(self, game: GameRow, lg: str, seats: set[int] | None = None) -> str | None:
        """Mention the human players expected (``seats``: only those, e.g. the newly expected)."""
        expected = self.sessions.expected_seats(game)
        if seats is not None:
            expected &= seats
        humans = [s for s in sorted(expected) if not game.seats[s].is_ai]
        if not humans:
            return None
        return i18n.t("common.event.your_turn", lg, players=", ".join(mention(game, s) for s in humans),
                      game=game.id)

    def waiting_line(self, game: GameRow, lg: str) -> str | None:
        """For simultaneous games: who has not acted yet (names, no mention: they were notified)."""
        expected = sorted(self.sessions.expected_seats(game))
        if len(expected) <= 0:
            return None
        return i18n.t("common.event.waiting_for", lg, players=", ".join(escape(game.seats[s].name) for s in expected))

    async def public_lang_of(self, game: GameRow) -> str:
        """The language of the game's public messages: its server's (``/ludibot config langue:``,
        cached per guild; French in a DM), whether or not an interaction is at hand."""
        return await server_lang(self.sessions.store, game.guild_id)

    async def publish(self, outcome: Outcome, interaction: discord.Interaction | None = None, *,
                      extra: list[str] | None = None, first: list[str] | None = None,
                      lang: str | None = None, image: bool | None = None) -> int | None:
        """The public message for what just happened: narration, image, whose turn, controls.

        With ``interaction`` (a player's move) the answer to it *is* the public message; without
        (the publisher repairing the outbox: timeouts, a crash, a refused answer) it is a channel
        post, and HTTP errors propagate to the publisher (which retries or pauses the game).
        Either way the version is marked published only once its message exists, and the
        previous controls are taken off only after that. Only players *newly* expected are
        mentioned, so a simultaneous round does not ping everyone each time one player acts.

        A click on the game's turn message is answered by taking that message's buttons off
        (:meth:`_strip_clicked`), the new turn following at once. Discord gives an interaction 3 seconds
        for its answer, a follow-up 15 minutes, and pictures wait for a render worker, seconds on a
        saturated machine (issue 36): when they are not drawn :data:`ACK_WITHIN` seconds after the
        interaction came, it is deferred meanwhile (a click: nothing shown, the old buttons taken off by
        an edit once the new turn is out; a command: « réfléchit… »).
        """
        game = outcome.game
        # (a game in its thread: a click in that thread; elsewhere, its lobby, it is answered as it says)
        strippable = interaction is not None and (not wants_thread(game) or (
            game.thread_id is not None and interaction.channel_id == game.thread_id))
        lg = lang or await self.public_lang_of(game)
        lines = list(first or [])
        lines += narrate(self.kind, outcome.events, game.names, lg)
        lines += extra or []
        ranking = self.ranking_lines(outcome, lg) if game.status == FINISHED else []
        clock_text: str | None = None
        turn: list[str] = []
        clocks: dict[int, tuple[float | None, float | None]] = {}
        if game.status == RUNNING:
            clocks = await clocks_of(self.bot, game, always=False)
            clock_text = clock_line(game, clocks, lg) if clocks else None
            line = self.turn_line(game, lg, outcome.newly_expected)
            if line is None and self.engine.simultaneous:
                line = self.waiting_line(game, lg)
            turn = [line] if line else []
        view = await self.sessions.public_view(game)
        if image is None:
            image = self.publish_image(outcome, view)
        files = await self._drawn(interaction, self.public_files(game, view, lg)) if image else []
        if interaction is not None:
            trace.mark(interaction, "drawn")
        stripped = await self._strip_clicked(interaction, game) if strippable else False
        card = Card(text="\n".join([*lines, *ranking[:1], *turn]), accent=self.accent(game),
                    pictures=tuple(f.filename for f in files),
                    groups=tuple(tuple(g) for g in await self.control_groups(game, view, lg)),
                    seats=self.seats_of(game, view, lg, clocks=clocks, result=outcome.result))
        if card.seats_form() is None:  # no room for the seats: the ranking and clocks in the narration
            # (the clock line above the turn notice, which stays the last line)
            card = replace(card, text="\n".join([*lines, *ranking, *([clock_text] if clock_text else []), *turn]),
                           seats=())
        if wants_thread(game):
            msg_id = await self._publish_in_thread(interaction, game, lg, card, files, ranking, stripped=stripped)
            channel_id = game.channel_id  # the result goes back to the channel
        elif interaction is not None:
            msg_id = await self._answer_publication(interaction, game, card, files, stripped=stripped)
            channel_id = interaction.channel_id or game.channel_id
        else:
            msg_id = await self._post_publication(game, card, files)
            channel_id = game.thread_id or game.channel_id
        if msg_id is not None:
            self._attach_summary_soon(game, lg, channel_id, msg_id, card.groups)
        return msg_id

    async def _drawn(self, interaction: discord.Interaction | None,
                     drawing: Awaitable[list[discord.File]]) -> list[discord.File]:
        """The pictures ``drawing`` draws. An ``interaction`` still unanswered :data:`ACK_WITHIN` seconds
        after it came (pictures wait for a render worker, seconds on a saturated machine) is deferred
        meanwhile, within Discord's 3 seconds; its answer, with the pictures, then follows (issue 36). (A
        deferred click is not answered by taking its message's buttons off: the publication then takes
        them off by an edit once the new turn is out, as for a move made elsewhere.)"""
        if interaction is None or interaction.response.is_done():
            return await drawing
        task = asyncio.ensure_future(drawing)
        came = interaction.extras.get("received", time.monotonic())
        done, _ = await asyncio.wait({task}, timeout=max(0.0, came + ACK_WITHIN - time.monotonic()))
        if not done and not interaction.response.is_done():
            try:
                await interaction.response.defer()  # a command: « réfléchit… »; a click or a form: nothing shown
            except discord.HTTPException:
                log.info("a deferral was refused: the answer goes as usual")
        return await task

    def _attach_summary_soon(self, game: GameRow, lg: str, channel_id: int, msg_id: int,
                             groups: tuple[tuple[discord.ui.Item, ...], ...]) -> None:
        """A finished game's result card (``msg_id``) is out: its animated summary, drawn in a worker,
        is then added to its gallery (a daily challenge's waits for the day's end: it would show the
        draw to all)."""
        if game.status == FINISHED and getattr(self.bot, "replays", None) is not None \
                and replay_open(game, None, getattr(self.bot, "clock", time.time)()):
            asyncio.ensure_future(self.attach_summary(game, lg, channel_id, msg_id, groups))

    #: finished games whose result card shows its animated summary (in this process)
    _completed: ClassVar[set[int]] = set()
    #: finished games whose result card is being completed (the guild's games are this process's)
    _attaching: ClassVar[set[int]] = set()

    async def complete_result(self, game: GameRow) -> bool:
        """A finished game's result card without its animated summary (the bot restarted between
        the result and its edit): add it now. Called when ``/historique`` draws the summary anyway;
        a card that has it already is left alone (one read, once per process)."""
        if game.status != FINISHED or not game.control_message_id or game.id in self._completed:
            return False
        if not replay_open(game, None, getattr(self.bot, "clock", time.time)()):
            return False  # a daily challenge's summary is everyone's once the day is over
        lg = await self.public_lang_of(game)
        view = await self.sessions.public_view(game)
        groups = tuple(tuple(g) for g in await self.control_groups(game, view, lg))
        channel_id = game.channel_id if wants_thread(game) else (game.thread_id or game.channel_id)
        return await self.attach_summary(game, lg, channel_id, game.control_message_id, groups, delay=0)

    async def attach_summary(self, game: GameRow, lg: str, channel_id: int, message_id: int,
                             groups: tuple[tuple[discord.ui.Item, ...], ...] = (), *,
                             delay: float = SUMMARY_DELAY) -> bool:
        """Issue 27: add the finished ``game``'s animated summary to the gallery of its result card
        (``message_id``), once drawn. Nothing waits for it: the result is already published. The
        edit lists the attachments the card keeps plus the new file (a V2 card shows every one of
        them). True when added. Never raises: a restart before the edit (or a refusal) leaves the
        card as published until ``/historique`` draws the summary (:meth:`complete_result`)."""
        replays = self.bot.replays
        if game.id in self._attaching:  # the publication's own edit and /historique's: one of them
            return False
        self._attaching.add(game.id)
        try:
            await asyncio.sleep(delay)
            anim = await replays.summary(game, lg)
            if anim is None:
                return False
            name = f"ludibot-{game.kind}-{game.id}.{anim.ext}"
            channel = self.bot.get_partial_messageable(channel_id)
            message = await channel.fetch_message(message_id)
            shown = from_message(message)
            kept = list(message.attachments)
            if (shown is None or name in shown.pictures or len(shown.pictures) >= MAX_GALLERY
                    or len(anim.data) > UPLOAD_LIMIT or len(kept) >= 10):
                self._completed.add(game.id)  # already there, or it cannot be: not tried again
                return False
            new = replace(shown.with_picture(name), groups=groups)
            await message.edit(view=new.layout(), attachments=[*kept, discord.File(io.BytesIO(anim.data), filename=name)],
                               allowed_mentions=allowed_mentions(None))
            self._completed.add(game.id)
            return True
        except discord.HTTPException as err:  # deleted, too old to edit, no access: the card stays as it is
            log.info("result of game %s left without its animated summary: %s", game.id, err)
            self._completed.add(game.id)  # not asked again by every /historique of this process
            return False
        except Exception:  # the result stands as published; /historique still has the summary
            log.exception("could not add the animated summary to the result of game %s", game.id)
            return False
        finally:
            self._attaching.discard(game.id)

    async def _publish_in_thread(self, interaction: discord.Interaction | None, game: GameRow, lg: str,
                                 card: Card, files: list[discord.File], ranking: list[str], *,
                                 stripped: bool = False) -> int | None:
        """A game in its own thread (bot.threads): the message goes there (created on the first one),
        as the interaction's answer when the player acted in the thread, else as a post. At the end
        the final message stays in the thread; the result, with « Revanche », goes back to the
        channel with a link, and the thread is archived. Refusals: see :meth:`_thread_refused`.

        Under the game's lock (a player's interaction) only the interaction is answered: creating the
        thread, a post in it and the result's post in the channel may wait on a rate limit (issue 36).
        The start, or a move made outside the thread, is answered at once and its composed message
        posted in the thread by a follow-up after the lock; the result of a game ended in the thread
        too. The follow-ups of a game run in order, and the publisher leaves the game alone meanwhile
        (:meth:`Publisher.hold`); the version marks keep the newest controls the newest version's."""
        finished = game.status == FINISHED
        here = card if not finished else card.without_controls()
        publisher = getattr(self.bot, "publisher", None)
        later = interaction is not None and publisher is not None and self.game_lock(game.id).locked()
        if later and interaction.channel_id != game.thread_id and (game.thread_id or interaction.response.is_done()):
            if not interaction.response.is_done():
                await send(interaction, i18n.t("common.thread.elsewhere", lang(interaction), id=game.id,
                                               thread=f"<#{game.thread_id}>"), ephemeral=True)
            if game.paused:
                await self.check_permissions_back(interaction, game)

            async def post_in_thread() -> None:
                await self.refresh_started_lobby(game)  # the start: the thread made from its card, which points to it
                thread_id = await ensure_thread(self.bot, game, lg)
                msg_id = await self.post(thread_id, files=files, card=here)
                await self._after_post(game, lg, card, ranking, thread_id, msg_id)

            self._after_lock(game, publisher, post_in_thread)
            return None
        try:
            thread_id = await ensure_thread(self.bot, game, lg)
            if interaction is not None and interaction.channel_id == thread_id:
                # the clicked turn message loses its buttons in the answer itself, as in a channel (issue 16):
                # no thread edit per move (Discord's rate limits; a late edit would meet the archived thread):
                # done by publish() before the drawing
                msg_id = await send(interaction, files=files, card=here)
                if msg_id is None:
                    return await self._thread_refused(interaction, game, None)
            else:
                msg_id = await self.post(thread_id, files=files, card=here)
                if interaction is not None and not interaction.response.is_done():
                    await send(interaction, i18n.t("common.thread.elsewhere", lang(interaction), id=game.id,
                                                   thread=f"<#{thread_id}>"), ephemeral=True)
        except discord.HTTPException as err:
            if interaction is None:
                raise
            return await self._thread_refused(interaction, game, err)
        if not finished:
            self.remember_card(msg_id, here)
            await self._published(game, msg_id, bool(here.groups), thread_id, stripped=stripped)
            if interaction is not None and game.paused:
                await self.check_permissions_back(interaction, game)
            return msg_id
        if not later:
            return await self._close_thread(game, lg, card, ranking, thread_id, msg_id, stripped=stripped)

        async def close() -> None:
            result_id = await self._close_thread(game, lg, card, ranking, thread_id, msg_id, stripped=stripped)
            self._attach_summary_soon(game, lg, thread_id if private_thread(game) else game.channel_id, result_id,
                                      card.groups)

        self._after_lock(game, publisher, close)  # the result in the channel after the lock
        return None  # (its summary is attached to the result by the follow-up)

    #: per game, the newest follow-up publication running after its lock (:meth:`_after_lock`)
    _followups: ClassVar[dict[int, asyncio.Task]] = {}

    def _after_lock(self, game: GameRow, publisher: Any, job: Any) -> None:
        """Run ``job`` (a publication of ``game`` that may wait on Discord) after the game's lock, in
        order with the game's earlier follow-ups; the publisher leaves the game alone meanwhile. A
        refusal pauses the game or leaves the version to the publisher, as during an interaction."""
        previous = self._followups.get(game.id)
        publisher.hold(game.id)

        async def run() -> None:
            try:
                if previous is not None:
                    await asyncio.wait([previous])
                await job()
            except discord.HTTPException as err:
                log.info("game %s: its publication after the move failed: %s", game.id, err)
                reason = pause_reason(err)
                if reason is not None:
                    await publisher.pause(game, reason)
                else:
                    publisher.wake(game.id, urgent=True)
            except Exception:
                log.exception("game %s: its publication after the move failed", game.id)
                publisher.wake(game.id, urgent=True)
            finally:
                publisher.release(game.id)
                if self._followups.get(game.id) is task:
                    del self._followups[game.id]

        task = asyncio.create_task(run(), name=f"ludibot-publish-game-{game.id}")
        self._followups[game.id] = task

    async def _after_post(self, game: GameRow, lg: str, card: Card, ranking: list[str], thread_id: int,
                          msg_id: int) -> None:
        """A follow-up's message is in the thread: marked (the controls it replaces are the newest
        ones, read again: an earlier follow-up may have posted since), or the game closed."""
        fresh = await self.sessions.store.get_game(game.id)
        if fresh is not None:
            game = replace(game, control_message_id=fresh.control_message_id)
        if game.status != FINISHED:
            await self._published(game, msg_id, bool(card.groups), thread_id)
            return
        result_id = await self._close_thread(game, lg, card, ranking, thread_id, msg_id, stripped=False)
        self._attach_summary_soon(game, lg, thread_id if private_thread(game) else game.channel_id, result_id,
                                  card.groups)

    async def _close_thread(self, game: GameRow, lg: str, card: Card, ranking: list[str], thread_id: int,
                            msg_id: int, *, stripped: bool) -> int:
        """The game's final message is in its thread (``msg_id``): the previous controls off, the result
        in the channel (a private thread: none), the version marked, the thread archived. Raises
        ``discord.HTTPException`` when Discord refuses."""
        old = game.control_message_id
        if old and old != msg_id and not stripped:
            await self._strip_controls(thread_id, old)  # before the archive, which freezes the thread
        if private_thread(game):  # its players' only: the channel is told by the game's own feature (a share card)
            if await self.sessions.store.mark_published(game.id, game.version, msg_id):
                await archive(self.bot, thread_id)
            return msg_id
        head = i18n.t("common.thread.result", lg, game=i18n.t(f"{self.kind}.name.title", lg), id=game.id,
                      link=thread_link(game, thread_id, msg_id))
        ranked = ranking[:1] if card.seats else ranking  # the ranking is the card's seats, or in its text
        result_id = await self.post(game.channel_id, card=Card(text="\n".join([head, *ranked]), accent=card.accent,
                                                               groups=card.groups, seats=card.seats))
        if await self.sessions.store.mark_published(game.id, game.version, result_id):
            await archive(self.bot, thread_id)
        return result_id

    async def _thread_refused(self, interaction: discord.Interaction, game: GameRow,
                              err: discord.HTTPException | None) -> None:
        """Discord refused the thread or a post in it during a player's interaction: the outbox still
        owes this version; a refusal that will not pass by itself pauses the game (its creator is
        told, as for a channel), anything else is retried by the publisher."""
        if not interaction.response.is_done():
            await send(interaction, i18n.t("common.thread.pending", lang(interaction), id=game.id), ephemeral=True)
        publisher = getattr(self.bot, "publisher", None)
        if publisher is None:
            return None
        reason = pause_reason(err) if err is not None else None
        if reason is not None:
            await publisher.pause(game, reason)
        else:
            publisher.wake(game.id, urgent=True)
        return None

    #: the verbs of the turn's controls that open the clicker's own view (grouped apart from the move)
    private_verbs: ClassVar[frozenset[str]] = frozenset({"mine"})

    def accent(self, game: GameRow) -> int:
        """The card's colour: the seat to play (one seat expected), else the table's."""
        if game.status == RUNNING:
            expected = self.sessions.expected_seats(game)
            if len(expected) == 1:
                return rgb(seat_colour(next(iter(expected))))
        return TABLE_ACCENT

    async def control_groups(self, game: GameRow, view: dict[str, Any], lg: str) -> list[list[discord.ui.Item]]:
        """The controls of the game's newest card, by purpose, never mixed in one row: the move, the
        player's own view (« Ma main »…), the votes about stalled players and "take my seat back"
        (issue 15); Rematch once it is over."""
        if game.status == FINISHED and any(not s.is_ai for s in game.seats):
            return [[button(game.id, "rematch", i18n.t("common.button.rematch", lg),
                            style=discord.ButtonStyle.primary, emoji="🔁")]]
        if game.status != RUNNING:
            return []
        move: list[discord.ui.Item] = []
        mine: list[discord.ui.Item] = []
        for item in self.turn_controls(game, view, lg):
            m = CUSTOM_ID.match(getattr(item, "custom_id", None) or "")
            (mine if m and m["verb"] in self.private_verbs else move).append(item)
        groups = [move, mine]
        if game.settings.get("votes") or game.settings.get("ai_for"):
            votes = await vote_controls(self.sessions.store, game, lg, self.engine.has_ai)
            if Card(text="", groups=tuple(tuple(g) for g in (*groups, votes))).fits():
                groups.append(votes)
            else:
                log.warning("game %s: no room for the vote buttons under its controls", game.id)
        board = board_button(self.bot, game, lg)  # « Jouer sur le plateau »: the Activity, when the host has it
        if board is not None:
            if Card(text="", groups=tuple(tuple(g) for g in (*groups, [board]))).fits():
                groups.append([board])
            else:
                log.warning("game %s: no room for the board button under its controls", game.id)
        undo = takeback.controls(game, lg)  # a takeback request waiting for the others (issue 26): a vote too
        if undo:
            if Card(text="", groups=tuple(tuple(g) for g in (*groups, undo))).fits():
                groups.append(list(undo))
            else:
                log.warning("game %s: no room for the takeback buttons under its controls", game.id)
        return [g for g in groups if g]

    async def _answer_publication(self, interaction: discord.Interaction, game: GameRow, card: Card,
                                  files: list[discord.File], *, stripped: bool = False) -> int | None:
        """The interaction's answer is the publication (after the click's own answer, ``stripped``)."""
        msg_id = await send(interaction, files=files, card=card)
        publisher = getattr(self.bot, "publisher", None)
        if msg_id is None:
            # Discord refused the answer or the interaction expired: the outbox still owes this
            # version to the channel, and the publisher posts it.
            if publisher is not None:
                publisher.wake(game.id, urgent=True)
            return None
        self.remember_card(msg_id, card)
        await self._published(game, msg_id, bool(card.groups), interaction.channel_id or game.channel_id,
                              stripped=stripped)
        if game.paused:
            await self.check_permissions_back(interaction, game)
        return msg_id

    async def _post_publication(self, game: GameRow, card: Card, files: list[discord.File]) -> int:
        channel_id = game.thread_id or game.channel_id
        msg_id = await self.post(channel_id, files=files, card=card)
        await self._published(game, msg_id, bool(card.groups), channel_id)
        return msg_id

    async def _strip_clicked(self, interaction: discord.Interaction, game: GameRow) -> bool:
        """A click on the game's current turn message: take its buttons off through the interaction
        itself (an UPDATE_MESSAGE answer; the new turn follows as a follow-up). Interaction answers
        are not bound to Discord's global rate limit (50 requests/s), a channel edit is: past 50
        moves/s the edits were the bottleneck (issue 16). True when done. A card keeps its text and
        pictures (rebuilt from the message); a legacy message only loses its buttons."""
        message = interaction.message
        if (interaction.type != discord.InteractionType.component or message is None
                or interaction.response.is_done() or message.id != game.control_message_id
                or message.flags.ephemeral
                or time.time() - message.created_at.timestamp() > STRIP_MAX_AGE):
            return False
        shown = clicked_card(interaction)
        try:
            if shown is None:
                await interaction.response.edit_message(view=None)
            else:
                await update_clicked(interaction, shown.without_controls())
        except discord.HTTPException:
            return False  # expired or refused: the answer goes as usual, the edit as before
        self._shown.pop(message.id, None)
        return True

    async def _published(self, game: GameRow, msg_id: int, has_controls: bool, channel_id: int, *,
                         stripped: bool = False) -> None:
        """The message for ``game.version`` exists: mark it (compare-and-set), then take the controls
        off the previous one (unless the click already did) — or off this one if a newer version was
        published meanwhile."""
        old = game.control_message_id
        if await self.sessions.store.mark_published(game.id, game.version, msg_id):
            if old and old != msg_id and not stripped:
                asyncio.create_task(self._strip_controls(channel_id, old))
        elif has_controls:
            asyncio.create_task(self._strip_controls(channel_id, msg_id))

    #: the cards this process posted lately, without their controls (message id -> card): what a
    #: message shows once its controls are taken off, without reading it back from Discord
    _shown: ClassVar[OrderedDict[int, Card]] = OrderedDict()
    SHOWN_MAX: ClassVar[int] = 4096

    def remember_card(self, message_id: int, card: Card) -> None:
        if card.groups:
            self._shown[message_id] = card.without_controls()
            while len(self._shown) > self.SHOWN_MAX:
                self._shown.popitem(last=False)

    async def post(self, channel_id: int, content: str | None = None, *, file: discord.File | None = None,
                   controls: list[discord.ui.Item] | None = None, files: list[discord.File] | None = None,
                   card: Card | None = None, silent: bool = False) -> int:
        """A message in a channel, outside any interaction (the publisher's repairs). Raises
        ``discord.HTTPException`` when Discord refuses: the caller decides (retry or pause). A message
        with a picture or controls is a card (see :func:`bot.ui.send`). ``silent``: nobody is pinged."""
        all_files = ([file] if file is not None else []) + list(files or [])
        if card is None and (controls or all_files or content):
            card = card_of(content, pictures=[f.filename for f in all_files], controls=controls or ())
        kwargs: dict[str, Any] = {}
        if card is not None:
            kwargs["view"] = card.layout()
            kwargs["allowed_mentions"] = allowed_mentions(card.text)
        else:
            kwargs["allowed_mentions"] = allowed_mentions(content)
            kwargs["content"] = content
        if all_files:
            kwargs["files"] = all_files[:10]
        if silent:
            kwargs["allowed_mentions"] = discord.AllowedMentions.none()
        msg = await self.bot.get_partial_messageable(channel_id).send(**kwargs)
        if card is not None:
            self.remember_card(msg.id, card)
        return msg.id

    async def _strip_controls(self, channel_id: int, message_id: int) -> None:
        """Take the buttons off an older message. Discord refuses edits of messages older than an
        hour in busy channels (30046): those are left as they are — their buttons carry an old
        version and are refused with a pointer to the current message, so no edit is needed. A card
        is edited to the same card without its rows (remembered when this process posted it, else
        read back); a legacy message (posted before cards) only loses its buttons."""
        if time.time() - discord.utils.snowflake_time(message_id).timestamp() > STRIP_MAX_AGE:
            return
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            shown = self._shown.pop(message_id, None)
            if shown is None:
                shown = from_message(await channel.fetch_message(message_id))
            message = channel.get_partial_message(message_id)
            if shown is None:
                await message.edit(view=None)
            else:
                await message.edit(view=shown.layout(), allowed_mentions=allowed_mentions(None))
        except discord.HTTPException:
            pass  # deleted or not ours any more: nothing to strip

    # --- permissions -------------------------------------------------------------------
    def require_permissions(self, interaction: discord.Interaction, *, thread: bool = False,
                            private: bool = False) -> None:
        """Refuse to open (or start) a game where the bot could not show it, naming what is missing
        (``thread``: also what a thread of its own needs; ``private``: a private one)."""
        if interaction.guild_id is None:
            return
        missing = missing_permissions(interaction, thread=thread, private=private)
        if missing:
            raise SessionError("common.error.missing_permissions",
                               permissions=permission_names(missing, lang(interaction)))

    async def check_permissions_back(self, interaction: discord.Interaction, game: GameRow) -> None:
        """A paused game: resume it when the bot may post again, else tell this player why it waits."""
        note = await pause_note(interaction, game)
        if note:
            await send(interaction, note, ephemeral=True)

    async def tell_creator_paused(self, game: GameRow, reason: str) -> None:
        """Once, when the game pauses: a DM to its creator (silently skipped when DMs are closed)."""
        seat = next((s for s in game.seats if s.user_id == game.creator_id), None)
        lg = seat.locale if seat is not None else i18n.DEFAULT
        text = i18n.t("common.paused.creator", lg, game=i18n.t(f"{self.kind}.name.title", lg), id=game.id,
                      channel=f"<#{game.thread_id or game.channel_id}>", reason=i18n.t(f"common.paused.{reason}", lg))
        try:
            channel = await self.bot.create_dm(discord.Object(game.creator_id))
            await channel.send(content=text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("could not tell the creator of game %s that it is paused (DMs closed?)", game.id)

    async def play(self, interaction: discord.Interaction, game: GameRow, action: dict[str, Any], *,
                   version: int | None = None) -> Outcome:
        """Apply a move for the interacting user and publish the result (refusals propagate)."""
        async with self.game_lock(game.id):
            trace.mark(interaction, "locked")
            # a button's game, read by the dispatcher a moment ago: not read again (issue 16)
            outcome = await self.sessions.act(game.id, interaction.user.id, action, version=version, row=game)
            trace.mark(interaction, "acted")
            await self.publish(outcome, interaction)
        return outcome

    # --- private view ------------------------------------------------------------------
    async def _on_show_private(self, click: Click) -> None:
        await self.show_private(click.interaction, click.game)

    async def show_private(self, interaction: discord.Interaction, game: GameRow) -> None:
        if game.status == LOBBY:
            raise SessionError("common.error.not_started", game=game.id)
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise SessionError("common.error.not_a_player", game=game.id)
        lg = lang(interaction)
        view = await self.sessions.view_for(game, interaction.user.id)
        image = await self.render(self.render_private(game, view, lg))
        if image is None:
            raise SessionError("common.error.no_private_view")
        # « Reprendre mon coup » only when asking would work now (issue 36); the board's Activity when on
        items = [*await takeback.undo_items(self.bot, game, interaction.user.id, lg),
                 *([board] if (board := board_button(self.bot, game, lg)) is not None else [])]
        await send(interaction, i18n.t("common.label.private_view", lg, id=game.id), ephemeral=True,
                   file=discord.File(io.BytesIO(image), filename=f"{self.kind}-{game.id}-private.png"),
                   view=view_of(*items) if items else None)

    # --- shared commands ---------------------------------------------------------------
    @app_commands.command(name="join", description=L("common.cmd.join"))
    @app_commands.describe(partie=L("common.cmd.partie"))
    async def join_cmd(self, interaction: discord.Interaction, partie: int | None = None) -> None:
        game = await self.resolve(interaction, partie, (LOBBY,))
        player = player_of(interaction)
        game = await self.sessions.join(game.id, player)
        lg = await public_lang(interaction)  # a public message
        await send(interaction, i18n.t("common.lobby.joined", lg, player=interaction.user.mention, id=game.id,
                                       count=len(game.seats), max=self.lobby_max(game)))
        if self.sessions.challenge_complete(game):  # /defi: the challenged member took their seat
            async with self.game_lock(game.id):
                outcome = await self.sessions.start(game.id, player, challenge=True)
            publisher = getattr(self.bot, "publisher", None)
            if publisher is not None:  # the lobby card marked started, then the first turn
                await publisher.publish_game(outcome.game)
            else:
                await self.publish(outcome)
            return
        await self.lobby_changed(game)

    @app_commands.command(name="leave", description=L("common.cmd.leave"))
    @app_commands.describe(partie=L("common.cmd.partie"))
    async def leave_cmd(self, interaction: discord.Interaction, partie: int | None = None) -> None:
        game = await self.resolve(interaction, partie, (LOBBY,))
        game = await self.sessions.leave(game.id, player_of(interaction))
        await send(interaction, i18n.t("common.lobby.left", await public_lang(interaction), player=interaction.user.mention,
                                       id=game.id))
        await self.lobby_changed(game)

    @app_commands.command(name="status", description=L("common.cmd.status"))
    @app_commands.describe(partie=L("common.cmd.partie"))
    async def status_cmd(self, interaction: discord.Interaction, partie: int | None = None) -> None:
        game = await self.resolve(interaction, partie, (LOBBY, RUNNING, FINISHED))
        lg = lang(interaction)
        if game.status == LOBBY:
            await send(interaction, card=await self.lobby_card(game, lg), ephemeral=True)
            return
        view = await self.sessions.public_view(game)
        files = await self.public_files(game, view, lg)
        lines = [i18n.t("common.label.status_head", lg, game=i18n.t(f"{self.kind}.name.title", lg), id=game.id,
                        status=i18n.t(f"common.status.{game.status}", lg))]
        if game.status == RUNNING:
            waiting = self.waiting_line(game, lg)
            if waiting:
                lines.append(waiting)
            clocks = await clock_line_for(self.bot, game, lg)
            if clocks:
                lines.append(clocks)
        note = await pause_note(interaction, game)
        if note:
            lines.append(note)
        await send(interaction, "\n".join(lines), ephemeral=True, files=files)

    @app_commands.command(name="rules", description=L("common.cmd.rules"))
    async def rules_cmd(self, interaction: discord.Interaction) -> None:
        """The rules as a private card of pages; opened at the variant of the game played here, with
        its settings (Ludix's target), when there is one."""
        try:
            game: GameRow | None = await self.resolve(interaction)
        except RuleError:
            game = None  # no game here (or several): the rules with their defaults
        lg = lang(interaction)
        options = game.options if game is not None else None
        params = rules.params_for(self.kind, options)
        index = rules.variant_page(self.kind, self.rules_variant(game)) if game is not None else 0
        await send(interaction, rules.page_text(self.kind, index, lg, params), ephemeral=True,
                   view=rules.controls(self.kind, index, lg, params, game.id if game is not None else 0))

    def rules_variant(self, game: GameRow) -> str | None:
        """The variant whose rules page a game of this kind opens at (None: the first page)."""
        value = game.options.get("variante", game.options.get("variant"))
        return str(value) if value is not None else None

    @app_commands.command(name="cancel", description=L("common.cmd.cancel"))
    @app_commands.describe(partie=L("common.cmd.partie"))
    async def cancel_cmd(self, interaction: discord.Interaction, partie: int | None = None) -> None:
        game = await self.resolve(interaction, partie)
        game = await self.sessions.cancel(game.id, player_of(interaction))
        lg = await public_lang(interaction)
        await send(interaction, i18n.t("common.lobby.cancelled", lg, game=i18n.t(f"{self.kind}.name.title", lg),
                                       id=game.id, by=interaction.user.mention))
        await self.lobby_changed(game)  # before the thread's archive, which freezes its messages
        if game.thread_id:  # the game's own thread ends with it
            await archive(self.bot, game.thread_id)

    @app_commands.command(name="annuler-coup", description=L("undo.cmd.annuler_coup"))
    @app_commands.describe(partie=L("common.cmd.partie"))
    async def undo_cmd(self, interaction: discord.Interaction, partie: int | None = None) -> None:
        """Take one's last move back (issue 26): at once within one's turn, else the others are asked."""
        game = await self.resolve(interaction, partie, (LOBBY, RUNNING, FINISHED))
        await takeback.ask_from(self, interaction, game)

    @join_cmd.autocomplete("partie")
    @undo_cmd.autocomplete("partie")
    @leave_cmd.autocomplete("partie")
    @status_cmd.autocomplete("partie")
    @cancel_cmd.autocomplete("partie")
    async def _partie_ac(self, interaction: discord.Interaction, current: str):
        return await self.partie_autocomplete(interaction, current)


def board_button(bot: Any, game: GameRow, lg: str) -> discord.ui.Item | None:
    """« 🎲 Jouer sur le plateau » (LAUNCH_ACTIVITY), on a running game's cards when the bot's host has
    turned Activities on (bot/activity); None otherwise: nothing changes without it."""
    settings = getattr(bot, "settings", None)
    if game.status != RUNNING or not getattr(settings, "activities", False):
        return None
    return button(game.id, "board", i18n.t("common.button.board", lg), emoji="🎲")


async def open_board(click: Click) -> None:
    """Open the Activity in the card's channel, on this game: the page asks the board's API which game
    its user opened last in that channel (kept with the user's preferences, so any process can answer)."""
    interaction, game = click.interaction, click.game
    if board_button(interaction.client, game, "fr") is None:
        raise SessionError("common.error.board_off", game=game.id)
    store = interaction.client.store  # type: ignore[attr-defined]
    prefs = await store.user_prefs(interaction.user.id)
    prefs["board"] = {"channel": str(interaction.channel_id), "game": game.id}
    await store.set_user_prefs(interaction.user.id, prefs)
    await interaction.response.launch_activity()


def register_lobby(router) -> None:
    """The lobby's buttons work for every game: route them to the game's cog."""

    def by_kind(method: str):
        async def handler(click: Click) -> None:
            cog = click.interaction.client.game_cogs.get(click.game.kind)  # type: ignore[attr-defined]
            if cog is None:
                await refuse(click.interaction, "common.error.game_unavailable")
                return
            await getattr(cog, method)(click)

        return handler

    for verb, method in (("join", "on_join"), ("leave", "on_leave"), ("addai", "on_add_ai"),
                         ("start", "on_start"), ("cancel", "on_cancel"), ("rematch", "on_rematch")):
        router.register("*", verb, by_kind(method))
    router.register("*", "board", open_board)
    register_votes(router)
    takeback.register(router)
