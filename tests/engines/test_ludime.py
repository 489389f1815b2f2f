"""Ludime engine: the rulebook's worked examples, every refusal, variants, hidden hands, persistence."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from bot import i18n
from engines.base import RuleError
from engines.ludime import ENGINE, EVENT_TYPES, is_word, round_breakdown, round_score, word_value
from engines.ludime.engine import MAX_ROUNDS, MAX_TURNS, TARGET

ENGINE_SRC = Path(__file__).resolve().parents[2] / "engines" / "ludime" / "engine.py"


# --- helpers ---------------------------------------------------------------------------
def game(players=3, variant="main", seed=1, **changes):
    state = ENGINE.new_game(players, {"variant": variant}, seed)
    if "hands" in changes:
        changes["hands"] = tuple(tuple(sorted(h)) for h in changes["hands"])
    for key in ("pile", "discard"):
        if isinstance(changes.get(key), str):
            changes[key] = tuple(changes[key])
    return replace(state, **changes)


def act(state, seat, **action):
    return ENGINE.apply(state, seat, action)


def refused(state, seat, key, **action):
    """Apply, expect RuleError ``key``; the state must be untouched. Returns the error params."""
    before = json.dumps(ENGINE.to_dict(state), sort_keys=True)
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, seat, action)
    assert err.value.key == key, (err.value.key, err.value.params)
    assert json.dumps(ENGINE.to_dict(state), sort_keys=True) == before
    return err.value.params


def card_total(state) -> int:
    return (sum(len(h) for h in state.hands) + len(state.pile) + len(state.discard)
            + sum(len(w) for _, w, _ in state.words))


# --- the seed's worked example: round 1 of a 3-player game ---------------------------------
def seed_round():
    """Hands and draws chosen so that the rulebook's example plays out move by move."""
    return game(
        3, dealer=0, current=0,
        hands=["DRAMESPASSIIEWY", "DEFRICHEESNTSNE", "ALLUMASHUAREMOU"],
        pile="XXXXXXXXXXX" + "OTBJEZQK",  # top = last: K, Q, Z, E, J, B, T, O
        discard="G",
    )


def test_scoring_worked_example_plain_data():
    assert round_score(["DRAMES", "ALLUMAIS", "HUAIT"], ["E"]) == 46
    assert round_score(["DÉFRICHÉES", "SON"], []) == 34
    assert round_score(["PASSERENT", "MOUE"], []) == 33
    b = round_breakdown(["DRAMES", "ALLUMAIS", "HUAIT"], ["E"])
    assert b == {"words": [["DRAMES", 16], ["ALLUMAIS", 20], ["HUAIT", 12]], "penalty": 2, "total": 46}


def test_seed_example_round_plays_to_46_34_33():
    s = seed_round()
    # --- first turn: one word of at least 6 letters each
    s, ev = act(s, 0, type="draw", source="pile")
    assert s.drawn == "K"
    s, ev = act(s, 0, type="play", words=["DRAMES"])
    s, ev = act(s, 0, type="discard", letter="K")
    s, _ = act(s, 1, type="draw", source="pile")
    s, _ = act(s, 1, type="play", words=["DÉFRICHÉES"])
    s, _ = act(s, 1, type="discard", letter="Q")
    s, _ = act(s, 2, type="draw", source="pile")
    s, _ = act(s, 2, type="play", words=["allumas"])
    s, _ = act(s, 2, type="discard", letter="Z")
    assert s.turns == (1, 1, 1)
    ids = {w: i for i, w, _ in s.words}
    # --- second turn. Player 1: PASSE with the drawn E, takes ALLUMAS -> ALLUMAIS
    s, _ = act(s, 0, type="draw", source="pile")
    s, _ = act(s, 0, type="play", words=["PASSE"])
    ids["PASSE"] = max(i for i, _, _ in s.words)
    s, ev = act(s, 0, type="extend", target=ids["ALLUMAS"], word="ALLUMAIS")
    assert ev[0]["type"] == "took" and ev[0]["from_seat"] == 2
    s, _ = act(s, 0, type="discard", letter="W")
    assert sorted(s.hands[0]) == ["E", "I", "Y"]
    # Player 2 takes PASSE -> PASSENT
    s, _ = act(s, 1, type="draw", source="pile")
    s, ev = act(s, 1, type="extend", target="PASSE", word="PASSENT")
    assert ev[0]["type"] == "took" and ev[0]["from_seat"] == 0 and ev[0]["added"] == "NT"
    s, _ = act(s, 1, type="discard", letter="J")
    # Player 3 owns nothing any more: must lay a new word (HUA) before taking PASSENT
    s, _ = act(s, 2, type="draw", source="pile")
    params = refused(s, 2, "ludime.error.take_needs_word", type="extend", target=ids["PASSE"], word="PASSERENT")
    assert params == {"word": "PASSENT"}
    s, _ = act(s, 2, type="play", words=["HUA"])
    s, _ = act(s, 2, type="extend", target=ids["PASSE"], word="PASSERENT")
    s, _ = act(s, 2, type="discard", letter="B")
    # --- third turn. Player 1 takes HUA -> HUAIT
    s, _ = act(s, 0, type="draw", source="pile")
    s, ev = act(s, 0, type="extend", target="HUA", word="HUAIT")
    assert ev[0]["type"] == "took" and ev[0]["from_seat"] == 2
    s, _ = act(s, 0, type="discard", letter="Y")
    # Player 2: SON, discards the E and has no card left
    s, _ = act(s, 1, type="draw", source="pile")
    s, _ = act(s, 1, type="play", words=["SON"])
    s, ev = act(s, 1, type="discard", letter="E")
    assert {"type": "went_out", "seat": 1, "last_lap": True} in ev
    assert s.current == 2 and s.round_no == 1  # equal turns: player 3 plays once more
    # Player 3 takes the E from the discard: it must go into a word
    s, _ = act(s, 2, type="draw", source="discard")
    assert s.discard_taken == "E"
    refused(s, 2, "ludime.error.discard_not_used", type="discard", letter="M")
    s, ev = act(s, 2, type="play", words=["MOUE"])  # last cards: the turn (and the round) ends
    end = next(e for e in ev if e["type"] == "round_end")
    assert end["points"] == [46, 34, 33]
    assert end["penalties"] == [2, 0, 0]
    assert s.scores == (46, 34, 33)
    assert s.round_no == 2 and s.dealer == 1 and s.current == 1  # the deal passes
    assert s.last_round["words"][0] == [["DRAMES", 16], ["ALLUMAIS", 20], ["HUAIT", 12]]
    assert s.best == (20, 26, 24)


