"""What Discord sends, read without ever stopping the bot (issue 23): decoding, surrogates, one
failing gateway frame dropped (not fatal), a stale command recognised, the command shape compared."""

from __future__ import annotations

import asyncio
import json
import logging

import discord
import pytest
from discord import app_commands
from discord.gateway import DiscordWebSocket, ReconnectWebSocket

from bot import i18n, payload
from bot.cards import Card
from bot.client import command_shape
from bot.inputs import Stale, check_signature


def test_loads_reads_what_orjson_refuses_and_replaces_lone_surrogates():
    raw = '{"d": {"value": "A\\ud800B", "\\udfffkey": ["x\\udc00", "ok \\ud83d\\ude00"]}}'
    with pytest.raises(ValueError):
        import orjson

        orjson.loads(raw)  # the regression: orjson refuses it
    value = payload.loads(raw)
    assert value == {"d": {"value": "A\ufffdB", "\ufffdkey": ["x\ufffd", "ok \U0001F600"]}}
    assert payload.loads(raw.encode()) == value  # bytes (a compressed frame, an HTTP body) too


def test_loads_keeps_the_common_case_and_refuses_what_is_not_json():
    assert payload.loads('{"a": [1, 2.5, null, true, "é"]}') == {"a": [1, 2.5, None, True, "é"]}
    # an integer past 64 bits, alone: an integer again, as in an object (orjson reads it as the float 2**64)
    for raw, whole in (("18446744073709551617", 2**64), (b" -18446744073709551617", -(2**64))):
        value = payload.loads(raw)
        assert value == whole and type(value) is int, (raw, value)
    assert payload.loads("2.5") == 2.5 and payload.loads("1e2") == 100.0  # small floats stay floats
    with pytest.raises(ValueError):
        payload.loads("{not json")
    with pytest.raises((ValueError, RecursionError)):
        payload.loads("[" * 5000 + "]" * 5000)


def test_scrub_replaces_only_lone_surrogates():
    assert payload.scrub("abc") == "abc"
    assert payload.scrub("\ud800\U0001F600\udfff") == "\ufffd\U0001F600\ufffd"
    assert payload.scrub_all({"\ud800": ["\udc00", 3, None]}) == {"\ufffd": ["\ufffd", 3, None]}


def test_drop_log_is_rate_limited(caplog):
    now = [0.0]
    drops = payload.DropLog(burst=3, window=60, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="ludibot"):
        logged = [drops.warn("dropped %d", i) for i in range(10)]
        now[0] = 61
        drops.warn("dropped again")
    assert logged == [True] * 3 + [False] * 7
    lines = [r.getMessage() for r in caplog.records]
    assert lines[:3] == ["dropped 0", "dropped 1", "dropped 2"]
    assert any("7 more malformed events dropped" in line for line in lines)
    assert lines[-1] == "dropped again" and drops.total == 11


def test_preview_never_holds_the_whole_text():
    secret = "mot-de-passe " * 100
    shown = payload.preview(json.dumps({"d": {"value": secret}}))
    assert secret not in shown and len(shown) < 120


class FakeWS(DiscordWebSocket):
    """A gateway socket with just what ``received_message`` reads (no network)."""

    def __init__(self, parsers):
        self.shard_id = 0
        self.sequence = None
        self._keep_alive = None
        self._dispatch_listeners = []
        self._discord_parsers = parsers
        self._connection = None
        self.events = []

    def _dispatch(self, *args):  # type: ignore[override]
        self.events.append(args)

    def log_receive(self, _msg, /):
        pass


@pytest.fixture
def installed():
    payload.install()
    yield
    payload.uninstall()


def test_one_failing_frame_is_dropped_and_the_next_one_is_read(installed, caplog):
    seen = []

    def parse_interaction_create(data):
        seen.append(data["data"]["custom_id"])  # discord.py's parsers index what they expect

    ws = FakeWS({"INTERACTION_CREATE": parse_interaction_create})

    async def run():
        frames = ["not json", "[" * 3000 + "]" * 3000, "null", "[1]",
                  json.dumps({"op": 0, "t": "INTERACTION_CREATE", "s": 1, "d": None}),
                  json.dumps({"op": 0, "t": "INTERACTION_CREATE", "s": 2, "d": {"data": {}}}),
                  json.dumps({"op": 0, "t": "NO_SUCH_EVENT", "s": 3, "d": {"x": 1}}),
                  '{"op": 0, "t": "INTERACTION_CREATE", "s": 4, "d": {"data": {"custom_id": "a\\ud800"}}}']
        for frame in frames:
            await DiscordWebSocket.received_message(ws, frame)  # never raises

    with caplog.at_level(logging.WARNING, logger="ludibot"):
        asyncio.run(run())
    assert seen == ["a\ufffd"]  # the good frame after the bad ones, its surrogate replaced
    assert ws.sequence == 4
    assert sum("dropped a malformed gateway event" in r.getMessage() for r in caplog.records) >= 5


