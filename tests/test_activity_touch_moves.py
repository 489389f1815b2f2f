"""The moves that were chat-only, now by touch (issue 35: at most two touches and « Confirmer »): a Tectonic
flip (the destination offers the flips as the preview's choices), Take it to the Limit's passed tile and
relocation, L'Invincible Armada's pass (a button outside the picture, through the same touches), Ludime's
lengthened and taken words and its exchange, Lutinades' gestures under the lutin's own card. Each: the
touches give the exact engine move, wrong touches are refused with nothing changed, and no other seat's
view reaches the page. The positions are written into the store as a move would."""

# ruff: noqa: F811 (each test takes the imported fixture `world` as its argument)
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.activity.controls.limit import MAX_RELOCATIONS
from engines.armada import FLEET
from engines.armada.board import EMPTY, ENGLAND, SPAIN, geometry
from engines.tectonic import core
from tests.test_activity_touch import (
    World,
    start,
    unchanged,
    world,  # noqa: F401 (the fixture: each test's `world` argument)
)

pytestmark = pytest.mark.asyncio


async def put(w: World, game, state):
    """``state`` written as the game's next version (a position the test needs)."""
    engine = w.sessions.engine(game.kind)
    row = await w.sessions.store.commit_action(game.id, game.version, state=engine.to_dict(state), seat=None,
                                               user_id=None, action={"type": "test"}, events=[])
    assert row is not None
    return row


class Page:
    """One user's page on one game: its touches, previews and moves, as the page sends them."""

    def __init__(self, w: World, game, token: str, iid: str):
        self.w, self.game, self.token, self.iid = w, game, token, iid

    async def refresh(self):
        self.game = await self.w.sessions.get(self.game.id)

    async def call(self, route: str, **body):
        return await self.w.call("POST", f"/api/games/{self.game.id}/{route}", self.token,
                                 {"instance_id": self.iid, "version": self.game.version, **body})

    async def touch(self, selected, expect=200):
        status, body = await self.call("touch", selected=selected)
        assert status == expect, (selected, body)
        return body

    async def preview(self, action, expect=200):
        status, body = await self.call("preview", action=action)
        assert status == expect, (action, body)
        return body

    async def move(self, action):
        status, body = await self.call("move", action=action)
        assert status == 200, body
        await self.refresh()
        return body

    async def hits(self, which: str):
        status, body = await self.w.call("GET", f"/api/games/{self.game.id}/hits?instance_id={self.iid}&which={which}",
                                         self.token)
        assert status == 200, body
        return body


async def page(w: World, game, user) -> Page:
    token = await w.login(user)
    return Page(w, game, token, w.fake.launch_activity(user, "jeux"))


# --- Tectonic: a flip is the piece, the destination, and a choice in the preview ---------------------------

def tectonic_position(engine, state, pieces: dict[str, str]):
    board = ["."] * 100
    for cell, ch in pieces.items():
        board[core.parse_cell(cell)] = ch
    text = "".join(board)
    key = core.position_key(core.board_from_text(text), list(state.reserves), 0)
    return replace(state, board=text, current=0, history={key: 1})


async def test_tectonic_a_flip_is_two_touches_then_a_choice_of_the_preview(world):
    w = world
    game = await start(w, "tectonic", [w.alice, w.bruno])
    engine = w.sessions.engine("tectonic")
    # Alice's colline on E5 may go to F6, next to Bruno's pieces on F7 and G6: either may be flipped
    game = await put(w, game, tectonic_position(engine, engine.from_dict(game.state),
                                                {"E5": "C", "F7": "c", "G6": "p", "A1": "C", "J10": "m"}))
    alice, bruno = await page(w, game, w.alice), await page(w, game, w.bruno)
    assert "cell:E5" in (await alice.touch([]))["targets"]
    assert "cell:F6" in (await alice.touch(["cell:E5"]))["targets"]
    body = await alice.touch(["cell:E5", "cell:F6"])
    flips = [{"type": "move", "from": "E5", "to": "F6", "flip": cell} for cell in ("F7", "G6")]
    assert body["targets"] == []  # no third touch: the flips are the preview's choices, each with its label
    assert sorted(body["moves"], key=lambda m: m["action"]["flip"]) == [
        {"regions": ["cell:E5", "cell:F6"], "action": flips[0], "label": "Retourner F7"},
        {"regions": ["cell:E5", "cell:F6"], "action": flips[1], "label": "Retourner G6"}]
    # a third touch (the old way) is no move; Bruno may not play Alice's piece
    await alice.touch(["cell:E5", "cell:F6", "cell:F7"], 409)
    assert (await bruno.touch([]))["targets"] == []
    await bruno.preview(flips[0], 409)
    for action in flips:
        prev = await alice.preview(action)
        assert prev["text"] == f"E5 → F6 ✕ {action['flip']}"
        assert w.drawn[-1]["view"]["last_move"]["flip"] == action["flip"]
    await unchanged(w, game)
    await alice.move(flips[1])
    state = engine.from_dict(alice.game.state)
    assert state.board[core.parse_cell("F6")] == "C" and state.board[core.parse_cell("G6")] != "p"
    assert state.board[core.parse_cell("F7")] == "c"


