"""The Armada cog's pure parts, without Discord (pass button, hints, autocomplete filtering), and
the session option it needs to resign out of turn.

(The whole surface is tested end to end in tests/e2e/test_armada_e2e.py; a position where
England has no legal move is too long to reach through Discord, so it is built here.)
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import engines
from bot.sessions import Player, SessionService
from bot.storage import RUNNING, GameRow, Seat
from cogs.armada.cog import ArmadaCog, _matching, form_kinds, form_offers, pivot_options
from engines.armada import legal_points, movable_points, pivot_choices
from engines.armada.board import ENGLAND, SPAIN
from engines.base import RuleError

ENGINE = engines.get("armada")


def cog() -> ArmadaCog:
    c = ArmadaCog.__new__(ArmadaCog)  # no bot needed for the rendering hooks
    c.engine = ENGINE
    return c


def row(state) -> GameRow:
    return GameRow(id=7, guild_id=1, channel_id=2, kind="armada", options={"plateau": "9x9"}, status=RUNNING,
                   state=ENGINE.to_dict(state), version=12, seed=1, creator_id=10, created_at=0.0, updated_at=0.0,
                   seats=[Seat(seat=0, user_id=10, name="Alice"), Seat(seat=1, user_id=11, name="Bruno")])


def boxed_in_england():
    """England (seat 1) at its 5 ships, every pivot blocked by Spanish ships: it can only pass."""
    state = ENGINE.new_game(2, {"plateau": "9x9"}, seed=3)
    geo = {f"{c}{r}": (r - 1) * 9 + i for i, c in enumerate("ABCDEFGHI") for r in range(1, 10)}
    board = list(state.board)
    for p in ("A1", "B1", "E5", "E6", "I9"):
        board[geo[p]] = ENGLAND
    spain = ("A2", "B2", "C2", "C1", "D4", "E4", "F4", "D5", "F5", "D6", "F6", "D7", "E7", "F7")
    for p in spain:
        board[geo[p]] = SPAIN
    return replace(state, board=tuple(board), turn=ENGLAND, reserve=(20 - len(spain), 15), ply=27)


def test_a_player_with_no_legal_move_gets_a_pass_button_and_is_told_so():
    state = boxed_in_england()
    assert ENGINE.legal_actions(state, 1) == [{"type": "pass"}]
    game = row(state)
    view = ENGINE.view(state, None)
    (only,) = cog().turn_controls(game, view, "fr")
    assert only.label == "Passer" and only.custom_id == "ludibot:7:pass:12"
    assert cog()._hints(game, view, "fr") == ["⛔ Aucun coup possible\u00a0: cliquez sur « Passer »."]
    assert cog()._hints(game, view, "en") == ['⛔ No legal move: click "Pass".']


def test_capture_choice_buttons_carry_the_point_and_the_version():
    state = ENGINE.new_game(2, {"plateau": "9x9"}, seed=3)
    for seat, point in ((0, "D5"), (1, "B5"), (0, "A9"), (1, "G5"), (0, "E5")):
        state, _ = ENGINE.apply(state, seat, {"type": "place", "point": point})
    view = ENGINE.view(state, None)
    assert view["phase"] == "capture"
    buttons = cog().turn_controls(row(state), view, "fr")
    assert [(b.label, b.custom_id) for b in buttons] == [("Prendre B5", "ludibot:7:capture:12:B5"),
                                                         ("Prendre G5", "ludibot:7:capture:12:G5")]
    # no buttons when the AI is the one choosing (it never waits)
    game = row(state)
    game.seats[0] = Seat(seat=0, user_id=None, name="Bot 1", ai_level=1)
    assert cog().turn_controls(game, view, "fr") == []


def test_autocomplete_filtering_is_by_prefix_in_board_order_and_capped():
    points = [f"{c}{r}" for r in range(1, 12) for c in "ABCDEFGHIJK"]
    assert _matching(points, "") == [f"A{r}" for r in range(1, 12)] + [f"B{r}" for r in range(1, 12)] + ["C1", "C2",
                                                                                                         "C3"]
    assert _matching(points, "c1") == ["C1", "C10", "C11"]
    assert _matching(points, " d 4 ") == ["D4"]
    assert _matching(points, "11") == [f"{c}11" for c in "ABCDEFGHIJK"]  # no prefix match: contains
    assert _matching(points, "Z") == []


POINTS_9 = {f"{c}{r}": (r - 1) * 9 + i for i, c in enumerate("ABCDEFGHI") for r in range(1, 10)}


def with_ships(state, spain=(), england=(), **changes):
    board = list(state.board)
    for p in spain:
        board[POINTS_9[p]] = SPAIN
    for p in england:
        board[POINTS_9[p]] = ENGLAND
    return replace(state, board=tuple(board), **changes)


def menus(modal):
    """A form's selects as (label text, custom id, [option values], required)."""
    return [(item.text, item.component.custom_id, [o.value for o in item.component.options], item.component.required)
            for item in modal.children]


