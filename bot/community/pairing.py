"""Tournament pairings and standings: pure functions of the entrants and what they played, no I/O.

Three formats, one vocabulary. A round seats every active entrant exactly once: at a *table*
(two players for a two-player game, a few more for the others) or on a *bye*.

* **Swiss** (``swiss_round``). Entrants are ordered by points, then rating (the snapshot taken
  when they entered), and seated down that order (the Monrad system: 1st against 2nd, 3rd against
  4th...), never twice against the same opponent in a two-player game. When the greedy pass gets
  stuck at the bottom, Edmonds' blossom algorithm completes the pairing over the graph of the pairs
  not played yet, so a pairing without a rematch is found whenever one exists. With an odd number
  of players one takes a bye (worth a win): the lowest-ranked among those with the fewest byes, so
  nobody gets a second bye while another has had none. ``max_swiss_rounds`` is the number of rounds
  for which a rematch-free pairing always exists (Dirac: every player still has at least half the
  field left to meet). Games played at tables of three or more are seated down the same order,
  each seat going to the nearest player in the standings who has met the fewest of the table.
* **Round-robin groups** (``round_robin_groups`` / ``round_robin_round``). Entrants are dealt
  into groups by rating (snake seeding: 1, 2, 3, 3, 2, 1...). Two-player games: every group plays
  the circle method, all groups padded to the same even size so they all last the same number of
  rounds (a padded slot is a bye, worth nothing: everybody meets everybody in the group).
  Other games: a group is a table, playing together every round.
* **Single elimination** (``Bracket``). Two-player games: the usual seeded bracket of the next
  power of two (1 against 16, 8 against 9...), the missing seeds being byes for the top seeds in
  the first round only; a table's winner takes its slot in the next round. Other games: each
  round seats the survivors at tables by snake seeding, and the best of each table go through
  (as many as needed for the next round to be playable).

Points of one game (``game_points``): first place 1, last place 0, linear in between
((k - place) / (k - 1) at a table of k), tied places sharing the mean of the places they cover. A
two-player win is 1, a draw ½, a loss 0. A game abandoned without result scores 0 for all.

Standings (``standings``) are sorted by, in this order:

1. points;
2. Buchholz: the sum, over one's games, of the opponents' points (at a table of more than two,
   the mean of the table-mates' points); byes add nothing;
3. Sonneborn-Berger: the sum, over one's games, of the points scored in that game times the
   opponents' points (same mean at larger tables);
4. rating (the snapshot at entry);
5. the entrant's id, so the order is total and reproducible.

Round-robin tables follow the same order (Buchholz adds little there, Sonneborn-Berger decides).
An elimination's standings go by the last round reached, then the points in the last game
played there, then the seed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import lcm

from bot.storage.rows import SWISS_BYE, Bye  # noqa: F401  (SWISS_BYE re-exported: P.SWISS_BYE)

SWISS, ROUND_ROBIN, ELIMINATION = "swiss", "round_robin", "elimination"
FORMATS = (SWISS, ROUND_ROBIN, ELIMINATION)
ZERO = Fraction(0)


class PairingImpossible(ValueError):
    """No seating of this round satisfies the format's rules (e.g. every pair already played)."""


@dataclass(frozen=True)
class Entrant:
    id: int  # the member's user id
    rating: float = 0.0  # snapshot at entry; breaks ties of points


@dataclass(frozen=True)
class Table:
    players: tuple[int, ...]  # ids, in seat order


@dataclass(frozen=True)
class Round:
    number: int  # 1, 2, ...
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    def seated(self) -> list[int]:
        return [p for t in self.tables for p in t.players] + list(self.byes)


@dataclass(frozen=True)
class Played:
    """One table's outcome: ``ranks[i]`` is ``players[i]``'s place (1 = first, equal = tie);
    None = abandoned without a result (0 points for everyone, but they still met)."""

    round: int
    players: tuple[int, ...]
    ranks: tuple[int, ...] | None


