"""Tectonic board geometry and the fast move kernel shared by the engine and the AI.

The board is a flat list of 100 ints, index ``row * 10 + col`` with row 0 = rank 1
(White's back row) and col 0 = file A (White's left). Cell codes:

* ``0`` empty;
* ``1 + 3 * owner + kind`` a coloured piece (1-3 White, 4-6 Black);
* ``7 + 3 * owner + kind`` a red piece whose physical owner is ``owner`` (7-12).

``kind`` is 0 colline, 1 pic, 2 mont. Reserves are a list of six counts, index
``3 * owner + kind``. In text form (stored states) a board is the 100-char string
over ``CHARS``: ``.`` empty, ``CPM`` White, ``cpm`` Black, ``123`` red White-owned,
``456`` red Black-owned.

Everything here works on mutable lists with make/unmake so the search can run
without copying; the engine copies before calling it.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

SIZE = 10
CELLS = SIZE * SIZE
FILES = "ABCDEFGHIJ"
KINDS = ("colline", "pic", "mont")
COLLINE, PIC, MONT = 0, 1, 2
WHITE, BLACK = 0, 1
CHARS = ".CPMcpm123456"
_TO_TEXT = bytes.maketrans(bytes(range(len(CHARS))), CHARS.encode())
_FROM_TEXT = bytes.maketrans(CHARS.encode(), bytes(range(len(CHARS))))
PIC_BACK = ("droit", "diagonale")  # option values: pic backward straight / diagonally

DATA_FILE = Path(__file__).resolve().parent.parent.parent / "data" / "tectonic" / "board.json"


def coloured(owner: int, kind: int) -> int:
    return 1 + 3 * owner + kind


def red(owner: int, kind: int) -> int:
    return 7 + 3 * owner + kind


def decode(code: int) -> tuple[int, int, bool]:
    """``code`` (non-zero) -> (owner, kind, is_red)."""
    if code >= 7:
        o, k = divmod(code - 7, 3)
        return o, k, True
    o, k = divmod(code - 1, 3)
    return o, k, False


NAMES = tuple(f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in range(SIZE * SIZE))


def cell_name(index: int) -> str:
    return NAMES[index]


def parse_cell(text: object) -> int | None:
    """``"b2"``/``"B2"``/``" J10 "`` -> index; None when it is not a board cell."""
    if not isinstance(text, str):
        return None
    s = text.strip().upper()
    if len(s) < 2 or s[0] not in FILES or not s[1:].isdigit():
        return None
    rank = int(s[1:])
    if not 1 <= rank <= SIZE or s[1] == "0":
        return None
    return (rank - 1) * SIZE + FILES.index(s[0])


def board_to_text(board: list[int]) -> str:
    return bytes(board).translate(_TO_TEXT).decode("ascii")


def board_from_text(text: str) -> list[int]:
    if len(text) != CELLS or text.strip(CHARS):
        raise ValueError(f"not a Tectonic board: {text!r}")
    return list(text.encode("ascii").translate(_FROM_TEXT))


# --- static data ---------------------------------------------------------------
def _load() -> dict:
    with DATA_FILE.open(encoding="utf-8") as fh:
        return json.load(fh)


_DATA = _load()
#: region name -> (owner seat, tuple of cell indices)
REGIONS: dict[str, tuple[int, tuple[int, ...]]] = {
    name: (int(r["owner"]), tuple(parse_cell(c) for c in r["cells"]))  # type: ignore[misc]
    for name, r in _DATA["regions"].items()
}
#: seat -> names of the regions where that seat must assemble its three kinds (the opponent's)
TARGETS: dict[int, tuple[str, ...]] = {
    seat: tuple(n for n, (o, _) in REGIONS.items() if o != seat) for seat in (WHITE, BLACK)
}
REGION_OF: dict[int, str] = {i: n for n, (_, cells) in REGIONS.items() for i in cells}
PIECES_PER_KIND = int(_DATA["pieces_per_type"])


def initial_board() -> list[int]:
    board = [0] * CELLS
    for seat, placement in _DATA["setup"].items():
        for cell, kind in placement.items():
            board[parse_cell(cell)] = coloured(int(seat), KINDS.index(kind))  # type: ignore[index]
    return board


def initial_reserves() -> list[int]:
    per = [int(_DATA["reserve"][k]) for k in KINDS]
    return per + per


# --- geometry --------------------------------------------------------------------
def _on(r: int, c: int) -> bool:
    return 0 <= r < SIZE and 0 <= c < SIZE


ORTH: tuple[tuple[int, ...], ...] = tuple(
    tuple((r + dr) * SIZE + c + dc for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)) if _on(r + dr, c + dc))
    for r in range(SIZE) for c in range(SIZE)
)


def directions(kind: int, owner: int, pic_back: str) -> tuple[tuple[int, int, int], ...]:
    """(d_row, d_col, max steps) of each ray a piece may slide along."""
    if kind == COLLINE:
        return tuple((dr, dc, 1) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    if kind == MONT:
        return ((1, 0, 4), (-1, 0, 4), (0, 1, 4), (0, -1, 4))
    fwd = 1 if owner == WHITE else -1  # White advances towards rank 10
    back = ((-fwd, 0, 3),) if pic_back == "droit" else ((-fwd, -1, 3), (-fwd, 1, 3))
    return ((fwd, -1, 3), (fwd, 1, 3)) + back


def _rays(kind: int, owner: int, pic_back: str) -> tuple[tuple[tuple[int, ...], ...], ...]:
    out = []
    for i in range(CELLS):
        r, c = divmod(i, SIZE)
        rays = []
        for dr, dc, n in directions(kind, owner, pic_back):
            ray = tuple((r + dr * s) * SIZE + c + dc * s for s in range(1, n + 1) if _on(r + dr * s, c + dc * s))
            if ray:
                rays.append(ray)
        out.append(tuple(rays))
    return tuple(out)


#: ALLOWED[pic_back][owner][kind] -> {(d_row, d_col): max steps}
ALLOWED = {pb: tuple(tuple({(dr, dc): n for dr, dc, n in directions(k, o, pb)} for k in range(3))
                     for o in (WHITE, BLACK)) for pb in PIC_BACK}
#: RAYS[pic_back][owner][kind][index] -> rays (each a tuple of indices, nearest first)
RAYS = {pb: tuple(tuple(_rays(k, o, pb) for k in range(3)) for o in (WHITE, BLACK)) for pb in PIC_BACK}


def _bfs(kind: int, owner: int, pic_back: str, goal: tuple[int, ...]) -> tuple[int, ...]:
    """Moves a lone piece needs to reach any cell of ``goal`` on an empty board."""
    rays = RAYS[pic_back][owner][kind]
    # reverse search: predecessors of j are cells i with j in rays of i
    preds: list[list[int]] = [[] for _ in range(CELLS)]
    for i in range(CELLS):
        for ray in rays[i]:
            for j in ray:
                preds[j].append(i)
    dist = [99] * CELLS
    queue = deque(goal)
    for g in goal:
        dist[g] = 0
    while queue:
        j = queue.popleft()
        for i in preds[j]:
            if dist[i] == 99:
                dist[i] = dist[j] + 1
                queue.append(i)
    return tuple(dist)


#: DIST[pic_back][owner][kind] -> tuple over target regions of per-cell move counts
DIST = {
    pb: tuple(
        tuple(tuple(_bfs(k, o, pb, REGIONS[name][1]) for name in TARGETS[o]) for k in range(3))
        for o in (WHITE, BLACK)
    )
    for pb in PIC_BACK
}


# --- the move kernel -------------------------------------------------------------
def gen_steps(board: list[int], owner: int, rays) -> list[tuple[int, int]]:
    """Every (from, to) the owner's coloured pieces can make (``rays = RAYS[pb][owner]``)."""
    lo = 1 + 3 * owner
    out = []
    append = out.append
    for i in range(CELLS):
        c = board[i]
        if lo <= c < lo + 3:
            for ray in rays[c - lo][i]:
                for j in ray:
                    if board[j]:
                        break
                    append((i, j))
    return out


