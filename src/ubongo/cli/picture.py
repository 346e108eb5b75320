"""Terminal pictures of an area and the pieces covering it, on any of the four lattices.

The picture is drawn by sampling each cell's outline polygon (the same outlines the web client
draws) on a grid of characters, so hexagons come out as staggered six-sided blobs and triangles
as alternating up and down wedges.  In colour, each piece is painted in its own colour (ANSI
24-bit background) with its label in the middle of each of its cells; without colour, each
piece's cells are filled with its one-character key.  A legend under the picture says which
label and key belong to which piece.  3D areas are drawn as their levels side by side.

>>> from ubongo.board import Area
>>> from ubongo.pieces import edition
>>> area = Area.from_rows(["###", "#.."])
>>> b, a = edition("classic").piece("B"), edition("classic").piece("A")
>>> solution = {"B": frozenset({(0, 0), (1, 0), (2, 0)}), "A": frozenset({(0, 1)})}
>>> print(render(area, [b, a], solution, colour=False))  # doctest: +NORMALIZE_WHITESPACE
BBBBBBBBBBBB
BBBBBBBBBBBB
AAAA
AAAA
B  I3, light blue
A  I2, purple
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TextIO

from ubongo.board import Area
from ubongo.geometry import SQUARE, Cell, Lattice, Point
from ubongo.pieces import Colour, Piece

Solution = Mapping[str, frozenset[Cell]]

#: characters per unit of length across, rows per unit down (a character is about twice as
#: tall as it is wide; the triangles and hexagons get more room so their corners show)
SCALE: dict[str, tuple[float, float]] = {
    "square": (4.0, 2.0),
    "hexagon": (8.0, 2 * math.sqrt(3)),  # hexagon rows 3 lines apart
    "triangle": (8.0, 8 / math.sqrt(3)),  # triangle rows 4 lines tall
}
#: how much of each cell is painted: a thin gap shows the cells of hexagons and triangles
INSET: dict[str, float] = {"square": 1.0, "hexagon": 0.86, "triangle": 0.8}
EMPTY_COLOUR: Colour = (70, 70, 70)
EMPTY_KEY = "."
RESET = "\x1b[0m"


def use_colour(stream: TextIO, mode: str = "auto") -> bool:
    """Whether to colour output to ``stream``: ``always``, ``never``, or ``auto`` (a terminal,
    unless the NO_COLOR environment variable is set, see https://no-color.org)."""
    if mode == "always":
        return True
    if mode == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


@dataclass(frozen=True)
class Ink:
    """How one piece is shown: its label (up to 2 characters), key (1 character) and colour."""

    label: str
    key: str
    colour: Colour


def inks(pieces: Sequence[Piece]) -> dict[str, Ink]:
    """A short label and a distinct one-character key for each piece.

    >>> from ubongo.pieces import edition
    >>> ink = inks(edition("3d").pieces)
    >>> ink["red2"].label, ink["yellow4"].label
    ('R2', 'Y4')
    >>> [i.key for i in inks(edition("extreme").pieces).values()][-2:]
    ['9', '0']
    >>> "".join(i.key for i in ink.values())
    'RGBrYgby'
    """
    labels: dict[str, str] = {}
    for p in pieces:
        if len(p.id) <= 2:
            labels[p.id] = p.id
        elif p.id[-1].isdigit():  # "red2" -> "R2"
            labels[p.id] = p.id[0].upper() + p.id[-1]
        else:
            labels[p.id] = p.id[:2]
    if len(set(labels.values())) < len(labels):  # abbreviations clash: number the pieces
        labels = {p.id: str(i + 1) for i, p in enumerate(pieces)}
    keys: dict[str, str] = {}
    spare = "0123456789abcdefghijklmnopqrstuvwxyz"
    for p in pieces:
        label = labels[p.id]
        # "G3" -> G, or g when G is taken, or 3; "10" -> 0 (1 is piece 1's)
        wanted = [label[0], label[0].lower(), label[-1], *spare]
        key = next(c for c in wanted if c not in keys.values() and c != EMPTY_KEY)
        keys[p.id] = key
    return {p.id: Ink(labels[p.id], keys[p.id], p.colour) for p in pieces}


def render(
    area: Area,
    pieces: Sequence[Piece],
    solution: Solution | None = None,
    *,
    colour: bool,
    legend: bool = True,
) -> str:
    """The picture of ``area`` with ``solution`` (piece id -> cells) drawn in; no solution
    draws the bare area."""
    ink = inks(pieces)
    owner: dict[Cell, str] = {}
    for pid, cells in (solution or {}).items():
        for c in cells:
            owner[c] = pid
    if area.piece_lattice.name == "cube":
        lines = _levels(area, owner, ink, colour)
    else:
        lines = _plane(area.lattice, area.cells, owner, ink, colour)
        while lines and not lines[-1]:  # the gaps between cells can leave empty edge rows
            lines.pop()
        while lines and not lines[0]:
            lines.pop(0)
    if legend:
        lines += ["", *_legend(pieces, ink, colour)]
    return "\n".join(lines)


def _levels(area: Area, owner: dict[Cell, str], ink: dict[str, Ink], colour: bool) -> list[str]:
    """Each level of a solid of cubes as a square picture, side by side, bottom level first."""
    solid = area.solid
    levels = sorted({c[2] for c in solid})
    flat = {c[:2] for c in solid}
    pictures = []
    for z in levels:
        cells = frozenset(c[:2] for c in solid if c[2] == z)
        level_owner = {c[:2]: pid for c, pid in owner.items() if c[2] == z}
        # draw every level over the same footprint so the levels line up
        pictures.append(_plane(SQUARE, cells, level_owner, ink, colour, frame=flat))
    names = [f"level {z + 1}" for z in levels]
    if len(levels) > 1:
        names[0] += " (bottom)"
        names[-1] += " (top)"
    width = max(max(len(line) for line in _plain(p)) for p in pictures)
    width = max(width, *(len(n) for n in names))
    gap = "   "
    head = gap.join(n.ljust(width) for n in names).rstrip()
    rows = []
    for i in range(max(len(p) for p in pictures)):
        parts = []
        for p in pictures:
            line = p[i] if i < len(p) else ""
            parts.append(line + " " * (width - len(_strip(line))))
        rows.append(gap.join(parts).rstrip())
    return [head, *rows]


def _plane(
    lat: Lattice,
    cells: frozenset[Cell],
    owner: Mapping[Cell, str],
    ink: Mapping[str, Ink],
    colour: bool,
    frame: set[Cell] | None = None,
) -> list[str]:
    """Rasterize the cells' outlines on a character grid."""
    sx, sy = SCALE[lat.name]
    box = [p for c in (frame or cells) for p in lat.outline(c)]
    left = min(p[0] for p in box)
    top = min(p[1] for p in box)
    width = math.ceil((max(p[0] for p in box) - left) * sx - 1e-9)
    height = math.ceil((max(p[1] for p in box) - top) * sy - 1e-9)
    grid: list[list[Cell | None]] = [[None] * width for _ in range(height)]
    text: list[list[str]] = [[""] * width for _ in range(height)]
    inset = INSET[lat.name]
    for cell in sorted(cells):
        outline = lat.outline(cell)
        mx = sum(p[0] for p in outline) / len(outline)
        my = sum(p[1] for p in outline) / len(outline)
        outline = [(mx + (x - mx) * inset, my + (y - my) * inset) for x, y in outline]
        poly = [((x - left) * sx, (y - top) * sy) for x, y in outline]
        _fill(grid, cell, poly)
        pid = owner.get(cell)
        _label(grid, text, cell, poly, ink[pid].label if pid is not None else "")
    return [
        _paint_row(grid_row, text_row, owner, ink, colour)
        for grid_row, text_row in zip(grid, text, strict=True)
    ]


def _fill(grid: list[list[Cell | None]], cell: Cell, poly: list[Point]) -> None:
    """Give ``cell`` the characters of ``grid`` whose centres lie in ``poly`` and are still free."""
    height, width = len(grid), len(grid[0]) if grid else 0
    x0 = max(0, math.floor(min(p[0] for p in poly)))
    x1 = min(width, math.ceil(max(p[0] for p in poly)))
    y0 = max(0, math.floor(min(p[1] for p in poly)))
    y1 = min(height, math.ceil(max(p[1] for p in poly)))
    for j in range(y0, y1):
        for i in range(x0, x1):
            if grid[j][i] is None and _inside((i + 0.5, j + 0.5), poly):
                grid[j][i] = cell


def _label(
    grid: list[list[Cell | None]],
    text: list[list[str]],
    cell: Cell,
    poly: list[Point],
    label: str,
) -> None:
    """Write ``label`` in the middle of the cell, if the cell got that many characters."""
    if not label:
        return
    height, width = len(grid), len(grid[0])
    cx = sum(p[0] for p in poly) / len(poly)
    cy = sum(p[1] for p in poly) / len(poly)
    row = min(height - 1, max(0, math.floor(cy)))
    start = math.floor(cx - len(label) / 2 + 0.5)
    spots = range(start, start + len(label))
    if all(0 <= i < width and grid[row][i] == cell for i in spots):
        for i, ch in zip(spots, label, strict=True):
            text[row][i] = ch


def _paint_row(
    cells: list[Cell | None],
    text: list[str],
    owner: Mapping[Cell, str],
    ink: Mapping[str, Ink],
    colour: bool,
) -> str:
    """One line of the picture: each character's cell in its piece's ink (or the empty key)."""
    out: list[str] = []
    style = ""
    for here, label in zip(cells, text, strict=True):
        pid = owner.get(here) if here is not None else None
        if here is None:
            ch, want = " ", ""
        elif pid is None:
            ch, want = (" ", _bg(EMPTY_COLOUR)) if colour else (EMPTY_KEY, "")
        elif colour:
            ch, want = label or " ", _style(ink[pid].colour)
        else:
            ch, want = ink[pid].key, ""
        if want != style:
            out.append((RESET if style else "") + want)
            style = want
        out.append(ch)
    if style:
        out.append(RESET)
    return "".join(out).rstrip(" ")  # painted spaces end in a reset, so they stay


def _inside(point: Point, poly: list[Point]) -> bool:
    """Whether ``point`` lies in the convex polygon ``poly`` (either orientation)."""
    sign = 0
    for k in range(len(poly)):
        ax, ay = poly[k]
        bx, by = poly[(k + 1) % len(poly)]
        cross = (bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax)
        if abs(cross) < 1e-9:
            continue
        s = 1 if cross > 0 else -1
        if sign and s != sign:
            return False
        sign = s
    return True


def _bg(rgb: Colour) -> str:
    return f"\x1b[48;2;{rgb[0]};{rgb[1]};{rgb[2]}m"


def _style(rgb: Colour) -> str:
    """Background in the piece's colour, text in black or white, whichever reads better."""
    luminance = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
    fg = "30" if luminance > 140 else "97"
    return f"\x1b[1;{fg}m{_bg(rgb)}"


def _strip(line: str) -> str:
    """The line without escape sequences (what the terminal shows)."""
    out = []
    i = 0
    while i < len(line):
        if line[i] == "\x1b":
            i = line.index("m", i) + 1
        else:
            out.append(line[i])
            i += 1
    return "".join(out)


def _plain(lines: list[str]) -> list[str]:
    return [_strip(line) for line in lines]


def _legend(pieces: Sequence[Piece], ink: Mapping[str, Ink], colour: bool) -> list[str]:
    """One line per piece: its colour (or key), then what players call it."""
    lines = []
    for p in pieces:
        i = ink[p.id]
        words = [] if p.id == i.label else [p.id]
        if p.name and p.name.replace(" ", "") != p.id:
            words.append(p.name)
        if p.colour_name and p.colour_name not in p.name:
            words.append(p.colour_name)
        about = ", ".join(words) or f"{p.size} {'cubes' if p.lattice.name == 'cube' else 'cells'}"
        if colour:
            lines.append(f"{_style(i.colour)}{i.label:^4}{RESET} {about}")
        else:
            lines.append(f"{i.key:<3}{about}")
    return lines
