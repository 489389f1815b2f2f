"""Tectonic AI: negamax with alpha-beta over complete moves, iterative deepening.

Evaluation (from the side to move): pieces of one's colour on the board (100
each), own red pieces (recoverable, 15) and reserve pieces (they allow
substitutions, 40), minus 25 per move still needed to gather a colline, a pic and
a mont in the nearer opponent region (precomputed empty-board distances,
``core.DIST``). Wins score ``WIN - ply`` so the quickest win is preferred.

Levels: 1 searches one ply, 2 three plies, 3 deepens up to seven plies within a
node budget. Every level stops after ``NODE_BUDGET[level]`` searched positions
and keeps the best move found so far (a depth is not started once 30% of the
budget is spent): a node budget, not a clock, so a move depends only on the
position and the seed, never on the machine's load. ``TIME_LIMIT`` is only a
safety net (2 s of wall clock, far above what a budget costs: level 3 spends
about 0.5 s of CPU on its 40,000 nodes). Ties are broken by a shuffle seeded
from the game seed and the move number.
"""

from __future__ import annotations

import time

from engines.base import Action, RuleError, derive_rng
from engines.tectonic import core
from engines.tectonic.core import DIST, RAYS, cell_name, gen_moves, make, region_win, unmake
from engines.tectonic.engine import State, TectonicEngine

WIN = 1_000_000
PIECE = 100
RED_OWN = 15
RESERVE = 40
STEP = 25
MISSING = 8  # moves counted for a kind absent from the board
MAX_DEPTH = {1: 1, 2: 3, 3: 7}
NODE_BUDGET = {1: 20_000, 2: 12_000, 3: 40_000}  # searched positions per move
TIME_LIMIT = 2.0  # safety net only (wall clock, seconds): the node budget ends a search long before
NEXT_DEPTH_SHARE = 0.3  # do not start another depth after this share of the budget


class _Timeout(Exception):
    pass


def evaluate(board: list[int], reserves: list[int], pic_back: str, side: int) -> int:
    """Static score of the position for ``side`` (positive = good for ``side``)."""
    dist = DIST[pic_back]
    best = [[MISSING, MISSING], [MISSING, MISSING], [MISSING, MISSING],
            [MISSING, MISSING], [MISSING, MISSING], [MISSING, MISSING]]
    material = [RESERVE * (reserves[0] + reserves[1] + reserves[2]),
                RESERVE * (reserves[3] + reserves[4] + reserves[5])]
    for i in range(100):
        c = board[i]
        if not c:
            continue
        if c < 7:
            c -= 1
            o = c // 3
            material[o] += PIECE
            d = dist[o][c - 3 * o]
            b = best[c]
            a0, a1 = d[0][i], d[1][i]
            if a0 < b[0]:
                b[0] = a0
            if a1 < b[1]:
                b[1] = a1
        else:
            material[(c - 7) // 3] += RED_OWN
    score = [0, 0]
    for o in (0, 1):
        b0, b1, b2 = best[3 * o], best[3 * o + 1], best[3 * o + 2]
        goal = min(b0[0] + b1[0] + b2[0], b0[1] + b1[1] + b2[1])
        score[o] = material[o] - STEP * goal
    return score[side] - score[1 - side]


class Search:
    def __init__(self, board: list[int], reserves: list[int], pic_back: str, deadline: float,
                 max_nodes: int = 1 << 60) -> None:
        self.board = board
        self.reserves = reserves
        self.pic_back = pic_back
        self.rays = RAYS[pic_back]
        self.dist = DIST[pic_back]
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0

    def order(self, moves: list[tuple[int, int, int]], side: int, first=None) -> list[tuple[int, int, int]]:
        board, dist = self.board, self.dist[side]
        lo = 1 + 3 * side

        def key(m):
            i, j, f = m
            d = dist[board[i] - lo]
            gain = min(d[0][i], d[1][i]) - min(d[0][j], d[1][j])
            return -(gain + (10 if f >= 0 else 0))

        moves = sorted(moves, key=key)
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        return moves

    def negamax(self, depth: int, alpha: int, beta: int, side: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes > self.max_nodes or (not self.nodes & 511 and time.perf_counter() > self.deadline):
            raise _Timeout
        board, reserves = self.board, self.reserves
        if depth == 0:
            return evaluate(board, reserves, self.pic_back, side)
        moves = gen_moves(board, side, self.rays[side])
        if not moves:
            return -WIN + ply
        if depth > 1:
            moves = self.order(moves, side)
        best = -WIN - 1
        other = 1 - side
        for i, j, f in moves:
            undo = make(board, reserves, side, i, j, f)
            if region_win(board, side) is not None or (f >= 0 and not core.coloured_count(board, other)):
                score = WIN - ply - 1
            else:
                score = -self.negamax(depth - 1, -beta, -alpha, other, ply + 1)
            unmake(board, reserves, i, j, undo)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best


def choose(state, seat: int, level: int = 1) -> tuple[int, int, int]:
    """The AI's move (from, to, flip or -1) for ``seat`` in engine ``state``."""
    level = min(max(int(level), 1), 3)
    start = time.perf_counter()
    board = core.board_from_text(state.board)
    reserves = list(state.reserves)
    budget = NODE_BUDGET[level]
    search = Search(board, reserves, state.pic_backward, start + TIME_LIMIT, budget)
    moves = gen_moves(board, seat, search.rays[seat])
    if not moves:  # cannot happen in a running game (no legal move ends it)
        raise ValueError("no legal move")
    rng = derive_rng(state.seed, "ai", state.ply, seat, level)
    rng.shuffle(moves)
    other = 1 - seat
    # root repetition: a third occurrence is a draw, a second one is discouraged
    seen = state.history
    best_move = moves[0]
    for depth in range(1, MAX_DEPTH[level] + 1):
        ordered = search.order(moves, seat, best_move)
        alpha, beta = -WIN - 1, WIN + 1
        scores = []
        try:
            for i, j, f in ordered:
                undo = make(board, reserves, seat, i, j, f)
                if region_win(board, seat) is not None or (f >= 0 and not core.coloured_count(board, other)):
                    score = WIN
                else:
                    score = -search.negamax(depth - 1, -beta, -alpha, other, 1)
                    times = seen.get(core.position_key(board, reserves, other), 0)
                    if times >= 2:
                        score = 0
                    elif times:
                        score -= STEP
                unmake(board, reserves, i, j, undo)
                scores.append(((i, j, f), score))
                if score > alpha:
                    alpha = score
        except _Timeout:
            # the board is left mid-search: only read the scores. The previous best was
            # searched first, so any move that beat it at this depth is a real improvement.
            if scores:
                best_move = max(scores, key=lambda ms: ms[1])[0]
            break
        best_move, best_score = max(scores, key=lambda ms: ms[1])
        if abs(best_score) >= WIN - 10:
            break
        if search.nodes > budget * NEXT_DEPTH_SHARE:
            break  # the next depth costs several times this one: it would not finish
    return best_move


def play(engine: TectonicEngine, state: State, seat: int, level: int = 1) -> Action:
    """The AI's action (plugged into the engine as ``ai_action``): a searched move; level 1 looks one
    move ahead, 2 three plies, 3 deepens up to seven plies within a node budget."""
    if state.finished:
        raise RuleError("common.error.game_over")
    if seat != state.current:
        raise RuleError("common.error.not_your_turn")
    i, j, f = choose(state, seat, level)
    return {"type": "move", "from": cell_name(i), "to": cell_name(j), "flip": cell_name(f) if f >= 0 else None}
