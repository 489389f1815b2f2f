"""A simple greedy player: put the tile where it best extends lines that are still
one colour, and discard (Déchetterie, big orchid) what fits nowhere."""

from __future__ import annotations

from collections.abc import Mapping

from engines.base import Action, RuleError, derive_rng
from engines.limit.boards import (
    BIG_ORCHID,
    BIG_ORCHID_CAPACITY,
    DECHETTERIE,
    NEXUS,
    ORCHIDEE,
    PASS_NAME,
    PENALTY,
    PENALTY_THRESHOLD,
    Board,
)
from engines.limit.engine import PLACE, RELOCATE, LimitEngine, State
from engines.limit.scoring import dechetterie_value, score_board
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
    if level >= 2:
        return play2(engine, state, seat)
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



# --- level 2: Monte-Carlo rollouts over the tiles still to come ---------------------------------------
#
# What the seat knows: its own cells, the announced tile, the pool and the tiles already announced, hence
# the multiset of the tiles not yet drawn — never their order (``state.deck`` is read only up to the
# current round). The rollout rule's best few placements are each played out to the end of the game over
# the same sampled futures (draws from that multiset, the rollout rule placing them), and the one with the
# best mean final score is kept. The rollout rule is the level-1 rule with its weights tuned by a search
# over 100 seeds (``ALPHA`` ... ``DECH_COST``: alone it scores about 440 on Nexus standard, the level-1
# rule 350); the rollouts overrule its choice only by a gain above the sampling noise. The samples come
# from a generator seeded by what the seat sees, so a position always gets the same move and a replay is
# exact.

CANDIDATES = 6  # placements the rollouts compare (the rollout rule's best ones)
BUDGET = 2400  # simulated placements per move (futures x candidates x tiles left), at least MIN_FUTURES
MIN_FUTURES = 6
MAX_FUTURES = 40
SIGNIFICANCE = 1.5  # how many standard errors a rollout gain must clear to overrule the rule's choice


def undrawn_tiles(engine: LimitEngine, state: State) -> list[str]:
    """The tiles not yet drawn, from what the seat may see: the pool less the tiles announced so far."""
    left = list(engine.pool(state))
    for t in state.deck[: state.round_no]:  # announced: public; the rest of the deck is never read
        left.remove(t)
    return left


#: the rollout rule's weights: a line's worth grows as (filled share) ** ALPHA, a colour counts as
#: value ** BETA, breaking a line costs BREAK times its worth plus BREAK_COST, a Déchetterie cell weighs
#: DECH_WEIGHT of its lines less DECH_COST
ALPHA, BETA, BREAK, BREAK_COST, DECH_WEIGHT, DECH_COST = 0.9, 0.52, 1.456, 0.79, 1.156, 5.3


def tuned_term(board: Board, line_idx: int, cells: Mapping[str, str], tile: str) -> float:
    line = board.lines[line_idx]
    d = line.direction
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
        return 0.0
    v = TILES[tile].values[d]
    if not seen or v in seen:
        return v ** BETA * size * ((k + 1) / size) ** ALPHA
    w = next(iter(seen))
    return -BREAK * w ** BETA * size * (k / size) ** ALPHA - BREAK_COST


def tuned_score(board: Board, cells: Mapping[str, str], pos: str, tile: str) -> float:
    return sum(tuned_term(board, i, cells, tile) for i in board.line_ids_through[pos])


def greedy_position(main: Board, cells: Mapping[str, str], tile: str, legal: list[str]) -> tuple[str, float]:
    """The rollout rule: the level-1 rule with tuned weights."""
    best, best_score = legal[0], float("-inf")
    for pos in legal:
        if pos in main.name_set:
            score = tuned_score(main, cells, pos, tile)
        elif pos in DECHETTERIE.name_set:
            score = DECH_WEIGHT * tuned_score(DECHETTERIE, cells, pos, tile) - DECH_COST
        elif pos == BIG_ORCHID:
            score = 0.5 * max(tuned_score(ORCHIDEE, cells, h, tile) for h in ORCHIDEE.hole_names) - ORCHID_COST
        else:
            score = -PASS_COST
        if score > best_score:
            best, best_score = pos, score
    return best, best_score


