"""Issue 25, through the real bot: a whole game of each of the seven games (Ludix, Ludime, Range ta
Ludothèque, Take it to the Limit, Tectonic, L'Invincible Armada, Lutinades) on a server set to
English (``/ludibot config langue:en``), and the same on a French server; everything the players are
shown must be in the server's language — every public card (its text displays, buttons, select
menus, every revision: lobby, turns, result, a cancelled lobby), every private answer (in the
player's own language, English or French here too: status, rules, /historique and its journal file,
refusals), every form (modal) and autocomplete list, the clock's messages (a reminder, a late turn,
an absence vote), and the words drawn in every picture posted (the table, the private boards, the
result's animated summary). test_language_e2e.py checks the setting itself (switching back, the
reader's own language).

One bot process and one fake Discord serve every test of the module: the server Ludothèque (French,
the default) and the server Games Club (set to English), a channel per game on each, and a channel
per clock test. Each test plays in its own channels and checks everything shown there, whatever
ran before it (any of them runs alone). The games are short ones, against the bot's AI seats where
the game has them; the human seats play the move the engine's AI picks, through the controls a
player uses (buttons, selects, forms, slash commands).

Pictures arrive as PNG (or WebP/GIF) bytes; the bot runs with ``LUDIBOT_PICTURE_TEXTS`` (see
``render.common``), which makes every picture it encodes leave the texts drawn on it under the
SHA-256 of its bytes: the test reads the words of each picture posted from there.

The measure of "a word of the other language" is the narration sweep's (tests/test_language_sweep.py):
a word one language's catalogs use and the other's never do (shared words such as « kallax » are
allowed there, each for a reason).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import pytest_asyncio

import engines
from bot import i18n
from fakediscord import FakeDiscord
from tests.e2e.harness import (
    LONG_DRAWING,
    StateReader,
    assert_card,
    one_test,
    read_game_row,
    seed_app_emojis,
    start_bot,
    strict,
    text_of,
)
from tests.test_language_sweep import SHARED, WORD, vocabulary

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

GAMES = ["ludime", "ranta", "limit", "tectonic", "armada", "lutinades", "ludix"]
#: the channels of the tests that play no whole game (the clock's, the settings'), away from the games'
CLOCKS = ["tectonic-clock", "lutinades-vote", "settings"]
LANGS = ["en", "fr"]
#: the players' display names (and the AI seats'), never words of either language
NAMES = ["Alice", "Bruno", "Chloé", "Erin", "Frank", "Gina", "Bot"]


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def shared(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("language-games")
    texts = tmp / "picture-texts"
    texts.mkdir()
    fake = FakeDiscord(guild_name="Ludothèque", channels=[*GAMES, *CLOCKS], settle=0.12, timeout=20)
    club = fake.add_guild("Games Club", channels=[f"en-{g}" for g in [*GAMES, *CLOCKS]], locale="en-US")
    users = {
        "fr": [fake.add_user("Alice", locale="fr"), fake.add_user("Bruno", locale="fr"), fake.add_user("Chloé", locale="fr")],
        "en": [fake.add_user("Erin", locale="en-US", guilds=[club]), fake.add_user("Frank", locale="en-GB", guilds=[club]),
               fake.add_user("Gina", locale="en-US", guilds=[club])],
    }
    admin = fake.add_user("Zed", locale="en-US", guilds=[club], manage_guild=True)
    admins = {"en": admin, "fr": fake.add_user("Yann", locale="fr", manage_guild=True)}
    seed_app_emojis(fake)  # the application's emojis exist (its steady state): the games start at once
    await fake.start()
    bot = await start_bot(fake, tmp, extra_env={"LUDIBOT_DEV_GUILD": "", "LUDIBOT_PICTURE_TEXTS": str(texts),
                                                "LUDIBOT_SCHEDULER_POLL": "0.2", "LUDIBOT_PUBLISH_POLL": "0.3"})
    w = SimpleNamespace(fake=fake, bot=bot, users=users, admins=admins, club=club, texts=texts, tmp=tmp, pictures={})
    async with strict(w):
        res = await fake.run_command(admin, fake.channel("en-ludime", guild=club), "ludibot config", langue="en")
        assert res.ephemeral, res.content
        yield w


@pytest_asyncio.fixture(loop_scope="module")
async def world(shared):
    """The module's world, for one test: its own errors and tracebacks (``world.errors()``, ``world.tracebacks()``)."""
    async with one_test(shared) as w:
        yield w


