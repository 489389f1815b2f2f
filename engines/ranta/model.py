"""A fast model of one kallax for the AI's search: cells as bits of an int, games as small tuples.

Nothing here is a rule of its own: :func:`points` re-computes exactly the score of
``engines.ranta.scoring`` (the tests compare the two on many sheets), only faster, and
:func:`moves` lists exactly the engine's legal boxes and mats. Bit ``i`` is the cell
``SHEET.cells[i]`` (reading order from the bottom: A1 .. F1, A2 ..).
"""

from __future__ import annotations

from itertools import permutations
from typing import NamedTuple

from engines.ranta.scoring import CLASSIC
from engines.ranta.sheet import DICE, ORIENTATIONS, SHEET

CELLS = SHEET.cells
INDEX = {cell: i for i, cell in enumerate(CELLS)}
CUBBIES = tuple(c.id for c in SHEET.cubbies)
CUBBY_MASK = {c.id: sum(1 << INDEX[cell] for cell in c.cells) for c in SHEET.cubbies}
CATEGORIES = DICE.categories  # index = face - 1
MECHANICS = DICE.mechanics
BLUFF, DEDUCTION, DECK, PROGRAMMING, MEMORY, SECRET = range(6)  # mechanic indices (data/ranta/dice.json)
T, A, C, P, F, R = range(6)  # category indices


def _bits(cells) -> int:
    return sum(1 << INDEX[c] for c in cells)


def _halo(cells) -> int:
    """The cells orthogonally next to ``cells`` (across cubby walls too), ``cells`` excluded."""
    out = 0
    own = set(cells)
    for x, y in cells:
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in INDEX and n not in own:
                out |= 1 << INDEX[n]
    return out


class Slot(NamedTuple):
    """A rectangle inside one cubby: ``need`` the cells that must be filled below it to support it."""

    anchor: str
    mask: int
    need: int
    halo: int
    cubby: int
    width: int
    height: int
    shelf: bool  # one of its cells is on its cubby's bottom row
    cells: tuple[str, ...]  # names, reading order from the bottom


def _slots(width: int, height: int) -> tuple[Slot, ...]:
    out = []
    for anchor, cells, bottom in SHEET.slots(width, height):
        cubby = SHEET.cubby_at[anchor]
        need = _bits((x, y - 1) for x, y in bottom if y != cubby.y)
        names = tuple(SHEET.name(c) for c in sorted(cells, key=lambda c: (c[1], c[0])))
        out.append(Slot(SHEET.name(anchor), _bits(cells), need, _halo(cells), cubby.id, width, height,
                        any(y == cubby.y for _, y in cells), names))
    return tuple(out)


SHAPES = {(w, h) for s in DICE.sizes for o in ORIENTATIONS for (w, h) in [s.shape(o)]} | {(1, 1)}
SLOTS = {shape: _slots(*shape) for shape in sorted(SHAPES)}
MAT_SLOTS = SLOTS[(1, 1)]


class Game(NamedTuple):
    mask: int
    halo: int
    category: int
    mechanic: int
    cubby: int
    width: int
    height: int
    size: int
    shelf: bool


def game_of(slot: Slot, category: int, mechanic: int) -> Game:
    return Game(slot.mask, slot.halo, category, mechanic, slot.cubby, slot.width, slot.height,
                slot.width * slot.height, slot.shelf)


def free(occ: int, shape: tuple[int, int]) -> list[Slot]:
    return [s for s in SLOTS[shape] if not occ & s.mask and occ & s.need == s.need]


def boxes(dice: tuple[int, ...]) -> list[tuple[tuple[int, int, int], int, int, int]]:
    """The distinct boxes of a roll: ``(die indices, cells' size face, category, mechanic)`` as the
    engine's ``assignments`` lists them (same order, duplicates dropped)."""
    out, seen = [], set()
    for perm in permutations(range(3)):
        faces = [dice[i] for i in perm]
        key = (DICE.size(faces[0]).cells, faces[1] - 1, faces[2] - 1)
        if key in seen:
            continue
        seen.add(key)
        out.append((perm, faces[0], faces[1] - 1, faces[2] - 1))
    return out