# --- L'Invincible Armada: passing, when nothing else is legal, is a touch outside the picture ---------------

def armada_board(size: int, ships: dict[str, str]) -> tuple[str, ...]:
    """An Armada board of ``size`` with ``ships`` (point name -> side) and nothing else."""
    geo = geometry(size)
    board = [EMPTY] * (size * size)
    for name, side in ships.items():
        board[geo.index[name]] = side
    return tuple(board)


async def test_armada_pass_by_the_pass_region_only_when_nothing_else_is_legal(world):
    w = world
    game = await start(w, "armada", [w.alice, w.bruno])
    engine = w.sessions.engine("armada")
    state = engine.from_dict(game.state)
    # the English pair A1-B1 boxed in by Spanish ships, five English ships: no pivot, no placement
    board = armada_board(state.size, {**dict.fromkeys(("A2", "B2", "C2", "C1"), SPAIN),
                                      **dict.fromkeys(("A1", "B1", "F6", "H6", "F9"), ENGLAND)})
    england = replace(state, board=board, turn=ENGLAND, reserve=(FLEET - 4, FLEET - 5))
    users = (w.alice, w.bruno)
    assert engine.legal_actions(england, england.current) == [{"type": "pass"}]
    game = await put(w, game, england)
    player, other = await page(w, game, users[england.current]), await page(w, game, users[1 - england.current])
    hits = await player.hits("board")
    assert "pass" not in hits["regions"]  # not drawn: the page shows it as a button
    assert await player.touch([]) == {"game": game.id, "version": game.version, "which": "board",
                                      "targets": ["pass"], "moves": []}
    assert (await player.touch(["pass"]))["moves"] == [{"regions": ["pass"], "action": {"type": "pass"}}]
    assert (await other.touch([]))["targets"] == []
    await other.touch(["pass"], 409)
    prev = await player.preview({"type": "pass"})
    assert prev["text"] == "Passer\u00a0: aucun autre coup n'est possible."
    await unchanged(w, game)
    await player.move({"type": "pass"})
    assert engine.from_dict(player.game.state).current == 1 - england.current
    # with a legal placement, passing is no move at all
    spain = await page(w, player.game, users[1 - england.current])
    assert "pass" not in (await spain.touch([]))["targets"]
    await spain.touch(["pass"], 409)
    await spain.preview({"type": "pass"}, 409)


async def test_armada_a_capture_among_several_is_a_choice_of_the_preview(world):
    w = world
    game = await start(w, "armada", [w.alice, w.bruno])
    engine = w.sessions.engine("armada")
    state = engine.from_dict(game.state)
    board = armada_board(state.size, {"B4": SPAIN, "C4": SPAIN, "E4": ENGLAND, "F4": ENGLAND})
    game = await put(w, game, replace(state, board=board, turn=SPAIN, reserve=(FLEET - 2, FLEET - 2)))
    spain = (w.alice, w.bruno)[engine.from_dict(game.state).current]
    player = await page(w, game, spain)
    # placing on D4 makes a line of three that may capture E4 or F4: one touch, the captures as choices
    body = await player.touch(["point:D4"])
    captures = [{"type": "place", "point": "D4", "capture": c} for c in ("E4", "F4")]
    assert body["targets"] == [] and body["moves"] == [
        {"regions": ["point:D4"], "action": captures[0], "label": "Prendre E4"},
        {"regions": ["point:D4"], "action": captures[1], "label": "Prendre F4"}]
    await player.touch(["point:D4", "point:F4"], 409)  # no third (here: second) touch
    assert (await player.preview(captures[1]))["text"] == "D4 ✕ F4"
    await unchanged(w, game)
    await player.move(captures[1])
    after = engine.from_dict(player.game.state)
    geo = geometry(state.size)
    assert after.board[geo.index["F4"]] == EMPTY and after.board[geo.index["E4"]] == ENGLAND


