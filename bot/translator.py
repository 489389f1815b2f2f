"""Localized command names' descriptions through discord.py's translator.

Command and option descriptions are written ``L("ludix.cmd.start")``: the French
text from the catalog is the default Discord shows; the translator gives the
English text to English clients.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot import i18n


def L(key: str) -> app_commands.locale_str:  # noqa: N802 - reads like a marker
    """A command/option description by catalog key (French default text)."""
    text = i18n.t(key, "fr")
    return app_commands.locale_str(text[:100], key=key)


class CatalogTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        key = string.extras.get("key")
        if not key:
            return None
        lg = i18n.lang_of(locale)
        if lg == i18n.DEFAULT or not i18n.has(key, lg):
            return None
        return i18n.t(key, lg)[:100]
