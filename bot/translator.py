"""Localized command names and descriptions through discord.py's translator.

Descriptions are written ``L("ludix.cmd.start")``: the French text from the
catalog is the default Discord shows; the translator gives the English text to
English clients. Names (commands, groups, options) keep their base name in code
and are translated through the ``commands`` catalog (``commands.command.<name>``,
``commands.option.<name>``): English names for en-US/en-GB clients, French names
for French clients where the base name is not already French. Invocations always
arrive under the base name, whatever the client shows.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot import i18n

NAME_LOCATIONS = {
    app_commands.TranslationContextLocation.command_name: "command",
    app_commands.TranslationContextLocation.group_name: "command",
    app_commands.TranslationContextLocation.parameter_name: "option",
}
#: Discord's rule for command and option names (``\p{L}`` and ``\p{N}`` as ``str.isalnum``), lower case.
NAME_RULE = re.compile(r"^[-_\w]{1,32}$")


def valid_name(name: str) -> bool:
    return bool(NAME_RULE.match(name)) and name == name.lower()


def L(key: str) -> app_commands.locale_str:  # noqa: N802 - reads like a marker
    """A command/option description by catalog key (French default text)."""
    text = i18n.t(key, "fr")
    return app_commands.locale_str(text[:100], key=key)


def localized_name(kind: str, name: str, lang: str) -> str | None:
    """The name of command/option ``name`` for ``lang`` clients, or None to show the base name."""
    key = f"commands.{kind}.{name}"
    if not i18n.has(key, lang):
        return None
    translated = i18n.t(key, lang)
    return translated if translated != name and valid_name(translated) else None


class CatalogTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        kind = NAME_LOCATIONS.get(context.location)
        if kind is not None:
            value = str(getattr(locale, "value", locale))
            if not (value.startswith("en") or value == "fr"):
                return None  # other languages see the base names
            return localized_name(kind, string.message, i18n.lang_of(locale))
        key = string.extras.get("key")
        if not key:
            return None
        lg = i18n.lang_of(locale)
        if lg == i18n.DEFAULT or not i18n.has(key, lg):
            return None
        return i18n.t(key, lg)[:100]