# --- Ludime: a word of the table lengthened or taken, an exchange -----------------------------------------------

def ludime_position(engine, state, hands, words, turns, first=(0, 0), **extra):
    return replace(state, phase="play", current=0, hands=tuple(tuple(sorted(h)) for h in hands),
                   words=tuple(words), next_id=max(i for i, _, _ in words) + 1 if words else 1, turns=turns,
                   first_word_turn=first, drawn=None, discard_taken=None, laid=False, exchanged=False, **extra)


async def test_ludime_lengthen_and_take_a_word_of_the_table(world):
    w = world
    game = await start(w, "ludime", [w.alice, w.bruno])
    engine = w.sessions.engine("ludime")
    state = engine.from_dict(game.state)
    # Alice's CHAT and Bruno's PORTE on the table, both laid turns ago; Alice holds S, R and others
    position = ludime_position(engine, state, ["SRAEIUB", list(state.hands[1])],
                               [(1, "CHAT", 0), (2, "PORTE", 1)], turns=(2, 2))
    game = await put(w, game, position)
    alice, bruno = await page(w, game, w.alice), await page(w, game, w.bruno)
    table = await alice.hits("board")
    assert {"word:1", "word:2", "pile", "discard"} <= set(table["regions"])
    hand = list(position.hands[0])  # sorted: A B E I R S U
    card = {c: f"card:{i}" for i, c in enumerate(hand)}
    first = await alice.touch([])
    assert {"word:1", "word:2"} <= set(first["targets"]) and {card[c] for c in hand} <= set(first["targets"])
    # her own word, then the S: CHATS (the word, then one card: two touches)
    body = await alice.touch(["word:1"])
    assert sorted(body["targets"]) == sorted(card.values()) and body["moves"] == []
    body = await alice.touch(["word:1", card["S"]])
    lengthen = {"type": "extend", "target": 1, "word": "CHATS"}
    assert body["moves"] == [{"regions": ["word:1", card["S"]], "action": lengthen}]
    prev = await alice.preview(lengthen)
    assert prev["text"] == "Allonger CHAT en CHATS\u00a0: le mot vaut 9 points." or prev["text"].startswith(
        "Allonger CHAT en CHATS\u00a0: le mot vaut ")
    shown = w.drawn[-1]["view"]
    assert shown["seat"] == 0 and "S" not in shown["hand"] and shown["words"][0]["word"] == "CHATS"
    assert "".join(position.hands[1]) not in json.dumps(shown)  # Bruno's hand: nowhere
    # Bruno's word with the R: PORTER or REPORT, the preview's choices, told apart by the word
    body = await alice.touch(["word:2", card["R"]])
    took = sorted((m["action"]["word"], m["label"]) for m in body["moves"])
    assert took == [("PORTER", "PORTER"), ("REPORT", "REPORT")]
    take = {"type": "extend", "target": 2, "word": "REPORT"}
    prev = await alice.preview(take)
    assert prev["text"].startswith("Prendre PORTE à Bruno\u00a0: REPORT, ")
    # refusals: a card twice, a word twice, a card that is not hers, Bruno (not his turn), a word nobody has
    for selected in (["word:2", card["R"], card["R"]], ["word:2", "word:1"], ["word:1", "card:7"], ["word:9"]):
        await alice.touch(selected, 409)
    assert (await bruno.touch([]))["targets"] == []
    await bruno.touch(["word:1"], 409)
    await bruno.preview(lengthen, 409)
    for bad in ({"type": "extend", "target": 1, "word": "CHATTE"}, {"type": "extend", "target": 1, "word": "CHAT"},
                {"type": "extend", "target": 3, "word": "CHATS"}, {**lengthen, "as_typed": True}):
        await alice.preview(bad, 409)
    await unchanged(w, game)
    await alice.move(take)
    after = engine.from_dict(alice.game.state)
    assert (2, "REPORT", 0) in after.words and "R" not in after.hands[0]


