"""The board's API (bot/activity) against the strict fake Discord: who is asking comes only from
Discord (the code exchange, ``/users/@me``, the activity instance), a page sees its own seat's view,
a move goes through the session service with the version check, and every refusal leaves the game
unchanged, with a message in the asker's language."""

from __future__ import annotations

import json

import aiohttp
import pytest
import pytest_asyncio

from bot.activity import ActivityServer, Board, DiscordIdentity
from bot.activity import web as activity_web
from bot.activity.identity import USER_TTL
from bot.activity.live import Hub, PgListener
from bot.activity.service import jsonable
from bot.sessions import Player, SessionService
from bot.storage import open_store
from fakediscord import FakeDiscord

pytestmark = pytest.mark.asyncio


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class World:
    def __init__(self, fake, sessions, server, http, clock, moved, users):
        self.fake, self.sessions, self.server, self.http, self.clock, self.moved = (
            fake, sessions, server, http, clock, moved)
        self.alice, self.bruno, self.chloe, self.dora, self.eve = users
        self.base = f"http://127.0.0.1:{server.port}"
        self.tokens: dict[int, str] = {}

    async def call(self, method: str, path: str, token: str | None = None, body=None, *, raw: bytes | None = None,
                   headers: dict[str, str] | None = None) -> tuple[int, dict, aiohttp.typedefs.LooseHeaders]:
        h = dict(headers or {})
        if token is not None:
            h["Authorization"] = f"Bearer {token}"
        kw = {"data": raw} if raw is not None else ({"json": body} if body is not None else {})
        async with self.http.request(method, self.base + path, headers=h, **kw) as r:
            return r.status, json.loads(await r.text() or "null"), r.headers

    async def login(self, user) -> str:
        code = self.fake.authorize_activity(user)
        status, body, _ = await self.call("POST", "/api/token", body={"code": code})
        assert status == 200, body
        self.tokens[user.id] = body["access_token"]
        return body["access_token"]


@pytest_asyncio.fixture
async def world(tmp_path):
    fake = FakeDiscord(guild_name="Ludi", channels=["jeux", "autre"])
    alice, bruno, chloe = fake.add_user("Alice"), fake.add_user("Bruno"), fake.add_user("Chloé")
    eve = fake.add_user("Eve", locale="en-US")
    club = fake.add_guild("Club", channels=["jeux"])
    dora = fake.add_user("Dora", guilds=[club])
    await fake.start()
    secret = fake.enable_activities()
    store = open_store(str(tmp_path / "ludibot.db"))
    await store.open()
    sessions = SessionService(store, seed_source=lambda: 7)
    clock = Clock()
    moved: list[int] = []
    identity = DiscordIdentity(api_base=fake.api_base, app_id=fake.app_id, client_secret=secret,
                               bot_token=fake.token, clock=clock)
    async def draw(game, view, lang, which):  # what the bot's cogs draw, recorded: (view, lang, which)
        drawn.append((view, lang, which))
        return b"\x89PNG" + which.encode()

    drawn: list = []
    server = ActivityServer(Board(sessions, moved=lambda o: moved.append(o.game.version), draw=draw), identity,
                            clock=clock)
    server.drawn = drawn
    sessions.watchers.append(server.hub.watcher())  # as bot.activity.start_server does
    await server.start("127.0.0.1", 0)
    async with aiohttp.ClientSession() as http:
        yield World(fake, sessions, server, http, clock, moved, (alice, bruno, chloe, dora, eve))
    await server.stop()
    await store.close()
    await fake.stop()


async def ludix_game(w: World, channel: str = "jeux"):
    ch = w.fake.channel(channel)
    g = await w.sessions.open_lobby("ludix", guild_id=w.fake.guild_id, channel_id=ch.id,
                                    player=Player(w.alice.id, "Alice"))
    await w.sessions.join(g.id, Player(w.bruno.id, "Bruno"))
    return (await w.sessions.start(g.id, Player(w.alice.id, "Alice"))).game


