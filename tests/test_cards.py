"""Cards (issue 24): a game's message as one Components V2 layout, built without a network."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.cards import MAX_TEXT, TABLE_ACCENT, Card, Seat, card_of, from_message, rgb, rows_of
from bot.safe import allowed_mentions
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
    text, first, second, *rows = container["components"]
    assert text == {"type": 10, "content": "Alice lance.\n<@12>, à vous."}
    # several pictures, one gallery each, one under the other: each across the card's whole width (a
    # gallery of two would show them side by side, half as wide)
    assert [(g["type"], [i["media"]["url"] for i in g["items"]]) for g in (first, second)] == [
        (12, ["attachment://a.png"]), (12, ["attachment://b.png"])]
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
        {"type": 10, "id": 1, "content": "Votre main\u00a0: A B"},
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


# ------------------------------------------------------------------------------------------- seats

def seats(n: int, *, ai: set[int] = frozenset(), to_play: int | None = 0, gid: int = 7) -> tuple[Seat, ...]:
    return tuple(Seat(name=f"P{i}", score=f"{i} points", clock="⏳ 1 h" if i == to_play else None,
                      to_play=i == to_play, ai="🤖 Facile" if i in ai else None,
                      button=f"ludibot:{gid}:profile:0:{i}", label="🤖 Facile" if i in ai else "Profil")
                 for i in range(n))


def test_one_section_per_seat_between_the_narration_and_the_gallery():
    card = Card(text="Alice lance.", pictures=("t.png",), seats=seats(3, ai={2}),
                groups=((button(7, "roll", "Lancer", version=3),),))
    (container,) = card.layout().to_components()
    kinds = [c["type"] for c in container["components"]]
    assert kinds == [10, 9, 9, 9, 12, 1]  # narration, three seats, the board, the move
    first, second, bot = container["components"][1:4]
    assert first["components"] == [{"type": 10, "content": "▶ **P0** · 0 points · ⏳ 1 h"}]  # to play: marked, bold
    assert second["components"][0]["content"] == "P1 · 1 points"  # not to play: plain, no clock
    assert first["accessory"] == {"type": 2, "style": 2, "label": "Profil", "custom_id": "ludibot:7:profile:0:0",
                                  "disabled": False}
    # an AI: its level, and the button opens the level's measured strength (issue 37)
    assert bot["accessory"]["disabled"] is False and bot["accessory"]["label"] == "🤖 Facile"
    assert card.seats_form() == "sections"
    assert card.count() == 1 + 1 + 3 * 3 + 1 + 2 == len(list(_all(container)))  # each seat: section, text, button


def _all(component):
    yield component
    for child in component.get("components", []):
        yield from _all(child)
    if isinstance(component.get("accessory"), dict):
        yield from _all(component["accessory"])


def test_seats_fall_back_to_one_compact_text_when_sections_would_pass_40():
    rows = tuple(button(1, "b", str(i), arg=str(i)) for i in range(20))  # 4 rows of 5: 24 components
    card = Card(text="t", pictures=("p.png",), seats=seats(7, ai={3}), groups=(rows,))
    assert 2 + 1 + 24 + 7 * 3 > 40 and card.seats_form() == "compact"
    (container,) = card.layout().to_components()
    assert [c["type"] for c in container["components"]][:3] == [10, 10, 12]
    listed = container["components"][1]["content"].split("\n")
    assert listed[0] == "▶ **P0** · 0 points · ⏳ 1 h" and listed[3] == "P3 · 3 points · 🤖 Facile"  # no button there
    assert card.count() == 2 + 1 + 24 + 1 <= 40 and card.fits()
    full = Card(text="t", seats=seats(2), groups=(tuple(button(1, "b", str(i), arg=str(i)) for i in range(31)),))
    assert full.count() == 2 + 7 + 31 and full.seats_form() is None  # no room even for that: controls first
    assert [c["type"] for c in full.layout().to_components()[0]["components"]][:2] == [10, 1]
    no_button = Card(text="t", seats=(Seat(name="A"),))
    assert no_button.seats_form() == "compact"  # a section needs its accessory


def test_a_seven_player_lutinades_card_keeps_its_gestures_and_validates():
    """The largest card: seven lutins, the gesture rows, « Voir la carte », a vote; its seats go compact."""
    from fakediscord.validation import Errors, validate_components

    gestures = [button(9, "gesture", f"g{i}", version=4, arg=f"4.g{i}") for i in range(9)]
    for i, b in enumerate(gestures):
        b.row = 0 if i < 5 else 1
    card_button = button(9, "card", "Voir la carte")
    votes = tuple(button(9, "vote", f"v{i}", version=4, arg=f"0-{i}") for i in range(3))
    card = Card(text="Tour 3", pictures=("lutinades-9.png",), seats=seats(7, gid=9),
                groups=(tuple(gestures), (card_button,), votes))
    payload = card.layout().to_components()
    errors = Errors()
    validate_components(payload, 1 << 15, errors, attachment_names={"lutinades-9.png"})
    assert not errors, errors.errors
    assert card.count() == len(list(_all(payload[0]))) <= 40
    assert card.seats_form() in ("sections", "compact")
    assert "P6" in "".join(c.get("content", "") for c in _all(payload[0]))  # every lutin listed


def test_a_seat_name_is_shown_as_given_already_escaped():
    from bot.safe import escape

    name = escape("**@everyone** <@12> _x_")
    (container,) = Card(text="t", seats=(Seat(name=name, to_play=True, button="ludibot:1:profile:0:0",
                                                label="Profil"),)).layout().to_components()
    text = container["components"][1]["components"][0]["content"]
    assert text == f"▶ **{name}**" and "<@12>" not in text and "@everyone" not in text
    assert text.count("**") == 2 and "\\*\\*" in text  # the name's own markdown escaped: only the marker bolds
    pings = allowed_mentions(text)
    assert pings.users == [] and not pings.everyone


def test_the_narration_is_cut_so_that_seats_keep_their_text_within_4000():
    card = Card(text="x" * MAX_TEXT, seats=seats(3))
    texts = [c["content"] for c in _all(card.layout().to_components()[0]) if c["type"] == 10]
    assert sum(len(t) for t in texts) <= MAX_TEXT and texts[0].endswith("…") and texts[1].startswith("▶ **P0**")


def test_from_message_keeps_the_seats_with_their_buttons():
    card = Card(text="Tour 3", accent=0x112233, pictures=("t.png",), seats=seats(3, ai={1}),
                groups=((button(3, "roll", "Lancer", version=2),),))
    data = card.layout().to_components()
    comps = [discord.components._component_factory(c, None) for c in data]
    message = SimpleNamespace(flags=discord.MessageFlags(components_v2=True), components=comps,
                              attachments=[SimpleNamespace(filename="t.png")])
    shown = from_message(message)
    assert shown.text == "Tour 3" and shown.groups == () and len(shown.seats) == 3
    # taking the controls off: the same card, seats and « Profil » included, without the move
    again = shown.layout().to_components()
    assert again[0]["components"][:4] == data[0]["components"][:4]
    assert [c["type"] for c in again[0]["components"]] == [10, 9, 9, 9, 12]
    assert again[0]["components"][2]["accessory"] == data[0]["components"][2]["accessory"]  # the AI's too
    compact = Card(text="t", seats=(Seat(name="A"), Seat(name="B")))  # read back as text (a text display)
    comps = [discord.components._component_factory(c, None) for c in compact.layout().to_components()]
    back = from_message(SimpleNamespace(flags=discord.MessageFlags(components_v2=True), components=comps,
                                        attachments=[]))
    assert back.text == "t\nA\nB" and back.seats == ()


async def test_every_view_the_bot_sends_is_inert_so_discord_py_keeps_no_copy_of_it():
    """discord.py keeps every live view it is given with timeout=None (one per message posted, for ever:
    ``store_view`` when ``not view.is_finished() and view.is_dispatchable()``) and answers each click on
    it with a task of its own. The bot routes clicks by custom id (Ludibot.on_interaction), so every view
    it builds is sent finished: the memory stays flat however many cards are posted."""
    from bot import rules
    from bot.ui import view_of

    card = Card(text="Alice", groups=((button(7, "roll", "Lancer"),),))
    views = [card.layout(), card.without_controls().layout(), view_of(button(7, "roll", "Lancer")),
             rules.controls("ludix", 0, "fr", {})]
    for view in views:
        assert view.is_finished()
    assert views[0].is_dispatchable()  # (what made discord.py keep it before)


def _cards_of_every_shape() -> list[Card]:
    """Cards of every shape the bot sends: bare, seats as sections or compact, pictures, no accent,
    named rows, selects, emojis, an AI's accessory, a narration cut to fit."""
    def gestures(gid: int) -> tuple:
        items = [button(gid, "gesture", f"g{i}", version=4, arg=f"4.g{i}", emoji="✋") for i in range(9)]
        for i, b in enumerate(items):
            b.row = 0 if i < 5 else 1
        return tuple(items)

    pick = select(5, "pick", "Choisir", [("a", "A", "🅰️"), ("b", "B")], version=2)
    return [
        Card(text=""),
        Card(text="Alice lance.", accent=rgb((200, 10, 10)), pictures=("t.png",), seats=seats(3, ai={2}),
             groups=((button(7, "roll", "Lancer", version=3, emoji="🎲"),
                      button(7, "stop", "Stop", version=3, style=discord.ButtonStyle.success)),
                     (button(7, "mine", "Ma main"),))),
        Card(text="t", pictures=("p.png", "q.gif"), seats=seats(7, ai={3}),
             groups=(tuple(button(1, "b", str(i), arg=str(i)) for i in range(20)),)),
        Card(text="Tour 3", accent=TABLE_ACCENT, pictures=("l.png",), seats=seats(7, gid=9),
             groups=(gestures(9), (button(9, "card", "Voir la carte"),),
                     tuple(button(9, "vote", f"v{i}", version=4, arg=f"0-{i}") for i in range(3)))),
        Card(text="x" * (MAX_TEXT + 50), seats=seats(2), groups=((pick,),)),
        Card(text="<@1> à toi", seats=(Seat(name="A"),)),
    ]


