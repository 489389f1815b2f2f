"""A Swiss Armada tournament of four, end to end: the real bot against the strict fake Discord.

/tournoi creer (refused without Manage Server), inscrire (full at four), lancer (refused to an entrant),
each round's games opened in threads of their own by the bot, resignations ending them, the second
round paired without a rematch, /tournoi etat's picture, and the podium with its standings card."""

from __future__ import annotations

import asyncio
import io
import re

import pytest
from PIL import Image

from bot.community import seasons
from bot.community.tournament_notice import ACCENT
from tests.e2e.harness import assert_card, usual_world

pytestmark = pytest.mark.e2e


def threads(fake, channel="jeux"):
    parent = fake.channel(channel)
    return [c for c in fake.channels.values() if c.is_thread and c.parent_id == parent.id]


def public_with(fake, text, channel="jeux"):
    return [m for m in fake.messages(channel) if m.visible_to is None and text in (m.content or "")]


async def resign(fake, user, thread) -> None:
    """Resign the thread's game (from the tournament's channel, naming the game: its home channel)."""
    game = int(re.search(r"n°(\d+)", thread.name)[1])
    res = await fake.run_command(user, "jeux", "armada abandon", partie=game)
    assert res.ephemeral, res.content
    res = await fake.click(user, res.message, label="Abandonner")
    assert "Vous avez abandonné" in (res.content or res.message.content)


async def thread_of(fake, name: str, seen: set[int]):
    """The new game thread whose name carries ``name``."""
    await fake.wait_until(lambda: any(name in t.name and t.id not in seen for t in threads(fake)), timeout=30)
    t = next(t for t in threads(fake) if name in t.name and t.id not in seen)
    # its first card, the bot's own post (no interaction opened this game)
    await fake.wait_until(lambda: any("La partie commence" in (m.content or "") for m in fake.messages(t)),
                          timeout=30)
    return t