def channel(w, kind: str, lang: str):
    return w.fake.channel(f"en-{kind}", guild=w.club) if lang == "en" else w.fake.channel(kind)


# --- finding the controls of the current version (by custom id: ludibot:<game>:<verb>:<version>[:arg]) ----
def parts(component: dict[str, Any]) -> list[str]:
    return str(component.get("custom_id", "")).split(":")


def game_id_of(message) -> int:
    ids = [parts(c)[1] for c in [*message.buttons, *message.selects] if parts(c)[0] == "ludibot"]
    assert ids and ids[0].isdigit(), (message.content, [c.get("custom_id") for c in message.buttons])
    return int(ids[0])


def find(message, verb: str, arg: str | None = None) -> dict[str, Any] | None:
    for c in [*message.buttons, *message.selects]:
        p = parts(c)
        if len(p) > 3 and p[2] == verb and (arg is None or (len(p) > 4 and p[4] == arg)):
            return c
    return None


async def control(w, ch, gid: int, verb: str, arg: str | None = None, *, user=None, timeout: float = 20):
    """The newest message of ``ch`` (public, or private to ``user``) with the ``verb`` control of game
    ``gid`` (waited for: a move's publication may still be on its way)."""
    fake = w.fake

    def newest():
        for msg in reversed(fake.messages(ch)):
            if msg.deleted or msg.visible_to not in (None, getattr(user, "id", None)):
                continue
            c = find(msg, verb, arg)
            if c is not None and parts(c)[1] == str(gid):
                return msg, c
        return None

    await fake.wait_until(lambda: newest() is not None, timeout=timeout)
    return newest()


async def click(w, ch, gid: int, user, verb: str, arg: str | None = None):
    msg, c = await control(w, ch, gid, verb, arg, user=user)
    return await w.fake.click(user, msg, custom_id=c["custom_id"])


async def my_turn(reader: StateReader, gid: int, seats: dict[int, Any], limit: float = 30):
    """Wait until one of the human ``seats`` is expected (or the game is over): (game, state, seat)."""
    engine = reader.engine
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while loop.time() < end:
        game, state = await reader.state(gid)
        if game.status != "running":
            return game, state, None
        mine = sorted(s for s in engine.expected(state) if s in seats)
        if mine:
            return game, state, mine[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"game {gid}: no human seat expected for {limit} s")


async def play(w, kind: str, lang: str, gid: int, seats: dict[int, Any], act, moves: int) -> int:
    """Play game ``gid`` to its end: ``act(game, state, seat, user)`` sends one move of a human seat;
    then the private views of a finished game: its status, its rules (every page), its history.
    Returns ``gid``."""
    fake, ch = w.fake, channel(w, kind, lang)
    async with StateReader(w.bot.db, engines.get(kind)) as reader:
        for n in range(moves):
            game, state, seat = await my_turn(reader, gid, seats)
            if seat is None:
                break
            if n == 1:  # a running game's status
                await fake.run_command(seats[seat], ch, f"{kind} status", partie=gid)
            if n == 2:  # someone who does not play: the status, and a refusal of the table's controls
                other = next(u for u in w.users[lang] if u not in seats.values())
                await fake.run_command(other, ch, f"{kind} status", partie=gid)
                # the table: the card of the game's newest version, once published (the last move's
                # card may still be on its way, and then takes the controls off the one before it)
                await fake.wait_until(lambda: not (row := read_game_row(w.bot.db, gid)).due
                                      and row.control_message_id in fake.message_by_id, timeout=20,
                                      what=f"{kind} game {gid}'s newest version published")
                table = fake.message_by_id[read_game_row(w.bot.db, gid).control_message_id]
                for button in table.buttons[:2]:
                    res = await fake.click(other, table, custom_id=button["custom_id"])
                    assert res.ephemeral, res.content
            await act(game, state, seat, seats[seat])
        else:
            pytest.fail(f"{kind} ({lang}) did not end in {moves} moves")
        assert game.status == "finished", game.status
    user = seats[min(seats)]
    res = await fake.run_command(user, ch, f"{kind} status", partie=gid)
    assert res.ephemeral, res.content
    res = await fake.run_command(user, ch, f"{kind} rules")
    card = res.message
    (pages,) = card.selects
    for option in pages["options"]:
        await fake.select(user, card, [option["value"]], custom_id=fake.message_by_id[card.id].selects[0]["custom_id"],
                          until=lambda r: r.response_type is not None)  # the card, turned in place
    # /historique: the viewer (a card: its step, ◀, « Aller à… »), then its journal with the animated
    # summary and « Partager » (a public card in the server's language; once per member and window)
    res = await fake.run_command(user, ch, "historique", partie=gid)
    assert res.ephemeral, res.content
    # (the journal follows the viewer once its animation is drawn, in the bot's low-priority worker)
    await fake.wait_until(lambda: len([m for m in res.messages if m.ephemeral]) >= 2, timeout=LONG_DRAWING)
    viewer, journal = [m for m in res.messages if m.ephemeral][:2]
    assert_card(viewer, pictures=1)
    assert_card(journal)
    await fake.click(user, viewer, custom_id=viewer.buttons[1]["custom_id"])
    shown_now = assert_card(fake.message_by_id[viewer.id], pictures=1)
    if shown_now.selects:
        (jump,) = shown_now.selects
        await fake.select(user, viewer, [jump["options"][0]["value"]], custom_id=jump["custom_id"],
                          until=lambda r: r.response_type is not None)
        assert_card(fake.message_by_id[viewer.id], pictures=1)
    share = i18n.t("replay.button.share", lang)
    if share in journal.button_labels:
        shared = await fake.click(user, journal, label=share,
                                  until=lambda r: bool(r.public_messages) or (r.ephemeral and bool(r.content)))
        for posted in shared.public_messages:
            assert_card(posted, pictures=1)
    return gid


