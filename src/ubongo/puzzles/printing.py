"""A printable print-and-play set of a deck: every side's area at real size and its task list.

Cells are as big as the physical games' (``CELL_MM``: a 2 cm square; hexagons 2 cm across the
flats; triangles with 1.8 cm edges; an area too big for the page is shrunk to fit, and
its heading says so), so the printed pages work with the real pieces.  Each side
is a block with a dashed cutting line: a heading, the area (light, with a bold outline), and
one row per task: the die face (pips), the corner (a card with that corner marked) or nothing
for Trigo's single task, then small pictures of the pieces to use (3D: drawn in isometric
view), and the task's code where it is the standard deck's (:mod:`ubongo.puzzles.codes`: the
web client's ``/solution`` page shows its solution).  Blocks flow down A4 pages.

>>> import tempfile, pathlib
>>> from ubongo.puzzles.deck import standard_deck
>>> with tempfile.TemporaryDirectory() as d:
...     write_pdf(standard_deck("extreme"), pathlib.Path(d) / "x.pdf", cards=[1, 2]) >= 1
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ubongo.geometry import Cell, Lattice, Point
from ubongo.pieces import Colour, Piece
from ubongo.puzzles.codes import code_of
from ubongo.puzzles.deck import Card, Deck, Side, Task

#: millimetres per lattice unit (neighbouring cell centres are one unit apart)
CELL_MM = {"square": 20.0, "hexagon": 20.0, "triangle": 18.0}
#: millimetres per unit in the small piece pictures of the task list
PIECE_MM = {"square": 5.0, "hexagon": 5.0, "triangle": 6.0, "cube": 4.2}
MARGIN = 12 * mm
GAP = 6 * mm
ROW_GAP = 3 * mm
KEY_BOX = 10 * mm
#: room at a task row's end for its code (ubongo.puzzles.codes: its solution on /solution)
CODE_W = 24 * mm
AREA_FILL = (0.97, 0.95, 0.88)
INK = (0.1, 0.1, 0.1)

_PIP_SPOTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


@dataclass
class _Page:
    """A canvas with the current pen position (``y`` from the top of the page, in points)."""

    canvas: Canvas
    width: float
    height: float
    y: float = MARGIN
    pages: int = 1

    def flip(self, y: float) -> float:
        """Top-down ``y`` to reportlab's bottom-up."""
        return self.height - y

    def polygon(
        self,
        points: Sequence[Point],
        fill: tuple[float, float, float] | None,
        stroke: tuple[float, float, float] | None,
        width: float = 0.5,
    ) -> None:
        c = self.canvas
        path = c.beginPath()
        path.moveTo(points[0][0], self.flip(points[0][1]))
        for x, y in points[1:]:
            path.lineTo(x, self.flip(y))
        path.close()
        if fill is not None:
            c.setFillColorRGB(*fill)
        if stroke is not None:
            c.setStrokeColorRGB(*stroke)
            c.setLineWidth(width)
        c.drawPath(path, fill=int(fill is not None), stroke=int(stroke is not None))

    def text(self, x: float, y: float, text: str, size: float = 10, bold: bool = False) -> None:
        c = self.canvas
        c.setFillColorRGB(*INK)
        c.setFont("Helvetica-Bold" if bold else "Helvetica", size)
        c.drawString(x, self.flip(y), text)


def _rgb(colour: Colour, shade: float = 1.0) -> tuple[float, float, float]:
    r, g, b = (min(1.0, v / 255 * shade) for v in colour)
    return (r, g, b)


def _scaled(lat: Lattice, cells: Iterable[Cell], unit: float) -> list[list[Point]]:
    """Outlines of ``cells`` in points, moved so that their bounding box starts at (0, 0)."""
    polys = [[(x * unit, y * unit) for x, y in lat.outline(c)] for c in cells]
    lo_x = min(x for p in polys for x, _ in p)
    lo_y = min(y for p in polys for _, y in p)
    return [[(x - lo_x, y - lo_y) for x, y in p] for p in polys]


