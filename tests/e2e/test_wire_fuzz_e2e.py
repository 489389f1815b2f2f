"""Fuzz the real bot at the wire (issue 23): gateway frames and interaction payloads it did not expect.

The fake Discord sends, to ONE bot process, frames that are not JSON, not objects, nested 1,000
levels deep, of unknown opcodes and event types, with ``null`` where an object is expected, and
interactions mangled on the way: lone UTF-16 surrogates in any string, integers past 2**64, an
unknown component or option type, fields removed or ``null``, JSON nested 1,000 deep in a field —
mixed with real clicks (join / leave) in a lobby of each of the seven games. Must hold: the process
never exits and its shard never reconnects; every real click is answered inside Discord's 3 s;
no game changes because of a malformed payload; no answer is "internal error" nor public; the bot
sends nothing Discord would refuse (the fake refuses a body with a lone surrogate).

Also here: every command with a required option, sent without it (a client whose list of
commands is stale), and every command sent with an option it no longer has, get the precise
"this command has just changed" answer; a lone surrogate in each kind of text the bot keeps (an
option, a display name, a Ludime word) is replaced before it reaches the database or a message.

One bot process serves the whole module. Short by default (300 malformed frames and 16 real clicks,
about 25 s of fuzzing); ``LUDIBOT_SLOW=1`` runs the long version too (``slow``: 3,000 frames).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import sqlite3
import time
from typing import Any

import pytest

from bot import i18n
from tests.e2e.closed_doors import make_world
from tests.e2e.harness import wait_control
from tests.e2e.test_fuzz_e2e import Loop, leaves

pytestmark = pytest.mark.e2e

SLOW = os.environ.get("LUDIBOT_SLOW") == "1"
INTERNAL = tuple(i18n.t("common.error.internal", lg) for lg in ("fr", "en"))
STALE = {lg: i18n.t("payload.error.stale_command", lg) for lg in ("fr", "en")}
LONE = re.compile("[\ud800-\udfff]")
SURROGATES = ["\ud800", "\udfff", "\udbff", "\udc00", "\ud83d"]
DEEP = 1000
#: the seven games, each with what its /start needs
GAMES = {"ludix": {}, "ranta": {"mode": "classique"}, "ludime": {}, "limit": {"plateau": "nexus"},
         "tectonic": {}, "armada": {}, "lutinades": {}}
#: lobbies of two seats at most: only Bruno joins them (and leaves)
TWO_SEATS = ("armada", "tectonic")
#: placeholder the JSON text of a nested value replaces (json.dumps cannot nest 1,000 deep)
NEST = "__nested_1000__"


def snapshot(db) -> list[tuple]:
    with sqlite3.connect(db) as con:
        games = con.execute("SELECT id, status, version, state, options, channel_id FROM games ORDER BY id").fetchall()
        seats = con.execute("SELECT game_id, seat, user_id, name FROM seats ORDER BY game_id, seat").fetchall()
    return games + seats


def dump(obj: Any) -> str:
    """JSON as Discord may write it: lone surrogates as ``\\udXXX`` escapes, the nested placeholder
    replaced by an array nested :data:`DEEP` levels."""
    return json.dumps(obj, ensure_ascii=True).replace(json.dumps(NEST), "[" * DEEP + "]" * DEEP)


def paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    """Every (path, value) inside a payload."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append((prefix + (k,), v))
            out.extend(paths(v, prefix + (k,)))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.append((prefix + (i,), v))
            out.extend(paths(v, prefix + (i,)))
    return out


TOUCHED: list[tuple] = []  # the paths the last mangle changed (said when a check fails)


def put(obj: Any, path: tuple, value: Any) -> None:
    TOUCHED.append(path)
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


def drop(obj: Any, path: tuple) -> None:
    TOUCHED.append(path)
    for key in path[:-1]:
        obj = obj[key]
    del obj[path[-1]]


#: what identifies the interaction: mangled only by the "unanswerable" kinds (removed or null)
IDENTITY = {("id",), ("token",), ("application_id",)}
#: what a real click cannot lose (or have replaced) and still be the same click: on the lobby's real
#: « Rejoindre » button only these are mangled, so that the click is malformed, never merely odd
ESSENTIAL = {("type",), ("data",), ("data", "custom_id"), ("data", "component_type"), ("member",),
             ("member", "user"), ("member", "user", "id"), ("message",), ("message", "id"), ("message", "components"),
             ("guild_id",),
             ("channel",), ("channel", "id")}