@dataclass(frozen=True)
class Standing:
    id: int
    rank: int  # 1 = first; equal tie-break keys share a rank
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    rating: float
    games: int
    byes: int
    group: int | None = None


# -- points ---------------------------------------------------------------------------------------


def game_points(ranks: Sequence[int] | None) -> list[Fraction]:
    """Points of each seat of one table (see the module's doc)."""
    if ranks is None:
        return []
    return list(_cached_points(tuple(ranks)))


def _points(ranks: Sequence[int] | None, size: int) -> tuple[Fraction, ...]:
    """``game_points``, zeros for an abandoned game."""
    return (ZERO,) * size if ranks is None else _cached_points(tuple(ranks))


@lru_cache(maxsize=4096)
def _cached_points(ranks: tuple[int, ...]) -> tuple[Fraction, ...]:
    k = len(ranks)
    if k < 2:
        return (Fraction(1),) * k
    out = []
    for r in ranks:
        tied = sum(1 for x in ranks if x == r)
        places = range(r, r + tied)  # places r .. r + tied - 1 share their points
        out.append(Fraction(sum(k - p for p in places), (k - 1) * tied))
    return tuple(out)


def met(games: Iterable[Played]) -> dict[int, set[int]]:
    """Who sat at a table with whom (abandoned games included)."""
    out: dict[int, set[int]] = defaultdict(set)
    for g in games:
        for p in g.players:
            out[p].update(q for q in g.players if q != p)
    return out