# --- refusals (each one leaves the state untouched) ----------------------------------------
def first_turn_state():
    s = seed_round()
    s, _ = act(s, 0, type="draw", source="pile")
    return s


def test_not_your_turn_and_unknown_action():
    s = seed_round()
    refused(s, 1, "common.error.not_your_turn", type="draw", source="pile")
    refused(s, 0, "common.error.unknown_action", type="fly")
    refused(s, 0, "common.error.unknown_action", type="add", word="DRAMES")  # variant-2 move
    with pytest.raises(RuleError) as err:
        ENGINE.apply(s, 0, "draw")
    assert err.value.key == "common.error.unknown_action"


def test_turn_order_refusals():
    s = seed_round()
    refused(s, 0, "ludime.error.draw_first", type="play", words=["DRAMES"])
    refused(s, 0, "ludime.error.draw_first", type="discard", letter="D")
    refused(s, 0, "ludime.error.draw_first", type="exchange", letters=["W"])
    refused(s, 0, "ludime.error.discard_first_turn", type="draw", source="discard")
    assert refused(s, 0, "ludime.error.bad_source", type="draw", source="deck") == {"source": "deck"}
    s, _ = act(s, 0, type="draw")
    refused(s, 0, "ludime.error.already_drew", type="draw", source="pile")


def test_first_turn_refusals():
    s = first_turn_state()
    assert refused(s, 0, "ludime.error.first_word_short", type="play", words=["DRAME"]) == \
        {"word": "DRAME", "min": 6}
    refused(s, 0, "ludime.error.first_word_single", type="play", words=["DRAMES", "PASSE"])
    refused(s, 0, "ludime.error.first_word_single", type="play", words=["DRAMES PASSE"])
    assert refused(s, 0, "ludime.error.not_a_word", type="play", words=["SPIRAS"]) == {"word": "SPIRAS"}
    assert refused(s, 0, "ludime.error.missing_letter", type="play", words=["TRAMES"]) == \
        {"letter": "T", "word": "TRAMES"}
    # two S needed, three held; four S is one too many
    assert refused(s, 0, "ludime.error.missing_letter", type="play", words=["SASSES"])["letter"] == "S"
    refused(s, 0, "ludime.error.not_letters", type="play", words=["PORTE-CLES"])
    refused(s, 0, "ludime.error.no_word", type="play", words=[])
    refused(s, 0, "ludime.error.no_word", type="play", words=["  "])
    refused(s, 0, "ludime.error.no_word", type="play")
    refused(s, 0, "ludime.error.first_turn_extend", type="extend", target=1, word="DRAMES")
    s2, _ = act(s, 0, type="play", words=["DRAMES"])
    refused(s2, 0, "ludime.error.first_word_single", type="play", words=["PASSE"])
    refused(s2, 0, "ludime.error.exchange_after_word", type="exchange", letters=["W"])


