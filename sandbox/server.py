"""The sandbox: a fake Discord, the real bot process, and a web page imitating a Discord channel.

The page speaks to this server's small JSON API, which acts on the fake Discord exactly as a
Discord client would (slash commands with options and autocomplete, button clicks, select
choices) on behalf of the virtual player chosen in the page. The bot is the unmodified
``python -m bot``, so every game works here without sandbox-specific code.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from aiohttp import web

from bot import i18n
from fakediscord import FakeDiscord

log = logging.getLogger("ludibot.sandbox")

STATIC = Path(__file__).resolve().parent / "static"
ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ("Alice", "Bruno", "Chloé")
MENTION = re.compile(r"<@!?(\d+)>")
OPTION_TYPES = {3: "string", 4: "integer", 5: "boolean", 6: "user", 10: "number"}


def command_catalog(fake: FakeDiscord) -> list[dict[str, Any]]:
    """Every slash command path with its options, as the page's command box needs them."""
    out: list[dict[str, Any]] = []

    def walk(prefix: str, description: str, options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o.get("type") in (1, 2)]
        if subs:
            for sub in subs:
                walk(f"{prefix} {sub['name']}", sub.get("description", ""), sub.get("options", []))
            return
        out.append({"path": prefix, "description": description, "options": [
            {"name": o["name"], "type": OPTION_TYPES.get(o.get("type"), "string"),
             "required": bool(o.get("required")), "description": o.get("description", ""),
             "autocomplete": bool(o.get("autocomplete")),
             "choices": [{"name": c["name"], "value": c["value"]} for c in o.get("choices", [])],
             "min": o.get("min_value"), "max": o.get("max_value")}
            for o in options]})

    for cmd in sorted(fake.commands.values(), key=lambda c: c.name):
        if cmd.type == 1:
            walk(cmd.name, cmd.payload.get("description", ""), cmd.payload.get("options", []))
    return out


