"""The board as a Discord Activity (issue 35), against its budgets, through the real bot process (its render
pool) and the fake Discord, over the Activity's HTTP API and sockets as the page uses them.

One command measures every budget of the issue:

(c) **size**: every file of ``activity/dist``, gzipped (level 6, what an HTTPS proxy sends) ≤ 150 KiB;
(a) **touch → targets ≤ 100 ms and preview ≤ 300 ms at p95, with 50 pages open on the process**: 50 users
    each open the board (a token, the instance, a socket subscribed to the channel); ``PLAYERS`` of them each
    play a Take it to the Limit solo game by touch (the targets, a cell, its preview, the move) at one move
    per ``PACE`` seconds; every page that shows the moved game reads its new version (as the page does on a
    socket frame). A floor is timed in the same seconds: ``GET /api/config`` (no Discord call, no game) on the
    same process, so the load's share is visible;
(b) **500 open pages on one process**: 500 sockets (100 users × 5, the per-user cap), then moves: every
    socket must receive each move's frame; the time from the move sent to the last frame, and the bot's RSS
    before and after;
(d) **first board shown ≤ 2 s with Chromium's CPU throttled 4×**: the fake Discord's client page at phone size,
    the Activity framed in it, from the navigation to the table's picture displayed; median of ``RUNS``
    fresh browser contexts, and the same unthrottled as the reference.

Run: ``.venv/bin/python -m bench.bench_activity`` (``--quick``: fewer moves and runs). The load average is
printed beside each part: the machine is shared. The exit status is 1 when a budget is missed.
"""

from __future__ import annotations

import asyncio
import gzip
import os
import shutil
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

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "activity" / "dist"
KIB = 1024
#: the issue's budgets
BUDGETS = {"targets": 100.0, "preview": 300.0, "size": 150 * KIB, "first board": 2000.0, "fan-out": 1000.0}
PAGES, PLAYERS, PACE = 50, 10, 2.0
SOCKETS, PER_USER = 500, 5
RUNS, THROTTLE = 5, 4


def verdict(what: str, value: float, budget: float, unit: str = "ms") -> str:
    """One line: ``ok`` or ``OVER BUDGET``, the figure and its budget (the figure ≤ the budget passes)."""
    word = "ok" if value <= budget else "OVER BUDGET"
    return f"- {word}: {what} {value:.1f} {unit} (budget ≤ {budget:.0f} {unit})"