async def unchanged(w: World, before) -> None:
    after = await w.sessions.get(before.id)
    assert (after.version, after.state) == (before.version, before.state)


async def test_a_player_sees_their_game_and_moves_through_the_session_service(world):
    w = world
    game = await ludix_game(w)
    token = await w.login(w.alice)
    iid = w.fake.launch_activity(w.alice, "jeux")
    status, body, headers = await w.call("GET", f"/api/games?instance_id={iid}", token)
    assert status == 200, body
    assert body["user"] == {"id": str(w.alice.id), "lang": "fr"}
    assert [g["id"] for g in body["games"]] == [game.id]
    assert body["games"][0]["seat"] == 0 and body["games"][0]["my_turn"] is True
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert "frame-ancestors" in headers["Content-Security-Policy"] and headers["Cache-Control"] == "no-store"
    status, body, _ = await w.call("GET", f"/api/games/{game.id}?instance_id={iid}", token)
    assert status == 200 and body["version"] == game.version
    assert body["view"] == jsonable(await w.sessions.view_for(game, w.alice.id))
    status, body, _ = await w.call("POST", f"/api/games/{game.id}/move", token,
                                   {"instance_id": iid, "version": game.version, "action": {"type": "roll"}})
    assert status == 200, body
    after = await w.sessions.get(game.id)
    assert body["version"] == after.version == game.version + 1
    assert w.moved == [after.version]  # the bot's publisher is woken for the channel's card
    assert [e.action for e in await w.sessions.store.events(game.id)] == [{"type": "roll"}]


async def test_a_private_view_goes_only_to_its_seat(world):
    w = world
    ch = w.fake.channel("jeux")
    g = await w.sessions.open_lobby("ludime", guild_id=w.fake.guild_id, channel_id=ch.id,
                                    player=Player(w.alice.id, "Alice"))
    await w.sessions.join(g.id, Player(w.bruno.id, "Bruno"))
    game = (await w.sessions.start(g.id, Player(w.alice.id, "Alice"))).game
    iid = w.fake.launch_activity(w.alice, "jeux")
    w.fake.launch_activity(w.bruno, "jeux")
    w.fake.launch_activity(w.chloe, "jeux")
    views = {}
    for user in (w.alice, w.bruno, w.chloe):
        status, body, _ = await w.call("GET", f"/api/games/{game.id}?instance_id={iid}", await w.login(user))
        assert status == 200
        views[user.name] = body["view"]
    engine = w.sessions.engine("ludime")
    state = engine.from_dict(game.state)
    assert views["Alice"] == jsonable(engine.view(state, 0))
    assert views["Bruno"] == jsonable(engine.view(state, 1))
    assert views["Chloé"] == jsonable(engine.view(state, None))  # not seated: the spectator's view
    assert views["Alice"] != views["Bruno"] and views["Chloé"] not in (views["Alice"], views["Bruno"])