def test_a_text_file_is_a_file_component_of_its_own_under_the_gallery():
    """Issue 36: a journal's text file beside an animation: the animation in the gallery, the file in a
    File component (never a name run into another); the JSON is the layout's and Discord's rules pass."""
    from fakediscord.validation import Errors, validate_components

    share = discord.ui.Button(label="Partager", custom_id="ludibot-replay:1:2:0:share")
    card = Card(text="Journal", accent=TABLE_ACCENT, pictures=("ludibot-ludix-2.webp",),
                files=("ludibot-ludix-2.txt",), groups=((share,),))
    payload = card.layout().to_components()
    assert card.components() == payload
    kinds = [c["type"] for c in payload[0]["components"]]
    assert kinds == [10, 12, 13, 1] and card.count() == len(list(_all(payload[0]))) == 6
    assert payload[0]["components"][2]["file"] == {"url": "attachment://ludibot-ludix-2.txt"}
    errors = Errors()
    validate_components(payload, 1 << 15, errors, attachment_names={"ludibot-ludix-2.webp", "ludibot-ludix-2.txt"})
    assert not errors, errors.errors


def test_components_are_exactly_what_the_layout_sends():
    """The hot path sends :meth:`Card.components` (no view objects): the same JSON as the
    ``LayoutView`` the other paths send, for every shape of card, with or without its controls."""
    for card in _cards_of_every_shape():
        for shown in (card, card.without_controls()):
            built = shown.components()  # before layout(), which places named rows into action rows
            assert built == shown.layout().to_components(), shown
    assert _cards_of_every_shape()[3].components()[0]["components"][-4]["components"][0]["emoji"] == {
        "id": None, "name": "✋"}  # the gesture rows kept their lines (5 + 4)