def test_reconnect_signals_still_go_through(installed):
    ws = FakeWS({})

    async def close(**_):
        pass

    ws.close = close
    with pytest.raises(ReconnectWebSocket):
        asyncio.run(DiscordWebSocket.received_message(ws, json.dumps({"op": 7, "d": None})))


def test_missing_field_is_named_only_when_it_is_a_plain_name():
    assert payload.missing_field(KeyError("custom_id")) == "custom_id"
    assert payload.missing_field(KeyError("<@1> **x**")) is None
    assert payload.missing_field(TypeError("x")) is None
    assert "custom_id" in payload.unreadable_text("en-US", KeyError("custom_id"))
    assert payload.unreadable_text("fr", None) == i18n.t("payload.error.unreadable", "fr")


def test_interaction_of_needs_an_id_and_a_token():
    good = {"t": "INTERACTION_CREATE", "d": {"id": "123", "token": "abc", "type": 3, "data": None}}
    assert payload._interaction_of(good) is good["d"]
    for bad in ({"t": "INTERACTION_CREATE", "d": None}, {"t": "MESSAGE_CREATE", "d": good["d"]},
                {"t": "INTERACTION_CREATE", "d": {**good["d"], "id": 12}},
                {"t": "INTERACTION_CREATE", "d": {**good["d"], "token": None}},
                {"t": "INTERACTION_CREATE", "d": {**good["d"], "type": 1}}):  # a ping needs no message
        assert payload._interaction_of(bad) is None


def make_command():
    async def cb(interaction, mot: str, partie: int | None = None) -> None:
        pass

    return app_commands.Command(name="jouer", description="d", callback=cb)


def test_check_signature_recognises_a_stale_command():
    cmd = make_command()
    check_signature(cmd, [{"name": "mot", "type": 3, "value": "x"}])
    check_signature(cmd, [{"name": "mot", "type": 3, "value": "x"}, {"name": "partie", "type": 4, "value": 2}])
    check_signature(cmd, [{"name": "partie", "type": 4, "value": "1", "focused": True}], autocomplete=True)
    for options in ([], [{"name": "partie", "type": 4, "value": 1}],  # a required option missing
                    [{"name": "mot", "type": 3, "value": "x"}, {"name": "ancien", "type": 3, "value": "y"}],
                    [{"name": "mot", "type": 4, "value": 3}],  # another type
                    [{"name": "mot", "type": 99, "value": "x"}], [None]):
        with pytest.raises(Stale) as info:
            check_signature(cmd, options)
        assert info.value.original.key == "payload.error.stale_command"


def test_stale_command_text_in_both_languages():
    assert "Réessayez dans une minute" in i18n.t("payload.error.stale_command", "fr")
    assert "Try again in a minute" in i18n.t("payload.error.stale_command", "en")


def test_command_shape_ignores_what_discord_adds_and_sees_what_clients_depend_on():
    ours = [{"name": "ludix", "type": 1, "name_localizations": {"en-US": "ludix"}, "options": [
        {"name": "start", "type": 1, "options": [{"name": "rythme", "type": 3, "required": False,
                                                  "choices": [{"name": "a", "value": "a"}]}]}]}]
    held = [{"id": "1", "version": "2", "application_id": "3", "name": "ludix", "type": 1, "options": [
        {"name": "start", "type": 1, "options": [{"name": "rythme", "type": 3,
                                                  "choices": [{"name": "A", "value": "a"}]}]}]}]
    assert command_shape(held) == command_shape(ours)
    held[0]["options"][0]["options"][0]["required"] = True
    assert command_shape(held) != command_shape(ours)
    assert command_shape(held[:0]) != command_shape(ours)


class Response:
    """What discord.py's ``json_or_text`` reads of an HTTP response."""

    def __init__(self, text: str) -> None:
        self.headers = {"content-type": "application/json"}
        self._text = text

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text


def test_http_bodies_are_read_by_the_same_decoder(installed):
    from discord.http import json_or_text

    body = asyncio.run(json_or_text(Response('{"content": "A\\ud800B", "id": "1"}')))  # type: ignore[arg-type]
    assert body == {"content": "A\ufffdB", "id": "1"}


