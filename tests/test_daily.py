"""The daily challenge (bot/community/daily.py, issue 37) over the real session service and store, both
backends: the day's draw (same server and day: same draw; another server or day: another; the secret
never shown), the once-a-day rule under concurrency (two processes, two clicks at once: one game), a
resignation counting as the try, hidden scores, the AI's mark computed once, replays kept closed."""

from __future__ import annotations

import asyncio
import dataclasses
import json

import pytest

import engines
from bot import i18n
from bot.community import daily as dc
from bot.community.daily import DAY, WEEK, DailyChallenges, day_of, derive_seed, replay_open
from bot.sessions import Player, SessionError, SessionService
from bot.storage import CANCELLED, FINISHED, RUNNING, open_store
from bot.takeback import limits
from engines.solo import ai_score

GUILD, OTHER, CHANNEL = 1, 2, 10
NOON = 1_795_000_000.0  # 2026-11-18 12:26 UTC
DAY_S = 86400.0


class Clock:
    def __init__(self, now: float = NOON) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def member(uid: int, guild: int = GUILD) -> Player:
    return Player(uid, f"J{uid}", guild_id=guild)


async def fake_mark(kind, options, seed, level):
    return 40 + seed % 7


def service(store, clock, compute=fake_mark) -> DailyChallenges:
    return DailyChallenges(store, SessionService(store, clock=clock), clock=clock, compute=compute)


async def play_out(d: DailyChallenges, game_id: int, user: int) -> None:
    """The member plays their challenge to its end with the engine's own AI moves (through the service)."""
    sessions = d.sessions
    for _ in range(200):
        game = await sessions.get(game_id)
        if game.status != RUNNING:
            return
        engine = sessions.engine(game.kind)
        state = engine.from_dict(game.state)
        if 0 not in engine.expected(state):
            return
        await sessions.act(game_id, user, engine.ai_action(state, 0, 1))
    raise AssertionError("the game did not end")


def first_tiles(game) -> list:
    """What the player is shown first: Limit's announced tile, Range ta Ludothèque's dice."""
    view = engines.get(game.kind).view(engines.get(game.kind).from_dict(game.state), 0)
    return [view.get("tile") or view.get("roll") or view.get("dice")]


# --- the draw ----------------------------------------------------------------------------------------
def test_the_seed_is_the_day_the_game_and_the_secret():
    a = derive_seed("s" * 64, "limit", "nexus", "2026-11-18")
    assert a == derive_seed("s" * 64, "limit", "nexus", "2026-11-18")
    others = {derive_seed("t" * 64, "limit", "nexus", "2026-11-18"), derive_seed("s" * 64, "limit", "nexus", "2026-11-19"),
              derive_seed("s" * 64, "limit", "orchidee", "2026-11-18"), derive_seed("s" * 64, "ranta", "nexus", "2026-11-18")}
    assert a not in others and len(others) == 4
    assert 0 <= a < 2**62


def test_days_weeks_and_parsing():
    assert day_of(NOON) == "2026-11-18" and day_of(NOON + DAY_S) == "2026-11-19"
    assert dc.week_of("2026-11-18") == ["2026-11-16", "2026-11-17", "2026-11-18"]  # Monday first
    assert dc.day_end("2026-11-18") == 1_795_046_400.0
    assert dc.parse("limit:orchidee") == ("limit", "orchidee") and dc.parse("ranta") == ("ranta", "classique")
    for bad in ("", "limit:x", "ludix", "ranta:expert:1", None):
        with pytest.raises(Exception) as err:
            dc.parse(bad)
        assert getattr(err.value, "key", "") == "community.daily.bad_game"


