"""Take it to the Limit end to end: the real bot, the fake Discord.

A solo Nexus game and a two-player Orchidée game played to the end, relocation
included; only legal positions offered; stale, forged and illegal placements refused
with their reason and nothing changed; a player's placement of the current tile seen by
nobody else before the round closes; the pass-variant fill by the holder.

Kept lean: most placements are typed (the first free position, as the autocomplete
would offer it first); every path (autocomplete, the Placer button's selects, typed)
is used a few times.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from engines.limit import DECHETTERIE, NEXUS, ORCHIDEE
from tests.e2e.harness import check_table_cards, last_control, mentioned, wait_control

pytestmark = pytest.mark.e2e

NEXUS_ORDER = [*DECHETTERIE.names, *NEXUS.names]  # the order the positions are offered in
ORCHID_ORDER = ["O", "O", "O", *ORCHIDEE.names]
#: the announced tile in bold, its line values' application emojis in front once they exist (bot/emojis.py)
TILE = r"\*\*(?:<:\w+:\d+>)* ?(\S+)\*\*"
PRIVATE_TEXT = ("Vous avez posé", "You placed", "Meilleur déplacement", "C'est noté", "Où la posez-vous")


def is_png(res) -> bool:
    return bool(res.attachments) and res.attachments[0].bytes[:4] == b"\x89PNG"


def game_id(msg) -> int:
    return int(msg.buttons[0]["custom_id"].split(":")[1])


def waiting(res) -> str:
    return next((x for x in res.content.splitlines() if x.startswith("En attente de")), "")


async def typed(fake, user, position):
    """``/limit placer position:<name>``: an ephemeral confirmation with the player's board, then the
    public message of the move (waited for: under load it may come after the settle time)."""
    res = await fake.run_command(user, "jeux", "limit placer", position=position,
                                 until=lambda r: bool(r.public_messages))
    assert res.ephemeral and is_png(res), (position, res.content)
    assert "Vous avez posé" in res.content, (position, res.content)
    return res


async def by_autocomplete(fake, user):
    """The autocomplete's first choice, then the command with it."""
    choices = await fake.autocomplete(user, "jeux", "limit placer", {"position": ""})
    assert 1 <= len(choices) <= 25
    res = await fake.run_command(user, "jeux", "limit placer", position=choices.values[0],
                                 until=lambda r: bool(r.public_messages))
    assert res.ephemeral and "Vous avez posé" in res.content, res.content
    return res, choices


async def by_buttons(fake, user, msg, value=None):
    """Placer -> the ephemeral selects of the legal positions -> ``value`` (default: the first offered)."""
    res = await fake.click(user, msg, label="Placer")
    assert res.ephemeral and is_png(res) and "Où la posez-vous" in res.content, res.content
    value = value or res.message.selects[0]["options"][0]["value"]
    sel = next(s for s in res.message.selects if value in [o["value"] for o in s["options"]])
    preview = await fake.select(user, res.message, [value], custom_id=sel["custom_id"])
    done = await confirm(fake, user, preview, until=lambda r: bool(r.public_messages))
    assert done.response_type == 7 and done.ephemeral and "Vous avez posé" in done.content, done.content
    return done, value


async def confirm(fake, user, preview, **kw):
    """A choice of position is a preview (issue 24): the board with the tile in place and the score
    change, nothing placed yet; « Confirmer » places it."""
    assert preview.response_type == 7 and "Aperçu" in preview.content and "Rien n'est posé" in preview.content, \
        preview.content
    assert preview.message.button_labels == ["Confirmer", "Changer"] and is_png(preview)
    return await fake.click(user, preview.message, label="Confirmer", **kw)