async def lobby_started(w, ch, user, command: str, **options):
    """``/<game> start`` by ``user`` with AI seats: the lobby, started by its creator alone."""
    fake = w.fake
    res = await fake.run_command(user, ch, command, **options)
    assert not res.ephemeral, res.content
    lobby = res.message
    lang = "en" if ch.name.startswith("en-") else "fr"
    gid = game_id_of(lobby)
    await fake.click(user, lobby, label=i18n.t("common.button.start", lang))
    return gid


async def lobby_and_cancel(w, kind: str, lang: str, **options) -> None:
    """A lobby with options off the beaten track (its card lists them), joined, left, then cancelled."""
    fake, ch, (user, other, *_) = w.fake, channel(w, kind, lang), w.users[lang]
    res = await fake.run_command(user, ch, f"{kind} start", **options)
    assert not res.ephemeral, res.content
    gid = game_id_of(res.message)
    await fake.run_command(other, ch, f"{kind} join", partie=gid)
    await fake.run_command(other, ch, f"{kind} leave", partie=gid)
    res = await fake.run_command(user, ch, f"{kind} cancel", partie=gid)
    assert not res.ephemeral, res.content


LOBBIES = {
    "ludix": {"objectif": 150, "rythme": "lent"},
    "ludime": {"variant": "mot-unique", "rythme": "rapide"},
    "ranta": {"mode": "classique", "ia": 1},
    "limit": {"plateau": "orchidee", "tuiles": "lune", "paires": True, "serie": 2},
    "tectonic": {"recul_pic": "diagonale", "niveau": 3},
    "armada": {"plateau": "11x11", "rythme": "direct"},
    "lutinades": {"variante": "en-grand", "ia": 2, "niveau": 2},
}


# --- the games ----------------------------------------------------------------------------------
async def play_ludix(w, lang: str) -> int:
    ch, (user, *_) = channel(w, "ludix", lang), w.users[lang]
    gid = await lobby_started(w, ch, user, "ludix start", objectif=50, ia=1, niveau=2)
    engine = engines.get("ludix")

    async def act(game, state, seat, user):
        await click(w, ch, gid, user, engine.ai_action(state, seat)["type"])  # « Lancer les dés » / « Stop »

    return await play(w, "ludix", lang, gid, {0: user}, act, 200)


async def play_ludime(w, lang: str) -> int:
    fake, ch, (user, *_) = w.fake, channel(w, "ludime", lang), w.users[lang]
    gid = await lobby_started(w, ch, user, "ludime start", variant="main", ia=1)
    engine = engines.get("ludime")
    shown = False

    async def act(game, state, seat, user):
        nonlocal shown
        if not shown:  # « Ma main »: the hand, privately
            shown = True
            await click(w, ch, gid, user, "mine")
        action = engine.ai_action(state, seat)
        kind = action["type"]
        if kind == "draw":
            await click(w, ch, gid, user, "draw" if action.get("source", "pile") == "pile" else "take")
        elif kind == "undo_take":
            await click(w, ch, gid, user, "undo")
        elif kind == "pass":
            await click(w, ch, gid, user, "pass")
        elif kind == "discard":
            res = await click(w, ch, gid, user, "discard_menu")
            await fake.select(user, res.message, [action["letter"]])
        elif kind == "play":
            await fake.run_command(user, ch, "ludime poser", mot=", ".join(action["words"]))
        elif kind == "extend":
            await fake.run_command(user, ch, "ludime allonger", mot=f"#{action['target']}", nouveau=action["word"])
        elif kind == "exchange":
            await fake.run_command(user, ch, "ludime echanger", lettres=" ".join(action["letters"]))
        else:
            raise AssertionError(f"no gesture for {action}")

    return await play(w, "ludime", lang, gid, {0: user}, act, 300)