def test_a_card_read_from_its_json_is_the_card_discord_py_objects_give():
    """A click keeps its card as JSON (bot.payload.lighten): read back from it, every shape of card is
    what :func:`from_message` reads from discord.py's objects (sections with their buttons, AI seats,
    compact seats, galleries, no accent); a legacy message is still None."""
    from bot.cards import from_components

    shapes = [
        Card(text="Tour 3\n<@5>", accent=0x112233, pictures=("t.png",), groups=((button(3, "roll", "Lancer"),),)),
        Card(text="Tour 3", accent=0x112233, pictures=("t.png", "u.png"), seats=seats(3, ai={1}),
             groups=((button(3, "roll", "Lancer", version=2),), (button(3, "hand", "Ma main"),))),
        Card(text="t", seats=(Seat(name="A"), Seat(name="B"))),  # compact: one text display
        Card(text="sans couleur", accent=None, groups=((select(3, "pick", "Choisir", [("a", "A"), ("b", "B")]),),)),
        Card(text="fin", accent=TABLE_ACCENT, pictures=("r.gif",), seats=seats(2, to_play=None)),
    ]
    for card in shapes:
        data = card.components()
        files = list(card.pictures)
        objects = SimpleNamespace(flags=discord.MessageFlags(components_v2=True), attachments=[
            SimpleNamespace(filename=f) for f in files],
            components=[discord.components._component_factory(c, None) for c in data])
        assert from_components(data, 1 << 15, files) == from_message(objects), card
        assert from_components(data, 1 << 15, files).groups == ()
    assert from_components([{"type": 1, "components": [{"type": 2, "custom_id": "x"}]}], 0, []) is None
    # what a crafted client may send instead of components is skipped, not fatal
    assert from_components(["row", {"type": 17, "components": [5, {"type": 10, "content": "a"}]}], 1 << 15,
                           []) == Card(text="a", accent=None)
    assert from_components([{"type": 17, "accent_color": "x", "components": [{"type": 10, "content": "a"}]}],
                           1 << 15, []) == Card(text="a", accent=None)
    # a section whose texts or accessory are not objects, texts and ids that are not strings
    crafted = [{"type": 17, "components": [
        {"type": 9, "components": "ab", "accessory": ["x"]},
        {"type": 9, "components": [{"type": 10, "content": 7}, {"type": 10, "content": "Bruno"}],
         "accessory": {"type": 2, "custom_id": ["x"], "label": 3, "disabled": "yes"}},
        {"type": 10, "content": None}, {"type": 10, "content": "b"},
        {"type": 1, "components": {"type": 2, "custom_id": "y"}}]}]
    assert from_components(crafted, 1 << 15, []) == Card(text="\nb", seats=(Seat(name="", line=""),
                                                                             Seat(name="", line="\nBruno")))


