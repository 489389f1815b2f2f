"""The board's page in Chromium at phone size (390×844), framed by the fake Discord's client page, which
plays Discord's end of the Embedded App SDK's protocol: the real SDK, bundled into the page, handshakes,
authorizes and authenticates; the page shows the table's picture and whose turn it is, and follows a move
made in the chat within a second, without reloading."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e.harness import mentioned, usual_world, wait_control

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "activity"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright_api = pytest.importorskip("playwright.async_api")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


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


@pytest_asyncio.fixture
async def world(tmp_path, bot_db):
    built_page()
    async with usual_world(tmp_path, bot_db, activities=True) as w:
        w.fake.map_activity(w.activity_base)
        yield w


async def frame_of(page):
    for _ in range(100):
        frame = next((f for f in page.frames if "/_fake/activity/" in f.url), None)
        if frame is not None:
            return frame
        await asyncio.sleep(0.05)
    raise AssertionError("the client page never framed the Activity")


async def shown_version(frame) -> int | None:
    value = await frame.evaluate("document.body.dataset.version || null")
    return int(value) if value else None


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
async def test_the_page_shows_the_table_and_follows_the_chat_within_a_second(world):
    fake, u = world.fake, world.u
    lobby = (await fake.run_command(u.alice, "jeux", "ludix start", objectif=50)).message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    card = await wait_control(fake)
    assert mentioned(card) == [u.alice.id]
    async with playwright_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = await browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                          is_mobile=True, has_touch=True)
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
            await page.goto(fake.activity_client_url(u.alice, "jeux"))
            frame = await frame_of(page)
            try:
                await frame.wait_for_selector("body[data-version]", state="attached", timeout=20000)
            except Exception:
                await page.screenshot(path=str(world.tmp / "activity-failed.png"))
                print("page log:", await page.evaluate("JSON.stringify(window.activityLog)"))
                print("frame:", await frame.content())
                print("console:", errors)
                raise
            assert await shown_version(frame) == card_version(world)
            # (the board is Ludix's control: the hint to touch follows)
            assert (await frame.text_content("#status")).startswith("À vous de jouer. Touchez ce qui est en surbrillance")
            assert await frame.text_content("#title") == f"Ludix n° {game_id(card)}"
            # the picture is the table, at the page's full width
            size = await frame.evaluate("(() => { const i = document.getElementById('board');"
                                        " return [i.naturalWidth, i.getBoundingClientRect().width]; })()")
            assert size[0] > 0 and size[1] >= 380
            await page.screenshot(path=str(world.tmp / "activity-fr.png"))
            # the SDK spoke the protocol: handshake, READY, then authorize and authenticate answered
            log = await page.evaluate("window.activityLog.map(([d, op, f]) => [d, op, f.cmd || null, f.evt || null])")
            assert log[0] == ["in", 0, None, None] and log[1] == ["out", 1, "DISPATCH", "READY"]
            assert ["out", 1, "AUTHORIZE", None] in log and ["out", 1, "AUTHENTICATE", None] in log
            # a move in the chat: the page shows it within a second, without reloading
            before = await shown_version(frame)
            await fake.click(u.alice, card, label="Lancer les dés")
            start = time.monotonic()
            while (await shown_version(frame) or 0) <= before:  # polled from outside: the page's CSP forbids eval
                assert time.monotonic() - start < 1.0, "the page did not follow the chat's move within a second"
                await asyncio.sleep(0.02)
            assert errors == [], errors
        finally:
            await browser.close()


def game_id(card) -> int:
    return int(card.buttons[0]["custom_id"].split(":")[1])


def card_version(world) -> int:
    from tests.e2e.harness import read_game_row

    return read_game_row(world.bot.db, game_id(wait_card(world))).version


def wait_card(world):
    from tests.e2e.harness import last_control

    return last_control(world.fake)
