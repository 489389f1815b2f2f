"""Replays (issue 27): a game's public positions, from its seed and its log, through its engine.

The log is the game: position 0 is the table as the game started (``new_game`` from the stored
seed), position *k* the table after the *k*-th log entry. Each entry is replayed as the session
service applied it: an engine move (``apply``), a vote's removal of a seat (``remove_seat``), or a
note that leaves the state as it was (a vote opened, a seat back, a forfeit). A position keeps only
what a spectator saw: the engine's public view (``view(state, None)``) and the entry's events that
were not private to a seat. The engine states themselves are dropped as soon as the next one exists.

A game stored under an older engine schema replays when its log still applies; when an entry is
refused, or when the replayed table differs from the stored one (the rules changed since), the
replay says so (:class:`ReplayError`) instead of showing another game.

Replays are pure and cached per game version (:class:`ReplayCache`): a click of the viewer reads
a position, it never replays the game again.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import engines
from bot import i18n, takeback
from bot.safe import escape
from bot.storage import EventRow, GameRow, ResultRow
from engines.base import RuleError

log = logging.getLogger("ludibot.replay")

#: view keys that number a round, by game (the first one present wins); games without one are
#: grouped by ``MOVES_PER_GROUP`` moves
ROUND_KEYS: dict[str, tuple[str, ...]] = {
    "ludix": ("round",), "ludime": ("round",), "ranta": ("round",), "limit": ("round",),
    "armada": ("round",), "lutinades": ("turn",), "tectonic": (),
}
#: a game without rounds (Tectonic): a "round" is each player moving once, as chess numbers its moves
MOVES_PER_GROUP = 2
#: games whose replay steps a round at a time (every seat places the same tile; nothing of a round
#: shows before it closes)
STEP_BY_ROUND = frozenset({"limit"})
#: the pixels an animated summary's frames may hold together, for games whose frames change all over
#: (``render.animation.MAX_PIXELS`` for the others, whose moves change a corner of the picture). WebP codes
#: each frame as the rectangle that changed since the previous one, at about 25 Mpx per second of CPU: in
#: Limit every board takes a tile each round, so that rectangle is three quarters of a frame of four boards
#: (477 x 3650 px), and its 27 frames cost 1.5 s to encode alone (issue 27's budget: 1.5 s in all).
SUMMARY_PIXELS: dict[str, int] = {"limit": 25_000_000}


class ReplayError(RuleError):
    """The game cannot be replayed (its log no longer applies under these rules)."""


@dataclass(frozen=True)
class Position:
    """The table after log entry ``n`` (0: the start), as a spectator saw it."""

    n: int
    view: dict[str, Any]
    seat: int | None = None
    action: dict[str, Any] = field(default_factory=dict)
    events: tuple[dict[str, Any], ...] = ()
    #: the round (or block of moves) its move was played in: the round the table was at *before* the
    #: move (the move that closes round 3 belongs to round 3, though the table then shows round 4)
    group: int = 0


@dataclass(frozen=True)
class Replay:
    game_id: int
    kind: str
    version: int
    positions: tuple[Position, ...]

    def __len__(self) -> int:
        return len(self.positions)

    def groups(self) -> list[tuple[int, int]]:
        """``(group, first position)`` for every round (or block of moves), in order."""
        out: list[tuple[int, int]] = []
        for i, p in enumerate(self.positions):
            if not out or out[-1][0] != p.group:
                out.append((p.group, i))
        return out

    def round_ends(self) -> list[int]:
        """The last position of every round (or block): the frames of a long game's animation."""
        ends = [first - 1 for _, first in self.groups()[1:]]
        return [i for i in ends if i >= 0] + [len(self.positions) - 1]

    def steps(self) -> list[int]:
        """The positions the viewer steps through: every one, but for a game played a round at a time
        (:data:`STEP_BY_ROUND`: Limit, every board placing the same tile) the start and the end of
        each round: a step is a tile, its placements shown together once the round closes."""
        if self.kind not in STEP_BY_ROUND:
            return list(range(len(self.positions)))
        return sorted({0, *self.round_ends()})


