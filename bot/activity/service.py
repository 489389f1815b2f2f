"""The board's rules of access: what an Activity page may see and do, whoever sends it.

Every call names the asker (a :class:`~bot.activity.identity.User` from Discord) and the instance
their page runs in (from Discord). A game is reachable only from an instance that runs in the game's
own server and channel (or its thread), and only by a user who is in that instance. A page receives
``view(state, its seat)`` (a spectator's view for everyone else), never the state. A move goes through
:meth:`SessionService.act` with the version the page saw, exactly as a button's click does: a move
for an older version is refused and nothing changes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.activity.identity import ActivityError, Instance, User
from bot.sessions import Outcome, SessionService
from bot.storage.base import ACTIVE, RUNNING, GameRow

#: ``(game, view, lang, "board" | "mine") -> PNG bytes or None``
Draw = Callable[[GameRow, dict[str, Any], str, str], Awaitable[bytes | None]]


def jsonable(value: Any) -> Any:
    """An engine's view as JSON: tuples as lists, sets as sorted lists, keys as strings."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((jsonable(v) for v in value), key=repr)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


class Board:
    """Games as an Activity page sees them."""

    def __init__(self, sessions: SessionService, *, moved: Callable[[Outcome], Any] | None = None,
                 draw: Draw | None = None, private: Callable[[str], bool] | None = None) -> None:
        self.sessions = sessions
        #: called after a committed move (the bot wakes its publisher: the channel's card follows)
        self.moved = moved
        #: the game's own renderers (the bot passes its cogs'): the same pictures as the chat's cards
        self.draw = draw
        #: ``kind -> bool``: the game draws a player's own picture (a hand, a sheet, a board)
        self.private = private or (lambda kind: False)

    @staticmethod
    def _check_member(user: User, instance: Instance) -> None:
        if user.id not in instance.users:
            raise ActivityError(403, "activity.error.not_in_instance")

    async def _game(self, user: User, instance: Instance, game_id: Any) -> GameRow:
        self._check_member(user, instance)
        if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 < game_id < 2 ** 62:
            raise ActivityError(400, "activity.error.bad_request", field="game")
        game = await self.sessions.store.get_game(game_id)
        # a game of another server answers as no game at all: its existence is not this page's business
        if game is None or game.guild_id != instance.guild_id:
            raise ActivityError(404, "activity.error.no_game", game=game_id)
        if instance.channel_id not in (game.channel_id, game.thread_id):
            raise ActivityError(403, "activity.error.elsewhere")
        return game

    def _summary(self, game: GameRow, user: User) -> dict[str, Any]:
        seat = game.seat_of(user.id)
        expected = sorted(self.sessions.expected_seats(game))
        return {"id": game.id, "kind": game.kind, "status": game.status, "version": game.version,
                "names": list(game.names), "seat": seat, "expected": expected,
                "my_turn": seat is not None and seat in expected,
                "mine": seat is not None and game.status == RUNNING and self.private(game.kind)}

    async def games(self, user: User, instance: Instance) -> dict[str, Any]:
        """The running games and lobbies of the instance's channel, newest first, and the one its user
        opened the board on last from a card of this channel (``focus``; None when there is none)."""
        self._check_member(user, instance)
        rows = await self.sessions.store.games_in_channel(instance.channel_id, ACTIVE)
        rows = [g for g in rows if g.guild_id == instance.guild_id]
        games = [self._summary(g, user) for g in sorted(rows, key=lambda g: -g.id)]
        last = (await self.sessions.store.user_prefs(user.id)).get("board")
        focus = None
        if isinstance(last, dict) and last.get("channel") == str(instance.channel_id):
            focus = next((g["id"] for g in games if g["id"] == last.get("game")), None)
        return {"games": games, "focus": focus}

    async def game(self, user: User, instance: Instance, game_id: Any) -> dict[str, Any]:
        """A game as the asker's seat sees it (the spectator's view when they have none)."""
        game = await self._game(user, instance, game_id)
        out = self._summary(game, user)
        out["view"] = jsonable(await self.sessions.view_for(game, user.id)) if game.state is not None else None
        return out

    async def picture(self, user: User, instance: Instance, game_id: Any, which: str, lang: str) -> bytes:
        """``board``: the table as the channel's card shows it (the public view); ``mine``: the asker's
        own picture (their hand, sheet or board), for a seated player only."""
        game = await self._game(user, instance, game_id)
        if which not in ("board", "mine"):
            raise ActivityError(400, "activity.error.bad_request", field="picture")
        if game.state is None:
            raise ActivityError(409, "activity.error.not_running", game=game.id)
        if which == "mine":
            if game.seat_of(user.id) is None:
                raise ActivityError(403, "activity.error.no_seat", game=game.id)
            view = await self.sessions.view_for(game, user.id)
        else:
            view = await self.sessions.public_view(game)
        image = await self.draw(game, view, lang, which) if self.draw is not None else None
        if not image:
            raise ActivityError(404, "activity.error.no_picture")
        return image

    async def move(self, user: User, instance: Instance, game_id: Any, version: Any,
                   action: Any) -> dict[str, Any]:
        """Play ``action`` for the asker, on ``version`` (the one their page shows)."""
        game = await self._game(user, instance, game_id)
        if isinstance(version, bool) or not isinstance(version, int):
            raise ActivityError(400, "activity.error.bad_request", field="version")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise ActivityError(400, "activity.error.bad_request", field="action")
        if game.status != RUNNING:
            raise ActivityError(409, "activity.error.not_running", game=game.id)
        if version != game.version:
            raise ActivityError(409, "activity.error.stale")
        outcome = await self.sessions.act(game.id, user.id, action, version=version, row=game)
        if self.moved is not None:
            self.moved(outcome)
        return self._summary(outcome.game, user)
