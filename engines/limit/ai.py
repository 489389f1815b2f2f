"""A simple greedy player: put the tile where it best extends lines that are still
one colour, and discard (Déchetterie, big orchid) what fits nowhere."""

from __future__ import annotations

from collections.abc import Mapping

from engines.base import Action, RuleError
from engines.limit.boards import BIG_ORCHID, DECHETTERIE, ORCHIDEE, PASS_NAME, Board
from engines.limit.engine import RELOCATE, LimitEngine, State
from engines.limit.tiles import TILES

DISCARD_COST = 4.0
PASS_COST = 6.0
ORCHID_COST = 3.0


def line_term(board: Board, line_idx: int, cells: Mapping[str, str], tile: str) -> float:
    """How much placing ``tile`` on an empty hex of the line helps (+) or hurts (-) it."""
    line = board.lines[line_idx]
    d = line.direction
    v = TILES[tile].values[d]
    hexes = line.hexes
    size = len(hexes)
    seen: set[int] = set()
    k = 0
    for c in hexes:
        t = cells.get(c)
        if t is not None:
            seen.add(TILES[t].values[d])
            k += 1
    if len(seen) > 1:
        return 0.0  # already broken: a free spot for a misfit tile
    if not seen or v in seen:
        return v * size * ((k + 1) / size) ** 2
    w = next(iter(seen))
    return -w * size * (k / size) ** 2 - 1.0


def position_score(board: Board, cells: Mapping[str, str], pos: str, tile: str) -> float:
    return sum(line_term(board, i, cells, tile) for i in board.line_ids_through[pos])


def choose_position(engine: LimitEngine, state: State, b: int, tile: str, legal: list[str]) -> str:
    main = engine.main_board(state)
    cells = state.boards[b]
    best, best_score = legal[0], float("-inf")
    for pos in legal:
        if pos in main.name_set:
            score = position_score(main, cells, pos, tile)
        elif pos in DECHETTERIE.name_set:
            score = 0.5 * position_score(DECHETTERIE, cells, pos, tile) - DISCARD_COST
        elif pos == PASS_NAME:
            score = -PASS_COST
        elif pos == BIG_ORCHID:
            score = 0.5 * max(position_score(ORCHIDEE, cells, h, tile) for h in ORCHIDEE.hole_names) - ORCHID_COST
        else:  # pragma: no cover - legal positions are one of the above
            score = float("-inf")
        if score > best_score:
            best, best_score = pos, score
    return best


def choose_fill(cells: Mapping[str, str], tile: str, legal: list[str]) -> str:
    """Pass variant: the holder builds the best Déchetterie it can (the highest pays)."""
    return max(legal, key=lambda p: (position_score(DECHETTERIE, cells, p, tile), -legal.index(p)))


def play(engine: LimitEngine, state: State, seat: int, level: int = 1) -> Action:
    """The AI's action (plugged into the engine as ``ai_action``): the position where the tile best
    extends still-pure lines, the fill that costs least; the relocation is the default one."""
    if state.phase == RELOCATE:
        return engine.default_action(state, seat)
    legal = engine.legal_positions(state, seat)
    tile = engine.current_tile(state)
    if legal:
        b = engine.board_of(state, seat)
        pos = choose_position(engine, state, b, tile, legal)
        return {"type": "place", "tile": tile, "position": pos}
    for owner in engine.pending_fills(state, seat):
        pos = choose_fill(state.boards[owner], tile, engine.fill_positions(state, owner))
        return {"type": "fill", "board": owner, "tile": tile, "position": pos}
    raise RuleError("common.error.not_your_turn")
