"""Cards (issue 24): every message of a game as one Components V2 layout.

A :class:`Card` is plain data — the narration and the ping (markdown text), the accent colour
(the seat to play), the pictures (attachment file names, each in a media gallery of its own: see
:meth:`Card.galleries`),
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

Seats: a card may list its players, one Section each (reference.mdx, "Section": one to three text
displays and a required accessory, a Button or a Thumbnail) — the seat to play marked ``▶`` and bold,
its name, score and clock — with a button as accessory (« Profil », or an AI's level: its measured strength). A
Section costs three components (itself, its text, its button): when the card would pass 40 with them,
the seats are one compact text display instead (and nothing at all if even that does not fit: the
controls come first). A card's seats survive :func:`from_message` with their accessories (a seat
read back keeps its whole text in :attr:`Seat.line`): taking a card's controls off keeps « Profil »,
which never goes stale (version 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from bot.payload import CLICKED, V2_FLAG

#: Discord's limits for one message of components (components/reference.mdx)
MAX_COMPONENTS, MAX_TEXT, MAX_GALLERY, ROW_WIDTH = 40, 4000, 10, 5
#: component types (components/reference.mdx)
ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, CONTAINER = 1, 9, 10, 12, 13, 17
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


#: the components of one seat shown as a Section: the section, its text display, its accessory
SECTION_COST = 3


@dataclass(frozen=True)
class Seat:
    """One player of a card, as plain data (texts already escaped and localized by the caller)."""

    name: str
    score: str | None = None
    clock: str | None = None
    #: the seat to play (marked ▶ and bold)
    to_play: bool = False
    #: an AI seat: its level's name, shown on its accessory (which opens the level's measured strength)
    ai: str | None = None
    #: the accessory button: its custom id (None: the seat has none, and the card lists its seats in
    #: one compact text) and its label
    button: str | None = None
    label: str = ""
    #: the seat's text as given (a result's rank line; a seat read back from a message), used as is
    line: str | None = None

    def text(self) -> str:
        """The seat's text: ``▶ **Alice** · 12 points · ⏳ in 2 hours`` (the seat to play), ``Bruno · 3 points``."""
        if self.line is not None:
            return self.line
        head = f"▶ **{self.name}**" if self.to_play else self.name
        return " · ".join(p for p in (head, self.score, self.clock) if p)

    def compact(self) -> str:
        """The seat's line in the compact list (no accessory there: an AI seat says so in its text)."""
        text = self.text()
        return f"{text} · {self.ai}" if self.ai and self.line is None else text

    def accessory(self) -> discord.ui.Button:
        return discord.ui.Button(label=self.label[:80], custom_id=self.button, style=discord.ButtonStyle.secondary)


