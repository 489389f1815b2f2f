"""The rows of the tournaments and the queues (issue 28), as the store returns them.

They live with the storage that reads and writes them (``bot.storage.sql``), below the community
modules that use them (:mod:`bot.community.tournaments`, :mod:`bot.community.pairing`,
:mod:`bot.community.matchmaking`, which import them from here): the store never imports upward.
Plain data, no rule of a tournament or a queue.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

# --- tournaments -----------------------------------------------------------------------------------
#: a tournament's statuses (the ``status`` column of ``tournaments``; not a game's)
OPEN, STARTED, DONE, ABANDONED = "open", "running", "finished", "cancelled"
#: What a Swiss bye is worth (a win); a round-robin bye (an odd group's rest) is worth nothing.
SWISS_BYE = Fraction(1)


@dataclass
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    kind: str
    format: str
    rounds: int  # asked for (Swiss, round-robin of tables); the real count is ``total`` once launched
    places: int
    creator_id: int
    pace: str | None = None
    reliability: int = 0  # percent of ended games seen through, required to enter (0 = none)
    status: str = OPEN
    round: int = 0  # the round opened last (0 = none yet)
    total: int = 0  # rounds in all, fixed at launch
    version: int = 0
    created_at: float = 0.0
    lease_until: float = 0.0
    #: frozen at launch: the entrants in seed order as ``[[user_id, rating], ...]``
    seeds: list[list[Any]] = field(default_factory=list)
    #: players per table chosen by the organiser (None: two for a two-player game, else four if allowed)
    table: int | None = None
    #: the round announced last (a round is announced once all its games are open, once: see ``_announce``)
    announced: int = 0

    @property
    def preferred(self) -> int | None:
        return self.table


@dataclass(frozen=True)
class EntryRow:
    tournament_id: int
    user_id: int
    name: str
    rating: float
    locale: str = "fr"
    withdrawn: bool = False  # left a running tournament: no longer paired


@dataclass(frozen=True)
class TableRow:
    tournament_id: int
    round: int
    table: int  # 0-based within the round
    players: tuple[int, ...]
    game_id: int | None = None
    ranks: tuple[int, ...] | None = None  # the players' places once the game ended
    ended: bool = False  # result recorded (ranks None and ended: abandoned, 0 points each)


@dataclass(frozen=True)
class Bye:
    round: int
    player: int
    points: Fraction = SWISS_BYE


# --- queues (/chercher) ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Waiting:
    guild_id: int
    channel_id: int
    user_id: int
    name: str
    kind: str
    players: int
    pace: str | None
    since: float
    locale: str = "fr"

    @property
    def queue(self) -> tuple[int, str, int, str | None]:
        return (self.guild_id, self.kind, self.players, self.pace)


@dataclass(frozen=True)
class Match:
    id: int
    guild_id: int
    channel_id: int
    kind: str
    pace: str | None
    members: tuple[Waiting, ...]  # seat order: longest-waiting first
    created_at: float
    game_id: int | None = None
