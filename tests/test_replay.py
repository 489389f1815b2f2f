"""Replays (issue 27), below Discord: every position of every replay is what a spectator saw then
(the public view of the live game at that version) and passes the hidden-information checks, for
games of all seven kinds; frames = positions (or rounds); identical bytes on re-render; a game of
an older engine schema replays or says clearly that it cannot; the journal reads like the game."""

from __future__ import annotations

import dataclasses
import io
import json
import random
from types import SimpleNamespace

import pytest
from PIL import Image

import engines
from bot import i18n
from bot.community import replay as R
from bot.community.replay import ReplayError, ReplayService, frame_order, plain, ranking, replay
from bot.render_pool import RenderPool
from bot.sessions import SessionService
from bot.storage import EventRow, SQLiteStore
from engines.base import RuleError
from render.animation import shown_of
from tests.engines.test_lutinades_hidden import check_gestures_hidden, check_picker_blind
from tests.replay_games import LONGEST, Recording, game_cogs, play

#: what only a seat itself sees: absent (None, False, empty) from every spectator frame
PERSONAL = {"ludime": {"hand", "drawn", "can_take"}, "limit": {"legal", "board", "relocation"},
            "lutinades": {"role", "card", "my_gesture"}}
#: per-seat parts of a view, and who owns each element (its owner may see more of it)
OWNED = {"ranta": ("sheets", lambda i, element: {i}), "limit": ("boards", lambda i, element: set(element["seats"]))}
VARIANTS = [(kind, players, options) for kind, (players, options) in LONGEST.items()] + [
    ("ranta", 3, {"mode": "expert"}), ("ludime", 3, {"variant": "mot-unique"}),
    ("lutinades", 4, {"variante": "lutins-malins"}), ("limit", 2, {"plateau": "orchidee"}), ("ranta", 1, {}),
]


def check_frame(kind: str, state, frame: dict, players: int) -> None:
    """The frame shows of every seat's part exactly what every *other* seat sees, and nothing
    personal: no hand, no drawn card, no hidden card, no gesture before its reveal, no kallax or
    board placement before the round closes."""
    engine = engines.get(kind)
    assert frame["seat"] is None
    for key in PERSONAL.get(kind, ()):
        assert not frame.get(key), (kind, key, frame.get(key))
    owned_key, owners = OWNED.get(kind, (None, None))
    for seat in range(players):
        seen = engine.view(state, seat)
        for key, value in frame.items():
            if key == "seat" or key in PERSONAL.get(kind, ()):
                continue
            if key == owned_key:
                for i, element in enumerate(value):
                    if seat not in owners(i, element):
                        assert element == seen[key][i], (kind, key, i, seat)
                continue
            assert value == seen.get(key), (kind, key, seat)
    if kind == "lutinades":  # the engine's own twin checks: the card and the gestures stay hidden
        rng = random.Random(0)
        check_picker_blind(state, rng)
        check_gestures_hidden(state, rng)


@pytest.fixture
async def world(db_path):
    store = SQLiteStore(db_path)
    await store.open()
    rec = Recording(store)
    svc = SessionService(rec, seed_source=lambda: 4242)  # type: ignore[arg-type]
    yield SimpleNamespace(store=store, rec=rec, svc=svc)
    await store.close()


@pytest.mark.parametrize(("kind", "players", "options"), VARIANTS, ids=lambda v: str(v))
async def test_every_position_is_what_a_spectator_saw_and_hides_what_they_could_not(world, kind, players, options):
    g = await play(world.svc, kind, players, options, humans=min(2, players))
    rows = await world.store.events(g.id)
    item = replay(g, rows)
    engine = engines.get(kind)
    assert len(item) == len(rows) + 1  # one position per log entry, and the start
    states = [world.rec.starts[g.id]] + [world.rec.states[row.version] for row in rows]
    for pos, stored, row in zip(item.positions, states, [None, *rows], strict=True):
        state = engine.from_dict(stored)
        assert pos.view == engine.view(state, None)  # the public view of the live game at that version
        check_frame(kind, state, pos.view, players)
        assert all(e.get("private_to") is None for e in pos.events)
        if row is not None:
            assert pos.n == rows.index(row) + 1 and pos.seat == row.seat
    assert [p.n for p in item.positions] == list(range(len(item)))