def load() -> str:
    return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def rss_mb(pid: int) -> float:
    """The resident memory of a process, MB (``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


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

    async def games(self):
        return (await self.call("GET", f"/api/games?instance_id={self.instance}"))["games"]

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

    async def socket(self) -> aiohttp.ClientWebSocketResponse:
        """The page's socket: its first frame says who it is; the server's hello comes back."""
        ws = await self.http.ws_connect(self.base + "/api/socket", heartbeat=None)
        await ws.send_json({"token": self.token, "instance_id": self.instance})
        hello = await ws.receive_json(timeout=30)
        if "hello" not in hello:
            raise RuntimeError(f"socket refused: {hello}")
        return ws


def token_of(fake: FakeDiscord, user) -> str:
    """The SDK's authorize then the code's exchange, at the fake Discord itself (the bot's ``/api/token`` does
    the same call, but limits each address to 10 exchanges in 10 s, and every bench page has one address)."""
    code = fake.authorize_activity(user)
    body = f"client_id={fake.activities.app_id}&client_secret={fake.activities.client_secret}" \
           f"&grant_type=authorization_code&code={code}".encode()
    return fake.activities.exchange(body, "application/x-www-form-urlencoded", None)["access_token"]


def page_of(fake, http, base, user, channel: str = "jeux") -> Page:
    return Page(http, base, token_of(fake, user), fake.launch_activity(user, channel))


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


# --- (c) the page's size ---------------------------------------------------------------------------------
def page_size() -> tuple[list[str], int]:
    rows, total = [], 0
    for path in sorted(p for p in DIST.rglob("*") if p.is_file()):
        raw = path.read_bytes()
        packed = len(gzip.compress(raw, compresslevel=6))
        total += packed
        rows.append(f"| {path.relative_to(DIST)} | {len(raw) / KIB:.1f} | {packed / KIB:.1f} |")
    return rows, total


# --- the reference: one page alone on the process ---------------------------------------------------------
async def alone(fake, http, base, user, moves: int) -> dict[str, list[float]]:
    """One player, one page, nothing else asked of the process: the same kind of moves, in the
    minutes just before the 50 pages, one move a second (what the load alone makes of them)."""
    page = page_of(fake, http, base, user, "seul")
    await fake.run_command(user, "seul", "limit start", plateau="nexus", solo=True)
    game_id = (await page.games())[0]["id"]
    for k in range(moves):
        start = time.monotonic()
        game = await page.game(game_id)
        if game["status"] != "running":
            break
        await play_one(page, game, lambda targets, k=k: targets[(k * 7) % len(targets)])
        await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - start)))  # within the per-user rate limit
    return page.samples


# --- (a) touch and preview with 50 pages open ------------------------------------------------------------
async def fifty_pages(fake, http, base, users, moves: int) -> tuple[dict[str, list[float]], list[str]]:
    pages = [page_of(fake, http, base, u) for u in users[:PAGES]]
    players = pages[:PLAYERS]
    games = []
    for n, page in enumerate(players):
        await fake.run_command(users[n], "jeux", "limit start", plateau="nexus", solo=True)
        mine = [g for g in await page.games() if g["seat"] is not None]
        games.append(max(g["id"] for g in mine))
    sockets = [await p.socket() for p in pages]
    shown = {id(p): games[n % PLAYERS] for n, p in enumerate(pages)}  # the game each page shows
    frames = 0
    stop = asyncio.Event()

    async def follow(page: Page, ws) -> None:  # a frame of the shown game: the page reads its new version
        nonlocal frames
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            frame = msg.json()
            frames += 1
            if frame.get("game") == shown[id(page)]:
                await page.game(frame["game"])

    async def floor(samples: list[float]) -> None:
        while not stop.is_set():
            start = time.perf_counter()
            async with http.get(base + "/api/config?lang=fr") as r:
                await r.read()
            samples.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(0.1)

    async def player(n: int, page: Page) -> None:
        await asyncio.sleep(n * PACE / PLAYERS)  # spread evenly
        for k in range(moves):
            start = time.monotonic()
            game = await page.game(games[n])
            if game["status"] != "running":
                return
            await play_one(page, game, lambda targets, k=k: targets[(k * 7 + n) % len(targets)])
            await asyncio.sleep(max(0.0, PACE - (time.monotonic() - start)))

    followers = [asyncio.create_task(follow(p, ws)) for p, ws in zip(pages, sockets, strict=True)]
    floor_samples: list[float] = []
    floor_task = asyncio.create_task(floor(floor_samples))
    loads = [os.getloadavg()[0]]
    logged = len(fake.request_log)
    started = time.monotonic()
    await asyncio.gather(*(player(n, p) for n, p in enumerate(players)))
    elapsed = time.monotonic() - started
    loads.append(os.getloadavg()[0])
    stop.set()
    await floor_task
    for ws in sockets:
        await ws.close()
    await asyncio.gather(*followers, return_exceptions=True)
    samples: dict[str, list[float]] = defaultdict(list)
    for p in players:
        for name, values in p.samples.items():
            samples[name] += values
    samples["floor: GET /api/config"] = floor_samples
    made = len(samples["preview"])
    posted = [r for r in list(fake.request_log)[logged:] if r.file_bytes]
    notes = [f"({PAGES} pages open, {PLAYERS} playing: {made} moves in {elapsed:.0f} s = {made / elapsed:.1f} moves/s, "
             f"{len(samples['targets']) / elapsed:.1f} touches/s; {frames} socket frames received; the channel's cards "
             f"meanwhile: {len(posted)} requests with pictures, {sum(r.file_bytes for r in posted) / KIB:.0f} KiB; "
             f"load average {min(loads):.1f}–{max(loads):.1f} on {os.cpu_count()} cores)"]
    return samples, notes


def render_reference(repeat: int = 10) -> tuple[float, float]:
    """The preview's picture (a Take it to the Limit board, 8 tiles placed) drawn in this process, in the same
    minutes: (wall p50 ms, CPU p50 ms) — what the machine's load makes of a render by itself."""
    import random

    from cogs.limit.cog import render_labels
    from engines.limit import ENGINE
    from render.limit import render_board

    state, rng = ENGINE.new_game(1, {"plateau": "nexus"}, seed=1), random.Random(1)
    for _ in range(8):
        for seat in sorted(ENGINE.expected(state)):
            state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    view, labels = ENGINE.view(state, 0), render_labels("fr")
    render_board(view, 0, ["P"], labels)  # fonts and tiles loaded
    wall, cpu = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        render_board(view, 0, ["P"], labels)
        wall.append((time.perf_counter() - w) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return statistics.median(wall), statistics.median(cpu)


# --- (b) 500 open pages -----------------------------------------------------------------------------------
async def five_hundred(fake, http, base, users, bot_pid: int, mover: Page, moves: int) -> tuple[list[str], bool]:
    await asyncio.sleep(1.0)  # the 50 pages' sockets closed: the server has counted them out
    before = rss_mb(bot_pid)
    holders = users[:SOCKETS // PER_USER]
    pages = [page_of(fake, http, base, u) for u in holders for _ in range(PER_USER)]
    opened = time.monotonic()
    sockets = []
    for k in range(0, len(pages), 50):  # 50 at a time, as pages would open over a few seconds
        sockets += await asyncio.gather(*(p.socket() for p in pages[k:k + 50]))
    open_s = time.monotonic() - opened
    after = rss_mb(bot_pid)
    game = max((g for g in await mover.games() if g["seat"] is not None and g["status"] == "running"),
               key=lambda g: g["id"])
    lines, worst, complete = [], [], True
    for k in range(moves):
        game = await mover.game(game["id"])
        if game["status"] != "running":
            break
        selected: list[str] = []
        answer = await mover.touch(game, selected, timed=None)
        while not answer["moves"]:
            selected.append(answer["targets"][k % len(answer["targets"])])
            answer = await mover.touch(game, selected, timed=None)
        start = time.perf_counter()
        await mover.move(game, answer["moves"][0]["action"])

        async def first_frame(ws, game_id=game["id"], want=game["version"] + 1, start=start):
            while True:
                frame = await ws.receive_json(timeout=10)
                if frame.get("game") == game_id and frame.get("version", 0) >= want:
                    return (time.perf_counter() - start) * 1000

        got = await asyncio.gather(*(first_frame(ws) for ws in sockets), return_exceptions=True)
        times = [t for t in got if isinstance(t, float)]
        complete &= len(times) == len(sockets)
        worst.append(max(times) if times else float("inf"))
        lines.append(f"| {k + 1} | {len(times)}/{len(sockets)} | {min(times):.0f} | {statistics.median(times):.0f} | "
                     f"{max(times):.0f} |" if times else f"| {k + 1} | 0/{len(sockets)} | – | – | – |")
    during = rss_mb(bot_pid)
    for ws in sockets:
        await ws.close()
    head = ["| move | sockets that received it | first ms | median ms | last ms |", "|---|---|---|---|---|"]
    notes = [f"({len(sockets)} sockets opened in {open_s:.1f} s; bot main process RSS {before:.0f} MB before, "
             f"{after:.0f} MB with them open, {during:.0f} MB after the moves; {load()})",
             verdict(f"every socket received every move's frame: {'yes' if complete else 'NO'}; time to the last one, "
                     "median over the moves:", statistics.median(worst), BUDGETS["fan-out"])]
    return head + lines + notes, complete


# --- (d) first board shown, CPU throttled -----------------------------------------------------------------
async def first_board(fake, user, runs: int) -> dict[int, list[float]]:
    """``user`` opens the Activity in the channel ``table``, where their game is the only one (the page opens
    it at once: their board, their own picture and its hit map)."""
    from playwright.async_api import async_playwright

    await fake.run_command(user, "table", "limit start", plateau="nexus", solo=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    args = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
    out: dict[int, list[float]] = defaultdict(list)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, headless=True, args=args)
        try:
            for _ in range(runs):
                for rate in (THROTTLE, 1):  # each throttled run beside its unthrottled reference
                    context = await browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                                        is_mobile=True, has_touch=True)
                    page = await context.new_page()
                    cdp = await context.new_cdp_session(page)
                    await cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                    start = time.perf_counter()
                    await page.goto(fake.activity_client_url(user, "table"), wait_until="commit")
                    while True:  # polled from outside: the page's CSP forbids eval
                        frame = next((f for f in page.frames if "/_fake/activity/" in f.url), None)
                        if frame is not None:
                            try:
                                if await frame.evaluate("(() => { const i = document.getElementById('board');"
                                                        " return !!(document.body.dataset.version && i && i.complete"
                                                        " && i.naturalWidth > 0); })()"):
                                    break
                            except Exception:  # the frame is still navigating
                                pass
                        if time.perf_counter() - start > 30:
                            raise RuntimeError("the board never showed")
                        await asyncio.sleep(0.02)
                    out[rate].append((time.perf_counter() - start) * 1000)
                    await context.close()
        finally:
            await browser.close()
    return out


async def main(quick: bool) -> int:
    over: list[str] = []

    def judge(line: str) -> None:
        print(line)
        if "OVER BUDGET" in line:
            over.append(line)

    print(f"## (c) The page's size ({load()})\n\n| file | KiB | KiB gzipped |\n|---|---|---|")
    if not (DIST / "index.html").exists():
        print("activity/dist is not built: run `make activity`")
        return 1
    rows, total = page_size()
    print("\n".join(rows))
    judge(verdict("the page, every file gzipped:", total / KIB, BUDGETS["size"] / KIB, "KiB"))

    tmp = Path(tempfile.mkdtemp(prefix="ludibot-bench-activity-"))
    fake = FakeDiscord(guild_name="Bench", channels=["jeux", "table", "seul"], settle=0.02, timeout=30)
    users = [fake.add_user(f"P{n:03d}", locale="fr") for n in range(max(PAGES, SOCKETS // PER_USER))]
    await fake.start()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {"DISCORD_CLIENT_SECRET": fake.enable_activities(), "LUDIBOT_ACTIVITY_PORT": str(port)}
    bot = await start_bot(fake, tmp, extra_env=env)
    base = f"http://127.0.0.1:{port}"
    fake.map_activity(base)
    try:
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            print(f"\n## (a) Touch → targets and preview, {PAGES} pages open on one process\n")
            reference = await alone(fake, http, base, users[-1], 6 if quick else 20)
            ref_load = load()
            samples, notes = await fifty_pages(fake, http, base, users, 4 if quick else 12)
            floor = samples["floor: GET /api/config"]
            print("| what | n | p50 ms | p95 ms | max ms | p95 × floor |\n|---|---|---|---|---|---|")
            for name, values in samples.items():
                p95 = percentile(values, 95)
                print(f"| {name} | {len(values)} | {statistics.median(values):.1f} | {p95:.1f} | {max(values):.1f} | "
                      f"{p95 / percentile(floor, 95):.1f} |")
            for name, values in reference.items():
                print(f"| reference: {name}, one page alone, just before | {len(values)} | {statistics.median(values):.1f} | "
                      f"{percentile(values, 95):.1f} | {max(values):.1f} | – |")
            print("\n".join(notes))
            print(f"(the reference alone: one move a second, {ref_load})")
            wall, cpu = render_reference()
            print(f"(reference right after: the preview's picture drawn in the bench's own process takes {wall:.0f} ms, "
                  f"{cpu:.0f} ms of CPU; {load()})")
            for name in ("targets", "preview"):
                judge(verdict(f"{name} p95", percentile(samples[name], 95), BUDGETS[name]))

            print(f"\n## (b) {SOCKETS} open pages on one process\n")
            lines, _ = await five_hundred(fake, http, base, users, bot.proc.pid, page_of(fake, http, base, users[0]),
                                          3 if quick else 8)
            for line in lines:
                (judge if line.startswith("- ") else print)(line)

        print(f"\n## (d) First board shown, Chromium at phone size, CPU throttled {THROTTLE}×\n")
        shown = await first_board(fake, users[0], 2 if quick else RUNS)
        print("| CPU | runs | median ms | each run ms |\n|---|---|---|---|")
        for rate, values in shown.items():
            print(f"| {'throttled ' + str(rate) + '×' if rate > 1 else 'unthrottled (reference)'} | {len(values)} | "
                  f"{statistics.median(values):.0f} | {', '.join(f'{v:.0f}' for v in values)} |")
        print(f"({load()})")
        judge(verdict(f"first board shown, CPU throttled {THROTTLE}×, median", statistics.median(shown[THROTTLE]),
                      BUDGETS["first board"]))
    finally:
        bot.stop()
        await fake.stop()
    print("\n" + ("\n".join(over) if over else "- every budget met"))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main("--quick" in sys.argv)))
