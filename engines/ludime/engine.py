"""Ludime — the French letter-card game: main game (3 rounds) and the rulebook's two variants.

Rules: ../shared/rules/ludime.md and docs/rules/ludime.md (every decision the seed
leaves open is written there). Actions (JSON-safe dicts):

Main game (``variant="main"``), one turn = draw, then lay-down actions, then discard:

* ``{"type": "draw", "source": "pile" | "discard"}``
* ``{"type": "play", "words": ["PASSE", "HUA"]}`` — new words from the hand, all or nothing
* ``{"type": "extend", "target": 3, "word": "ALLUMAIS"}`` — lengthen your word or take
  another player's (``target`` is a word id from the view, or the word's text)
* ``{"type": "exchange", "letters": ["K", "W"]}`` — first turn only, instead of a word
* ``{"type": "undo_take"}`` — put back the discard you took but could not use, then draw
* ``{"type": "discard", "letter": "E"}`` — ends the turn
* ``{"type": "skip"}`` — the timeout move: draw from the pile (if not done) and discard the
  card drawn

A word move (``play``, ``extend``, ``add``, ``declare``) may say ``"as_typed": true``: the words
are then *shown* as typed (upper-cased, French accents kept: TUÉE, ŒUVRE) while the rules see
only their card letters (T U E E, O E U V R E). The spellings are kept per word id
(``State.spellings``) and told in the events as ``word_shown`` / ``old_shown``; a move without
the flag (the AI's, every move logged before it existed) shows the card letters, so an old log
replays to exactly the state it stored.

Variant ``"mot-unique"``: ``play`` (the opening 3-letter word), ``add`` (``{"type": "add",
"word": "TREVES"}``, one card added, may be repeated in a turn), ``pass`` (ends the turn; a
pass without any addition abandons the round).

Variant ``"main-entiere"``: ``draw``, ``discard``, ``skip`` and ``{"type": "declare",
"word": "PANSERA"}`` (the whole hand as one word; after drawing, the one card left over is
discarded).
"""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from engines.base import (
    Action,
    Event,
    Option,
    Result,
    RuleError,
    View,
    check_new_game,
    derive_rng,
    rank_by,
    refusal_from_events,
    stamp_schema,
    unstamp_schema,
)
from engines.ludime.lexicon import find_words, is_key, normalize
from engines.ludime.lexicon import is_word as _is_word
from engines.ludime.scoring import DECK_COUNTS, VALUES, deck, hand_penalty, round_breakdown, word_value

MAIN, SINGLE, WHOLE = "main", "mot-unique", "main-entiere"
VARIANTS = (MAIN, SINGLE, WHOLE)
ROUNDS = 3              # main game
HAND = 15               # main game
FIRST_WORD_MIN = 6      # main game, a seat's first turn of a round
WORD_MIN = 3
#: the AI's word search: a budget no hand reaches (every word of the lexicon a 16-letter hand spells is found)
EXHAUSTIVE = 10_000_000
SINGLE_HAND, SINGLE_DEALER_EXTRA, SINGLE_OPENING = 12, 3, 3
TARGET = 100            # variants 2 and 3
MAX_TURNS = 40          # [decision] a stalled round ends once every seat has played this many turns
MAX_ROUNDS = 30         # [decision] variants 2 and 3: the game stops after this many rounds
#: the letters a word may be shown with (``as_typed``): A-Z and French's accented letters and ligatures
SHOWN_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZÀÂÄÆÇÉÈÊËÎÏÔÖŒÙÛÜŸ")
RARITY = sorted(DECK_COUNTS, key=lambda c: (DECK_COUNTS[c], -VALUES[c], c))  # rarest first

#: every event type the engine emits (each has a narration key ``ludime.event.<type>``)
EVENT_TYPES = ("die_rolled", "dealt", "turn", "drew", "took_discard", "drew_card", "pile_empty", "reshuffled",
               "played", "lengthened", "took", "exchanged", "exchanged_cards", "returned", "discarded",
               "went_out", "round_end", "round_void", "scored", "game_over", "opened", "added", "passed",
               "abandoned", "opening_passed", "declared")


#: the moves that can never be taken back (issue 26): a card drawn from the pile (also by an
#: exchange), a reshuffle, a round scored, a new deal
TAKEBACK_REVEALING = {"drew": "undo.reason.pile", "drew_card": "undo.reason.pile",
                      "exchanged": "undo.reason.pile", "reshuffled": "undo.reason.shuffle",
                      "round_end": "undo.reason.round_scored", "dealt": "undo.reason.round_scored",
                      "die_rolled": "undo.reason.dice"}


@dataclass(frozen=True)

