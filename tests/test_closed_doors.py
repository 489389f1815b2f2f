"""Issue 13, below Discord: scope, escaping, isolation of unreadable games, inputs, lobby races, export."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import discord
import pytest
from discord import app_commands

from bot.community import Community
from bot.community.scheduler import REMINDER, TIMEOUT
from bot.inputs import DISCORD_INT, Refused, check_option
from bot.safe import Safe, allowed_mentions, escape, pinged, safe_params
from bot.sessions import Player, SessionError, SessionService
from bot.storage import PENDING, SQLiteStore
from engines.base import RuleError

GUILD_A, GUILD_B = 1, 2
CHAN_A, CHAN_A2, CHAN_B = 10, 11, 20
ALICE = Player(100, "Alice", guild_id=GUILD_A)
BRUNO = Player(101, "Bruno", guild_id=GUILD_A)
MOD_A = Player(103, "ModoA", can_manage=True, guild_id=GUILD_A)
MOD_B = Player(104, "ModoB", can_manage=True, guild_id=GUILD_B)  # Manage Server in B only

NASTY = ["<@999999999999999999>", "[Cliquez ici](https://evil.example/x)", "@everyone", "@here", "**gras**",
         "a\u200bb\u200dc\u2066d\u202eevil", "# titre", "- liste", "1. liste", "> citation", "<@&123456>",
         "<#123456>", "||spoiler||", "`code`", "~~barré~~", "__souligné__", "ligne\nsuivante", "-# petit"]


@pytest.fixture
async def svc(store):
    return SessionService(store, seed_source=lambda: 1234)


async def refused(key, coro):
    with pytest.raises(RuleError) as err:
        await coro
    assert err.value.key == key, (err.value.key, err.value.params)
    return err.value


# --- names --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NASTY)
def test_escaped_text_can_neither_ping_link_format_nor_hide(name):
    out = escape(name)
    assert isinstance(out, Safe)
    assert pinged(out) == []  # no live <@id>
    assert "@everyone" not in out and "@here" not in out and "<@&" not in out and "<#" not in out
    assert "](" not in out.replace("\\](", "") and "https://" not in out
    for bad in ("\u200d", "\u2066", "\u202e", "\n"):
        assert bad not in out
    for mark in ("**", "||", "~~", "__", "`"):
        assert mark not in out.replace("\\" + mark[0], "")
    assert not out.startswith(("#", "-", ">", "1."))
    assert escape(out) is out  # never escaped twice


def test_plain_names_are_unchanged_and_the_text_survives():
    for name in ("Alice", "Chloé", "Jean-Pierre", "M. Dupont", "Bot 1", "a"):
        assert escape(name) == name
    assert escape("**gras**") == "\\*\\*gras\\*\\*"
    assert escape("x" * 50, limit=10) == "x" * 9 + "…"


def test_allowed_mentions_name_exactly_the_users_the_bot_pinged():
    text = f"À vous\u00a0: <@{123}>, <@{456}>\u202f; {escape('<@789> @everyone')} <@123>"
    am = allowed_mentions(text).to_dict()
    assert am == {"parse": [], "users": [123, 456]}
    assert allowed_mentions(None).to_dict() == {"parse": [], "users": []}
    assert allowed_mentions("@everyone @here <@&5>").to_dict() == {"parse": [], "users": []}


def test_refusal_parameters_are_escaped_unless_the_bot_built_them():
    params = safe_params({"word": "<@1> **x**", "n": 3, "channel": Safe("<#5>")})
    assert params == {"word": "\\<\u200b@\u200b1> \\*\\*x\\*\\*", "n": 3, "channel": "<#5>"}


def test_narration_escapes_names_and_typed_words():
    from bot.narrate import event_params

    p = event_params({"type": "x", "seat": 0, "word": "[a](https://b.c)", "winners": [0, 1]}, ["<@1>", "@everyone"])
    assert p["seat"] == "\\<\u200b@\u200b1>" and p["word"] == "\\[a\\](https:\u200b//b.c)"
    assert p["winners"] == "\\<\u200b@\u200b1>, @\u200beveryone"


# --- scope ----------------------------------------------------------------------------------
async def test_a_game_of_another_server_answers_exactly_as_a_game_that_does_not_exist(svc):
    g = await svc.open_lobby("ludix", guild_id=GUILD_A, channel_id=CHAN_A, player=ALICE)
    ghost = await refused("common.error.no_such_game",
                          svc.find(channel_id=CHAN_B, guild_id=GUILD_B, kind="ludix", game_id=g.id + 1000))
    other = await refused("common.error.no_such_game",
                          svc.find(channel_id=CHAN_B, guild_id=GUILD_B, kind="ludix", game_id=g.id))
    assert other.params == {"game": g.id} and ghost.params == {"game": g.id + 1000}
    # even with the wrong kind, another server's game does not exist (no "wrong game" hint)
    await refused("common.error.no_such_game",
                  svc.find(channel_id=CHAN_B, guild_id=GUILD_B, kind="ludime", game_id=g.id))
    await refused("common.error.no_such_game", svc.get_in(g.id, GUILD_B))
    await refused("common.error.no_such_game", svc.get_in(g.id, None))  # not from a DM either
    # the channel's own lookup never sees another server's game in a channel id it shares
    await refused("common.error.no_game_here", svc.find(channel_id=CHAN_A, guild_id=GUILD_B, kind="ludix"))


async def test_another_channel_of_the_same_server_is_told_where_the_game_is(svc):
    g = await svc.open_lobby("ludix", guild_id=GUILD_A, channel_id=CHAN_A, player=ALICE)
    err = await refused("common.error.other_channel",
                        svc.find(channel_id=CHAN_A2, guild_id=GUILD_A, kind="ludix", game_id=g.id))
    assert err.params == {"game": g.id, "channel": f"<#{CHAN_A}>"}
    assert (await svc.find(channel_id=CHAN_A, guild_id=GUILD_A, kind="ludix", game_id=g.id)).id == g.id
    assert (await svc.get_in(g.id, GUILD_A)).id == g.id  # server-wide lookups (/historique) see it


async def test_manage_server_counts_only_in_the_games_own_server(svc):
    g = await svc.open_lobby("ludix", guild_id=GUILD_A, channel_id=CHAN_A, player=ALICE)
    g = await svc.join(g.id, BRUNO)
    await refused("lobby.error.only_creator_cancel", svc.cancel(g.id, MOD_B))
    await refused("lobby.error.only_creator", svc.start(g.id, MOD_B))
    await refused("lobby.error.only_creator", svc.add_ai(g.id, MOD_B))
    assert (await svc.get(g.id)).status == "lobby"
    assert (await svc.cancel(g.id, MOD_A)).status == "cancelled"


@pytest.mark.parametrize("game_id", [0, -1, 2**53, 2**63, 2**64 + 5, -(2**70), True])
async def test_ids_outside_discords_integers_are_no_such_game_not_an_overflow(svc, game_id):
    await refused("common.error.no_such_game", svc.get(game_id))
    await refused("common.error.no_such_game",
                  svc.find(channel_id=CHAN_A, guild_id=GUILD_A, kind="ludix", game_id=game_id))


# --- lobby races ----------------------------------------------------------------------------
async def test_fifty_simultaneous_joins_fill_every_seat_and_only_then_refuse(svc):
    g = await svc.open_lobby("ludix", guild_id=GUILD_A, channel_id=CHAN_A, player=ALICE)
    players = [Player(1000 + i, f"P{i}", guild_id=GUILD_A) for i in range(50)]
    outcomes = await asyncio.gather(*(svc.join(g.id, p) for p in players), return_exceptions=True)
    joined = [o for o in outcomes if not isinstance(o, BaseException)]
    refusals = [o for o in outcomes if isinstance(o, BaseException)]
    seats = svc.engine("ludix").max_players
    assert len(joined) == seats - 1
    assert {type(r) for r in refusals} == {SessionError} and {r.key for r in refusals} == {"lobby.error.full"}
    final = await svc.get(g.id)
    assert len(final.seats) == seats and len({s.user_id for s in final.seats}) == seats


async def test_simultaneous_joins_and_a_start_refuse_only_once_started(svc):
    g = await svc.open_lobby("ludix", guild_id=GUILD_A, channel_id=CHAN_A, player=ALICE)
    g = await svc.join(g.id, BRUNO)
    players = [Player(2000 + i, f"Q{i}", guild_id=GUILD_A) for i in range(20)]
    outcomes = await asyncio.gather(svc.start(g.id, ALICE), *(svc.join(g.id, p) for p in players),
                                    return_exceptions=True)
    keys = {o.key for o in outcomes if isinstance(o, RuleError)}
    assert keys <= {"common.error.already_started", "lobby.error.full"}  # never "busy"
    assert not any(isinstance(o, BaseException) and not isinstance(o, RuleError) for o in outcomes)


# --- inputs ---------------------------------------------------------------------------------
@pytest.mark.parametrize("kind,level,ok", [("ludix", 1, True), ("ludix", 2, True), ("ludix", 3, False),
                                           ("ludix", 0, False), ("ludix", -(2**53), False),
                                           ("ludix", 2**53, False), ("tectonic", 3, True),
                                           ("armada", 4, False), ("armada", 3, True), ("lutinades", 2, True)])
async def test_the_ai_level_is_checked_against_the_engines_declaration(svc, kind, level, ok):
    coro = svc.open_lobby(kind, guild_id=GUILD_A, channel_id=CHAN_A, player=ALICE, ai_seats=1, ai_level=level)
    if ok:
        g = await coro
        assert g.seats[1].ai_level == level
        return
    err = await refused("lobby.error.bad_level", coro)
    assert (err.params["min"], err.params["max"]) == svc.engine(kind).ai_levels
    assert await svc.store.games_in_channel(CHAN_A) == []


def _command():
    @app_commands.command(name="start", description="d")
    @app_commands.choices(adversaire=[app_commands.Choice(name="Joueur", value="joueur"),
                                      app_commands.Choice(name="Bot", value="bot")])
    async def start(interaction: discord.Interaction, adversaire: str = "joueur",
                    niveau: app_commands.Range[int, 1, 2] = 1, partie: int | None = None,
                    taux: float | None = None, flag: bool = False) -> None:
        pass

    return start


@pytest.mark.parametrize("option,key", [
    ({"name": "adversaire", "type": 3, "value": "n'importe quoi"}, "common.error.bad_choice"),
    ({"name": "adversaire", "type": 3, "value": 5}, "common.error.bad_value"),
    ({"name": "niveau", "type": 4, "value": 3}, "common.error.number_out_of_range"),
    ({"name": "niveau", "type": 4, "value": -(2**53)}, "common.error.number_out_of_range"),
    ({"name": "partie", "type": 4, "value": 2**53}, "common.error.number_out_of_range"),
    ({"name": "partie", "type": 4, "value": 2**64}, "common.error.number_out_of_range"),
    ({"name": "partie", "type": 4, "value": "12"}, "common.error.bad_value"),
    ({"name": "partie", "type": 4, "value": 1.5}, "common.error.bad_value"),
    ({"name": "taux", "type": 10, "value": float("inf")}, "common.error.bad_value"),
    ({"name": "taux", "type": 10, "value": 1e300}, "common.error.number_out_of_range"),
    ({"name": "flag", "type": 5, "value": "yes"}, "common.error.bad_value"),
])
def test_options_outside_their_declaration_are_refused_precisely(option, key):
    with pytest.raises(Refused) as err:
        check_option(_command(), option)
    assert err.value.original.key == key
    assert isinstance(err.value, app_commands.CheckFailure)


@pytest.mark.parametrize("option", [
    {"name": "adversaire", "type": 3, "value": "bot"}, {"name": "niveau", "type": 4, "value": 2},
    {"name": "partie", "type": 4, "value": DISCORD_INT - 1}, {"name": "partie", "type": 4, "value": 1 - DISCORD_INT},
    {"name": "taux", "type": 10, "value": 1e15}, {"name": "flag", "type": 5, "value": True},
])
def test_options_within_their_declaration_pass(option):
    check_option(_command(), option)


# --- unreadable games ---------------------------------------------------------------------
async def _running(svc, channel=CHAN_A):
    g = await svc.open_lobby("ludix", guild_id=GUILD_A, channel_id=channel, player=ALICE)
    g = await svc.join(g.id, BRUNO)
    return (await svc.start(g.id, ALICE)).game


def _corrupt(db_path, game_id, state: str) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE games SET state = ? WHERE id = ?", (state, game_id))


@pytest.mark.parametrize("state,why", [
    ("{not json", "unreadable JSON"),
    (json.dumps({"schema": 999, "what": "a future engine"}), ""),
    (json.dumps([1, 2, 3]), "unreadable JSON"),
])
async def test_an_unreadable_game_is_set_aside_and_every_other_game_keeps_working(db_path, caplog, state, why):
    store = SQLiteStore(db_path)
    await store.open()
    svc = SessionService(store, seed_source=lambda: 1234)
    bad = await _running(svc)
    good = await _running(svc, CHAN_A2)
    lobby = await svc.open_lobby("ludix", guild_id=GUILD_A, channel_id=CHAN_A, player=BRUNO)
    _corrupt(db_path, bad.id, state)  # what an engine upgrade does: a state this code cannot read...
    svc = SessionService(store, seed_source=lambda: 1234)  # ...found by the restarted process
    await refused("common.error.game_broken", svc.get(bad.id))
    await refused("common.error.game_broken", svc.act(bad.id, ALICE.user_id, {"type": "roll"}))
    await refused("common.error.game_broken",
                  svc.find(channel_id=CHAN_A, guild_id=GUILD_A, kind="ludix", game_id=bad.id))
    # the channel's "game here" is the one that works
    assert (await svc.find(channel_id=CHAN_A, guild_id=GUILD_A, kind="ludix")).id == lobby.id
    await refused("common.error.game_broken", svc.get(bad.id))
    logged = [r for r in caplog.records if "set aside" in r.getMessage()]
    assert len(logged) == 1 and why in logged[0].getMessage()  # logged once, with the reason
    listed = await store.broken_games(GUILD_A)
    assert [g.id for g in listed] == [bad.id] and listed[0].broken
    assert await store.broken_games(GUILD_B) == []
    # everything else works
    out = await svc.act(good.id, ALICE.user_id, {"type": "roll"})
    assert out.game.version == good.version + 1
    assert (await svc.join(lobby.id, ALICE)).names == ["Bruno", "Alice"]
    # the sweep of a restart skips it and still schedules the others
    await store.close()
    store = SQLiteStore(db_path)
    await store.open()
    svc = SessionService(store, seed_source=lambda: 1234)

    class Quiet:
        async def remind(self, *a):
            pass

        async def timed_out(self, *a):
            pass

    com = Community(store, svc, Quiet())
    await com.catch_up()
    assert [d for d in await store.deadlines_of(bad.id) if d.state == PENDING] == []
    assert {d.kind for d in await store.deadlines_of(good.id) if d.state == PENDING} <= {REMINDER, TIMEOUT}
    assert [d for d in await store.deadlines_of(good.id) if d.state == PENDING]
    # an admin of the server cancels it; it leaves the list
    assert (await svc.cancel(bad.id, MOD_A)).status == "cancelled"
    assert await store.broken_games(GUILD_A) == []
    assert len([r for r in caplog.records if "set aside" in r.getMessage()]) == 1
    await store.close()


async def test_unparsable_options_do_not_break_a_listing(db_path):
    store = SQLiteStore(db_path)
    await store.open()
    svc = SessionService(store, seed_source=lambda: 1234)
    a = await _running(svc)
    b = await _running(svc)
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE games SET options = '{{{' WHERE id = ?", (a.id,))
    games = await store.games_with_status(("running",), GUILD_A)
    assert {g.id: bool(g.broken) for g in games} == {a.id: True, b.id: False}
    await store.close()


# --- export ---------------------------------------------------------------------------------
async def test_the_export_holds_this_servers_finished_games_and_nothing_else(svc):
    async def finished(guild, channel, creator, other):
        g = await svc.open_lobby("ludix", guild_id=guild, channel_id=channel, player=creator)
        g = await svc.join(g.id, other)
        g = (await svc.start(g.id, creator)).game
        return (await svc.forfeit(g.id, 1)).game

    mine = await finished(GUILD_A, CHAN_A, ALICE, BRUNO)
    theirs = await finished(GUILD_B, CHAN_B, Player(300, "Zoé", guild_id=GUILD_B), Player(301, "Yann"))
    running = await _running(svc)
    for gid in (mine.id, theirs.id):
        from bot.community.ratings import compute
        await svc.store.rate_game(gid, compute)
    doc = await svc.store.export_guild(GUILD_A)
    json.dumps(doc)  # JSON-safe
    assert [g["id"] for g in doc["games"]] == [mine.id]
    assert running.id not in [g["id"] for g in doc["games"]]
    players = doc["games"][0]["players"]
    assert [(p["user_id"], p["rank"]) for p in players] == [(ALICE.user_id, 1), (BRUNO.user_id, 2)]
    assert {r["user_id"] for r in doc["ratings"]} <= {ALICE.user_id, BRUNO.user_id}
    assert "Zoé" not in json.dumps(doc) and "Yann" not in json.dumps(doc)


async def test_a_state_that_fails_to_load_anywhere_is_refused_and_marked(svc):
    import dataclasses

    g = await _running(svc)
    future = dataclasses.replace(g, state={**g.state, "schema": 999})
    await refused("common.error.game_broken", svc.public_view(future))
    await refused("common.error.game_broken", svc.view_for(future, ALICE.user_id))
    assert [x.id for x in await svc.store.broken_games(GUILD_A)] == [g.id]
    await refused("common.error.game_broken", svc.get(g.id))


# --- reminders and timeouts outside an interaction ---------------------------------------------
def sent_text(kwargs: dict) -> str:
    """What a message sent through the stand-in says: its content, or its card's text displays."""
    if kwargs.get("content"):
        return kwargs["content"]
    view = kwargs.get("view")
    return "\n".join(item.content for item in view.walk_children() if isinstance(item, discord.ui.TextDisplay))


