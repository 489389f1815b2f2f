"""Issue 27: the result card's animated summary (``GameCog.attach_summary``), below Discord: the edit
keeps the card's attachments and adds the animation; a card that has it, a file over Discord's
upload limit, a full gallery or a refused edit change nothing and never raise. End to end (the
strict fake, a restart before the edit): tests/e2e/test_replay_e2e.py."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

import bot.gamecog as G
from bot.cards import Card
from bot.community.replay import Animation


class Message:
    def __init__(self, names, refuse=False):
        self.attachments = [SimpleNamespace(filename=n) for n in names]
        self.edits = []
        self.refuse = refuse

    async def edit(self, **kwargs):
        if self.refuse:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "Unknown Message")
        self.edits.append(kwargs)


def cog(message, data=b"RIFF....WEBP", calls=None):
    async def summary(game, lg):
        if calls is not None:
            calls.append(lg)
        return Animation(data, "webp", 3)

    async def fetch_message(mid):
        return message

    channel = SimpleNamespace(fetch_message=fetch_message)
    bot = SimpleNamespace(replays=SimpleNamespace(summary=summary), get_partial_messageable=lambda cid: channel)
    return SimpleNamespace(bot=bot, _attaching=set(), _completed=set())


GAME = SimpleNamespace(id=7, kind="ludix")


@pytest.fixture(autouse=True)
def shown(monkeypatch):
    monkeypatch.setattr(G, "from_message", lambda m: Card(text="Résultat", pictures=tuple(a.filename for a in m.attachments)))


async def test_the_edit_keeps_the_cards_pictures_and_adds_the_animation():
    msg = Message(["ludix-7.png"])
    me = cog(msg)
    assert await G.GameCog.attach_summary(me, GAME, "fr", 1, 2, delay=0) is True
    (edit,) = msg.edits
    kept, new = edit["attachments"][:-1], edit["attachments"][-1]
    assert kept == msg.attachments and isinstance(new, discord.File) and new.filename == "ludibot-ludix-7.webp"
    galleries = [c for c in edit["view"].walk_children() if isinstance(c, discord.ui.MediaGallery)]
    # the summary under the result's picture, each alone in its gallery (the card's whole width)
    assert [[i.media.url for i in g.items] for g in galleries] == [["attachment://ludix-7.png"],
                                                                   ["attachment://ludibot-ludix-7.webp"]]
    assert GAME.id in me._completed and not me._attaching


@pytest.mark.parametrize(("names", "data"), [
    (["ludix-7.png", "ludibot-ludix-7.webp"], b"x"),  # it has it already
    (["ludix-7.png"], b"x" * (10 * 1024 * 1024 + 1)),  # over Discord's upload limit
    ([f"p{i}.png" for i in range(10)], b"x"),  # a full gallery
])
async def test_nothing_is_edited_when_the_animation_is_there_too_big_or_has_no_room(names, data):
    msg = Message(names)
    me = cog(msg, data)
    assert await G.GameCog.attach_summary(me, GAME, "fr", 1, 2, delay=0) is False
    assert msg.edits == [] and GAME.id in me._completed


async def test_a_refused_edit_leaves_the_card_and_raises_nothing():
    msg = Message(["ludix-7.png"], refuse=True)
    me = cog(msg)
    assert await G.GameCog.attach_summary(me, GAME, "fr", 1, 2, delay=0) is False
    assert not me._attaching


async def test_two_completions_at_once_edit_once():
    msg = Message(["ludix-7.png"])
    calls: list[str] = []
    me = cog(msg, calls=calls)
    me._attaching.add(GAME.id)  # the publication's own edit is under way
    assert await G.GameCog.attach_summary(me, GAME, "fr", 1, 2, delay=0) is False
    assert calls == [] and msg.edits == []
