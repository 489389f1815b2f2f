"""The Armada AI: one-move search with a threat-aware evaluation, for either side.

Every candidate move (with each capture choice) is played on a copy of the board
and scored by what it takes now and by the capture threats left on the board for
the next two half-moves: which of our ships the opponent could take on its
reply (bad), and which of theirs we could take after (good). Level 2 adds a
reply search: for the best candidates, the opponent's strongest answers are played
and the position scored again from our side. Level 3 searches the game tree:
negamax with alpha-beta over the engine's own ``apply`` (the engine is the
model), iterative deepening to ``DEPTH_3`` plies, at each node the ``BEAM_3``
best candidates by the level-1 score, a leaf worth its best level-1 score, a
finished round worth ``ROUND_WON`` to its winner. It stops after ``NODES_3``
expanded positions (a node budget, not a clock: the move depends only on the
state) and keeps the best move of the deepest search, the unfinished depth
counting for the moves it has examined. Tie-breaks draw from the game seed, so a
move is a pure function of the state. Armada shows everything to both seats:
there is nothing hidden for the AI to read.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engines.base import Action, derive_rng

from .board import (
    EMPTY,
    ENGLAND,
    OPPOSITE,
    SPAIN,
    Geometry,
    england_targets,
    english_partners,
    geometry,
    spain_targets,
    three_aligned,
)
from .engine import ArmadaEngine, State, england_pivots, england_place_points

CAPTURE = 100.0
EXPOSED = 40.0  # the opponent can take something on its reply
PER_EXPOSED_SHIP = 8.0
PER_EXPOSING_MOVE = 1.5
PER_THREAT_SHIP = 9.0
PER_THREAT_MOVE = 0.8
DEEPEN = 6  # level 2: candidates searched one reply deeper
DEPTH_3 = 4  # level 3: deepest search (plies)
BEAM_3 = (8, 5, 4, 3)  # level 3: candidates searched at each ply from the root
NODES_3 = 70  # level 3: positions expanded per move (each costs one ``scored_moves``: ~5-15 ms)
NEXT_DEPTH_SHARE_3 = 0.4  # level 3: no deeper search once this share of the budget is spent
ROUND_WON = 10_000.0


# --- threat maps ----------------------------------------------------------------------------------

def spain_threats(board: Sequence[int], geo: Geometry) -> dict[int, int]:
    """English ship -> number of Spanish placements that would take it next move."""
    out: dict[int, int] = {}
    for e, cell in enumerate(board):
        if cell != ENGLAND:
            continue
        count = 0
        for ray in geo.rays[e]:
            vals = [board[c] for c in ray]
            m = len(vals)
            for t in range(m):
                if vals[t] != EMPTY:
                    continue
                back = 0
                i = t - 1
                while i >= 0 and vals[i] == SPAIN:
                    back += 1
                    i -= 1
                fwd = 0
                i = t + 1
                while i < m and vals[i] == SPAIN:
                    fwd += 1
                    i += 1
                length = back + 1 + fwd
                if length >= 2 and t - back + 1 <= length:
                    count += 1
        if count:
            out[e] = count
    return out


def _england_destinations(board: list[int], geo: Geometry, can_place: bool) -> Iterator[int]:
    """Each point England could move a ship to next (a placement beside one of its ships, or a
    pivot around a partner), yielded with the ship tentatively there (and lifted from its origin
    for a pivot); points that would align three are skipped. ``board`` is restored each time."""
    ships = [q for q, c in enumerate(board) if c == ENGLAND]

    def tentative(p: int) -> Iterator[int]:
        board[p] = ENGLAND
        try:
            if three_aligned(board, p, geo) is None:
                yield p
        finally:
            board[p] = EMPTY

    if can_place:
        seen: set[int] = set()
        for s in ships:
            for _, p in geo.neighbours[s]:
                if board[p] == EMPTY and p not in seen:
                    seen.add(p)
                    yield from tentative(p)
    for a in ships:
        partners = english_partners(board, a, geo)
        if not partners:
            continue
        board[a] = EMPTY
        try:
            seen = set()
            for centre in partners:
                for _, p in geo.neighbours[centre]:
                    if p != a and board[p] == EMPTY and p not in seen:
                        seen.add(p)
                        yield from tentative(p)
        finally:
            board[a] = ENGLAND


def england_threats(board: list[int], geo: Geometry, can_place: bool) -> dict[int, int]:
    """Spanish ship -> number of English moves (placements, pivots) that would take it next move.

    ``board`` is modified during the scan and restored.
    """
    out: dict[int, int] = {}
    for p in _england_destinations(board, geo, can_place):
        for t in england_targets(board, p, geo):
            out[t] = out.get(t, 0) + 1
    return out


def england_moves(board: list[int], geo: Geometry, can_place: bool) -> list[tuple[int, tuple[int, ...]]]:
    """England's legal moves as ``(destination, aims)``: the points its pairs would then aim at.

    Whether an aim holds a Spanish ship is left to the caller, so one list serves
    every Spanish candidate that only adds a ship elsewhere. ``board`` is restored.
    """

    def aims(p: int) -> tuple[int, ...]:
        rays = geo.rays[p]
        found = []
        for k, q in geo.neighbours[p]:
            if board[q] != ENGLAND:
                continue
            if len(rays[k]) > 1:
                found.append(rays[k][1])
            back = rays[OPPOSITE[k]]
            if back:
                found.append(back[0])
        return tuple(found)

    return [(p, aims(p)) for p in _england_destinations(board, geo, can_place)]


def _evaluate(board: list[int], side: int, geo: Geometry, england_can_place: bool,
              e_threats: dict[int, int] | None = None) -> float:
    """Score of ``board`` for ``side``, which has just moved (the opponent replies next)."""
    s_threats = spain_threats(board, geo)
    if e_threats is None:
        e_threats = england_threats(board, geo, england_can_place)
    if side == SPAIN:
        mine, theirs = s_threats, e_threats
    else:
        mine, theirs = e_threats, s_threats
    score = 0.0
    if theirs:
        score -= EXPOSED + PER_EXPOSED_SHIP * len(theirs) + PER_EXPOSING_MOVE * sum(theirs.values())
    score += PER_THREAT_SHIP * min(len(mine), 3) + PER_THREAT_MOVE * min(sum(mine.values()), 12)
    return score


def _candidates(state: State, geo: Geometry) -> list[tuple[int | None, int]]:
    """``(from, to)`` moves worth scoring for the side to move (all of them but Spain's re-placements)."""
    board = state.board
    if state.turn == ENGLAND:
        moves: list[tuple[int | None, int]] = [(None, p) for p in england_place_points(state, board)]
        moves += [(a, p) for a, p, _ in england_pivots(board, geo)]
        return moves
    empties = [q for q, c in enumerate(board) if c == EMPTY]
    if state.reserve[0] > 0:
        return [(None, p) for p in empties]
    return _spain_moves(state, geo, empties)


def _spain_moves(state: State, geo: Geometry, empties: list[int]) -> list[tuple[int | None, int]]:
    """Spain's re-placements, pruned: capturing ones, plus the best-looking origins and destinations."""
    board = list(state.board)
    ships = [q for q, c in enumerate(board) if c == SPAIN]
    e_threats = england_threats(board, geo, _england_can_place(state, board))
    # destinations: capturing ones first, then those next to Spanish ships / aligned with English ones
    dest_score = {}
    for p in empties:
        board[p] = SPAIN
        takes = bool(spain_targets(board, p, geo))
        board[p] = EMPTY
        near = sum(1 for _, q in geo.neighbours[p] if board[q] == SPAIN)
        dest_score[p] = (1000 if takes else 0) + near
    dests = sorted(empties, key=lambda p: -dest_score[p])
    capturing = [p for p in dests if dest_score[p] >= 1000]
    others = [p for p in dests if dest_score[p] < 1000][:10]
    # origins: threatened ships first, then the least connected
    def origin_key(a: int) -> tuple[int, int]:
        near = sum(1 for _, q in geo.neighbours[a] if board[q] == SPAIN)
        return (0 if a in e_threats else 1, near)

    origins = sorted(ships, key=origin_key)
    moves: list[tuple[int | None, int]] = []
    for p in capturing:
        moves += [(a, p) for a in origins[:8]]
    moves += [(a, p) for a in origins[:6] for p in others]
    return moves


def _england_can_place(state: State, board: Sequence[int]) -> bool:
    on_board = sum(1 for c in board if c == ENGLAND)
    return on_board < 5 and state.reserve[1] > 0


def scored_moves(state: State) -> list[tuple[float, int | None, int, int | None]]:
    """Every candidate ``(score, from, to, capture)`` for the side to move, best first."""
    geo = geometry(state.size)
    side = state.turn
    rng = derive_rng(state.seed, "ai", state.round_no, state.ply)
    out = []
    base = list(state.board)
    eng_reserve = state.reserve[1]
    base_moves = None
    if side == SPAIN:
        base_moves = england_moves(base, geo, _england_can_place(state, base))
    for frm, to in _candidates(state, geo):
        board = base[:]
        if frm is not None:
            board[frm] = EMPTY
        board[to] = side
        targets = spain_targets(board, to, geo) if side == SPAIN else england_targets(board, to, geo)
        for target in targets or [None]:
            if target is not None:
                board[target] = EMPTY
            reserve = eng_reserve - (1 if side == ENGLAND and frm is None else 0)
            can_place = sum(1 for c in board if c == ENGLAND) < 5 and reserve > 0
            e_threats = None
            if base_moves is not None and frm is None and target is None:
                # Spain only added a ship at ``to``: England's moves are the same, minus ``to``
                e_threats = {}
                for dest, aims in base_moves:
                    if dest == to:
                        continue
                    for t in aims:
                        if board[t] == SPAIN:
                            e_threats[t] = e_threats.get(t, 0) + 1
            score = _evaluate(board, side, geo, can_place, e_threats)
            if target is not None:
                score += CAPTURE
            score += rng.random() * 0.01
            out.append((score, frm, to, target))
            if target is not None:
                board[target] = ENGLAND if side == SPAIN else SPAIN
    out.sort(key=lambda m: -m[0])
    return out


def _to_action(state: State, frm: int | None, to: int, target: int | None) -> Action:
    names = geometry(state.size).names
    if frm is None:
        action: Action = {"type": "place", "point": names[to]}
    elif state.turn == SPAIN:
        action = {"type": "move", "from": names[frm], "to": names[to]}
    else:
        action = {"type": "pivot", "from": names[frm], "to": names[to]}
    if target is not None:
        action["capture"] = names[target]
    return action


def choose(engine: ArmadaEngine, state: State, seat: int, level: int = 1) -> Action:
    """The AI's action for ``seat`` (a legal action whenever it is ``seat``'s turn)."""
    geo = geometry(state.size)
    if state.finished or seat != state.current:
        return {"type": "pass"}
    if state.pending:
        best = None
        for target in state.pending:
            board = list(state.board)
            board[target] = EMPTY
            can_place = sum(1 for c in board if c == ENGLAND) < 5 and state.reserve[1] > 0
            score = _evaluate(board, state.turn, geo, can_place)
            if best is None or score > best[0]:
                best = (score, target)
        return {"type": "capture", "point": geo.names[best[1]]}
    moves = scored_moves(state)
    if not moves:
        return {"type": "pass"}
    if level >= 3:
        return _to_action(state, *search_move(engine, state, moves))
    if level >= 2:
        moves = _deepen(engine, state, moves[:DEEPEN])
    _, frm, to, target = moves[0]
    return _to_action(state, frm, to, target)


def _deepen(engine: ArmadaEngine, state: State, top: list) -> list:
    """Re-score the best candidates by the opponent's strongest answers (level 2).

    For each candidate, the opponent's three best replies (by the level-1 score)
    are played; the candidate is worth what it takes, minus what the worst reply
    takes back, plus whether we can take a ship again afterwards.
    """
    geo = geometry(state.size)
    side = state.turn
    rescored = []
    for score, frm, to, target in top:
        action = _to_action(state, frm, to, target)
        after, _ = engine.apply(state, state.current, action)
        if after.round_no != state.round_no or after.finished:
            rescored.append((10_000.0, frm, to, target))
            continue
        if after.pending:  # unreachable: the action carries its capture
            rescored.append((score, frm, to, target))
            continue
        gained = CAPTURE if target is not None else 0.0
        worst = None
        for _, rfrm, rto, rtarget in scored_moves(after)[:3]:
            reply = _to_action(after, rfrm, rto, rtarget)
            answer, _ = engine.apply(after, after.current, reply)
            if answer.round_no != state.round_no or answer.finished:
                value = -10_000.0
            else:
                value = gained - (CAPTURE if rtarget is not None else 0.0)
                board = list(answer.board)
                if side == SPAIN:
                    again = spain_threats(board, geo)
                else:
                    can_place = sum(1 for c in board if c == ENGLAND) < 5 and answer.reserve[1] > 0
                    again = england_threats(board, geo, can_place)
                value += 0.5 * CAPTURE if again else 0.0
            worst = value if worst is None else min(worst, value)
        value = worst if worst is not None else gained
        rescored.append((value + 0.001 * score, frm, to, target))
    rescored.sort(key=lambda m: -m[0])
    return rescored


# --- level 3: game-tree search ------------------------------------------------------------------

class _Budget(Exception):
    pass


class _Tree:
    """Negamax with alpha-beta over the engine's ``apply``, with a budget of expanded positions."""

    def __init__(self, engine: ArmadaEngine, max_nodes: int) -> None:
        self.engine = engine
        self.max_nodes = max_nodes
        self.nodes = 0

    def expand(self, state: State) -> list[tuple[float, int | None, int, int | None]]:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _Budget
        return scored_moves(state)

    def child(self, state: State, frm: int | None, to: int, target: int | None) -> tuple[State, float | None]:
        """The position after a move, and its value for the mover when it ended the round."""
        after, _ = self.engine.apply(state, state.current, _to_action(state, frm, to, target))
        if after.round_no != state.round_no or after.finished:
            winner = after.rounds[-1]["winner"]
            return after, 0.0 if winner is None else (ROUND_WON if winner == state.current else -ROUND_WON)
        return after, None

    def value(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of ``state`` for its side to move, ``depth`` plies deep."""
        moves = self.expand(state)
        if not moves:  # no move: the side passes
            after, _ = self.engine.apply(state, state.current, {"type": "pass"})
            if after.round_no != state.round_no or after.finished:
                return 0.0
            return -self.value(after, depth - 1, -beta, -alpha, ply + 1) if depth > 1 else 0.0
        if depth <= 1:
            return moves[0][0]
        best = -2 * ROUND_WON
        for _score, frm, to, target in moves[:BEAM_3[min(ply, len(BEAM_3) - 1)]]:
            after, ended = self.child(state, frm, to, target)
            if ended is not None:
                v = ended - ply  # the quicker win, the later loss
            else:
                v = (CAPTURE if target is not None else 0.0) - self.value(after, depth - 1, -beta, -alpha, ply + 1)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best


def search_move(engine: ArmadaEngine, state: State, moves: list) -> tuple[int | None, int, int | None]:
    """Level 3: the root move ``(from, to, capture)`` found by iterative deepening within ``NODES_3``."""
    tree = _Tree(engine, NODES_3)
    tree.nodes = 1  # the root's candidates (``moves``) are already scored
    root = moves[:BEAM_3[0]]
    best = root[0][1:]
    for depth in range(2, DEPTH_3 + 1):
        if best != root[0][1:]:  # the previous best is searched first
            root = [m for m in root if m[1:] == best] + [m for m in root if m[1:] != best]
        alpha = -2 * ROUND_WON
        scored = []
        try:
            for score, frm, to, target in root:
                after, ended = tree.child(state, frm, to, target)
                if ended is not None:
                    v = ended
                else:
                    v = (CAPTURE if target is not None else 0.0) - tree.value(after, depth - 1, -2 * ROUND_WON, -alpha, 1)
                scored.append((v + 0.001 * score, (frm, to, target)))
                alpha = max(alpha, v)
        except _Budget:
            # the previous best was searched first: a move that beat it at this depth is an improvement
            if scored:
                best = max(scored, key=lambda vm: vm[0])[1]
            break
        best_value, best = max(scored, key=lambda vm: vm[0])
        if abs(best_value) >= ROUND_WON / 2 or tree.nodes > NODES_3 * NEXT_DEPTH_SHARE_3:
            break
    return best
