"""The fake Discord knows Components V2, modals and application emojis as Discord documents them
(discord-api-docs: components/reference.mdx, resources/message.mdx, resources/emoji.mdx,
interactions/receiving-and-responding.mdx): what it refuses, what it stores, and how a test reads a
card. Plain HTTP against the fake (no bot process)."""

from __future__ import annotations

import base64
import io
import json
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from PIL import Image

from fakediscord import FakeDiscord
from fakediscord import models as m
from fakediscord.api import InteractionResult
from tests.test_fakediscord_strict import Client, _codes, interaction

pytestmark = pytest.mark.asyncio
V2 = m.F_IS_COMPONENTS_V2


def png(w: int = 4, h: int = 3, colour: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), colour).save(buf, "PNG")
    return buf.getvalue()


def text(s: str, **kw: Any) -> dict[str, Any]:
    return {"type": 10, "content": s, **kw}


def button(cid: str, label: str = "b", **kw: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": cid, **kw}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def media(url: str) -> dict[str, Any]:
    return {"url": url}


@pytest_asyncio.fixture
async def env():
    fake = FakeDiscord(guild_name="V2", channels=["jeux"])
    alice = fake.add_user("Alice")
    fake.rate_limit.channel_post_limit = 1000
    fake.rate_limit.channel_edit_limit = 1000
    fake.rate_limit.route_limit = 1000
    fake.rate_limit.global_limit = 1000
    await fake.start()
    async with aiohttp.ClientSession() as http:
        yield fake, Client(fake, http), alice
    await fake.stop()


async def post_files(c: Client, ch: int, payload: dict[str, Any], files: dict[str, bytes],
                     method: str = "POST", path: str | None = None) -> tuple[int, Any]:
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(payload))
    for i, (name, data) in enumerate(files.items()):
        form.add_field(f"files[{i}]", data, filename=name, content_type="image/png")
    status, body, _ = await c.req(method, path or f"/channels/{ch}/messages", form=form)
    return status, body


# ------------------------------------------------------------------------------------------- refusals

