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
from bot.activity.identity import USER_TTL
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
    server = ActivityServer(Board(sessions, moved=lambda o: moved.append(o.game.version)), identity, clock=clock)
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
    statuses = [(await w.call("GET", f"/api/games?instance_id={iid}", token))[0] for _ in range(61)]
    assert statuses[:60] == [200] * 60
    status, body, headers = await w.call("GET", f"/api/games?instance_id={iid}", token)
    assert status == 429 and body["error"] == "activity.error.too_many" and int(headers["Retry-After"]) >= 1
    w.clock.now += 11  # the window has passed
    assert (await w.call("GET", f"/api/games?instance_id={iid}", token))[0] == 200
    # Bruno is not slowed by Alice
    bruno = await w.login(w.bruno)
    w.fake.launch_activity(w.bruno, "jeux")
    assert (await w.call("GET", f"/api/games?instance_id={iid}", bruno))[0] == 200
