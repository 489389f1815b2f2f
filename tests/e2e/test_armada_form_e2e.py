"""L'Invincible Armada without typing coordinates (issue 24), end to end against the strict fake: the
table card of the player to move carries « Placer » / « Pivoter » (the move types the side may use);
each opens a form whose selects hold only the legal choices (a point by its column and its row; a
pivot as "from → to (around)"); the move chosen goes through the session service as the slash
command does: an illegal combination is refused with the engine's reason, a form of an earlier turn
is refused as stale, and neither changes the game."""

from __future__ import annotations

import pytest

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

    # Alice places C3 from the form: a column list and a row list, the whole 9 × 9 board empty
    opened = await fake.click(u.alice, first, label="Placer")
    assert opened.modal["title"] == "Poser un navire"
    col, row = selects(opened)
    assert values(col) == list("ABCDEFGHI") and values(row) == [str(r) for r in range(1, 10)]
    res = await fake.submit_modal(u.alice, opened, {"Colonne (lettre)": ["C"], "Ligne (numéro)": ["3"]},
                                  until=answered)
    assert not res.ephemeral, res.content
    (card,) = board_messages(res)
    assert "Alice pose un navire en C3" in card.content and card.button_labels == ["Placer"]
    placed = read_game_row(world.bot.db, gid).version
    assert placed > version

    # Bruno opens his form; C3 is a column and a row he may choose, not the combination: the engine's reason
    opened = await fake.click(u.bruno, card, label="Placer")
    res = await fake.submit_modal(u.bruno, opened, {"col": ["C"], "row": ["3"]}, until=answered)
    assert res.ephemeral and "L'intersection C3 est déjà occupée" in res.content, res.content
    assert read_game_row(world.bot.db, gid).version == placed
    # a form opened before the game moved on (Bruno typed his move meanwhile) is stale
    opened = await fake.click(u.bruno, card, label="Placer")
    typed = await fake.run_command(u.bruno, "jeux", "armada placer", point="G7", until=answered)
    assert not typed.ephemeral and "Bruno pose un navire en G7" in typed.content, typed.content
    moved = read_game_row(world.bot.db, gid).version
    res = await fake.submit_modal(u.bruno, opened, {"col": ["E"], "row": ["5"]}, until=answered)
    assert res.ephemeral and "déjà été joué" in res.content, res.content
    assert read_game_row(world.bot.db, gid).version == moved

    # Alice A9 by form; Bruno G8 by form: his pair G7-G8 may then pivot
    card = board_messages(typed)[-1]
    for user, (column, line) in ((u.alice, ("A", "9")), (u.bruno, ("G", "8"))):
        opened = await fake.click(user, card, label="Placer")
        res = await fake.submit_modal(user, opened, {"col": [column], "row": [line]}, until=answered)
        assert not res.ephemeral, res.content
        card = board_messages(res)[-1]
    assert "Bruno pose un navire en G8" in card.content
    opened = await fake.click(u.alice, card, label="Placer")  # Alice: Spain places again
    res = await fake.submit_modal(u.alice, opened, {"col": ["A"], "row": ["5"]}, until=answered)
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
    the columns and rows of the empty points; a destination that is taken is refused with its reason."""
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
        ship, col, row = selects(opened)
        assert sorted(values(ship)) == sorted(view["spain"]) and len(values(ship)) == 20
        english = view["england"][0]  # a column and a row of empty points, not that combination
        assert english[0] in values(col) and english[1:] in values(row)
        version = read_game_row(world.bot.db, gid).version
        res = await fake.submit_modal(u.alice, opened, {"ship": [view["spain"][0]], "col": [english[0]],
                                                        "row": [english[1:]]}, until=answered)
        assert res.ephemeral and f"L'intersection {english} est déjà occupée" in res.content, res.content
        assert read_game_row(world.bot.db, gid).version == version
        action = quiet(state, 0)
        opened = await fake.click(u.alice, card, label="Déplacer")
        res = await fake.submit_modal(u.alice, opened, {"ship": [action["from"]], "col": [action["to"][0]],
                                                        "row": [action["to"][1:]]}, until=answered)
        assert not res.ephemeral, res.content
        assert f"Alice déplace un navire de {action['from']} en {action['to']}" in res.content
        _, after = await reader.state(gid)
        assert ENGINE.view(after, None)["spain"].count(action["to"]) == 1 and action["from"] not in \
            ENGINE.view(after, None)["spain"]
