"""Tournaments (issue 28): a community module above the session service.

A tournament is created in a channel (``open``), members enter it, it is launched (``running``):
each round is paired by :mod:`bot.community.pairing` and every table becomes an ordinary game,
opened through the session service like any lobby (each in its own thread, published by the
outbox at Discord's pace, its clocks, votes and forfeits as in any game, its result rated as
usual). A round closes when all its games have ended; the next one opens; after the last one the
tournament is ``finished`` and its podium announced.

**Everything is derived from storage, nothing from memory.** The pairing of round N is a pure
function of the entrants (frozen at launch, with their rating) and of the stored tables, results
and byes of rounds 1..N-1; an elimination bracket is replayed from its seeds the same way. So a
restart, or another shard process, resumes from the database:

* ``advance`` is the only step that moves a tournament. It runs under a *claimed lease* on the
  tournament (compare-and-swap on ``lease_until``, like a timeout's deadline), from the hook of a
  game that ends (the process that committed the last move) and from the periodic ``tick`` of
  every process (each its own shards' servers): after a crash the lease runs out and the next
  tick takes over;
* a round is written at once (its tables and byes) by a compare-and-swap on the tournament's
  version: two processes can never write two different round 2s;
* each table's game: the lobby is created with its players, then *recorded on the table*
  (compare-and-set while empty: the loser of a race cancels its own lobby), and only then
  started. A crash after the record resumes by starting that lobby; a crash between the lobby's
  creation and its record leaves that lobby unstarted and unannounced (the next pass opens the
  table's game anew: one game is ever started per table).

Entry conditions: the places, and optionally a share of games seen through (``reliability``, in
percent: the figure ``/profil`` shows, finished / (finished + cancelled + forfeited); a member
without any ended game may enter).

Storage: :class:`TournamentStore` (below) is the interface this module needs; the unified SQL
store implements it (tables ``tournaments``, ``tournament_entries``, ``tournament_tables``,
``tournament_byes``), and :class:`MemoryTournamentStore` is a faithful in-memory version for tests.
Its rows (:class:`TournamentRow`, :class:`EntryRow`, :class:`TableRow`) live in :mod:`bot.storage.rows`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import engines
from bot.community import pairing as P
from bot.community.ratings import display
from bot.community.scheduler import Pacer
from bot.pace import check_pace
from bot.sessions import Outcome, Player, SessionError, SessionService
from bot.storage import CANCELLED, FINISHED, LOBBY, Store
from bot.storage.rows import ABANDONED, DONE, OPEN, STARTED, EntryRow, TableRow, TournamentRow

log = logging.getLogger("ludibot.tournaments")

MIN_PLACES, MAX_PLACES = 2, 1024
MAX_ROUNDS = 30
LEASE = 120.0  # seconds a process holds a tournament while it advances it
#: games a round opens per second (each first card costs the publisher about three requests)
OPEN_RATE = 8.0


def lo_hi(t: TournamentRow) -> tuple[int, int]:
    """The table sizes tournament ``t`` seats: exactly two when it plays in pairs."""
    e = engines.get(t.kind)
    lo, hi = P.table_bounds(e.min_players, e.max_players)
    return (2, 2) if t.table == 2 else (lo, hi)


class TournamentStore(Protocol):
    """What tournaments need from storage (compare-and-swap where two processes may race)."""

    async def create_tournament(self, row: TournamentRow) -> TournamentRow: ...

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None: ...

    async def tournaments_in(self, guild_id: int, statuses: tuple[str, ...]) -> list[TournamentRow]: ...

    async def running_tournaments(self) -> list[TournamentRow]: ...

    async def update_tournament(self, tournament_id: int, old_version: int, **changes: Any) -> TournamentRow | None:
        """Apply ``changes`` if the version is still ``old_version`` (then version + 1), else None."""

    async def claim_tournament(self, tournament_id: int, now: float, lease: float) -> bool:
        """Take the tournament's lease if it is free (``lease_until <= now``)."""

    async def release_tournament(self, tournament_id: int) -> None: ...

    async def add_tournament_entry(self, entry: EntryRow, places: int) -> str:
        """``"ok"``, ``"full"`` (``places`` taken), ``"already"`` or ``"closed"`` (no longer open): checked and
        written at once. An entry moves the tournament's version (a launch that read the entries before it
        fails its compare-and-swap)."""

    async def remove_tournament_entry(self, tournament_id: int, user_id: int) -> bool:
        """Leave an open tournament (moves the version, as an entry does)."""

    async def withdraw_tournament_entry(self, tournament_id: int, user_id: int) -> bool: ...

    async def tournament_entries(self, tournament_id: int) -> list[EntryRow]: ...

    async def add_tournament_round(self, tournament_id: int, old_version: int, number: int, tables: list[TableRow],
                        byes: list[tuple[int, Fraction]]) -> bool:
        """Write round ``number`` (its tables and byes) and set ``round = number``, if the version is
        still ``old_version`` (then version + 1)."""

    async def tournament_tables(self, tournament_id: int) -> list[TableRow]: ...

    async def tournament_byes(self, tournament_id: int) -> list[P.Bye]: ...

    async def set_tournament_game(self, tournament_id: int, number: int, table: int, game_id: int) -> int | None:
        """Record the table's game if it has none; returns the game recorded (this one or an earlier)."""

    async def set_tournament_result(self, tournament_id: int, number: int, table: int,
                               ranks: tuple[int, ...] | None) -> bool:
        """Record the table's result once (False if it already was)."""

    async def tournament_table_of(self, game_id: int) -> TableRow | None: ...


