"""Cards (issue 24): every message of a game as one Components V2 layout.

A :class:`Card` is plain data — the narration and the ping (markdown text), the accent colour
(the seat to play), the pictures (attachment file names, shown together in one media gallery),
and the controls grouped by purpose (the move, my private view, the vote: one group never shares
an action row with another). :meth:`Card.layout` turns it into the ``discord.ui.LayoutView`` sent
to Discord; nothing here calls Discord, so a card is built and tested like a renderer. The
publisher and the interaction path send the same card (:class:`bot.gamecog.GameCog` builds it).

Discord's rules for these messages (components/reference.mdx, "Component Reference"; message.mdx):
the flag ``IS_COMPONENTS_V2`` forbids ``content`` and ``embeds``; it cannot be removed by an edit; a
message carries at most 40 components and 4,000 characters of text; a media gallery holds 1 to 10
items; ``attachment://<name>`` names an attachment of the same message. A mention in a text display
pings as in ``content``, under ``allowed_mentions``.

Taking the controls off a card means editing it to the same card without its rows: the card of a
message is rebuilt from the message itself (:func:`from_message`), so that works after a restart too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import discord

#: Discord's limits for one message of components (components/reference.mdx)
MAX_COMPONENTS, MAX_TEXT, MAX_GALLERY, ROW_WIDTH = 40, 4000, 10, 5
#: the accent of a card with nobody to play (a lobby, a result): the table's felt green
TABLE_ACCENT = 0x2E7D5B


def rgb(colour: tuple[int, int, int]) -> int:
    """An accent colour (0xRRGGBB) from a renderer's (r, g, b)."""
    r, g, b = colour
    return (r << 16) | (g << 8) | b


def _width(item: discord.ui.Item) -> int:
    return getattr(item, "width", 1)


def rows_of(group: Sequence[discord.ui.Item]) -> list[list[discord.ui.Item]]:
    """The action rows of one group of controls: items that name a ``row`` keep it together (a line
    of gestures), the others fill rows of five buttons in order; a select takes a row alone."""
    rows: list[list[discord.ui.Item]] = []
    named: dict[int, list[discord.ui.Item]] = {}
    current: list[discord.ui.Item] = []
    for item in group:
        row = item.row
        if row is not None:
            target = named.get(row)
            if target is None or sum(_width(i) for i in target) + _width(item) > ROW_WIDTH:
                named[row] = target = []
                rows.append(target)
            target.append(item)
            continue
        if not current or sum(_width(i) for i in current) + _width(item) > ROW_WIDTH:
            current = []
            rows.append(current)
        current.append(item)
    return rows


@dataclass(frozen=True)
class Card:
    """One message of a game, as data (see the module's docstring)."""

    text: str
    accent: int | None = None
    pictures: tuple[str, ...] = ()
    #: controls, one group per purpose, in order: the move, the player's own view, the vote
    groups: tuple[tuple[discord.ui.Item, ...], ...] = field(default=())

    def __post_init__(self) -> None:
        text = self.text if len(self.text) <= MAX_TEXT else self.text[: MAX_TEXT - 1] + "…"
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "pictures", tuple(self.pictures)[:MAX_GALLERY])
        object.__setattr__(self, "groups", tuple(tuple(g) for g in self.groups if g))

    @property
    def controls(self) -> list[discord.ui.Item]:
        return [item for group in self.groups for item in group]

    def without_controls(self) -> Card:
        return replace(self, groups=())

    def rows(self) -> list[list[discord.ui.Item]]:
        return [row for group in self.groups for row in rows_of(group)]

    def count(self) -> int:
        """The components this card sends (Discord counts nested ones: at most 40)."""
        rows = self.rows()
        return 1 + 1 + (1 if self.pictures else 0) + len(rows) + sum(len(r) for r in rows)

    def fits(self) -> bool:
        return self.count() <= MAX_COMPONENTS

    def layout(self) -> discord.ui.LayoutView:
        """The ``LayoutView`` Discord is sent: one container, accent = the seat to play; its text,
        its pictures in one gallery, then one action row after another, group by group."""
        children: list[discord.ui.Item] = [discord.ui.TextDisplay(self.text or "\u200b")]
        if self.pictures:
            children.append(discord.ui.MediaGallery(
                *(discord.MediaGalleryItem(f"attachment://{name}") for name in self.pictures)))
        for row in self.rows():
            for item in row:  # placed by its action row here, not by a legacy row number
                item.row = None
            children.append(discord.ui.ActionRow(*row))
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.Container(*children, accent_colour=self.accent))
        return view


def card_of(content: str | None, *, pictures: Iterable[str] = (), controls: Iterable[discord.ui.Item] = (),
            groups: Iterable[Iterable[discord.ui.Item]] | None = None, accent: int | None = None) -> Card:
    """A card from what a legacy message would have had: its text, its files, its controls."""
    if groups is None:
        groups = [list(controls)]
    return Card(text=content or "", accent=accent, pictures=tuple(pictures),
                groups=tuple(tuple(g) for g in groups))


def _walk(components: Iterable[Any]) -> Iterable[Any]:
    for c in components:
        yield c
        children = getattr(c, "children", None)
        if isinstance(children, list):
            yield from _walk(children)


def is_card(message: discord.Message | Any) -> bool:
    flags = getattr(message, "flags", None)
    return bool(flags is not None and getattr(flags, "components_v2", False))


def from_message(message: discord.Message | Any) -> Card | None:
    """The card a message shows (its text, accent and pictures; without its controls), rebuilt from the
    message as Discord returns it; None for a legacy message."""
    if not is_card(message):
        return None
    texts: list[str] = []
    accent: int | None = None
    gallery = False
    for comp in _walk(getattr(message, "components", []) or []):
        if isinstance(comp, discord.components.Container) and accent is None and comp.accent_colour is not None:
            accent = comp.accent_colour.value
        elif isinstance(comp, discord.components.TextDisplay):
            texts.append(comp.content)
        elif isinstance(comp, discord.components.MediaGalleryComponent):
            gallery = True
    pictures = tuple(a.filename for a in getattr(message, "attachments", []) or []) if gallery else ()
    return Card(text="\n".join(texts), accent=accent, pictures=pictures)
