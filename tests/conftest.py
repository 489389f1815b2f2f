"""Shared fixtures. No test reaches the internet or Discord: sockets other than loopback are refused."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

_real_connect = socket.socket.connect


def _loopback_only(self, address):  # pragma: no cover - only trips on a faulty test
    host = address[0] if isinstance(address, tuple) else address
    if isinstance(host, str) and not (host.startswith("127.") or host in ("localhost", "::1") or
                                      self.family == socket.AF_UNIX):
        raise RuntimeError(f"tests may not reach the network ({address!r})")
    return _real_connect(self, address)


socket.socket.connect = _loopback_only


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "ludibot-test.db")


@pytest.fixture(scope="session")
def pg_server():
    """A throwaway PostgreSQL on 127.0.0.1 for the whole run (skipped, with the reason, without binaries)."""
    from tests.pg import PgServer, missing_reason

    reason = missing_reason()
    if reason:
        pytest.skip(reason)
    server = PgServer().start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request) -> str:
    return request.param


@pytest.fixture
async def db_url(backend, tmp_path, request) -> str:
    """A fresh, empty database of the backend under test: a SQLite file path or a PostgreSQL URL."""
    if backend == "sqlite":
        return str(tmp_path / "ludibot-test.db")
    return await request.getfixturevalue("pg_server").new_database()


@pytest.fixture
async def store(db_url):
    from bot.storage import open_store

    s = open_store(db_url)
    await s.open()
    yield s
    await s.close()


#: modules whose fixture draws every picture of the gallery (two minutes of CPU, once per test process):
#: first of all in a parallel run, a part of the gallery per worker (see pytest_xdist_make_scheduler)
LONG_MODULES = ("tests/render/test_phone.py", "tests/render/test_picture_words.py")


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` (``make test``), except for the modules of :data:`LONG_MODULES`: their tests
    that take a part of the gallery as parameter (``test_x[limit]``, see ``tests.render.gallery.PARTS``)
    go to one worker per part, from both modules, so that each part is drawn once in the run and the
    parts are drawn side by side; their other tests go together to one worker."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class GalleryTogether(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = super()._split_scope(nodeid)
            if module not in LONG_MODULES:
                return module
            part = nodeid.rpartition("[")[2].rstrip("]") if nodeid.endswith("]") else ""
            return f"{LONG_MODULES[0]}[{part}]" if part else LONG_MODULES[0]

    return GalleryTogether(config, log)


def pytest_collection_modifyitems(config, items):
    """In a parallel run (pytest-xdist, ``make test``), the end-to-end modules first, the longest of
    them first: each worker takes a whole module at a time (``--dist loadfile``), in this order, and
    the many short modules fill the end, so that no worker is left alone with a long one at the end.
    The order of the tests within a module is kept."""
    import os

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    sizes: dict[str, int] = {}
    for item in items:
        sizes[item.nodeid.split("::")[0]] = sizes.get(item.nodeid.split("::")[0], 0) + 1

    def weight(item) -> tuple[int, int]:
        module = item.nodeid.split("::")[0]
        if module in LONG_MODULES:
            return (0, -10_000)
        return (0, -sizes[module]) if "/e2e/" in module else (1, 0)

    items.sort(key=weight)  # (stable: a module's tests stay together and in order)


def pytest_sessionfinish(session, exitstatus):
    """A test that fails with something still open (a pool, an executor) leaves a worker thread
    (not a daemon) alive, and the interpreter would wait for it for ever after the summary: a CI run must end.
    Once pytest has reported, the process exits with the run's status if it is still there."""
    import os
    import threading
    import time

    def watchdog() -> None:
        time.sleep(30)
        os._exit(int(exitstatus))

    threading.Thread(target=watchdog, name="exit-watchdog", daemon=True).start()



@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """``LUDIBOT_TEST_TIMELINE=<folder>``: each test's start and end (wall clock) and its worker, one file per
    worker, to see how a parallel run spends its time (which module ran last, which worker idled)."""
    import os
    import time

    began = time.time()
    yield
    folder = os.environ.get("LUDIBOT_TEST_TIMELINE")
    if folder:
        from pathlib import Path

        Path(folder).mkdir(parents=True, exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(Path(folder) / f"{worker}.tsv", "a", encoding="utf-8") as out:
            out.write(f"{began:.3f}\t{time.time():.3f}\t{item.nodeid}\n")