async def test_refusals_leave_the_game_unchanged(world):
    w = world
    game = await ludix_game(w)
    alice, bruno, chloe = await w.login(w.alice), await w.login(w.bruno), await w.login(w.chloe)
    iid = w.fake.launch_activity(w.alice, "jeux")
    w.fake.launch_activity(w.bruno, "jeux")
    w.fake.launch_activity(w.chloe, "jeux")
    move = {"instance_id": iid, "version": game.version, "action": {"type": "roll"}}
    path = f"/api/games/{game.id}/move"

    async def refused(status: int, key: str, token, body=None, *, method="POST", where=path, **kw):
        got, answer, _ = await w.call(method, where, token, body, **kw)
        assert (got, answer.get("error")) == (status, key), answer
        assert answer["message"] and "{" not in answer["message"]
        await unchanged(w, game)
        return answer

    await refused(409, "common.error.not_your_turn", bruno, move)  # a player out of turn
    await refused(409, "common.error.not_a_player", chloe, move)  # a member who is not seated
    await refused(409, "activity.error.stale", alice, {**move, "version": game.version - 1})  # an older version
    await refused(401, "activity.error.no_token", None, move)
    await refused(401, "activity.error.bad_token", "forged-token", move)
    await refused(400, "activity.error.bad_request", alice, raw=b"{not json")
    await refused(400, "activity.error.bad_request", alice, {**move, "action": "roll"})
    await refused(400, "activity.error.bad_request", alice, {**move, "version": "1"})
    await refused(400, "activity.error.bad_request", alice, where=f"/api/games/{'9' * 30}/move", body=move)
    # an instance in another channel of the same server
    autre = w.fake.launch_activity(w.alice, "autre")
    await refused(403, "activity.error.elsewhere", alice, {**move, "instance_id": autre})
    # a page whose instance Discord does not know (forged, or ended)
    await refused(404, "activity.error.no_instance", alice, {**move, "instance_id": "i-1-gc-1-1"})
    # Dora, of another server: her own instance can't reach this server's game, nor can she use Alice's
    dora = await w.login(w.dora)
    club_iid = w.fake.launch_activity(w.dora, w.fake.channel("jeux", guild=w.fake.guilds[w.dora.guild_ids[0]]))
    await refused(404, "activity.error.no_game", dora, {**move, "instance_id": club_iid})
    await refused(403, "activity.error.not_in_instance", dora, move)
    status, body, _ = await w.call("GET", f"/api/games?instance_id={club_iid}", dora)
    assert status == 200 and body["games"] == []
    assert w.moved == []


async def test_tokens_expire_and_the_answers_speak_the_users_language(world):
    w = world
    game = await ludix_game(w)
    token = await w.login(w.alice)
    iid = w.fake.launch_activity(w.alice, "jeux")
    assert (await w.call("GET", f"/api/games?instance_id={iid}", token))[0] == 200
    w.fake.activities.expire_tokens()
    w.clock.now += USER_TTL + 1  # past what the server keeps of the token: Discord is asked again
    status, body, _ = await w.call("GET", f"/api/games?instance_id={iid}", token)
    assert (status, body["error"]) == (401, "activity.error.bad_token")
    # a code is exchanged once
    code = w.fake.authorize_activity(w.alice)
    assert (await w.call("POST", "/api/token", body={"code": code}))[0] == 200
    status, body, _ = await w.call("POST", "/api/token", body={"code": code})
    assert (status, body["error"]) == (401, "activity.error.bad_code")
    # Eve's Discord is in English: so are her refusals
    eve = await w.login(w.eve)
    w.fake.launch_activity(w.eve, "jeux")
    status, body, _ = await w.call("POST", f"/api/games/{game.id}/move", eve,
                                   {"instance_id": iid, "version": game.version, "action": {"type": "roll"}})
    assert (status, body["message"]) == (409, f"You are not playing in game #{game.id}.")


async def test_requests_are_rate_limited_per_user(world):
    w = world
    token = await w.login(w.alice)
    iid = w.fake.launch_activity(w.alice, "jeux")
    limit = activity_web.RATE_LIMIT
    statuses = [(await w.call("GET", f"/api/games?instance_id={iid}", token))[0] for _ in range(limit + 1)]
    assert statuses[:limit] == [200] * limit and 100 <= limit <= 200
    status, body, headers = await w.call("GET", f"/api/games?instance_id={iid}", token)
    assert status == 429 and body["error"] == "activity.error.too_many" and int(headers["Retry-After"]) >= 1
    w.clock.now += 11  # the window has passed
    assert (await w.call("GET", f"/api/games?instance_id={iid}", token))[0] == 200
    # Bruno is not slowed by Alice
    bruno = await w.login(w.bruno)
    w.fake.launch_activity(w.bruno, "jeux")
    assert (await w.call("GET", f"/api/games?instance_id={iid}", bruno))[0] == 200


#: what a socket frame may say: which game changed, never what anyone holds
FRAME_KEYS = {"game", "version", "status", "resync", "hello", "error", "message"}