def public_events(events: list[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    return tuple(e for e in events if e.get("private_to") is None)


def _group(kind: str, before: dict[str, Any], n: int) -> int:
    """The round move ``n`` was played in, from the view of the table before it (``before``); the
    start (``n`` = 0) is in the first. Without rounds, moves 1-2 are the first block, 3-4 the second."""
    for key in ROUND_KEYS.get(kind, ()):
        value = before.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return (n - 1) // MOVES_PER_GROUP + 1 if n else 1


def _same_table(engine: Any, replayed: Any, stored: dict[str, Any] | None) -> bool:
    """Whether the replayed final state is the stored one; True when the stored one is of an older
    schema (``from_dict`` refuses it with a ValueError or a KeyError): then the log applying to its end
    is all there is to check. Any other failure is a bug, logged, and never reads as a match."""
    if stored is None:
        return True
    try:
        current = engine.from_dict(stored)
    except (ValueError, KeyError):  # an older schema: the log applied, that is the check left
        return True
    except Exception:
        log.exception("replay: the stored state of a %s game failed to load", type(engine).__name__)
        return False
    return engine.to_dict(current) == engine.to_dict(replayed)


def replay(game: GameRow, rows: list[EventRow]) -> Replay:
    """Every public position of ``game``, from its seed and ``rows`` (its log, in order)."""
    if game.status == "lobby":
        raise ReplayError("replay.error.not_started", game=game.id)
    try:
        engine = engines.get(game.kind)
        state = engine.new_game(len(game.seats), game.options, game.seed)
    except (RuleError, ValueError, TypeError, KeyError) as err:
        raise ReplayError("replay.error.schema", game=game.id) from err
    try:  # the states as the session service made them: moves, votes, takebacks (one replay for all)
        states = takeback.replay(engine, game, rows)
    except Exception as err:  # a refused move, an action of an older form: not this game any more
        raise ReplayError("replay.error.schema", game=game.id) from err
    view = engine.view(state, None)
    positions = [Position(0, view, group=_group(game.kind, view, 0))]
    for n, row in enumerate(rows, start=1):
        state = states[row.version]
        before, view = view, engine.view(state, None)
        positions.append(Position(n, view, row.seat, dict(row.action or {}), public_events(row.events),
                                  _group(game.kind, before, n)))
    if not _same_table(engine, state, game.state):
        raise ReplayError("replay.error.schema", game=game.id)
    return Replay(game.id, game.kind, game.version, tuple(positions))


class ReplayCache:
    """Replays by ``(game, version)``, the most recently used kept up to ``max_positions`` positions
    in all (a Limit game's 177 public views weigh a few MB; a running game's older versions simply
    age out)."""

    def __init__(self, max_positions: int = 1500) -> None:
        self.max_positions = max_positions
        self._items: OrderedDict[tuple[int, int], Replay] = OrderedDict()
        self._positions = 0
        self.builds = 0

    def get(self, game_id: int, version: int) -> Replay | None:
        key = (game_id, version)
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, item: Replay) -> Replay:
        key = (item.game_id, item.version)
        old = self._items.pop(key, None)
        if old is not None:
            self._positions -= len(old)
        self._items[key] = item
        self._positions += len(item)
        while self._positions > self.max_positions and len(self._items) > 1:
            _, dropped = self._items.popitem(last=False)
            self._positions -= len(dropped)
        return item

    def build(self, game: GameRow, rows: list[EventRow]) -> Replay:
        found = self.get(game.id, game.version)
        if found is not None:
            return found
        self.builds += 1
        return self.put(replay(game, rows))


def ending(rows: list[EventRow]) -> tuple[str, int] | None:
    """How a game ended without reaching its end: ``("resigned" | "forfeit" | "removed", seat)``."""
    if not rows:
        return None
    last = rows[-1]
    kind = (last.action or {}).get("type")
    if kind == "resign" and last.seat is not None:
        return "resigned", last.seat
    for event in last.events:
        if event.get("type") == "forfeit" and isinstance(event.get("seat"), int):
            return "forfeit", event["seat"]
        if event.get("type") == "removed_end" and isinstance(event.get("seat"), int):
            return "removed", event["seat"]
    return None


def ranking(game: GameRow, rows: list[EventRow], results: list[ResultRow], lg: str, *,
            markdown: bool = True) -> list[str]:
    """The final ranking, one line a seat: scores where the game reached its end; otherwise who
    resigned, forfeited or was removed, and a note that there are no scores."""
    def name(s: int) -> str:
        return escape(game.names[s]) if markdown else game.names[s]

    ended = ending(rows)
    lines = []
    for r in sorted(results, key=lambda r: (r.rank, r.seat)):
        if not 0 <= r.seat < len(game.names):
            continue
        if ended is not None and r.seat == ended[1]:
            key = f"replay.rank.{ended[0]}"
        elif ended is None and r.score is not None:
            key = "replay.rank.score"
        else:
            key = "replay.rank.plain"
        lines.append(i18n.t(key, lg, rank=r.rank, player=name(r.seat), score=r.score))
    if ended is not None:
        lines.append(i18n.t(f"replay.rank.note_{ended[0]}", lg))
    return lines



# --- plain text: a log that reads like the game (no markdown, no Discord timestamps) ---------
_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::[tTdDfFR])?>")
_MENTION = re.compile(r"<@!?(\d+)>")
_ESCAPED = re.compile(r"\\([\\*_~`|>#\-\[\]()<@:.])")


