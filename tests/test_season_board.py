"""Season tables read from the store (bot/community/season_board.py): the games of the window only, past
seasons browsable, a member's seasons for /profil, and the podium of a season that ended: a claimed deadline of the server, posted when the
season ends (no game needed), once across processes, restarts and crashes."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bot.community import seasons as S
from bot.community.season_board import LEASE, MAX_ATTEMPTS, SeasonBoard, podium_text
from bot.sessions import Player, SessionService
from bot.storage import open_store

GUILD, CHANNEL = 1, 10


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def ts(*args) -> float:
    return datetime(*args, tzinfo=UTC).timestamp()


async def play(svc: SessionService, winner: int, loser: int) -> None:
    g = await svc.open_lobby("tectonic", guild_id=GUILD, channel_id=CHANNEL, player=Player(winner, f"J{winner}"))
    await svc.join(g.id, Player(loser, f"J{loser}"))
    await svc.start(g.id, Player(winner, f"J{winner}"))
    await svc.forfeit(g.id, 1)


class Channel:
    """Where the podiums go: what was posted, and (``retry``) a look at it before posting again."""

    def __init__(self, fail: int = 0) -> None:
        self.posts: list[tuple[int, int, str, list[str]]] = []
        self.retries = 0
        self.fail = fail

    async def __call__(self, guild_id, channel_id, season, podiums, retry) -> None:
        await asyncio.sleep(0)  # a network call: the other process runs meanwhile
        if self.fail:
            self.fail -= 1
            raise ConnectionError("Discord is down")
        self.retries += retry
        line = (guild_id, channel_id, season.label, [r.user_id for r in podiums["tectonic"]])
        if retry and line in self.posts:
            return  # found in the channel: not posted twice
        self.posts.append(line)


class World:
    """One bot process: its store (on the shared database), its session service and season board."""

    def __init__(self, url: str, clock: Clock, channel: Channel) -> None:
        self.url, self.clock, self.channel = url, clock, channel

    async def __aenter__(self) -> World:
        self.store = open_store(self.url, clock=self.clock)
        await self.store.open()
        self.svc = SessionService(self.store, clock=self.clock)
        self.board = SeasonBoard(self.store, clock=self.clock)
        self.board.post = self.channel
        self.board.kinds = lambda: ["tectonic", "ludix"]
        return self

    async def __aexit__(self, *exc) -> None:
        await self.store.close()


async def set_up_seasons(w: World, period: str = S.MONTH) -> None:
    """What ``/ludibot config saison:`` does: the settings, then the season end scheduled."""
    await w.store.set_guild_settings(GUILD, S.configure(await w.store.guild_settings(GUILD), season=period,
                                                        channel=CHANNEL))
    await w.board.schedule(GUILD)


async def pending(w: World) -> list[tuple[str, str]]:
    """The season ends due now, not yet closed."""
    return [(e.period, e.label) for e in await w.store.due_season_ends(w.clock.now, 100)]


async def test_seasons_from_the_store(db_url):
    clock = Clock(ts(2026, 10, 20))
    async with World(db_url, clock, Channel()) as w:
        svc, board = w.svc, w.board
        await set_up_seasons(w)
        await play(svc, 1, 2)  # October: 1 beats 2 twice
        await play(svc, 1, 2)
        assert await board.tick() == 0 and w.channel.posts == []  # October has not ended
        clock.now = ts(2026, 11, 3)
        await play(svc, 2, 3)  # November: 2 beats 3
        oct_, nov = S.Season(2026, 10), S.Season(2026, 11)
        assert [(r.user_id, r.games, r.wins) for r in await board.table(GUILD, "tectonic", oct_)] == [(1, 2, 2),
                                                                                                     (2, 2, 0)]
        assert [(r.user_id, r.games, r.wins) for r in await board.table(GUILD, "tectonic", nov)] == [(2, 1, 1),
                                                                                                     (3, 1, 0)]
        assert await board.table(GUILD, "ludix", nov) == []
        podiums = await board.podiums(GUILD, oct_)
        assert list(podiums) == ["tectonic"] and [r.user_id for r in podiums["tectonic"]] == [1, 2]
        text = podium_text(oct_, podiums, "fr")
        assert "octobre 2026" in text and "🥇 <@1>" in text and "🥈 <@2>" in text
        # /profil: member 2 is first this month, second last month
        mine = [(s.label, k, pos, total) for s, k, pos, total, _ in await board.player_seasons(GUILD, 2, ["tectonic"])]
        assert mine == [("2026-11", "tectonic", 1, 2), ("2026-10", "tectonic", 2, 2)]
        # a past season is cached (it cannot change); the current one is read again after a minute
        await play(svc, 3, 2)
        assert len(await board.table(GUILD, "tectonic", nov)) == 2
        assert (await board.table(GUILD, "tectonic", nov))[0].user_id == 2  # still the cached table
        clock.now += 61
        assert {r.user_id: r.games for r in await board.table(GUILD, "tectonic", nov)} == {2: 2, 3: 2}


async def test_the_podium_is_posted_when_the_season_ends_without_any_game(db_url):
    """A quiet server: nobody plays after October; its podium comes at October's end all the same, once."""
    clock = Clock(ts(2026, 10, 20))
    async with World(db_url, clock, Channel()) as w:
        await set_up_seasons(w)
        await play(w.svc, 1, 2)
        await play(w.svc, 1, 2)
        clock.now = ts(2026, 10, 31, 23, 59, 59)
        assert await w.board.tick() == 0 and w.channel.posts == []
        clock.now = ts(2026, 11, 1, 0, 0, 1)  # the season ended a second ago: no game since
        assert await w.board.tick() == 1
        assert w.channel.posts == [(GUILD, CHANNEL, "2026-10", [1, 2])] and w.channel.retries == 0
        for _ in range(3):
            clock.now += 3600
            assert await w.board.tick() == 0
        assert len(w.channel.posts) == 1
        # the next season's end is written: November's podium at its end (nobody played: nothing to crown)
        clock.now = ts(2026, 12, 1, 0, 0, 1)
        assert await pending(w) == [("month", "2026-11")]
        assert await w.board.tick() == 0 and len(w.channel.posts) == 1
        assert await pending(w) == []  # closed, and December's end written in its turn
        clock.now = ts(2027, 1, 1)
        assert await pending(w) == [("month", "2026-12")]


