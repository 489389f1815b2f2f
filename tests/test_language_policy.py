"""The language policy (the server's language for everything public, cached per guild) and the
narration fixes of issue 18 that live in the cogs: hints naming the visible buttons, variant 2's pass
button, Lutinades results told once."""

from __future__ import annotations

from bot import i18n
from bot.community.settings import set_language
from bot.language import language_of, languages, server_lang
from bot.storage import GameRow
from cogs.ludime import views as ludime_views
from cogs.lutinades.cog import tell
from engines.base import RuleError
from engines.ludime import SINGLE


class CountingStore:
    def __init__(self, settings: dict[int, dict]) -> None:
        self.settings = settings
        self.reads = 0

    async def guild_settings(self, guild_id: int) -> dict:
        self.reads += 1
        return dict(self.settings.get(guild_id, {}))


async def test_server_language_defaults_to_french_and_is_read_once_per_guild():
    store = CountingStore({1: {"language": "en"}, 2: {}, 3: {"language": "klingon"}})
    assert [await server_lang(store, g) for g in (1, 1, 2, 3, 1, 2)] == ["en", "en", "fr", "fr", "en", "fr"]
    assert store.reads == 3
    assert await server_lang(store, None) == "fr" and await server_lang(None, 1) == "fr"
    # a change through /ludibot config is remembered without reading the settings again
    languages(store).remember(2, "en")
    assert await server_lang(store, 2) == "en" and store.reads == 3
    languages(store).forget(1)
    assert await server_lang(store, 1) == "en" and store.reads == 4
    # another store (another bot) has its own cache
    other = CountingStore({1: {}})
    assert await server_lang(other, 1) == "fr"


def test_the_language_is_stored_in_the_guild_settings():
    new = set_language({"timers": {"*": {"reminder_h": 3}}}, "en")
    assert new == {"timers": {"*": {"reminder_h": 3}}, "language": "en"} and language_of(new) == "en"
    assert language_of({}) == "fr"
    try:
        set_language({}, "de")
    except RuleError as err:
        assert err.key == "community.error.unknown_language" and i18n.has(err.key, "en")
    else:
        raise AssertionError("an unknown language was accepted")


def _game() -> GameRow:
    return GameRow(id=7, guild_id=1, channel_id=2, kind="ludime", options={}, status="running", state={},
                   version=3, seed=1, creator_id=1, created_at=0.0, updated_at=0.0)


def test_a_hint_names_the_buttons_in_the_language_they_are_shown_in():
    view = {"seat": 0, "current": 0, "variant": "principale", "phase": "draw"}
    english_on_french_table = ludime_views.hint(view, "en", "fr")
    assert "“Piocher”" in english_on_french_table and "“Prendre la défausse”" in english_on_french_table
    assert english_on_french_table.startswith("Your turn")
    assert "“Draw”" in ludime_views.hint(view, "en", "en")
    assert "« Draw »" in ludime_views.hint(view, "fr", "en")


def test_variant_two_pass_button_says_what_it_does():
    def labels(view):
        return [b.label for b in ludime_views.turn_buttons(_game(), view, [{"type": "pass"}], "fr")]

    base = {"variant": SINGLE, "seat": 0, "current": 0}
    assert labels({**base, "phase": "open"})[0] == "Passer"
    assert labels({**base, "phase": "add", "letters_added": 0})[0] == "Passer (abandonner la manche)"
    assert labels({**base, "phase": "add", "letters_added": 2})[0] == "Finir mon tour"


def test_lutinades_tells_each_result_once():
    names = ["Alice", "Bruno", "Chloé"]
    card = {"kind": "haut", "side": None, "malins": False}
    events = [{"type": "revealed", "picker": 0, "lutin": 1, "outcome": "match", "card": card, "big": 3, "small": 1},
              {"type": "gained", "seat": 0, "count": 3, "wanted": 3, "total": 5},
              {"type": "gained", "seat": 1, "count": 1, "wanted": 1, "total": 2}]
    lines = tell(events, {}, names, "fr")
    assert sum("cueille 3 champignons" in line for line in lines) == 1, lines
    assert not any("(total" in line for line in lines), lines
    assert "🍄 Champignons en tout\u00a0: Alice 5 · Bruno 2" in lines
    # when the deck ran short, what was really picked is still said
    short = [events[0], {"type": "gained", "seat": 0, "count": 2, "wanted": 3, "total": 4}, events[2]]
    lines = tell(short, {}, names, "fr")
    assert lines[-2:] == ["La pioche s'épuise\u00a0: Alice ne cueille que 2 champignons sur 3.",
                          "🍄 Champignons en tout\u00a0: Alice 4 · Bruno 2"], lines  # the shortfall, then the totals
    # with the table's view, every seat's total is told, Chloé's 0 too, as it stood after that card
    view = {"mushrooms": [7, 2, 0]}  # the state after a later card gave Alice 2 more
    later = [{"type": "revealed", "picker": 0, "lutin": 1, "outcome": "match", "card": card, "big": 2, "small": 0},
             {"type": "gained", "seat": 0, "count": 2, "wanted": 2, "total": 7}]
    lines = tell(events + later, view, names, "fr")
    assert [x for x in lines if x.startswith("🍄")] == ["🍄 Champignons en tout\u00a0: Alice 5 · Bruno 2 · Chloé 0",
                                                       "🍄 Champignons en tout\u00a0: Alice 7 · Bruno 2 · Chloé 0"]
    assert "🍄 Mushrooms in all: Alice 5 · Bruno 2 · Chloé 0" in tell(events, {"mushrooms": [5, 2, 0]}, names, "en")


def test_ludime_hints_offer_only_what_the_first_turn_allows():
    first = {"seat": 0, "current": 0, "variant": "principale", "first_turn": True}
    draw = ludime_views.hint({**first, "phase": "draw"}, "fr")
    assert "Piocher" in draw and "défausse" not in draw
    assert "Prendre la défausse" in ludime_views.hint({**first, "phase": "draw", "first_turn": False}, "fr")
    for done in ({"laid": True}, {"exchanged": True}):
        text = ludime_views.hint({**first, "phase": "play", **done}, "fr")
        assert "défaussez-vous" in text and "allongez" not in text and "/ludime poser" not in text
