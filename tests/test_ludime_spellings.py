"""Issue 25: a Ludime word laid as typed is shown as typed (« TUÉE ») while the rules see its card
letters (T U E E): in the narration, the table picture, the history, the export and the replay, in
French and in English. A letter French does not write is refused with a precise message; a game
saved before spellings existed loads and replays unchanged."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from bot import emojis, i18n, takeback
from bot.community import replay as R
from bot.community.history import export, replay_lines
from bot.narrate import narrate
from bot.sessions import SessionService
from bot.storage import EventRow, GameRow, Seat, open_store
from cogs.ludime import views
from engines.base import RuleError
from engines.ludime import ENGINE, SINGLE, WHOLE
from engines.ludime.engine import RARITY
from render.common import recording_text
from render.ludime import render_table
from tests.test_scheduler import CHANNEL, GUILD, PLAYERS

FIXTURE = Path(__file__).parent / "fixtures" / "ludime_before_spellings.json"
NAMES = ["Alice", "Bruno"]


def _main(hand: str, **changes):
    """A main game at seat 0's second turn, in its play phase, holding ``hand``."""
    state = ENGINE.new_game(2, {"variant": "main"}, 1)
    return replace(state, dealer=0, current=0, phase="play", turns=(1, 1), first_word_turn=(-1, -1),
                   hands=(tuple(sorted(hand)), tuple("ABCDEFG")), discard=("G",), pile=tuple("XXXXXXXXXX"),
                   **changes)


def _refusal(state, action, seat: int = 0) -> RuleError:
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, seat, action)
    return err.value


def _cards_drawn(view: dict, lang: str = "fr") -> list[str]:
    """The texts drawn on the table picture (letters on the words' cards among them)."""
    with recording_text() as runs:
        render_table(view, NAMES, views.labels(lang))
    return [run.text for run in runs]


# --- the engine ---------------------------------------------------------------------------------
def test_tuee_uses_the_cards_t_u_e_e_and_is_shown_tuee_everywhere():
    state = _main("TUEEOEUVRENAIVSZ")
    after, events = ENGINE.apply(state, 0, {"type": "play", "words": ["tuée"], "as_typed": True})
    # the rules: the four cards T U E E leave the hand, the word is worth their values
    assert Counter(state.hands[0]) - Counter(after.hands[0]) == Counter("TUEE")
    assert after.words == ((1, "TUEE", 0),) and after.spellings == ((1, "TUÉE"),)
    assert events == [{"type": "played", "seat": 0, "word": "TUEE", "value": 9, "id": 1, "word_shown": "TUÉE"}]
    view = ENGINE.view(after, None)
    assert view["words"] == [{"id": 1, "word": "TUEE", "shown": "TUÉE", "owner": 0, "value": 9}]
    # the narration, in both languages
    assert "pose **TUÉE** (9 pts)" in narrate("ludime", events, NAMES, "fr")[0]
    assert "lays **TUÉE** (9 pts)" in narrate("ludime", events, NAMES, "en")[0]
    # the picture: the third card shows É (one card: the cards are T U E E)
    for lang in ("fr", "en"):
        drawn = _cards_drawn(view, lang)
        start = drawn.index("T")
        assert drawn[start:start + 4] == ["T", "U", "É", "E"], drawn
    assert "• TUÉE — Alice, 9 pts" in views.table_text(_game(), view, "fr")


def test_lengthening_and_taking_tell_both_spellings_and_a_plain_retyping_shows_the_cards():
    state = _main("TUEESRAIT")
    s, _ = ENGINE.apply(state, 0, {"type": "play", "words": ["tuée"], "as_typed": True})
    s, events = ENGINE.apply(s, 0, {"type": "extend", "target": "TUÉE", "word": "tuées", "as_typed": True})
    assert s.words == ((1, "TUEES", 0),) and s.spellings == ((1, "TUÉES"),)
    assert events[0]["old_shown"] == "TUÉE" and events[0]["word_shown"] == "TUÉES"
    assert "allonge TUÉE en **TUÉES**" in narrate("ludime", events, NAMES, "fr")[0]
    assert "lengthens TUÉE into **TUÉES**" in narrate("ludime", events, NAMES, "en")[0]
    # Bruno takes it typing no accent: the word is then shown as its cards, as typed
    taker = replace(s, current=1, hands=(s.hands[0], tuple("RAIT")), first_word_turn=(1, 0), turns=(2, 2))
    taker = replace(taker, words=taker.words + ((2, "AIR", 1),))
    t, events = ENGINE.apply(taker, 1, {"type": "extend", "target": 1, "word": "TUERIES", "as_typed": True})
    assert t.spellings == () and ENGINE.view(t, None)["words"][0]["shown"] == "TUERIES"
    assert "word_shown" not in events[0] and events[0]["old_shown"] == "TUÉES"
    assert "prend TUÉES à Alice et en fait **TUERIES**" in narrate("ludime", events, NAMES, "fr")[0]