async def test_solo_nexus_game_to_the_end(world):
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "limit start", plateau="nexus", solo=True)  # standard by default
    # solo: no lobby, the first tile at once: its picture, a mention, the two buttons
    assert not res.ephemeral and is_png(res)
    msg = res.message
    assert "Tuile 1/44" in msg.content and mentioned(msg) == [u.alice.id]
    assert msg.button_labels == ["Placer", "Mon plateau"]
    res = await fake.click(u.alice, msg, label="Mon plateau")
    assert res.ephemeral and is_png(res) and res.message.visible_to == u.alice.id
    used: list[str] = []
    for rnd in range(1, 45):
        msg = last_control(fake)
        assert f"Tuile {rnd}/44" in msg.content, (rnd, msg.content)
        if rnd in (1, 30):
            res, value = await by_buttons(fake, u.alice, msg)
            used.append(value)
        elif rnd in (2, 20, 44):
            res, choices = await by_autocomplete(fake, u.alice)
            position = choices.values[0].split("@")[0]
            assert position == next(p for p in NEXUS_ORDER if p not in used)
            assert not any(c.split("@")[0] in used for c in choices.values)  # only free positions
            used.append(position)
        else:
            position = next(p for p in NEXUS_ORDER if p not in used)
            res = await typed(fake, u.alice, position.lower() if rnd % 7 == 0 else position)
            used.append(position)
        public = res.public_messages[-1].content
        assert f"Tuile {rnd} (" in public and "posée." in public, public  # solo: nobody else to wait for
        assert "Tout le monde" not in public, public
    final = res.public_messages[-1]
    # the game is said to be over once (the ranking's heading), not again by the narration (issue 36)
    assert "Voici tous les plateaux" in final.content and "Partie terminée" not in final.content
    assert "Fin de la partie" in final.content
    assert re.search(r"1\. Alice — -?\d+", final.content), final.content
    assert final.attachments and final.button_labels == ["Revanche"]
    res = await fake.run_command(u.alice, "jeux", "limit status")
    assert res.ephemeral and "terminée" in res.content and is_png(res)
    assert fake.errors == []
    assert world.bot.tracebacks() == []
    check_table_cards(fake, [u.alice.id])  # issue 24: every public message a card, pictures and pings in it