async def test_the_podium_counts_the_games_of_the_seasons_last_minute(db_url):
    clock = Clock(ts(2026, 10, 31, 23, 59))
    async with World(db_url, clock, Channel()) as w:
        await set_up_seasons(w)
        await play(w.svc, 1, 2)
        assert len(await w.board.table(GUILD, "tectonic", S.Season(2026, 10))) == 2  # /classement, cached
        clock.now += 50
        await play(w.svc, 3, 1)  # ten seconds before the end
        clock.now = ts(2026, 11, 1, 0, 0, 1)
        assert await w.board.tick() == 1
        (post,) = w.channel.posts
        assert sorted(post[3]) == [1, 2, 3]
        # and a table read after the end is final (no re-read within the minute nor after)
        assert len(await w.board.table(GUILD, "tectonic", S.Season(2026, 10))) == 3


async def test_two_processes_racing_post_the_podium_once(db_url):
    clock = Clock(ts(2026, 12, 20))
    channel = Channel()
    async with World(db_url, clock, channel) as a, World(db_url, clock, channel) as b:
        await set_up_seasons(a, S.QUARTER)
        await b.board.schedule(GUILD)  # the same deadline, written once
        await play(a.svc, 1, 2)
        clock.now = ts(2027, 1, 1, 0, 0, 5)
        for _ in range(5):  # both polls at the same instant, again and again
            done = await asyncio.gather(a.board.tick(), b.board.tick(), a.board.tick(), b.board.tick())
            assert sum(done) <= 1
        assert channel.posts == [(GUILD, CHANNEL, "2026-q4", [1, 2])] and channel.retries == 0


