"""The board as a control, through the API against the strict fake Discord: the picture's hit map, a
touch answered with the regions the engine's legal moves continue, a preview that shows only what the
seat may know, and « Confirmer » as the same versioned move as a button's. Every refusal leaves the game
unchanged, in the asker's language. The pictures are the real renderers'."""

from __future__ import annotations

import asyncio
import base64
import io
import json

import aiohttp
import pytest
import pytest_asyncio
from PIL import Image

from bot.activity import ActivityServer, Board, DiscordIdentity
from bot.sessions import Player, SessionService
from bot.storage import open_store
from cogs.lutinades.cog import LutinadesCog
from fakediscord import FakeDiscord
from render import armada as armada_render
from render import limit as limit_render
from render import ludime as ludime_render
from render import ludix as ludix_render
from render import lutinades as lutinades_render
from render import ranta as ranta_render
from render import tectonic as tectonic_render
from render.hitmap import with_hits

pytestmark = pytest.mark.asyncio

RENDER = {  # what the bot's cogs draw, without Discord: (the touched picture's renderer, its arguments)
    "limit": lambda game, view, lang: (limit_render.render_board, (view, view["seat"], list(game.names), None), {}),
    "tectonic": lambda game, view, lang: (tectonic_render.render_board, (view, list(game.names)), {"lang": lang}),
    "armada": lambda game, view, lang: (armada_render.render_board, (view, list(game.names), lang), {}),
    "ludix": lambda game, view, lang: (ludix_render.render_table, (view, list(game.names)), {}),
    "lutinades": lambda game, view, lang: (lutinades_render.render_table, (view, list(game.names)), {}),
}
MINE = {"limit": RENDER["limit"],  # a player's own picture (the cogs' render_private)
        "ranta": lambda game, view, lang: (ranta_render.render_sheet,
                                           (view, view["seat"], list(game.names), view.get("preview")), {}),
        "ludime": lambda game, view, lang: (ludime_render.render_hand, (view, list(game.names)), {}),
        # a lutin's card, the gestures under it on the board's page (the picker has no card: no picture)
        "lutinades": lambda game, view, lang: (lutinades_render.render_card, (
            view["card"], {}, LutinadesCog.touch_gestures(view, lang)), {}) if view.get("card") else None}
BOARD = {**{k: v for k, v in RENDER.items() if k != "limit"},  # the table (the cogs' render_public)
         "ranta": lambda game, view, lang: (ranta_render.render_dice, (view,), {}),
         "ludime": lambda game, view, lang: (ludime_render.render_table, (view, list(game.names)), {})}


class World:
    def __init__(self, fake, sessions, server, http, drawn, users):
        self.fake, self.sessions, self.server, self.http, self.drawn = fake, sessions, server, http, drawn
        self.alice, self.bruno, self.chloe, self.eve = users
        self.base = f"http://127.0.0.1:{server.port}"

    async def call(self, method: str, path: str, token: str, body=None):
        kw = {"json": body} if body is not None else {}
        async with self.http.request(method, self.base + path, headers={"Authorization": f"Bearer {token}"},
                                     **kw) as r:
            return r.status, json.loads(await r.text() or "null")

    async def login(self, user) -> str:
        code = self.fake.authorize_activity(user)
        async with self.http.post(self.base + "/api/token", json={"code": code}) as r:
            return (await r.json())["access_token"]


