"""Replays (issue 27): the animated summary of the longest game of each kind, and the viewer's clicks.

Run: ``.venv/bin/python -m bench.bench_replay [clicks]`` (or ``make bench``).

1. **The animation.** For each of the seven games, its longest game (``tests/replay_games.LONGEST``:
   Limit with 44 tiles, Ludime over three rounds, Armada over two rounds, a 7-player Lutinades…) is
   played through the session service on a scratch database, replayed, and its animated summary
   drawn by one render worker (``RenderPool(1)``, as the bot does): the worker's CPU for the job
   (``RenderPool.worker_cpu``), the file's size and frames. It is drawn twice by two fresh services:
   the bytes must be identical. Budgets: ≤ 1.5 s CPU in the worker, ≤ 8 MiB.
2. **The viewer.** A 4-player Limit game (177 positions) is written to the real bot's database
   before it starts; through the fake Discord, ``/historique`` opens the viewer, then ``clicks``
   clicks ◀ ▶ ⏮ ⏭ and round jumps, each edits the message in place. Budget: p99 ≤ 150 ms (Discord's
   answer time, from the click sent to the callback received); ``/historique`` itself (the first
   replay and picture of the game) ≤ 1 s.

The run fails when a row has fewer samples than it claims, when the re-rendered bytes differ, or
when a budget is missed.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

from bench.common import MeasuredNothing, Timings, report
from bot.community.replay import ReplayService, frame_order
from bot.render_pool import RenderPool
from bot.sessions import Player, SessionService
from bot.storage import SQLiteStore
from fakediscord import FakeDiscord
from render.animation import shown_of
from tests.e2e.harness import start_bot
from tests.replay_games import LONGEST, game_cogs, play

CPU_BUDGET_S = 1.5
SIZE_BUDGET = 8 * 1024 * 1024
CLICK_BUDGET_MS = 150.0
#: ``/historique`` itself: the first replay of the game and its first picture (its animation follows)
COMMAND_BUDGET_MS = 1000.0


async def animations() -> tuple[str, list[str]]:
    """The animation table and the budgets missed."""
    tmp = Path(tempfile.mkdtemp(prefix="ludibot-bench-replay-"))
    store = SQLiteStore(str(tmp / "games.db"))
    await store.open()
    pool = RenderPool(1)
    await pool.start()
    if not pool.uses_processes:
        raise MeasuredNothing("the render worker did not start: the CPU would be measured in a thread")
    svc = SessionService(store, seed_source=lambda: 4242)
    bot = SimpleNamespace(store=store, sessions=svc, render_pool=pool, game_cogs=game_cogs(svc))
    lines = ["### Animated summary of the longest game of each kind (one render worker)", "",
             "| game | players | positions | rounds | frames | format | size | CPU in the worker | identical bytes |",
             "|---|---|---|---|---|---|---|---|---|"]
    over: list[str] = []
    try:
        for kind, (players, options) in LONGEST.items():
            game = await play(svc, kind, players, options)
            service = ReplayService(bot)
            item = await service.get(game)
            cpu0 = pool.worker_cpu
            first = await service.summary(game, "fr")
            cpu = pool.worker_cpu - cpu0
            again = await ReplayService(bot).summary(game, "fr")
            if first is None or again is None:
                raise MeasuredNothing(f"{kind}: no animation")
            same = first.data == again.data
            # the product's rule: every position of frame_order, or fewer, evenly spread, when the pictures
            # are tall (render.animation.shown: the frames hold at most MAX_PIXELS)
            job = service.animation_job(game, item, "fr", [], "")
            frames = len(shown_of(*job.args[:2], max_pixels=job.kwargs.get("max_pixels")))
            if first.frames != frames:
                raise MeasuredNothing(f"{kind}: {first.frames} frames where {frames} of its "
                                      f"{len(frame_order(item))} positions should be shown")
            lines.append(f"| {kind} | {players} | {len(item)} | {len(item.groups())} | {frames} | {first.ext} "
                         f"| {len(first.data) / 1024:.0f} KiB | {cpu:.2f} s | {'yes' if same else '**no**'} |")
            if cpu > CPU_BUDGET_S:
                over.append(f"- OVER BUDGET: {kind} animation: {cpu:.2f} s CPU > {CPU_BUDGET_S} s")
            if len(first.data) > SIZE_BUDGET:
                over.append(f"- OVER BUDGET: {kind} animation: {len(first.data)} bytes > 8 MiB")
            if not same:
                over.append(f"- {kind}: re-rendering gave other bytes")
    finally:
        await pool.close()
        await store.close()
    return "\n".join(lines), over


async def viewer_clicks(clicks: int, t: Timings) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="ludibot-bench-replay-"))
    fake = FakeDiscord(guild_name="Bench", channels=["jeux"], settle=0.02, timeout=30)
    users = [fake.add_user(name, locale="fr") for name in ("Alice", "Bruno", "Chloé", "Dave")]
    await fake.start()
    # the game is written to the bot's database before the bot starts (as a game of a previous run)
    store = SQLiteStore(str(tmp / "ludibot.db"))
    await store.open()
    svc = SessionService(store, seed_source=lambda: 4242)
    people = [Player(u.id, u.name, guild_id=fake.guild_id) for u in users]
    game = await play(svc, "limit", 4, {}, humans=4, guild_id=fake.guild_id,
                      channel_id=fake.channel("jeux").id, people=people)
    await store.close()
    bot = await start_bot(fake, tmp)
    try:
        viewer_user = users[2]
        res = t.record("/historique (first: replay + picture)", await fake.run_command(viewer_user, "jeux", "historique",
                                                                        partie=game.id))
        viewer = res.message
        if viewer is None or not viewer.buttons:
            raise MeasuredNothing(f"/historique gave no viewer: {res.content!r}")
        await asyncio.sleep(3)  # the journal and the animation follow the viewer (one worker, a second or two)
        for user in users:  # the game replayed once: the next openings read it from the cache
            t.record("/historique (replay cached)", await fake.run_command(user, "jeux", "historique",
                                                                             partie=game.id))
        await asyncio.sleep(3)
        rng = random.Random(27)
        for i in range(clicks):
            current = fake.message_by_id[viewer.id]
            # by the verb of each button (first, prev, next, last): their labels follow the game's step
            # (« Tuile suivante » for Limit, « Coup suivant » elsewhere)
            enabled = {b["custom_id"].rsplit(":", 1)[-1]: b["custom_id"] for b in current.buttons
                       if not b.get("disabled")}
            if i % 10 == 9 and current.selects:
                option = rng.choice(current.selects[0]["options"])
                t.record("viewer: round select", await fake.select(viewer_user, viewer, [option["value"]]))
                continue
            if i % 25 == 0:
                verb = rng.choice([v for v in ("first", "last") if v in enabled])
                row = "viewer: ⏮ / ⏭"
            else:
                verb = "prev" if "prev" in enabled and (i // 40) % 2 == 0 else ("next" if "next" in enabled else "prev")
                row = "viewer: ◀ / ▶"
            res = t.record(row, await fake.click(viewer_user, viewer, custom_id=enabled[verb]))
            if res.response_type != 7:
                raise MeasuredNothing(f"a click did not edit the viewer in place: {res.content!r}")
        t.expect("viewer: ◀ / ▶", clicks // 2)
        t.expect("viewer: round select", clicks // 20)
    finally:
        bot.kill()
        await fake.stop()


def main(clicks: int = 200) -> int:
    table, over = asyncio.run(animations())
    print(table)
    print()
    print("\n".join(over) if over else "- every animation within 1.5 s of worker CPU and 8 MiB, same bytes twice")
    print()
    t = Timings()
    asyncio.run(viewer_clicks(clicks, t))
    status = report(t, "Replay viewer (Limit, 4 players, 177 positions): answer time per click",
                    lambda name: COMMAND_BUDGET_MS if name.startswith("/") else CLICK_BUDGET_MS)
    return 1 if over or status else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
