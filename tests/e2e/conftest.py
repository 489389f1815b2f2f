"""End-to-end fixtures: a fake Discord on 127.0.0.1 and the real bot process."""

from __future__ import annotations

import os

import pytest
import pytest_asyncio

from tests.e2e import harness
from tests.e2e.harness import usual_world


@pytest.fixture(scope="session", autouse=True)
def _bot_process_settings(tmp_path_factory):
    """Every bot process of this run (of this xdist worker): one render worker (two processes per bot
    on a 2-core machine running two test workers only compete), and the bot's modules compiled once
    into a folder of the run (a machine with PYTHONDONTWRITEBYTECODE would compile them at every start)."""
    saved = dict(harness.TEST_ENV)
    harness.TEST_ENV.update({"LUDIBOT_RENDER_WORKERS": "1",
                             "PYTHONPYCACHEPREFIX": str(tmp_path_factory.mktemp("pycache"))})
    yield
    harness.TEST_ENV.clear()
    harness.TEST_ENV.update(saved)


@pytest.fixture
def bot_db(request, tmp_path) -> str:
    """The bot's LUDIBOT_DB: a SQLite file, or a fresh database on the throwaway PostgreSQL when
    ``LUDIBOT_TEST_BACKEND=postgresql`` (or when the test module says ``BACKEND = "postgresql"``)."""
    backend = getattr(request.module, "BACKEND", None) or os.environ.get("LUDIBOT_TEST_BACKEND", "sqlite")
    if backend == "postgresql":
        return request.getfixturevalue("pg_server").new_database_sync("e2e")
    return str(tmp_path / "ludibot.db")


@pytest_asyncio.fixture
async def world(request, tmp_path, bot_db):
    """The usual world (:func:`usual_world`); a module with ``APP_EMOJIS = False`` starts the bot on an
    application without its emojis (its first start ever); a module with ``ACTIVITIES = True`` opens the
    board in Chromium: the application has Activities on, the page is built and the fake's URL mapping
    points at the bot's board (tests/e2e/activity_harness.py)."""
    activities = getattr(request.module, "ACTIVITIES", False)
    if activities:
        from tests.e2e.activity_harness import built_page

        built_page()
    async with usual_world(tmp_path, bot_db, app_emojis=getattr(request.module, "APP_EMOJIS", True),
                           activities=activities) as w:
        if activities:
            w.fake.map_activity(w.activity_base)
        yield w
