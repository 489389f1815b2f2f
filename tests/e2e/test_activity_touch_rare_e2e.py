"""The board's rarer moves by touch (issue 35), in Chromium at phone size (390×844) through the fake Discord's
client page, against the real bot process, in French and in English: L'Invincible Armada's « Passer » when
nothing else is legal and a capture chosen among several; Ludime's word of the table taken and its exchange;
Take it to the Limit's tile placed on the Déchetterie and the big orchid's relocation. Each move's effect is
read from the store; the refusal the page shows (a move for an older version: the game moved elsewhere
while the preview was open) is in the player's language and changes nothing; every API answer and socket
frame each page receives is checked: no other seat's view, no other hand.

The rare positions are set up with the engine and written as the game's next version
(:func:`~tests.e2e.harness.write_position`), before the page opens."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace

import pytest

from bot.activity.controls.limit import MAX_RELOCATIONS
from bot.storage import FINISHED
from engines import get as engine_of
from engines.armada import FLEET
from engines.armada.board import EMPTY, ENGLAND, SPAIN, geometry
from tests.e2e.activity_harness import (
    CHROMIUM,
    boards,
    choose,
    confirm,
    launch,
    report,
    until,
    until_text,
)
from tests.e2e.harness import read_game_row, write_position
from tests.test_activity_touch_moves import armada_board, ludime_position

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")]
ACTIVITIES = True  # the world (conftest.py): Activities on, the page built and mapped
LANGS = pytest.mark.parametrize("lang", ["fr", "en"])

#: the page's refusal of a move for an older version, and its hints, in each language (Dave's Discord
#: speaks English)
SAID = {
    "fr": {"stale": "Un autre coup a été joué entre-temps\u00a0: le plateau vient d'être mis à jour. Rien n'a changé.",
           "outside": "À vous de jouer. Aucun coup sur l'image\u00a0: touchez le bouton sous l'image.",
           "pass": "Passer", "passed": "Passer\u00a0: aucun autre coup n'est possible.", "capture": "Prendre {}",
           "next_letter": "À vous de jouer. Touchez la lettre suivante de votre mot (après une seule carte\u00a0: "
                          "la défausse, pour la jeter).",
           "took": "Prendre PORTE à Bruno\u00a0: {}, ",
           "exchange": "Échanger {}\u00a0: 2 cartes de la pioche, inconnues tant qu'elles ne sont pas reçues.",
           "fill": "{} en {} de la Déchetterie de votre voisin.",
           "relocate": "Déplacer les tuiles de la grande orchidée\u00a0: {} ({:+d} points).",
           "nothing": "Ne rien déplacer", "over": "La partie est terminée.",
           "nothing_text": "Ne rien déplacer\u00a0: les tuiles restent sur la grande orchidée (+0 point).",
           "confirm": "Confirmer"},
    "en": {"stale": "Another move was made meanwhile: the board has just been updated. Nothing changed.",
           "outside": "Your turn. No move on the picture: touch the button under it.",
           "pass": "Pass", "passed": "Pass: no other move is possible.", "capture": "Capture {}",
           "next_letter": "Your turn. Touch the next letter of your word (after a single card: the discard, "
                          "to throw it away).",
           "took": "Take PORTE from Bruno: {}, ",
           "exchange": "Exchange {}: 2 cards from the pile, unknown until you receive them.",
           "fill": "{} on {} of your neighbour's scrapyard.",
           "relocate": "Move the big orchid's tiles: {} ({:+d} points).",
           "nothing": "Move nothing", "over": "The game is over.",
           "nothing_text": "Move nothing: the tiles stay on the big orchid (+0 points).",
           "confirm": "Confirm"},
}


def timings() -> dict[str, list[float]]:
    return {"targets": [], "preview": []}


def player(world, lang: str):
    return world.u.alice if lang == "fr" else world.u.dave


async def labels(frame) -> list[str]:
    return await frame.evaluate("[...document.querySelectorAll('#choices button')].map(b => b.textContent)")


async def pick(frame, label: str, text_is) -> str:
    """Tap the preview's choice ``label``; the preview's new text, once ``text_is`` it."""
    await frame.tap(f"#choices button:text-is('{label}')")
    return await until_text(frame, "#preview-text", text_is)


async def refused_as_stale(frame, rec, db, engine, game_id: int, lang: str):
    """Another move was made meanwhile, through another process (a new version this page has not heard
    of): « Confirmer » is refused, in the player's language, with nothing of the move made; the page then
    shows the new version, its touches to begin again. The new version's row."""
    moved = await write_position(db, game_id, engine)
    await frame.tap("#confirm")
    assert await until_text(frame, "#error", bool) == SAID[lang]["stale"]
    await until(frame, "touch", lambda v: v == f"{game_id}:{moved.version}:0", what="the new version's touches")
    assert await frame.text_content("#error") == SAID[lang]["stale"]  # still shown over the new board
    after = read_game_row(db, game_id)
    assert (after.version, after.state) == (moved.version, moved.state)  # the refused move: nothing of it
    await rec.expect(409, "/move")
    return after


