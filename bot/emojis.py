"""Application emojis (issue 24 part 6): die faces, letters, line values and gestures as glyphs in
texts, buttons and select options, uploaded once through Discord's application-emoji endpoints
(resources/emoji.mdx: ``GET/POST /applications/{id}/emojis``, ``DELETE …/emojis/{emoji id}``).

The pictures are :mod:`render.emoji`'s. An emoji's name is ``<code>_<key>_<digest>`` (``dx_L_3fa2c1``:
a Ludix face L): the digest names the picture's pixels, so a redrawn emoji is a *new* name,
created beside the old one — an emoji's image cannot be changed (PATCH renames only), and
deleting the old one first would turn every message that shows it into ``:name:`` text. Old
versions are kept; they are deleted (only ours, oldest designs first) when the 2,000 emojis an
application may hold would be exceeded.

At start (:func:`start`), in the background: the process that holds shard 0 lists the
application's emojis, reuses every one whose name it wants, and creates the missing ones, one at
a time, paced (:data:`CREATE_PACE`; a 429 is waited on by discord.py's HTTP client). Another
process only reads the list, and reads it again later (:data:`RELIST_DELAYS`) while emojis are
missing (shard 0 is creating them). Two creators at once (a rolling deploy) cannot make two emojis
of one name: Discord refuses a name already taken, and the loser reads the list again and reuses
the winner's.

Until an emoji is known (not created yet, creation refused, Discord unreachable) :func:`emoji`
returns None and :func:`text` the caller's fallback: a message never carries a reference to an
emoji that does not exist, and nothing waits on this module.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import aiohttp
import discord

from bot.safe import Safe
from render import emoji as pictures

log = logging.getLogger("ludibot.emojis")

#: the short code of each kind in an emoji's name (names are 2-32 of ``[A-Za-z0-9_]``)
CODES = {"ludix": "dx", "ranta": "d6", "ludime": "lm", "limit": "lim", "lutinades": "lut"}
_KINDS = {code: kind for kind, code in CODES.items()}
NAME = re.compile(r"^([a-z0-9]+)_([A-Za-z0-9]+)_([0-9a-f]{6})$")
#: resources/emoji.mdx: up to 2,000 emojis per application
APP_EMOJIS_MAX = 2000
#: seconds between two creations: about 50 emojis in 5 s, far below the global 50 requests/s
CREATE_PACE = 0.1
#: a process without shard 0 reads the list again after these delays while emojis are missing
RELIST_DELAYS = (5.0, 15.0, 30.0, 60.0, 120.0, 300.0)


def emoji_name(kind: str, key: str, digest: str) -> str:
    return f"{CODES[kind]}_{key}_{digest}"


def parse_name(name: str) -> tuple[str, str, str] | None:
    """``(kind, key, digest)`` of one of our names, else None (an emoji this module does not own)."""
    m = NAME.match(name or "")
    if m is None or m.group(1) not in _KINDS:
        return None
    return _KINDS[m.group(1)], m.group(2), m.group(3)


def wanted_names(items: Iterable[tuple[str, str]] | None = None) -> dict[str, tuple[str, str]]:
    """name -> (kind, key) of every emoji of :mod:`render.emoji`'s catalog, in its current design.
    Every picture's digest: drawn (about 0.5 s of CPU), or read from the digests' cache
    (:func:`catalog_digests`): run it off the event loop."""
    if items is None:
        return {emoji_name(kind, key, digest): (kind, key) for (kind, key), digest in catalog_digests().items()}
    return {emoji_name(kind, key, pictures.digest(kind, key)): (kind, key) for kind, key in items}


#: what the emojis' pictures are drawn from: the renderers, the Limit tiles' colours, the fonts
DRAWN_FROM = ("render", "engines/limit", "data/fonts")


def design_fingerprint(root: Path | None = None) -> str:
    """A digest of everything the emojis' pictures are drawn from (:data:`DRAWN_FROM`, and Pillow's
    version): two processes with the same fingerprint draw the same pixels."""
    import PIL

    root = root or Path(__file__).resolve().parent.parent
    h = hashlib.sha256(PIL.__version__.encode())
    for top in DRAWN_FROM:
        for path in sorted((root / top).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".ttf"):
                h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:20]


def cache_dir() -> Path:
    """Where a process keeps what it can compute again (``LUDIBOT_CACHE_DIR``; by default
    ``$XDG_CACHE_HOME/ludibot`` or ``~/.cache/ludibot``)."""
    raw = os.environ.get("LUDIBOT_CACHE_DIR", "").strip()
    if raw:
        return Path(raw)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ludibot"


def catalog_digests() -> dict[tuple[str, str], str]:
    """``(kind, key) -> digest`` of every emoji of the catalog. Drawing them all costs about 0.5 s of
    CPU at every start; the digests are kept in :func:`cache_dir` under the design's fingerprint
    (:func:`design_fingerprint`), so a process whose pictures are drawn from the same code, fonts and
    Pillow reads them instead. A cache that cannot be read or written is drawn again, never trusted."""
    everything = pictures.everything()
    path = None
    try:
        path = cache_dir() / f"emoji-digests-{design_fingerprint()}.json"
        stored = json.loads(path.read_text(encoding="utf-8"))
        digests = {(kind, key): stored[f"{kind}/{key}"] for kind, key in everything}
        if all(isinstance(d, str) and re.fullmatch(r"[0-9a-f]{6}", d) for d in digests.values()):
            return digests
    except (OSError, ValueError, KeyError, TypeError):
        pass  # no cache yet, or unreadable: drawn below
    digests = {(kind, key): pictures.digest(kind, key) for kind, key in everything}
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps({f"{k}/{key}": d for (k, key), d in digests.items()}), encoding="utf-8")
            os.replace(tmp, path)
        except OSError as exc:
            log.debug("the emojis' digests are not cached (%s)", exc)
    return digests


@dataclass
class Registry:
    """The emojis this process knows to exist: (kind, key) -> emoji."""

    known: dict[tuple[str, str], discord.PartialEmoji] = field(default_factory=dict)

    def emoji(self, kind: str, key: str) -> discord.PartialEmoji | None:
        return self.known.get((kind, str(key)))

    def text(self, kind: str, key: str, fallback: str = "") -> str:
        e = self.known.get((kind, str(key)))
        return str(e) if e is not None else fallback

    def add(self, kind: str, key: str, item: dict[str, Any]) -> None:
        try:
            self.known[(kind, str(key))] = discord.PartialEmoji(name=str(item["name"]), id=int(item["id"]),
                                                                animated=bool(item.get("animated")))
        except (KeyError, TypeError, ValueError):
            log.warning("an application emoji Discord listed is unreadable: %r", item)

    def load(self, items: Iterable[dict[str, Any]], wanted: dict[str, tuple[str, str]]) -> set[str]:
        """Know every listed emoji whose name is wanted; forget the wanted ones not listed (deleted
        since). Returns the wanted names that are missing."""
        present: set[str] = set()
        for item in items:
            name = item.get("name") if isinstance(item, dict) else None
            if name in wanted:
                present.add(name)
                self.add(*wanted[name], item)
        for name, (kind, key) in wanted.items():
            e = self.known.get((kind, key))
            if name not in present and e is not None and e.name == name:
                del self.known[(kind, key)]
        return set(wanted) - present

    def clear(self) -> None:
        self.known.clear()


#: the process's emojis (filled by :func:`start`; empty in tests that do not sync)
REGISTRY = Registry()


def emoji(kind: str, key: str) -> discord.PartialEmoji | None:
    """The application emoji of ``key`` (a Ludix face ``"L"``, a letter ``"A"``, a Limit value
    ``"11"``, a gesture ``"up"``…) for a button or a select option, or None when not available."""
    return REGISTRY.emoji(kind, key)


def text(kind: str, key: str, fallback: str = "") -> str:
    """``<:name:id>`` for a text, or ``fallback`` when the emoji is not available."""
    return REGISTRY.text(kind, key, fallback)


def glyphs(kind: str, keys: Iterable[str]) -> str | None:
    """The glyphs of ``keys`` side by side (``<:dx_L_…><:dx_X_…>``), or None unless all are available."""
    out = []
    for key in keys:
        e = REGISTRY.emoji(kind, key)
        if e is None:
            return None
        out.append(str(e))
    return "".join(out)


def with_text(kind: str, keys: Iterable[str], shown: str) -> str:
    """``shown`` (the words, kept for screen readers and as the fallback) preceded by the glyphs of
    ``keys`` when all are available: ``<:dx_I…><:dx_X…> IX``. Safe text when ``shown`` is."""
    g = glyphs(kind, keys)
    if g is None:
        return shown
    return Safe(f"{g} {shown}") if isinstance(shown, Safe) else f"{g} {shown}"


#: one Ludime card letter
_LETTER = re.compile(r"^[A-Z]$")
#: a Limit tile id, one value per line: ``1-11-10``
_TILE = re.compile(r"^(\d{1,2})-(\d{1,2})-(\d{1,2})$")


def tile_text(tile: str) -> str:
    """A Limit tile id with its three line values as glyphs in front (``1-11-10`` alone until they exist)."""
    m = _TILE.match(tile or "")
    return with_text("limit", m.groups(), tile) if m else tile


def letters_text(letters: Iterable[str], shown: str) -> str:
    """Ludime letters as cards in front of ``shown`` (the letters in words)."""
    return with_text("ludime", [c.upper() for c in letters], shown)


def event_glyphs(kind: str, event: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """The narration's parameters with glyphs where one helps: a Ludix roll's faces, Range ta
    Ludothèque's dice, a Limit tile, Ludime's letters. ``params`` are the escaped ones (:func:`bot.narrate.event_params`); the glyphs are the
    bot's own text, added in front of them, never in place of them."""
    if kind == "ludix" and isinstance(event.get("faces"), str) and "faces" in params:
        faces = event["faces"].upper()
        if faces and set(faces) <= set(pictures.LUDIX_FACES):
            params["faces"] = with_text("ludix", faces, params["faces"])
    elif kind == "ranta" and event.get("type") == "rolled":  # the three dice, each as a d6 face
        for key in ("d1", "d2", "d3"):
            value = event.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6 and key in params:
                params[key] = with_text("ranta", [str(value)], str(value))
    elif kind == "ludime":  # letters as cards: a discard's E, an exchange's H, Z (never a word)
        for key in ("letter", "returned", "received"):
            value = event.get(key)
            letters = [value] if isinstance(value, str) else value if isinstance(value, list) else []
            if key in params and letters and all(isinstance(c, str) and _LETTER.match(c) for c in letters):
                params[key] = with_text("ludime", letters, params[key])
    elif kind == "limit" and isinstance(event.get("tile"), str) and "tile" in params:
        m = _TILE.match(event["tile"])
        if m:
            params["tile"] = with_text("limit", m.groups(), params["tile"])
    return params