def _size(polys: Sequence[Sequence[Point]]) -> tuple[float, float]:
    return (max(x for p in polys for x, _ in p), max(y for p in polys for _, y in p))


def _boundary(polys: Sequence[Sequence[Point]]) -> list[tuple[Point, Point]]:
    """Edges that belong to one cell only: the outline of the whole shape.

    Shared edges are found by comparing endpoints with a tolerance (hexagon corners are
    computed with sines and cosines, so the two copies of an edge differ in the last bits).
    """
    edges = [(a, b) for p in polys for a, b in zip(p, [*p[1:], p[0]], strict=True)]

    def near(u: Point, v: Point) -> bool:
        return abs(u[0] - v[0]) < 0.01 and abs(u[1] - v[1]) < 0.01

    shared = [False] * len(edges)
    for i, (a, b) in enumerate(edges):
        for j in range(i + 1, len(edges)):
            c, d = edges[j]
            if (near(a, d) and near(b, c)) or (near(a, c) and near(b, d)):
                shared[i] = shared[j] = True
    return [e for e, s in zip(edges, shared, strict=True) if not s]


def _draw_cells(
    page: _Page,
    polys: Sequence[Sequence[Point]],
    x: float,
    y: float,
    fill: tuple[float, float, float],
    grid: tuple[float, float, float],
    outline_width: float,
) -> None:
    moved = [[(px + x, py + y) for px, py in p] for p in polys]
    for p in moved:
        page.polygon(p, fill, grid, 0.4)
    c = page.canvas
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(outline_width)
    c.setLineCap(1)
    for a, b in _boundary(moved):
        c.line(a[0], page.flip(a[1]), b[0], page.flip(b[1]))


def _iso(x: float, y: float, z: float, unit: float) -> Point:
    """Isometric view from the front right, screen y down."""
    return ((x - y) * math.cos(math.pi / 6) * unit, ((x + y) * 0.5 - z) * unit)


def _cube_picture(
    piece: Piece, unit: float
) -> tuple[list[tuple[list[Point], tuple[float, float, float]]], float, float]:
    """Faces of a polycube seen in isometric view: (polygon, colour) in drawing order."""
    cells = sorted(piece.cells, key=lambda c: (c[0] + c[1], c[2]))
    occupied = set(piece.cells)
    faces: list[tuple[list[Point], tuple[float, float, float]]] = []
    for x, y, z in cells:
        if (x, y, z + 1) not in occupied:
            corners = [(x, y, z + 1), (x + 1, y, z + 1), (x + 1, y + 1, z + 1), (x, y + 1, z + 1)]
            faces.append(([_iso(*p, unit) for p in corners], _rgb(piece.colour, 1.15)))
        if (x + 1, y, z) not in occupied:
            corners = [(x + 1, y, z), (x + 1, y + 1, z), (x + 1, y + 1, z + 1), (x + 1, y, z + 1)]
            faces.append(([_iso(*p, unit) for p in corners], _rgb(piece.colour, 0.85)))
        if (x, y + 1, z) not in occupied:
            corners = [(x, y + 1, z), (x + 1, y + 1, z), (x + 1, y + 1, z + 1), (x, y + 1, z + 1)]
            faces.append(([_iso(*p, unit) for p in corners], _rgb(piece.colour, 0.65)))
    lo_x = min(px for f, _ in faces for px, _ in f)
    lo_y = min(py for f, _ in faces for _, py in f)
    moved = [([(px - lo_x, py - lo_y) for px, py in f], colour) for f, colour in faces]
    w = max(px for f, _ in moved for px, _ in f)
    h = max(py for f, _ in moved for _, py in f)
    return moved, w, h


