"""The deploy kit, as far as it can be checked without a Docker engine: the compose file parses and
sets only variables the bot reads (and the bot accepts their values), the image runs the README's
command as a non-root user with a health check, and that health check tells 200 from 503."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from aiohttp import web

from bot.config import load_settings

ROOT = Path(__file__).resolve().parent.parent
ENV_NAME = re.compile(r"""["']((?:DISCORD|LUDIBOT)_[A-Z_]+|LOG_LEVEL)["']""")


def variables_the_bot_reads() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "bot").rglob("*.py"):
        names |= set(ENV_NAME.findall(path.read_text()))
    return names


def interpolate(value: str, given: dict[str, str]) -> str:
    """Compose's ``${VAR}``, ``${VAR:-default}`` and ``${VAR:?error}``."""
    def one(m: re.Match) -> str:
        name, op, arg = m.group(1), m.group(2), m.group(3)
        if given.get(name):
            return given[name]
        if op == ":?":
            raise KeyError(f"{name}: {arg}")
        return arg or ""
    return re.sub(r"\$\{([A-Z_]+)(?:(:-|:\?)([^}]*))?\}", one, str(value))


def dockerfile() -> list[tuple[str, str]]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def test_the_bot_reads_the_new_variables():
    assert {"LUDIBOT_SHARD_COUNT", "LUDIBOT_SHARD_IDS", "LUDIBOT_METRICS_PORT", "LUDIBOT_METRICS_HOST",
            "LUDIBOT_DB", "DISCORD_TOKEN"} <= variables_the_bot_reads()


def test_compose_sets_only_variables_the_bot_reads_and_the_bot_accepts_them(compose):
    bot = compose["services"]["bot"]
    env = bot["environment"]
    assert set(env) <= variables_the_bot_reads(), set(env) - variables_the_bot_reads()
    with pytest.raises(KeyError):  # no token: compose refuses to start, naming it
        interpolate(env["DISCORD_TOKEN"], {})
    values = {k: interpolate(v, {"DISCORD_TOKEN": "t0k3n"}) for k, v in env.items()}
    settings = load_settings(env=values)
    assert settings.token == "t0k3n" and settings.metrics_port == 9108 and settings.metrics_host == "0.0.0.0"
    assert settings.shard_count is None and settings.shard_ids is None  # Discord's recommendation
    assert settings.db_path == "postgresql://ludibot:ludibot@postgres:5432/ludibot"
    split = load_settings(env={**values, **{k: interpolate(env[k], {"LUDIBOT_SHARD_COUNT": "4",
                                                                     "LUDIBOT_SHARD_IDS": "2-3"})
                                           for k in ("LUDIBOT_SHARD_COUNT", "LUDIBOT_SHARD_IDS")}})
    assert split.shard_ids == (2, 3) and split.shard_count == 4


def test_compose_waits_for_a_healthy_postgresql_and_keeps_its_data(compose):
    services = compose["services"]
    pg, bot = services["postgres"], services["bot"]
    assert pg["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(pg["healthcheck"]["test"])
    assert bot["depends_on"]["postgres"]["condition"] == "service_healthy"
    # the bot's URL names the database that PostgreSQL's image creates, with its user and password
    url = interpolate(bot["environment"]["LUDIBOT_DB"], {"POSTGRES_PASSWORD": "pw"})
    pg_env = {k: interpolate(v, {"POSTGRES_PASSWORD": "pw"}) for k, v in pg["environment"].items()}
    assert url == f"postgresql://{pg_env['POSTGRES_USER']}:{pg_env['POSTGRES_PASSWORD']}@postgres:5432/" \
                  f"{pg_env['POSTGRES_DB']}"
    volumes = set(compose["volumes"])
    assert {v.split(":")[0] for v in pg["volumes"]} <= volumes and {v.split(":")[0] for v in bot["volumes"]} <= volumes
    assert "build" in bot and all(p.startswith("127.0.0.1:") for p in bot.get("ports", []))


def test_the_image_runs_the_readmes_command_as_non_root_with_a_health_check():
    everything = dockerfile()
    final = max(i for i, (w, _) in enumerate(everything) if w == "FROM")  # the image's own stage
    steps = everything[final:]
    words = [w for w, _ in steps]
    assert steps[0] == ("FROM", "python:3.11-slim")
    cmd = [arg for w, arg in steps if w == "CMD"]
    assert len(cmd) == 1
    command = " ".join(yaml.safe_load(cmd[0]))  # exec form, a JSON list
    assert command == "python -m bot"
    readme = (ROOT / "README.md").read_text()
    deployment = readme[readme.index("## Deployment"):]
    assert f"`{command}`" in deployment and f"`{command}`" in readme[:readme.index("## Deployment")]
    user = [arg for w, arg in steps if w == "USER"]
    assert user and user[-1] not in ("root", "0", "0:0") and words.index("USER") < words.index("CMD")
    assert "useradd" in " ".join(arg for w, arg in steps if w == "RUN")
    health = [arg for w, arg in steps if w == "HEALTHCHECK"]
    assert len(health) == 1 and "scripts/healthcheck.py" in health[0]
    env = " ".join(arg for w, arg in steps if w == "ENV")
    assert {n for n in re.findall(r"\b((?:LUDIBOT|DISCORD)_[A-Z_]+)=", env)} <= variables_the_bot_reads()


def test_every_copied_path_exists_and_is_not_ignored():
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    for word, arg in dockerfile():
        if word == "COPY" and not arg.startswith("--from="):  # (--from: a file of an earlier stage)
            *sources, _dest = arg.split()
            for src in sources:
                assert (ROOT / src).exists(), src
                assert src.split("/")[0] not in ignored, src
    for needed in ("bot", "engines", "render", "cogs", "data"):
        assert needed not in ignored
    assert {".git", ".venv", ".env", "*.db", "tests"} <= ignored


async def _serve(status: int):
    async def healthz(request):
        return web.json_response({"ok": status == 200}, status=status)

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, site._server.sockets[0].getsockname()[1]


@pytest.mark.parametrize("status,code", [(200, 0), (503, 1)])
async def test_the_container_health_check_follows_healthz(status, code):
    import asyncio

    runner, port = await _serve(status)
    try:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(ROOT / "scripts" / "healthcheck.py"),
            env={"LUDIBOT_METRICS_PORT": str(port), "LUDIBOT_METRICS_HOST": "0.0.0.0"},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        await asyncio.wait_for(proc.wait(), timeout=30)
        assert proc.returncode == code
    finally:
        await runner.cleanup()


def test_the_health_check_fails_when_nothing_listens():
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "healthcheck.py")],
                          env={"LUDIBOT_METRICS_PORT": "1"}, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1 and "unhealthy" in proc.stderr
