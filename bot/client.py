"""The ``commands.Bot`` subclass: storage, sessions, cogs, persistent components, sync."""

from __future__ import annotations

import hashlib
import json
import logging
import pkgutil
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot import i18n, looplag
from bot.community import Community
from bot.config import Settings
from bot.gamecog import register_lobby
from bot.render_pool import RenderPool
from bot.sessions import SessionService
from bot.storage import SQLiteStore, Store
from bot.translator import CatalogTranslator
from bot.ui import PREFIX, ComponentRouter, GameComponent, explain_refused_component, lang, refuse
from engines.base import RuleError

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
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
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
        log.exception("command failed", exc_info=original)
        await refuse(interaction, "common.error.internal")


class Ludibot(commands.Bot):
    def __init__(self, settings: Settings, *, store: Store | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, tree_cls=LudibotTree,
                         allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False))
        self.settings = settings
        self.store: Store = store or SQLiteStore(settings.db_path)
        self.sessions = SessionService(self.store)
        self.router = ComponentRouter()
        self.game_cogs: dict[str, commands.Cog] = {}
        self.render_pool = RenderPool()


    async def setup_hook(self) -> None:
        await self.store.open()
        await self.render_pool.start()
        self._loop_lag = looplag.start_if_asked()  # benchmarks only
        await self.tree.set_translator(CatalogTranslator())
        register_lobby(self.router)
        self.add_dynamic_items(GameComponent)
        for ext in discover_extensions():
            try:
                await self.load_extension(ext)
            except commands.ExtensionError:
                # one broken game must not take the others down; the log says which and why
                log.exception("could not load extension %s", ext)
                continue
            log.info("loaded extension %s", ext)
        await self.sync_commands()
        self.community = Community.for_bot(self)  # reminders, timeouts, ratings (issue 9)
        self.community.start()

    def command_payload(self) -> list[dict]:
        return [cmd.to_dict(self.tree) for cmd in self.tree.get_commands()]

    async def sync_commands(self) -> bool:
        """Sync the slash commands only when the tree (or its translations) changed."""
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        catalogs = json.dumps([i18n.catalog(lg) for lg in i18n.LANGS], sort_keys=True)
        digest = hashlib.sha256((json.dumps(self.command_payload(), sort_keys=True, default=str)
                                 + catalogs).encode()).hexdigest()
        key = f"commands:{self.settings.api_base}:{self.application_id}:{guild.id if guild else 'global'}"
        if await self.store.get_meta(key) == digest:
            log.info("slash commands unchanged, not syncing")
            return False
        synced = await self.tree.sync(guild=guild)
        await self.store.set_meta(key, digest)
        log.info("synced %d slash commands %s", len(synced), "to the dev guild" if guild else "globally")
        return True

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guilds", self.user, len(self.guilds))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A component that is not ours, or not on the message it claims (forged), still gets an answer.

        discord.py silently ignores a custom id that is not among the clicked message's
        components; a crafted client would then see "interaction failed". We answer instead.
        """
        if interaction.type is not discord.InteractionType.component:
            return
        cid = str((interaction.data or {}).get("custom_id", ""))
        if not cid.startswith(f"{PREFIX}:"):
            await refuse(interaction, "common.error.forged_button")
            return
        on_message = interaction.message is not None and cid in _custom_ids(interaction.message.components)
        if not on_message:
            # A stale client (the buttons were removed since) or a crafted one: discord.py ignores
            # it and nothing is ever applied from it; the user is told precisely why.
            await explain_refused_component(interaction)

    async def close(self) -> None:
        if getattr(self, "community", None) is not None:
            await self.community.stop()
        await super().close()
        await self.render_pool.close()
        await self.store.close()


def _custom_ids(components) -> set[str]:
    found: set[str] = set()
    for comp in components or []:
        cid = getattr(comp, "custom_id", None)
        if cid:
            found.add(cid)
        found |= _custom_ids(getattr(comp, "children", None))
    return found


def invite_url(application_id: str | int) -> str:
    return (f"https://discord.com/oauth2/authorize?client_id={application_id}"
            f"&scope=bot+applications.commands&permissions={REQUIRED_PERMISSIONS}")


#: View Channels, Send Messages, Send Messages in Threads, Embed Links, Attach Files, Read Message History.
REQUIRED_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 38) | (1 << 14) | (1 << 15) | (1 << 16)

__all__ = ["Ludibot", "apply_endpoints", "discover_extensions", "invite_url", "lang"]
