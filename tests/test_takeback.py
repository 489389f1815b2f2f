"""Taking a move back (issue 26), through the session service on a fake clock, on both backends.

At once within one's turn or with no other human; otherwise the others' consent (a refusal, the
expiry and the next player's move close the request); the state after a takeback equals the state
before the move; the replay of seed + log stays exact; the bank comes back; the limits hold.
"""

from __future__ import annotations

import pytest

from bot import takeback
from bot.community.history import export, replay_lines
from bot.sessions import SessionError
from bot.storage import PENDING, VOTE
from engines.base import RuleError
from tests.test_scheduler import GUILD, HOUR, OPEN, PLAYERS, FakeClock, Recorder, World, start_game

A, B, C = (p.user_id for p in PLAYERS[:3])


@pytest.fixture(autouse=True)
async def _close_worlds():
    yield
    while OPEN:
        await OPEN.pop().close()


async def world(db_url, settings=None):
    clock = FakeClock()
    w = await World(db_url, clock, Recorder(clock)).open()
    await w.store.set_guild_settings(GUILD, settings or {"timers": {"*": {"reminder_h": 1, "timeout_h": 3}}})
    w.tb = takeback.Takebacks(w.store, w.svc)
    w.clock = clock
    return w


async def first_move(w, game, user):
    engine = w.svc.engine(game.kind)
    state = engine.from_dict(game.state)
    seat = game.seat_of(user)
    return await w.svc.act(game.id, user, engine.legal_actions(state, seat)[0])


async def exact_replay(w, game_id):
    game = await w.svc.get(game_id)
    engine = w.svc.engine(game.kind)
    states = takeback.replay(engine, game, await w.store.events(game_id))
    assert takeback.as_stored(engine, states[max(states)]) == game.state


async def test_tectonic_takeback_accepted_restores_the_state_and_the_game_goes_on(db_url):
    w = await world(db_url)
    game = await start_game(w.svc, "tectonic", 2)
    before = game.state
    w.clock.now += 600  # ten minutes of thinking
    moved = (await first_move(w, game, A)).game
    assert moved.state != before
    asked = await w.tb.ask(game.id, A, now=w.clock())
    req = takeback.open_request(asked.game)
    assert req is not None and req["seat"] == 0 and asked.events[0]["type"] == "takeback_asked"
    assert [d for d in await w.store.deadlines_of(game.id) if d.kind == VOTE and d.state == PENDING]
    # the asker does not answer, a stranger cannot
    with pytest.raises(SessionError, match="undo.error.own_request"):
        await w.tb.answer(game.id, A, asked.game.version, takeback.ACCEPT, now=w.clock())
    with pytest.raises(SessionError, match="undo.error.not_voter"):
        await w.tb.answer(game.id, C, asked.game.version, takeback.ACCEPT, now=w.clock())
    done = await w.tb.answer(game.id, B, asked.game.version, takeback.ACCEPT, now=w.clock())
    assert done is not None and done.game.state == before
    assert done.events[0] == {"type": "takeback", "seat": 0, "mode": "vote", "players": [1], "moves": 1,
                              "_seat": 0}
    assert takeback.open_request(done.game) is None and "takeback" not in done.game.settings
    assert w.svc.expected_seats(done.game) == {0}
    # the bank is the one before the move (none stored yet: the full one), and a new timeout follows it
    rows = await w.store.events(game.id)
    assert rows[-1].action["_bank"] is None and rows[-1].action["to"] == rows[0].version - 1
    timeouts = [d for d in await w.store.deadlines_of(game.id) if d.kind == "timeout" and d.state == PENDING]
    assert [d.due for d in timeouts if d.seat == 0] == [w.clock() + 3 * HOUR]
    # B's clock (B is no longer to play) never fires: its deadline is void at its time
    w.clock.now += 2.5 * HOUR
    await w.com.scheduler.tick()
    assert (await w.svc.get(game.id)).version == done.game.version
    w.clock.now -= 2.5 * HOUR
    await exact_replay(w, game.id)
    # the log tells it, and the export carries it
    text = "\n".join(replay_lines(done.game, rows, "fr"))
    assert "P0 a repris son coup, accepté par P1" in text and "P0 demande à reprendre son dernier coup" in text
    doc = export(done.game, rows, [])
    assert [e["action"]["type"] for e in doc["log"]][-2:] == ["takeback_asked", "takeback"]
    # nothing twice: the move is gone, there is nothing left to take back
    with pytest.raises(SessionError, match="undo.error.nothing"):
        await w.tb.ask(game.id, A, now=w.clock())
    # the game goes on from there
    again = (await first_move(w, done.game, A)).game
    assert again.state == moved.state
    await exact_replay(w, game.id)


