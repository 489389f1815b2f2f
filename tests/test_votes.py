"""A stalled player: the others vote (issue 15, part 3).

The counting rules, the engines' seat removal (rule cases), the ballots on both backends, and the
whole path on a fake clock: the timeout opens a vote instead of the default move, its deadline (or
a majority) decides once, each outcome does what it says, a restart loses nothing.
"""

from __future__ import annotations

import pytest

import engines
from bot.community.history import replay_lines
from bot.community.votes import AI, REMOVE, WAIT, counts, eligible, majority, voters, winner
from bot.sessions import SessionError, ai_played, open_votes
from bot.storage import DONE, FINISHED, PENDING, RUNNING, TIMEOUT, VOTE
from engines.base import RuleError
from engines.ludix import ENGINE as LUDIX
from engines.lutinades import CHOICE, GESTURES
from engines.lutinades import ENGINE as LUT
from tests.test_scheduler import CHANNEL, GUILD, HOUR, OPEN, PLAYERS, FakeClock, Recorder, World, start_game

A, B, C, D = (p.user_id for p in PLAYERS[:4])


@pytest.fixture(autouse=True)
async def _close_worlds():
    """Close every store a test opened, even when it fails (in this test's own event loop)."""
    yield
    while OPEN:
        await OPEN.pop().close()


# --- counting ------------------------------------------------------------------------------------------
def test_counts_keep_only_the_voters_and_the_offered_choices():
    ballots = {A: WAIT, B: AI, 999: REMOVE, C: "nonsense"}
    assert counts(ballots, [A, B, C]) == {WAIT: 1, AI: 1, REMOVE: 0}
    # a game without an AI offers no AI choice: such a ballot does not count
    assert counts({A: AI, B: REMOVE}, [A, B], (WAIT, REMOVE)) == {WAIT: 0, REMOVE: 1}


@pytest.mark.parametrize("tally,n,expected", [
    ({WAIT: 1, AI: 1, REMOVE: 0}, 2, None),   # one of two is not a majority
    ({WAIT: 0, AI: 2, REMOVE: 0}, 2, AI),      # both
    ({WAIT: 0, AI: 1, REMOVE: 1}, 3, None),    # a tie among three voters is not one
    ({WAIT: 0, AI: 0, REMOVE: 2}, 3, REMOVE),  # two of three
    ({WAIT: 2, AI: 0, REMOVE: 2}, 5, None),
])
def test_a_strict_majority_of_the_voters_decides_at_once(tally, n, expected):
    assert majority(tally, n) == expected


@pytest.mark.parametrize("tally,expected", [
    ({WAIT: 0, AI: 0, REMOVE: 0}, WAIT),  # nobody voted: wait
    ({WAIT: 0, AI: 1, REMOVE: 0}, AI),    # the most ballots wins at the deadline, majority or not
    ({WAIT: 0, AI: 1, REMOVE: 1}, WAIT),  # a tie: wait
    ({WAIT: 1, AI: 2, REMOVE: 2}, WAIT),
    ({WAIT: 1, AI: 0, REMOVE: 2}, REMOVE),
])
def test_at_the_deadline_most_ballots_win_and_a_tie_waits(tally, expected):
    assert winner(tally) == expected


# --- the engines: going on without a seat ----------------------------------------------------------------
def ludix(players=3, **kw):
    return LUDIX.from_dict({**LUDIX.to_dict(LUDIX.new_game(players, {"target": 100}, 7)), **kw})


def test_ludix_goes_on_without_a_seat_that_is_not_playing():
    s = ludix(3)
    s2, events = LUDIX.remove_seat(s, 1)
    assert events == [{"type": "seat_removed", "seat": 1}] and s2.out == (1,) and s2.current == 0
    s3, ev = LUDIX.apply(s2, 0, {"type": "pass"})
    assert s3.current == 2 and ev[-1] == {"type": "turn", "seat": 2, "last_round": False}
    s4, _ = LUDIX.apply(s3, 2, {"type": "pass"})
    assert s4.current == 0 and s4.round_no == 2  # the round still ends when the turn comes back to seat 0


