"""Ratings and leaderboards on known result sequences: ties, multiplayer, AI seats, periods, solo records."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.community import ratings
from bot.sessions import Player, SessionService
from bot.storage import FINISHED, ResultRow, Seat, SQLiteStore

GUILD = 1
DAY = 86400.0
A, B, C, D = 1, 2, 3, 4
NAMES = {A: "Alice", B: "Bruno", C: "Chloé", D: "Dave", None: "Bot"}
MODEL = PlackettLuce()


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def env(db_path):
    clock = Clock()
    store = SQLiteStore(db_path, clock=clock)
    await store.open()
    yield store, clock
    await store.close()


async def finished(store: SQLiteStore, seats: list[int | None], ranks: list[int], scores: list[int | None] | None = None,
                   *, kind: str = "ludix", guild: int = GUILD, rate: bool = True) -> int:
    """A finished game with these seats (None = AI), ranks and scores, written through the Store."""
    scores = scores or [None] * len(seats)
    human = next(u for u in seats if u is not None)
    g = await store.create_game(kind=kind, guild_id=guild, channel_id=10, creator=Seat(0, human, NAMES[human]),
                                options={}, seed=1)
    rows = [Seat(i, u, NAMES[u] if u else f"Bot {i}", ai_level=None if u else 1) for i, u in enumerate(seats)]
    assert await store.start_game(g.id, g.version, rows, {"s": 1})
    results = [ResultRow(g.id, i, u, scores[i], ranks[i]) for i, u in enumerate(seats)]
    assert await store.commit_action(g.id, g.version + 1, state={"s": 2}, seat=0, user_id=human,
                                     action={"type": "end"}, events=[], status=FINISHED, results=results)
    if rate:
        assert await ratings.rate(store, g.id)
    return g.id


def fold(games: list[tuple[list[int], list[int]]]) -> dict[int, object]:
    """The same sequence straight through openskill: {user: rating}."""
    book: dict[int, object] = {}
    for users, ranks in games:
        teams = MODEL.rate([[book.get(u) or MODEL.rating()] for u in users], ranks=ranks)
        for u, t in zip(users, teams, strict=True):
            book[u] = t[0]
    return book


async def board(store, kind="ludix", since=None):
    return {r.user_id: r for r in await store.leaderboard(GUILD, kind, since)}


async def test_a_win_moves_both_ratings_as_openskill_says(env):
    store, _ = env
    await finished(store, [A, B], [1, 2], [300, 120])
    expected = fold([([A, B], [1, 2])])
    got = await board(store)
    for u in (A, B):
        assert got[u].mu == pytest.approx(expected[u].mu) and got[u].sigma == pytest.approx(expected[u].sigma)
    assert got[A].ordinal > got[B].ordinal
    assert (got[A].games, got[A].wins, got[A].best_score) == (1, 1, 300)
    assert (got[B].games, got[B].wins, got[B].best_score) == (1, 0, 120)
    assert [r.user_id for r in await store.leaderboard(GUILD, "ludix")] == [A, B]


async def test_a_tie_leaves_equal_players_equal_and_both_win(env):
    store, _ = env
    await finished(store, [A, B], [1, 1], [200, 200])
    got = await board(store)
    assert got[A].mu == pytest.approx(got[B].mu) and got[A].sigma == pytest.approx(got[B].sigma)
    assert got[A].wins == got[B].wins == 1
    expected = fold([([A, B], [1, 1])])
    assert got[A].mu == pytest.approx(expected[A].mu)


async def test_a_multiplayer_sequence_matches_openskill_and_orders_the_board(env):
    store, _ = env
    seq = [([A, B, C, D], [1, 2, 2, 4]), ([B, C, D], [1, 2, 3]), ([D, A], [2, 1]), ([C, A, B, D], [4, 1, 3, 2]),
           ([A, C], [1, 1])]
    for users, ranks in seq:
        await finished(store, users, ranks, [100 - 10 * r for r in ranks])
    expected = fold(seq)
    got = await board(store)
    for u in (A, B, C, D):
        assert got[u].mu == pytest.approx(expected[u].mu)
        assert got[u].sigma == pytest.approx(expected[u].sigma)
        assert got[u].ordinal == pytest.approx(expected[u].ordinal())
    order = [r.user_id for r in await store.leaderboard(GUILD, "ludix")]
    assert order == sorted((A, B, C, D), key=lambda u: -expected[u].ordinal())
    assert (got[A].games, got[A].wins) == (4, 4)
    assert (got[D].games, got[D].wins, got[D].best_score) == (4, 0, 80)


async def test_ai_seats_never_enter_the_rankings_but_the_humans_results_count(env):
    store, _ = env
    # the AI wins; Alice beats Bruno: only Alice-over-Bruno moves the ratings; nobody "won"
    await finished(store, [A, None, B], [2, 1, 3], [50, 90, 10])
    expected = fold([([A, B], [2, 3])])
    got = await board(store)
    assert set(got) == {A, B}
    assert got[A].mu == pytest.approx(expected[A].mu) and got[B].mu == pytest.approx(expected[B].mu)
    assert (got[A].games, got[A].wins, got[A].best_score) == (1, 0, 50)
    # alone against an AI: counted (a game, a win, a best score) but the rating does not move
    await finished(store, [C, None], [1, 2], [70, 20])
    c = (await board(store))[C]
    assert (c.mu, c.sigma) == (pytest.approx(MODEL.rating().mu), pytest.approx(MODEL.rating().sigma))
    assert (c.games, c.wins, c.best_score) == (1, 1, 70)
    assert ratings.display(c.ordinal) == 1000


async def test_rating_a_game_twice_changes_nothing(env):
    store, _ = env
    gid = await finished(store, [A, B], [1, 2])
    before = await board(store)
    assert not await ratings.rate(store, gid)
    assert await ratings.rate_pending(store) == 0
    after = await board(store)
    assert {u: (r.mu, r.games) for u, r in before.items()} == {u: (r.mu, r.games) for u, r in after.items()}


async def test_games_left_unrated_by_a_crash_are_rated_in_order(env):
    store, _ = env
    seq = [([A, B], [1, 2]), ([B, A], [1, 2]), ([A, B], [2, 1])]
    for users, ranks in seq:
        await finished(store, users, ranks, rate=False)
    assert len(await store.unrated_games()) == 3
    assert await ratings.rate_pending(store) == 3
    expected = fold(seq)
    got = await board(store)
    assert got[B].mu == pytest.approx(expected[B].mu)


async def test_periods_count_only_recent_games_and_servers_are_separate(env):
    store, clock = env
    await finished(store, [A, B], [1, 2], [10, 5])  # 40 days ago
    clock.now += 30 * DAY
    await finished(store, [B, A], [1, 2], [20, 15])  # 10 days ago
    clock.now += 8 * DAY
    await finished(store, [A, C], [1, 2], [30, 25])  # 2 days ago
    await finished(store, [D, B], [1, 2], guild=2)  # another server
    clock.now += 2 * DAY
    now = clock.now
    week = await board(store, since=now - 7 * DAY)
    month = await board(store, since=now - 30 * DAY)
    everything = await board(store)
    assert set(week) == {A, C} and (week[A].games, week[A].wins, week[A].best_score) == (1, 1, 30)
    assert set(month) == {A, B, C} and month[A].games == 2 and month[B].games == 1
    assert set(everything) == {A, B, C} and everything[A].games == 3 and everything[B].games == 2
    assert week[A].mu == everything[A].mu  # the rating shown is the current one
    assert set(await board_of(store, 2)) == {D, B}


async def board_of(store, guild):
    return {r.user_id for r in await store.leaderboard(guild, "ludix")}


async def test_solo_games_make_records_not_ratings(env):
    store, clock = env
    for user, score in ((A, 40), (B, 55), (A, 61), (C, None)):
        clock.now += 60
        await finished(store, [user], [1], [score], kind="ranta")
    assert await store.leaderboard(GUILD, "ranta") == []
    recs = await store.solo_records(GUILD, "ranta")
    assert [(r["user_id"], r["score"]) for r in recs] == [(A, 61), (B, 55), (A, 40)]
    assert all(isinstance(r["options"], dict) for r in recs)  # the records picture names the mode
    assert await store.player_solo_best(GUILD, A) == {"ranta": (61, 2)}


async def test_a_forfeit_ranks_the_absent_player_last(env):
    store, _ = env
    svc = SessionService(store, seed_source=lambda: 7)
    players = [Player(u, NAMES[u]) for u in (A, B, C)]
    g = await svc.open_lobby("ludix", guild_id=GUILD, channel_id=10, player=players[0])
    for p in players[1:]:
        g = await svc.join(g.id, p)
    await svc.start(g.id, players[0])
    out = await svc.forfeit(g.id, 1)
    assert out.finished and out.result.ranks == [1, 3, 1]
    assert await ratings.rate(store, g.id)
    got = await board(store)
    expected = fold([([A, B, C], [1, 3, 1])])
    assert got[B].mu == pytest.approx(expected[B].mu) and got[B].wins == 0 and got[A].wins == 1
    assert got[B].best_score is None
    log = await store.events(g.id)
    assert log[-1].action == {"type": "forfeit", "_by": "timeout"}


async def test_profile_queries(env):
    store, clock = env
    for users, ranks in [([A, B], [1, 2]), ([A, B, C], [2, 1, 3]), ([C, A], [1, 2])]:
        clock.now += 60
        await finished(store, users, ranks, [r * 10 for r in ranks])
    await finished(store, [A], [1], [77], kind="ranta")
    mine = await store.player_ratings(GUILD, A)
    assert len(mine) == 1
    row, position, total = mine[0]
    assert total == 3 and row.games == 3 and row.wins == 1
    everyone = await store.leaderboard(GUILD, "ludix")
    assert position == [r.user_id for r in everyone].index(A) + 1
    recent = await store.player_recent(GUILD, A, 3)
    assert [(g["kind"], g["solo"], g["rank"], g["players"]) for g in recent] == [
        ("ranta", 1, 1, 1), ("ludix", 0, 2, 2), ("ludix", 0, 2, 3)]


def test_the_leaderboard_picture_fits_discord():
    import io

    from PIL import Image

    from render.leaderboard import render_leaderboard, render_records

    labels = {k: k.title() for k in ("rank", "player", "rating", "games", "wins", "best", "score", "date", "game")}
    rows = [{"rank": i + 1, "player": "Joueuse au nom vraiment très très long " * 3, "rating": 1000 + i,
             "games": 10_000, "wins": 5000, "best": None if i % 2 else 312} for i in range(20)]
    data = render_leaderboard("Classement — Range ta Ludothèque", "Depuis toujours", labels, rows, highlight=3)
    img = Image.open(io.BytesIO(data))
    assert data[:4] == b"\x89PNG" and len(data) < 1_000_000 and 560 <= img.width <= 720
    empty = Image.open(io.BytesIO(render_leaderboard("T", "S", {**labels, "empty": "Personne"}, [])))
    assert empty.height < img.height
    rec = render_records("Records", "S", labels, [{"rank": 1, "player": "A", "score": 88, "date": "2026-01-02",
                                                   "game": 12}])
    assert rec[:4] == b"\x89PNG"


def test_solo_records_name_their_mode():
    from cogs.community.boards import mode_label

    assert mode_label("ranta", {"mode": "expert"}, "fr") == "Expert"
    assert mode_label("ranta", {"mode": "classique"}, "en") == "Classic"
    assert mode_label("ranta", {}, "fr") == "Classique"  # defaults: the first option's name for them
    assert mode_label("limit", {"plateau": "orchidee", "variante": "standard"}, "fr") == "Orchidée"
    assert "dechetterie" not in mode_label("limit", {"variante": "sans-dechetterie"}, "fr")  # no internal name