async def play_ranta(w, lang: str) -> int:
    fake, ch, (user, *_) = w.fake, channel(w, "ranta", lang), w.users[lang]
    res = await fake.run_command(user, ch, "ranta start", mode="expert", solo=True)
    gid = game_id_of(res.message)
    rounds = 0

    async def act(game, state, seat, user):
        nonlocal rounds
        rounds += 1
        if rounds == 1:  # the buttons: « Ma kallax », then « Ranger un jeu » and its selects
            await click(w, ch, gid, user, "mine")
            res = await click(w, ch, gid, user, "box")
            (sel,) = res.message.selects
            res = await fake.select(user, res.message, [sel["options"][0]["value"]])
            if parts(sel)[2] == "pick":
                cell = res.message.selects[-1]
                res = await fake.select(user, res.message, [cell["options"][0]["value"]], custom_id=cell["custom_id"])
        else:  # the commands, their autocomplete lists
            res = None
            des = await fake.autocomplete(user, ch, "ranta placer", {"des": ""}, focused="des")
            for value in des.values:
                cells = await fake.autocomplete(user, ch, "ranta placer",
                                                {"des": value, "orientation": "vertical", "case": ""}, focused="case")
                if cells.values:
                    res = await fake.run_command(user, ch, "ranta placer", des=value, orientation="vertical",
                                                 case=cells.values[-1])
                    break
            if res is None:
                cells = await fake.autocomplete(user, ch, "ranta tapis", {"case": ""})
                res = await fake.run_command(user, ch, "ranta tapis", case=cells.values[0] if cells.values else "A1")
        assert res.ephemeral and find(res.message, "confirm"), res.content
        await fake.click(user, res.message, custom_id=find(res.message, "confirm")["custom_id"])

    return await play(w, "ranta", lang, gid, {0: user}, act, 14)


async def play_limit(w, lang: str) -> int:
    """The Orchidée board (25 tiles), then its end: moving the big orchid's tiles, from the panel."""
    fake, ch, (user, *_) = w.fake, channel(w, "limit", lang), w.users[lang]
    res = await fake.run_command(user, ch, "limit start", plateau="orchidee", variante="standard", solo=True)
    gid = game_id_of(res.message)
    engine = engines.get("limit")
    placed = 0

    async def act(game, state, seat, user):
        nonlocal placed
        action = engine.ai_action(state, seat)
        if action["type"] == "relocate":  # « Déplacer »: the panel, then « Appliquer la meilleure »
            res = await fake.run_command(user, ch, "limit deplacer")
            assert res.ephemeral and res.message.buttons, res.content
            await fake.click(user, res.message, custom_id=res.message.buttons[0]["custom_id"])
            return
        placed += 1
        if placed == 1:  # the buttons: « Placer », a position from the list, the preview, « Confirmer »
            res = await click(w, ch, gid, user, "place")
            sel = res.message.selects[0]
            res = await fake.select(user, res.message, [sel["options"][0]["value"]], custom_id=sel["custom_id"])
            await fake.click(user, res.message, custom_id=find(res.message, "pconfirm")["custom_id"])
            return
        await fake.run_command(user, ch, "limit placer", position=action["position"])

    return await play(w, "limit", lang, gid, {0: user}, act, 40)


async def play_tectonic(w, lang: str) -> int:
    from tests.e2e.tectonic_driver import answered, send_move

    fake, ch, (user, *_) = w.fake, channel(w, "tectonic", lang), w.users[lang]
    res = await fake.run_command(user, ch, "tectonic start", adversaire="bot", niveau=1, until=answered)
    gid = game_id_of(next(m for m in res.public_messages if m.buttons))
    engine = engines.get("tectonic")
    opened = False

    async def act(game, state, seat, user):
        nonlocal opened
        if not opened:  # « Jouer un coup »: the form of the legal moves (left unsent)
            opened = True
            res = await click(w, ch, gid, user, "form")
            assert res.modal is not None, res.content
        await send_move(fake, user, engine.ai_action(state, seat, 1), channel=ch)

    return await play(w, "tectonic", lang, gid, {0: user}, act, 400)