@pytest_asyncio.fixture
async def world(tmp_path):
    fake = FakeDiscord(guild_name="Ludi", channels=["jeux"])
    users = fake.add_user("Alice"), fake.add_user("Bruno"), fake.add_user("Chloé"), fake.add_user("Eve", locale="en-US")
    await fake.start()
    secret = fake.enable_activities()
    store = open_store(str(tmp_path / "ludibot.db"))
    await store.open()
    sessions = SessionService(store, seed_source=lambda: 7)
    identity = DiscordIdentity(api_base=fake.api_base, app_id=fake.app_id, client_secret=secret, bot_token=fake.token)
    drawn: list = []

    async def draw(game, view, lang, which, *, hits=False, preview=False):
        drawn.append({"view": view, "which": which, "preview": preview})
        await asyncio.sleep(0.01)  # drawn elsewhere (the render pool): other requests come meanwhile
        table = MINE if which == "mine" else BOARD
        if game.kind not in table:
            return None
        job = table[game.kind](game, view, lang)
        if job is None:
            return None
        fn, args, kwargs = job
        return with_hits(fn, args, kwargs) if hits else fn(*args, **kwargs)

    server = ActivityServer(Board(sessions, draw=draw, private=lambda kind: kind in MINE), identity)
    sessions.watchers.append(server.hub.watcher())
    await server.start("127.0.0.1", 0)
    async with aiohttp.ClientSession() as http:
        yield World(fake, sessions, server, http, drawn, users)
    await server.stop()
    await store.close()
    await fake.stop()


async def start(w: World, kind: str, users, options=None):
    ch = w.fake.channel("jeux")
    g = await w.sessions.open_lobby(kind, guild_id=w.fake.guild_id, channel_id=ch.id,
                                    player=Player(users[0].id, users[0].name), options=options)
    for u in users[1:]:
        await w.sessions.join(g.id, Player(u.id, u.name))
    return (await w.sessions.start(g.id, Player(users[0].id, users[0].name))).game


async def unchanged(w: World, before) -> None:
    after = await w.sessions.get(before.id)
    assert (after.version, after.state) == (before.version, before.state)


async def test_limit_a_tile_placed_by_touching_a_cell(world):
    w = world
    game = await start(w, "limit", [w.alice])
    token = await w.login(w.alice)
    iid = w.fake.launch_activity(w.alice, "jeux")
    status, body = await w.call("GET", f"/api/games/{game.id}?instance_id={iid}", token)
    assert status == 200 and body["touch"] == "mine"
    engine = w.sessions.engine("limit")
    state = engine.from_dict(game.state)
    legal = engine.legal_positions(state, 0)
    status, hits = await w.call("GET", f"/api/games/{game.id}/hits?instance_id={iid}&which=mine", token)
    assert status == 200, hits
    assert {f"cell:{p}" for p in legal} <= set(hits["regions"]) and hits["version"] == game.version
    # nothing selected: every legal cell is highlighted, and only those
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token,
                                {"instance_id": iid, "version": game.version, "selected": []})
    assert status == 200, body
    assert sorted(body["targets"]) == sorted(f"cell:{p}" for p in legal) and body["moves"] == []
    # a cell: the move it chooses
    cell = next(p for p in legal if not p.startswith("X"))
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token,
                                {"instance_id": iid, "version": game.version, "selected": [f"cell:{cell}"]})
    assert status == 200 and body["targets"] == []
    tile = engine.current_tile(state)
    action = {"type": "place", "tile": tile, "position": cell}
    assert body["moves"] == [{"regions": [f"cell:{cell}"], "action": action}]
    # the preview: the board with the tile in place and the score change; the next tile is not drawn
    status, body = await w.call("POST", f"/api/games/{game.id}/preview", token,
                                {"instance_id": iid, "version": game.version, "action": action})
    assert status == 200, body
    p = w.drawn[-1]["view"]["preview"]  # the engine's staging (engine.preview): its totals, in words
    assert body["text"] == (f"{tile} en {cell}\u00a0: {p['before']} → {p['after']} points si la partie s'arrêtait là "
                            f"({p['gain']:+d})")
    png = base64.b64decode(body["picture"].removeprefix("data:image/png;base64,"))
    assert Image.open(io.BytesIO(png)).width == hits["width"]
    shown = w.drawn[-1]
    assert shown["preview"] and shown["view"]["tile"]["id"] == tile
    assert shown["view"]["boards"][0]["cells"] == {cell: tile}
    following = state.deck[state.round_no]  # the tile the next round draws: nowhere in the preview
    assert following not in json.dumps(shown["view"]) and following not in body["text"]
    await unchanged(w, game)  # a preview changes nothing
    # « Confirmer »: the move, with the version
    status, body = await w.call("POST", f"/api/games/{game.id}/move", token,
                                {"instance_id": iid, "version": game.version, "action": action})
    assert status == 200 and body["version"] == game.version + 1
    after = await w.sessions.get(game.id)
    assert engine.from_dict(after.state).boards[0][cell] == tile


