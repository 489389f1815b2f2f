"""An 8-player Swiss Ludix tournament of three rounds, end to end (issue 28): the real bot process against the
strict fake Discord, on the clock the test moves.

Eight members (long and markdown names among them) enter by ``/tournoi inscrire``; ``/tournoi creer`` asks for
Ludix in pairs at the ``direct`` pace (a bank of 5 minutes, a minute back per move). Each round the bot opens
every table's game in a thread of its own and the players play them through the buttons (two rolls, then
stop) to Ludix's target. Round 1's last game ends and the bot is SIGKILLed at once (round 2 may be opening):
restarted on the same database, round 2 opens exactly once. In round 2 a player lets their clock run out at
their first turn (the timeout plays Ludix's default move: they bank nothing; the game goes on to its end);
in round 3 a player lets it run out twice in a row (Ludix's server default: the second consecutive timeout
forfeits the game, the forfeiting seat last).

Each game's result is read from its final card; the test computes the standings from those results by hand
(points: a win 1, a draw ½; Buchholz: the opponents' final points; Sonneborn-Berger: the points scored
against each opponent times theirs; then the rating, equal for newcomers, then the member's id) and checks
the podium (announced once), the standings picture of the end and of ``/tournoi etat`` (drawn from the hand
table, byte for byte), that no pair met twice, each round opened once, the ratings moved, and that the fake
recorded no validation error."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import time
from fractions import Fraction
from types import SimpleNamespace

import pytest
from PIL import Image

from bot.community import pairing as P
from bot.community.tournament_notice import card_args
from bot.community.tournaments import TournamentRow
from bot.safe import escape
from bot.storage import open_store
from fakediscord import FakeDiscord
from render.tournament import render_standings
from tests.e2e.harness import mentioned, read_game_row, start_bot, strict

pytestmark = pytest.mark.e2e

LEASE = 120.0  # bot.community.tournaments.LEASE: a lease held by the killed process runs out after it
BANK, INCREMENT = 5 * 60.0, 60.0  # bot.pace.FIXED["direct"]
FINAL = "Fin de la partie"
ROLL, REROLL, STOP = "Lancer les dés", "Relancer", "Stop (marquer)"
ROLLS_PER_TURN = 2  # two rolls then stop: about 27 clicks a game (the fewest, measured on the engine)

#: (name, locale): markdown, a mention-looking one, 32 characters (Discord's longest), accents
MEMBERS = [
    ("Alice", "fr"),
    ("**Bruno** le _gras_", "fr"),
    ("Chloé-Marguerite de la Tour-Pin", "fr"),
    ("Dave", "en-US"),
    ("@everyone `Éloïse`", "fr"),
    ("Farid ||caché||", "fr"),
    ("> Gaëlle ~~barrée~~ #1", "fr"),
    ("Hugo\\", "fr"),
]


@contextlib.asynccontextmanager
async def tournament_world(tmp_path):
    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux"], settle=0.12, timeout=20)
    players = [fake.add_user(name, locale=lg) for name, lg in MEMBERS]
    modo = fake.add_user("Modo", locale="fr", manage_guild=True)
    await fake.start()
    db = str(tmp_path / "ludibot.db")
    env = {"LUDIBOT_SCHEDULER_POLL": "0.3", "LUDIBOT_PUBLISH_POLL": "0.3"}
    bot = await start_bot(fake, tmp_path, extra_env=env, db=db)
    async with strict(SimpleNamespace(fake=fake, bot=bot, players=players, modo=modo, db=db)) as w:
        yield w


# --- reading the fake ---------------------------------------------------------------------------------
def threads(fake) -> list:
    parent = fake.channel("jeux")
    return [c for c in fake.channels.values() if c.is_thread and c.parent_id == parent.id]


def game_of(thread) -> int:
    return int(re.search(r"n°(\d+)", thread.name)[1])


def public_with(fake, text: str, channel="jeux") -> list:
    return [m for m in fake.messages(channel) if m.visible_to is None and text in (m.content or "")]


def newest_control(fake, thread):
    """The thread's newest public message with buttons, or its final card."""
    for msg in reversed(fake.messages(thread)):
        if msg.visible_to is None and not msg.deleted and (msg.buttons or FINAL in (msg.content or "")):
            return msg
    return None


