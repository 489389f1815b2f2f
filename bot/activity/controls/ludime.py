"""Ludime by touch, across the two pictures the page shows: the table (the draw pile, the discard) and
the player's own hand (``mine``, one region per card: ``card:0``…).

- **Draw**: the pile or the discard, on the table.
- **A word**: the cards of the hand touched in order spell it (a card once); once the letters make a word
  the engine accepts, it is a move (« Confirmer » lays it); another card touched lengthens the spelling.
  Every card of the hand stays touchable: the page never hints which letters make a word.
- **Discard**: a card, then the discard on the table (the turn ends).
- Lengthening or taking a word, an exchange, giving back the discard and the other variants' moves are
  the chat's.

The engine decides every move (``legal_actions`` for the draws and discards, ``apply`` for a word: the
words are free text, never listed). A preview never shows a card that is not known yet: a draw from the
pile is shown as the table is, and a move that would close the round (and deal the next one) is shown
without the deal."""

from __future__ import annotations

import re
from typing import Any

from bot.activity.controls.base import Preview, touch
from engines.base import RuleError

CARD = re.compile(r"card:(\d{1,2})")
#: the events of a move that deal or reveal what the seat may not know yet
CLOSING = {"round_end", "dealt", "game_over", "die_rolled", "drew_card", "reshuffled"}


class LudimeControl:
    which = "mine"
    pictures = ("board", "mine")

    @staticmethod
    def enabled(state: dict[str, Any]) -> bool:
        """The one-word variant is played in the chat: its word is on the table, not in a hand."""
        return state.get("variant") != "mot-unique"

    def paths(self, engine: Any, state: Any, seat: int) -> list:
        """The listed moves: a draw (the pile or the discard), a card then the discard. Words are
        answered by :meth:`answer`."""
        out: list = []
        hand = state.hands[seat] if 0 <= seat < len(state.hands) else ()
        for a in engine.legal_actions(state, seat):
            if a["type"] == "draw":
                out.append(((a["source"],), a))
            elif a["type"] == "discard":
                out += [((f"card:{i}", "discard"), a) for i, c in enumerate(hand) if c == a["letter"]]
        return out

    def _word(self, engine: Any, state: Any, seat: int, selected: list[str]) -> dict[str, Any] | None:
        """The word move ``selected`` cards spell, when the engine would accept it now."""
        if state.variant != "main" or state.phase != "play" or len(selected) < 3:
            return None
        hand = state.hands[seat]
        action = {"type": "play", "words": ["".join(hand[int(CARD.fullmatch(r)[1])] for r in selected)]}
        try:
            engine.apply(state, seat, action)
        except RuleError:
            return None
        return action

    def answer(self, engine: Any, state: Any, seat: int, selected: list[str]) -> dict[str, Any]:
        """``targets`` and ``moves`` as :func:`bot.activity.controls.base.touch` answers them, words included."""
        listed = self.paths(engine, state, seat)
        answer = touch(listed, selected)
        hand = state.hands[seat] if 0 <= seat < len(state.hands) else ()
        cards = [CARD.fullmatch(r) for r in selected]
        if seat != state.current or state.phase != "play" or state.variant != "main" or not all(cards):
            return answer
        picked = [int(m[1]) for m in cards]
        if len(set(picked)) != len(picked) or any(i >= len(hand) for i in picked):
            return {"targets": [], "moves": []}
        targets = [r for r in answer["targets"] if r == "discard"] + [
            f"card:{i}" for i in range(len(hand)) if i not in picked]
        word = self._word(engine, state, seat, selected)
        return {"targets": targets,
                "moves": answer["moves"] + ([{"regions": list(selected), "action": word}] if word else [])}

    def allows(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> bool:
        """``action`` is a move this control offers now: a listed one, or a word of the hand."""
        if action in [a for _, a in self.paths(engine, state, seat)]:
            return True
        words = action.get("words")
        if set(action) != {"type", "words"} or action["type"] != "play" or not isinstance(words, list) \
                or len(words) != 1 or not isinstance(words[0], str) or state.variant != "main":
            return False
        try:
            engine.apply(state, seat, action)
        except RuleError:
            return False
        return True

    def preview(self, engine: Any, state: Any, seat: int, action: dict[str, Any]) -> Preview:
        now = engine.view(state, seat)
        kind = action["type"]
        if kind == "draw":  # a pile's card is chance: unknown until drawn; the discard's is in sight
            if action["source"] == "pile":
                return Preview(now, "activity.preview.ludime_pile")
            return Preview(now, "activity.preview.ludime_take", {"letter": now.get("discard_top") or ""})
        after, events = engine.apply(state, seat, action)
        shown = now if any(e["type"] in CLOSING for e in events) else engine.view(after, seat)
        if kind == "discard":
            return Preview(shown, "activity.preview.ludime_discard", {"letter": action["letter"]})
        played = next(e for e in events if e["type"] == "played")
        return Preview(shown, "activity.preview.ludime_word", {"word": played["word"], "points": played["value"]})


CONTROL = LudimeControl()