async def test_a_picture_and_its_hit_map_asked_at_once_are_drawn_once(world):
    """The page asks a new version's picture and its hit map together (and every page showing the game asks
    when it moves): one drawing serves them all."""
    w = world
    game = await start(w, "limit", [w.alice])
    token = await w.login(w.alice)
    iid = w.fake.launch_activity(w.alice, "jeux")
    before = len(w.drawn)
    query = f"instance_id={iid}&which=mine&v={game.version}"
    answers = await asyncio.gather(
        *(w.http.get(f"{w.base}/api/games/{game.id}/picture?{query}", headers={"Authorization": f"Bearer {token}"})
          for _ in range(3)),
        *(w.call("GET", f"/api/games/{game.id}/hits?{query}", token) for _ in range(3)))
    pictures = [await r.read() for r in answers[:3]]
    assert all(r.status == 200 for r in answers[:3]) and pictures[0].startswith(b"\x89PNG")
    assert pictures[1] == pictures[0] == pictures[2]
    assert all(status == 200 and hits["regions"] for status, hits in answers[3:])
    assert len(w.drawn) - before == 1, w.drawn[before:]


async def test_limit_refusals_change_nothing(world):
    w = world
    game = await start(w, "limit", [w.alice, w.bruno])
    token, eve = await w.login(w.alice), await w.login(w.eve)
    iid = w.fake.launch_activity(w.alice, "jeux")
    w.fake.launch_activity(w.eve, "jeux")
    engine = w.sessions.engine("limit")
    state = engine.from_dict(game.state)
    taken = {"instance_id": iid, "version": game.version}
    cases = [
        (token, "touch", {**taken, "version": game.version - 1, "selected": []}, 409, "activity.error.stale"),
        (token, "touch", {**taken, "selected": ["cell:Z9"]}, 409, "activity.error.no_move"),
        (token, "touch", {**taken, "selected": "cell:A1"}, 400, "activity.error.bad_request"),
        (token, "touch", {**taken, "selected": ["x" * 41]}, 400, "activity.error.bad_request"),
        (eve, "touch", {**taken, "selected": []}, 403, "activity.error.no_seat"),
        (token, "preview", {**taken, "action": {"type": "place", "tile": "nope", "position": "A1"}}, 409,
         "activity.error.no_move"),
        (token, "preview", {**taken, "action": {"type": "relocate", "moves": {}}}, 409, "activity.error.no_move"),
        (token, "preview", {**taken, "action": "A1"}, 400, "activity.error.bad_request"),
    ]
    for who, route, body, status, key in cases:
        got, answer = await w.call("POST", f"/api/games/{game.id}/{route}", who, body)
        assert (got, answer["error"]) == (status, key), (route, body, answer)
        assert answer["message"]
    got, answer = await w.call("POST", f"/api/games/{game.id}/touch", eve, {**taken, "selected": []})
    assert answer["message"].startswith("You have no seat")  # in the asker's language
    await unchanged(w, game)
    # Bruno's placement this round is his: Alice's preview stages only her own board
    first = engine.legal_positions(state, 1)[3]
    await w.sessions.act(game.id, w.bruno.id, {"type": "place", "tile": engine.current_tile(state), "position": first},
                         version=game.version)
    game = await w.sessions.get(game.id)
    action = {"type": "place", "tile": engine.current_tile(state), "position": engine.legal_positions(state, 0)[5]}
    status, body = await w.call("POST", f"/api/games/{game.id}/preview", token,
                                {"instance_id": iid, "version": game.version, "action": action})
    assert status == 200, body
    assert w.drawn[-1]["view"]["boards"][1]["cells"] == {}  # Bruno's tile of this round: not shown to Alice


