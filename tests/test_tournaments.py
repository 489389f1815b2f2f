"""The tournament service (bot/community/tournaments.py) over the real session service and store: every
refusal, a Swiss played to the end with a bye, a forfeit and a cancelled game (standings computed by
hand), a restart between rounds, two processes racing to open a round, an elimination bracket."""

from __future__ import annotations

import asyncio
import time
from fractions import Fraction

import pytest

from bot.community import pairing as P
from bot.community.scheduler import Pacer
from bot.community.tournaments import (
    ABANDONED,
    DONE,
    OPEN,
    STARTED,
    MemoryTournamentStore,
    TournamentService,
    TournamentStore,
    tournament_store,
)
from bot.sessions import Player, SessionError, SessionService
from bot.storage import CANCELLED, FINISHED, LOBBY, RUNNING, open_store
from engines.base import RuleError

GUILD, OTHER, CHANNEL = 1, 2, 10


def member(uid: int, guild: int = GUILD, manage: bool = False) -> Player:
    return Player(uid, f"J{uid}", guild_id=guild, can_manage=manage)


ORGA = member(1, manage=True)


class Announcer:
    def __init__(self) -> None:
        self.rounds: list[tuple[int, int, list[tuple[int, ...]], list[int]]] = []
        self.podiums: list[list[P.Standing]] = []

    async def round_opened(self, t, number, tables, byes):
        self.rounds.append((t.id, number, [x.players for x in tables], byes))

    async def finished(self, t, standings):
        self.podiums.append(standings)


class World:
    """One process: its store (SQLite file), session service and tournament service; the tournaments in that
    store (the database), or in the memory ``shared`` by the test's processes (the in-memory store)."""

    def __init__(self, path: str, shared: MemoryTournamentStore | None) -> None:
        self.path, self.shared = path, shared
        self.announcer = Announcer()
        self.woken: list[int] = []

    async def __aenter__(self) -> World:
        self.store = open_store(self.path)
        await self.store.open()
        self.tstore: TournamentStore = self.shared if self.shared is not None else tournament_store(self.store)
        self.sessions = SessionService(self.store)
        self.tour = TournamentService(self.tstore, self.store, self.sessions, announcer=self.announcer,
                                      opened=self.woken.append)
        self.sessions.on_change = self.tour.on_change
        return self

    async def __aexit__(self, *exc) -> None:
        await self.store.close()

    async def table_game(self, tid: int, uid: int):
        t = await self.tstore.get_tournament(tid)
        for x in await self.tstore.tournament_tables(tid):
            if x.round == t.round and uid in x.players:
                return x, await self.store.get_game(x.game_id)
        raise AssertionError(f"{uid} not seated in round {t.round}")

    async def loses(self, tid: int, uid: int) -> None:
        _, game = await self.table_game(tid, uid)
        await self.sessions.forfeit(game.id, game.seat_of(uid))


async def entered(w: World, tid: int, uids: list[int]) -> None:
    for uid in uids:
        await w.tour.register(tid, member(uid))


@pytest.fixture(params=["memory", "database"])
def tstore(request) -> MemoryTournamentStore | None:
    """The tournaments in memory, or (None) in each process's own store: a restart is then a real one."""
    return MemoryTournamentStore() if request.param == "memory" else None


async def test_create_refusals(tmp_path, tstore):
    async with World(str(tmp_path / "db"), tstore) as w:
        base = dict(guild_id=GUILD, channel_id=CHANNEL, creator=ORGA, kind="tectonic", fmt=P.SWISS, rounds=3,
                    places=8)
        cases = [({"kind": "chess"}, "tournament.error.game"), ({"fmt": "ladder"}, "tournament.error.format"),
                 ({"rounds": 0}, "tournament.error.rounds"), ({"rounds": 31}, "tournament.error.rounds"),
                 ({"places": 1}, "tournament.error.places"), ({"places": 5000}, "tournament.error.places"),
                 ({"reliability": 101}, "tournament.error.reliability"),
                 ({"pace": "warp"}, "common.error.bad_pace"),
                 ({"kind": "lutinades", "places": 2}, "tournament.error.places")]  # tables of 3 at least
        for change, key in cases:
            with pytest.raises(RuleError) as err:
                await w.tour.create(**{**base, **change})
            assert err.value.key == key, change
        t = await w.tour.create(**base)
        assert t.status == OPEN and t.id == 1