def plain(text: str, when: Any = None, names: dict[int, str] | None = None) -> str:
    """``text`` without Discord's markdown: bold/italic/strike/code marks and escapes removed,
    ``<t:…>`` timestamps written by ``when(seconds)`` (default: the date in ISO form), mentions
    by the member's name when known."""
    import datetime as _dt

    def stamp(m: re.Match[str]) -> str:
        seconds = int(m.group(1))
        if when is not None:
            return str(when(seconds))
        return _dt.datetime.fromtimestamp(seconds, _dt.UTC).strftime("%Y-%m-%d %H:%M UTC")

    out = _TIMESTAMP.sub(stamp, text)
    out = _MENTION.sub(lambda m: (names or {}).get(int(m.group(1)), "@?"), out)
    out = out.replace("\u200b", "")
    # markup first (unescaped marks), then the escapes turn back into the characters the names had
    marks = re.compile(r"(?<!\\)(\*\*|__|~~|\|\||\*|`)")
    out = marks.sub("", out)
    out = re.sub(r"^-# ", "", out, flags=re.M)
    return _ESCAPED.sub(r"\1", out)


# --- the service: replays, their pictures and the animated summary, cached per game ------------
#: past this many positions, the animation shows one frame per round (or block of moves)
MAX_FRAMES = 48
#: a long game with fewer rounds than this is sampled every few moves instead of once a round
MIN_ROUNDS = 8
#: pictures of positions kept (10-40 KB each)
PICTURES = 512
#: animations kept (each up to a few MB; most weigh 100-500 KB)
ANIMATIONS = 8
#: seconds between a game's end and the drawing of its animation (the result's own pictures first)
PREPARE_DELAY = 2.0


@dataclass(frozen=True)
class Animation:
    data: bytes
    ext: str  # "webp" or "gif"
    frames: int