def test_exchange_on_first_turn():
    s = first_turn_state()
    assert refused(s, 0, "ludime.error.not_in_hand", type="exchange", letters=["Z"]) == {"letter": "Z"}
    refused(s, 0, "ludime.error.exchange_empty", type="exchange", letters=[])
    refused(s, 0, "ludime.error.bad_letter", type="exchange", letters=["7"])
    s2, ev = act(s, 0, type="exchange", letters=["W", "Y", "K"])
    assert ev[0] == {"type": "exchanged", "seat": 0, "count": 3}
    assert ev[1]["private_to"] == 0 and ev[1]["returned"] == ["K", "W", "Y"] and len(ev[1]["received"]) == 3
    assert len(s2.hands[0]) == 16 and card_total(s2) == card_total(s)
    refused(s2, 0, "ludime.error.already_exchanged", type="exchange", letters=["D"])
    refused(s2, 0, "ludime.error.exchanged_this_turn", type="play", words=["DRAMES"])
    s3, _ = act(s2, 0, type="discard", letter=s2.hands[0][0])
    # not on a later turn
    for seat in (1, 2):
        s3, _ = act(s3, seat, type="skip")
    s3, _ = act(s3, 0, type="draw")
    refused(s3, 0, "ludime.error.exchange_first_turn_only", type="exchange", letters=[s3.hands[0][0]])


def test_exchanger_lays_next_turn_and_takes_the_turn_after():
    s = game(2, dealer=0, current=0, hands=["DRAMESXXXXXXXXX", "DEFRICHEESAIRRR"], pile="LLLLLLLTPEUA",
             discard="G")
    s, _ = act(s, 0, type="draw")  # A
    s, _ = act(s, 0, type="exchange", letters=["X"])
    s, _ = act(s, 0, type="discard", letter="X")
    s, _ = act(s, 1, type="draw")
    s, _ = act(s, 1, type="play", words=["DEFRICHEES"])
    s, _ = act(s, 1, type="discard", letter="R")
    # second turn of seat 0: a normal turn (3+ letters), but no taking yet
    s, _ = act(s, 0, type="draw")
    s, _ = act(s, 0, type="play", words=["DRAMES"])
    wid = next(i for i, w, _ in s.words if w == "DEFRICHEES")
    assert refused(s, 0, "ludime.error.take_too_early", type="extend", target=wid, word="DEFRICHEESX") == \
        {"word": "DEFRICHEES"}
    assert ENGINE.view(s, 0)["can_take"] is False


def later_turn_state():
    """Seat 0 to play its second turn (drawn already); seat 1 owns DEFRICHEES, seat 0 owns DRAMES."""
    s = seed_round()
    s, _ = act(s, 0, type="draw")
    s, _ = act(s, 0, type="play", words=["DRAMES"])
    s, _ = act(s, 0, type="discard", letter="K")
    s, _ = act(s, 1, type="draw")
    s, _ = act(s, 1, type="play", words=["DEFRICHEES"])
    s, _ = act(s, 1, type="discard", letter="Q")
    s, _ = act(s, 2, type="draw")
    s, _ = act(s, 2, type="play", words=["ALLUMAS"])
    s, _ = act(s, 2, type="discard", letter="Z")
    return s


def test_later_turn_refusals():
    s = later_turn_state()
    refused(s, 0, "ludime.error.draw_first", type="extend", target=1, word="DRAMESE")
    s, _ = act(s, 0, type="draw")  # E; hand: A E E I I P S S W Y
    assert refused(s, 0, "ludime.error.too_short", type="play", words=["SI"]) == {"word": "SI", "min": 3}
    assert refused(s, 0, "ludime.error.no_such_word", type="extend", target=99, word="XYZ") == {"target": "99"}
    refused(s, 0, "ludime.error.no_such_word", type="extend", target="CHAT", word="CHATS")
    allumas = next(i for i, w, _ in s.words if w == "ALLUMAS")
    assert refused(s, 0, "ludime.error.must_keep_letters", type="extend", target=allumas, word="ALLUMES") == \
        {"word": "ALLUMES", "old": "ALLUMAS", "letter": "A"}
    assert refused(s, 0, "ludime.error.must_add_letter", type="extend", target=allumas, word="ALLUMAS") == \
        {"word": "ALLUMAS", "old": "ALLUMAS"}
    assert refused(s, 0, "ludime.error.missing_letter", type="extend", target=allumas, word="ALLUMAST")["letter"] \
        == "T"
    refused(s, 0, "ludime.error.not_a_word", type="extend", target=allumas, word="ALLUMASY")
    refused(s, 0, "ludime.error.no_word", type="extend", target=allumas)
    # all-or-nothing: the second word fails, so nothing of the first is applied
    assert refused(s, 0, "ludime.error.not_a_word", type="play", words=["PASSE", "YIWI"]) == {"word": "YIWI"}
    refused(s, 0, "ludime.error.missing_letter", type="play", words=["PASSE", "SPA"])
    refused(s, 0, "ludime.error.not_in_hand", type="discard", letter="Z")
    refused(s, 0, "ludime.error.bad_letter", type="discard", letter="")
    refused(s, 0, "ludime.error.nothing_to_return", type="undo_take")