def from_items(items) -> tuple[int, tuple[Game, ...]]:
    """``(occupied bits, games)`` of a seat's drawn items (``engine.Item``)."""
    occ = 0
    games = []
    cat_index = {c: i for i, c in enumerate(CATEGORIES)}
    mech_index = {m: i for i, m in enumerate(MECHANICS)}
    for item in items:
        cells = [SHEET.by_name[n] for n in item.cells]
        mask = _bits(cells)
        occ |= mask
        if item.category is None:
            continue
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        cubby = SHEET.cubby_at[cells[0]]
        games.append(Game(mask, _halo(cells), cat_index[item.category], mech_index[item.mechanic], cubby.id,
                          max(xs) - min(xs) + 1, max(ys) - min(ys) + 1, len(cells),
                          any(y == cubby.y for y in ys)))
    return occ, tuple(games)


def largest_groups(games: tuple[Game, ...], attr: int) -> list[tuple[int, int, int]]:
    """Per value 0..5 of the attribute (0 category, 1 mechanic): ``(games in its largest connected
    group, that group's halo, number of games with the value)``."""
    buckets: list[list[Game]] = [[], [], [], [], [], []]
    for g in games:
        buckets[g[2 + attr]].append(g)
    out = []
    for members in buckets:
        if len(members) <= 1:
            out.append((1, members[0].halo, 1) if members else (0, 0, 0))
            continue
        best, best_halo = 0, 0
        left = members
        while left:
            first = left[0]
            size, mask, halo = 1, first.mask, first.halo
            rest = left[1:]
            grew = True
            while grew and rest:
                grew = False
                keep = []
                for g in rest:
                    if g.mask & halo:
                        mask |= g.mask
                        halo |= g.halo
                        size += 1
                        grew = True
                    else:
                        keep.append(g)
                rest = keep
            if size > best:
                best, best_halo = size, halo & ~mask
            left = rest
        out.append((best, best_halo, len(members)))
    return out


def classic_points(games: tuple[Game, ...]) -> int:
    """The groups' points (the empty cells' penalty excluded)."""
    return sum(n for attr in (0, 1) for n, _, _ in largest_groups(games, attr) if n >= 2)


def counts_for(g: Game, other: Game) -> bool:
    """Whether ``other``, next to a bluff or programming game ``g``, scores a point for it (bluff: the
    same category, or another bluff; programming: another programming)."""
    if g.mechanic == BLUFF:
        return other.category == g.category or other.mechanic == BLUFF
    return g.mechanic == PROGRAMMING and other.mechanic == PROGRAMMING


def neighbour_points(games: tuple[Game, ...], g: Game) -> int:
    """The points a bluff or programming game ``g`` takes from the games next to it."""
    halo = g.halo
    return sum(1 for o in games if o is not g and o.mask & halo and counts_for(g, o))


def shared_points(memory: int, secrets: int) -> int:
    """The memory games' points (each scores the memory games, up to 3) and the secret role's (5 when
    it is the only one)."""
    return memory * min(3, memory) + (5 if secrets == 1 else 0)


def cubby_effects(mates: list[Game]) -> int:
    """The points the games of one cubby (``mates``) take from their own category and from their
    cubby's games: everything but memory, secret roles, neighbours and the full cubby's bonus."""
    n = len(mates)
    if not n:
        return 0
    different = len({m.category for m in mates}) == n and len({m.mechanic for m in mates}) == n
    cards = sum(1 for m in mates if m.category == C)
    not_deck = sum(1 for m in mates if m.mechanic != DECK)
    total = 0
    for g in mates:
        cat = g.category
        if cat == T:
            total += n if different else 0
        elif cat == A:
            total += 0 if g.shelf else 2
        elif cat == C:
            total += cards - 1
        elif cat == P:
            total += g.width > g.height
        elif cat == F:
            total += g.size == 6
        else:
            total += g.height > g.width
        if g.mechanic == DEDUCTION:
            total += g.size == 2
        elif g.mechanic == DECK:
            total += not_deck
    return total


