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


def shot(folder: Path, name: str) -> str:
    """Where a screenshot goes: ``LUDIBOT_SCREENSHOTS`` (a folder to look at them), else the test's own
    temporary folder (never a path shared with another test run)."""
    return str(Path(os.environ.get("LUDIBOT_SCREENSHOTS") or folder) / name)


@pytest.fixture
def console_lang() -> str:
    """The console's language the sandbox starts in (a test may override this fixture)."""
    return "fr"


@pytest.fixture
def sandbox(tmp_path, console_lang):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LUDIBOT_"))}
    env.update({"LUDIBOT_SANDBOX_PORT": "0", "LUDIBOT_SANDBOX_DIR": str(tmp_path / "sandbox"),
                "LUDIBOT_LANG": console_lang, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"})
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


async def pick(page, select, index: int) -> None:
    """Open a message's select (drawn as Discord's) and choose its option number `index`."""
    await select.locator(".select-head").click()
    await select.locator(".select-option").nth(index).click()


async def click_last(page, label: str) -> None:
    before = await messages(page)
    await page.locator("#messages .msg button.comp", has_text=label).last.click()
    await wait_change(page, before)


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
async def test_a_whole_ludix_game_by_clicking(sandbox, tmp_path):
    url, proc = sandbox
    async with playwright_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = await browser.new_page(viewport={"width": 1200, "height": 1000})
        await page.goto(url)
        await page.wait_for_function("document.getElementById('status').textContent.includes('connecté')",
                                     timeout=60_000)
        await page.wait_for_function("document.querySelectorAll('#command-list option').length > 3", timeout=60_000)
        # Alice opens a game with a low target
        await page.locator("[data-testid='command-path']").fill("ludix lancer")
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
            turn = [re.search(r"À vous de jouer\u00a0: @(\w+)", t) for t in texts]
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
        for _ in range(80):  # the final card may be re-drawn meanwhile (its summary attached): read it whole
            final = [t for t in await messages(page) if "Fin de la partie" in t][-1]
            ranking = re.findall(r"^(\d)\. (Alice|Bruno) — (\d+)$", final, re.M)
            if {name for _, name, _ in ranking} == {"Alice", "Bruno"}:
                break
            await asyncio.sleep(0.25)
        assert "Classement" in final
        assert {name for _, name, _ in ranking} == {"Alice", "Bruno"}, final
        assert ranking[0][0] == "1" and int(ranking[0][2]) >= 50
        await page.screenshot(path=os.environ.get("LUDIBOT_SCREENSHOT") or shot(tmp_path, "ludibot-sandbox.png"))
        await browser.close()


async def last_message_in_view(page) -> dict:
    """Where the newest message sits in the scrolled message list, and whether its pictures are loaded."""
    return await page.evaluate("""() => {
        const box = document.getElementById('messages'); const msgs = box.querySelectorAll('.msg');
        const last = msgs[msgs.length - 1];
        if (!last) return {text: "", bottom_visible: false, loaded: false, srcs: [], ephemeral: false};
        const b = box.getBoundingClientRect(); const r = last.getBoundingClientRect();
        const imgs = Array.from(last.querySelectorAll('img'));
        // the game's pictures (emojis are images too, the size of a letter)
        const pics = imgs.filter((i) => (i.getAttribute('src') || '').startsWith('/attachment/'));
        return {text: last.innerText, bottom_visible: r.bottom <= b.bottom + 2 && r.bottom > b.top,
                loaded: imgs.every((i) => i.complete && i.naturalWidth > 0), srcs: imgs.map((i) => i.getAttribute('src')),
                ephemeral: last.classList.contains('ephemeral'), page_width: document.documentElement.scrollWidth,
                img_width: pics.length ? pics[0].getBoundingClientRect().width : 0};
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
async def test_a_ranta_round_keeps_the_fresh_preview_and_the_private_reply_in_view(sandbox, width, height, tmp_path):
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
        await page.locator("[data-testid='command-path']").fill("ranta lancer")
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
        await pick(page, page.locator("#messages .msg").last.locator(".select").first, 0)
        state = await wait_last(page, lambda s: "la case en bas à gauche" in s["text"] and s["loaded"])
        await pick(page, page.locator("#messages .msg").last.locator(".select").last, 0)
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
        await page.screenshot(path=shot(tmp_path, f"ludibot-sandbox-ranta-{width}.png"), full_page=True)
        if width < 500:  # the phone layout: nothing wider than the screen, pictures use the width
            assert state["page_width"] <= width + 1, state
            assert state["img_width"] >= width * 0.8, state
        await browser.close()


async def phone_view(page) -> dict:
    """At phone size: the newest message of the list in view, the command box on screen, who scrolls."""
    return await page.evaluate("""() => {
        const box = document.getElementById('messages'); const msgs = box.querySelectorAll('.msg');
        const last = msgs[msgs.length - 1]; const b = box.getBoundingClientRect();
        const form = document.getElementById('command-box').getBoundingClientRect();
        const r = last ? last.getBoundingClientRect() : null;
        const imgs = last ? Array.from(last.querySelectorAll('img')) : [];
        return {text: last ? last.innerText : "", count: msgs.length,
                newest_in_view: !!r && r.bottom <= b.bottom + 2 && r.bottom > b.top,
                loaded: imgs.every((i) => i.complete && i.naturalWidth > 0),
                box_visible: form.top >= 0 && form.bottom <= window.innerHeight + 1 && form.height > 0,
                page_scrolled: document.scrollingElement.scrollTop, list_scrolled: box.scrollTop,
                list_scrollable: box.scrollHeight > box.clientHeight, title: document.getElementById('channel-title').textContent,
                unknown_channel: document.body.innerText.includes('#?'),
                options: Array.from(document.querySelectorAll('#options [data-option]')).map((e) => e.value),
                path: document.getElementById('command-path').value};
    }""")


async def settle(page, cond, timeout: float = 20) -> dict:
    """Wait until the page stops changing and `cond` holds; the state then."""
    state, last, stable = None, None, 0
    for _ in range(int(timeout * 10)):
        state = await phone_view(page)
        stable = stable + 1 if state["text"] == last and state["count"] else 0
        last = state["text"]
        if stable >= 4 and cond(state) and state["loaded"]:
            return state
        await asyncio.sleep(0.1)
    raise AssertionError(f"the page never settled as expected: {state}")


def in_view(state: dict) -> None:
    assert state["newest_in_view"], state
    assert state["box_visible"], state
    assert state["page_scrolled"] == 0, state  # the list scrolls, not the page
    assert not state["unknown_channel"], state


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
async def test_a_game_in_its_thread_on_a_phone(sandbox, tmp_path):
    """At 390 × 844: the option fields empty after « Envoyer », the lobby's game is played in its own
    thread reached from the channel list, and after every click the newest message is in view while
    the command box stays on screen."""
    url, proc = sandbox
    async with playwright_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = await browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                      has_touch=True)
        await page.goto(url)
        await page.wait_for_function("document.getElementById('status').textContent.includes('connecté')",
                                     timeout=60_000)
        await page.wait_for_function("document.querySelectorAll('#command-list option').length > 3", timeout=60_000)
        # a few commands first, so that the list is longer than the screen
        for _ in range(4):
            await page.locator("[data-testid='command-path']").fill("ludix regles")
            await page.locator("[data-testid='command-path']").dispatch_event("input")
            await page.locator("[data-testid='send']").click()
            await settle(page, lambda s: not s["path"])
        await page.locator("[data-testid='command-path']").fill("ludix lancer")
        await page.locator("[data-testid='command-path']").dispatch_event("input")
        await page.locator("[data-testid='option-objectif']").fill("50")
        await page.locator("[data-testid='option-fil']").select_option("true")
        await page.locator("[data-testid='send']").click()
        state = await settle(page, lambda s: "Rejoindre" in s["text"])
        in_view(state)
        assert state["list_scrollable"] and state["list_scrolled"] > 0, state
        # sent: the box is empty again, no option field keeps its value (Discord clears the box)
        assert state["path"] == "" and all(v in ("", None) for v in state["options"]), state
        assert await page.locator("[data-testid='option-fil']").count() == 0
        await as_player(page, "Bruno")
        await page.locator("#messages .msg button.comp", has_text="Rejoindre").last.click()
        in_view(await settle(page, lambda s: "Bruno" in s["text"]))
        await as_player(page, "Alice")
        await page.locator("#messages .msg button.comp", has_text="Lancer").last.click()
        # the game's thread appears under #jeux; the lobby links to it by name, never « #? »
        thread = page.locator("#channels .channel.thread").first
        await thread.wait_for(timeout=20_000)
        name = (await thread.inner_text()).strip("↳ ").strip()
        state = await settle(page, lambda s: name in s["text"])
        in_view(state)
        await page.screenshot(path=shot(tmp_path, "ludibot-sandbox-phone-lobby.png"))
        # the lobby's link to the thread opens it, as in Discord
        await page.locator("#messages .msg a.channel-mention", has_text=name).last.click()
        state = await settle(page, lambda s: "À vous de jouer" in s["text"] or "Lancer les dés" in s["text"])
        assert name in state["title"] and "jeux" in state["title"], state
        in_view(state)
        await page.screenshot(path=shot(tmp_path, "ludibot-sandbox-phone-thread.png"))
        # the turn card's seats (issue 24): one section each, the seat to play first here, « Profil » beside
        # its text and inside the phone's width
        sections = page.locator("#messages .msg").last.locator(".section")
        assert await sections.count() == 2
        texts = [t.strip() for t in await sections.locator(".section-text").all_inner_texts()]
        assert texts[0].startswith("▶") and "Alice" in texts[0] and texts[1].startswith("Bruno"), texts
        for i in range(2):
            for _ in range(50):  # the page may redraw the card between two reads (a late edit under load)
                section = page.locator("#messages .msg").last.locator(".section").nth(i)
                box = await section.locator("button.accessory").bounding_box()
                text_box = await section.locator(".section-text").bounding_box()
                if box is not None and text_box is not None:
                    break
                await asyncio.sleep(0.1)
            assert box is not None and text_box is not None, (box, text_box)
            assert box["x"] + box["width"] <= 390 and box["x"] >= text_box["x"] + 60, box
        assert await sections.locator("button.accessory", has_text="Profil").count() == 2
        for _ in range(80):
            state = await phone_view(page)
            # whose turn: the newest turn card's (the newest message may be an answer to one player)
            shown = await page.locator("#messages").inner_text()
            turn = re.findall(r"À vous de jouer\u00a0: @(\w+)", shown)
            if "Fin de la partie" in shown or not turn:
                break
            await as_player(page, turn[-1])
            await page.locator("#messages .msg button.comp", has_text="Lancer les dés").last.click()
            # until the roll is shown (a loaded machine may take longer than the page's quiet moment)
            state = await settle(page, lambda s, before=state["text"]: s["text"] != before)
            in_view(state)
            last = state["text"]
            if "Stop (marquer)" in last and f"@{turn[-1]}" in last:
                await page.locator("#messages .msg button.comp", has_text="Stop (marquer)").last.click()
                in_view(await settle(page, lambda s: True))
        final = await page.locator("#messages").inner_text()
        assert "Fin de la partie" in final, final[-500:]
        await page.screenshot(path=shot(tmp_path, "ludibot-sandbox-phone-end.png"))
        # the result is announced back in the channel, with a working link to the thread
        await page.locator("[data-testid='channel-jeux']").click()
        state = await settle(page, lambda s: "jeux" in s["title"] and "›" not in s["title"])
        in_view(state)
        # a fresh page opens at the newest message, not at the oldest
        await page.reload()
        await page.wait_for_function("document.querySelectorAll('#messages .msg').length > 3", timeout=20_000)
        state = await settle(page, lambda s: s["list_scrolled"] > 0)
        in_view(state)
        await browser.close()


def _webp(w: int, h: int, colours: tuple[str, ...]) -> bytes:
    """An animated WebP (the animated summary's format): one frame a colour."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    frames = [Image.new("RGB", (w, h), c) for c in colours]
    frames[0].save(buf, "WEBP", save_all=True, append_images=frames[1:], duration=200, loop=0)
    return buf.getvalue()


def _png(w: int, h: int, colour: str) -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (w, h), colour).save(buf, "PNG")
    return buf.getvalue()


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_cards_modals_and_emojis_render_on_a_phone(tmp_path, lang):
    """A Components V2 card as the fake stores it (container, accent, text with a mention and an
    application emoji, section with a thumbnail, section with a button, gallery, separator, file,
    buttons with emoji, a select whose options carry an application emoji), an animated summary, a private
    answer, then a modal: drawn at 390 px, the hidden attachment not shown, the emoji ids past 2^53 intact,
    the animated WebP playing in place and opening full size when tapped, the private answer dismissed,
    the modal's answers posted to /api/modal."""
    from fakediscord import models as m
    from sandbox.server import CHANNELS, Sandbox

    sb = Sandbox(tmp_path / "sb", port=0, start_bot=False, lang=lang)
    url = await sb.start()
    try:
        f = sb.fake
        # an id past 2^53 (a real snowflake's size), sent as a number as discord.py does: a browser rounds a
        # JSON number that large, the picture would break
        emoji = m.FakeEmoji(id=1234567890123456789, name="de_6", data=_png(64, 64, "#c0392b"), content_type="image/png",
                            user={})
        f.app_emojis[emoji.id] = emoji
        ch = f.channel(CHANNELS[lang][0])  # « jeux », « games »: the server is named in the console's language
        alice = sb.users["Alice"]
        # a command mention: shown as the reader's client names the command, a click fills the command box
        play = f._upsert_command({"name": "tectonic", "description": "Tectonic", "type": 1, "options": [
            {"type": 1, "name": "jouer", "description": "Jouer un coup",
             "name_localizations": {"en-US": "play", "en-GB": "play"}}]}, None)
        card = {"flags": m.F_IS_COMPONENTS_V2, "components": [{"type": 17, "accent_color": 0xE67E22, "components": [
            {"type": 10, "content": f"## Ludix\n<@{alice.id}> 🎲 <:de_6:{emoji.id}> </tectonic jouer:{play.id}> `de:`"},
            {"type": 9, "components": [{"type": 10, "content": "**Alice** — 120"}],
             "accessory": {"type": 11, "media": {"url": "attachment://seat.png"}}},
            {"type": 9, "components": [{"type": 10, "content": "**Bruno** — 80"}],
             "accessory": {"type": 2, "style": 2, "label": "Ma main", "custom_id": "hand"}},
            {"type": 14},
            {"type": 12, "items": [{"media": {"url": "attachment://board.png"}},
                                   {"media": {"url": "attachment://board2.png"}}]},
            {"type": 13, "file": {"url": "attachment://log.txt"}},
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "Lancer", "custom_id": "roll",
                                        "emoji": {"id": emoji.id, "name": "de_6"}},
                                       {"type": 2, "style": 4, "label": "Stop", "custom_id": "stop",
                                        "emoji": {"name": "✋"}}]},
            {"type": 1, "components": [{"type": 3, "custom_id": "pick", "placeholder": "Dé",
                                        "options": [{"label": "Dé 1", "value": "1"},
                                                    {"label": "Dé 6", "value": "6", "description": "six",
                                                     "emoji": {"id": emoji.id, "name": "de_6"}}]}]}]}]}
        fields = f._build_fields(card, {0: ("board.png", _png(600, 400, "#2c3e50"), "image/png"),
                                        1: ("board2.png", _png(600, 400, "#16a085"), "image/png"),
                                        2: ("seat.png", _png(100, 100, "#8e44ad"), "image/png"),
                                        3: ("log.txt", b"journal", "text/plain"),
                                        4: ("hidden.png", _png(10, 10, "red"), "image/png")},
                                 existing=None, channel_id=ch.id)
        f._new_message(ch, fields)
        summary = f._build_fields({"content": "Ludix n°1"}, {0: ("ludibot-ludix-1.webp", _webp(320, 200, ("#1abc9c", "#e74c3c")),
                                                                 None)}, existing=None, channel_id=ch.id)
        f._new_message(ch, summary)
        private = f._new_message(ch, f._build_fields({"content": "Règles\u00a0: page 1"}, {}, existing=None, channel_id=ch.id))
        private.visible_to = alice.id
        assert f.validation_errors == []
        async with playwright_api.async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = await browser.new_page(viewport={"width": 390, "height": 844})
            posted: list[dict] = []

            async def on_modal(route):
                posted.append(route.request.post_data_json)
                await route.fulfill(json={"ok": True})

            await page.route("**/api/modal", on_modal)
            await page.goto(url)
            await page.wait_for_selector("#messages .msg .container")
            await page.wait_for_selector("#messages .msg.ephemeral")
            await page.wait_for_function("""Array.from(document.querySelectorAll('#messages img'))
                                            .every((i) => i.complete && i.naturalWidth > 0)""")
            await asyncio.sleep(0.5)  # web fonts
            card_box = page.locator("#messages .msg .container").last
            info = await card_box.evaluate("""(c) => ({
                accent: getComputedStyle(c).borderLeftColor, text: c.innerText,
                gallery: Array.from(c.querySelectorAll('.gallery img')).map((i) => i.naturalWidth),
                thumb: c.querySelectorAll('.section img.thumbnail').length,
                accessory: Array.from(c.querySelectorAll('.section button.accessory')).map((b) => b.innerText),
                emoji: Array.from(c.querySelectorAll('img.emoji')).map((i) => i.naturalWidth),
                buttons: Array.from(c.querySelectorAll('.comp-row button.comp')).map((b) => b.innerText.trim()),
                selects: c.querySelectorAll('.comp-row .select').length, file: c.querySelector('a.file').innerText,
                separator: c.querySelectorAll('.separator.divider').length,
                srcs: Array.from(document.querySelectorAll('#messages img')).map((i) => i.getAttribute('src')),
                width: document.documentElement.scrollWidth})""")
            assert info["accent"] == "rgb(230, 126, 34)", info
            assert "@Alice" in info["text"] and "Ludix" in info["text"], info
            shown = {"fr": "/tectonic jouer", "en": "/tectonic play"}[lang]
            assert shown in info["text"] and "</" not in info["text"], info
            assert info["gallery"] == [600, 600] and info["thumb"] == 1 and info["accessory"] == ["Ma main"], info
            assert info["emoji"] == [64, 64, 64] and info["buttons"] == ["Lancer", "✋ Stop"] and info["selects"] == 1, info
            assert "log.txt" in info["file"] and info["separator"] == 1 and info["width"] <= 391, info
            # pictures: two in the gallery, the thumbnail, the animated summary, no "hidden.png"; the emoji images
            assert len([s for s in info["srcs"] if s.startswith("/attachment/")]) == 4, info
            assert f"/emoji/{emoji.id}" in info["srcs"], info  # the id as sent, not rounded
            # the select's options show their emoji as a picture
            select = card_box.locator(".select")
            await select.locator(".select-head").click()
            six = select.locator(".select-option").nth(1)
            assert await six.locator("img.emoji").evaluate("(i) => i.complete && i.naturalWidth") == 64
            assert "Dé 6" in await six.inner_text() and "six" in await six.inner_text()
            await page.screenshot(path=f"/tmp/ludibot-sandbox-select-{lang}.png")
            await select.locator(".select-head").click()  # closed again, nothing chosen
            # the animated summary plays in place (a picture, not a download link); a tap enlarges it
            anim = page.locator("#messages .msg", has_text="Ludix n°1").locator("img")
            assert await anim.evaluate("(i) => i.complete && i.naturalWidth") == 320
            assert await page.locator("#messages .msg", has_text="Ludix n°1").locator("a").count() == 0
            await anim.click()
            lightbox = page.locator("[data-testid='lightbox']")
            assert await lightbox.is_visible()
            big = await lightbox.locator("img").bounding_box()
            assert big is not None and big["width"] >= 360, big
            await page.screenshot(path=f"/tmp/ludibot-sandbox-lightbox-{lang}.png")
            await lightbox.click()
            assert not await lightbox.is_visible()
            # a private answer is dismissed as on Discord, and stays dismissed after a reload
            private_box = page.locator("#messages .msg.ephemeral")
            dismiss = private_box.locator("[data-testid='dismiss']")
            assert await dismiss.inner_text() == {"fr": "Ignorer ce message", "en": "Dismiss message"}[lang]
            await dismiss.click()
            assert await page.locator("#messages .msg.ephemeral").count() == 0
            await page.reload()
            await page.wait_for_selector("#messages .msg .container")
            assert await page.locator("#messages .msg.ephemeral").count() == 0
            assert await page.locator("#messages .msg", has_text="Ludix n°1").count() == 1
            # the shipped colour emoji font draws 🎲 (one Noto subset downloaded and in use): loaded for it, then
            # checked (after the reload the page may not have fetched the font yet)
            faces = await page.evaluate("document.fonts.load('16px \"Ludibot Emoji\"', '🎲')"
                                        ".then(fs => fs.map(f => [f.family.replaceAll('\"', ''), f.status]))")
            assert faces and all(f == ["Ludibot Emoji", "loaded"] for f in faces), faces
            assert await page.evaluate("document.fonts.check('16px \"Ludibot Emoji\"', '🎲')")
            await page.screenshot(path=shot(tmp_path, f"ludibot-sandbox-card-{lang}.png"))
            await card_box.locator("a.command-mention").click()
            # the box is filled with the name this reader's client knows, and accepts it
            assert await page.locator("#command-path").input_value() == shown[1:]
            assert await page.locator("#command-help").inner_text() == "Jouer un coup"
            # a modal the bot opened: filled and submitted through the page
            await page.evaluate("""openModal({id: "42", title: "Poser un mot", components: [
                {type: 10, id: 1, content: "Main : **A B E T U**"},
                {type: 18, id: 2, label: "Mot", component: {type: 4, id: 3, custom_id: "word", style: 1,
                                                         min_length: 2, max_length: 8}},
                {type: 18, id: 4, label: "Sens", component: {type: 3, id: 5, custom_id: "dir", options: [
                    {label: "Horizontal", value: "h"}, {label: "Vertical", value: "v"}]}},
                {type: 18, id: 6, label: "Note", component: {type: 4, id: 7, custom_id: "note", style: 2,
                                                         required: false}}]})""")
            dialog = page.locator("[data-testid='modal']")
            assert await dialog.is_visible()
            await page.screenshot(path=shot(tmp_path, f"ludibot-sandbox-modal-{lang}.png"))
            await dialog.locator("input[type=text]").fill("BATEAU")
            await dialog.locator("select").select_option("v")
            await page.locator("[data-testid='modal-submit']").click()
            for _ in range(50):
                if posted:
                    break
                await asyncio.sleep(0.1)
            assert posted == [{"user": str(alice.id), "modal": "42", "values": {"word": "BATEAU", "dir": ["v"]}}]
            assert not await dialog.is_visible()
            await browser.close()
    finally:
        await sb.stop()


