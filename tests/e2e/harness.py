"""Run the real Ludibot process (``python -m bot``) against the fake Discord.

Used by the end-to-end tests and by the benchmarks. The bot is unmodified: only
its settings point it at the fake (DISCORD_API_BASE / DISCORD_GATEWAY_URL).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bot import i18n
from fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
MENTION = re.compile(r"<@(\d+)>")
#: seconds to wait for what the bot draws in its low-priority worker: an animated summary, and the
#: /historique journal that carries one (2-3 s of CPU, at niceness 10; beside a loaded suite's CPU-bound
#: tests it took over 30 s)
LONG_DRAWING = 120.0
#: settings every bot process gets before its own ``extra_env`` (tests/e2e/conftest.py sets the test
#: run's: one render worker, a bytecode cache); empty for the benchmarks, which run the bot as deployed
TEST_ENV: dict[str, str] = {}


class BotProcess:
    def __init__(self, fake: FakeDiscord, workdir: Path, *, extra_env: dict[str, str] | None = None,
                 db: str | None = None) -> None:
        self.fake = fake
        self.workdir = workdir
        #: LUDIBOT_DB: a SQLite file (default) or a PostgreSQL URL (``bot_db`` fixture, LUDIBOT_TEST_BACKEND)
        self.db = db or str(workdir / "ludibot.db")
        self.log_path = workdir / "bot.log"
        self.extra_env = extra_env or {}
        self.proc: subprocess.Popen | None = None
        #: the bot's clock runs ``offset`` seconds ahead of the wall clock (bot.clock); see advance()
        self.clock_file = workdir / "clock-offset"
        self.offset = 0.0

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LUDIBOT_"))}
        if "PYTHONPYCACHEPREFIX" in TEST_ENV:  # the bot's modules compiled once for the run, not at every start
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.update(TEST_ENV)
        env.update(self.fake.bot_env)
        env.update({"LUDIBOT_DB": str(self.db), "LUDIBOT_DEV_GUILD": str(self.fake.guild_id),
                    "LOG_LEVEL": "INFO", "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1",
                    "LUDIBOT_CLOCK_FILE": str(self.clock_file)})
        env.update(self.extra_env)
        log = open(self.log_path, "a")  # noqa: SIM115 - handed to the child
        self.proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=self.workdir, env=env, stdout=log,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        log.close()

    def advance(self, seconds: float) -> float:
        """Move the bot's clock ``seconds`` forward (it survives a restart: same file); returns the
        offset. Its deadlines fall due at its next poll (``LUDIBOT_SCHEDULER_POLL``)."""
        self.offset += seconds
        tmp = self.clock_file.with_suffix(".tmp")
        tmp.write_text(repr(self.offset))
        os.replace(tmp, self.clock_file)
        return self.offset

    def now(self) -> float:
        """The bot's time now."""
        return time.time() + self.offset

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, like a crash or an OOM kill."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def tracebacks(self) -> list[str]:
        return [line for line in self.log.splitlines() if "Traceback" in line or '"level": "error"' in line]


async def start_bot(fake: FakeDiscord, workdir: Path, **kw: Any) -> BotProcess:
    bot = BotProcess(fake, workdir, **kw)
    bot.start()
    try:
        await fake.wait_ready(timeout=60)
    except BaseException:
        bot.kill()
        print(bot.log)
        raise
    return bot


def text_of(message) -> str:
    """What a message says: its content (a Components V2 card: its text displays, in order)."""
    return message.content or ""


def public_cards(fake, channel: str = "jeux", *, since: int = 0) -> list:
    """Every public message of the bot in ``channel`` (newer than message id ``since``), each checked
    to be a Components V2 card with its text in it (issue 24): no legacy message left."""
    out = []
    for msg in fake.messages(channel):
        if msg.visible_to is not None or msg.kind == "user" or msg.id <= since:
            continue
        assert msg.is_v2, f"a legacy public message: {msg.content[:200]!r}"
        assert msg.content.strip(), msg
        assert not msg.hidden_attachments, f"attachments no component shows: {msg}"
        out.append(msg)
    return out


