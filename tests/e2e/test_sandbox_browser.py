"""The sandbox in a real browser: headless Chromium (Debian's package) driven by Playwright.

Starts ``python -m sandbox.launch`` with no token (the README's run command), which serves the
sandbox page on 127.0.0.1; plays a whole Ludix game with two virtual players by clicking, and
checks the final ranking shown on the page. Skipped where Chromium is not installed
(.ci/run installs it).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright_api = pytest.importorskip("playwright.async_api")

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


@pytest.fixture
def sandbox(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LUDIBOT_"))}
    env.update({"LUDIBOT_SANDBOX_PORT": "0", "LUDIBOT_SANDBOX_DIR": str(tmp_path / "sandbox"),
                "LUDIBOT_LANG": "fr", "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"})
    proc = subprocess.Popen([sys.executable, "-m", "sandbox.launch"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    url = None
    lines = []
    for line in proc.stdout:
        lines.append(line)
        m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        if m:
            url = m.group(1)
            break
    assert url, "".join(lines)
    yield url, proc
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


async def messages(page) -> list[str]:
    return await page.locator("#messages .msg").all_inner_texts()


async def wait_change(page, before: list[str], timeout: float = 15) -> list[str]:
    for _ in range(int(timeout * 10)):
        now = await messages(page)
        if now != before:
            await asyncio.sleep(0.2)
            return await messages(page)
        await asyncio.sleep(0.1)
    raise AssertionError("the page did not change")


async def wait_settled(page, before: list[str], timeout: float = 15) -> None:
    """Wait until the page shows a new message and then stays the same for a moment."""
    last, stable = None, 0
    for _ in range(int(timeout * 10)):
        now = await messages(page)
        if now != before and now == last:
            stable += 1
            if stable >= 5:
                return
        else:
            stable = 0
        last = now
        await asyncio.sleep(0.1)


async def as_player(page, name: str) -> None:
    await page.locator(f"[data-testid='player-{name}']").click()
    await page.wait_for_function(f"document.getElementById('channel-title').textContent.includes({name!r})")
    await asyncio.sleep(0.4)


async def click_last(page, label: str) -> None:
    before = await messages(page)
    await page.locator("#messages .msg button.comp", has_text=label).last.click()
    await wait_change(page, before)


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
async def test_a_whole_ludix_game_by_clicking(sandbox):
    url, proc = sandbox
    async with playwright_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = await browser.new_page(viewport={"width": 1200, "height": 1000})
        await page.goto(url)
        await page.wait_for_function("document.getElementById('status').textContent.includes('connecté')",
                                     timeout=60_000)
        await page.wait_for_function("document.querySelectorAll('#command-list option').length > 3", timeout=60_000)
        # Alice opens a game with a low target
        await page.locator("[data-testid='command-path']").fill("ludix start")
        await page.locator("[data-testid='command-path']").dispatch_event("input")
        await page.locator("[data-testid='option-objectif']").fill("50")
        before = await messages(page)
        await page.locator("[data-testid='send']").click()
        await wait_change(page, before)
        await as_player(page, "Bruno")
        await click_last(page, "Rejoindre")
        await as_player(page, "Alice")
        await click_last(page, "Lancer")
        for _ in range(100):  # the first turn message follows the lobby's edit
            if any("À vous de jouer" in t for t in await messages(page)):
                break
            await asyncio.sleep(0.2)
        for _ in range(120):
            texts = await messages(page)
            if any("Fin de la partie" in t for t in texts):
                break
            turn = [re.search(r"À vous de jouer : @(\w+)", t) for t in texts]
            player = [m.group(1) for m in turn if m][-1]
            await as_player(page, player)
            before = await messages(page)
            await click_last(page, "Lancer les dés")
            await wait_settled(page, before)
            texts = await messages(page)
            last = texts[-1]
            if "Stop (marquer)" in last and f"@{player}" in last.splitlines()[-2 if len(last.splitlines()) > 1 else -1] + last:
                await click_last(page, "Stop (marquer)")
        else:
            pytest.fail("the game did not end")
        final = [t for t in await messages(page) if "Fin de la partie" in t][-1]
        assert "Classement" in final
        ranking = re.findall(r"^(\d)\. (Alice|Bruno) — (\d+)$", final, re.M)
        assert {name for _, name, _ in ranking} == {"Alice", "Bruno"}
        assert ranking[0][0] == "1" and int(ranking[0][2]) >= 50
        await page.screenshot(path=str(Path(os.environ.get("LUDIBOT_SCREENSHOT", "/tmp/ludibot-sandbox.png"))))
        await browser.close()


async def last_message_in_view(page) -> dict:
    """Where the newest message sits in the scrolled message list, and whether its pictures are loaded."""
    return await page.evaluate("""() => {
        const box = document.getElementById('messages'); const msgs = box.querySelectorAll('.msg');
        const last = msgs[msgs.length - 1];
        if (!last) return {text: "", bottom_visible: false, loaded: false, srcs: [], ephemeral: false};
        const b = box.getBoundingClientRect(); const r = last.getBoundingClientRect();
        const imgs = Array.from(last.querySelectorAll('img'));
        return {text: last.innerText, bottom_visible: r.bottom <= b.bottom + 2 && r.bottom > b.top,
                loaded: imgs.every((i) => i.complete && i.naturalWidth > 0), srcs: imgs.map((i) => i.getAttribute('src')),
                ephemeral: last.classList.contains('ephemeral'), page_width: document.documentElement.scrollWidth,
                img_width: imgs.length ? imgs[0].getBoundingClientRect().width : 0};
    }""")


async def wait_last(page, predicate, timeout: float = 20) -> dict:
    state = None
    for _ in range(int(timeout * 10)):
        state = await last_message_in_view(page)
        if predicate(state):
            return state
        await asyncio.sleep(0.1)
    raise AssertionError(f"the newest message never matched: {state}")


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
async def test_a_ranta_round_keeps_the_fresh_preview_and_the_private_reply_in_view(sandbox, width, height):
    url, proc = sandbox
    async with playwright_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = await browser.new_page(viewport={"width": width, "height": height})
        icon = await page.goto(url + "favicon.ico")
        assert icon is not None and icon.status == 200
        await page.goto(url)
        await page.wait_for_function("document.getElementById('status').textContent.includes('connecté')",
                                     timeout=60_000)
        await page.wait_for_function("document.querySelectorAll('#command-list option').length > 3", timeout=60_000)
        # descriptions in the player's language (French here)
        descriptions = await page.locator("#command-list option").all_text_contents()
        assert any("Range ta Ludothèque" in d or "partie" in d.lower() for d in descriptions), descriptions
        await page.locator("[data-testid='command-path']").fill("ranta start")
        await page.locator("[data-testid='command-path']").dispatch_event("input")
        await page.locator("[data-testid='option-mode']").select_option("expert")
        await page.locator("[data-testid='option-solo']").select_option("true")
        await page.locator("[data-testid='send']").click()
        state = await wait_last(page, lambda s: "Ranger un jeu" in s["text"] and s["loaded"] and s["bottom_visible"])
        assert state["bottom_visible"], state
        await page.locator("#messages .msg button.comp", has_text="Ranger un jeu").last.click()
        state = await wait_last(page, lambda s: s["ephemeral"] and s["loaded"] and s["srcs"] and s["bottom_visible"])
        assert state["bottom_visible"], state
        first_srcs = state["srcs"]
        # pick a box, then its cell: each step edits the private message; its picture gets a new address
        await page.locator("#messages .msg").last.locator("select").first.select_option(index=1)
        state = await wait_last(page, lambda s: "la case en bas à gauche" in s["text"] and s["loaded"])
        await page.locator("#messages .msg").last.locator("select").last.select_option(index=1)
        state = await wait_last(page, lambda s: "Aperçu" in s["text"] and s["loaded"] and s["bottom_visible"])
        assert state["srcs"] and state["srcs"] != first_srcs, state
        assert state["bottom_visible"], state
        await page.locator("#messages .msg button.comp", has_text="Confirmer").last.click()
        for _ in range(300):  # the private message becomes the reply; the next round's public message follows
            texts = await messages(page)
            if any("Vous avez rangé" in t for t in texts) and "Manche 2" in texts[-1]:
                break
            await asyncio.sleep(0.1)
        assert any("Vous avez rangé" in t for t in texts), texts
        state = await wait_last(page, lambda s: "Manche 2" in s["text"] and s["loaded"] and s["bottom_visible"])
        assert state["bottom_visible"], state  # the newest message, picture loaded, is in view
        await page.screenshot(path=f"/tmp/ludibot-sandbox-ranta-{width}.png", full_page=True)
        if width < 500:  # the phone layout: nothing wider than the screen, pictures use the width
            assert state["page_width"] <= width + 1, state
            assert state["img_width"] >= width * 0.8, state
        await browser.close()