def standings(entrants: Sequence[Entrant], games: Sequence[Played], byes: Sequence[Bye] = (),
              groups: Mapping[int, int] | None = None) -> list[Standing]:
    """Standings of a Swiss or round-robin tournament (see the module's doc for the order).
    With ``groups`` ({id: group}), ranks count within each group.

    Exact arithmetic, fast: every figure is an integer over one common denominator (points over
    ``s``, Buchholz over ``s * m``, Sonneborn-Berger over ``s * s * m``), turned into fractions once."""
    ids = [e.id for e in entrants]
    rating = {e.id: e.rating for e in entrants}
    table_points = [_points(g.ranks, len(g.players)) for g in games]
    s = 1
    for pts in table_points:
        for x in pts:
            s = lcm(s, x.denominator)
    for b in byes:
        s = lcm(s, b.points.denominator)
    m = 1
    for g in games:
        if len(g.players) > 1:
            m = lcm(m, len(g.players) - 1)
    points: dict[int, int] = dict.fromkeys(ids, 0)
    for g, pts in zip(games, table_points, strict=True):
        for p, x in zip(g.players, pts, strict=True):
            points[p] = points.get(p, 0) + x.numerator * (s // x.denominator)
    for b in byes:
        points[b.player] = points.get(b.player, 0) + b.points.numerator * (s // b.points.denominator)
    buchholz = dict.fromkeys(ids, 0)
    sb = dict.fromkeys(ids, 0)
    played = dict.fromkeys(ids, 0)
    for g, pts in zip(games, table_points, strict=True):
        k = len(g.players)
        if k < 2:
            continue
        total = sum(points.get(q, 0) for q in g.players)
        share = m // (k - 1)
        for p, x in zip(g.players, pts, strict=True):
            if p not in buchholz:
                continue
            opp = (total - points.get(p, 0)) * share  # the mean of the others' points, over s * m
            buchholz[p] += opp
            sb[p] += x.numerator * (s // x.denominator) * opp
            played[p] += 1
    bye_count: dict[int, int] = defaultdict(int)
    for b in byes:
        bye_count[b.player] += 1

    def key(e: int) -> tuple:
        return (-points[e], -buchholz[e], -sb[e], -rating[e])

    order = sorted(ids, key=lambda e: ((groups or {}).get(e, 0), key(e), e))
    out: list[Standing] = []
    prev: tuple | None = None
    count = 0
    for e in order:
        group = groups.get(e) if groups else None
        if out and out[-1].group != group:
            count, prev = 0, None
        count += 1
        rank = out[-1].rank if prev == key(e) else count
        prev = key(e)
        out.append(Standing(e, rank, Fraction(points[e], s), Fraction(buchholz[e], s * m),
                            Fraction(sb[e], s * s * m), rating[e], played[e], bye_count[e], group))
    return out


def order_by_standings(entrants: Sequence[Entrant], games: Sequence[Played], byes: Sequence[Bye]) -> list[int]:
    return [s.id for s in standings(entrants, games, byes)]


# -- table sizes ----------------------------------------------------------------------------------


def table_bounds(min_players: int, max_players: int) -> tuple[int, int]:
    """The table sizes a tournament uses for a game declaring these player counts (a solo game
    is still played against someone)."""
    lo = max(2, min_players)
    if max_players < lo:
        raise ValueError("a tournament needs a game for at least two players")
    return lo, max_players


def preferred_size(lo: int, hi: int) -> int:
    """Two for a two-player game, otherwise four when the game allows it."""
    return min(hi, max(lo, 4))


def table_sizes(n: int, lo: int, hi: int, preferred: int | None = None) -> list[int]:
    """Sizes (largest first) of tables seating exactly ``n`` players, each in [lo, hi], as close to
    ``preferred`` as possible; [] when impossible (then byes are needed: see ``_tables_with_byes``)."""
    preferred = preferred or preferred_size(lo, hi)
    if n <= 0:
        return []
    for t in sorted(range(1, n // lo + 1), key=lambda k: (abs(n / k - preferred), k)):
        base, extra = divmod(n, t)
        if base >= lo and base + (1 if extra else 0) <= hi:
            return [base + 1] * extra + [base] * (t - extra)
    return []


def _tables_with_byes(n: int, lo: int, hi: int, preferred: int | None) -> tuple[list[int], int]:
    """Table sizes and the fewest byes that make ``n`` players seatable."""
    for byes in range(n + 1):
        sizes = table_sizes(n - byes, lo, hi, preferred)
        if sizes or n == byes:
            return sizes, byes
    return [], n  # pragma: no cover (n - n = 0 always returns)


def _pick_byes(order: list[int], count: int, bye_count: Mapping[int, int]) -> list[int]:
    """``count`` byes for the lowest-ranked among those with the fewest byes."""
    by_need = sorted(range(len(order)), key=lambda i: (bye_count.get(order[i], 0), -i))
    return [order[i] for i in by_need[:count]]


# -- perfect matchings (two-player tables) --------------------------------------------------------


def _greedy(n: int, forbidden: list[set[int]]) -> list[int]:
    match = [-1] * n
    for i in range(n):
        if match[i] != -1:
            continue
        for j in range(i + 1, n):
            if match[j] == -1 and j not in forbidden[i]:
                match[i], match[j] = j, i
                break
    return match


def _augmenting_path(n: int, forbidden: list[set[int]], match: list[int], root: int) -> bool:
    """Edmonds' blossom search for an augmenting path from ``root``; applies it when found."""
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = [root]
    candidates = range(n - 1, -1, -1)  # the free vertices sit at the bottom: look near them first

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        bad = forbidden[v]
        for to in candidates:
            if to == v or to in bad or base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                cur = lca(v, to)
                blossom = [False] * n
                mark(v, cur, to, blossom)
                mark(to, cur, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = cur
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    while to != -1:  # flip the path
                        pv = parent[to]
                        nxt = match[pv]
                        match[to], match[pv] = pv, to
                        to = nxt
                    return True
                used[match[to]] = True
                queue.append(match[to])
    return False


def pair_without_rematch(order: Sequence[int], met_: Mapping[int, set[int]]) -> list[tuple[int, int]] | None:
    """Pairs of an even list, down its order, no pair in ``met_``; None if none exists."""
    n = len(order)
    index = {p: i for i, p in enumerate(order)}
    forbidden = [{index[q] for q in met_.get(p, ()) if q in index} for p in order]
    match = _greedy(n, forbidden)
    for v in range(n):
        if match[v] == -1 and not _augmenting_path(n, forbidden, match, v):
            return None
    pairs = [(order[i], order[match[i]]) for i in range(n) if i < match[i]]
    return sorted(pairs, key=lambda ab: index[ab[0]])


# -- Swiss ----------------------------------------------------------------------------------------


def max_swiss_rounds(n: int) -> int:
    """Rounds of a two-player Swiss for which a pairing without rematch always exists."""
    return max(1, n // 2)


def swiss_round(number: int, entrants: Sequence[Entrant], games: Sequence[Played], byes: Sequence[Bye] = (),
                lo: int = 2, hi: int = 2, preferred: int | None = None) -> Round:
    """Round ``number`` of a Swiss tournament (see the module's doc)."""
    order = order_by_standings(entrants, games, byes)
    if len(order) < lo:
        raise PairingImpossible(f"{len(order)} player(s), tables of {lo} at least")
    bye_count: dict[int, int] = defaultdict(int)
    for b in byes:
        bye_count[b.player] += 1
    sizes, need = _tables_with_byes(len(order), lo, hi, preferred)
    met_ = met(games)
    if hi == 2:
        return _swiss_pairs(number, order, need, bye_count, met_)
    given = _pick_byes(order, need, bye_count)
    rest = [p for p in order if p not in set(given)]
    return Round(number, _seat_tables(rest, sizes, met_), tuple(given))


def _swiss_pairs(number: int, order: list[int], need: int, bye_count: Mapping[int, int],
                 met_: Mapping[int, set[int]]) -> Round:
    if not need:
        pairs = pair_without_rematch(order, met_)
        if pairs is None:
            raise PairingImpossible("every pairing repeats a game")
        return Round(number, tuple(Table(p) for p in pairs))
    fewest = min(bye_count.get(p, 0) for p in order)
    for bye in reversed([p for p in order if bye_count.get(p, 0) == fewest]):
        pairs = pair_without_rematch([p for p in order if p != bye], met_)
        if pairs is not None:
            return Round(number, tuple(Table(p) for p in pairs), (bye,))
    raise PairingImpossible("every pairing repeats a game or a bye")


def _seat_tables(order: list[int], sizes: list[int], met_: Mapping[int, set[int]]) -> tuple[Table, ...]:
    """Tables down the standings, each seat to the nearest player who met the fewest of the table."""
    left = list(order)
    tables = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            window = left[: 3 * size]
            best = min(range(len(window)), key=lambda i: (sum(1 for q in table if q in met_.get(window[i], ())), i))
            table.append(left.pop(best))
        tables.append(Table(tuple(table)))
    return tuple(tables)


# -- round-robin groups ---------------------------------------------------------------------------


def snake(ids: Sequence[int], groups: int) -> list[list[int]]:
    """Deal ``ids`` (best first) into ``groups`` groups: 1, 2, 3, 3, 2, 1, 1, 2..."""
    out: list[list[int]] = [[] for _ in range(groups)]
    for i, p in enumerate(ids):
        lap, pos = divmod(i, groups)
        out[pos if lap % 2 == 0 else groups - 1 - pos].append(p)
    return out


@dataclass(frozen=True)
class Groups:
    """Round-robin groups: ``members[g]`` (seed order), all groups played with ``slots`` places
    (two-player games: the largest group rounded up to even; padding = byes)."""

    members: tuple[tuple[int, ...], ...]
    two_player: bool
    slots: int

    @property
    def rounds(self) -> int:
        return self.slots - 1 if self.two_player else 0

    def group_of(self) -> dict[int, int]:
        return {p: g for g, ms in enumerate(self.members) for p in ms}


def round_robin_groups(entrants: Sequence[Entrant], lo: int, hi: int, group_size: int | None = None,
                       preferred: int | None = None) -> Groups:
    """Groups of a round-robin tournament. Two-player games: groups of at most ``group_size``
    (everyone in one group by default). Other games: a group is a table."""
    ids = [e.id for e in sorted(entrants, key=lambda e: (-e.rating, e.id))]
    if len(ids) < lo:
        raise PairingImpossible(f"{len(ids)} player(s), tables of {lo} at least")
    if hi == 2:
        size = max(2, group_size or len(ids))
        count = -(-len(ids) // size)
        members = snake(ids, count)
        largest = max(len(m) for m in members)
        return Groups(tuple(tuple(m) for m in members), True, largest + largest % 2)
    sizes = table_sizes(len(ids), lo, hi, preferred)
    members = snake(ids, len(sizes))
    return Groups(tuple(tuple(m) for m in members), False, max(sizes))


def circle(slots: Sequence[int | None], r: int) -> list[tuple[int | None, int | None]]:
    """Round ``r`` (0-based) of the circle method over an even list: the first stays, the others turn."""
    n = len(slots)
    ring = list(slots[1:])
    k = r % (n - 1)
    ring = ring[-k:] + ring[:-k] if k else ring
    line = [slots[0], *ring]
    return [(line[i], line[n - 1 - i]) for i in range(n // 2)]


def round_robin_round(number: int, groups: Groups) -> Round:
    """Round ``number`` (1-based) of every group."""
    tables, byes = [], []
    for members in groups.members:
        if not groups.two_player:
            tables.append(Table(tuple(members)))
            continue
        slots: list[int | None] = list(members) + [None] * (groups.slots - len(members))
        for a, b in circle(slots, number - 1):
            if a is not None and b is not None:
                tables.append(Table((a, b)))
            else:
                byes += [p for p in (a, b) if p is not None]
    return Round(number, tuple(tables), tuple(byes))


# -- single elimination ---------------------------------------------------------------------------


def bracket_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket slot order for a power-of-two ``size``: 1, 8, 4, 5, 2, 7, 3, 6."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for x in order for s in (x, n + 1 - x)]
    return order


def next_power_of_two(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


@dataclass
class Bracket:
    """A single-elimination tournament; ``seeds`` best first. Feed each round's results to
    ``advance``; ``champion`` is set at the end."""

    seeds: list[int]
    lo: int = 2
    hi: int = 2
    preferred: int | None = None
    #: two-player: bracket slots of the current round (None = an empty slot); else survivors in seed order
    slots: list[int | None] = field(default_factory=list)
    round: int = 0  # the round last opened
    champion: int | None = None
    #: the last round each entrant played or was given a bye in, and its points there (standings)
    reached: dict[int, tuple[int, Fraction]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.seeds) < max(2, self.lo):
            raise PairingImpossible(f"{len(self.seeds)} player(s)")
        if not self.slots:
            if self.hi == 2:
                size = next_power_of_two(len(self.seeds))
                self.slots = [self.seeds[s - 1] if s <= len(self.seeds) else None for s in bracket_order(size)]
            else:
                self.slots = list(self.seeds)

    @property
    def finished(self) -> bool:
        return self.champion is not None

    def rounds_total(self) -> int:
        """How many rounds the whole bracket takes."""
        if self.hi == 2:
            return next_power_of_two(len(self.seeds)).bit_length() - 1
        n, count = len(self.seeds), 0
        while n > 1:
            sizes, through = self._plan(n)
            n = len(sizes) * through + (n - sum(sizes))
            count += 1
        return count

    def _plan(self, n: int) -> tuple[list[int], int]:
        """Table sizes for ``n`` survivors (others) and how many of each table go through."""
        if n <= self.hi:
            return [n], 1
        sizes, _ = _tables_with_byes(n, self.lo, self.hi, self.preferred)
        through = 1
        while len(sizes) * through < max(2, self.lo) and through + 1 < min(sizes):
            through += 1
        return sizes, through

    def next_round(self) -> Round:
        if self.finished:
            raise PairingImpossible("the bracket is over")
        self.round += 1
        if self.hi == 2:
            tables, byes = [], []
            for i in range(0, len(self.slots), 2):
                a, b = self.slots[i], self.slots[i + 1]
                if a is not None and b is not None:
                    tables.append(Table((a, b)))
                elif a is not None or b is not None:
                    byes.append(a if a is not None else b)
            for p in byes:
                self.reached[p] = (self.round, Fraction(1))
            return Round(self.round, tuple(tables), tuple(byes))
        sizes, _ = self._plan(len(self.slots))
        groups = snake(self.slots, len(sizes)) if len(sizes) > 1 else [list(self.slots)]
        seated = sum(sizes)
        byes = tuple(self.slots[:len(self.slots) - seated])  # top seeds rest when the count is awkward
        if byes:
            groups = snake(self.slots[len(byes):], len(sizes))
        for p in byes:
            self.reached[p] = (self.round, Fraction(1))
        return Round(self.round, tuple(Table(tuple(g)) for g in groups), byes)

    def advance(self, rnd: Round, results: Sequence[Played]) -> None:
        """Close the round: each table's best go through (ties: the better seed)."""
        seed = {p: i for i, p in enumerate(self.seeds)}
        by_table = {tuple(g.players): g for g in results}
        winners: dict[tuple[int, ...], list[int]] = {}
        through = 1 if self.hi == 2 else self._plan(len(self.slots))[1]
        for t in rnd.tables:
            g = by_table.get(t.players)
            if g is None:
                raise ValueError(f"no result for table {t.players}")
            pts = game_points(g.ranks) or [ZERO] * len(g.players)
            for p, x in zip(g.players, pts, strict=True):
                self.reached[p] = (rnd.number, x)
            ranked = sorted(range(len(g.players)), key=lambda i: (-pts[i], seed[g.players[i]]))
            winners[t.players] = [g.players[i] for i in ranked[:through]]
        if self.hi == 2:
            nxt: list[int | None] = []
            for i in range(0, len(self.slots), 2):
                a, b = self.slots[i], self.slots[i + 1]
                if a is not None and b is not None:
                    nxt.append(winners[(a, b)][0])
                else:
                    nxt.append(a if a is not None else b)
            self.slots = nxt
            if len(self.slots) == 1:
                self.champion = self.slots[0]
            return
        alive = set(rnd.byes) | {p for w in winners.values() for p in w}
        self.slots = [p for p in self.seeds if p in alive]
        if len(self.slots) == 1:
            self.champion = self.slots[0]

    def standings(self, entrants: Sequence[Entrant]) -> list[Standing]:
        seed = {p: i for i, p in enumerate(self.seeds)}
        rating = {e.id: e.rating for e in entrants}

        def key(p: int) -> tuple:
            rnd, pts = self.reached.get(p, (0, ZERO))
            return (p != self.champion, -rnd, -pts)

        order = sorted(self.seeds, key=lambda p: (key(p), seed[p]))
        out: list[Standing] = []
        for i, p in enumerate(order):
            rnd, pts = self.reached.get(p, (0, ZERO))
            rank = out[-1].rank if out and key(order[i - 1]) == key(p) else i + 1
            out.append(Standing(p, rank, pts, ZERO, ZERO, rating.get(p, 0.0), rnd, 0))
        return out

    def to_dict(self) -> dict:
        return {"seeds": self.seeds, "lo": self.lo, "hi": self.hi, "preferred": self.preferred,
                "slots": self.slots, "round": self.round, "champion": self.champion,
                "reached": {str(p): [r, str(x)] for p, (r, x) in self.reached.items()}}

    @classmethod
    def from_dict(cls, d: Mapping) -> Bracket:
        return cls(list(d["seeds"]), d["lo"], d["hi"], d["preferred"], list(d["slots"]), d["round"], d["champion"],
                   {int(p): (r, Fraction(x)) for p, (r, x) in d["reached"].items()})
