"""The Activity's HTTP endpoints, served by every bot process that has them configured.

Discord's proxy serves the page and forwards its requests to this server under the host's URL
mapping, so the page and its API are one origin. Routes (JSON unless said otherwise):

- ``POST /api/token`` ``{"code"}`` → ``{"access_token"}``: the SDK's ``authorize`` code, exchanged
  here with the client secret (the page never sees the secret); the page then gives the token to the
  SDK's ``authenticate`` and to every call below as ``Authorization: Bearer …``.
- ``GET /api/games?instance_id=…`` → the running games and lobbies of the instance's channel.
- ``GET /api/games/{id}?instance_id=…`` → the game as the asker's seat sees it.
- ``GET /api/games/{id}/picture?instance_id=…&which=board|mine`` → the PNG the chat's card shows (the
  table), or the asker's own (their seat's private picture).
- ``GET /api/games/{id}/hits?instance_id=…&which=board|mine`` → where the picture's touchable regions
  are drawn: ``{"width", "height", "regions": {region id: polygon}}``, in the picture's pixels.
- ``POST /api/games/{id}/touch`` ``{"instance_id", "version", "selected": [region ids]}`` → ``{"targets":
  [region ids to highlight], "moves": [{"regions", "action"}]}``: the engine's legal moves that the
  touches so far begin (``targets``) or choose completely (``moves``).
- ``POST /api/games/{id}/preview`` ``{"instance_id", "version", "action"}`` → ``{"picture": data URL,
  "text"}``: the asker's picture with the move made (what their seat may know) and the change in words.
- ``POST /api/games/{id}/move`` ``{"instance_id", "version", "action"}`` → the game after the move.
- ``GET /api/socket`` (WebSocket): the page's first frame is ``{"token", "instance_id"}`` (a browser
  cannot set a header on a socket, and a token in the address would be logged); then the server sends
  ``{"game", "version"}`` whenever a game of the instance's channel changes (bot/activity/live.py).

A refusal is ``{"error": key, "message": text}`` in the asker's language, with its HTTP status. Every
answer carries a strict Content-Security-Policy and no caching of private views.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from bot import i18n
from bot.activity.identity import ActivityError, DiscordIdentity, User
from bot.activity.live import Hub
from bot.activity.service import Board
from engines.base import RuleError

log = logging.getLogger(__name__)

#: the built page (activity/dist); absent until the page is built
PAGE_DIR = Path(__file__).resolve().parents[2] / "activity" / "dist"
#: requests a user may make in ``RATE_WINDOW`` seconds: a move by touch costs about eight (the touches, the
#: preview, the move, then the new version's game, pictures, hit map and targets); a fast player makes one a second
RATE_LIMIT, RATE_WINDOW = 150, 10.0
#: code exchanges a remote address may ask in ``RATE_WINDOW`` (before anyone is known)
TOKEN_LIMIT = 10
MAX_BODY = 16 * 1024
#: open sockets: per user (a few devices), per process (issue budget: 500 pages on one process, with room)
SOCKETS_PER_USER, SOCKETS = 5, 2000
#: seconds a socket has to say who it is; seconds between two checks that its user is still in the instance
HELLO_WAIT, RECHECK = 10.0, 60.0

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    # Discord's clients frame the page (web, desktop; the phones' webviews too); 'self' is the page's own
    # origin behind Discord's proxy (<application>.discordsays.com), where the fake's client also frames it
    "frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com https://*.discordapp.com",
])
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}


class _Window:
    """At most ``limit`` hits per key in a sliding ``window`` (bounded)."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.limit, self.window, self._clock = limit, window, clock
        self._hits: dict[Any, list[float]] = {}

    def take(self, key: Any) -> float:
        """0 if allowed, else the seconds to wait."""
        now = self._clock()
        hits = [t for t in self._hits.get(key, ()) if t > now - self.window]
        if len(hits) >= self.limit:
            self._hits[key] = hits
            return hits[0] + self.window - now
        hits.append(now)
        self._hits[key] = hits
        if len(self._hits) > 10000:
            self._hits = {k: v for k, v in self._hits.items() if v and v[-1] > now - self.window}
        return 0.0