async def test_swiss_armada_tournament(tmp_path, bot_db):
    env = {"LUDIBOT_SCHEDULER_POLL": "0.3", "LUDIBOT_PUBLISH_POLL": "0.3"}
    async with usual_world(tmp_path, bot_db, env=env) as w:
        fake, u = w.fake, w.u
        res = await fake.run_command(u.alice, "jeux", "tournoi creer", jeu="armada")
        assert res.ephemeral and "Gérer le serveur" in res.content
        res = await fake.run_command(u.modo, "jeux", "tournoi creer", jeu="armada", format="swiss", rondes=2,
                                     places=4)
        assert not res.ephemeral and "Tournoi n°1" in res.content and "2 rondes" in res.content
        card = res.message  # the tournament's card: signing up is a button, no command to type
        assert card.button_labels == ["S'inscrire", "Se désinscrire"] and "bouton ci-dessous" in card.content
        for who in (u.alice, u.bruno, u.chloe):
            res = await fake.click(who, card, label="S'inscrire")
            assert not res.ephemeral and "participe au tournoi n°1" in res.content, res.content
        res = await fake.click(u.alice, card, label="S'inscrire")  # the command's refusals, the same
        assert res.ephemeral and "déjà" in res.content, res.content
        res = await fake.click(u.chloe, card, label="Se désinscrire")
        assert res.ephemeral and "ne participez plus" in res.content, res.content
        res = await fake.click(u.chloe, card, label="Se désinscrire")
        assert res.ephemeral and "ne participez pas" in res.content, res.content
        for who in (u.chloe, u.dave):  # the command still works beside the button
            res = await fake.run_command(who, "jeux", "tournoi inscrire")
            assert not res.ephemeral and "participe au tournoi n°1" in res.content, res.content
        res = await fake.click(u.modo, card, label="S'inscrire")
        assert res.ephemeral and "complet" in res.content
        res = await fake.run_command(u.modo, "jeux", "tournoi inscrire")
        assert res.ephemeral and "complet" in res.content
        res = await fake.run_command(u.alice, "jeux", "tournoi lancer")
        assert res.ephemeral and "Gérer le serveur" in res.content
        res = await fake.run_command(u.modo, "jeux", "tournoi lancer")
        assert "commence" in res.content and "2 rondes" in res.content

        await fake.wait_until(lambda: public_with(fake, "ronde 1 sur 2"), timeout=30)
        seen: set[int] = set()
        a = await thread_of(fake, "Alice, Bruno", seen)
        c = await thread_of(fake, "Chloé, Dave", seen)
        seen |= {a.id, c.id}
        # the round's card, in the tournament's colour: each pairing links to its game's first card, in its thread
        (announce,) = public_with(fake, "ronde 1 sur 2")
        assert assert_card(announce).accent_color == ACCENT

        def links():  # posted at once, completed by an edit as the games' first cards are posted
            return re.findall(r"\(<https://discord\.com/channels/(\d+)/(\d+)/(\d+)>\)",
                              fake.message_by_id[announce.id].content)

        await fake.wait_until(lambda: len(links()) == 2, timeout=30)
        for guild, channel, message in links():
            assert int(guild) == fake.guild_id and int(channel) in (a.id, c.id)
            assert "La partie commence" in fake.message_by_id[int(message)].content
            assert fake.message_by_id[int(message)].channel_id == int(channel)
        res = await fake.run_command(u.chloe, "jeux", "tournoi etat")
        assert "ronde 1 sur 2" in res.content.lower() or "Ronde 1 sur 2" in res.content
        att = res.message.attachments[0]
        assert Image.open(io.BytesIO(att.bytes)).width <= 720

        res = await fake.click(u.modo, card, label="S'inscrire")  # entries closed: said so
        assert res.ephemeral and "S'inscrire" not in res.content and "tournoi" in res.content.lower(), res.content

        await resign(fake, u.alice, a)  # Bruno wins
        await resign(fake, u.chloe, c)  # Dave wins
        await fake.wait_until(lambda: public_with(fake, "ronde 2 sur 2"), timeout=30)
        # winners meet winners, losers meet losers: no rematch
        b = await thread_of(fake, "Bruno, Dave", seen)
        a2 = await thread_of(fake, "Alice, Chloé", seen)
        await resign(fake, u.bruno, b)
        await resign(fake, u.alice, a2)
        await fake.wait_until(lambda: public_with(fake, "Fin du tournoi n°1"), timeout=30)
        (podium,) = public_with(fake, "Fin du tournoi n°1")
        assert assert_card(podium, pictures=1).accent_color == ACCENT  # the standings picture in its gallery
        lines = podium.content.splitlines()
        assert f"<@{u.dave.id}> — 2 pt" in lines[1] and lines[1].startswith("🥇")
        # Bruno and Chloé: 1 point, Buchholz 2, Sonneborn-Berger 0, same rating: shared second place
        assert {lines[2], lines[3]} == {f"🥈 <@{u.bruno.id}> — 1 pt", f"🥈 <@{u.chloe.id}> — 1 pt"}
        assert podium.attachments and podium.attachments[0].filename == "tournoi-1.png"
        assert not w.bot.tracebacks()