async def test_a_running_game_replays_up_to_its_current_move(world):
    g = await play(world.svc, "ludime", 3, {}, stop_after=5)
    rows = await world.store.events(g.id)
    item = replay(g, rows)
    assert g.status == "running" and len(item) == len(rows) + 1 >= 6
    engine = engines.get("ludime")
    assert item.positions[-1].view == engine.view(engine.from_dict(g.state), None)


async def test_a_lobby_is_not_replayed(world):
    from tests.replay_games import GUILD, HUMANS

    g = await world.svc.open_lobby("ludix", guild_id=GUILD, channel_id=1, player=HUMANS[0])
    with pytest.raises(ReplayError) as err:
        replay(g, [])
    assert err.value.key == "replay.error.not_started"


# --- older schemas ------------------------------------------------------------------------------
async def test_a_state_of_an_older_schema_replays_when_its_log_still_applies(world):
    g = await play(world.svc, "tectonic", 2, {})
    rows = await world.store.events(g.id)
    old = dataclasses.replace(g, state={**g.state, "schema": 0, "renamed_field": 1})
    with pytest.raises(ValueError):
        engines.get("tectonic").from_dict(old.state)  # the stored state no longer loads...
    item = replay(old, rows)  # ...but seed + log still give the game
    assert len(item) == len(rows) + 1 and item.positions[-1].view == replay(g, rows).positions[-1].view


async def test_a_bug_while_reading_the_stored_table_is_logged_and_never_reads_as_a_match(world, monkeypatch,
                                                                                        caplog):
    g = await play(world.svc, "tectonic", 2, {})
    rows = await world.store.events(g.id)
    engine = engines.get("tectonic")

    def broken(self, data):
        raise TypeError("a bug in from_dict")

    monkeypatch.setattr(type(engine), "from_dict", broken)
    with caplog.at_level("ERROR", logger="ludibot.replay"), pytest.raises(ReplayError) as err:
        replay(g, rows)
    assert err.value.key == "replay.error.schema"
    bug = [r for r in caplog.records if r.name == "ludibot.replay" and r.levelname == "ERROR"]
    assert len(bug) == 1 and bug[0].exc_info and bug[0].exc_info[0] is TypeError


async def test_a_log_that_no_longer_applies_says_clearly_that_it_cannot_replay(world):
    g = await play(world.svc, "tectonic", 2, {})
    rows = await world.store.events(g.id)
    bad = list(rows)
    bad[3] = dataclasses.replace(bad[3], action={"type": "move", "from": "Z99", "to": "Z98"})
    with pytest.raises(ReplayError) as err:
        replay(g, bad)
    assert err.value.key == "replay.error.schema" and err.value.params == {"game": g.id}
    text = i18n.t(err.value.key, "fr", **err.value.params)
    assert f"partie n°{g.id}" in text and "version antérieure des règles" in text and "journal" in text
    # a log that applies but ends elsewhere than the stored table (the rules changed): refused too
    with pytest.raises(ReplayError):
        replay(g, rows[:-3])


async def test_a_game_whose_kind_or_options_are_gone_says_it_cannot_replay(world):
    g = await play(world.svc, "ludix", 2, {}, stop_after=2)
    rows = await world.store.events(g.id)
    for changed in (dataclasses.replace(g, kind="belote"), dataclasses.replace(g, options={"objectif": "beaucoup"})):
        with pytest.raises(ReplayError) as err:
            replay(changed, rows)
        assert err.value.key == "replay.error.schema"


# --- frames, bytes, cache -------------------------------------------------------------------------
def service(world, pool=None):
    bot = SimpleNamespace(store=world.store, sessions=world.svc, render_pool=pool or RenderPool(0),
                          game_cogs=game_cogs(world.svc))
    return ReplayService(bot)