async def test_a_refusal_or_the_next_move_or_the_expiry_closes_the_request(db_url):
    w = await world(db_url)
    game = await start_game(w.svc, "tectonic", 2)
    moved = (await first_move(w, game, A)).game
    asked = await w.tb.ask(game.id, A, now=w.clock())
    with pytest.raises(SessionError, match="undo.error.pending"):
        await w.tb.ask(game.id, A, now=w.clock())
    refused = await w.tb.answer(game.id, B, asked.game.version, takeback.REFUSE, now=w.clock())
    assert refused.events[0]["type"] == "takeback_refused" and refused.game.state == moved.state
    assert "refusée par P1" in "\n".join(replay_lines(refused.game, await w.store.events(game.id), "fr"))
    # asked again: the next player's move cancels it, and the accept that comes after loses
    asked = await w.tb.ask(game.id, A, now=w.clock())
    epoch = asked.game.version
    after_b = (await first_move(w, asked.game, B)).game
    assert "takeback" not in after_b.settings
    with pytest.raises(SessionError, match="undo.error.closed"):
        await w.tb.answer(game.id, B, epoch, takeback.ACCEPT, now=w.clock())
    with pytest.raises(SessionError, match="undo.error.not_last"):
        await w.tb.ask(game.id, A, now=w.clock())
    # B asks; nobody answers: at the deadline (the pace's reminder delay, 1 h here) it expires once
    asked = await w.tb.ask(game.id, B, now=w.clock())
    due = takeback.open_request(asked.game)["due"]
    assert due == w.clock() + 1 * HOUR
    w.clock.now = due + 1
    assert await w.com.scheduler.tick() >= 1
    game = await w.svc.get(game.id)
    rows = await w.store.events(game.id)
    assert rows[-1].action["type"] == "takeback_expired" and game.state == after_b.state
    assert await w.com.scheduler.tick() == 0  # never twice
    await exact_replay(w, game.id)


@pytest.mark.parametrize("choice", [takeback.ACCEPT, takeback.REFUSE])
async def test_a_move_from_another_process_between_the_ballot_and_its_commit_closes_the_request(db_url, choice):
    """The answer a voter gets when the next move wins the compare-and-swap: the request is closed
    (not "this button is out of date"), and the move stands."""
    w = await world(db_url)
    other = await World(db_url, w.clock, Recorder(w.clock)).open()  # a second bot process
    game = await start_game(w.svc, "tectonic", 2)
    await first_move(w, game, A)
    asked = await w.tb.ask(game.id, A, now=w.clock())
    store_commit = w.store.commit_action
    moved = []

    async def commit_after_the_move(*args, **kwargs):
        w.store.commit_action = store_commit
        moved.append((await first_move(other, await other.svc.get(game.id), B)).game)
        return await store_commit(*args, **kwargs)

    w.store.commit_action = commit_after_the_move
    with pytest.raises(SessionError, match="undo.error.closed"):
        await w.tb.answer(game.id, B, asked.game.version, choice, now=w.clock())
    after = await w.svc.get(game.id)
    assert moved and after.version == moved[0].version and after.state == moved[0].state
    assert takeback.open_request(after) is None
    assert [r.action["type"] for r in await w.store.events(game.id)][-2:] == ["takeback_asked", "move"]


async def test_revealing_moves_are_refused_with_their_reason(db_url):
    w = await world(db_url)
    ludix = await start_game(w.svc, "ludix", 2)
    await first_move(w, ludix, A)
    with pytest.raises(SessionError) as err:
        await w.tb.ask(ludix.id, A, now=w.clock())
    assert err.value.key == "undo.error.revealed" and err.value.params["reason"].key == "undo.reason.ludix"
    # Range ta Ludothèque alone: every placement closes the round and rolls the next dice
    ranta = await start_game(w.svc, "ranta", 1)
    await first_move(w, ranta, A)
    with pytest.raises(SessionError) as err:
        await w.tb.ask(ranta.id, A, now=w.clock())
    assert err.value.params["reason"].key in ("undo.reason.dice", "undo.reason.round_closed")
    # nothing of these games changed
    for g in (ludix, ranta):
        assert [r.action["type"] for r in await w.store.events(g.id)][-1] != "takeback"