class MemoryTournamentStore:
    """:class:`TournamentStore` in memory (tests; one process). Each method is atomic as the SQL one is."""

    def __init__(self) -> None:
        self._t: dict[int, TournamentRow] = {}
        self._entries: dict[int, dict[int, EntryRow]] = {}
        self._tables: dict[tuple[int, int, int], TableRow] = {}
        self._byes: dict[int, list[P.Bye]] = {}
        self._by_game: dict[int, tuple[int, int, int]] = {}

    async def create_tournament(self, row: TournamentRow) -> TournamentRow:
        row = dataclasses.replace(row, id=len(self._t) + 1, version=1)
        self._t[row.id] = row
        self._entries[row.id] = {}
        self._byes[row.id] = []
        return dataclasses.replace(row)

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        row = self._t.get(tournament_id)
        return dataclasses.replace(row) if row else None

    async def tournaments_in(self, guild_id: int, statuses: tuple[str, ...]) -> list[TournamentRow]:
        return [dataclasses.replace(t) for t in self._t.values() if t.guild_id == guild_id and t.status in statuses]

    async def running_tournaments(self) -> list[TournamentRow]:
        return [dataclasses.replace(t) for t in self._t.values() if t.status == STARTED]

    async def update_tournament(self, tournament_id: int, old_version: int, **changes: Any) -> TournamentRow | None:
        row = self._t.get(tournament_id)
        if row is None or row.version != old_version:
            return None
        row = dataclasses.replace(row, **changes, version=row.version + 1)
        self._t[tournament_id] = row
        return dataclasses.replace(row)

    async def claim_tournament(self, tournament_id: int, now: float, lease: float) -> bool:
        row = self._t.get(tournament_id)
        if row is None or row.lease_until > now:
            return False
        self._t[tournament_id] = dataclasses.replace(row, lease_until=now + lease)
        return True

    async def release_tournament(self, tournament_id: int) -> None:
        if tournament_id in self._t:
            self._t[tournament_id] = dataclasses.replace(self._t[tournament_id], lease_until=0.0)

    async def add_tournament_entry(self, entry: EntryRow, places: int) -> str:
        row = self._t.get(entry.tournament_id)
        if row is None or row.status != OPEN:
            return "closed"
        got = self._entries[entry.tournament_id]
        if entry.user_id in got:
            return "already"
        if len(got) >= places:
            return "full"
        got[entry.user_id] = entry
        self._t[row.id] = dataclasses.replace(row, version=row.version + 1)
        return "ok"

    async def remove_tournament_entry(self, tournament_id: int, user_id: int) -> bool:
        if self._entries.get(tournament_id, {}).pop(user_id, None) is None:
            return False
        row = self._t[tournament_id]
        self._t[tournament_id] = dataclasses.replace(row, version=row.version + 1)
        return True

    async def withdraw_tournament_entry(self, tournament_id: int, user_id: int) -> bool:
        got = self._entries.get(tournament_id, {})
        e = got.get(user_id)
        if e is None or e.withdrawn:
            return False
        got[user_id] = dataclasses.replace(e, withdrawn=True)
        return True

    async def tournament_entries(self, tournament_id: int) -> list[EntryRow]:
        return list(self._entries.get(tournament_id, {}).values())

    async def add_tournament_round(self, tournament_id: int, old_version: int, number: int, tables: list[TableRow],
                        byes: list[tuple[int, Fraction]]) -> bool:
        row = self._t.get(tournament_id)
        if row is None or row.version != old_version:
            return False
        for t in tables:
            self._tables[(tournament_id, number, t.table)] = t
        self._byes[tournament_id] += [P.Bye(number, p, pts) for p, pts in byes]
        self._t[tournament_id] = dataclasses.replace(row, round=number, version=row.version + 1)
        return True

    async def tournament_tables(self, tournament_id: int) -> list[TableRow]:
        return sorted((t for k, t in self._tables.items() if k[0] == tournament_id), key=lambda t: (t.round, t.table))

    async def tournament_byes(self, tournament_id: int) -> list[P.Bye]:
        return list(self._byes.get(tournament_id, []))

    async def set_tournament_game(self, tournament_id: int, number: int, table: int, game_id: int) -> int | None:
        key = (tournament_id, number, table)
        t = self._tables.get(key)
        if t is None:
            return None
        if t.game_id is None:
            self._tables[key] = dataclasses.replace(t, game_id=game_id)
            self._by_game[game_id] = key
            return game_id
        return t.game_id

    async def set_tournament_result(self, tournament_id: int, number: int, table: int,
                               ranks: tuple[int, ...] | None) -> bool:
        key = (tournament_id, number, table)
        t = self._tables.get(key)
        if t is None or t.ended:
            return False
        self._tables[key] = dataclasses.replace(t, ranks=ranks, ended=True)
        return True

    async def tournament_table_of(self, game_id: int) -> TableRow | None:
        key = self._by_game.get(game_id)
        return self._tables.get(key) if key else None