def test_several_words_at_once():
    s = later_turn_state()
    s, _ = act(s, 0, type="draw")
    s = replace(s, hands=(tuple(sorted("PASSEAIUSE")),) + s.hands[1:])
    s2, ev = act(s, 0, type="play", words="PASSE, SUA")
    assert [e["type"] for e in ev] == ["played", "played"]
    assert [e["word"] for e in ev] == ["PASSE", "SUA"]
    assert [e["value"] for e in ev] == [13, 7]
    assert Counter(s2.hands[0]) == Counter("IE")
    assert [(w, o) for _, w, o in s2.words][-2:] == [("PASSE", 0), ("SUA", 0)]
    s3, ev = act(s, 0, type="play", words=["PASSE", "SUA"])
    assert s3 == s2


def test_lengthen_own_word():
    s = later_turn_state()
    s, _ = act(s, 0, type="draw")
    drames = next(i for i, w, _ in s.words if w == "DRAMES")
    s2, ev = act(s, 0, type="extend", target=drames, word="admirés")
    assert ev == [{"type": "lengthened", "seat": 0, "word": "ADMIRES", "old": "DRAMES", "added": "I",
                   "value": 18, "id": drames}]
    assert (drames, "ADMIRES", 0) in s2.words
    assert Counter(s2.hands[0]) == Counter(s.hands[0]) - Counter("I")
    # by text as well; a word lengthened twice keeps its id
    s3, ev = act(s2, 0, type="extend", target="ADMIRES", word="ADMIREES")
    assert ev[0]["id"] == drames and ev[0]["word"] == "ADMIREES"


def test_discard_rule_and_undo():
    s = later_turn_state()  # discard top is the Z seat 2 threw
    s, ev = act(s, 0, type="draw", source="discard")
    assert ev == [{"type": "took_discard", "seat": 0, "letter": "Z"}]
    view = ENGINE.view(s, 1)
    assert view["discard_taken"] == "Z" and view["must_use"] is True
    assert refused(s, 0, "ludime.error.discard_not_used", type="discard", letter="W") == {"letter": "Z"}
    assert ENGINE.legal_actions(s, 0) == [{"type": "undo_take"}]
    s2, ev = act(s, 0, type="undo_take")
    assert ev == [{"type": "returned", "seat": 0, "letter": "Z"}]
    assert s2.phase == "draw" and s2.discard[-1] == "Z"
    refused(s2, 0, "ludime.error.discard_returned", type="draw", source="discard")
    assert ENGINE.legal_actions(s2, 0) == [{"type": "draw", "source": "pile"}]


def test_discard_taken_used_in_a_word():
    s = later_turn_state()
    s = replace(s, discard=s.discard[:-1] + ("T",))
    s, _ = act(s, 0, type="draw", source="discard")  # T; hand A E I I P S S W Y T
    s, ev = act(s, 0, type="play", words=["SITE"])
    assert s.discard_used
    s, ev = act(s, 0, type="discard", letter="W")
    assert ev[0] == {"type": "discarded", "seat": 0, "letter": "W"}


def test_discard_not_on_empty_pile():
    s = later_turn_state()
    s = replace(s, discard=())
    refused(s, 0, "ludime.error.discard_empty", type="draw", source="discard")


def test_reshuffle_and_empty_pile():
    s = later_turn_state()
    s = replace(s, pile=(), discard=tuple("ABCDZ"))
    s2, ev = act(s, 0, type="draw")
    assert ev[0] == {"type": "reshuffled", "count": 4}
    assert s2.discard == ("Z",) and len(s2.pile) == 3 and card_total(s2) == card_total(s)
    s = replace(s, pile=(), discard=("Z",))
    s3, ev = act(s, 0, type="draw")
    assert ev == [{"type": "pile_empty"}] and s3.phase == "play" and s3.hands == s.hands


def test_round_end_equal_turns_and_dealer_rotation():
    s = game(2, dealer=1, current=1, hands=["XXXXXXXXXXXXXXX", "ASSEZOPITHUMBLE"], pile="KKKKKKKKKKKK",
             discard="G")
    s, _ = act(s, 1, type="draw")
    s, _ = act(s, 1, type="discard", letter="K")
    s, _ = act(s, 0, type="skip")
    s = replace(s, hands=(s.hands[0], tuple("ASSEZ")))
    s, _ = act(s, 1, type="draw")
    s, ev = act(s, 1, type="play", words=["ASSEZ"])
    assert [e["type"] for e in ev] == ["played"]  # the K is still in hand
    s, ev = act(s, 1, type="discard", letter="K")
    assert {"type": "went_out", "seat": 1, "last_lap": True} in ev
    assert s.current == 0 and s.round_no == 1
    s, ev = act(s, 0, type="skip")
    end = next(e for e in ev if e["type"] == "round_end")
    assert end["points"] == [-45, 13]
    assert s.round_no == 2 and s.dealer == 0 and s.current == 0
    assert [e["type"] for e in ev][-2:] == ["dealt", "turn"]