# --- L'Invincible Armada: « Passer » when nothing else is legal; a capture chosen among several -------------

@LANGS
async def test_armada_pass_when_nothing_else_is_legal_then_a_capture_among_several(world, lang):
    """Round 1, the player is England, its pair boxed in and its five ships out: only « Passer », a button
    under the picture (no region of the picture is highlighted). Round 2, the player is Spain: placing on
    D4 would take either E4 or F4, the preview's choices; the player takes F4."""
    fake, u, db = world.fake, world.u, world.bot.db
    me = player(world, lang)
    lobby = (await fake.run_command(me, "jeux", "armada start", plateau="9x9")).message
    game_id = int(lobby.buttons[0]["custom_id"].split(":")[1])
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(me, lobby, label="Lancer")
    engine = engine_of("armada")
    state = engine.from_dict(read_game_row(db, game_id).state)
    board = armada_board(state.size, {**dict.fromkeys(("A2", "B2", "C2", "C1"), SPAIN),
                                      **dict.fromkeys(("A1", "B1", "F6", "H6", "F9"), ENGLAND)})
    england = replace(state, board=board, spain_seat=1, turn=ENGLAND, reserve=(FLEET - 4, FLEET - 5))
    assert engine.legal_actions(england, 0) == [{"type": "pass"}]
    row = await write_position(db, game_id, engine, england)
    said = SAID[lang]
    times = timings()
    async with boards(fake, me) as [(page, frame, rec)]:
        assert int(await until(frame, "game", bool)) == game_id
        await until(frame, "touch", lambda v: v == f"{game_id}:{row.version}:0", what="England's touches")
        assert await frame.evaluate("document.querySelectorAll('#board-hits polygon').length") == 0
        assert await frame.text_content("#status") == said["outside"]
        button = '#outside button[data-region="pass"]'
        assert await frame.text_content(button) == said["pass"]
        await page.screenshot(path=str(world.tmp / f"touch-armada-pass-{lang}.png"))
        for attempt in range(2):  # the first « Confirmer » comes too late: a move was made elsewhere
            began = time.monotonic()
            await frame.tap(button)
            await until(frame, "touch", lambda v, r=row: v == f"{game_id}:{r.version}:1:preview", what="the pass")
            assert await frame.text_content("#preview-text") == said["passed"]
            if attempt == 0:
                await page.screenshot(path=str(world.tmp / f"touch-armada-pass-preview-{lang}.png"))
                row = await refused_as_stale(frame, rec, db, engine, game_id, lang)
                await page.screenshot(path=str(world.tmp / f"touch-armada-stale-{lang}.png"))
        await confirm(frame, db, game_id, row.version, began)
        after = engine.from_dict(read_game_row(db, game_id).state)
        assert after.turn == SPAIN and after.board == england.board and after.reserve == england.reserve
        await rec.settle()
        rec.check(0)
        # round 2: the player is Spain
        geo = geometry(state.size)
        spain = replace(after, board=armada_board(state.size, {"B4": SPAIN, "C4": SPAIN, "E4": ENGLAND,
                                                               "F4": ENGLAND}),
                        round_no=2, spain_seat=0, turn=SPAIN, reserve=(FLEET - 2, FLEET - 2), captures=(0, 0),
                        last_move=None, last_lines=(), ply=0)
        row = await write_position(db, game_id, engine, spain)
        frame = await launch(page, fake, me)  # the board opened again (this position came from no move)
        began = time.monotonic()
        text = await choose(frame, "board", game_id, row.version, ["point:D4"], times)
        assert text == "D4 ✕ E4", text
        assert await labels(frame) == [said["capture"].format("E4"), said["capture"].format("F4")]
        assert await pick(frame, said["capture"].format("F4"), lambda t: t == "D4 ✕ F4") == "D4 ✕ F4"
        assert await frame.text_content("#confirm") == said["confirm"]
        await page.screenshot(path=str(world.tmp / f"touch-armada-capture-{lang}.png"))
        await confirm(frame, db, game_id, row.version, began)
        after = engine.from_dict(read_game_row(db, game_id).state)
        assert after.board[geo.index["D4"]] == SPAIN and after.board[geo.index["F4"]] == EMPTY
        assert after.board[geo.index["E4"]] == ENGLAND and after.captures[0] == 1
        await rec.finish(0)
    report(times)
    assert world.bot.tracebacks() == []