class EmojiApi(Protocol):
    """What the sync needs from Discord (:class:`HttpEmojiApi`; tests give a fake)."""

    async def list(self) -> list[dict[str, Any]]: ...

    async def create(self, name: str, png: bytes) -> dict[str, Any]: ...

    async def delete(self, emoji_id: int) -> None: ...


class HttpEmojiApi:
    """Discord's application-emoji endpoints through discord.py's HTTP client (rate limits, 429s)."""

    def __init__(self, http: Any, application_id: int) -> None:
        self.http, self.application_id = http, application_id

    async def list(self) -> list[dict[str, Any]]:
        data = await self.http.get_application_emojis(self.application_id)
        items = data.get("items") if isinstance(data, dict) else None
        return [i for i in items or [] if isinstance(i, dict)]

    async def create(self, name: str, png: bytes) -> dict[str, Any]:
        uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        return await self.http.create_application_emoji(self.application_id, name, uri)

    async def delete(self, emoji_id: int) -> None:
        await self.http.delete_application_emoji(self.application_id, emoji_id)


def _limit_reached(exc: BaseException) -> bool:
    return isinstance(exc, discord.HTTPException) and exc.code == 30008


@dataclass
class SyncReport:
    reused: int = 0
    created: int = 0
    failed: int = 0
    pruned: int = 0
    missing: int = 0


