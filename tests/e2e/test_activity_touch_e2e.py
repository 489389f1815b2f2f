"""The board is the control (issue 35): games played by touching the same picture the chat shows, in
Chromium at phone size (390×844), through the fake Discord's client page, against the real bot process.
A touch highlights the moves the engine allows from there, the next chooses, the server draws the
preview, « Confirmer » makes the move with the version. Every HTTP answer and socket frame the page
receives is recorded and checked: nothing of another seat's (or of the future: the next tile) reaches it."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bot.storage import FINISHED, RUNNING
from engines import get as engine_of
from tests.e2e.activity_harness import (
    CHROMIUM,
    boards,
    choose,
    confirm,
    report,
    tap,
    targets,
    until,
    until_text,
)
from tests.e2e.harness import StateReader, read_game_row

pytestmark = pytest.mark.e2e
ACTIVITIES = True  # the world (conftest.py): Activities on, the page built and mapped


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
async def test_a_whole_take_it_to_the_limit_solo_game_by_touch_only(world):
    fake, u, db = world.fake, world.u, world.bot.db
    res = await fake.run_command(u.alice, "jeux", "limit start", plateau="nexus", solo=True)
    assert not res.ephemeral
    engine = engine_of("limit")
    timings: dict[str, list[float]] = {"targets": [], "preview": []}
    async with boards(fake, u.alice) as [(page, frame, rec)]:
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
            assert text.startswith(f"{tile} en {cell.removeprefix('cell:')}\u00a0: ") and "si la partie s'arrêtait là" in text, text
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
        await rec.finish(0)
    report(timings)
    assert world.bot.tracebacks() == []


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
async def test_a_tectonic_game_against_the_bot_by_touch_in_english(world):
    """Dave (English) plays the moves the level-1 AI would choose for him, each by touching the piece then
    its destination; when the move may flip either of several pieces, the flips are the preview's choices
    (« Flip C3 »): never a third touch."""
    fake, u, db = world.fake, world.u, world.bot.db
    await fake.run_command(u.dave, "jeux", "tectonic start", adversaire="bot")
    engine = engine_of("tectonic")
    timings: dict[str, list[float]] = {"targets": [], "preview": []}
    async with StateReader(db, engine) as reader, boards(fake, u.dave) as [(page, frame, rec)]:
        game_id = int(await until(frame, "game", bool))
        shot = False
        rng = random.Random(7)
        for n in range(200):
            game, state = await reader.state(game_id)
            if state.finished:
                break
            assert state.current == 0
            # Dave plays as the level-1 AI would, then (a game of two cautious sides can go on for long:
            # only a third repetition ends it) any legal move, which the bot soon punishes
            action = engine.ai_action(state, 0, 1) if n < 30 else rng.choice(engine.legal_actions(state, 0))
            regions = ["cell:" + action["from"], "cell:" + action["to"]]
            flips = [a for a in engine.legal_actions(state, 0) if (a["from"], a["to"]) == (action["from"],
                                                                                             action["to"])]
            if n == 0:
                await until(frame, "touch", lambda v, g=game: v == f"{game_id}:{g.version}:0")
                await page.screenshot(path=str(world.tmp / "touch-tectonic-en.png"))
            began = time.monotonic()
            text = await choose(frame, "board", game_id, game.version, regions, timings)
            assert text.startswith(f"{action['from']} → {action['to']}"), text
            labels = await frame.evaluate("[...document.querySelectorAll('#choices button')]"
                                          ".map(b => b.textContent)")
            if len(flips) > 1:  # the flips: the preview's choices, the AI's by its label
                assert sorted(labels) == sorted(f"Flip {a['flip']}" for a in flips), labels
                if not text.endswith(f"✕ {action['flip']}"):
                    await frame.tap(f"#choices button:text-is('Flip {action['flip']}')")
                    await until_text(frame, "#preview-text", lambda t, f=action["flip"]: t.endswith(f"✕ {f}"))
                if not shot:
                    shot = True
                    await page.screenshot(path=str(world.tmp / "touch-tectonic-flip-en.png"))
            else:
                assert labels == [], labels
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
        await rec.finish(0)
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
    async with StateReader(db, engine) as reader, boards(fake, u.alice, u.bruno) as opened:
        pages = dict(enumerate(opened))  # Spain's, England's
        game_id = int(await until(pages[0][1], "game", bool))
        moved = False
        for n in range(200):
            game, state = await reader.state(game_id)
            if state.finished or moved or game.state is None:
                break
            seat = state.current
            page, frame, rec = pages[seat]
            legal = engine.legal_actions(state, seat)
            if legal == [{"type": "pass"}]:
                break
            moves = [a for a in legal if a["type"] == "move"]
            action = moves[0] if moves else legal[(n * 5) % len(legal)]
            regions = (["point:" + action["point"]] if "point" in action else
                       ["point:" + action["from"], "point:" + action["to"]])
            began = time.monotonic()
            text = await choose(frame, "board", game_id, game.version, regions, timings)
            assert text.startswith(action.get("point") or f"{action['from']} → {action['to']}"), text
            if action.get("capture") and not text.endswith(f"✕ {action['capture']}"):
                # the ships the move may capture: the preview's choices, never a third touch
                await frame.tap(f"#choices button:text-is('Prendre {action['capture']}')")
                await until_text(frame, "#preview-text", lambda t, c=action["capture"]: t.endswith(f"✕ {c}"))
            if n == 0:
                await page.screenshot(path=str(world.tmp / "touch-armada-fr.png"))
            await confirm(frame, db, game_id, game.version, began)
            moved = action["type"] == "move"
        assert moved, "Spain never moved a ship"
        for seat, (_, _, rec) in pages.items():
            await rec.finish(seat)
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
    async with boards(fake, u.alice) as [(_, frame, rec)]:
        game_id = int(await until(frame, "game", bool))
        row = read_game_row(db, game_id)
        began = time.monotonic()
        text = await choose(frame, "board", game_id, row.version, ["dice"], timings)
        assert text.startswith("Lancer les dés\u00a0: rien n'est encore en jeu"), text
        await confirm(frame, db, game_id, row.version, began)
        row = read_game_row(db, game_id)
        state = engine.from_dict(row.state)
        if state.current == 0:  # the roll scored: « Stop » banks it
            began = time.monotonic()
            text = await choose(frame, "board", game_id, row.version, ["stop"], timings)
            assert text == f"Stop\u00a0: 0 → {state.turn_total} points, et la main passe.", text
            await confirm(frame, db, game_id, row.version, began)
            assert engine.from_dict(read_game_row(db, game_id).state).scores[0] == state.turn_total
        await rec.finish(0)
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
    async with boards(fake, u.alice) as [(page, frame, rec)]:
        game_id = int(await until(frame, "game", bool))
        row = read_game_row(db, game_id)
        state = engine.from_dict(row.state)
        assert state.picker == 0 and state.phase == "choice"
        began = time.monotonic()
        text = await choose(frame, "board", game_id, row.version, ["seat:2"], timings)
        assert text.startswith("Suivre Chloé\u00a0:"), text
        await page.screenshot(path=str(world.tmp / "touch-lutinades-fr.png"))
        await confirm(frame, db, game_id, row.version, began)
        after = engine.from_dict(read_game_row(db, game_id).state)
        assert after.turn == state.turn + 1
        await rec.finish(0)
    # a move made on the board reaches the channel by the publisher, after the move is committed: waited for
    await fake.wait_until(lambda: "La carte est révélée" in last_published(fake), timeout=20,
                          what="the reveal's card in the channel")
    assert world.bot.tracebacks() == []


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
async def test_lutinades_the_lutins_gestures_by_touch(world):
    """Bruno (French) and Dave (English), the lutins, each touch a gesture under their own card; the picker
    Alice sees neither until both are in. Each page shows only its own seat's card."""
    from tests.e2e.test_lutinades_e2e import open_table

    fake, u, db = world.fake, world.u, world.bot.db
    await open_table(world, "standard", (u.bruno, u.dave))
    engine = engine_of("lutinades")
    timings: dict[str, list[float]] = {"targets": [], "preview": []}
    said = {1: ("gesture:down", "Votre geste\u00a0: Vers le bas. Il reste secret"),
            2: ("gesture:up", "Your gesture: Up. It stays secret")}
    async with boards(fake, u.bruno, u.dave) as opened:
        pages = dict(zip((1, 2), opened, strict=True))
        game_id = int(await until(pages[1][1], "game", bool))
        for seat, (region, text_start) in said.items():
            page, frame, rec = pages[seat]
            row = read_game_row(db, game_id)
            state = engine.from_dict(row.state)
            assert state.picker == 0 and state.phase == "gestures" and state.gestures[seat] is None
            lang = "fr" if seat == 1 else "en"
            await until(frame, "touch", lambda v, r=row: v == f"{game_id}:{r.version}:0", what="the gestures")
            assert sorted(await targets(frame, "mine")) == sorted(
                f"gesture:{k}" for k in ("up", "down", "horizontal", "small"))
            await page.screenshot(path=str(world.tmp / f"touch-lutinades-gestures-{lang}.png"))
            began = time.monotonic()
            text = await choose(frame, "mine", game_id, row.version, [region], timings)
            assert text.startswith(text_start), text
            await page.screenshot(path=str(world.tmp / f"touch-lutinades-gesture-preview-{lang}.png"))
            await confirm(frame, db, game_id, row.version, began)
            after = engine.from_dict(read_game_row(db, game_id).state)
            assert after.gestures[seat] == (region.removeprefix("gesture:"), None)
        assert engine.from_dict(read_game_row(db, game_id).state).phase == "choice"
        for seat, (_, _, rec) in pages.items():
            await rec.finish(seat)
    report(timings)
    assert world.bot.tracebacks() == []


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_ranta_a_box_by_its_dice_then_its_cells(world, lang):
    """Alice (Dave in English) draws this round's box by touching the size die and the category die on the table's dice,
    then its bottom-left cell and its far corner on her own kallax; Bruno's kallax stays hidden."""
    fake, u, db = world.fake, world.u, world.bot.db
    alice = u.alice if lang == "fr" else u.dave  # Dave's Discord speaks English
    lobby = (await fake.run_command(alice, "jeux", "ranta start", mode="classique")).message
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(alice, lobby, label="Lancer")  # the channel's card speaks the server's language
    engine = engine_of("ranta")
    timings: dict[str, list[float]] = {"targets": [], "preview": []}
    async with boards(fake, alice) as [(page, frame, rec)]:
        game_id = int(await until(frame, "game", bool))
        row = read_game_row(db, game_id)
        state = engine.from_dict(row.state)
        a = engine.assignments(state)[0]
        action = {"type": "box", "round": 1, "dice": a["dice"], "orientation": "vertical", "cell": "A1"}
        p = engine.preview(state, 0, action)["preview"]  # standing, from A1: its far corner says so
        corner = max(p["cells"], key=lambda c: (c[0], int(c[1:])))
        began = time.monotonic()
        await until(frame, "touch", lambda v: v == f"{game_id}:{row.version}:0", what="the first touch")
        await page.screenshot(path=str(world.tmp / f"touch-ranta-{lang}.png"))
        text = await choose(frame, ["board", "board", "mine", "mine"], game_id, row.version,
                            [f"die:{a['dice'][0]}", f"die:{a['dice'][1]}", "cell:A1", f"cell:{corner}"], timings)
        cells = " ".join(p["cells"])
        assert text == (f"Boîte en {cells}\u00a0: {p['before']} → {p['after']} points." if lang == "fr" else
                        f"Box on {cells}: {p['before']} → {p['after']} points."), text
        await page.screenshot(path=str(world.tmp / f"touch-ranta-preview-{lang}.png"))
        await confirm(frame, db, game_id, row.version, began)
        after = engine.from_dict(read_game_row(db, game_id).state)
        item = after.sheets[0][0]
        assert sorted(item.cells) == sorted(p["cells"]) and after.placed[0] and not after.placed[1]
        await rec.finish(0)
    assert world.bot.tracebacks() == []


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_ludime_a_word_formed_by_tapping_letters(world, lang):
    """Whoever the die made the dealer draws by touching the pile, then spells a word of six letters or
    more by touching the cards of their hand in order, and lays it with « Confirmer ». (Dave's Discord
    speaks English.)"""
    from engines.ludime import lexicon
    from tests.e2e.ludime_driver import started

    fake, u, db = world.fake, world.u, world.bot.db
    players = (u.alice if lang == "fr" else u.dave, u.bruno)
    lobby = (await fake.run_command(players[0], "jeux", "ludime start", variant="main")).message
    game_id = int(lobby.buttons[0]["custom_id"].split(":")[1])
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(players[0], lobby, label="Lancer", until=started)
    engine = engine_of("ludime")
    timings: dict[str, list[float]] = {"targets": [], "preview": []}
    row = read_game_row(db, game_id)
    seat = engine.from_dict(row.state).current
    player = players[seat]
    said = ("Draw from the pile: the card is known only once drawn.", "Lay {}: +") if player is u.dave else \
        ("Piocher\u00a0: la carte n'est connue qu'une fois piochée.", "Poser {}\u00a0: +")  # in the player's language
    async with boards(fake, player) as [(page, frame, rec)]:
        assert int(await until(frame, "game", bool)) == game_id
        began = time.monotonic()
        text = await choose(frame, "board", game_id, row.version, ["pile"], timings)
        assert text == said[0], text
        await confirm(frame, db, game_id, row.version, began)
        row = read_game_row(db, game_id)
        state = engine.from_dict(row.state)
        hand = state.hands[seat]
        other = "".join(state.hands[1 - seat])
        word = next(w for w in lexicon.find_words("".join(hand), min_len=6, max_len=8))
        free = list(enumerate(hand))
        cards = [f"card:{free.pop(next(k for k, (_, c) in enumerate(free) if c == letter))[0]}"
                 for letter in word]
        began = time.monotonic()
        for k, card in enumerate(cards):  # each tap: the word one letter longer (a preview once it is one)
            if k == 3:
                await page.screenshot(path=str(world.tmp / f"touch-ludime-letters-{lang}.png"))
            await until(frame, "touch", lambda v, k=k: v.startswith(f"{game_id}:{row.version}:{k}") and
                        v.split(":")[2] == str(k), what=f"letter {k}")
            assert card in await targets(frame, "mine"), card
            start = time.monotonic()
            await tap(frame, "mine", card)
            timings["targets"].append(time.monotonic() - start)
        await until(frame, "touch", lambda v: v == f"{game_id}:{row.version}:{len(cards)}:preview",
                    what="the word's preview")
        text = await frame.text_content("#preview-text")
        assert text.startswith(said[1].format(word)), text
        await page.screenshot(path=str(world.tmp / f"touch-ludime-{lang}.png"))
        await confirm(frame, db, game_id, row.version, began)
        after = engine.from_dict(read_game_row(db, game_id).state)
        assert [w[1] for w in after.words] == [word] and len(after.hands[seat]) == len(hand) - len(word)
        await rec.finish(seat, hidden=(other,))
    assert world.bot.tracebacks() == []