async def play_armada(w, lang: str) -> int:
    fake, ch, (user, *_) = w.fake, channel(w, "armada", lang), w.users[lang]
    res = await fake.run_command(user, ch, "armada start", adversaire="bot", niveau=1, plateau="9x9")
    gid = game_id_of(next(m for m in res.messages if m.buttons or m.selects))
    engine = engines.get("armada")
    opened = False

    async def act(game, state, seat, user):
        nonlocal opened
        if not opened and find_form(w, ch, gid):
            opened = True
            res = await click(w, ch, gid, user, "form")
            assert res.modal is not None, res.content
        action = engine.ai_action(state, seat, 1)
        kind = action["type"]
        if kind == "place":
            await fake.run_command(user, ch, "armada placer", point=action["point"])
        elif kind == "move":
            await fake.run_command(user, ch, "armada deplacer", de=action["from"], vers=action["to"])
        elif kind == "pivot":
            await fake.run_command(user, ch, "armada pivoter", de=action["from"], vers=action["to"])
        elif kind == "capture":
            await click(w, ch, gid, user, "capture", action["point"])
        elif kind == "pass":
            await click(w, ch, gid, user, "pass")
        else:
            raise AssertionError(f"no gesture for {action}")

    seats = {s.seat: user for s in (await game_row(w, gid)).seats if not s.is_ai}
    return await play(w, "armada", lang, gid, seats, act, 400)


def find_form(w, ch, gid: int) -> bool:
    return any(find(m, "form") and parts(find(m, "form"))[1] == str(gid)
               for m in w.fake.messages(ch) if m.visible_to is None and not m.deleted)


async def game_row(w, gid: int):
    async with StateReader(w.bot.db, None) as reader:
        return await reader.game(gid)


async def play_lutinades(w, lang: str) -> int:
    ch, (user, *_) = channel(w, "lutinades", lang), w.users[lang]
    gid = await lobby_started(w, ch, user, "lutinades start", variante="lutins-malins", ia=3, niveau=1)
    engine = engines.get("lutinades")
    seen_card = False

    async def act(game, state, seat, user):
        nonlocal seen_card
        action = engine.ai_action(state, seat, 1)
        if action["type"] == "gesture":
            if not seen_card:  # « Ma carte »: the lutin's own card, privately
                seen_card = True
                await click(w, ch, gid, user, "card")
            arg = f"{state.turn}.{action['gesture']}" + (f".{action['side']}" if action.get("side") else "")
            await click(w, ch, gid, user, "gesture", arg)
        else:
            await click(w, ch, gid, user, "follow", str(action["lutin"]))

    return await play(w, "lutinades", lang, gid, {0: user}, act, 200)


PLAYERS = {"ludix": play_ludix, "ludime": play_ludime, "ranta": play_ranta, "limit": play_limit, "tectonic": play_tectonic,
           "armada": play_armada, "lutinades": play_lutinades}


# --- reading what was shown ----------------------------------------------------------------------
def component_texts(components: list[dict[str, Any]] | None) -> list[str]:
    """Every text a player reads in components: text displays, labels, placeholders, options."""
    out: list[str] = []
    stack = list(components or [])
    while stack:
        c = stack.pop(0)
        for key in ("content", "label", "placeholder", "title", "description", "value"):
            if c.get("type") == 4 and key == "value":
                continue  # a text input's value is what the player typed
            if isinstance(c.get(key), str) and key != "value":
                out.append(c[key])
        for option in c.get("options") or []:
            out.extend(str(option.get(k)) for k in ("label", "description") if option.get(k))
        for key in ("components", "items"):
            stack.extend(x for x in c.get(key) or [] if isinstance(x, dict))
        if isinstance(c.get("component"), dict):
            stack.append(c["component"])
        if isinstance(c.get("accessory"), dict):
            stack.append(c["accessory"])
    return out


def picture_texts(w, att) -> list[str] | None:
    """The words the bot drew on the picture ``att`` (None: not recorded), read once per attachment."""
    if att.id not in w.pictures:
        path: Path = w.texts / f"{hashlib.sha256(att.data).hexdigest()}.json"
        w.pictures[att.id] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
    return w.pictures[att.id]