async def round_threads(fake, seen: set[int], count: int = 4) -> list:
    """The round's ``count`` new game threads, each with its first card (the bot's own post)."""
    def ready():
        new = [t for t in threads(fake) if t.id not in seen]
        return len(new) >= count and all(newest_control(fake, t) is not None for t in new)

    await fake.wait_until(ready, timeout=60)
    new = sorted((t for t in threads(fake) if t.id not in seen), key=game_of)
    assert len(new) == count, [t.name for t in new]
    seen |= {t.id for t in new}
    return new


# --- playing --------------------------------------------------------------------------------------
async def click_turn(fake, by_id, msg, *, stop_at: int = ROLLS_PER_TURN):
    """The player expected on ``msg`` plays a whole turn (rolls ``stop_at`` times, then stops; a bust ends
    it sooner). Returns the newest control message (the next turn, or the final card)."""
    (uid,) = mentioned(msg)
    user = by_id[uid]
    for _ in range(stop_at):
        msg = await click(fake, user, msg, ROLL if ROLL in msg.button_labels else REROLL)
        if FINAL in (msg.content or "") or mentioned(msg) != [uid] or STOP not in msg.button_labels:
            return msg  # a bust (the turn passed) or the end
    return await click(fake, user, msg, STOP)


async def click(fake, user, msg, label: str):
    """The new message a click brings (the click's answer takes the buttons off the clicked message; the
    next turn follows as a follow-up, which may come after the answer on a loaded machine)."""
    res = await fake.click(user, msg, label=label, until=lambda r: r.message is not None and r.message.id != msg.id)
    assert res.message.id != msg.id, f"no follow-up to {label!r} on message {msg.id}"
    return res.message


async def play_out(fake, by_id, thread):
    """Play the thread's game to its end through the buttons; its final card."""
    msg = newest_control(fake, thread)
    for _ in range(200):
        if FINAL in (msg.content or ""):
            return msg
        msg = await click_turn(fake, by_id, msg)
    raise AssertionError(f"game {game_of(thread)} did not end")


def result_of(final, seats: list) -> dict[int, int]:
    """Each player's place, read from the final card's ranking ("1. Name — 312"; a game ended by a
    forfeit gives no scores: "1. Name", "2. Name — forfait")."""
    ranks = {}
    lines = final.content.splitlines()
    for user in seats:
        line = next(x for x in lines if re.match(rf"\d+\. {re.escape(str(escape(user.name)))}( — |$)", x))
        ranks[user.id] = int(line.split(".")[0])
    return ranks


def seats_of(w, game_id: int) -> list:
    """The game's players in seat order (read from the bot's database: the bot stays the only writer)."""
    row = read_game_row(w.db, game_id)
    by_id = {u.id: u for u in w.players}
    return [by_id[s.user_id] for s in sorted(row.seats, key=lambda s: s.seat)]


# --- the standings by hand -----------------------------------------------------------------------
def hand_standings(ids: list[int], games: list[tuple[int, int, Fraction]]) -> list[tuple]:
    """``games``: (a, b, a's points) each. Rows (id, rank, points, Buchholz, Sonneborn-Berger), best first:
    points, then Buchholz (the opponents' final points), then Sonneborn-Berger (each game's points times
    that opponent's final points), then (equal ratings) the member's id; equal keys share a rank."""
    pts = dict.fromkeys(ids, Fraction(0))
    for a, b, x in games:
        pts[a] += x
        pts[b] += 1 - x
    buch = dict.fromkeys(ids, Fraction(0))
    sb = dict.fromkeys(ids, Fraction(0))
    for a, b, x in games:
        buch[a] += pts[b]
        buch[b] += pts[a]
        sb[a] += x * pts[b]
        sb[b] += (1 - x) * pts[a]
    order = sorted(ids, key=lambda p: (-pts[p], -buch[p], -sb[p], p))
    rows = []
    for i, p in enumerate(order):
        key = (pts[p], buch[p], sb[p])
        rank = rows[-1][1] if rows and (rows[-1][2], rows[-1][3], rows[-1][4]) == key else i + 1
        rows.append((p, rank, *key))
    return rows


def half(x: Fraction) -> str:
    whole, rest = divmod(x, 1)
    return (f"{int(whole)}½" if whole else "½") if rest else str(int(whole))