def _lengthening(engine, state, seat):
    """A word of ``seat``'s on the table and a card of its hand that lengthen it (the engine accepts),
    or None: ``(word id, old word, card index, action)``."""
    from collections import Counter

    from engines.base import RuleError
    from engines.ludime import lexicon

    hand = state.hands[seat]
    for wid, old, owner in state.words:
        if owner != seat:
            continue
        for i, letter in enumerate(hand):
            letters = Counter(old) + Counter(letter)
            for word in lexicon.find_words(letters, min_len=len(old) + 1, max_len=len(old) + 1, required=letters):
                action = {"type": "extend", "target": wid, "word": word}
                try:
                    engine.apply(state, seat, action)
                except RuleError:
                    continue
                return wid, old, i, action
    return None


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
async def test_ludime_a_word_lengthened_by_touching_it_then_a_card(world):
    """Alice and Bruno play Ludime in the chat (draw, a first word of six letters or more, discard) until one
    of them holds a card that lengthens their own word; that player then touches the word on the table
    and the card in their hand, and « Confirmer » lengthens it. Nothing of the other hand reaches the page."""
    from engines.ludime import lexicon
    from tests.e2e.ludime_driver import LudimeTable

    fake, u, db = world.fake, world.u, world.bot.db
    table = LudimeTable(world, [u.alice, u.bruno])
    await table.open("main")
    engine = engine_of("ludime")
    timings: dict[str, list[float]] = {"targets": [], "preview": []}
    try:
        found = None
        for _ in range(16):  # turns, in the chat, until a lengthening is in a hand
            state, game = await table.state()
            seat = state.current
            await table.play(seat, {"type": "draw", "source": "pile"})
            state, game = await table.state()
            found = _lengthening(engine, state, seat)
            if found:
                break
            if not any(o == seat for _, _, o in state.words):  # a first word (six letters or more)
                hand = "".join(state.hands[seat])
                words = lexicon.find_words(hand, min_len=6, max_len=8)
                if words:
                    await table.play(seat, {"type": "play", "words": [words[0]]})
                    state, game = await table.state()
            if state.hands[seat]:
                await table.play(seat, {"type": "discard", "letter": state.hands[seat][-1]})
        else:
            pytest.fail("nobody could lengthen a word in 16 turns")
        wid, old, card, action = found
        player = table.players[seat]
        other = "".join(state.hands[1 - seat])
        async with boards(fake, player) as [(page, frame, rec)]:
            assert int(await until(frame, "game", bool)) == game.id
            began = time.monotonic()
            text = await choose(frame, ["board", "mine"], game.id, game.version, [f"word:{wid}", f"card:{card}"],
                                timings)
            assert text.startswith(f"Allonger {old} en "), text
            await page.screenshot(path=str(world.tmp / "touch-ludime-lengthen-fr.png"))
            await confirm(frame, db, game.id, game.version, began)
            after = engine.from_dict(read_game_row(db, game.id).state)
            new = next(w for i, w, o in after.words if i == wid)
            assert sorted(new) == sorted(old + state.hands[seat][card]) and len(after.hands[seat]) == \
                len(state.hands[seat]) - 1
            await rec.finish(seat, hidden=(other,))
    finally:
        await table.close()
    report(timings)
    assert world.bot.tracebacks() == []


def last_published(fake) -> str:
    return "\n".join(m.content or "" for m in fake.messages("jeux")[-3:])