async def test_entry_refusals_and_scope(tmp_path, tstore):
    async with World(str(tmp_path / "db"), tstore) as w:
        t = await w.tour.create(guild_id=GUILD, channel_id=CHANNEL, creator=ORGA, kind="tectonic", fmt=P.SWISS,
                                rounds=1, places=2)
        await w.tour.register(t.id, member(10))
        with pytest.raises(SessionError, match="already_in"):
            await w.tour.register(t.id, member(10))
        with pytest.raises(SessionError) as err:  # another server: it does not exist there
            await w.tour.register(t.id, member(11, guild=OTHER))
        assert err.value.key == "tournament.error.no_such"
        with pytest.raises(SessionError, match="not_enough"):
            await w.tour.launch(t.id, ORGA)
        await w.tour.register(t.id, member(11))
        with pytest.raises(SessionError, match="full"):
            await w.tour.register(t.id, member(12))
        with pytest.raises(SessionError, match="not_in"):
            await w.tour.unregister(t.id, member(12))
        assert await w.tour.unregister(t.id, member(11)) == "left"
        await w.tour.register(t.id, member(12))
        with pytest.raises(SessionError, match="only_organiser"):
            await w.tour.launch(t.id, member(10))  # an entrant without Manage Server
        with pytest.raises(SessionError, match="no_such"):  # a manager of another server: not there
            await w.tour.launch(t.id, member(99, guild=OTHER, manage=True))
        with pytest.raises(SessionError, match="no_such"):
            await w.tour.get_in(999, GUILD)
        with pytest.raises(SessionError, match="no_such"):
            await w.tour.get_in(True, GUILD)


async def test_reliability_is_required(tmp_path, tstore):
    async with World(str(tmp_path / "db"), tstore) as w:
        # member 20 saw one game cancelled and none through: 0 % of ended games
        g = await w.sessions.open_lobby("tectonic", guild_id=GUILD, channel_id=CHANNEL, player=member(20))
        await w.sessions.join(g.id, member(21))
        await w.sessions.start(g.id, member(20))
        await w.sessions.cancel(g.id, member(20))
        t = await w.tour.create(guild_id=GUILD, channel_id=CHANNEL, creator=ORGA, kind="tectonic", fmt=P.SWISS,
                                rounds=1, places=8, reliability=80)
        with pytest.raises(SessionError) as err:
            await w.tour.register(t.id, member(20))
        assert err.value.key == "tournament.error.unreliable" and err.value.params == {"percent": 0, "required": 80}
        await w.tour.register(t.id, member(22))  # no ended game yet: welcome


async def test_swiss_to_the_end_with_a_bye_a_forfeit_and_a_cancelled_game(tmp_path, tstore):
    async with World(str(tmp_path / "db"), tstore) as w:
        t = await w.tour.create(guild_id=GUILD, channel_id=CHANNEL, creator=ORGA, kind="tectonic", fmt=P.SWISS,
                                rounds=2, places=8, pace="rapide")
        await entered(w, t.id, [101, 102, 103, 104, 105])
        t = await w.tour.launch(t.id, ORGA)
        assert t.status == STARTED and t.round == 1 and t.total == 2
        # round 1, everyone at 1000: seed order = ids; 105 rests
        assert w.announcer.rounds == [(t.id, 1, [(101, 102), (103, 104)], [105])]
        for uid in (101, 103):
            x, game = await w.table_game(t.id, uid)
            assert game.status == RUNNING and game.settings["thread"] is True and game.settings["pace"] == "rapide"
            assert [s.user_id for s in game.seats] == list(x.players)
        assert len(w.woken) == 2
        with pytest.raises(SessionError, match="status_running"):
            await w.tour.register(t.id, member(106))
        await w.loses(t.id, 101)  # 102 wins
        assert (await w.tstore.get_tournament(t.id)).round == 1  # the other game still runs
        await w.loses(t.id, 104)  # 103 wins: round 2 opens
        # 102 103 105 on 1 point (Buchholz 0 each), 101 and 104 on 0 (Buchholz 1 each); 104 rests
        assert w.announcer.rounds[1] == (t.id, 2, [(102, 103), (105, 101)], [104])
        await w.loses(t.id, 102)
        _, game = await w.table_game(t.id, 105)
        with pytest.raises(SessionError) as err:  # a player about to lose cannot wipe the game out
            await w.sessions.cancel(game.id, member(game.creator_id))
        assert err.value.key == "tournament.error.game_cancel"
        await w.sessions.cancel(game.id, member(1, manage=True))  # a server manager can: nobody scores
        assert (await w.tstore.get_tournament(t.id)).status == STARTED  # a cancel has no hook: the tick sees it
        assert await w.tour.tick() == 1
        t = await w.tstore.get_tournament(t.id)
        assert t.status == DONE
        # by hand: points 103 2, 102 1, 104 1 (bye), 105 1 (bye), 101 0. Buchholz: 103 = 104 + 102 = 2;
        # 102 = 101 + 103 = 2; 104 = 103 + bye = 2; 105 = bye + 101 = 0; 101 = 102 + 105 = 2.
        # Sonneborn-Berger: 103 = 1x1 + 1x1 = 2; 102 = 1x0 + 0 = 0; 104 = 0. 102 and 104 tie all through.
        got = [(s.id, s.rank, s.points, s.buchholz, s.sonneborn_berger) for s in w.announcer.podiums[0]]
        assert got == [(103, 1, 2, 2, 2), (102, 2, 1, 2, 0), (104, 2, 1, 2, 0), (105, 4, 1, 0, 0), (101, 5, 0, 2, 0)]
        # the games are ordinary games: results stored (and so rated by the community hook)
        assert (await w.store.get_game(game.id)).status == CANCELLED
        assert all(x.ended for x in await w.tstore.tournament_tables(t.id))