async def test_ludime_a_word_too_recent_cannot_be_taken(world):
    w = world
    game = await start(w, "ludime", [w.alice, w.bruno])
    engine = w.sessions.engine("ludime")
    state = engine.from_dict(game.state)
    # Alice laid her first word this very turn: she may lengthen it, not take Bruno's yet
    game = await put(w, game, ludime_position(engine, state, ["SRAEIUB", list(state.hands[1])],
                                              [(1, "CHAT", 0), (2, "PORTE", 1)], turns=(2, 2), first=(2, 0)))
    alice = await page(w, game, w.alice)
    targets = (await alice.touch([]))["targets"]
    assert "word:1" in targets and "word:2" not in targets
    await alice.touch(["word:2", "card:4"], 409)
    await alice.preview({"type": "extend", "target": 2, "word": "PORTER"}, 409)
    await unchanged(w, game)


async def test_ludime_exchange_the_cards_then_the_pile_on_the_first_turn(world):
    w = world
    game = await start(w, "ludime", [w.alice, w.bruno])
    engine = w.sessions.engine("ludime")
    bruno = await page(w, game, w.bruno)  # the dealer: he plays first
    await bruno.move({"type": "draw", "source": "pile"})
    state = engine.from_dict(bruno.game.state)
    hand = list(state.hands[1])
    assert state.turns[1] == 0 and "W" in hand and "U" in hand
    w_card, u_card = f"card:{hand.index('W')}", f"card:{hand.index('U')}"
    body = await bruno.touch([w_card])
    assert "pile" in body["targets"] and "discard" in body["targets"]
    body = await bruno.touch([w_card, u_card, "pile"])
    exchange = {"type": "exchange", "letters": ["W", "U"]}
    assert body == {**body, "targets": [], "moves": [{"regions": [w_card, u_card, "pile"], "action": exchange}]}
    prev = await bruno.preview(exchange)
    assert prev["text"] == "Échanger W U\u00a0: 2 cartes de la pioche, inconnues tant qu'elles ne sont pas reçues."
    shown = w.drawn[-1]["view"]
    assert shown["hand"] == hand  # the cards received are not known before: the hand as it is
    assert shown["giving"] == ["W", "U"]  # the cards given back: marked on the hand's picture
    assert '"pile"' not in json.dumps(shown) and shown["pile_count"] == len(state.pile)  # the pile: a count
    await bruno.touch([w_card, w_card, "pile"], 409)
    await bruno.preview({"type": "exchange", "letters": ["Z"]}, 409)
    before = bruno.game
    await bruno.move(exchange)
    after = engine.from_dict(bruno.game.state)
    assert after.exchanged and len(after.hands[1]) == len(hand) and bruno.game.version == before.version + 1
    # once exchanged (or after the first turn) the pile is no longer a target of the cards
    body = await bruno.touch([w_card if "W" in after.hands[1] else "card:0"])
    assert "pile" not in body["targets"]
    await bruno.touch(["card:0", "pile"], 409)


# --- Lutinades: each lutin touches their gesture under their own card ----------------------------------------

async def test_lutinades_gestures_touched_under_ones_own_card(world):
    w = world
    game = await start(w, "lutinades", [w.alice, w.bruno, w.chloe])
    engine = w.sessions.engine("lutinades")
    state = engine.from_dict(game.state)
    users = {0: w.alice, 1: w.bruno, 2: w.chloe}
    lutins = [s for s in users if s != state.picker]
    pages = {s: await page(w, game, users[s]) for s in users}
    for s in users:
        status, body = await w.call("GET", f"/api/games/{game.id}?instance_id={pages[s].iid}", pages[s].token)
        expect = ("board", ["board"]) if s == state.picker else ("mine", ["mine"])
        assert status == 200 and (body["touch"], body["touch_pictures"]) == expect, s
    one = pages[lutins[0]]
    hits = await one.hits("mine")
    gestures = {"gesture:up", "gesture:down", "gesture:horizontal", "gesture:small"}
    assert set(hits["regions"]) == gestures
    body = await one.touch([])
    assert sorted(body["targets"]) == sorted(gestures)
    body = await one.touch(["gesture:down"])
    action = {"type": "gesture", "gesture": "down", "side": None}
    assert body["moves"] == [{"regions": ["gesture:down"], "action": action}]
    prev = await one.preview(action)
    assert prev["text"] == "Votre geste\u00a0: Vers le bas. Il reste secret jusqu'à ce que tous les lutins aient choisi."
    shown = w.drawn[-1]
    assert shown["which"] == "mine" and shown["view"]["card"] == engine.view(state, lutins[0])["card"]
    # the picker: nothing to touch yet; the picker's touches of a gesture are refused
    assert (await pages[state.picker].touch([]))["targets"] == []
    await pages[state.picker].touch(["gesture:up"], 409)
    await pages[state.picker].preview(action, 409)
    await one.touch(["gesture:sideways"], 409)
    await unchanged(w, game)
    await one.move(action)
    # the first lutin's gesture is recorded and secret; the last one's preview reveals nobody's
    last = pages[lutins[1]]
    await last.refresh()
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", one.token,
                                {"instance_id": one.iid, "version": last.game.version, "selected": []})
    assert status == 200 and body["targets"] == []  # chosen: nothing left to touch
    up = {"type": "gesture", "gesture": "up", "side": None}
    assert (await last.touch(["gesture:up"]))["moves"][0]["action"] == up
    await last.preview(up)
    shown = w.drawn[-1]["view"]
    assert shown["gestures"] is None and shown["phase"] == "gestures"  # Alice's/Bruno's gesture stays hidden
    assert shown["my_gesture"]["gesture"] == "up"
    await last.move(up)
    after = engine.from_dict(last.game.state)
    assert after.gestures[lutins[0]] == ("down", None) and after.gestures[lutins[1]] == ("up", None)


