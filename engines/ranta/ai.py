"""Range ta Ludothèque's AI.

Level 1: the greedy move (the engine's ``greedy_action``: the box or mat that scores most right now).

Level 2 has two parts.

* A tuned estimate of a kallax: the score it has now plus what the rounds still to come may add,
  read only from the seat's own kallax and the number of rounds left: how the cubbies can still be
  packed (a cubby fills as a skyline, so a table gives the fewest placements that fill it and the most
  boxes it can still take), and per mode what the kallax can still grow into (classic: the groups with
  empty cells next to them; expert: cubbies not yet full or that can no longer be filled, deck-building
  and card games with room left in their cubby, a secret role still to get or lost, memory games, bluff
  and programming games with empty cells around them...). Each feature has two weights (while
  rounds remain, and per round left), tuned by a local search over training games (seeds >= 1000,
  ``bench/tune_ranta_ai.py``). Playing the move with the best estimate is the *tuned policy*.
* Rollouts: the policy's best few moves are each played out to the end of the game by the tuned
  policy over the same sampled futures (three fair dice a round, drawn from a generator seeded by what
  the seat sees: its kallax and the dice so far; never the seed, which fixes the dice to come), and the
  move with the best total is played. Classic: every round, 4 moves x 8 futures; expert: the last eight
  rounds only, 6 moves over as many futures as a fixed number of rounds played out allows (21 futures
  with eight rounds left, 42 with four, 64 at most): with 16 futures, the noise of the comparison cost
  more than anything else.

The search runs on ``engines/ranta/model.py`` (cells as bits), which scores exactly as the engine, and
the rollouts' policy step computes each expert move's estimate from its parent kallax
(:func:`expert_values`).
"""

from __future__ import annotations

from functools import lru_cache
from operator import add, mul, sub

from engines.base import Action, derive_rng
from engines.ranta import model as M
from engines.ranta.engine import BOX, MAT, PASS, RantaEngine, State
from engines.ranta.scoring import CLASSIC

#: per mode: the best moves by the estimate that the rollouts compare, the most sampled futures (dice of
#: every round left) each is played out on, and from how many rounds left on the rollouts run. In expert,
#: rollouts from the first round measured no better than the estimate alone, with as few futures as the
#: time allowed then; it plays the estimate until the last eight rounds (see docs/benchmarks.md)
CANDIDATES = {CLASSIC: 4, "expert": 6}
ROLLOUTS = {CLASSIC: 8, "expert": 64}
ROLLOUT_LEFT = {CLASSIC: 11, "expert": 8}
#: expert: the rounds played out per move (candidates x futures x rounds left), shared evenly, so a move
#: late in the game compares its candidates on more futures (up to ``ROLLOUTS``): 21 futures with eight
#: rounds left, 42 with four. Noise was what the rollouts lost most to: over training seeds 1100..1299,
#: 16 futures scored 61.3, 48 futures 62.5 (at up to 4 s a move), this budget 62.4
ROLLOUT_BUDGET = {CLASSIC: None, "expert": 1024}

CELLS = len(M.CELLS)

#: feature names; each has two weights: constant while rounds remain, and per remaining round / 11
FEATURES = {
    CLASSIC: ("empty", "short", "future_games", "dead", "grow", "open_best", "singles"),
    "expert": ("empty", "short", "future_games", "dead", "cubby_bonus", "deck_room", "card_room",
               "no_secret", "memory_short", "t_at_risk", "bluff_open", "programming_open", "t_lost",
               "secrets_lost", "stranded", "one_memory"),
}
WEIGHTS: dict[str, tuple[float, ...]] = {
    CLASSIC: (0.0, 1.5, -0.75, -1.5, 0.875, 1.75, -0.75, -0.5, 0.0, 1.05, 0.125, -0.45, -0.625, 0.875),
    "expert": (0.5, 0.875, -1.25, -1.125, 0.75, 0.875, -1.625, -0.875, 0.625, 0.875, 0.0, 0.5, 0.0,
               0.75, 1.25, 3.125, -0.125, 1.0, -0.25, 0.125, 0.5, 0.5, 0.5, 0.0, 0.0, 0.75, 0.5,
               0.0, -0.5, 0.0, 0.0, 0.0),
}


