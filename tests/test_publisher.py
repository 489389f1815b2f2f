"""The publisher (bot/publisher.py) on a real store, with a stand-in cog instead of Discord.

It must post every version the channel has not seen (and only once), leave an interaction's own
version to it, back off on 5xx, pause on 403 (no retry loop, no clock against the players, the
creator told once) and resume with the clocks shifted by the pause.
"""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import discord
import pytest

from bot.publisher import Publisher, decode_pause, pause_reason
from bot.sessions import Player, SessionService
from bot.storage import REMINDER, TIMEOUT, SQLiteStore

ALICE, BRUNO = Player(1, "Alice"), Player(2, "Bruno")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Response:  # what discord.HTTPException reads from an aiohttp response
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "test"


def http_error(status: int, code: int) -> discord.HTTPException:
    cls = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    if status >= 500:
        cls = discord.DiscordServerError
    return cls(Response(status), {"code": code, "message": "refused"})


class StubCog:
    """Records what the publisher asks it to post; fails the way the test says."""

    def __init__(self, sessions: SessionService) -> None:
        self.sessions = sessions
        self.posts: list[tuple[int, int, list[str], int]] = []
        self.fail: list[BaseException] = []
        self.told: list[tuple[int, str]] = []
        self.locks: dict[int, asyncio.Lock] = {}
        self.lobby_posts: list[tuple[int, int, str]] = []
        self.started_lobbies: list[int] = []

    def game_lock(self, game_id: int) -> asyncio.Lock:
        return self.locks.setdefault(game_id, asyncio.Lock())

    async def public_lang_of(self, game) -> str:
        return "fr"

    async def publish(self, outcome, interaction=None, *, first=None, lang=None, extra=None):
        if self.fail:
            raise self.fail.pop(0)
        game = outcome.game
        msg_id = 10_000 + len(self.posts)
        self.posts.append((game.id, game.version, list(first or []), len(outcome.events)))
        await self.sessions.store.mark_published(game.id, game.version, msg_id)
        return msg_id

    async def publish_lobby(self, game):
        if self.fail:
            raise self.fail.pop(0)
        self.lobby_posts.append((game.id, game.version, game.status))
        await self.sessions.store.mark_published(game.id, game.version, None)
        return 20_000 + len(self.lobby_posts)

    async def refresh_started_lobby(self, game) -> None:
        self.started_lobbies.append(game.id)

    async def tell_creator_paused(self, game, reason: str) -> None:
        self.told.append((game.id, reason))


@pytest.fixture
async def world(db_path):
    clock = Clock()
    store = SQLiteStore(db_path, clock=clock)
    await store.open()
    sessions = SessionService(store, clock=clock)
    cog = StubCog(sessions)
    bot = SimpleNamespace(store=store, sessions=sessions, game_cogs={"ludix": cog})
    publisher = Publisher(bot, grace=4.0, clock=clock)
    yield SimpleNamespace(store=store, sessions=sessions, cog=cog, pub=publisher, clock=clock)
    await store.close()


async def running_ludix(w) -> int:
    game = await w.sessions.open_lobby("ludix", guild_id=5, channel_id=50, player=ALICE)
    await w.sessions.join(game.id, BRUNO)
    await w.sessions.start(game.id, ALICE)
    return game.id


async def drain(w) -> None:
    await w.pub.sweep()
    for task in list(w.pub._channels.values()):
        await task


async def test_every_unpublished_version_is_posted_once_after_the_grace(world):
    w = world
    gid = await running_ludix(w)
    await drain(w)
    assert w.cog.posts == []  # younger than the grace: an interaction may still be answering it
    w.clock.now += 5
    await drain(w)
    game = await w.store.get_game(gid)
    assert w.cog.posts == [(gid, game.version, [], 1)] and game.published_version == game.version
    await drain(w)
    assert len(w.cog.posts) == 1  # nothing owed any more


async def test_a_moves_interaction_is_left_to_answer_it(world):
    w = world
    gid = await running_ludix(w)
    w.clock.now += 60
    async with w.cog.game_lock(gid):  # a click on this game is being answered
        await drain(w)
        assert w.cog.posts == []
    await drain(w)
    assert len(w.cog.posts) == 1


