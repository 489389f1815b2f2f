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


@pytest.mark.parametrize("raw,count,ids", [("0,1", "2", (0, 1)), ("0-3", "4", (0, 1, 2, 3)),
                                           (" 3 , 0-1 ", "8", (0, 1, 3)), ("1", "2", (1,)), ("", "2", None)])
def test_shard_settings(raw, count, ids):
    s = load_settings(env={"LUDIBOT_SHARD_COUNT": count, "LUDIBOT_SHARD_IDS": raw})
    assert s.shard_count == int(count) and s.shard_ids == ids
    assert s.runs_shard_zero == (ids is None or 0 in ids)


def test_shards_default_to_discords_recommendation():
    s = load_settings(env={})
    assert s.shard_count is None and s.shard_ids is None and s.runs_shard_zero
    assert s.metrics_port is None and s.metrics_host == "127.0.0.1"


@pytest.mark.parametrize("env,key,params", [
    ({"LUDIBOT_SHARD_COUNT": "0"}, "config.error.shard_count", {"value": "0"}),
    ({"LUDIBOT_SHARD_COUNT": "deux"}, "config.error.shard_count", {"value": "deux"}),
    ({"LUDIBOT_SHARD_IDS": "0,1"}, "config.error.shard_ids_without_count", {"value": "0,1"}),
    ({"LUDIBOT_SHARD_COUNT": "4", "LUDIBOT_SHARD_IDS": "0;1"}, "config.error.shard_ids", {}),
    ({"LUDIBOT_SHARD_COUNT": "4", "LUDIBOT_SHARD_IDS": "3-1"}, "config.error.shard_ids", {}),
    ({"LUDIBOT_SHARD_COUNT": "4", "LUDIBOT_SHARD_IDS": "-1"}, "config.error.shard_ids", {}),
    ({"LUDIBOT_SHARD_COUNT": "2", "LUDIBOT_SHARD_IDS": "0-2"}, "config.error.shard_ids_range",
     {"shard": 2, "count": 2, "last": 1}),
    ({"LUDIBOT_METRICS_PORT": "http"}, "config.error.metrics_port", {}),
    ({"LUDIBOT_METRICS_PORT": "70000"}, "config.error.metrics_port", {}),
    ({"LUDIBOT_ACTIVITY_PORT": "0"}, "config.error.activity_port", {"value": "0"}),
    ({"LUDIBOT_ACTIVITY_PORT": "https"}, "config.error.activity_port", {}),
])
def test_bad_shard_and_metrics_settings_are_refused_clearly(env, key, params):
    from bot import i18n

    with pytest.raises(ConfigError) as err:
        load_settings(env=env)
    assert err.value.key == key
    assert params.items() <= err.value.params.items()
    for lg in ("fr", "en"):
        assert i18n.has(key, lg)
        text = i18n.t(key, lg, **err.value.params)
        assert "{" not in text and list(env)[-1] in text


def test_a_bad_shard_setting_stops_the_bot_with_a_translated_message(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LUDIBOT_"))}
    env.update({"PYTHONPATH": str(ROOT), "LUDIBOT_LANG": "en", "DISCORD_TOKEN": "x",
                "LUDIBOT_SHARD_COUNT": "2", "LUDIBOT_SHARD_IDS": "5"})
    proc = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "names shard 5, but LUDIBOT_SHARD_COUNT is 2: shards go from 0 to 1." in proc.stderr


def test_the_database_password_is_never_logged():
    s = load_settings(env={"LUDIBOT_DB": "postgresql://ludibot:s3cret@db:5432/ludibot"})
    assert "s3cret" not in repr(s.redacted()) and "postgresql://ludibot:***@db:5432/ludibot" in repr(s.redacted())
    assert load_settings(env={"LUDIBOT_DB": "/var/lib/ludibot/x.db"}).redacted()["db_path"] == "/var/lib/ludibot/x.db"


def test_the_board_is_on_only_with_a_client_secret_and_a_port():
    off = load_settings(env={"DISCORD_TOKEN": "x", "LUDIBOT_ACTIVITY_PORT": "8090"}, dotenv=None)
    assert not off.activities and off.redacted()["activity"] is None
    assert not load_settings(env={"DISCORD_CLIENT_SECRET": "s"}, dotenv=None).activities
    on = load_settings(env={"DISCORD_CLIENT_SECRET": "s3cret", "LUDIBOT_ACTIVITY_PORT": "8090",
                            "LUDIBOT_ACTIVITY_HOST": "0.0.0.0"}, dotenv=None)
    assert on.activities and (on.activity_host, on.activity_port) == ("0.0.0.0", 8090)
    assert "s3cret" not in repr(on.redacted()) + repr(on) and on.redacted()["activity"] == "0.0.0.0:8090"
