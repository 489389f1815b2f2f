"""Each game stays in its server and channel; inputs outside their declaration get a clean refusal
(issue 13, parts 1 and 4): two servers, two channels, the real bot process."""

from __future__ import annotations

import asyncio
import re

import pytest
import pytest_asyncio

from engines.tectonic import ENGINE as TECTONIC
from fakediscord import models as fm
from tests.e2e.closed_doors import make_world
from tests.e2e.harness import StateReader, strict
from tests.e2e.tectonic_driver import answered, board_messages, game_id_of

pytestmark = pytest.mark.e2e


@pytest_asyncio.fixture
async def world(tmp_path):
    async with strict(await make_world(tmp_path, nasty=False, guilds=2, crowd=50)) as w:
        yield w


def game_of(message) -> int:
    return int(message.buttons[0]["custom_id"].split(":")[1])


def same_text(a: str, id_a: int, b: str, id_b: int) -> bool:
    return re.sub(rf"\b{id_a}\b", "N", a) == re.sub(rf"\b{id_b}\b", "N", b)


async def snapshot(w, game_id: int):
    async with StateReader(w.bot.db, TECTONIC) as r:
        g = await r.game(game_id)
        return g.status, g.version, g.state, g.channel_id, g.control_message_id, [s.user_id for s in g.seats]


async def forge(fake, user, message, custom_id: str, component_type: int, values=None):
    """A crafted client: any custom id with any component type, on a message the user sees."""
    msg = fake._current(message, user)
    data = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = values
    rec = fake._new_interaction(fm.IT_MESSAGE_COMPONENT, user, fake.channel(msg.channel_id), data, message=msg)
    return await fake._fire(rec, "component", True, None, None, None, None)


async def test_another_servers_game_does_not_exist_and_another_channels_is_refused(world):
    w, fake, u = world, world.fake, world.u
    club = fake.channel("jeux", guild=w.club)
    # server A, channel jeux: a Ludix lobby and a Tectonic game against the bot
    lobby = (await fake.run_command(u.alice, "jeux", "ludix start")).message
    g = game_of(lobby)
    await fake.click(u.bruno, lobby, label="Rejoindre")
    res = await fake.run_command(u.alice, "jeux", "tectonic start", adversaire="bot", until=answered)
    (board,) = board_messages(res)
    t = game_id_of(board)
    ghost = t + 1000
    before_g, before_t = await snapshot(w, g), await snapshot(w, t)
    # server B: its moderator, and its members, see neither game: exactly "no such game"
    zoe_lobby = (await fake.run_command(u.zoe, club, "ludix start")).message
    for path, opts in (("ludix cancel", {}), ("ludix join", {}), ("ludix status", {}), ("ludix leave", {}),
                       ("tectonic status", {}), ("tectonic cancel", {}), ("ludime table", {}),
                       ("tectonic jouer", {"de": "A1", "vers": "A2"})):
        for target in (g, t):
            res = await fake.run_command(u.zoe, club, path, partie=target, **opts)
            nope = await fake.run_command(u.zoe, club, path, partie=ghost, **opts)
            assert res.ephemeral and "n'existe pas" in res.content, (path, res.content)
            assert same_text(res.content, target, nope.content, ghost), (path, res.content, nope.content)
    res = await fake.run_command(u.zoe, club, "historique", partie=g)
    assert res.ephemeral and "n'existe pas" in res.content
    # components forged in server B with server A's ids: "no such game" too
    for verb in ("join", "cancel", "start", "addai", "leave"):
        res = await fake.forge_click(u.zoe, zoe_lobby, f"ludibot:{g}:{verb}:0")
        assert res.ephemeral and f"La partie n°{g} n'existe pas" in res.content, res.content
    res = await fake.forge_click(u.yann, zoe_lobby, f"ludibot:{t}:mine:0")
    assert res.ephemeral and f"La partie n°{t} n'existe pas" in res.content
    # « Profil » beside a seat of server A's card (issue 24), carried to server B: no such game, no profile
    assert [a["custom_id"] for a in board.accessories][0] == f"ludibot:{t}:profile:0:0"
    res = await fake.forge_click(u.zoe, zoe_lobby, f"ludibot:{t}:profile:0:0")
    assert res.ephemeral and f"La partie n°{t} n'existe pas" in res.content and "Profil" not in res.content
    # autocomplete in server B offers nothing of server A
    choices = await fake.autocomplete(u.zoe, club, "ludix join", {"partie": ""}, focused="partie")
    assert g not in list(choices.values)
    # same server, another channel: the command is told where the game is, and nothing happens
    for user, path, opts in ((u.modo, "ludix cancel", {"partie": g}), (u.chloe, "ludix join", {"partie": g}),
                             (u.alice, "tectonic jouer", {"partie": t, "de": "B1", "vers": "B2"}),
                             (u.modo, "tectonic cancel", {"partie": t})):
        res = await fake.run_command(user, "autre", path, **opts)
        assert res.ephemeral and "se joue dans" in res.content and "<#" in res.content, (path, res.content)
        assert res.public_messages == []
    assert await snapshot(w, g) == before_g and await snapshot(w, t) == before_t
    assert [m for m in fake.messages("autre") if m.visible_to is None] == []
    # Manage Server counts in the game's own server only: Zoé, a member of A too, cannot cancel there
    fake.add_member(u.zoe, w.fake.guild, manage_guild=False)
    await asyncio.sleep(0.3)
    res = await fake.run_command(u.zoe, "jeux", "ludix cancel", partie=g)
    assert res.ephemeral and "Seul le créateur" in res.content
    assert await snapshot(w, g) == before_g
    # ...while Modo, who manages A, can
    res = await fake.run_command(u.modo, "jeux", "ludix cancel", partie=g)
    assert not res.ephemeral and "annulée" in res.content
    assert fake.errors == []
    assert w.bot.tracebacks() == []