async def test_two_player_orchidee_with_relocation(world):
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "limit start", plateau="orchidee", variante="standard",
                                 tuiles="lune")
    lobby = res.message
    assert "Take it to the Limit" in lobby.content and "Orchidée, Standard, Lunes" in lobby.content
    await fake.click(u.bruno, lobby, label="Rejoindre")
    await fake.click(u.alice, lobby, label="Lancer")
    msg = await wait_control(fake, newer_than=lobby)  # (under load the first turn may follow the settle)
    assert sorted(mentioned(msg)) == sorted([u.alice.id, u.bruno.id]) and "Tuile 1/25" in msg.content
    assert msg.button_labels == ["Placer", "Mon plateau"] and msg.attachments
    used = {u.alice.id: [], u.bruno.id: []}
    # Bruno takes the first free position (the big orchid, then 1, 2, ...). Alice too, except that she
    # keeps hexes 6 and 7 for tiles with the vertical value of her first big-orchid tile: moving that
    # tile to hole B (or C) then completes the short vertical line B-6-7-C, a relocation worth points.
    reserved = ["6", "7"]
    keep: list[int] = []

    def pick(user, tile: str) -> str:
        mine = used[user.id]
        vertical = int(tile.split("-")[0])
        if user is u.alice and len(mine) >= 3:
            if vertical == keep[0] and any(r not in mine for r in reserved):
                return next(r for r in reserved if r not in mine)
            free = [p for p in ORCHIDEE.names if p not in mine]
            return next((p for p in free if p not in reserved), free[0])
        if user is u.alice and not keep:
            keep.append(vertical)
        return ORCHID_ORDER[len(mine)]

    for rnd in range(1, 26):
        msg = last_control(fake)
        assert f"Tuile {rnd}/25" in msg.content, (rnd, msg.content)
        tile = re.search(rf"Tuile {rnd}/25\u00a0: {TILE}", msg.content)[1]
        if rnd == 4:
            # where the Orchidée does not allow a tile: the reason, nothing changes
            for position, needle in (("O", "La grande orchidée (O) porte déjà 3 tuiles"),
                                     ("B", "La petite orchidée B ne se remplit qu'à la fin"),
                                     ("D4", "« D4 » n'existe pas sur le plateau Orchidée")):
                res = await fake.run_command(u.alice, "jeux", "limit placer", position=position)
                assert res.ephemeral and needle in res.content, (position, res.content)
            # both at the same moment, through the Placer button's select
            panels = [await fake.click(user, msg, label="Placer") for user in (u.alice, u.bruno)]
            for panel in panels:
                (sel,) = panel.message.selects  # the big orchid is full: the 22 hexes in one select
                assert [o["value"] for o in sel["options"]] == list(ORCHIDEE.names)
            chosen = [pick(user, tile) for user in (u.alice, u.bruno)]
            previews = [await fake.select(user, panel.message, [value])
                        for user, panel, value in zip((u.alice, u.bruno), panels, chosen, strict=True)]
            clicks = [await fake.click(user, p.message, label="Confirmer", wait=False)
                      for user, p in zip((u.alice, u.bruno), previews, strict=True)]
            # each confirmation's public message follows its ephemeral answer (later than any settle
            # time under load); both are published one after the other, under the game's lock
            await asyncio.gather(*(c.wait(until=lambda r: bool(r.public_messages)) for c in clicks))
            assert all(c.response_type == 7 and "Vous avez posé" in c.content for c in clicks)
            for user, value in zip((u.alice, u.bruno), chosen, strict=True):
                used[user.id].append(value)
            closing = [m for m in fake.messages("jeux") if m.visible_to is None
                       and "Tout le monde a posé la tuile 4 " in m.content]
            assert len(closing) == 1 and last_control(fake) is closing[0]
            continue
        first, second = (u.alice, u.bruno) if rnd % 2 else (u.bruno, u.alice)
        if rnd == 2:
            res, choices = await by_autocomplete(fake, first)
            assert choices.values[0].startswith("O@") and "grande orchidée" in choices.names[0]
            used[first.id].append("O")
        else:
            position = pick(first, tile)
            res = await typed(fake, first, position)
            used[first.id].append(position)
        notice = res.public_messages[-1]
        assert f"{first.name} a posé (1 joueur en attente)" in notice.content, notice.content
        assert waiting(notice) == f"En attente de\u00a0: {second.name}." and mentioned(notice) == []
        # the first player's position is not shown to the second before the round closes
        assert [m for m in fake.visible_to(second) if "Vous avez posé" in (m.content or "")
                and m.visible_to != second.id] == []
        res = await fake.run_command(second, "jeux", "limit status")
        assert waiting(res) == f"En attente de\u00a0: {second.name}."
        if rnd == 10:
            res, value = await by_buttons(fake, second, last_control(fake), pick(second, tile))
            used[second.id].append(value)
        else:
            position = pick(second, tile)
            res = await typed(fake, second, position)
            used[second.id].append(position)
        assert f"Tout le monde a posé la tuile {rnd} " in res.public_messages[-1].content
    assert sorted(used[u.alice.id]) == sorted(ORCHID_ORDER)
    # the relocation step: every board is revealed, each player chooses
    msg = last_control(fake)
    assert "petites orchidées" in msg.content and msg.button_labels == ["Déplacer", "Mon plateau"]
    assert sorted(mentioned(msg)) == sorted([u.alice.id, u.bruno.id])
    panel = await fake.click(u.alice, msg, label="Déplacer")
    assert panel.ephemeral and is_png(panel) and "Meilleur déplacement" in panel.content, panel.content
    assert panel.message.button_labels[-1] == "Ne rien déplacer"
    best = re.search(r"Meilleur déplacement\u00a0: \*\*(.+?)\*\* \((-?\d+) points?\)", panel.content)
    assert best, panel.content
    assert panel.message.button_labels == ["Appliquer la meilleure", "Ne rien déplacer"], panel.content
    assert int(best[2]) > 0 and (" en B" in best[1] or " en C" in best[1]), panel.content
    assert 1 <= len(panel.message.selects[0]["options"]) <= 25  # the other possibilities
    res = await fake.click(u.alice, panel.message, label="Appliquer la meilleure",
                           until=lambda r: bool(r.public_messages))
    pts = "point" if abs(int(best[2])) <= 1 else "points"
    assert res.response_type == 7 and f"C'est noté\u00a0: {best[1]} ({best[2]} {pts})" in res.content, res.content
    public = res.public_messages[-1].content
    moved = best[1].count(" en ")
    assert f"Alice a déplacé {moved} tuile{'s' if moved > 1 else ''} de la grande orchidée ({best[2]} {pts})" in public, public
    assert waiting(res.public_messages[-1]) == "En attente de\u00a0: Bruno."
    assert panel.message.buttons == []  # the panel became the confirmation
    # a second choice is refused with the reason
    res = await fake.click(u.alice, last_control(fake), label="Déplacer")
    assert res.ephemeral and "Vous avez déjà fait votre choix pour la grande orchidée" in res.content
    # Bruno by the command: the autocomplete offers the tiles of his big orchid for hole A
    choices = await fake.autocomplete(u.bruno, "jeux", "limit deplacer", {"a": ""}, focused="a")
    assert len(choices) == 3 and all(re.fullmatch(r"\d+-\d+-\d+", v) for v in choices.values)
    # for hole B, the tile already named for A is not offered again
    for_b = await fake.autocomplete(u.bruno, "jeux", "limit deplacer", {"a": choices.values[0], "b": ""},
                                    focused="b")
    assert choices.values[0] not in for_b.values
    res = await fake.run_command(u.bruno, "jeux", "limit deplacer", a=choices.values[0],
                                 until=lambda r: bool(r.public_messages))
    assert res.ephemeral and "C'est noté" in res.content and f"{choices.values[0]} en A" in res.content
    final = res.public_messages[-1]
    assert "Bruno a déplacé 1 tuile " in final.content and "Fin de la partie" in final.content
    assert all(re.search(rf"\d\. {p} — -?\d+", final.content) for p in ("Alice", "Bruno")), final.content
    assert final.button_labels == ["Revanche"]
    assert len(final.attachments) == 2  # every board revealed, one picture each across a phone
    for attachment in final.attachments:
        width, height = attachment.image().size
        assert 400 <= width <= 600 and height < 2 * width
    # nothing private ever reached anybody else
    for out in fake.all_outputs():
        if out.kind == "message" and any(t in (out.message.content or "") for t in PRIVATE_TEXT):
            assert out.audience is not None, out.message.content
        if out.kind == "message" and out.audience is None:
            assert not out.message.selects
    assert fake.errors == []
    assert world.bot.tracebacks() == []


