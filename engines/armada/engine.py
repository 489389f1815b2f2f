"""L'Invincible Armada — the engine (state, legal moves, captures, rounds, views).

Rules: ../shared/rules/invincible-armada.md and docs/rules/armada.md. Two seats;
in each round one plays Spain (20 red ships, captures with lines) and the other
England (20 white ships, at most 5 on the board, captures with pairs). A round
ends when a side has taken 11 ships; its winner scores 11 minus the loser's
captures. Two rounds with sides swapped, a third (first round's sides) on a tie.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from engines.base import (
    Action,
    Event,
    Option,
    Result,
    RuleError,
    View,
    check_new_game,
    plugged_ai,
    rank_by,
    refusal_from_events,
    stamp_schema,
    unstamp_schema,
)

from .board import (
    EMPTY,
    ENGLAND,
    SIDES,
    SPAIN,
    Geometry,
    england_targets,
    english_partners,
    geometry,
    is_free,
    pairs,
    spain_lines,
    spain_targets,
    three_aligned,
)

FLEET = 20  #: ships per side
TO_WIN = 11  #: captures that end a round
ENGLAND_LIMIT = 5  #: English ships on the board at once
PLY_LIMIT = 400  #: moves in one round before it is stopped (see docs/rules/armada.md)
BOARDS = {"11x11": 11, "10x10": 10, "9x9": 9}  #: option value -> intersections per side
#: Every event type the engine emits (each has an ``armada.event.<type>`` narration).
EVENT_TYPES = ("placed", "moved", "pivoted", "captured", "capture_pending", "passed", "turn", "round_over",
               "round_drawn", "tiebreak", "round_started", "resigned", "game_over", "game_drawn")


#: the moves that can never be taken back (issue 26): the one that ended (scored) a round
TAKEBACK_REVEALING = {"round_over": "undo.reason.round_scored", "round_drawn": "undo.reason.round_scored",
                      "round_started": "undo.reason.round_scored", "tiebreak": "undo.reason.round_scored"}


@dataclass(frozen=True)

class State:
    seed: int
    size: int  # intersections per side
    board: tuple[int, ...]  # EMPTY / SPAIN / ENGLAND, index row * size + col, row 0 = "1"
    first_spain: int = 0  # seat playing Spain in round 1 (and in a tie-break round)
    round_no: int = 1
    spain_seat: int = 0  # seat playing Spain in the current round
    turn: int = SPAIN  # side to move
    reserve: tuple[int, int] = (FLEET, FLEET)  # (spain, england) ships neither on the board nor taken
    captures: tuple[int, int] = (0, 0)  # ships taken BY (spain, england) this round
    scores: tuple[int, int] = (0, 0)  # per seat, over the whole game
    rounds: tuple[dict, ...] = ()  # finished rounds, oldest first
    pending: tuple[int, ...] = ()  # capture choices the side to move must pick from
    last_move: dict | None = None  # names, JSON-safe
    last_lines: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()  # Spain's last lines + reach
    ply: int = 0  # moves played in this round
    finished: bool = False
    resigned: int | None = None
    previous: dict | None = None  # final position of the last finished round (names)

    @property
    def current(self) -> int:
        return self.spain_seat if self.turn == SPAIN else 1 - self.spain_seat

    def seat_of(self, side: int) -> int:
        return self.spain_seat if side == SPAIN else 1 - self.spain_seat

    def side_of(self, seat: int) -> int:
        return SPAIN if seat == self.spain_seat else ENGLAND


def _geo(state: State) -> Geometry:
    return geometry(state.size)


def _count(board: Sequence[int], side: int) -> int:
    return sum(1 for c in board if c == side)


# --- rule checks shared by apply, the helpers and the AI ------------------------------------------

def _point(geo: Geometry, action: Action, key: str) -> int:
    raw = action.get(key)
    if raw is None or raw == "":
        raise RuleError("armada.error.missing_point", field=key)
    p = geo.parse(raw)
    if p is None:
        raise RuleError("armada.error.bad_point", point=str(raw), last=geo.names[-1])
    return p


def check_england_place(state: State, board: Sequence[int], p: int) -> None:
    """Raise the RuleError that forbids England from placing at ``p`` (``board`` as is)."""
    geo = _geo(state)
    if _count(board, ENGLAND) >= ENGLAND_LIMIT:
        raise RuleError("armada.error.fleet_full", limit=ENGLAND_LIMIT)
    if state.reserve[1] <= 0:
        raise RuleError("armada.error.reserve_empty")
    if board[p] != EMPTY:
        raise RuleError("armada.error.occupied", point=geo.names[p])
    trial = list(board)
    trial[p] = ENGLAND
    run = three_aligned(trial, p, geo)
    if run is not None:
        raise RuleError("armada.error.three_aligned", point=geo.names[p],
                        line="-".join(geo.names[q] for q in run))
    ships = [q for q, c in enumerate(board) if c == ENGLAND]
    if len(ships) == ENGLAND_LIMIT - 1 and all(is_free(board, q, geo) for q in ships) \
            and not english_partners(board, p, geo):
        raise RuleError("armada.error.must_pair", point=geo.names[p])


def pivot_centres(board: Sequence[int], a: int, p: int, geo: Geometry) -> list[int]:
    """English ships around which the ship at ``a`` may pivot to ``p`` (adjacent to both)."""
    if p == a:
        return []
    near_p = geo.neighbour_sets[p]
    return [q for q in english_partners(board, a, geo) if q in near_p]


def check_pivot(state: State, board: Sequence[int], a: int, p: int) -> list[int]:
    """Raise the RuleError that forbids the pivot ``a`` -> ``p``; return its centres otherwise."""
    geo = _geo(state)
    if board[a] != ENGLAND:
        raise RuleError("armada.error.not_your_ship", point=geo.names[a])
    if p == a:
        raise RuleError("armada.error.same_point", point=geo.names[a])
    if not english_partners(board, a, geo):
        raise RuleError("armada.error.not_in_pair", point=geo.names[a])
    if board[p] != EMPTY:
        raise RuleError("armada.error.occupied", point=geo.names[p])
    centres = pivot_centres(board, a, p, geo)
    if not centres:
        raise RuleError("armada.error.not_a_pivot", point=geo.names[a], to=geo.names[p])
    trial = list(board)
    trial[a] = EMPTY
    trial[p] = ENGLAND
    run = three_aligned(trial, p, geo)
    if run is not None:
        raise RuleError("armada.error.three_aligned", point=geo.names[p],
                        line="-".join(geo.names[q] for q in run))
    return centres


def england_place_points(state: State, board: Sequence[int]) -> list[int]:
    """Every point England may place a ship on (empty list at the 5-ship limit)."""
    geo = _geo(state)
    ships = [q for q, c in enumerate(board) if c == ENGLAND]
    if len(ships) >= ENGLAND_LIMIT or state.reserve[1] <= 0:
        return []
    forced = len(ships) == ENGLAND_LIMIT - 1 and all(is_free(board, q, geo) for q in ships)
    if forced:
        candidates = sorted({q for s in ships for _, q in geo.neighbours[s] if board[q] == EMPTY})
    else:
        candidates = [q for q, c in enumerate(board) if c == EMPTY]
    trial = list(board)
    out = []
    for p in candidates:
        trial[p] = ENGLAND
        if three_aligned(trial, p, geo) is None:
            out.append(p)
        trial[p] = EMPTY
    return out


def england_pivots(board: Sequence[int], geo: Geometry) -> list[tuple[int, int, int]]:
    """Every legal pivot as ``(from, to, around)``; one entry per (from, to)."""
    out = []
    trial = list(board)
    for a, c in enumerate(board):
        if c != ENGLAND:
            continue
        partners = english_partners(board, a, geo)
        if not partners:
            continue
        seen: dict[int, int] = {}
        for centre in partners:
            for _, p in geo.neighbours[centre]:
                if p != a and board[p] == EMPTY and p not in seen:
                    seen[p] = centre
        trial[a] = EMPTY
        for p, centre in sorted(seen.items()):
            trial[p] = ENGLAND
            if three_aligned(trial, p, geo) is None:
                out.append((a, p, centre))
            trial[p] = EMPTY
        trial[a] = ENGLAND
    return out


def board_after(board: Sequence[int], side: int, to: int, frm: int | None = None) -> list[int]:
    new = list(board)
    if frm is not None:
        new[frm] = EMPTY
    new[to] = side
    return new


def targets_after(board: Sequence[int], side: int, to: int, geo: Geometry) -> list[int]:
    """Capture choices once ``side``'s ship stands at ``to`` on ``board``."""
    return spain_targets(board, to, geo) if side == SPAIN else england_targets(board, to, geo)