def shown(w, ch) -> list[tuple[str, str, str]]:
    """(where, audience language, text) of everything shown in ``ch``: each message (each revision),
    its pictures' words, the forms opened and the autocomplete lists there."""
    fake = w.fake
    out: list[tuple[str, str, str]] = []
    server = "en" if ch.name.startswith("en-") else "fr"
    unread: list[str] = []
    for msg in fake.messages(ch, include_deleted=True):
        if msg.kind == "user":
            continue
        audience = server if msg.visible_to is None else i18n.lang_of(fake.users[msg.visible_to].locale)
        where = f"message {msg.id} ({'public' if msg.visible_to is None else 'private'})"
        for rev in [*msg.revisions, msg]:
            texts = [rev.content or "", *component_texts(rev.components)]
            for e in rev.embeds:
                texts.extend(str(e.get(k) or "") for k in ("title", "description"))
            out.extend((where, audience, t) for t in texts if t)
            for att in rev.attachments:
                if att.filename.endswith(".txt"):  # /historique's move-by-move log, its name shown
                    out.append((f"{where}, file {att.filename}", audience, att.data.decode("utf-8")))
                    out.append((f"{where}, file name", audience, att.filename))
                elif att.filename.endswith((".png", ".webp", ".gif")):
                    words = picture_texts(w, att)
                    if words is None:
                        unread.append(f"{where}: {att.filename}")
                    else:
                        out.extend((f"{where}, picture {att.filename}", audience, t) for t in words)
    for rec in fake.interactions.values():
        if rec.channel.id != ch.id:
            continue
        lang = i18n.lang_of(rec.user.locale) if getattr(rec, "user", None) else server
        if rec.modal:
            out.extend((f"form of interaction {rec.id}", lang, t) for t in [rec.modal.get("title", ""),
                                                                            *component_texts(rec.modal.get("components"))])
        for choice in rec.choices or []:
            out.append((f"autocomplete of interaction {rec.id}", lang, str(choice.get("name"))))
    assert unread == [], f"pictures whose words the bot did not record: {unread}"
    return out


@cache
def theirs_only(lang: str) -> frozenset[str]:
    """The words only the other language's catalogs use (the narration sweep's measure)."""
    return vocabulary("en" if lang == "fr" else "fr") - vocabulary(lang) - SHARED


def foreign(text: str, lang: str) -> list[str]:
    """As the sweep's ``foreign``: upper-case words are a Ludime word or letters, not the bot's."""
    return [w for w in WORD.findall(text) if not w.isupper() and w.lower() in theirs_only(lang)]


NAME = re.compile(rf"\b({'|'.join(NAMES)})\b")
#: a word cut short to fit a picture (« Range 2 · Rang… »)
CUT = re.compile(r"([^\W\d_]+)…")
#: no words: links (a reminder's link to the turn), mentions, timestamps, custom emojis
NOISE = re.compile(r"https?://\S+|<[@#]!?\d+>|<a?:\w+:\d+>|<t:\d+:\w>|</[^:>\n]+:\d+>")


def other_language_words(text: str, lang: str) -> list[str]:
    """The words of ``text`` that only the other language writes (a player's name is no word; a
    word cut short counts when no word of ``lang`` begins so)."""
    own = vocabulary(lang)

    def cut(m: re.Match) -> str:
        stem = m.group(1).lower()
        return " " if any(w.startswith(stem) for w in own) else m.group(0)

    return foreign(CUT.sub(cut, NAME.sub(" ", NOISE.sub(" ", text))), lang)


def leftovers(w, ch) -> tuple[list[tuple[str, str, str]], list[str]]:
    """What was shown in ``ch``, and the texts with a word of the other language."""
    found, texts = [], shown(w, ch)
    for where, lang, text in texts:
        bad = other_language_words(text, lang)
        if bad:
            found.append(f"[{lang}] {where}: {bad} in {text[:300]!r}")
    return texts, found


async def test_the_measure_finds_the_other_language():  # async: the module is marked asyncio
    assert other_language_words("Alice plays colline E2 → E3", "en") == ["colline"]
    assert other_language_words("Bruno déplace sa colline de E2 à E3.", "fr") == []
    assert other_language_words("Range 2 (F2–F3) · Rang…", "en") == []  # « Range », cut short
    assert other_language_words("Partie n°9 — class…", "en") == ["Partie"]
    assert other_language_words("Erin rolls the dice", "fr")
    assert other_language_words("⏰ Rappel\u00a0: à vous. https://discord.com/channels/1/2/3", "fr") == []