async def socket(w: World, token: str, instance_id: str):
    ws = await w.http.ws_connect(w.base + "/api/socket")
    await ws.send_json({"token": token, "instance_id": instance_id})
    return ws


async def frame(ws, timeout: float = 1.0) -> dict:
    """The next frame, within ``timeout`` (the budget: a move reaches an open page within 1 s)."""
    got = await ws.receive_json(timeout=timeout)
    assert set(got) <= FRAME_KEYS, got
    return got


async def test_an_open_page_hears_of_every_move_of_its_channel_within_a_second(world):
    w = world
    game = await ludix_game(w)
    alice, chloe = await w.login(w.alice), await w.login(w.chloe)
    iid = w.fake.launch_activity(w.alice, "jeux")
    w.fake.launch_activity(w.chloe, "jeux")
    pages = [await socket(w, alice, iid), await socket(w, chloe, iid)]  # a player and a spectator
    for ws in pages:
        assert (await frame(ws))["hello"] == {"channel": str(w.fake.channel("jeux").id)}
    # a move on the board
    status, _, _ = await w.call("POST", f"/api/games/{game.id}/move", alice,
                                {"instance_id": iid, "version": game.version, "action": {"type": "roll"}})
    assert status == 200
    for ws in pages:
        assert await frame(ws) == {"game": game.id, "version": game.version + 1, "status": "running"}
    # a move made elsewhere (the chat, a timeout): the session service tells the pages too
    row = await w.sessions.get(game.id)
    expected = w.sessions.expected_seats(row)
    (seat,) = expected
    user_id = row.seats[seat].user_id
    engine = w.sessions.engine("ludix")
    action = next(a for a in ({"type": "stop"}, {"type": "roll"})
                  if _legal(engine, row, seat, a))
    await w.sessions.act(game.id, user_id, action, version=row.version)
    for ws in pages:
        assert await frame(ws) == {"game": game.id, "version": row.version + 1, "status": "running"}
    # a game of another channel says nothing here
    other = await ludix_game(w, "autre")
    await w.sessions.act(other.id, w.alice.id, {"type": "roll"}, version=other.version)
    for ws in pages:
        with pytest.raises(TimeoutError):
            await ws.receive_json(timeout=0.3)
        await ws.close()


def _legal(engine, row, seat, action) -> bool:
    from engines.base import RuleError

    try:
        engine.apply(engine.from_dict(row.state), seat, action)
        return True
    except RuleError:
        return False


async def test_a_socket_is_refused_without_a_valid_token_or_a_place_in_the_instance(world, monkeypatch):
    w = world
    await ludix_game(w)
    iid = w.fake.launch_activity(w.alice, "jeux")
    # a forged token
    ws = await socket(w, "forged", iid)
    got = await frame(ws)
    assert got["error"] == "activity.error.bad_token" and "{" not in got["message"]
    await ws.receive()
    assert ws.close_code == 4401
    # Dora is not in the instance (another server's member, with a valid token)
    ws = await socket(w, await w.login(w.dora), iid)
    assert (await frame(ws))["error"] == "activity.error.not_in_instance"
    await ws.receive()
    assert ws.close_code == 4403
    # a page that never says who it is
    monkeypatch.setattr(activity_web, "HELLO_WAIT", 0.2)
    ws = await w.http.ws_connect(w.base + "/api/socket")
    assert (await frame(ws))["error"] == "activity.error.no_token"
    # at most five sockets a user
    alice = await w.login(w.alice)
    open_ = [await socket(w, alice, iid) for _ in range(5)]
    for ws in open_:
        assert "hello" in await frame(ws)
    ws = await socket(w, alice, iid)
    assert (await frame(ws))["error"] == "activity.error.too_many"
    for ws in open_:
        await ws.close()
    assert await _drained(w.server.hub)  # every closed page unsubscribed


async def _drained(hub: Hub) -> bool:
    import asyncio

    for _ in range(50):
        if hub.pages == 0:
            return True
        await asyncio.sleep(0.02)
    return False


