"""L'Invincible Armada without typing coordinates (issue 24), end to end against the strict fake: the
table card of the player to move carries « Placer » / « Pivoter » (the move types the side may use);
each opens a form whose selects hold only the legal choices (the legal points, never an occupied
one, 25 a list; a pivot as "from → to (around)", a ship's pivots in one list); the move chosen goes
through the session service as the slash command does: a point taken meanwhile is refused with the
engine's reason, a form of an earlier turn is refused as stale, and neither changes the game."""

from __future__ import annotations

import pytest

from engines.armada import legal_points
from tests.e2e.armada_driver import ENGINE, Reader, answered, quiet, step
from tests.e2e.harness import last_control, read_game_row
from tests.e2e.test_armada_e2e import board_messages, open_game

pytestmark = pytest.mark.e2e


def selects(opened) -> list[dict]:
    form = opened.modal
    assert form is not None
    return [c["component"] for c in form["components"] if c.get("type") == 18]


def values(select: dict) -> list[str]:
    return [o["value"] for o in select["options"]]


def points(opened) -> dict[str, str]:
    """point -> the custom id of the list that offers it."""
    return {v: s["custom_id"] for s in selects(opened) if s["custom_id"].startswith("point") for v in values(s)}


async def test_armada_ships_are_placed_and_pivoted_from_forms(world):
    fake, u = world.fake, world.u
    gid, first = await open_game(world)
    assert first.is_v2 and first.button_labels == ["Placer"]  # Spain places from its reserve
    version = read_game_row(world.bot.db, gid).version
    # Bruno (England) is not to play: the form does not open for him
    res = await fake.click(u.bruno, first, label="Placer")
    assert res.ephemeral and res.modal is None and read_game_row(world.bot.db, gid).version == version
    # a crafted client: Spain has no pivot form, and no form is of an unknown type: nothing opens
    for kind in ("pivot", "teleport"):
        res = await fake.forge_click(u.alice, first, f"ludibot:{gid}:form:{version}:{kind}")
        assert res.ephemeral and res.modal is None and "Ce bouton n'est pas valide" in res.content, res.content
    assert read_game_row(world.bot.db, gid).version == version

    # Alice places C3 from the form: the whole 9 × 9 board empty, 81 points in four lists
    opened = await fake.click(u.alice, first, label="Placer")
    assert opened.modal["title"] == "Poser un navire"
    offered = points(opened)
    assert len(offered) == 81 and len(selects(opened)) == 4
    assert [s["custom_id"] for s in selects(opened)] == ["point0", "point1", "point2", "point3"]
    res = await fake.submit_modal(u.alice, opened, {offered["C3"]: ["C3"]}, until=answered)
    assert not res.ephemeral, res.content
    (card,) = board_messages(res)
    assert "Alice pose un navire en C3" in card.content and card.button_labels == ["Placer"]
    placed = read_game_row(world.bot.db, gid).version
    assert placed > version

    # Bruno opens his form: C3 is taken, it is not offered (the engine would refuse it, as a typed C3)
    opened = await fake.click(u.bruno, card, label="Placer")
    assert "C3" not in points(opened) and len(points(opened)) == 80
    assert read_game_row(world.bot.db, gid).version == placed
    # a form opened before the game moved on (Bruno typed his move meanwhile) is stale
    opened = await fake.click(u.bruno, card, label="Placer")
    typed = await fake.run_command(u.bruno, "jeux", "armada placer", point="G7", until=answered)
    assert not typed.ephemeral and "Bruno pose un navire en G7" in typed.content, typed.content
    moved = read_game_row(world.bot.db, gid).version
    res = await fake.submit_modal(u.bruno, opened, {points(opened)["E5"]: ["E5"]}, until=answered)
    assert res.ephemeral and "déjà été joué" in res.content, res.content
    assert read_game_row(world.bot.db, gid).version == moved

    # Alice A9 by form; Bruno G8 by form: his pair G7-G8 may then pivot
    card = board_messages(typed)[-1]
    for user, (column, line) in ((u.alice, ("A", "9")), (u.bruno, ("G", "8"))):
        opened = await fake.click(user, card, label="Placer")
        res = await fake.submit_modal(user, opened, {points(opened)[column + line]: [column + line]}, until=answered)
        assert not res.ephemeral, res.content
        card = board_messages(res)[-1]
    assert "Bruno pose un navire en G8" in card.content
    opened = await fake.click(u.alice, card, label="Placer")  # Alice: Spain places again
    res = await fake.submit_modal(u.alice, opened, {points(opened)["A5"]: ["A5"]}, until=answered)
    card = board_messages(res)[-1]
    assert card.button_labels == ["Placer", "Pivoter"], card.button_labels

    opened = await fake.click(u.bruno, card, label="Pivoter")
    assert opened.modal["title"] == "Faire pivoter un navire"
    (pivots,) = selects(opened)  # one pair: 2 × 7 pivots at most, one list
    labels = {o["value"]: o["label"] for o in pivots["options"]}
    assert labels and all(v[:2] in ("G7", "G8") for v in labels)
    assert labels["G8-H8"] == "G8 → H8 (autour de G7)"
    before = read_game_row(world.bot.db, gid).version
    res = await fake.submit_modal(u.bruno, opened, {pivots["custom_id"]: ["G8-H8"]}, until=answered)
    assert not res.ephemeral, res.content
    assert "Bruno fait pivoter le navire de G8 en H8 autour de G7" in board_messages(res)[-1].content
    assert read_game_row(world.bot.db, gid).version > before


async def test_spain_moves_a_ship_from_the_form_once_its_fleet_is_down(world):
    """Once Spain's 20 ships are down its card carries « Déplacer » only: the form lists its ships, then
    the empty points only; a destination that is taken (a crafted answer) is refused with its reason."""
    fake, u = world.fake, world.u
    gid, _ = await open_game(world)
    users = {0: u.alice, 1: u.bruno}
    async with Reader(world.bot.db) as reader:
        for _ in range(60):
            _, state = await reader.state(gid)
            view = ENGINE.view(state, None)
            if view["spain_must_move"] and view["turn_side"] == "spain":
                break
            res = (await step(fake, reader, gid, users, choose=quiet)).result
            assert not res.ephemeral, res.content
        else:
            pytest.fail("Spain never placed its 20 ships")
        card = last_control(fake, "jeux")
        assert card.button_labels == ["Déplacer"], card.button_labels
        opened = await fake.click(u.alice, card, label="Déplacer")
        assert opened.modal["title"] == "Déplacer un navire"
        ship, *_ = selects(opened)
        assert sorted(values(ship)) == sorted(view["spain"]) and len(values(ship)) == 20
        english = view["england"][0]  # taken: not offered
        offered = points(opened)
        assert english not in offered and not set(offered) & set(view["spain"]) and len(selects(opened)) <= 5
        assert sorted(offered) == sorted(legal_points(state, 0))
        action = quiet(state, 0)
        opened = await fake.click(u.alice, card, label="Déplacer")
        res = await fake.submit_modal(u.alice, opened, {"ship": [action["from"]],
                                                        points(opened)[action["to"]]: [action["to"]]}, until=answered)
        assert not res.ephemeral, res.content
        assert f"Alice déplace un navire de {action['from']} en {action['to']}" in res.content
        _, after = await reader.state(gid)
        assert ENGINE.view(after, None)["spain"].count(action["to"]) == 1 and action["from"] not in \
            ENGINE.view(after, None)["spain"]
