"""Ludime by touch, across the two pictures the page shows: the table (the draw pile, the discard, each
word laid: ``word:<id>``) and the player's own hand (``mine``, one region per card: ``card:0``…).

- **Draw**: the pile or the discard, on the table.
- **A word**: the cards of the hand touched in order spell it (a card once); once the letters make a word
  the engine accepts, it is a move (« Confirmer » lays it); another card touched lengthens the spelling.
  Every card of the hand stays touchable: the page never hints which letters make a word.
- **Lengthen or take a word**: the word on the table, then the cards to add (in any order: the new word
  may mix them in). Once the letters make words the engine accepts, each is a move: the first is
  previewed, the others are the preview's choices (« ALLUMAIS », « MALAISUL »…). A word of one's own is
  lengthened; another player's is taken (the engine says when one may).
- **Exchange** (the first turn, instead of a word): the cards to give back, then the pile.
- **Discard**: a card, then the discard on the table (the turn ends).
- Giving back the discard and the other variants' moves are the chat's.

The engine decides every move (``legal_actions`` for the draws and discards, ``apply`` for a word, a
lengthened word and an exchange: none is listed). A preview never shows a card that is not known yet: a
draw from the pile and an exchange are shown as the hand is (an exchange marks the cards given back), and a move that would close the round (and
deal the next one) is shown without the deal."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from bot.activity.controls.base import Preview, touch
from engines.base import RuleError
from engines.ludime.lexicon import find_words

CARD = re.compile(r"card:(\d{1,2})")
WORD = re.compile(r"word:(\d{1,6})")
#: the events of a move that deal or reveal what the seat may not know yet
CLOSING = {"round_end", "dealt", "game_over", "die_rolled", "drew_card", "reshuffled", "exchanged_cards"}
#: lengthened words offered for one set of touched cards (the anagrams the lexicon finds)
MAX_WORDS = 6


def _accepted(engine: Any, state: Any, seat: int, action: dict[str, Any]) -> bool:
    try:
        engine.apply(state, seat, action)
    except RuleError:
        return False
    return True


class LudimeControl:
    which = "mine"
    pictures = ("board", "mine")

    @staticmethod
    def enabled(state: dict[str, Any]) -> bool:
        """The one-word variant is played in the chat: its word is on the table, not in a hand."""
        return state.get("variant") != "mot-unique"

    def paths(self, engine: Any, state: Any, seat: int) -> list:
        """The listed moves: a draw (the pile or the discard), a card then the discard. Words, lengthened
        words and exchanges are answered by :meth:`answer`."""
        out: list = []
        hand = state.hands[seat] if 0 <= seat < len(state.hands) else ()
        for a in engine.legal_actions(state, seat):
            if a["type"] == "draw":
                out.append(((a["source"],), a))
            elif a["type"] == "discard":
                out += [((f"card:{i}", "discard"), a) for i, c in enumerate(hand) if c == a["letter"]]
        return out

    @staticmethod
    def _playing(state: Any, seat: int) -> bool:
        return seat == state.current and state.phase == "play" and state.variant == "main"

    def _word(self, engine: Any, state: Any, seat: int, selected: list[str]) -> dict[str, Any] | None:
        """The word move ``selected`` cards spell, when the engine would accept it now."""
        if not self._playing(state, seat) or len(selected) < 3:
            return None
        hand = state.hands[seat]
        action = {"type": "play", "words": ["".join(hand[int(CARD.fullmatch(r)[1])] for r in selected)]}
        return action if _accepted(engine, state, seat, action) else None

    @staticmethod
    def _words_to_change(state: Any, seat: int) -> list[str]:
        """The words on the table this seat may touch to lengthen (its own) or take (another's, once it
        has a word of its own laid on an earlier turn): what the engine allows, not a hint."""
        if state.turns[seat] == 0:
            return []
        owns = any(o == seat for _, _, o in state.words)
        may_take = owns and 0 <= state.first_word_turn[seat] < state.turns[seat]
        return [f"word:{i}" for i, _, o in state.words if o == seat or may_take]

    @staticmethod
    def _may_exchange(state: Any, seat: int) -> bool:
        return state.turns[seat] == 0 and not state.laid and not state.exchanged

    def _picked(self, state: Any, seat: int, regions: list[str]) -> list[int] | None:
        """The hand's cards ``regions`` name (each once, all in the hand), or None."""
        hand = state.hands[seat]
        cards = [CARD.fullmatch(r) for r in regions]
        if not all(cards):
            return None
        picked = [int(m[1]) for m in cards]
        if len(set(picked)) != len(picked) or any(i >= len(hand) for i in picked):
            return None
        return picked

    def _changed(self, engine: Any, state: Any, seat: int, selected: list[str]) -> dict[str, Any]:
        """A word of the table, then cards of the hand: the lengthened (or taken) words they make."""
        none: dict[str, Any] = {"targets": [], "moves": []}
        if selected[0] not in self._words_to_change(state, seat):
            return none
        wid = int(WORD.fullmatch(selected[0])[1])
        picked = self._picked(state, seat, selected[1:])
        if picked is None:
            return none
        hand = state.hands[seat]
        targets = [f"card:{i}" for i in range(len(hand)) if i not in picked]
        if not picked:
            return {"targets": targets, "moves": []}
        old = next(w for i, w, _ in state.words if i == wid)
        letters = Counter(old) + Counter(hand[i] for i in picked)
        size = sum(letters.values())
        moves = []
        for word in find_words(letters, min_len=size, max_len=size, required=letters):
            action = {"type": "extend", "target": wid, "word": word}
            if _accepted(engine, state, seat, action):
                moves.append({"regions": list(selected), "action": action})
            if len(moves) == MAX_WORDS:
                break
        return {"targets": targets, "moves": moves}

    def answer(self, engine: Any, state: Any, seat: int, selected: list[str]) -> dict[str, Any]:
        """``targets`` and ``moves`` as :func:`bot.activity.controls.base.touch` answers them, words,
        lengthened words and exchanges included."""
        listed = self.paths(engine, state, seat)
        answer = touch(listed, selected)
        if not 0 <= seat < len(state.hands) or not self._playing(state, seat):
            return answer
        if selected and WORD.fullmatch(selected[0]):
            return self._changed(engine, state, seat, selected)
        exchange = self._may_exchange(state, seat)
        if len(selected) > 1 and selected[-1] == "pile":  # the cards to give back, then the pile
            picked = self._picked(state, seat, selected[:-1])
            if not exchange or picked is None:
                return {"targets": [], "moves": []}
            action = {"type": "exchange", "letters": [state.hands[seat][i] for i in picked]}
            return {"targets": [], "moves": [{"regions": list(selected), "action": action}]}
        picked = self._picked(state, seat, selected)
        if picked is None:  # a card then the discard (listed), or nothing the hand spells
            return answer
        hand = state.hands[seat]
        targets = [r for r in answer["targets"] if r == "discard"] + [
            f"card:{i}" for i in range(len(hand)) if i not in picked]
        if not picked:
            targets += self._words_to_change(state, seat)
        elif exchange:
            targets.append("pile")
        word = self._word(engine, state, seat, selected)
        return {"targets": targets,
                "moves": answer["moves"] + ([{"regions": list(selected), "action": word}] if word else [])}

    def allows(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> bool:
        """``action`` is a move this control offers now: a listed one, a word of the hand, a word of the
        table lengthened or taken, an exchange."""
        if action in [a for _, a in self.paths(engine, state, seat)]:
            return True
        if not 0 <= seat < len(state.hands) or not self._playing(state, seat):
            return False
        kind = action.get("type")
        if kind == "play":
            words = action.get("words")
            shaped = set(action) == {"type", "words"} and isinstance(words, list) and len(words) == 1 \
                and isinstance(words[0], str)
        elif kind == "extend":
            shaped = set(action) == {"type", "target", "word"} and isinstance(action["word"], str) \
                and f"word:{action['target']}" in self._words_to_change(state, seat)
        elif kind == "exchange":
            letters = action.get("letters")
            shaped = set(action) == {"type", "letters"} and isinstance(letters, list) and bool(letters) \
                and all(isinstance(c, str) and len(c) == 1 for c in letters) and self._may_exchange(state, seat)
        else:
            shaped = False
        return shaped and _accepted(engine, state, seat, action)

    def preview(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> Preview:
        now = engine.view(state, seat)
        kind = action["type"]
        if kind == "draw":  # a pile's card is chance: unknown until drawn; the discard's is in sight
            if action["source"] == "pile":
                return Preview(now, "activity.preview.ludime_pile")
            return Preview(now, "activity.preview.ludime_take", {"letter": now.get("discard_top") or ""})
        if kind == "exchange":  # the cards received are chance: the hand as it is, the cards given back marked
            return Preview({**now, "giving": list(action["letters"])}, "activity.preview.ludime_exchange", {"letters": " ".join(action["letters"]),
                                                                     "count": len(action["letters"])})
        after, events = engine.apply(state, seat, action)
        shown = now if any(e["type"] in CLOSING for e in events) else engine.view(after, seat)
        if kind == "discard":
            return Preview(shown, "activity.preview.ludime_discard", {"letter": action["letter"]})
        if kind == "extend":
            changed = next(e for e in events if e["type"] in ("lengthened", "took"))
            if changed["type"] == "took":
                return Preview(shown, "activity.preview.ludime_took", {
                    "old": changed["old"], "word": changed["word"], "points": changed["value"],
                    "seat": changed["from_seat"]})
            return Preview(shown, "activity.preview.ludime_lengthened", {
                "old": changed["old"], "word": changed["word"], "points": changed["value"]})
        played = next(e for e in events if e["type"] == "played")
        return Preview(shown, "activity.preview.ludime_word", {"word": played["word"], "points": played["value"]})

    @staticmethod
    def label(action: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """The lengthened words one set of cards makes, told apart by the word."""
        return ("activity.preview.move", {"move": action["word"]}) if action.get("type") == "extend" else None


CONTROL = LudimeControl()