def test_ludix_removing_the_player_on_turn_loses_the_turn_total_and_passes_on():
    s = ludix(3, current=1, turn_total=40, rolls_this_turn=2, scores=[10, 20, 30])
    s2, events = LUDIX.remove_seat(s, 1)
    assert [e["type"] for e in events] == ["seat_removed", "turn"]
    assert s2.current == 2 and s2.scores == (10, 20, 30) and s2.turn_total == 0


def test_ludix_a_removed_last_seat_ends_the_round_and_the_game_at_the_target():
    s = ludix(3, current=2, scores=[120, 20, 30], turn_total=50, rolls_this_turn=1)
    s2, events = LUDIX.remove_seat(s, 2)
    assert LUDIX.is_over(s2) and events[-1]["type"] == "game_over"
    assert LUDIX.result(s2).ranks == [1, 2, 3]


def test_ludix_a_removed_seat_ranks_after_every_player_still_in_even_with_more_points():
    s = ludix(3, scores=[50, 500, 40], out=[1], finished=True)
    assert LUDIX.result(s).ranks == [1, 3, 2]


def test_ludix_refuses_to_go_on_with_fewer_than_two_players():
    s, _ = LUDIX.remove_seat(ludix(3), 2)
    with pytest.raises(RuleError) as err:
        LUDIX.remove_seat(s, 1)
    assert err.value.key == "ludix.error.too_few_left"
    with pytest.raises(RuleError):
        LUDIX.remove_seat(s, 2)  # already out


def test_ludix_stored_form_is_unchanged_until_someone_is_removed():
    d = LUDIX.to_dict(ludix(3))
    assert "out" not in d and LUDIX.from_dict(d).out == ()
    s, _ = LUDIX.remove_seat(ludix(3), 1)
    assert LUDIX.from_dict(LUDIX.to_dict(s)) == s


# --- ballots, both backends ------------------------------------------------------------------------------
async def test_a_ballot_can_be_changed_and_is_kept_per_vote(store):
    from bot.storage import Seat

    g = await store.create_game(kind="ludix", guild_id=1, channel_id=2, creator=Seat(0, A, "A"), options={}, seed=1)
    await store.cast_ballot(g.id, 1, 5, A, WAIT, 10.0)
    await store.cast_ballot(g.id, 1, 5, C, AI, 11.0)
    await store.cast_ballot(g.id, 1, 5, A, REMOVE, 12.0)  # changed
    await store.cast_ballot(g.id, 1, 9, A, AI, 13.0)  # another vote about the same seat
    assert await store.ballots(g.id, 1, 5) == {A: REMOVE, C: AI}
    assert await store.ballots(g.id, 1, 9) == {A: AI}
    assert await store.ballots(g.id, 2, 5) == {}


# --- the whole path on a fake clock ------------------------------------------------------------------------
async def three_humans(db_url, kind="ludix", humans=3, ai=0):
    clock = FakeClock()
    rec = Recorder(clock)
    w = await World(db_url, clock, rec).open()
    await w.store.set_guild_settings(GUILD, {"timers": {kind: {"reminder_h": 1, "timeout_h": 3,
                                                               "forfeit_after": 2}}})
    game = await start_game(w.svc, kind, humans + ai, ai=ai)
    return w, clock, game


async def run_until(w, clock, when):
    clock.now = when
    await w.com.scheduler.tick()


async def stall_first_player(w, clock, game):
    """Seat 0 does not play: at +3 h the others' vote opens (no default move is played)."""
    await run_until(w, clock, clock.now + 3 * HOUR)
    game = await w.svc.get(game.id)
    vote = open_votes(game)["0"]
    assert vote == {"epoch": game.version, "due": clock.now + 3 * HOUR}
    log = await w.store.events(game.id)
    assert [r.action for r in log] == [{"type": "vote_open", "_by": "vote"}]
    assert log[-1].events[0]["type"] == "vote_open" and log[-1].events[0]["voters"] == 2
    pending = {(d.seat, d.kind, d.version) for d in await w.store.deadlines_of(game.id) if d.state == PENDING}
    assert pending == {(0, VOTE, game.version)}
    return game, vote["epoch"]


