"""The board's page (an Activity) in Chromium, for the end-to-end tests: the page built, a phone-sized
browser (390×844, touch) on the fake Discord's client page, which frames the Activity and plays Discord's
end of the Embedded App SDK's protocol (handshake, READY, AUTHORIZE, AUTHENTICATE); every API answer and
socket frame the page receives recorded (:class:`Recorder`) and checked for another seat's view; the
touches, as a player makes them (:func:`choose`, :func:`confirm`).

A module whose tests open the board says ``ACTIVITIES = True``: its ``world`` (tests/e2e/conftest.py) is
the usual world with Activities on, the page built and the fake's URL mapping pointed at the bot's board."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import shutil
import statistics
import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.harness import read_game_row

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "activity"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright_api = pytest.importorskip("playwright.async_api")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
#: what a socket frame may carry: which game changed, never a view
SOCKET_KEYS = {"hello", "game", "version", "status", "resync", "error", "message"}
#: a move a second at most: a player's pace (touch, read the preview, confirm), within the API's rate limit
PACE = 1.0


def built_page() -> Path:
    """activity/dist, built from its lock file when missing or older than its sources (make test does it
    first; a single test run alone does it here)."""
    dist = PAGE / "dist" / "index.html"
    sources = [*PAGE.joinpath("src").iterdir(), PAGE / "build.mjs", PAGE / "package-lock.json"]
    if dist.exists() and dist.stat().st_mtime >= max(p.stat().st_mtime for p in sources):
        return dist.parent
    if shutil.which("npm") is None:
        pytest.fail("the board's page needs Node and npm to build (.ci/run installs them)")
    if not (PAGE / "node_modules").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=PAGE, check=True, capture_output=True)
    subprocess.run(["npm", "run", "build"], cwd=PAGE, check=True, capture_output=True)
    return dist.parent


async def frame_of(page):
    for _ in range(100):
        frame = next((f for f in page.frames if "/_fake/activity/" in f.url), None)
        if frame is not None:
            return frame
        await asyncio.sleep(0.05)
    raise AssertionError("the client page never framed the Activity")


async def phone(pw):
    """A headless Chromium and a page at phone size (390×844 CSS px, touch): ``(browser, page)``."""
    browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    page = await browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    return browser, page


async def launch(page, fake, user, channel: str = "jeux", *, timeout: float = 30000, shot: Path | None = None):
    """``user`` opens the board from ``channel`` in the fake's client page: the framed Activity, once it
    shows a game (its ``data-version``). When it never does: a screenshot (``shot``), the SDK's log and the
    frame's content are printed before the failure."""
    await page.goto(fake.activity_client_url(user, channel))
    frame = await frame_of(page)
    try:
        await frame.wait_for_selector("body[data-version]", state="attached", timeout=timeout)
    except Exception:
        if shot is not None:
            await page.screenshot(path=str(shot))
        print("page log:", await page.evaluate("JSON.stringify(window.activityLog)"))
        print("frame:", await frame.content())
        raise
    return frame


class Recorder:
    """Every answer of the bot's API and every socket frame the page receives."""

    def __init__(self, page) -> None:
        self.bodies: list[tuple[str, object]] = []
        self.frames: list[object] = []
        self.errors: list[str] = []
        self.checked = 0
        self._tasks: list[asyncio.Task] = []
        page.on("response", lambda r: self._tasks.append(asyncio.ensure_future(self._grab(r))))
        page.on("websocket", lambda ws: ws.on("framereceived", lambda data: self.frames.append(json.loads(data))))
        # (a 404 is judged by its address above: Chromium's console only says it happened)
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" and not m.text.startswith(
            "Failed to load resource: the server responded with a status of 404") else None)
        #: refusals the test provoked on purpose (``"409 …/move"``): :meth:`expect` moves them out of ``errors``
        self.refused: list[str] = []

    async def _grab(self, response) -> None:
        if "/api/" not in response.url:
            return
        if response.status >= 400 and not (response.status == 404 and "which=mine" in response.url):
            # (a seat with no picture of its own at this moment, the Lutinades picker: the page shows none)
            self.errors.append(f"{response.status} {response.url}")
        try:
            body = await response.body()
        except Exception:  # noqa: BLE001 - a response the page dropped (a picture of an older version)
            return
        kind = response.headers.get("content-type", "")
        self.bodies.append((response.url, json.loads(body) if "json" in kind else body[:4]))

    async def settle(self) -> None:
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def finish(self, seat: int | None, *, hidden: tuple[str, ...] = ()) -> None:
        """At a test's end: every answer in, each view ``seat``'s, none of ``hidden`` anywhere, and no error
        the test did not provoke."""
        await self.settle()
        self.check(seat, hidden=hidden)
        assert self.errors == [], self.errors

    async def expect(self, status: int, route: str) -> None:
        """The refusals ``status`` of ``route`` (``/move``) since the last call: provoked by the test, they
        are not the page's errors (the console's line for each goes too)."""
        await self.settle()
        mine = [e for e in self.errors if e.startswith(f"{status} ") and e.split("?")[0].endswith(route)]
        assert mine, (status, route, self.errors)
        self.refused += mine
        self.errors = [e for e in self.errors if e not in mine and not e.startswith(
            f"Failed to load resource: the server responded with a status of {status}")]

    def check(self, seat: int | None, *, hidden: tuple[str, ...] = ()) -> None:
        """Since the last check: each view is ``seat``'s, and none of ``hidden`` appears anywhere."""
        for url, body in self.bodies[self.checked:]:
            if isinstance(body, dict):
                view = body.get("view")
                if isinstance(view, dict) and "seat" in view:
                    assert view["seat"] == seat, (url, view["seat"])
                text = json.dumps(body)
                for secret in hidden:
                    assert secret not in text, (url, secret)
        self.checked = len(self.bodies)
        for frame in self.frames:
            assert isinstance(frame, dict) and set(frame) <= SOCKET_KEYS, frame


