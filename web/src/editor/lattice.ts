// The puzzle editor's drawing sheet: which cells of an edition's lattice may be drawn (a window
// about as wide as a card), moving a keyboard cursor from cell to cell, and an area's cells as
// a puzzle file writes them (docs/puzzle-format.md). The cells' shapes are geometry.ts's.

import { type Cell, cellCentre, cellKey, type LatticeName, type Point } from "../geometry";

/** The cells of the sheet, row by row (top row first on screen), left to right. */
export function sheetCells(lattice: LatticeName): Cell[] {
  const out: Cell[] = [];
  switch (lattice) {
    case "square":
    case "cube":
      for (let y = 0; y < 8; y++) for (let x = 0; x < 10; x++) out.push([x, y]);
      break;
    case "hexagon":
      // rows r; q shifted back every second row so that the sheet is a rectangle, not a rhombus
      for (let r = 0; r < 8; r++) {
        const first = -Math.floor(r / 2);
        for (let q = first; q < first + 9; q++) out.push([q, r]);
      }
      break;
    case "triangle":
      // rows b run upwards on screen: the top row first; up and down triangles alternate
      for (let b = 5; b >= 0; b--) {
        const first = -Math.floor(b / 2);
        for (let a = first; a < first + 9; a++) out.push([a, b, 0], [a, b, 1]);
      }
      break;
  }
  return out;
}

/** The row and column (from 1) of the sheet's cell at `index`, as a screen reader says it. */
export function rowColumn(lattice: LatticeName, index: number): [number, number] {
  const perRow = lattice === "hexagon" ? 9 : lattice === "triangle" ? 18 : 10;
  return [Math.floor(index / perRow) + 1, (index % perRow) + 1];
}

/** An arrow key's direction on screen (y down). */
export const DIRECTIONS: Record<string, Point> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/** The sheet's cell next to `from` in direction `dir`: the nearest whose centre lies within
 * 60 degrees of that direction (none at the sheet's edge). */
export function step(lattice: LatticeName, sheet: Cell[], from: Cell, dir: Point): Cell | null {
  const [fx, fy] = cellCentre(lattice, from);
  let best: Cell | null = null;
  let bestD = Infinity;
  for (const c of sheet) {
    const [x, y] = cellCentre(lattice, c);
    const [dx, dy] = [x - fx, y - fy];
    const d = Math.hypot(dx, dy);
    if (d < 1e-6 || (dx * dir[0] + dy * dir[1]) / d < 0.5) continue;
    // nearest first; among as near, the one most in line with the arrow
    const score = d - 0.01 * ((dx * dir[0] + dy * dir[1]) / d);
    if (score < bestD) {
      bestD = score;
      best = c;
    }
  }
  return best;
}

/** Parse a cell key ("3,2" or "1,0,1") back into its coordinates. */
export function keyCell(key: string): Cell {
  return key.split(",").map(Number);
}

/** An area's cells moved so that its smallest coordinates are 0 (a translation of the
 * lattice, so the puzzle is the same), sorted: how the exported file lists them. */
export function normalised(cells: Cell[]): Cell[] {
  if (!cells.length) return [];
  const dx = Math.min(...cells.map((c) => c[0]));
  const dy = Math.min(...cells.map((c) => c[1]));
  return cells
    .map((c) => c.map((v, i) => (i === 0 ? v - dx : i === 1 ? v - dy : v) + 0))
    .sort((p, q) => p[1] - q[1] || p[0] - q[0] || (p[2] ?? 0) - (q[2] ?? 0));
}

/** The key of every cell, for sets of cells. */
export const keyOf = cellKey;

/** The area turned one step (squares a quarter, hexagons and triangles a sixth) or mirrored
 * left to right, in the lattice's own coordinates (the same as src/ubongo/geometry.py's). */
export function transformed(lattice: LatticeName, cells: Cell[], how: "turn" | "mirror"): Cell[] {
  return cells.map((c) => {
    const [a, b, s] = c;
    if (lattice === "hexagon") return how === "turn" ? [-b, a + b] : [-a - b, b];
    if (lattice === "triangle") {
      // a point a*e1 + b*e2 turned a sixth is (-b, a + b): up triangles become down ones
      if (how === "turn") return s === 0 ? [-b - 1, a + b, 1] : [-b - 1, a + b + 1, 0];
      return s === 0 ? [-a - b - 1, b, 0] : [-a - b - 2, b, 1];
    }
    return how === "turn" ? [-b, a] : [-a, b];
  });
}

/** `cells` moved by a translation of the lattice onto the sheet, as near as it goes to where
 * `near` (cells) is on screen; null when they do not fit on the sheet at all. */
export function ontoSheet(lattice: LatticeName, sheet: Cell[], cells: Cell[], near: Cell[]): Cell[] | null {
  if (!cells.length) return [];
  const on = new Set(sheet.map(cellKey));
  const centre = (cs: Cell[]): Point => {
    const pts = cs.map((c) => cellCentre(lattice, c));
    return [pts.reduce((n, p) => n + p[0], 0) / pts.length, pts.reduce((n, p) => n + p[1], 0) / pts.length];
  };
  const [wantX, wantY] = centre(near.length ? near : sheet);
  const [x0, y0] = centre(cells);
  let best: Cell[] | null = null;
  let bestD = Infinity;
  for (let du = -24; du <= 24; du++) {
    for (let dv = -24; dv <= 24; dv++) {
      const moved = cells.map((c) => c.map((v, i) => v + (i === 0 ? du : i === 1 ? dv : 0)));
      if (!moved.every((c) => on.has(cellKey(c)))) continue;
      const [x, y] = cellCentre(lattice, moved[0]);
      const [fx, fy] = cellCentre(lattice, cells[0]);
      const d = Math.hypot(x0 + (x - fx) - wantX, y0 + (y - fy) - wantY);
      if (d < bestD) {
        bestD = d;
        best = moved;
      }
    }
  }
  return best;
}
