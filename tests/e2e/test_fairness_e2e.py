"""Issue 36, "Fairness", end to end: the real bot, the fake Discord.

* Take it to the Limit (solo: every placement closes the round): the preview's picture is the
  engine's preview (the tile being placed, never the next one) and its text names no later tile;
  the naive picture (the move applied to the whole game) would differ.
* Range ta Ludothèque (solo): the preview's picture is the engine's preview, whose total is the
  « après » of its text.
* Crafted selects: a value never offered (Ludime's ``é`` or ``a``, Limit's ``d4``) or several values
  are refused privately, precisely, and nothing changes.
"""

from __future__ import annotations

import json
import re

import pytest

from cogs.limit.cog import render_labels as limit_labels
from cogs.ranta.cog import decode
from cogs.ranta.cog import render_labels as ranta_labels
from engines.limit import ENGINE as LIMIT
from engines.ludime import ENGINE as LUDIME
from engines.ranta import ENGINE as RANTA
from fakediscord import models as fm
from render.limit import render_board
from render.ranta import render_sheet
from tests.e2e.harness import StateReader, last_control, read_game_row
from tests.e2e.ludime_driver import BUTTONS, LudimeTable

pytestmark = pytest.mark.e2e


def crafted(values):
    """A select interaction as a crafted client would send it: ``values`` whatever the options were."""
    def mangle(payload):
        payload["data"]["values"] = values
        return json.dumps(payload)
    return mangle


async def craft_select(fake, user, msg, custom_id, values):
    return await fake.raw_click(user, msg, custom_id=custom_id, component_type=3, mangle=crafted(values))


async def craft_form(fake, user, opened, chosen: dict[str, list[str]]):
    """A form (modal) submitted by a crafted client: ``chosen`` (select custom id -> values) whatever
    the selects offered."""
    comps = [{"type": fm.C_LABEL, "component": {"type": fm.C_STRING_SELECT, "custom_id": c["component"]["custom_id"],
                                                 "values": chosen.get(c["component"]["custom_id"], [])}}
             for c in opened.modal["components"] if c.get("type") == fm.C_LABEL]
    prev = opened.record
    msg = fake.message_by_id.get(prev.component_message_id or 0)
    rec = fake._new_interaction(fm.IT_MODAL_SUBMIT, user, prev.channel,
                                {"custom_id": opened.modal["custom_id"], "components": comps}, message=msg)
    return await fake._fire(rec, "modal", True, None, None, None, None)


async def test_limit_preview_shows_the_tile_being_placed_and_selects_take_only_what_they_offered(world):
    fake, u = world.fake, world.u
    await fake.run_command(u.alice, "jeux", "limit start", plateau="nexus", solo=True)
    async with StateReader(world.bot.db, LIMIT) as reader:
        for rnd in (1, 2):
            msg = last_control(fake)
            assert f"Tuile {rnd}/44" in msg.content, msg.content
            res = await fake.click(u.alice, msg, label="Placer")
            gid = int(res.message.selects[0]["custom_id"].split(":")[1])
            game, state = await reader.state(gid)
            sel = res.message.selects[0]
            # a cell of the main board (the Déchetterie, X…, stays empty: its penalty line is checked below)
            value = next(o["value"] for o in sel["options"] if o["value"][:1] in "ABCDEFG" and o["value"][1:].isdigit())
            if rnd == 1:  # crafted: a position in another case, several positions; nothing changes
                for values, needle in (([value.lower()], "n'est pas une des options proposées"),
                                       ([value, sel["options"][1]["value"]], "Une seule option")):
                    bad = await craft_select(fake, u.alice, res.message, sel["custom_id"], values)
                    assert bad.ephemeral and needle in bad.content, bad.content
                    assert (await reader.game(gid)).version == game.version
            preview = await fake.select(u.alice, res.message, [value], custom_id=sel["custom_id"])
            assert "Aperçu" in preview.content and "Si la partie s'arrêtait là" in preview.content, preview.content
            action = {"type": "place", "tile": state.deck[state.round_no - 1], "position": value}
            fair = LIMIT.preview(state, 0, action)
            labels = limit_labels("fr")
            assert preview.attachments[0].bytes == render_board(fair, 0, game.names, labels)
            naive = LIMIT.view(LIMIT.apply(state, 0, action)[0], 0)  # solo: the next tile is drawn
            assert naive["tile"]["id"] == state.deck[state.round_no] != fair["tile"]["id"]
            assert preview.attachments[0].bytes != render_board(naive, 0, game.names, labels)
            assert state.deck[state.round_no] not in preview.content  # no later tile in the words either
            # the Déchetterie is short of its threshold this early: the preview says what it costs
            assert "Pénalité −60\u00a0: Déchetterie à 0, sous le seuil de 60" in preview.content, preview.content
            done = await fake.click(u.alice, preview.message, label="Confirmer",
                                    until=lambda r: bool(r.public_messages))
            assert "Vous avez posé" in done.content, done.content
            # alone, the placement closed the round: « Reprendre mon coup » is never offered (it would fail)
            mine = await fake.click(u.alice, last_control(fake), label="Mon plateau")
            assert mine.ephemeral and mine.attachments and "Reprendre mon coup" not in mine.message.button_labels
            res = await fake.run_command(u.alice, "jeux", "limit annuler-coup")
            assert res.ephemeral and "la manche est close" in res.content, res.content
    assert world.bot.tracebacks() == []


