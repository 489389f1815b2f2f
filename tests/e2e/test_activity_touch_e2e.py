"""The board is the control (issue 35): games played by touching the same picture the chat shows, in
Chromium at phone size (390×844), through the fake Discord's client page, against the real bot process.
A touch highlights the moves the engine allows from there, the next chooses, the server draws the
preview, « Confirmer » makes the move with the version. Every HTTP answer and socket frame the page
receives is recorded and checked: nothing of another seat's (or of the future: the next tile) reaches it."""

from __future__ import annotations

import asyncio
import json
import math
import statistics
import time

import pytest
import pytest_asyncio

from bot.storage import FINISHED, RUNNING
from engines import get as engine_of
from tests.e2e.harness import StateReader, read_game_row, usual_world
from tests.e2e.test_activity_page_e2e import CHROMIUM, CHROMIUM_ARGS, built_page, frame_of, playwright_api

pytestmark = pytest.mark.e2e
SOCKET_KEYS = {"hello", "game", "version", "status", "resync", "error", "message"}


@pytest_asyncio.fixture
async def world(tmp_path, bot_db):
    built_page()
    async with usual_world(tmp_path, bot_db, activities=True) as w:
        w.fake.map_activity(w.activity_base)
        yield w


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


async def open_page(pw, fake, user):
    browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    page = await browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    recorder = Recorder(page)
    await page.goto(fake.activity_client_url(user, "jeux"))
    frame = await frame_of(page)
    await frame.wait_for_selector("body[data-version]", state="attached", timeout=30000)
    return browser, page, frame, recorder


async def choose(frame, which: str, game_id: int, version: int, regions: list[str], timings: dict) -> str:
    """Tap ``regions`` in order (each one highlighted first), then wait for the preview; its text."""
    for k, region in enumerate(regions):
        await until(frame, "touch", lambda v, k=k: v == f"{game_id}:{version}:{k}", what=f"touch {k}")
        shown = await targets(frame, which)
        assert region in shown, (region, shown)
        start = time.monotonic()
        await tap(frame, which, region)
        last = k == len(regions) - 1
        await until(frame, "touch", (lambda v: v.endswith(":preview")) if last else
                    (lambda v, k=k: v == f"{game_id}:{version}:{k + 1}"), what="the preview" if last else "targets")
        timings["preview" if last else "targets"].append(time.monotonic() - start)
    return await frame.text_content("#preview-text")