async def test_tectonic_the_piece_then_its_destination(world):
    w = world
    game = await start(w, "tectonic", [w.alice, w.bruno])
    token, bruno = await w.login(w.alice), await w.login(w.bruno)
    iid = w.fake.launch_activity(w.alice, "jeux")
    w.fake.launch_activity(w.bruno, "jeux")
    engine = w.sessions.engine("tectonic")
    state = engine.from_dict(game.state)
    status, hits = await w.call("GET", f"/api/games/{game.id}/hits?instance_id={iid}&which=board", token)
    assert status == 200 and len(hits["regions"]) == 100
    base = {"instance_id": iid, "version": game.version}
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token, {**base, "selected": []})
    assert sorted(body["targets"]) == sorted(f"cell:{c}" for c in engine.legal_sources(state, 0))
    # not Bruno's turn: nothing to highlight for him
    status, other = await w.call("POST", f"/api/games/{game.id}/touch", bruno, {**base, "selected": []})
    assert status == 200 and other["targets"] == []
    source = engine.legal_sources(state, 0)[0]
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token,
                                {**base, "selected": [f"cell:{source}"]})
    assert sorted(body["targets"]) == sorted(f"cell:{c}" for c in engine.legal_destinations(state, 0, source))
    dest = body["targets"][0]
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token,
                                {**base, "selected": [f"cell:{source}", dest]})
    assert len(body["moves"]) == 1
    action = body["moves"][0]["action"]
    assert (action["from"], "cell:" + action["to"]) == (source, dest)
    status, prev = await w.call("POST", f"/api/games/{game.id}/preview", token, {**base, "action": action})
    assert status == 200 and prev["text"].startswith(f"{source} → {action['to']}")
    assert w.drawn[-1]["view"]["last_move"]["to"] == action["to"]
    await unchanged(w, game)
    status, body = await w.call("POST", f"/api/games/{game.id}/move", token, {**base, "action": action})
    assert status == 200 and body["version"] == game.version + 1
    # the old version's touch is refused now
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token, {**base, "selected": []})
    assert (status, body["error"]) == (409, "activity.error.stale")


async def test_armada_a_ship_placed_by_touching_its_point(world):
    w = world
    game = await start(w, "armada", [w.alice, w.bruno])
    engine = w.sessions.engine("armada")
    state = engine.from_dict(game.state)
    user = (w.alice, w.bruno)[state.current]
    token = await w.login(user)
    iid = w.fake.launch_activity(user, "jeux")
    base = {"instance_id": iid, "version": game.version}
    status, hits = await w.call("GET", f"/api/games/{game.id}/hits?instance_id={iid}&which=board", token)
    assert status == 200
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token, {**base, "selected": []})
    legal = engine.legal_actions(state, state.current)
    assert set(body["targets"]) == {"point:" + a["point"] for a in legal} and set(body["targets"]) <= set(hits["regions"])
    point = body["targets"][len(body["targets"]) // 2]
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token, {**base, "selected": [point]})
    action = body["moves"][0]["action"]
    assert action == {"type": "place", "point": point.removeprefix("point:")}
    status, prev = await w.call("POST", f"/api/games/{game.id}/preview", token, {**base, "action": action})
    assert status == 200 and prev["text"] == action["point"]
    status, body = await w.call("POST", f"/api/games/{game.id}/move", token, {**base, "action": action})
    assert status == 200 and body["version"] == game.version + 1