def mangle(kind: str, rng: random.Random, *, text_ok: bool):
    """A function payload -> JSON text for one kind of malformed interaction. ``text_ok``: the base
    interaction changes nothing even when read (a status command, a forged click), so lone
    surrogates may go into any of its strings (user names included)."""

    def apply(p: dict[str, Any]) -> str:
        TOUCHED.clear()
        every = [(path, v) for path, v in paths(p) if path not in IDENTITY and (text_ok or path in ESSENTIAL)]
        if kind == "surrogate":
            strings = [(path, v) for path, v in every if isinstance(v, str)
                       and (text_ok or path[-1] == "custom_id")]
            for path, v in rng.sample(strings, min(len(strings), rng.randint(1, 6))):
                at = rng.randint(0, len(v))
                put(p, path, v[:at] + rng.choice(SURROGATES) + v[at:])
        elif kind == "bigint":
            numbers = [(path, v) for path, v in every if isinstance(v, int) and not isinstance(v, bool)
                       or isinstance(v, str) and v.isdigit()] or every
            for path, _ in rng.sample(numbers, min(len(numbers), rng.randint(1, 3))):
                put(p, path, rng.choice([2**64, 2**64 + 1, 10**30, -(2**70), 2**64 * 3]))
        elif kind == "deep":
            path, _ = rng.choice(every)
            put(p, path, NEST)
        elif kind == "unknown_type":
            data = p.get("data") or {}
            if not text_ok:
                data["component_type"] = rng.choice([99, 0, 2**64, "2"])
            elif "component_type" in data:
                data["component_type"] = rng.choice([99, 0, 2**64, "2"])
            else:
                data.setdefault("options", []).append({"name": "inconnue", "type": rng.choice([99, 0, 12]),
                                                       "value": "x"})
        elif kind == "null":
            holders = [(path, v) for path, v in every if isinstance(v, (dict, list)) or not text_ok] or every
            path, _ = rng.choice(holders)
            put(p, path, None)
        elif kind == "missing":
            path, _ = rng.choice(every)
            drop(p, path)
        elif kind == "unanswerable":
            path = rng.choice(sorted(IDENTITY))
            if rng.random() < 0.5:
                drop(p, path)
            else:
                put(p, path, None)
        elif kind == "not_object":
            return rng.choice(["null", "[]", '"texte"', "42", "[" * DEEP + "]" * DEEP])
        elif kind == "not_json":
            text = dump(p)
            return text[: rng.randint(1, len(text) - 1)]  # cut anywhere: never valid JSON
        return dump(p)

    return apply


INTERACTION_KINDS = ["surrogate", "bigint", "deep", "unknown_type", "null", "missing", "unanswerable",
                     "not_object", "not_json"]


def raw_frames(rng: random.Random) -> list[str]:
    """Whole gateway frames the bot did not expect (no sequence number: nothing to resume)."""
    junk = {"id": str(rng.randint(10**17, 10**18)), "name": "x\ud800y", "n": 2**64 + 5}
    return [
        "ceci n'est pas du JSON",
        '{"op": 0, "t": "MESSAGE_CREATE", "d": {"id": "1"',  # cut short
        "\x00\x01\x02",
        "null", "[]", '"op"', "1e999",
        "[" * DEEP + "]" * DEEP,
        '{"op": 0, "t": "X", "d": ' + "[" * DEEP + "]" * DEEP + "}",
        json.dumps({"op": 0, "t": "LUDIBOT_NO_SUCH_EVENT", "d": junk}),
        json.dumps({"op": 0, "t": "GUILD_UPDATE", "d": None}),
        json.dumps({"op": 0, "t": "CHANNEL_UPDATE", "d": {}}),
        json.dumps({"op": 0, "t": "MESSAGE_CREATE", "d": junk}),
        json.dumps({"op": 0, "t": "INTERACTION_CREATE", "d": None}),
        json.dumps({"op": 0, "t": "INTERACTION_CREATE", "d": junk}),
        json.dumps({"op": 0, "t": None, "d": junk}),
        json.dumps({"op": 2**64 + 1, "d": junk}),
        json.dumps({"op": 99, "d": None}),
        json.dumps({"op": 10, "d": None}),  # a HELLO without its interval
        json.dumps({"op": 0, "t": "GUILD_ROLE_UPDATE", "d": {"guild_id": None, "role": None}}),
        json.dumps({"op": 0, "t": "THREAD_CREATE", "d": {"id": junk["id"], "guild_id": str(2**70)}}),
        json.dumps({"d": junk}),
    ]


