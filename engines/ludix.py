"""Ludix — Roman-numeral push-your-luck dice (Niek Neuwahl, Piatnik 2014).

Rules: ../shared/rules/ludix.md and docs/rules/ludix.md. Four dice with faces
L X X V I I; roll all four, arrange them into a valid Roman numeral (the bot
always takes the best), add it to the turn total; roll again or stop. A roll that
forms no numeral loses the turn total. First to the target (300) ends the game
once the round is complete.
"""

from __future__ import annotations

import lzma
from array import array
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from functools import cache
from itertools import permutations, product
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

DIE_FACES = ("L", "X", "X", "V", "I", "I")
_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_CANON = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def to_roman(value: int) -> str:
    """Canonical (standard subtractive) writing of ``value`` (1..3999)."""
    out = []
    for v, s in _CANON:
        while value >= v:
            out.append(s)
            value -= v
    return "".join(out)


def roman_value(numeral: str) -> int | None:
    """Value of ``numeral`` if it is the canonical writing of its value, else None."""
    if not numeral or any(c not in _VALUES for c in numeral):
        return None
    total = 0
    for i, c in enumerate(numeral):
        v = _VALUES[c]
        if i + 1 < len(numeral) and _VALUES[numeral[i + 1]] > v:
            total -= v
        else:
            total += v
    if total <= 0 or total >= 4000 or to_roman(total) != numeral:
        return None
    return total


@cache
def valid_numerals(faces: str) -> tuple[tuple[str, int], ...]:
    """Every valid arrangement of ``faces``, best first."""
    found = {}
    for perm in set(permutations(faces.upper())):
        s = "".join(perm)
        v = roman_value(s)
        if v is not None:
            found[s] = v
    return tuple(sorted(found.items(), key=lambda kv: (-kv[1], kv[0])))


def best_numeral(faces: str) -> tuple[str, int] | None:
    """Best numeral the four faces form: ``"IIXX"`` -> ``("XXII", 22)``, ``"LLLL"`` -> None."""
    options = valid_numerals("".join(sorted(faces.upper())))
    return options[0] if options else None


@dataclass(frozen=True)
class State:
    seed: int
    players: int
    target: int
    scores: tuple[int, ...]
    current: int = 0
    turn_total: int = 0
    rolls_this_turn: int = 0
    turn_no: int = 0  # turns started so far (global counter, for the dice salt)
    round_no: int = 1
    last_roll: str | None = None  # faces as rolled, e.g. "IXXL"
    last_seat: int | None = None
    last_bust: bool = False
    banked: tuple[tuple[int, ...], ...] = ()  # per seat, each banked turn total
    finished: bool = False
    out: tuple[int, ...] = ()  # seats the other players voted out (they play no more turns)


_FIELDS = tuple(f.name for f in fields(State))