class _Sink:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    async def send(self, **kwargs):
        self.sent.append(kwargs)


class _Bot:
    def __init__(self, store) -> None:
        self.store = store
        self.sink = _Sink()
        self.game_cogs: dict = {}

    def get_partial_messageable(self, channel_id):
        return self.sink

    def get_guild(self, guild_id):
        return None


async def test_reminders_and_timeouts_ping_exactly_the_players_and_show_names_literally(svc):
    from bot.community.notifier import DiscordNotifier
    from bot.publisher import timeout_lines

    nasty = Player(105, "<@103> @everyone [x](https://evil.example)", guild_id=GUILD_A)
    g = await svc.open_lobby("ludix", guild_id=GUILD_A, channel_id=CHAN_A, player=nasty)
    g = await svc.join(g.id, BRUNO)
    g = (await svc.start(g.id, nasty)).game
    bot = _Bot(svc.store)
    notifier = DiscordNotifier(bot)
    await notifier.remind(g, [0, 1], 0.0)
    (sent,) = bot.sink.sent
    assert sent["allowed_mentions"].to_dict() == {"parse": [], "users": [105, 101]}
    out = await svc.act_for(g.id, 0, {"type": "pass"}, actor="timeout")
    await notifier.timed_out(out, [0], None)
    text = sent_text(bot.sink.sent[-1])
    assert escape(nasty.name) in text and "<@103>" not in text and "@everyone" not in text
    assert bot.sink.sent[-1]["allowed_mentions"].to_dict() == {"parse": [], "users": []}
    lines = timeout_lines(out.game, await svc.store.events(g.id), "fr")
    assert lines and all("<@103>" not in x and escape(nasty.name) in x for x in lines)
