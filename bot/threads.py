"""A game in its own thread (issue 15): the ``fil`` option of every ``start``.

The lobby stays in the channel; once the game starts, its messages (publications, reminders,
timeouts) go to a public thread (a private one for a daily challenge: :data:`PRIVATE`) named after the game ("Ludix n°12 — Alice, Bruno"), whose id is
``games.thread_id``. At the end the final message is posted in the thread, the result goes back
to the channel with a link, and the thread is archived.

Whether a game wants a thread is decided when its lobby opens (``GameRow.settings["thread"]``:
the ``fil`` option, else the server's default from ``/ludibot config fil:``), so that changing
the server's default never moves a running game. A game opened inside a thread plays there.

**Exactly one thread, across restarts.** The thread is created by whoever publishes first (the
Start click, or the publisher repairing the outbox after a crash), under a per-game lock, and
derived from the database each time:

* a game with a lobby message gets its thread *from that message*. Discord gives such a thread
  the message's id and refuses a second one (400, 160004): if the bot died after creating the
  thread and before recording it, the next try is refused and the thread is known anyway — it is
  the lobby message's id;
* a game without a lobby message (a solo game answers its start command with its first message,
  which then serves as the lobby message) or whose lobby message was deleted gets a thread in the
  channel; before creating one, the server's active threads are searched for this game's name
  under this channel (the name carries the game's number);
* ``Store.set_thread`` records the id once (compare-and-set): of two writers, the second learns
  the first one's thread.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot import i18n
from bot.storage import GameRow
from bot.ui import fit

log = logging.getLogger("ludibot.threads")

#: minutes without activity before Discord hides the thread (a week: games are played over days;
#: a publication into an archived thread unarchives it)
AUTO_ARCHIVE = 10080
#: Discord's limit on a thread's name
NAME_MAX = 100
#: 400 "A thread has already been created for this message"
THREAD_EXISTS = 160004
UNKNOWN_MESSAGE = 10008
#: the server's default for games without a ``fil`` option (``guild_settings``)
SETTING = "thread"

_locks: dict[int, asyncio.Lock] = {}


#: ``settings["thread"]`` of a game played in a private thread (a daily challenge, issue 37: the others
#: must not watch the day's draw): only its players are added to it
PRIVATE = "private"


def wants_thread(game: GameRow) -> bool:
    """The game's messages go to a thread of its own (once it has started)."""
    return bool(game.settings.get("thread")) and game.guild_id is not None


def private_thread(game: GameRow) -> bool:
    """The game plays in a private thread: its players only (and the server's moderators, as Discord
    shows private threads to members who may manage threads)."""
    return game.settings.get("thread") == PRIVATE and game.guild_id is not None


def server_default(settings: dict[str, Any]) -> bool:
    """The server's default from its settings (``/ludibot config fil:``): off unless set."""
    return bool(settings.get(SETTING))


def thread_name(game: GameRow, lg: str) -> str:
    """"Ludix n°12 — Alice, Bruno": the players' display names, within Discord's 100 characters."""
    players = ", ".join(" ".join(n.split()) for n in game.names)
    name = i18n.t("common.thread.name", lg, game=i18n.t(f"{game.kind}.name.title", lg), id=game.id,
                  players=players)
    return fit(name, NAME_MAX) or str(game.id)


def thread_link(game: GameRow, thread_id: int, message_id: int | None = None) -> str:
    return f"https://discord.com/channels/{game.guild_id}/{thread_id}" + (f"/{message_id}" if message_id else "")


async def ensure_thread(bot: Any, game: GameRow, lg: str) -> int | None:
    """The game's thread, created if the game wants one and has none yet; None for a game played in
    its channel. Raises ``discord.HTTPException`` when Discord refuses (the caller pauses or retries)."""
    if game.thread_id or not wants_thread(game):
        return game.thread_id
    lock = _locks.setdefault(game.id, asyncio.Lock())
    try:
        async with lock:
            return await _ensure_locked(bot, game, lg)
    finally:
        if not lock.locked():
            _locks.pop(game.id, None)  # a later caller re-reads the recorded thread anyway


async def _ensure_locked(bot: Any, game: GameRow, lg: str) -> int | None:
    current = await bot.store.get_game(game.id)
    if current is None:
        return None
    if current.thread_id:
        game.thread_id = current.thread_id
        return current.thread_id
    thread_id = await _create(bot, current, thread_name(current, lg))
    recorded = await bot.store.set_thread(game.id, thread_id)
    game.thread_id = recorded or thread_id
    log.info("game %s plays in thread %s", game.id, game.thread_id)
    return game.thread_id


async def _create(bot: Any, game: GameRow, name: str) -> int:
    if private_thread(game):
        return await _create_private(bot, game, name)
    if game.lobby_message_id:
        try:
            data = await bot.http.start_thread_with_message(game.channel_id, game.lobby_message_id, name=name,
                                                            auto_archive_duration=AUTO_ARCHIVE)
            return int(data["id"])
        except discord.HTTPException as err:
            if err.code == THREAD_EXISTS:  # created before a restart: a thread from a message has its id
                return game.lobby_message_id
            if err.code != UNKNOWN_MESSAGE:
                raise
            log.info("lobby message of game %s is gone: its thread starts in the channel", game.id)
    found = await _find(bot, game, name)
    if found is not None:
        return found
    data = await bot.http.start_thread_without_message(game.channel_id, name=name, auto_archive_duration=AUTO_ARCHIVE,
                                                       type=discord.ChannelType.public_thread.value)
    return int(data["id"])


async def _create_private(bot: Any, game: GameRow, name: str) -> int:
    """A private thread in the game's channel (never from a message: such a thread is public), nobody
    else may invite to; its human players are added to it (Add Thread Member), the bot being in it."""
    thread_id = await _find(bot, game, name)
    if thread_id is None:
        data = await bot.http.start_thread_without_message(game.channel_id, name=name,
                                                           auto_archive_duration=AUTO_ARCHIVE,
                                                           type=discord.ChannelType.private_thread.value,
                                                           invitable=False)
        thread_id = int(data["id"])
    for seat in game.seats:
        if seat.user_id is not None:
            await bot.http.add_user_to_thread(thread_id, seat.user_id)
    return thread_id


async def _find(bot: Any, game: GameRow, name: str) -> int | None:
    """A thread this game already created in its channel (before a restart), by name."""
    try:
        data = await bot.http.get_active_threads(game.guild_id)
    except discord.HTTPException:
        return None
    for t in data.get("threads", []):
        if str(t.get("parent_id")) == str(game.channel_id) and t.get("name") == name:
            return int(t["id"])
    return None


async def archive(bot: Any, thread_id: int) -> None:
    """Archive the game's thread at its end (best effort: Discord archives it anyway after a week)."""
    try:
        await bot.http.edit_channel(thread_id, archived=True)
    except discord.HTTPException as err:
        log.info("could not archive thread %s (%s)", thread_id, err)