def assert_card(message, *, pictures: int | None = None):
    """An answer that is a card (issue 36): sent with IS_COMPONENTS_V2 (so no plain ``content``), one
    container with an accent colour and text, every attachment shown by a component (``pictures``:
    that many in its gallery). The message, for chaining."""
    assert message is not None and message.is_v2, f"not a card: {getattr(message, 'content', '')[:200]!r}"
    assert len(message.containers) == 1 and message.accent_color is not None, message.components
    assert message.text_displays and message.text.strip(), message.components
    assert not message.hidden_attachments, f"attachments no component shows: {message.hidden_attachments}"
    if pictures is not None:
        assert len(message.gallery) == pictures, (pictures, message.gallery)
    return message


def check_table_cards(fake, user_ids: list[int], channel: str = "jeux") -> list:
    """A whole game's public messages are cards (see :func:`public_cards`); its turn cards — the ones
    with controls other than Revanche — show the table (a picture) and ping the player(s) to play."""
    cards = public_cards(fake, channel)
    turns = [m for m in cards if m.buttons and "Rejoindre" not in m.button_labels and "Revanche" not in m.button_labels]
    for msg in turns:
        assert msg.accent_color is not None
    pinged = {u for m in cards for u in m.mentioned_user_ids()}  # (the pings were allowed when posted)
    assert set(user_ids) <= pinged, (user_ids, pinged)
    assert any(m.images for m in cards), "no picture in any card"
    return cards


def seat_sections(message) -> list[tuple[str, dict]]:
    """A card's seats (issue 24): each Section's text and its accessory (« Profil », an AI's level)."""
    from fakediscord.models import walk_components

    return [("\n".join(t.get("content", "") for t in c.get("components") or []), c.get("accessory") or {})
            for c in walk_components(message.components) if c.get("type") == 9]


def mentioned(message) -> list[int]:
    """User ids mentioned in the last line of a message's narration (the turn notice): a card's first
    text display, the seats' sections and lists coming after it."""
    displays = getattr(message, "text_displays", None) if getattr(message, "is_v2", False) else None
    text = displays[0] if displays else (message.content or "")
    lines = [line for line in text.splitlines() if line.strip()]
    return [int(x) for x in MENTION.findall(lines[-1])] if lines else []


def last_control(fake: FakeDiscord, channel: str = "jeux"):
    """The latest public message of the bot in the channel that has buttons."""
    for msg in reversed(fake.messages(channel)):
        if msg.visible_to is None and msg.buttons and not msg.deleted:
            return msg
    return None


async def wait_control(fake: FakeDiscord, channel: str = "jeux", *, newer_than=None, timeout: float = 20):
    """Wait for a public message with buttons newer than ``newer_than`` (a message or None)."""
    def newest():
        msg = last_control(fake, channel)
        if msg is None or (newer_than is not None and msg.id <= newer_than.id):
            return None
        return msg

    await fake.wait_until(lambda: newest() is not None, timeout=timeout,
                          what=f"a public message with buttons in #{channel}"
                               + (f" newer than message {newer_than.id}" if newer_than is not None else ""))
    return newest()


async def followed(fake: FakeDiscord, res, clicked, channel: str = "jeux", timeout: float = 20):
    """The public message a click on a turn led to: its follow-up (the next turn, or the game's end).
    The click is answered first by updating its own message (its buttons off), and the follow-up comes
    after: on a loaded machine, later than the fake's settle time, so ``res.message`` may still be the
    clicked message. Then wait for the newer public message."""
    new = res.message
    if new is not None and new.id != clicked.id:
        return new

    def newest():
        for msg in reversed(fake.messages(channel)):
            if msg.visible_to is None and not msg.deleted and msg.id > clicked.id:
                return msg
        return None

    await fake.wait_until(lambda: newest() is not None, timeout=timeout,
                          what=f"a public message in #{channel} newer than message {clicked.id}")
    return newest()


