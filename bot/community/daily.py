"""The daily challenge (issue 37): one draw a day per game, played once by every member of a server.

**The draw.** A day's seed is ``HMAC-SHA256(server secret, "<game>|<variant>|<UTC day>")``: the same
for every member of a server that day, another the next day, another on every other server. The
secret is drawn once per server (``secrets.token_hex``), stored, and never shown: knowing the date
and the game does not give the draw, and playing another server's challenge teaches nothing.

**Once.** ``Store.claim_daily`` takes the member's one play of the day before any game exists (the
table's primary key: of two simultaneous starts one wins, the other is refused). A resignation, a
cancellation or a game left unfinished still counts: there is no second draw to hope for. The game
itself is an ordinary solo game of the session service, on the day's seed, marked ``daily`` in its
settings: no takeback, its replay kept to its player until the day is over (:func:`replay_open`).
Being a solo game, its result feeds the solo records, profiles and seasons, never the ratings.

**Hidden scores.** The boards (:meth:`DailyChallenges.board`) show today's scores only to a member
who has finished today's challenge; the others see how many played. Past days are open to all.

**The mark.** The engine's best AI plays the same draw alone (``engines.solo.ai_score``), in a worker
process, once per server, day and game (``daily_marks``): the score to beat.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

import engines
from bot.safe import escape
from bot.sessions import Outcome, Player, SessionError, SessionService
from bot.storage import CANCELLED, FINISHED, GameRow, Store
from engines.base import Phrase, RuleError
from engines.solo import ai_score

log = logging.getLogger("ludibot.daily")

#: the games a draw can be shared in, and their variants (the options each variant plays with)
VARIANTS: dict[str, dict[str, dict[str, Any]]] = {
    "limit": {"nexus": {"plateau": "nexus"}, "orchidee": {"plateau": "orchidee"}},
    "ranta": {"classique": {"mode": "classique"}, "expert": {"mode": "expert"}},
}
#: the boards: ``jour`` (today) and ``semaine`` (the ISO week so far, Monday first)
DAY, WEEK = "jour", "semaine"
PERIODS = (DAY, WEEK)
#: a play is over once its game is (cancelled: its player abandoned it)
ENDED = (FINISHED, CANCELLED)
#: seconds a share card waits for its game's result to be published before it is posted anyway
SHARE_WAIT = 15.0
#: board rows shown
BOARD_SIZE = 20


def challenges() -> list[str]:
    """Every challenge, as its command value ``<game>:<variant>``."""
    return [f"{kind}:{variant}" for kind, variants in VARIANTS.items() for variant in variants]


def parse(value: str | None) -> tuple[str, str]:
    """``"limit:nexus"`` -> ``("limit", "nexus")``; a bare game means its first variant. Anything
    else is refused (``community.daily.bad_game``)."""
    kind, _, variant = (value or "").strip().lower().partition(":")
    variants = VARIANTS.get(kind)
    if variants is None or (variant or next(iter(variants))) not in variants:
        raise RuleError("community.daily.bad_game", value=escape(value or "", limit=30))
    variant = variant or next(iter(variants))
    return kind, variant


def day_of(ts: float) -> str:
    """The UTC day of a time, ``YYYY-MM-DD``: a challenge's day."""
    return datetime.fromtimestamp(ts, UTC).date().isoformat()


def week_of(day: str) -> list[str]:
    """The days of ``day``'s ISO week up to ``day`` (Monday first)."""
    d = date.fromisoformat(day)
    monday = d - timedelta(days=d.weekday())
    return [(monday + timedelta(days=i)).isoformat() for i in range(d.weekday() + 1)]


def day_end(day: str) -> float:
    """When ``day`` is over (the next UTC midnight), as a timestamp."""
    d = date.fromisoformat(day) + timedelta(days=1)
    return datetime(d.year, d.month, d.day, tzinfo=UTC).timestamp()