class State:
    seed: int
    players: int
    variant: str = MAIN
    round_no: int = 1
    dealer: int = 0
    current: int = 0
    phase: str = "draw"  # main/whole: "draw" | "play"; single: "open" | "add"; "over" when finished
    hands: tuple[tuple[str, ...], ...] = ()  # sorted letters
    pile: tuple[str, ...] = ()  # top = last; never leaves the engine
    discard: tuple[str, ...] = ()  # top = last
    words: tuple[tuple[int, str, int], ...] = ()  # (id, word, owner seat)
    next_id: int = 1
    turns: tuple[int, ...] = ()  # turns completed this round, per seat
    first_word_turn: tuple[int, ...] = ()  # turn index of the seat's first word this round (-1: none)
    drawn: str | None = None  # the card drawn from the pile this turn (private)
    discard_taken: str | None = None  # main: the discard card taken this turn (public)
    discard_used: bool = False
    undo_done: bool = False  # the taken discard was put back this turn
    laid: bool = False  # laid or changed a word this turn
    exchanged: bool = False
    out_seat: int | None = None  # main: the first seat left with no card this round
    scores: tuple[int, ...] = ()
    history: tuple[tuple[int, ...], ...] = ()  # points of each finished round, per seat
    best: tuple[int, ...] = ()  # tie-break: value of each seat's most valuable scored word
    best_text: tuple[str, ...] = ()
    abandoned: tuple[bool, ...] = ()  # single: seats out of this round
    last_modifier: int | None = None  # single: who changed the word last
    added: int = 0  # single: letters added this turn
    passes: int = 0  # single: consecutive passes before the opening word
    hand_size: int = HAND  # whole: n + 4 for a die showing n
    die: int = 0
    turn_no: int = 0  # turns started in the game (RNG salt)
    shuffles: int = 0  # reshuffles of the discard this round (RNG salt)
    last_round: dict[str, Any] = field(default_factory=dict)
    finished: bool = False
    #: (word id, spelling) of the table's words shown otherwise than their card letters (TUÉE for TUEE)
    spellings: tuple[tuple[int, str], ...] = ()


# --- small helpers ------------------------------------------------------------------
def _sorted(letters) -> tuple[str, ...]:
    return tuple(sorted(letters))


def _missing(hand: Counter, letters: str) -> str | None:
    """The first letter of ``letters`` that ``hand`` cannot provide (``hand`` is consumed)."""
    for c in letters:
        if hand[c] <= 0:
            return c
        hand[c] -= 1
    return None


def _set(tup: tuple, index: int, value) -> tuple:
    return tup[:index] + (value,) + tup[index + 1:]


def _shown_of(state: State, wid: int) -> str | None:
    """The spelling word ``wid`` is shown with, or None (its card letters)."""
    return next((text for i, text in state.spellings if i == wid), None)


def _respelled(spellings: tuple[tuple[int, str], ...], wid: int, shown: str | None) -> tuple[tuple[int, str], ...]:
    """``spellings`` with word ``wid`` shown as ``shown`` (None: as its card letters)."""
    out = tuple(p for p in spellings if p[0] != wid)
    return tuple(sorted(out + ((wid, shown),))) if shown else out


def _word_arg(action: Action, key: str = "word") -> str:
    raw = action.get(key)
    if not isinstance(raw, str) or not raw.strip():
        raise RuleError("ludime.error.no_word")
    return raw


def _check_letters_only(raw: str) -> str:
    word = normalize(raw)
    if not is_key(word):
        raise RuleError("ludime.error.not_letters", word=raw.strip().upper())
    return word


def _spelling(raw: str, word: str, action: Action) -> str | None:
    """How ``word`` (the card letters of ``raw``) is shown: ``raw`` upper-cased with its accents when the
    move asks for it (``as_typed``) and they differ from the card letters, else None (the letters).
    A letter French does not write (Ñ, Å, a stray combining mark) is refused: it is no card's."""
    if action.get("as_typed") is not True:
        return None
    shown = unicodedata.normalize("NFC", raw.strip()).upper()
    for ch in shown:
        if ch not in SHOWN_LETTERS:
            letter = f"\u25cc{ch}" if unicodedata.combining(ch) else ch
            raise RuleError("ludime.error.foreign_letter", letter=letter, word=word)
    if normalize(shown) != word:  # [decision] cannot happen for letters of SHOWN_LETTERS: show the cards
        return None
    return shown if shown != word else None


def _tell_spellings(event: Event, shown: str | None, old_shown: str | None = None) -> None:
    """Add the spellings the event's ``word`` and ``old`` are shown with (narration uses them)."""
    if shown:
        event["word_shown"] = shown
    if old_shown:
        event["old_shown"] = old_shown


def _check_lexicon(word: str, shown: str | None = None) -> None:
    if not _is_word(word):
        raise RuleError("ludime.error.not_a_word", word=shown or word)


def _letter_arg(raw: Any) -> str:
    letter = normalize(raw) if isinstance(raw, str) else ""
    if len(letter) != 1 or not is_key(letter):
        raise RuleError("ludime.error.bad_letter", letter=str(raw))
    return letter