def final_score(engine: LimitEngine, state: State, cells: dict[str, str], orchid: list[str]) -> float:
    main = engine.main_board(state)
    rays = engine.rays(state)
    if main is ORCHIDEE:
        total = score_board(ORCHIDEE, cells, rays)["total"]
        if orchid:  # the relocation: each tile alone on its best hole (cheap, close to the exact best)
            gains = []
            for t in orchid:
                gains.append(max(score_board(ORCHIDEE, {**cells, h: t}, rays)["total"] - total
                                 for h in ORCHIDEE.hole_names))
            total += sum(g for g in gains if g > 0)
        return total
    main_cells = {k: v for k, v in cells.items() if k in NEXUS.name_set}
    total = score_board(NEXUS, main_cells, rays)["total"]
    if engine.has_dechetterie(state):
        value = dechetterie_value({k: v for k, v in cells.items() if k in DECHETTERIE.name_set})["value"]
        if value < PENALTY_THRESHOLD:
            total -= PENALTY
    return total


def rollout(engine: LimitEngine, state: State, cells: dict[str, str], orchid: list[str],
            future: list[str]) -> float:
    """Play ``future`` with the level-1 rule from ``cells`` and score the board."""
    main = engine.main_board(state)
    free_main = [n for n in main.names if n not in cells]
    dech = engine.has_dechetterie(state)
    free_dech = [x for x in DECHETTERIE.names if x not in cells] if dech else []
    for tile in future:
        legal = free_dech + free_main
        if main is ORCHIDEE and len(orchid) < BIG_ORCHID_CAPACITY:
            legal = [BIG_ORCHID, *legal]
        pos, _ = greedy_position(main, cells, tile, legal)
        if pos == BIG_ORCHID:
            orchid.append(tile)
        else:
            cells[pos] = tile
            (free_dech if pos in DECHETTERIE.name_set else free_main).remove(pos)
    return final_score(engine, state, cells, orchid)


def choose_position2(engine: LimitEngine, state: State, b: int, tile: str, legal: list[str]) -> str:
    main = engine.main_board(state)
    cells = state.boards[b]
    ranked = []
    for pos in legal:
        _, score = greedy_position(main, cells, tile, [pos])
        ranked.append((score, -legal.index(pos), pos))
    ranked.sort(reverse=True)
    candidates = [p for _, _, p in ranked[:CANDIDATES]]
    left = engine.rounds(state) - state.round_no
    if len(candidates) == 1 or left == 0:
        return candidates[0]
    undrawn = undrawn_tiles(engine, state)
    futures = max(MIN_FUTURES, min(MAX_FUTURES, BUDGET // (len(candidates) * left)))
    # what the seat sees (never the seed, which fixes the order of the tiles to come)
    seen = repr((state.plateau, state.variante, state.game_no, state.round_no, tile, sorted(cells.items()),
                 state.orchids[b]))
    rng = derive_rng(0, "limit-ai", seen)
    results: dict[str, list[float]] = {p: [] for p in candidates}
    for _ in range(futures):
        future = rng.sample(undrawn, left)
        for pos in candidates:
            orchid = list(state.orchids[b])
            new = dict(cells)
            if pos == BIG_ORCHID:
                orchid.append(tile)
            else:
                new[pos] = tile
            results[pos].append(rollout(engine, state, new, orchid, future))
    # the rule's own choice stands unless another beats it over the same futures by more than the noise
    first = candidates[0]
    best, best_gain = first, 0.0
    for pos in candidates[1:]:
        diffs = [x - y for x, y in zip(results[pos], results[first], strict=True)]
        mean = sum(diffs) / len(diffs)
        var = sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1)
        if mean > SIGNIFICANCE * (var / len(diffs)) ** 0.5 and mean > best_gain:
            best, best_gain = pos, mean
    return best


def play2(engine: LimitEngine, state: State, seat: int) -> Action:
    if state.phase != PLACE:
        return play(engine, state, seat, 1)  # the relocation: the best one
    legal = engine.legal_positions(state, seat)
    tile = engine.current_tile(state)
    if legal:
        b = engine.board_of(state, seat)
        if engine.passes(state):  # the pass variant: the rollout rule alone (the Déchetterie is another's)
            pos, _ = greedy_position(engine.main_board(state), state.boards[b], tile, legal)
        else:
            pos = choose_position2(engine, state, b, tile, legal)
        return {"type": "place", "tile": tile, "position": pos}
    return play(engine, state, seat, 1)