async def test_frames_are_the_positions_or_the_rounds_and_rerendering_gives_the_same_bytes(world):
    short = await play(world.svc, "ludix", 2, {})
    long = await play(world.svc, "limit", 2, {})  # 44 tiles: past MAX_FRAMES, one frame per round
    # gestures change nothing visible until they are revealed: identical pictures in a row
    quiet = await play(world.svc, "lutinades", 4, {}, stop_after=6)
    for g in (short, long, quiet):
        rows = await world.store.events(g.id)
        item = replay(g, rows)
        order = frame_order(item)
        if len(item) <= R.MAX_FRAMES:
            assert order == list(range(len(item)))
        else:
            assert len(order) == len(item.groups()) == 44 and order[-1] == len(item) - 1
            assert all(item.positions[i].group != item.positions[i + 1].group for i in order[:-1])
        first = await service(world).summary(g, "fr")
        again = await service(world).summary(g, "fr")  # another process, nothing cached
        # every position of the order, or fewer, evenly spread, for tall frames; fewer still for Limit, whose
        # boards all change at every round (R.SUMMARY_PIXELS: its frames are encoded whole), the first and
        # the last kept
        job = service(world).animation_job(g, item, "fr", [], "")
        shown = shown_of(*job.args[:2], max_pixels=job.kwargs.get("max_pixels"))
        if g.kind == "limit":
            assert len(job.args[1]) == len(order) == 44 and 24 <= len(shown) < len(order)
            assert shown[0] == job.args[1][0] and shown[-1] == job.args[1][-1]
        else:
            assert len(shown) == len(order)
        assert first is not None and first.data == again.data and first.frames == len(shown)
        img = Image.open(io.BytesIO(first.data))
        assert img.n_frames == len(shown) and len(first.data) <= 8 * 1024 * 1024  # no frame merged away
        assert img.format == first.ext.upper()