def test_a_ligature_is_two_cards_drawn_as_one_face():
    state = _main("OEUVRESTZ")
    after, events = ENGINE.apply(state, 0, {"type": "play", "words": ["Œuvre"], "as_typed": True})
    assert Counter(state.hands[0]) - Counter(after.hands[0]) == Counter("OEUVRE")
    assert events[0]["word"] == "OEUVRE" and events[0]["word_shown"] == "ŒUVRE" and events[0]["value"] == 14
    drawn = _cards_drawn(ENGINE.view(after, None))
    start = drawn.index("Œ")
    assert drawn[start:start + 5] == ["Œ", "U", "V", "R", "E"]


def test_letters_french_does_not_write_are_refused_precisely_and_change_nothing():
    state = _main("TUNEEXZ")
    err = _refusal(state, {"type": "play", "words": ["tuñe"], "as_typed": True})
    assert err.key == "ludime.error.foreign_letter" and err.params == {"letter": "Ñ", "word": "TUNE"}
    assert i18n.t(err.key, "fr", **err.params).startswith("Ñ n'est pas une lettre du français\u00a0: tapez TUNE")
    assert i18n.t(err.key, "en", **err.params).startswith("Ñ is not a French letter: type TUNE")
    zalgo = _refusal(state, {"type": "play", "words": ["tue\u0337e"], "as_typed": True})
    assert zalgo.key == "ludime.error.foreign_letter" and zalgo.params["letter"] == "\u25cc\u0337"
    # a French accent typed as a combining mark (e + ◌́) is the same É
    decomposed, _ = ENGINE.apply(_main("TUEEXZ"), 0, {"type": "play", "words": ["tue\u0301e"], "as_typed": True})
    assert decomposed.spellings == ((1, "TUÉE"),)
    # without « as_typed » (the AI, a log of before) the card letters are all there is: as before
    plain, events = ENGINE.apply(state, 0, {"type": "play", "words": ["tuñe"]})
    assert plain.words == ((1, "TUNE", 0),) and plain.spellings == () and "word_shown" not in events[0]
    # the other refusals name the word as typed
    short = _main("TUEXZ")
    err = _refusal(short, {"type": "play", "words": ["tuée"], "as_typed": True})
    assert err.key == "ludime.error.missing_letter" and err.params == {"letter": "E", "word": "TUÉE"}
    err = _refusal(short, {"type": "play", "words": ["té"], "as_typed": True})
    assert err.key == "ludime.error.too_short" and err.params["word"] == "TÉ"


def test_the_accents_are_shown_not_checked_the_cards_are():
    """[decision] the lexicon is accent-free (docs/rules/ludime.md): accents are the player's
    spelling, shown as typed; only the card letters are checked (TUÈE is TUEE's cards)."""
    state = _main("TUEEXZ")
    after, events = ENGINE.apply(state, 0, {"type": "play", "words": ["TUÈE"], "as_typed": True})
    assert after.words == ((1, "TUEE", 0),) and events[0]["word_shown"] == "TUÈE"
    err = _refusal(state, {"type": "play", "words": ["tuéx"], "as_typed": True})
    assert err.key == "ludime.error.not_a_word" and err.params == {"word": "TUÉX"}