def test_the_forms_buttons_follow_the_move_types_the_side_may_use():
    start = ENGINE.new_game(2, {"plateau": "9x9"}, seed=3)
    (place,) = cog().turn_controls(row(start), ENGINE.view(start, None), "fr")
    assert (place.label, place.custom_id) == ("Placer", "ludibot:7:form:12:place")
    # England with a pair and 3 ships: it may place or pivot; at 5 ships it may only pivot
    england = with_ships(start, spain=("A9",), england=("E5", "E6", "B2"), turn=ENGLAND, reserve=(19, 17), ply=7)
    assert form_kinds(england, 1) == ["place", "pivot"] and form_kinds(england, 0) == []
    assert [b.label for b in cog().turn_controls(row(england), ENGINE.view(england, None), "en")] == ["Place", "Pivot"]
    full = with_ships(england, england=("H1", "H3"), reserve=(19, 15))
    assert form_kinds(full, 1) == ["pivot"]
    # Spain with its 20 ships down moves, never places
    spain20 = ("A1", "A3", "A5", "A7", "A9", "C1", "C3", "C5", "C7", "C9",
               "E1", "E3", "E7", "E9", "G1", "G3", "G5", "G7", "G9", "I1")
    fleet_down = with_ships(start, spain=spain20, england=("E5",), reserve=(0, 19), ply=40)
    assert form_kinds(fleet_down, 0) == ["move"]
    # a capture to choose, or no move at all: the buttons of those moments only
    assert form_kinds(boxed_in_england(), 1) == []


def test_a_placement_form_offers_the_legal_points_only():
    start = ENGINE.new_game(2, {"plateau": "9x9"}, seed=3)
    # England's 5th ship must pair: only the neighbours of its 4 free ships are legal
    state = with_ships(start, spain=("A9", "I9", "A5", "I5"), england=("B2", "H2", "B8", "H8"),
                       turn=ENGLAND, reserve=(16, 16), ply=8)
    legal = legal_points(state, 1)
    modal = cog().form(row(state), state, 1, "place", "fr")
    assert modal.custom_id == "ludibot:7:form:12:place" and modal.title == "Poser un navire"
    lists = menus(modal)
    assert sorted(v for _, _, values, _ in lists for v in values) == sorted(legal)
    for n, (heading, key, values, required) in enumerate(lists):
        assert key == f"point{n}" and len(values) <= 25 and required == (len(lists) == 1)
        assert heading == f"Intersections de {values[0]} à {values[-1]}"
    # the whole empty 11 × 11 board: 121 points in five lists, none occupied, in board order
    big = ENGINE.new_game(2, {"plateau": "11x11"}, seed=3)
    lists = menus(cog().form(row(big), big, 0, "place", "en"))
    flat = [v for _, _, values, _ in lists for v in values]
    assert len(lists) == 5 and len(flat) == 121 == len(set(flat)) and not any(req for *_, req in lists)
    assert flat[:3] == ["A1", "A2", "A3"] and lists[0][0] == "Intersections A1 to C3"
    occupied = with_ships(start, spain=("C3", "D4"), england=("E5",), turn=ENGLAND, reserve=(18, 19), ply=3)
    offered = {v for _, _, values, _ in menus(cog().form(row(occupied), occupied, 1, "place", "fr")) for v in values}
    assert offered == set(legal_points(occupied, 1)) and not offered & {"C3", "D4", "E5"}


