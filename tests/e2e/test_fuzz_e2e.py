"""Fuzz the real bot through the fake Discord (issue 13, part 6).

Hypothesis draws, for every option of every command of every game (and the community commands),
values a hostile client sends: markdown, mentions, zero-width and right-to-left characters,
6,000-character strings, integers across Discord's whole range and beyond it, values outside the
choices and the autocomplete suggestions, ``partie`` numbers of other channels and servers; and
forged components: other servers' games, wrong verbs, huge versions, wrong types, real buttons of
the channel. For every case: an ephemeral refusal or a legal effect; nothing changed on a refusal;
never "internal error"; no traceback nor error in the bot's log; nothing the fake Discord refused.

One bot process and one fake Discord (two servers, three channels) serve every example: they run
on their own event loop in a thread, and each example waits for its case there. Bounded: 400
examples by default (about a minute), 3,000 with ``LUDIBOT_SLOW=1``.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot import i18n
from fakediscord import models as fm
from tests.e2e.closed_doors import check_sent, make_world
from tests.e2e.harness import last_control

pytestmark = pytest.mark.e2e

SLOW = os.environ.get("LUDIBOT_SLOW") == "1"
EXAMPLES = int(os.environ.get("LUDIBOT_FUZZ_EXAMPLES") or (3000 if SLOW else 400))
INTERNAL = tuple(i18n.t("common.error.internal", lg) for lg in ("fr", "en"))
D = 2**53

NASTY_TEXT = ["<@1100000000000002001>", "@everyone", "@here", "<@&1>", "<#1>", "[x](https://evil.example)",
              "**gras**", "# titre", "\u202e\u2066\u200b\u200d", "`", "||", "\\", "{game}", "{0}", "%s", "\x00",
              "ORAMES", "A1", "B2", "D4", "E5", "X3", "O", "#1", "1@abc@0", "vertical", "joueur", "bot"]
VERBS = ["join", "leave", "start", "cancel", "addai", "roll", "stop", "mine", "resign", "keep", "pick", "cell",
         "matcell", "discard", "pos", "fill", "place", "flip", "follow", "gesture", "confirm", "drop", "card",
         "board", "take", "draw", "x"]


class Loop:
    """An event loop in a thread, for the fake Discord and the bot's process handle."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro, timeout: float = 120) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def leaves(commands) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every invocable command path with its options, from what the bot registered."""
    out = []

    def walk(prefix: str, options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o.get("type") in (fm.OPT_SUB_COMMAND, fm.OPT_SUB_COMMAND_GROUP)]
        if not subs:
            out.append((prefix, options))
        for sub in subs:
            walk(f"{prefix} {sub['name']}", sub.get("options") or [])

    for cmd in commands:
        if cmd.type == 1:
            walk(cmd.name, cmd.payload.get("options") or [])
    return sorted(out, key=lambda x: x[0])


def text_values() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(NASTY_TEXT),
        st.text(max_size=40),
        st.lists(st.sampled_from(NASTY_TEXT), min_size=1, max_size=6).map(" ".join),
        st.integers(1, 40).map(str),
        st.builds(lambda c, n: (c * n)[:6000], st.sampled_from(["é", "<@1>", "**", "\u202e", "a"]),
                  st.integers(1000, 6000)),
    )


def int_values(d: dict[str, Any]) -> st.SearchStrategy[int]:
    bounds = [v for v in (d.get("min_value"), d.get("max_value")) if v is not None]
    return st.one_of(
        st.integers(1, 40),  # game ids: this channel's, other channels', other servers', none
        st.integers(-(D - 1), D - 1),  # Discord's whole range
        st.sampled_from([0, -1, D, -D, 2**63, -(2**63) - 1, 2**64, 10**30, *bounds,
                         *[b + 1 for b in bounds], *[b - 1 for b in bounds]]),
        st.sampled_from([c["value"] for c in d.get("choices") or []] or [1]),
    )


