"""Settings, from the environment or a ``.env`` file (never logged in full)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_API_BASE = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"


@dataclass(frozen=True)
class Settings:
    token: str | None = field(repr=False)
    db_path: str
    dev_guild: int | None
    log_level: str
    api_base: str
    gateway_url: str
    state_dir: str
    #: total shards (None = Discord's recommendation from /gateway/bot)
    shard_count: int | None = None
    #: the shards this process runs (None = all of ``shard_count``)
    shard_ids: tuple[int, ...] | None = None
    #: opt-in HTTP port for /metrics and /healthz (None = off)
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    #: application emojis (bot/emojis.py): on unless ``LUDIBOT_APP_EMOJIS`` is 0, off, false or no
    app_emojis: bool = True
    #: the board as an Activity (bot/activity): the application's OAuth2 client secret and the port of
    #: the Activity's endpoints (the host's reverse proxy publishes it under Discord's URL mapping);
    #: off unless both are set
    client_secret: str | None = field(default=None, repr=False)
    activity_port: int | None = None
    activity_host: str = "127.0.0.1"

    @property
    def activities(self) -> bool:
        return bool(self.client_secret) and self.activity_port is not None

    @property
    def uses_real_discord(self) -> bool:
        return self.api_base == DEFAULT_API_BASE

    @property
    def runs_shard_zero(self) -> bool:
        """This process holds shard 0 (syncs the commands, handles DMs and DM games' deadlines)."""
        return self.shard_ids is None or 0 in self.shard_ids

    def redacted(self) -> dict[str, object]:
        """What may be logged: everything but the token (and the database URL's password)."""
        return {"db_path": redact_url(self.db_path), "dev_guild": self.dev_guild, "log_level": self.log_level,
                "api_base": self.api_base, "gateway_url": self.gateway_url,
                "shard_count": self.shard_count, "shard_ids": list(self.shard_ids) if self.shard_ids else None,
                "metrics": f"{self.metrics_host}:{self.metrics_port}" if self.metrics_port else None,
                "activity": f"{self.activity_host}:{self.activity_port}" if self.activities else None,
                "token": "set" if self.token else "missing"}


def redact_url(value: str) -> str:
    """``postgresql://user:secret@host/db`` -> ``postgresql://user:***@host/db`` (a path is unchanged)."""
    return re.sub(r"^([a-z][a-z0-9+.-]*://[^:/@]*):[^@/]*@", r"\1:***@", value)


class ConfigError(ValueError):
    """A setting has a value the bot cannot use (message is a catalog key)."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def load_settings(env: dict[str, str] | None = None, dotenv: str | Path | None = ".env") -> Settings:
    """Read settings from ``env`` (default ``os.environ``), after loading ``dotenv`` if present."""
    if env is None:
        if dotenv and Path(dotenv).exists():
            from dotenv import load_dotenv

            load_dotenv(dotenv, override=False)
        env = dict(os.environ)
    token = (env.get("DISCORD_TOKEN") or "").strip() or None
    guild_raw = (env.get("LUDIBOT_DEV_GUILD") or "").strip()
    dev_guild = None
    if guild_raw:
        if not guild_raw.isdigit():
            raise ConfigError("config.error.dev_guild", value=guild_raw)
        dev_guild = int(guild_raw)
    level = (env.get("LOG_LEVEL") or "INFO").strip().upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError("config.error.log_level", value=level)
    shard_count = _shard_count(env.get("LUDIBOT_SHARD_COUNT"))
    shard_ids = _shard_ids(env.get("LUDIBOT_SHARD_IDS"), shard_count)
    metrics_port = _port(env.get("LUDIBOT_METRICS_PORT"))
    metrics_host = (env.get("LUDIBOT_METRICS_HOST") or "127.0.0.1").strip()
    return Settings(
        token=token,
        db_path=(env.get("LUDIBOT_DB") or "ludibot.db").strip(),
        dev_guild=dev_guild,
        log_level=level,
        api_base=(env.get("DISCORD_API_BASE") or DEFAULT_API_BASE).strip().rstrip("/"),
        gateway_url=(env.get("DISCORD_GATEWAY_URL") or DEFAULT_GATEWAY_URL).strip(),
        state_dir=(env.get("LUDIBOT_STATE_DIR") or ".").strip(),
        shard_count=shard_count,
        shard_ids=shard_ids,
        metrics_port=metrics_port,
        metrics_host=metrics_host,
        app_emojis=(env.get("LUDIBOT_APP_EMOJIS") or "on").strip().lower() not in ("0", "off", "false", "no"),
        client_secret=(env.get("DISCORD_CLIENT_SECRET") or "").strip() or None,
        activity_port=_port(env.get("LUDIBOT_ACTIVITY_PORT"), "config.error.activity_port"),
        activity_host=(env.get("LUDIBOT_ACTIVITY_HOST") or "127.0.0.1").strip(),
    )


def _shard_count(raw: str | None) -> int | None:
    raw = (raw or "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) < 1:
        raise ConfigError("config.error.shard_count", value=raw)
    return int(raw)


def _shard_ids(raw: str | None, count: int | None) -> tuple[int, ...] | None:
    """``0,1`` or ``0-3`` or ``0-1,4`` -> sorted distinct ids, each below ``count`` (which is then required)."""
    raw = (raw or "").strip()
    if not raw:
        return None
    if count is None:
        raise ConfigError("config.error.shard_ids_without_count", value=raw)
    ids: set[int] = set()
    for part in raw.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if not m:
            raise ConfigError("config.error.shard_ids", value=raw)
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if hi < lo:
            raise ConfigError("config.error.shard_ids", value=raw)
        ids.update(range(lo, hi + 1))
    beyond = sorted(i for i in ids if i >= count)
    if beyond:
        raise ConfigError("config.error.shard_ids_range", value=raw, shard=beyond[0], count=count,
                          last=count - 1)
    return tuple(sorted(ids))


def _port(raw: str | None, key: str = "config.error.metrics_port") -> int | None:
    raw = (raw or "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 1 <= int(raw) <= 65535:
        raise ConfigError(key, value=raw)
    return int(raw)