async def test_inputs_outside_their_declaration_get_a_clean_refusal(world):
    w, fake, u = world, world.fake, world.u
    lobby = (await fake.run_command(u.alice, "jeux", "ludix start")).message
    g = game_of(lobby)
    before = await snapshot(w, g)
    cases = [
        ("ludix join", {"partie": 2**70}, "hors limites"),
        ("ludix join", {"partie": -(2**63) - 1}, "hors limites"),
        ("ludix status", {"partie": 2**53}, "hors limites"),
        ("ludix start", {"niveau": 2**62, "ia": 1}, "hors limites"),
        ("ludix start", {"niveau": 3, "ia": 1}, "(choix possibles\u00a0: Facile, Difficile)"),
        ("ludix start", {"objectif": 10**30}, "hors limites"),
        ("tectonic start", {"adversaire": "n'importe quoi"}, "n'est pas un choix possible"),
        ("tectonic start", {"niveau": 7}, "n'est pas un choix possible"),
        ("armada start", {"adversaire": "<@1> **x**"}, "n'est pas un choix possible"),
        ("classement", {"jeu": "ludix", "periode": "x" * 6000}, "n'est pas un choix possible"),
    ]
    for path, opts, needle in cases:
        res = await fake.run_command(u.bruno, "jeux", path, validate=False, **opts)
        assert res.ephemeral and needle in res.content, (path, opts, res.content)
        assert "erreur interne" not in res.content
        assert "<@1>" not in res.content and "**x**" not in res.content
    async with StateReader(w.bot.db, TECTONIC) as r:
        games = await r.store.games_with_status(("lobby", "running", "finished", "cancelled"))
    assert [x.id for x in games] == [g]  # no refused start created a game
    # a component of the wrong type: a button's id sent as a select, a select as a button
    res = await forge(fake, u.bruno, lobby, f"ludibot:{g}:join:0", fm.C_STRING_SELECT, ["x"])
    assert res.ephemeral and "pas du bon type" in res.content, res.content
    assert await snapshot(w, g) == before
    assert fake.errors == []
    assert w.bot.tracebacks() == []


async def test_fifty_simultaneous_joins_are_refused_only_once_the_lobby_is_full(world):
    w, fake, u = world, world.fake, world.u
    lobby = (await fake.run_command(u.alice, "jeux", "ludix start")).message
    g = game_of(lobby)
    pending = [await fake.click(user, lobby, label="Rejoindre", wait=False) for user in u.crowd]
    results = await asyncio.gather(*(r.wait() for r in pending))
    joined = [r for r in results if r.response_type == 7]
    refused = [r for r in results if r.response_type != 7]
    assert len(joined) == 5  # Ludix seats six
    assert all(r.ephemeral and "complète" in r.content for r in refused), [r.content for r in refused][:3]
    assert not any("Trop de monde" in r.content for r in results)
    status, version, _, _, _, seats = await snapshot(w, g)
    assert status == "lobby" and len(seats) == 6 and len(set(seats)) == 6
    assert fake.errors == []
    assert w.bot.tracebacks() == []