async def form_height(page) -> float:
    box = await page.locator("#command-box").bounding_box()
    assert box is not None
    return box["height"]


async def send_command(page, name: str, options: dict[str, str] | None = None) -> None:
    await page.locator("[data-testid='command-path']").fill(name)
    await page.locator("[data-testid='command-path']").dispatch_event("input")
    for option, value in (options or {}).items():
        await page.locator(f"[data-testid='option-{option}']").fill(value)
    await page.locator("[data-testid='send']").click()


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
async def test_each_player_types_the_commands_of_their_own_client(sandbox):
    """At 390 × 844, with the bot: Alice's client is French, she starts a game with « /ludix lancer »
    (« ludix start » is unknown to her client); a target over its limit says why under its field and
    sends nothing. Bruno's client is switched to English: he starts one with « /ludix start target: »
    and reads the rules in English, Alice in French; a private answer is dismissed. The closed command
    box is a single line."""
    url, proc = sandbox
    async with playwright_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = await browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                      has_touch=True)
        await page.goto(url)
        await page.wait_for_function("document.getElementById('status').textContent.includes('connecté')",
                                     timeout=60_000)
        await page.wait_for_function("document.querySelectorAll('#command-list option').length > 3", timeout=60_000)
        suggested = set(await page.eval_on_selector_all("#command-list option", "(os) => os.map((o) => o.value)"))
        assert {"ludix lancer", "ludix regles", "historique"} <= suggested and "ludix start" not in suggested
        assert await form_height(page) <= 0.2 * 844
        # the internal name is not a name Alice's French client knows
        await send_command(page, "ludix start")
        await page.locator("#toast", has_text="Commande inconnue").wait_for(timeout=5_000)
        # an option over its limit: the reason under the field, nothing sent
        await send_command(page, "/ludix lancer", {"objectif": "5000"})
        error = page.locator("[data-testid='error-objectif']")
        assert "entre 50 et 1000" in await error.inner_text()
        assert await page.locator("[data-testid='option-objectif']").get_attribute("aria-invalid") == "true"
        await asyncio.sleep(1.5)
        assert await page.locator("#messages .msg").count() == 0
        await page.screenshot(path="/tmp/ludibot-sandbox-limit-fr.png")
        # the open form can be folded back to one line
        assert await form_height(page) <= 0.45 * 844
        await page.locator("[data-testid='options-toggle']").click()
        assert await form_height(page) <= 0.2 * 844
        await page.locator("[data-testid='options-toggle']").click()
        await page.locator("[data-testid='option-objectif']").fill("50")
        assert await error.inner_text() == ""
        await page.locator("[data-testid='send']").click()
        state = await settle(page, lambda s: "Rejoindre" in s["text"] and "Alice" in s["text"])
        in_view(state)
        assert state["path"] == ""
        # Bruno's client speaks English: the page's words, the command names and the bot's private answers
        assert await page.locator("[data-testid='lang-Bruno']").inner_text() == "FR"
        await page.locator("[data-testid='lang-Bruno']").click()
        await page.wait_for_function("document.querySelector(\"[data-testid='lang-Bruno']\").textContent === 'EN'")
        assert await page.locator("[data-testid='send']").inner_text() == "Envoyer"  # Alice's page is unchanged
        await as_player(page, "Bruno")
        await page.wait_for_function("document.getElementById('send').textContent === 'Send'")
        suggested = set(await page.eval_on_selector_all("#command-list option", "(os) => os.map((o) => o.value)"))
        assert {"ludix start", "ludix rules", "history", "tectonic undo"} <= suggested and "ludix lancer" not in suggested
        await page.locator("[data-testid='channel-tournoi']").click()
        await page.wait_for_function("document.getElementById('channel-title').textContent.includes('tournoi')")
        # options typed after the name, as Discord's box takes them: filled in their fields
        await page.locator("[data-testid='command-path']").fill("/ludix start target:60 thread:False")
        await page.locator("[data-testid='command-path']").dispatch_event("input")
        assert await page.locator("[data-testid='option-target']").input_value() == "60"
        assert await page.locator("[data-testid='option-thread']").input_value() == "false"
        await page.locator("[data-testid='send']").click()
        state = await settle(page, lambda s: "Bruno" in s["text"] and "60" in s["text"])
        in_view(state)
        await send_command(page, "ludix rules")
        state = await settle(page, lambda s: "Ludix — the goal" in s["text"])
        assert "Only you can see this" in state["text"] and "Dismiss message" in state["text"], state
        await page.screenshot(path="/tmp/ludibot-sandbox-rules-en.png")
        await as_player(page, "Alice")
        await page.wait_for_function("document.getElementById('send').textContent === 'Envoyer'")
        await send_command(page, "ludix regles")
        state = await settle(page, lambda s: "Ludix — le but" in s["text"])
        assert "Ignorer ce message" in state["text"] and "the goal" not in await page.locator("#messages").inner_text()
        await page.screenshot(path="/tmp/ludibot-sandbox-rules-fr.png")
        count = await page.locator("#messages .msg").count()
        await page.locator("#messages .msg.ephemeral").last.locator("[data-testid='dismiss']").click()
        assert await page.locator("#messages .msg").count() == count - 1
        assert "Ludix — le but" not in await page.locator("#messages").inner_text()
        await browser.close()


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
@pytest.mark.parametrize("console_lang", ["en"])
async def test_a_sandbox_started_in_english(sandbox):
    """`LANG=en make run`: the server is made in English (« # games », « # tournament », the bot's public
    messages), every player's client is English and types « /ludix start target: »."""
    url, proc = sandbox
    async with playwright_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = await browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                      has_touch=True)
        await page.goto(url)
        await page.wait_for_function("document.getElementById('status').textContent.includes('connected')",
                                     timeout=60_000)
        await page.wait_for_function("document.querySelectorAll('#command-list option').length > 3", timeout=60_000)
        channels = await page.locator("#channels .channel").all_inner_texts()
        assert channels == ["# games", "# tournament"], channels
        assert await page.locator("#players button.lang").all_inner_texts() == ["EN", "EN", "EN"]
        await send_command(page, "ludix start", {"target": "50"})
        state = await settle(page, lambda s: "Join" in s["text"] and "game #1" in s["text"])
        in_view(state)
        await page.screenshot(path="/tmp/ludibot-sandbox-english-lobby.png")
        await browser.close()