def all_in_the_server_s_language(w, where: str, lang: str) -> list[tuple[str, str, str]]:
    """Everything shown in channel ``where`` of the ``lang`` server is in that language (the players
    there speak it too): the texts shown."""
    ch = channel(w, where, lang)
    texts, bad = leftovers(w, ch)
    assert bad == [], "\n".join(bad)
    assert {audience for _, audience, _ in texts} == {lang}, (where, lang)
    return texts


async def summary_words(w, kind: str, lang: str, gid: int) -> list[str]:
    """The animated summary the bot adds to game ``gid``'s result card once drawn (2 s after the
    result): waited for; the words of its frames and ranking in the other language (none expected)."""
    fake, ch = w.fake, channel(w, kind, lang)

    def summary():
        return next((a for m in fake.messages(ch) if m.visible_to is None and not m.deleted for a in m.attachments
                     if a.filename.startswith(f"ludibot-{kind}-{gid}.")), None)

    # (drawn in the bot's low-priority worker, niceness 10: beside the suite's CPU-bound tests it gets a tenth
    # of a core, and its 2-3 s of CPU took over 30 s once)
    await fake.wait_until(lambda: summary() is not None, timeout=LONG_DRAWING,
                          what=f"the animated summary of {kind} game {gid} on the {lang} server")
    att = summary()
    words = picture_texts(w, att)
    assert words, att.filename  # the bot recorded what it drew on it
    return [f"[{lang}] summary {att.filename}: {bad} in {t!r}" for t in words if (bad := other_language_words(t, lang))]


# --- the tests -----------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", GAMES)
async def test_a_whole_game_in_each_language(world, kind):
    """The game is played on the English server and on the French one at the same time; everything
    shown in its channels — every card and its revisions, private answers, forms, autocomplete lists,
    the words drawn in its pictures and in its animated summary — is in the server's language."""
    await asyncio.gather(*(lobby_and_cancel(world, kind, lang, **LOBBIES[kind]) for lang in LANGS))
    played = await asyncio.gather(*(PLAYERS[kind](world, lang) for lang in LANGS))
    assert world.errors() == []
    found: list[str] = []
    for lang, gid in zip(LANGS, played, strict=True):
        texts = all_in_the_server_s_language(world, kind, lang)
        where = [w for w, _, _ in texts]
        assert len(texts) > 50 and any("picture" in w for w in where), (kind, lang, len(texts))
        assert kind not in ("tectonic", "armada") or any(w.startswith("form") for w in where), (kind, lang)
        assert kind != "ranta" or any(w.startswith("autocomplete") for w in where), lang
        found += await summary_words(world, kind, lang, gid)
    assert found == [], "\n".join(found)
    assert world.tracebacks() == []


async def test_a_late_player_is_reminded_then_played_for_in_each_language(world):
    """The clock's messages (no interaction behind them): a Tectonic game between two players at the
    live pace; the player to move does not, is reminded, then runs out of time and the bot plays. Each
    server is told in its own language."""
    fake, bot = world.fake, world.bot
    games = {}
    for lang in LANGS:
        ch, (first, second, _) = channel(world, "tectonic-clock", lang), world.users[lang]
        lobby = (await fake.run_command(first, ch, "tectonic start", rythme="direct")).message
        games[lang] = game_id_of(lobby)
        await fake.click(second, lobby, label=i18n.t("common.button.join", lang))
        await fake.click(first, lobby, label=i18n.t("common.button.start", lang))

    def posted(lang: str) -> list:
        return [m for m in fake.messages(channel(world, "tectonic-clock", lang)) if m.kind != "user"]

    async def moves(gid: int) -> list:
        async with StateReader(bot.db, None) as reader:
            return await reader.store.events(gid)

    def said(lang: str, key: str, part: int) -> bool:  # a message of the channel says the catalog's text
        words = i18n.t(key, lang, players="\x00", player="\x00", game="\x00", id=0, link="", since="")
        return any(words.split("\x00")[part].strip() in text_of(m) for m in posted(lang))

    assert [await moves(games[lang]) for lang in LANGS] == [[], []]
    bot.advance(3 * 60)  # past the reminder (2 min): the player to move is reminded, in the server's language
    await fake.wait_until(lambda: all(said(lang, "community.reminder.channel", 0) for lang in LANGS), timeout=20,
                          what="a reminder posted on each server")
    assert [await moves(games[lang]) for lang in LANGS] == [[], []]  # reminded, not played for
    bot.advance(3 * 60)  # past the 5-minute bank: the bot plays for the player
    for lang in LANGS:
        gid = games[lang]
        async with StateReader(bot.db, None) as reader:
            loop = asyncio.get_running_loop()
            end = loop.time() + 20
            while not [e for e in await reader.store.events(gid) if e.action.get("_by") == "timeout"]:
                assert loop.time() < end, f"the bot never played for the late player of game {gid} ({lang})"
                await asyncio.sleep(0.1)
    await fake.wait_until(lambda: all(said(lang, "community.timeout.played", 1) for lang in LANGS), timeout=20,
                          what="the timeout's move told on each server")
    await fake.wait_idle(quiet=0.5)
    for lang in LANGS:
        all_in_the_server_s_language(world, "tectonic-clock", lang)
    assert world.tracebacks() == []