def has_step(board: list[int], owner: int, rays) -> bool:
    lo = 1 + 3 * owner
    for i in range(CELLS):
        c = board[i]
        if lo <= c < lo + 3:
            for ray in rays[c - lo][i]:
                if not board[ray[0]]:
                    return True
    return False


def flip_targets(board: list[int], owner: int, dest: int) -> list[int]:
    """Enemy coloured pieces orthogonally next to ``dest`` (the cells a move there may turn red)."""
    lo = 4 - 3 * owner  # the enemy's coloured codes
    return [k for k in ORTH[dest] if lo <= board[k] < lo + 3]


def gen_moves(board: list[int], owner: int, rays) -> list[tuple[int, int, int]]:
    """Complete moves (from, to, flip or -1): one per flip choice."""
    lo = 1 + 3 * owner
    hi = lo + 3
    elo = 4 - 3 * owner  # the enemy's coloured codes
    ehi = elo + 3
    orth = ORTH
    out = []
    append = out.append
    for i in range(CELLS):
        c = board[i]
        if lo <= c < hi:
            for ray in rays[c - lo][i]:
                for j in ray:
                    if board[j]:
                        break
                    plain = True
                    for k in orth[j]:
                        if elo <= board[k] < ehi:
                            append((i, j, k))
                            plain = False
                    if plain:
                        append((i, j, -1))
    return out


