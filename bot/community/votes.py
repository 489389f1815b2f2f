"""A stalled player: the other players vote (issue 15).

When a seat's time is out in a game with at least two *other* human players (not voted out),
the scheduler opens a vote instead of playing the default move: the others choose to **wait**
(the seat gets a new timeout), to let the **AI** play for it (games whose engine has one; the
player takes the seat back with a click) or to **remove** it (the engine goes on without it
where its rules allow, else the game ends with that seat last). Two-player and solo games keep
the timeout/forfeit path.

* the vote is a ``vote`` deadline of the stalled seat in the deadlines table, keyed by its
  *epoch* (the game version its opening made); the open votes are in the game's settings
  (``votes``), so every public message derived from the game shows their buttons;
* each voter's ballot is a row (``ballots``), changeable until the decision;
* a strict majority of the voters decides at once; at the deadline the choice with the most
  ballots wins, ties (and no ballot at all) mean **wait**;
* the decision goes through the session service (compare-and-swap on the version, and only
  while the vote is still open), so it is applied once, whoever gets there first (a click,
  the deadline, another process after a crash).

Pure counting here; the Discord side (buttons, refusals) is :mod:`bot.community.voting`.
"""

from __future__ import annotations

import logging

from bot.sessions import (
    AI,
    CHOICES,
    REMOVE,
    WAIT,
    Outcome,
    SessionError,
    SessionService,
    open_votes,
    voters,
)
from bot.storage import DONE, RUNNING, VOID, VOTE, Deadline, GameRow, Store

log = logging.getLogger("ludibot.votes")

__all__ = ["AI", "CHOICES", "REMOVE", "WAIT", "Votes", "choices_for", "counts", "eligible", "majority",
           "voters", "winner"]

#: how long the others have to decide when the game has no timeout delay of its own
DEFAULT_VOTE_S = 24 * 3600.0


def eligible(game: GameRow, seat: int) -> bool:
    """A vote (rather than the timeout's default move or forfeit): two other human players at least."""
    return len(voters(game, seat)) >= 2


def choices_for(has_ai: bool) -> tuple[str, ...]:
    return CHOICES if has_ai else (WAIT, REMOVE)


def counts(ballots: dict[int, str], allowed_voters: list[int], choices: tuple[str, ...] = CHOICES) -> dict[str, int]:
    """Ballots per choice, counting only the voters allowed (a player voted out meanwhile is not)."""
    tally = dict.fromkeys(choices, 0)
    allowed = set(allowed_voters)
    for voter, choice in ballots.items():
        if voter in allowed and choice in tally:
            tally[choice] += 1
    return tally


def majority(tally: dict[str, int], n_voters: int) -> str | None:
    """The choice more than half of the voters made, if any (decided before the deadline)."""
    for choice, n in tally.items():
        if n * 2 > n_voters:
            return choice
    return None


def winner(tally: dict[str, int]) -> str:
    """At the deadline: the choice with the most ballots; a tie, or no ballot, means wait."""
    best = max(tally.values(), default=0)
    top = [c for c, n in tally.items() if n == best]
    return top[0] if best > 0 and len(top) == 1 else WAIT


class Votes:
    """The scheduler's side: open a vote when a seat's time is out, decide it at its deadline."""

    def __init__(self, store: Store, sessions: SessionService) -> None:
        self.store = store
        self.sessions = sessions

    async def open(self, game: GameRow, seat: int, now: float, delay: float) -> Outcome | None:
        """Open the vote about ``seat`` if the game has enough other players (else None: the
        timeout goes its usual way). The deadline is written first, for the epoch the opening
        will make: if that commit loses its race, the deadline finds no vote and is void."""
        if not eligible(game, seat):
            return None
        due = now + (delay if delay > 0 else DEFAULT_VOTE_S)
        await self.store.schedule_deadlines(game.id, game.version + 1, now, [(seat, VOTE, due)])
        return await self.sessions.open_vote(game.id, seat, version=game.version, due=due,
                                             voters=len(voters(game, seat)))

    @staticmethod
    def valid(game: GameRow, d: Deadline) -> bool:
        vote = open_votes(game).get(str(d.seat))
        return game.status == RUNNING and vote is not None and vote.get("epoch") == d.version

    async def tally(self, game: GameRow, seat: int, epoch: int) -> dict[str, int]:
        has_ai = self.sessions.engine(game.kind).has_ai
        return counts(await self.store.ballots(game.id, seat, epoch), voters(game, seat), choices_for(has_ai))

    async def decide(self, game: GameRow, seat: int, epoch: int, choice: str | None = None) -> Outcome | None:
        """Apply the decision (``choice``, or the deadline's winner); None if it was already decided."""
        tally = await self.tally(game, seat, epoch)
        try:
            return await self.sessions.decide_vote(game.id, seat, epoch, choice or winner(tally), tally)
        except SessionError as err:
            if err.key in ("community.vote.closed", "common.error.already_played"):
                return None
            raise

    async def fire(self, game: GameRow, due: list[Deadline], now: float, lease: float) -> list[Outcome]:
        """The votes whose deadline came: each claimed (compare-and-swap), decided, closed."""
        outcomes: list[Outcome] = []
        for d in due:
            game = await self.store.get_game(game.id) or game
            if not self.valid(game, d):
                await self.store.close_deadline(d.key, VOID, now)
                continue
            if not await self.store.claim_deadline(d.key, now, lease):
                continue
            try:
                outcome = await self.decide(game, d.seat, d.version)
            except SessionError as err:
                log.info("vote of game %s seat %s refused (%s): retrying later", game.id, d.seat, err.key)
                await self.store.release_deadline(d.key)
                continue
            await self.store.close_deadline(d.key, DONE if outcome is not None else VOID, now)
            if outcome is not None:
                outcomes.append(outcome)
        return outcomes