async def test_restart_between_rounds_and_two_processes_open_each_game_once(tmp_path, tstore):
    path = str(tmp_path / "db")
    async with World(path, tstore) as w:
        t = await w.tour.create(guild_id=GUILD, channel_id=CHANNEL, creator=ORGA, kind="armada", fmt=P.SWISS,
                                rounds=3, places=16)
        await entered(w, t.id, list(range(201, 209)))
        await w.tour.launch(t.id, ORGA)
        w.sessions.on_change = None  # the process dies as the games end: no hook runs
        for uid in (201, 203, 205, 207):
            await w.loses(t.id, uid)
        assert (await w.tstore.get_tournament(t.id)).round == 1
    # two processes come back on the same database and race
    async with World(path, tstore) as a, World(path, tstore) as b:
        moved = await asyncio.gather(a.tour.tick(), b.tour.tick(), a.tour.advance(t.id), b.tour.tick())
        assert sum(moved) >= 1
        t = await a.tstore.get_tournament(t.id)
        assert t.round == 2
        r2 = [x for x in await a.tstore.tournament_tables(t.id) if x.round == 2]
        assert len(r2) == 4 and all(x.game_id for x in r2)
        games = await a.store.games_with_status((LOBBY, RUNNING))
        assert sorted(g.id for g in games) == sorted(x.game_id for x in r2), "one game per table, no extra"
        winners = {202, 204, 206, 208}
        for x in r2:  # round 2 pairs the winners together and the losers together
            assert set(x.players) <= winners or not set(x.players) & winners
        assert len(a.woken) + len(b.woken) == 4


async def test_elimination_with_byes_to_the_top_seeds(tmp_path, tstore):
    async with World(str(tmp_path / "db"), tstore) as w:
        t = await w.tour.create(guild_id=GUILD, channel_id=CHANNEL, creator=ORGA, kind="tectonic",
                                fmt=P.ELIMINATION, rounds=1, places=8)
        await entered(w, t.id, [301, 302, 303, 304, 305, 306])
        t = await w.tour.launch(t.id, ORGA)
        assert t.total == 3
        assert w.announcer.rounds[0][3] == [301, 302]  # seeds 1 and 2 rest in round 1 (bracket of 8)
        with pytest.raises(SessionError, match="no_withdrawal"):
            await w.tour.unregister(t.id, member(303))
        await w.loses(t.id, 304)  # 305 beats seed 4
        await w.loses(t.id, 306)  # 303 beats seed 6
        assert sorted(map(sorted, w.announcer.rounds[1][2])) == [[301, 305], [302, 303]]
        await w.loses(t.id, 301)
        await w.loses(t.id, 303)
        assert w.announcer.rounds[2][2] == [(305, 302)] or w.announcer.rounds[2][2] == [(302, 305)]
        await w.loses(t.id, 302)
        t = await w.tstore.get_tournament(t.id)
        assert t.status == DONE
        podium = w.announcer.podiums[0]
        assert [s.id for s in podium[:2]] == [305, 302]
        assert {s.id for s in podium[2:4]} == {301, 303}