def interaction(**changes):
    d = {"id": "1", "application_id": "2", "type": 3, "token": "t", "version": 1, "guild_id": "3",
         "channel_id": "4", "channel": {"id": "4", "type": 0},
         "member": {"user": {"id": "5", "username": "a"}, "nick": None},
         "message": {"id": "6", "components": []}, "data": {"custom_id": "ludibot:1:join", "component_type": 2}}
    for path, value in changes.items():
        node = d
        keys = path.split("__")
        for key in keys[:-1]:
            node = node[key]
        if value is KeyError:
            del node[keys[-1]]
        else:
            node[keys[-1]] = value
    return d


def test_check_interaction_accepts_what_discord_sends():
    payload.check_interaction(interaction())
    # a real card as the bot sends it, with a section and its button accessory
    card = Card(text="**Alice** joue", accent=0x2E7D5B, pictures=("t.png",),
                groups=((discord.ui.Button(label="Lancer", custom_id="ludibot:1:roll"),),))
    components = card.layout().to_components()
    components[0]["components"].append({"type": 9, "components": [{"type": 10, "content": "Bruno"}],
                                        "accessory": {"type": 2, "style": 2, "label": "Profil", "custom_id": "p"}})
    payload.check_interaction(interaction(message__components=components, message__flags=1 << 15))
    payload.check_interaction(interaction(guild_id=None, member=KeyError, user={"id": "5"}))  # a DM
    payload.check_interaction({"id": "1", "type": 2, "token": "t", "data": {"name": "ludix", "options": []},
                               "guild_id": "3", "member": {"user": {"id": "5"}}, "channel": {"id": "4"}})
    payload.check_interaction({"id": "1", "type": 5, "token": "t", "data": {"custom_id": "x", "components": []},
                               "user": {"id": "5"}, "channel": {"id": "4"}})
    # a component's data.id is its numeric id in a Components V2 message, a command's is a snowflake
    payload.check_interaction(interaction(data__id=7))
    payload.check_interaction(interaction(message__components=[{"type": 17, "components": []}],
                                          message__flags=1 << 15))  # a card, with its flag
    payload.check_interaction({"id": "1", "type": 2, "token": "t", "data": {"id": "99", "name": "ludix"},
                               "guild_id": "3", "member": {"user": {"id": "5"}}, "channel": {"id": "4"}})


@pytest.mark.parametrize(("changes", "field"), [
    ({"member__user__id": str(2**64)}, "member.user.id"),  # past SQLite's integers
    ({"member__user__id": 5}, "member.user.id"),  # a number, not Discord's string
    ({"guild_id": "12a"}, "guild_id"),
    ({"channel__id": "-4"}, "channel.id"),
    ({"channel": KeyError}, "channel"),
    ({"channel__id": KeyError}, "channel.id"),
    ({"token": None}, "token"),
    ({"token": KeyError}, "token"),
    ({"type": 99}, "type"),
    ({"type": True}, "type"),
    ({"data": None}, "data"),
    ({"data__custom_id": KeyError}, "data.custom_id"),
    ({"data__component_type": "2"}, "data.component_type"),
    ({"message": None}, "message"),
    ({"message__components": KeyError}, "message.components"),
    ({"member": None}, "member"),
    ({"member__user": KeyError}, "member.user"),
    ({"data__id": "7"}, "data.id"),  # a component's id is a number
    ({"data__id": 2**40}, "data.id"),
    # a card (a container at the top) without the Components V2 flag, or a flag that is not a number
    ({"message__components": [{"type": 17, "components": []}]}, "message.flags"),
    ({"message__flags": "32768"}, "message.flags"),
    # the clicked message's components as discord.py rebuilds them (a wire fuzz found each one)
    ({"message__components": [{"type": 1, "components": [{"type": 2, "custom_id": ["x"]}]}]}, "message.components"),
    ({"message__components": [{"type": 1, "components": {"type": 2}}]}, "message.components"),
    ({"message__components": ["row"], "message__flags": 1 << 15}, "message.components"),
    ({"message__components": [{"type": "1", "components": []}], "message__flags": 1 << 15}, "message.components"),
    ({"message__components": [{"type": 17, "components": [{"type": 9, "accessory": {"type": 2, "label": 5}}]}],
      "message__flags": 1 << 15}, "message.components"),
    ({"message__components": [{"type": 17, "components": [{"type": 10, "content": None}, {"type": 1, "components": [
        {"type": 1, "components": [{"type": 1, "components": [{"type": 1, "components": [{"type": 2}]}]}]}]}]}],
      "message__flags": 1 << 15}, "message.components"),  # nested deeper than Discord nests
])
def test_check_interaction_refuses_what_discord_never_sends(changes, field):
    with pytest.raises(payload.Malformed) as info:
        payload.check_interaction(interaction(**changes))
    assert str(info.value) == field
    assert payload.bad_field(info.value) == field
    assert f"« {field} »" in payload.unreadable_text("fr", info.value)


