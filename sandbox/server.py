"""The sandbox: a fake Discord, the real bot process, and a web page imitating a Discord channel.

The page speaks to this server's small JSON API, which acts on the fake Discord exactly as a
Discord client would (slash commands with options and autocomplete, button clicks, select
choices) on behalf of the virtual player chosen in the page. The bot is the unmodified
``python -m bot``, so every game works here without sandbox-specific code.

The board (an Activity, docs/activity.md) too: the bot serves it on a free port (Activities enabled in
the fake, its client secret given to the bot), the fake's URL mapping points there, and a LAUNCH_ACTIVITY
answer (« 🎲 Jouer sur le plateau ») makes the page open the fake's Discord client page for that player
and channel in a phone-sized overlay, as Discord opens an Activity. That client page and the fake's
proxy are served through this server (``/_fake/…``), so the Activity's origin is the framing page's own:
the board allows only Discord (and its own origin) to frame it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot import i18n
from fakediscord import FakeDiscord, serve_until_signalled
from fakediscord.client_activity import forward

log = logging.getLogger("ludibot.sandbox")

STATIC = Path(__file__).resolve().parent / "static"
ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ("Alice", "Bruno", "Chloé")
#: a virtual player's client language (the page's switch) -> the locale its Discord client sends
LOCALES = {"fr": "fr", "en": "en-US"}
#: the sandbox server's channels, named by whoever made the server: in the console's language. Channel
#: names are server data; Discord shows them as they are to every client, whatever its language.
CHANNELS = {"fr": ("jeux", "tournoi"), "en": ("games", "tournament")}
PAGE_SIZE = 150
PAGE_MAX = 500
FAVICON = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" '
           b'fill="#5865f2"/><circle cx="11" cy="11" r="3" fill="#fff"/><circle cx="21" cy="21" r="3" fill="#fff"/>'
           b'<circle cx="21" cy="11" r="3" fill="#fff"/><circle cx="11" cy="21" r="3" fill="#fff"/></svg>')
OPTION_TYPES = {3: "string", 4: "integer", 5: "boolean", 6: "user", 10: "number"}
#: the board's page (activity/): built into activity/dist when missing and npm is there (as the Makefile)
PAGE = ROOT / "activity"
#: what the proxy to the fake does not forward (hop-by-hop, or recomputed)


def build_page() -> bool:
    """activity/dist, built from its lock file when it is missing and npm is installed: True when the page
    is there. Without Node the sandbox runs as before, without the board."""
    if (PAGE / "dist" / "index.html").exists():
        return True
    if shutil.which("npm") is None:
        log.warning("Node.js and npm are missing: the board's page (activity/) is not built")
        return False
    try:
        if not (PAGE / "node_modules").exists():
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=PAGE, check=True,
                           capture_output=True, timeout=600)
        subprocess.run(["npm", "run", "build", "--silent"], cwd=PAGE, check=True, capture_output=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("the board's page (activity/) could not be built: %s", exc)
    return (PAGE / "dist" / "index.html").exists()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def client_lang(locale: str | None) -> str:
    """The page's language for a Discord locale: English for en-*, else French."""
    return "en" if (locale or "").startswith("en") else "fr"


def localized(obj: dict[str, Any], key: str, locale: str | None) -> str:
    """A command field in the user's language, with Discord's fallbacks (fr-CA → fr, en-* → en-US)."""
    locs = obj.get(f"{key}_localizations") or {}
    if locale:
        for candidate in (locale, locale.split("-")[0], "en-US" if locale.startswith("en") else None):
            if candidate and locs.get(candidate):
                return str(locs[candidate])
    return str(obj.get(key) or "")