async def test_alone_against_the_ai_it_is_at_once_and_limited(db_url):
    w = await world(db_url, {"takeback": {"allowed": True, "max": 1}})
    game = await start_game(w.svc, "tectonic", 2, ai=1)
    before = game.state
    moved = (await first_move(w, game, A)).game  # the AI answers at once
    rows = await w.store.events(game.id)
    assert [r.action.get("_by") for r in rows] == [None, "ai"]
    done = await w.tb.ask(game.id, A, now=w.clock())
    assert done.events[0]["mode"] == "alone" and done.events[0]["moves"] == 2 and done.game.state == before
    assert moved.version < done.game.version
    await first_move(w, done.game, A)
    with pytest.raises(SessionError, match="undo.error.limit"):
        await w.tb.ask(game.id, A, now=w.clock())
    await w.store.set_guild_settings(GUILD, {"takeback": {"allowed": False}})
    with pytest.raises(SessionError, match="undo.error.not_allowed"):
        await w.tb.ask(game.id, A, now=w.clock())


async def test_a_step_within_ones_own_turn_is_taken_back_at_once(db_url):
    """Ludime: taking the discard is a step of the turn (nothing hidden): back at once, not counted."""
    w = await world(db_url, {"takeback": {"max": 0}, "timers": {"*": {"reminder_h": 1, "timeout_h": 3}}})
    game = await start_game(w.svc, "ludime", 2)
    engine = w.svc.engine("ludime")
    first = engine.from_dict(game.state).current
    order = [game.seats[first].user_id, game.seats[1 - first].user_id]
    for user in order:  # a first turn each: draw from the pile, discard
        game = (await w.svc.act(game.id, user, {"type": "draw", "source": "pile"})).game
        with pytest.raises(SessionError) as err:  # a card drawn from the pile
            await w.tb.ask(game.id, user, now=w.clock())
        assert err.value.params["reason"].key == "undo.reason.pile"
        state = engine.from_dict(game.state)
        game = (await w.svc.act(game.id, user, engine.legal_actions(state, state.current)[0])).game
    before = game.state
    t0 = w.clock()  # the turn starts with the full bank (3 h): its timeout at t0 + 3 h
    w.clock.now += HOUR
    took = (await w.svc.act(game.id, order[0], {"type": "draw", "source": "discard"})).game
    assert took.state != before
    w.clock.now += HOUR / 2
    done = await w.tb.ask(game.id, order[0], now=w.clock())
    assert done.events[0]["mode"] == "turn" and done.game.state == before
    # the clock was not wound back: the same timeout as before the step
    timeouts = [d for d in await w.store.deadlines_of(game.id)
                if d.kind == "timeout" and d.state == PENDING and d.seat == done.game.seat_of(order[0])]
    assert max(timeouts, key=lambda d: d.version).due == pytest.approx(t0 + 3 * HOUR)
    await exact_replay(w, game.id)


def test_limits_the_game_policy_first_then_the_server_then_the_defaults():
    row = type("Row", (), {})()
    row.settings = {}
    assert takeback.limits({}, row) == (takeback.DEFAULT_ALLOWED, takeback.DEFAULT_MAX)
    assert takeback.limits({"takeback": {"allowed": False, "max": 5}}, row) == (False, 5)
    row.settings = {"takeback": {"allowed": True}}  # a tournament's games: its own say first
    assert takeback.limits({"takeback": {"allowed": False, "max": 5}}, row) == (True, 5)
    new = takeback.change_limits({"language": "fr"}, False, 2)
    assert new == {"language": "fr", "takeback": {"allowed": False, "max": 2}}
    assert takeback.change_limits(new, None, 0)["takeback"] == {"allowed": False, "max": 0}
    with pytest.raises(RuleError) as err:
        takeback.change_limits(new, True, 21)
    assert err.value.key == "undo.error.bad_limit"
    assert takeback.describe_limits(new, "fr") == "Reprises de coups\u00a0: interdites."
    assert takeback.describe_limits({"takeback": {"max": 2}}, "fr") == \
        "Reprises de coups\u00a0: permises, 2 au plus par joueur et par partie."