def _lang(request: web.Request, user: User | None = None) -> str:
    if user is not None:
        return user.lang
    return i18n.lang_of((request.headers.get("Accept-Language") or "fr")[:2])


def _refusal(request: web.Request, err: ActivityError | RuleError, user: User | None = None) -> web.Response:
    lang = _lang(request, user)
    if isinstance(err, ActivityError):
        status, key, text = err.status, err.key, err.message(lang)
    else:  # the session service's or the engine's own refusal: the move was not made
        status, key, text = 409, err.key, i18n.t(err.key, lang, **err.params)
    resp = web.json_response({"error": key, "message": text}, status=status, headers=HEADERS)
    if key == "activity.error.too_many":
        resp.headers["Retry-After"] = str(err.params.get("seconds", 1))
    return resp


GAMES = ("ludime", "ludix", "ranta", "limit", "tectonic", "armada", "lutinades")


def page_texts(lang: str) -> dict[str, str]:
    """The page's catalog (``activity.page.*``), each variable left as ``{name}`` for the page to fill,
    and every game's name (``page-kind-<game>``)."""
    out = {}
    for key in sorted(k for k in i18n.keys(lang) if k.startswith("activity.page.")):
        names = i18n.variables(key, lang)
        out["page-" + key.removeprefix("activity.page.")] = i18n.t(key, lang, **{n: "{" + n + "}" for n in names})
    for kind in GAMES:
        out[f"page-kind-{kind}"] = i18n.t(f"{kind}.name.title", lang)
    return out