async def test_ludix_the_dice_then_stop(world):
    w = world
    game = await start(w, "ludix", [w.alice, w.bruno])
    token = await w.login(w.alice)
    iid = w.fake.launch_activity(w.alice, "jeux")
    status, hits = await w.call("GET", f"/api/games/{game.id}/hits?instance_id={iid}&which=board", token)
    assert status == 200 and {"dice", "stop"} <= set(hits["regions"])
    base = {"instance_id": iid, "version": game.version}
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token, {**base, "selected": []})
    assert body["targets"] == ["dice"]  # no « Stop » before the first roll
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token, {**base, "selected": ["dice"]})
    assert body["moves"] == [{"regions": ["dice"], "action": {"type": "roll"}}]
    status, prev = await w.call("POST", f"/api/games/{game.id}/preview", token, {**base, "action": {"type": "roll"}})
    assert status == 200 and "Lancer les dés" in prev["text"]
    assert w.drawn[-1]["view"] == w.sessions.engine("ludix").view(w.sessions.engine("ludix").from_dict(game.state), 0)
    await unchanged(w, game)  # the preview of a roll rolls nothing
    status, body = await w.call("POST", f"/api/games/{game.id}/move", token, {**base, "action": {"type": "roll"}})
    assert status == 200
    game = await w.sessions.get(game.id)
    state = w.sessions.engine("ludix").from_dict(game.state)
    base["version"] = game.version
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token, {**base, "selected": []})
    if state.current == 0:  # the roll scored: « Stop » banks it
        assert sorted(body["targets"]) == ["dice", "stop"]
        status, prev = await w.call("POST", f"/api/games/{game.id}/preview", token,
                                    {**base, "action": {"type": "stop"}})
        assert prev["text"] == f"Stop\u00a0: 0 → {state.turn_total} points, et la main passe."
    else:  # a bust: Bruno's turn
        assert body["targets"] == []


async def test_lutinades_the_picker_follows_a_lutin_by_touching_their_row(world):
    w = world
    game = await start(w, "lutinades", [w.alice, w.bruno, w.chloe])
    engine = w.sessions.engine("lutinades")
    state = engine.from_dict(game.state)
    users = {0: w.alice, 1: w.bruno, 2: w.chloe}
    picker = users[state.picker]
    token = await w.login(picker)
    iid = w.fake.launch_activity(picker, "jeux")
    base = {"instance_id": iid, "version": game.version}
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token, {**base, "selected": []})
    assert status == 200 and body["targets"] == []  # the lutins choose first (in the chat)
    for k, (seat, user) in enumerate(users.items()):
        if seat != state.picker:  # different gestures: the picker has a choice
            action = [a for a in engine.legal_actions(state, seat) if a["gesture"] != "small"][k]
            await w.sessions.act(game.id, user.id, action)
    game = await w.sessions.get(game.id)
    state = engine.from_dict(game.state)
    base["version"] = game.version
    status, hits = await w.call("GET", f"/api/games/{game.id}/hits?instance_id={iid}&which=board", token)
    assert status == 200 and set(hits["regions"]) == {"seat:0", "seat:1", "seat:2"}
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token, {**base, "selected": []})
    assert status == 200, body
    assert sorted(body["targets"]) == sorted(f"seat:{s}" for s in engine.followable(state)), (state.phase, body)
    lutin = engine.followable(state)[0]
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token,
                                {**base, "selected": [f"seat:{lutin}"]})
    action = body["moves"][0]["action"]
    assert action["type"] == "follow" and action["lutin"] == lutin
    status, prev = await w.call("POST", f"/api/games/{game.id}/preview", token, {**base, "action": action})
    assert status == 200 and prev["text"].startswith(f"Suivre {users[lutin].name}\u00a0:")
    # the preview reveals nothing: the card is the move's
    assert w.drawn[-1]["view"] == engine.view(state, state.picker) and not w.drawn[-1]["view"].get("card")
    status, body = await w.call("POST", f"/api/games/{game.id}/move", token, {**base, "action": action})
    assert status == 200 and body["version"] > game.version