async def test_an_urgent_wake_skips_the_grace_and_a_clock_move_is_said_first(world):
    w = world
    gid = await running_ludix(w)
    game = await w.store.get_game(gid)
    await w.store.mark_published(gid, game.version, 1)
    seat = next(iter(w.sessions.expected_seats(game)))
    await w.sessions.act_for(gid, seat, {"type": "roll"}, actor="timeout")
    w.pub.wake(gid, urgent=True)
    await drain(w)
    (post,) = w.cog.posts
    assert post[2] and "n'a pas joué à temps" in post[2][0]


async def test_mark_published_never_goes_back(store):
    sessions = SessionService(store)
    game = await sessions.open_lobby("ludix", guild_id=5, channel_id=50, player=ALICE)
    await sessions.join(game.id, BRUNO)
    outcome = await sessions.start(game.id, ALICE)
    v = outcome.game.version
    assert await store.mark_published(game.id, v, 7)
    assert not await store.mark_published(game.id, v - 1, 8)  # an older post finished late
    game = await store.get_game(game.id)
    assert game.published_version == v and game.control_message_id == 7


async def test_server_errors_back_off_then_succeed(world):
    w = world
    gid = await running_ludix(w)
    w.clock.now += 5
    w.cog.fail = [http_error(503, 0)]
    await drain(w)
    assert w.cog.posts == [] and w.pub.stats["retries"] == 1
    await drain(w)
    assert w.cog.posts == []  # not before its backoff
    w.clock.now += 3
    await drain(w)
    assert [p[0] for p in w.cog.posts] == [gid]


@pytest.mark.parametrize("status,code,reason", [(403, 50013, "missing_permissions"), (403, 50001, "missing_access"),
                                                (404, 10003, "unknown_channel")])
async def test_a_refusing_channel_pauses_the_game_and_stops_its_clocks(world, status, code, reason):
    w = world
    gid = await running_ludix(w)
    game = await w.store.get_game(gid)
    seat = next(iter(w.sessions.expected_seats(game)))
    await w.store.schedule_deadlines(gid, game.version, w.clock.now, [(seat, REMINDER, w.clock.now + 3600),
                                                                       (seat, TIMEOUT, w.clock.now + 7200)])
    w.clock.now += 5
    w.cog.fail = [http_error(status, code)]
    await drain(w)
    game = await w.store.get_game(gid)
    assert decode_pause(game.paused)["reason"] == reason and w.cog.told == [(gid, reason)]
    # no retry loop: the outbox skips it, whatever wakes the publisher
    for _ in range(3):
        w.pub.wake(gid)
        await drain(w)
    assert w.cog.posts == [] and w.cog.told == [(gid, reason)]
    # no clock runs against its players while paused
    w.clock.now += 10 * 3600
    assert await w.store.due_deadlines(w.clock.now) == []
    # resumed 10 h later: the clocks restart where they stopped, the game is published
    await w.pub.resume(game)
    due = sorted(d.due for d in await w.store.deadlines_of(gid) if d.state == "pending")
    assert due == [1_000_000.0 + 5 + 10 * 3600 + 3600 - 5, 1_000_000.0 + 5 + 10 * 3600 + 7200 - 5]
    await drain(w)
    assert [p[0] for p in w.cog.posts] == [gid]
    assert (await w.store.get_game(gid)).paused is None


async def test_guild_events_give_paused_games_one_new_try(world):
    w = world
    gid = await running_ludix(w)
    w.clock.now += 5
    w.cog.fail = [http_error(403, 50013), http_error(403, 50013)]
    await drain(w)
    assert (await w.store.paused_games(5))[0].id == gid
    assert await w.pub.resume_guild(5) == 1
    await drain(w)  # still refused: paused again, no loop, the creator is not told twice
    assert (await w.store.paused_games(5))[0].id == gid and len(w.cog.told) == 1
    assert await w.pub.resume_guild(5) == 1
    await drain(w)
    assert (await w.store.paused_games(5)) == [] and len(w.cog.posts) == 1


