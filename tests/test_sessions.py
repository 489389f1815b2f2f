"""The session service: lobby rules, turn checks, stale buttons, concurrent clicks, AI seats, restarts."""

from __future__ import annotations

import asyncio

import pytest

from bot import i18n
from bot.sessions import Player, SessionError, SessionService
from bot.storage import open_store
from engines.base import RuleError

ALICE = Player(100, "Alice")
BRUNO = Player(101, "Bruno")
CHLOE = Player(102, "Chloé")
MOD = Player(103, "Modo", can_manage=True, guild_id=1)


@pytest.fixture
async def svc(store):
    return SessionService(store, seed_source=lambda: 1234)


async def lobby(svc, *players, **kw):
    g = await svc.open_lobby("ludix", guild_id=1, channel_id=10, player=ALICE, **kw)
    for p in players:
        g = await svc.join(g.id, p)
    return g


async def refused(key, coro):
    with pytest.raises(RuleError) as err:
        await coro
    assert err.value.key == key, err.value.params
    return err.value


async def test_lobby_join_leave_and_limits(svc):
    g = await lobby(svc, BRUNO)
    assert g.names == ["Alice", "Bruno"]
    await refused("lobby.error.already_joined", svc.join(g.id, BRUNO))
    await refused("lobby.error.creator_leaves", svc.leave(g.id, ALICE))
    await refused("lobby.error.not_joined", svc.leave(g.id, CHLOE))
    g = await svc.leave(g.id, BRUNO)
    assert g.names == ["Alice"]
    for i in range(5):
        g = await svc.join(g.id, Player(200 + i, f"P{i}"))
    await refused("lobby.error.full", svc.join(g.id, CHLOE))


async def test_only_the_creator_or_a_moderator_starts_or_cancels(svc):
    g = await lobby(svc)
    await refused("lobby.error.not_enough", svc.start(g.id, ALICE))
    g = await svc.join(g.id, BRUNO)
    await refused("lobby.error.only_creator", svc.start(g.id, BRUNO))
    await refused("lobby.error.only_creator_cancel", svc.cancel(g.id, BRUNO))
    out = await svc.start(g.id, MOD)
    assert out.game.status == "running"
    await refused("common.error.already_started", svc.join(g.id, CHLOE))


async def test_turn_checks_each_have_their_own_refusal(svc):
    g = await lobby(svc, BRUNO)
    await refused("common.error.not_started", svc.act(g.id, ALICE.user_id, {"type": "roll"}))
    await svc.start(g.id, ALICE)
    before = await svc.get(g.id)
    await refused("common.error.not_a_player", svc.act(g.id, CHLOE.user_id, {"type": "roll"}))
    await refused("common.error.not_your_turn", svc.act(g.id, BRUNO.user_id, {"type": "roll"}))
    await refused("ludix.error.roll_first", svc.act(g.id, ALICE.user_id, {"type": "stop"}))
    await refused("common.error.already_played", svc.act(g.id, ALICE.user_id, {"type": "roll"},
                                                          version=before.version - 1))
    after = await svc.get(g.id)
    assert (after.version, after.state) == (before.version, before.state)
    assert await svc.store.events(g.id) == []
    await refused("common.error.no_such_game", svc.act(999, ALICE.user_id, {"type": "roll"}))


async def test_cancelled_and_finished_games_refuse_moves(svc):
    g = await lobby(svc, BRUNO)
    await svc.start(g.id, ALICE)
    await svc.cancel(g.id, ALICE)
    await refused("common.error.game_cancelled", svc.act(g.id, ALICE.user_id, {"type": "roll"}))
    g = await lobby(svc, BRUNO, options={"target": 50})
    await svc.start(g.id, ALICE)
    while (g := await svc.get(g.id)).status == "running":
        (seat,) = svc.expected_seats(g)
        uid = g.seats[seat].user_id
        state = svc.engine("ludix").from_dict(g.state)
        await svc.act(g.id, uid, svc.engine("ludix").ai_action(state, seat, 2))
    await refused("common.error.game_finished", svc.act(g.id, ALICE.user_id, {"type": "roll"}))
    results = await svc.store.results(g.id)
    assert sorted(r.user_id for r in results) == [ALICE.user_id, BRUNO.user_id]
    assert min(r.rank for r in results) == 1