# --- Ludime: a word of the table taken; the exchange -----------------------------------------------------

async def ludime_table(world, lang):
    from tests.e2e.ludime_driver import LudimeTable

    table = LudimeTable(world, [player(world, lang), world.u.bruno])
    await table.open("main")
    return table


@LANGS
async def test_ludime_a_word_of_the_table_taken_by_touching_it_then_a_card(world, lang):
    """Bruno's PORTE has been on the table for turns; the player touches it, then the R of their hand:
    PORTER or REPORT, the preview's choices; the player takes it as REPORT. Bruno's hand reaches nobody."""
    fake, db = world.fake, world.bot.db
    engine = engine_of("ludime")
    table = await ludime_table(world, lang)
    try:
        state, game = await table.state()
        position = ludime_position(engine, state, ["SRAEIUB", list(state.hands[1])],
                                   [(1, "CHAT", 0), (2, "PORTE", 1)], turns=(2, 2))
        row = await write_position(db, game.id, engine, position)
        hand = list(position.hands[0])  # sorted: A B E I R S U
        card = f"card:{hand.index('R')}"
        other = "".join(position.hands[1])
        said = SAID[lang]
        times = timings()
        async with boards(fake, table.players[0]) as [(page, frame, rec)]:
            assert int(await until(frame, "game", bool)) == game.id
            for attempt in range(2):
                began = time.monotonic()
                text = await choose(frame, ["board", "mine"], game.id, row.version, ["word:2", card], times)
                assert sorted(await labels(frame)) == ["PORTER", "REPORT"]
                took = said["took"].format("REPORT")
                if not text.startswith(took):
                    text = await pick(frame, "REPORT", lambda t, s=took: t.startswith(s))
                assert text.startswith(took), text
                if attempt == 0:
                    # the touches' order: « 1 » beside the word, in the margin (not over its owner's dot at
                    # its left end), « 2 » in the R card's corner (issue 35)
                    marks = await frame.evaluate("""() => [...document.querySelectorAll('svg.hits text.order')]
                        .map(t => { const b = t.getBBox(); const svg = t.ownerSVGElement.id;
                                    const poly = svg === 'board-hits' ? document.querySelector(
                                        '#board-hits polygon[data-region="word:2"]').getBBox() : null;
                                    return {text: t.textContent, svg, right: b.x + b.width,
                                            left: poly && poly.x}; })""")
                    assert sorted((m["text"], m["svg"]) for m in marks) == [("1", "board-hits"), ("2", "mine-hits")]
                    word = next(m for m in marks if m["text"] == "1")
                    assert 0 < word["right"] <= word["left"], marks
                    await page.screenshot(path=str(world.tmp / f"touch-ludime-take-{lang}.png"))
                    row = await refused_as_stale(frame, rec, db, engine, game.id, lang)
            await confirm(frame, db, game.id, row.version, began)
            after = engine.from_dict(read_game_row(db, game.id).state)
            assert (2, "REPORT", 0) in after.words and (1, "CHAT", 0) in after.words
            assert sorted(after.hands[0]) == sorted(c for c in hand if c != "R")
            await rec.finish(0, hidden=(other,))
        report(times)
    finally:
        await table.close()
    assert world.bot.tracebacks() == []