def test_three_rounds_then_game_over_with_tie_break():
    s = game(2)
    s = replace(s, round_no=3, scores=(10, 10), best=(12, 20), best_text=("HUAIT", "ALLUMAIS"))
    s = replace(s, hands=(tuple("E"), ()), out_seat=1, turns=(5, 6), current=0, phase="draw", dealer=1,
                words=(), pile=tuple("KKK"))
    s, ev = act(s, 0, type="draw")
    s, ev = act(s, 0, type="discard", letter="K")
    assert ENGINE.is_over(s)
    res = ENGINE.result(s)
    assert res.scores == [8, 10] and res.ranks == [2, 1]
    # a tie on points is broken by the most valuable word
    t = replace(s, scores=(10, 10))
    assert ENGINE.result(t).ranks == [2, 1]
    t = replace(s, scores=(10, 10), best=(20, 20))
    assert ENGINE.result(t).ranks == [1, 1]
    assert ev[-1]["type"] == "game_over" and ev[-1]["winners"] == [1]
    refused(s, 0, "common.error.game_over", type="draw")
    assert ENGINE.expected(s) == set() and ENGINE.legal_actions(s, 0) == []


def test_stalled_round_ends_after_max_turns():
    s = game(2, dealer=0, current=0)
    s = replace(s, turns=(MAX_TURNS - 1, MAX_TURNS - 1))
    s, _ = act(s, 0, type="skip")
    s, ev = act(s, 1, type="skip")
    end = next(e for e in ev if e["type"] == "round_end")
    assert end["stalled"] is True and s.round_no == 2


def test_timeout_default_action():
    s = later_turn_state()
    assert ENGINE.default_action(s, 0) == {"type": "skip"}
    s2, ev = act(s, 0, **ENGINE.default_action(s, 0))
    assert [e["type"] for e in ev] == ["drew", "drew_card", "discarded", "turn"]
    assert ev[2]["letter"] == "E" and ev[1]["letter"] == "E"  # the card drawn goes back out
    assert Counter(s2.hands[0]) == Counter(s.hands[0])
    # after taking the discard without using it: put it back, draw, discard the drawn card
    s3, _ = act(s, 0, type="draw", source="discard")
    s4, ev = act(s3, 0, type="skip")
    assert [e["type"] for e in ev] == ["returned", "drew", "drew_card", "discarded", "turn"]
    assert s4.discard[-1] == "E" and s4.discard[-2] == "Z"
    assert ENGINE.default_action(game(3, "mot-unique"), 0) == {"type": "pass"}


# --- variant 2: one word on the table -----------------------------------------------------
def single(**changes):
    return game(3, "mot-unique", dealer=0, current=0, **changes)


def test_single_deal():
    s = ENGINE.new_game(3, {"variant": "mot-unique"}, 5)
    sizes = sorted(len(h) for h in s.hands)
    assert sizes == [12, 12, 15] and len(s.hands[s.dealer]) == 15
    assert s.discard == () and card_total(s) == 120 and s.phase == "open"


def test_single_seed_example():
    # the rulebook's example: TRÊVES -> VÉRITÉS -> ÉVITERAS (letters may be reordered)
    s = single(hands=["TREVUXXXXXXXXXX", "IKKKKKKKKKKK", "AKKKKKKKKKKK"])
    s = replace(s, words=((1, "TREVES", 0),), phase="add", current=1, last_modifier=0)
    s, ev = act(s, 1, type="add", word="VÉRITÉS")
    assert ev == [{"type": "added", "seat": 1, "word": "VERITES", "old": "TREVES", "letter": "I", "value": 18}]
    assert s.current == 1  # chaining allowed: still seat 1's turn
    s, ev = act(s, 1, type="pass")
    assert ev[0] == {"type": "passed", "seat": 1} and s.current == 2
    s, ev = act(s, 2, type="add", word="ÉVITERAS")
    s, _ = act(s, 2, type="pass")
    s, ev = act(s, 0, type="pass")  # no addition: seat 0 abandons
    assert ev[0] == {"type": "abandoned", "seat": 0}
    s, _ = act(s, 1, type="pass")
    s, ev = act(s, 2, type="pass")
    scored = next(e for e in ev if e["type"] == "scored")
    assert scored == {"type": "scored", "seat": 2, "word": "EVITERAS", "value": 20, "score": 20}
    assert word_value("EVITERAS") == 20
    assert s.scores == (0, 0, 20) and s.round_no == 2 and s.dealer == 1