async def test_swiss_withdrawal_and_cancel(tmp_path, tstore):
    async with World(str(tmp_path / "db"), tstore) as w:
        t = await w.tour.create(guild_id=GUILD, channel_id=CHANNEL, creator=ORGA, kind="ludix", fmt=P.SWISS,
                                rounds=3, places=12)
        await entered(w, t.id, list(range(401, 409)))
        await w.tour.launch(t.id, ORGA)
        r1 = w.announcer.rounds[0][2]
        assert sorted(len(x) for x in r1) == [4, 4]  # Ludix: tables of four
        assert await w.tour.unregister(t.id, member(401)) == "withdrawn"
        for x in r1:
            _, game = await w.table_game(t.id, x[0])
            await w.sessions.forfeit(game.id, 0)
        r2 = w.announcer.rounds[1][2]
        assert 401 not in {p for x in r2 for p in x} and sorted(len(x) for x in r2) == [3, 4]
        with pytest.raises(SessionError, match="only_organiser"):
            await w.tour.cancel(t.id, member(402))
        t = await w.tour.cancel(t.id, ORGA)
        assert t.status == ABANDONED
        assert await w.tour.tick() == 0
        snap = await w.tour.snapshot(t.id, GUILD)
        # a forfeit at a table of four: the three others share places 1 to 3, (1 + 2/3 + 1/3) / 3 each
        assert [s.points for s in snap.standings] == [Fraction(2, 3)] * 6 + [0, 0]
        assert (await w.store.get_game(snap.tables[0].game_id)).status in (RUNNING, FINISHED)


class Clock:
    def __init__(self) -> None:
        self.now = 2_000_000.0

    def __call__(self) -> float:
        return self.now


class Process:
    """A whole bot process minus Discord: store, sessions, the community (scheduler: timeouts and
    forfeits; ratings) and the tournaments, all on one moved clock."""

    def __init__(self, path: str, shared: MemoryTournamentStore | None, clock: Clock, announcer: Announcer) -> None:
        self.path, self.shared, self.clock, self.announcer = path, shared, clock, announcer

    async def __aenter__(self) -> Process:
        from bot.community import Community

        self.store = open_store(self.path, clock=self.clock)
        await self.store.open()
        self.tstore: TournamentStore = self.shared if self.shared is not None else tournament_store(self.store)
        self.sessions = SessionService(self.store, clock=self.clock)
        self.community = Community(self.store, self.sessions, None, clock=self.clock)
        self.tour = TournamentService(self.tstore, self.store, self.sessions, clock=self.clock,
                                      announcer=self.announcer)
        self.community.tournaments = self.tour
        return self

    async def __aexit__(self, *exc) -> None:
        await self.tour.settled()
        await self.store.close()

    async def game_of(self, tid: int, uid: int):
        t = await self.tstore.get_tournament(tid)
        x = next(x for x in await self.tstore.tournament_tables(tid) if x.round == t.round and uid in x.players)
        return await self.store.get_game(x.game_id)

    async def loses(self, tid: int, uid: int) -> None:
        game = await self.game_of(tid, uid)
        await self.sessions.forfeit(game.id, game.seat_of(uid), reason="resign")
        await self.tour.settled()  # the bot's hook moves the tournament on in the background

    async def tick(self) -> int:
        """The scheduler's poll (timeouts, forfeits), and what the games it ended set off."""
        fired = await self.community.scheduler.tick()
        await self.tour.settled()
        return fired


