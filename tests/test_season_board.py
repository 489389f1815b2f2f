"""Season tables read from the store (bot/community/season_board.py): the games of the window only, past
seasons browsable, a member's seasons for /profil, and the podium of a season that ended, announced once."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.community import seasons as S
from bot.community.season_board import SeasonBoard, podium_text
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


async def test_seasons_from_the_store(tmp_path):
    clock = Clock(ts(2026, 10, 20))
    store = open_store(str(tmp_path / "db"), clock=clock)
    await store.open()
    try:
        svc = SessionService(store, clock=clock)
        board = SeasonBoard(store, clock=clock)
        await store.set_guild_settings(GUILD, S.configure({}, season=S.MONTH, channel=CHANNEL))
        await play(svc, 1, 2)  # October: 1 beats 2 twice
        await play(svc, 1, 2)
        assert await board.ended(GUILD, ["tectonic"]) is None  # the first look sets the baseline
        clock.now = ts(2026, 11, 3)
        await play(svc, 2, 3)  # November: 2 beats 3
        oct_, nov = S.Season(2026, 10), S.Season(2026, 11)
        assert [(r.user_id, r.games, r.wins) for r in await board.table(GUILD, "tectonic", oct_)] == [(1, 2, 2),
                                                                                                     (2, 2, 0)]
        assert [(r.user_id, r.games, r.wins) for r in await board.table(GUILD, "tectonic", nov)] == [(2, 1, 1),
                                                                                                     (3, 1, 0)]
        assert await board.table(GUILD, "ludix", nov) == []
        # October ended: its podium, once
        ended = await board.ended(GUILD, ["tectonic", "ludix"])
        assert ended is not None
        channel, season, podiums = ended
        assert channel == CHANNEL and season == oct_ and list(podiums) == ["tectonic"]
        assert [r.user_id for r in podiums["tectonic"]] == [1, 2]
        text = podium_text(season, podiums, "fr")
        assert "octobre 2026" in text and "🥇 <@1>" in text and "🥈 <@2>" in text
        assert await board.ended(GUILD, ["tectonic"]) is None
        # /profil: member 2 is first this month, second last month
        mine = [(s.label, k, pos, total) for s, k, pos, total, _ in await board.player_seasons(GUILD, 2, ["tectonic"])]
        assert mine == [("2026-11", "tectonic", 1, 2), ("2026-10", "tectonic", 2, 2)]
        # a past season is cached (it cannot change); the current one is read again after a minute
        await play(svc, 3, 2)
        assert len(await board.table(GUILD, "tectonic", nov)) == 2
        assert (await board.table(GUILD, "tectonic", nov))[0].user_id == 2  # still the cached table
        clock.now += 61
        assert {r.user_id: r.games for r in await board.table(GUILD, "tectonic", nov)} == {2: 2, 3: 2}
    finally:
        await store.close()


async def test_no_podium_without_a_season_channel(tmp_path):
    clock = Clock(ts(2026, 10, 20))
    store = open_store(str(tmp_path / "db"), clock=clock)
    await store.open()
    try:
        board = SeasonBoard(store, clock=clock)
        assert await board.ended(GUILD, ["tectonic"]) is None
        clock.now = ts(2027, 1, 2)
        assert await board.ended(GUILD, ["tectonic"]) is None
    finally:
        await store.close()