def test_a_long_game_with_few_rounds_is_sampled_every_few_moves_with_every_round_end():
    positions = tuple(R.Position(n, {}, group=1 + n // 60) for n in range(150))  # 3 long rounds
    item = R.Replay(1, "ludime", 1, positions)
    order = frame_order(item)
    assert len(order) <= R.MAX_FRAMES + len(item.round_ends())
    assert set(item.round_ends()) <= set(order) and order[0] == 0 and order[-1] == 149


async def test_a_click_reads_the_cached_replay_and_a_new_move_extends_it(world):
    svc = service(world)
    g = await play(world.svc, "ludix", 2, {}, stop_after=3)
    first = await svc.get(g)
    assert await svc.get(g) is first and svc.cache.builds == 1
    g = (await world.svc.act(g.id, g.seats[min(world.svc.expected_seats(g))].user_id, {"type": "roll"},
                             version=g.version)).game
    later = await svc.get(g)
    assert len(later) > len(first) and svc.cache.builds == 2
    assert later.positions[: len(first)] == first.positions


def test_the_cache_keeps_the_newest_replays_within_its_positions():
    cache = R.ReplayCache(max_positions=10)
    items = [R.Replay(g, "ludix", 1, tuple(R.Position(n, {}) for n in range(4))) for g in range(4)]
    for item in items:
        cache.put(item)
    assert cache.get(0, 1) is None and cache.get(1, 1) is None and cache.get(3, 1) is items[3]
    big = R.Replay(9, "limit", 1, tuple(R.Position(n, {}) for n in range(30)))
    assert cache.put(big) is big and cache.get(9, 1) is big  # one replay larger than the bound is kept alone


async def test_pictures_are_drawn_once_and_a_position_without_one_shows_the_previous(world):
    svc = service(world)
    g = await play(world.svc, "limit", 2, {}, stop_after=4)
    item = await svc.get(g)
    a = await svc.picture(g, item, len(item) - 1, "fr")
    assert a[:4] == b"\x89PNG" and await svc.picture(g, item, len(item) - 1, "fr") is a


# --- words --------------------------------------------------------------------------------------
def test_plain_text_has_no_markdown_no_timestamps_and_keeps_the_names():
    text = "`3` **Alice** : joue <t:1795678043:R> ~~x~~ __y__ ||z|| <@42> -- \\*\\*gras\\*\\* \\<\u200b@\u200b1>"
    out = plain(text, names={42: "Bruno"})
    # the markup goes, the timestamp is a date; a name's own characters (escaped) come back as typed
    assert out == "3 Alice : joue 2026-11-26 07:27 UTC x y z Bruno -- **gras** <@1>"
    assert plain("<t:0:R>", when=lambda s: f"[{s}]") == "[0]"


def rows_of(*actions) -> list[EventRow]:
    return [EventRow(id=i, game_id=1, version=i, seat=seat, user_id=None, action=action, events=events,
                     created_at=0.0) for i, (seat, action, events) in enumerate(actions, start=1)]


def result_rows(pairs):
    from bot.storage import ResultRow

    return [ResultRow(game_id=1, seat=s, user_id=None, score=score, rank=rank) for s, (rank, score) in enumerate(pairs)]


def test_the_ranking_says_how_a_game_ended_and_never_shows_a_dash_or_zeros_for_no_score():
    game = SimpleNamespace(names=["Alice", "Bruno"])
    done = rows_of((0, {"type": "roll"}, []))
    assert ranking(game, done, result_rows([(2, 0), (1, 1)]), "fr") == ["1. Bruno — 1 point", "2. Alice — 0 point"]
    assert ranking(game, done, result_rows([(1, 12), (2, 3)]), "en") == ["1. Alice — 12 points",
                                                                       "2. Bruno — 3 points"]
    resigned = rows_of((0, {"type": "resign"}, [{"type": "resigned", "seat": 0}]))
    lines = ranking(game, resigned, result_rows([(2, 0), (1, 0)]), "fr")
    assert lines == ["1. Bruno", "2. Alice — abandon", "Partie terminée par abandon\u00a0: pas de score."]
    forfeit = rows_of((1, {"type": "forfeit", "_by": "timeout"}, [{"type": "forfeit", "seat": 1}]))
    lines = ranking(game, forfeit, result_rows([(1, None), (2, None)]), "en")
    assert lines == ["1. Alice", "2. Bruno — forfeited", "The game ended by forfeit: no scores."]
    unscored = ranking(game, done, result_rows([(1, None), (1, None)]), "fr")
    assert unscored == ["1. Alice", "1. Bruno"] and not any(" — -" in x for x in unscored)
    nasty = SimpleNamespace(names=["**A**", "<@1>"])
    assert ranking(nasty, done, result_rows([(1, 2), (2, 1)]), "fr")[0] == "1. \\*\\*A\\*\\* — 2 points"
    assert ranking(nasty, done, result_rows([(1, 2), (2, 1)]), "fr", markdown=False)[0] == "1. **A** — 2 points"


async def test_a_real_armada_resignation_ranks_without_scores_and_replays(world):
    g = await play(world.svc, "armada", 2, {}, stop_after=3)
    loser = g.seats[0]
    g = (await world.svc.act(g.id, loser.user_id, {"type": "resign"}, any_turn=True)).game
    rows = await world.store.events(g.id)
    results = await world.store.results(g.id)
    assert g.status == "finished"
    assert ranking(g, rows, results, "fr") == ["1. Bruno", "2. Alice — abandon",
                                               "Partie terminée par abandon\u00a0: pas de score."]
    assert replay(g, rows).positions[-1].view["resigned"] == 0


async def test_the_journal_file_reads_like_the_game(world):
    from cogs.community.replays import journal_text

    g = await play(world.svc, "ludix", 2, {})
    rows = await world.store.events(g.id)
    results = await world.store.results(g.id)
    text = journal_text(g, rows, results, "fr")
    assert "**" not in text and "`" not in text and "<t:" not in text and "\\" not in text
    lines = text.splitlines()
    assert lines[0].startswith("Ludix — partie n°") and "Terminée le" in lines[1]
    assert lines[3].startswith("1. Alice\u00a0: ") and "Classement final" in text and " points" in lines[-1]
    assert json.dumps(text)  # plain text


def test_the_select_and_the_buttons_never_go_past_the_ends():
    from cogs.community.replays import ReplayCog

    positions = tuple(R.Position(n, {}, group=1 + n // 5) for n in range(12))
    item = R.Replay(7, "ludix", 3, positions)
    g = SimpleNamespace(id=7)
    assert ReplayCog.target(item, 0, "next", [], g) == 1 and ReplayCog.target(item, 5, "last", [], g) == 11
    assert ReplayCog.target(item, 5, "jump", ["10"], g) == 10
    for shown, verb, values in ((0, "prev", []), (11, "next", []), (3, "jump", ["12"]), (3, "jump", ["x"]),
                                (3, "jump", [])):
        with pytest.raises(RuleError) as err:
            ReplayCog.target(item, shown, verb, values, g)
        assert err.value.key in ("replay.error.bad_position", "common.error.forged_button")


def test_an_older_viewer_s_positions_are_read_as_the_steps_that_show_them():
    """Issue 36: Limit's viewer steps a tile at a time (its steps: the start and every round's end); a
    viewer sent before that carries positions. ▶ goes to the step showing the next position, ◀ to the
    last step before the previous one, « Aller à… » to the step showing the round's first position."""
    from cogs.community.replays import ReplayCog, old_target

    groups = [1] * 5 + [2] * 4 + [3] * 4  # the start and 4 placements, then two rounds of 4
    item = R.Replay(7, "limit", 3, tuple(R.Position(n, {}, group=k) for n, k in enumerate(groups)))
    assert item.steps() == [0, 4, 8, 12]
    g = SimpleNamespace(id=7)
    assert [old_target(item, 5, verb, [], g) for verb in ("first", "prev", "next", "last")] == [0, 1, 2, 3]
    assert [old_target(item, 4, verb, [], g) for verb in ("prev", "next")] == [0, 2]  # a step's neighbours
    assert [old_target(item, 1, "prev", [], g), old_target(item, 11, "next", [], g)] == [0, 3]
    assert [old_target(item, 3, "jump", [v], g) for v in ("5", "9", "0")] == [2, 3, 0]
    assert ReplayCog.target(item, 2, "next", [], g) == 3  # a step is a step
    for shown, verb, values in ((0, "prev", []), (12, "next", []), (3, "jump", ["13"]), (3, "jump", ["x"]),
                                (3, "jump", ["1", "2"])):
        with pytest.raises(RuleError) as err:
            old_target(item, shown, verb, values, g)
        assert err.value.key in ("replay.error.bad_position", "common.error.forged_button")
    ludix = R.Replay(7, "ludix", 3, tuple(R.Position(n, {}, group=1 + n // 5) for n in range(12)))
    for shown, verb, values in ((3, "next", []), (3, "prev", []), (3, "jump", ["10"]), (3, "last", [])):
        assert old_target(ludix, shown, verb, values, g) == ReplayCog.target(ludix, shown, verb, values, g)


async def test_an_older_limit_viewer_s_buttons_still_show_what_they_meant(world):
    """A click on a Limit viewer sent before the viewer stepped by tile (its custom ids carry
    positions, no ``s``) shows the tile it meant, not the step of that number; a viewer of today
    carries ``s<step>``."""
    import discord

    from cogs.community.replays import CONTROL, ReplayCog, control_id, group_label, jump_entries

    g = await play(world.svc, "limit", 2, {})
    svc = service(world)
    item = await svc.get(g)
    steps = item.steps()
    cog = ReplayCog(SimpleNamespace(store=world.store, sessions=world.svc, replays=svc))
    shown: list[int] = []
    real_card = cog.card

    async def card(game, item, step, lg):
        shown.append(step)
        return await real_card(game, item, step, lg)

    cog.card = card
    said: list[str] = []

    async def click(custom_id: str, values: tuple[str, ...] = ()) -> int | None:
        shown.clear()
        edited = []

        async def edit_message(**kwargs):
            edited.append(kwargs)

        async def send_message(content=None, **kwargs):
            said.append(content)

        response = SimpleNamespace(edit_message=edit_message, send_message=send_message, is_done=lambda: False)
        interaction = SimpleNamespace(data={"custom_id": custom_id, "values": list(values)}, guild_id=g.guild_id,
                                      locale=discord.Locale.french, response=response, client=None,
                                      user=SimpleNamespace(id=g.seats[0].user_id))
        await cog.on_control(interaction)
        assert len(edited) == len(shown) <= 1
        return shown[0] if shown else None

    old = f"ludibot-replay:{g.guild_id}:{g.id}"
    k = len(steps) // 2
    middle = steps[k] + 1  # the first placement of tile k + 1: a position no step shows alone
    assert middle < steps[k + 1] and middle > k + 1  # read as a step, it would be another tile
    assert await click(f"{old}:{middle}:next") == k + 1
    assert await click(f"{old}:{middle}:prev") == k
    assert await click(f"{old}:{steps[k]}:next") == k + 1 and await click(f"{old}:{steps[k]}:prev") == k - 1
    assert await click(f"{old}:{middle}:last") == len(steps) - 1
    # a round of « Aller à… » on the older viewer (its first placement) goes where today's goes: its tile
    firsts = {group_label("limit", group, "fr"): first for group, first in item.groups()}
    entries = jump_entries("limit", item, "fr")
    for label, today in entries[8:11]:
        assert today > 0 and await click(f"{old}:{middle}:jump", (str(firsts[label]),)) == today
    # today's ids: a step
    assert control_id(g.guild_id, g.id, k, "next") == f"{old}:s{k}:next"
    assert CONTROL.fullmatch(f"{old}:s{k}:next") and CONTROL.fullmatch(f"{old}:{k}:next")
    assert await click(f"{old}:s{k}:next") == k + 1 and await click(f"{old}:s{k}:jump", (str(k + 3),)) == k + 3
    # past the end, either way: refused, privately, nothing shown
    assert await click(f"{old}:{len(item) - 1}:next") is None and await click(f"{old}:s{len(steps) - 1}:next") is None
    assert len(said) == 2 and all("n'existe pas" in text for text in said)


@pytest.mark.parametrize(("kind", "players", "options"), [("limit", 3, {}), ("ranta", 3, {}),
                                                          ("limit", 2, {"plateau": "orchidee"})])
async def test_limit_and_ranta_frames_show_the_boards_but_no_placement_before_its_round_closes(
        world, kind, players, options):
    """Their frames draw every board / kallax from the position's public view alone: a placement
    within a round changes no pixel until the round closes; the closed round shows it."""
    g = await play(world.svc, kind, players, options, humans=players)
    svc = service(world)
    item = await svc.get(g)
    cog = svc.bot.game_cogs[kind]
    pictures = {}

    def drawn(i):
        if i not in pictures:
            _, job = svc.job(g, item, i, "fr")
            assert job.args[0] is item.positions[i].view  # only the public view is drawn
            pictures[i] = job.fn(*job.args, **job.kwargs)
        return pictures[i]

    within = closed = 0
    # a round's positions run from its first placement to the one that closes it (the round a move
    # was played in: Position.group); before it, the table as the previous round left it
    for first, last in zip([0, *[i + 1 for i in item.round_ends()[:-1]]], item.round_ends(), strict=True):
        if item.positions[last].view.get("finished") or last + 1 >= len(item):
            continue
        before = max(first - 1, 0)
        if cog.render_replay(g, item.positions[before].view, "fr").fn is cog.render_public(
                g, item.positions[before].view, "fr").fn:
            continue  # the end (the final sheets) or the Orchidée relocation: the public pictures
        for i in range(first, last):  # seats placing in turn: nothing shows
            assert drawn(i) == drawn(before), (kind, i)
            within += 1
        assert drawn(last) != drawn(last - 1), (kind, last)  # the round closes: its placements show
        closed += 1
        if closed >= 3:
            break
    assert within >= 3 * (players - 1) and closed == 3
    # and the frames do show the boards: the same position with empty boards draws another picture
    i = item.round_ends()[2]
    view = item.positions[i].view
    part, empty = ("boards", {"cells": {}}) if kind == "limit" else ("sheets", {"items": []})
    assert any(b.get("cells") or b.get("items") for b in view[part])
    bare = {**view, part: [{**b, **empty} for b in view[part]]}
    job = cog.render_replay(g, bare, "fr")
    assert job.fn(*job.args, **job.kwargs) != drawn(i)


# --- the viewer's numbers (issue 36): one counting, step k of n --------------------------------
STEP_GAMES = [("ludix", 2, {}), ("ludime", 3, {}), ("ranta", 2, {}), ("limit", 2, {}), ("tectonic", 2, {}),
              ("armada", 2, {}), ("lutinades", 4, {}), ("limit", 2, {"plateau": "orchidee"})]


@pytest.mark.parametrize(("kind", "players", "options"), STEP_GAMES, ids=lambda v: str(v))
@pytest.mark.parametrize("lg", ["fr", "en"])
async def test_every_step_names_the_moves_and_the_round_it_shows(world, kind, players, options, lg):
    """Step k of n names exactly what it shows: a move and the round it was played in (the move that
    closes round 3 is in round 3), Limit a tile (all its placements at once); the last step's round
    is the one the end picture shows; « Aller à… » names steps that exist, each where its round begins."""
    import re

    from cogs.community.replays import jump_entries, shown, step_line

    g = await play(world.svc, kind, players, options)
    item = replay(g, await world.store.events(g.id))
    steps = item.steps()
    moves = len(item) - 1
    word = {"fr": ("Coup", "Manche", "Tour", "Tuile", "fin de la partie", "Position de départ"),
            "en": ("Move", "Round", "Turn", "Tile", "end of the game", "Starting position")}[lg]
    move, round_, turn, tile, end, start = word
    assert step_line(kind, item, 0, lg) == f"**{start}**"
    last = step_line(kind, item, len(steps) - 1, lg)
    assert last.endswith(f" · {end}") and item.positions[steps[-1]].view.get("finished") is True
    # every position is shown by exactly one step, in order
    assert [p.n for k in range(len(steps)) for p in shown(item, k)] == list(range(len(item)))
    if kind == "limit":
        rounds = item.positions[0].view["rounds"]
        assert len(steps) == rounds + 1  # the start, then one step a tile
        for k in range(1, len(steps)):
            assert step_line(kind, item, k, lg).startswith(f"**{tile} {k} {'sur' if lg == 'fr' else 'of'} {rounds}**")
            assert {p.group for p in shown(item, k)} == {k}  # every placement of tile k, none of another
            view = item.positions[steps[k]].view
            assert view["finished"] or view["round"] - 1 == k  # the picture's « Tuile k/n »
    else:
        assert len(steps) == len(item)
        total = "sur" if lg == "fr" else "of"
        for k in (1, len(steps) - 1):
            assert step_line(kind, item, k, lg).startswith(f"**{move} {k} {total} {moves}**")
        if kind == "tectonic":
            assert "·" not in step_line(kind, item, 1, lg)  # the move is the whole step
        else:
            word_ = turn if kind == "lutinades" else round_
            group = item.positions[-1].group
            assert f"· {word_} {group}" in last
            view = item.positions[-1].view
            key = "turn" if kind == "lutinades" else "round"
            if kind == "ludix":  # the end picture shows the last round played (render/ludix.py)
                assert group == view[key] - 1
            else:
                assert group == item.positions[-2].view[key]
    entries = jump_entries(kind, item, lg)
    assert 2 <= len(entries) <= 25 and len({k for _, k in entries}) == len(entries)
    assert all(0 <= k < len(steps) for _, k in entries) and entries == sorted(entries, key=lambda e: e[1])
    for text, k in entries:
        pos = item.positions[steps[k]]
        numbers = [int(x) for x in re.findall(r"\d+", text)]
        if kind == "limit":
            assert text == f"{tile} {pos.group}"
        elif kind == "tectonic":
            first = numbers[0]
            assert first == max(pos.n, 1) and all(1 <= x <= moves for x in numbers)  # moves that exist
        else:
            assert numbers[0] == pos.group and (k == 0 or numbers[-1] == pos.n)
            assert k == 0 or item.positions[steps[k] - 1].group < pos.group  # where the round begins
    if kind == "tectonic":
        assert entries[-1][0].endswith(str(moves))  # the last block ends with the last move


def test_tectonic_blocks_are_moves_one_and_two_then_three_and_four():
    from cogs.community.replays import group_label, jump_entries, step_line

    positions = tuple(R.Position(n, {"finished": n == 8}, seat=(n - 1) % 2 if n else None, group=R._group("tectonic", {}, n))
                      for n in range(9))
    item = R.Replay(1, "tectonic", 9, positions)
    assert [p.group for p in positions] == [1, 1, 1, 2, 2, 3, 3, 4, 4]
    assert step_line("tectonic", item, 1, "fr") == "**Coup 1 sur 8**"
    assert step_line("tectonic", item, 8, "en") == "**Move 8 of 8** · end of the game"
    assert [t for t, _ in jump_entries("tectonic", item, "fr")] == [
        "Coups 1 à 2 (départ)", "Coups 3 à 4", "Coups 5 à 6", "Coups 7 à 8"]
    assert group_label("tectonic", 5, "fr", last=9) == "Coup 9"
