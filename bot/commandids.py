"""The ids of the application's slash commands, so that messages mention commands (issue 25).

A message that names a command writes Discord's command mention ``</tectonic jouer:<id>>``
(``COMMAND()`` in the catalogs, :func:`bot.i18n.command`): each member's client shows it under the
name of its own language, clickable. A mention needs the command's id, which Discord gives when
the commands are registered:

* the process that holds shard 0 learns them from its sync (``tree.sync`` returns the commands);
* every process (those of other shards never sync, and shard 0 skips an unchanged tree) fetches
  them once at start, in the background (:func:`start`: one request, ``GET …/commands``; the dev
  guild's when ``LUDIBOT_DEV_GUILD`` is set), asked again later while Discord does not answer or
  holds no command yet (a first deployment, before shard 0 synced).

Until they are known, messages write the command's name as code, as before; nothing waits on this.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

import discord

from bot import i18n

log = logging.getLogger("ludibot.commands")

#: seconds before each new try while the fetch fails (Discord unreachable, 5xx) or finds no command
#: (a first deployment: the process of shard 0 has not synced yet)
RETRY_DELAYS = (5.0, 15.0, 30.0, 60.0, 120.0, 300.0)


def learn(commands: Iterable[Any]) -> bool:
    """Remember the ids of ``commands`` (``app_commands.AppCommand`` or their JSON); True when they changed."""
    ids: dict[str, int] = {}
    for cmd in commands:
        get = cmd.get if isinstance(cmd, dict) else lambda name, c=cmd: getattr(c, name, None)
        kind = get("type")
        if kind not in (None, 1, discord.AppCommandType.chat_input):  # user and message commands have no mention
            continue
        name, cid = get("name"), get("id")
        try:
            ids[str(name)] = int(cid)
        except (TypeError, ValueError):
            log.warning("a command Discord listed has no usable id: %r", cmd)
    if not ids:
        return False
    changed = i18n.set_command_ids(ids)
    if changed:
        log.info("command mentions: the ids of %d commands are known", len(ids))
    return changed


async def fetch(tree: Any, guild: discord.abc.Snowflake | None = None) -> bool:
    """Read the commands Discord holds (one request) and learn their ids; False when it could not, or
    when Discord holds none yet."""
    try:
        commands = list(await tree.fetch_commands(guild=guild))
    except (TimeoutError, discord.HTTPException, discord.ClientException, OSError) as exc:
        log.warning("could not read the commands' ids (commands are written as text meanwhile): %s", exc)
        return False
    if not commands:
        log.info("no slash command registered yet (shard 0 syncs them): commands are written as text meanwhile")
        return False
    learn(commands)
    return True


async def fetch_until_known(tree: Any, guild: discord.abc.Snowflake | None = None,
                            delays: Iterable[float] = RETRY_DELAYS) -> bool:
    """:func:`fetch`, tried again after each of ``delays`` while it fails."""
    if await fetch(tree, guild):
        return True
    for delay in delays:
        await asyncio.sleep(delay)
        if await fetch(tree, guild):
            return True
    return False


def start(bot: Any) -> asyncio.Task:
    """Fetch the ids in the background (the bot's start and its answers never wait for it)."""
    dev_guild = getattr(bot.settings, "dev_guild", None)
    guild = discord.Object(dev_guild) if dev_guild else None
    return asyncio.get_running_loop().create_task(fetch_until_known(bot.tree, guild))