REFUSED: list[tuple[dict[str, Any], str, str]] = [
    # resources/message.mdx: with the flag, "Providing content, embeds, sticker_ids, poll ... will fail"
    ({"flags": V2, "content": "x", "components": [text("a")]}, "content",
     "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
    ({"flags": V2, "embeds": [{"title": "t"}], "components": [text("a")]}, "embeds",
     "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
    ({"flags": V2, "sticker_ids": ["1"], "components": [text("a")]}, "sticker_ids",
     "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
    ({"flags": V2, "poll": {"question": {"text": "q"}}, "components": [text("a")]}, "poll",
     "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
    # nesting: buttons only in rows or as a section's accessory; thumbnails only as accessories
    ({"flags": V2, "components": [button("b")]}, "components.0.type", "UNION_TYPE_CHOICES"),
    ({"flags": V2, "components": [{"type": 11, "media": media("https://x/y.png")}]}, "components.0.type",
     "UNION_TYPE_CHOICES"),
    ({"flags": V2, "components": [{"type": 17, "components": [{"type": 17, "components": [text("a")]}]}]},
     "components.0.components.0.type", "UNION_TYPE_CHOICES"),
    ({"flags": V2, "components": [{"type": 18, "label": "l", "component": {"type": 4, "custom_id": "t",
                                                                          "style": 1}}]},
     "components.0.type", "UNION_TYPE_CHOICES"),
    ({"flags": V2, "components": [row({"type": 4, "custom_id": "t", "style": 1, "label": "l"})]},
     "components.0.components.0.type", "UNION_TYPE_CHOICES"),
    ({"flags": V2, "components": [{"type": 9, "components": [text(str(i)) for i in range(4)],
                                   "accessory": button("b")}]}, "components.0.components", "BASE_TYPE_BAD_LENGTH"),
    ({"flags": V2, "components": [{"type": 9, "components": [text("a")]}]}, "components.0.accessory",
     "BASE_TYPE_REQUIRED"),
    ({"flags": V2, "components": [{"type": 9, "components": [text("a")], "accessory": {
        "type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}}]}, "components.0.accessory.type",
     "UNION_TYPE_CHOICES"),
    ({"flags": V2, "components": [{"type": 9, "components": [button("x")], "accessory": button("b")}]},
     "components.0.components.0.type", "UNION_TYPE_CHOICES"),
    # a Section (reference.mdx, "Section Structure"): one to three Text Displays, a required accessory
    # that is a Button or a Thumbnail; sections only at the top level or in a container
    ({"flags": V2, "components": [{"type": 9, "components": [], "accessory": button("b")}]},
     "components.0.components", "BASE_TYPE_BAD_LENGTH"),
    ({"flags": V2, "components": [{"type": 9, "accessory": button("b")}]}, "components.0.components",
     "BASE_TYPE_BAD_LENGTH"),
    ({"flags": V2, "components": [{"type": 9, "components": [text("a")], "accessory": None}]},
     "components.0.accessory", "BASE_TYPE_REQUIRED"),
    ({"flags": V2, "components": [{"type": 9, "components": [{"type": 11, "media": media("https://x/y.png")}],
                                   "accessory": button("b")}]}, "components.0.components.0.type", "UNION_TYPE_CHOICES"),
    ({"flags": V2, "components": [{"type": 9, "components": [text("a")], "accessory": text("b")}]},
     "components.0.accessory.type", "UNION_TYPE_CHOICES"),
    ({"flags": V2, "components": [{"type": 9, "components": [text("a")], "accessory": row(button("b"))}]},
     "components.0.accessory.type", "UNION_TYPE_CHOICES"),
    ({"flags": V2, "components": [{"type": 9, "components": [text("a")],
                                   "accessory": {"type": 2, "style": 2, "label": "Profil"}}]},
     "components.0.accessory.custom_id", "BASE_TYPE_REQUIRED"),
    ({"flags": V2, "components": [row({"type": 9, "components": [text("a")], "accessory": button("b")})]},
     "components.0.components.0.type", "UNION_TYPE_CHOICES"),
    ({"content": "x", "components": [{"type": 9, "components": [text("a")], "accessory": button("b")}]},
     "components.0.type", "UNION_TYPE_CHOICES"),
    # a section counts itself, its texts and its accessory toward the 40 (13 sections and a text: 41)
    ({"flags": V2, "components": [{"type": 17, "components": [text("t"), *(
        {"type": 9, "components": [text(f"s{i}")], "accessory": button(f"b{i}")} for i in range(13))]}]},
     "components", "BASE_TYPE_MAX_LENGTH"),
    # galleries of 1 to 10 items, alt text at most 1024
    ({"flags": V2, "components": [{"type": 12, "items": []}]}, "components.0.items", "BASE_TYPE_BAD_LENGTH"),
    ({"flags": V2, "components": [{"type": 12, "items": [{"media": media(f"https://x/{i}.png")}
                                                         for i in range(11)]}]},
     "components.0.items", "BASE_TYPE_BAD_LENGTH"),
    ({"flags": V2, "components": [{"type": 12, "items": [{"media": media("https://x/1.png"),
                                                          "description": "d" * 1025}]}]},
     "components.0.items.0.description", "BASE_TYPE_MAX_LENGTH"),
    ({"flags": V2, "components": [{"type": 12, "items": [{"media": {}}]}]}, "components.0.items.0.media.url",
     "BASE_TYPE_REQUIRED"),
    # a File only takes attachment:// references; a reference must name an attachment of the message
    ({"flags": V2, "components": [{"type": 13, "file": media("https://x/y.zip")}]}, "components.0.file.url",
     "UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED"),
    ({"flags": V2, "components": [{"type": 12, "items": [{"media": media("attachment://absent.png")}]}]},
     "components.0.items.0.media.url", "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"),
    ({"flags": V2, "components": [{"type": 14, "spacing": 3}]}, "components.0.spacing", "BASE_TYPE_CHOICES"),
    ({"flags": V2, "components": [{"type": 17, "accent_color": 0x1000000, "components": [text("a")]}]},
     "components.0.accent_color", "NUMBER_TYPE_MAX"),
    ({"flags": V2, "components": [text("a", id=7), text("b", id=7)]}, "components.1.id", "COMPONENT_ID_DUPLICATED"),
    ({"flags": V2, "components": [text("")]}, "components.0.content", "BASE_TYPE_REQUIRED"),
    ({"flags": V2, "components": [{"type": 15}]}, "components.0.type", "UNION_TYPE_CHOICES"),
    # 40 components counting nested ones; 4,000 characters over all text displays
    ({"flags": V2, "components": [{"type": 17, "components": [text(str(i)) for i in range(40)]}]}, "components",
     "BASE_TYPE_MAX_LENGTH"),
    ({"flags": V2, "components": [text("a" * 2000), {"type": 17, "components": [text("b" * 2001)]}]},
     "components", "MESSAGE_COMPONENTS_TEXT_TOO_LONG"),
    # without the flag, v2 components are refused
    ({"content": "x", "components": [text("a")]}, "components.0.type", "UNION_TYPE_CHOICES"),
    ({"content": "x", "components": [row({"type": 4, "custom_id": "t", "style": 1, "label": "l"})]},
     "components.0.components.0.type", "UNION_TYPE_CHOICES"),
    # a custom emoji must exist (the fake has the application's emojis only)
    ({"flags": V2, "components": [row(button("b", emoji={"id": "123456789012345678", "name": "nope"}))]},
     "components.0.components.0.emoji.id", "COMPONENT_INVALID_EMOJI"),
    ({"content": "x", "components": [row({"type": 3, "custom_id": "s", "options": [
        {"label": "a", "value": "a", "emoji": {"id": "123456789012345678", "name": "nope"}}]})]},
     "components.0.components.0.options.0.emoji.id", "COMPONENT_INVALID_EMOJI"),
]


async def test_v2_messages_are_refused_where_discord_refuses_them(env):
    fake, c, _ = env
    ch = fake.channel("jeux").id
    for payload, path, code in REFUSED:
        status, body, _ = await c.req("POST", f"/channels/{ch}/messages", payload)
        assert status == 400 and body["code"] == 50035, (payload, body)
        assert code in _codes(body["errors"], path), (path, code, body)
    assert len(fake.validation_errors) == len(REFUSED)
    assert fake.messages(ch) == []


async def test_forty_components_with_sections_are_accepted(env):
    """The limit is inclusive: a container, 12 sections of one text and a button, and three texts make 40."""
    fake, c, _ = env
    ch = fake.channel("jeux").id
    sections = [{"type": 9, "components": [text(f"s{i}")], "accessory": button(f"b{i}", disabled=i == 3)}
                for i in range(12)]
    payload = {"flags": V2, "components": [{"type": 17, "components": [text("t"), *sections, text("u"), text("v")]}]}
    status, body, _ = await c.req("POST", f"/channels/{ch}/messages", payload)
    assert status == 200, body
    msg = fake.message_by_id[int(body["id"])]
    assert sum(1 for _ in m.walk_components(msg.components)) == 40
    assert msg.buttons == [] and len(msg.accessories) == 12  # a section's button is not one of the controls
    assert msg.text.split("\n")[:3] == ["t", "s0", "s1"] and fake.validation_errors == []


async def test_a_full_card_is_stored_as_discord_returns_it(env):
    fake, c, alice = env
    ch = fake.channel("jeux").id
    card = {"flags": V2, "allowed_mentions": {"parse": [], "users": [str(alice.id)]},
            "components": [{"type": 17, "accent_color": 0x3366FF, "components": [
                text(f"## Tour 3\n<@{alice.id}>, à vous"),
                {"type": 9, "components": [text("Alice — 12 points")],
                 "accessory": {"type": 11, "media": media("attachment://seat.png")}},
                {"type": 12, "items": [{"media": media("attachment://board.png"), "description": "plateau"},
                                       {"media": media("https://example.com/x.png")}]},
                {"type": 14, "divider": True, "spacing": 2},
                {"type": 13, "file": media("attachment://log.png")},
                row(button("play", "Jouer", id=3), button("pass", "Passer")),
                {"type": 9, "components": [text("Main")], "accessory": button("hand", "Ma main")},
            ]}]}
    status, body = await post_files(c, ch, card, {"board.png": png(8, 6), "seat.png": png(2, 2), "log.png": png(),
                                                  "unused.png": png()})
    assert status == 200, body
    assert body["content"] == "" and body["flags"] & V2  # the bot gets what Discord returns
    comps = body["components"]
    ids = [x["id"] for x in m.walk_components(comps)]
    assert len(ids) == len(set(ids)) == 14 and 3 in ids and all(isinstance(i, int) and i > 0 for i in ids)
    assert ids[:3] == [1, 2, 4]  # sequential, skipping the id given to a button
    gallery = comps[0]["components"][2]["items"]
    msg = fake.message_by_id[int(body["id"])]
    board = next(a for a in msg.attachments if a.filename == "board.png")
    assert gallery[0]["media"]["attachment_id"] == str(board.id) and gallery[0]["media"]["width"] == 8
    assert gallery[0]["media"]["url"] == board.url and gallery[1]["media"]["url"] == "https://example.com/x.png"
    file_comp = comps[0]["components"][4]
    assert file_comp["name"] == "log.png" and file_comp["size"] == len(png())
    # what a test reads: the text of the card where content was, buttons wherever nested, the images
    assert msg.is_v2 and msg.content.startswith("## Tour 3") and "12 points" in msg.text and "Main" in msg.text
    assert msg.button_labels == ["Jouer", "Passer"]  # the controls: the buttons of its action rows
    assert [a.get("label") or a["type"] for a in msg.accessories] == [11, "Ma main"]  # beside the sections' texts
    assert msg.find_component(label="Ma main")["custom_id"] == "hand"
    assert [r["type"] for r in msg.rows] == [1] and msg.accent_color == 0x3366FF
    assert [a.filename for a in msg.gallery] == ["board.png"] and [a.filename for a in msg.thumbnails] == ["seat.png"]
    assert {a.filename for a in msg.images} == {"board.png", "seat.png", "log.png"}
    assert [a.filename for a in msg.hidden_attachments] == ["unused.png"]  # sent, but no component shows it
    assert msg.mentioned_user_ids(msg.allowed_mentions) == [alice.id]
    assert msg.mentioned_user_ids({"parse": [], "users": []}) == []
    res = InteractionResult(fake, interaction(fake, alice, "jeux"), "command")
    res.record.message_ids.append(msg.id)
    assert {a.filename for a in res.images} == {"board.png", "seat.png", "log.png"} and len(res.attachments) == 4
    # the fetched message is the same card
    status, got, _ = await c.req("GET", f"/channels/{ch}/messages/{body['id']}")
    assert status == 200 and got["components"] == comps and got["content"] == ""
    assert fake.validation_errors == []


async def test_the_limits_themselves_pass(env):
    fake, c, _ = env
    ch = fake.channel("jeux").id
    forty = {"flags": V2, "components": [{"type": 17, "components": [text("x" * 100) for _ in range(39)]}]}
    assert (await c.req("POST", f"/channels/{ch}/messages", forty))[0] == 200
    chars = {"flags": V2, "components": [text("a" * 2000), {"type": 17, "components": [text("b" * 2000)]}]}
    assert (await c.req("POST", f"/channels/{ch}/messages", chars))[0] == 200
    ten = {"flags": V2, "components": [{"type": 12, "items": [{"media": media(f"https://x/{i}.png")}
                                                              for i in range(10)]}]}
    assert (await c.req("POST", f"/channels/{ch}/messages", ten))[0] == 200
    assert fake.validation_errors == []


async def test_the_flag_cannot_be_removed_and_legacy_fields_must_be_reset(env):
    fake, c, _ = env
    ch = fake.channel("jeux").id
    status, card, _ = await c.req("POST", f"/channels/{ch}/messages", {"flags": V2, "components": [text("a")]})
    assert status == 200
    path = f"/channels/{ch}/messages/{card['id']}"
    status, body, _ = await c.req("PATCH", path, {"flags": 0, "components": [text("b")]})
    assert status == 400 and "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG" in _codes(body["errors"], "flags")
    status, body, _ = await c.req("PATCH", path, {"content": "plain again"})
    assert status == 400 and _codes(body["errors"], "content") == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    status, body, _ = await c.req("PATCH", path, {"components": [row(button("b"))]})  # no flags: it stays v2
    assert status == 200 and body["flags"] & V2 and fake.message_by_id[int(card["id"])].button_labels == ["b"]
    status, body, _ = await c.req("PATCH", path, {"components": [row(button("b"))], "attachments": []})
    assert status == 200
    # a legacy message becomes a card only if the edit empties what it used
    status, old, _ = await c.req("POST", f"/channels/{ch}/messages", {"content": "old", "components": [row(button("x"))]})
    path = f"/channels/{ch}/messages/{old['id']}"
    status, body, _ = await c.req("PATCH", path, {"flags": V2, "components": [text("new")]})
    assert status == 400 and "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2" in _codes(body["errors"], "content")
    status, body, _ = await c.req("PATCH", path, {"flags": V2, "content": None, "components": [text("new")]})
    assert status == 200 and body["flags"] & V2 and body["content"] == ""
    msg = fake.message_by_id[int(old["id"])]
    assert msg.content == "new" and msg.revisions[0].content == "old" and msg.revisions[0].buttons[0]["custom_id"] == "x"
    assert len(fake.validation_errors) == 3


async def test_attachment_references_follow_the_attachments_of_the_edit(env):
    fake, c, _ = env
    ch = fake.channel("jeux").id
    card = {"flags": V2, "components": [{"type": 12, "items": [{"media": media("attachment://a.png")}]}]}
    status, body = await post_files(c, ch, card, {"a.png": png()})
    assert status == 200
    msg = fake.message_by_id[int(body["id"])]
    aid = msg.attachments[0].id
    path = f"/channels/{ch}/messages/{body['id']}"
    # keeping the attachment, a new card may still show it by name
    status, _, _ = await c.req("PATCH", path, {"attachments": [{"id": str(aid)}], **card})
    assert status == 200 and [a.id for a in msg.gallery] == [aid]
    # dropping it while a component still names it is refused
    status, err, _ = await c.req("PATCH", path, {"attachments": [], **card})
    assert status == 400 and "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND" in json.dumps(err)
    # a new upload replaces it
    status, body = await post_files(c, ch, {"attachments": [{"id": "0", "filename": "b.png"}], "flags": V2,
                                            "components": [{"type": 12, "items": [{"media": media("attachment://b.png")}]}]},
                                    {"b.png": png(5, 5)}, method="PATCH", path=path)
    assert status == 200 and [a.filename for a in msg.gallery] == ["b.png"] and msg.hidden_attachments == []


# ------------------------------------------------------------------------------------------- interactions


async def callback(c: Client, rec, payload: dict[str, Any]) -> tuple[int, Any]:
    status, body, _ = await c.req("POST", f"/interactions/{rec.id}/{rec.token}/callback", payload, auth=False)
    return status, body


def label(lbl: str, comp: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {"type": 18, "label": lbl, "component": comp, **kw}


def text_input(cid: str = "t", **kw: Any) -> dict[str, Any]:
    return {"type": 4, "custom_id": cid, "style": 1, **kw}


MODAL_REFUSED: list[tuple[dict[str, Any], str, str]] = [
    ({"custom_id": "m", "title": "T" * 46, "components": [label("Mot", text_input())]}, "data.title",
     "BASE_TYPE_BAD_LENGTH"),
    ({"custom_id": "m" * 101, "title": "T", "components": [label("Mot", text_input())]}, "data.custom_id",
     "BASE_TYPE_BAD_LENGTH"),
    ({"custom_id": "m", "title": "T", "components": [label(f"L{i}", text_input(f"t{i}")) for i in range(6)]},
     "data.components", "BASE_TYPE_BAD_LENGTH"),
    ({"custom_id": "m", "title": "T", "components": []}, "data.components", "BASE_TYPE_BAD_LENGTH"),
    ({"custom_id": "m", "title": "T", "components": [label("L" * 46, text_input())]}, "data.components.0.label",
     "BASE_TYPE_BAD_LENGTH"),
    ({"custom_id": "m", "title": "T", "components": [label("L", text_input(), description="d" * 101)]},
     "data.components.0.description", "BASE_TYPE_MAX_LENGTH"),
    ({"custom_id": "m", "title": "T", "components": [label("L", text_input(max_length=4001))]},
     "data.components.0.component.max_length", "NUMBER_TYPE_MAX"),
    ({"custom_id": "m", "title": "T", "components": [label("L", text_input(min_length=5, max_length=2))]},
     "data.components.0.component.min_length", "TEXT_INPUT_MIN_LENGTH_TOO_LARGE"),
    ({"custom_id": "m", "title": "T", "components": [label("L", text_input(placeholder="p" * 101))]},
     "data.components.0.component.placeholder", "BASE_TYPE_MAX_LENGTH"),
    ({"custom_id": "m", "title": "T", "components": [label("L", text_input(max_length=3, value="abcd"))]},
     "data.components.0.component.value", "BASE_TYPE_MAX_LENGTH"),
    ({"custom_id": "m", "title": "T", "components": [label("L", text_input(style=3))]},
     "data.components.0.component.style", "BASE_TYPE_CHOICES"),
    ({"custom_id": "m", "title": "T", "components": [label("L", {"type": 3, "custom_id": "s", "disabled": True,
                                                                  "options": [{"label": "a", "value": "a"}]})]},
     "data.components.0.component.disabled", "COMPONENT_DISABLED_IN_MODAL"),
    ({"custom_id": "m", "title": "T", "components": [label("L", {"type": 3, "custom_id": "s", "min_values": 0,
                                                                  "options": [{"label": "a", "value": "a"}]})]},
     "data.components.0.component.min_values", "NUMBER_TYPE_MIN"),
    ({"custom_id": "m", "title": "T", "components": [label("L", button("b"))]}, "data.components.0.component.type",
     "UNION_TYPE_CHOICES"),
    ({"custom_id": "m", "title": "T", "components": [{"type": 17, "components": [text("a")]}]},
     "data.components.0.type", "UNION_TYPE_CHOICES"),
    # "Sections are currently only available in messages"
    ({"custom_id": "m", "title": "T", "components": [{"type": 9, "components": [text("a")],
                                                      "accessory": button("b")}]},
     "data.components.0.type", "UNION_TYPE_CHOICES"),
    ({"custom_id": "m", "title": "T", "components": [label("L", {"type": 21, "custom_id": "r", "options": [
        {"label": "a", "value": "a"}]})]}, "data.components.0.component.options", "BASE_TYPE_BAD_LENGTH"),
    ({"custom_id": "m", "title": "T", "components": [row(text_input())]}, "data.components.0.components.0.label",
     "BASE_TYPE_BAD_LENGTH"),
    ({"custom_id": "m", "title": "T", "components": [label("A", text_input("same")), label("B", text_input("same"))]},
     "data.components.1.component.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED"),
]


async def test_modals_are_validated_like_discord(env):
    fake, c, alice = env
    for data, path, code in MODAL_REFUSED:
        rec = interaction(fake, alice, "jeux")
        status, body = await callback(c, rec, {"type": 9, "data": data})
        assert status == 400 and body["code"] == 50035, (data, body)
        assert code in _codes(body["errors"], path), (path, code, body)
        assert rec.modal is None and rec.callback_type is None  # refused: nothing opened
    assert len(fake.validation_errors) == len(MODAL_REFUSED)
    # a deferred response cannot carry IS_COMPONENTS_V2 (receiving-and-responding.mdx)
    rec = interaction(fake, alice, "jeux")
    status, body = await callback(c, rec, {"type": 5, "data": {"flags": V2}})
    assert status == 400 and _codes(body["errors"], "data.flags") == ["INTERACTION_DEFERRED_FLAGS_INVALID"]
    # ...it is set when the response is filled in
    status, _ = await callback(c, rec, {"type": 5, "data": {"flags": 64}})
    assert status == 204
    status, body, _ = await c.req("PATCH", f"/webhooks/{fake.app_id}/{rec.token}/messages/@original",
                                  {"flags": V2, "components": [text("fini")]}, auth=False)
    assert status == 200 and body["flags"] & V2 and body["flags"] & 64 and not body["flags"] & m.F_LOADING


async def test_a_test_user_fills_and_submits_a_modal(env, monkeypatch):
    fake, c, alice = env
    rec = interaction(fake, alice, "jeux")
    modal = {"custom_id": "ludime:word", "title": "Poser un mot", "components": [
        text("Votre main\u00a0: A B E T U"),
        label("Mot", text_input("word", min_length=2, max_length=8, placeholder="BATEAU")),
        label("Sens", {"type": 3, "custom_id": "dir", "options": [
            {"label": "Horizontal", "value": "h"}, {"label": "Vertical", "value": "v"}]}, description="…"),
        label("Note", text_input("note", style=2, required=False)),
    ]}
    status, _ = await callback(c, rec, {"type": 9, "data": modal})
    assert status == 204 and fake.validation_errors == []
    opened = InteractionResult(fake, rec, "command")
    ids = [x["id"] for x in m.walk_components(opened.modal["components"])]
    assert len(set(ids)) == len(ids) == 7  # numbered like a message's components
    sent: list[Any] = []

    async def capture(rec2, kind, *a):
        sent.append(rec2)
        return rec2

    monkeypatch.setattr(fake, "_fire", capture)
    # the client refuses what its form would not let through
    with pytest.raises(ValueError, match="required"):
        await fake.submit_modal(alice, opened, {"Sens": "Vertical"})
    with pytest.raises(ValueError, match="2..8"):
        await fake.submit_modal(alice, opened, {"Mot": "BATEAUXXX", "Sens": "v"})
    with pytest.raises(ValueError, match="not an option"):
        await fake.submit_modal(alice, opened, {"Mot": "BATEAU", "Sens": "diagonal"})
    with pytest.raises(ValueError, match="no input"):
        await fake.submit_modal(alice, opened, {"Mot": "BATEAU", "Sens": "v", "Couleur": "bleu"})
    await fake.submit_modal(alice, opened, {"word": "BATEAU", "Sens": "Vertical"})
    (sub,) = sent
    assert sub.type == m.IT_MODAL_SUBMIT and sub.payload["data"]["custom_id"] == "ludime:word"
    comps = sub.payload["data"]["components"]
    assert comps[0] == {"type": 10, "id": opened.modal["components"][0]["id"]}
    assert comps[1]["type"] == 18 and comps[1]["component"] == {
        "type": 4, "custom_id": "word", "value": "BATEAU", "id": opened.modal["components"][1]["component"]["id"]}
    assert comps[2]["component"]["values"] == ["v"] and comps[3]["component"]["value"] == ""


# ------------------------------------------------------------------------------------------- application emojis


def data_uri(data: bytes, ctype: str = "image/png") -> str:
    return f"data:{ctype};base64,{base64.b64encode(data).decode()}"


async def test_application_emojis_endpoints(env, tmp_path):
    fake, c, _ = env
    base = f"/applications/{fake.app_id}/emojis"
    status, body, _ = await c.req("GET", base)
    assert status == 200 and body == {"items": []}
    status, de, _ = await c.req("POST", base, {"name": "de_6", "image": data_uri(png(128, 128))})
    assert status == 201 and de["name"] == "de_6" and de["animated"] is False and de["user"]["bot"] is True
    status, body, _ = await c.req("GET", base)
    assert [e["id"] for e in body["items"]] == [de["id"]]
    assert (await c.req("GET", f"{base}/{de['id']}"))[1]["name"] == "de_6"
    refused = [
        ({"name": "de_6", "image": data_uri(png())}, "name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"),
        ({"name": "d", "image": data_uri(png())}, "name", "BASE_TYPE_BAD_LENGTH"),
        ({"name": "d" * 33, "image": data_uri(png())}, "name", "BASE_TYPE_BAD_LENGTH"),
        ({"name": "dé-6", "image": data_uri(png())}, "name", "STRING_TYPE_REGEX"),
        ({"name": "ok_name", "image": "not a data uri"}, "image", "IMAGE_INVALID"),
        ({"name": "ok_name", "image": data_uri(b"x", "text/plain")}, "image", "IMAGE_INVALID"),
    ]
    for payload, path, code in refused:
        status, body, _ = await c.req("POST", base, payload)
        assert status == 400 and body["code"] == 50035 and code in _codes(body["errors"], path), (payload, body)
    # 256 KiB at most: 400 with a message and no JSON code (emoji.mdx)
    status, body, _ = await c.req("POST", base, {"name": "big", "image": data_uri(b"\x89PNG" + b"0" * 256 * 1024)})
    assert status == 400 and body["code"] == 0 and "maximum size" in body["message"]
    assert len(fake.validation_errors) == len(refused) + 1
    # rename, duplicate rename refused
    status, other, _ = await c.req("POST", base, {"name": "lettre_a", "image": data_uri(png(), "image/png")})
    status, body, _ = await c.req("PATCH", f"{base}/{other['id']}", {"name": "de_6"})
    assert status == 400 and _codes(body["errors"], "name") == ["APPLICATION_EMOJI_NAME_ALREADY_TAKEN"]
    status, body, _ = await c.req("PATCH", f"{base}/{other['id']}", {"name": "lettre_b"})
    assert status == 200 and body["name"] == "lettre_b"
    # the image is served like the CDN's
    async with c.http.get(f"{fake.base_url}/emojis/{de['id']}.png") as r:
        assert r.status == 200 and await r.read() == png(128, 128)
    # used on a button, a select option and in text
    ch = fake.channel("jeux").id
    card = {"flags": V2, "components": [text(f"Vous avez fait <:de_6:{de['id']}>"),
                                        row(button("roll", "Lancer", emoji={"id": de["id"], "name": "de_6"})),
                                        row({"type": 3, "custom_id": "s", "options": [
                                            {"label": "B", "value": "b", "emoji": {"id": other["id"], "name": "x"}}]})]}
    status, body, _ = await c.req("POST", f"/channels/{ch}/messages", card)
    assert status == 200, body
    assert fake.broken_emojis == []
    # in text, an emoji that is not the application's is accepted but shows as ":name:" text: recorded
    status, body, _ = await c.req("POST", f"/channels/{ch}/messages", {"content": f"<:de_5:{de['id']}> <:x_y:99999999999999999>"})
    assert status == 200 and [b["emoji"] for b in fake.broken_emojis] == [f"<:de_5:{de['id']}>", "<:x_y:99999999999999999>"]
    # 2,000 per application
    for i in range(2000 - len(fake.app_emojis)):
        fake.app_emojis[i + 1] = m.FakeEmoji(id=i + 1, name=f"e{i:04d}", data=b"", content_type="image/png", user={})
    status, body, _ = await c.req("POST", base, {"name": "one_more", "image": data_uri(png())})
    assert status == 400 and body["code"] == 30008
    # delete; then it is unknown
    assert (await c.req("DELETE", f"{base}/{de['id']}"))[0] == 204
    status, body, _ = await c.req("GET", f"{base}/{de['id']}")
    assert status == 404 and body["code"] == 10014
    status, body, _ = await c.req("POST", f"/channels/{ch}/messages", card)
    assert status == 400 and "COMPONENT_INVALID_EMOJI" in _codes(body["errors"], "components.1.components.0.emoji.id")
    # they survive a restart of a fake with a state file
    fake.save_state(tmp_path / "state.json")
    again = FakeDiscord(state_path=tmp_path / "state.json")
    assert again.app_emojis[int(other["id"])].name == "lettre_b"