def command_catalog(fake: FakeDiscord, locale: str | None = None) -> list[dict[str, Any]]:
    """Every slash command path with its options, as the page's command box needs them. ``path`` and the
    options' ``name`` are the registered names an interaction carries; ``shown``, the options' ``shown``,
    descriptions and choice names are what a Discord client in `locale` shows (and what its user types):
    the localizations the bot registered, with Discord's fallbacks."""
    out: list[dict[str, Any]] = []

    def walk(prefix: str, node: dict[str, Any], shown: str) -> None:
        options = node.get("options") or []
        subs = [o for o in options if o.get("type") in (1, 2)]
        if subs:
            for sub in subs:
                walk(f"{prefix} {sub['name']}", sub, f"{shown} {localized(sub, 'name', locale)}")
            return
        out.append({"path": prefix, "shown": shown, "description": localized(node, "description", locale), "options": [
            {"name": o["name"], "shown": localized(o, "name", locale), "type": OPTION_TYPES.get(o.get("type"), "string"),
             "required": bool(o.get("required")), "description": localized(o, "description", locale),
             "autocomplete": bool(o.get("autocomplete")),
             "choices": [{"name": localized(c, "name", locale), "value": c["value"]} for c in o.get("choices", [])],
             "min": o.get("min_value"), "max": o.get("max_value"),
             "min_length": o.get("min_length"), "max_length": o.get("max_length")}
            for o in options]})

    for cmd in sorted(fake.commands.values(), key=lambda c: c.name):
        if cmd.type == 1:
            walk(cmd.name, cmd.payload, localized(cmd.payload, "name", locale))
    return out