def option_value(d: dict[str, Any], users) -> st.SearchStrategy[Any]:
    t = d.get("type")
    choices = [c["value"] for c in d.get("choices") or []]
    if t == fm.OPT_STRING:
        return st.one_of(st.sampled_from(choices), text_values()) if choices else text_values()
    if t == fm.OPT_INTEGER:
        return int_values(d)
    if t == fm.OPT_NUMBER:
        return st.one_of(st.floats(-D, D, allow_nan=False), st.sampled_from([0.0, -1.0, 1e-9, 48.0, 1e300]))
    if t == fm.OPT_BOOLEAN:
        return st.booleans()
    if t in (fm.OPT_USER, fm.OPT_MENTIONABLE):
        return st.sampled_from(users)
    return st.nothing()


def snapshot(db) -> list[tuple]:
    """What a refusal must leave as it was: every game row and seat."""
    with sqlite3.connect(db) as con:
        games = con.execute("SELECT id, status, version, state, options, channel_id, broken FROM games "
                            "ORDER BY id").fetchall()
        seats = con.execute("SELECT game_id, seat, user_id, name FROM seats ORDER BY game_id, seat").fetchall()
    return games + seats


@pytest.fixture(scope="module")
def arena(tmp_path_factory):
    loop = Loop()
    tmp = tmp_path_factory.mktemp("fuzz")
    w = loop.run(make_world(tmp, guilds=2, env={"LUDIBOT_SCHEDULER_POLL": "100000"}))
    fake, u = w.fake, w.u
    club = fake.channel("jeux", guild=w.club)

    async def setup():
        # games in both servers and every channel, so that ids of elsewhere are real
        lobby = (await fake.run_command(u.alice, "jeux", "ludix start")).message
        await fake.click(u.bruno, lobby, label="Rejoindre")
        await fake.click(u.alice, lobby, label="Lancer")
        await fake.run_command(u.alice, "jeux", "tectonic start", adversaire="bot")
        await fake.run_command(u.chloe, "autre", "ranta start", mode="classique")
        await fake.run_command(u.dave, "autre", "ludime start", ia=1)
        lobby = (await fake.run_command(u.zoe, club, "ludix start")).message
        await fake.click(u.yann, lobby, label="Rejoindre")
        await fake.click(u.zoe, lobby, label="Lancer")
        await fake.run_command(u.yann, club, "armada start", adversaire="bot")

    loop.run(setup())
    assert fake.errors == []
    # Modo (whom Alice's nickname names) never acts: any ping of Modo would be a leak
    w.places = {"A": [(fake.channel("jeux"), [u.alice, u.bruno, u.chloe, u.dave]),
                      (fake.channel("autre"), [u.alice, u.bruno, u.chloe, u.dave])],
                "B": [(club, [u.zoe, u.yann])]}
    w.commands = leaves([c for c in fake.commands.values() if c.guild_id in (None, fake.guild_id)])
    w.loop = loop
    w.cases = 0
    w.refused = 0
    try:
        yield w
    finally:
        print(w.bot.log[-3000:])
        w.bot.kill()
        loop.run(fake.stop())
        loop.close()


def check_case(w, res, before, log_from: int, what) -> None:
    text = "\n".join(m.content or "" for m in res.messages)
    assert not any(x in text for x in INTERNAL), (what, text[:500])
    assert res.response_type is not None, (what, "no answer")
    if not res.public_messages:
        w.refused += 1
        assert snapshot(w.bot.db) == before, (what, "a refusal changed a game", text[:300])
    log = w.bot.log[log_from:]
    bad = [line for line in log.splitlines() if "Traceback" in line or '"level": "error"' in line]
    assert bad == [], (what, log[-3000:])
    assert w.fake.errors == [], (what, w.fake.errors)
    assert w.fake.validation_errors == [], (what, w.fake.validation_errors)


# the bot's state carries over from one example to the next: a failing example cannot be replayed
# or shrunk, so hypothesis only generates (and reports the first failure as it happened)
@settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=not SLOW,
          suppress_health_check=list(HealthCheck), phases=[Phase.generate])