def _piece_size(piece: Piece) -> tuple[float, float]:
    if piece.lattice.name == "cube":
        _, w, h = _cube_picture(piece, PIECE_MM["cube"] * mm)
        return (w, h)
    return _size(_scaled(piece.lattice, piece.cells, PIECE_MM[piece.lattice.name] * mm))


def _draw_piece(page: _Page, piece: Piece, x: float, y: float) -> None:
    if piece.lattice.name == "cube":
        faces, _, _ = _cube_picture(piece, PIECE_MM["cube"] * mm)
        for f, colour in faces:
            page.polygon([(px + x, py + y) for px, py in f], colour, INK, 0.4)
        return
    polys = _scaled(piece.lattice, piece.cells, PIECE_MM[piece.lattice.name] * mm)
    _draw_cells(page, polys, x, y, _rgb(piece.colour), _rgb(piece.colour, 0.6), 0.9)


def _draw_key(page: _Page, kind: str, key: str, x: float, y: float) -> None:
    """A die face with pips, or a card with one corner marked (``kind``: the edition's key
    kind, ``die`` or ``corner``)."""
    c = page.canvas
    s = KEY_BOX
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(0.8)
    c.setFillColorRGB(1, 1, 1)
    if kind == "die":
        c.roundRect(x, page.flip(y + s), s, s, 1.5 * mm, stroke=1, fill=1)
        c.setFillColorRGB(*INK)
        for dx, dy in _PIP_SPOTS[int(key)]:
            c.circle(
                x + s / 2 + dx * s * 0.27,
                page.flip(y + s / 2 + dy * s * 0.27),
                s * 0.08,
                stroke=0,
                fill=1,
            )
    elif kind == "corner":
        w, h = s * 0.75, s
        left = x + (s - w) / 2
        c.rect(left, page.flip(y + h), w, h, stroke=1, fill=1)
        cx = left + (w * 0.22 if key.endswith("left") else w * 0.78)
        cy = y + (h * 0.18 if key.startswith("upper") else h * 0.82)
        c.setFillColorRGB(*INK)
        c.circle(cx, page.flip(cy), s * 0.12, stroke=0, fill=1)


def _shows_keys(deck: Deck) -> bool:
    """Whether a task's keys are drawn beside it: not for a card's only task (Trigo)."""
    return deck.record.deck.key_kind != "card"


def _task_rows(deck: Deck, side: Side) -> list[tuple[Task, list[Piece], float, float]]:
    """Each task with its pieces and the row's width and height (its code's included)."""
    rows = []
    for task in side.tasks:
        pieces = deck.task_pieces(task)
        sizes = [_piece_size(p) for p in pieces]
        keys_w = (KEY_BOX + 2 * mm) * len(task.keys) if _shows_keys(deck) else 0.0
        width = keys_w + sum(w for w, _ in sizes) + 5 * mm * len(pieces) + CODE_W
        height = max([KEY_BOX] + [h + 4 * mm for _, h in sizes])
        rows.append((task, pieces, width, height))
    return rows


