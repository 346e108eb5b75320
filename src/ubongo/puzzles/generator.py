"""The deck generator: whole decks for every edition, shaped like the real game's.

``generate_deck(edition, seed)`` returns a :class:`~ubongo.puzzles.deck.Deck`; the same seed
always gives the same deck.  Every task in it has been solved by the solver, and carries its
solution count, the solver's node count and its difficulty (see
:mod:`ubongo.puzzles.difficulty`).

How an area is made, so that few solver calls are wasted:

* **Flat editions** (Classic, Extreme, Trigo): draw the side's first piece set, then put its
  pieces down one at a time, each touching the ones already down along as many edges as
  possible (with a little random slack, so areas are compact but not all blobs).  The union is
  the area, and the first task is solvable by construction.  Trigo does this twice, for its two
  separate regions.
* **3D**: the area is a polyomino of 6, 7 or 8 cells filled on two levels; all such shapes
  within the real boards' bounding boxes are listed once, then drawn from, compact ones first.
* The other tasks of a side are the other piece sets with the right total size, tried in a
  random order; cheap checks come before the solver: every piece must fit somewhere in the
  area, and on squares and triangles a two-colouring (chessboard; up/down triangles) must
  balance.  A side that cannot get its tasks is dropped and another area drawn.

Areas of a deck are distinct up to rotation and reflection (3D: up to reflection too, because
turning the two-layer solid upside down mirrors its footprint).  The one exception is forced by
counting: the 3D green level needs 36 sides of 6 cells, and only 34 hexominoes fit the real
boards' bounding boxes (fewer still carry four tasks), so green sides may show the mirror image
of another green side's area, and, when even that is not enough, a shape again with tasks it
has not had.

>>> deck = generate_deck("trigo", seed=1, cards=2)
>>> [s.name for s in deck.cards[0].sides], len(deck.cards[0].side("hard").area.regions)
(['easy', 'hard'], 2)
>>> generate_deck("trigo", seed=1, cards=2).dumps() == deck.dumps()
True
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ubongo import editions
from ubongo.board import Area
from ubongo.editions import DeckShape, SideSpec
from ubongo.geometry import SQUARE, TRIANGLE, Cell, Lattice
from ubongo.pieces import Edition, Piece, edition
from ubongo.puzzles.deck import Card, Deck, Side, Task
from ubongo.puzzles.difficulty import (
    expected_seconds,
    flips_in,
    measure,
)
from ubongo.puzzles.shapes import (
    Congruent,
    canonical,
    hole_free,
    normalize,
    orient,
    parts,
    polyominoes,
    touching_most,
)
from ubongo.solver import ExactCover

GENERATOR = "ubongo-generator/1"

# What a deck looks like is the edition record's ``deck`` (:mod:`ubongo.editions`): cards,
# seed, sides with pieces per task, tasks per side and area sizes; for 3D the cells of each
# level, how many sides get one task fewer (so that the deck has the real game's 671 tasks:
# 36 x 4 + 176 + 176 + 175), which levels share a board, and the footprint's bounds.

Progress = Callable[[int, int], None]


class GenerationError(RuntimeError):
    """The generator could not make a deck with these settings (never for the standard decks)."""


@dataclass
class Stats:
    """What a generation run cost: solver calls, of which solvable, and areas drawn."""

    solver_calls: int = 0
    solvable: int = 0
    areas: int = 0
    pruned: int = 0
    per_side: list[int] = field(default_factory=list)


def generate_deck(
    edition_name: str,
    seed: int | None = None,
    *,
    cards: int | None = None,
    progress: Progress | None = None,
    stats: Stats | None = None,
) -> Deck:
    """A full deck for an edition (``cards`` limits the number of cards, for quick tries).

    ``seed`` defaults to the edition's standard seed; ``progress(done, total)`` is called after
    each side.
    """
    shape = editions.record(edition_name).deck
    if seed is None:
        seed = shape.seed
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, not {seed!r}")
    n_cards = shape.cards if cards is None else cards
    if n_cards < 1:
        raise ValueError("a deck needs at least one card")
    ed = edition(edition_name)
    rng = random.Random(f"{edition_name}:{seed}")
    builder = _Builder(ed, shape, rng, stats or Stats(), progress)
    # areas filled in layers are drawn on a board of squares and filled with cubes
    made = builder.cube_deck(n_cards) if ed.layers > 1 else builder.flat_deck(n_cards)
    return Deck(edition_name, seed, tuple(made), GENERATOR)


def generate_side(edition_name: str, side_name: str, seed: int) -> Side:
    """One side of a card on its own, made from ``seed`` (a fresh game's card, made when the
    game reaches it: :mod:`ubongo.puzzles.fresh`). The same seed always gives the same side.

    3D: levels that share a cell count (orange, red) are told apart as in a whole deck, by
    difficulty: two areas are made and the level takes the easier or the harder.
    """
    shape = editions.record(edition_name).deck
    spec = shape.side(side_name)
    ed = edition(edition_name)
    rng = random.Random(f"{edition_name}:{seed}:{side_name}")
    builder = _Builder(ed, shape, rng, Stats(), None)
    if ed.layers == 1:
        return builder.flat_side(spec)
    group = [s for s in shape.sides if s.cells == spec.cells]
    made = builder.cube_sides(spec, len(group))
    made.sort(key=lambda side: sum(t.difficulty for t in side[1]) / len(side[1]))
    area, tasks = made[[s.name for s in group].index(side_name)]
    keys = _key_groups(rng, shape.keys, len(tasks))
    return Side(
        side_name, area, tuple(_with_keys(t, ks) for t, ks in zip(tasks, keys, strict=True))
    )


# --- shapes ----------------------------------------------------------------------------------


def _colour(lat: Lattice, cell: Cell) -> int:
    """+1 / -1 in the two-colouring used by the parity check (squares: chessboard)."""
    if lat is TRIANGLE:
        return 1 if cell[2] == 0 else -1
    return 1 if (cell[0] + cell[1]) % 2 == 0 else -1


def _imbalance(lat: Lattice, cells: frozenset[Cell]) -> int:
    return abs(sum(_colour(lat, c) for c in cells))


@lru_cache(maxsize=4096)
def _signs_reach(parts: tuple[int, ...], target: int) -> bool:
    """Whether ``target`` is a sum of ``+-p`` over ``parts`` (kept: the parts are the few
    imbalances pieces have, so the same questions come again and again)."""
    reach = {0}
    for p in parts:
        reach = {r + p for r in reach} | {r - p for r in reach}
    return target in reach or -target in reach


def _box(cells: Sequence[Cell]) -> tuple[int, int]:
    w = max(c[0] for c in cells) - min(c[0] for c in cells) + 1
    h = max(c[1] for c in cells) - min(c[1] for c in cells) + 1
    return (w, h)


def _footprint_ok(shape: Sequence[Cell], box: tuple[tuple[int, int], tuple[int, int]]) -> bool:
    small, large = sorted(_box(shape))
    return box[0][0] <= small <= box[0][1] and box[1][0] <= large <= box[1][1]


def _key_groups(rng: random.Random, keys: tuple[str, ...], tasks: int) -> list[tuple[str, ...]]:
    """Split the keys (3D: die faces 1-6) into ``tasks`` runs (several may share a task)."""
    cuts = sorted(rng.sample(range(1, len(keys)), tasks - 1))
    bounds = [0, *cuts, len(keys)]
    return [keys[a:b] for a, b in itertools.pairwise(bounds)]


# --- the builder ------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _chiral(piece: Piece) -> bool:
    """Whether some orientations of the piece need it turned over.  Kept per piece: a fresh
    card makes a builder per side, and turning every piece each time was 40% of a fresh
    game's first task (bench/generate.py --first-task)."""
    turned = {piece.lattice.orient(piece.cells, t) for t in piece.lattice.rotations}
    return len(piece.orientations) > len(turned)


