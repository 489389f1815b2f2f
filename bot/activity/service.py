"""The board's rules of access: what an Activity page may see and do, whoever sends it.

Every call names the asker (a :class:`~bot.activity.identity.User` from Discord) and the instance
their page runs in (from Discord). A game is reachable only from an instance that runs in the game's
own server and channel (or its thread), and only by a user who is in that instance. A page receives
``view(state, its seat)`` (a spectator's view for everyone else), never the state. A move goes through
:meth:`SessionService.act` with the version the page saw, exactly as a button's click does: a move
for an older version is refused and nothing changes.
"""

from __future__ import annotations

import asyncio
import base64
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from bot import i18n
from bot.activity import controls
from bot.activity.identity import ActivityError, Instance, User
from bot.sessions import Outcome, SessionService
from bot.storage.base import ACTIVE, RUNNING, GameRow

#: ``(game, view, lang, "board" | "mine", *, hits=False, preview=False) -> PNG bytes or None``; with
#: ``hits``, ``(PNG, hit map)`` (region id → polygon, in the picture's pixels); ``preview``: a view that
#: is not the game's version (never cached as its picture)
Draw = Callable[..., Awaitable[Any]]
#: pictures and hit maps kept (a game's version, a picture, a seat, a language)
DRAWN_KEPT = 64
#: regions a touch may name at once (a Ludime word spells at most a whole hand: 15 cards and the one
#: drawn; a lengthened word is the word and the cards added)
MAX_SELECTED = 17


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


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
        self._drawn: OrderedDict[tuple, tuple[bytes, dict[str, Any] | None]] = OrderedDict()
        #: the drawings under way: the page asks a version's picture and its hit map at once, and every page
        #: showing the game asks when it moves; each is drawn once
        self._drawing: dict[tuple, asyncio.Future] = {}

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
                "mine": seat is not None and game.status == RUNNING and self.private(game.kind),
                "touch": self._touch_picture(game, seat), "touch_pictures": self._touch_pictures(game, seat)}

    @staticmethod
    def _touch_picture(game: GameRow, seat: int | None) -> str | None:
        """The picture the asker's touches name (``board`` or ``mine``), when the board is their control."""
        control = controls.CONTROLS.get(game.kind)
        if control is None or seat is None or game.status != RUNNING or game.state is None \
                or not controls.enabled(control, game.state):
            return None
        return controls.which(control, game.state, seat)

    @classmethod
    def _touch_pictures(cls, game: GameRow, seat: int | None) -> list[str]:
        """Every picture the asker's touches name (the dice of the table, then their own kallax)."""
        if not cls._touch_picture(game, seat):
            return []
        return list(controls.pictures(controls.CONTROLS[game.kind], game.state, seat))

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
        control = controls.CONTROLS.get(game.kind)
        touch = control is not None and which in controls.hit_pictures(control)  # its hit map is drawn with it, once
        key = (game.id, game.version, which, game.seat_of(user.id) if which == "mine" else None, lang)
        if key in self._drawn:
            self._drawn.move_to_end(key)
            return self._drawn[key][0]
        if self.draw is None:
            raise ActivityError(404, "activity.error.no_picture")
        drawing = self._drawing.get(key)
        if drawing is None:
            drawing = asyncio.ensure_future(self._draw_once(key, game, view, lang, which, touch))
            self._drawing[key] = drawing
            drawing.add_done_callback(lambda _f: self._drawing.pop(key, None))
        return await asyncio.shield(drawing)

    async def _draw_once(self, key: tuple, game: GameRow, view: dict[str, Any], lang: str, which: str,
                         touch: bool) -> bytes:
        drawn = await self.draw(game, view, lang, which, hits=True) if touch else (
            await self.draw(game, view, lang, which), None)
        if not drawn or not drawn[0]:
            raise ActivityError(404, "activity.error.no_picture")
        self._drawn[key] = drawn
        while len(self._drawn) > DRAWN_KEPT:
            self._drawn.popitem(last=False)
        return drawn[0]

    async def hits(self, user: User, instance: Instance, game_id: Any, which: str, lang: str) -> dict[str, Any]:
        """Where each region a touch may name is drawn on ``which`` picture (region id → polygon, in the
        picture's pixels), with the picture's size: the same drawing as :meth:`picture`'s."""
        game = await self._game(user, instance, game_id)
        image = await self.picture(user, instance, game_id, which, lang)
        key = (game.id, game.version, which, game.seat_of(user.id) if which == "mine" else None, lang)
        regions = (self._drawn.get(key) or (None, None))[1]
        if regions is None:
            raise ActivityError(404, "activity.error.no_touch")
        width, height = png_size(image)
        return {"game": game.id, "version": game.version, "which": which, "width": width, "height": height,
                "regions": regions}

    async def _control(self, user: User, instance: Instance, game_id: Any, version: Any):
        """The game, its engine and state and the asker's seat, for a touch on ``version``."""
        game = await self._game(user, instance, game_id)
        if isinstance(version, bool) or not isinstance(version, int):
            raise ActivityError(400, "activity.error.bad_request", field="version")
        if game.status != RUNNING or game.state is None:
            raise ActivityError(409, "activity.error.not_running", game=game.id)
        control = controls.CONTROLS.get(game.kind)
        if control is None or not controls.enabled(control, game.state):
            raise ActivityError(404, "activity.error.no_touch")
        seat = game.seat_of(user.id)
        if seat is None:
            raise ActivityError(403, "activity.error.no_seat", game=game.id)
        if version != game.version:
            raise ActivityError(409, "activity.error.stale")
        engine = self.sessions.engine(game.kind)
        return game, control, engine, engine.from_dict(game.state), seat

    async def touch(self, user: User, instance: Instance, game_id: Any, version: Any,
                    selected: Any, lang: str = "fr") -> dict[str, Any]:
        """The regions to highlight after the asker's touches ``selected`` (region ids, in order) and the
        moves they choose completely; the engine's legal moves decide, nothing is stored. When the same
        touches choose several moves (a Tectonic move that may flip either of two pieces), each says
        what tells it apart (``label``): the page previews the first and offers the others as choices."""
        if not isinstance(selected, list) or len(selected) > MAX_SELECTED or not all(
                isinstance(r, str) and 0 < len(r) <= 40 for r in selected):
            raise ActivityError(400, "activity.error.bad_request", field="selected")
        game, control, engine, state, seat = await self._control(user, instance, game_id, version)
        answer = controls.answer(control, engine, state, seat, selected)
        if selected and not answer["targets"] and not answer["moves"]:
            raise ActivityError(409, "activity.error.no_move")
        if len(answer["moves"]) > 1:
            for move in answer["moves"]:
                told = controls.label(control, move["action"])
                if told is not None:
                    move["label"] = i18n.t(told[0], lang, **told[1])
        return {"game": game.id, "version": game.version, "which": controls.which(control, game.state, seat),
                **jsonable(answer)}

    async def preview(self, user: User, instance: Instance, game_id: Any, version: Any, action: Any,
                      lang: str) -> dict[str, Any]:
        """The asker's picture with ``action`` made (only what their seat may know) and the change in
        words; nothing is stored: « Confirmer » is :meth:`move` with the same version."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise ActivityError(400, "activity.error.bad_request", field="action")
        game, control, engine, state, seat = await self._control(user, instance, game_id, version)
        if not controls.allows(control, engine, state, seat, action):
            raise ActivityError(409, "activity.error.no_move")
        shown = control.preview(engine, state, seat, action)
        params = dict(shown.params)
        if isinstance(params.get("seat"), int) and 0 <= params["seat"] < len(game.names):  # a seat: its name
            params["name"] = game.names[params["seat"]]
        image = await self.draw(game, shown.view, lang, controls.which(control, game.state, seat),
                                preview=True) if self.draw else None
        if not image:
            raise ActivityError(404, "activity.error.no_picture")
        return {"game": game.id, "version": game.version, "action": action,
                "picture": "data:image/png;base64," + base64.b64encode(image).decode(),
                "text": i18n.t(shown.key, lang, **params)}

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
