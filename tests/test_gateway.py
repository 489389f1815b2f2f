"""Gateway: the intents asked, shards of a server, identify pacing, and fatal closes explained."""

from __future__ import annotations

import discord
import pytest

from bot import i18n
from bot.gateway import FATAL_CLOSES, IdentifyGate, fatal_message, intents, shard_of


class _Socket:
    def __init__(self, code: int) -> None:
        self.close_code = code


def closed(code: int, shard: int | None = 0) -> discord.ConnectionClosed:
    return discord.ConnectionClosed(_Socket(code), shard_id=shard)


def test_only_the_guilds_intent():
    i = intents()
    assert i.guilds
    assert i.value == discord.Intents(guilds=True).value
    for name in ("members", "presences", "message_content", "guild_messages", "dm_messages", "guild_typing",
                 "dm_typing", "guild_reactions", "dm_reactions", "voice_states"):
        assert not getattr(i, name), name


def test_the_bot_subscribes_with_those_intents():
    from bot.client import Ludibot
    from bot.config import load_settings

    bot = Ludibot(load_settings(env={"LUDIBOT_SHARD_COUNT": "4", "LUDIBOT_SHARD_IDS": "2-3"}), store=object())
    assert isinstance(bot, discord.AutoShardedClient)
    assert bot.intents.value == intents().value
    assert bot.shard_count == 4 and list(bot.shard_ids) == [2, 3]
    unsharded = Ludibot(load_settings(env={}), store=object())
    assert unsharded.shard_count is None and unsharded.shard_ids is None  # Discord's recommendation


def test_discords_shard_formula():
    # a snowflake's timestamp is above bit 22: the shard depends on it, not on the low bits
    assert shard_of(None, 4) == 0
    assert shard_of(5 << 22, 4) == 1 and shard_of((5 << 22) | 0x3FFFFF, 4) == 1
    assert shard_of(175928847299117063, 2) == (175928847299117063 >> 22) % 2
    assert shard_of(123, 1) == 0


@pytest.mark.parametrize("code", sorted(FATAL_CLOSES))
def test_each_fatal_close_has_its_own_translated_explanation(code):
    key, params = fatal_message(closed(code, 1))
    assert key == f"config.gateway.{FATAL_CLOSES[code]}"
    texts = {lg: i18n.t(key, lg, **params) for lg in ("fr", "en")}
    for text in texts.values():
        assert str(code) in text and "{" not in text and key not in text
    assert texts["fr"] != texts["en"]


def test_other_fatal_ends_are_explained_too():
    assert fatal_message(discord.LoginFailure("no"))[0] == "config.bad_token"
    key, params = fatal_message(discord.PrivilegedIntentsRequired(3))
    assert key == "config.gateway.disallowed_intents" and params["shard"] == 3
    key, params = fatal_message(closed(1000))
    assert key == "config.gateway.closed" and "1000" in i18n.t(key, "en", **params)
    assert fatal_message(RuntimeError("x")) is None


def test_identify_is_paced_by_bucket():
    now = [100.0]
    gate = IdentifyGate(1, clock=lambda: now[0])
    assert [gate.reserve(s) for s in (0, 1, 2)] == [0.0, 5.0, 10.0]  # max_concurrency 1: one per 5 s
    now[0] = 120.0
    assert gate.reserve(3) == 0.0  # the window is long past

    gate = IdentifyGate(16, clock=lambda: now[0])
    assert [gate.reserve(s) for s in range(16)] == [0.0] * 16  # 16 buckets: 16 at once
    assert gate.reserve(16) == 5.0 and gate.reserve(32) == 10.0 and gate.reserve(17) == 5.0
    assert IdentifyGate(0).max_concurrency == 1


async def test_a_dm_reaching_a_process_without_shard_0_is_refused_not_played(monkeypatch):
    from types import SimpleNamespace

    from bot import ui
    from bot.config import load_settings

    refused = []

    async def fake_refuse(interaction, key, **params):
        refused.append(key)

    monkeypatch.setattr(ui, "refuse", fake_refuse)

    def interaction(guild_id, shard_ids, kind=discord.InteractionType.component):
        env = {"LUDIBOT_SHARD_COUNT": "2", "LUDIBOT_SHARD_IDS": shard_ids} if shard_ids else {}
        return SimpleNamespace(guild_id=guild_id, type=kind,
                               client=SimpleNamespace(settings=load_settings(env=env)))

    assert await ui.dm_guard(interaction(None, "0"))  # shard 0's process plays DMs
    assert await ui.dm_guard(interaction(None, None))  # one process, every shard
    assert await ui.dm_guard(interaction(5 << 22, "1"))  # a server's interaction: its shard's process
    assert refused == []
    assert not await ui.dm_guard(interaction(None, "1"))
    assert refused == ["common.error.dm_elsewhere"]
    assert not await ui.dm_guard(interaction(None, "1", discord.InteractionType.autocomplete))
    assert refused == ["common.error.dm_elsewhere"]  # an autocomplete cannot be answered with a message
    assert i18n.t("common.error.dm_elsewhere", "en") != i18n.t("common.error.dm_elsewhere", "fr")


def test_a_process_owns_the_servers_of_its_shards():
    from bot.client import Ludibot
    from bot.config import load_settings

    one = Ludibot(load_settings(env={"LUDIBOT_SHARD_COUNT": "2", "LUDIBOT_SHARD_IDS": "1"}), store=object())
    zero = Ludibot(load_settings(env={"LUDIBOT_SHARD_COUNT": "2", "LUDIBOT_SHARD_IDS": "0"}), store=object())
    every = Ludibot(load_settings(env={}), store=object())
    for guild in (4 << 22, 5 << 22, (7 << 22) | 123, None):
        shard = shard_of(guild, 2)
        assert one.owns_guild(guild) == (shard == 1) and zero.owns_guild(guild) == (shard == 0)
        assert every.owns_guild(guild)
    assert not one.owns_guild(None) and zero.owns_guild(None)  # DMs are shard 0's