async def test_a_two_player_game_keeps_the_timeout_and_forfeit(db_url):
    w, clock, game = await three_humans(db_url, humans=2, ai=1)
    assert not eligible(game, 0)
    await run_until(w, clock, clock.now + 3 * HOUR)
    log = await w.store.events(game.id)
    played = {k: v for k, v in log[0].action.items() if k != "_bank"}  # the time bank kept (bot.pace)
    assert played == {"type": "pass", "_by": "timeout"} and not open_votes(await w.svc.get(game.id))
    await w.close()


async def test_wait_gives_the_stalled_seat_a_new_timeout_of_the_same_delay(db_url):
    w, clock, game = await three_humans(db_url)
    game, epoch = await stall_first_player(w, clock, game)
    # nobody votes: at the vote's deadline, the tie (0-0-0) means wait
    due = clock.now + 3 * HOUR
    await run_until(w, clock, due - 1)
    assert open_votes(await w.svc.get(game.id))
    await run_until(w, clock, due)
    game = await w.svc.get(game.id)
    assert not open_votes(game) and game.status == RUNNING
    log = await w.store.events(game.id)
    assert log[-1].events[0] | {"_seat": 0} == {"type": "vote_decided", "seat": 0, "choice": WAIT, WAIT: 0, AI: 0,
                                                REMOVE: 0, "_seat": 0}
    timeouts = [d for d in await w.store.deadlines_of(game.id) if d.state == PENDING and d.kind == TIMEOUT]
    assert [(d.seat, d.due) for d in timeouts] == [(0, due + 3 * HOUR)]
    assert (0, VOTE, epoch) in {d.key[1:] for d in await w.store.deadlines_of(game.id) if d.state == DONE}
    await w.close()


async def test_ai_takeover_until_the_player_takes_the_seat_back(db_url):
    w, clock, game = await three_humans(db_url)
    game, epoch = await stall_first_player(w, clock, game)
    await w.store.cast_ballot(game.id, 0, epoch, B, AI, clock())
    await w.store.cast_ballot(game.id, 0, epoch, C, REMOVE, clock())
    await w.store.cast_ballot(game.id, 0, epoch, C, AI, clock())  # changed before the deadline
    await run_until(w, clock, clock.now + 3 * HOUR)
    game = await w.svc.get(game.id)
    assert 0 in ai_played(game) and w.svc.expected_seats(game) == {1}
    log = await w.store.events(game.id)
    decided = next(r for r in log if r.action.get("type") == "vote_decided")
    assert decided.events[0]["choice"] == AI and decided.events[0][AI] == 2
    assert any(r.seat == 0 and r.action.get("_by") == "ai" for r in log)  # the AI played the seat
    # the stalled seat gets no deadline while the AI plays it; its player may not play meanwhile
    assert all(d.seat != 0 for d in await w.store.deadlines_of(game.id) if d.state == PENDING)
    with pytest.raises(SessionError) as err:
        await w.svc.act(game.id, A, {"type": "roll"})
    assert err.value.key == "community.vote.taken_over"
    with pytest.raises(SessionError) as err:
        await w.svc.reclaim(game.id, B)
    assert err.value.key == "community.vote.not_taken_over"
    await w.svc.reclaim(game.id, A)
    game = await w.svc.get(game.id)
    assert 0 not in ai_played(game)
    # seats 1 and 2 pass: the turn comes back to seat 0, who plays again themselves
    for user in (B, C):
        game = (await w.svc.act(game.id, user, {"type": "pass"})).game
    assert w.svc.expected_seats(game) == {0}
    assert any(d.seat == 0 and d.kind == TIMEOUT for d in await w.store.deadlines_of(game.id) if d.state == PENDING)
    await w.svc.act(game.id, A, {"type": "roll"})
    await w.close()


