"""Ratings per server and per game: openskill's Plackett-Luce model over each finished game.

* Every finished game is folded in once (``rated_games`` records its id), in the same order
  as the games finished; the scheduler's start-up sweep catches any game a crash left out.
* Only human seats are rated: AI seats are removed and the humans keep their relative order
  (their ranks from the game, ties included). A game with fewer than two humans moves no
  rating, but still counts in the players' games / wins / best score. A win is a first
  place in the whole game (beating the AI counts; finishing ahead of the only other human
  but behind an AI does not).
* Solo games (one seat) are not rated: they feed the records (``/records``).
* Forfeits (repeated timeouts) are finished games: the forfeiting seat is last, the others
  share first place, no scores. Cancelled games never count.
* The number shown is ``1000 + 40 × (μ − 3σ)`` (openskill's conservative ordinal), so a
  newcomer shows 1000 and it only rises with evidence.
"""

from __future__ import annotations

import logging
from typing import Any

from openskill.models import PlackettLuce

from bot.storage import ResultRow, Store

log = logging.getLogger("ludibot.ratings")

MODEL = PlackettLuce()
DISPLAY_BASE, DISPLAY_SCALE = 1000, 40


def display(ordinal: float) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal)


def compute(game: dict[str, Any], results: list[ResultRow],
            current: dict[int, tuple[float, float]]) -> dict[int, tuple[float, float]]:
    """New ``{user_id: (mu, sigma)}`` for the human players of one finished game."""
    humans = sorted((r for r in results if r.user_id is not None), key=lambda r: r.seat)
    before = {r.user_id: MODEL.rating(*current[r.user_id]) if r.user_id in current else MODEL.rating()
              for r in humans}
    if len(humans) < 2:
        return {uid: (rt.mu, rt.sigma) for uid, rt in before.items()}
    teams = MODEL.rate([[before[r.user_id]] for r in humans], ranks=[r.rank for r in humans])
    return {r.user_id: (team[0].mu, team[0].sigma) for r, team in zip(humans, teams, strict=True)}


async def rate(store: Store, game_id: int) -> bool:
    """Fold one finished game into the ratings (idempotent; False if it already was)."""
    return await store.rate_game(game_id, compute)


async def rate_pending(store: Store) -> int:
    """Rate every finished game not rated yet (after a crash), oldest first."""
    done = 0
    for game_id in await store.unrated_games():
        try:
            done += bool(await rate(store, game_id))
        except Exception:
            log.exception("could not rate game %s", game_id)
    return done