def features(games: tuple[M.Game, ...], occ: int, mode: str, left: int) -> tuple[int, list[float]]:
    """``(exact score now, estimate features)`` of a kallax with ``left`` rounds still to play."""
    if mode != CLASSIC:
        _by_cubby, totals, counts, watchers = _expert_parent(games, occ, left)
        return _expert_figures(totals["all"], *counts, watchers, None, ~occ, left)
    empty = CELLS - occ.bit_count()
    fill = room = cover = 0
    for cubby in M.CUBBIES:
        f, g, c = M.LOCAL_TABLE[M.cubby_bits(occ, cubby)]
        fill += f
        room += g
        cover += c
    common = [empty, max(0, fill - left), min(left, room), empty - cover]
    now = -empty
    grow = open_best = singles = 0
    for attr in (0, 1):
        best_open = 0
        for size, halo, count in M.largest_groups(games, attr):
            if size >= 2:
                now += size
            opened = halo & ~occ
            if size and opened:
                grow += size
                best_open = max(best_open, size)
            singles += count - size
        open_best += best_open
    return now, [*common, grow, open_best, singles]


@lru_cache(maxsize=4096)
def _coefficients(weights: tuple[float, ...], left: int) -> tuple[float, ...]:
    """Each feature's weight with ``left`` rounds to play: its constant plus its part per round left."""
    scale = left / 11
    return tuple(weights[2 * i] + weights[2 * i + 1] * scale for i in range(len(weights) // 2))


def value(games: tuple[M.Game, ...], occ: int, mode: str, left: int, weights) -> float:
    now, feats = features(games, occ, mode, left)
    if left <= 0:
        return now
    return now + sum(map(mul, feats, _coefficients(tuple(weights), left)))


def choose(items, dice: tuple[int, ...], round_no: int, rounds: int, mode: str, weights=None):
    """The best placement for a kallax (``items``) and a roll: a ``model.moves`` entry, or None when full."""
    weights = WEIGHTS[mode] if weights is None else weights
    occ, games = M.from_items(items)
    left = rounds - round_no
    best, best_value = None, float("-inf")
    for move in M.moves(occ, dice):
        perm, _orientation, slot, cat, mech = move
        new_games = games if perm is None else (*games, M.game_of(slot, cat, mech))
        v = value(new_games, occ | slot.mask, mode, left, weights)
        if v > best_value + 1e-9:
            best, best_value = move, v
    return best


def policy_step(games, occ: int, dice: tuple[int, ...], left: int, mode: str, weights):
    """The tuned one-step policy on the fast model: ``(games, occ)`` after its move (unchanged if full)."""
    best, best_value = (games, occ), float("-inf")
    if mode != CLASSIC:
        for v, new_games, new_occ in expert_values(games, occ, dice, left, weights):
            if v > best_value + 1e-9:
                best, best_value = (new_games, new_occ), v
        return best
    for perm, _o, slot, cat, mech in M.moves(occ, dice):
        new_games = games if perm is None else (*games, M.game_of(slot, cat, mech))
        v = value(new_games, occ | slot.mask, mode, left, weights)
        if v > best_value + 1e-9:
            best, best_value = (new_games, occ | slot.mask), v
    return best


# --- expert's estimate move by move: what a move changes, from its parent kallax (the rollouts' hot path) ---

def _cubby_part(mates, bits: int, left: int) -> tuple[int, ...]:
    """What one cubby adds to expert's score and features, from its own games and cells:
    ``(points, empty cells, fill, room, cover, cubby bonus, deck room, card room, Tables with room,
    lost Tables, stranded games)``; the points (``model.cubby_effects`` and the full cubby's bonus) leave
    out memory, secret roles and neighbours."""
    fill, room, cover = M.LOCAL_TABLE[bits]
    n = len(mates)
    full = bits == 511
    points = M.cubby_effects(mates) + (2 * n if full else 0)
    deck_room = card_room = t_room = t_lost = 0
    if n:
        different = len({m.category for m in mates}) == n and len({m.mechanic for m in mates}) == n
        for m in mates:
            if m.category == M.T:
                t_lost += not different
                t_room += room > 0
            elif m.category == M.C:
                card_room += room
            if m.mechanic == M.DECK:
                deck_room += room
    bonus = 0 if full else 2 * n
    stranded = n if not full and fill > left else 0
    return (points, 9 - bits.bit_count(), fill, room, cover, bonus, deck_room, card_room, t_room, t_lost,
            stranded)


def _expert_parent(games, occ: int, left: int):
    """What every move from a kallax starts from: its games by cubby, the sums of its cubbies' parts
    (:func:`_cubby_part`), its memory, secret-role and neighbours' counts, its bluff and programming
    games (which a new neighbour may score with)."""
    by_cubby: dict[int, list[M.Game]] = {c: [] for c in M.CUBBIES}
    memory = secrets = neighbour_points = 0
    watchers = []
    for g in games:
        by_cubby[g.cubby].append(g)
        if g.mechanic == M.MEMORY:
            memory += 1
        elif g.mechanic == M.SECRET:
            secrets += 1
        elif g.mechanic in (M.BLUFF, M.PROGRAMMING):
            neighbour_points += M.neighbour_points(games, g)
            watchers.append(g)
    parts = {c: _cubby_part(by_cubby[c], M.cubby_bits(occ, c), left) for c in M.CUBBIES}
    sums = tuple(sum(p[i] for p in parts.values()) for i in range(11))
    totals = {"all": sums, **{c: tuple(map(sub, sums, part)) for c, part in parts.items()}}  # c: the others'
    return by_cubby, totals, (memory, secrets, neighbour_points), watchers


def _expert_figures(sums, memory: int, secrets: int, near: int, watchers, new, free: int, left: int,
                    with_features: bool = True):
    """``(exact score, features)`` from the cubbies' summed parts, the counts and the open cells
    (``free``); ``new``: a game just placed, not among the ``watchers``."""
    points, empty, fill, room, cover, bonus, deck_room, card_room, t_room, t_lost, stranded = sums
    now = points + M.shared_points(memory, secrets) + near - empty
    if not with_features:
        return now, None
    bluff_open = programming_open = 0
    for w in (*watchers, new) if new is not None else watchers:
        if w.halo & free:
            if w.mechanic == M.BLUFF:
                bluff_open += 1
            elif w.mechanic == M.PROGRAMMING:
                programming_open += 1
    return now, [empty, max(0, fill - left), min(left, room), empty - cover, bonus, deck_room, card_room,
                 not secrets, max(0, 3 - memory) if memory else 0, t_room, bluff_open, programming_open,
                 t_lost, secrets >= 2, stranded, memory == 1]


def expert_values(games, occ: int, dice: tuple[int, ...], left: int, weights):
    """``(estimate, games, occ)`` after each of ``model.moves(occ, dice)``, in that order: the same
    figures as :func:`value` (a test holds them equal), computed from the parent kallax once and, per
    move, only what the move changes: its cubby, the memory and secret counts, its neighbours."""
    coefficients = _coefficients(tuple(weights), left) if left > 0 else ()
    by_cubby, totals, (memory, secrets, neighbour_points), watchers = _expert_parent(games, occ, left)
    for perm, _o, slot, category, mechanic in M.moves(occ, dice):
        new_occ = occ | slot.mask
        cubby = slot.cubby
        mates = by_cubby[cubby]
        if perm is None:
            new_games, g = games, None
        else:
            g = M.game_of(slot, category, mechanic)
            new_games = (*games, g)
            mates = [*mates, g]
        sums = tuple(map(add, totals[cubby], _cubby_part(mates, M.cubby_bits(new_occ, cubby), left)))
        m, sc, near = memory, secrets, neighbour_points
        if g is not None:
            if mechanic == M.MEMORY:
                m += 1
            elif mechanic == M.SECRET:
                sc += 1
            elif mechanic in (M.BLUFF, M.PROGRAMMING):
                near += M.neighbour_points(new_games, g)
            mask = g.mask
            for w in watchers:  # a bluff or programming game next to the new one may score with it
                if w.halo & mask and M.counts_for(w, g):
                    near += 1
        now, feats = _expert_figures(sums, m, sc, near, watchers, g, ~new_occ, left, with_features=left > 0)
        yield (now if feats is None else now + sum(map(mul, feats, coefficients))), new_games, new_occ


def rollout(games, occ: int, mode: str, round_no: int, rounds: int, future, weights) -> int:
    """The final score when the tuned policy plays the rounds after ``round_no`` with the dice ``future``."""
    for r, dice in zip(range(round_no + 1, rounds + 1), future, strict=False):
        games, occ = policy_step(games, occ, dice, rounds - r, mode, weights)
    return M.points(games, occ, mode)


def to_action(move, round_no: int) -> Action:
    if move is None:
        return {"type": PASS, "round": round_no}
    perm, orientation, slot, _cat, _mech = move
    if perm is None:
        return {"type": MAT, "round": round_no, "cell": slot.anchor}
    return {"type": BOX, "round": round_no, "dice": list(perm), "orientation": orientation, "cell": slot.anchor}


def candidates(items, dice: tuple[int, ...], left: int, mode: str, weights) -> list[tuple[float, tuple, int, tuple]]:
    """The distinct kallaxes this roll can lead to, best estimate first: ``(estimate, games, occ, move)``
    (two moves that draw the same box in the same place are one candidate: the first is kept)."""
    occ, games = M.from_items(items)
    out, seen = [], set()
    for move in M.moves(occ, dice):
        perm, _orientation, slot, cat, mech = move
        new_games = games if perm is None else (*games, M.game_of(slot, cat, mech))
        key = (slot.mask, cat, mech)
        if key in seen:
            continue
        seen.add(key)
        out.append((value(new_games, occ | slot.mask, mode, left, weights), new_games, occ | slot.mask, move))
    out.sort(key=lambda c: -c[0])  # stable: equal estimates keep the engine's order
    return out


def play(engine: RantaEngine, state: State, seat: int, level: int = 1) -> Action:
    if level <= 1 or seat not in engine.expected(state):
        return engine.greedy_action(state, seat, level)
    # what the seat sees: its own kallax, the dice so far, the round number (never the seed)
    mode, items, rounds = state.mode, state.sheets[seat], engine.rounds
    weights = WEIGHTS[mode]
    left = rounds - state.round_no
    moves = candidates(items, state.dice, left, mode, weights)
    if not moves:
        return {"type": PASS, "round": state.round_no}
    if left <= 0 or len(moves) == 1 or left > ROLLOUT_LEFT[mode]:
        return to_action(moves[0][3], state.round_no)
    # the same sampled futures for every candidate (common random numbers), three fair dice a round,
    # drawn from a generator seeded by what the seat sees, so a position always gets the same move
    seen = repr((mode, state.round_no, state.rolls, [it.to_dict() for it in items]))
    rng = derive_rng(0, "ranta-ai-2", seen)
    n = ROLLOUTS[mode]
    if ROLLOUT_BUDGET[mode]:
        n = max(1, min(n, ROLLOUT_BUDGET[mode] // (min(CANDIDATES[mode], len(moves)) * left)))
    futures = [[(rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)) for _ in range(left)] for _ in range(n)]
    best, best_total = moves[0][3], None
    for _estimate, games, occ, move in moves[:CANDIDATES[mode]]:
        total = sum(rollout(games, occ, mode, state.round_no, rounds, future, weights) for future in futures)
        if best_total is None or total > best_total:
            best, best_total = move, total
    return to_action(best, state.round_no)
