"""A Discord client opening an Activity, as a page of the fake: its proxy and the client's end of the
Embedded App SDK's protocol.

- **The proxy** (Discord's ``<application>.discordsays.com``): ``/_fake/activity/…`` forwards HTTP and
  WebSocket requests to the application's URL mapping (``fake.map_activity(url)``), as Discord's proxy
  does for the prefix ``/``. The Activity is thus served from the fake's own origin.
- **The client** (``/_fake/client/activity?user=…&channel=…``): a page that launches (or joins) the
  instance of that channel for that user, frames the Activity at phone size with the query Discord gives
  it (``frame_id``, ``instance_id``, ``platform``, ``guild_id``, ``channel_id``, ``location_id``), and
  answers the SDK's messages (``static/activity_host.js``): the HANDSHAKE with READY, and the commands
  AUTHORIZE (an OAuth2 code for that user, after the same checks as Discord's: the client id, known
  scopes) and AUTHENTICATE (the token must be that user's), SUBSCRIBE, UNSUBSCRIBE and CAPTURE_LOG;
  anything else is an ERROR frame (RPC error 4002, invalid command).

The SDK's own code runs unchanged in the framed page: what it sends and expects is taken from its
source (``src/Discord.ts``, ``src/schema``), not guessed.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

import aiohttp
from aiohttp import web

if TYPE_CHECKING:  # pragma: no cover
    from fakediscord.server import FakeDiscordServer

STATIC = Path(__file__).resolve().parent / "static"
HOP = {"connection", "keep-alive", "transfer-encoding", "upgrade", "host", "content-length", "content-encoding"}
#: RPC error codes (embedded-app-sdk src/Constants.ts, RPCErrorCodes)
INVALID_PAYLOAD, INVALID_COMMAND, INVALID_CLIENTID, INVALID_TOKEN = 4000, 4002, 4007, 4009


class ActivityClient:
    def __init__(self, fake: FakeDiscordServer) -> None:
        self.fake = fake
        self.http: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        if self.http is not None:
            await self.http.close()

    def _session(self) -> aiohttp.ClientSession:
        if self.http is None or self.http.closed:
            self.http = aiohttp.ClientSession(auto_decompress=False)
        return self.http

    async def handle(self, request: web.Request) -> web.StreamResponse | None:
        path = request.path
        if path.startswith("/_fake/activity/"):
            return await self.proxy(request, path[len("/_fake/activity/"):])
        if path == "/_fake/client/activity":
            return self.host_page(request)
        if path == "/_fake/client/activity_host.js":
            return web.FileResponse(STATIC / "activity_host.js", headers={"Content-Type": "text/javascript"})
        if path == "/_fake/client/rpc" and request.method == "POST":
            return await self.rpc(request)
        return None

    # --- Discord's proxy -------------------------------------------------------------------------
    async def proxy(self, request: web.Request, tail: str) -> web.StreamResponse:
        target = self.fake.activities.url_mapping
        if not target:
            return web.Response(status=404, text="no URL mapping for this application's Activity")
        url = target.rstrip("/") + "/" + tail + (f"?{request.query_string}" if request.query_string else "")
        return await forward(self._session(), request, url)

    # --- the client --------------------------------------------------------------------------------
    def host_page(self, request: web.Request) -> web.Response:
        fake = self.fake
        try:
            user = fake.users[int(request.query["user"])]
            channel = fake.channel(int(request.query["channel"]))
        except (KeyError, ValueError, LookupError):
            return web.Response(status=400, text="user= and channel= name a user and a channel of the fake")
        guild_id = None if channel.is_dm else channel.guild_id
        if guild_id is not None and guild_id not in user.guild_ids:
            return web.Response(status=403, text="that user is not a member of the channel's server")
        inst = fake.activities.launch(user.id, channel.id, guild_id)
        frame_id = secrets.token_hex(8)
        query = {"frame_id": frame_id, "instance_id": inst.instance_id, "platform": request.query.get("platform",
                 "mobile"), "channel_id": str(channel.id), "location_id": inst.location_id}
        if guild_id is not None:
            query["guild_id"] = str(guild_id)
        src = "/_fake/activity/?" + "&".join(f"{k}={v}" for k, v in query.items())
        config = {"app_id": str(fake.app_id), "frame_id": frame_id, "instance_id": inst.instance_id,
                  "user": {"id": str(user.id), "username": user.username, "discriminator": "0"}}  # no avatar: the SDK wants a string or nothing
        page = f"""<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>Activity — {html.escape(user.name)}</title>
