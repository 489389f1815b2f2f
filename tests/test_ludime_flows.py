"""Ludime's hints and flows of issue 18, without Discord: every hint is computed from what the
engine accepts at that moment, and variant 2's additions within a turn are told privately."""

from __future__ import annotations

from dataclasses import replace

from bot.sessions import Outcome
from bot.storage import GameRow
from cogs.ludime import views
from cogs.ludime.cog import LudimeCog
from engines.base import RuleError
from engines.ludime import ENGINE, SINGLE


def _game(variant: str = "main") -> GameRow:
    return GameRow(id=7, guild_id=1, channel_id=2, kind="ludime", options={"variant": variant}, status="running",
                   state={}, version=3, seed=1, creator_id=1, created_at=0.0, updated_at=0.0)


def _main(**changes):
    state = ENGINE.new_game(3, {"variant": "main"}, 1)
    changes["hands"] = tuple(tuple(sorted(h)) for h in changes.get("hands", ["ALLUMASHUAREMIT"] * 3))
    return replace(state, dealer=0, current=0, discard=("G",), pile=tuple("XXXXXXXXXXOTBJEZQK"), **changes)


def hint_of(state, seat: int = 0) -> str | None:
    return views.hint(ENGINE.view(state, seat), "fr", "fr", ENGINE.legal_actions(state, seat))


def accepted(state, seat: int, action: dict) -> bool:
    try:
        ENGINE.apply(state, seat, action)
    except RuleError:
        return False
    return True


def test_the_draw_hint_offers_the_discard_only_when_it_may_be_taken():
    first = _main()
    assert "Prendre la défausse" not in hint_of(first)  # first turn: the pile only
    assert not accepted(first, 0, {"type": "draw", "source": "discard"})
    later = _main(turns=(1, 1, 1))
    assert "« Prendre la défausse »" in hint_of(later)
    assert accepted(later, 0, {"type": "draw", "source": "discard"})
    # the discard taken, then put back: this turn the pile only (and the hint says so)
    taken, _ = ENGINE.apply(later, 0, {"type": "draw", "source": "discard"})
    back, _ = ENGINE.apply(taken, 0, {"type": "undo_take"})
    assert back.phase == "draw" and not accepted(back, 0, {"type": "draw", "source": "discard"})
    text = hint_of(back)
    assert "« Piocher »" in text and "défausse" not in text


def test_the_play_hint_offers_lengthening_and_taking_only_when_allowed():
    # second turn of a seat that exchanged on its first: no word of its own, so no lengthening, no taking
    words = ((1, "HUA", 1),)
    s = _main(turns=(1, 1, 1), words=words, next_id=2, first_word_turn=(-1, 0, -1), phase="play")
    assert not accepted(s, 0, {"type": "extend", "target": 1, "word": "HUAIT"})
    text = hint_of(s)
    assert "/ludime poser" in text and "/ludime allonger" not in text and "prenez" not in text
    # it lays its first word this turn: it may lengthen it, not take others' words yet
    s, _ = ENGINE.apply(s, 0, {"type": "play", "words": ["ALLUMAS"]})
    assert not accepted(s, 0, {"type": "extend", "target": 1, "word": "HUAIT"})
    text = hint_of(s)
    assert "allongez les vôtres" in text and "prenez" not in text
    # the next turn it may take: the full hint
    s = replace(s, turns=(2, 2, 2), phase="play", laid=False)
    assert accepted(s, 0, {"type": "extend", "target": 1, "word": "HUAIT"})
    assert "prenez-en" in hint_of(s)


def test_the_hints_are_in_english_too():
    s = _main(turns=(1, 1, 1), phase="play", first_word_turn=(-1, -1, -1))
    text = views.hint(ENGINE.view(s, 0), "en", "en", ENGINE.legal_actions(s, 0))
    assert text.startswith("Lay words") and "/ludime lengthen" not in text
    assert "(`/ludime lay`)" in text  # the command as English clients see it, until its id is known (commands catalog)