async def test_ranta_preview_picture_carries_the_score_its_text_states(world):
    fake, u = world.fake, world.u
    await fake.run_command(u.alice, "jeux", "ranta start", mode="classique", solo=True)
    async with StateReader(world.bot.db, RANTA) as reader:
        res = await fake.click(u.alice, last_control(fake), label="Ranger un jeu")
        (sel,) = res.message.selects
        gid = int(sel["custom_id"].split(":")[1])
        # crafted: a box the select did not offer, several boxes; nothing changes
        version = (await reader.game(gid)).version
        for values, needle in ((["999h"], "n'est pas une des options proposées"),
                               ([o["value"] for o in sel["options"][:2]], "Une seule option")):
            bad = await craft_select(fake, u.alice, res.message, sel["custom_id"], values)
            assert bad.ephemeral and needle in bad.content, bad.content
            assert (await reader.game(gid)).version == version
        res = await fake.select(u.alice, res.message, [sel["options"][0]["value"]])
        cells = res.message.selects[1]
        preview = await fake.select(u.alice, res.message, [cells["options"][0]["value"]],
                                    custom_id=cells["custom_id"])
        assert "Aperçu" in preview.content, preview.content
        game, state = await reader.state(gid)
        confirm = next(b for b in preview.message.buttons if b.get("label") == "Confirmer")
        action = decode(confirm["custom_id"].split(":", 4)[4])
        fair = RANTA.preview(state, 0, action)
        p = fair["preview"]
        after = re.search(r"Score\u00a0: (-?\d+) → (-?\d+)", preview.content)
        assert after and (int(after[1]), int(after[2])) == (p["before"], p["after"]), preview.content
        assert fair["sheets"][0]["score"] == p["after"] and fair["dice"] == list(state.dice)
        drawn = {"cells": p["cells"], "category": p["category"], "mechanic": p["mechanic"]}
        assert preview.attachments[0].bytes == render_sheet(fair, 0, game.names, drawn, ranta_labels("fr"))
    assert world.bot.tracebacks() == []


async def test_ludime_discard_takes_only_a_letter_it_offered(world):
    fake, u = world.fake, world.u
    table = LudimeTable(world, [u.alice, u.bruno])
    await table.open()
    try:
        state, _ = await table.state()
        seat = state.current
        user = table.players[seat]
        await table.play(seat, {"type": "draw", "source": "pile"})
        msg = table._latest_select(user)
        if msg is None:
            msg = (await fake.click(user, table.control(), label=BUTTONS["menu"])).message
        sel = next(s for s in msg.selects if s["custom_id"].split(":")[2] == "discard")
        offered = [o["value"] for o in sel["options"]]
        state, _ = await table.state()
        hand = state.hands[seat]
        assert sorted(offered) == sorted(set(hand))
        folded = {"E": "é", "A": "à", "I": "î", "O": "ô", "U": "ù"}
        accented = next((folded[c] for c in hand if c in folded), None)
        crafted_values = [[offered[0].lower()], *([[accented]] if accented else []), offered[:2]]
        for values in crafted_values:
            needle = "Une seule option" if len(values) > 1 else "n'est pas une des options proposées"
            await table.refused(user, lambda v=values: craft_select(fake, user, msg, sel["custom_id"], v), needle)
        # a letter offered, as offered: taken
        assert {"type": "discard", "letter": offered[0]} in LUDIME.legal_actions(state, seat)
        await table.play(seat, {"type": "discard", "letter": offered[0]})
    finally:
        await table.close()
    assert world.bot.tracebacks() == []


async def test_tectonic_and_armada_forms_take_only_what_they_offered(world):
    """A crafted form: a move or a column in another case (what the form never offered), several values
    in one list: refused privately and precisely, nothing changes."""
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "tectonic start", adversaire="bot", niveau=1,
                                 until=lambda r: any(m.buttons for m in r.public_messages))
    card = next(m for m in res.public_messages if m.buttons)
    gid = int(card.buttons[0]["custom_id"].split(":")[1])
    version = read_game_row(world.bot.db, gid).version
    opened = await fake.click(u.alice, card, label="Jouer un coup")
    first = next(c["component"] for c in opened.modal["components"] if c.get("type") == fm.C_LABEL)
    move = first["options"][0]["value"]
    for chosen, needle in (({first["custom_id"]: [move.lower()]}, "n'est pas une des options proposées"),
                           ({first["custom_id"]: [move, first["options"][1]["value"]]}, "un seul")):
        bad = await craft_form(fake, u.alice, opened, chosen)
        assert bad.ephemeral and needle in bad.content, bad.content
        assert read_game_row(world.bot.db, gid).version == version

    res = await fake.run_command(u.alice, "jeux", "armada start", plateau="9x9", adversaire="bot",
                                 until=lambda r: any(m.buttons for m in r.public_messages))
    card = next(m for m in res.public_messages if m.buttons and "Placer" in m.button_labels)
    gid = int(card.buttons[0]["custom_id"].split(":")[1])
    version = read_game_row(world.bot.db, gid).version
    opened = await fake.click(u.alice, card, label="Placer")
    points = next(c["component"] for c in opened.modal["components"] if c.get("type") == fm.C_LABEL)
    point = points["options"][0]["value"]
    for chosen, needle in (({points["custom_id"]: [point.lower()]}, "n'est pas une des options proposées"),
                           ({points["custom_id"]: [point, points["options"][1]["value"]]}, "Une seule option")):
        bad = await craft_form(fake, u.alice, opened, chosen)
        assert bad.ephemeral and needle in bad.content, bad.content
        assert read_game_row(world.bot.db, gid).version == version
    assert world.bot.tracebacks() == []