async def test_lutinades_malins_gestures_carry_the_side(world):
    w = world
    game = await start(w, "lutinades", [w.alice, w.bruno, w.chloe], {"variante": "lutins-malins"})
    engine = w.sessions.engine("lutinades")
    state = engine.from_dict(game.state)
    lutin = next(s for s in range(3) if s != state.picker)
    one = await page(w, game, (w.alice, w.bruno, w.chloe)[lutin])
    hits = await one.hits("mine")
    assert len(hits["regions"]) == 8 and "gesture:horizontal:left" in hits["regions"]
    action = {"type": "gesture", "gesture": "horizontal", "side": "left"}
    assert (await one.touch(["gesture:horizontal:left"]))["moves"][0]["action"] == action
    prev = await one.preview(action)
    assert prev["text"].startswith("Votre geste\u00a0: À l'horizontale · ma gauche.")
    await one.touch(["gesture:horizontal"], 409)


# --- Take it to the Limit: the relocation's choices on the big orchid; a passed tile on its owner's Déchetterie --

async def test_limit_relocation_by_the_big_orchid_and_its_choices(world, monkeypatch):
    w = world
    game = await start(w, "limit", [w.alice], {"plateau": "orchidee"})
    engine = w.sessions.engine("limit")
    state = engine.from_dict(game.state)
    alice = await page(w, game, w.alice)
    # play the game out by touch, the big orchid first, until the relocation
    while engine.from_dict(alice.game.state).phase == "place":
        state = engine.from_dict(alice.game.state)
        targets = (await alice.touch([]))["targets"]
        region = "orchid" if "orchid" in targets else targets[0]
        body = await alice.touch([region])
        await alice.move(body["moves"][0]["action"])
    state = engine.from_dict(alice.game.state)
    assert state.phase == "relocate"
    options = engine.relocation_choices(state, 0)
    assert (await alice.touch([]))["targets"] == ["orchid"]
    body = await alice.touch(["orchid"])
    offered = [m["action"] for m in body["moves"]]
    assert offered == [{"type": "relocate", "moves": o["moves"]} for o in options[:MAX_RELOCATIONS]]
    assert [m["label"] for m in body["moves"]] == [
        ", ".join(f"{h} ← {t}" for h, t in sorted(o["moves"].items())) or "Ne rien déplacer"
        for o in options[:MAX_RELOCATIONS]] and body["targets"] == []
    best = offered[0]
    prev = await alice.preview(best)
    gain = options[0]["gain"]
    assert prev["text"].endswith(f"({gain:+d} points).") if best["moves"] else prev["text"].startswith(
        "Ne rien déplacer")
    shown = w.drawn[-1]["view"]
    assert all(shown["boards"][0]["cells"][hole] == tile for hole, tile in best["moves"].items())
    moved = next(a for a in offered if a["moves"])  # a relocation that moves tiles: on the board, its gain
    prev = await alice.preview(moved)
    option = next(o for o in options if o["moves"] == moved["moves"])
    assert prev["text"] == "Déplacer les tuiles de la grande orchidée\u00a0: " + ", ".join(
        f"{h} ← {t}" for h, t in sorted(moved["moves"].items())) + f" ({option['gain']:+d} points)."
    shown = w.drawn[-1]["view"]
    assert all(shown["boards"][0]["cells"][hole] == tile for hole, tile in moved["moves"].items())
    assert shown["relocation"]["done"]  # the advice is not drawn over the preview
    # each moved tile drawn in its hole, and no longer on the big orchid as well (issue 35)
    import render.limit as limit_render

    on_orchid = []
    draw_orchid = limit_render._draw_big_orchid
    monkeypatch.setattr(limit_render, "_draw_big_orchid",
                        lambda img, draw, view, tiles, *rest: on_orchid.append(list(tiles)) or draw_orchid(
                            img, draw, view, tiles, *rest))
    limit_render.render_board(shown, 0, ["Alice"])
    assert on_orchid and not set(moved["moves"].values()) & set(on_orchid[0]), (on_orchid, moved)
    assert set(on_orchid[0]) | set(moved["moves"].values()) == set(shown["boards"][0]["orchid"])
    await unchanged(w, alice.game)
    if len(options) > MAX_RELOCATIONS:  # the chat's, not the board's
        await alice.preview({"type": "relocate", "moves": options[MAX_RELOCATIONS]["moves"]}, 409)
    await alice.preview({"type": "relocate", "moves": {"A1": "nope"}}, 409)
    await alice.move(best)
    after = engine.from_dict(alice.game.state)
    assert after.relocations[0] == dict(sorted(best["moves"].items())) or after.finished