async def test_only_legal_positions_and_refusals_change_nothing(world):
    fake, u = world.fake, world.u
    # a board and a variant that do not go together: refused at once, no lobby
    res = await fake.run_command(u.alice, "jeux", "limit start", plateau="nexus", variante="orchidee-64")
    assert res.ephemeral and "ne se joue pas sur le plateau Nexus" in res.content
    res = await fake.run_command(u.alice, "jeux", "limit start", plateau="nexus", variante="standard")
    await fake.click(u.bruno, res.message, label="Rejoindre")
    await fake.click(u.alice, res.message, label="Lancer")
    msg = await wait_control(fake, newer_than=res.message)  # the first turn may follow the click's answer
    game = game_id(msg)
    tile1 = re.search(rf"Tuile 1/44\u00a0: {TILE}", msg.content)[1]

    # offered positions are exactly the free ones, by name, for the user's own seat only
    choices = await fake.autocomplete(u.alice, "jeux", "limit placer", {"position": ""})
    assert [v.split("@")[0] for v in choices.values] == NEXUS_ORDER[:25]
    assert all(v.endswith(f"@1.{tile1}") for v in choices.values)
    assert choices.names[0] == "X1 — Déchetterie" and choices.names[7] == "A1 — Nexus"
    d = await fake.autocomplete(u.alice, "jeux", "limit placer", {"position": "d"})
    assert [v.split("@")[0] for v in d.values][:7] == ["D1", "D2", "D3", "D4", "D5", "D6", "D7"]
    assert (await fake.autocomplete(u.chloe, "jeux", "limit placer", {"position": ""})).values == []
    panel = await fake.click(u.alice, msg, label="Placer")
    offered = [o["value"] for sel in panel.message.selects for o in sel["options"]]
    assert offered == NEXUS_ORDER and len(panel.message.selects) == 2  # 44 positions, two selects of 22
    # a non-player, in French and in English
    res = await fake.click(u.chloe, msg, label="Placer")
    assert res.ephemeral and "Vous ne jouez pas" in res.content
    res = await fake.click(u.dave, msg, label="Mon plateau")
    assert res.ephemeral and "You are not playing" in res.content

    # illegal typed positions, each with its reason; nothing changes
    before = (await fake.click(u.alice, msg, label="Mon plateau")).attachments[0].bytes
    for position, needle in (
        ("Z9", "« Z9 » n'est pas un emplacement"),
        ("12", "« 12 » n'existe pas sur le plateau Nexus"),
        ("O", "« O » n'existe pas sur le plateau Nexus"),
        ("X", "Choisissez une case précise de votre Déchetterie"),
        ("B2@1.99-99-99", "« 99-99-99 » n'est pas une tuile du jeu"),
        (f"B2@2.{tile1}", "visait la partie 2 de la série"),
        ("B2@n'importe", "Ce choix est illisible"),
    ):
        res = await fake.run_command(u.alice, "jeux", "limit placer", position=position)
        assert res.ephemeral and needle in res.content and not res.attachments, (position, res.content)
    res = await fake.forge_click(u.alice, msg, f"ludibot:{game}:pos:0:0.1.{tile1}")
    assert res.ephemeral and "pas valide" in res.content
    after = (await fake.click(u.alice, msg, label="Mon plateau")).attachments[0].bytes
    assert after == before and last_control(fake) is msg
    res = await fake.run_command(u.bruno, "jeux", "limit status")
    assert waiting(res) == "En attente de\u00a0: Alice, Bruno."

    # Alice places A1; her panel of round 1 is now out of date: she already placed
    await typed(fake, u.alice, "A1")
    res = await fake.select(u.alice, panel.message, ["B1"], custom_id=panel.message.selects[0]["custom_id"])
    assert res.ephemeral and f"Vous avez déjà posé la tuile {tile1} (en A1)" in res.content, res.content
    assert (await fake.autocomplete(u.alice, "jeux", "limit placer", {"position": ""})).values == []
    old_choice = next(v for v in choices.values if v.startswith("B1@"))
    # Bruno: A1 is free on his board (her tile is hers alone until the round closes)
    mine = await fake.autocomplete(u.bruno, "jeux", "limit placer", {"position": "A"})
    assert mine.values[0].startswith("A1@")
    assert [m for m in fake.visible_to(u.bruno) if "Vous avez posé" in (m.content or "")] == []
    await typed(fake, u.bruno, "X1")
    msg = last_control(fake)
    assert "Tuile 2/44" in msg.content

    # round 2: the round-1 select and the round-1 autocompleted choice are stale, refused with the reason
    tile2 = re.search(rf"Tuile 2/44\u00a0: {TILE}", msg.content)[1]
    stale = f"La tuile annoncée est {tile2}, pas {tile1}\u00a0: ce placement est périmé, rien n'a changé."
    res = await fake.select(u.alice, panel.message, ["B1"], custom_id=panel.message.selects[0]["custom_id"])
    assert res.ephemeral and stale in res.content, res.content
    res = await fake.run_command(u.alice, "jeux", "limit placer", position=old_choice)
    assert res.ephemeral and stale in res.content, res.content
    res = await fake.run_command(u.alice, "jeux", "limit placer", position="a1")
    assert res.ephemeral and f"L'emplacement A1 est déjà occupé par la tuile {tile1}" in res.content
    assert last_control(fake) is msg
    res = await fake.run_command(u.alice, "jeux", "limit status")
    assert waiting(res) == "En attente de\u00a0: Alice, Bruno."

    # the round-2 panels, used at the same moment: both apply, one round closes, one new round message
    panels = [await fake.click(user, msg, label="Placer") for user in (u.alice, u.bruno)]
    previews = [await fake.select(user, p.message, [p.message.selects[0]["options"][0]["value"]],
                                  custom_id=p.message.selects[0]["custom_id"])
                for user, p in zip((u.alice, u.bruno), panels, strict=True)]
    clicks = [await fake.click(user, p.message, label="Confirmer", wait=False)
              for user, p in zip((u.alice, u.bruno), previews, strict=True)]
    # (each public message follows its ephemeral answer, under load later than any settle time)
    await asyncio.gather(*(c.wait(until=lambda r: bool(r.public_messages)) for c in clicks))
    assert all(c.response_type == 7 and "Vous avez posé" in c.content for c in clicks), [c.content for c in clicks]
    closing = [m for m in fake.messages("jeux") if m.visible_to is None and "Tout le monde a posé la tuile 2 " in m.content]
    assert len(closing) == 1 and last_control(fake) is closing[0] and "Tuile 3/44" in closing[0].content
    # the relocation belongs to the Orchidée
    res = await fake.run_command(u.alice, "jeux", "limit deplacer", a=tile1)
    assert res.ephemeral and "qu'à la fin de la partie" in res.content
    assert fake.errors == []
    assert world.bot.tracebacks() == []