def test_single_refusals():
    s = single(hands=["TREVUSXXXXXXXXX", "IKKKKKKKKKKK", "AKKKKKKKKKKK"])
    refused(s, 1, "common.error.not_your_turn", type="pass")
    refused(s, 0, "ludime.error.no_word_yet", type="add", word="TREVES")
    assert refused(s, 0, "ludime.error.opening_length", type="play", words=["TREVES"]) == \
        {"word": "TREVES", "length": 3}
    refused(s, 0, "ludime.error.opening_single", type="play", words=["TRE", "VUS"])
    refused(s, 0, "ludime.error.missing_letter", type="play", words=["VIE"])
    refused(s, 0, "ludime.error.not_a_word", type="play", words=["XXT"])
    refused(s, 0, "ludime.error.no_word", type="play", words=[])
    refused(s, 0, "common.error.unknown_action", type="draw")
    s, ev = act(s, 0, type="play", words=["VUS"])
    assert ev[0] == {"type": "opened", "seat": 0, "word": "VUS", "value": 8} and s.current == 1
    refused(s, 1, "ludime.error.one_word_only", type="play", words=["KKK"])
    refused(s, 1, "ludime.error.must_add_letter", type="add", word="VUS")
    refused(s, 1, "ludime.error.must_keep_letters", type="add", word="VIS")
    refused(s, 1, "ludime.error.missing_letter", type="add", word="VUES")
    s = replace(s, hands=(s.hands[0], tuple(sorted("IKKKKKKKKKKE")), s.hands[2]))
    refused(s, 1, "ludime.error.must_add_one", type="add", word="VEUIS")
    refused(s, 1, "ludime.error.not_a_word", type="add", word="VUSK")


def test_abbreviations_fig_and_ibid_are_refused_as_words():
    # issue 18: FIG and IBID are abbreviations (fig., ibid.), not words — in every variant
    s = single(hands=["FIGXXXXXXXXXXXX", "UEKKKKKKKKKK", "AKKKKKKKKKKK"])
    assert refused(s, 0, "ludime.error.not_a_word", type="play", words=["FIG"]) == {"word": "FIG"}
    main = replace(first_turn_state(), turns=(1, 1, 1), hands=(tuple(sorted("IBIDEMXXXXXXXXX")),) * 3)
    assert refused(main, main.current, "ludime.error.not_a_word", type="play", words=["IBID"]) == {"word": "IBID"}
    s, _ = act(main, main.current, type="play", words=["IBIDEM"])  # the full word stays
    assert any(w == "IBIDEM" for _, w, _ in s.words)


def test_single_opening_passes_and_void_round():
    s = single(hands=["KKKKKKKKKKKKKKK", "KKKKKKKKKKKK", "KKKKKKKKKKKK"])
    s, ev = act(s, 0, type="pass")
    assert ev[0] == {"type": "opening_passed", "seat": 0} and s.current == 1 and s.phase == "open"
    s, _ = act(s, 1, type="pass")
    s, ev = act(s, 2, type="pass")
    assert {"type": "round_void", "round": 1} in ev and s.round_no == 2 and s.scores == (0, 0, 0)


def test_single_first_to_100():
    s = single(hands=["KKKKKKKKKKKKKKK", "KKKKKKKKKKKK", "KKKKKKKKKKKK"], scores=(90, 0, 0))
    s = replace(s, words=((1, "EVITERAS", 0),), phase="add", last_modifier=0, abandoned=(False, True, True))
    s, ev = act(s, 0, type="pass")
    assert ENGINE.is_over(s) and ENGINE.result(s).winners == [0] and s.scores[0] >= TARGET


# --- variant 3: one hand, one word --------------------------------------------------------
def test_whole_deal_follows_the_die():
    for seed in range(12):
        s = ENGINE.new_game(2, {"variant": "main-entiere"}, seed)
        assert 1 <= s.die <= 6 and s.hand_size == s.die + 4
        assert all(len(h) == s.hand_size for h in s.hands)
        assert len(s.discard) == 1 and card_total(s) == 120


def test_whole_declare():
    s = game(3, "main-entiere", dealer=0, current=0, hands=["PANSERU", "KKKKKKK", "KKKKKKK"], hand_size=7,
             pile="LLLLLLLA", discard="G")
    assert refused(s, 0, "ludime.error.declare_length", type="declare", word="PANSE") == \
        {"word": "PANSE", "length": 7}
    s, _ = act(s, 0, type="draw")  # A
    refused(s, 0, "ludime.error.declare_length", type="declare", word="PANSERAS")
    refused(s, 0, "ludime.error.missing_letter", type="declare", word="PENSERA")
    refused(s, 0, "ludime.error.not_a_word", type="declare", word="PANSUER")
    s2, ev = act(s, 0, type="declare", word="PANSERA")
    assert ev[0] == {"type": "discarded", "seat": 0, "letter": "U"}
    assert ev[1] == {"type": "declared", "seat": 0, "word": "PANSERA", "value": 18}
    assert s2.scores == (18, 0, 0) and s2.round_no == 2 and s2.dealer == 1
    # before drawing: the hand as dealt
    s3 = replace(s, phase="draw", hands=(tuple(sorted("PANSERA")),) + s.hands[1:])
    s3, ev = act(s3, 0, type="declare", word="PANSERA")
    assert ev[0]["type"] == "declared"