@dataclass(frozen=True, eq=False)
class _Set:
    """A set of pieces to try on areas, with what the card maker asks of it before the solver
    (made once per edition: a fresh card makes a builder per side, and a deck tries thousands
    of sets)."""

    pieces: tuple[Piece, ...]
    ids: tuple[str, ...]
    #: the pieces' numbers in the edition, as every area's problem numbers them, and as bits
    numbers: tuple[int, ...]
    bits: int
    size: int
    #: each piece's colour imbalance (the parity check)
    imbalances: tuple[int, ...]
    #: whether some piece has mirror images that are not turns of it (a task's flips feature)
    mirrors: bool


@lru_cache(maxsize=64)
def _sets(name: str, k: int) -> tuple[_Set, ...]:
    """Every set of ``k`` different pieces of the edition, in edition order."""
    ed = edition(name)
    number = {p.id: i for i, p in enumerate(ed.pieces)}
    return tuple(
        _Set(
            s,
            tuple(p.id for p in s),
            tuple(number[p.id] for p in s),
            sum(1 << number[p.id] for p in s),
            sum(p.size for p in s),
            tuple(_imbalance(ed.area_lattice, p.cells) for p in s),
            any(_chiral(p) and p.reflections for p in s),
        )
        for s in itertools.combinations(ed.pieces, k)
    )