async def test_double_click_applies_one_move(svc):
    g = await lobby(svc, BRUNO)
    out = await svc.start(g.id, ALICE)
    v = out.game.version
    results = await asyncio.gather(*[svc.act(g.id, ALICE.user_id, {"type": "roll"}, version=v) for _ in range(4)],
                                   return_exceptions=True)
    ok = [r for r in results if not isinstance(r, Exception)]
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(ok) == 1
    assert all(isinstance(e, SessionError) and e.key == "common.error.already_played" for e in errors)
    assert len(await svc.store.events(g.id)) == 1


async def test_expected_seats_follow_the_row_s_own_state(svc):
    """The seats expected by a row are kept per (game, version) with the very state they were read
    from: the same row asks again for free, and a row of the same version with another state (a
    move staged before its commit, another process's commit) is read anew, never answered from the
    first."""
    import dataclasses

    g = await lobby(svc, BRUNO)
    row = (await svc.start(g.id, ALICE)).game
    first = svc.expected_seats(row)
    assert len(first) == 1
    first.add(99)  # the caller's set is its own
    assert svc.expected_seats(row) == first - {99}
    engine = svc.engine(row.kind)
    state = engine.from_dict(row.state)
    other = next(s for s in range(2) if s not in first)
    staged = dataclasses.replace(row, state={**row.state, "current": other})
    assert engine.expected(engine.from_dict(staged.state)) == {other} != engine.expected(state)
    assert svc.expected_seats(staged) == {other}
    assert svc.expected_seats(row) == first - {99}


async def test_two_services_on_one_file_apply_one_move(db_url):
    a, b = open_store(db_url), open_store(db_url)
    await a.open()
    await b.open()
    sa, sb = SessionService(a), SessionService(b)
    g = await sa.open_lobby("ludix", guild_id=1, channel_id=10, player=ALICE)
    await sa.join(g.id, BRUNO)
    out = await sa.start(g.id, ALICE)
    v = out.game.version
    res = await asyncio.gather(sa.act(g.id, ALICE.user_id, {"type": "roll"}, version=v),
                               sb.act(g.id, ALICE.user_id, {"type": "roll"}, version=v), return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in res) == 1
    assert len(await a.events(g.id)) == 1
    await a.close()
    await b.close()


async def test_ai_seats_play_their_turns_and_never_rank_as_users(svc):
    g = await svc.open_lobby("ludix", guild_id=1, channel_id=10, player=ALICE, ai_seats=2, options={"target": 50})
    assert [s.is_ai for s in g.seats] == [False, True, True]
    out = await svc.start(g.id, ALICE)
    while out.game.status == "running":
        assert svc.expected_seats(out.game) == {0}
        state = svc.engine("ludix").from_dict(out.game.state)
        out = await svc.act(g.id, ALICE.user_id, svc.engine("ludix").ai_action(state, 0, 2))
    events = await svc.store.events(g.id)
    assert {e.seat for e in events} == {0, 1, 2}
    assert all(e.user_id is None for e in events if e.seat != 0)


async def test_game_survives_a_restart(db_url):
    s1 = open_store(db_url)
    await s1.open()
    svc = SessionService(s1)
    g = await svc.open_lobby("ludix", guild_id=1, channel_id=10, player=ALICE)
    await svc.join(g.id, BRUNO)
    await svc.start(g.id, ALICE)
    out = await svc.act(g.id, ALICE.user_id, {"type": "roll"})
    await s1.close()
    s2 = open_store(db_url)
    await s2.open()
    svc2 = SessionService(s2)
    again = await svc2.get(g.id)
    assert again.state == out.game.state and again.version == out.game.version
    (seat,) = svc2.expected_seats(again)
    after = await svc2.act(g.id, again.seats[seat].user_id, {"type": "roll"}, version=again.version)
    assert after.game.version == again.version + 1
    await s2.close()