def test_whole_discard_and_turns():
    s = game(2, "main-entiere", dealer=0, current=0, hands=["ABCDE", "FGHIJ"], hand_size=5, pile="LLLM",
             discard="Z")
    s, ev = act(s, 0, type="draw", source="discard")
    assert ev == [{"type": "took_discard", "seat": 0, "letter": "Z"}] and s.discard_taken is None
    s, _ = act(s, 0, type="discard", letter="Z")  # allowed in this variant
    refused(s, 1, "ludime.error.draw_first", type="discard", letter="F")
    refused(s, 1, "common.error.unknown_action", type="play", words=["FIG"])
    s, _ = act(s, 1, type="skip")
    assert len(s.hands[1]) == 5 and s.current == 0


def test_whole_game_has_a_round_cap():
    s = game(2, "main-entiere", round_no=MAX_ROUNDS, dealer=0, current=0)
    s = replace(s, turns=(MAX_TURNS - 1, MAX_TURNS - 1))
    s, _ = act(s, 0, type="skip")
    s, ev = act(s, 1, type="skip")
    assert {"type": "round_void", "round": MAX_ROUNDS} in ev and ENGINE.is_over(s)


# --- setup, options, hidden information, persistence ---------------------------------------
def test_options_and_player_count():
    assert [o.name for o in ENGINE.options] == ["variant"]
    assert ENGINE.options[0].choices == ("main", "mot-unique", "main-entiere")
    with pytest.raises(RuleError) as err:
        ENGINE.new_game(3, {"variant": "scrabble"}, 1)
    assert err.value.key == "common.error.bad_option"
    with pytest.raises(RuleError) as err:
        ENGINE.new_game(5, None, 1)
    assert err.value.key == "common.error.player_count"
    with pytest.raises(RuleError) as err:
        ENGINE.new_game(3, {"rounds": 2}, 1)
    assert err.value.key == "common.error.unknown_option"