@pytest.fixture(scope="module")
def arena(tmp_path_factory):
    loop = Loop()
    tmp = tmp_path_factory.mktemp("wire")
    w = loop.run(make_world(tmp, nasty=False, env={"LUDIBOT_SCHEDULER_POLL": "100000"}))
    fake, u = w.fake, w.u
    w.loop = loop
    w.disconnects = []
    fake.listeners.append(lambda event, obj: w.disconnects.append(obj) if event == "gateway_disconnect" else None)

    async def setup():
        w.lobbies = {}
        for game, options in GAMES.items():
            ch = fake.add_channel(f"fuzz-{game}")
            await fake.wait_until(lambda ch=ch: ch.id in fake.channels, timeout=20)
            await asyncio.sleep(0.2)  # the bot has the CHANNEL_CREATE
            res = await fake.run_command(u.alice, ch, f"{game} start", **options)
            assert res.message is not None and res.message.buttons, (game, res)
            w.lobbies[game] = (ch, res.message)

    loop.run(setup())
    w.commands = leaves([c for c in fake.commands.values() if c.guild_id in (None, fake.guild_id)])
    try:
        yield w
    finally:
        if w.bot.proc.poll() is not None:
            print(w.bot.log[-5000:])
        w.bot.kill()
        loop.run(fake.stop())
        loop.close()


def game_id(db, channel_id: int) -> int:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT id FROM games WHERE channel_id = ?", (channel_id,)).fetchone()[0]


def seated(db, gid: int) -> set[int]:
    with sqlite3.connect(db) as con:
        return {r[0] for r in con.execute("SELECT user_id FROM seats WHERE game_id = ?", (gid,))}


def check_malformed(res, what) -> None:
    """A malformed interaction: answered privately and precisely, or (unanswerable) not at all."""
    text = "\n".join(m.content or "" for m in res.messages)
    assert not any(x in text for x in INTERNAL), (what, text[:300])
    assert res.public_messages == [], (what, text[:300])


async def malformed_burst(w, rng: random.Random, count: int, stats: dict[str, int]) -> None:
    """``count`` malformed frames and interactions at once; waits for every answer (or its deadline)."""
    fake, u = w.fake, w.u
    pending = []
    for _ in range(count):
        kind = rng.choice(["frame", *INTERACTION_KINDS])
        stats[kind] = stats.get(kind, 0) + 1
        if kind == "frame":
            await fake.send_raw_frame(rng.choice(raw_frames(rng)))
            continue
        game = rng.choice(list(GAMES))
        ch, lobby = w.lobbies[game]
        user = rng.choice([u.bruno, u.chloe, u.dave, u.modo])
        base = rng.choice(["status", "join", "forged"])
        if base == "status":
            res = await fake.raw_command(user, ch, f"{game} status", mangle=mangle(kind, rng, text_ok=True),
                                         wait=False)
        elif base == "forged":
            res = await fake.raw_click(user, lobby, custom_id=f"ludibot:{rng.randint(1, 10**6)}:join",
                                       mangle=mangle(kind, rng, text_ok=True), wait=False)
        else:  # the lobby's real join button, mangled: must change nothing either
            cid = next(b["custom_id"] for b in fake._current(lobby, user).buttons if b.get("label") == "Rejoindre")
            res = await fake.raw_click(user, lobby, custom_id=cid, mangle=mangle(kind, rng, text_ok=False),
                                       wait=False)
        pending.append((res, (kind, base, game, list(TOUCHED))))
    results = await asyncio.gather(*(r.wait(check_deadline=False, settle=0.1, timeout=6) for r, _ in pending))
    for res, (_, what) in zip(results, pending, strict=True):
        check_malformed(res, what)
        stats["answered"] = stats.get("answered", 0) + (res.response_type is not None)


