"""The board's page in Chromium at phone size (390×844), framed by the fake Discord's client page, which
plays Discord's end of the Embedded App SDK's protocol: the real SDK, bundled into the page, handshakes,
authorizes and authenticates; the page shows the table's picture and whose turn it is, and follows a move
made in the chat within a second, without reloading."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.e2e.activity_harness import CHROMIUM, launch, phone, playwright_api
from tests.e2e.harness import mentioned, wait_control

pytestmark = pytest.mark.e2e
ACTIVITIES = True  # the world (conftest.py): Activities on, the page built and mapped


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
        browser, page = await phone(pw)
        try:
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
            try:
                frame = await launch(page, fake, u.alice, timeout=20000, shot=world.tmp / "activity-failed.png")
            except Exception:
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
