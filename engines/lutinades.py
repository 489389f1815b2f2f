"""Lutinades — a family bluffing card game (Seria Ludis, 2016 print-and-play).

Rules: ../shared/rules/lutinades.md and docs/rules/lutinades.md. Each turn one
player is the *cueilleur* (picker): the top card of the deck is turned up so
that only the *lutins* (every other player) see its signpost. Each lutin
secretly makes a gesture (up, down, horizontal, small — true or not); once all
have chosen, the gestures are shown, the picker follows one lutin and the card
is revealed:

* every lutin made the same gesture: the picker takes the big number;
* the followed lutin's gesture matches the card: picker big, lutin small;
* it does not: the lutin takes the small number, the picker nothing.

Mushrooms are cards drawn from the deck (picker first when it runs short). The
deck passes on; the game ends when the deck is empty.

Hidden information: the turned-up card (and the deck order) never leaves the
engine towards the picker or a spectator before the reveal — ``view`` only gives
it to the lutins, and no event, error or legal-action list depends on it. The
gestures are hidden from everyone (other lutins and the picker) until every
lutin has chosen.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from dataclasses import asdict, dataclass, replace
from functools import lru_cache
from pathlib import Path
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
    stamp_schema,
    unstamp_schema,
)

DECK_FILE = Path(__file__).resolve().parent.parent / "data" / "lutinades" / "deck.json"

KINDS = ("up", "down", "horizontal", "small")
SIDES = ("left", "right")
STANDARD, MALINS, EN_GRAND = "standard", "lutins-malins", "en-grand"
VARIANTS = (STANDARD, MALINS, EN_GRAND)
FORBIDDEN_IN_EN_GRAND = "small"

GESTURES, CHOICE, OVER = "gestures", "choice", "over"
#: every event type the engine emits (each has a ``lutinades.event.<type>`` narration)
EVENT_TYPES = ("turn", "gesture_chosen", "gestures_revealed", "ignored", "reshuffled", "choose", "followed",
               "revealed", "gained", "game_over")
#: outcomes of a turn (the three scoring cases, plus the lutins-malins wrong side)
UNANIMOUS, MATCH, MISMATCH, WRONG_SIDE = "unanimous", "match", "mismatch", "wrong_side"


@dataclass(frozen=True)
class Card:
    id: int
    kind: str  # up | down | horizontal | small
    side: str  # left | right: where the signpost points, as printed on the card
    big: int
    small: int


@lru_cache(maxsize=1)
def deck() -> tuple[Card, ...]:
    """The 48 cards from data/lutinades/deck.json (ids are positions)."""
    with DECK_FILE.open(encoding="utf-8") as fh:
        raw = json.load(fh)
    cards = tuple(Card(id=c["id"], kind=c["kind"], side=c["side"], big=c["big"], small=c["small"])
                  for c in raw["cards"])
    for i, c in enumerate(cards):
        if c.id != i or c.kind not in KINDS or c.side not in SIDES or not c.big > c.small >= 1:
            raise ValueError(f"bad Lutinades card {c}")
    return cards


def mirror(side: str | None) -> str | None:
    """The same side seen from the other end of the table (left <-> right)."""
    if side is None:
        return None
    return "right" if side == "left" else "left"


def judge(card: Card, gesture: tuple[str, str | None], variant: str) -> str:
    """Outcome of following a lutin who made ``gesture`` (kind, side) on ``card``.

    In "lutins malins" ``side`` is the lutin's own left/right (the arm they point
    with, facing the picker); it is correct when it is the *mirror* of the side
    printed on the card (so the picker sees it pointing the card's way). A wrong
    side always gives the picker the big number, whatever the kind.
    """
    kind, side = gesture
    if variant == MALINS and side != mirror(card.side):
        return WRONG_SIDE
    return MATCH if kind == card.kind else MISMATCH


def gains(card: Card, outcome: str) -> tuple[int, int]:
    """(picker, followed lutin) mushrooms wanted for ``outcome``."""
    if outcome == UNANIMOUS:
        return card.big, 0
    if outcome == MATCH:
        return card.big, card.small
    if outcome == MISMATCH:
        return 0, card.small
    if outcome == WRONG_SIDE:
        return card.big, 0
    raise ValueError(outcome)


def card_dict(card: Card, variant: str) -> dict[str, Any]:
    """The JSON view of a card (what ``render.lutinades.render_card`` draws)."""
    return {"id": card.id, "kind": card.kind, "side": card.side, "big": card.big, "small": card.small,
            "malins": variant == MALINS}


Gesture = tuple[str, str | None]


@dataclass(frozen=True)
class State:
    seed: int
    players: int
    variant: str
    deck: tuple[int, ...]  # card ids, top first (hidden from everyone)
    card: int | None  # the turned-up card: lutins only, until the reveal
    picker: int
    turn: int = 1
    phase: str = GESTURES
    gestures: tuple[Gesture | None, ...] = ()  # per seat; None = picker / not chosen yet
    ignored: tuple[int, ...] = ()  # en-grand: lutins who used "small" this turn (once public)
    mushrooms: tuple[tuple[int, ...], ...] = ()  # per seat, card ids won, in order
    discard: tuple[int, ...] = ()  # revealed cards, in order (public)
    last_turn: dict[str, Any] | None = None  # public summary of the previous turn
    history: tuple[dict[str, Any], ...] = ()  # every turn summary (for result details)
    out: tuple[int, ...] = ()  # seats the other players voted out (neither picker nor lutin any more)


class LutinadesEngine:
    name = "lutinades"
    min_players = 3
    max_players = 7
    has_ai = True
    ai_levels = (1, 2)  # the AI levels a lobby may ask for
    #: no move of this game is ever taken back (its rules, "Takebacks"): why, before anything else
    takeback_never = "undo.reason.lutinades"
    simultaneous = True
    SCHEMA = 1
    options = (Option("variante", STANDARD, choices=VARIANTS),)

    # --- setup -----------------------------------------------------------------
    def new_game(self, players: int, options: dict[str, Any] | None, seed: int) -> State:
        opts = check_new_game(self, players, options)
        order = list(range(len(deck())))
        derive_rng(seed, "deck").shuffle(order)
        state = State(seed=seed, players=players, variant=opts["variante"], deck=tuple(order), card=None,
                      picker=0, turn=0, mushrooms=((),) * players, gestures=(None,) * players)
        return self._start_turn(state, 0)

    def _start_turn(self, state: State, picker: int) -> State:
        return replace(state, card=state.deck[0], deck=state.deck[1:], picker=picker,
                       turn=state.turn + 1, phase=GESTURES, gestures=(None,) * state.players, ignored=())

    # --- turn structure --------------------------------------------------------
    def lutins(self, state: State) -> list[int]:
        return [s for s in range(state.players) if s != state.picker and s not in state.out]

    @staticmethod
    def _next_picker(state: State, picker: int) -> int:
        """The next seat in turn order still in the game."""
        for step in range(1, state.players + 1):
            nxt = (picker + step) % state.players
            if nxt not in state.out:
                return nxt
        return picker

    def expected(self, state: State) -> set[int]:
        if state.phase == GESTURES:
            return {s for s in self.lutins(state) if state.gestures[s] is None}
        if state.phase == CHOICE:
            return {state.picker}
        return set()

    def allowed_kinds(self, state: State) -> tuple[str, ...]:
        """Gestures that are not forbidden by the variant (what AI and timeouts use)."""
        if state.variant == EN_GRAND:
            return tuple(k for k in KINDS if k != FORBIDDEN_IN_EN_GRAND)
        return KINDS

    def followable(self, state: State) -> list[int]:
        return [s for s in self.lutins(state) if s not in state.ignored]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Gestures of a lutin who has not chosen yet; follows of the picker in the choice phase.

        In "en-grand" the forbidden ``small`` gesture is listed too: it is accepted
        and penalised (the lutin is ignored and returns a mushroom), not refused.
        """
        if state.phase == GESTURES and seat != state.picker and 0 <= seat < state.players \
                and seat not in state.out and state.gestures[seat] is None:
            sides: tuple[str | None, ...] = SIDES if state.variant == MALINS else (None,)
            return [{"type": "gesture", "gesture": k, "side": s} for k in KINDS for s in sides]
        if state.phase == CHOICE and seat == state.picker:
            return [{"type": "follow", "lutin": s} for s in self.followable(state)]
        return []

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state.phase == OVER:
            raise RuleError("common.error.game_over")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
            raise RuleError("common.error.not_your_turn")
        kind = action.get("type") if isinstance(action, dict) else None
        turn = action.get("turn") if isinstance(action, dict) else None
        if seat in state.out:
            raise RuleError("lutinades.error.removed")
        if turn is not None and turn != state.turn:  # a button drawn for another turn (stale)
            raise RuleError("lutinades.error.stale_turn", turn=str(turn), current=state.turn)
        if kind == "gesture":
            return self._gesture(state, seat, action)
        if kind == "follow":
            return self._follow(state, seat, action)
        raise RuleError("common.error.unknown_action", action=str(kind))

    def _gesture(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if seat == state.picker:
            raise RuleError("lutinades.error.picker_cannot_gesture")
        if state.phase != GESTURES:
            raise RuleError("lutinades.error.gestures_closed")
        if state.gestures[seat] is not None:
            raise RuleError("lutinades.error.already_chosen")
        gesture = action.get("gesture")
        if gesture not in KINDS:
            raise RuleError("lutinades.error.unknown_gesture", gesture=str(gesture),
                            allowed=", ".join(KINDS))
        side = action.get("side")
        if state.variant == MALINS:
            if side is None:
                raise RuleError("lutinades.error.side_required")
            if side not in SIDES:
                raise RuleError("lutinades.error.bad_side", side=str(side), allowed=", ".join(SIDES))
        elif side is not None:
            raise RuleError("lutinades.error.no_side")
        gestures = list(state.gestures)
        gestures[seat] = (gesture, side)
        new = replace(state, gestures=tuple(gestures))
        waiting = len(self.expected(new))
        events: list[Event] = [{"type": "gesture_chosen", "seat": seat, "waiting": waiting}]
        if waiting:
            return new, events
        return self._reveal_gestures(new, events)

    def _reveal_gestures(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        lutins = self.lutins(state)
        penalties: list[Event] = []
        if state.variant == EN_GRAND:
            state = self._penalise(state, penalties)
        events.append({"type": "gestures_revealed", "count": len(lutins),
                       "gestures": [self._public_gesture(state, s) for s in lutins]})
        events.extend(penalties)
        considered = self.followable(state)
        everyone = {state.gestures[s] for s in lutins}
        chosen = {state.gestures[s] for s in considered}
        if len(everyone) == 1 or (len(considered) >= 2 and len(chosen) == 1):
            return self._resolve(state, None, UNANIMOUS, events)
        if len(considered) == 1:
            (lutin,) = considered
            events.append({"type": "followed", "picker": state.picker, "lutin": lutin, "auto": True})
            return self._resolve(state, lutin, None, events)
        new = replace(state, phase=CHOICE)
        events.append({"type": "choose", "picker": state.picker, "lutins": considered})
        return new, events

    def _penalise(self, state: State, events: list[Event]) -> State:
        """En grand: lutins who used the small gesture are ignored and return a mushroom."""
        ignored = tuple(s for s in self.lutins(state) if state.gestures[s][0] == FORBIDDEN_IN_EN_GRAND)
        if not ignored:
            return state
        mushrooms = [list(m) for m in state.mushrooms]
        pile = list(state.deck)
        returned_any = False
        for s in ignored:
            returned = 0
            if mushrooms[s]:
                pile.append(mushrooms[s].pop())  # the most recently won mushroom
                returned = 1
                returned_any = True
            events.append({"type": "ignored", "seat": s, "returned": returned, "mushrooms": len(mushrooms[s])})
        if returned_any:
            derive_rng(state.seed, "reshuffle", state.turn).shuffle(pile)
            events.append({"type": "reshuffled", "deck": len(pile)})
        return replace(state, ignored=ignored, deck=tuple(pile),
                       mushrooms=tuple(tuple(m) for m in mushrooms))

    def _follow(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if seat != state.picker:
            raise RuleError("lutinades.error.not_picker")
        if state.phase != CHOICE:
            raise RuleError("lutinades.error.gestures_pending", missing=len(self.expected(state)))
        lutin = action.get("lutin")
        if not isinstance(lutin, int) or isinstance(lutin, bool) or not 0 <= lutin < state.players:
            raise RuleError("lutinades.error.not_a_lutin", lutin=str(lutin))
        if lutin == state.picker:
            raise RuleError("lutinades.error.follow_self")
        if lutin in state.ignored:
            raise RuleError("lutinades.error.follow_ignored", lutin=lutin)
        events: list[Event] = [{"type": "followed", "picker": state.picker, "lutin": lutin, "auto": False}]
        return self._resolve(state, lutin, None, events)

    def _resolve(self, state: State, lutin: int | None, outcome: str | None,
                 events: list[Event]) -> tuple[State, list[Event]]:
        """Reveal the card, score the turn, discard the card and pass the deck on."""
        card = deck()[state.card]
        if outcome is None:
            outcome = judge(card, state.gestures[lutin], state.variant)
        want_picker, want_lutin = gains(card, outcome)
        pile = list(state.deck)
        mushrooms = [list(m) for m in state.mushrooms]
        got_picker = pile[:want_picker]  # the picker serves first when the deck runs short
        del pile[:want_picker]
        mushrooms[state.picker].extend(got_picker)
        got_lutin: list[int] = []
        if lutin is not None:
            got_lutin = pile[:want_lutin]
            del pile[:want_lutin]
            mushrooms[lutin].extend(got_lutin)
        turn_gains = [0] * state.players
        turn_gains[state.picker] = len(got_picker)
        if lutin is not None:
            turn_gains[lutin] = len(got_lutin)
        summary = {
            "turn": state.turn, "picker": state.picker, "card": card_dict(card, state.variant),
            "gestures": [self._public_gesture(state, s) for s in range(state.players)],
            "ignored": list(state.ignored), "followed": lutin, "outcome": outcome,
            "gains": turn_gains, "wanted": {"picker": want_picker, "lutin": want_lutin if lutin is not None else 0},
        }
        events.append({"type": "revealed", "picker": state.picker, "lutin": lutin, "outcome": outcome,
                       "card": card_dict(card, state.variant), "big": card.big, "small": card.small})
        events.append({"type": "gained", "seat": state.picker, "count": len(got_picker), "wanted": want_picker,
                       "total": len(mushrooms[state.picker])})
        if lutin is not None:
            events.append({"type": "gained", "seat": lutin, "count": len(got_lutin), "wanted": want_lutin,
                           "total": len(mushrooms[lutin])})
        new = replace(state, deck=tuple(pile), card=None, discard=state.discard + (card.id,),
                      mushrooms=tuple(tuple(m) for m in mushrooms), last_turn=summary,
                      history=state.history + (summary,))
        return self._next_turn(new, state.picker, events)

    def _next_turn(self, new: State, picker: int, events: list[Event]) -> tuple[State, list[Event]]:
        """After a turn: the game ends when fewer than 2 cards are left, else the next picker starts."""
        if len(new.deck) < 2:  # empty (a lone card could pay nobody once turned up)
            new = replace(new, phase=OVER, gestures=(None,) * new.players, ignored=())
            res = self.result(new)
            events.append({"type": "game_over", "winners": res.winners, "scores": res.scores})
            return new, events
        new = self._start_turn(new, self._next_picker(new, picker))
        events.append({"type": "turn", "turn": new.turn, "picker": new.picker, "deck": len(new.deck)})
        return new, events

    # --- a stalled player voted out (issue 15) ----------------------------------
    def remove_seat(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """The other players voted ``seat`` out: it is neither picker nor lutin any more, keeps its
        mushrooms and is ranked after every player still in. Refused when fewer than 3 players would
        be left (the rules' minimum; ``lutinades.error.too_few_left``): the game then ends instead.

        * a lutin: their gesture (if any) is dropped; if every other lutin has chosen, the gestures
          are revealed; in the choice phase the picker chooses among the others (followed
          automatically when one is left, unanimous when none is);
        * the picker: the turn is abandoned — its card, already seen by the lutins, is discarded
          unscored (shown in the event) — and the next seat still in picks a new card.
        """
        if state.phase == OVER:
            raise RuleError("common.error.game_over")
        if not 0 <= seat < state.players or seat in state.out:
            raise RuleError("common.error.not_a_player", game="-")
        if state.players - len(state.out) - 1 < self.min_players:
            raise RuleError("lutinades.error.too_few_left", min=self.min_players)
        gestures = list(state.gestures)
        gestures[seat] = None
        new = replace(state, out=tuple(sorted((*state.out, seat))), gestures=tuple(gestures))
        events: list[Event] = [{"type": "seat_removed", "seat": seat}]
        if seat == state.picker:
            card = deck()[state.card]
            events.append({"type": "turn_abandoned", "turn": state.turn, "card": card_dict(card, state.variant),
                           "big": card.big, "small": card.small})
            new = replace(new, card=None, discard=state.discard + (card.id,))
            return self._next_turn(new, seat, events)
        if state.phase == GESTURES:
            if self.expected(new):
                return new, events
            return self._reveal_gestures(new, events)
        considered = self.followable(new)
        if len(considered) >= 2:
            events.append({"type": "choose", "picker": new.picker, "lutins": considered})
            return new, events
        if len(considered) == 1:
            events.append({"type": "followed", "picker": new.picker, "lutin": considered[0], "auto": True})
            return self._resolve(new, considered[0], None, events)
        return self._resolve(new, None, UNANIMOUS, events)

    @staticmethod
    def _public_gesture(state: State, seat: int) -> dict[str, Any] | None:
        g = state.gestures[seat]
        if g is None:
            return None
        return {"seat": seat, "gesture": g[0], "side": g[1], "side_for_picker": mirror(g[1]),
                "ignored": seat in state.ignored}

    # --- information -----------------------------------------------------------
    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` may see (None = spectator).

        ``card`` is the turned-up card for a lutin, and None for the picker and for
        spectators; ``gestures`` is None until every lutin has chosen (a lutin
        sees their own in ``my_gesture``); ``last_turn`` is the public summary of
        the previous turn, card included. Nothing else depends on the hidden card.
        """
        seated = seat is not None and 0 <= seat < state.players and seat not in state.out
        is_lutin = seated and seat != state.picker
        over = state.phase == OVER
        role = None if not seated else ("picker" if seat == state.picker else "lutin")
        public_gestures = state.phase == CHOICE
        my = None
        if is_lutin and not over and state.gestures[seat] is not None:
            my = self._public_gesture(state, seat)
        return {
            "game": self.name,
            "players": state.players,
            "seat": seat,
            "variant": state.variant,
            "small_forbidden": state.variant == EN_GRAND,
            "turn": state.turn,
            "phase": state.phase,
            "finished": over,
            "picker": None if over else state.picker,
            "role": None if over else role,
            "deck": len(state.deck),
            "discard": len(state.discard),
            "revealed_kinds": {k: sum(1 for c in state.discard if deck()[c].kind == k) for k in KINDS},
            "mushrooms": [len(m) for m in state.mushrooms],
            "chosen": [] if over or state.phase != GESTURES else
            [s for s in self.lutins(state) if state.gestures[s] is not None],
            "waiting": sorted(self.expected(state)),
            "card": card_dict(deck()[state.card], state.variant) if is_lutin and not over else None,
            "my_gesture": my,
            "gestures": [self._public_gesture(state, s) for s in range(state.players)] if public_gestures else None,
            "ignored": list(state.ignored) if public_gestures else [],
            "followable": self.followable(state) if state.phase == CHOICE else [],
            "last_turn": state.last_turn,
        }

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def result(self, state: State) -> Result | None:
        if state.phase != OVER:
            return None
        scores = [len(m) for m in state.mushrooms]
        # a seat voted out ranks after every player still in (then by mushrooms)
        keys = [(seat not in state.out, s) for seat, s in enumerate(scores)]
        return Result(scores=list(scores), ranks=rank_by(keys),
                      details={"turns": len(state.history), "deck_left": len(state.deck),
                               "history": [dict(h) for h in state.history]})

    # --- persistence -----------------------------------------------------------
    def to_dict(self, state: State) -> dict[str, Any]:
        d = asdict(state)
        d["gestures"] = [None if g is None else list(g) for g in state.gestures]
        if not d["out"]:  # the stored form of a game nobody left stays what it was
            del d["out"]
        return stamp_schema(json.loads(json.dumps(d)), self.SCHEMA)  # plain lists/dicts only

    def from_dict(self, data: dict[str, Any]) -> State:
        d = unstamp_schema(self.name, data, self.SCHEMA)
        d["deck"] = tuple(d["deck"])
        d["gestures"] = tuple(None if g is None else (g[0], g[1]) for g in d["gestures"])
        d["ignored"] = tuple(d["ignored"])
        d["mushrooms"] = tuple(tuple(m) for m in d["mushrooms"])
        d["discard"] = tuple(d["discard"])
        d["history"] = tuple(d["history"])
        d["out"] = tuple(d.get("out", ()))
        return State(**d)

    # --- AI and defaults -------------------------------------------------------
    def ai_action(self, state: State, seat: int, level: int = 1) -> Action:
        """A lutin bluffs; the picker guesses from the public gestures only.

        Level 1 — lutin: shows the correct side (lutins malins) and tells the truth with
        probability 0.35, otherwise a random other allowed kind; picker: follows the lutin whose
        gesture most others share.

        Level 2 (standard and en grand) plays each turn for the most mushrooms against its rivals,
        each rival's counted by ``rival_weights`` (the closer to the lead, the more): as a lutin
        (``level_2_gesture``) it weighs every gesture against what level-1 lutins and a level-1 picker
        would do with the card it sees (``best_gesture``: nearly always a bluff), but tells the truth
        now and then, the more often the less this turn's picker has believed its gestures so far
        this game (``truth_chance``), so that a picker who learns it bluffs and ignores it pays for
        it; as the picker (``best_follow``) it weighs each lutin by the
        chance its gesture is true, from the gestures and the cards not yet revealed, and what
        following it pays whom. In lutins malins it keeps its former rule: tells the truth one time
        in four, and follows as level 1 does, weighing the kinds still unseen.

        Every choice reads the seat's ``view`` (the lutin's own card, never another lutin's
        gesture before the reveal, never the deck order), the revealed cards and the turns played
        (``State.history``: public, each was ``last_turn``); its draws come from the game's seed,
        the turn and the seat, so a move is the same for the same position.
        """
        if state.phase == GESTURES and seat in self.expected(state):
            if level >= 2 and state.variant != MALINS:
                rng = derive_rng(state.seed, "ai-truth", state.turn, seat)
                gesture = level_2_gesture(self.view(state, seat), state.history, rng)
                return {"type": "gesture", "gesture": gesture, "side": None}
            rng = derive_rng(state.seed, "ai", state.turn, seat, level)
            card = deck()[state.card]
            allowed = self.allowed_kinds(state)
            truth = card.kind in allowed and rng.random() < (0.35 if level <= 1 else 0.25)
            kind = card.kind if truth else rng.choice([k for k in allowed if k != card.kind])
            side = mirror(card.side) if state.variant == MALINS else None
            return {"type": "gesture", "gesture": kind, "side": side}
        if state.phase == CHOICE and seat == state.picker:
            view = self.view(state, seat)
            if level >= 2 and state.variant != MALINS:
                return {"type": "follow", "lutin": best_follow(view, state.discard)}
            rng = derive_rng(state.seed, "ai-follow", state.turn, level)
            return {"type": "follow", "lutin": pick_lutin(view, rng, level)}
        raise RuleError("common.error.not_your_turn")

    def takeback_refusal(self, before: State, seat: int, action: Action, after: State,
                         events: list[Event]) -> str | None:
        """Why this move can never be taken back (a catalog key), or None (docs/rules, "Takebacks")."""
        return "undo.reason.lutinades"  # the gestures are revealed together: nothing is ever taken back

    def default_action(self, state: State, seat: int) -> Action:
        """Timeout: a random allowed gesture for a lutin, a random lutin for the picker."""
        if state.phase == GESTURES and seat in self.expected(state):
            rng = derive_rng(state.seed, "timeout", state.turn, seat)
            kind = rng.choice(self.allowed_kinds(state))
            side = rng.choice(SIDES) if state.variant == MALINS else None
            return {"type": "gesture", "gesture": kind, "side": side}
        if state.phase == CHOICE and seat == state.picker:
            rng = derive_rng(state.seed, "timeout-follow", state.turn)
            return {"type": "follow", "lutin": rng.choice(self.followable(state))}
        raise RuleError("common.error.not_your_turn")


def pick_lutin(view: View, rng: random.Random, level: int = 1) -> int:
    """The AI picker's choice, from the picker's *view* only (no card, no deck order)."""
    candidates = view["followable"]
    gestures = {g["seat"]: g for g in view["gestures"] if g is not None}
    m = len(candidates)
    kinds = Counter(gestures[s]["gesture"] for s in candidates)
    sides = Counter(gestures[s]["side"] for s in candidates)
    prior = {k: 1.0 for k in KINDS}
    if level >= 2:
        seen = view["revealed_kinds"]
        total = Counter(c.kind for c in deck())
        prior = {k: max(total[k] - seen[k], 0.5) / total[k] for k in KINDS}

    def value(s: int) -> float:
        g = gestures[s]
        p_kind = kinds[g["gesture"]] / m * prior[g["gesture"]]
        if view["variant"] != MALINS:
            return p_kind
        p_side_ok = sides[g["side"]] / m
        return (1 - p_side_ok) + p_side_ok * p_kind

    best = max(value(s) for s in candidates)
    return rng.choice([s for s in candidates if value(s) >= best - 1e-9])


#: level 1's lutin tells the truth with this chance (else another allowed kind, at random)
LEVEL_1_TRUTH = 0.35
#: a rival's mushrooms count 2^(lead / RIVAL_SCALE) of the AI's own, lead = theirs - the AI's
RIVAL_SCALE = 3.0


def rival_weights(view: View) -> dict[int, float]:
    """How much each rival's mushrooms count against the AI's own: 1 for a rival level with it,
    doubling every 3 mushrooms it is ahead, halving every 3 behind (the game is won alone first)."""
    me, counts = view["seat"], view["mushrooms"]
    return {r: 2.0 ** ((n - counts[me]) / RIVAL_SCALE) for r, n in enumerate(counts) if r != me}


def _allowed(view: View) -> tuple[str, ...]:
    return tuple(k for k in KINDS if not (view["small_forbidden"] and k == FORBIDDEN_IN_EN_GRAND))


def _level_1_gesture(kind: str, allowed: tuple[str, ...]) -> dict[str, float]:
    """The chance of each gesture of a level-1 lutin who sees a card of ``kind``."""
    if kind not in allowed:
        return {k: 1 / len(allowed) for k in allowed}
    return {k: LEVEL_1_TRUTH if k == kind else (1 - LEVEL_1_TRUTH) / (len(allowed) - 1) for k in allowed}


def _paid(big: int, small: int, picker_wins: bool, deck_left: int) -> tuple[int, int]:
    """(picker, followed lutin) mushrooms actually drawn: the picker serves first."""
    got = min(big, deck_left) if picker_wins else 0
    return got, min(small, deck_left - got)


def gesture_worths(view: View) -> dict[str, float]:
    """What each gesture is worth to level 2's lutin (standard and en grand), from its view: the
    card it sees; the other lutins' gestures drawn as level 1 makes them; the picker following, as level 1 does, a
    lutin whose gesture most share (at random among them); all alike pays the picker the big number.
    Each allowed gesture's expected mushrooms, its own less its rivals' (``rival_weights``)."""
    card = view["card"]
    me, picker, left = view["seat"], view["picker"], view["deck"]
    allowed = _allowed(view)
    others = [s for s in sorted({*view["chosen"], *view["waiting"]}) if s != me]
    lutins = sorted((*others, me))
    weight = rival_weights(view)
    odds = _level_1_gesture(card["kind"], allowed)
    mixes: list[tuple[float, tuple[str, ...]]] = [(1.0, ())]
    for _ in others:
        mixes = [(p * odds[k], (*mix, k)) for p, mix in mixes for k in allowed]

    def worth(gesture: str) -> float:
        total = 0.0
        for p, mix in mixes:
            shown = dict(zip(others, mix, strict=True))
            shown[me] = gesture
            if len(set(shown.values())) == 1:
                total -= p * weight[picker] * min(card["big"], left)
                continue
            counts = Counter(shown.values())
            most = max(counts.values())
            followed = [s for s in lutins if counts[shown[s]] == most]
            for s in followed:
                got_picker, got_lutin = _paid(card["big"], card["small"], shown[s] == card["kind"], left)
                mine = got_lutin if s == me else -weight[s] * got_lutin
                total += p / len(followed) * (mine - weight[picker] * got_picker)
        return total

    return {k: round(worth(k), 9) for k in allowed}


def best_gesture(view: View, worths: dict[str, float] | None = None) -> str:
    """The gesture worth most (``gesture_worths``), the truth first among equals."""
    worths = gesture_worths(view) if worths is None else worths
    return max(worths, key=lambda k: (worths[k], k == view["card"]["kind"]))


#: level 2's lutin tells the truth up to this often against a picker who follows its gestures ...
TRUTH_FLOOR = 0.08
#: ... the less the more the truth costs it (in mushrooms, ``gesture_worths``): ×e^(-cost / COST_SCALE)
COST_SCALE = 0.5
#: and this much more against a picker who has never believed its gestures this game
TRUTH_MAX = 1.0
#: the belief a picker starts the game with, in pseudo-turns (the lower, the faster the lutin adapts)
BELIEF_PRIOR = 2.0


def belief(history: tuple[dict[str, Any], ...] | list[dict[str, Any]], me: int, picker: int
           ) -> tuple[float, float]:
    """How far ``picker`` has believed the gestures of lutin ``me`` this game, from the public turn
    summaries (``State.history``, each shown as ``last_turn`` — who picked, the gestures, whom it
    followed): over the turns ``picker`` chose among two lutins or more, ``me`` among them,
    (the times it followed a lutin showing ``me``'s gesture, ``me`` included; the times a picker who
    believes the gestures would have: level 1's rule, the most shown gesture, at random among the
    lutins showing the most shown ones)."""
    believed = expected = 0.0
    for turn in history:
        if turn.get("picker") != picker or turn.get("followed") is None or turn.get("outcome") == UNANIMOUS:
            continue
        ignored = set(turn.get("ignored") or ())
        shown = {g["seat"]: g["gesture"] for g in turn.get("gestures") or () if g is not None}
        followable = [s for s in shown if s not in ignored]
        if me not in followable or len(followable) < 2:
            continue
        mine = shown[me]
        counts = Counter(shown[s] for s in followable)
        most = max(counts.values())
        if counts[mine] == most:
            expected += counts[mine] / sum(n for n in counts.values() if n == most)
        believed += shown.get(turn["followed"]) == mine
    return believed, expected


def truth_chance(history: tuple[dict[str, Any], ...] | list[dict[str, Any]], me: int, picker: int,
                 cheap: float = 1.0) -> float:
    """The chance level 2's lutin ``me`` tells ``picker`` the truth: ``TRUTH_FLOOR`` × ``cheap`` (how
    little the truth costs against level-1 players) against a picker who believes its gestures as
    often as a believing picker would (it follows them: bluffing pays), plus up to ``TRUTH_MAX`` the
    less it has (``trust``, from ``belief``, 1 at the start of a game): against a picker who ignores
    or contradicts its gestures it tells the truth more and more, so that ignoring it costs."""
    believed, expected = belief(history, me, picker)
    trust = min(1.0, (believed + BELIEF_PRIOR) / (expected + BELIEF_PRIOR))
    return TRUTH_FLOOR * cheap + TRUTH_MAX * (1.0 - trust)


def level_2_gesture(view: View, history: tuple[dict[str, Any], ...] | list[dict[str, Any]],
                    rng: random.Random) -> str:
    """Level 2's gesture as a lutin (standard and en grand), from its view and the public history:
    the truth with ``truth_chance`` against this turn's picker (one draw from ``rng``, derived from
    the game's seed, the turn and the seat — never from a hidden card), else ``best_gesture``'s,
    the best against level-1 players (nearly always a bluff)."""
    card = view["card"]
    draw = rng.random()
    worths = gesture_worths(view)
    best = best_gesture(view, worths)
    if card["kind"] in worths:
        cost = worths[best] - worths[card["kind"]]
        if draw < truth_chance(history, view["seat"], view["picker"], math.exp(-cost / COST_SCALE)):
            return card["kind"]
    return best


def best_follow(view: View, revealed: tuple[int, ...]) -> int:
    """Level 2's choice as the picker (standard and en grand), from its view and the revealed cards:
    the card is any not yet revealed (every one alike a priori), weighed by the chance that level-1
    lutins would have made the gestures shown; following a lutin pays the picker the big number if
    its gesture is the card's kind, and that lutin the small number. The lutin with the best
    expected mushrooms, the picker's less the lutin's (``rival_weights``); then the one with fewest."""
    candidates = view["followable"]
    shown = {g["seat"]: g["gesture"] for g in view["gestures"] or () if g is not None}
    allowed = _allowed(view)
    gone = set(revealed)
    unseen = [c for c in deck() if c.id not in gone]
    likelihood = {}
    for kind in KINDS:
        odds = _level_1_gesture(kind, allowed)
        likelihood[kind] = 1.0
        for s in candidates:
            likelihood[kind] *= odds.get(shown[s], 0.0)
    norm = sum(likelihood[c.kind] for c in unseen) or 1.0
    weight = rival_weights(view)
    left = view["deck"]

    def worth(s: int) -> float:
        total = 0.0
        for c in unseen:
            got_picker, got_lutin = _paid(c.big, c.small, shown[s] == c.kind, left)
            total += likelihood[c.kind] / norm * (got_picker - weight[s] * got_lutin)
        return total

    counts = view["mushrooms"]
    return max(candidates, key=lambda s: (round(worth(s), 9), -counts[s], -s))


ENGINE = LutinadesEngine()