async def test_the_others_vote_on_a_stalled_player_in_each_language(world):
    """Three players of Lutinades at the live pace: the lutins do not make their gesture; once their
    time is out the others vote (the stalled player's own click is refused), the bot plays for them.
    Each server sees the vote, its refusals and its outcome in its own language."""
    fake, bot = world.fake, world.bot
    games = {}
    for lang in LANGS:
        ch, (picker, *lutins) = channel(world, "lutinades-vote", lang), world.users[lang]
        lobby = (await fake.run_command(picker, ch, "lutinades start", rythme="direct")).message
        games[lang] = game_id_of(lobby)
        for user in lutins:
            await fake.click(user, lobby, label=i18n.t("common.button.join", lang))
        await fake.click(picker, lobby, label=i18n.t("common.button.start", lang))

    def ballots(lang: str) -> list:
        return [(m, b) for m in fake.messages(channel(world, "lutinades-vote", lang)) if m.visible_to is None
                and not m.deleted for b in m.buttons if b.get("custom_id", "").endswith("-ai")]

    bot.advance(6 * 60)  # past the 5-minute bank: a vote for each lutin
    await fake.wait_until(lambda: all(ballots(lang) for lang in LANGS), timeout=20,
                          what="a vote about the stalled lutins on each server")
    await fake.wait_idle(quiet=0.5)
    refused = 0
    for lang in LANGS:
        for msg, button in ballots(lang):
            for user in world.users[lang]:  # (the stalled lutin's own ballot is refused; a decided vote is gone)
                if any(b.get("custom_id") == button["custom_id"] for b in fake.message_by_id[msg.id].buttons):
                    res = await fake.click(user, msg, custom_id=button["custom_id"])
                    own = i18n.t("community.vote.own_seat", lang, game=games[lang]).split(":")[0]
                    refused += res.ephemeral and own in res.content
    assert refused  # a stalled player may not vote about their own seat: told so, in their language
    # the others voted for the bot: it played for the stalled lutins
    for lang in LANGS:
        gid = games[lang]
        async with StateReader(bot.db, None) as reader:
            loop = asyncio.get_running_loop()
            end = loop.time() + 20
            while not [e for e in await reader.store.events(gid) if e.action.get("_by")]:
                assert loop.time() < end, f"the bot never played for a stalled lutin of game {gid} ({lang})"
                await asyncio.sleep(0.1)
    await fake.wait_idle(quiet=0.5)
    for lang in LANGS:
        all_in_the_server_s_language(world, "lutinades-vote", lang)
    assert world.tracebacks() == []


async def test_the_settings_view_profiles_and_queues_are_cards_in_each_language(world):
    """Issue 36: the server's settings (the default pace told once, a game named only for what differs
    from it), /profil and /chercher's waiting answer are cards, in the server's language (every word
    of them read, in a channel of their own)."""
    fake = world.fake
    for lang in LANGS:
        ch, admin, user = channel(world, "settings", lang), world.admins[lang], world.users[lang][0]
        res = await fake.run_command(admin, ch, "ludibot config")
        assert res.ephemeral and assert_card(res.message)
        pace = i18n.t("common.pace.normal", lang)
        assert res.content.count(pace) == 1, res.content  # the default, once; no game repeats it
        assert i18n.t("tectonic.name.title", lang) in res.content  # its own forfeit rule differs
        res = await fake.run_command(admin, ch, "ludibot config", jeu="ludix", rappel=12)
        assert res.ephemeral and assert_card(res.message)
        res = await fake.run_command(user, ch, "profil")
        assert not res.ephemeral and assert_card(res.message)
        res = await fake.run_command(user, ch, "chercher", jeu="tectonic")
        assert res.ephemeral and assert_card(res.message)
        res = await fake.run_command(user, ch, "chercher", quitter=True)
        assert res.ephemeral
    assert world.errors() == []
    for lang in LANGS:
        all_in_the_server_s_language(world, "settings", lang)