def test_variants_two_and_three_show_the_spelling_in_the_score_and_the_picture():
    s = ENGINE.new_game(2, {"variant": SINGLE}, 3)
    s = replace(s, current=0, phase="open", hands=(tuple("ETEXZ"), tuple("ABC")))
    s, events = ENGINE.apply(s, 0, {"type": "play", "words": ["été"], "as_typed": True})
    assert events[0]["word_shown"] == "ÉTÉ" and ENGINE.view(s, None)["words"][0]["shown"] == "ÉTÉ"
    s = replace(s, current=0, hands=(tuple("SXZ"), tuple("ABC")))
    s, events = ENGINE.apply(s, 0, {"type": "add", "word": "étés", "as_typed": True})
    assert events[0]["old_shown"] == "ÉTÉ" and events[0]["word_shown"] == "ÉTÉS"
    assert "ajoute S\u00a0: **ÉTÉS**" in narrate("ludime", events, NAMES, "fr")[0]
    # told privately (the addition within a turn): the hand message says the spelling too
    own = ENGINE.view(s, 0)
    text, _ = views.hand_message(_game(), own, "en", events, "en", told=True)
    assert "adds S: **ÉTÉS**" in text
    w = ENGINE.new_game(2, {"variant": WHOLE}, 5)
    w = replace(w, current=0, phase="play", hand_size=4, hands=(tuple("EETU"), tuple("ABCD")))
    w, events = ENGINE.apply(w, 0, {"type": "declare", "word": "tuée", "as_typed": True})
    scored = next(e for e in events if e["type"] == "scored")
    assert scored["word_shown"] == "TUÉE" and w.last_round["shown"] == "TUÉE" and w.best_text[0] == "TUÉE"
    assert "marque **TUÉE**" in "\n".join(narrate("ludime", events, NAMES, "fr"))
    drawn = _cards_drawn(ENGINE.view(w, None))
    assert any("Manche précédente\u00a0: TUÉE +9" in t for t in drawn)
    assert any("Previous round: TUÉE +9" in t for t in _cards_drawn(ENGINE.view(w, None), "en"))


def test_a_state_without_spellings_stores_as_before_and_one_with_them_round_trips():
    state = _main("TUEEXZ")
    assert "spellings" not in ENGINE.to_dict(state)
    after, _ = ENGINE.apply(state, 0, {"type": "play", "words": ["tuée"], "as_typed": True})
    stored = json.loads(json.dumps(ENGINE.to_dict(after)))
    assert stored["spellings"] == [[1, "TUÉE"]] and ENGINE.from_dict(stored) == after


def test_exchanged_letters_are_told_as_letters_with_their_cards():
    event = {"type": "exchanged_cards", "seat": 0, "returned": ["H", "Z"], "received": ["E", "N"], "private_to": 0}
    assert narrate("ludime", [event], NAMES, "fr", viewer=0) == ["Vous rendez les lettres H, Z et recevez E, N."]
    assert narrate("ludime", [event], NAMES, "en", viewer=0) == ["You give back the letters H, Z and receive E, N."]



def test_with_the_letter_emojis_the_letters_are_shown_as_cards_and_a_word_is_not(monkeypatch):
    reg = emojis.Registry()
    for n, letter in enumerate("EHNZ"):
        reg.add("ludime", letter, {"id": str(10**17 + n), "name": f"lm_{letter}_abcdef"})
    monkeypatch.setattr(emojis, "REGISTRY", reg)
    card = {c: str(reg.emoji("ludime", c)) for c in "EHNZ"}
    event = {"type": "exchanged_cards", "seat": 0, "returned": ["H", "Z"], "received": ["E", "N"], "private_to": 0}
    assert narrate("ludime", [event], NAMES, "fr", viewer=0) == [
        f"Vous rendez les lettres {card['H']}{card['Z']} H, Z et recevez {card['E']}{card['N']} E, N."]
    discarded = {"type": "discarded", "seat": 1, "letter": "E"}
    assert narrate("ludime", [discarded], NAMES, "en") == [f"Bruno discards the letter **{card['E']} E**."]
    played = {"type": "played", "seat": 0, "word": "TUEE", "word_shown": "TUÉE", "value": 9, "id": 1}
    assert "<:" not in narrate("ludime", [played], NAMES, "fr")[0]  # a word stays a word


# --- through the session service: history, export, replay ----------------------------------------
def _game() -> GameRow:
    return GameRow(id=7, guild_id=1, channel_id=2, kind="ludime", options={"variant": "main"}, status="running",
                   state={}, version=3, seed=1, creator_id=1, created_at=0.0, updated_at=0.0,
                   seats=[Seat(0, 1, "Alice"), Seat(1, 2, "Bruno")])