class ArmadaEngine:
    name = "armada"
    min_players = 2
    max_players = 2
    has_ai = True
    ai_levels = (1, 3)  # the AI levels a lobby may ask for
    simultaneous = False
    SCHEMA = 1
    options = (Option("plateau", "11x11", choices=tuple(BOARDS)),)

    # --- setup -----------------------------------------------------------------------------------
    def new_game(self, players: int, options: dict[str, Any] | None, seed: int) -> State:
        opts = check_new_game(self, players, options)
        size = BOARDS[opts["plateau"]]
        return State(seed=seed, size=size, board=(EMPTY,) * (size * size))

    # --- turn structure ----------------------------------------------------------------------------
    def expected(self, state: State) -> set[int]:
        return set() if state.finished else {state.current}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every distinct move (a move with several capture choices is listed once per choice).

        ``resign`` is always possible and not listed.
        """
        if state.finished or seat != state.current:
            return []
        geo = _geo(state)
        names = geo.names
        if state.pending:
            return [{"type": "capture", "point": names[q]} for q in state.pending]
        out: list[Action] = []

        def add(base: Action, board: Sequence[int], to: int, side: int) -> None:
            targets = targets_after(board, side, to, geo)
            if len(targets) <= 1:
                out.append(base)
            else:
                out.extend({**base, "capture": names[t]} for t in targets)

        board = state.board
        if state.turn == SPAIN:
            empties = [q for q, c in enumerate(board) if c == EMPTY]
            if state.reserve[0] > 0:
                trial = list(board)
                for p in empties:
                    trial[p] = SPAIN
                    add({"type": "place", "point": names[p]}, trial, p, SPAIN)
                    trial[p] = EMPTY
            else:
                trial = list(board)
                for a, c in enumerate(board):
                    if c != SPAIN:
                        continue
                    trial[a] = EMPTY
                    for p in empties:
                        trial[p] = SPAIN
                        add({"type": "move", "from": names[a], "to": names[p]}, trial, p, SPAIN)
                        trial[p] = EMPTY
                    trial[a] = SPAIN
        else:
            trial = list(board)
            for p in england_place_points(state, board):
                trial[p] = ENGLAND
                add({"type": "place", "point": names[p]}, trial, p, ENGLAND)
                trial[p] = EMPTY
            for a, p, _ in england_pivots(board, geo):
                trial[a] = EMPTY
                trial[p] = ENGLAND
                add({"type": "pivot", "from": names[a], "to": names[p]}, trial, p, ENGLAND)
                trial[p] = EMPTY
                trial[a] = ENGLAND
        return out or [{"type": "pass"}]

    def has_move(self, state: State) -> bool:
        """Whether the side to move has any move other than passing."""
        board = state.board
        if state.turn == SPAIN:
            return EMPTY in board
        return bool(england_place_points(state, board)) or bool(england_pivots(board, _geo(state)))

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if not isinstance(action, dict):
            raise RuleError("common.error.unknown_action", action=str(action))
        kind = action.get("type")
        if state.finished:
            raise RuleError("common.error.game_over")
        if kind == "resign":
            if seat not in (0, 1):
                raise RuleError("common.error.not_your_turn")
            return self._resign(state, seat)
        if seat != state.current:
            raise RuleError("common.error.not_your_turn")
        geo = _geo(state)
        if kind == "capture":
            if not state.pending:
                raise RuleError("armada.error.no_capture_pending")
            raw = action.get("point", action.get("choice"))
            if raw is None or raw == "":
                raise RuleError("armada.error.missing_point", field="point")
            p = geo.parse(raw)
            if p is None:
                raise RuleError("armada.error.bad_point", point=str(raw), last=geo.names[-1])
            if p not in state.pending:
                raise RuleError("armada.error.not_a_target", point=geo.names[p],
                                choices=", ".join(geo.names[q] for q in state.pending))
            return self._capture(state, seat, list(state.board), p, [])
        if state.pending:
            raise RuleError("armada.error.capture_pending",
                            choices=", ".join(geo.names[q] for q in state.pending))
        side = state.turn
        if kind == "place":
            p = _point(geo, action, "point")
            if side == SPAIN:
                if state.reserve[0] <= 0:
                    raise RuleError("armada.error.spain_reserve_empty", fleet=FLEET)
                if state.board[p] != EMPTY:
                    raise RuleError("armada.error.occupied", point=geo.names[p])
            else:
                check_england_place(state, state.board, p)
            frm = None
            event: Event = {"type": "placed", "seat": seat, "side": SIDES[side], "point": geo.names[p]}
        elif kind == "move":
            if side != SPAIN:
                raise RuleError("armada.error.move_spain_only")
            if state.reserve[0] > 0:
                raise RuleError("armada.error.reserve_left", count=state.reserve[0])
            frm = _point(geo, action, "from")
            p = _point(geo, action, "to")
            if state.board[frm] != SPAIN:
                raise RuleError("armada.error.not_your_ship", point=geo.names[frm])
            if p == frm:
                raise RuleError("armada.error.same_point", point=geo.names[p])
            if state.board[p] != EMPTY:
                raise RuleError("armada.error.occupied", point=geo.names[p])
            event = {"type": "moved", "seat": seat, "side": "spain", "from": geo.names[frm],
                     "to": geo.names[p]}
        elif kind == "pivot":
            if side != ENGLAND:
                raise RuleError("armada.error.pivot_england_only")
            frm = _point(geo, action, "from")
            p = _point(geo, action, "to")
            centres = check_pivot(state, state.board, frm, p)
            event = {"type": "pivoted", "seat": seat, "side": "england", "from": geo.names[frm],
                     "to": geo.names[p], "around": geo.names[centres[0]]}
        elif kind == "pass":
            if self.has_move(state):
                raise RuleError("armada.error.cannot_pass")
            nxt = replace(state, last_move={"type": "pass", "seat": seat, "side": SIDES[side]})
            return self._next_turn(nxt, [{"type": "passed", "seat": seat, "side": SIDES[side]}])
        else:
            raise RuleError("common.error.unknown_action", action=str(kind))

        board = board_after(state.board, side, p, frm)
        targets = targets_after(board, side, p, geo)
        choice = action.get("capture")
        chosen = None
        if choice is not None:
            chosen = geo.parse(choice)
            if chosen is None or chosen not in targets:
                raise RuleError("armada.error.not_a_target", point=str(choice),
                                choices=", ".join(geo.names[q] for q in targets) or "-")
        elif len(targets) == 1:
            chosen = targets[0]

        last = {k: v for k, v in event.items() if k != "type"}
        last["type"] = kind
        last["captured"] = None
        reserve = state.reserve
        if kind == "place":
            reserve = (reserve[0] - 1, reserve[1]) if side == SPAIN else (reserve[0], reserve[1] - 1)
        lines = state.last_lines
        if side == SPAIN:
            lines = tuple(spain_lines(board, p, geo))
        new = replace(state, board=tuple(board), reserve=reserve, last_move=last, last_lines=lines)
        events = [event]
        if chosen is None and targets:
            new = replace(new, pending=tuple(targets))
            events.append({"type": "capture_pending", "seat": seat, "side": SIDES[side],
                           "choices": [geo.names[q] for q in targets]})
            return new, events
        if chosen is None:
            return self._next_turn(new, events)
        return self._capture(new, seat, board, chosen, events)

    # --- resolution --------------------------------------------------------------------------------
    def _capture(self, state: State, seat: int, board: list[int], target: int,
                 events: list[Event]) -> tuple[State, list[Event]]:
        geo = _geo(state)
        side = state.turn
        board[target] = EMPTY
        caps = list(state.captures)
        caps[0 if side == SPAIN else 1] += 1
        last = dict(state.last_move or {})
        last["captured"] = geo.names[target]
        new = replace(state, board=tuple(board), captures=(caps[0], caps[1]), pending=(), last_move=last)
        total = caps[0 if side == SPAIN else 1]
        events = events + [{"type": "captured", "seat": seat, "side": SIDES[side],
                            "point": geo.names[target], "total": total, "needed": TO_WIN}]
        if total >= TO_WIN:
            return self._end_round(new, events, "captures")
        return self._next_turn(new, events)

    def _next_turn(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        ply = state.ply + 1
        new = replace(state, ply=ply, turn=ENGLAND if state.turn == SPAIN else SPAIN)
        if ply >= PLY_LIMIT:
            return self._end_round(new, events, "limit")
        events = events + [{"type": "turn", "seat": new.current, "side": SIDES[new.turn]}]
        return new, events

    def _end_round(self, state: State, events: list[Event], reason: str) -> tuple[State, list[Event]]:
        geo = _geo(state)
        spain_caps, england_caps = state.captures
        england_seat = 1 - state.spain_seat
        if spain_caps > england_caps:
            winner, side, points = state.spain_seat, "spain", spain_caps - england_caps
        elif england_caps > spain_caps:
            winner, side, points = england_seat, "england", england_caps - spain_caps
        else:
            winner, side, points = None, None, 0
        scores = list(state.scores)
        if winner is not None:
            scores[winner] += points
        record = {"round": state.round_no, "spain_seat": state.spain_seat, "england_seat": england_seat,
                  "captures": {"spain": spain_caps, "england": england_caps},
                  "winner": winner, "winner_side": side, "points": points, "reason": reason}
        previous = {**record,
                    "spain": [geo.names[q] for q, c in enumerate(state.board) if c == SPAIN],
                    "england": [geo.names[q] for q, c in enumerate(state.board) if c == ENGLAND],
                    "last_move": state.last_move}
        if winner is None:
            events = events + [{"type": "round_drawn", "round": state.round_no, "limit": PLY_LIMIT,
                                "spain_captures": spain_caps, "england_captures": england_caps,
                                "scores": list(scores)}]
        else:
            events = events + [{"type": "round_over", "round": state.round_no, "winner": winner,
                                "side": side, "points": points, "reason": reason,
                                "spain_captures": spain_caps, "england_captures": england_caps,
                                "scores": list(scores)}]
        new = replace(state, scores=(scores[0], scores[1]), rounds=state.rounds + (record,),
                      previous=previous, pending=())
        if state.round_no == 1 or (state.round_no == 2 and scores[0] == scores[1]):
            round_no = state.round_no + 1
            spain_seat = 1 - state.first_spain if round_no == 2 else state.first_spain
            new = replace(new, round_no=round_no, spain_seat=spain_seat, turn=SPAIN,
                          board=(EMPTY,) * (state.size * state.size), reserve=(FLEET, FLEET),
                          captures=(0, 0), last_move=None, last_lines=(), ply=0)
            if round_no == 3:
                events.append({"type": "tiebreak", "scores": list(scores)})
            events.append({"type": "round_started", "round": round_no, "tiebreak": round_no == 3,
                           "spain_seat": spain_seat, "england_seat": 1 - spain_seat})
            events.append({"type": "turn", "seat": new.current, "side": "spain"})
            return new, events
        new = replace(new, finished=True)
        winners = self.result(new).winners
        if len(winners) == 1:
            events.append({"type": "game_over", "winners": winners, "scores": list(scores)})
        else:
            events.append({"type": "game_drawn", "winners": winners, "scores": list(scores)})
        return new, events

    def _resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        new = replace(state, finished=True, resigned=seat, pending=())
        return new, [{"type": "resigned", "seat": seat},
                     {"type": "game_over", "winners": [1 - seat], "scores": list(state.scores)}]

    # --- information -------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> View:
        geo = _geo(state)
        names = geo.names
        board = state.board
        spain = [names[q] for q, c in enumerate(board) if c == SPAIN]
        england = [names[q] for q, c in enumerate(board) if c == ENGLAND]
        result = self.result(state)
        return {
            "game": self.name,
            "seat": seat,
            "size": state.size,
            "columns": "".join(n[0] for n in names[:state.size]),
            "spain": spain,
            "england": england,
            "pairs": [[names[a], names[b]] for a, b in pairs(board, geo)],
            "free": [names[q] for q, c in enumerate(board) if c == ENGLAND and is_free(board, q, geo)],
            "round": state.round_no,
            "tiebreak": state.round_no == 3,
            "sides": {"spain": state.spain_seat, "england": 1 - state.spain_seat},
            "side_of_seat": ["spain" if s == state.spain_seat else "england" for s in (0, 1)],
            "current": None if state.finished else state.current,
            "turn_side": None if state.finished else SIDES[state.turn],
            "phase": "over" if state.finished else ("capture" if state.pending else "move"),
            "pending_captures": [names[q] for q in state.pending],
            "spain_must_move": state.reserve[0] == 0,
            # nothing but « Passer » is legal: what the picture says follows the legal moves, not a count
            "must_pass": not state.finished and not state.pending and not self.has_move(state),
            "captures": {"spain": state.captures[0], "england": state.captures[1]},
            "to_win": TO_WIN,
            "reserve": {"spain": state.reserve[0], "england": state.reserve[1]},
            "on_board": {"spain": len(spain), "england": len(england)},
            "england_limit": ENGLAND_LIMIT,
            "fleet": FLEET,
            "scores": list(state.scores),
            "rounds": [dict(r, captures=dict(r["captures"])) for r in state.rounds],
            "previous_round": _copy(state.previous),
            "last_move": _copy(state.last_move),
            "last_lines": [{"line": [names[q] for q in line], "range": len(line),
                            "reach": [names[q] for q in reach]} for line, reach in state.last_lines],
            "ply": state.ply,
            "ply_limit": PLY_LIMIT,
            "finished": state.finished,
            "resigned": state.resigned,
            "winners": result.winners if result else None,
        }

    def is_over(self, state: State) -> bool:
        return state.finished

    def result(self, state: State) -> Result | None:
        if not state.finished:
            return None
        scores = list(state.scores)
        if state.resigned is not None:
            ranks = [2, 2]
            ranks[1 - state.resigned] = 1
        else:
            ranks = rank_by([(s,) for s in scores])
        return Result(scores=scores, ranks=ranks,
                      details={"rounds": [dict(r, captures=dict(r["captures"])) for r in state.rounds],
                               "resigned": state.resigned})

    # --- persistence -------------------------------------------------------------------------------
    def to_dict(self, state: State) -> dict[str, Any]:
        d = asdict(state)
        d["board"] = list(state.board)
        d["reserve"] = list(state.reserve)
        d["captures"] = list(state.captures)
        d["scores"] = list(state.scores)
        d["rounds"] = [_copy(r) for r in state.rounds]
        d["pending"] = list(state.pending)
        d["last_lines"] = [[list(line), list(reach)] for line, reach in state.last_lines]
        return stamp_schema(d, self.SCHEMA)

    def from_dict(self, data: dict[str, Any]) -> State:
        d = unstamp_schema(self.name, data, self.SCHEMA)
        d["board"] = tuple(d["board"])
        d["reserve"] = tuple(d["reserve"])
        d["captures"] = tuple(d["captures"])
        d["scores"] = tuple(d["scores"])
        d["rounds"] = tuple(_copy(r) for r in d["rounds"])
        d["pending"] = tuple(d["pending"])
        d["last_lines"] = tuple((tuple(line), tuple(reach)) for line, reach in d["last_lines"])
        d["last_move"] = _copy(d.get("last_move"))
        d["previous"] = _copy(d.get("previous"))
        return State(**d)

    # --- AI and defaults ---------------------------------------------------------------------------
    #: the AI (``engines.armada.ai.choose``), plugged in by the game's package (``engines/armada/__init__.py``):
    #: an AI depends on its engine, the engine never imports its AI
    ai: Callable[[ArmadaEngine, State, int, int], Action] | None = None

    def ai_action(self, state: State, seat: int, level: int = 1) -> Action:
        return plugged_ai(self)(self, state, seat, level)


    def takeback_refusal(self, before: State, seat: int, action: Action, after: State,
                         events: list[Event]) -> str | None:
        """Why this move can never be taken back (a catalog key), or None (docs/rules, "Takebacks")."""
        if self.is_over(after):
            return "undo.reason.game_over"
        return refusal_from_events(events, TAKEBACK_REVEALING)

    def default_action(self, state: State, seat: int) -> Action:
        """Timeout: the AI's move at level 1."""
        return self.ai_action(state, seat, 1)