def make(board: list[int], reserves: list[int], owner: int, i: int, j: int, f: int):
    """Play (i -> j, flip f) in place: move, recolour every red neighbour, then flip.

    Returns the undo record for :func:`unmake`. Red neighbours of the moved piece
    take the mover's colour: the mover's own are turned back; the opponent's are
    swapped for a same-kind piece from the mover's reserve (the red piece going to
    its owner's reserve) or stay red when the mover's reserve has none.
    """
    code = board[i]
    board[i] = 0
    board[j] = code
    changes = []
    swaps = []
    for k in ORTH[j]:
        c = board[k]
        if c >= 7:
            o, t = divmod(c - 7, 3)
            if o == owner:
                board[k] = 1 + 3 * owner + t
                changes.append((k, c))
            elif reserves[3 * owner + t]:
                reserves[3 * owner + t] -= 1
                reserves[3 * o + t] += 1
                board[k] = 1 + 3 * owner + t
                changes.append((k, c))
                swaps.append((3 * owner + t, 3 * o + t))
    if f >= 0:
        changes.append((f, board[f]))
        board[f] += 6
    return changes, swaps


def unmake(board: list[int], reserves: list[int], i: int, j: int, undo) -> None:
    changes, swaps = undo
    for k, c in reversed(changes):
        board[k] = c
    for mine, theirs in swaps:
        reserves[mine] += 1
        reserves[theirs] -= 1
    board[i] = board[j]
    board[j] = 0


_TARGET_CELLS = {seat: tuple((n, REGIONS[n][1]) for n in TARGETS[seat]) for seat in (WHITE, BLACK)}


def region_win(board: list[int], owner: int) -> str | None:
    """Name of an opponent region holding a colline, a pic and a mont of ``owner``'s colour."""
    lo = 1 + 3 * owner
    for name, cells in _TARGET_CELLS[owner]:
        seen = 0
        for k in cells:
            c = board[k]
            if lo <= c < lo + 3:
                seen |= 1 << (c - lo)
        if seen == 7:
            return name
    return None


def coloured_count(board: list[int], owner: int) -> int:
    lo = 1 + 3 * owner
    return board.count(lo) + board.count(lo + 1) + board.count(lo + 2)


def position_key(board: list[int], reserves: list[int], to_move: int) -> str:
    """The repetition key: board, both reserves and the side to move."""
    return board_to_text(board) + "".join(map(str, reserves)) + str(to_move)