class Sandbox:
    def __init__(self, data_dir: Path, *, port: int = 8080, lang: str = "fr", start_bot: bool = True) -> None:
        self.data_dir = data_dir
        self.port = port
        self.lang = lang
        self.start_bot_process = start_bot
        self.fake = FakeDiscord(guild_name="Ludibot Sandbox", channels=["jeux", "tournoi"],
                                state_path=str(data_dir / "fake-discord.json"), settle=0.05, timeout=30)
        self.users = {name: self.fake.add_user(name, locale=lang, manage_guild=(name == PLAYERS[0]))
                      for name in PLAYERS}
        self.bot: subprocess.Popen | None = None
        self.runner: web.AppRunner | None = None
        self.changes = 0
        self.fake.listeners.append(self._on_fake_event)

    def _on_fake_event(self, event: str, obj: Any) -> None:
        self.changes += 1

    # --- lifecycle -------------------------------------------------------------------
    async def start(self) -> str:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        await self.fake.start()
        if self.start_bot_process:
            self._spawn_bot()
        app = web.Application()
        app.add_routes([
            web.get("/", self.index),
            web.get("/api/init", self.api_init),
            web.get("/api/messages", self.api_messages),
            web.post("/api/command", self.api_command),
            web.post("/api/click", self.api_click),
            web.post("/api/select", self.api_select),
            web.post("/api/autocomplete", self.api_autocomplete),
            web.get(r"/attachment/{message}/{index:\d+}", self.attachment),
            web.static("/static", STATIC),
        ])
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", self.port)
        await site.start()
        sockets = site._server.sockets if site._server else []  # noqa: SLF001 - the bound port
        if sockets:
            self.port = sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{self.port}/"

    def _spawn_bot(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LUDIBOT_DEV"))}
        env.update(self.fake.bot_env)
        env.update({"LUDIBOT_DB": str(self.data_dir / "sandbox.db"), "LUDIBOT_DEV_GUILD": str(self.fake.guild_id),
                    "PYTHONPATH": str(ROOT), "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO")})
        logfile = open(self.data_dir / "bot.log", "a")  # noqa: SIM115 - handed to the child
        self.bot = subprocess.Popen([sys.executable, "-m", "bot"], env=env, cwd=str(ROOT), stdout=logfile,
                                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        logfile.close()

    async def wait_ready(self, timeout: float = 60) -> None:
        await self.fake.wait_ready(timeout=timeout)

    async def stop(self) -> None:
        if self.bot and self.bot.poll() is None:
            self.bot.terminate()
            try:
                self.bot.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.bot.kill()
        if self.runner:
            await self.runner.cleanup()
        await self.fake.stop()

    # --- helpers ---------------------------------------------------------------------
    def _user(self, raw: Any):
        uid = int(raw)
        user = self.fake.users.get(uid)
        if user is None or user.bot:
            raise web.HTTPBadRequest(text="unknown user")
        return user

    def _names(self) -> dict[int, str]:
        return {u.id: u.name for u in self.fake.users.values()}

    def _message_json(self, msg, names: dict[int, str]) -> dict[str, Any]:
        def mention(m: re.Match[str]) -> str:
            return "@" + names.get(int(m.group(1)), "?")

        return {
            "id": str(msg.id),
            "channel": str(msg.channel_id),
            "author": msg.author.get("global_name") or msg.author.get("username", "?"),
            "bot": bool(msg.author.get("bot")),
            "content": MENTION.sub(mention, msg.content or ""),
            "embeds": msg.embeds,
            "components": msg.components,
            "attachments": [f"/attachment/{msg.id}/{i}" for i, a in enumerate(msg.attachments)
                            if (a.content_type or "").startswith("image") or a.filename.endswith(".png")],
            "files": [{"name": a.filename, "url": f"/attachment/{msg.id}/{i}"} for i, a in enumerate(msg.attachments)],
            "ephemeral": msg.visible_to is not None,
            "revision": len(msg.revisions),
        }

    async def _body(self, request: web.Request) -> dict[str, Any]:
        try:
            return await request.json()
        except json.JSONDecodeError:
            raise web.HTTPBadRequest(text="JSON body expected") from None

    @staticmethod
    def _error(exc: Exception) -> web.Response:
        return web.json_response({"ok": False, "error": str(exc)}, status=200)

    # --- routes ----------------------------------------------------------------------
    async def index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def api_init(self, request: web.Request) -> web.Response:
        labels = {k.split(".", 1)[1]: i18n.t(k, self.lang) for k in i18n.catalog(self.lang) if k.startswith("sandbox.")}
        return web.json_response({
            "users": [{"id": str(u.id), "name": u.name} for u in self.users.values()],
            "channels": [{"id": str(c.id), "name": c.name} for c in self.fake.channels.values() if not c.is_dm],
            "commands": command_catalog(self.fake),
            "connected": bool(self.fake.connected),
            "labels": labels,
        })

    async def api_messages(self, request: web.Request) -> web.Response:
        user = self._user(request.query.get("user"))
        channel = int(request.query.get("channel", "0"))
        names = self._names()
        msgs = [self._message_json(m, names) for m in self.fake.visible_to(user)
                if m.channel_id == channel and not m.deleted]
        return web.json_response({"changes": self.changes, "connected": bool(self.fake.connected),
                                  "messages": msgs[-150:]})

    async def api_command(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user = self._user(body.get("user"))
        channel = int(body.get("channel", 0))
        options = {k: v for k, v in (body.get("options") or {}).items() if v not in (None, "")}
        try:
            res = await self.fake.run_command(user, channel, str(body.get("path", "")), options,
                                              check_deadline=False)
        except (ValueError, TypeError, LookupError, PermissionError, RuntimeError) as exc:
            return self._error(exc)
        return web.json_response({"ok": True, "late": bool(res.deadline_missed)})

    async def api_click(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user = self._user(body.get("user"))
        try:
            msg = self.fake.message_by_id[int(body["message"])]
            await self.fake.click(user, msg, custom_id=str(body["custom_id"]), check_deadline=False)
        except (KeyError, ValueError, LookupError, PermissionError, RuntimeError) as exc:
            return self._error(exc)
        return web.json_response({"ok": True})

    async def api_select(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user = self._user(body.get("user"))
        try:
            msg = self.fake.message_by_id[int(body["message"])]
            await self.fake.select(user, msg, list(body.get("values") or []), custom_id=str(body["custom_id"]),
                                   check_deadline=False)
        except (KeyError, ValueError, LookupError, PermissionError, RuntimeError) as exc:
            return self._error(exc)
        return web.json_response({"ok": True})

    async def api_autocomplete(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user = self._user(body.get("user"))
        try:
            choices = await self.fake.autocomplete(user, int(body.get("channel", 0)), str(body.get("path", "")),
                                                   dict(body.get("options") or {}), focused=str(body["focused"]))
        except (KeyError, ValueError, TypeError, LookupError, RuntimeError) as exc:
            return self._error(exc)
        return web.json_response({"ok": True, "choices": [{"name": c["name"], "value": c["value"]}
                                                          for c in choices]})

    async def attachment(self, request: web.Request) -> web.Response:
        msg = self.fake.message_by_id.get(int(request.match_info["message"]))
        index = int(request.match_info["index"])
        if msg is None or index >= len(msg.attachments):
            raise web.HTTPNotFound()
        att = msg.attachments[index]
        return web.Response(body=att.data, content_type=att.content_type or "image/png",
                            headers={"Cache-Control": "max-age=3600"})


async def serve(data_dir: Path, port: int, lang: str) -> None:
    sandbox = Sandbox(data_dir, port=port, lang=lang)
    url = await sandbox.start()
    print(i18n.t("sandbox.console.ready", lang, url=url), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await sandbox.stop()