# --- helpers for the cog (autocomplete, choice buttons) -----------------------------------------

def _my_turn(state: State, seat: int) -> bool:
    return not state.finished and not state.pending and seat == state.current


def legal_points(state: State, seat: int, origin: str | None = None) -> list[str]:
    """Points ``seat`` may place a ship on now (Spain moving: destinations, for ``origin`` if given).

    Empty when it is not ``seat``'s turn, when a capture must be chosen first, or
    when England is at the 5-ship limit (it must pivot).
    """
    if not _my_turn(state, seat):
        return []
    geo = _geo(state)
    board = state.board
    if state.turn == ENGLAND:
        return [geo.names[p] for p in england_place_points(state, board)]
    if state.reserve[0] == 0 and origin is not None:
        a = geo.parse(origin)
        if a is None or board[a] != SPAIN:
            return []
    return [geo.names[p] for p, c in enumerate(board) if c == EMPTY]


def movable_points(state: State, seat: int) -> list[str]:
    """Spanish ships that may be lifted (only once Spain's 20 ships are all placed)."""
    if not _my_turn(state, seat) or state.turn != SPAIN or state.reserve[0] > 0:
        return []
    geo = _geo(state)
    return [geo.names[p] for p, c in enumerate(state.board) if c == SPAIN]