class LudixEngine:
    name = "ludix"
    min_players = 2
    max_players = 6
    has_ai = True
    ai_levels = (1, 2)  # the AI levels a lobby may ask for (2: the best response to level 1)
    #: no move of this game is ever taken back (its rules, "Takebacks"): why, before anything else
    takeback_never = "undo.reason.ludix"
    simultaneous = False
    SCHEMA = 1
    options = (Option("target", 300, minimum=50, maximum=1000),)

    # --- setup -----------------------------------------------------------------
    def new_game(self, players: int, options: dict[str, Any] | None, seed: int) -> State:
        opts = check_new_game(self, players, options)
        return State(seed=seed, players=players, target=opts["target"], scores=(0,) * players,
                     banked=((),) * players)

    # --- turn structure --------------------------------------------------------
    def expected(self, state: State) -> set[int]:
        return set() if state.finished else {state.current}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.finished or seat != state.current:
            return []
        if state.rolls_this_turn == 0:
            return [{"type": "roll"}]
        return [{"type": "roll"}, {"type": "stop"}]

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state.finished:
            raise RuleError("common.error.game_over")
        if seat != state.current:
            raise RuleError("common.error.not_your_turn")
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "roll":
            return self._roll(state, seat)
        if kind == "stop":
            if state.rolls_this_turn == 0:
                raise RuleError("ludix.error.roll_first")
            return self._end_turn(state, seat, state.turn_total, [])
        if kind == "pass":  # timeout default at the start of a turn: bank nothing
            if state.rolls_this_turn != 0:
                raise RuleError("ludix.error.pass_after_roll")
            return self._end_turn(state, seat, 0, [])
        raise RuleError("common.error.unknown_action", action=str(kind))

    def _roll(self, state: State, seat: int) -> tuple[State, list[Event]]:
        rng = derive_rng(state.seed, "roll", state.turn_no, state.rolls_this_turn)
        faces = "".join(rng.choice(DIE_FACES) for _ in range(4))
        best = best_numeral(faces)
        if best is None:
            lost = state.turn_total
            events: list[Event] = [{"type": "bust", "seat": seat, "faces": faces, "lost": lost}]
            bust = replace(state, last_roll=faces, last_seat=seat, last_bust=True)
            return self._end_turn(bust, seat, 0, events, busted=True)
        numeral, value = best
        total = state.turn_total + value
        new = replace(state, turn_total=total, rolls_this_turn=state.rolls_this_turn + 1,
                      last_roll=faces, last_seat=seat, last_bust=False)
        return new, [{"type": "rolled", "seat": seat, "faces": faces, "numeral": numeral,
                      "value": value, "turn_total": total}]

    def _end_turn(self, state: State, seat: int, points: int, events: list[Event],
                  busted: bool = False) -> tuple[State, list[Event]]:
        scores = list(state.scores)
        banked = [list(b) for b in state.banked]
        if not busted:
            scores[seat] += points
            banked[seat].append(points)
            events.append({"type": "banked", "seat": seat, "points": points, "score": scores[seat]})
            if scores[seat] >= state.target > max(state.scores):  # the target reached for the first time
                events.append({"type": "target_reached", "seat": seat, "target": state.target})
        nxt = self._next(state, seat)
        wrapped = nxt <= seat  # the round is complete (nxt == 0 when nobody was voted out)
        round_no = state.round_no + (1 if wrapped else 0)
        finished = wrapped and max(scores) >= state.target
        new = replace(state, scores=tuple(scores), banked=tuple(tuple(b) for b in banked),
                      current=nxt, turn_total=0, rolls_this_turn=0, turn_no=state.turn_no + 1,
                      round_no=round_no, finished=finished)
        if not busted:
            new = replace(new, last_bust=False)
        if finished:
            events.append({"type": "game_over", "winners": self.result(new).winners})
        else:
            events.append({"type": "turn", "seat": nxt,
                           "last_round": max(scores) >= state.target})
        return new, events

    @staticmethod
    def _next(state: State, seat: int) -> int:
        """The next seat in turn order still in the game."""
        for step in range(1, state.players + 1):
            nxt = (seat + step) % state.players
            if nxt not in state.out:
                return nxt
        return seat

    # --- a stalled player voted out (issue 15) ----------------------------------
    def remove_seat(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """The other players voted ``seat`` out: it plays no more turns, keeps its banked score and
        is ranked after every player still in. On its turn, its turn total is lost and the turn
        passes on (the round ends as usual when it comes back to the first seat). Refused when
        fewer than two players would be left (``ludix.error.too_few_left``): the game then ends."""
        if state.finished:
            raise RuleError("common.error.game_over")
        if not 0 <= seat < state.players or seat in state.out:
            raise RuleError("common.error.not_a_player", game="-")
        if state.players - len(state.out) - 1 < self.min_players:
            raise RuleError("ludix.error.too_few_left", min=self.min_players)
        out = replace(state, out=tuple(sorted((*state.out, seat))))
        events: list[Event] = [{"type": "seat_removed", "seat": seat}]
        if seat != state.current:
            return out, events
        return self._end_turn(out, seat, 0, events, busted=True)

    # --- information -----------------------------------------------------------
    def view(self, state: State, seat: int | None) -> View:
        roll = None
        if state.last_roll is not None:
            options = valid_numerals("".join(sorted(state.last_roll)))
            roll = {"faces": state.last_roll, "seat": state.last_seat, "bust": state.last_bust,
                    "numeral": options[0][0] if options else None,
                    "value": options[0][1] if options else 0,
                    "others": [list(o) for o in options[1:]]}
        return {
            "game": self.name,
            "players": state.players,
            "target": state.target,
            "scores": list(state.scores),
            "current": None if state.finished else state.current,
            "turn_total": state.turn_total,
            "rolls_this_turn": state.rolls_this_turn,
            "round": state.round_no,
            "last_round": max(state.scores) >= state.target and not state.finished,
            "roll": roll,
            "finished": state.finished,
            "seat": seat,
        }

    def is_over(self, state: State) -> bool:
        return state.finished

    def result(self, state: State) -> Result | None:
        if not state.finished:
            return None
        # a seat voted out ranks after every player still in (then by score)
        keys = [(seat not in state.out, s) for seat, s in enumerate(state.scores)]
        return Result(scores=list(state.scores), ranks=rank_by(keys),
                      details={"banked": [list(b) for b in state.banked]})

    # --- persistence -----------------------------------------------------------
    def to_dict(self, state: State) -> dict[str, Any]:
        # every field is immutable (numbers, text, tuples): a shallow copy is what asdict's deep one
        # gives, for a fraction of its cost (this runs on every move)
        d = {name: getattr(state, name) for name in _FIELDS}
        if not d["out"]:  # the stored form of a game nobody left stays what it was
            del d["out"]
        return stamp_schema(d, self.SCHEMA)

    def from_dict(self, data: dict[str, Any]) -> State:
        d = unstamp_schema(self.name, data, self.SCHEMA)
        d["scores"] = tuple(d["scores"])
        d["banked"] = tuple(tuple(b) for b in d["banked"])
        d["out"] = tuple(d.get("out", ()))
        return State(**d)

    # --- AI and defaults -------------------------------------------------------
    def ai_action(self, state: State, seat: int, level: int = 1) -> Action:
        """Level 1 rolls while the expected gain beats the expected loss: E[best roll] = 836/27 and
        P(bust) = 23/81, so rolling again pays while the turn total is below about 109 (level 1 stops
        at 100, whatever the scores).

        Level 2, in a 2-player game to 300, plays the exact best response to level 1
        (``_best_response``: a table of the chances of winning computed offline by
        ``scripts/ludix_table.py``). Elsewhere it holds at 109 and presses on in the last round when
        banking would not catch the leader. Both read only the scores, the turn total and the target:
        what every seat sees, never the seed that draws the dice.
        """
        if state.rolls_this_turn == 0:
            return {"type": "roll"}
        if level >= 2 and state.players == 2 and state.target == BEST_RESPONSE_TARGET and not state.out:
            return {"type": "roll"} if _best_response(state, seat) else {"type": "stop"}
        threshold = 100 if level <= 1 else 109
        mine = state.scores[seat] + state.turn_total
        if level >= 2 and max(state.scores) >= state.target:
            leader = max(s for i, s in enumerate(state.scores) if i != seat)
            if mine <= leader:
                return {"type": "roll"}
            return {"type": "stop"}
        if mine >= state.target and level >= 2:
            return {"type": "stop"}
        return {"type": "roll"} if state.turn_total < threshold else {"type": "stop"}

    def takeback_refusal(self, before: State, seat: int, action: Action, after: State,
                         events: list[Event]) -> str | None:
        """Why this move can never be taken back (a catalog key), or None (docs/rules, "Takebacks")."""
        return "undo.reason.ludix"  # every step of a turn rolls the dice: nothing is ever taken back

    def default_action(self, state: State, seat: int) -> Action:
        """Timeout: stop (bank the turn total), or pass if nothing was rolled yet."""
        return {"type": "stop"} if state.rolls_this_turn else {"type": "pass"}


# --- level 2's best response to level 1 (2 players, target 300) ------------------------------------
BEST_RESPONSE_TARGET = 300
BEST_RESPONSE_PATH = Path(__file__).resolve().parents[1] / "data" / "ludix" / "best_response.bin"
_TIE = 0.5  # a shared first place, as scripts/ludix_table.py counts it


@cache
def dice_odds() -> tuple[float, tuple[tuple[int, float], ...], tuple[tuple[int, float], ...]]:
    """P(bust), the (value, chance) of each best numeral, and what a level-1 turn banks (0 on a
    bust, else its total once it reaches 100), with its chance."""
    counts: dict[int, int] = {}
    for faces in product(DIE_FACES, repeat=4):
        best = best_numeral("".join(faces))
        value = best[1] if best else 0
        counts[value] = counts.get(value, 0) + 1
    bust = counts.pop(0) / 6 ** 4
    rolls = tuple((v, c / 6 ** 4) for v, c in sorted(counts.items()))
    reach = [0.0] * 200
    reach[0] = 1.0
    gain = {0: 0.0}
    for t in range(100):
        if reach[t]:
            gain[0] += reach[t] * bust
            for v, p in rolls:
                reach[t + v] += reach[t] * p
    gain.update({t: reach[t] for t in range(100, 200) if reach[t]})
    return bust, rolls, tuple(sorted(gain.items()))


@cache
def _tables() -> tuple[tuple[tuple[float, ...], ...], tuple[tuple[float, ...], ...]]:
    """The two tables of scripts/ludix_table.py: ``first[m][o]``, the chance of winning of seat 0
    before its turn, ``second[m][o]``, that of seat 1 before the round opens (m, o < 300)."""
    blob = BEST_RESPONSE_PATH.read_bytes()
    if not blob.startswith(b"LUDIX1"):
        raise ValueError(f"{BEST_RESPONSE_PATH}: not a Ludix table")
    deltas = array("H")
    deltas.frombytes(lzma.decompress(blob[6:]))
    n = BEST_RESPONSE_TARGET
    if len(deltas) != 2 * n * n:
        raise ValueError(f"{BEST_RESPONSE_PATH}: {len(deltas)} values, {2 * n * n} expected")
    values, q = [], 0
    for d in deltas:
        q = (q + d) & 0xFFFF
        values.append(q / 65535)
    rows = [tuple(values[i:i + n]) for i in range(0, 2 * n * n, n)]
    return tuple(rows[:n]), tuple(rows[n:])


def _banking(seat: int, theirs: int) -> tuple[Callable[[int], float], int]:
    """For seat ``seat`` of a 2-player game to 300 against level 1, the opponent at ``theirs``: the
    chance of winning when the turn banks a score s (seat 1: the next round's chance from the table,
    or the result once a score reached 300; seat 0: the same averaged over what level 1's turn then
    banks), and the score from which banking surely wins."""
    n = BEST_RESPONSE_TARGET
    first, second = _tables()
    gains = dice_odds()[2]

    def win(m: int, o: int) -> float:
        return 1.0 if m > o else _TIE if m == o else 0.0

    if seat == 0:
        def bank(s: int) -> float:
            row = first[s] if s < n else None
            return sum(p * (row[theirs + g] if row is not None and theirs + g < n else win(s, theirs + g))
                       for g, p in gains)
        return bank, max(n, theirs + gains[-1][0] + 1)

    def bank_second(s: int) -> float:
        return second[s][theirs] if s < n and theirs < n else win(s, theirs)
    return bank_second, max(n, theirs + 1)


def _rolling_on(bank: Callable[[int], float], sure: int, here: int, on_bust: float) -> float:
    """The chance of winning when rolling on from score ``here`` (banked + turn total), then playing
    on at best: ``V(s) = max(bank(s), sum p_r V(s + r) + P(bust) on_bust)``, from ``sure`` (where
    banking surely wins: V = 1) down to ``here``."""
    bust, rolls, _ = dice_odds()
    top = rolls[-1][0]
    values: dict[int, float] = {s: 1.0 for s in range(sure, sure + top)}  # here < sure
    for s in range(sure - 1, here, -1):
        values[s] = max(bank(s), bust * on_bust + sum(p * values[s + v] for v, p in rolls))
        values.pop(s + top, None)
    return bust * on_bust + sum(p * values[here + v] for v, p in rolls)


def _best_response(state: State, seat: int) -> bool:
    """Whether rolling on beats banking now, for either seat of a 2-player game to 300 against level 1."""
    mine, theirs = state.scores[seat], state.scores[1 - seat]
    bank, sure = _banking(seat, theirs)
    here = mine + state.turn_total
    if here >= sure:
        return False
    return _rolling_on(bank, sure, here, bank(mine)) > bank(here)


ENGINE = LudixEngine()
