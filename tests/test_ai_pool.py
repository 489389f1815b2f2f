"""The AI seats think in the AI pool (issue 37): a worker process of the render pool's kind, off the event
loop and off the bot's interpreter lock; a killed worker is replaced and the move still made; a thread
when there is no process (``LUDIBOT_AI_WORKERS=0``)."""

from __future__ import annotations

import asyncio
import os

import pytest

from bot.render_pool import RenderPool, ai_workers_from_env
from bot.sessions import Player, SessionService
from engines import get
from engines.solo import ai_move

ALICE = Player(100, "Alice")
#: Take it to the Limit, Alice against its top AI (level 2: Monte-Carlo rollouts, ~170 ms of CPU a move,
#: deterministic: its generator is seeded by what the seat sees)
LIMIT = {"plateau": "nexus", "variante": "standard"}
TOP = 2


class Recorder:
    """The session service's ``offload``: the pool's ``run``, each call and its answer recorded."""

    def __init__(self, run) -> None:
        self.run = run
        self.calls: list[tuple[tuple, dict]] = []
        self.running = 0

    async def __call__(self, fn, *args):
        assert fn is ai_move
        self.running += 1
        try:
            answer = await self.run(fn, *args)
        finally:
            self.running -= 1
        self.calls.append((args, answer))
        return answer


async def _ai_game(svc: SessionService, level: int = TOP):
    g = await svc.open_lobby("limit", guild_id=1, channel_id=10, player=ALICE, ai_seats=1, ai_level=level,
                             options=LIMIT)
    assert [s.is_ai for s in g.seats] == [False, True]
    return g, await svc.start(g.id, ALICE)


async def _alice_moves(svc: SessionService, out, moves: int):
    """Alice plays ``moves`` moves (the level-1 AI's), the AI seat answering each through the pool."""
    engine = get("limit")
    for _ in range(moves):
        assert out.game.status == "running"
        assert 0 in svc.expected_seats(out.game)
        state = engine.from_dict(out.game.state)
        out = await svc.act(out.game.id, ALICE.user_id, engine.ai_action(state, 0, 1))
    return out


async def _check_moves(svc: SessionService, game_id: int, recorder: Recorder) -> None:
    """Each answer is exactly what ``ai_action`` returns in this process, and is what the AI seat played."""
    engine = get("limit")
    assert recorder.calls, "the AI seat never thought"
    for (kind, state, seat, level), answer in recorder.calls:
        assert (kind, seat, level) == ("limit", 1, TOP)
        action, cpu = answer
        assert action == engine.ai_action(engine.from_dict(state), seat, level)
        assert 0 < cpu < 2.0  # the top level's budget: 2 s of CPU a move
    played = [e.action for e in await svc.store.events(game_id) if e.seat == 1]
    assert [{k: v for k, v in a.items() if k != "_by"} for a in played] == [a for _, (a, _) in recorder.calls]


def test_ai_workers_from_env():
    assert ai_workers_from_env({}) == 1
    assert ai_workers_from_env({"LUDIBOT_AI_WORKERS": "2"}) == 2
    assert ai_workers_from_env({"LUDIBOT_AI_WORKERS": "0"}) == 0
    assert ai_workers_from_env({"LUDIBOT_AI_WORKERS": "many"}) == 1
    # no process at all asked for: the AI thinks in a thread too, unless its own setting says otherwise
    assert ai_workers_from_env({"LUDIBOT_RENDER_WORKERS": "0"}) == 0
    assert ai_workers_from_env({"LUDIBOT_RENDER_WORKERS": "0", "LUDIBOT_AI_WORKERS": "1"}) == 1


async def test_ai_moves_are_computed_in_the_worker_process(store):
    pool = RenderPool(1, cache_size=0, warm="engines")
    await pool.start()
    try:
        assert pool.uses_processes
        (worker,) = pool._all
        assert worker.proc.pid != os.getpid()
        recorder = Recorder(pool.run)
        svc = SessionService(store, seed_source=lambda: 4321, offload=recorder)
        g, out = await _ai_game(svc)
        out = await _alice_moves(svc, out, 3)
        assert len(recorder.calls) >= 3 and pool.jobs == len(recorder.calls)
        assert pool.worker_cpu > 0  # the CPU was spent in the worker, which reports it with each answer
        await _check_moves(svc, g.id, recorder)
    finally:
        await pool.close()


async def test_a_killed_ai_worker_is_replaced_and_the_move_still_made(store):
    pool = RenderPool(1, cache_size=0, warm="engines")
    await pool.start()
    try:
        recorder = Recorder(pool.run)
        svc = SessionService(store, seed_source=lambda: 4321, offload=recorder)
        g, out = await _ai_game(svc)
        engine = get("limit")
        # killed while it thinks (the job then runs again in its replacement)
        first = pool._all[0]
        state = engine.from_dict(out.game.state)
        move = asyncio.ensure_future(svc.act(g.id, ALICE.user_id, engine.ai_action(state, 0, 1)))
        end = asyncio.get_running_loop().time() + 20
        while not recorder.running and not move.done():
            assert asyncio.get_running_loop().time() < end
            await asyncio.sleep(0.001)
        first.kill()
        out = await asyncio.wait_for(move, 60)
        assert pool.restarts == 1 and pool.uses_processes and first not in pool._all
        # killed while idle: the next move is made all the same, by the next replacement
        pool._all[0].kill()
        await pool._all[0].proc.wait()
        out = await _alice_moves(svc, out, 1)
        assert pool.restarts == 2 and pool.uses_processes
        await _check_moves(svc, g.id, recorder)
    finally:
        await pool.close()


@pytest.mark.parametrize("where", ["default", "no-process pool"])
async def test_the_thread_fallback_still_plays(store, where):
    pool = RenderPool(0, cache_size=0, warm="engines")
    await pool.start()
    assert not pool.uses_processes
    if where == "default":
        svc = SessionService(store, seed_source=lambda: 4321)
        assert svc.offload is asyncio.to_thread
        recorder = Recorder(svc.offload)
    else:
        recorder = Recorder(pool.run)
    svc = SessionService(store, seed_source=lambda: 4321, offload=recorder)
    g, out = await _ai_game(svc)
    await _alice_moves(svc, out, 2)
    assert pool.worker_cpu == 0
    await _check_moves(svc, g.id, recorder)


async def test_the_ai_worker_yields_the_cpu_to_the_bot():
    """An AI worker runs below the bot's priority (niceness 19): a search that takes a core for seconds
    yields it to the commands and pictures that members wait for."""
    pool = RenderPool(1, cache_size=0, warm="engines")
    await pool.start()
    try:
        (worker,) = pool._all
        assert os.getpriority(os.PRIO_PROCESS, worker.proc.pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 19)
    finally:
        await pool.close()