def pivot_choices(state: State, seat: int, origin: str | None = None) -> list[dict[str, str]]:
    """England's legal pivots ``{"from", "to", "around"}`` (only those from ``origin`` if given)."""
    if not _my_turn(state, seat) or state.turn != ENGLAND:
        return []
    geo = _geo(state)
    a0 = geo.parse(origin) if origin is not None else None
    if origin is not None and a0 is None:
        return []
    return [{"from": geo.names[a], "to": geo.names[p], "around": geo.names[c]}
            for a, p, c in england_pivots(state.board, geo) if a0 is None or a == a0]


def capture_choices(state: State, seat: int, action: Action | None = None) -> list[str]:
    """Ships ``seat`` may take: the pending choice, or what ``action`` would allow.

    With ``action`` (a place/move/pivot without ``"capture"``), the move is checked
    like ``apply`` would (RuleError if illegal) and the capturable points returned;
    two or more means the player must choose (send ``"capture"`` with the move, or
    answer the pending phase with ``{"type": "capture", "point": ...}``).
    """
    geo = _geo(state)
    if action is None:
        return [geo.names[q] for q in state.pending] if seat == state.current and not state.finished else []
    trial = dict(action)
    trial.pop("capture", None)
    ENGINE.apply(state, seat, trial)  # raises the RuleError of an illegal move
    kind = trial.get("type")
    if kind not in ("place", "move", "pivot"):
        return []
    to = geo.parse(trial["point"] if kind == "place" else trial["to"])
    frm = geo.parse(trial["from"]) if kind != "place" else None
    board = board_after(state.board, state.turn, to, frm)
    return [geo.names[q] for q in targets_after(board, state.turn, to, geo)]


def _copy(value: Any) -> Any:
    """Deep copy of a JSON-like value (dicts, lists)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value


ENGINE = ArmadaEngine()