async def test_same_server_same_day_same_draw_else_another(store):
    clock = Clock()
    d = service(store, clock)
    games = {}
    for uid, guild in ((11, GUILD), (12, GUILD), (21, OTHER)):
        outcome = await d.start(member(uid, guild), CHANNEL, "limit", "nexus")
        games[uid] = outcome.game
    assert games[11].seed == games[12].seed != games[21].seed
    assert first_tiles(games[11]) == first_tiles(games[12]) != [None]
    assert games[11].settings["daily"] == {"day": "2026-11-18", "variant": "nexus"}
    clock.now += DAY_S  # the next day: another draw for the same member
    tomorrow = (await d.start(member(11), CHANNEL, "limit", "nexus")).game
    assert tomorrow.seed != games[11].seed
    # the secret is in no game, no view, no refusal, no board
    secret = await store.daily_secret(GUILD, "unused", clock())
    assert secret != "unused" and len(secret) == 64
    with pytest.raises(SessionError) as refused:
        await d.start(member(11), CHANNEL, "limit", "nexus")
    shown = [json.dumps(g.settings) + json.dumps(g.state) + json.dumps(await d.sessions.view_for(g, 11))
             for g in (*games.values(), tomorrow)]
    shown.append(i18n.t(refused.value.key, "fr", **refused.value.params))
    shown.append(repr(await d.board(GUILD, "limit", "nexus", DAY, 11)))
    assert not any(secret in text for text in shown)


# --- once a day --------------------------------------------------------------------------------------
async def test_two_starts_at_once_make_one_game(db_url, backend):
    """Two processes (two stores over one database), the same member clicking in both at once: one game."""
    clock = Clock()
    stores = [open_store(db_url), open_store(db_url)]
    for s in stores:
        await s.open()
    try:
        ds = [service(s, clock) for s in stores]
        for round_ in range(3):  # several members, each twice at once
            uid = 100 + round_
            got = await asyncio.gather(*(d.start(member(uid), CHANNEL, "ranta", "classique") for d in ds),
                                       return_exceptions=True)
            ok = [g for g in got if not isinstance(g, BaseException)]
            refused = [g for g in got if isinstance(g, BaseException)]
            assert len(ok) == 1 and len(refused) == 1, got
            assert isinstance(refused[0], SessionError) and refused[0].key == "community.daily.already"
        games = await stores[0].games_with_status((RUNNING, FINISHED, CANCELLED), GUILD)
        assert sorted(len([g for g in games if g.creator_id == 100 + r]) for r in range(3)) == [1, 1, 1]
        entries = await stores[1].daily_entries(GUILD, "ranta", "classique", ["2026-11-18"])
        assert sorted(e["user_id"] for e in entries) == [100, 101, 102] and all(e["game_id"] for e in entries)
    finally:
        for s in stores:
            await s.close()


async def test_resigning_or_cancelling_is_the_try(store):
    clock = Clock()
    d = service(store, clock)
    game = (await d.start(member(11), CHANNEL, "limit", "orchidee")).game
    await d.sessions.cancel(game.id, member(11))  # Limit has no resignation: its player abandons it
    board = await d.board(GUILD, "limit", "orchidee", DAY, 11)
    assert board.open and [(r.user_id, r.score, r.status) for r in board.rows] == [(11, None, "resigned")]
    with pytest.raises(SessionError) as err:
        await d.start(member(11), CHANNEL, "limit", "orchidee")
    assert err.value.key == "community.daily.already"
    assert i18n.t(err.value.key, "en", **err.value.params).startswith("You have already taken today's challenge — Take it to the Limit · Orchidée")
    # another variant is another challenge
    assert (await d.start(member(11), CHANNEL, "limit", "nexus")).game.status == RUNNING


async def test_a_game_that_cannot_open_gives_the_try_back(store):
    clock = Clock()
    d = service(store, clock)

    async def broken(*args, **kwargs):
        raise RuntimeError("database away")

    d.sessions.open_lobby = broken  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        await d.start(member(11), CHANNEL, "ranta", "expert")
    assert await store.daily_entries(GUILD, "ranta", "expert", ["2026-11-18"]) == []