class StateReader:
    """Read-only access to the bot's database, for tests that compute a player's move from the
    real state (the bot stays the only writer): ``async with StateReader(db, engine) as r``."""

    def __init__(self, db, engine) -> None:
        from bot.storage import open_store

        self.store = open_store(str(db))
        self.engine = engine

    async def __aenter__(self) -> StateReader:
        await self.store.open()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.store.close()

    async def game(self, game_id: int):
        game = await self.store.get_game(game_id)
        assert game is not None
        return game

    async def state(self, game_id: int):
        game = await self.game(game_id)
        return game, self.engine.from_dict(game.state)


def read_game_row(db: str, game_id: int):
    """The game as the bot stored it (either backend, archived or not), from code that is not async:
    a short-lived store in a thread of its own."""
    import asyncio
    import concurrent.futures

    from bot.storage import open_store

    async def read():
        store = open_store(str(db))
        await store.open()
        try:
            return await store.get_game(game_id)
        finally:
            await store.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, read()).result()


async def write_position(db: str, game_id: int, engine, state=None):
    """``state`` (an engine state; None: the game's own) written as the game's next version, with whose
    turn it is, in one compare-and-swap as a move of another bot process would be: a position the test
    needs (a rare one, set up with the engine), or a new version a page of this bot has not heard of (on
    SQLite a bot's pages hear only the moves of its own process). The new row."""
    from bot.storage import open_store

    store = open_store(str(db))
    await store.open()
    try:
        game = await store.get_game(game_id)
        state = engine.from_dict(game.state) if state is None else state
        row = await store.commit_action(game.id, game.version, state=engine.to_dict(state), seat=None, user_id=None,
                                        action={"type": "position"}, events=[], expected=engine.expected(state))
        assert row is not None, "the game moved while the test wrote its position"
        return row
    finally:
        await store.close()


@contextlib.asynccontextmanager
async def strict(world):
    """A running world (``world.fake``, ``world.bot``) for a test: on the way out, the fake Discord
    must have collected no validation error (the bot sent nothing Discord would refuse), no emoji
    shown as text, no attachment that no component of its Components V2 card shows; the bot's
    log is printed when the test failed; the bot and the fake are stopped either way."""
    try:
        yield world
        assert world.fake.validation_errors == [], f"Discord would refuse: {world.fake.validation_errors}"
        assert world.fake.broken_emojis == [], f"emojis shown as text: {world.fake.broken_emojis}"
        assert world.fake.broken_command_mentions == [], f"dead command mentions: {world.fake.broken_command_mentions}"
        hidden = [(x.id, a.filename) for x in world.fake.message_by_id.values() for a in x.hidden_attachments]
        assert hidden == [], f"attachments no component of their card shows: {hidden}"
    except BaseException:
        print(world.bot.log[-5000:])
        raise
    finally:
        world.bot.kill()
        await world.fake.stop()


@contextlib.asynccontextmanager
async def one_test(world):
    """One test in a world its module shares (a module-scoped fixture's :func:`strict` world, one bot
    process for the module's tests): ``world.errors()`` and ``world.tracebacks()`` are the fake's
    errors and the bot's tracebacks since this test began; on the way out, :func:`strict`'s checks
    hold for what happened during the test (a failure of an earlier test does not fail this one), and
    the bot's log of the test is printed when it failed."""
    fake, bot = world.fake, world.bot
    errors, refused, emojis, mentions = (len(fake.errors), len(fake.validation_errors), len(fake.broken_emojis),
                                         len(fake.broken_command_mentions))
    tracebacks, log_at = len(bot.tracebacks()), len(bot.log)
    first = max(fake.message_by_id, default=0)
    world.errors = lambda: fake.errors[errors:]
    world.tracebacks = lambda: bot.tracebacks()[tracebacks:]
    try:
        yield world
        assert fake.validation_errors[refused:] == [], f"Discord would refuse: {fake.validation_errors[refused:]}"
        assert fake.broken_emojis[emojis:] == [], f"emojis shown as text: {fake.broken_emojis[emojis:]}"
        assert fake.broken_command_mentions[mentions:] == [], \
            f"dead command mentions: {fake.broken_command_mentions[mentions:]}"
        hidden = [(x.id, a.filename) for x in fake.message_by_id.values() if x.id > first
                  for a in x.hidden_attachments]
        assert hidden == [], f"attachments no component of their card shows: {hidden}"
    except BaseException:
        print(bot.log[log_at:][-5000:])
        raise