async def test_pass_variant_the_holder_fills_the_passed_dechetterie(world):
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "limit start", plateau="nexus", variante="passe-dechetterie")
    assert "Passez la Déchetterie" in res.message.content
    await fake.click(u.bruno, res.message, label="Rejoindre")
    await fake.click(u.alice, res.message, label="Lancer")
    choices = await fake.autocomplete(u.alice, "jeux", "limit placer", {"position": ""})
    assert choices.names[0] == "X — confier la tuile à Bruno pour votre Déchetterie"
    # (its public message follows the ephemeral answer: waited for, so that Bruno's Placer is on the newest card)
    res = await fake.run_command(u.alice, "jeux", "limit placer", position=choices.values[0],
                                 until=lambda r: bool(r.public_messages))
    assert res.ephemeral and "Vous avez posé" in res.content and " en X." in res.content
    # Bruno holds Alice's Déchetterie: he places his own tile and fills hers
    choices = await fake.autocomplete(u.bruno, "jeux", "limit placer", {"position": "x"})
    assert choices.names[0] == "X — confier la tuile à Alice pour votre Déchetterie"
    assert "X1 — Déchetterie d'Alice" in choices.names
    panel = await fake.click(u.bruno, last_control(fake), label="Placer")
    assert "Alice vous a confié la tuile" in panel.content and len(panel.message.selects) == 3
    fill = panel.message.selects[2]
    assert fill["placeholder"] == "Déchetterie d'Alice" and [o["value"] for o in fill["options"]] == list(DECHETTERIE.names)
    res = await confirm(fake, u.bruno, await fake.select(u.bruno, panel.message, ["X4"], custom_id=fill["custom_id"]),
                        until=lambda r: bool(r.public_messages))
    assert res.response_type == 7 and "Vous avez posé" in res.content and "X4" in res.content, res.content
    assert mentioned(res.public_messages[-1]) == [u.bruno.id]  # his own tile is still to place
    assert "X4" not in res.public_messages[-1].content
    res = await typed(fake, u.bruno, "D4")
    assert "Tout le monde a posé la tuile 1 " in res.public_messages[-1].content
    # the cell the holder chose is told to nobody else (Alice sees it on her board once the round closed)
    assert [m for m in fake.visible_to(u.alice) if "X4" in (m.content or "")] == []
    # the round's buttons outlive a crash of the bot
    msg = last_control(fake)
    world.bot.kill()
    await fake.wait_disconnected(timeout=10)
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    res = await fake.click(u.alice, msg, label="Mon plateau")
    assert res.ephemeral and is_png(res)
    res, _ = await by_buttons(fake, u.alice, msg)
    assert res.public_messages and "Alice a posé" in res.public_messages[-1].content
    assert fake.errors == []
    assert world.bot.tracebacks() == []