class ActivityServer:
    """The aiohttp application and its site."""

    def __init__(self, board: Board, identity: DiscordIdentity, *, clock: Callable[[], float] = time.monotonic,
                 page_dir: Path = PAGE_DIR, hub: Hub | None = None) -> None:
        self.board, self.identity = board, identity
        self.hub = hub or Hub()
        #: PostgreSQL's notifications of the other processes' commits (bot.activity.start_server)
        self.listener: Any = None
        self._sockets: dict[int, int] = {}
        self.page_dir = page_dir
        self._per_user = _Window(RATE_LIMIT, RATE_WINDOW, clock)
        self._per_address = _Window(TOKEN_LIMIT, RATE_WINDOW, clock)
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_get("/api/config", self.h_config)
        app.router.add_post("/api/token", self._guard(self.h_token, auth=False))
        app.router.add_get("/api/games", self._guard(self.h_games))
        app.router.add_get("/api/games/{game_id}", self._guard(self.h_game))
        app.router.add_post("/api/games/{game_id}/move", self._guard(self.h_move))
        app.router.add_get("/api/games/{game_id}/picture", self._guard(self.h_picture))
        app.router.add_get("/api/games/{game_id}/hits", self._guard(self.h_hits))
        app.router.add_post("/api/games/{game_id}/touch", self._guard(self.h_touch))
        app.router.add_post("/api/games/{game_id}/preview", self._guard(self.h_preview))
        app.router.add_get("/api/socket", self.h_socket)
        app.router.add_get("/", self.h_page)
        app.router.add_get("/{name:[A-Za-z0-9_.-]+}", self.h_page)
        app.router.add_get("/assets/{name:[A-Za-z0-9_.-]+}", self.h_asset)
        return app

    async def start(self, host: str, port: int) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        sockets = getattr(site._server, "sockets", None) or []  # the port chosen when 0 was asked
        self.port = sockets[0].getsockname()[1] if sockets else port
        log.info("activity endpoints on http://%s:%s", host, self.port)

    async def stop(self) -> None:
        if self.listener is not None:
            await self.listener.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.identity.close()

    # --- plumbing ------------------------------------------------------------------------------
    def _guard(self, handler: Callable[..., Awaitable[Any]], *, auth: bool = True):
        async def wrapped(request: web.Request) -> web.Response:
            user: User | None = None
            try:
                if auth:
                    header = request.headers.get("Authorization") or ""
                    if not header.startswith("Bearer ") or len(header) > 512:
                        raise ActivityError(401, "activity.error.no_token")
                    user = await self.identity.user(header[len("Bearer "):].strip())
                    wait = self._per_user.take(user.id)
                    if wait:
                        raise ActivityError(429, "activity.error.too_many", seconds=max(1, round(wait)))
                    result = await handler(request, user)
                else:
                    wait = self._per_address.take(request.remote)
                    if wait:
                        raise ActivityError(429, "activity.error.too_many", seconds=max(1, round(wait)))
                    result = await handler(request)
            except (ActivityError, RuleError) as err:
                return _refusal(request, err, user)
            except Exception:
                log.exception("activity request failed: %s %s", request.method, request.path)
                return _refusal(request, ActivityError(500, "activity.error.internal"), user)
            if isinstance(result, web.StreamResponse):
                return result
            return web.json_response(result, headers=HEADERS)
        return wrapped

    @staticmethod
    async def _body(request: web.Request) -> dict[str, Any]:
        try:
            body = json.loads(await request.read() or b"{}")
        except (ValueError, UnicodeDecodeError):
            raise ActivityError(400, "activity.error.bad_request", field="JSON") from None
        if not isinstance(body, dict):
            raise ActivityError(400, "activity.error.bad_request", field="JSON")
        return body

    @staticmethod
    def _game_id(request: web.Request) -> int:
        raw = request.match_info["game_id"]
        if not raw.isdigit() or len(raw) > 18:
            raise ActivityError(400, "activity.error.bad_request", field="game")
        return int(raw)

    async def _instance(self, value: Any, user: User):
        if not isinstance(value, str):
            raise ActivityError(400, "activity.error.bad_request", field="instance_id")
        return await self.identity.instance(value, member=user.id)

    # --- the API -------------------------------------------------------------------------------
    async def h_config(self, request: web.Request) -> web.Response:
        """What the page needs before anyone is known: the application's id (the SDK's client id) and its
        words in ``?lang=`` (else the browser's language), with ``{name}`` where a value goes."""
        lang = request.query.get("lang")
        lang = lang if lang in i18n.LANGS else _lang(request)
        return web.json_response({"client_id": str(self.identity.app_id), "lang": lang, "texts": page_texts(lang)},
                                 headers=HEADERS)


    async def h_token(self, request: web.Request) -> dict[str, Any]:
        code = (await self._body(request)).get("code")
        if not isinstance(code, str) or not 0 < len(code) <= 256:
            raise ActivityError(400, "activity.error.bad_request", field="code")
        return {"access_token": await self.identity.exchange(code)}

    async def h_games(self, request: web.Request, user: User) -> dict[str, Any]:
        instance = await self._instance(request.query.get("instance_id"), user)
        return {"user": {"id": str(user.id), "lang": user.lang}, **await self.board.games(user, instance)}

    async def h_game(self, request: web.Request, user: User) -> dict[str, Any]:
        instance = await self._instance(request.query.get("instance_id"), user)
        return await self.board.game(user, instance, self._game_id(request))

    async def h_picture(self, request: web.Request, user: User) -> web.Response:
        """``?instance_id=…&which=board|mine&v=<version>``: a PNG (its address changes with the version, so
        it may be kept; a private one only by its user's browser)."""
        instance = await self._instance(request.query.get("instance_id"), user)
        image = await self.board.picture(user, instance, self._game_id(request), request.query.get("which", "board"),
                                         user.lang)
        headers = dict(HEADERS, **{"Cache-Control": "private, max-age=3600"})
        return web.Response(body=image, content_type="image/png", headers=headers)

    async def h_hits(self, request: web.Request, user: User) -> dict[str, Any]:
        instance = await self._instance(request.query.get("instance_id"), user)
        return await self.board.hits(user, instance, self._game_id(request), request.query.get("which", "board"),
                                     user.lang)

    async def h_touch(self, request: web.Request, user: User) -> dict[str, Any]:
        body = await self._body(request)
        instance = await self._instance(body.get("instance_id"), user)
        return await self.board.touch(user, instance, self._game_id(request), body.get("version"),
                                      body.get("selected", []), user.lang)

    async def h_preview(self, request: web.Request, user: User) -> dict[str, Any]:
        body = await self._body(request)
        instance = await self._instance(body.get("instance_id"), user)
        return await self.board.preview(user, instance, self._game_id(request), body.get("version"),
                                        body.get("action"), user.lang)

    async def h_move(self, request: web.Request, user: User) -> dict[str, Any]:
        body = await self._body(request)
        instance = await self._instance(body.get("instance_id"), user)
        return await self.board.move(user, instance, self._game_id(request), body.get("version"),
                                     body.get("action"))

    async def h_socket(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=4096)
        await ws.prepare(request)
        user: User | None = None
        try:
            try:
                hello = await ws.receive_json(timeout=HELLO_WAIT)
            except (TimeoutError, ValueError, TypeError):
                raise ActivityError(401, "activity.error.no_token") from None
            if not isinstance(hello, dict) or not isinstance(hello.get("token"), str):
                raise ActivityError(401, "activity.error.no_token")
            user = await self.identity.user(hello["token"])
            instance = await self._instance(hello.get("instance_id"), user)
            if user.id not in instance.users:
                raise ActivityError(403, "activity.error.not_in_instance")
            if self._sockets.get(user.id, 0) >= SOCKETS_PER_USER or sum(self._sockets.values()) >= SOCKETS:
                raise ActivityError(429, "activity.error.too_many", seconds=int(RECHECK))
        except ActivityError as err:
            await ws.send_json({"error": err.key, "message": err.message(_lang(request, user))})
            await ws.close(code=4000 + err.status)
            return ws
        self._sockets[user.id] = self._sockets.get(user.id, 0) + 1
        queue = self.hub.subscribe(instance.channel_id)
        try:
            await ws.send_json({"hello": {"channel": str(instance.channel_id)}})
            await self._pump(ws, queue, user, instance.id)
        finally:
            self.hub.unsubscribe(instance.channel_id, queue)
            self._sockets[user.id] -= 1
            if not self._sockets[user.id]:
                del self._sockets[user.id]
        return ws

    async def _pump(self, ws: web.WebSocketResponse, queue: asyncio.Queue, user: User, instance_id: str) -> None:
        """Frames out until the page goes; its user's place in the instance checked every ``RECHECK`` s."""
        reader = asyncio.ensure_future(ws.receive())  # the page says nothing more: this sees it close
        loop = asyncio.get_running_loop()
        next_check = loop.time() + RECHECK
        try:
            while not ws.closed:
                getter = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({getter, reader}, timeout=max(0.0, next_check - loop.time()),
                                             return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    await ws.send_json(getter.result())
                else:
                    getter.cancel()
                if reader in done:
                    if reader.result().type in (web.WSMsgType.CLOSE, web.WSMsgType.CLOSING, web.WSMsgType.CLOSED,
                                                web.WSMsgType.ERROR):
                        return
                    reader = asyncio.ensure_future(ws.receive())
                if loop.time() >= next_check:
                    next_check = loop.time() + RECHECK
                    try:
                        inst = await self.identity.instance(instance_id, member=user.id)
                    except ActivityError:
                        inst = None
                    if inst is None or user.id not in inst.users:
                        await ws.close(code=4403)
                        return
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader

    # --- the page ------------------------------------------------------------------------------
    async def h_page(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info.get("name", "index.html")
        return self._file(self.page_dir / name)

    async def h_asset(self, request: web.Request) -> web.StreamResponse:
        return self._file(self.page_dir / "assets" / request.match_info["name"])

    def _file(self, path: Path) -> web.StreamResponse:
        if not path.is_file():
            return web.Response(status=404, text=i18n.t("activity.error.no_page", i18n.DEFAULT), headers=HEADERS)
        headers = dict(HEADERS)
        if path.parent.name == "assets":  # hashed names: cached for good
            headers["Cache-Control"] = "public, max-age=31536000, immutable"
        return web.FileResponse(path, headers=headers)