async def sync(api: EmojiApi, registry: Registry, wanted: dict[str, tuple[str, str]], *, create: bool,
               pace: float = CREATE_PACE) -> SyncReport:
    """List the application's emojis, reuse the wanted ones, create the missing ones when ``create``.
    Never raises for Discord's refusals: what could not be created stays missing (texts fall back)."""
    report = SyncReport()
    items = await api.list()
    missing = registry.load(items, wanted)
    report.reused = len(wanted) - len(missing)
    if not create or not missing:
        report.missing = len(missing)
        return report
    room = APP_EMOJIS_MAX - len(items)
    if room < len(missing):
        report.pruned = await _prune(api, items, wanted, len(missing) - room)
        room += report.pruned
    order = [name for name in wanted if name in missing]  # the catalog's order
    if room < len(order):  # no request Discord would refuse: the ones beyond the cap stay texts
        log.warning("the application holds %d emojis: %d of ours not created, shown as text",
                    APP_EMOJIS_MAX - room, len(order) - max(room, 0))
        order = order[:max(room, 0)]
    refused = 0
    for n, name in enumerate(order):
        kind, key = wanted[name]
        if n:
            await asyncio.sleep(pace)
        try:
            item = await api.create(name, await asyncio.to_thread(pictures.render, kind, key))
        except discord.HTTPException as exc:
            if _limit_reached(exc):  # someone else filled it meanwhile
                log.warning("the application holds 2,000 emojis: %d of ours not created, shown as text",
                            len(order) - n)
                refused += len(order) - n
                break
            # most likely another process created it meanwhile (the name is taken): read back below
            log.info("could not create the application emoji %s (%s)", name, exc)
            refused += 1
            continue
        registry.add(kind, key, item)
        report.created += 1
    if refused:
        registry.load(await api.list(), wanted)
    report.missing = sum(1 for kind, key in wanted.values() if registry.emoji(kind, key) is None)
    report.failed = report.missing
    if report.missing:
        log.warning("%d application emojis could not be created: shown as text", report.missing)
    return report