#: (console language, the start command as that client types it, the board button, the chat's words once played)
BOARD_CASES = {
    "fr": ("/limit lancer plateau:nexus solo:True", "Jouer sur le plateau", "connecté"),
    "en": ("/limit start board:nexus solo:True", "Play on the board", "connected"),
}


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
@pytest.mark.parametrize("console_lang", ["fr", "en"])
async def test_the_board_opens_over_the_chat_and_a_touch_move_reaches_it(sandbox, console_lang):
    """Issue 35 item 6: the sandbox runs the bot with Activities on. At 390 × 844, Alice starts a solo Take it
    to the Limit game and taps « 🎲 Jouer sur le plateau » (a LAUNCH_ACTIVITY answer): the Activity opens
    over the chat at phone size, framed by the fake's Discord client page (which plays Discord's side of
    the SDK's protocol); the board shows the table's picture, a cell touched then confirmed is the move,
    and the chat, once the board is closed, shows it."""
    from tests.e2e.test_activity_touch_e2e import targets, until

    url, proc = sandbox
    command, button, online = BOARD_CASES[console_lang]
    async with playwright_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = await browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                      has_touch=True)
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        try:
            await page.goto(url)
            await page.wait_for_function(f"document.getElementById('status').textContent.includes({online!r})",
                                         timeout=60_000)
            await page.wait_for_function("document.querySelectorAll('#command-list option').length > 3",
                                         timeout=60_000)
            await send_command(page, command)
            board_button = page.locator("#messages .msg button.comp", has_text=button).last
            await board_button.wait_for(timeout=20_000)
            assert await page.locator("[data-testid='activity']").is_hidden()
            chat_before = await page.locator("#messages").inner_text()
            await board_button.click()
            overlay = page.locator("[data-testid='activity']")
            await overlay.wait_for(state="visible", timeout=10_000)
            box = await page.locator("[data-testid='activity-frame']").bounding_box()
            assert box is not None and box["width"] == 390 and box["height"] >= 700, box  # the phone's screen
            frame = None
            for _ in range(200):
                frame = next((f for f in page.frames if "/_fake/activity/" in f.url), None)
                if frame is not None:
                    break
                await asyncio.sleep(0.05)
            assert frame is not None, [f.url for f in page.frames]
            await frame.wait_for_selector("body[data-version]", state="attached", timeout=30_000)
            # the table's picture, as the channel's card shows it, at the page's width
            size = await frame.evaluate("(() => { const i = document.getElementById('board');"
                                        " return [i.naturalWidth, i.getBoundingClientRect().width]; })()")
            assert size[0] > 0 and size[1] >= 360, size
            game_id = int(await until(frame, "game", bool))
            version = int(await frame.evaluate("document.body.dataset.version"))
            await until(frame, "touch", lambda v: v == f"{game_id}:{version}:0", what="the tile's cells")
            cells = await targets(frame, "mine")
            assert cells and all(c.startswith("cell:") for c in cells), cells
            await page.screenshot(path=f"/tmp/ludibot-sandbox-board-{console_lang}.png")
            cell = next((c for c in cells if not c.startswith("cell:X")), cells[0])  # a cell of the board itself
            await frame.tap(f'#mine-hits polygon[data-region="{cell}"]')
            await until(frame, "touch", lambda v: v.endswith(":preview"), what="the preview")
            tile = (await frame.text_content("#preview-text")).split()[0]  # « 12-2-5 en X1 : … »
            assert f"({tile})" not in chat_before
            await page.screenshot(path=f"/tmp/ludibot-sandbox-board-preview-{console_lang}.png")
            await frame.tap("#confirm")
            await until(frame, "version", lambda v: v and int(v) > version, what="the move")
            # the chat, under the board, shows the move: « Tuile 1 (12-2-5) posée. »
            await page.locator("[data-testid='activity-close']").click()
            await overlay.wait_for(state="hidden", timeout=5_000)
            for _ in range(100):
                chat = await page.locator("#messages").inner_text()
                if f"({tile})" in chat:
                    break
                await asyncio.sleep(0.1)
            assert f"({tile})" in chat, chat[-600:]
            await page.screenshot(path=f"/tmp/ludibot-sandbox-board-chat-{console_lang}.png")
            assert errors == [], errors
        finally:
            await browser.close()
