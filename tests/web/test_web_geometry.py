"""The client's lattice formulas (web/src/geometry.ts) agree with the engine's (geometry.py):
outlines corner for corner, and the inverses the board snaps with."""

from __future__ import annotations

import math
import random

import pytest
from playwright.sync_api import Page
from server_harness import ServerProcess

from ubongo.geometry import lattice

CELLS: dict[str, list[tuple[int, ...]]] = {
    "square": [(x, y) for x in range(-3, 5) for y in range(-3, 5)],
    "hexagon": [(q, r) for q in range(-3, 5) for r in range(-3, 5)],
    "triangle": [(a, b, s) for a in range(-3, 4) for b in range(-3, 4) for s in (0, 1)],
}

EVALUATE = """([name, cells, points, offsets]) => {
  const g = window.ubongoGeometry;
  return {
    outlines: cells.map((c) => g.outline(name, c)),
    cells: points.map((p) => g.cellAt(name, p)),
    snapped: offsets.map(([o, noise]) => {
      const [x, y] = g.translationVector(name, o);
      return g.nearestTranslation(name, [x + noise[0], y + noise[1]]);
    }),
  };
}"""


@pytest.mark.parametrize("name", sorted(CELLS))
def test_ts_lattice_formulas_match_python(page: Page, server: ServerProcess, name: str) -> None:
    page.goto(server.url + "/")
    page.wait_for_function("() => window.ubongoGeometry !== undefined")
    lat = lattice(name)
    cells = CELLS[name]
    rng = random.Random(name)
    # points inside each cell: between its centre and a corner (never on an edge)
    points: list[tuple[float, float]] = []
    expected_cells: list[tuple[int, ...]] = []
    for c in cells:
        corners = lat.outline(c)
        cx = sum(p[0] for p in corners) / len(corners)
        cy = sum(p[1] for p in corners) / len(corners)
        for px, py in corners:
            t = rng.uniform(0.05, 0.9)
            points.append((cx + t * (px - cx), cy + t * (py - cy)))
            expected_cells.append(c)
    # a translation, pushed a little off its point: snapping brings it back
    offsets = []
    for _ in range(200):
        o = (rng.randint(-6, 6), rng.randint(-6, 6))
        angle, length = rng.uniform(0, 2 * math.pi), rng.uniform(0, 0.45)
        offsets.append((o, (length * math.cos(angle), length * math.sin(angle))))
    got = page.evaluate(EVALUATE, [name, cells, points, offsets])

    for c, ts in zip(cells, got["outlines"], strict=True):
        engine = lat.outline(c)
        assert len(ts) == len(engine), c
        for (x1, y1), (x2, y2) in zip(ts, engine, strict=True):
            assert math.isclose(x1, x2, abs_tol=1e-9) and math.isclose(y1, y2, abs_tol=1e-9), c
    assert [tuple(c) for c in got["cells"]] == expected_cells
    assert [tuple(o) for o in got["snapped"]] == [o for o, _ in offsets]