async def test_removal_goes_on_without_the_seat_where_the_rules_allow(db_url):
    w, clock, game = await three_humans(db_url)
    game, epoch = await stall_first_player(w, clock, game)
    await w.store.cast_ballot(game.id, 0, epoch, B, REMOVE, clock())
    await w.store.cast_ballot(game.id, 0, epoch, C, REMOVE, clock())
    game = await w.svc.get(game.id)
    out = await w.com.scheduler.votes.decide(game, 0, epoch, REMOVE)  # a majority, as a click decides it
    assert out.game.status == RUNNING and w.svc.expected_seats(out.game) == {1}
    assert [e["type"] for e in out.events] == ["vote_decided", "seat_removed", "turn"]
    assert not eligible(out.game, 1)  # two human players left: the next one stalled forfeits as usual
    # the deadline comes later: the vote is decided already, nothing happens twice
    await run_until(w, clock, clock.now + 3 * HOUR)
    log = await w.store.events(game.id)
    assert sum(1 for r in log if r.action.get("type") == "vote_decided") == 1
    assert {k: v for k, v in log[-1].action.items() if k != "_bank"} == {"type": "pass", "_by": "timeout"}
    assert log[-1].seat == 1
    # the game's history tells the vote and its decision
    text = "\n".join(replay_lines(await w.svc.get(game.id), log, "fr"))
    assert "P0 n'a pas joué à temps" in text and "Les joueurs ont décidé\u00a0: retirer P0 de la partie" in text
    assert "La partie continue sans P0" in text
    await w.close()


async def test_removal_ends_the_game_with_the_seat_last_where_the_rules_cannot_go_on(db_url):
    w, clock, game = await three_humans(db_url, kind="limit")  # Limit has no seat removal
    first = min(w.svc.expected_seats(game))
    await run_until(w, clock, clock.now + 3 * HOUR)
    game = await w.svc.get(game.id)
    stalled = sorted(int(k) for k in open_votes(game))
    assert first in stalled
    seat = stalled[0]
    epoch = open_votes(game)[str(seat)]["epoch"]
    others = [u for u in voters(game, seat)]
    for u in others:
        await w.store.cast_ballot(game.id, seat, epoch, u, REMOVE, clock())
    await run_until(w, clock, clock.now + 3 * HOUR)
    game = await w.svc.get(game.id)
    assert game.status == FINISHED
    ranks = {r.seat: r.rank for r in await w.store.results(game.id)}
    assert ranks[seat] == 3 and all(r == 1 for s, r in ranks.items() if s != seat)
    # /profil counts it as a game the removed player did not finish (like a forfeit), the others' as finished
    assert await w.store.player_completion(GUILD, game.seats[seat].user_id) == (0, 0, 1)
    assert await w.store.player_completion(GUILD, others[0]) == (1, 0, 0)
    await w.close()


async def test_a_rematch_copies_the_table_settings_not_the_votes(db_url):
    w, clock, game = await three_humans(db_url)
    game, epoch = await stall_first_player(w, clock, game)
    await w.store.cast_ballot(game.id, 0, epoch, B, AI, clock())
    await w.store.cast_ballot(game.id, 0, epoch, C, AI, clock())
    await run_until(w, clock, clock.now + 3 * HOUR)
    game = await w.svc.get(game.id)
    assert game.settings["ai_for"] == [0]
    await w.svc.forfeit(game.id, 1, reason="test")
    lobby, _ = await w.svc.rematch(game.id, PLAYERS[1])
    assert "ai_for" not in lobby.settings and "votes" not in lobby.settings
    await w.close()