async def test_a_page_that_does_not_keep_up_is_told_to_read_again():
    hub = Hub()
    queue = hub.subscribe(5)
    for version in range(1, 200):
        hub.changed(1, version, 5)
    frames = []
    while not queue.empty():
        frames.append(queue.get_nowait())
    assert frames[0] == {"resync": True} and len(frames) < 64
    assert frames[-1] == {"game": 1, "version": 199}
    hub.changed(1, 150, 5)  # an older version told again (another source): nothing
    assert queue.empty()


async def test_postgresql_tells_every_listener_of_a_commit(pg_server):
    """The trigger of migration 14 and LISTEN: what one process commits reaches another's pages. The
    second process is played by a listener on its own connection, which is all that crosses processes."""
    import asyncio

    from bot.storage import open_store

    url = await pg_server.new_database("live")
    store = open_store(url)
    await store.open()
    hub = Hub()
    listener = PgListener(url, hub)
    listener.start()
    try:
        await asyncio.wait_for(listener.listening.wait(), 10)
        queue = hub.subscribe(10)
        sessions = SessionService(store, seed_source=lambda: 3)  # no watcher: only PostgreSQL can tell
        g = await sessions.open_lobby("ludix", guild_id=1, channel_id=10, player=Player(100, "Alice"))
        assert await asyncio.wait_for(queue.get(), 1.0) == {"game": g.id, "version": g.version}
        await sessions.join(g.id, Player(101, "Bruno"))
        g = (await sessions.start(g.id, Player(100, "Alice"))).game
        seen = set()
        while g.version not in seen:
            seen.add((await asyncio.wait_for(queue.get(), 1.0))["version"])
        await sessions.act(g.id, 100, {"type": "roll"}, version=g.version)
        assert await asyncio.wait_for(queue.get(), 1.0) == {"game": g.id, "version": g.version + 1}
        # the connection lost and found again: pages are told to read again
        await store._call(lambda con: con.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"))
        listener.retry = 0.05
        assert await asyncio.wait_for(queue.get(), 10) == {"resync": True}
    finally:
        await listener.stop()
        await store.close()


async def test_pictures_the_table_for_everyone_and_a_private_one_for_its_seat_only(world):
    w = world
    ch = w.fake.channel("jeux")
    g = await w.sessions.open_lobby("ludime", guild_id=w.fake.guild_id, channel_id=ch.id,
                                    player=Player(w.alice.id, "Alice"))
    await w.sessions.join(g.id, Player(w.bruno.id, "Bruno"))
    game = (await w.sessions.start(g.id, Player(w.alice.id, "Alice"))).game
    iid = w.fake.launch_activity(w.alice, "jeux")
    w.fake.launch_activity(w.chloe, "jeux")
    alice, chloe = await w.login(w.alice), await w.login(w.chloe)
    engine = w.sessions.engine("ludime")
    state = engine.from_dict(game.state)

    async def png(token, which):
        async with w.http.get(f"{w.base}/api/games/{game.id}/picture?instance_id={iid}&which={which}",
                              headers={"Authorization": f"Bearer {token}"}) as r:
            return r.status, r.headers.get("Content-Type"), await r.read()

    assert await png(alice, "board") == (200, "image/png", b"\x89PNGboard")
    assert w.server.drawn[-1] == (engine.view(state, None), "fr", "board")  # the public view, nothing more
    assert await png(alice, "mine") == (200, "image/png", b"\x89PNGmine")
    assert w.server.drawn[-1] == (engine.view(state, 0), "fr", "mine")  # Alice's own seat
    status, _, body = await png(chloe, "mine")  # a spectator has no private picture
    assert status == 403 and json.loads(body)["error"] == "activity.error.no_seat"
    assert all(which == "board" or view == engine.view(state, 0) for view, _, which in w.server.drawn)
    status, _, body = await png(alice, "../etc")
    assert status == 400