def _side_block(page: _Page, deck: Deck, card: Card, side: Side, measure_only: bool) -> float:
    """Draw one side at the pen position (or only measure it); returns the block's height."""
    lat = side.area.lattice
    polys = _scaled(lat, side.area.cells, CELL_MM[lat.name] * mm)
    area_w, area_h = _size(polys)
    fit = min(1.0, (page.width - 2 * MARGIN - 2 * GAP) / area_w, (page.height / 2) / area_h)
    if fit < 1.0:
        polys = _scaled(lat, side.area.cells, CELL_MM[lat.name] * mm * fit)
        area_w, area_h = _size(polys)
    rows = _task_rows(deck, side)
    tasks_w = max(w for _, _, w, _ in rows)
    tasks_h = sum(h for _, _, _, h in rows) + ROW_GAP * (len(rows) - 1)
    usable = page.width - 2 * MARGIN - 2 * GAP
    beside = area_w + GAP + tasks_w <= usable
    head = 9 * mm
    body = max(area_h, tasks_h) if beside else area_h + GAP + tasks_h
    height = head + body + 2 * GAP
    if measure_only:
        return height
    c = page.canvas
    top = page.y
    c.setDash(3, 3)
    c.setStrokeColorRGB(0.6, 0.6, 0.6)
    c.setLineWidth(0.5)
    c.rect(MARGIN, page.flip(top + height), page.width - 2 * MARGIN, height, stroke=1, fill=0)
    c.setDash()
    left = MARGIN + GAP
    word = deck.record.deck.card_word.capitalize()
    level = f" (fill on {side.area.layers} levels)" if side.area.layers > 1 else ""
    if fit < 1.0:
        level += f" (shrunk to {fit:.0%})"
    page.text(
        left, top + GAP + 4 * mm, f"{word} {card.number} · side {side.name}{level}", 12, bold=True
    )
    page.text(
        page.width - MARGIN - GAP - 40 * mm,
        top + GAP + 4 * mm,
        f"Ubongo {deck.edition} · seed {deck.seed}",
        7,
    )
    area_top = top + GAP + head
    _draw_cells(page, polys, left, area_top, AREA_FILL, (0.8, 0.78, 0.7), 3.0)
    tx, ty = (left + area_w + GAP, area_top) if beside else (left, area_top + area_h + GAP)
    _draw_task_rows(page, deck, card, side, rows, tx, ty)
    return height


def _draw_task_rows(
    page: _Page,
    deck: Deck,
    card: Card,
    side: Side,
    rows: list[tuple[Task, list[Piece], float, float]],
    tx: float,
    ty: float,
) -> None:
    """Each task's row from ``(tx, ty)`` down: its keys, its pieces, its code in a column."""
    kind, shows_keys = deck.record.deck.key_kind, _shows_keys(deck)
    tasks_w = max(w for _, _, w, _ in rows)
    for task, pieces, _w, h in rows:
        x = tx
        if shows_keys:
            for key in task.keys:
                _draw_key(page, kind, key, x, ty + (h - KEY_BOX) / 2)
                x += KEY_BOX + 2 * mm
            x += 3 * mm
        for piece in pieces:
            pw, ph = _piece_size(piece)
            _draw_piece(page, piece, x, ty + (h - ph) / 2)
            if piece.id.isdigit():  # pieces known by their number (Extreme, Trigo)
                page.text(x + pw / 2 - 1.5 * mm, ty + h + 1 * mm, piece.id, 7)
            x += pw + 5 * mm
        code = code_of(deck, card.number, side, task)
        if code is not None:
            page.text(tx + tasks_w - CODE_W + 3 * mm, ty + h / 2 + 1 * mm, code, 7)
        ty += h + ROW_GAP


def write_pdf(
    deck: Deck,
    path: str | Path,
    cards: Sequence[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Write the print-and-play PDF of ``deck`` (only the numbered ``cards`` if given); returns
    the number of pages.  ``progress(done, total)`` is called after each side drawn."""
    width, height = A4
    canvas = Canvas(str(path), pagesize=A4)
    canvas.setTitle(f"Ubongo {deck.edition} deck (seed {deck.seed})")
    canvas.setAuthor("ubongo deck print")
    page = _Page(canvas, width, height)
    chosen = [c for c in deck.cards if cards is None or c.number in cards]
    first = True
    total = sum(len(card.sides) for card in chosen)
    done = 0
    for card in chosen:
        for side in card.sides:
            need = _side_block(page, deck, card, side, measure_only=True)
            if not first and page.y + need > height - MARGIN:
                canvas.showPage()
                page.pages += 1
                page.y = MARGIN
            _side_block(page, deck, card, side, measure_only=False)
            page.y += need + GAP
            first = False
            done += 1
            if progress is not None:
                progress(done, total)
    canvas.showPage()
    canvas.save()
    return page.pages