async def test_the_stalled_player_playing_closes_the_vote(db_url):
    w, clock, game = await three_humans(db_url)
    game, epoch = await stall_first_player(w, clock, game)
    await w.store.cast_ballot(game.id, 0, epoch, B, REMOVE, clock())
    await w.svc.act(game.id, A, {"type": "roll"})
    assert not open_votes(await w.svc.get(game.id))
    await run_until(w, clock, clock.now + 3 * HOUR)  # the vote's deadline: void, nothing decided
    log = await w.store.events(game.id)
    assert not any(r.action.get("type") == "vote_decided" for r in log)
    await w.close()


async def test_a_restart_in_the_middle_of_a_vote_loses_nothing_and_decides_once(db_url):
    w, clock, game = await three_humans(db_url)
    game, epoch = await stall_first_player(w, clock, game)
    await w.store.cast_ballot(game.id, 0, epoch, B, REMOVE, clock())
    await w.close()
    clock.now += 10 * HOUR  # down past the vote's deadline
    w = await World(db_url, clock, Recorder(clock)).open()
    await w.com.catch_up()
    await w.com.scheduler.tick()
    await w.com.scheduler.tick()
    log = await w.store.events(game.id)
    decided = [r for r in log if r.action.get("type") == "vote_decided"]
    assert len(decided) == 1 and decided[0].events[0]["choice"] == REMOVE  # 1-0-0 at the deadline
    # a second process on the same file finds nothing left to do
    other = await World(db_url, clock, Recorder(clock)).open()
    await other.com.catch_up()
    assert await other.com.scheduler.tick() == 0
    assert len([r for r in await w.store.events(game.id) if r.action.get("type") == "vote_decided"]) == 1
    await other.close()
    await w.close()


@pytest.mark.parametrize("kind", sorted(k for k in engines.GAMES if hasattr(engines.get(k), "remove_seat")))
def test_every_removal_keeps_the_state_loadable(kind):
    e = engines.get(kind)
    s = e.new_game(e.min_players + 1, None, 3)
    s2, _ = e.remove_seat(s, 1)
    assert e.from_dict(e.to_dict(s2)) == s2 and 1 not in e.expected(s2)


# --- Lutinades: going on without a seat (3 players at least, the rules' minimum) ---------------------------


def gesture(state, seat, kind="up"):
    return LUT.apply(state, seat, {"type": "gesture", "gesture": kind, "side": None})[0]


def test_lutinades_with_three_players_cannot_go_on_without_one():
    s = LUT.new_game(3, None, 5)
    with pytest.raises(RuleError) as err:
        LUT.remove_seat(s, 1)
    assert err.value.key == "lutinades.error.too_few_left"


def test_lutinades_a_removed_lutin_is_no_longer_waited_for_and_may_not_play():
    s = gesture(gesture(LUT.new_game(5, None, 5), 1), 2, "down")
    assert LUT.expected(s) == {3, 4}
    s2, events = LUT.remove_seat(s, 3)
    assert events == [{"type": "seat_removed", "seat": 3}] and LUT.expected(s2) == {4}
    assert LUT.legal_actions(s2, 3) == [] and LUT.view(s2, 3)["card"] is None  # a spectator now
    with pytest.raises(RuleError) as err:
        LUT.apply(s2, 3, {"type": "gesture", "gesture": "up", "side": None})
    assert err.value.key == "lutinades.error.removed"
    # the last lutin waited for is removed: the gestures are revealed at once
    s3 = gesture(gesture(LUT.new_game(4, None, 5), 1), 2, "down")  # lutins 1 and 2 chose, 3 did not
    s4, events = LUT.remove_seat(s3, 3)
    assert [e["type"] for e in events][:2] == ["seat_removed", "gestures_revealed"]
    assert s4.phase == CHOICE and LUT.followable(s4) == [1, 2]


