"""The ``commands.Bot`` subclass: storage, sessions, cogs, persistent components, sync."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import pkgutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot import commandids, emojis, i18n, loop, looplag, metrics, payload
from bot.activity import start_server
from bot.cards import walk_json
from bot.clock import bot_clock
from bot.community import Community
from bot.community.daily import DailyChallenges
from bot.community.matchmaking import Matchmaking, queue_store
from bot.community.season_board import SeasonBoard
from bot.community.tournament_notice import DiscordAnnouncer
from bot.community.tournaments import TournamentService, tournament_store
from bot.config import Settings
from bot.gamecog import GameCog, register_lobby
from bot.gateway import IDENTIFY_WINDOW, IdentifyGate, intents, shard_of
from bot.inputs import Refused, Stale, check_options, check_signature
from bot.publisher import Publisher
from bot.render_pool import RenderPool, ai_workers_from_env, picture
from bot.sessions import SessionService
from bot.storage import GameRow, Store, open_store
from bot.translator import CatalogTranslator
from bot.ui import (
    PREFIX,
    ComponentRouter,
    dispatch_component,
    dm_guard,
    explain_refused_component,
    lang,
    refuse,
    refuse_unwritable,
    run_component,
    send,
)
from engines.base import RuleError
from engines.solo import ai_score
from render.hitmap import with_hits

log = logging.getLogger("ludibot")

COGS_DIR = Path(__file__).resolve().parent.parent / "cogs"


def discover_extensions() -> list[str]:
    """Every package under cogs/ is an extension (a game cog whose engine is missing is skipped)."""
    names = []
    present = set(engines.available())
    for mod in sorted(pkgutil.iter_modules([str(COGS_DIR)]), key=lambda m: m.name):
        if mod.name.startswith("_"):
            continue
        if mod.name in engines.GAMES and mod.name not in present:
            continue
        names.append(f"cogs.{mod.name}")
    return names


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at the configured Discord (the real one by default, a fake one in tests)."""
    import yarl

    discord.http.Route.BASE = settings.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


class LudibotTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every option within what its command declares (choices, ranges, Discord's integers);
        otherwise a precise refusal (:class:`bot.inputs.Refused`, answered by :meth:`on_error`).
        Starts the command's latency clock, and refuses a DM reaching a process without shard 0."""
        interaction.extras.setdefault("t0", time.perf_counter())
        interaction.extras.setdefault("received", time.monotonic())  # (bot.gamecog: its answer within 3 s)
        if not await dm_guard(interaction):
            return False
        data = interaction.data or {}
        if interaction.type is not discord.InteractionType.application_command or data.get("type", 1) != 1:
            return True
        try:
            command, options = self._get_app_command_options(data)  # type: ignore[arg-type]
        except app_commands.AppCommandError:
            return True  # an unknown command: discord.py raises CommandNotFound, answered by on_error
        try:
            check_signature(command, options,
                            autocomplete=interaction.type is discord.InteractionType.autocomplete)
        except Stale:
            stale_command(interaction)
            raise
        check_options(command, options)
        return True

    async def _call(self, interaction: discord.Interaction) -> None:
        """discord.py's dispatch of a command, with one more guard: a payload it cannot read (an
        option of no known type, ``null`` where a list is expected...) is logged and answered
        privately, in the user's language, instead of escaping as an unanswered task's error."""
        try:
            await super()._call(interaction)
        except app_commands.AppCommandError:
            raise  # answered by on_error, as usual
        except Exception as exc:
            payload.drops.warn("dropped a malformed interaction (%s): %s", type(exc).__name__,
                               str(exc)[:120].encode("unicode_escape").decode("ascii"))
            observe_interaction(interaction, "?")
            if interaction.response.is_done():
                return
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await send(interaction, payload.unreadable_text(interaction.locale, exc), ephemeral=True)

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        observe_interaction(interaction)
        if interaction.type is discord.InteractionType.autocomplete:
            # refused before the suggestions (a stale client, an option out of range): no message can
            # answer an autocomplete, an empty list of suggestions does
            if isinstance(error, (Stale, app_commands.CommandSignatureMismatch, app_commands.CommandNotFound)):
                stale_command(interaction)
            if not interaction.response.is_done():
                await interaction.response.autocomplete([])
            return
        if isinstance(error, (app_commands.CommandSignatureMismatch, app_commands.CommandNotFound)):
            # a client whose list of commands is not the bot's (the cog's handler may have answered)
            stale_command(interaction)
            if not interaction.response.is_done():
                await refuse(interaction, "payload.error.stale_command")
            return
        if isinstance(error, Refused):  # refused before the command ran (the cog's handler may have answered)
            if not interaction.response.is_done():
                await refuse(interaction, error.original)
            return
        # discord.py calls the tree's handler even after the cog's own (GameCog.cog_app_command_error):
        # that one has already answered; a second answer would repeat the refusal.
        binding = getattr(interaction.command, "binding", None)
        if getattr(binding, "__discord_app_commands_error_handler__", None) is not None:
            return
        original = getattr(error, "original", error)
        if isinstance(original, RuleError):
            await refuse(interaction, original)
            return
        if isinstance(error, app_commands.CheckFailure):
            await refuse(interaction, "common.error.no_permission")
            return
        if await refuse_unwritable(interaction, original):
            return
        log.exception("command failed", exc_info=original)
        await refuse(interaction, "common.error.internal")


def stale_command(interaction: discord.Interaction) -> None:
    """A command that does not match the bot's: let the bot check the commands Discord holds."""
    check = getattr(interaction.client, "command_tree_suspect", None)
    if check is not None:
        check()


def command_shape(commands: list[dict]) -> list:
    """What a client's list of commands depends on (names, types, options, required, choices), the
    same for the bot's own payload and for what Discord answers (which adds ids, versions...)."""
    def options(opts) -> list:
        out = []
        for o in opts or []:
            out.append([o.get("name"), o.get("type"), bool(o.get("required")),
                        sorted(str(c.get("value")) for c in o.get("choices") or []), options(o.get("options"))])
        return sorted(out, key=lambda x: (str(x[0]), str(x[1])))

    return sorted(([c.get("name"), c.get("type", 1), options(c.get("options"))] for c in commands),
                  key=lambda x: (str(x[0]), str(x[1])))


def observe_interaction(interaction: discord.Interaction, command: str | None = None) -> None:
    """Command latency (``ludibot_command_seconds``): from the check before the command to its end."""
    t0 = interaction.extras.pop("t0", None)
    if t0 is None:
        return
    if command is None:
        cmd = interaction.command
        command = cmd.qualified_name if cmd is not None else "?"
    if interaction.type is discord.InteractionType.autocomplete:
        command = f"{command} (autocomplete)"
    metrics.observe_command(command, time.perf_counter() - t0)


class Ludibot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, *, store: Store | None = None) -> None:
        # discord.py reads JSON without ever raising on what Discord may send; a game's click keeps its
        # card as JSON (no discord.py object per component: bot.cards.clicked_card reads it)
        payload.install(lighter=(f"{PREFIX}:",))
        shards: dict[str, object] = {}
        if settings.shard_count is not None:
            shards["shard_count"] = settings.shard_count
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(),
                         help_command=None, tree_cls=LudibotTree,
                         allowed_mentions=discord.AllowedMentions.none(),
                         http_trace=metrics.http_trace(), **shards)
        self.settings = settings
        self._heap_settled = False
        self.metrics_server: metrics.MetricsServer | None = None
        self.metrics = metrics.BotMetrics()
        self.identify_gate: IdentifyGate | None = None
        #: wall time, or (tests) wall time moved forward by ``LUDIBOT_CLOCK_FILE`` (bot.clock)
        self.clock = bot_clock()
        self.store: Store = store or open_store(settings.db_path, clock=self.clock)
        self.sessions = SessionService(self.store, clock=self.clock, offload=self.think)
        self.router = ComponentRouter()
        self.game_cogs: dict[str, commands.Cog] = {}
        self.publisher: Publisher | None = None
        self._asking: set[asyncio.Task] = set()  # board moves of other shards' servers, told to their process
        self.render_pool = RenderPool()
        #: where the AI thinks (:meth:`think`): the AI seats' moves and the daily challenges' marks, in worker
        #: processes of their own (``LUDIBOT_AI_WORKERS``, one by default), started at the first AI move
        self.ai_pool: RenderPool | None = None
        self._ai_start: asyncio.Task | None = None  # the AI pool's start, in the background (see think)
        self.tournaments = TournamentService(tournament_store(self.store), self.store, self.sessions,
                                             clock=self.clock, announcer=DiscordAnnouncer(self),
                                             opened=self._wake_game)
        self.seasons = SeasonBoard(self.store, clock=self.clock)
        self.daily = DailyChallenges(self.store, self.sessions, clock=self.clock, compute=self._ai_score)
        self.matchmaking = Matchmaking(queue_store(self.store), self.store, self.sessions, clock=self.clock,
                                       opened=self._wake_game)
        #: the last check of the commands Discord holds, the re-syncs of the last day (monotonic), the check running
        self._tree_checked = -float("inf")
        self._resyncs: list[float] = []
        self._tree_check: asyncio.Task | None = None

    async def setup_hook(self) -> None:
        await self.store.open()
        await self.render_pool.start()
        self._loop_lag = looplag.start_if_asked()  # benchmarks only
        if self.settings.metrics_port:
            self.metrics_server = metrics.MetricsServer(self, self.settings.metrics_host, self.settings.metrics_port)
            await self.metrics_server.start()
        await self.tree.set_translator(CatalogTranslator())
        register_lobby(self.router)
        for ext in discover_extensions():
            try:
                await self.load_extension(ext)
            except commands.ExtensionError:
                # one broken game must not take the others down; the log says which and why
                log.exception("could not load extension %s", ext)
                continue
            log.info("loaded extension %s", ext)
        synced = False
        if self.settings.runs_shard_zero:
            synced = await self.sync_commands()  # once, by the process holding shard 0
        else:
            log.info("shard 0 is another process's: it syncs the slash commands")
        # the commands' ids, for command mentions (issue 25): from the sync, else fetched in the background
        self.command_ids_fetch = None if synced else commandids.start(self)
        self.community = Community.for_bot(self)  # reminders, timeouts, ratings (issue 9)
        self.community.tournaments = self.tournaments  # tournaments (issue 28)
        self.community.matchmaking = self.matchmaking
        self.community.seasons = self.seasons
        self.community.daily = self.daily
        self.seasons.post = self.tournaments.announcer.season_podium  # type: ignore[union-attr]
        self.tournaments.shards = self.seasons.shards = self.community.scheduler.shards
        await self.start_background()
        if self.settings.activities:
            await self.start_activity()
        self.emoji_sync = emojis.start(self)  # application emojis, in the background (issue 24)

    async def think(self, fn: Callable[..., Any], *args: Any) -> Any:
        """The AI's work (``engines.solo``: an AI seat's move, up to seconds of CPU at the top level)
        in the AI pool: a pool of the render pool's kind (``LUDIBOT_AI_WORKERS`` processes, started at
        the first AI move, not to delay the bot's start), never on the event loop nor under its
        interpreter lock, and never queued in front of the players' pictures (issue 37). With
        ``LUDIBOT_AI_WORKERS=0`` (or processes that cannot start), a thread."""
        if self.ai_pool is None:
            # the pool starts in the background: the moves asked for meanwhile are thought in a thread,
            # so that no move waits for a process to start (and import the engines) at a low priority
            if self._ai_start is None:
                self._ai_start = asyncio.get_running_loop().create_task(self._start_ai_pool(), name="ai-pool")
            return await asyncio.to_thread(fn, *args)
        return await self.ai_pool.run(fn, *args)  # type: ignore[arg-type]

    async def _start_ai_pool(self) -> None:
        pool = RenderPool(ai_workers_from_env(), cache_size=0, warm="engines")
        await pool.start()
        self.ai_pool = pool

    async def _ai_score(self, kind: str, options: dict[str, Any], seed: int, level: int) -> int | None:
        """A daily challenge's mark (the best AI alone on the day's draw, bot.community.daily): seconds of
        CPU, in the AI pool (:meth:`think`)."""
        return await self.think(ai_score, kind, options, seed, level)

    async def start_background(self) -> None:
        """The outbox first (issue 17): what a crash left unpublished is posted before the scheduler
        fires the deadlines that fell due meanwhile (issue 36: a timeout fired during start-up was
        published seconds late, leaving the previous turn's controls up); then the scheduler."""
        self.publisher = Publisher.for_bot(self)
        try:
            owed = await self.publisher.catch_up()
            if owed:
                log.info("start-up: %d game(s) owed their channel a message, published", owed)
        except Exception:
            log.exception("start-up catch-up of the outbox failed: the publisher's loop takes it over")
        self.publisher.start()
        self.community.start()

    async def start_activity(self) -> None:
        """The board's endpoints (bot/activity), when the host configured a client secret and a port.
        A move made there wakes the publisher at once: the channel's card follows."""
        self.activity_server = await start_server(self.sessions, self.settings, app_id=self.application_id or 0,
                                                  moved=self._board_moved, draw=self._draw_for_board,
                                                  private=self._has_private_picture, publish=self._publish_asked)

    def _board_moved(self, outcome: Any) -> None:
        """A move made on the board (no interaction answers it): the process that serves the game's server
        publishes it now — this one, or, through PostgreSQL, the one that runs that server's shard (the
        proxy may send a page's requests to any process)."""
        game = outcome.game
        if self.owns_guild(game.guild_id):
            self._wake_game(game.id, urgent=True)
            return
        listener = getattr(self.activity_server, "listener", None)
        if listener is not None:
            task = asyncio.get_running_loop().create_task(listener.ask_publish(game.id, game.guild_id))
            self._asking.add(task)
            task.add_done_callback(self._asking.discard)

    def _publish_asked(self, game_id: int, guild_id: int | None) -> None:
        """Another process's board moved a game: ours to publish if its server's shard is ours."""
        if self.owns_guild(guild_id):
            self._wake_game(game_id, urgent=True)

    def _has_private_picture(self, kind: str) -> bool:
        cog = self.game_cogs.get(kind)
        return cog is not None and type(cog).render_private is not GameCog.render_private

    async def _draw_for_board(self, game: GameRow, view: dict, lang: str, which: str, *, hits: bool = False,
                              preview: bool = False) -> Any:
        """The board's pictures: the game cog's own renderers (the table as its card shows it, or a
        player's own picture), drawn in the render pool. ``hits``: the picture and its hit map, drawn
        together (render.hitmap); ``preview``: a move not made yet, never cached as the version's picture."""
        cog = self.game_cogs.get(game.kind)
        if cog is None:
            return None
        job = cog.render_public(game, view, lang) if which == "board" else cog.render_private(game, view, lang)
        if job is None:
            return None
        if hits:
            return await cog.render(picture(with_hits, job.fn, job.args, job.kwargs))
        if which == "board" and not preview:
            return await cog.render_public_cached(game, view, lang)
        return await cog.render(job)

    def _wake_game(self, game_id: int, *, urgent: bool = False) -> None:
        """A game opened without an interaction (a tournament's table): the outbox publishes it."""
        if self.publisher is not None:
            self.publisher.wake(game_id, urgent=urgent)

    def command_payload(self) -> list[dict]:
        return [cmd.to_dict(self.tree) for cmd in self.tree.get_commands()]

    def _sync_target(self) -> tuple[discord.Object | None, str, str]:
        """(the dev guild or None for global, the meta key of the synced tree's hash, that hash)."""
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        catalogs = i18n.fingerprint()  # (the catalogs' files: parsing every message would cost 0.7 s)
        digest = hashlib.sha256((json.dumps(self.command_payload(), sort_keys=True, default=str)
                                 + catalogs).encode()).hexdigest()
        key = f"commands:{self.settings.api_base}:{self.application_id}:{guild.id if guild else 'global'}"
        return guild, key, digest

    async def sync_commands(self) -> bool:
        """Sync the slash commands only when the tree (or its translations) changed."""
        if self.settings.dev_guild:
            self.tree.copy_global_to(guild=discord.Object(self.settings.dev_guild))
        guild, key, digest = self._sync_target()
        if await self.store.get_meta(key) == digest:
            log.info("slash commands unchanged, not syncing")
            return False
        synced = await self.tree.sync(guild=guild)
        await self.store.set_meta(key, digest)
        log.info("synced %d slash commands %s", len(synced), "to the dev guild" if guild else "globally")
        commandids.learn(synced)
        return True

    def command_tree_suspect(self) -> None:
        """A client sent a command that is not the bot's: check (at most once per
        :data:`TREE_CHECK_INTERVAL`, by the process that syncs) that Discord holds the tree we synced."""
        if not self.settings.runs_shard_zero or self.application_id is None:
            return
        now = time.monotonic()
        if now - self._tree_checked < TREE_CHECK_INTERVAL or (self._tree_check and not self._tree_check.done()):
            return
        self._tree_checked = now
        self._tree_check = asyncio.get_running_loop().create_task(self.check_command_tree())

    async def check_command_tree(self) -> bool:
        """Compare the commands Discord holds with the bot's tree; re-sync when they differ, at most
        :data:`RESYNCS_PER_DAY` times a day (checks come at most once per :data:`TREE_CHECK_INTERVAL`):
        Discord allows 200 command creations a day per server, a re-sync may re-create every
        command, and the bulk overwrite has its own rate limit, whose 429s discord.py waits on.
        True when it re-synced."""
        guild, key, digest = self._sync_target()
        try:
            if guild is not None:
                held = await self.http.get_guild_commands(self.application_id, guild.id)  # type: ignore[arg-type]
            else:
                held = await self.http.get_global_commands(self.application_id)  # type: ignore[arg-type]
        except discord.HTTPException as exc:
            log.warning("could not read the commands Discord holds: %s", exc)
            return False
        if command_shape(list(held)) == command_shape(self.command_payload()):
            commandids.learn(held)
            log.info("the commands Discord holds are the bot's (a client's list is only older)")
            return False
        now = time.monotonic()
        self._resyncs = [t for t in self._resyncs if now - t < DAY]
        if len(self._resyncs) >= RESYNCS_PER_DAY:
            log.warning("the commands Discord holds differ from the bot's; already re-synced %d times "
                        "today, not again yet", len(self._resyncs))
            return False
        self._resyncs.append(now)
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException as exc:
            log.warning("could not re-sync the slash commands: %s", exc)
            return False
        await self.store.set_meta(key, digest)
        commandids.learn(synced)  # a re-created command has a new id
        log.warning("the commands Discord held differed from the bot's: re-synced %d slash commands", len(synced))
        return True

    def owns_guild(self, guild_id: int | None) -> bool:
        """This process runs the server's shard (DMs: shard 0); the publisher serves only those games."""
        ids, count = self.settings.shard_ids, self.settings.shard_count
        if ids is None or count is None:
            return True
        return shard_of(guild_id, count) in ids

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """IDENTIFY as fast as Discord's ``max_concurrency`` allows (see :mod:`bot.gateway`)."""
        if self.identify_gate is None:
            try:
                limits = await self.fetch_session_start_limits()
                concurrency = limits.max_concurrency
                if limits.remaining < len(self.settings.shard_ids or range(self.shard_count or 1)):
                    log.warning("only %d session starts left (reset in %.0f s)", limits.remaining,
                                limits.reset_after / 1000)
            except (discord.HTTPException, KeyError, TypeError):
                log.warning("could not read max_concurrency: identifying one shard per 5 s")
                concurrency = 1
            self.identify_gate = IdentifyGate(concurrency)
            log.info("identify: max_concurrency %d", concurrency)
        if self.settings.shard_ids is None:
            waited = await self.identify_gate.wait(shard_id)  # every shard is here: pace them here
        else:
            # one of K processes: the buckets are booked in the database, shared by all of them
            key = f"identify:{self.application_id}:{self.identify_gate.bucket(shard_id)}"
            try:
                at = await self.store.reserve_slot(key, time.time(), IDENTIFY_WINDOW)
                waited = max(0.0, at - time.time())
                if waited > 0:
                    await asyncio.sleep(waited)
            except Exception:
                log.exception("could not book an IDENTIFY slot in the database: pacing this process alone")
                waited = await self.identify_gate.wait(shard_id)
        log.info("identifying shard %s (waited %.1f s)", shard_id, waited)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guilds, shards %s of %s", self.user, len(self.guilds),
                 sorted(self.shards), self.shard_count)
        if not self._heap_settled:  # once: the start-up heap out of the collector's way (bot.loop)
            self._heap_settled = True
            loop.settle_heap()
        if self.publisher is not None:
            self.publisher.wake()  # catch up what a crash or an outage left unpublished

    async def on_shard_ready(self, shard_id: int) -> None:
        log.info("shard %d ready", shard_id)
        if self.publisher is not None:
            self.publisher.wake()  # a shard identified again (new session): catch up its servers' games

    async def on_shard_disconnect(self, shard_id: int) -> None:
        log.info("shard %d disconnected", shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        log.info("shard %d resumed", shard_id)

    async def on_app_command_completion(self, interaction: discord.Interaction, command) -> None:
        observe_interaction(interaction, command.qualified_name)

    async def on_resumed(self) -> None:
        if self.publisher is not None:
            self.publisher.wake()

    async def on_guild_channel_update(self, before, after) -> None:
        # permissions may be back: the server's paused games get one new try
        if self.publisher is not None and getattr(after, "guild", None) is not None:
            await self.publisher.resume_guild(after.guild.id)

    async def on_guild_role_update(self, before, after) -> None:
        if self.publisher is not None:
            await self.publisher.resume_guild(after.guild.id)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A component that is not ours, or not on the message it claims (forged), still gets an answer.

        discord.py silently ignores a custom id that is not among the clicked message's
        components; a crafted client would then see "interaction failed". We answer instead.
        """
        if interaction.type is discord.InteractionType.modal_submit:
            if str((interaction.data or {}).get("custom_id", "")).startswith(f"{PREFIX}:"):
                await dispatch_component(interaction)  # a game's form (bot.ui.GameModal)
            return
        if interaction.type is not discord.InteractionType.component:
            return
        cid = str((interaction.data or {}).get("custom_id", ""))
        if not cid.startswith((f"{PREFIX}:", f"{PREFIX}-replay:", f"{PREFIX}-tournoi:")):  # games, replays, tournaments
            await refuse(interaction, "common.error.forged_button")
            return
        kinds = _clicked_types(interaction)
        on_message = cid in kinds
        if on_message:
            if kinds.get(cid) != (interaction.data or {}).get("component_type"):
                # a select's id sent as a button (or the reverse): discord.py would drop it silently
                await refuse(interaction, "common.error.wrong_component")
                return
        if not on_message:
            # A stale client (the buttons were removed since) or a crafted one: nothing is ever
            # applied from it; the user is told precisely why.
            await explain_refused_component(interaction)
        elif cid.startswith(f"{PREFIX}:"):  # a game's (a replay viewer's, a tournament's: their DynamicItem)
            await run_component(interaction)

    async def close(self) -> None:
        if getattr(self, "emoji_sync", None) is not None:
            self.emoji_sync.cancel()
        if getattr(self, "command_ids_fetch", None) is not None:
            self.command_ids_fetch.cancel()
        if self.publisher is not None:
            await self.publisher.stop()
        if getattr(self, "community", None) is not None:
            await self.community.stop()
        await super().close()
        await self.render_pool.close()
        if self._ai_start is not None and not self._ai_start.done():
            self._ai_start.cancel()  # (a worker that was starting ends with its input: the bot's end)
        if self.ai_pool is not None:
            await self.ai_pool.close()
        if self.metrics_server is not None:
            await self.metrics_server.stop()
        if getattr(self, "activity_server", None) is not None:
            await self.activity_server.stop()
        await self.store.close()


#: at most one check of the commands Discord holds per minute; at most 10 re-syncs a day (the
#: 13 commands re-created 10 times stay under Discord's 200 creations a day, beside the start-ups')
TREE_CHECK_INTERVAL = 60.0
RESYNCS_PER_DAY = 10
DAY = 86400.0


def _clicked_types(interaction: discord.Interaction) -> dict[str, int]:
    """``custom id -> component type`` of every control on the message clicked (none without one), from
    its JSON when the click's reading kept it so (:data:`bot.payload.CLICKED`)."""
    if interaction.message is None:
        return {}
    raw = (interaction.data or {}).get(payload.CLICKED)
    if not isinstance(raw, list):
        return _component_types(interaction.message.components)
    return {c["custom_id"]: c.get("type") for c in walk_json(raw) if isinstance(c.get("custom_id"), str)}


def _component_types(components) -> dict[str, int]:
    found: dict[str, int] = {}
    for comp in components or []:
        cid = getattr(comp, "custom_id", None)
        if cid:
            kind = getattr(comp, "type", None)
            found[cid] = getattr(kind, "value", kind)
        found.update(_component_types(getattr(comp, "children", None)))
        found.update(_component_types(_accessory(comp)))
    return found


def _accessory(comp) -> list:
    """A Section's accessory (a seat's « Profil » on a card), as a list of components to walk."""
    accessory = getattr(comp, "accessory", None)
    return [accessory] if accessory is not None else []


def invite_url(application_id: str | int) -> str:
    return (f"https://discord.com/oauth2/authorize?client_id={application_id}"
            f"&scope=bot+applications.commands&permissions={REQUIRED_PERMISSIONS}")


#: View Channels, Send Messages, Send Messages in Threads, Embed Links, Attach Files, Read Message History.
REQUIRED_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 38) | (1 << 14) | (1 << 15) | (1 << 16)

__all__ = ["Ludibot", "apply_endpoints", "discover_extensions", "invite_url", "lang"]