class LudimeEngine:
    name = "ludime"
    min_players = 2
    max_players = 4
    has_ai = True
    ai_levels = (1, 1)  # the AI levels a lobby may ask for
    simultaneous = False
    SCHEMA = 1
    options = (Option("variant", MAIN, choices=VARIANTS),)

    # --- setup ----------------------------------------------------------------------
    def new_game(self, players: int, options: dict[str, Any] | None, seed: int) -> State:
        opts = check_new_game(self, players, options)
        dealer = self._first_dealer(seed, players)
        state = State(seed=seed, players=players, variant=opts["variant"], scores=(0,) * players,
                      best=(0,) * players, best_text=("",) * players)
        state, _ = self._start_round(state, 1, dealer)
        return state

    @staticmethod
    def _first_dealer(seed: int, players: int) -> int:
        """Each player rolls the die, highest deals (ties roll again)."""
        rng = derive_rng(seed, "dealer")
        contenders = list(range(players))
        while len(contenders) > 1:
            rolls = {s: rng.randint(1, 6) for s in contenders}
            top = max(rolls.values())
            contenders = [s for s in contenders if rolls[s] == top]
        return contenders[0]

    def _start_round(self, state: State, round_no: int, dealer: int) -> tuple[State, list[Event]]:
        n = state.players
        cards = deck()
        derive_rng(state.seed, "deal", round_no).shuffle(cards)
        hands: list[list[str]] = [[] for _ in range(n)]
        die = 0
        if state.variant == MAIN:
            size = HAND
        elif state.variant == SINGLE:
            size = SINGLE_HAND
        else:
            die = derive_rng(state.seed, "die", round_no).randint(1, 6)
            size = die + 4
        for _ in range(size):  # one at a time, starting left of the dealer
            for k in range(1, n + 1):
                hands[(dealer + k) % n].append(cards.pop())
        discard: tuple[str, ...] = ()
        if state.variant == SINGLE:
            for _ in range(SINGLE_DEALER_EXTRA):
                hands[dealer].append(cards.pop())
            phase = "open"
        else:
            discard = (cards.pop(),)
            phase = "draw"
        new = replace(
            state, round_no=round_no, dealer=dealer, current=dealer, phase=phase,
            hands=tuple(_sorted(h) for h in hands), pile=tuple(cards), discard=discard,
            words=(), next_id=1, turns=(0,) * n, first_word_turn=(-1,) * n,
            drawn=None, discard_taken=None, discard_used=False, undo_done=False, laid=False,
            exchanged=False, out_seat=None, abandoned=(False,) * n, last_modifier=None, added=0,
            passes=0, hand_size=size, die=die, shuffles=0, spellings=())
        events: list[Event] = []
        if state.variant == WHOLE:
            events.append({"type": "die_rolled", "seat": dealer, "die": die, "cards": size})
        events.append({"type": "dealt", "round": round_no, "dealer": dealer, "cards": size})
        events.append({"type": "turn", "seat": dealer})
        return new, events

    # --- turn structure -------------------------------------------------------------
    def expected(self, state: State) -> set[int]:
        return set() if state.finished else {state.current}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """The finite moves of ``seat`` now. Word moves (play/extend/add/declare/exchange)
        take free text and are not listed; ``ai_action`` finds some."""
        if state.finished or seat != state.current:
            return []
        if state.variant == SINGLE:
            return [{"type": "pass"}]
        if state.phase == "draw":
            out = [{"type": "draw", "source": "pile"}]
            if self._may_take_discard(state, seat):
                out.append({"type": "draw", "source": "discard"})
            return out
        if state.variant == MAIN and state.discard_taken and not state.discard_used:
            return [{"type": "undo_take"}]
        return [{"type": "discard", "letter": c} for c in sorted(set(state.hands[seat]))]

    def _may_take_discard(self, state: State, seat: int) -> bool:
        if not state.discard or state.undo_done:
            return False
        return not (state.variant == MAIN and state.turns[seat] == 0)

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state.finished:
            raise RuleError("common.error.game_over")
        kind = action.get("type") if isinstance(action, dict) else None
        handlers = {
            MAIN: {"draw": self._draw, "play": self._play, "extend": self._extend, "discard": self._discard,
                   "exchange": self._exchange, "undo_take": self._undo_take, "skip": self._skip},
            SINGLE: {"play": self._open, "add": self._add, "pass": self._pass},
            WHOLE: {"draw": self._draw, "discard": self._discard, "declare": self._declare,
                    "skip": self._skip},
        }[state.variant]
        if kind not in handlers:
            raise RuleError("common.error.unknown_action", action=str(kind))
        if seat != state.current:
            raise RuleError("common.error.not_your_turn")
        return handlers[kind](state, seat, action)

    # --- shared: the piles ----------------------------------------------------------
    def _pop_pile(self, state: State) -> tuple[State, str | None, list[Event]]:
        events: list[Event] = []
        if not state.pile and len(state.discard) > 1:
            rest = list(state.discard[:-1])
            derive_rng(state.seed, "reshuffle", state.round_no, state.shuffles).shuffle(rest)
            state = replace(state, pile=tuple(rest), discard=state.discard[-1:], shuffles=state.shuffles + 1)
            events.append({"type": "reshuffled", "count": len(rest)})
        if not state.pile:
            events.append({"type": "pile_empty"})
            return state, None, events
        return replace(state, pile=state.pile[:-1]), state.pile[-1], events

    def _draw(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state.phase != "draw":
            raise RuleError("ludime.error.already_drew")
        source = action.get("source", "pile")
        if source not in ("pile", "discard"):
            raise RuleError("ludime.error.bad_source", source=str(source))
        hand = state.hands[seat]
        if source == "discard":
            if state.variant == MAIN and state.turns[seat] == 0:
                raise RuleError("ludime.error.discard_first_turn")
            if state.undo_done:
                raise RuleError("ludime.error.discard_returned")
            if not state.discard:
                raise RuleError("ludime.error.discard_empty")
            letter = state.discard[-1]
            new = replace(state, hands=_set(state.hands, seat, _sorted(hand + (letter,))),
                          discard=state.discard[:-1], phase="play",
                          discard_taken=letter if state.variant == MAIN else None, discard_used=False)
            return new, [{"type": "took_discard", "seat": seat, "letter": letter}]
        new, letter, events = self._pop_pile(state)
        if letter is None:
            return replace(new, phase="play", drawn=None), events
        new = replace(new, hands=_set(new.hands, seat, _sorted(hand + (letter,))), phase="play", drawn=letter)
        events += [{"type": "drew", "seat": seat},
                   {"type": "drew_card", "seat": seat, "letter": letter, "private_to": seat}]
        return new, events

    def _discard(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state.phase != "play":
            raise RuleError("ludime.error.draw_first")
        letter = _letter_arg(action.get("letter"))
        hand = state.hands[seat]
        if letter not in hand:
            raise RuleError("ludime.error.not_in_hand", letter=letter)
        if state.variant == MAIN and state.discard_taken and not state.discard_used:
            raise RuleError("ludime.error.discard_not_used", letter=state.discard_taken)
        rest = list(hand)
        rest.remove(letter)
        new = replace(state, hands=_set(state.hands, seat, tuple(rest)), discard=state.discard + (letter,))
        return self._end_turn(new, seat, [{"type": "discarded", "seat": seat, "letter": letter}])

    def _skip(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Timeout: draw from the pile if not done yet, then discard the card drawn."""
        events: list[Event] = []
        if state.variant == MAIN and state.phase == "play" and state.discard_taken and not state.discard_used:
            state, evs = self._undo_take(state, seat, {})
            events += evs
        if state.phase == "draw":
            state, evs = self._draw(state, seat, {"source": "pile"})
            events += evs
        hand = state.hands[seat]
        if not hand:  # nothing drawn (empty piles) and nothing left: the turn just ends
            return self._end_turn(state, seat, events)
        letter = state.drawn if state.drawn in hand else max(hand, key=lambda c: (VALUES[c], c))
        state, evs = self._discard(state, seat, {"letter": letter})
        return state, events + evs

    def _end_turn(self, state: State, seat: int, events: list[Event]) -> tuple[State, list[Event]]:
        n = state.players
        turns = _set(state.turns, seat, state.turns[seat] + 1)
        new = replace(state, turns=turns, drawn=None, discard_taken=None, discard_used=False, undo_done=False,
                      laid=False, exchanged=False, turn_no=state.turn_no + 1)
        if state.variant == MAIN and not new.hands[seat] and new.out_seat is None:
            new = replace(new, out_seat=seat)
            events.append({"type": "went_out", "seat": seat, "last_lap": len(set(turns)) != 1})
        lap_done = len(set(turns)) == 1
        if state.variant == MAIN and lap_done and (new.out_seat is not None or turns[0] >= MAX_TURNS):
            return self._end_round_main(new, events)
        if state.variant == WHOLE and lap_done and turns[0] >= MAX_TURNS:
            return self._end_round_single(new, None, "", events)
        nxt = (seat + 1) % n
        events.append({"type": "turn", "seat": nxt})
        return replace(new, current=nxt, phase="draw"), events

    # --- main game ------------------------------------------------------------------
    def _check_play_phase(self, state: State) -> None:
        if state.phase != "play":
            raise RuleError("ludime.error.draw_first")

    def _play(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        self._check_play_phase(state)
        raw_words = action.get("words")
        if raw_words is None and isinstance(action.get("word"), str):
            raw_words = [action["word"]]
        if isinstance(raw_words, str):
            raw_words = raw_words.replace(",", " ").split()
        if not isinstance(raw_words, list) or not raw_words or not all(isinstance(w, str) for w in raw_words):
            raise RuleError("ludime.error.no_word")
        raw_words = [part for w in raw_words for part in w.replace(",", " ").split()]
        if not raw_words:
            raise RuleError("ludime.error.no_word")
        first = state.turns[seat] == 0
        if first:
            if state.exchanged:
                raise RuleError("ludime.error.exchanged_this_turn")
            if state.laid or len(raw_words) != 1:
                raise RuleError("ludime.error.first_word_single", min=FIRST_WORD_MIN)
        minimum = FIRST_WORD_MIN if first else WORD_MIN
        hand = Counter(state.hands[seat])
        words = []
        for raw in raw_words:
            word = _check_letters_only(raw)
            shown = _spelling(raw, word, action)
            label = shown or word
            if len(word) < minimum:
                if first:
                    raise RuleError("ludime.error.first_word_short", word=label, min=minimum)
                raise RuleError("ludime.error.too_short", word=label, min=minimum)
            missing = _missing(hand, word)
            if missing:
                raise RuleError("ludime.error.missing_letter", letter=missing, word=label)
            _check_lexicon(word, shown)
            words.append((word, shown))
        new_hand = _sorted(hand.elements())
        table = list(state.words)
        spellings = state.spellings
        events: list[Event] = []
        next_id = state.next_id
        for word, shown in words:
            table.append((next_id, word, seat))
            event: Event = {"type": "played", "seat": seat, "word": word, "value": word_value(word), "id": next_id}
            if shown:
                event["word_shown"] = shown
                spellings = _respelled(spellings, next_id, shown)
            events.append(event)
            next_id += 1
        used = "".join(w for w, _ in words)
        new = replace(state, hands=_set(state.hands, seat, new_hand), words=tuple(table), next_id=next_id,
                      laid=True, discard_used=state.discard_used or (state.discard_taken or "#") in used,
                      spellings=spellings)
        if new.first_word_turn[seat] < 0:
            new = replace(new, first_word_turn=_set(new.first_word_turn, seat, state.turns[seat]))
        return self._after_lay(new, seat, events)

    def _after_lay(self, state: State, seat: int, events: list[Event]) -> tuple[State, list[Event]]:
        """A lay-down that empties the hand ends the turn at once (nothing left to discard)."""
        if state.hands[seat]:
            return state, events
        return self._end_turn(state, seat, events)

    def _find_word(self, state: State, target: Any) -> tuple[int, str, int]:
        if isinstance(target, bool):
            target = None
        if isinstance(target, int):
            for w in state.words:
                if w[0] == target:
                    return w
        elif isinstance(target, str) and target.strip():
            text = normalize(target)
            if text.lstrip("#").isdigit():
                return self._find_word(state, int(text.lstrip("#")))
            for w in state.words:
                if w[1] == text:
                    return w
        raise RuleError("ludime.error.no_such_word", target="" if target is None else str(target))

    def _check_change(self, old: str, raw: str, action: Action,
                      old_shown: str | None = None) -> tuple[str, str, str | None]:
        """``new`` keeps every letter of ``old`` and adds at least one: returns (new, added letters,
        the spelling ``new`` is shown with or None)."""
        new = _check_letters_only(raw)
        shown = _spelling(raw, new, action)
        lost = Counter(old) - Counter(new)
        if lost:
            raise RuleError("ludime.error.must_keep_letters", word=shown or new, old=old_shown or old,
                            letter=sorted(lost)[0])
        added = "".join(sorted((Counter(new) - Counter(old)).elements()))
        if not added:
            raise RuleError("ludime.error.must_add_letter", word=shown or new, old=old_shown or old)
        return new, added, shown

    def _extend(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        self._check_play_phase(state)
        if state.turns[seat] == 0:
            raise RuleError("ludime.error.first_turn_extend", min=FIRST_WORD_MIN)
        wid, old, owner = self._find_word(state, action.get("target"))
        if owner != seat:
            if not any(o == seat for _, _, o in state.words):
                raise RuleError("ludime.error.take_needs_word", word=old)
            if state.first_word_turn[seat] >= state.turns[seat]:
                raise RuleError("ludime.error.take_too_early", word=old)
        old_shown = _shown_of(state, wid)
        new, added, shown = self._check_change(old, _word_arg(action), action, old_shown)
        missing = _missing(Counter(state.hands[seat]), added)
        if missing:
            raise RuleError("ludime.error.missing_letter", letter=missing, word=shown or new)
        _check_lexicon(new, shown)
        hand = Counter(state.hands[seat])
        hand.subtract(added)
        words = tuple((i, new, seat) if i == wid else (i, w, o) for i, w, o in state.words)
        new_state = replace(state, hands=_set(state.hands, seat, _sorted(hand.elements())), words=words,
                            laid=True, spellings=_respelled(state.spellings, wid, shown),
                            discard_used=state.discard_used or (state.discard_taken or "#") in added)
        event: Event = {"type": "lengthened" if owner == seat else "took", "seat": seat, "word": new,
                        "old": old, "added": added, "value": word_value(new), "id": wid}
        _tell_spellings(event, shown, old_shown)
        if owner != seat:
            event["from_seat"] = owner
        return self._after_lay(new_state, seat, [event])

    def _exchange(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        self._check_play_phase(state)
        if state.turns[seat] != 0:
            raise RuleError("ludime.error.exchange_first_turn_only")
        if state.laid:
            raise RuleError("ludime.error.exchange_after_word")
        if state.exchanged:
            raise RuleError("ludime.error.already_exchanged")
        raw = action.get("letters")
        if isinstance(raw, str):
            raw = [c for c in raw if not c.isspace() and c != ","]
        if not isinstance(raw, list) or not raw:
            raise RuleError("ludime.error.exchange_empty")
        letters = "".join(_letter_arg(c) for c in raw)
        hand = Counter(state.hands[seat])
        missing = _missing(hand, letters)
        if missing:
            raise RuleError("ludime.error.not_in_hand", letter=missing)
        pile = list(state.pile) + list(letters)
        derive_rng(state.seed, "exchange", state.round_no, state.turn_no).shuffle(pile)
        received = pile[-len(letters):]
        del pile[-len(letters):]
        hand.update(received)
        new = replace(state, hands=_set(state.hands, seat, _sorted(hand.elements())), pile=tuple(pile),
                      exchanged=True)
        return new, [{"type": "exchanged", "seat": seat, "count": len(letters)},
                     {"type": "exchanged_cards", "seat": seat, "returned": sorted(letters),
                      "received": sorted(received), "private_to": seat}]

    def _undo_take(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state.phase != "play" or not state.discard_taken or state.discard_used:
            raise RuleError("ludime.error.nothing_to_return")
        letter = state.discard_taken
        rest = list(state.hands[seat])
        rest.remove(letter)
        new = replace(state, hands=_set(state.hands, seat, tuple(rest)), discard=state.discard + (letter,),
                      phase="draw", discard_taken=None, undo_done=True)
        return new, [{"type": "returned", "seat": seat, "letter": letter}]

    def _end_round_main(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        n = state.players
        details = []
        shown: list[dict[str, str]] = [{} for _ in range(n)]  # card letters -> spelling, per seat
        for seat in range(n):
            owned = [w for _, w, o in state.words if o == seat]
            details.append(round_breakdown(owned, state.hands[seat]))
        for wid, w, o in state.words:
            spelling = _shown_of(state, wid)
            if spelling:
                shown[o].setdefault(w, spelling)
        points = [d["total"] for d in details]
        scores = tuple(s + p for s, p in zip(state.scores, points, strict=True))
        best, best_text = list(state.best), list(state.best_text)
        for seat, d in enumerate(details):
            for word, value in d["words"]:
                if value > best[seat] or (value == best[seat] and not best_text[seat]):
                    best[seat], best_text[seat] = value, shown[seat].get(word, word)
        summary = {"round": state.round_no, "points": points,
                   "words": [d["words"] for d in details], "penalties": [d["penalty"] for d in details],
                   "cards_left": [len(h) for h in state.hands], "stalled": state.out_seat is None}
        events.append({"type": "round_end", "round": state.round_no, "points": points, "scores": list(scores),
                       "penalties": summary["penalties"], "stalled": summary["stalled"]})
        new = replace(state, scores=scores, history=state.history + (tuple(points),), best=tuple(best),
                      best_text=tuple(best_text), last_round=summary)
        if state.round_no >= ROUNDS:
            return self._game_over(new, events)
        new, evs = self._start_round(new, state.round_no + 1, (state.dealer + 1) % n)
        return new, events + evs

    def _game_over(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        new = replace(state, finished=True, phase="over")
        events.append({"type": "game_over", "winners": self.result(new).winners, "scores": list(new.scores)})
        return new, events

    # --- variant 2: one word on the table -------------------------------------------
    def _table_word(self, state: State) -> str:
        return state.words[0][1] if state.words else ""

    def _open(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state.phase != "open":
            raise RuleError("ludime.error.one_word_only", word=self._table_word(state))
        raw_words = action.get("words")
        if raw_words is None:
            raw_words = [action.get("word")]
        if isinstance(raw_words, str):
            raw_words = [raw_words]
        if not isinstance(raw_words, list) or not raw_words or not all(isinstance(w, str) for w in raw_words) \
                or not raw_words[0].strip():
            raise RuleError("ludime.error.no_word")
        if len(raw_words) != 1:
            raise RuleError("ludime.error.opening_single", length=SINGLE_OPENING)
        word = _check_letters_only(raw_words[0])
        shown = _spelling(raw_words[0], word, action)
        if len(word) != SINGLE_OPENING:
            raise RuleError("ludime.error.opening_length", word=shown or word, length=SINGLE_OPENING)
        hand = Counter(state.hands[seat])
        missing = _missing(hand, word)
        if missing:
            raise RuleError("ludime.error.missing_letter", letter=missing, word=shown or word)
        _check_lexicon(word, shown)
        new = replace(state, hands=_set(state.hands, seat, _sorted(hand.elements())), words=((1, word, seat),),
                      next_id=2, last_modifier=seat, phase="add", passes=0, spellings=_respelled((), 1, shown))
        event: Event = {"type": "opened", "seat": seat, "word": word, "value": word_value(word)}
        _tell_spellings(event, shown)
        return self._next_single(new, seat, [event])

    def _add(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state.phase != "add":
            raise RuleError("ludime.error.no_word_yet")
        old = self._table_word(state)
        old_shown = _shown_of(state, 1)
        new, added, shown = self._check_change(old, _word_arg(action), action, old_shown)
        if len(added) != 1:
            raise RuleError("ludime.error.must_add_one", word=shown or new, old=old_shown or old)
        if added not in state.hands[seat]:
            raise RuleError("ludime.error.missing_letter", letter=added, word=shown or new)
        _check_lexicon(new, shown)
        rest = list(state.hands[seat])
        rest.remove(added)
        st = replace(state, hands=_set(state.hands, seat, tuple(rest)), words=((1, new, seat),),
                     last_modifier=seat, added=state.added + 1, spellings=_respelled((), 1, shown))
        event: Event = {"type": "added", "seat": seat, "word": new, "old": old, "letter": added,
                        "value": word_value(new)}
        _tell_spellings(event, shown, old_shown)
        events: list[Event] = [event]
        if not rest:
            events.append({"type": "passed", "seat": seat})
            return self._next_single(st, seat, events)
        return st, events

    def _pass(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state.phase == "open":
            passes = state.passes + 1
            events: list[Event] = [{"type": "opening_passed", "seat": seat}]
            st = replace(state, passes=passes, turn_no=state.turn_no + 1)
            if passes >= state.players:
                return self._end_round_single(st, None, "", events)
            nxt = (seat + 1) % state.players
            events.append({"type": "turn", "seat": nxt})
            return replace(st, current=nxt), events
        if state.added:
            return self._next_single(state, seat, [{"type": "passed", "seat": seat}])
        st = replace(state, abandoned=_set(state.abandoned, seat, True))
        return self._next_single(st, seat, [{"type": "abandoned", "seat": seat}])

    def _next_single(self, state: State, seat: int, events: list[Event]) -> tuple[State, list[Event]]:
        """Pass the turn to the next seat still in the round; end the round when nobody is."""
        n = state.players
        abandoned = list(state.abandoned)
        state = replace(state, added=0, turn_no=state.turn_no + 1)
        for k in range(1, n + 1):
            nxt = (seat + k) % n
            if abandoned[nxt]:
                continue
            if not state.hands[nxt]:  # no card left: cannot add anything
                abandoned[nxt] = True
                events.append({"type": "abandoned", "seat": nxt})
                continue
            events.append({"type": "turn", "seat": nxt})
            return replace(state, current=nxt, abandoned=tuple(abandoned)), events
        state = replace(state, abandoned=tuple(abandoned))
        return self._end_round_single(state, state.last_modifier, self._table_word(state), events)

    # --- variant 3: one hand, one word ----------------------------------------------
    def _declare(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        raw = _word_arg(action)
        word = _check_letters_only(raw)
        shown = _spelling(raw, word, action)
        if len(word) != state.hand_size:
            raise RuleError("ludime.error.declare_length", word=shown or word, length=state.hand_size)
        hand = Counter(state.hands[seat])
        missing = _missing(hand, word)
        if missing:
            raise RuleError("ludime.error.missing_letter", letter=missing, word=shown or word)
        _check_lexicon(word, shown)
        events: list[Event] = []
        discard = state.discard
        left = _sorted(hand.elements())
        if left:  # after drawing: the card left over goes to the discard
            discard = discard + left
            events.append({"type": "discarded", "seat": seat, "letter": left[0]})
        st = replace(state, hands=_set(state.hands, seat, ()), discard=discard,
                     words=((1, word, seat),), next_id=2, spellings=_respelled((), 1, shown))
        event: Event = {"type": "declared", "seat": seat, "word": word, "value": word_value(word)}
        _tell_spellings(event, shown)
        events.append(event)
        return self._end_round_single(st, seat, word, events)

    # --- variants 2 and 3: one scorer per round, first to 100 ------------------------
    def _end_round_single(self, state: State, scorer: int | None, word: str,
                          events: list[Event]) -> tuple[State, list[Event]]:
        n = state.players
        value = word_value(word) if scorer is not None else 0
        shown = _shown_of(state, 1) if scorer is not None and word else None
        points = [0] * n
        best, best_text = list(state.best), list(state.best_text)
        if scorer is not None:
            points[scorer] = value
            if value > best[scorer]:
                best[scorer], best_text[scorer] = value, shown or word
        scores = tuple(s + p for s, p in zip(state.scores, points, strict=True))
        summary = {"round": state.round_no, "points": points, "scorer": scorer,
                   "word": word if scorer is not None else "", "value": value}
        if shown:
            summary["shown"] = shown
        if scorer is None:
            events.append({"type": "round_void", "round": state.round_no})
        else:
            scored: Event = {"type": "scored", "seat": scorer, "word": word, "value": value, "score": scores[scorer]}
            _tell_spellings(scored, shown)
            events.append(scored)
        events.append({"type": "round_end", "round": state.round_no, "points": points, "scores": list(scores)})
        new = replace(state, scores=scores, history=state.history + (tuple(points),), best=tuple(best),
                      best_text=tuple(best_text), last_round=summary)
        if max(scores) >= TARGET or state.round_no >= MAX_ROUNDS:
            return self._game_over(new, events)
        new, evs = self._start_round(new, state.round_no + 1, (state.dealer + 1) % n)
        return new, events + evs

    # --- information ----------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> View:
        n = state.players
        own = seat is not None and 0 <= seat < n
        mine = own and state.current == seat and not state.finished
        may_take = False
        if own and state.variant == MAIN:
            owns = any(o == seat for _, _, o in state.words)
            may_take = owns and 0 <= state.first_word_turn[seat] < state.turns[seat]
        return {
            "game": self.name,
            "variant": state.variant,
            "players": n,
            "seat": seat if own else None,
            "round": state.round_no,
            "rounds": ROUNDS if state.variant == MAIN else None,
            "target": TARGET if state.variant != MAIN else None,
            "dealer": state.dealer,
            "current": None if state.finished else state.current,
            "phase": state.phase,
            "hand": list(state.hands[seat]) if own else None,
            "hand_counts": [len(h) for h in state.hands],
            "words": [{"id": i, "word": w, "shown": _shown_of(state, i) or w, "owner": o, "value": word_value(w)}
                      for i, w, o in state.words],
            "discard_top": state.discard[-1] if state.discard else None,
            "discard_count": len(state.discard),
            "pile_count": len(state.pile),
            "scores": list(state.scores),
            "history": [list(h) for h in state.history],
            "best_word": list(state.best),
            "turns": list(state.turns),
            "first_turn": state.variant == MAIN and state.turns[state.current] == 0,
            "drawn": state.drawn if mine else None,
            "discard_taken": state.discard_taken,
            "must_use": bool(state.discard_taken and not state.discard_used),
            "exchanged": state.exchanged,
            "laid": state.laid,
            "can_take": may_take,
            "out_seat": state.out_seat,
            "abandoned": list(state.abandoned) if state.variant == SINGLE else None,
            "last_modifier": state.last_modifier,
            "letters_added": state.added if state.variant == SINGLE else 0,
            "hand_size": state.hand_size,
            "die": state.die if state.variant == WHOLE else None,
            "values": dict(VALUES),
            "last_round": json.loads(json.dumps(state.last_round)) if state.last_round else None,
            "finished": state.finished,
            "winners": self.result(state).winners if state.finished else None,
        }

    def is_over(self, state: State) -> bool:
        return state.finished

    def result(self, state: State) -> Result | None:
        if not state.finished:
            return None
        keys = [(state.scores[s], state.best[s]) for s in range(state.players)]
        return Result(scores=list(state.scores), ranks=rank_by(keys),
                      details={"rounds": [list(h) for h in state.history], "best_word": list(state.best),
                               "best_word_text": list(state.best_text)})

    # --- persistence ----------------------------------------------------------------
    def to_dict(self, state: State) -> dict[str, Any]:
        d = json.loads(json.dumps(asdict(state)))
        if not d["spellings"]:  # a state without spellings stores as before they existed (old logs replay equal)
            del d["spellings"]
        return stamp_schema(d, self.SCHEMA)

    def from_dict(self, data: dict[str, Any]) -> State:
        d = unstamp_schema(self.name, data, self.SCHEMA)
        nested = {"hands", "words", "history", "spellings"}
        for f in fields(State):
            value = d.get(f.name)
            if isinstance(value, list):
                d[f.name] = tuple(tuple(v) for v in value) if f.name in nested else tuple(value)
        d["last_round"] = dict(d.get("last_round") or {})
        return State(**d)

    # --- AI and defaults ------------------------------------------------------------

    def takeback_refusal(self, before: State, seat: int, action: Action, after: State,
                         events: list[Event]) -> str | None:
        """Why this move can never be taken back (a catalog key), or None (docs/rules, "Takebacks")."""
        if self.is_over(after):
            return "undo.reason.game_over"
        return refusal_from_events(events, TAKEBACK_REVEALING)

    def default_action(self, state: State, seat: int) -> Action:
        """Timeout: ``skip`` (draw from the pile, discard the card drawn); variant 2: ``pass``."""
        return {"type": "pass"} if state.variant == SINGLE else {"type": "skip"}

    def ai_action(self, state: State, seat: int, level: int = 1) -> Action:
        """An always legal move: lengthen a word of the table when it can, else lay the best-scoring
        word its hand allows (an exhaustive search of the lexicon: at most 0.2 s of CPU for 16 letters),
        else draw/discard."""
        if state.variant == SINGLE:
            return self._ai_single(state, seat)
        if state.variant == WHOLE:
            return self._ai_whole(state, seat)
        return self._ai_main(state, seat, level)

    @staticmethod
    def _throw_away(hand: tuple[str, ...], keep: str | None = None) -> str:
        """The card to discard: the rarest letter (hardest to place)."""
        for c in RARITY:
            if c in hand and c != keep:
                return c
        return hand[0]

    @staticmethod
    def best_word(letters: tuple[str, ...], min_len: int, required: str = "") -> str | None:
        """The word of the lexicon spelt with some of ``letters`` (using ``required``) that scores the
        most (then the longest, then the first in the alphabet): every word is looked at."""
        found = find_words(letters, min_len, required=required, max_nodes=EXHAUSTIVE)
        return max(found, key=lambda w: (word_value(w), len(w), [-ord(c) for c in w]), default=None)

    def _extension(self, state: State, seat: int, hand: tuple[str, ...], nodes: int) -> Action | None:
        letters = sorted(set(hand))
        may_take = (any(o == seat for _, _, o in state.words)
                    and 0 <= state.first_word_turn[seat] < state.turns[seat])
        targets = [w for w in state.words if w[2] == seat or may_take]
        targets.sort(key=lambda w: -word_value(w[1]))
        for wid, word, _ in targets[:4]:
            for c in letters:
                found = find_words(word + c, len(word) + 1, len(word) + 1, max_nodes=nodes)
                if found:
                    return {"type": "extend", "target": wid, "word": found[0]}
        return None

    def _ai_main(self, state: State, seat: int, level: int) -> Action:
        hand = state.hands[seat]
        first = state.turns[seat] == 0
        if state.phase == "draw":
            top = state.discard[-1] if state.discard else None
            if top and self._may_take_discard(state, seat) and level >= 1:
                if find_words(hand + (top,), WORD_MIN, required=top, max_nodes=1500):
                    return {"type": "draw", "source": "discard"}
            return {"type": "draw", "source": "pile"}
        if state.discard_taken and not state.discard_used:
            best = self.best_word(hand, WORD_MIN, required=state.discard_taken)
            if best:
                return {"type": "play", "words": [best]}
            return {"type": "undo_take"}
        if first:
            if not state.laid and not state.exchanged:
                best = self.best_word(hand, FIRST_WORD_MIN)
                if best:
                    return {"type": "play", "words": [best]}
                rare = [c for c in hand if DECK_COUNTS[c] <= 2]
                if rare:
                    return {"type": "exchange", "letters": rare}
            return {"type": "discard", "letter": self._throw_away(hand)}
        ext = self._extension(state, seat, hand, 300)
        if ext:
            return ext
        best = self.best_word(hand, WORD_MIN)
        if best:
            return {"type": "play", "words": [best]}
        return {"type": "discard", "letter": self._throw_away(hand)}

    def _ai_single(self, state: State, seat: int) -> Action:
        hand = state.hands[seat]
        if state.phase == "open":
            found = find_words(hand, SINGLE_OPENING, SINGLE_OPENING, max_nodes=3000)
            return {"type": "play", "words": [found[0]]} if found else {"type": "pass"}
        old = self._table_word(state)
        for c in sorted(set(hand)):
            found = find_words(old + c, len(old) + 1, len(old) + 1, max_nodes=400)
            if found:
                return {"type": "add", "word": found[0]}
        return {"type": "pass"}

    def _ai_whole(self, state: State, seat: int) -> Action:
        hand = state.hands[seat]
        size = state.hand_size
        if state.phase == "draw":
            found = find_words(hand, size, size, max_nodes=1500)
            if found:
                return {"type": "declare", "word": found[0]}
            top = state.discard[-1] if state.discard else None
            if top and find_words(hand + (top,), size, size, required=top, max_nodes=1500):
                return {"type": "draw", "source": "discard"}
            return {"type": "draw", "source": "pile"}
        found = find_words(hand, size, size, max_nodes=2500)
        if found:
            return {"type": "declare", "word": found[0]}
        return {"type": "discard", "letter": self._throw_away(hand, keep=state.drawn)}


ENGINE = LudimeEngine()


__all__ = ["ENGINE", "EVENT_TYPES", "LudimeEngine", "State", "VARIANTS", "hand_penalty"]
