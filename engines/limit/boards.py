"""Board geometry from data/limit/geometry.json and the position names players type.

Flat-top hexes in axial coordinates (q = column, r down the column). Three
boards:

* **Nexus** (37 hexes): positions ``A1``..``G4`` — column letter (left to right)
  and rank inside the column (top to bottom).
* **Déchetterie** (7 hexes): ``X1``..``X7``, column by column.
* **Orchidée** (22 hexes): ``1``..``22`` column by column, the three small-orchid
  holes ``A``, ``B``, ``C`` (filled only at the end), and the big orchid ``O``
  (3 tiles, off the grid).

A :class:`Line` knows which of its positions are holes: a line is complete when
all its hexes are covered; a hole adds its tile to the line only when filled.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property

from engines.limit.tiles import DATA_DIR, DIRECTION_INDEX

with (DATA_DIR / "geometry.json").open(encoding="utf-8") as _fh:
    GEOMETRY = json.load(_fh)
with (DATA_DIR / "boards.json").open(encoding="utf-8") as _fh:
    SPEC = json.load(_fh)

BIG_ORCHID: str = SPEC["big_orchid"]["name"]
BIG_ORCHID_CAPACITY: int = SPEC["big_orchid"]["capacity"]
PASS_NAME: str = SPEC["dechetterie"]["pass_name"]
MAX_BOARDS: int = SPEC["max_boards"]
RAY_POINTS: int = SPEC["ray_points_per_tile"]
PENALTY: int = SPEC["penalty"]["points"]
PENALTY_THRESHOLD: int = SPEC["penalty"]["threshold"]


@dataclass(frozen=True)
class Line:
    direction: int  # 0 vertical, 1 sw_ne, 2 nw_se
    cells: tuple[str, ...]  # every position of the line, in geometry order
    holes: frozenset[str]  # the positions of ``cells`` that are orchid holes

    @cached_property
    def hexes(self) -> tuple[str, ...]:
        return tuple(c for c in self.cells if c not in self.holes)

    def label(self) -> str:
        return f"{self.cells[0]}-{self.cells[-1]}"


@dataclass(frozen=True)
class Board:
    key: str  # "nexus", "dechetterie", "orchidee"
    cells: tuple[tuple[str, int, int], ...]  # (name, q, r) of every hex, naming order
    holes: tuple[tuple[str, int, int, int], ...]  # (name, q, r, direction of its orchid row)
    lines: tuple[Line, ...]

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(c[0] for c in self.cells)

    @cached_property
    def name_set(self) -> frozenset[str]:
        return frozenset(self.names)

    @cached_property
    def hole_names(self) -> tuple[str, ...]:
        return tuple(h[0] for h in self.holes)

    @cached_property
    def lines_through(self) -> dict[str, tuple[Line, ...]]:
        out: dict[str, list[Line]] = {}
        for line in self.lines:
            for c in line.cells:
                out.setdefault(c, []).append(line)
        return {k: tuple(v) for k, v in out.items()}

    @cached_property
    def line_ids_through(self) -> dict[str, tuple[int, ...]]:
        """Position -> indexes (into ``lines``) of the lines through it."""
        out: dict[str, list[int]] = {}
        for i, line in enumerate(self.lines):
            for c in line.cells:
                out.setdefault(c, []).append(i)
        return {k: tuple(v) for k, v in out.items()}

    @cached_property
    def coords(self) -> dict[str, tuple[int, int]]:
        out = {n: (q, r) for n, q, r in self.cells}
        out.update({n: (q, r) for n, q, r, _ in self.holes})
        return out

    def layout(self) -> list[dict]:
        """JSON-safe positions for views (renderers draw from this)."""
        out = [{"name": n, "q": q, "r": r} for n, q, r in self.cells]
        out += [{"name": n, "q": q, "r": r, "hole": True, "row": _DIR_KEYS[d]} for n, q, r, d in self.holes]
        return out


_DIR_KEYS = {v: k for k, v in DIRECTION_INDEX.items()}


def _column_names(coords: list[tuple[int, int]], letters: str) -> list[tuple[str, int, int]]:
    cols = sorted({q for q, _ in coords})
    out = []
    for ci, q in enumerate(cols):
        rows = sorted(r for qq, r in coords if qq == q)
        out += [(f"{letters[ci]}{i + 1}", q, r) for i, r in enumerate(rows)]
    return out


def _numbered_names(coords: list[tuple[int, int]], prefix: str) -> list[tuple[str, int, int]]:
    return [(f"{prefix}{i + 1}", q, r) for i, (q, r) in enumerate(sorted(coords))]


def _build(key: str) -> Board:
    spec = SPEC[key]
    coords = [tuple(c) for c in GEOMETRY[spec["geometry"]]]
    holes: list[tuple[str, int, int, int]] = []
    hole_at: dict[tuple[int, int], str] = {}
    if "holes" in spec:
        rows = GEOMETRY[spec["rows"]]
        for name, (q, r) in sorted(GEOMETRY[spec["holes"]].items()):
            holes.append((name, q, r, DIRECTION_INDEX[rows[name][0]]))
            hole_at[(q, r)] = name
    hexes = [c for c in coords if c not in hole_at]
    if spec["naming"] == "columns":
        named = _column_names(hexes, spec["letters"])
    else:
        named = _numbered_names(hexes, spec["prefix"])
    by_coord = {(q, r): n for n, q, r in named}
    by_coord.update(hole_at)
    lines = []
    for dkey, dlines in GEOMETRY[spec["lines"]].items():
        d = DIRECTION_INDEX[dkey]
        for cells in dlines:
            names = tuple(by_coord[tuple(c)] for c in cells)
            lines.append(Line(d, names, frozenset(n for n in names if n in hole_at.values())))
    lines.sort(key=lambda ln: ln.direction)  # stable: geometry order inside a direction
    return Board(key, tuple(named), tuple(holes), tuple(lines))


NEXUS = _build("nexus")
DECHETTERIE = _build("dechetterie")
ORCHIDEE = _build("orchidee")


def _check() -> None:
    assert len(NEXUS.cells) == 37 and len(NEXUS.lines) == 21
    assert sorted(len(ln.cells) for ln in NEXUS.lines) == sorted([4, 5, 6, 7, 6, 5, 4] * 3)
    assert len(DECHETTERIE.cells) == 7 and len(DECHETTERIE.lines) == 9
    assert len(ORCHIDEE.cells) == 22 and len(ORCHIDEE.holes) == 3 and len(ORCHIDEE.lines) == 18
    for board in (NEXUS, DECHETTERIE, ORCHIDEE):
        for name in board.names:  # every hex on exactly one line per direction
            assert sorted(ln.direction for ln in board.lines_through[name]) == [0, 1, 2], name
    assert not (NEXUS.name_set & DECHETTERIE.name_set)


_check()