def test_an_addition_within_a_turn_is_told_privately_and_posts_nothing():
    state = ENGINE.new_game(3, {"variant": SINGLE}, 1)
    state = replace(state, current=1, phase="add", words=((1, "VUS", 0),), last_modifier=0,
                    hands=(tuple("KKK"), tuple(sorted("EIKKKKKKKKKK")), tuple("AKK")))
    game = _game(SINGLE)
    after, events = ENGINE.apply(state, 1, {"type": "add", "word": "VUES"})
    assert after.current == 1
    within = Outcome(game=game, events=events, result=None, newly_expected={1})
    assert LudimeCog.within_turn(within)
    # the hand message tells the addition (it has no public message of its own)
    names = ["Alice", "Bruno", "Chloé"]
    text, items = views.hand_message(_named(game, names), ENGINE.view(after, 1), "fr", events, "fr",
                                     legal=ENGINE.legal_actions(after, 1), told=True)
    assert "Bruno ajoute E\u00a0: **VUES**" in text and "Votre main\u00a0:" in text
    # « Finir mon tour » right there, for this version (the public message's button is edited later)
    (end,) = [i for i in items if getattr(i, "label", None) == "Finir mon tour"]
    assert end.custom_id == f"ludibot:{game.id}:pass:{game.version}"
    # ending the turn (a pass, or the last card) is published as usual
    done, events = ENGINE.apply(after, 1, {"type": "pass"})
    assert not LudimeCog.within_turn(Outcome(game=game, events=events, result=None, newly_expected={2}))
    # the main game never holds its messages back
    assert not LudimeCog.within_turn(Outcome(game=_game("main"), events=[{"type": "added"}], result=None))


def _named(game: GameRow, names: list[str]) -> GameRow:
    from bot.storage import Seat

    return replace(game, seats=[Seat(seat=i, user_id=100 + i, name=n) for i, n in enumerate(names)])


# --- Lutinades ------------------------------------------------------------------------------
def test_lutinades_an_automatic_follow_says_it_is_automatic():
    from cogs.lutinades.cog import tell

    names = ["Alice", "Bruno", "Chloé"]
    auto = tell([{"type": "followed", "picker": 0, "lutin": 2, "auto": True}], {}, names, "fr")
    assert auto == ["🤖 Suivi automatique\u00a0: Alice suit Chloé, le seul lutin qui peut être suivi "
                    "(les autres ont fait le geste interdit)."]
    chosen = tell([{"type": "followed", "picker": 0, "lutin": 2, "auto": False}], {}, names, "fr")
    assert chosen == ["Alice suit Chloé."]
    english = tell([{"type": "followed", "picker": 0, "lutin": 2, "auto": True}], {}, names, "en")
    assert english[0].startswith("🤖 Automatic follow: Alice follows Chloé")


def test_the_hand_is_shown_once_beside_its_picture(monkeypatch):
    """The hand message has the hand's picture: its text says the letters once (no card glyphs in
    front of them); the word form, which has no picture, keeps the glyphs."""
    import discord

    from bot import emojis

    known = {("ludime", c): discord.PartialEmoji(name=f"lm_{c}", id=1000 + ord(c)) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
    monkeypatch.setattr(emojis.REGISTRY, "known", known)
    state = ENGINE.new_game(3, {"variant": "main"}, 1)
    view = ENGINE.view(state, 1)
    letters = " ".join(view["hand"])
    text, _ = views.hand_message(_game("main"), view, "fr", [], "fr")
    (line,) = [x for x in text.split("\n") if x.startswith("Votre main\u00a0:")]
    assert line.startswith(f"Votre main\u00a0: {letters} (") and "<:" not in line, line
    assert views.hand_text(view, "fr").startswith("Votre main\u00a0: <:lm_")  # no picture there: the glyphs