def test_whole_numbers_past_64_bits_are_integers_again():
    raw = '{"flags": 36893488147419103232, "x": [1.5, -18446744073709551617, 3], "n": 2.0, "t": "1e5"}'
    for data in (raw, raw.encode(), memoryview(raw.encode())):
        d = payload.loads(data)
        assert d["flags"] == 2**65 and type(d["flags"]) is int
        assert d["x"] == [1.5, -(2**64), 3] and type(d["x"][1]) is int
        assert d["n"] == 2.0 and d["t"] == "1e5"
    # a number written with an exponent is a float in JSON (as the standard library reads it too), and
    # refused where Discord sends an integer (below)
    assert payload.loads('{"e": 1e30}') == json.loads('{"e": 1e30}') and type(payload.loads('{"e": 1e30}')["e"]) is float
    # wherever the bare number stands (the whole text, a list, after spaces), as text or bytes
    for text, value in (("36893488147419103232", 2**65), ("[0, 36893488147419103232]", [0, 2**65]),
                        ('{"a":  -36893488147419103232}', {"a": -(2**65)}), ('{"a":[1,\n36893488147419103232]}', {"a": [1, 2**65]})):
        assert payload.loads(text) == payload.loads(text.encode()) == value
        assert type(payload.loads(text.encode())) is type(value)
    # a snowflake (19 digits) and a string that looks like a number are left as they are
    assert payload.loads('{"id":"1576404536829018112","t":"9e9","n":1576404536829018112}') == {
        "id": "1576404536829018112", "t": "9e9", "n": 1576404536829018112}
    interaction_payload = interaction(message__flags=d["flags"], data__values=d["x"])
    payload.check_interaction(interaction_payload)
    # a float where Discord sends an integer (not from loads): refused, not read
    with pytest.raises(payload.Malformed):
        payload.check_interaction(interaction(message__flags=float(2**65)))
    with pytest.raises(payload.Malformed):  # an exponent where Discord sends an integer
        payload.check_interaction(interaction(message__flags=payload.loads('{"f": 1e30}')["f"]))
    assert payload.whole_numbers({"n": 2.0, "big": 1e300, "inf": float("inf")}) == {"n": 2.0, "big": int(1e300),
                                                                                    "inf": float("inf")}


def test_a_games_click_keeps_its_card_as_json_and_nothing_else_does(monkeypatch):
    """``install(lighter=…)``: a click on one of the games' controls reaches discord.py with the clicked
    message's components moved to ``data[CLICKED]`` (no object per component); a click on another
    control keeps them; a ``CLICKED`` key sent by a client never survives (it would name controls)."""
    from discord.state import ConnectionState

    seen = []
    monkeypatch.setattr(ConnectionState, "parse_interaction_create", lambda self, data: seen.append(data))
    payload.uninstall()
    payload.install(lighter=("ludibot:",))
    try:
        card = [{"type": 17, "components": [{"type": 10, "content": "Alice"}, {"type": 1, "components": [
            {"type": 2, "style": 1, "label": "Lancer", "custom_id": "ludibot:1:roll:3"}]}]}]
        ConnectionState.parse_interaction_create(None, interaction(  # type: ignore[arg-type]
            message__components=json.loads(json.dumps(card)), message__flags=1 << 15,
            data__custom_id="ludibot:1:roll:3", data__component_type=2))
        assert seen[-1]["message"]["components"] == [] and seen[-1]["data"][payload.CLICKED] == card
        forged = [{"type": 1, "components": [{"type": 2, "custom_id": "ludibot:1:roll:3"}]}]
        for changes in ({"data__custom_id": "ludibot-replay:1:next"},  # the replay viewer's: discord.py's
                        {"type": 5, "data": {"custom_id": "ludibot:1:form", "components": []}}):  # a form
            data = interaction(**changes)
            data["data"][payload.CLICKED] = forged
            ConnectionState.parse_interaction_create(None, data)  # type: ignore[arg-type]
            assert payload.CLICKED not in seen[-1]["data"]
        sent = interaction(message__components=card, message__flags=1 << 15, data__custom_id="ludibot:1:roll:3")
        sent["data"][payload.CLICKED] = forged  # a client's own: replaced by the message's real components
        ConnectionState.parse_interaction_create(None, sent)  # type: ignore[arg-type]
        assert seen[-1]["data"][payload.CLICKED] == card
        kept = interaction(message__components=card, message__flags=1 << 15, data__custom_id="other:1")
        ConnectionState.parse_interaction_create(None, kept)  # type: ignore[arg-type]
        assert seen[-1]["message"]["components"] == card and payload.CLICKED not in seen[-1]["data"]
    finally:
        payload.uninstall()