async def test_ranta_a_box_by_its_dice_then_its_cells_and_a_mat_by_its_cell(world):
    w = world
    game = await start(w, "ranta", [w.alice, w.bruno])
    token = await w.login(w.alice)
    iid = w.fake.launch_activity(w.alice, "jeux")
    engine = w.sessions.engine("ranta")
    state = engine.from_dict(game.state)
    status, body = await w.call("GET", f"/api/games/{game.id}?instance_id={iid}", token)
    assert status == 200 and (body["touch"], body["touch_pictures"]) == ("mine", ["board", "mine"])
    # two hit maps: the table's dice, one's own kallax
    status, dice = await w.call("GET", f"/api/games/{game.id}/hits?instance_id={iid}&which=board", token)
    assert status == 200 and set(dice["regions"]) == {"die:0", "die:1", "die:2"}
    status, sheet = await w.call("GET", f"/api/games/{game.id}/hits?instance_id={iid}&which=mine", token)
    assert status == 200 and len(sheet["regions"]) == 36 and "cell:A1" in sheet["regions"]

    async def touch(selected):
        status, body = await w.call("POST", f"/api/games/{game.id}/touch", token,
                                    {"instance_id": iid, "version": game.version, "selected": selected})
        assert status == 200, body
        return body

    # first: the dice (a box) and the empty kallax's floor (a mat)
    body = await touch([])
    mats = sorted("cell:" + c for c in engine.legal_mats(state, 0))
    assert sorted(body["targets"]) == sorted(["die:0", "die:1", "die:2", *mats]) and body["moves"] == []
    # a mat: its cell alone
    body = await touch(["cell:A1"])
    assert body == {**body, "targets": [], "moves": [{"regions": ["cell:A1"],
                                                      "action": {"type": "mat", "round": 1, "cell": "A1"}}]}
    # a box: the size die, the category die, then where its bottom-left cell goes; the size die is die 0
    a = engine.assignments(state)[0]
    size_die, category_die = a["dice"][:2]
    body = await touch([f"die:{size_die}"])
    assert set(body["targets"]) == {f"die:{d}" for d in range(3)} - {f"die:{size_die}"}
    body = await touch([f"die:{size_die}", f"die:{category_die}"])
    horizontal = engine.legal_placements(state, 0, a["dice"], "horizontal")
    vertical = engine.legal_placements(state, 0, a["dice"], "vertical")
    assert sorted(body["targets"]) == sorted({"cell:" + c for c in horizontal + vertical})
    # on A1 the box fits both ways: its far corner (the top-right cell) says which
    body = await touch([f"die:{size_die}", f"die:{category_die}", "cell:A1"])
    wide, tall = a["long"], a["short"]
    corner_h = f"{'ABCDEF'[wide - 1]}{tall}"
    corner_v = f"{'ABCDEF'[tall - 1]}{wide}"
    assert sorted(body["targets"]) == sorted(["cell:" + corner_h, "cell:" + corner_v]) and body["moves"] == []
    body = await touch([f"die:{size_die}", f"die:{category_die}", "cell:A1", "cell:" + corner_v])
    action = {"type": "box", "round": 1, "dice": a["dice"], "orientation": "vertical", "cell": "A1"}
    assert body["targets"] == [] and [m["action"] for m in body["moves"]] == [action]
    # the preview: Alice's kallax with the box, her score before and after; Bruno's kallax stays hidden
    status, body = await w.call("POST", f"/api/games/{game.id}/preview", token,
                                {"instance_id": iid, "version": game.version, "action": action})
    assert status == 200, body
    shown = w.drawn[-1]
    assert shown["preview"] and shown["which"] == "mine"
    p = shown["view"]["preview"]
    assert body["text"] == f"Boîte en {' '.join(p['cells'])}\u00a0: {p['before']} → {p['after']} points."
    assert len(p["cells"]) == a["size"] and shown["view"]["sheets"][1]["items"] == []
    assert shown["view"]["dice"] == list(state.dice)  # the round left open: the next dice are never rolled
    png = base64.b64decode(body["picture"].removeprefix("data:image/png;base64,"))
    assert Image.open(io.BytesIO(png)).width == sheet["width"]
    await unchanged(w, game)
    # refusals: a cell that is not free, a die twice, a box that does not fit: nothing changes
    for selected in (["cell:A2"], [f"die:{size_die}", f"die:{size_die}"],
                     [f"die:{size_die}", f"die:{category_die}", "cell:A1", "cell:F6"]):
        status, body = await w.call("POST", f"/api/games/{game.id}/touch", token,
                                    {"instance_id": iid, "version": game.version, "selected": selected})
        assert (status, body["error"]) == (409, "activity.error.no_move"), selected
    await unchanged(w, game)
    # « Confirmer »: the versioned move; Bruno's view still shows no box of Alice's this round
    status, body = await w.call("POST", f"/api/games/{game.id}/move", token,
                                {"instance_id": iid, "version": game.version, "action": action})
    assert status == 200, body
    after = await w.sessions.get(game.id)
    assert after.version == game.version + 1
    assert [it["cells"] for it in (await w.sessions.view_for(after, w.alice.id))["sheets"][0]["items"]] == \
        [p["cells"]]
    bruno = await w.sessions.view_for(after, w.bruno.id)
    assert bruno["sheets"][0]["items"] == []