@given(data=st.data())
def test_fuzz_commands_and_components(arena, data):
    w, fake = arena, arena.fake
    server = data.draw(st.sampled_from(["A", "A", "B"]), label="server")
    channel, members = data.draw(st.sampled_from(w.places[server]), label="channel")
    user = data.draw(st.sampled_from(members), label="user")
    everyone = [m for ms in (x[1] for p in w.places.values() for x in p) for m in ms]
    kind = data.draw(st.sampled_from(["command", "command", "command", "autocomplete", "forged", "click"]),
                     label="kind")
    before = snapshot(w.bot.db)
    log_from = len(w.bot.log)
    w.cases += 1
    if kind in ("command", "autocomplete"):
        path, options = data.draw(st.sampled_from(w.commands), label="command")
        given: dict[str, Any] = {}
        for d in options:
            if d.get("required") or data.draw(st.booleans(), label=f"use {d['name']}"):
                value = data.draw(option_value(d, everyone), label=d["name"])
                given[d["name"]] = value
        if kind == "autocomplete":
            auto = [d["name"] for d in options if d.get("autocomplete")]
            if not auto:
                return
            focused = data.draw(st.sampled_from(auto), label="focused")
            given[focused] = str(given.get(focused, ""))[:100]
            choices = w.loop.run(fake.autocomplete(user, channel, path, given, focused=focused,
                                                   check_deadline=False))
            assert len(list(choices)) <= 25
            assert snapshot(w.bot.db) == before
            log = w.bot.log[log_from:]
            assert "Traceback" not in log and '"level": "error"' not in log, log[-3000:]
            return
        res = w.loop.run(fake.run_command(user, channel, path, given, validate=False, check_deadline=False))
        check_case(w, res, before, log_from, (path, given))
        return
    message = last_control(fake, channel) or next(
        (m for m in reversed(fake.messages(channel)) if m.visible_to is None), None)
    if message is None:
        return
    if kind == "click":  # a real button or select of the channel, by anyone present
        ids = [c for c in message.buttons] + [s for s in message.selects]
        if not ids:
            return
        comp = ids[data.draw(st.integers(0, 999), label="component") % len(ids)]
        wrong = data.draw(st.booleans(), label="wrong type")
        ctype = comp.get("type", fm.C_BUTTON)
        if wrong:
            ctype = fm.C_STRING_SELECT if ctype == fm.C_BUTTON else fm.C_BUTTON
        values = [o["value"] for o in comp.get("options") or []]
        picked = [(values or ["x"])[i % len(values or ["x"])]
                  for i in data.draw(st.lists(st.integers(0, 99), max_size=2), label="values")]
        cid = comp["custom_id"]
    else:  # a forged custom id: any game (here, elsewhere, another server, none), verb, version
        game = data.draw(st.one_of(st.integers(1, 40), st.integers(10**17, 10**18)), label="game")
        verb = data.draw(st.one_of(st.sampled_from(VERBS), st.text("abcxyz_", min_size=1, max_size=25)),
                         label="verb")
        version = data.draw(st.one_of(st.integers(0, 50), st.integers(10**8, 10**9), st.just(10**30)),
                            label="version")
        arg = data.draw(st.one_of(st.none(), st.text(max_size=30), st.sampled_from(["0", "1", "A1", "1.x"])),
                        label="arg")
        cid = f"ludibot:{game}:{verb}:{version}" + (f":{arg}" if arg is not None else "")
        cid = cid[:100]
        ctype = data.draw(st.sampled_from([fm.C_BUTTON, fm.C_STRING_SELECT]), label="type")
        picked = data.draw(st.lists(text_values().map(lambda s: s[:100]), max_size=3), label="values")

    async def send():
        msg = fake._current(message, user)
        payload: dict[str, Any] = {"custom_id": cid, "component_type": ctype}
        if ctype == fm.C_STRING_SELECT:
            payload["values"] = picked
        rec = fake._new_interaction(fm.IT_MESSAGE_COMPONENT, user, fake.channel(msg.channel_id), payload,
                                    message=msg)
        return await fake._fire(rec, "component", True, None, None, None, False)

    res = w.loop.run(send())
    check_case(w, res, before, log_from, (kind, cid, ctype, picked))


def test_fuzz_left_every_message_harmless(arena):
    """After the fuzz (same bot and fake, so this runs second): every message the bot sent during
    it shows the names literally and pings only whom the bot meant to."""
    w = arena
    assert w.cases > 0 and w.refused > 0
    print(f"fuzz: {w.cases} cases, {w.refused} refused, {len(w.rec.sent)} messages checked")
    u = w.u
    players = {x.id for x in (u.alice, u.bruno, u.chloe, u.dave, u.modo, u.zoe, u.yann)}
    check_sent(w.rec, [], u.modo.id, players - {u.modo.id})
