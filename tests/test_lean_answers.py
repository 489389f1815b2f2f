"""A move's answers sent as the card's JSON (bot.ui.follow_up, bot.ui.update_clicked): the same
requests discord.py would make from the card's LayoutView, through its own webhook adapter."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import discord
import pytest

from bot import ui
from bot.cards import Card, Seat
from bot.ui import button


class Adapter:
    def __init__(self, answer):
        self.answer = answer
        self.calls: list[tuple[str, tuple, dict]] = []

    async def execute_webhook(self, *args, **kwargs):
        self.calls.append(("execute_webhook", args, kwargs))
        return self.answer

    async def request(self, *args, **kwargs):
        self.calls.append(("request", args, kwargs))
        return None


def interaction():
    state = SimpleNamespace(http=SimpleNamespace(proxy=None, proxy_auth=None),
                            allowed_mentions=discord.AllowedMentions.none())
    response = SimpleNamespace(_response_type=None)
    response.is_done = lambda: response._response_type is not None
    return SimpleNamespace(_state=state, _session="session", application_id=42, token="tok", id=7,
                           response=response)


CARD = Card(text="**Alice** lance.\n<@123> à toi", accent=0x336699, pictures=("ludix-1.png",),
            groups=((button(1, "roll", "Relancer", version=3, emoji="🎲"),),),
            seats=(Seat(name="Alice", to_play=True, button="ludibot:1:profile:0:0", label="Profil"),
                   Seat(name="Bruno", button="ludibot:1:profile:0:1", label="Profil")))


@pytest.fixture
def adapter(monkeypatch):
    box = {}

    def install(answer):
        box["a"] = Adapter(answer)
        monkeypatch.setattr(ui, "async_context", SimpleNamespace(get=lambda: box["a"]))
        return box["a"]

    return install


async def test_a_follow_up_sends_the_cards_json_and_its_picture_and_reads_only_the_id(adapter):
    a = adapter({"id": "1234567890", "components": "not read"})
    picture = discord.File(io.BytesIO(b"\x89PNG..."), filename="ludix-1.png")
    assert await ui.follow_up(interaction(), CARD, [picture]) == 1234567890
    (name, args, kw), = a.calls
    assert name == "execute_webhook" and args == (42, "tok") and kw["wait"] is True
    assert kw["session"] == "session" and kw["files"] == [picture]
    payload = json.loads(kw["multipart"][0]["value"])
    assert payload["components"] == CARD.layout().to_components()
    assert payload["flags"] == 1 << 15  # IS_COMPONENTS_V2, not ephemeral
    assert [int(u) for u in payload["allowed_mentions"]["users"]] == [123]  # only the player named pings
    assert payload["attachments"] == [{"id": 0, "filename": "ludix-1.png"}]
    assert kw["multipart"][1]["filename"] == "ludix-1.png"


async def test_a_private_follow_up_is_ephemeral_and_an_answer_without_an_id_gives_none(adapter):
    a = adapter({"no": "id"})
    assert await ui.follow_up(interaction(), CARD, [], ephemeral=True) is None  # the outbox posts again
    (_, _, kw), = a.calls
    assert kw["payload"]["flags"] == (1 << 15) | (1 << 6) and not kw["multipart"]
    adapter(None)
    assert await ui.follow_up(interaction(), CARD, []) is None


async def test_update_clicked_answers_the_click_once_without_asking_the_message_back(adapter):
    a = adapter(None)
    inter = interaction()
    await ui.update_clicked(inter, CARD.without_controls())
    (name, (route,), kw), = a.calls
    assert name == "request" and route.method == "POST" and route.url.endswith("/interactions/7/tok/callback")
    assert "params" not in kw  # no with_response: nothing reads the message
    body = kw["payload"]
    assert body["type"] == 7 and body["data"]["flags"] == 1 << 15
    assert body["data"]["components"] == CARD.without_controls().layout().to_components()
    assert body["data"]["allowed_mentions"]["parse"] == []  # an edit pings nobody
    assert "attachments" not in body["data"]  # the pictures stay
    assert inter.response.is_done()
    with pytest.raises(discord.InteractionResponded):
        await ui.update_clicked(inter, CARD)