@dataclass(frozen=True)
class Card:
    """One message of a game, as data (see the module's docstring)."""

    text: str
    accent: int | None = None
    pictures: tuple[str, ...] = ()
    #: controls, one group per purpose, in order: the move, the player's own view, the vote
    groups: tuple[tuple[discord.ui.Item, ...], ...] = field(default=())
    #: the players, in order, between the narration and the pictures (see the module's docstring)
    seats: tuple[Seat, ...] = ()
    #: attachments that are not pictures (a journal's text file): one File component each, after the gallery
    files: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        text = self.text if len(self.text) <= MAX_TEXT else self.text[: MAX_TEXT - 1] + "…"
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "pictures", tuple(self.pictures)[:MAX_GALLERY])
        object.__setattr__(self, "groups", tuple(tuple(g) for g in self.groups if g))
        object.__setattr__(self, "seats", tuple(self.seats))
        object.__setattr__(self, "files", tuple(self.files))

    @property
    def controls(self) -> list[discord.ui.Item]:
        return [item for group in self.groups for item in group]

    def without_controls(self) -> Card:
        return replace(self, groups=())

    def rows(self) -> list[list[discord.ui.Item]]:
        return [row for group in self.groups for row in rows_of(group)]

    def galleries(self) -> list[tuple[str, ...]]:
        """The card's media galleries, in order: one per picture, one under the other (issue 36).
        Discord lays a gallery's items out as a mosaic (one item: the card's whole width; two: two
        halves side by side; three: a half and two quarters; four: two by two…): a final board beside
        another, or beside the animated summary, was shown about 170 CSS px wide on a phone, Limit's
        digits 3 px high. Alone in its gallery, each picture takes the card's whole width
        (tests/render/test_phone.py measures every picture at the width its card gives it)."""
        return [(name,) for name in self.pictures]

    def with_picture(self, name: str) -> Card:
        """The same card with one more picture, under the others (a result's animated summary)."""
        return replace(self, pictures=(*self.pictures, name))

    def _base(self) -> int:
        rows = self.rows()
        return 1 + 1 + len(self.galleries()) + len(self.files) + len(rows) + sum(len(r) for r in rows)

    def seats_form(self) -> str | None:
        """How the seats are shown: ``"sections"`` (one each, with its button), ``"compact"`` (one text
        display listing them: there is no room for sections, or a seat has no button), None (no seats,
        or no room even for that)."""
        if not self.seats:
            return None
        base = self._base()
        if all(s.button for s in self.seats) and base + SECTION_COST * len(self.seats) <= MAX_COMPONENTS:
            return "sections"
        return "compact" if base + 1 <= MAX_COMPONENTS else None

    def count(self) -> int:
        """The components this card sends (Discord counts nested ones: at most 40)."""
        form = self.seats_form()
        return self._base() + (SECTION_COST * len(self.seats) if form == "sections" else 1 if form else 0)

    def fits(self) -> bool:
        return self.count() <= MAX_COMPONENTS

    def _parts(self) -> tuple[str | None, list[str], str]:
        """The seats' form, their texts, and the narration cut so that all texts stay within 4,000."""
        form = self.seats_form()
        seat_texts = ([s.text() for s in self.seats] if form == "sections"
                      else ["\n".join(s.compact() for s in self.seats)] if form else [])
        seat_texts = [t[:MAX_TEXT // 2] or "\u200b" for t in seat_texts]
        room = max(1, MAX_TEXT - sum(len(t) for t in seat_texts))
        text = self.text if len(self.text) <= room else self.text[: room - 1] + "…"
        return form, seat_texts, text or "\u200b"

    def components(self) -> list[dict[str, Any]]:
        """The card as the JSON Discord is sent — exactly what :meth:`layout` gives once serialised,
        built directly: the hot path (each move's answer, :func:`bot.ui.follow_up` and
        :func:`bot.ui.update_clicked`) does not pay for discord.py's view objects."""
        form, seat_texts, text = self._parts()
        children: list[dict[str, Any]] = [{"type": TEXT_DISPLAY, "content": text}]
        if form == "sections":
            children += [{"type": SECTION, "components": [{"type": TEXT_DISPLAY, "content": t}],
                          "accessory": s.accessory().to_component_dict()}
                         for s, t in zip(self.seats, seat_texts, strict=True)]
        elif form:
            children.append({"type": TEXT_DISPLAY, "content": seat_texts[0]})
        for gallery in self.galleries():
            children.append({"type": MEDIA_GALLERY, "items": [
                {"media": {"url": f"attachment://{name}"}, "spoiler": False} for name in gallery]})
        children += [{"type": FILE, "file": {"url": f"attachment://{name}"}, "spoiler": False} for name in self.files]
        for row in self.rows():
            children.append({"type": ACTION_ROW, "components": [item.to_component_dict() for item in row]})
        return [{"type": CONTAINER, "accent_color": self.accent, "spoiler": False, "components": children}]

    def layout(self) -> discord.ui.LayoutView:
        """The ``LayoutView`` Discord is sent: one container, accent = the seat to play; its text, its
        seats (sections, or one compact text), its pictures (a gallery each), then one action row after
        another, group by group. The narration is cut so that all texts stay within 4,000 characters."""
        form, seat_texts, text = self._parts()
        children: list[discord.ui.Item] = [discord.ui.TextDisplay(text)]
        if form == "sections":
            children += [discord.ui.Section(t, accessory=s.accessory()) for s, t in zip(self.seats, seat_texts,
                                                                                       strict=True)]
        elif form:
            children.append(discord.ui.TextDisplay(seat_texts[0]))
        for gallery in self.galleries():
            children.append(discord.ui.MediaGallery(
                *(discord.MediaGalleryItem(f"attachment://{name}") for name in gallery)))
        children += [discord.ui.File(f"attachment://{name}") for name in self.files]
        for row in self.rows():
            for item in row:  # placed by its action row here, not by a legacy row number
                item.row = None
            children.append(discord.ui.ActionRow(*row))
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.Container(*children, accent_colour=self.accent))
        # inert: a click reaches its game by its custom id (Ludibot.on_interaction). A live view sent with
        # timeout=None would be kept by discord.py for ever (its ViewStore, one per message posted: memory
        # that grows with every card) and answered by an extra task at each click
        view.stop()
        return view


def card_of(content: str | None, *, pictures: Iterable[str] = (), controls: Iterable[discord.ui.Item] = (),
            groups: Iterable[Iterable[discord.ui.Item]] | None = None, accent: int | None = None) -> Card:
    """A card from what a legacy message would have had: its text, its files, its controls."""
    if groups is None:
        groups = [list(controls)]
    return Card(text=content or "", accent=accent, pictures=tuple(pictures),
                groups=tuple(tuple(g) for g in groups))


def _walk(components: Iterable[Any]) -> Iterable[Any]:
    """Every component, depth first; a Section is yielded whole (its text and accessory are its seat's)."""
    for c in components:
        yield c
        if isinstance(c, discord.components.SectionComponent):
            continue
        children = getattr(c, "children", None)
        if isinstance(children, list):
            yield from _walk(children)


def _seat_of(section: Any) -> Seat:
    """A seat read back from its Section: its text whole, its accessory button as it was."""
    text = "\n".join(c.content for c in section.children if isinstance(c, discord.components.TextDisplay))
    acc = section.accessory
    cid = getattr(acc, "custom_id", None)
    label = getattr(acc, "label", None) or ""
    return Seat(name="", line=text, button=cid, label=label,
                ai=label if getattr(acc, "disabled", False) else None)


def is_card(message: discord.Message | Any) -> bool:
    flags = getattr(message, "flags", None)
    return bool(flags is not None and getattr(flags, "components_v2", False))


def from_components(components: list[Any], flags: int, attachments: Iterable[str]) -> Card | None:
    """:func:`from_message` from the message's JSON: its components as Discord sent them, its flags
    and its attachments' file names (a click's message, kept as JSON by :func:`bot.payload.lighten`).
    What is not of the type Discord documents (a crafted client's) is skipped, never raised on."""
    if not flags & V2_FLAG:
        return None
    texts: list[str] = []
    seats: list[Seat] = []
    accent: int | None = None
    gallery = False
    for comp in walk_json(components, whole_sections=True):
        kind = comp.get("type")
        colour = comp.get("accent_color")
        if kind == CONTAINER and accent is None and type(colour) is int:  # a crafted one is no colour
            accent = colour
        elif kind == SECTION:
            lines = (_text(c, "content") for c in walk_json(comp.get("components"), whole_sections=True)
                     if c.get("type") == TEXT_DISPLAY)
            acc = comp.get("accessory")
            acc = acc if isinstance(acc, dict) else {}
            label = _text(acc, "label")
            seats.append(Seat(name="", line="\n".join(lines), button=_text(acc, "custom_id") or None, label=label,
                              ai=label if acc.get("disabled") is True else None))
        elif kind == TEXT_DISPLAY:
            texts.append(_text(comp, "content"))
        elif kind == MEDIA_GALLERY:
            gallery = True
    pictures = tuple(attachments) if gallery else ()
    return Card(text="\n".join(texts), accent=accent, pictures=pictures, seats=tuple(seats))


def _text(comp: dict[str, Any], key: str) -> str:
    value = comp.get(key)
    return value if isinstance(value, str) else ""


def walk_json(components: Any, *, whole_sections: bool = False) -> Iterable[dict[str, Any]]:
    """Every component of a message's JSON, depth first: the children of containers and rows, and a
    Section's texts and accessory (``whole_sections``: a Section yielded alone, as :func:`from_message`
    reads a seat). Anything that is not a list of objects is skipped."""
    for c in components if isinstance(components, list) else ():
        if not isinstance(c, dict):
            continue
        yield c
        if c.get("type") != SECTION:
            yield from walk_json(c.get("components"), whole_sections=whole_sections)
        elif not whole_sections:
            yield from walk_json(c.get("components"))
            yield from walk_json([c.get("accessory")])


def clicked_card(interaction: discord.Interaction) -> Card | None:
    """The card of the message clicked (:func:`from_message`), read from its JSON when the click's
    reading kept it so (:data:`bot.payload.CLICKED`); None for a legacy message or no message."""
    message = interaction.message
    if message is None:
        return None
    raw = (interaction.data or {}).get(CLICKED)
    if not isinstance(raw, list):
        return from_message(message)
    return from_components(raw, message.flags.value, (a.filename for a in message.attachments))


def from_message(message: discord.Message | Any) -> Card | None:
    """The card a message shows (its text, accent, seats and pictures; without its controls), rebuilt
    from the message as Discord returns it; None for a legacy message. A compact list of seats comes
    back as part of the text (it is a text display)."""
    if not is_card(message):
        return None
    texts: list[str] = []
    seats: list[Seat] = []
    accent: int | None = None
    gallery = False
    for comp in _walk(getattr(message, "components", []) or []):
        if isinstance(comp, discord.components.Container) and accent is None and comp.accent_colour is not None:
            accent = comp.accent_colour.value
        elif isinstance(comp, discord.components.SectionComponent):
            seats.append(_seat_of(comp))
        elif isinstance(comp, discord.components.TextDisplay):
            texts.append(comp.content)
        elif isinstance(comp, discord.components.MediaGalleryComponent):
            gallery = True
    pictures = tuple(a.filename for a in getattr(message, "attachments", []) or []) if gallery else ()
    return Card(text="\n".join(texts), accent=accent, pictures=pictures, seats=tuple(seats))