# --- hidden scores, the boards, the mark -------------------------------------------------------------
async def test_scores_are_hidden_until_one_has_finished(store):
    clock = Clock()
    d = service(store, clock)
    a = (await d.start(member(11), CHANNEL, "ranta", "classique")).game
    b = (await d.start(member(12), CHANNEL, "ranta", "classique")).game
    await play_out(d, a.id, 11)
    score_a = (await store.results(a.id))[0].score
    # the one who has not played, and the one still playing, see how many played, no score, no name
    for viewer in (13, 12):
        board = await d.board(GUILD, "ranta", "classique", DAY, viewer)
        assert (board.open, board.played, board.rows) == (False, 2, ())
    # the one who finished sees the ranking (the other one playing, without score)
    board = await d.board(GUILD, "ranta", "classique", DAY, 11)
    assert board.open and [(r.user_id, r.score, r.rank, r.status) for r in board.rows] == [
        (11, score_a, 1, "finished"), (12, None, None, "playing")]
    assert board.viewer == 0
    await play_out(d, b.id, 12)
    score_b = (await store.results(b.id))[0].score
    board = await d.board(GUILD, "ranta", "classique", DAY, 12)
    assert sorted(r.score for r in board.rows) == sorted([score_a, score_b])
    assert [r.score for r in board.rows] == sorted([score_a, score_b], reverse=True)
    # the next day: yesterday is open to all on the week's board, today's board is empty
    clock.now += DAY_S
    week = await d.board(GUILD, "ranta", "classique", WEEK, 13)
    assert not week.open and sorted(r.score for r in week.rows) == sorted([score_a, score_b])
    assert all(r.days == 1 for r in week.rows)
    assert (await d.board(GUILD, "ranta", "classique", DAY, 13)).played == 0


async def test_the_mark_is_computed_once_and_kept(store):
    clock = Clock()
    calls = []

    async def slow(kind, options, seed, level):
        calls.append((kind, options, seed, level))
        await asyncio.sleep(0.05)
        return 77

    d = service(store, clock, compute=slow)
    first = await d.board(GUILD, "limit", "nexus", DAY, 11)
    assert first.mark is None  # being computed
    await asyncio.gather(*(d.ensure_mark(GUILD, "limit", "nexus", "2026-11-18") or asyncio.sleep(0)
                           for _ in range(3)))
    assert (await d.board(GUILD, "limit", "nexus", DAY, 11)).mark == 77
    other = service(store, clock, compute=slow)  # another process reads it, does not compute again
    assert await other.mark(GUILD, "limit", "nexus", "2026-11-18") == 77
    assert len(calls) == 1
    kind, options, seed, level = calls[0]
    assert (kind, options, level) == ("limit", {"plateau": "nexus"}, engines.get("limit").ai_levels[1])
    assert seed == await d.seed(GUILD, "limit", "nexus", "2026-11-18")


def test_the_ai_score_is_the_ai_playing_that_draw():
    a = ai_score("ranta", {"mode": "classique"}, 1234, 1)
    assert a == ai_score("ranta", {"mode": "classique"}, 1234, 1) and isinstance(a, int)


# --- what a challenge's game allows ------------------------------------------------------------------
async def test_no_takeback_and_a_replay_kept_to_its_player_until_the_day_ends(store):
    clock = Clock()
    d = service(store, clock)
    game = (await d.start(member(11), CHANNEL, "ranta", "classique")).game
    assert limits({"takeback": {"allowed": True, "max": 5}}, game) == (False, 0)
    assert replay_open(game, 11, clock()) and not replay_open(game, 12, clock())
    assert not replay_open(game, None, dc.day_end("2026-11-18") - 1)
    assert replay_open(game, 12, dc.day_end("2026-11-18"))
    ordinary = dataclasses.replace(game, settings={})
    assert replay_open(ordinary, 12, clock())