async def test_find_by_channel_and_ambiguity(svc):
    await refused("common.error.no_game_here", svc.find(channel_id=10, guild_id=1, kind="ludix"))
    g1 = await lobby(svc, BRUNO)
    assert (await svc.find(channel_id=10, guild_id=1, kind="ludix")).id == g1.id
    g2 = await svc.open_lobby("ludix", guild_id=1, channel_id=10, player=CHLOE)
    assert (await svc.find(channel_id=10, guild_id=1, kind="ludix", user_id=CHLOE.user_id)).id == g2.id
    err = await refused("common.error.ambiguous", svc.find(channel_id=10, guild_id=1, kind="ludix", user_id=999))
    french = i18n.t(err.key, "fr", **err.params)
    assert f"n°{g1.id} (Alice, Bruno, en attente de joueurs), n°{g2.id} (Chloé, en attente de joueurs)" in french, french
    assert "#" not in french
    english = i18n.t(err.key, "en", **err.params)
    assert f"#{g1.id} (Alice, Bruno, waiting for players), #{g2.id} (Chloé, waiting for players)" in english, english
    assert (await svc.find(channel_id=10, guild_id=1, kind="ludix", game_id=g2.id)).id == g2.id


async def test_bad_options_never_create_a_game(svc):
    await refused("common.error.bad_option", svc.open_lobby("ludix", guild_id=1, channel_id=10, player=ALICE,
                                                            options={"target": 5}))
    assert await svc.store.games_in_channel(10) == []


async def test_table_settings_are_kept_refused_when_unknown_and_copied_by_a_rematch(svc, store):
    g = await lobby(svc, BRUNO, pace="lent", thread=True)
    assert (await store.get_game(g.id)).settings == {"pace": "lent", "thread": True}
    plain = await svc.open_lobby("ludix", guild_id=1, channel_id=11, player=ALICE)
    assert plain.settings == {}  # the server's defaults apply when the game starts
    await refused("common.error.bad_pace", svc.open_lobby("ludix", guild_id=1, channel_id=12, player=ALICE,
                                                         pace="turbo"))
    out = await svc.start(g.id, ALICE)
    while out.game.status == "running":
        out = await svc.forfeit(g.id, 0, reason="resign", version=out.game.version)
    again, fresh = await svc.rematch(g.id, BRUNO)
    assert fresh and again.settings == {"pace": "lent", "thread": True}


def biggest_first(engine, state, seat):
    """The legal move covering the most cells (the lowest first): a kallax full in 8 rounds with seed 3."""
    def key(action):
        size = len(engine.action_cells(state, seat, action)) if action["type"] != "pass" else 0
        return size, -int(action.get("cell", "A9")[1:])
    return max(engine.legal_actions(state, seat), key=key)


async def test_a_full_kallax_passes_its_rounds_by_itself(store):
    svc = SessionService(store, seed_source=lambda: 3)
    g = await svc.open_lobby("ranta", guild_id=1, channel_id=10, player=ALICE, options={"mode": "classique"})
    g = await svc.join(g.id, BRUNO)
    out = await svc.start(g.id, ALICE)
    engine = svc.engine("ranta")
    full_in = None  # the round Alice's last cell was filled in
    while out.game.status == "running":
        state = engine.from_dict(out.game.state)
        if full_in is not None:
            assert 0 not in engine.expected(state)  # Alice is never waited for once full...
            assert 0 not in out.newly_expected  # ...nor pinged
        if 0 in engine.expected(state):
            out = await svc.act(g.id, ALICE.user_id, biggest_first(engine, state, 0))
            if sum(len(it.cells) for it in engine.from_dict(out.game.state).sheets[0]) == 36:
                full_in = state.round_no
        else:
            out = await svc.act(g.id, BRUNO.user_id, engine.default_action(state, 1))
    assert full_in is not None and full_in < 12
    passes = [e for e in await svc.store.events(g.id) if e.seat == 0 and e.action.get("type") == "pass"]
    assert len(passes) == 12 - full_in  # every later round passes by itself, once
    assert all(e.action.get("_by") == "auto" and e.user_id is None for e in passes)
    assert out.game.status == "finished"