@lru_cache(maxsize=256)
def _sets_of_size(name: str, k: int, total: int) -> tuple[_Set, ...]:
    """The sets of ``k`` pieces with ``total`` cells, in edition order."""
    return tuple(s for s in _sets(name, k) if s.size == total)


class _Builder:
    def __init__(
        self,
        ed: Edition,
        shape: DeckShape,
        rng: random.Random,
        stats: Stats,
        progress: Progress | None,
    ) -> None:
        self.ed = ed
        self.shape = shape
        self.rng = rng
        self.stats = stats
        self.progress = progress
        self.lat = ed.area_lattice
        self.used = Congruent()  # (the flat areas made: no area twice, up to turns and flips)
        self.cube_used: set[tuple[Cell, ...]] = set()
        self.done = 0
        self.total = 0

    def _tick(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)

    def piece_sets(self, k: int, total: int) -> tuple[_Set, ...]:
        """All sets of ``k`` different pieces with ``total`` cells, in edition order."""
        return _sets_of_size(self.ed.name, k, total)

    # --- one task ---

    def evaluate(self, area: Area, s: _Set, every: ExactCover) -> Task | None:
        """Solve a task completely; None when it has no solution.  ``every`` is the problem of
        all the edition's pieces on the area, where each set tried there is counted."""
        self.stats.solver_calls += 1
        found = every.count_of(s.numbers)
        if found.solutions == 0:
            return None
        self.stats.solvable += 1
        flips = 0
        if s.mirrors:
            flips = flips_in(every.grid, s.pieces, every.masks_of(s.numbers))
        counts = {p: every.placement_count(n) for p, n in zip(s.ids, s.numbers, strict=True)}
        features = measure(
            area,
            s.pieces,
            solutions=found.solutions,
            nodes=found.nodes,
            flips=flips,
            placement_counts=counts,
        )
        score = expected_seconds(features, area.piece_lattice.name)
        return Task((), s.ids, found.solutions, found.nodes, round(score, 3), features)

    def promising(self, s: _Set, every: ExactCover, target: int | None) -> bool:
        """Cheap checks before the solver: every piece fits somewhere; colours can balance."""
        if s.bits & ~every.fitting:
            return False
        if target is not None:
            return _signs_reach(s.imbalances, target)
        return True

    def fill_side(
        self,
        area: Area,
        every: ExactCover,
        sets: Sequence[_Set],
        wanted: int,
        tasks: list[Task],
    ) -> list[Task] | None:
        """Add tasks from ``sets`` (tried in order) until there are ``wanted``; None if too few."""
        parity = (
            _imbalance(self.lat, area.cells)
            if area.layers == 1 and self.lat in (SQUARE, TRIANGLE)
            else None
        )
        for i, s in enumerate(sets):
            if len(tasks) >= wanted:
                break
            if len(tasks) + len(sets) - i < wanted:
                return None
            if not self.promising(s, every, parity):
                self.stats.pruned += 1
                continue
            task = self.evaluate(area, s, every)
            if task is not None:
                tasks.append(task)
        return tasks if len(tasks) >= wanted else None

    # --- flat editions ---

    def grow(self, pieces: Sequence[Piece], slack: int) -> frozenset[Cell]:
        """Put ``pieces`` down one by one, each touching the others along many edges."""
        lat = self.lat
        order = list(pieces)
        self.rng.shuffle(order)
        first = order[0]
        union: set[Cell] = set(first.orientations[self.rng.randrange(len(first.orientations))])
        for piece in order[1:]:
            box, choices = touching_most(lat, union, piece.orientations, slack)
            union |= box.cells(self.rng.choice(choices))
        return frozenset(union)

    def two_regions(self, pieces: Sequence[Piece]) -> frozenset[Cell] | None:
        """Trigo: split the pieces in two groups, grow a region from each, set them side by side."""
        order = list(pieces)
        self.rng.shuffle(order)
        cut = len(order) // 2
        left, right = self.grow(order[:cut], 1), self.grow(order[cut:], 1)
        if not (hole_free(self.lat, left) and hole_free(self.lat, right)):
            return None
        lat = self.lat
        _l_lo, l_hi, l_mid = _screen_extent(lat, left)
        _r_lo, _r_hi, r_mid = _screen_extent(lat, right)
        # screen displacement of one step along each translation axis
        origin = next(iter(left))
        x0, y0 = lat.outline(origin)[0]
        dx_a = lat.outline(lat.translate(origin, (1, 0)))[0][0] - x0
        dy_b = lat.outline(lat.translate(origin, (0, 1)))[0][1] - y0
        # move the right region level with the left one, then one unit clear to its right
        step_b = round((l_mid - r_mid) / dy_b)
        level = _shifted(right, 0, step_b)
        step_a = math.ceil((l_hi + 1 - _screen_extent(lat, level)[0]) / dx_a)
        # (moved in two steps, as the sets are built in the order that the seeds' decks and
        # cards were made with: a set's order of cells reaches the tasks drawn on the area)
        moved = _shifted(level, step_a, 0)
        area = left | moved
        return area if parts(lat, area) == 2 else None

    def flat_side(self, spec: SideSpec) -> Side:
        name, k, sizes = spec.name, spec.pieces, dict(spec.area_sizes)
        # one key per task (Trigo: the card's one task)
        keys = [(key,) for key in self.shape.keys]
        everything = _sets(self.ed.name, k)
        for _attempt in range(500):
            self.stats.areas += 1
            if sizes:
                total = self.rng.choices(sorted(sizes), weights=[sizes[s] for s in sorted(sizes)])[
                    0
                ]
                sets = self.piece_sets(k, total)
            else:
                sets = self.piece_sets(k, self.rng.choice(everything).size)
            first = self.rng.choice(sets)
            if self.ed.regions == 2:
                cells = self.two_regions(first.pieces)
            else:
                cells = self.grow(first.pieces, 1)
                if not hole_free(self.lat, cells):
                    cells = None
            if cells is None:
                continue
            area = Area(self.lat, normalize(cells))  # smallest coordinates 0
            if area in self.used:
                continue
            others = [s for s in sets if s is not first]  # (sets has each set once)
            self.rng.shuffle(others)
            every = ExactCover.for_area(area, self.ed.pieces)
            head = self.evaluate(area, first, every)
            if head is None:  # cannot happen: the area is made of these pieces
                raise GenerationError(f"{self.ed.name}: the pieces of a grown area do not fill it")
            tasks = self.fill_side(area, every, others, len(keys), [head])
            if tasks is None:
                continue
            self.used.add(area)
            self.stats.per_side.append(len(tasks))
            order = list(tasks[: len(keys)])
            self.rng.shuffle(order)
            return Side(
                name, area, tuple(_with_keys(t, ks) for t, ks in zip(order, keys, strict=True))
            )
        raise GenerationError(f"{self.ed.name}: no area for side {name} after 500 tries")

    def flat_deck(self, n_cards: int) -> list[Card]:
        specs = self.shape.sides
        self.total = n_cards * len(specs)
        made = []
        for number in range(1, n_cards + 1):
            sides = []
            for spec in specs:
                sides.append(self.flat_side(spec))
                self._tick()
            made.append(Card(number, tuple(sides)))
        return made

    # --- 3D ---

    def cube_sides(self, spec: SideSpec, count: int) -> list[tuple[Area, list[Task]]]:
        """``count`` sides of the level's cell count, each with as many tasks as the level wants.

        Shapes are tried compact first (with noise, so that some ragged ones come in too).  When
        there are not enough shapes (green), the mirror images of the shapes already used come
        next (a different board to look at; the same puzzle turned upside down), and then
        shapes again with task sets they have not had yet.
        """
        cells_n, k, wanted = spec.cells, spec.pieces, spec.tasks
        assert self.shape.footprint is not None, "a layered edition's deck names its footprint"
        box = self.shape.footprint
        keyed = [(edges + 3 * self.rng.random(), s) for edges, s in _footprints(cells_n, box)]
        keyed.sort()
        order = [s for _, s in keyed]
        sets = self.piece_sets(k, 2 * cells_n)
        made: list[tuple[Area, list[Task]]] = []
        had: dict[tuple[Cell, ...], set[tuple[str, ...]]] = {}
        mirror = next(i for i, t in enumerate(SQUARE.transforms) if t.is_reflection)
        for rounds in range(3):
            for shape in order:
                if len(made) >= count:
                    return made
                cells = frozenset(shape)
                if rounds == 1:
                    cells = orient(SQUARE, shape, mirror)
                    turns = SQUARE.rotations
                    if shape not in had or canonical(SQUARE, cells, turns) == canonical(
                        SQUARE, shape, turns
                    ):
                        continue
                # (a shape of polyominoes() is its own canonical form)
                if rounds == 0 and shape in self.cube_used:
                    continue
                used = had.setdefault(shape, set()) if rounds != 1 else set()
                fresh = [s for s in sets if s.ids not in used] if used else list(sets)
                self.rng.shuffle(fresh)
                self.stats.areas += 1
                area = Area(SQUARE, self._landscape(cells), layers=2)
                every = ExactCover.for_area(area, self.ed.pieces)
                tasks = self.fill_side(area, every, fresh, wanted, [])
                if tasks is None:
                    continue
                if rounds == 0:
                    self.cube_used.add(shape)
                used.update(t.pieces for t in tasks)
                self.stats.per_side.append(len(tasks))
                made.append((area, tasks))
                self._tick()
        if len(made) < count:
            raise GenerationError(
                f"{self.ed.name}: only {len(made)} of {count} {spec.name} sides of {cells_n} cells"
            )
        return made

    def _landscape(self, cells: frozenset[Cell]) -> frozenset[Cell]:
        """The shape turned (not mirrored) at random, so that it is at least as wide as tall."""
        turns = list(SQUARE.rotations)
        self.rng.shuffle(turns)
        for t in turns:
            turned = orient(SQUARE, cells, t)
            w, h = _box(sorted(turned))
            if w >= h:
                return turned
        return cells

    def cube_deck(self, n_cards: int) -> list[Card]:
        shape = self.shape
        pairs = [pair for pair, n in shape.side_pairs for _ in range(n)]
        full = {lv: sum(pair.count(lv) for pair in pairs) for lv in shape.side_names}
        self.rng.shuffle(pairs)
        pairs = pairs[:n_cards]
        need = {lv: sum(pair.count(lv) for pair in pairs) for lv in shape.side_names}
        self.total = sum(len(pair) for pair in pairs)
        sides: dict[str, list[Side]] = {}
        for lv, made in self.cube_levels(need).items():
            self.rng.shuffle(made)
            spec = shape.side(lv)
            # the full deck has the real game's task count; a shorter one does not try to
            fewer = spec.fewer if len(made) == full[lv] else 0
            level_sides = []
            for i, (area, tasks) in enumerate(made):
                n = len(tasks) - 1 if i < fewer else len(tasks)
                chosen = tasks[:n]
                keys = _key_groups(self.rng, shape.keys, n)
                level_sides.append(
                    Side(
                        lv,
                        area,
                        tuple(_with_keys(t, ks) for t, ks in zip(chosen, keys, strict=True)),
                    )
                )
            sides[lv] = level_sides
        cards = []
        for number, pair in enumerate(pairs, start=1):
            cards.append(Card(number, tuple(sides[lv].pop() for lv in pair)))
        return cards

    def cube_levels(self, need: dict[str, int]) -> dict[str, list[tuple[Area, list[Task]]]]:
        """The sides of every level, ``need[level]`` each.  Levels that share a cell count
        (3D: orange and red) are made together and split by difficulty, the easier first."""
        by_level: dict[str, list[tuple[Area, list[Task]]]] = {}
        for cells in dict.fromkeys(s.cells for s in self.shape.sides):
            group = [s for s in self.shape.sides if s.cells == cells]
            made = self.cube_sides(group[0], sum(need[s.name] for s in group))
            if len(group) > 1:
                made.sort(key=lambda side: sum(t.difficulty for t in side[1]) / len(side[1]))
            for spec in group:
                by_level[spec.name], made = made[: need[spec.name]], made[need[spec.name] :]
        return by_level