async def test_a_crash_after_the_claim_posts_once_after_the_restart(db_url):
    """The process that claimed the season end dies before posting (or right after posting, before the
    close): nobody else posts while its lease runs; then the restarted bot posts once."""
    clock = Clock(ts(2026, 10, 20))
    channel = Channel()
    async with World(db_url, clock, channel) as w:
        await set_up_seasons(w)
        await play(w.svc, 1, 2)
        clock.now = ts(2026, 11, 1, 0, 0, 1)
        (due,) = await w.store.due_season_ends(clock.now)
        assert await w.store.claim_season_end(due.key, clock.now, LEASE) is not None  # ... and the process dies
    async with World(db_url, clock, channel) as w:  # restarted
        assert await w.board.tick() == 0 and channel.posts == []  # its lease still runs
        clock.now += LEASE + 1
        assert await w.board.tick() == 1
        assert channel.posts == [(GUILD, CHANNEL, "2026-10", [1, 2])] and channel.retries == 1
        clock.now += LEASE + 1
        assert await w.board.tick() == 0 and len(channel.posts) == 1
    # the crash came after the post, before the close: the retry finds the podium in the channel
    clock.now = ts(2026, 11, 20)
    async with World(db_url, clock, channel) as w:
        await play(w.svc, 2, 1)
        clock.now = ts(2026, 12, 1, 0, 0, 1)
        (due,) = await w.store.due_season_ends(clock.now)
        assert await w.store.claim_season_end(due.key, clock.now, LEASE) is not None
        nov = S.Season(2026, 11)
        await channel(GUILD, CHANNEL, nov, await w.board.podiums(GUILD, nov), False)  # posted; then it dies
    async with World(db_url, clock, channel) as w:
        clock.now += LEASE + 1
        await w.board.tick()
        assert [p[2] for p in channel.posts] == ["2026-10", "2026-11"] and channel.retries == 2
        assert await pending(w) == []


async def test_a_failed_post_is_retried_then_given_up(db_url):
    clock = Clock(ts(2026, 10, 20))
    channel = Channel(fail=1)
    async with World(db_url, clock, channel) as w:
        await set_up_seasons(w)
        await play(w.svc, 1, 2)
        clock.now = ts(2026, 11, 1, 0, 0, 1)
        assert await w.board.tick() == 0 and channel.posts == []  # Discord failed: released, not closed
        assert await w.board.tick() == 1 and len(channel.posts) == 1
        # a season end that fails every time is given up after a few attempts (not retried for ever)
        channel.fail = 99
        await play(w.svc, 1, 2)
        clock.now = ts(2026, 12, 1, 0, 0, 1)
        for _ in range(MAX_ATTEMPTS + 2):
            await w.board.tick()
        assert await pending(w) == [] and len(channel.posts) == 1 and channel.fail == 99 - MAX_ATTEMPTS


async def test_no_podium_without_a_season_channel_or_under_another_period(db_url):
    clock = Clock(ts(2026, 10, 20))
    async with World(db_url, clock, Channel()) as w:
        assert await w.board.schedule(GUILD) is None  # seasons never set up: no deadline
        await play(w.svc, 1, 2)
        clock.now = ts(2027, 1, 2)
        assert await w.board.tick() == 0 and await pending(w) == [] and w.channel.posts == []
        # set up monthly, then changed to quarterly before the month ended: the month's end is void, the
        # quarter's written in its place
        clock.now = ts(2027, 1, 10)
        await set_up_seasons(w)
        await play(w.svc, 1, 2)
        await set_up_seasons(w, S.QUARTER)
        clock.now = ts(2027, 2, 1, 0, 0, 1)
        assert await w.board.tick() == 0 and w.channel.posts == []
        clock.now = ts(2027, 4, 1, 0, 0, 1)
        assert await pending(w) == [("quarter", "2027-q1")]
        assert await w.board.tick() == 1 and w.channel.posts == [(GUILD, CHANNEL, "2027-q1", [1, 2])]