def test_the_controls_of_a_clicked_card_are_read_from_its_json():
    """The forged-click refusals' map (custom id -> type): every control, in rows, in containers and
    beside a seat; ids that are not strings are no controls."""
    from bot.cards import walk_json
    from bot.client import _clicked_types

    card = Card(text="Tour 3", seats=seats(3, ai={1}), groups=((button(3, "roll", "Lancer"),),
                                                               (select(3, "pick", "Choisir", [("a", "A")]),)))
    data = card.components()
    message = SimpleNamespace(components=[discord.components._component_factory(c, None) for c in data])
    from_json = _clicked_types(SimpleNamespace(message=message, data={"ludibot.clicked": data}))
    assert from_json == _clicked_types(SimpleNamespace(message=message, data={}))  # discord.py's objects
    assert sorted(from_json.values()) == [2, 2, 2, 2, 3]  # three seats' buttons, « Lancer », the select
    assert _clicked_types(SimpleNamespace(message=message, data={"ludibot.clicked": [
        {"type": 1, "components": [{"type": 2, "custom_id": ["x"]}, "row", {"type": 2, "custom_id": "z"}]},
        {"type": 9, "accessory": "no"}]})) == {"z": 2}
    assert [c.get("type") for c in walk_json(data, whole_sections=True)].count(9) == 3
