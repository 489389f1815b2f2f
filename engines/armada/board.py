"""Board geometry and the capture rules of L'Invincible Armada, on plain lists.

A board of ``n × n`` intersections is a flat sequence of ``n * n`` cells, index
``row * n + col``; row 0 is the bottom row (named ``1``), column 0 the left
column (named ``A``). A cell holds ``EMPTY``, ``SPAIN`` (red) or ``ENGLAND``
(white). Everything here is a pure function of a board and a geometry, so the
engine, the AI and the tests share one implementation of each rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

EMPTY, SPAIN, ENGLAND = 0, 1, 2
SIDES = {SPAIN: "spain", ENGLAND: "england"}

#: The eight directions; ``AXES`` pairs each with its opposite (the four lines).
DIRS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))
OPPOSITE = (1, 0, 3, 2, 5, 4, 7, 6)
AXES = ((0, 1), (2, 3), (4, 5), (6, 7))
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Geometry:
    """Names and precomputed rays of an ``n × n`` grid of intersections."""

    n: int
    names: tuple[str, ...]
    index: dict[str, int]
    #: rays[p][k]: the points met walking from p (excluded) in direction DIRS[k].
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    #: neighbours[p]: (k, q) for each on-board neighbour q of p in direction k.
    neighbours: tuple[tuple[tuple[int, int], ...], ...]
    neighbour_sets: tuple[frozenset[int], ...]

    @property
    def cells(self) -> int:
        return self.n * self.n

    def name(self, p: int) -> str:
        return self.names[p]

    def parse(self, text: object) -> int | None:
        """Index of a point name such as ``"C4"`` (case and spaces ignored), or None."""
        if not isinstance(text, str):
            return None
        return self.index.get(text.strip().upper().replace(" ", ""))


@lru_cache(maxsize=8)
def geometry(n: int) -> Geometry:
    names = tuple(f"{LETTERS[p % n]}{p // n + 1}" for p in range(n * n))
    rays = []
    neighbours = []
    for p in range(n * n):
        x, y = p % n, p // n
        per_dir = []
        for dx, dy in DIRS:
            ray = []
            cx, cy = x + dx, y + dy
            while 0 <= cx < n and 0 <= cy < n:
                ray.append(cy * n + cx)
                cx, cy = cx + dx, cy + dy
            per_dir.append(tuple(ray))
        rays.append(tuple(per_dir))
        neighbours.append(tuple((k, per_dir[k][0]) for k in range(8) if per_dir[k]))
    return Geometry(n=n, names=names, index={nm: i for i, nm in enumerate(names)}, rays=tuple(rays),
                    neighbours=tuple(neighbours),
                    neighbour_sets=tuple(frozenset(q for _, q in nb) for nb in neighbours))


# --- Spain: lines and their range --------------------------------------------------------------

def spain_lines(board: Sequence[int], p: int, geo: Geometry) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The Spanish lines through ``p`` (a Spanish ship) and the points within their range.

    For each of the four axes where ``p`` belongs to an unbroken run of at least two
    Spanish ships, returns ``(line, reach)``: the ships of the run in order, and the
    points beyond either end, up to as many points as the run has ships.
    """
    out = []
    rays = geo.rays[p]
    for k, k2 in AXES:
        fwd_ray, bwd_ray = rays[k], rays[k2]
        f = 0
        while f < len(fwd_ray) and board[fwd_ray[f]] == SPAIN:
            f += 1
        b = 0
        while b < len(bwd_ray) and board[bwd_ray[b]] == SPAIN:
            b += 1
        length = 1 + f + b
        if length < 2:
            continue
        line = tuple(reversed(bwd_ray[:b])) + (p,) + fwd_ray[:f]
        reach = tuple(reversed(bwd_ray[b:b + length])) + fwd_ray[f:f + length]
        out.append((line, reach))
    return out


def spain_targets(board: Sequence[int], p: int, geo: Geometry) -> list[int]:
    """English ships Spain may take after placing a ship at ``p`` (sorted, no duplicates).

    No shielding: every English ship within range of a line through ``p`` counts,
    whatever stands between it and the line.
    """
    found = set()
    rays = geo.rays[p]
    for k, k2 in AXES:
        fwd_ray, bwd_ray = rays[k], rays[k2]
        f = 0
        while f < len(fwd_ray) and board[fwd_ray[f]] == SPAIN:
            f += 1
        b = 0
        while b < len(bwd_ray) and board[bwd_ray[b]] == SPAIN:
            b += 1
        length = 1 + f + b
        if length < 2:
            continue
        for q in fwd_ray[f:f + length]:
            if board[q] == ENGLAND:
                found.add(q)
        for q in bwd_ray[b:b + length]:
            if board[q] == ENGLAND:
                found.add(q)
    return sorted(found)


# --- England: pairs ------------------------------------------------------------------------------

def english_partners(board: Sequence[int], p: int, geo: Geometry) -> list[int]:
    """English ships adjacent to ``p`` (orthogonally or diagonally)."""
    return [q for _, q in geo.neighbours[p] if board[q] == ENGLAND]


def is_free(board: Sequence[int], p: int, geo: Geometry) -> bool:
    """An English ship with no English neighbour (not part of any pair)."""
    return not any(board[q] == ENGLAND for _, q in geo.neighbours[p])


def pairs(board: Sequence[int], geo: Geometry) -> list[tuple[int, int]]:
    """Every English pair (two adjacent English ships), each once, ``a < b``."""
    out = []
    for p, cell in enumerate(board):
        if cell != ENGLAND:
            continue
        for _, q in geo.neighbours[p]:
            if q > p and board[q] == ENGLAND:
                out.append((p, q))
    return out


def three_aligned(board: Sequence[int], p: int, geo: Geometry) -> tuple[int, ...] | None:
    """If the English ship at ``p`` is part of three (or more) aligned English ships, that run."""
    rays = geo.rays[p]
    for k, k2 in AXES:
        f = 0
        while f < len(rays[k]) and board[rays[k][f]] == ENGLAND:
            f += 1
        b = 0
        while b < len(rays[k2]) and board[rays[k2][b]] == ENGLAND:
            b += 1
        if f + b >= 2:
            return tuple(reversed(rays[k2][:b])) + (p,) + rays[k][:f]
    return None


def england_targets(board: Sequence[int], p: int, geo: Geometry) -> list[int]:
    """Spanish ships England may take after placing or pivoting a ship to ``p``.

    Every pair the ship at ``p`` belongs to captures the Spanish ship on the next
    intersection beyond either end, along the pair's line.
    """
    found = set()
    rays = geo.rays[p]
    for k, q in geo.neighbours[p]:
        if board[q] != ENGLAND:
            continue
        beyond_q = rays[k][1] if len(rays[k]) > 1 else None
        if beyond_q is not None and board[beyond_q] == SPAIN:
            found.add(beyond_q)
        back = rays[OPPOSITE[k]]
        if back and board[back[0]] == SPAIN:
            found.add(back[0])
    return sorted(found)


def pair_reach(a: int, b: int, geo: Geometry) -> tuple[int, ...]:
    """The (at most two) points a pair ``a``-``b`` aims at: one beyond each end."""
    n = geo.n
    dx, dy = b % n - a % n, b // n - a // n
    k = DIRS.index((dx, dy))
    out = []
    if geo.rays[b][k]:
        out.append(geo.rays[b][k][0])
    back = geo.rays[a][OPPOSITE[k]]
    if back:
        out.append(back[0])
    return tuple(out)