async def test_a_season_the_former_path_left_unannounced_is_caught_up(db_url):
    """Set up before season ends were deadlines: the server's last announced season is in ``meta``. Its first
    finished game afterwards schedules the season end it missed (due at once) and the current one."""
    clock = Clock(ts(2026, 9, 10))
    async with World(db_url, clock, Channel()) as w:
        await w.store.set_guild_settings(GUILD, S.configure({}, season=S.MONTH, channel=CHANNEL))
        await w.store.set_meta(f"season_announced:{GUILD}", "month:2026-08")
        await play(w.svc, 1, 2)  # September's games
        clock.now = ts(2026, 10, 5)
        await w.board.schedule(GUILD)  # what the hook of a finished game does
        assert await w.board.tick() == 1 and w.channel.posts == [(GUILD, CHANNEL, "2026-09", [1, 2])]
        await w.board.schedule(GUILD)
        assert await w.board.tick() == 0 and len(w.channel.posts) == 1
        assert await w.store.get_meta(f"season_announced:{GUILD}") == "month:2026-09"  # caught up, once
        clock.now = ts(2026, 11, 1, 0, 0, 1)  # and October's podium comes by the deadline chain
        async with World(db_url, clock, w.channel) as again:  # (a restarted process: nothing cached)
            await again.board.schedule(GUILD)
            assert await again.board.tick() == 0  # nobody played in October: nothing to crown
        assert len(w.channel.posts) == 1 and await pending(w) == []


async def test_each_process_fires_its_own_shards_season_ends(db_url):
    clock = Clock(ts(2026, 10, 20))
    async with World(db_url, clock, Channel()) as w:
        await set_up_seasons(w)
        await play(w.svc, 1, 2)
        clock.now = ts(2026, 11, 1, 0, 0, 1)
        w.board.shards = ((1,), 2)  # GUILD (1 >> 22 = 0) is on shard 0
        assert await w.board.tick() == 0 and w.channel.posts == []
        w.board.shards = ((0,), 2)
        assert await w.board.tick() == 1

        assert await w.store.due_season_ends(ts(2100, 1, 1), 10, shards=((), 2)) == []


class FakeChannel:
    """A channel as the announcer sees it (discord.py's PartialMessageable): its history, and send."""

    def __init__(self, history: list, error: Exception | None = None) -> None:
        self.sent: list[str] = []
        self.looked = 0
        self._history, self.error = history, error

    async def history(self, limit: int):
        self.looked += 1
        for m in self._history[:limit]:
            yield m

    async def send(self, content: str, allowed_mentions=None):
        if self.error is not None:
            raise self.error
        self.sent.append(content)


async def test_the_announcer_posts_a_podium_once_and_says_why_not():
    from types import SimpleNamespace

    import discord
    import pytest

    from bot.community.tournament_notice import DiscordAnnouncer

    oct_ = S.Season(2026, 10)
    podiums = {"tectonic": [S.SeasonRow(1, "J1", 1100, 2, 2), S.SeasonRow(2, "J2", 900, 2, 0)]}
    text = podium_text(oct_, podiums, "fr")
    me = SimpleNamespace(id=99)

    def announcer(channel):
        return DiscordAnnouncer(SimpleNamespace(store=None, user=me, get_partial_messageable=lambda cid: channel))

    ch = FakeChannel([])
    await announcer(ch).season_podium(GUILD, CHANNEL, oct_, podiums)
    assert ch.sent == [text] and ch.looked == 0  # a first attempt posts at once
    # a retry: posted already (a crash before the close) -> not again; another message, or a member's copy -> posted
    posted = SimpleNamespace(author=me, content=text)
    ch = FakeChannel([SimpleNamespace(author=SimpleNamespace(id=5), content="hello"), posted])
    await announcer(ch).season_podium(GUILD, CHANNEL, oct_, podiums, True)
    assert ch.sent == [] and ch.looked == 1
    ch = FakeChannel([SimpleNamespace(author=SimpleNamespace(id=5), content=text)])
    await announcer(ch).season_podium(GUILD, CHANNEL, oct_, podiums, True)
    assert ch.sent == [text]
    # the channel gone or closed: logged, nothing to retry; Discord failing: raised (the season end is retried)
    response = SimpleNamespace(status=403, reason="Forbidden")
    await announcer(FakeChannel([], discord.Forbidden(response, "Missing Access"))).season_podium(
        GUILD, CHANNEL, oct_, podiums)
    response = SimpleNamespace(status=503, reason="Unavailable")
    with pytest.raises(discord.HTTPException):
        await announcer(FakeChannel([], discord.DiscordServerError(response, "down"))).season_podium(
            GUILD, CHANNEL, oct_, podiums)