async def test_limit_a_passed_tile_placed_on_its_owners_dechetterie(world):
    w = world
    game = await start(w, "limit", [w.alice, w.bruno], {"variante": "passe-dechetterie"})
    engine = w.sessions.engine("limit")
    state = engine.from_dict(game.state)
    alice, bruno = await page(w, game, w.alice), await page(w, game, w.bruno)
    assert "dump" in (await alice.touch([]))["targets"]
    tile = engine.current_tile(state)
    give = {"type": "place", "tile": tile, "position": "X"}
    assert (await alice.touch(["dump"]))["moves"] == [{"regions": ["dump"], "action": give}]
    prev = await alice.preview(give)  # who will place it, not the Déchetterie's inner name
    assert prev["text"] == f"{tile}\u00a0: donner à votre voisin (Bruno), qui le posera sur votre Déchetterie."
    await alice.move(give)
    await bruno.refresh()
    state = engine.from_dict(bruno.game.state)
    holder = state.holders[engine.board_of(state, 0)]
    assert engine.seats_of(state, holder) == [1]
    hits = await bruno.hits("mine")
    fills = sorted(r for r in hits["regions"] if r.startswith("fill:"))
    assert fills == sorted(f"fill:0:{p}" for p in engine.fill_positions(state, 0))
    targets = (await bruno.touch([]))["targets"]
    assert set(fills) <= set(targets)
    body = await bruno.touch([fills[0]])
    fill = {"type": "fill", "board": 0, "tile": tile, "position": fills[0].split(":")[2]}
    assert body["moves"] == [{"regions": [fills[0]], "action": fill}]
    prev = await bruno.preview(fill)
    assert prev["text"] == f"{tile} en {fill['position']} de la Déchetterie de votre voisin."
    # Alice's own board, as Bruno sees it: only her Déchetterie's passed tile, her cells of this round hidden
    shown = w.drawn[-1]["view"]
    assert shown["boards"][0]["cells"] == {fill["position"]: tile}
    # drawn there as a tile alone: the cell's name (« X4 ») is not written over its numbers (issue 35)
    from render import common
    from tests.render.test_limit import _tile_cache_clear, labels, render_board

    _tile_cache_clear()  # a cached tile would skip drawing (and recording) its values
    with common.recording_text() as runs:
        render_board(shown, 1, ["Alice", "Bruno"], labels("fr"))
    texts = [r.text for r in runs]
    values = sorted(tile.split("-"))
    at = [i for i in range(3, len(texts) + 1) if sorted(texts[i - 3:i]) == values]
    assert at and all(i == len(texts) or texts[i] != fill["position"] for i in at), texts
    await alice.refresh()
    assert (await alice.touch([]))["targets"] == []  # Alice has played this round
    await alice.touch([fills[0]], 409)
    await alice.preview(fill, 409)
    await unchanged(w, bruno.game)
    await bruno.move(fill)
    assert engine.from_dict(bruno.game.state).boards[0][fill["position"]] == tile