def spell(hand, word: str) -> list[str]:
    """The hand's cards that spell ``word``, in order (a card once)."""
    free = list(enumerate(hand))
    out = []
    for letter in word:
        i = next(k for k, (_, c) in enumerate(free) if c == letter)
        out.append(f"card:{free.pop(i)[0]}")
    return out


async def test_ludime_draw_a_word_spelt_by_touch_then_discard(world):
    w = world
    game = await start(w, "ludime", [w.alice, w.bruno])
    engine = w.sessions.engine("ludime")
    state = engine.from_dict(game.state)
    assert state.current == 1  # the die made Bruno the dealer: he plays first
    token = await w.login(w.bruno)
    iid = w.fake.launch_activity(w.bruno, "jeux")
    status, body = await w.call("GET", f"/api/games/{game.id}?instance_id={iid}", token)
    assert status == 200 and (body["touch"], body["touch_pictures"]) == ("mine", ["board", "mine"])
    status, table = await w.call("GET", f"/api/games/{game.id}/hits?instance_id={iid}&which=board", token)
    assert status == 200 and set(table["regions"]) == {"pile", "discard"}
    status, hand = await w.call("GET", f"/api/games/{game.id}/hits?instance_id={iid}&which=mine", token)
    assert status == 200 and set(hand["regions"]) == {f"card:{i}" for i in range(15)}

    async def touch(selected, expect=200):
        status, body = await w.call("POST", f"/api/games/{game.id}/touch", token,
                                    {"instance_id": iid, "version": game.version, "selected": selected})
        assert status == expect, body
        return body

    async def preview(action):
        status, body = await w.call("POST", f"/api/games/{game.id}/preview", token,
                                    {"instance_id": iid, "version": game.version, "action": action})
        assert status == 200, body
        return body

    async def move(action):
        status, body = await w.call("POST", f"/api/games/{game.id}/move", token,
                                    {"instance_id": iid, "version": game.version, "action": action})
        assert status == 200, body
        return await w.sessions.get(game.id)

    # the draw: the pile (the first turn may not take the discard); its card is not known before
    assert await touch([]) == {"game": game.id, "version": game.version, "which": "mine", "targets": ["pile"],
                               "moves": []}
    draw = {"type": "draw", "source": "pile"}
    assert (await touch(["pile"]))["moves"] == [{"regions": ["pile"], "action": draw}]
    body = await preview(draw)
    assert body["text"] == "Piocher\u00a0: la carte n'est connue qu'une fois piochée."
    assert w.drawn[-1]["view"]["hand"] == list(state.hands[1]) and w.drawn[-1]["view"]["drawn"] is None
    await unchanged(w, game)
    game = await move(draw)
    state = engine.from_dict(game.state)
    hand_cards = state.hands[1]
    assert "".join(hand_cards) == "AEEILLMNOPPSTUUW"
    # a word: its letters touched in order; every other card stays touchable, a card alone may be discarded
    assert sorted(set((await touch([]))["targets"])) == sorted(f"card:{i}" for i in range(16))
    cards = spell(hand_cards, "PAPILLON")
    body = await touch(cards[:1])
    # (and the pile: the first turn may give cards back instead of laying a word)
    assert set(body["targets"]) == {f"card:{i}" for i in range(16)} - {cards[0]} | {"discard", "pile"}
    assert body["moves"] == []
    body = await touch(cards[:6])  # PAPILL: no word yet
    assert body["moves"] == [] and len(body["targets"]) == 11
    body = await touch(cards)
    word = {"type": "play", "words": ["PAPILLON"]}
    assert body["moves"] == [{"regions": cards, "action": word}] and len(body["targets"]) == 9
    # refusals: a card twice, a card that is not in the hand, a word the engine refuses: nothing changes
    await touch([cards[0], cards[0]], 409)
    await touch(["card:16"], 409)
    for bad in ({"type": "play", "words": ["PAPILLONNES"]}, {"type": "play", "words": ["PLOP"]},
                {"type": "play", "words": ["PAPILLON"], "as_typed": True}, {"type": "exchange", "letters": ["Z"]},
                {"type": "extend", "target": 1, "word": "PAPILLONS"}):
        status, body = await w.call("POST", f"/api/games/{game.id}/preview", token,
                                    {"instance_id": iid, "version": game.version, "action": bad})
        assert (status, body["error"]) == (409, "activity.error.no_move"), bad
    await unchanged(w, game)
    # the preview: Bruno's hand without the word's cards; Alice's hand is nowhere
    body = await preview(word)
    assert body["text"] == "Poser PAPILLON\u00a0: +21 points."  # P A P I L L O N: 3+2+3+2+3+3+2+3
    shown = w.drawn[-1]["view"]
    assert shown["seat"] == 1 and sorted(shown["hand"]) == sorted("EEMSTUUW")
    assert "".join(state.hands[0]) not in json.dumps(shown) and shown["words"][0]["word"] == "PAPILLON"
    await unchanged(w, game)
    game = await move(word)
    state = engine.from_dict(game.state)
    assert [w_[1] for w_ in state.words] == ["PAPILLON"] and len(state.hands[1]) == 8
    # discard: a card, then the discard on the table; the turn passes
    card = "card:0"
    letter = state.hands[1][0]
    discard = {"type": "discard", "letter": letter}
    assert (await touch([card, "discard"]))["moves"] == [{"regions": [card, "discard"], "action": discard}]
    body = await preview(discard)
    assert body["text"] == f"Défausser le {letter}\u00a0: votre tour se termine."
    game = await move(discard)
    assert engine.from_dict(game.state).current == 0
    assert (await touch([]))["targets"] == []  # no longer Bruno's turn: nothing to touch
    await touch(["card:0"], 409)
    await unchanged(w, game)


async def test_a_game_without_touch_says_so(world):
    w = world
    game = await start(w, "ludime", [w.alice, w.bruno], {"variant": "mot-unique"})
    token = await w.login(w.alice)
    iid = w.fake.launch_activity(w.alice, "jeux")
    status, body = await w.call("GET", f"/api/games/{game.id}?instance_id={iid}", token)
    assert body["touch"] is None
    status, body = await w.call("POST", f"/api/games/{game.id}/touch", token,
                                {"instance_id": iid, "version": game.version, "selected": []})
    assert (status, body["error"]) == (404, "activity.error.no_touch")
    await unchanged(w, game)