async def test_every_other_human_must_accept_and_bot_seats_accept(db_url):
    """Range ta Ludothèque, three humans and a bot: both other humans are asked, one refusal is enough,
    and the bot's placement (made at once) is not undone by it."""
    w = await world(db_url)
    game = await start_game(w.svc, "ranta", 4, ai=1)
    engine = w.svc.engine("ranta")
    before = game.state
    moved = (await first_move(w, game, A)).game
    assert moved.state != before
    asked = await w.tb.ask(game.id, A, now=w.clock())
    assert asked.game.seats[1].is_ai and asked.events[0]["players"] == [2, 3]  # P1 and P2, not the bot
    epoch = asked.game.version
    assert await w.tb.answer(game.id, B, epoch, takeback.ACCEPT, now=w.clock()) is None  # Chloé still to answer
    assert (await w.svc.get(game.id)).version == epoch
    # the bot seat is never waited for: the second human ballot decides
    done = await w.tb.answer(game.id, C, epoch, takeback.ACCEPT, now=w.clock())
    assert done.events[0]["players"] == [2, 3] and done.game.state == before
    assert engine.expected(engine.from_dict(done.game.state)) >= {0, 2, 3}
    text = "\n".join(replay_lines(done.game, await w.store.events(game.id), "fr"))
    assert "P0 a repris son coup, accepté par P1, P2" in text
    # asked again after the same move: one refusal closes it
    await first_move(w, done.game, A)
    asked = await w.tb.ask(game.id, A, now=w.clock())
    assert await w.tb.answer(game.id, B, asked.game.version, takeback.ACCEPT, now=w.clock()) is None
    no = await w.tb.answer(game.id, C, asked.game.version, takeback.REFUSE, now=w.clock())
    assert no.events[0] == {"type": "takeback_refused", "seat": 0, "by_seat": 3, "_seat": 0}
    await exact_replay(w, game.id)


# --- « Reprendre mon coup » offered only where asking would work (issue 36) -----------------------------
async def refusal_key(w, game_id, user):
    err = await w.tb.refusal(await w.svc.get(game_id), user)
    return None if err is None else (err.key, getattr(err.params.get("reason"), "key", None))


@pytest.mark.parametrize("kind", ["limit", "ranta"])
async def test_solo_limit_and_ranta_never_offer_a_takeback_the_round_is_closed(kind, db_url):
    """Alone, every placement closes the round (the next tile or dice): never offered; the refusal
    says so, as asking does; before any move, there is nothing to take back."""
    w = await world(db_url)
    game = await start_game(w.svc, kind, 1)
    assert await refusal_key(w, game.id, A) == ("undo.error.nothing", None)
    await first_move(w, game, A)
    key, reason = await refusal_key(w, game.id, A)
    assert key == "undo.error.revealed" and reason in ("undo.reason.round_closed", "undo.reason.tile",
                                                       "undo.reason.dice")
    with pytest.raises(SessionError) as err:
        await w.tb.ask(game.id, A, now=w.clock())
    assert (err.value.key, err.value.params["reason"].key) == (key, reason)


async def test_offered_after_a_move_that_may_be_taken_back_not_to_a_player_who_has_not_played(db_url):
    w = await world(db_url)
    game = await start_game(w.svc, "tectonic", 2)
    assert await refusal_key(w, game.id, A) == ("undo.error.nothing", None)
    await first_move(w, game, A)
    assert await refusal_key(w, game.id, A) is None  # offered: asking opens the request
    assert await refusal_key(w, game.id, B) == ("undo.error.nothing", None)  # Bruno has not played
    assert await refusal_key(w, game.id, 999) == ("common.error.not_a_player", None)
    asked = await w.tb.ask(game.id, A, now=w.clock())
    assert asked.events[0]["type"] == "takeback_asked"
    assert await refusal_key(w, game.id, A) == ("undo.error.pending", None)  # asked once: not offered again
    await w.store.set_guild_settings(GUILD, {"takeback": {"allowed": False}})
    assert await refusal_key(w, game.id, B) == ("undo.error.not_allowed", None)


async def test_lutinades_says_its_own_reason_never_another_players_move(db_url):
    """Lutinades' rules never allow a takeback: not offered, and asking says why (not "another player
    has played since"), before any move as after."""
    w = await world(db_url)
    game = await start_game(w.svc, "lutinades", 3)
    assert await refusal_key(w, game.id, A) == ("undo.error.revealed", "undo.reason.lutinades")
    for user in (A, B, C):  # the three gestures of the first turn
        state = w.svc.engine("lutinades").from_dict((await w.svc.get(game.id)).state)
        seat = (await w.svc.get(game.id)).seat_of(user)
        if seat in w.svc.engine("lutinades").expected(state):
            await first_move(w, await w.svc.get(game.id), user)
    for user in (A, B, C):
        assert await refusal_key(w, game.id, user) == ("undo.error.revealed", "undo.reason.lutinades")
        with pytest.raises(SessionError) as err:
            await w.tb.ask(game.id, user, now=w.clock())
        assert err.value.params["reason"].key == "undo.reason.lutinades"