async def test_queue_and_challenge(tmp_path, bot_db):
    env = {"LUDIBOT_SCHEDULER_POLL": "0.3", "LUDIBOT_PUBLISH_POLL": "0.3"}
    async with usual_world(tmp_path, bot_db, env=env) as w:
        fake, u = w.fake, w.u
        res = await fake.run_command(u.alice, "jeux", "chercher", jeu="tectonic")
        assert res.ephemeral and "1 sur 2 en attente" in res.content
        assert_card(res.message)
        res = await fake.run_command(u.alice, "jeux", "chercher", jeu="ludix", joueurs=3)
        assert res.ephemeral and "1 sur 3" in res.content
        res = await fake.run_command(u.alice, "jeux", "chercher", jeu="tectonic")
        assert res.ephemeral and "déjà" in res.content
        res = await fake.run_command(u.bruno, "jeux", "chercher", jeu="ludix", joueurs=7)
        assert res.ephemeral and "de 2 à 6 joueurs" in res.content
        res = await fake.run_command(u.bruno, "autre", "chercher", jeu="tectonic")
        assert not res.ephemeral and "Partie trouvée" in res.content
        assert_card(res.message)
        game = int(re.search(r"n°(\d+)", res.content)[1])
        assert f"<@{u.alice.id}>" in res.content and f"<@{u.bruno.id}>" in res.content
        # the game opens where Alice asked, and Alice left the Ludix queue as she was seated
        await fake.wait_until(lambda: any("La partie commence" in (m.content or "") for m in fake.messages("jeux")),
                              timeout=30)
        res = await fake.run_command(u.alice, "jeux", "chercher", quitter=True)
        assert res.ephemeral and "aucune file" in res.content

        # a challenge: only Chloé can join; she gets a DM
        res = await fake.run_command(u.alice, "jeux", "defi", membre=u.alice, jeu="armada")
        assert res.ephemeral and "vous-même" in res.content
        res = await fake.run_command(u.alice, "jeux", "defi", membre=u.chloe, jeu="armada")
        assert not res.ephemeral and "défie" in res.content and f"<@{u.chloe.id}>" in res.content
        lobby = res.message
        # a table of two that waits for Chloé only: no AI to add, no start button, "1 sur 2"
        assert "Ajouter une IA" not in lobby.button_labels and "Lancer" not in " ".join(lobby.button_labels)
        assert "Joueurs (1 sur 2)" in lobby.content and "la partie commence dès son arrivée" in lobby.content
        res = await fake.click(u.bruno, lobby, label="Rejoindre")
        assert res.ephemeral and "seul" in res.content
        started_before = len([m for m in fake.messages("jeux") if "La partie commence" in (m.content or "")])
        await fake.click(u.chloe, lobby, label="Rejoindre")
        await fake.wait_until(lambda: "Chloé" in (lobby.content or ""), timeout=10)  # seated in the lobby
        # 2 of 2: the game starts by itself, its lobby card says so, its first turn follows
        await fake.wait_until(lambda: "La partie est lancée" in (lobby.content or ""), timeout=10)
        assert lobby.button_labels == []
        await fake.wait_until(lambda: len([m for m in fake.messages("jeux")
                                           if "La partie commence" in (m.content or "")]) > started_before, timeout=20)
        await fake.wait_until(lambda: fake.dms(u.chloe), timeout=10)
        assert "vous défie" in fake.dms(u.chloe)[0].content

        # seasons: set quarterly where the podiums will be posted; a season's table; a wrong season refused
        res = await fake.run_command(u.modo, "jeux", "ludibot config", saison="quarter")
        assert res.ephemeral and "trimestrielles" in res.content
        res = await fake.run_command(u.alice, "jeux", "classement", jeu="tectonic", saison="2026-05")
        assert res.ephemeral and "Saison inconnue" in res.content and "-q" in res.content
        choices = await fake.autocomplete(u.alice, "jeux", "classement", {"jeu": "tectonic", "saison": ""},
                                          focused="saison")
        current = choices[0]["value"]
        assert "-q" in current and "trimestre" in choices[0]["name"]
        res = await fake.run_command(u.alice, "jeux", "classement", jeu="tectonic", saison=current)
        assert not res.ephemeral and "saison" in res.content and res.message.attachments

        # the quarter ends with nobody playing: its podium is posted at its end, in the season channel, once
        res = await fake.run_command(u.alice, "jeux", "tectonic abandon", partie=game)
        res = await fake.click(u.alice, res.message, label="Abandonner")
        assert "Vous avez abandonné" in (res.content or res.message.content)
        assert public_with(fake, "Fin de la saison") == []
        w.bot.advance(seasons.season_at(w.bot.now(), seasons.QUARTER).end - w.bot.now() + 2)
        await fake.wait_until(lambda: public_with(fake, "Fin de la saison"), timeout=20)
        await asyncio.sleep(1.5)  # several polls later
        (podium,) = public_with(fake, "Fin de la saison")
        assert f"🥇 <@{u.bruno.id}>" in podium.content and f"🥈 <@{u.alice.id}>" in podium.content, podium.content
        assert public_with(fake, "Fin de la saison", "autre") == []
        assert not w.bot.tracebacks()