async def test_solo_series_against_the_ai_with_all_64_tiles(world):
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "limit start", plateau="orchidee", variante="orchidee-64",
                                 serie=2, solo=True, ia=1)
    assert not res.ephemeral and is_png(res) and "Tuile 1/25" in res.content
    assert mentioned(res.message) == [u.alice.id]  # the AI has already placed
    for game in (1, 2):
        for rnd in range(1, 26):
            res = await typed(fake, u.alice, ORCHID_ORDER[rnd - 1])
            assert f"Tout le monde a posé la tuile {rnd} " in res.public_messages[-1].content
        # the relocation: the AI has chosen (to move tiles or, with some draws, to leave them in place)
        assert re.search(r"Bot 1 (a déplacé \d+ tuiles?|laisse les tuiles de sa grande orchidée en place)",
                         res.public_messages[-1].content), res.public_messages[-1].content
        if game == 1:  # Alice asks for the advice by the command, then moves nothing
            panel = await fake.run_command(u.alice, "jeux", "limit deplacer")
            assert panel.ephemeral and is_png(panel) and "Grande orchidée" in panel.content, panel.content
            res = await fake.click(u.alice, panel.message, label="Ne rien déplacer",
                                   until=lambda r: any("Partie 2/2" in (m.content or "") for m in r.public_messages))
            assert res.response_type == 7 and "vous ne déplacez rien" in res.content
            texts = [m.content for m in res.public_messages]
            # the first game's boards, one picture each, then the second game at once
            boards = next(m for m in res.public_messages if "Partie 1/2\u00a0: les plateaux et leurs scores" in m.content)
            assert len(boards.attachments) == 2
            for attachment in boards.attachments:
                width, height = attachment.image().size
                assert 400 <= width <= 600 and height < 2 * width
            assert "Partie 2/2\u00a0: c'est reparti" in texts[-1] and "Tuile 1/25" in texts[-1], texts
            assert mentioned(res.public_messages[-1]) == [u.alice.id]
            continue
        # three tiles and three empty holes: 34 possibilities, every one reachable, a select per
        # number of tiles moved (the fake refuses a select of more than 25 options)
        panel = await fake.click(u.alice, last_control(fake), label="Déplacer")
        assert panel.ephemeral and "Meilleur déplacement" in panel.content, panel.content
        selects = panel.message.selects
        assert [s["placeholder"] for s in selects] == ["Déplacer une tuile…", "Déplacer 2 tuiles…",
                                                       "Déplacer 3 tuiles…"]
        offered = [o["value"] for s in selects for o in s["options"]]
        assert len(offered) == len(set(offered)) and len(offered) in (32, 33)  # all but the two buttons
        three = selects[2]["options"][-1]
        assert three["value"].count("=") == 3
        res = await fake.select(u.alice, panel.message, [three["value"]], custom_id=selects[2]["custom_id"],
                                until=lambda r: bool(r.public_messages))
        assert res.response_type == 7 and "C'est noté" in res.content and res.content.count(" en ") == 3, res.content
        assert "Alice a déplacé 3 tuiles de la grande orchidée" in res.public_messages[-1].content
    final = res.public_messages[-1]
    assert "Partie 2/2 terminée" in final.content and "Fin de la partie" in final.content
    assert re.search(r"\d\. Alice — -?\d+", final.content) and re.search(r"\d\. Bot 1 — -?\d+", final.content)
    assert final.button_labels == ["Revanche"] and len(final.attachments) == 2
    assert fake.errors == []
    assert world.bot.tracebacks() == []