@LANGS
async def test_ludime_the_exchange_by_touching_cards_then_the_pile(world, lang):
    """The player's first turn (Bruno, when the die made him the dealer, plays his in the chat): they draw
    by touching the pile, then give back two cards by touching them, then the pile. The cards received are
    not known before « Confirmer »; Bruno's hand reaches nobody."""
    fake, db = world.fake, world.bot.db
    engine = engine_of("ludime")
    table = await ludime_table(world, lang)
    try:
        state, game = await table.state()
        if state.current == 1:  # Bruno deals: his turn in the chat, a draw and a discard
            await table.play(1, {"type": "draw", "source": "pile"})
            state, game = await table.state()
            await table.play(1, {"type": "discard", "letter": state.hands[1][-1]})
        state, game = await table.state()
        assert state.current == 0 and state.turns[0] == 0
        said = SAID[lang]
        times = timings()
        async with boards(fake, table.players[0]) as [(page, frame, rec)]:
            assert int(await until(frame, "game", bool)) == game.id
            began = time.monotonic()
            await choose(frame, "board", game.id, game.version, ["pile"], times)
            await confirm(frame, db, game.id, game.version, began)
            row = read_game_row(db, game.id)
            state = engine.from_dict(row.state)
            hand = list(state.hands[0])
            other = "".join(state.hands[1])
            letters = [hand[0], hand[1]]
            for attempt in range(2):
                await until(frame, "touch", lambda v, r=row: v == f"{game.id}:{r.version}:0", what="the hand")
                if attempt == 0:
                    await frame.tap('#mine-hits polygon[data-region="card:0"]')
                    await until(frame, "touch", lambda v, r=row: v == f"{game.id}:{r.version}:1", what="a card")
                    assert await frame.text_content("#status") == said["next_letter"]
                    await frame.tap('#mine-hits polygon[data-region="card:0"]')  # touched again: let go
                began = time.monotonic()
                text = await choose(frame, ["mine", "mine", "board"], game.id, row.version,
                                    ["card:0", "card:1", "pile"], times)
                assert text == said["exchange"].format(" ".join(letters)), text
                if attempt == 0:
                    await page.screenshot(path=str(world.tmp / f"touch-ludime-exchange-{lang}.png"))
                    row = await refused_as_stale(frame, rec, db, engine, game.id, lang)
            await confirm(frame, db, game.id, row.version, began)
            after_row = read_game_row(db, game.id)
            after = engine.from_dict(after_row.state)
            assert after.exchanged and after_row.version == row.version + 1
            assert len(after.hands[0]) == len(hand) and after.current == 0
            kept = Counter(hand) - Counter(letters)
            assert not kept - Counter(after.hands[0])  # the cards not given back are all still there
            await rec.finish(0, hidden=(other,))
        report(times)
    finally:
        await table.close()
    assert world.bot.tracebacks() == []


# --- Take it to the Limit: a tile on the Déchetterie; the big orchid's relocation ----------------------------

