"""Tectonic — two-player abstract of mountains meeting (Seria Ludis, 2016).

Rules: ../shared/rules/tectonic.md and docs/rules/tectonic.md. A 10 × 10 board with
a 6-cell mountain region in each corner; each player has collines (move 1 cell in
8 directions), pics (up to 3 diagonally forward or 3 backward) and monts (up to 4
orthogonally). A move that ends orthogonally next to enemy pieces turns one of
them red (the mover chooses); red pieces next to the moved piece come back in the
mover's colour (own pieces turned back, enemy ones swapped for a piece of the
mover's reserve). Win with a colline, a pic and a mont of your colour together in
one of the opponent's regions, or when all the opponent's pieces on the board are
red; a player with no legal move loses; a position seen three times is a draw.

Cells are named ``"A1"`` .. ``"J10"``: file A-J from White's left, rank 1-10 from
White's side (White, seat 0, starts on rank 2 and moves first; Black, seat 1, on
rank 9).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
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
    refusal_from_events,
    stamp_schema,
    unstamp_schema,
)
from engines.tectonic import core
from engines.tectonic.core import KINDS, ORTH, RAYS, REGIONS, SIZE, cell_name, parse_cell

COLOURS = ("blanc", "noir")
#: every event type ``apply`` emits (each has a ``tectonic.event.<type>`` narration)
EVENT_TYPES = ("moved", "recoloured", "substituted", "stays_red", "flipped", "turn", "resigned",
               "won_region", "won_all_red", "won_no_moves", "draw_repetition")
#: every ``tectonic.error.<key>`` the engine raises
ERROR_KEYS = ("off_board", "empty_cell", "red_piece", "enemy_piece", "same_cell", "wrong_pattern",
              "too_far", "blocked", "occupied", "flip_required", "bad_flip", "no_flip")
#: end reasons (``State.reason`` / view ``reason``), each with a ``tectonic.reason.<reason>`` label
REASONS = ("region", "all_red", "no_moves", "repetition", "resign")


@dataclass(frozen=True)
class State:
    seed: int
    pic_backward: str  # option: "droit" | "diagonale"
    board: str  # 100 chars, see engines.tectonic.core
    reserves: tuple[int, ...]  # 6 counts: 3 * owner + kind
    current: int = 0
    ply: int = 0  # moves played so far
    last_move: dict[str, Any] | None = None
    history: dict[str, int] = field(default_factory=dict)  # position key -> times seen
    finished: bool = False
    winner: int | None = None  # None with finished = draw
    reason: str | None = None  # "region" | "all_red" | "no_moves" | "repetition" | "resign"
    region: str | None = None  # the region of a "region" win


def _err(key: str, **params: Any) -> RuleError:
    return RuleError(f"tectonic.error.{key}", **params)


class TectonicEngine:
    name = "tectonic"
    min_players = 2
    max_players = 2
    has_ai = True
    ai_levels = (1, 3)  # the AI levels a lobby may ask for
    simultaneous = False
    SCHEMA = 1
    options = (Option("pic_backward", "droit", choices=core.PIC_BACK),)

    # --- setup -----------------------------------------------------------------
    def new_game(self, players: int, options: dict[str, Any] | None, seed: int) -> State:
        opts = check_new_game(self, players, options)
        board = core.initial_board()
        reserves = core.initial_reserves()
        key = core.position_key(board, reserves, 0)
        return State(seed=seed, pic_backward=opts["pic_backward"], board=core.board_to_text(board),
                     reserves=tuple(reserves), history={key: 1})

    # --- turn structure --------------------------------------------------------
    def expected(self, state: State) -> set[int]:
        return set() if state.finished else {state.current}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every complete move (one per flip choice). Resigning is always allowed but not listed."""
        if state.finished or seat != state.current:
            return []
        board = core.board_from_text(state.board)
        names = core.NAMES
        return [{"type": "move", "from": names[i], "to": names[j], "flip": names[f] if f >= 0 else None}
                for i, j, f in core.gen_moves(board, seat, RAYS[state.pic_backward][seat])]

    def legal_sources(self, state: State, seat: int) -> list[str]:
        """Cells of ``seat``'s pieces that can move now (empty when it is not their turn)."""
        if state.finished or seat != state.current:
            return []
        board = core.board_from_text(state.board)
        steps = core.gen_steps(board, seat, RAYS[state.pic_backward][seat])
        return [cell_name(i) for i in sorted({i for i, _ in steps})]

    def legal_destinations(self, state: State, seat: int, source: str) -> list[str]:
        """Cells the piece on ``source`` can reach now (empty for anything illegal)."""
        if state.finished or seat != state.current:
            return []
        src = parse_cell(source)
        if src is None:
            return []
        board = core.board_from_text(state.board)
        steps = core.gen_steps(board, seat, RAYS[state.pic_backward][seat])
        return [cell_name(j) for j in sorted(j for i, j in steps if i == src)]

    def flip_choices(self, state: State, seat: int, source: str, dest: str) -> list[str]:
        """Enemy pieces the move ``source -> dest`` may turn red (the mover picks one when 2+).

        Raises the same RuleError as :meth:`apply` when the move itself is illegal.
        """
        board = core.board_from_text(state.board)
        i, j = self._check_move(state, seat, board, source, dest)
        return [cell_name(k) for k in core.flip_targets(board, seat, j)]

    # --- applying actions ------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state.finished:
            raise RuleError("common.error.game_over")
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "resign":
            if seat not in (0, 1):
                raise RuleError("common.error.not_your_turn")
            winner = 1 - seat
            new = replace(state, finished=True, winner=winner, reason="resign", region=None)
            return new, [{"type": "resigned", "seat": seat, "winner": winner}]
        if kind != "move":
            raise RuleError("common.error.unknown_action", action=str(kind))
        board = core.board_from_text(state.board)
        i, j = self._check_move(state, seat, board, action.get("from"), action.get("to"))
        f = self._check_flip(board, seat, j, action.get("flip"))
        return self._play(state, seat, board, i, j, f)

    def _check_move(self, state: State, seat: int, board: list[int], source: Any, dest: Any) -> tuple[int, int]:
        if state.finished:
            raise RuleError("common.error.game_over")
        if seat != state.current:
            raise RuleError("common.error.not_your_turn")
        i = parse_cell(source)
        if i is None:
            raise _err("off_board", cell=str(source if source is not None else ""))
        j = parse_cell(dest)
        if j is None:
            raise _err("off_board", cell=str(dest if dest is not None else ""))
        src, dst = cell_name(i), cell_name(j)
        code = board[i]
        if not code:
            raise _err("empty_cell", cell=src)
        owner, kind, is_red = core.decode(code)
        if is_red:
            raise _err("red_piece", cell=src, piece=KINDS[kind])
        if owner != seat:
            raise _err("enemy_piece", cell=src, piece=KINDS[kind])
        if i == j:
            raise _err("same_cell", cell=src)
        (r0, c0), (r1, c1) = divmod(i, SIZE), divmod(j, SIZE)
        dr, dc = r1 - r0, c1 - c0
        steps = max(abs(dr), abs(dc))
        params = {"piece": KINDS[kind], "from": src, "to": dst}
        if dr and dc and abs(dr) != abs(dc):
            raise _err("wrong_pattern", **params)
        unit = ((dr > 0) - (dr < 0), (dc > 0) - (dc < 0))
        allowed = core.ALLOWED[state.pic_backward][owner][kind]
        if unit not in allowed:
            raise _err("wrong_pattern", **params)
        if steps > allowed[unit]:
            raise _err("too_far", max=allowed[unit], **params)
        for s in range(1, steps):
            k = (r0 + unit[0] * s) * SIZE + c0 + unit[1] * s
            if board[k]:
                raise _err("blocked", cell=cell_name(k), **params)
        if board[j]:
            raise _err("occupied", cell=dst, **params)
        return i, j

    @staticmethod
    def _check_flip(board: list[int], seat: int, j: int, flip: Any) -> int:
        targets = core.flip_targets(board, seat, j)
        choices = ", ".join(cell_name(k) for k in targets)
        if flip is None or flip == "":
            if len(targets) > 1:
                raise _err("flip_required", choices=choices)
            return targets[0] if targets else -1
        f = parse_cell(flip)
        if f is None:
            raise _err("off_board", cell=str(flip))
        if not targets:
            raise _err("no_flip", cell=cell_name(f))
        if f not in targets:
            raise _err("bad_flip", cell=cell_name(f), choices=choices)
        return f

    def _play(self, state: State, seat: int, board: list[int], i: int, j: int,
              f: int) -> tuple[State, list[Event]]:
        before = {k: board[k] for k in ORTH[j]}  # the only cells a move changes besides i and j
        reserves = list(state.reserves)
        kind = core.decode(board[i])[1]
        core.make(board, reserves, seat, i, j, f)
        src, dst = cell_name(i), cell_name(j)
        events: list[Event] = [{"type": "moved", "seat": seat, "piece": KINDS[kind], "from": src, "to": dst}]
        recoloured, substituted, stayed = [], [], []
        for k in ORTH[j]:
            old = before[k]
            if old < 7:
                continue
            owner, rkind, _ = core.decode(old)
            cell = cell_name(k)
            ev = {"seat": seat, "cell": cell, "piece": KINDS[rkind], "owner": owner}
            if board[k] == old:
                stayed.append(cell)
                events.append({"type": "stays_red", **ev})
            elif owner == seat:
                recoloured.append(cell)
                events.append({"type": "recoloured", **ev})
            else:
                substituted.append(cell)
                events.append({"type": "substituted", **ev})
        if f >= 0:
            events.append({"type": "flipped", "seat": seat, "cell": cell_name(f),
                           "piece": KINDS[core.decode(before[f])[1]], "owner": 1 - seat})
        nxt = 1 - seat
        key = core.position_key(board, reserves, nxt)
        history = dict(state.history)
        history[key] = history.get(key, 0) + 1
        last = {"seat": seat, "piece": KINDS[kind], "from": src, "to": dst,
                "flip": cell_name(f) if f >= 0 else None, "recoloured": recoloured,
                "substituted": substituted, "stayed_red": stayed}
        winner: int | None = None
        reason = region = None
        region = core.region_win(board, seat)
        if region is not None:
            winner, reason = seat, "region"
        elif core.coloured_count(board, nxt) == 0:
            winner, reason = seat, "all_red"
        elif not core.has_step(board, nxt, RAYS[state.pic_backward][nxt]):
            winner, reason = seat, "no_moves"
        elif history[key] >= 3:
            reason = "repetition"
        finished = reason is not None
        new = replace(state, board=core.board_to_text(board), reserves=tuple(reserves),
                      current=seat if finished else nxt, ply=state.ply + 1, last_move=last,
                      history=history, finished=finished, winner=winner, reason=reason, region=region)
        if reason == "region":
            events.append({"type": "won_region", "winner": seat, "region": region})
        elif reason == "all_red":
            events.append({"type": "won_all_red", "winner": seat, "loser": nxt})
        elif reason == "no_moves":
            events.append({"type": "won_no_moves", "winner": seat, "loser": nxt})
        elif reason == "repetition":
            events.append({"type": "draw_repetition", "winners": [0, 1]})
        else:
            events.append({"type": "turn", "seat": nxt})
        return new, events

    # --- information -----------------------------------------------------------
    def view(self, state: State, seat: int | None) -> View:
        """Everything is public in Tectonic: every seat and spectators see the same board."""
        board = core.board_from_text(state.board)
        pieces = []
        for i, code in enumerate(board):
            if code:
                owner, kind, is_red = core.decode(code)
                pieces.append({"cell": cell_name(i), "owner": owner, "piece": KINDS[kind], "red": is_red})
        reserves = [{KINDS[k]: state.reserves[3 * o + k] for k in range(3)} for o in (0, 1)]
        on_board = [{KINDS[k]: sum(1 for c in board if c == core.coloured(o, k)) for k in range(3)}
                    for o in (0, 1)]
        red = [{KINDS[k]: sum(1 for c in board if c == core.red(o, k)) for k in range(3)} for o in (0, 1)]
        key = core.position_key(board, list(state.reserves), state.current)
        return {
            "game": self.name,
            "players": 2,
            "seat": seat,
            "colours": list(COLOURS),
            "size": SIZE,
            "files": core.FILES,
            "regions": {name: {"owner": o, "cells": [cell_name(i) for i in cells]}
                        for name, (o, cells) in REGIONS.items()},
            "pieces": pieces,
            "reserves": reserves,
            "on_board": on_board,
            "red": red,
            "current": None if state.finished else state.current,
            "ply": state.ply,
            "last_move": state.last_move,
            "repetitions": state.history.get(key, 0),
            "options": {"pic_backward": state.pic_backward},
            "finished": state.finished,
            "winner": state.winner,
            "reason": state.reason,
            "region": state.region,
        }

    def is_over(self, state: State) -> bool:
        return state.finished

    def result(self, state: State) -> Result | None:
        if not state.finished:
            return None
        if state.winner is None:
            ranks = [1, 1]
        else:
            ranks = [1 if s == state.winner else 2 for s in (0, 1)]
        return Result(scores=[None, None], ranks=ranks,
                      details={"reason": state.reason, "region": state.region, "winner": state.winner,
                               "plies": state.ply})

    # --- persistence -----------------------------------------------------------
    def to_dict(self, state: State) -> dict[str, Any]:
        d = asdict(state)
        d["reserves"] = list(state.reserves)
        return stamp_schema(d, self.SCHEMA)

    def from_dict(self, data: dict[str, Any]) -> State:
        d = unstamp_schema(self.name, data, self.SCHEMA)
        d["reserves"] = tuple(d["reserves"])
        d["history"] = dict(d.get("history") or {})
        if d.get("last_move") is not None:
            d["last_move"] = dict(d["last_move"])
        return State(**d)

    # --- AI and defaults -------------------------------------------------------
    #: the AI (``engines.tectonic.ai.play``), plugged in by the game's package (``engines/tectonic/__init__.py``):
    #: an AI depends on its engine, the engine never imports its AI
    ai: Callable[[TectonicEngine, State, int, int], Action] | None = None

    def ai_action(self, state: State, seat: int, level: int = 1) -> Action:
        """A searched move: level 1 looks one move ahead, 2 three plies, 3 deepens within a node budget."""
        return plugged_ai(self)(self, state, seat, level)

    def takeback_refusal(self, before: State, seat: int, action: Action, after: State,
                         events: list[Event]) -> str | None:
        """Why this move can never be taken back (a catalog key), or None (docs/rules, "Takebacks")."""
        if self.is_over(after):
            return "undo.reason.game_over"
        # open information, no chance: any move may be taken back, except the one that ended the game
        return refusal_from_events(events, {})

    def default_action(self, state: State, seat: int) -> Action:
        """Timeout: the level-1 AI's move."""
        return self.ai_action(state, seat, 1)


ENGINE = TectonicEngine()