_APP_EMOJIS: list[tuple[str, bytes]] = []


def seed_app_emojis(fake: FakeDiscord) -> None:
    """Give the fake's application the emojis the bot makes at its first start (its names and
    pictures, drawn once per test process), as they are in production after that first start: the
    bot then reuses them (its own log says « 52 reused, 0 created ») instead of uploading 52
    pictures at every test's start. The emoji tests start without them (``APP_EMOJIS = False``)."""
    from bot import emojis
    from fakediscord import models
    from render import emoji as pictures

    if not _APP_EMOJIS:
        _APP_EMOJIS.extend((name, pictures.render(kind, key)) for name, (kind, key) in emojis.wanted_names().items())
    for name, data in _APP_EMOJIS:
        e = models.FakeEmoji(id=fake._snowflake(), name=name, data=data, content_type="image/png",
                             user=fake.bot_user.user_payload())
        fake.app_emojis[e.id] = e


@contextlib.asynccontextmanager
async def usual_world(tmp_path: Path, bot_db: str, *, env: dict[str, str] | None = None,
                      activities: bool = False, app_emojis: bool = True):
    """The usual world: the Ludothèque server (channels jeux and autre), Alice, Bruno and Chloé
    (French), Dave (English), Modo (Manage Server), the real bot (with ``env``) on ``bot_db``; strict
    at the end (see :func:`strict`). ``activities``: the application has Activities enabled and the
    bot serves the board on a free port (``world.activity_base``). ``app_emojis``: the application
    already has the bot's emojis (see :func:`seed_app_emojis`); False: the bot's first start ever."""
    import socket
    from types import SimpleNamespace

    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux", "autre"], settle=0.12, timeout=20)
    if app_emojis:
        seed_app_emojis(fake)
    users = SimpleNamespace(
        alice=fake.add_user("Alice", locale="fr"),
        bruno=fake.add_user("Bruno", locale="fr"),
        chloe=fake.add_user("Chloé", locale="fr"),
        dave=fake.add_user("Dave", locale="en-US"),
        modo=fake.add_user("Modo", locale="fr", manage_guild=True),
    )
    await fake.start()
    activity_base = None
    if activities:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        env = {**(env or {}), "DISCORD_CLIENT_SECRET": fake.enable_activities(), "LUDIBOT_ACTIVITY_PORT": str(port)}
        activity_base = f"http://127.0.0.1:{port}"
    bot = await start_bot(fake, tmp_path, extra_env=env, db=bot_db)
    # the texts this process writes to compare with the bot's mention the same commands (issue 25)
    i18n.set_command_ids(command_ids(fake))
    # strict by default: the bot may send nothing that Discord would refuse for its content
    try:
        async with strict(SimpleNamespace(fake=fake, bot=bot, u=users, tmp=tmp_path,
                                          activity_base=activity_base)) as w:
            yield w
    finally:
        i18n.set_command_ids({})


def command_ids(fake: FakeDiscord) -> dict[str, int]:
    """The ids the fake Discord gave the bot's top-level slash commands: what the bot mentions."""
    return {c.name: c.id for c in fake.commands.values() if c.type == 1}