async def _prune(api: EmojiApi, items: list[dict[str, Any]], wanted: dict[str, tuple[str, str]], need: int) -> int:
    """Delete up to ``need`` of *our* emojis that no longer are wanted (older designs, dropped keys),
    to make room under the 2,000; never an emoji whose name is not ours."""
    stale = [i for i in items if i.get("name") not in wanted and parse_name(str(i.get("name"))) is not None]
    stale.sort(key=lambda i: int(i.get("id") or 0))  # snowflakes: the oldest first
    pruned = 0
    for item in stale[:need]:
        try:
            await api.delete(int(item["id"]))
            pruned += 1
        except (discord.HTTPException, KeyError, TypeError, ValueError) as exc:
            log.warning("could not delete the old application emoji %s: %s", item.get("name"), exc)
    return pruned


async def run(api: EmojiApi, registry: Registry, *, create: bool, pace: float = CREATE_PACE,
              relist_delays: tuple[float, ...] = RELIST_DELAYS) -> SyncReport | None:
    """The start-up sync (:func:`sync`), then, while emojis are missing and this process does not
    create them, a few later reads of the list. Errors are logged, never raised."""
    wanted = await asyncio.to_thread(wanted_names)
    report = None
    for delay in (0.0, *relist_delays):
        if delay:
            await asyncio.sleep(delay)
        try:
            report = await sync(api, registry, wanted, create=create, pace=pace)
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            log.warning("could not read the application's emojis (%s): texts instead, for now", exc)
            continue
        except Exception:  # a bug here must not leave an unread task error; texts stay as they are
            log.exception("the application emojis' sync failed")
            return None
        log.info("application emojis: %d reused, %d created, %d failed, %d pruned, %d missing",
                 report.reused, report.created, report.failed, report.pruned, report.missing)
        if not report.missing or create:
            break
    return report


@dataclass
class _Sync:
    api: EmojiApi
    create: bool
    task: asyncio.Task | None = None
    refreshed_at: float = -float("inf")


_sync: _Sync | None = None
#: at most one sync again per this many seconds after a refusal that names an emoji
REFRESH_INTERVAL = 60.0


def start(bot: Any) -> asyncio.Task | None:
    """Start the sync in the background (the process holding shard 0 creates; others read)."""
    global _sync
    if not getattr(bot.settings, "app_emojis", True):
        log.info("application emojis off (LUDIBOT_APP_EMOJIS): texts only")
        return None
    if bot.application_id is None:
        log.warning("no application id: application emojis are not used")
        return None
    _sync = _Sync(HttpEmojiApi(bot.http, bot.application_id), bool(bot.settings.runs_shard_zero))
    _sync.task = asyncio.get_running_loop().create_task(run(_sync.api, REGISTRY, create=_sync.create),
                                                        name="app-emojis")
    return _sync.task


def refused(error: BaseException) -> bool:
    """Discord refused a message because of an emoji (an admin deleted one while the bot runs: a
    button naming it is invalid). Forget every emoji (the retry goes out with texts) and read
    the list again (the process holding shard 0 makes it again). True when it was about emojis."""
    if not isinstance(error, discord.HTTPException) or error.status != 400 or "emoji" not in (error.text or "").lower():
        return False
    REGISTRY.clear()
    log.warning("Discord refused an application emoji: texts instead until the emojis are read again")
    now = asyncio.get_running_loop().time()
    if _sync is not None and (_sync.task is None or _sync.task.done()) and now - _sync.refreshed_at >= REFRESH_INTERVAL:
        _sync.refreshed_at = now
        _sync.task = asyncio.get_running_loop().create_task(
            run(_sync.api, REGISTRY, create=_sync.create, relist_delays=()), name="app-emojis")
    return True


__all__ = ["REGISTRY", "Registry", "emoji", "event_glyphs", "glyphs", "letters_text", "refused", "start", "sync", "text",
           "tile_text", "with_text"]