<style>html,body{{margin:0;height:100%;background:#111}}iframe{{border:0;width:100%;height:100%;display:block}}</style>
</head><body>
<iframe id="activity" title="Activity" src="{html.escape(src)}"></iframe>
<script id="client-config" type="application/json">{html.escape(json.dumps(config), quote=False)}</script>
<script src="/_fake/client/activity_host.js"></script>
</body></html>"""
        return web.Response(text=page, content_type="text/html")

    async def rpc(self, request: web.Request) -> web.Response:
        """The commands the client answers with the fake's state: ``{user, cmd, args}`` -> ``{data}`` or
        ``{error: {code, message}}``."""
        fake, acts = self.fake, self.fake.activities
        try:
            body = await request.json()
            user = fake.users[int(body["user"])]
            cmd, args = body["cmd"], body.get("args") or {}
        except (KeyError, ValueError, TypeError):
            return web.json_response({"error": {"code": INVALID_PAYLOAD, "message": "bad payload"}})
        if cmd == "AUTHORIZE":
            if str(args.get("client_id")) != str(fake.app_id):
                return web.json_response({"error": {"code": INVALID_CLIENTID, "message": "Invalid client id"}})
            try:
                code = acts.authorize(user.id, tuple(args.get("scope") or ()))
            except (PermissionError, ValueError) as exc:
                return web.json_response({"error": {"code": INVALID_PAYLOAD, "message": str(exc)}})
            return web.json_response({"data": {"code": code}})
        if cmd == "AUTHENTICATE":
            token = str(args.get("access_token") or "")
            uid = acts.bearer_user("Bearer " + token)
            if uid != user.id:
                return web.json_response({"error": {"code": INVALID_TOKEN, "message": "Invalid token"}})
            grant = acts.grant_of(token)
            return web.json_response({"data": {
                "access_token": token, "user": {"username": user.username, "discriminator": "0", "id": str(user.id),
                                                "avatar": None, "public_flags": 0, "global_name": user.name},
                "scopes": list(grant.scopes), "expires": "2099-01-01T00:00:00.000000+00:00",
                "application": {"description": "", "icon": None, "id": str(fake.app_id), "name": fake.bot_name}}})
        return web.json_response({"error": {"code": INVALID_COMMAND, "message": f"Invalid command: {cmd}"}})


async def forward(http: aiohttp.ClientSession, request: web.Request, url: str) -> web.StreamResponse:
    """``request`` as it is, to ``url`` (``http://…``), and its answer back: HTTP, or a WebSocket whose text
    frames are relayed both ways until either end closes (Discord's proxy; the sandbox's to the fake).
    ``http`` must not decompress (``auto_decompress=False``): the body goes back with its encoding."""
    if request.headers.get("Upgrade", "").lower() == "websocket":
        return await _forward_socket(http, request, url.replace("http", "ws", 1))
    headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP}
    try:
        async with http.request(request.method, url, headers=headers, data=await request.read(),
                                allow_redirects=False) as resp:
            body = await resp.read()
            out = {k: v for k, v in resp.headers.items() if k.lower() not in HOP}
            if resp.headers.get("Content-Encoding"):
                out["Content-Encoding"] = resp.headers["Content-Encoding"]
            return web.Response(status=resp.status, body=body, headers=out)
    except aiohttp.ClientError as exc:
        return web.Response(status=502, text=str(exc))


async def _forward_socket(http: aiohttp.ClientSession, request: web.Request, url: str) -> web.StreamResponse:
    page = web.WebSocketResponse()
    await page.prepare(request)
    try:
        async with http.ws_connect(url) as far:
            async def up() -> None:
                async for msg in page:
                    if msg.type == aiohttp.WSMsgType.TEXT:
                        await far.send_str(msg.data)
                await far.close()

            async def down() -> None:
                async for msg in far:
                    if msg.type == aiohttp.WSMsgType.TEXT:
                        await page.send_str(msg.data)
                await page.close(code=far.close_code or 1000)

            tasks = [asyncio.ensure_future(up()), asyncio.ensure_future(down())]
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
    except aiohttp.ClientError:
        await page.close(code=1011)
    return page