def test_a_move_form_lists_the_ships_to_lift_then_the_empty_points():
    start = ENGINE.new_game(2, {"plateau": "9x9"}, seed=3)
    spain20 = ("A1", "A3", "A5", "A7", "A9", "C1", "C3", "C5", "C7", "C9",
               "E1", "E3", "E7", "E9", "G1", "G3", "G5", "G7", "G9", "I1")
    state = with_ships(start, spain=spain20, england=("E5",), reserve=(0, 19), ply=40)
    modal = cog().form(row(state), state, 0, "move", "en")
    (ship, *points) = menus(modal)
    assert ship[:2] == ("Ship to lift", "ship") and sorted(ship[2]) == sorted(movable_points(state, 0))
    assert len(ship[2]) == 20 and ship[2][:3] == ["A1", "A3", "A5"]
    offered = [v for _, _, values, _ in points for v in values]
    assert sorted(offered) == sorted(legal_points(state, 0)) and len(points) <= 4
    assert not set(offered) & (set(spain20) | {"E5"})  # no occupied point


def test_a_pivot_form_lists_every_legal_pivot_by_groups_of_25_and_five_lists_at_most():
    start = ENGINE.new_game(2, {"plateau": "9x9"}, seed=3)
    state = with_ships(start, spain=("A9",), england=("B2", "B3", "G2", "G3", "E8"), turn=ENGLAND,
                       reserve=(19, 15), ply=9)
    legal = pivot_choices(state, 1)
    assert len(legal) > 25  # two pairs of 2 × 7 pivots, fewer at the edge
    modal = cog().form(row(state), state, 1, "pivot", "fr")
    lists = menus(modal)
    assert 2 <= len(lists) <= 5 and all(len(values) <= 25 and not required for _, _, values, required in lists)
    assert sorted(v for _, _, values, _ in lists for v in values) == sorted(f"{c['from']}-{c['to']}" for c in legal)
    ships = [sorted({v.split("-")[0] for v in values}) for _, _, values, _ in lists]
    assert len(sum(ships, [])) == len(set(sum(ships, [])))  # a ship's pivots in one list
    for (heading, _, _, _), group in zip(lists, ships, strict=True):
        assert heading == (f"Navire {group[0]}" if len(group) == 1 else f"Navires de {group[0]} à {group[-1]}")
    first = modal.children[0].component.options[0]
    value, a, b, around = pivot_options(state, 1)[0]
    assert (first.value, first.label) == (value, f"{a} → {b} (autour de {around})")


def test_a_submitted_form_becomes_the_move_it_names_or_a_precise_refusal():
    act = ArmadaCog._form_action
    assert act("place", {"point0": [], "point1": ["C10"]}) == {"type": "place", "point": "C10"}
    assert act("move", {"ship": ["A1"], "point0": ["B2"]}) == {"type": "move", "from": "A1", "to": "B2"}
    assert act("pivot", {"pivot0": [], "pivot1": ["B2-C1"]}) == {"type": "pivot", "from": "B2", "to": "C1"}
    for kind, fields, key in (("place", {"col": ["C"]}, "armada.form.incomplete"),
                              ("move", {"col": ["C"], "row": ["1"]}, "armada.form.incomplete"),
                              ("place", {"col": ["C", "D"], "row": ["1"]}, "common.error.select_one"),
                              ("place", {"point0": ["C1"], "point1": ["D2"]}, "armada.form.incomplete"),
                              ("place", {"point0": [], "point1": []}, "armada.form.incomplete"),
                              ("move", {"point0": ["C1"]}, "armada.form.incomplete"),
                              ("pivot", {"pivot0": [], "pivot1": []}, "armada.form.pick_one"),
                              ("pivot", {"pivot0": ["B2-C1"], "pivot1": ["G2-H1"]}, "armada.form.pick_one")):
        with pytest.raises(RuleError) as err:
            act(kind, fields)
        assert err.value.key == key