async def test_an_eight_player_swiss_ludix_in_pairs_with_a_restart_a_timeout_and_a_forfeit(tmp_path, tstore):
    """Three rounds; the moved clock drives the timeouts; standings equal to the table worked out by hand."""
    path, clock, ann = str(tmp_path / "db"), Clock(), Announcer()
    hour = 3600.0
    p1, p2, p3, p4, p5, p6, p7, p8 = ids = list(range(501, 509))  # equal ratings: seeded by id
    async with Process(path, tstore, clock, ann) as w:
        await w.store.set_guild_settings(GUILD, {"timers": {"ludix": {"reminder_h": 0, "timeout_h": 1,
                                                                       "forfeit_after": 2}}})
        t = await w.tour.create(guild_id=GUILD, channel_id=CHANNEL, creator=ORGA, kind="ludix", fmt=P.SWISS,
                                rounds=3, places=8, table=2)
        for uid in ids:
            await w.tour.register(t.id, member(uid))
        t = await w.tour.launch(t.id, ORGA)
        assert ann.rounds[0][2] == [(p1, p2), (p3, p4), (p5, p6), (p7, p8)]
        for loser in (p2, p4, p5):
            await w.loses(t.id, loser)
        w.sessions.on_change = None  # the process is killed as the last game of round 1 ends
        await w.loses(t.id, p8)
    async with Process(path, tstore, clock, ann) as w:  # a new process: its first tick opens round 2
        assert (await w.tstore.get_tournament(t.id)).round == 1
        assert await w.tour.tick() == 1
        # winners 1 3 6 7 (Buchholz 0), losers 2 4 5 8 (Buchholz 1): Monrad down that order
        assert ann.rounds[1][2] == [(p1, p3), (p6, p7), (p2, p4), (p5, p8)]
        await w.loses(t.id, p7)
        await w.loses(t.id, p8)
        # nobody plays in games (1, 3) and (2, 4): an hour later both first seats time out (Ludix: pass)
        clock.now += hour + 1
        assert await w.tick() == 2
        g13, g24 = await w.game_of(t.id, p1), await w.game_of(t.id, p2)
        assert w.sessions.expected_seats(g13) == {g13.seat_of(p3)}
        assert w.sessions.expected_seats(g24) == {g24.seat_of(p4)}
        await w.sessions.act(g13.id, p3, {"type": "pass"})  # 3 plays; 1 is expected again
        await w.loses(t.id, p4)  # 4 resigns: 2 wins despite the timeout
        clock.now += hour + 1
        await w.tick()  # 1's second timeout in a row: forfeit, 3 wins
        assert (await w.store.get_game(g13.id)).status == FINISHED
        # 2 points: 3 (B 1) after 6 (B 2); 1 point: 1 (B 3), 5 and 7 (B 2, by id), 2 (B 1); 0: 4 (B 3), 8
        assert ann.rounds[2][2] == [(p6, p3), (p1, p5), (p7, p2), (p4, p8)]
        for loser in (p6, p5, p2, p4):
            await w.loses(t.id, loser)
        assert (await w.tstore.get_tournament(t.id)).status == DONE
        (rating, _, _), = [r for r in await w.store.player_ratings(GUILD, p3) if r[0].kind == "ludix"]
        assert rating.games == 3 and rating.wins == 3  # the games count in the ratings as usual
    # by hand: points, Buchholz (opponents' final points), Sonneborn-Berger (points scored x theirs)
    expected = [(p3, 1, 3, 4, 4), (p6, 2, 2, 6, 3), (p1, 3, 2, 5, 2), (p7, 4, 2, 4, 2), (p5, 5, 1, 5, 1),
                (p2, 6, 1, 4, 0), (p8, 7, 1, 3, 0), (p4, 8, 0, 5, 0)]
    got = [(s.id, s.rank, s.points, s.buchholz, s.sonneborn_berger) for s in ann.podiums[0]]
    assert got == expected


async def test_games_ending_together_all_count_before_the_next_round(tmp_path, tstore):
    """Games that end while this process holds the tournament's lease: their hooks record the results
    and find the lease taken; the holder looks again when it lets go, and round 2 opens at once."""
    async with World(str(tmp_path / "db"), tstore) as w:
        t = await w.tour.create(guild_id=GUILD, channel_id=CHANNEL, creator=ORGA, kind="tectonic", fmt=P.SWISS,
                                rounds=2, places=8)
        await entered(w, t.id, list(range(601, 609)))
        await w.tour.launch(t.id, ORGA)
        games = [(await w.table_game(t.id, uid))[1] for uid in (601, 603, 605, 607)]
        original = w.tour._advance
        calls = 0

        async def advance_then_the_others_end(tid):
            nonlocal calls
            calls += 1
            moved = await original(tid)
            if calls == 1:  # still holding the lease: the three other games end now
                for g in games[1:]:
                    await w.sessions.forfeit(g.id, 0)
            return moved

        w.tour._advance = advance_then_the_others_end
        await w.sessions.forfeit(games[0].id, 0)
        t = await w.tstore.get_tournament(t.id)
        assert calls == 2 and t.round == 2 and len(w.announcer.rounds) == 2
        assert len([x for x in await w.tstore.tournament_tables(t.id) if x.round == 2 and x.game_id]) == 4


