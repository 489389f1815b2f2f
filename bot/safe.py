"""User-supplied text made harmless before it enters a message, and who a message may ping.

Display names and words typed as options are shown as typed, never interpreted: no markdown
(bold, headings, lists, quotes, spoilers, code), no masked or bare links, no mentions
(``<@id>``, ``<@&id>``, ``<#id>``, ``@everyone``, ``@here``), no invisible characters that
reorder or hide the text around them. The bot pings only through ``<@id>`` it builds itself
(:func:`ping`), and :func:`allowed_mentions` names exactly those users.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import discord

#: characters that mean something anywhere in a line: a backslash shows them as typed
_MARKDOWN = re.compile(r"([\\*_~|`\[\]<])")
#: what means something only at the start of a line: headings, subtext, lists, quotes
_LINE_START = re.compile(r"^(\s*)([#>+-])")
_LIST_NUMBER = re.compile(r"^(\s*[0-9]+)([.)])")
#: a user mention the bot built: ``<@123>`` (or the legacy ``<@!123>``)
_PING = re.compile(r"<@!?([0-9]{1,21})>")
ZWSP = "\u200b"


class Safe(str):
    """Text that is already safe to put in a message (escaped, or built by the bot itself)."""


def _visible(ch: str) -> bool:
    """Drop format characters (zero-width, bidi overrides and isolates) and control characters."""
    return unicodedata.category(ch) not in ("Cf", "Cc", "Co", "Cs")


def escape(text: object, *, limit: int | None = None) -> Safe:
    """``text`` shown literally in a Discord message, on one line.

    Newlines and tabs become spaces; invisible and bidi characters are removed; markdown
    characters get a backslash (and those that only count at a line's start, there); ``@``
    and ``://`` get a zero-width space so that no mention and no link can form. ``limit`` cuts
    the text (before escaping) to that many characters, with an ellipsis. Already
    :class:`Safe` text is returned as it is (escaping twice would show the backslashes).
    """
    if isinstance(text, Safe):
        return text
    return _escape("" if text is None else str(text), limit)


@lru_cache(maxsize=4096)
def _escape(s: str, limit: int | None) -> Safe:
    """:func:`escape` of a string (kept: the same names are escaped again and again)."""
    s = "".join(" " if ch in "\r\n\t\v\f\x85\u2028\u2029" else ch for ch in s)
    s = "".join(ch for ch in s if _visible(ch))
    if limit is not None and len(s) > limit:
        s = s[: max(limit - 1, 0)] + "…"
    s = _MARKDOWN.sub(r"\\\1", s)
    s = _LIST_NUMBER.sub(r"\1\\\2", s)
    s = _LINE_START.sub(r"\1\\\2", s)
    s = s.replace("<", "<" + ZWSP)  # no <#channel>, <t:time>, </command:id>, <:emoji:id>
    s = s.replace("@", "@" + ZWSP)
    s = s.replace("://", ":" + ZWSP + "//")  # no scheme://: no bare link
    return Safe(s)


def safe_params(params: dict) -> dict:
    """Catalog parameters with every text escaped unless it is already :class:`Safe`."""
    return {k: escape(v) if isinstance(v, str) else v for k, v in params.items()}


def escape_all(names: list[str] | tuple[str, ...]) -> list[str]:
    return [escape(n) for n in names]


def ping(user_id: int) -> Safe:
    """The only way the bot mentions a user."""
    return Safe(f"<@{int(user_id)}>")


def pinged(content: str | None) -> list[int]:
    """The users a message's text mentions (only the bot can have written a live ``<@id>``)."""
    seen: list[int] = []
    for m in _PING.finditer(content or ""):
        uid = int(m.group(1))
        if uid not in seen:
            seen.append(uid)
    return seen


def allowed_mentions(content: str | None) -> discord.AllowedMentions:
    """Exactly the users this text mentions; never roles, @everyone/@here or the replied user."""
    return discord.AllowedMentions(users=[discord.Object(u) for u in pinged(content)], roles=False,
                                   everyone=False, replied_user=False)