def tournament_store(store: Any) -> TournamentStore:
    """The tournaments' storage: the bot's store (the unified SQL store carries the tables, migration 11);
    a store without them falls back to memory, said in the log: such tournaments do not survive a restart."""
    if hasattr(store, "create_tournament"):
        return store
    log.warning("this store has no tournament tables: tournaments are kept in memory (lost on restart)")
    return MemoryTournamentStore()


class Announcer(Protocol):
    """What the Discord side is told (posted through the bot's paced channel messages)."""

    async def round_opened(self, t: TournamentRow, number: int, tables: list[TableRow], byes: list[int]) -> None: ...

    async def finished(self, t: TournamentRow, standings: list[P.Standing]) -> None: ...


@dataclass
class Snapshot:
    """What ``/tournoi etat`` shows."""

    tournament: TournamentRow
    entries: list[EntryRow]
    tables: list[TableRow]  # of the current round
    standings: list[P.Standing]


class TournamentService:
    def __init__(self, store: TournamentStore, games: Store, sessions: SessionService, *,
                 clock: Callable[[], float] = time.time, announcer: Announcer | None = None,
                 opened: Callable[[int], Any] | None = None,
                 shards: tuple[tuple[int, ...], int] | None = None, pacer: Pacer | None = None) -> None:
        self.store = store
        #: games opened per second: each one's first card (a thread, a post) follows from the outbox,
        #: so a round of hundreds of games stays under Discord's 50 requests per second (zero 429s)
        self.pacer = pacer or Pacer(rate=OPEN_RATE, per_channel=10**6, window=0.0)
        self.games = games
        self.sessions = sessions
        self.clock = clock
        self.announcer = announcer
        #: told each game opened (the publisher's ``wake``: its first card goes out at the outbox's pace)
        self.opened = opened
        self.shards = shards
        self._tasks: set[asyncio.Task] = set()
        #: tournaments told of a change while this process may hold their lease: looked at again
        self._dirty: set[int] = set()

    # --- checks --------------------------------------------------------------------------
    async def get_in(self, tournament_id: int, guild_id: int | None) -> TournamentRow:
        """The tournament, in this server only (elsewhere it does not exist)."""
        t = None
        if isinstance(tournament_id, int) and not isinstance(tournament_id, bool) and 0 < tournament_id < 2**53:
            t = await self.store.get_tournament(tournament_id)
        if t is None or t.guild_id != guild_id:
            raise SessionError("tournament.error.no_such", id=str(tournament_id)[:20])
        return t

    @staticmethod
    def _require(t: TournamentRow, *statuses: str) -> None:
        if t.status not in statuses:
            raise SessionError(f"tournament.error.status_{t.status}", id=t.id)

    @staticmethod
    def _may_manage(t: TournamentRow, player: Player) -> bool:
        return player.user_id == t.creator_id or (player.can_manage and player.guild_id == t.guild_id)

    # --- the organiser's commands --------------------------------------------------------
    async def create(self, *, guild_id: int, channel_id: int, creator: Player, kind: str, fmt: str, rounds: int,
                     places: int, pace: str | None = None, reliability: int = 0,
                     table: int | None = None) -> TournamentRow:
        if kind not in engines.available():
            raise SessionError("tournament.error.game", game=str(kind)[:30])
        if fmt not in P.FORMATS:
            raise SessionError("tournament.error.format")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            raise SessionError("tournament.error.rounds", max=MAX_ROUNDS)
        if isinstance(places, bool) or not isinstance(places, int) or not MIN_PLACES <= places <= MAX_PLACES:
            raise SessionError("tournament.error.places", min=MIN_PLACES, max=MAX_PLACES)
        if not isinstance(reliability, int) or not 0 <= reliability <= 100:
            raise SessionError("tournament.error.reliability")
        check_pace(pace)  # common.error.bad_pace, naming the paces allowed
        e = engines.get(kind)
        lo, hi = P.table_bounds(e.min_players, e.max_players)
        if table is not None and (isinstance(table, bool) or not isinstance(table, int) or not lo <= table <= hi):
            raise SessionError("tournament.error.queue_players", min=lo, max=hi)
        lo = table or lo
        if places < lo:
            raise SessionError("tournament.error.places", min=lo, max=MAX_PLACES)
        row = TournamentRow(id=0, guild_id=guild_id, channel_id=channel_id, kind=kind, format=fmt, rounds=rounds,
                            places=places, creator_id=creator.user_id, pace=pace, reliability=reliability,
                            created_at=self.clock(), table=table)
        return await self.store.create_tournament(row)

    async def register(self, tournament_id: int, player: Player) -> EntryRow:
        t = await self.get_in(tournament_id, player.guild_id)
        self._require(t, OPEN)
        if t.reliability:
            finished, cancelled, forfeited = await self.games.player_completion(t.guild_id, player.user_id)
            ended = finished + cancelled + forfeited
            share = 100 * finished // ended if ended else 100
            if share < t.reliability:
                raise SessionError("tournament.error.unreliable", percent=share, required=t.reliability)
        entry = EntryRow(t.id, player.user_id, player.name, await self.rating_of(t, player.user_id), player.locale)
        got = await self.store.add_tournament_entry(entry, t.places)
        if got == "already":
            raise SessionError("tournament.error.already_in")
        if got == "full":
            raise SessionError("tournament.error.full", places=t.places)
        if got == "closed":  # launched or cancelled meanwhile: the next try says which
            raise SessionError("tournament.error.busy")
        return entry

    async def rating_of(self, t: TournamentRow, user_id: int) -> float:
        """The member's displayed rating in this game on this server (1000 for a newcomer)."""
        for row, _pos, _total in await self.games.player_ratings(t.guild_id, user_id):
            if row.kind == t.kind:
                return float(display(row.ordinal))
        return float(display(0.0))

    async def unregister(self, tournament_id: int, player: Player) -> str:
        """Leave an open tournament, or withdraw from a running Swiss or round-robin one (no longer
        paired; the game being played goes on). Returns ``"left"`` or ``"withdrawn"``."""
        t = await self.get_in(tournament_id, player.guild_id)
        self._require(t, OPEN, STARTED)
        if t.status == OPEN:
            if not await self.store.remove_tournament_entry(t.id, player.user_id):
                raise SessionError("tournament.error.not_in")
            return "left"
        if t.format == P.ELIMINATION:
            raise SessionError("tournament.error.no_withdrawal")
        if not await self.store.withdraw_tournament_entry(t.id, player.user_id):
            raise SessionError("tournament.error.not_in")
        return "withdrawn"

    async def launch(self, tournament_id: int, player: Player, *, open_round: bool = True) -> TournamentRow:
        """Close the entries and fix the seeds; with ``open_round``, open round 1 now (a command
        answers first and lets :meth:`advance_soon` open it: a round of many games takes a while;
        were the process to die before, the next tick opens it)."""
        t = await self.get_in(tournament_id, player.guild_id)
        self._require(t, OPEN)
        if not self._may_manage(t, player):
            raise SessionError("tournament.error.only_organiser")
        entries = await self.store.tournament_entries(t.id)
        lo, hi = lo_hi(t)
        if len(entries) < max(2, lo):
            raise SessionError("tournament.error.not_enough", min=max(2, lo), count=len(entries))
        seeds = sorted(entries, key=lambda e: (-e.rating, e.user_id))
        es = [P.Entrant(e.user_id, e.rating) for e in seeds]
        total = self.total_rounds(t, es)
        row = await self.store.update_tournament(t.id, t.version, status=STARTED, total=total,
                                                 seeds=[[e.id, e.rating] for e in es])
        if row is None:
            raise SessionError("tournament.error.busy")
        if open_round:
            await self.advance(row.id)
        return await self.store.get_tournament(row.id) or row

    def advance_soon(self, tournament_id: int) -> None:
        """:meth:`advance` in the background (after a command's answer)."""
        self._background(self.advance(tournament_id))

    def on_change_soon(self, outcome: Outcome) -> None:
        """:meth:`on_change` in the background: the hook as the bot calls it. The move that ended a round's
        last game is answered at once, not after the next round's games are opened (at ``OPEN_RATE``: a
        round of 128 games takes 16 s, and Discord wants an interaction answered within 3 s). Were the
        process to die first, the next :meth:`tick` records the result and opens the round."""
        if outcome.game.status in (FINISHED, CANCELLED):
            self._background(self.on_change(outcome))

    def _background(self, work) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    async def settled(self) -> None:
        """Wait until the background work (:meth:`advance_soon`, :meth:`on_change_soon`) is done."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("tournament advance failed", exc_info=task.exception())

    @staticmethod
    def total_rounds(t: TournamentRow, es: list[P.Entrant]) -> int:
        lo, hi = lo_hi(t)
        if t.format == P.SWISS:
            return min(t.rounds, P.max_swiss_rounds(len(es))) if hi == 2 else t.rounds
        if t.format == P.ROUND_ROBIN:
            groups = P.round_robin_groups(es, lo, hi, group_size=t.rounds + 1, preferred=t.preferred)
            return groups.rounds or t.rounds
        return P.Bracket([e.id for e in es], lo, hi, t.preferred).rounds_total()

    async def cancel(self, tournament_id: int, player: Player) -> TournamentRow:
        """Cancel an open or running tournament; the games being played go on as ordinary games."""
        t = await self.get_in(tournament_id, player.guild_id)
        self._require(t, OPEN, STARTED)
        if not self._may_manage(t, player):
            raise SessionError("tournament.error.only_organiser")
        row = await self.store.update_tournament(t.id, t.version, status=ABANDONED)
        if row is None:
            raise SessionError("tournament.error.busy")
        return row

    async def snapshot(self, tournament_id: int, guild_id: int | None) -> Snapshot:
        t = await self.get_in(tournament_id, guild_id)
        entries = await self.store.tournament_entries(t.id)
        tables = await self.store.tournament_tables(t.id)
        current = [x for x in tables if x.round == t.round]
        return Snapshot(t, entries, current, await self.standings(t, entries, tables))

    # --- standings -----------------------------------------------------------------------
    @staticmethod
    def played(tables: list[TableRow]) -> list[P.Played]:
        return [P.Played(x.round, x.players, x.ranks) for x in tables if x.ended]

    def entrants(self, t: TournamentRow, entries: list[EntryRow]) -> list[P.Entrant]:
        if t.seeds:
            return [P.Entrant(int(uid), float(r)) for uid, r in t.seeds]
        return [P.Entrant(e.user_id, e.rating) for e in sorted(entries, key=lambda e: (-e.rating, e.user_id))]

    async def standings(self, t: TournamentRow, entries: list[EntryRow] | None = None,
                        tables: list[TableRow] | None = None) -> list[P.Standing]:
        entries = entries if entries is not None else await self.store.tournament_entries(t.id)
        tables = tables if tables is not None else await self.store.tournament_tables(t.id)
        es = self.entrants(t, entries)
        if t.format == P.ELIMINATION and t.seeds:
            return self.replay_bracket(t, es, tables).standings(es)
        groups = None
        if t.format == P.ROUND_ROBIN and t.seeds:
            lo, hi = lo_hi(t)
            groups = P.round_robin_groups(es, lo, hi, group_size=t.rounds + 1, preferred=t.preferred).group_of()
        return P.standings(es, self.played(tables), await self.store.tournament_byes(t.id), groups)

    @staticmethod
    def replay_bracket(t: TournamentRow, es: list[P.Entrant], tables: list[TableRow]) -> P.Bracket:
        """The bracket as the stored rounds left it (a pure replay from the seeds)."""
        lo, hi = lo_hi(t)
        b = P.Bracket([e.id for e in es], lo, hi, t.preferred)
        for number in range(1, t.round + 1):
            rnd = b.next_round()
            mine = [x for x in tables if x.round == number]
            if not all(x.ended for x in mine):
                break
            b.advance(rnd, [P.Played(number, x.players, x.ranks) for x in mine])
        return b

    # --- moving a tournament forward ------------------------------------------------------
    async def on_change(self, outcome: Outcome) -> None:
        """The session service's hook: a tournament game that ended records its result and moves
        its tournament on."""
        game = outcome.game
        if game.status not in (FINISHED, CANCELLED):
            return
        table = await self.store.tournament_table_of(game.id)
        if table is None:
            return
        await self.record(table, game.status)
        await self.advance(table.tournament_id)

    async def record(self, table: TableRow, status: str) -> bool:
        """Store the result of a table's ended game: each player's place, or nothing if cancelled."""
        ranks: tuple[int, ...] | None = None
        if status == FINISHED and table.game_id is not None:
            by_user = {r.user_id: r.rank for r in await self.games.results(table.game_id)}
            if all(p in by_user for p in table.players):
                ranks = tuple(by_user[p] for p in table.players)
        return await self.store.set_tournament_result(table.tournament_id, table.round, table.table, ranks)

    def _mine(self, t: TournamentRow) -> bool:
        if self.shards is None:
            return True
        ids, count = self.shards
        return (t.guild_id >> 22) % count in ids

    async def tick(self) -> int:
        """Advance every running tournament of this process's servers (after a restart, a lost
        lease, a game ended while its hook could not run). Returns how many moved."""
        moved = 0
        for t in await self.store.running_tournaments():
            if self._mine(t):
                try:
                    moved += bool(await self.advance(t.id))
                except Exception:
                    log.exception("tournament %s could not advance", t.id)
            await asyncio.sleep(0)
        return moved

    async def advance(self, tournament_id: int) -> bool:
        """Under the tournament's lease: record ended games, open the games of the current round
        still missing, and when the round is complete, open the next one (or finish)."""
        self._dirty.add(tournament_id)
        moved = False
        while tournament_id in self._dirty:
            if not await self.store.claim_tournament(tournament_id, self.clock(), LEASE):
                # another process or task holds it: a task of this process looks again when it lets go
                # (``_dirty``), another process at its next tick
                return moved
            self._dirty.discard(tournament_id)
            try:
                moved |= await self._advance(tournament_id)
            finally:
                await self.store.release_tournament(tournament_id)
        return moved

    async def _advance(self, tournament_id: int) -> bool:
        moved = False
        for _ in range(MAX_ROUNDS + 2):
            t = await self.store.get_tournament(tournament_id)
            if t is None or t.status != STARTED:
                return moved
            tables = await self.store.tournament_tables(t.id)
            current = [x for x in tables if x.round == t.round]
            for x in current:  # results the hook missed (a crash, another process)
                if x.game_id is not None and not x.ended:
                    game = await self.games.get_game(x.game_id)
                    if game is not None and game.status in (FINISHED, CANCELLED):
                        moved |= await self.record(x, game.status)
            if t.round and any(x.game_id is None or x.status_lobby for x in await self._views(t)):
                moved |= await self._open_games(t)
            await self._announce(t)  # a round the dead process opened but did not announce
            tables = await self.store.tournament_tables(t.id)
            current = [x for x in tables if x.round == t.round]
            if t.round and not all(x.ended for x in current):
                return moved
            if t.round >= t.total or (t.format == P.ELIMINATION and t.round and
                                      self.replay_bracket(t, self.entrants(t, []), tables).finished):
                await self._finish(t)
                return True
            if not await self._open_round(t, tables):
                return moved
            moved = True
        return moved

    async def _views(self, t: TournamentRow) -> list[_TableView]:
        out = []
        for x in await self.store.tournament_tables(t.id):
            if x.round != t.round:
                continue
            lobby = False
            if x.game_id is not None and not x.ended:
                game = await self.games.get_game(x.game_id)
                lobby = game is not None and game.status == LOBBY
            out.append(_TableView(x.game_id, lobby))
        return out

    async def _open_round(self, t: TournamentRow, tables: list[TableRow]) -> bool:
        number = t.round + 1
        entries = await self.store.tournament_entries(t.id)
        es = self.entrants(t, entries)
        lo, hi = lo_hi(t)
        withdrawn = {e.user_id for e in entries if e.withdrawn}
        byes_before = await self.store.tournament_byes(t.id)
        bye_points = P.SWISS_BYE
        if t.format == P.SWISS:
            active = [e for e in es if e.id not in withdrawn]
            try:
                rnd = P.swiss_round(number, active, self.played(tables), byes_before, lo, hi, t.preferred)
            except P.PairingImpossible:
                log.info("tournament %s: no pairing left for round %s, it ends", t.id, number)
                await self._finish(t)
                return False
        elif t.format == P.ROUND_ROBIN:
            groups = P.round_robin_groups(es, lo, hi, group_size=t.rounds + 1, preferred=t.preferred)
            rnd = P.round_robin_round(number, groups)
            bye_points = P.ZERO
            # a withdrawn player's game is not opened: the others of the table rest this round
            kept = [tb for tb in rnd.tables if not withdrawn & set(tb.players)]
            rested = [p for tb in rnd.tables if withdrawn & set(tb.players) for p in tb.players if p not in withdrawn]
            rnd = P.Round(number, tuple(kept), tuple(p for p in (*rnd.byes, *rested) if p not in withdrawn))
        else:
            b = self.replay_bracket(t, es, tables)
            rnd = b.next_round()
        rows = [TableRow(t.id, number, i, tb.players) for i, tb in enumerate(rnd.tables)]
        if not await self.store.add_tournament_round(t.id, t.version, number, rows, [(p, bye_points) for p in rnd.byes]):
            return False  # the tournament changed meanwhile (cancelled...): look again next time
        t = await self.store.get_tournament(t.id) or t
        await self._open_games(t)
        await self._announce(t)
        return True

    async def _announce(self, t: TournamentRow) -> None:
        """Announce the current round once all its games are open, then mark it announced (a compare-and-swap
        on the version). Under the tournament's lease, like every step: one process at a time. A process that
        dies before the post leaves it to the next pass (a restart, another process's tick): a round is never
        left unannounced; only a death between the post and the mark (a few milliseconds) would repeat it."""
        if self.announcer is None:
            return
        t = await self.store.get_tournament(t.id) or t
        if t.status != STARTED or not t.round or t.announced >= t.round:
            return
        tables = await self._round_tables(t, t.round)
        if any(x.game_id is None for x in tables) or (tables and all(x.ended for x in tables)):
            return  # games still to open; or a round already played out (after a long outage): nothing to say
        for x in tables:
            game = await self.games.get_game(x.game_id) if x.game_id is not None else None
            if game is not None and game.status == LOBBY:
                return  # recorded, not started yet
        byes = [b.player for b in await self.store.tournament_byes(t.id) if b.round == t.round]
        try:
            await self.announcer.round_opened(t, t.round, tables, byes)
        except Exception:
            log.exception("tournament %s: round %s announcement failed", t.id, t.round)
        await self.store.update_tournament(t.id, t.version, announced=t.round)  # lost to a cancel: nothing to do

    async def _round_tables(self, t: TournamentRow, number: int) -> list[TableRow]:
        return [x for x in await self.store.tournament_tables(t.id) if x.round == number]

    async def _open_games(self, t: TournamentRow) -> bool:
        """Open (or finish opening) every game of the current round. Resumable: see the module's doc."""
        names = {e.user_id: e for e in await self.store.tournament_entries(t.id)}
        opened = False
        for x in await self._round_tables(t, t.round):
            if x.ended:
                continue
            if x.game_id is None:
                await self.pacer.take(None)
            try:
                opened |= await self._open_game(t, x, names)
            except SessionError as err:
                log.warning("tournament %s table %s/%s: %s", t.id, x.round, x.table, err.key)
            await asyncio.sleep(0)  # players' commands go first
        return opened

    async def _open_game(self, t: TournamentRow, x: TableRow, names: dict[int, EntryRow]) -> bool:
        def player(uid: int) -> Player:
            e = names.get(uid)
            return Player(uid, e.name if e else str(uid), e.locale if e else "fr", guild_id=t.guild_id)

        game_id = x.game_id
        if game_id is None:
            lobby = await self.sessions.open_lobby(t.kind, guild_id=t.guild_id, channel_id=t.channel_id,
                                                   player=player(x.players[0]), pace=t.pace, thread=True,
                                                   tournament=t.id)
            for uid in x.players[1:]:
                lobby = await self.sessions.join(lobby.id, player(uid))
            game_id = await self.store.set_tournament_game(t.id, x.round, x.table, lobby.id)
            if game_id != lobby.id:  # another process recorded its own game first: ours goes
                manager = dataclasses.replace(player(x.players[0]), can_manage=True)
                await self.sessions.cancel(lobby.id, manager)
                return False
        game = await self.games.get_game(game_id)
        if game is None or game.status != LOBBY:
            return False
        outcome = await self.sessions.start(game_id, player(x.players[0]))
        if self.opened is not None:
            try:
                res = self.opened(outcome.game.id)
                if asyncio.iscoroutine(res):
                    await res
            except Exception:
                log.exception("tournament %s: wake for game %s failed", t.id, game_id)
        return True

    async def _finish(self, t: TournamentRow) -> None:
        row = await self.store.update_tournament(t.id, t.version, status=DONE)
        if row is None:
            return
        if self.announcer is not None:
            try:
                await self.announcer.finished(row, await self.standings(row))
            except Exception:
                log.exception("tournament %s: podium announcement failed", t.id)


@dataclass(frozen=True)
class _TableView:
    game_id: int | None
    status_lobby: bool