async def real_click(w, rng: random.Random, game: str, expected: dict[str, set[int]]) -> float:
    """A real join or leave in the game's lobby; returns its answer's latency (seconds)."""
    fake, u = w.fake, w.u
    ch, lobby = w.lobbies[game]
    user = u.bruno if game in TWO_SEATS else rng.choice([u.bruno, u.chloe])
    joining = user.id not in expected[game]
    res = await fake.click(user, lobby, label="Rejoindre" if joining else "Quitter", check_deadline=False)
    assert res.latency is not None and res.latency < 3.0, (game, res)
    text = "\n".join(m.content or "" for m in res.messages)
    assert not any(x in text for x in INTERNAL), (game, text[:300])
    assert not res.ephemeral and res.updated, (game, joining, text[:300])  # the lobby shows the new seats
    (expected[game].add if joining else expected[game].discard)(user.id)
    return res.latency


def run_wire_fuzz(w, rounds: int, burst: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    fake, bot = w.fake, w.bot
    expected = {g: seated(bot.db, game_id(bot.db, ch.id)) for g, (ch, _) in w.lobbies.items()}
    stats: dict[str, Any] = {}
    latencies: list[float] = []
    disconnects = len(w.disconnects)
    t0 = time.monotonic()

    async def round_():
        before = snapshot(bot.db)
        await malformed_burst(w, rng, burst, stats)  # alone: nothing may change
        assert snapshot(bot.db) == before, "a malformed payload changed a game"
        # then mixed: real clicks while more malformed frames arrive
        clicks = [real_click(w, rng, game, expected) for game in rng.sample(list(GAMES), 4)]
        out = await asyncio.gather(malformed_burst(w, rng, burst // 4, stats), *clicks)
        latencies.extend(out[1:])
        for g, (ch, _) in w.lobbies.items():
            assert seated(bot.db, game_id(bot.db, ch.id)) == expected[g], g

    for _ in range(rounds):
        w.loop.run(round_())
        assert bot.proc.poll() is None, bot.log[-3000:]
    assert len(w.disconnects) == disconnects, "the shard reconnected"
    assert fake.connected
    assert fake.validation_errors == [], fake.validation_errors
    log = bot.log
    assert "dropped a malformed gateway event" in log
    bad = [line for line in log.splitlines() if "Traceback" in line or '"level": "error"' in line]
    assert bad == [], "\n".join(line[-1500:] for line in bad[:8])
    stats["frames"] = sum(v for k, v in stats.items() if k != "answered")
    stats["clicks"] = len(latencies)
    stats["click_p_max"] = round(max(latencies), 3)
    stats["seconds"] = round(time.monotonic() - t0, 1)
    print("wire fuzz:", stats)
    return stats


def test_wire_fuzz_short(arena):
    stats = run_wire_fuzz(arena, rounds=4, burst=60, seed=23)
    assert stats["frames"] >= 300 and stats["clicks"] == 16
    assert stats["answered"] > 0  # readable-enough interactions were answered, not dropped silently


@pytest.mark.slow
@pytest.mark.skipif(not SLOW, reason="the long wire fuzz runs with LUDIBOT_SLOW=1")
def test_wire_fuzz_long(arena):
    stats = run_wire_fuzz(arena, rounds=40, burst=60, seed=2323)
    assert stats["frames"] >= 3000


def test_stale_commands_get_a_precise_answer(arena):
    """Every command with a required option, sent without it, and every command sent with an
    option it does not have: « cette commande vient de changer », in the user's language."""
    w, fake, u = arena, arena.fake, arena.u
    ch = fake.add_channel("stale")
    w.loop.run(asyncio.sleep(0.3))
    before = snapshot(w.bot.db)
    checked = {"missing": [], "unknown": []}

    async def go():
        for path, options in w.commands:
            required = [o for o in options if o.get("required")]
            user = u.dave if len(checked["unknown"]) % 2 else u.alice
            lg = "en" if user is u.dave else "fr"
            cases: list[tuple[str, Any]] = [("unknown", lambda p: dump(add_unknown(p)))]
            if required:
                cases.insert(0, ("missing", dump))
            for kind, how in cases:
                res = await fake.raw_command(user, ch, path, mangle=how, settle=0.05)
                assert res.response_type is not None, (path, kind, "no answer")
                assert res.ephemeral and STALE[lg] in res.content, (path, kind, res.content[:300])
                checked[kind].append(path)
        assert not any(x in "\n".join(m.content or "" for m in fake.messages(ch)) for x in INTERNAL)
        # a stale client typing in an option of a command the bot no longer has: no message can
        # answer an autocomplete, empty suggestions do
        choices = await fake.autocomplete(u.alice, ch, "ludime poser", {"partie": "1"}, focused="partie",
                                          mangle=lambda p: dump({**p, "data": {**p["data"], "name": "ancienne"}}))
        assert choices.result.response_type == 8 and list(choices) == [], choices.result

    w.loop.run(go(), timeout=300)
    assert snapshot(w.bot.db) == before
    assert len(checked["missing"]) == sum(1 for _, options in w.commands if any(o.get("required")
                                                                                for o in options))
    assert {p.split()[0] for p in checked["missing"]} >= set(GAMES) - {"ludix", "lutinades"}  # no required option there
    for top in (*GAMES, "classement", "profil", "historique"):
        assert any(p.split()[0] == top for p in checked["unknown"]), top
    assert len(checked["unknown"]) == len(w.commands)
    print(f"stale: {len(checked['missing'])} commands sent without their required option, "
          f"{len(checked['unknown'])} with an option they do not have")


def add_unknown(p: dict[str, Any]) -> dict[str, Any]:
    """The command's leaf options get one the bot does not declare (an option since removed)."""
    opts = p["data"].setdefault("options", [])
    while opts and opts[0].get("type") in (1, 2):
        opts = opts[0].setdefault("options", [])
    opts.append({"name": "ancienne", "type": 3, "value": "x"})
    return p


def lone_in_db(db) -> list[tuple]:
    found = []
    with sqlite3.connect(db) as con:
        con.text_factory = lambda b: b.decode("utf-8", "surrogatepass")
        for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            for row in con.execute(f"SELECT * FROM {table}"):  # noqa: S608 - the database's own table names
                found += [(table, v) for v in row if isinstance(v, str) and LONE.search(v)]
    return found


def test_lone_surrogates_never_reach_the_database_nor_a_message(arena):
    """An option, a display name and a Ludime word holding a lone surrogate: replaced by U+FFFD."""
    w, fake, u = arena, arena.fake, arena.u
    ch = fake.add_channel("surrogates")
    odd = fake.add_user("Zo\ud800é", locale="fr")  # a display name
    w.loop.run(asyncio.sleep(0.3))
    first = len(fake.messages(ch, include_deleted=True))

    async def go():
        # an option (a choice the bot would keep with the lobby's options, and echoes when refused)
        res = await fake.raw_command(u.alice, ch, "ludix start", {"rythme": "A\ud800B"}, mangle=dump)
        assert res.ephemeral and "A\ufffdB" in res.content, res  # not a pace: refused, shown replaced
        # a display name the bot keeps (a seat) and shows
        res = await fake.run_command(odd, ch, "ludime start", ia=1)
        assert res.response_type is not None and not any(x in res.content for x in INTERNAL), res
        await fake.click(odd, res.message, label="Lancer")
        table = await wait_control(fake, ch)
        await fake.click(odd, table, label="Piocher")  # a word is laid after drawing
        game = next(g for g in (await_game(w.bot.db, ch.id),) if g)
        names = seat_names(w.bot.db, game)
        assert any("\ufffd" in n for n in names), names
        # a Ludime word
        res = await fake.raw_command(odd, ch, "ludime poser", {"mot": "CH\udfffAT"}, mangle=dump)
        assert res.ephemeral and "CH\ufffdAT" in res.content, res  # the engine saw it replaced, and says why
        assert res.response_type is not None and not any(x in res.content for x in INTERNAL), res

    w.loop.run(go(), timeout=120)
    assert lone_in_db(w.bot.db) == []
    sent = fake.messages(ch, include_deleted=True)[first:]
    assert sent and not any(LONE.search(m.content or "") for m in sent)
    assert any("\ufffd" in (m.content or "") for m in sent)  # shown replaced, not dropped silently
    assert fake.validation_errors == [], fake.validation_errors
    bad = [line for line in w.bot.log.splitlines() if "Traceback" in line or '"level": "error"' in line]
    assert bad == [], w.bot.log[-3000:]


def await_game(db, channel_id: int) -> int | None:
    with sqlite3.connect(db) as con:
        row = con.execute("SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC", (channel_id,)).fetchone()
    return row[0] if row else None


def seat_names(db, gid: int) -> list[str]:
    with sqlite3.connect(db) as con:
        return [r[0] for r in con.execute("SELECT name FROM seats WHERE game_id = ?", (gid,))]