def derive_seed(secret: str, kind: str, variant: str, day: str) -> int:
    """The day's draw: a keyed hash of the game, its variant and the day (62 bits, as any game's seed)."""
    digest = hmac.new(secret.encode(), f"{kind}|{variant}|{day}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def daily_of(game: GameRow) -> dict[str, Any] | None:
    """``{"day", "variant"}`` for a daily challenge's game, else None."""
    daily = game.settings.get("daily")
    return daily if isinstance(daily, dict) and isinstance(daily.get("day"), str) else None


def replay_open(game: GameRow, user_id: int | None, now: float) -> bool:
    """A challenge's replay and animated summary: its player's at once, everyone's once its day is over
    (before, they would show the day's draw to those who have not played it)."""
    daily = daily_of(game)
    if daily is None or now >= day_end(daily["day"]):
        return True
    return user_id is not None and game.seat_of(user_id) is not None


def shape(kind: str, details: dict[str, Any] | None, view: dict[str, Any] | None = None) -> dict[str, Any]:
    """A spoiler-free outline of a finished board, from its result (and its public ``view``): no tile,
    no cell, no move. Limit: how many lines scored in each of the board's directions (the board's own
    score in the view, when it is given); Range ta Ludothèque: how many combinations
    scored, and the empty cells."""
    details = details or {}
    if kind == "limit":
        score = details.get("score")
        if view is not None:  # the board's own score, as the public picture shows it
            boards = view.get("boards") or []
            score = (boards[0].get("score") if boards and isinstance(boards[0], dict) else None) or {}
        lines = ((score if isinstance(score, dict) else {}).get("lines")) or []
        counts: dict[str, int] = {}
        for line in lines:
            counts[str(line.get("direction"))] = counts.get(str(line.get("direction")), 0) + 1
        return {"lines": counts}
    if kind == "ranta":
        scoring = [item for item in (details.get("breakdowns") or [[]])[0] if item.get("rule") != "empty_cells"]
        return {"empty": int((details.get("empty") or [0])[0]),
                "groups": sum(1 for item in scoring if int(item.get("points") or 0) > 0)}
    return {}


@dataclass(frozen=True)
class Row:
    rank: int | None
    user_id: int
    name: str
    score: int | None  # None: hidden from this viewer, resigned, or not over yet
    status: str  # "finished" | "playing" | "resigned"
    days: int = 1  # the weekly board: days played


@dataclass(frozen=True)
class Board:
    kind: str
    variant: str
    period: str
    day: str
    #: whether the viewer sees today's scores (they have finished today's challenge)
    open: bool
    played: int  # members who took today's challenge
    rows: tuple[Row, ...] = ()
    mark: int | None = None  # the best AI's score on today's draw (None: being computed)
    viewer: int | None = None  # the viewer's index in ``rows``


@dataclass
class DailyChallenges:
    store: Store
    sessions: SessionService
    clock: Callable[[], float] = time.time
    #: ``(kind, options, seed, level) -> score``, off the event loop (the bot: a worker process of its own)
    compute: Callable[..., Awaitable[int | None]] | None = None
    #: ``(game, outcome) -> None``: a challenge just finished (the cog posts its share card)
    finished: Callable[[GameRow, Outcome], Awaitable[None]] | None = None
    _marks: dict[tuple[int, str, str, str], asyncio.Task] = field(default_factory=dict)
    _sharing: set[asyncio.Task] = field(default_factory=set)

    def today(self) -> str:
        return day_of(self.clock())

    async def seed(self, guild_id: int, kind: str, variant: str, day: str) -> int:
        secret = await self.store.daily_secret(guild_id, secrets.token_hex(32), self.clock())
        return derive_seed(secret, kind, variant, day)

    async def start(self, player: Player, channel_id: int, kind: str, variant: str) -> Outcome:
        """Today's challenge for ``player``: their one play taken, then their solo game on the day's draw
        (started; played in a private thread of ``channel_id``). A second attempt is refused
        (``community.daily.already``)."""
        guild_id = player.guild_id
        if guild_id is None:
            raise RuleError("community.error.guild_only")
        if kind not in VARIANTS or variant not in VARIANTS[kind]:
            raise RuleError("community.daily.bad_game", value=escape(f"{kind}:{variant}", limit=30))
        day = self.today()
        seed = await self.seed(guild_id, kind, variant, day)
        if not await self.store.claim_daily(guild_id, day, kind, variant, player.user_id, player.name, self.clock()):
            raise SessionError("community.daily.already", game=game_phrase(kind), variant=variant_phrase(kind, variant))
        self.ensure_mark(guild_id, kind, variant, day)
        try:
            game = await self.sessions.open_lobby(kind, guild_id=guild_id, channel_id=channel_id, player=player,
                                                  options=dict(VARIANTS[kind][variant]), seed=seed,
                                                  daily={"day": day, "variant": variant})
        except BaseException:
            await self.store.set_daily_game(guild_id, day, kind, variant, player.user_id, None)
            raise
        await self.store.set_daily_game(guild_id, day, kind, variant, player.user_id, game.id)
        return await self.sessions.start(game.id, player)

    # --- the mark to beat --------------------------------------------------------------------------
    def ensure_mark(self, guild_id: int, kind: str, variant: str, day: str) -> asyncio.Task | None:
        """Compute the day's mark in the background if this process is not already at it (once stored,
        every later call reads it)."""
        key = (guild_id, kind, variant, day)
        task = self._marks.get(key)
        if task is not None:
            return task
        task = asyncio.ensure_future(self._mark(*key))
        self._marks[key] = task
        task.add_done_callback(lambda _t: self._marks.pop(key, None))
        return task

    async def _mark(self, guild_id: int, kind: str, variant: str, day: str) -> int | None:
        try:
            if (known := await self.store.daily_mark(guild_id, day, kind, variant)) is not None:
                return known
            level = getattr(engines.get(kind), "ai_levels", (1, 1))[1]
            seed = await self.seed(guild_id, kind, variant, day)
            options = dict(VARIANTS[kind][variant])
            if self.compute is not None:
                score = await self.compute(kind, options, seed, level)
            else:
                score = await asyncio.to_thread(ai_score, kind, options, seed, level)
            if score is None:
                return None
            return await self.store.set_daily_mark(guild_id, day, kind, variant, int(score), level)
        except Exception:
            log.exception("daily mark of %s %s:%s on %s", guild_id, kind, variant, day)
            return None

    async def mark(self, guild_id: int, kind: str, variant: str, day: str) -> int | None:
        """The stored mark, or None (its computation started if it was not)."""
        known = await self.store.daily_mark(guild_id, day, kind, variant)
        if known is None:
            self.ensure_mark(guild_id, kind, variant, day)
        return known

    # --- the boards ----------------------------------------------------------------------------------
    async def board(self, guild_id: int, kind: str, variant: str, period: str, viewer: int) -> Board:
        """The daily or weekly board as ``viewer`` may see it: today's scores only if they finished today's
        challenge (ranked then, best first; the others listed without scores, by name)."""
        if period not in PERIODS:
            raise RuleError("community.error.bad_period", period=escape(str(period), limit=30))
        day = self.today()
        days = [day] if period == DAY else week_of(day)
        entries = await self.store.daily_entries(guild_id, kind, variant, days)
        today = [e for e in entries if e["day"] == day]
        mine = next((e for e in today if e["user_id"] == viewer), None)
        opened = mine is not None and mine["status"] in ENDED  # abandoned (cancelled) is over too
        totals: dict[int, dict[str, Any]] = {}
        for e in entries:  # today's plays count only for a viewer who has finished today's; past days for all
            if e["day"] == day and not opened:
                continue
            t = totals.setdefault(e["user_id"], {"user_id": e["user_id"], "name": e["name"], "score": None,
                                                 "days": 0, "status": "playing"})
            t["name"] = e["name"]  # entries come by day: the newest name
            if e["status"] not in ENDED:
                continue
            t["days"] += 1
            if e["status"] != FINISHED or e["score"] is None:  # abandoned, resigned
                t["status"] = "finished" if t["score"] is not None else "resigned"
                continue
            t["score"] = (t["score"] or 0) + int(e["score"])
            t["status"] = "finished"
        scored = sorted((t for t in totals.values() if t["score"] is not None),
                        key=lambda t: (-t["score"], t["name"].lower(), t["user_id"]))
        rest = sorted((t for t in totals.values() if t["score"] is None), key=lambda t: (t["name"].lower(),
                                                                                           t["user_id"]))
        rows: list[Row] = []
        previous, rank = None, 0
        for i, t in enumerate(scored):
            if t["score"] != previous:
                rank, previous = i + 1, t["score"]
            rows.append(Row(rank=rank, user_id=t["user_id"], name=t["name"], score=t["score"], status="finished",
                            days=t["days"]))
        rows += [Row(rank=None, user_id=t["user_id"], name=t["name"], score=None, status=t["status"],
                     days=t["days"]) for t in rest]
        rows = rows[:BOARD_SIZE]
        mark = await self.mark(guild_id, kind, variant, day)
        index = next((i for i, r in enumerate(rows) if r.user_id == viewer), None)
        return Board(kind=kind, variant=variant, period=period, day=day, open=opened, played=len(today),
                     rows=tuple(rows), mark=mark, viewer=index)

    async def played(self, guild_id: int, kind: str, variant: str, day: str, user_id: int) -> bool:
        return any(e["user_id"] == user_id for e in await self.store.daily_entries(guild_id, kind, variant, [day]))

    # --- a challenge's end ----------------------------------------------------------------------------
    async def on_change(self, outcome: Outcome) -> None:
        """Community's hook: a challenge that just finished gets its share card (through ``finished``),
        in the background once its result is out (the share card comes after it in the channel)."""
        game = outcome.game
        if game.status != FINISHED or daily_of(game) is None or self.finished is None:
            return
        task = asyncio.ensure_future(self._share(outcome))
        self._sharing.add(task)
        task.add_done_callback(self._sharing.discard)

    async def _share(self, outcome: Outcome) -> None:
        game = outcome.game
        for _ in range(int(SHARE_WAIT / 0.2)):  # the result's publication first (the publisher's repairs too)
            fresh = await self.store.get_game(game.id)
            if fresh is None or not fresh.due:
                break
            await asyncio.sleep(0.2)
        try:
            if self.finished is not None:
                await self.finished(game, outcome)
        except Exception:
            log.exception("daily challenge %s: its share card", game.id)


def variant_phrase(kind: str, variant: str) -> Phrase:
    """A challenge's variant by its catalog name (``community.daily.variant-<game>-<variant>``)."""
    return Phrase(f"community.daily.variant-{kind}-{variant}")


def game_phrase(kind: str) -> Phrase:
    """The game's name as a phrase of its catalog (for a refusal)."""
    return Phrase(f"{kind}.name.title")