@lru_cache(maxsize=64)
def _footprints(
    cells: int, box: tuple[tuple[int, int], tuple[int, int]]
) -> list[tuple[int, tuple[Cell, ...]]]:
    """The hole-free polyominoes of ``cells`` cells that fit the footprint's bounds, each with
    its perimeter, in the order of :func:`polyominoes` (kept: every 3D side asks)."""
    return [(_perimeter(s), s) for s in polyominoes(cells) if _footprint_ok(s, box)]


def _screen_extent(lat: Lattice, cells: frozenset[Cell]) -> tuple[float, float, float]:
    """The leftmost and rightmost x of the cells' outlines on screen, and the mean y of their
    corners (each corner of each cell once, added up in the cells' order)."""
    spans = [_screen_span(lat, c) for c in cells]
    ys = list(itertools.chain.from_iterable(span[2] for span in spans))
    return min(span[0] for span in spans), max(span[1] for span in spans), sum(ys) / len(ys)


@lru_cache(maxsize=65536)
def _screen_span(lat: Lattice, cell: Cell) -> tuple[float, float, tuple[float, ...]]:
    """A cell's outline as its least and greatest x and its corners' y, kept: Trigo's two
    regions are set side by side by their outlines, and the same cells near the origin come
    again and again."""
    corners = lat.outline(cell)
    xs = [x for x, _ in corners]
    return min(xs), max(xs), tuple(y for _, y in corners)


def _shifted(cells: frozenset[Cell], da: int, db: int) -> frozenset[Cell]:
    """``cells`` (of a flat lattice) moved by ``da`` and ``db`` translation steps."""
    return frozenset((c[0] + da, c[1] + db, *c[2:]) for c in cells)


def _perimeter(shape: Sequence[Cell]) -> int:
    cells = set(shape)
    return sum(1 for c in cells for n in SQUARE.neighbours(c) if n not in cells)


def _with_keys(task: Task, keys: tuple[str, ...]) -> Task:
    return Task(keys, task.pieces, task.solutions, task.nodes, task.difficulty, task.features)