def frame_order(item: Replay) -> list[int]:
    """The positions the animation shows: every one up to ``MAX_FRAMES``; past it, the end of every
    round when the game has at least ``MIN_ROUNDS`` of them (sampled evenly, the last kept, if they
    are too many); otherwise (a few long rounds) every *k*-th move and the end of every round."""
    count = len(item)
    if count <= MAX_FRAMES:
        return list(range(count))
    ends = item.round_ends()
    if len(ends) >= MIN_ROUNDS:
        if len(ends) > MAX_FRAMES:
            step = len(ends) / MAX_FRAMES
            ends = sorted({ends[int(i * step)] for i in range(MAX_FRAMES - 1)} | {ends[-1]})
        return ends
    step = -(-count // MAX_FRAMES)
    return sorted(set(range(0, count, step)) | set(ends))


class ReplayService:
    """Replays of a bot's games (``bot.replays``): built once per game version, extended move by move
    for a running game; the positions' pictures drawn by the render pool once each; the finished
    game's animation drawn in a worker once per language. Nothing here changes a game."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.cache = ReplayCache()
        self._pictures: OrderedDict[tuple[int, int, str], bytes | None] = OrderedDict()
        self._animations: OrderedDict[tuple[int, int, str], Animation | None] = OrderedDict()
        self._drawing = asyncio.Lock()

    @property
    def store(self) -> Any:
        return self.bot.store

    async def get(self, game: GameRow) -> Replay:
        """The replay of ``game`` at its version (a :class:`ReplayError` if it cannot be replayed)."""
        found = self.cache.get(game.id, game.version)
        if found is not None:
            return found
        rows = await self.store.events(game.id)
        if len(rows) > 200:  # a long game replays off the event loop
            item = await asyncio.to_thread(replay, game, rows)
        else:
            item = replay(game, rows)
        self.cache.builds += 1
        return self.cache.put(item)

    # --- pictures -----------------------------------------------------------------------
    def job(self, game: GameRow, item: Replay, index: int, lang: str) -> tuple[int, Any] | None:
        """The drawing job of the picture shown at ``index`` (a position without a picture of its own,
        Limit between two tiles, shows the previous one) and the position it draws."""
        cog = self.bot.game_cogs.get(game.kind)
        if cog is None:
            return None
        for i in range(index, -1, -1):
            pic = cog.render_replay(game, item.positions[i].view, lang)
            if pic is not None:
                return i, pic
        return None

    async def picture(self, game: GameRow, item: Replay, index: int, lang: str) -> bytes | None:
        found = self.job(game, item, index, lang)
        if found is None:
            return None
        drawn, job = found
        key = (game.id, item.positions[drawn].n, lang)
        if key in self._pictures:
            self._pictures.move_to_end(key)
            return self._pictures[key]
        data = await self.bot.render_pool.run(job)
        self._pictures[key] = data
        while len(self._pictures) > PICTURES:
            self._pictures.popitem(last=False)
        return data

    def warm(self, game: GameRow, item: Replay, index: int, lang: str, step: int = 1) -> None:
        """Draw the picture the next click in the same direction (``step``) will show, in the
        background, when a render worker is idle (never ahead of another game's picture)."""
        i = index + step
        pool = self.bot.render_pool
        if not 0 <= i < len(item) or (game.id, item.positions[i].n, lang) in self._pictures:
            return
        if pool.uses_processes and pool.idle_workers == 0:
            return
        asyncio.ensure_future(self._quiet(self.picture(game, item, i, lang)))

    @staticmethod
    async def _quiet(coro: Any) -> None:
        try:
            await coro
        except Exception:  # a picture drawn ahead (an animation prepared) is only a convenience
            log.exception("drawing a replay picture or animation ahead")

    # --- the animated summary -----------------------------------------------------------
    def animation_job(self, game: GameRow, item: Replay, lang: str, ranking: list[str], title: str) -> Any:
        """The picture job (for the render pool) of ``game``'s animation."""
        from bot.render_pool import picture
        from render.animation import animate

        jobs: list[tuple[Any, tuple[Any, ...], dict[str, Any]]] = []
        index_of: dict[int, int] = {}  # position drawn -> index in jobs
        order: list[int] = []
        previous_view: Any = None
        for i in frame_order(item):
            found = self.job(game, item, i, lang)
            if found is None:
                continue
            drawn, job = found
            if drawn not in index_of:
                view = item.positions[drawn].view
                if jobs and view == previous_view:  # the same table: the same picture
                    index_of[drawn] = len(jobs) - 1
                else:
                    index_of[drawn] = len(jobs)
                    jobs.append((job.fn, job.args, job.kwargs))
                    previous_view = view
            order.append(index_of[drawn])
        if game.kind in SUMMARY_PIXELS:
            return picture(animate, jobs, order, ranking, title, max_pixels=SUMMARY_PIXELS[game.kind])
        return picture(animate, jobs, order, ranking, title)

    async def animation(self, game: GameRow, lang: str, ranking: list[str], title: str) -> Animation | None:
        """The animated summary of a finished ``game`` (None when it has no pictures, or its replay
        fails: the caller says so)."""
        from render.animation import frame_count

        key = (game.id, game.version, lang)
        if key in self._animations:
            self._animations.move_to_end(key)
            return self._animations[key]
        item = await self.get(game)
        async with self._drawing:  # one animation at a time, in the long pictures' worker: never in front of moves
            if key in self._animations:  # drawn meanwhile (the end of the game's own, say)
                return self._animations[key]
            out = await self.bot.render_pool.run_long(self.animation_job(game, item, lang, ranking, title))
            # its frames as drawn (tall pictures, six Limit boards: fewer of them, render.animation)
            result = Animation(out[0], out[1], frame_count(out[0])) if out else None
            self._animations[key] = result
        while len(self._animations) > ANIMATIONS:
            self._animations.popitem(last=False)
        return result

    async def summary(self, game: GameRow, lang: str, rows: list[EventRow] | None = None,
                      results: list[ResultRow] | None = None) -> Animation | None:
        """The animated summary of the finished ``game`` in ``lang``, its final ranking on the last
        frame: what a result message or ``/historique`` attaches (``.data``, ``.ext``)."""
        if rows is None:
            rows = await self.store.events(game.id)
        if results is None:
            results = await self.store.results(game.id)
        return await self.animation(game, lang, ranking(game, rows, results, lang, markdown=False),
                                    i18n.t("replay.animation.title", lang, game=i18n.t(f"{game.kind}.name.title", lang),
                                           id=game.id))

    def drawn_summary(self, game: GameRow, lang: str) -> Animation | None:
        """The animated summary if it is already drawn (no waiting)."""
        return self._animations.get((game.id, game.version, lang))

    def prepare(self, game: GameRow, lang: str, delay: float = PREPARE_DELAY) -> None:
        """A game just ended and its result is posted: draw its animation in the background (a
        worker, after ``delay``), so that ``/historique`` and « Partager » find it drawn."""
        async def later() -> None:
            await asyncio.sleep(delay)
            await self.summary(game, lang)

        asyncio.ensure_future(self._quiet(later()))