@LANGS
async def test_limit_a_tile_given_on_the_dechetterie_then_placed_by_the_neighbour(world, lang):
    """« Passe-Déchetterie »: Bruno touches his Déchetterie: the tile goes to his neighbour, the player, who
    touches a cell of Bruno's Déchetterie, drawn under their own board. Each page shows only its seat's."""
    fake, u, db = world.fake, world.u, world.bot.db
    me = player(world, lang)
    lobby = (await fake.run_command(me, "jeux", "limit start", plateau="nexus", variante="passe-dechetterie")).message
    game_id = int(lobby.buttons[0]["custom_id"].split(":")[1])
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(me, lobby, label="Lancer")
    engine = engine_of("limit")
    said = SAID[lang]
    times = timings()
    async with boards(fake, me, u.bruno) as [(page, frame, rec), (bpage, bframe, brec)]:
        assert int(await until(bframe, "game", bool)) == game_id
        row = read_game_row(db, game_id)
        state = engine.from_dict(row.state)
        tile = engine.current_tile(state)
        began = time.monotonic()
        text = await choose(bframe, "mine", game_id, row.version, ["dump"], times)
        assert text == f"{tile}\u00a0: donner à votre voisin ({me.name}), qui le posera sur votre Déchetterie.", text
        await bpage.screenshot(path=str(world.tmp / f"touch-limit-dump-{lang}.png"))
        await confirm(bframe, db, game_id, row.version, began)
        row = read_game_row(db, game_id)
        state = engine.from_dict(row.state)
        owner = engine.board_of(state, 1)
        assert engine.seats_of(state, state.holders[owner]) == [0]  # the tile is the player's to place
        fills = [f"fill:{owner}:{p}" for p in engine.fill_positions(state, owner)]
        cell = fills[len(fills) // 2]
        position = cell.rsplit(":", 1)[1]
        for attempt in range(2):
            await until(frame, "touch", lambda v, r=row: v == f"{game_id}:{r.version}:0", what="the passed tile")
            shown = await frame.evaluate("[...document.querySelectorAll('#mine-hits polygon')]"
                                         ".map(p => p.dataset.region)")
            assert set(fills) <= set(shown), shown
            began = time.monotonic()
            text = await choose(frame, "mine", game_id, row.version, [cell], times)
            assert text == said["fill"].format(tile, position), text
            if attempt == 0:
                await page.screenshot(path=str(world.tmp / f"touch-limit-fill-{lang}.png"))
                row = await refused_as_stale(frame, rec, db, engine, game_id, lang)
        await confirm(frame, db, game_id, row.version, began)
        after = engine.from_dict(read_game_row(db, game_id).state)
        assert after.boards[owner][position] == tile
        assert engine.pending_fills(after, 0) == []
        for seat, r in ((0, rec), (1, brec)):
            await r.finish(seat, hidden=tuple(state.deck[state.round_no:]))  # the tiles still to come: nowhere
    report(times)
    assert world.bot.tracebacks() == []


#: the deal of the relocation's game: one where a way of playing it offers both
DEAL = 1


def before_relocation(engine, state):
    """The solo Orchidée played out with the engine (the big orchid filled first) until its relocation,
    in a way that offers both a relocation that gains points and « Ne rien déplacer » among the board's
    choices (the best six)."""
    for k in range(1, 40):  # (ways of playing the deal: the first that offers both)
        s, n = state, 0
        while s.phase == "place":
            legal = engine.legal_actions(s, 0)
            orchid = [a for a in legal if a["position"] == "O"]
            s, _ = engine.apply(s, 0, orchid[0] if orchid else legal[(n * k) % len(legal)])
            n += 1
        best = engine.relocation_choices(s, 0)[:MAX_RELOCATIONS]
        if best[0]["gain"] > 0 and any(not o["moves"] for o in best):
            return s, best
    pytest.fail("no way of playing this deal offers a gain and « Ne rien déplacer » among the best six")


@LANGS
async def test_limit_the_big_orchids_relocation_by_touch(world, lang):
    """The solo Orchidée at its end: the only region is the big orchid; touching it offers the best six
    relocations as the preview's choices, « Ne rien déplacer » among them; the player looks at doing
    nothing, then confirms the best."""
    fake, db = world.fake, world.bot.db
    me = player(world, lang)
    res = await fake.run_command(me, "jeux", "limit start", plateau="orchidee", variante="standard", solo=True)
    assert not res.ephemeral, res.content
    engine = engine_of("limit")
    game_id = int(res.message.buttons[0]["custom_id"].split(":")[1])
    # a fixed deal (the game's own seed is drawn at random), so that the same way of playing reaches the same
    # relocation in every run
    state, best = before_relocation(engine, engine.new_game(1, read_game_row(db, game_id).options, DEAL))
    row = await write_position(db, game_id, engine, state)
    said = SAID[lang]
    expected = [", ".join(f"{h} ← {t}" for h, t in sorted(o["moves"].items())) or said["nothing"] for o in best]
    times = timings()
    async with boards(fake, me) as [(page, frame, rec)]:
        assert int(await until(frame, "game", bool)) == game_id
        for attempt in range(2):
            await until(frame, "touch", lambda v, r=row: v == f"{game_id}:{r.version}:0", what="the relocation")
            assert await frame.evaluate("[...document.querySelectorAll('#mine-hits polygon')]"
                                        ".map(p => p.dataset.region)") == ["orchid"]
            if attempt == 0:
                await page.screenshot(path=str(world.tmp / f"touch-limit-orchid-{lang}.png"))
            began = time.monotonic()
            text = await choose(frame, "mine", game_id, row.version, ["orchid"], times)
            assert text == said["relocate"].format(expected[0], best[0]["gain"]), text
            assert await labels(frame) == expected
            if attempt == 0:
                # the six choices in one row that scrolls sideways: the panel stays low (issue 35: two columns
                # of six covered the lower half of the screen and the big orchid's tiles)
                panel = await frame.evaluate("""() => {
                    const rows = [...document.querySelectorAll('#choices button')]
                        .map(b => Math.round(b.getBoundingClientRect().top));
                    const row = document.getElementById('choices');
                    return {rows: new Set(rows).size, height: document.getElementById('choice').offsetHeight,
                            scrolls: row.scrollWidth > row.clientWidth, screen: innerHeight};
                }""")
                assert panel["rows"] == 1 and panel["scrolls"] and panel["height"] <= 0.3 * panel["screen"], panel
                await page.screenshot(path=str(world.tmp / f"touch-limit-relocation-{lang}.png"))
                assert await pick(frame, said["nothing"], lambda t: t == said["nothing_text"]) == said["nothing_text"]
                await page.screenshot(path=str(world.tmp / f"touch-limit-relocation-none-{lang}.png"))
                await pick(frame, expected[0], lambda t, best_text=text: t == best_text)
                row = await refused_as_stale(frame, rec, db, engine, game_id, lang)
        await confirm(frame, db, game_id, row.version, began)
        done = read_game_row(db, game_id)
        after = engine.from_dict(done.state)
        assert after.relocations[0] == dict(sorted(best[0]["moves"].items()))
        assert done.status == FINISHED  # alone, the relocation ends the game
        assert await until(frame, "version", lambda v: v == str(done.version))
        assert await frame.text_content("#status") == said["over"]
        await rec.finish(0)
    report(times)
    assert world.bot.tracebacks() == []