def test_lutinades_removing_the_picker_abandons_the_turn_and_the_next_seat_in_picks():
    s = gesture(gesture(gesture(LUT.new_game(4, None, 5), 1), 2, "down"), 3, "small")
    assert s.phase == CHOICE and LUT.expected(s) == {0}
    card = s.card
    s2, events = LUT.remove_seat(s, 0)
    assert [e["type"] for e in events] == ["seat_removed", "turn_abandoned", "turn"]
    assert s2.discard[-1] == card and s2.picker == 1 and s2.phase == GESTURES
    assert LUT.expected(s2) == {2, 3} and sum(len(m) for m in s2.mushrooms) == 0  # unscored
    # the removed seat is skipped when the picker passes on: 1, 2, 3, 1 ...
    pickers = []
    for _ in range(4):
        pickers.append(s2.picker)
        turn = s2.turn
        while s2.turn == turn:
            seat = min(LUT.expected(s2))
            assert seat != 0
            s2 = LUT.apply(s2, seat, LUT.default_action(s2, seat))[0]
    assert pickers == [1, 2, 3, 1]


def test_lutinades_removing_a_lutin_at_the_choice_leaves_the_picker_the_others():
    s = gesture(gesture(gesture(gesture(LUT.new_game(5, None, 5), 1), 2, "down"), 3, "small"), 4, "up")
    assert s.phase == CHOICE
    s2, events = LUT.remove_seat(s, 2)
    assert s2.phase == CHOICE and [e["type"] for e in events] == ["seat_removed", "choose"]
    assert LUT.followable(s2) == [1, 3, 4] and LUT.view(s2, None)["gestures"][2] is None


def test_lutinades_a_removed_seat_ranks_last_whatever_its_mushrooms():
    s = LUT.from_dict({**LUT.to_dict(LUT.new_game(4, None, 5)), "out": [2], "phase": "over",
                       "mushrooms": [[1], [2, 3], [4, 5, 6, 7], []]})
    assert LUT.result(s).ranks == [2, 1, 4, 3]


# --- Range ta Ludothèque: every kallax is its own, the others go on --------------------------------------
def test_ranta_a_removed_seat_draws_no_more_and_a_round_waiting_only_for_it_closes():
    from engines.ranta.engine import ENGINE as RANTA

    s = RANTA.new_game(3, None, 9)
    for seat in (0, 1):
        s = RANTA.apply(s, seat, RANTA.default_action(s, seat))[0]
    assert RANTA.expected(s) == {2} and s.round_no == 1
    s2, events = RANTA.remove_seat(s, 2)
    assert [e["type"] for e in events] == ["seat_removed", "round_closed", "rolled"]
    assert s2.round_no == 2 and RANTA.expected(s2) == {0, 1}  # the removed seat is never waited for
    with pytest.raises(RuleError) as err:
        RANTA.apply(s2, 2, {"type": "mat", "round": 2, "cell": "A1"})
    assert err.value.key == "ranta.error.removed"
    while not RANTA.is_over(s2):
        seat = min(RANTA.expected(s2))
        s2 = RANTA.apply(s2, seat, RANTA.default_action(s2, seat))[0]
    assert RANTA.result(s2).ranks[2] == 3 and RANTA.from_dict(RANTA.to_dict(s2)) == s2
    with pytest.raises(RuleError) as err:
        RANTA.remove_seat(RANTA.remove_seat(RANTA.new_game(2, None, 1), 0)[0], 1)
    assert err.value.key == "ranta.error.too_few_left"
    assert "out" not in RANTA.to_dict(RANTA.new_game(2, None, 1))


async def test_a_vote_lasts_a_turn_of_the_games_pace(db_url):
    """A live game does not wait two days: its vote lasts as long as its pace's bank (direct: 5 min)."""
    clock = FakeClock()
    w = await World(db_url, clock, Recorder(clock)).open()
    g = await w.svc.open_lobby("ludix", guild_id=GUILD, channel_id=CHANNEL, player=PLAYERS[0], pace="direct")
    for p in PLAYERS[1:3]:
        g = await w.svc.join(g.id, p)
    game = (await w.svc.start(g.id, PLAYERS[0])).game
    await run_until(w, clock, clock.now + 5 * 60)
    vote = open_votes(await w.svc.get(game.id))["0"]
    assert vote["due"] == clock.now + 5 * 60
    await w.close()
