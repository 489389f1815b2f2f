"""The rules of every game, complete inside Discord: a private card of pages, turned in place.

A game's pages are its catalog messages ``<kind>.rules.page_1``, ``page_2``, … (in order, as
many as the catalog has), then one page per variant, ``<kind>.rules.variant_<id>`` in catalog
order, then the pages every game shares (``common.rules.page_*``: time and absent players). A page's first line is its title (the page select lists them). Pages take parameters from
the game being played in the channel when there is one (Ludix's target), else the defaults.

The card's buttons are not bound to a game: their custom id is
``ludibot:rules:<kind>:<page>:<game id or 0>``, so a page turns after a restart too, and the game
(if any) is read again, in this server only, to fill the parameters.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any

import discord

from bot import i18n
from engines.base import RuleError

RULES_ID = re.compile(r"^ludibot:rules:(?P<kind>[a-z]{1,20}):(?P<page>[0-9]{1,2}):(?P<game>[0-9]{1,18})$")
#: Discord's limit for a message's content; a page stays well within it (tests check every page)
PAGE_MAX = 1900

#: what a page's parameters are, per game, from the game's options (defaults when no game)
Params = Callable[[dict[str, Any]], dict[str, Any]]
DEFAULTS: dict[str, Params] = {
    "ludix": lambda options: {"target": int(options.get("target", 300))},
}


@cache
def pages(kind: str) -> tuple[str, ...]:
    """The catalog keys of ``kind``'s pages, in order: numbered pages, then one per variant."""
    numbered = []
    n = 1
    while i18n.has(f"{kind}.rules.page_{n}"):
        numbered.append(f"{kind}.rules.page_{n}")
        n += 1
    variants = [key for key in i18n.keys(i18n.DEFAULT) if key.startswith(f"{kind}.rules.variant_")]
    shared = [key for key in i18n.keys(i18n.DEFAULT) if key.startswith("common.rules.page_")] if numbered else []
    return (*numbered, *variants, *shared)


def variant_page(kind: str, variant: str | None) -> int:
    """The index of ``variant``'s page (0, the first page, when it has none)."""
    key = f"{kind}.rules.variant_{variant}"
    return pages(kind).index(key) if variant and key in pages(kind) else 0


def params_for(kind: str, options: dict[str, Any] | None) -> dict[str, Any]:
    maker = DEFAULTS.get(kind)
    return maker(options or {}) if maker else {}


def page_text(kind: str, index: int, lang: str, params: dict[str, Any]) -> str:
    keys = pages(kind)
    index = max(0, min(index, len(keys) - 1))
    body = i18n.t(keys[index], lang, **params)
    footer = i18n.t("common.rules.footer", lang, page=index + 1, pages=len(keys))
    return f"{body}\n\n{footer}"


def title(kind: str, index: int, lang: str, params: dict[str, Any]) -> str:
    first = i18n.t(pages(kind)[index], lang, **params).split("\n", 1)[0]
    return first.replace("*", "").strip()[:100]


def rules_id(kind: str, page: int, game_id: int) -> str:
    return f"ludibot:rules:{kind}:{page}:{game_id}"


def controls(kind: str, index: int, lang: str, params: dict[str, Any], game_id: int = 0) -> discord.ui.View:
    """◀ ▶ and a select of every page's title (the current one marked)."""
    n = len(pages(kind))
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=i18n.t("common.rules.previous", lang), emoji="◀️",
                                    custom_id=rules_id(kind, (index - 1) % n, game_id),
                                    style=discord.ButtonStyle.secondary, disabled=index == 0, row=0))
    view.add_item(discord.ui.Button(label=i18n.t("common.rules.next", lang), emoji="▶️",
                                    custom_id=rules_id(kind, (index + 1) % n, game_id),
                                    style=discord.ButtonStyle.primary, disabled=index == n - 1, row=0))
    options = [discord.SelectOption(label=f"{i + 1}. {title(kind, i, lang, params)}"[:100],
                                    value=str(i), default=i == index) for i in range(min(n, 25))]
    view.add_item(discord.ui.Select(custom_id=rules_id(kind, 0, game_id) + ":pick", options=options,
                                    placeholder=i18n.t("common.rules.pick", lang), row=1))
    view.stop()  # inert, like a card's (bot.cards.Card.layout): discord.py keeps no copy of it
    return view


PICK_ID = re.compile(r"^(?P<base>ludibot:rules:[a-z]{1,20}:[0-9]{1,2}:[0-9]{1,18}):pick$")

Lookup = Callable[[int, int | None], Awaitable[dict[str, Any] | None]]


async def turn_page(interaction: discord.Interaction, options_of: Lookup) -> tuple[str, list[discord.ui.Item]] | None:
    """The page a rules card's click turns to: its text and controls, for the caller to edit the
    card in place; None when the custom id is not a rules card's.

    ``options_of(game_id, guild_id)`` gives the options of that game in this server (None when it
    is not one of this server's games: the defaults are used, nothing of another server is read)."""
    data = interaction.data or {}
    cid = str(data.get("custom_id", ""))
    picked = PICK_ID.match(cid)
    m = RULES_ID.match(picked["base"] if picked else cid)
    if m is None or not pages(m["kind"]):
        return None
    kind, game_id = m["kind"], int(m["game"])
    index = int(m["page"])
    if picked:  # one of the pages the select offered (a crafted none, several or other: refused)
        values = [str(v) for v in data.get("values") or []]
        if len(values) != 1:
            raise RuleError("common.error.select_one", count=len(values))
        if values[0] not in {str(i) for i in range(min(len(pages(kind)), 25))}:
            raise RuleError("common.error.not_offered", value=values[0][:40])
        index = int(values[0])
    index = max(0, min(index, len(pages(kind)) - 1))
    options = await options_of(game_id, interaction.guild_id) if game_id else None
    lang = i18n.lang_of(interaction.locale)
    params = params_for(kind, options)
    view = controls(kind, index, lang, params, game_id if options else 0)
    return page_text(kind, index, lang, params), list(view.children)