class Sandbox:
    def __init__(self, data_dir: Path, *, port: int = 8080, lang: str = "fr", start_bot: bool = True) -> None:
        self.data_dir = data_dir
        self.port = port
        self.lang = lang
        self.start_bot_process = start_bot
        self.fake = FakeDiscord(guild_name="Ludibot Sandbox", channels=list(CHANNELS.get(lang, CHANNELS["fr"])),
                                state_path=str(data_dir / "fake-discord.json"), settle=0.05, timeout=30)
        self.users = {name: self.fake.add_user(name, locale=LOCALES.get(lang, "fr"), manage_guild=(name == PLAYERS[0]))
                      for name in PLAYERS}
        for user in self.users.values():  # every start: the players' clients speak the console's language
            user.locale = LOCALES.get(lang, "fr")
        self.bot: subprocess.Popen | None = None
        #: the bot's board endpoint (an Activity), when its page is built
        self.activity_port: int | None = None
        self.http: aiohttp.ClientSession | None = None
        self.runner: web.AppRunner | None = None
        self.changes = 0
        #: modals the bot opened and nobody submitted yet: interaction id -> (user id, the opening result)
        self.modals: dict[str, tuple[int, Any]] = {}
        self.fake.listeners.append(self._on_fake_event)

    def _on_fake_event(self, event: str, obj: Any) -> None:
        self.changes += 1

    # --- lifecycle -------------------------------------------------------------------
    async def start(self) -> str:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        await self.fake.start()
        if self.start_bot_process:
            await self._seed_server_language()
            if await asyncio.to_thread(build_page):
                self.activity_port = free_port()
                self.fake.map_activity(f"http://127.0.0.1:{self.activity_port}")
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
            web.post("/api/modal", self.api_modal),
            web.post("/api/locale", self.api_locale),
            web.get("/emoji/{emoji_id}", self.emoji),
            web.get("/attachment/{message}/{revision}/{index}", self.attachment),
            web.get("/attachment/{tail:.*}", self.bad_attachment),
            web.get("/favicon.ico", self.favicon),
            web.route("*", "/_fake/{tail:.*}", self.fake_client),
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

    async def _seed_server_language(self) -> None:
        """A new sandbox server speaks the console's language, as if its admin had run ``/ludibot config
        langue:`` first (a server that never chose speaks French): written before the bot's first start."""
        db = self.data_dir / "sandbox.db"
        if db.exists() or self.lang == i18n.DEFAULT:
            return
        from bot.language import SETTING
        from bot.storage import open_store

        store = open_store(str(db))
        await store.open()
        try:
            settings = dict(await store.guild_settings(self.fake.guild_id))
            settings[SETTING] = self.lang
            await store.set_guild_settings(self.fake.guild_id, settings)
        finally:
            await store.close()

    def _spawn_bot(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LUDIBOT_DEV"))}
        env.update(self.fake.bot_env)
        env.update({"LUDIBOT_DB": str(self.data_dir / "sandbox.db"), "LUDIBOT_DEV_GUILD": str(self.fake.guild_id),
                    "PYTHONPATH": str(ROOT), "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO")})
        if self.activity_port is not None:  # Activities on: the board, served to the fake's proxy
            env.update({"DISCORD_CLIENT_SECRET": self.fake.enable_activities(),
                        "LUDIBOT_ACTIVITY_PORT": str(self.activity_port), "LUDIBOT_ACTIVITY_HOST": "127.0.0.1"})
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
        if self.http is not None:
            await self.http.close()
        await self.fake.stop()

    # --- helpers ---------------------------------------------------------------------
    def _user(self, raw: Any):
        try:
            uid = int(raw)
        except (TypeError, ValueError):
            raise web.HTTPBadRequest(text="unknown user") from None
        user = self.fake.users.get(uid)
        if user is None or user.bot:
            raise web.HTTPBadRequest(text="unknown user")
        return user

    def _message_json(self, msg) -> dict[str, Any]:
        # one address per revision: an edited picture gets a new URL, so no cache shows the old one
        rev = len(msg.revisions)

        def url(i: int) -> str:
            return f"/attachment/{msg.id}/{rev}/{i}"

        # a Components V2 card shows only the attachments its galleries, thumbnails and files name
        # ("Attachments won't show by default"); a legacy message shows them all
        v2 = msg.is_v2
        media = {str(a.id): url(i) for i, a in enumerate(msg.attachments)}
        shown = msg.attachments if not v2 else []
        # what Discord draws inline: pictures, animated WebP and GIF included (by their content type)
        pictures = {i for i, a in enumerate(msg.attachments) if a in shown
                    and str(a.payload().get("content_type") or "").startswith("image/")}
        return {
            "id": str(msg.id),
            "channel": str(msg.channel_id),
            "author": msg.author.get("global_name") or msg.author.get("username", "?"),
            "bot": bool(msg.author.get("bot")),
            "v2": v2,
            "content": "" if v2 else (msg.content or ""),
            "embeds": msg.embeds,
            "components": msg.components,
            "media": media,
            "attachments": [url(i) for i in sorted(pictures)],
            "files": [{"name": a.filename, "url": url(i)} for i, a in enumerate(msg.attachments)
                      if a in shown and i not in pictures],
            "ephemeral": msg.visible_to is not None,
            "revision": rev,
            "timestamp": msg.timestamp,
        }

    def _channels_json(self) -> dict[str, Any]:
        """The text channels, their threads (newest first, archived ones too: a finished game's thread
        can still be read), and every name a mention may need."""
        threads = sorted((c for c in self.fake.channels.values() if c.is_thread and c.guild_id == self.fake.guild_id),
                         key=lambda c: -c.id)
        return {
            "channels": [{"id": str(c.id), "name": c.name} for c in self.fake.channels.values()
                         if not c.is_dm and not c.is_thread and c.guild_id == self.fake.guild_id],
            "threads": [{"id": str(t.id), "name": t.name, "parent": str(t.parent_id), "archived": t.archived}
                        for t in threads],
            "channel_names": {str(c.id): c.name for c in self.fake.channels.values() if not c.is_dm},
            "emojis": {str(e.id): e.name for e in self.fake.app_emojis.values()},
        }

    def _answer(self, res: Any, user: Any) -> web.Response:
        """What the page needs after an interaction: a modal to open, if the bot answered with one."""
        out: dict[str, Any] = {"ok": True, "late": bool(getattr(res, "deadline_missed", False))}
        if res is not None and res.modal is not None:
            key = str(res.record.id)
            self.modals[key] = (user.id, res)
            while len(self.modals) > 50:  # a page that never submits leaves at most this many
                self.modals.pop(next(iter(self.modals)))
            out["modal"] = dict(res.modal, id=key)
        if res is not None and res.response_type == 12 and res.activity_instance_id:  # LAUNCH_ACTIVITY
            out["activity"] = {"url": f"/_fake/client/activity?user={user.id}&channel={res.channel.id}&platform=mobile"}
        return web.json_response(out)

    async def _body(self, request: web.Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise web.HTTPBadRequest(text="JSON body expected") from None
        if not isinstance(body, dict):
            raise web.HTTPBadRequest(text="a JSON object is expected")
        return body

    @staticmethod
    def _error(exc: Exception) -> web.Response:
        return web.json_response({"ok": False, "error": str(exc)}, status=200)

    # --- routes ----------------------------------------------------------------------
    async def index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def favicon(self, request: web.Request) -> web.Response:
        return web.Response(body=FAVICON, content_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    async def api_init(self, request: web.Request) -> web.Response:
        """The page's data as the chosen player's Discord client shows it: its words (Discord's own, such as
        « Visible par vous seulement ») and the commands in that player's client language."""
        user = self.fake.users.get(int(request.query["user"])) if request.query.get("user", "").isdigit() else None
        if user is None or user.bot:
            user = next(iter(self.users.values()))
        lang = client_lang(user.locale)
        labels = {k.split(".", 1)[1]: i18n.t(k, lang) for k in i18n.keys(lang) if k.startswith("sandbox.")}
        return web.json_response({
            "users": [{"id": str(u.id), "name": u.name, "locale": u.locale, "lang": client_lang(u.locale)}
                      for u in self.users.values()],
            "user": str(user.id),
            **self._channels_json(),
            "names": {"users": {str(u.id): u.name for u in self.fake.users.values()},
                      "channels": {str(c.id): c.name for c in self.fake.channels.values() if not c.is_dm}},
            "commands": command_catalog(self.fake, user.locale),
            "connected": bool(self.fake.connected),
            "labels": labels,
        })

    async def api_locale(self, request: web.Request) -> web.Response:
        """The page's language switch: {user, lang: "fr" | "en"} sets that player's client language, the
        locale its next interactions carry (the bot answers each player privately in it)."""
        body = await self._body(request)
        user = self._user(body.get("user"))
        locale = LOCALES.get(str(body.get("lang")))
        if locale is None:
            raise web.HTTPBadRequest(text=f"lang is one of {sorted(LOCALES)}")
        user.locale = locale
        return web.json_response({"ok": True, "locale": locale})

    async def api_messages(self, request: web.Request) -> web.Response:
        """The newest `limit` messages the user sees in the channel, or those older than `before` (paging)."""
        user = self._user(request.query.get("user"))
        try:
            channel = int(request.query.get("channel", "0"))
            before = int(request.query["before"]) if request.query.get("before") else None
            limit = max(1, min(PAGE_MAX, int(request.query.get("limit", PAGE_SIZE))))
        except ValueError:
            raise web.HTTPBadRequest(text="channel, before and limit are numbers") from None
        msgs = [m for m in self.fake.visible_to(user)
                if m.channel_id == channel and not m.deleted and (before is None or m.id < before)]
        page = msgs[-limit:]
        return web.json_response({"changes": self.changes, "connected": bool(self.fake.connected),
                                  "messages": [self._message_json(m) for m in page],
                                  "has_more": len(msgs) > len(page), **self._channels_json()})

    async def api_command(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user = self._user(body.get("user"))
        try:
            channel = int(body.get("channel", 0))
            raw = body.get("options") or {}
            if not isinstance(raw, dict):
                raise TypeError("options must be an object")
        except (TypeError, ValueError) as exc:
            raise web.HTTPBadRequest(text=f"malformed command request: {exc}") from None
        options = {k: v for k, v in raw.items() if v not in (None, "")}
        try:
            res = await self.fake.run_command(user, channel, str(body.get("path", "")), options,
                                              check_deadline=False)
        except (ValueError, TypeError, LookupError, PermissionError, RuntimeError) as exc:
            return self._error(exc)
        return self._answer(res, user)

    async def api_click(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user = self._user(body.get("user"))
        try:
            msg = self.fake.message_by_id[int(body["message"])]
            res = await self.fake.click(user, msg, custom_id=str(body["custom_id"]), check_deadline=False)
        except (KeyError, ValueError, LookupError, PermissionError, RuntimeError) as exc:
            return self._error(exc)
        return self._answer(res, user)

    async def api_select(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user = self._user(body.get("user"))
        try:
            msg = self.fake.message_by_id[int(body["message"])]
            values = body.get("values") or []
            if not isinstance(values, list):
                raise ValueError("values must be a list")
            res = await self.fake.select(user, msg, values, custom_id=str(body["custom_id"]),
                                         check_deadline=False)
        except (KeyError, ValueError, LookupError, PermissionError, RuntimeError) as exc:
            return self._error(exc)
        return self._answer(res, user)

    async def api_modal(self, request: web.Request) -> web.Response:
        """The user submits a modal the bot opened for them: {user, modal, values: {custom_id: value}}."""
        body = await self._body(request)
        user = self._user(body.get("user"))
        values = body.get("values")
        if not isinstance(values, dict):
            raise web.HTTPBadRequest(text="values must be an object")
        opened = self.modals.get(str(body.get("modal")))
        if opened is None or opened[0] != user.id:
            return self._error(LookupError(i18n.t("sandbox.modal_gone", client_lang(user.locale))))
        try:
            res = await self.fake.submit_modal(user, opened[1], values, check_deadline=False)
        except (KeyError, ValueError, TypeError, LookupError, PermissionError, RuntimeError) as exc:
            return self._error(exc)
        self.modals.pop(str(body.get("modal")), None)
        return self._answer(res, user)

    async def fake_client(self, request: web.Request) -> web.StreamResponse:
        """``/_fake/…``: the fake's Discord client page for an Activity and its proxy to the board, through
        this origin (HTTP and the board's socket)."""
        url = self.fake.base_url + request.path_qs
        if self.http is None or self.http.closed:
            self.http = aiohttp.ClientSession(auto_decompress=False)
        return await forward(self.http, request, url)

    async def emoji(self, request: web.Request) -> web.Response:
        """/emoji/{id}: an application emoji's image (what Discord's CDN serves)."""
        try:
            e = self.fake.app_emojis.get(int(request.match_info["emoji_id"].split(".")[0]))
        except ValueError:
            raise web.HTTPBadRequest(text="emoji ids are numbers") from None
        if e is None:
            raise web.HTTPNotFound()
        return web.Response(body=e.data, content_type=e.content_type, headers={"Cache-Control": "max-age=86400"})

    async def api_autocomplete(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user = self._user(body.get("user"))
        try:
            channel = int(body.get("channel", 0))
            options = body.get("options") or {}
            if not isinstance(options, dict) or "focused" not in body:
                raise ValueError("options must be an object and focused is required")
            self.fake.channel(channel)
        except (KeyError, ValueError, TypeError) as exc:
            raise web.HTTPBadRequest(text=f"malformed autocomplete request: {exc}") from None
        try:
            choices = await self.fake.autocomplete(user, channel, str(body.get("path", "")), dict(options),
                                                   focused=str(body["focused"]))
        except (KeyError, ValueError, TypeError, LookupError, PermissionError, RuntimeError) as exc:
            return self._error(exc)
        return web.json_response({"ok": True, "choices": [{"name": c["name"], "value": c["value"]}
                                                          for c in choices]})

    async def bad_attachment(self, request: web.Request) -> web.Response:
        raise web.HTTPBadRequest(text="attachment addresses are /attachment/{message}/{revision}/{index}")

    async def attachment(self, request: web.Request) -> web.Response:
        """/attachment/{message}/{revision}/{index}: the file of that revision of the message (immutable)."""
        try:
            mid = int(request.match_info["message"])
            rev = int(request.match_info["revision"])
            index = int(request.match_info["index"])
        except ValueError:
            raise web.HTTPBadRequest(text="malformed attachment address") from None
        msg = self.fake.message_by_id.get(mid)
        if msg is None or not 0 <= rev <= len(msg.revisions):
            raise web.HTTPNotFound()
        atts = msg.attachments if rev == len(msg.revisions) else msg.revisions[rev].attachments
        if not 0 <= index < len(atts):
            raise web.HTTPNotFound()
        att = atts[index]
        return web.Response(body=att.data, content_type=str(att.payload().get("content_type") or "image/png"),
                            headers={"Cache-Control": "public, max-age=31536000, immutable"})


async def serve(data_dir: Path, port: int, lang: str) -> None:
    sandbox = Sandbox(data_dir, port=port, lang=lang)
    url = await sandbox.start()
    print(i18n.t("sandbox.console.ready", lang, url=url), flush=True)
    await serve_until_signalled(sandbox.stop)