async def test_the_move_that_ends_a_round_is_not_held_until_the_next_round_opens(tmp_path):
    """The bot's hook (``Community.on_change``) moves a tournament on in the background: the move that ends
    round 1's last game returns before round 2's games are opened, one by one at Discord's pace (a round of
    128 games takes 16 s; the player's click must be answered within 3 s). Round 2 then opens in full."""
    clock, ann = Clock(), Announcer()
    async with Process(str(tmp_path / "db"), None, clock, ann) as w:
        w.tour.pacer = Pacer(rate=4.0, per_channel=10**6, window=0.0)  # four games: about a second
        t = await w.tour.create(guild_id=GUILD, channel_id=CHANNEL, creator=ORGA, kind="armada", fmt=P.SWISS,
                                rounds=2, places=8)
        await entered(w, t.id, list(range(701, 709)))
        await w.tour.launch(t.id, ORGA)
        for uid in (701, 703, 705):
            await w.loses(t.id, uid)
        game = await w.game_of(t.id, 707)
        began = time.monotonic()
        await w.sessions.forfeit(game.id, game.seat_of(707), reason="resign")
        assert time.monotonic() - began < 0.5
        assert len(ann.rounds) == 1  # round 2 announced once all its games are open: not yet
        await w.tour.settled()
        t = await w.tstore.get_tournament(t.id)
        r2 = [x for x in await w.tstore.tournament_tables(t.id) if x.round == 2]
        assert t.round == 2 and len(ann.rounds) == 2 and len(r2) == 4 and all(x.game_id for x in r2)
        assert [(await w.store.get_game(x.game_id)).status for x in r2] == [RUNNING] * 4


async def test_a_round_opened_by_a_process_that_died_before_announcing_it_is_announced_once(tmp_path, tstore):
    """The process that opened round 2's games dies before its announcement (here: it has nobody to tell);
    the next process's tick announces round 2, once, however many ticks and processes follow."""
    path, ann = str(tmp_path / "db"), Announcer()
    async with World(path, tstore) as w:
        t = await w.tour.create(guild_id=GUILD, channel_id=CHANNEL, creator=ORGA, kind="armada", fmt=P.SWISS,
                                rounds=2, places=8)
        await entered(w, t.id, list(range(801, 809)))
        await w.tour.launch(t.id, ORGA)
        assert [r[1] for r in w.announcer.rounds] == [1]
        w.tour.announcer = None  # dies between the games' opening and the announcement
        for uid in (801, 803, 805, 807):
            await w.loses(t.id, uid)
        t = await w.tstore.get_tournament(t.id)
        assert t.round == 2 and t.announced == 1
    async with World(path, tstore) as a, World(path, tstore) as b:
        a.announcer = b.announcer = ann
        a.tour.announcer = b.tour.announcer = ann
        await asyncio.gather(a.tour.tick(), b.tour.tick(), a.tour.tick())
        await b.tour.tick()
        assert [(r[1], len(r[2])) for r in ann.rounds] == [(2, 4)]  # announced once, with its four tables
        tables = [x for x in await a.tstore.tournament_tables(t.id) if x.round == 2]
        assert ann.rounds[0][2] == [x.players for x in tables] and all(x.game_id for x in tables)
        assert (await a.tstore.get_tournament(t.id)).announced == 2


@pytest.mark.parametrize(("lg", "linked", "plain"), [("fr", "— [partie n°5](<{}>)", "(partie n°5)"),
                                                      ("en", "— [game #5](<{}>)", "(game #5)")])
def test_a_rounds_card_links_each_pairing_to_its_game(lg, linked, plain):
    """Issue 36: each table of a round's card links to its game's first card (its thread and message);
    a game not posted yet is named without a link."""
    from types import SimpleNamespace

    from bot.community.tournament_notice import round_text
    from bot.community.tournaments import TableRow

    t = SimpleNamespace(id=1, total=3)
    tables = [TableRow(1, 1, 0, (10, 11), game_id=5), TableRow(1, 1, 1, (12, 13), game_id=6)]
    link = "https://discord.com/channels/1/20/30"
    text = round_text(t, 1, tables, [14], lg, {5: link})
    first, second = text.splitlines()[1:3]
    assert first.endswith(linked.format(link)) and "<@10>, <@11>" in first
    assert second.endswith(plain.replace("5", "6")) and "https://" not in second
