"""The end-to-end tests that matter most for storage, on PostgreSQL, in every default run: a whole Ludix
game, a SIGKILL and restart with old buttons, the community scheduler (reminders, timeouts, forfeit,
boards and history), and two bot processes (shards 0 and 1) sharing one database, one of them killed
and restarted. The bot process gets ``LUDIBOT_DB=postgresql://…`` (a fresh database on the throwaway
server); the whole e2e suite runs this way with ``LUDIBOT_TEST_BACKEND=postgresql``."""

from __future__ import annotations

import pytest

from tests.e2e.test_community_e2e import (  # noqa: F401 - collected here again, on PostgreSQL
    test_reminders_timeouts_forfeit_then_boards_and_history,
    world,
)
from tests.e2e.test_ludix_e2e import (  # noqa: F401
    test_full_game_between_two_users,
    test_the_game_survives_sigkill_and_old_buttons_still_work,
)
from tests.e2e.test_shards_e2e import (  # noqa: F401 - two processes, shards 0 and 1, one PostgreSQL
    test_two_processes_split_the_shards_and_each_fires_its_own_deadlines,
)

pytestmark = pytest.mark.e2e

#: read by the ``bot_db`` fixture
BACKEND = "postgresql"


async def test_the_bot_really_runs_on_postgresql(world):  # noqa: F811 - the imported fixture
    assert world.bot.db.startswith("postgresql://")
    import psycopg

    async with await psycopg.AsyncConnection.connect(world.bot.db, autocommit=True) as con:
        assert (await (await con.execute("SELECT version FROM ludibot_schema")).fetchone())[0] >= 4
        await world.fake.run_command(world.u.alice, "jeux", "ludix start")
        assert (await (await con.execute("SELECT COUNT(*) FROM games WHERE kind = 'ludix'")).fetchone())[0] == 1
