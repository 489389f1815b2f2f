"""Whole games of every kind played through the session service (human seats played by the
engine's AI), recording the engine state the game had at every committed version: what the
replay tests compare the replays with, and what the replay benchmark replays."""

from __future__ import annotations

from typing import Any

import engines
from bot.sessions import Player, SessionService
from bot.storage import FINISHED

GUILD, CHANNEL = 1, 10
HUMANS = [Player(100 + i, name, guild_id=GUILD) for i, name in enumerate(("Alice", "Bruno", "Chloé", "Dave"))]

#: the longest game of each kind (issue 27's budgets): (players, options)
LONGEST: dict[str, tuple[int, dict[str, Any]]] = {
    "ludix": (4, {}),
    "ludime": (4, {}),  # over three rounds
    "ranta": (4, {}),
    "limit": (4, {}),  # 44 tiles
    "tectonic": (2, {}),
    "armada": (2, {}),  # over two rounds
    "lutinades": (7, {}),
}


class Recording:
    """The store, keeping the state of every commit (version -> state dict)."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.states: dict[int, dict[str, Any]] = {}
        self.starts: dict[int, dict[str, Any]] = {}

    async def commit_action(self, game_id: int, old_version: int, **kw: Any):
        row = await self._store.commit_action(game_id, old_version, **kw)
        if row is not None:
            self.states[row.version] = kw["state"]
        return row

    async def start_game(self, game_id, old_version, seats, state, **kw):
        ok = await self._store.start_game(game_id, old_version, seats, state, **kw)
        if ok:
            self.starts[game_id] = state
        return ok

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


async def play(svc: SessionService, kind: str, players: int, options: dict[str, Any] | None = None, *,
               humans: int = 2, stop_after: int | None = None, guild_id: int = GUILD, channel_id: int = CHANNEL,
               people: list[Player] | None = None) -> Any:
    """A game of ``kind`` with ``players`` seats (the first ``humans`` of them people, the others AI),
    played to its end (or ``stop_after`` human moves): the game row at the end."""
    people = people or HUMANS
    humans = min(humans, players, len(people))
    engine = engines.get(kind)
    g = await svc.open_lobby(kind, guild_id=guild_id, channel_id=channel_id, player=people[0], options=options or {})
    for p in people[1:humans]:
        g = await svc.join(g.id, p)
    for _ in range(players - humans):
        g = await svc.add_ai(g.id, people[0], 1)
    g = (await svc.start(g.id, people[0])).game
    moves = 0
    while g.status != FINISHED and (stop_after is None or moves < stop_after):
        state = engine.from_dict(g.state)
        seat = min(svc.expected_seats(g))
        action = engine.ai_action(state, seat, 1)
        g = (await svc.act(g.id, g.seats[seat].user_id, action, version=g.version)).game
        moves += 1
    return g


def game_cogs(sessions: Any) -> dict[str, Any]:
    """The seven game cogs, for their ``render_public`` (no bot, no Discord)."""
    from types import SimpleNamespace

    from cogs.armada.cog import ArmadaCog
    from cogs.limit.cog import LimitCog
    from cogs.ludime.cog import LudimeCog
    from cogs.ludix.cog import LudixCog
    from cogs.lutinades.cog import LutinadesCog
    from cogs.ranta.cog import RantaCog
    from cogs.tectonic.cog import TectonicCog

    bot = SimpleNamespace(sessions=sessions)
    return {cog.kind: cog(bot) for cog in (ArmadaCog, LimitCog, LudimeCog, LudixCog, LutinadesCog, RantaCog,
                                           TectonicCog)}
