"""The board as a control: touch → highlighted targets, and the move's preview picture, through the real
bot process (its render pool) and the fake Discord, over the Activity's HTTP API as the page calls it.

A Take it to the Limit solo game (every tile: the targets, a cell touched, its preview, « Confirmer »),
and Tectonic against the bot (the piece, its destination, the preview).
Run: ``.venv/bin/python -m bench.bench_activity [tiles]``. Budgets (issue 35, p95): targets ≤ 100 ms,
preview ≤ 300 ms. The exit status is 1 when a budget is missed.
"""

from __future__ import annotations

import asyncio
import socket
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import aiohttp

from bench.common import percentile
from fakediscord import FakeDiscord
from tests.e2e.harness import start_bot

BUDGETS = {"targets": 100.0, "preview": 300.0}


class Page:
    """What the board's page asks, as it asks it (bearer token, instance id, version)."""

    def __init__(self, http: aiohttp.ClientSession, base: str, token: str, instance: str) -> None:
        self.http, self.base, self.token, self.instance = http, base, token, instance
        self.samples: dict[str, list[float]] = defaultdict(list)

    async def call(self, method: str, path: str, body=None, timed: str | None = None):
        start = time.perf_counter()
        async with self.http.request(method, self.base + path, json=body,
                                     headers={"Authorization": f"Bearer {self.token}"}) as r:
            data = await r.json()
            if r.status != 200:
                raise RuntimeError(f"{method} {path}: {r.status} {data}")
        if timed:
            self.samples[timed].append((time.perf_counter() - start) * 1000)
        return data

    async def game(self, game_id: int):
        return await self.call("GET", f"/api/games/{game_id}?instance_id={self.instance}")

    async def touch(self, game, selected, timed="targets"):
        return await self.call("POST", f"/api/games/{game['id']}/touch",
                               {"instance_id": self.instance, "version": game["version"], "selected": selected}, timed)

    async def preview(self, game, action):
        return await self.call("POST", f"/api/games/{game['id']}/preview",
                               {"instance_id": self.instance, "version": game["version"], "action": action}, "preview")

    async def move(self, game, action):
        return await self.call("POST", f"/api/games/{game['id']}/move",
                               {"instance_id": self.instance, "version": game["version"], "action": action})


async def login(fake, http, base, user) -> Page:
    code = fake.authorize_activity(user)
    async with http.post(base + "/api/token", json={"code": code}) as r:
        token = (await r.json())["access_token"]
    return Page(http, base, token, fake.launch_activity(user, "jeux"))


async def until_turn(page: Page, game_id: int, timeout: float = 30.0):
    start = time.monotonic()
    while True:
        game = await page.game(game_id)
        if game["my_turn"] or game["status"] != "running":
            return game
        if time.monotonic() - start > timeout:
            raise RuntimeError("the bot never gave the turn back")
        await asyncio.sleep(0.05)


async def play_one(page: Page, game, pick) -> None:
    """The targets, the touches ``pick`` chooses one by one, the preview, the move."""
    selected: list[str] = []
    answer = await page.touch(game, selected)
    while not answer["moves"]:
        selected.append(pick(answer["targets"]))
        answer = await page.touch(game, selected)
    action = answer["moves"][0]["action"]
    await page.preview(game, action)
    await page.move(game, action)


async def main(tiles: int) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="ludibot-bench-activity-"))
    fake = FakeDiscord(guild_name="Bench", channels=["jeux"], settle=0.02, timeout=30)
    alice = fake.add_user("Alice", locale="fr")
    await fake.start()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {"DISCORD_CLIENT_SECRET": fake.enable_activities(), "LUDIBOT_ACTIVITY_PORT": str(port)}
    bot = await start_bot(fake, tmp, extra_env=env)
    base = f"http://127.0.0.1:{port}"
    samples: dict[str, list[float]] = defaultdict(list)
    try:
        async with aiohttp.ClientSession() as http:
            page = await login(fake, http, base, alice)
            # Take it to the Limit, solo: every tile by touch
            await fake.run_command(alice, "jeux", "limit start", plateau="nexus", solo=True)
            game_id = (await page.call("GET", f"/api/games?instance_id={page.instance}"))["games"][0]["id"]
            for n in range(tiles):
                game = await page.game(game_id)
                if game["status"] != "running":
                    break
                await play_one(page, game, lambda targets, n=n: targets[(n * 7) % len(targets)])
                await asyncio.sleep(0.4)  # a quick player's pace, within the API's rate limit
            for name, values in page.samples.items():
                samples[f"{name} (Limit)"] += values
            # Tectonic against the bot: the piece, then its destination
            page.samples.clear()
            await fake.run_command(alice, "jeux", "tectonic start", adversaire="bot")
            game_id = max(g["id"] for g in (await page.call("GET", f"/api/games?instance_id={page.instance}"))["games"])
            for n in range(12):
                game = await until_turn(page, game_id)
                if game["status"] != "running":
                    break
                await play_one(page, game, lambda targets, n=n: targets[n % len(targets)])
                await asyncio.sleep(0.1)
            for name, values in page.samples.items():
                samples[f"{name} (Tectonic)"] += values
    finally:
        bot.stop()
        await fake.stop()
    over = []
    print("| what | n | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|")
    for name, values in samples.items():
        p95 = percentile(values, 95)
        print(f"| {name} | {len(values)} | {statistics.median(values):.1f} | {p95:.1f} | {max(values):.1f} |")
        budget = BUDGETS[name.split(" ")[0]]
        if p95 > budget:
            over.append(f"- {name}: p95 {p95:.0f} ms > {budget:.0f} ms")
    print("\n".join(over) if over else "- every budget met (p95)")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 44)))
