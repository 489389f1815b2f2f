"""Settings, the no-token help, and logs that never show a secret."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import DEFAULT_API_BASE, ConfigError, load_settings
from bot.logs import JsonFormatter

ROOT = Path(__file__).resolve().parent.parent


def test_defaults_and_overrides():
    s = load_settings(env={})
    assert s.token is None and s.api_base == DEFAULT_API_BASE and s.dev_guild is None and s.log_level == "INFO"
    s = load_settings(env={"DISCORD_TOKEN": " abc ", "LUDIBOT_DEV_GUILD": "123", "LOG_LEVEL": "debug",
                           "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/", "LUDIBOT_DB": "/tmp/x.db"})
    assert (s.token, s.dev_guild, s.log_level, s.api_base, s.db_path) == (
        "abc", 123, "DEBUG", "http://127.0.0.1:9/api/v10", "/tmp/x.db")
    assert "abc" not in repr(s.redacted())


@pytest.mark.parametrize("env,key", [({"LUDIBOT_DEV_GUILD": "mon-serveur"}, "config.error.dev_guild"),
                                     ({"LOG_LEVEL": "LOUD"}, "config.error.log_level")])
def test_bad_settings_are_refused_clearly(env, key):
    with pytest.raises(ConfigError) as err:
        load_settings(env=env)
    assert err.value.key == key


@pytest.mark.parametrize("lang,needle", [("fr_FR.UTF-8", "Onglet « Bot »"), ("en_US.UTF-8", "“Bot” tab")])
def test_running_without_a_token_explains_how_to_get_one(tmp_path, lang, needle):
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "LUDIBOT_LANG", "LC_ALL",
                                                              "LC_MESSAGES")}
    env["LANG"] = lang
    proc = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out
    assert needle in out and "discord.com/developers/applications" in out
    assert "scope=bot+applications.commands&permissions=" in out


def test_logs_never_show_the_token():
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
    fmt = JsonFormatter(secrets=("s3cr3t-value",))
    rec = logging.LogRecord("x", logging.INFO, __file__, 1, "token %s and %s", (token, "s3cr3t-value"), None)
    out = fmt.format(rec)
    assert token not in out and "s3cr3t-value" not in out and "[redacted]" in out