#: a move a second at most: a player's pace (touch, read the preview, confirm), within the API's rate limit
PACE = 1.0


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


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
async def test_a_whole_take_it_to_the_limit_solo_game_by_touch_only(world):
    fake, u, db = world.fake, world.u, world.bot.db
    res = await fake.run_command(u.alice, "jeux", "limit start", plateau="nexus", solo=True)
    assert not res.ephemeral
    engine = engine_of("limit")
    timings: dict[str, list[float]] = {"targets": [], "preview": []}
    async with playwright_api.async_playwright() as pw:
        browser, page, frame, rec = await open_page(pw, fake, u.alice)
        try:
            game_id = int(await until(frame, "game", bool))
            for rnd in range(1, 100):
                row = read_game_row(db, game_id)
                if row.status != RUNNING:
                    break
                state = engine.from_dict(row.state)
                tile = engine.current_tile(state)
                await until(frame, "touch", lambda v, r=row: v == f"{game_id}:{r.version}:0", what=f"tile {rnd}")
                shown = await targets(frame, "mine")
                assert sorted(shown) == sorted(f"cell:{p}" for p in engine.legal_positions(state, 0))
                if rnd == 1:
                    await page.screenshot(path=str(world.tmp / "touch-limit-fr.png"))
                began = time.monotonic()
                cell = shown[(rnd * 7) % len(shown)]
                text = await choose(frame, "mine", game_id, row.version, [cell], timings)
                assert text.startswith(f"{tile} en {cell.removeprefix('cell:')} : ") and "si la partie s'arrêtait là" in text, text
                if rnd == 1:
                    await page.screenshot(path=str(world.tmp / "touch-limit-preview-fr.png"))
                await rec.settle()
                rec.check(0, hidden=tuple(state.deck[state.round_no:]))  # the tiles still to come: nowhere
                await confirm(frame, db, game_id, row.version, began)
                after = engine.from_dict(read_game_row(db, game_id).state)
                assert cell.removeprefix("cell:") in after.boards[0] or after.game_no != state.game_no
            else:
                pytest.fail("the solo game did not end")
            assert read_game_row(db, game_id).status == FINISHED and rnd > 40
            await rec.settle()
            rec.check(0)
            assert rec.errors == [], rec.errors
        finally:
            await browser.close()
    report(timings)
    assert world.bot.tracebacks() == []


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
async def test_a_tectonic_game_against_the_bot_by_touch_in_english(world):
    """Dave (English) plays the moves the level-1 AI would choose for him, each by touching the piece then
    its destination (then the piece to flip, when there is a choice)."""
    fake, u, db = world.fake, world.u, world.bot.db
    await fake.run_command(u.dave, "jeux", "tectonic start", adversaire="bot")
    engine = engine_of("tectonic")
    timings: dict[str, list[float]] = {"targets": [], "preview": []}
    async with StateReader(db, engine) as reader, playwright_api.async_playwright() as pw:
        browser, page, frame, rec = await open_page(pw, fake, u.dave)
        try:
            game_id = int(await until(frame, "game", bool))
            for n in range(120):
                game, state = await reader.state(game_id)
                if state.finished:
                    break
                assert state.current == 0
                action = engine.ai_action(state, 0, 1)
                regions = ["cell:" + action["from"], "cell:" + action["to"]]
                flips = [a for a in engine.legal_actions(state, 0) if (a["from"], a["to"]) == (action["from"],
                                                                                                 action["to"])]
                if len(flips) > 1:
                    regions.append("cell:" + action["flip"])
                if n == 0:
                    await until(frame, "touch", lambda v, g=game: v == f"{game_id}:{g.version}:0")
                    await page.screenshot(path=str(world.tmp / "touch-tectonic-en.png"))
                began = time.monotonic()
                text = await choose(frame, "board", game_id, game.version, regions, timings)
                assert text.startswith(f"{action['from']} → {action['to']}"), text
                if n == 0:
                    assert await frame.text_content("#confirm") == "Confirm"
                    await page.screenshot(path=str(world.tmp / "touch-tectonic-preview-en.png"))
                await confirm(frame, db, game_id, game.version, began)
                start = time.monotonic()
                while True:  # the bot's reply (or the end)
                    game, after = await reader.state(game_id)
                    if after.finished or after.current == 0:
                        break
                    assert time.monotonic() - start < 30, "the bot did not reply"
                    await asyncio.sleep(0.05)
            else:
                pytest.fail("the game against the bot did not end")
            assert (await reader.game(game_id)).status == FINISHED
            await rec.settle()
            rec.check(0)
            assert rec.errors == [], rec.errors
        finally:
            await browser.close()
    report(timings)
    assert world.bot.tracebacks() == []


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
async def test_armada_placement_and_a_move_by_touch(world):
    """Alice (Spain) against Bruno (England), both on the board: ships placed by touching a point, then,
    Spain's reserve spent, a ship moved by touching it then its new point."""
    fake, u, db = world.fake, world.u, world.bot.db
    lobby = (await fake.run_command(u.alice, "jeux", "armada start", plateau="9x9")).message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    engine = engine_of("armada")
    timings: dict[str, list[float]] = {"targets": [], "preview": []}
    async with StateReader(db, engine) as reader, playwright_api.async_playwright() as pw:
        pages = {}
        try:
            for seat, user in ((0, u.alice), (1, u.bruno)):
                pages[seat] = await open_page(pw, fake, user)
            game_id = int(await until(pages[0][2], "game", bool))
            moved = False
            for n in range(200):
                game, state = await reader.state(game_id)
                if state.finished or moved or game.state is None:
                    break
                seat = state.current
                _, page, frame, rec = pages[seat]
                legal = engine.legal_actions(state, seat)
                if legal == [{"type": "pass"}]:
                    break
                moves = [a for a in legal if a["type"] == "move"]
                action = moves[0] if moves else legal[(n * 5) % len(legal)]
                regions = (["point:" + action["point"]] if "point" in action else
                           ["point:" + action["from"], "point:" + action["to"]])
                if action.get("capture"):
                    regions.append("point:" + action["capture"])
                began = time.monotonic()
                text = await choose(frame, "board", game_id, game.version, regions, timings)
                assert text.startswith(action.get("point") or f"{action['from']} → {action['to']}"), text
                if n == 0:
                    await page.screenshot(path=str(world.tmp / "touch-armada-fr.png"))
                await confirm(frame, db, game_id, game.version, began)
                moved = action["type"] == "move"
            assert moved, "Spain never moved a ship"
            for seat, (_, _, _, rec) in pages.items():
                await rec.settle()
                rec.check(seat)
                assert rec.errors == [], rec.errors
        finally:
            for browser, *_ in pages.values():
                await browser.close()
    report(timings)
    assert world.bot.tracebacks() == []


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
async def test_ludix_a_roll_then_stop_by_touch(world):
    """Alice rolls by touching the dice, then, if the roll scored, banks by touching her row."""
    fake, u, db = world.fake, world.u, world.bot.db
    lobby = (await fake.run_command(u.alice, "jeux", "ludix start", objectif=50)).message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    engine = engine_of("ludix")
    timings: dict[str, list[float]] = {"targets": [], "preview": []}
    async with playwright_api.async_playwright() as pw:
        browser, page, frame, rec = await open_page(pw, fake, u.alice)
        try:
            game_id = int(await until(frame, "game", bool))
            row = read_game_row(db, game_id)
            began = time.monotonic()
            text = await choose(frame, "board", game_id, row.version, ["dice"], timings)
            assert text.startswith("Lancer les dés : rien n'est encore en jeu"), text
            await confirm(frame, db, game_id, row.version, began)
            row = read_game_row(db, game_id)
            state = engine.from_dict(row.state)
            if state.current == 0:  # the roll scored: « Stop » banks it
                began = time.monotonic()
                text = await choose(frame, "board", game_id, row.version, ["stop"], timings)
                assert text == f"Stop : 0 → {state.turn_total} points, et la main passe.", text
                await confirm(frame, db, game_id, row.version, began)
                assert engine.from_dict(read_game_row(db, game_id).state).scores[0] == state.turn_total
            await rec.settle()
            rec.check(0)
            assert rec.errors == [], rec.errors
        finally:
            await browser.close()
    report(timings)
    assert world.bot.tracebacks() == []


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
async def test_lutinades_the_picker_follows_by_touch(world):
    """Bruno and Chloé make their gestures in the chat; Alice, the picker, follows Chloé by touching her row."""
    from tests.e2e.test_lutinades_e2e import open_table, published

    fake, u, db = world.fake, world.u, world.bot.db
    msg = await open_table(world, "standard", (u.bruno, u.chloe))
    await fake.click(u.bruno, msg, label="Vers le bas", until=published)
    await fake.click(u.chloe, msg, label="Vers le haut", until=published)
    engine = engine_of("lutinades")
    timings: dict[str, list[float]] = {"targets": [], "preview": []}
    async with playwright_api.async_playwright() as pw:
        browser, page, frame, rec = await open_page(pw, fake, u.alice)
        try:
            game_id = int(await until(frame, "game", bool))
            row = read_game_row(db, game_id)
            state = engine.from_dict(row.state)
            assert state.picker == 0 and state.phase == "choice"
            began = time.monotonic()
            text = await choose(frame, "board", game_id, row.version, ["seat:2"], timings)
            assert text.startswith("Suivre Chloé :"), text
            await page.screenshot(path=str(world.tmp / "touch-lutinades-fr.png"))
            await confirm(frame, db, game_id, row.version, began)
            after = engine.from_dict(read_game_row(db, game_id).state)
            assert after.turn == state.turn + 1
            await rec.settle()
            rec.check(0)
            assert rec.errors == [], rec.errors
        finally:
            await browser.close()
    assert "La carte est révélée" in last_published(fake)
    assert world.bot.tracebacks() == []


def last_published(fake) -> str:
    return "\n".join(m.content or "" for m in fake.messages("jeux")[-3:])