def test_pause_reasons_follow_discords_codes():
    assert pause_reason(http_error(403, 50013)) == "missing_permissions"
    assert pause_reason(http_error(403, 50001)) == "missing_access"
    assert pause_reason(http_error(400, 50083)) == "thread_locked"
    assert pause_reason(http_error(403, 160005)) == "thread_locked"
    assert pause_reason(http_error(404, 10003)) == "unknown_channel"
    assert pause_reason(http_error(500, 0)) is None
    assert pause_reason(http_error(429, 0)) is None
    assert decode_pause(json.dumps({"reason": "x", "since": 3.0})) == {"reason": "x", "since": 3.0}


async def test_a_lobby_changed_outside_its_buttons_is_owed_its_card(world):
    """Issue 24: a join (a slash command, say) makes the lobby's card due; the publisher shows it
    once, then a cancellation is owed too; nothing is owed for a lobby its answer showed."""
    w = world
    game = await w.sessions.open_lobby("ludix", guild_id=5, channel_id=50, player=ALICE)
    await drain(w)
    assert w.cog.lobby_posts == []  # a new lobby: its opening answer shows it
    game = await w.sessions.join(game.id, BRUNO)
    w.clock.now += 5
    await drain(w)
    assert w.cog.lobby_posts == [(game.id, game.version, "lobby")]
    await drain(w)
    assert len(w.cog.lobby_posts) == 1
    game = await w.sessions.cancel(game.id, ALICE)
    w.pub.wake(game.id, urgent=True)  # the command's answer asked for it: no grace
    await drain(w)
    assert w.cog.lobby_posts[-1] == (game.id, game.version, "cancelled")
    assert not (await w.store.get_game(game.id)).due


async def test_a_start_the_channel_never_saw_is_told_with_its_lobby_marked_started(world):
    """A crash between a lobby's card and the start's answer: the repair says the game started,
    and the lobby card is refreshed first (no live « Rejoindre » under a started game)."""
    w = world
    game = await w.sessions.open_lobby("ludix", guild_id=5, channel_id=50, player=ALICE)
    game = await w.sessions.join(game.id, BRUNO)
    await w.store.mark_published(game.id, game.version, None)  # the lobby card showed Bruno
    await w.sessions.start(game.id, ALICE)
    w.clock.now += 5
    await drain(w)
    started = await w.store.get_game(game.id)
    assert w.cog.started_lobbies == [game.id]
    assert w.cog.posts == [(game.id, started.version, [], 1)]  # the "started" event told
    assert w.cog.lobby_posts == []


async def test_a_lobby_whose_channel_refuses_is_paused_not_retried_in_a_loop(world):
    w = world
    game = await w.sessions.open_lobby("ludix", guild_id=5, channel_id=50, player=ALICE)
    game = await w.sessions.join(game.id, BRUNO)
    w.cog.fail.append(http_error(403, 50013))
    w.clock.now += 5
    await drain(w)
    assert (await w.store.get_game(game.id)).paused and w.cog.told == [(game.id, "missing_permissions")]
    await drain(w)
    assert w.cog.lobby_posts == []


async def test_the_start_up_catch_up_posts_what_is_owed_at_once_without_grace(world):
    w = world
    gid = await running_ludix(w)  # committed a moment ago, never published: a crash in between
    owed = await w.pub.catch_up()
    game = await w.store.get_game(gid)
    assert owed == 1 and w.cog.posts == [(gid, game.version, [], 1)] and game.published_version == game.version
    assert await w.pub.catch_up() == 0 and len(w.cog.posts) == 1


async def test_at_start_the_outbox_catches_up_before_the_scheduler_fires(monkeypatch):
    """bot.client.Ludibot.start_background: the publisher's catch-up is over before the scheduler
    (which fires the deadlines due during the downtime) starts."""
    from bot import client

    order: list[str] = []

    class Pub:
        async def catch_up(self):
            order.append("catch-up begins")
            await asyncio.sleep(0.01)
            order.append("catch-up done")
            return 2

        def start(self):
            order.append("publisher loop")

    bot = SimpleNamespace(community=SimpleNamespace(start=lambda: order.append("scheduler")))
    monkeypatch.setattr(client.Publisher, "for_bot", staticmethod(lambda b: Pub()))
    await client.Ludibot.start_background(bot)  # type: ignore[arg-type]
    assert order == ["catch-up begins", "catch-up done", "publisher loop", "scheduler"]