async def test_resigning_is_accepted_out_of_turn_only_when_asked_for(store):
    """``SessionService.act(..., any_turn=True)`` (added for /armada abandon): the turn check is
    skipped, the engine still judges the action; without it, out of turn is refused as before."""
    svc = SessionService(store, seed_source=lambda: 99)
    alice, bruno = Player(100, "Alice"), Player(101, "Bruno")
    game = await svc.open_lobby("armada", guild_id=1, channel_id=10, player=alice, options={"plateau": "9x9"})
    game = await svc.join(game.id, bruno)
    await svc.start(game.id, alice)  # Alice (Spain) to play
    with pytest.raises(RuleError) as err:
        await svc.act(game.id, bruno.user_id, {"type": "resign"})
    assert err.value.key == "common.error.not_your_turn"
    with pytest.raises(RuleError) as err:  # any_turn is no licence to move out of turn
        await svc.act(game.id, bruno.user_id, {"type": "place", "point": "E5"}, any_turn=True)
    assert err.value.key == "common.error.not_your_turn"
    out = await svc.act(game.id, bruno.user_id, {"type": "resign"}, any_turn=True)
    assert out.finished and out.result.ranks == [1, 2]
    assert [e["type"] for e in out.events] == ["resigned", "game_over"]


async def test_a_form_opens_only_for_a_move_type_the_side_may_use_now():
    """Defence in depth behind Discord's own check of the buttons on a message: England at its 5
    ships gets no placement form, an unknown form type is refused as forged; the pivot form opens."""
    from types import SimpleNamespace

    import discord

    from bot.ui import Click

    start = ENGINE.new_game(2, {"plateau": "9x9"}, seed=3)
    state = with_ships(start, spain=("A9",), england=("B2", "B3", "G2", "G3", "E8"), turn=ENGLAND,
                       reserve=(19, 15), ply=9)
    c = cog()
    c.sessions = SimpleNamespace(require_status=lambda game, status: None)
    opened = []

    async def send_modal(modal):
        opened.append(modal)

    interaction = SimpleNamespace(type=discord.InteractionType.component, user=SimpleNamespace(id=11),
                                  locale=discord.Locale.french, response=SimpleNamespace(send_modal=send_modal))
    for kind, key in (("place", "armada.form.not_now"), ("teleport", "common.error.forged_button")):
        with pytest.raises(RuleError) as err:
            await c.on_form(Click(interaction, row(state), "form", 12, kind, []))
        assert err.value.key == key and not opened
    with pytest.raises(RuleError) as err:  # a button of an earlier turn
        await c.on_form(Click(interaction, row(state), "form", 11, "pivot", []))
    assert err.value.key == "common.error.already_played" and not opened
    await c.on_form(Click(interaction, row(state), "form", 12, "pivot", []))
    (modal,) = opened
    assert modal.custom_id == "ludibot:7:form:12:pivot"


@pytest.mark.parametrize("kind", ["place", "move", "pivot"])
def test_a_submission_carries_only_what_its_form_offered(kind):
    """``form_offers`` is what the form draws; a value outside it (a crafted submission) is refused."""
    start = ENGINE.new_game(2, {"plateau": "9x9"}, seed=3)
    if kind == "pivot":
        state = with_ships(start, spain=("A9",), england=("B2", "B3", "G2", "G3", "E8"), turn=ENGLAND,
                           reserve=(19, 15), ply=9)
        seat = 1
    elif kind == "move":
        spain20 = ("A1", "A3", "A5", "A7", "A9", "C1", "C3", "C5", "C7", "C9",
                   "E1", "E3", "E7", "E9", "G1", "G3", "G5", "G7", "G9", "I1")
        state, seat = with_ships(start, spain=spain20, england=("E5",), reserve=(0, 19), ply=40), 0
    else:
        state, seat = start, 0
    offered = form_offers(state, seat, kind)
    drawn = {key: values for _, key, values, _ in menus(cog().form(row(state), state, seat, kind, "fr"))}
    assert offered == drawn
    act = ArmadaCog._form_action
    if kind == "pivot":
        first = offered["pivot0"][0]
        assert act(kind, {"pivot0": [first]}, offered)["type"] == "pivot"
        bad = {"pivot0": ["A1-Z9"]}
    else:
        good = {key: [values[0]] for key, values in offered.items() if key in ("ship", "point0")}  # one point
        assert act(kind, good, offered)["type"] == kind
        bad = {**good, "point0": [good["point0"][0].lower()]}  # another case: not what was offered
    with pytest.raises(RuleError) as err:
        act(kind, bad, offered)
    assert err.value.key == "common.error.not_offered"

