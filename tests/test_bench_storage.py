"""The storage benchmark fills databases with what the store itself would write (so it measures the real
thing): a filled finished game and a running one read back through the Store like the games they copy."""

from __future__ import annotations

import time

from bench.bench_storage import (
    PER_GUILD,
    RUNNING_PER_GUILD,
    check,
    count_finished,
    fill,
    queries,
    rate_guild,
    templates,
)
from bot.storage import FINISHED, RUNNING, SQLiteStore


async def test_the_filled_games_read_back_like_their_templates(tmp_path):
    tpl = await templates()
    store = SQLiteStore(str(tmp_path / "b.db"))
    await store.open()
    await fill(store, tpl, 0, 1, time.time())
    assert await count_finished(store) == PER_GUILD
    guild = 10**15
    running = await store.games_with_status((RUNNING,), guild_id=guild)
    assert len(running) == RUNNING_PER_GUILD
    kinds = sorted(tpl)
    for game_id in (1, 2, PER_GUILD + 1):
        g = await store.get_game(game_id)
        t = tpl[kinds[(game_id - 1) % len(kinds)]][0 if g.status == FINISHED else 1]
        assert (g.kind, g.state, g.version) == (t["game"].kind, t["game"].state, t["game"].version)
        log = await store.events(game_id)
        assert [(e.version, e.action, e.events) for e in log] == [(e.version, e.action, e.events)
                                                                   for e in t["events"]]
    await rate_guild(store, guild)
    calls = await queries(store, guild, tpl)
    for fn in calls.values():
        await fn()
    await store.close()


def test_the_budgets_catch_growth_and_size():
    flat = {c: (1.0, 2.0) for c in ("/profil", "/parties", "/classement", "/historique", "move")}
    rows = [{"backend": "x", "games": 1000, "bytes_per_game": 3000, **flat},
            {"backend": "x", "games": 100000, "bytes_per_game": 3000, **flat, "move": (1.0, 5.5)}]
    assert check(rows) == ["x move: p99 5.50 ms at 100000 vs 2.00 ms at 1000"]
    rows[0]["bytes_per_game"] = 6000
    assert len(check(rows)) == 2
