"""Settings, from the environment or a ``.env`` file (never logged in full)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_API_BASE = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"


@dataclass(frozen=True)
class Settings:
    token: str | None
    db_path: str
    dev_guild: int | None
    log_level: str
    api_base: str
    gateway_url: str
    state_dir: str

    @property
    def uses_real_discord(self) -> bool:
        return self.api_base == DEFAULT_API_BASE

    def redacted(self) -> dict[str, object]:
        """What may be logged: everything but the token."""
        from bot.dbtools import redact_url

        return {"db_path": redact_url(self.db_path), "dev_guild": self.dev_guild, "log_level": self.log_level,
                "api_base": self.api_base, "gateway_url": self.gateway_url,
                "token": "set" if self.token else "missing"}


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
    return Settings(
        token=token,
        db_path=(env.get("LUDIBOT_DB") or "ludibot.db").strip(),
        dev_guild=dev_guild,
        log_level=level,
        api_base=(env.get("DISCORD_API_BASE") or DEFAULT_API_BASE).strip().rstrip("/"),
        gateway_url=(env.get("DISCORD_GATEWAY_URL") or DEFAULT_GATEWAY_URL).strip(),
        state_dir=(env.get("LUDIBOT_STATE_DIR") or ".").strip(),
    )