def expert_parts(games: tuple[Game, ...], occ: int) -> tuple[int, int]:
    """``(effects' points, full cubbies' points)`` (the empty cells' penalty excluded)."""
    by_cubby: dict[int, list[Game]] = {c: [] for c in CUBBIES}
    for g in games:
        by_cubby[g.cubby].append(g)
    total = sum(cubby_effects(by_cubby[c]) for c in CUBBIES)
    total += sum(neighbour_points(games, g) for g in games if g.mechanic in (BLUFF, PROGRAMMING))
    total += shared_points(sum(1 for g in games if g.mechanic == MEMORY),
                           sum(1 for g in games if g.mechanic == SECRET))
    full = sum(2 * len(by_cubby[c]) for c in CUBBIES if occ & CUBBY_MASK[c] == CUBBY_MASK[c])
    return total, full


def points(games: tuple[Game, ...], occ: int, mode: str) -> int:
    """The sheet's total, exactly as ``engines.ranta.scoring.score`` counts it."""
    empty = len(CELLS) - bin(occ).count("1")
    if mode == CLASSIC:
        return classic_points(games) - empty
    effects, full = expert_parts(games, occ)
    return effects + full - empty


def moves(occ: int, dice: tuple[int, ...]) -> list[tuple[tuple[int, int, int] | None, str | None, Slot, int, int]]:
    """Every legal placement: ``(die indices or None for a mat, orientation, slot, category, mechanic)``,
    boxes in the engine's order of assignments and orientations, then the mats."""
    out: list = []
    for perm, size_face, cat, mech in boxes(dice):
        size = DICE.size(size_face)
        for orientation in ORIENTATIONS:
            for slot in free(occ, size.shape(orientation)):
                out.append((perm, orientation, slot, cat, mech))
    for slot in free(occ, (1, 1)):
        out.append((None, None, slot, -1, -1))
    return out




# --- packing: each cubby fills as a skyline (boxes rest on full rows), so a few tables say all ---------
_BOX_SHAPES = sorted({s.shape(o) for s in DICE.sizes for o in ORIENTATIONS})


def _cubby_tables() -> dict[tuple[int, int, int], tuple[int, int, int]]:
    """Per skyline (column heights of a 3 x 3 cubby): (fewest placements that fill it, most boxes it can
    still take, most cells boxes can still cover)."""
    size = 3
    memo: dict[tuple[int, ...], tuple[int, int, int]] = {}

    def after(s: tuple[int, ...]):
        for w, h in [*_BOX_SHAPES, (1, 1)]:
            for x in range(size - w + 1):
                cols = s[x:x + w]
                if len(set(cols)) == 1 and cols[0] + h <= size:
                    new = list(s)
                    for i in range(x, x + w):
                        new[i] += h
                    yield (w, h) != (1, 1), w * h, tuple(new)

    def solve(s: tuple[int, ...]) -> tuple[int, int, int]:
        if s in memo:
            return memo[s]
        if all(v == size for v in s):
            memo[s] = (0, 0, 0)
            return memo[s]
        fill, games, cover = 99, 0, 0
        for is_box, cells, new in after(s):
            f, g, c = solve(new)
            fill = min(fill, f + 1)
            games = max(games, g + is_box)
            cover = max(cover, c + (cells if is_box else 0))
        memo[s] = (fill, games, cover)
        return memo[s]

    for a in range(size + 1):
        for b in range(size + 1):
            for c in range(size + 1):
                solve((a, b, c))
    return memo


CUBBY_TABLE = _cubby_tables()
#: per cubby: the shift of each of its rows in the kallax's bits (a row of a cubby is 3 adjacent bits)
_ROWS = {c.id: tuple(INDEX[(c.x, c.y + r)] for r in range(c.h)) for c in SHEET.cubbies}
assert all(INDEX[(c.x + x, c.y + r)] == INDEX[(c.x, c.y + r)] + x
           for c in SHEET.cubbies for r in range(c.h) for x in range(c.w))


def _local_table() -> dict[int, tuple[int, int, int]]:
    """Cubby packing figures by the cubby's own 9 bits (row r, column x: bit 3r + x), skylines only."""
    out = {}
    for heights, figures in CUBBY_TABLE.items():
        bits = sum(1 << (3 * r + x) for x, h in enumerate(heights) for r in range(h))
        out[bits] = figures
    return out


LOCAL_TABLE = _local_table()


def cubby_bits(occ: int, cubby: int) -> int:
    r0, r1, r2 = _ROWS[cubby]
    return ((occ >> r0) & 7) | (((occ >> r1) & 7) << 3) | (((occ >> r2) & 7) << 6)

