"""A database that cannot be written (issue 36): a full disk or a read-only file or server is told to
the player as such (nothing saved, nothing changed), flagged in /healthz and the metrics until a
write goes through again, and logged once a minute — not « erreur interne » on every move."""

from __future__ import annotations

import errno
import logging
import sqlite3
from types import SimpleNamespace

import discord
import pytest

from bot import metrics
from bot.metrics import MetricsServer
from bot.sessions import Player, SessionService
from bot.storage import SQLiteStore
from bot.storage.faults import FAULTS, FULL, READONLY, StorageFaults, unwritable
from bot.ui import refuse_unwritable

ALICE, BRUNO = Player(1, "Alice"), Player(2, "Bruno")


class PgError(Exception):
    """As psycopg's errors: the SQLSTATE on the exception."""

    def __init__(self, sqlstate: str) -> None:
        super().__init__(f"pg {sqlstate}")
        self.sqlstate = sqlstate


@pytest.fixture(autouse=True)
def clean_faults():
    FAULTS.reason, FAULTS.refused = None, {FULL: 0, READONLY: 0}
    yield
    FAULTS.reason, FAULTS.refused = None, {FULL: 0, READONLY: 0}


def test_the_errors_of_a_database_that_cannot_write_are_told_apart():
    assert unwritable(sqlite3.OperationalError("database or disk is full")) == FULL
    assert unwritable(sqlite3.OperationalError("attempt to write a readonly database")) == READONLY
    assert unwritable(PgError("53100")) == FULL and unwritable(PgError("25006")) == READONLY
    assert unwritable(OSError(errno.ENOSPC, "No space left on device")) == FULL
    assert unwritable(OSError(errno.EROFS, "Read-only file system")) == READONLY
    wrapped = discord.app_commands.CommandInvokeError.__new__(discord.app_commands.CommandInvokeError)
    wrapped.original = sqlite3.OperationalError("database or disk is full")
    assert unwritable(wrapped) == FULL  # a command's error carries it as its original
    try:
        try:
            raise PgError("25006")
        except PgError as inner:
            raise RuntimeError("the move failed") from inner
    except RuntimeError as outer:
        assert unwritable(outer) == READONLY
    # anything else is a bug, told as such
    for other in (sqlite3.OperationalError("database is locked"), PgError("23505"), ValueError("x"),
                  OSError(errno.ENOENT, "gone"), None):
        assert unwritable(other) is None


def test_it_is_logged_once_a_minute_while_it_lasts(caplog):
    now = [0.0]
    faults = StorageFaults(clock=lambda: now[0])
    with caplog.at_level(logging.ERROR, logger="ludibot.storage"):
        for _ in range(30):  # a full disk refuses every move
            faults.record(FULL)
            now[0] += 3
        assert len([r for r in caplog.records if "cannot be written" in r.getMessage()]) == 2  # at 0 s and 60 s
    assert faults.refused[FULL] == 30 and not faults.writable
    assert "19 more refused" in caplog.records[-1].getMessage()
    faults.recovered()
    assert faults.writable


class Response:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, **kwargs):
        self.sent.append(kwargs)


async def test_a_move_on_a_full_disk_changes_nothing_and_the_player_is_told_so(tmp_path):
    store = SQLiteStore(str(tmp_path / "db"))
    await store.open()
    try:
        sessions = SessionService(store)
        lobby = await sessions.open_lobby("ludix", guild_id=5, channel_id=50, player=ALICE)
        await sessions.join(lobby.id, BRUNO)
        game = (await sessions.start(lobby.id, ALICE)).game
        seat = next(iter(sessions.expected_seats(game)))

        async def full(*args, **kwargs):
            raise sqlite3.OperationalError("database or disk is full")

        store.commit_action = full  # type: ignore[method-assign]
        with pytest.raises(sqlite3.OperationalError) as err:
            await sessions.act(game.id, game.seats[seat].user_id, {"type": "roll"})
        after = await store.get_game(game.id)
        assert after.version == game.version and after.state == game.state  # nothing changed
        interaction = SimpleNamespace(locale=discord.Locale("fr"), response=Response())
        assert await refuse_unwritable(interaction, err.value)
        (sent,) = interaction.response.sent
        assert sent["ephemeral"] and sent["content"].startswith(
            "Le bot ne peut pas enregistrer pour l'instant\u00a0: rien n'a changé.")
        assert "erreur interne" not in sent["content"] and FAULTS.reason == FULL and FAULTS.refused[FULL] == 1
        english = SimpleNamespace(locale=discord.Locale("en-US"), response=Response())
        await refuse_unwritable(english, err.value)
        assert english.response.sent[0]["content"].startswith("The bot cannot save anything right now: nothing changed.")
        assert not await refuse_unwritable(interaction, ValueError("a bug"))  # told as an internal error
    finally:
        await store.close()


class HealthStore:
    def __init__(self) -> None:
        self.fail: BaseException | None = sqlite3.OperationalError("attempt to write a readonly database")
        self.writes = 0

    async def healthy(self) -> bool:
        return True  # it still reads

    async def set_meta(self, key: str, value: str) -> None:
        self.writes += 1
        if self.fail is not None:
            raise self.fail

    async def count_running(self):
        return {}


async def test_healthz_and_the_metrics_flag_it_until_a_write_goes_through():
    store = HealthStore()
    bot = SimpleNamespace(store=store, shard_ids=[0], shard_count=1, is_ready=lambda: True, shards={})
    bot.shards[0] = SimpleNamespace(is_closed=lambda: False, latency=0.05)
    server = MetricsServer(bot, "127.0.0.1", 0)
    report = await server.health()
    assert report["ok"] and report["writable"] and store.writes == 0  # no fault seen: no write to check
    FAULTS.record(READONLY)
    FAULTS.record(READONLY)
    report = await server.health()
    assert not report["ok"] and report["database"] and not report["writable"]
    assert report["reason"] == "database not writable: readonly" and store.writes == 1
    assert metrics.storage_writable._value.get() == 0
    refused = metrics.storage_refused.labels(reason="readonly")._value.get()
    await server.refresh()
    assert metrics.storage_refused.labels(reason="readonly")._value.get() == refused  # counted once
    FAULTS.record(READONLY)
    server.refresh_storage()
    assert metrics.storage_refused.labels(reason="readonly")._value.get() == refused + 1
    store.fail = None  # the operator made room / remounted: the next check writes, and it is over
    report = await server.health()
    assert report["ok"] and report["writable"] and "reason" not in report and FAULTS.writable
    assert metrics.storage_writable._value.get() == 1