def expected_png(rows, names: dict[int, str], rating: float, highlight: int | None = None) -> bytes:
    """The standings picture of the hand table (drawn by the bot's own renderer: it checks the figures,
    not the drawing)."""
    t = TournamentRow(id=1, guild_id=0, channel_id=0, kind="ludix", format=P.SWISS, rounds=3, places=8, creator_id=0,
                      round=3, total=3)
    standings = [P.Standing(p, rank, pts, b, sb, rating, 3, 0) for p, rank, pts, b, sb in rows]
    mine = next((i for i, s in enumerate(standings) if s.id == highlight), None) if highlight else None
    args = card_args(t, standings, names, "fr", highlight)
    assert args[4] == mine
    return render_standings(*args)


# --- the test --------------------------------------------------------------------------------------
async def test_swiss_ludix_of_eight_with_a_kill_a_timeout_and_a_forfeit(tmp_path):
    began = time.monotonic()
    async with tournament_world(tmp_path) as w:
        fake, modo, players = w.fake, w.modo, w.players
        by_id = {u.id: u for u in players}
        ids = sorted(by_id)
        # Ludix never forfeits by default: the server says the second timeout in a row does
        res = await fake.run_command(modo, "jeux", "ludibot config", jeu="ludix", forfait=2)
        assert res.ephemeral and "forfait" in res.content, res.content
        res = await fake.run_command(modo, "jeux", "tournoi creer", jeu="ludix", format="swiss", rondes=3,
                                     rythme="direct", places=8, joueurs=2)
        assert not res.ephemeral and "Tournoi n°1" in res.content and "3 rondes" in res.content, res.content
        for i, user in enumerate(players, 1):
            res = await fake.run_command(user, "jeux", "tournoi inscrire")
            assert not res.ephemeral and "participe au tournoi n°1" in res.content, res.content
            assert f"{i} sur 8" in res.content and str(escape(user.name)) in res.content
            assert res.message.mentioned_user_ids() == [] and "@everyone" not in res.content
        res = await fake.run_command(modo, "jeux", "tournoi lancer")
        assert "commence" in res.content and "8 personnes" in res.content and "3 rondes" in res.content

        seen: set[int] = set()
        games: list[tuple[int, int, Fraction]] = []  # (first seat, second seat, the first seat's points)
        pairs: list[frozenset] = []
        rounds: list[list[int]] = []

        def record(seats, ranks) -> None:
            a, b = seats
            x = Fraction(1, 2) if ranks[a.id] == ranks[b.id] else Fraction(int(ranks[a.id] < ranks[b.id]))
            games.append((a.id, b.id, x))

        async def open_round(number: int):
            got = await round_threads(fake, seen)
            tables = [seats_of(w, game_of(t)) for t in got]
            seated = [u.id for seats in tables for u in seats]
            assert sorted(seated) == ids, f"round {number}: everyone seated once"
            for seats in tables:
                pair = frozenset(u.id for u in seats)
                assert pair not in pairs, f"round {number}: {[u.name for u in seats]} met already"
                pairs.append(pair)
            rounds.append(sorted(game_of(t) for t in got))
            return got, tables

        # --- round 1: four games played out; the bot killed as the last one ends ---------------------
        got, tables = await open_round(1)
        assert public_with(fake, "ronde 1 sur 3")
        finals = await asyncio.gather(*(play_out(fake, by_id, t) for t in got[:3]))
        last = await play_out(fake, by_id, got[3])
        w.bot.kill()  # at once: round 2 may be half open, the lease held by the dead process
        for seats, final in zip(tables, [*finals, last], strict=True):
            record(seats, result_of(final, seats))
        await fake.wait_disconnected(timeout=10)
        w.bot.advance(LEASE + 5)
        w.bot.start()
        await fake.wait_ready(timeout=60, fresh=True)

        # --- round 2, opened once by whichever process: a player's clock runs out on their first turn ---
        got, tables = await open_round(2)
        finals = await asyncio.gather(*(play_out(fake, by_id, t) for t in got[:3]))
        slow_thread, (slow, other) = got[3], tables[3]
        first = newest_control(fake, slow_thread)
        assert mentioned(first) == [slow.id]
        w.bot.advance(BANK + 5)
        await fake.wait_until(lambda: newest_control(fake, slow_thread).id != first.id, timeout=30)
        notice = [m for m in fake.messages(slow_thread) if "pas joué à temps" in (m.content or "")]
        assert len(notice) == 1 and str(escape(slow.name)) in notice[0].content, [m.content for m in notice]
        assert mentioned(newest_control(fake, slow_thread)) == [other.id]  # Ludix's default: nothing banked
        slow_final = await play_out(fake, by_id, slow_thread)  # then the game goes on to its end
        for seats, final in zip(tables, [*finals, slow_final], strict=True):
            record(seats, result_of(final, seats))

        # --- round 3: a player lets the clock run out twice in a row and forfeits --------------------
        got, tables = await open_round(3)
        finals = await asyncio.gather(*(play_out(fake, by_id, t) for t in got[:3]))
        for seats, final in zip(tables[:3], finals, strict=True):
            record(seats, result_of(final, seats))
        gone_thread, (gone, stays) = got[3], tables[3]
        first = newest_control(fake, gone_thread)
        assert mentioned(first) == [gone.id]
        w.bot.advance(BANK + 5)  # first timeout: a pass
        await fake.wait_until(lambda: mentioned(newest_control(fake, gone_thread)) == [stays.id], timeout=30)
        assert "pas joué à temps" in newest_control(fake, gone_thread).content
        msg = await click_turn(fake, by_id, newest_control(fake, gone_thread), stop_at=1)
        assert mentioned(msg) == [gone.id]
        w.bot.advance(INCREMENT + 5)  # the bank after a timeout is the increment: the second timeout
        await fake.wait_until(lambda: FINAL in (newest_control(fake, gone_thread).content or ""), timeout=30)
        final = newest_control(fake, gone_thread)
        assert final.content.startswith(f"🏳️ {escape(gone.name)} a dépassé le délai trop de fois d'affilée"), final.content
        ranks = result_of(final, [gone, stays])
        assert ranks == {stays.id: 1, gone.id: 2}, final.content
        record([gone, stays], ranks)

        # --- the end: podium once, standings as by hand -------------------------------------------------
        await fake.wait_until(lambda: public_with(fake, "Fin du tournoi n°1"), timeout=30)
        await fake.wait_idle(quiet=1.0, timeout=20)
        assert len(threads(fake)) == 12 and len({game_of(t) for t in threads(fake)}) == 12
        for n in (1, 2, 3):
            # announced once, round 2 too (by whichever process: the killed one may have opened its games)
            assert len(public_with(fake, f"ronde {n} sur 3")) == 1, n
        (podium,) = public_with(fake, "Fin du tournoi n°1")
        rows = hand_standings(ids, games)
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        want = [f"{medals[rank]} <@{p}> — {half(pts)} pt" for p, rank, pts, _b, _sb in rows if rank <= 3]
        assert podium.content.splitlines()[1:] == want, (podium.content, rows)
        names = {u.id: " ".join(u.name.split()) for u in players}
        (card,) = podium.attachments
        assert card.filename == "tournoi-1.png"
        assert card.bytes == expected_png(rows, names, 1000.0), rows

        res = await fake.run_command(players[3], "jeux", "tournoi etat", tournoi=1)
        assert "(terminé)" in res.content and "Ronde 3 sur 3\u00a0: 0 partie en cours sur 4" in res.content, res.content
        (att,) = res.message.attachments
        assert att.bytes == expected_png(rows, names, 1000.0, highlight=players[3].id)
        assert Image.open(io.BytesIO(att.bytes)).width <= 720

        # the games count in the ratings as any game
        store = open_store(w.db)
        await store.open()
        try:
            for user in players:
                (row,) = [r for r, _pos, _total in await store.player_ratings(fake.guild_id, user.id)
                          if r.kind == "ludix"]
                assert row.games == 3, (user.name, row)
        finally:
            await store.close()
        assert not w.bot.tracebacks(), w.bot.tracebacks()
        # four games played at once in their threads, three rounds opened: Discord never said 429
        assert fake.rate_limited == [], fake.rate_limited[:5]
    print(f"tournament of 8, 3 rounds: {time.monotonic() - began:.1f} s; rounds {rounds}")