async def _seed_11_game(db_url):
    """Seed 11, as the fixture's game: a first turn each, then the dealer holds T U E E and S."""
    store = open_store(db_url)
    await store.open()
    svc = SessionService(store, seed_source=lambda: 11)
    g = await svc.open_lobby("ludime", guild_id=GUILD, channel_id=CHANNEL, player=PLAYERS[0],
                             options={"variant": "main"})
    g = await svc.join(g.id, PLAYERS[1])
    g = (await svc.start(g.id, PLAYERS[0])).game

    def user(game):
        return game.seats[ENGINE.from_dict(game.state).current].user_id

    for _ in range(2):
        g = (await svc.act(g.id, user(g), {"type": "draw", "source": "pile"})).game
        s = ENGINE.from_dict(g.state)
        letter = next(c for c in RARITY if c in s.hands[s.current] and c not in "TUE")
        g = (await svc.act(g.id, user(g), {"type": "discard", "letter": letter})).game
    g = (await svc.act(g.id, user(g), {"type": "draw", "source": "pile"})).game
    return store, svc, g, user(g)


async def test_through_the_service_the_history_export_and_replay_say_tuee(db_url):
    store, svc, game, alice = await _seed_11_game(db_url)
    try:
        before = ENGINE.from_dict(game.state)
        # the refusal first: precise, and the game unchanged
        with pytest.raises(RuleError) as err:
            await svc.act(game.id, alice, {"type": "play", "words": ["tuñe"], "as_typed": True})
        assert err.value.key == "ludime.error.foreign_letter"
        assert (await svc.get(game.id)).version == game.version
        # the words as the cog sends them (/ludime poser, the « Poser un mot » form, /ludime allonger)
        laid = await svc.act(game.id, alice, {"type": "play", "words": ["tuée"], "as_typed": True})
        after = ENGINE.from_dict(laid.game.state)
        assert Counter(before.hands[0]) - Counter(after.hands[0]) == Counter("TUEE")
        assert "pose **TUÉE**" in narrate("ludime", laid.events, laid.game.names, "fr")[0]
        grown = await svc.act(game.id, alice, {"type": "extend", "target": "#1", "word": "tuées", "as_typed": True})
        game = grown.game
        rows = await store.events(game.id)
        for lang, said in (("fr", "allonge TUÉE en **TUÉES**"), ("en", "lengthens TUÉE into **TUÉES**")):
            text = "\n".join(replay_lines(game, rows, lang))
            assert "**TUÉE**" in text and said in text and "TUEE" not in text
        log = export(game, rows, [])["log"]
        assert [e.get("word_shown") for e in log[-1]["events"]] == ["TUÉES"]
        # the state is still the replay of seed + log (takebacks and the replay viewer rest on it)
        takeback.replay_matches(ENGINE, game, rows)
        positions = R.replay(game, rows).positions
        assert [w["shown"] for w in positions[-1].view["words"]] == ["TUÉES"]
        assert [w["shown"] for w in positions[-2].view["words"]] == ["TUÉE"]
    finally:
        await store.close()


# --- a game saved before spellings existed ------------------------------------------------------------
def _old_game() -> tuple[GameRow, list[EventRow]]:
    doc = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data = dict(doc["game"])
    data["seats"] = [Seat(**s) for s in data["seats"]]
    return GameRow(**data), [EventRow(**r) for r in doc["rows"]]


def test_an_old_saved_game_loads_and_replays_unchanged_and_plays_on():
    game, rows = _old_game()
    assert "spellings" not in game.state and rows[-2].action == {"type": "play", "words": ["tuée"]}
    state = ENGINE.from_dict(game.state)
    assert state.spellings == () and ENGINE.to_dict(state) == game.state  # stores back byte for byte
    assert [(w["word"], w["shown"]) for w in ENGINE.view(state, None)["words"]] == [("TUEES", "TUEES")]
    # the replay of seed + log is the stored state: takebacks and the replay viewer work as before
    states = takeback.replay_matches(ENGINE, game, rows)
    assert takeback.as_stored(ENGINE, states[max(states)]) == game.state
    assert len(R.replay(game, rows).positions) == len(rows) + 1
    # its history is told as it was: the card letters
    text = "\n".join(replay_lines(game, rows, "fr"))
    assert "pose **TUEE**" in text and "allonge TUEE en **TUEES**" in text
    # and it plays on with the new code: a word typed now is shown as typed
    state = ENGINE.from_dict(game.state)
    seat = state.current
    assert Counter("REVA") <= Counter(state.hands[seat])
    after, events = ENGINE.apply(state, seat, {"type": "play", "words": ["rêva"], "as_typed": True})
    assert events[0]["word_shown"] == "RÊVA"
    assert [w["shown"] for w in ENGINE.view(after, None)["words"]] == ["TUEES", "RÊVA"]