async def open_page(pw, fake, user, channel: str = "jeux"):
    """``user``'s board on a phone, recorded: ``(browser, page, frame, recorder)``."""
    browser, page = await phone(pw)
    recorder = Recorder(page)
    frame = await launch(page, fake, user, channel)
    return browser, page, frame, recorder


@contextlib.asynccontextmanager
async def boards(fake, *users, channel: str = "jeux"):
    """Each of ``users`` opens the board on a phone of their own, in that order: their ``(page, frame,
    recorder)``; the browsers are closed on the way out."""
    async with playwright_api.async_playwright() as pw:
        opened = []
        try:
            for user in users:
                opened.append(await open_page(pw, fake, user, channel))
            yield [(page, frame, rec) for _, page, frame, rec in opened]
        finally:
            for browser, *_ in opened:
                await browser.close()


async def data(frame, name: str) -> str:
    return await frame.evaluate(f"document.body.dataset.{name} || ''")  # no eval in the page: polled from here


async def until(frame, name: str, predicate, timeout: float = 20.0, what: str = "") -> str:
    start = time.monotonic()
    while True:
        value = await data(frame, name)
        if predicate(value):
            return value
        if time.monotonic() - start > timeout:
            raise AssertionError(f"page never reached {what or name}: {value!r}; "
                                 f"error: {await frame.text_content('#error')!r}")
        await asyncio.sleep(0.03)


async def targets(frame, which: str) -> list[str]:
    return await frame.evaluate(f"[...document.querySelectorAll('#{which}-hits polygon:not(.picked)')]"
                                ".map(p => p.dataset.region)")


async def tap(frame, which: str, region: str) -> None:
    await frame.tap(f'#{which}-hits polygon[data-region="{region}"]')


async def choose(frame, which: str | list[str], game_id: int, version: int, regions: list[str],
                 timings: dict) -> str:
    """Tap ``regions`` in order (each one highlighted first) on ``which`` picture (or, a list: each
    region's), then wait for the preview; its text."""
    for k, region in enumerate(regions):
        where = which if isinstance(which, str) else which[k]
        await until(frame, "touch", lambda v, k=k: v == f"{game_id}:{version}:{k}", what=f"touch {k}")
        shown = await targets(frame, where)
        assert region in shown, (region, shown)
        start = time.monotonic()
        await tap(frame, where, region)
        last = k == len(regions) - 1
        await until(frame, "touch", (lambda v: v.endswith(":preview")) if last else
                    (lambda v, k=k: v == f"{game_id}:{version}:{k + 1}"), what="the preview" if last else "targets")
        timings["preview" if last else "targets"].append(time.monotonic() - start)
    return await frame.text_content("#preview-text")


async def until_text(frame, selector: str, predicate, timeout: float = 20.0) -> str:
    start = time.monotonic()
    while True:
        text = await frame.text_content(selector) or ""
        if predicate(text):
            return text
        assert time.monotonic() - start < timeout, f"{selector} never matched: {text!r}"
        await asyncio.sleep(0.03)


async def confirm(frame, db, game_id: int, version: int, since: float) -> None:
    await asyncio.sleep(max(0.0, since + PACE - time.monotonic()))
    await frame.tap("#confirm")
    start = time.monotonic()
    while read_game_row(db, game_id).version <= version:
        assert time.monotonic() - start < 20, "« Confirmer » made no move"
        await asyncio.sleep(0.05)


def report(timings: dict) -> None:
    for name, values in timings.items():
        if values:
            values = sorted(values)
            print(f"{name}: n={len(values)} p50={statistics.median(values) * 1000:.0f} ms "
                  f"p95={values[math.ceil(0.95 * len(values)) - 1] * 1000:.0f} ms (through Chromium)")
