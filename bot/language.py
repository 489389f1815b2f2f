"""The language of each server's public messages (``/ludibot config langue:``).

Everything public — game messages, buttons, pictures, reminders, timeouts — is
in the server's language; everything private (ephemeral answers, DMs) in the
user's own Discord locale. Discord's ``guild_locale`` is not used: it reads
en-US on any server that is not a Community server. A server that never chose
speaks French.

The language is read from the guild settings once per guild and kept in
memory; ``/ludibot config`` calls :func:`remember` after saving, so a move
never costs a settings read. The cache lives beside the store (one per store
object, the bot has one), so two bots in one process do not share it.
"""

from __future__ import annotations

import weakref
from typing import Any

from bot import i18n

SETTING = "language"


def language_of(settings: dict[str, Any]) -> str:
    """The public language stored in a guild's settings (French if unset or unknown)."""
    value = settings.get(SETTING)
    return value if value in i18n.LANGS else i18n.DEFAULT


class ServerLanguages:
    def __init__(self, store: Any) -> None:
        self.store = store
        self._cache: dict[int, str] = {}

    async def of(self, guild_id: int | None) -> str:
        if guild_id is None:  # a DM: there is no server to ask
            return i18n.DEFAULT
        cached = self._cache.get(guild_id)
        if cached is None:
            cached = language_of(await self.store.guild_settings(guild_id))
            self._cache[guild_id] = cached
        return cached

    def remember(self, guild_id: int, lang: str) -> None:
        self._cache[guild_id] = lang if lang in i18n.LANGS else i18n.DEFAULT

    def forget(self, guild_id: int) -> None:
        self._cache.pop(guild_id, None)


_BY_STORE: weakref.WeakKeyDictionary[Any, ServerLanguages] = weakref.WeakKeyDictionary()


def languages(store: Any) -> ServerLanguages:
    """The (cached) server languages of ``store``."""
    found = _BY_STORE.get(store)
    if found is None:
        found = _BY_STORE[store] = ServerLanguages(store)
    return found


async def server_lang(store: Any, guild_id: int | None) -> str:
    """The public language of server ``guild_id`` (French for a DM or a store-less caller)."""
    if store is None:
        return i18n.DEFAULT
    return await languages(store).of(guild_id)
