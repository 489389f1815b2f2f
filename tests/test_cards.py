"""Cards (issue 24): a game's message as one Components V2 layout, built without a network."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.cards import MAX_TEXT, TABLE_ACCENT, Card, card_of, from_message, rgb, rows_of
from bot.ui import button, select


def ids(row) -> list[str]:
    return [item.custom_id for item in row]


def test_a_card_is_one_container_with_text_gallery_and_rows_by_purpose():
    move = (button(7, "roll", "Lancer", version=3), button(7, "stop", "Stop", version=3))
    mine = (button(7, "mine", "Ma main"),)
    votes = (button(7, "vote", "Attendre Alice", version=4, arg="0.wait"),)
    card = Card(text="Alice lance.\n<@12>, à vous.", accent=0xAA3344, pictures=("a.png", "b.png"),
                groups=(move, mine, votes))
    payload = card.layout().to_components()
    (container,) = payload
    assert container["type"] == 17 and container["accent_color"] == 0xAA3344
    text, gallery, *rows = container["components"]
    assert text == {"type": 10, "content": "Alice lance.\n<@12>, à vous."}
    assert gallery["type"] == 12 and [i["media"]["url"] for i in gallery["items"]] == [
        "attachment://a.png", "attachment://b.png"]  # several pictures, one gallery
    # one row per purpose: the move, my view, the vote — never mixed
    assert [[c["custom_id"].split(":")[2] for c in r["components"]] for r in rows] == [
        ["roll", "stop"], ["mine"], ["vote"]]
    assert card.layout().has_components_v2()


def test_rows_keep_named_lines_fill_by_five_and_give_a_select_a_row():
    gestures = [button(1, "gesture", f"g{i}", arg=f"1.g{i}") for i in range(7)]
    for i, b in enumerate(gestures):
        b.row = 0 if i < 4 else 1
    assert [len(r) for r in rows_of(gestures)] == [4, 3]
    plain = [button(1, "b", f"b{i}", arg=str(i)) for i in range(7)]
    assert [len(r) for r in rows_of(plain)] == [5, 2]
    mixed = [button(1, "a", "a"), select(1, "s", "p", [("x", "X")]), button(1, "c", "c")]
    assert [[i.custom_id.split(":")[2] for i in r] for r in rows_of(mixed)] == [["a"], ["s"], ["c"]]


def test_limits_text_cut_gallery_at_ten_component_count():
    card = Card(text="x" * (MAX_TEXT + 50), pictures=tuple(f"{i}.png" for i in range(12)))
    assert len(card.text) == MAX_TEXT and card.text.endswith("…")
    assert len(card.pictures) == 10
    full = Card(text="t", groups=(tuple(button(1, "b", str(i), arg=str(i)) for i in range(30)),))
    assert full.count() == 2 + 6 + 30 and full.fits()  # container, text, 6 rows, 30 buttons
    over = Card(text="t", groups=(tuple(button(1, "b", str(i), arg=str(i)) for i in range(35)),))
    assert over.count() == 2 + 7 + 35 and not over.fits()
    assert Card(text="", groups=()).layout().to_components()[0]["components"][0]["content"]  # never empty


def test_card_of_and_without_controls():
    card = card_of("hello", pictures=["p.png"], controls=[button(2, "mine", "Voir")])
    assert card.controls and card.without_controls().groups == () and card.without_controls().pictures == ("p.png",)
    assert card_of(None).text == ""
    assert rgb((0x12, 0x34, 0x56)) == 0x123456 and TABLE_ACCENT > 0


def test_from_message_rebuilds_a_card_and_leaves_legacy_messages_alone():
    card = Card(text="Tour 3\n<@5>", accent=0x112233, pictures=("t.png",),
                groups=((button(3, "roll", "Lancer", version=2),),))
    data = card.layout().to_components()
    data[0]["components"][1]["items"][0]["media"] = {"url": "https://cdn.example/attachments/1/2/t.png"}
    comps = [discord.components._component_factory(c, None) for c in data]
    message = SimpleNamespace(flags=discord.MessageFlags(components_v2=True), components=comps,
                              attachments=[SimpleNamespace(filename="t.png")])
    shown = from_message(message)
    assert shown == Card(text="Tour 3\n<@5>", accent=0x112233, pictures=("t.png",))  # controls off
    legacy = SimpleNamespace(flags=discord.MessageFlags(), components=[], attachments=[])
    assert from_message(legacy) is None


def test_a_forms_answers_are_read_from_labels_and_legacy_rows():
    from bot.ui import modal_fields

    data = {"custom_id": "ludibot:4:word:9", "components": [
        {"type": 10, "id": 1, "content": "Votre main : A B"},
        {"type": 18, "id": 2, "component": {"type": 4, "custom_id": "mot", "value": "BAR"}},
        {"type": 18, "id": 3, "component": {"type": 3, "custom_id": "moves0", "values": ["b2-b4"]}},
        {"type": 18, "id": 4, "component": {"type": 3, "custom_id": "moves1", "values": []}},
        {"type": 1, "components": [{"type": 4, "custom_id": "old", "value": None}]},
    ]}
    assert modal_fields(data) == {"mot": "BAR", "moves0": ["b2-b4"], "moves1": [], "old": ""}
    assert modal_fields({}) == {}


def test_votes_never_share_a_row_with_the_gestures():
    """The issue's case: after a timeout, « Attendre Alice » sat in the gesture row (11 buttons)."""
    gestures = [button(3, "gesture", f"g{i}", arg=f"2.g{i}") for i in range(5)]
    for b in gestures:
        b.row = 0
    card_button = button(3, "card", "Voir la carte")
    card_button.row = 1
    votes = [button(3, "vote", f"v{i}", version=5, arg=f"0-{i}") for i in range(3)]
    card = Card(text="t", groups=(tuple(gestures), (card_button,), tuple(votes)))
    rows = [[c["custom_id"].split(":")[2] for c in r["components"]]
            for r in card.layout().to_components()[0]["components"][1:]]
    assert rows == [["gesture"] * 5, ["card"], ["vote"] * 3]