def test_new_main_game():
    s = ENGINE.new_game(4, None, 42)
    assert s.variant == "main" and all(len(h) == 15 for h in s.hands)
    assert len(s.discard) == 1 and len(s.pile) == 120 - 60 - 1
    assert s.current == s.dealer and ENGINE.expected(s) == {s.dealer}
    dealers = {ENGINE.new_game(4, None, seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_determinism_from_seed():
    def run(seed):
        s = ENGINE.new_game(3, None, seed)
        log = []
        for _ in range(60):
            if ENGINE.is_over(s):
                break
            seat = s.current
            s, ev = ENGINE.apply(s, seat, ENGINE.ai_action(s, seat))
            log.append(ev)
        return ENGINE.to_dict(s), log
    assert run(7) == run(7)
    assert run(7)[0] != run(8)[0]


def test_round_trip():
    for variant in ("main", "mot-unique", "main-entiere"):
        s = ENGINE.new_game(3, {"variant": variant}, 3)
        for _ in range(25):
            if ENGINE.is_over(s):
                break
            s, _ = ENGINE.apply(s, s.current, ENGINE.ai_action(s, s.current))
        d = ENGINE.to_dict(s)
        text = json.dumps(d)
        back = ENGINE.from_dict(json.loads(text))
        assert back == s and ENGINE.to_dict(back) == d
    with pytest.raises(ValueError):
        ENGINE.from_dict({**ENGINE.to_dict(s), "schema": 99})


def _scramble(state, seat):
    """The same state with another hand for ``seat`` (same size) and another pile order."""
    hand = tuple(sorted("Q" * len(state.hands[seat])))
    drawn = "Q" if state.drawn and seat == state.current else state.drawn
    return replace(state, hands=_replace_at(state.hands, seat, hand), pile=tuple(reversed(state.pile)),
                   drawn=drawn)


def _replace_at(tup, i, value):
    return tup[:i] + (value,) + tup[i + 1:]


@pytest.mark.parametrize("variant", ["main", "mot-unique", "main-entiere"])
def test_views_hide_other_hands_and_the_pile(variant):
    s = ENGINE.new_game(3, {"variant": variant}, 11)
    for step in range(30):
        if ENGINE.is_over(s):
            break
        for seat in range(3):
            other = _scramble(s, seat)
            for viewer in [None] + [v for v in range(3) if v != seat]:
                assert ENGINE.view(s, viewer) == ENGINE.view(other, viewer), (step, seat, viewer)
            assert ENGINE.view(s, seat)["hand"] == list(s.hands[seat])
        v = ENGINE.view(s, None)
        assert v["hand"] is None and v["drawn"] is None and "pile" not in v
        json.dumps(v)
        s, _ = ENGINE.apply(s, s.current, ENGINE.ai_action(s, s.current))


def test_events_never_leak_a_hand():
    s = ENGINE.new_game(3, None, 4)
    for _ in range(80):
        if ENGINE.is_over(s):
            break
        s, events = ENGINE.apply(s, s.current, ENGINE.ai_action(s, s.current))
        for e in events:
            assert e["type"] in EVENT_TYPES
            if e["type"] in ("drew_card", "exchanged_cards"):
                assert e["private_to"] == e["seat"]
            if e["type"] == "drew":
                assert "letter" not in e


def test_every_error_and_event_has_both_catalog_entries():
    src = ENGINE_SRC.read_text()
    keys = set(re.findall(r'RuleError\(\s*"ludime\.error\.([a-z_]+)"', src))
    assert {"not_a_word", "missing_letter", "too_short", "discard_not_used", "take_needs_word",
            "first_word_short", "first_word_single"} <= keys
    for lang in ("fr", "en"):
        for key in keys:
            assert i18n.has(f"ludime.error.{key}", lang), (lang, key)
        for common in ("not_your_turn", "unknown_action", "game_over", "player_count", "bad_option"):
            assert i18n.has(f"common.error.{common}", lang)
        for event in EVENT_TYPES:
            assert i18n.has(f"ludime.event.{event}", lang), (lang, event)
        assert i18n.has("ludime.name.title", lang)
        assert len(i18n.t("ludime.rules.page_1", lang)) <= 1800
        for variant in ("main", "mot-unique", "main-entiere"):
            assert i18n.has(f"ludime.variant.{variant}", lang)
    assert set(re.findall(r'"type": "([a-z_]+)", "seat"', src)) - {"draw"} <= set(EVENT_TYPES)
    msg = i18n.t("ludime.error.missing_letter", "fr", letter="T", word="TRAMES")
    assert "T" in msg and "TRAMES" in msg


# --- random complete games ---------------------------------------------------------------
def _check_invariants(s):
    if s.variant != "mot-unique":
        assert card_total(s) == 120
    else:
        assert card_total(s) == 120
    assert len(s.hands) == s.players and all(list(h) == sorted(h) for h in s.hands)
    if s.variant == "main-entiere" and s.phase == "draw" and not s.finished:
        assert all(len(h) == s.hand_size for h in s.hands)
    if s.variant == "main" and not s.finished:
        assert len(s.hands[s.current]) <= 15 + 1 + 15
        assert len({i for i, _, _ in s.words}) == len(s.words)
    assert all(is_word(w) for _, w, _ in s.words)


@pytest.mark.parametrize("variant,games", [("main", 4), ("mot-unique", 5), ("main-entiere", 5)])
def test_random_complete_games(variant, games):
    for g in range(games):
        rng = random.Random(1000 * g + len(variant))
        s = ENGINE.new_game(2 + g % 3, {"variant": variant}, rng.randrange(10**9))
        for step in range(6000):
            if ENGINE.is_over(s):
                break
            (seat,) = ENGINE.expected(s)
            legal = ENGINE.legal_actions(s, seat)
            assert legal, (variant, step)
            action = rng.choice(legal) if rng.random() < 0.3 else ENGINE.ai_action(s, seat)
            before = ENGINE.to_dict(s)
            s2, events = ENGINE.apply(s, seat, action)
            assert ENGINE.to_dict(s) == before  # apply never mutates its input
            assert all(e["type"] in EVENT_TYPES for e in events)
            s = s2
            _check_invariants(s)
            if step % 50 == 0:
                assert ENGINE.from_dict(json.loads(json.dumps(ENGINE.to_dict(s)))) == s
        assert ENGINE.is_over(s), (variant, g)
        res = ENGINE.result(s)
        assert len(res.scores) == s.players and 1 in res.ranks
        if variant == "main":
            assert len(res.details["rounds"]) == 3
        else:
            assert max(res.scores) >= TARGET or s.round_no >= MAX_ROUNDS


# --- the AI lays the best word its hand allows (issue 37) ----------------------------------
def test_the_ai_lays_the_best_scoring_word_an_exhaustive_search_finds():
    """The AI's first word of the round scores what a search without the AI's trie walk finds best:
    every choice of some of the hand's letters looked up among the lexicon's anagrams (bench_ai
    --ludime-words does the same on 500 hands)."""
    from bench.bench_ai import _anagrams, brute_best
    from engines.ludime.engine import FIRST_WORD_MIN, HAND, WORD_MIN
    from engines.ludime.scoring import deck

    anagrams = _anagrams()
    s = first_turn_state()
    action = ENGINE.ai_action(s, 0)
    hand = s.hands[0]
    assert action["type"] == "play", action
    assert word_value(action["words"][0]) == brute_best(hand, FIRST_WORD_MIN, anagrams)
    assert not Counter(action["words"][0]) - Counter(hand)
    ENGINE.apply(s, 0, action)  # and it is legal
    for seed in range(12):
        cards = deck()
        random.Random(seed).shuffle(cards)
        hand = tuple(cards[:HAND])
        word = ENGINE.best_word(hand, WORD_MIN)
        assert (word_value(word) if word else 0) == brute_best(hand, WORD_MIN, anagrams), (hand, word)