def test_the_share_card_outline_names_no_cell_and_no_tile():
    """The shape of a finished board: how many lines scored in each direction (Limit), how many combinations
    scored and the empty cells (Range ta Ludothèque) — nothing a player could copy."""
    engine = engines.get("limit")
    state = engine.new_game(1, {"plateau": "nexus"}, 99)
    while not engine.is_over(state):
        state, _ = engine.apply(state, 0, engine.ai_action(state, 0, 1))
    board = engine.view(state, 0)["boards"][0]
    shape = dc.shape("limit", {"score": board["score"]})
    # as the share card asks: the result's details and the public view, whose board's score is read
    assert dc.shape("limit", engine.result(state).details, engine.view(state, None)) == shape
    scored = [line for line in board["score"]["lines"] if line["points"]]
    assert sum(shape["lines"].values()) == len(board["score"]["lines"]) >= len(scored) > 0
    assert set(shape["lines"]) <= {"vertical", "sw_ne", "nw_se"}
    text = json.dumps(shape)
    assert not any(cell in text for cell in board["cells"]) and not any(t in text for t in board["cells"].values())
    ranta = engines.get("ranta")
    state = ranta.new_game(1, {"mode": "classique"}, 99)
    while not ranta.is_over(state):
        forced = ranta.forced_action(state, 0)
        state, _ = ranta.apply(state, 0, forced or ranta.ai_action(state, 0, 1))
    result = ranta.result(state)
    shape = dc.shape("ranta", result.details)
    assert shape["empty"] == result.details["empty"][0]
    assert shape["groups"] == sum(1 for b in result.details["breakdowns"][0] if b["rule"] != "empty_cells" and b["points"] > 0)


async def test_a_challenge_is_a_solo_record_never_a_rating(store):
    """A finished challenge is rated as any solo game: the member's solo best and recent games (/profil,
    /records) have it; no rating moves, no leaderboard or season table gets a line."""
    from bot.community import ratings
    from bot.community.seasons import season_table

    clock = Clock()
    d = service(store, clock)
    game = (await d.start(member(11), CHANNEL, "ranta", "classique")).game
    await play_out(d, game.id, 11)
    assert await ratings.rate(store, game.id)
    score = (await store.results(game.id))[0].score
    assert (await store.player_solo_best(GUILD, 11))["ranta"] == (score, 1)
    assert [r["game_id"] for r in await store.player_recent(GUILD, 11)] == [game.id]
    assert [r["score"] for r in await store.solo_records(GUILD, "ranta")] == [score]
    assert await store.player_ratings(GUILD, 11) == [] and await store.leaderboard(GUILD, "ranta") == []
    assert season_table([await store.results(game.id)]) == []


async def test_records_and_profiles_keep_todays_challenges_for_after_the_day(store):
    """/records and another member's /profil leave today's challenges out (their scores are hidden until
    the day is over); the day after, they count."""
    from bot.community import ratings

    clock = Clock()
    d = service(store, clock)
    ordinary = await d.sessions.open_lobby("ranta", guild_id=GUILD, channel_id=CHANNEL, player=member(11),
                                           options={"mode": "classique"})
    await d.sessions.start(ordinary.id, member(11))
    await play_out(d, ordinary.id, 11)
    game = (await d.start(member(11), CHANNEL, "ranta", "classique")).game
    await play_out(d, game.id, 11)
    for g in (ordinary.id, game.id):
        assert await ratings.rate(store, g)
    today = day_of(clock())
    assert [r["game_id"] for r in await store.solo_records(GUILD, "ranta", hide_daily=today)] == [ordinary.id]
    assert [r["game_id"] for r in await store.player_recent(GUILD, 11, hide_daily=today)] == [ordinary.id]
    assert (await store.player_solo_best(GUILD, 11, hide_daily=today))["ranta"][1] == 1
    tomorrow = day_of(clock() + DAY_S)
    assert {r["game_id"] for r in await store.solo_records(GUILD, "ranta", hide_daily=tomorrow)} == {ordinary.id,
                                                                                                      game.id}
    assert (await store.player_solo_best(GUILD, 11, hide_daily=tomorrow))["ranta"][1] == 2
