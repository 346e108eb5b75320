// Piece handling for Ubongo 3D without any drawing: turning polycubes, gravity, and what is
// wrong with an arrangement. Pure functions over cube cells, so the rules of the 3D board are
// in one small place.
//
// Cells are [x, y, z] as in src/ubongo/geometry.py (CUBE): x to the right, y towards the
// player (rows run top to bottom seen from above), z up; z = 0 lies on the board. The shapes
// come from the catalogue, one per allowed transform (the 24 rotations), normalized so that
// their smallest x, y and z are 0: a piece's placement offset is then simply where its
// bounding box's corner goes.
//
// The client never computes a transform index itself: a turn moves the cells of the current
// shape, and the new index is the transform whose catalogue shape equals the turned cells.
// So whatever index the client sends, the server's shape for it is the one on screen.

import type { PieceEntry } from "../catalogue";

export type Cube = [number, number, number];

/** The three turns of a piece, each a quarter turn as the player sees it from the front. */
export type Turn = "spin" | "tip" | "roll";

type Matrix = readonly [readonly number[], readonly number[], readonly number[]];

// Matrices on cell coordinates, checked by hand on single cubes:
// spin: clockwise seen from above, right -> front -> left: (1,0,0) -> (0,1,0)
// tip:  forward, over the left-right axis, top -> front: (0,0,1) -> (0,1,0)
// roll: to the right, over the front-back axis, top -> right: (0,0,1) -> (1,0,0)
const TURNS: Record<Turn, Matrix> = {
  spin: [
    [0, -1, 0],
    [1, 0, 0],
    [0, 0, 1],
  ],
  tip: [
    [1, 0, 0],
    [0, 0, 1],
    [0, -1, 0],
  ],
  roll: [
    [0, 0, 1],
    [0, 1, 0],
    [-1, 0, 0],
  ],
};

function apply(m: Matrix, c: Cube): Cube {
  return [
    m[0][0] * c[0] + m[0][1] * c[1] + m[0][2] * c[2],
    m[1][0] * c[0] + m[1][1] * c[1] + m[1][2] * c[2],
    m[2][0] * c[0] + m[2][1] * c[1] + m[2][2] * c[2],
  ];
}

/** Move cells so that their smallest x, y and z are 0, in a fixed (sorted) order. */
export function normalize(cells: Cube[]): Cube[] {
  const min = [0, 1, 2].map((i) => Math.min(...cells.map((c) => c[i])));
  return cells
    .map((c) => [c[0] - min[0], c[1] - min[1], c[2] - min[2]] as Cube)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
}

export function shapeKey(cells: Cube[]): string {
  return normalize(cells)
    .map((c) => c.join(","))
    .join(";");
}

/**
 * Turn cells by a quarter turn (`times` quarter turns; 3 is the other way round). `view` is
 * how many quarter turns (clockwise from above) the camera has gone round the board: the turn
 * is meant as seen from there, so it is conjugated by that many spins.
 */
export function turnCells(cells: Cube[], turn: Turn, times = 1, view = 0): Cube[] {
  const q = ((view % 4) + 4) % 4;
  let out = cells;
  const spin = (cs: Cube[], n: number) => {
    for (let i = 0; i < n; i++) cs = cs.map((c) => apply(TURNS.spin, c));
    return cs;
  };
  // into the view's frame, turn, and back
  out = spin(out, (4 - q) % 4);
  for (let i = 0; i < ((times % 4) + 4) % 4; i++) out = out.map((c) => apply(TURNS[turn], c));
  out = spin(out, q);
  return normalize(out);
}

/** The catalogue's shape of a piece under one of its transforms. */
export function shapeOf(entry: PieceEntry, transform: number): Cube[] {
  return entry.shapes[String(transform)].map((c) => [c[0], c[1], c[2]] as Cube);
}

/** The first allowed transform of `entry` whose shape is `cells` (up to translation). */
export function transformFor(entry: PieceEntry, cells: Cube[]): number {
  const key = shapeKey(cells);
  for (const t of entry.transforms) {
    if (shapeKey(shapeOf(entry, t)) === key) return t;
  }
  throw new Error(`piece ${entry.id} cannot be turned to that shape`);
}

/** The transform a piece has after a turn (index into the lattice's transforms). */
export function turned(entry: PieceEntry, transform: number, turn: Turn, times = 1, view = 0): number {
  return transformFor(entry, turnCells(shapeOf(entry, transform), turn, times, view));
}

/** The number of different shapes a piece can show (24 for a piece without symmetry). */
export function orientationCount(entry: PieceEntry): number {
  return new Set(entry.transforms.map((t) => shapeKey(shapeOf(entry, t)))).size;
}

export function cubeKey(c: readonly number[]): string {
  return `${c[0]},${c[1]},${c[2]}`;
}

export function translate(cells: Cube[], offset: readonly number[]): Cube[] {
  return cells.map((c) => [c[0] + offset[0], c[1] + offset[1], c[2] + offset[2]] as Cube);
}

/**
 * Gravity: the lowest level z >= 0 at which the shape, moved to (x, y), overlaps none of the
 * `occupied` cubes. The piece may end up above the top level or beside the area: that is
 * shown as an error, not forbidden (nothing stops a player doing it with real cubes).
 */
export function landingZ(shape: Cube[], x: number, y: number, occupied: Set<string>): number {
  for (let z = 0; ; z++) {
    if (shape.every((c) => !occupied.has(cubeKey([c[0] + x, c[1] + y, c[2] + z])))) return z;
  }
}

/** What is wrong with one cube on the board. */
export type Fault = "outside" | "too_high" | null;

/** The fault of a cube: beside the area (sticks out) or above the top level (too high). */
export function faultOf(c: readonly number[], area: Set<string>, layers: number): Fault {
  if (!area.has(`${c[0]},${c[1]}`)) return "outside";
  if (c[2] >= layers) return "too_high";
  return null;
}

export interface Placed {
  id: string;
  cells: Cube[];
}

export interface Check {
  /** every piece is on the board and the area is filled on every level, nothing sticks out */
  covered: boolean;
  outside: string[];
  tooHigh: string[];
  /** cubes of the area's solid still empty */
  holes: number;
}

/** Whether pieces on the board fill the area's solid exactly (`inTray`: pieces not placed). */
export function check(placed: Placed[], area: Set<string>, layers: number, inTray: number): Check {
  const outside: string[] = [];
  const tooHigh: string[] = [];
  const filled = new Set<string>();
  for (const p of placed) {
    let out = false;
    let high = false;
    for (const c of p.cells) {
      const f = faultOf(c, area, layers);
      if (f === "outside") out = true;
      else if (f === "too_high") high = true;
      else filled.add(cubeKey(c));
    }
    if (out) outside.push(p.id);
    if (high) tooHigh.push(p.id);
  }
  const holes = area.size * layers - filled.size;
  return {
    covered: inTray === 0 && outside.length === 0 && tooHigh.length === 0 && holes === 0,
    outside,
    tooHigh,
    holes,
  };
}

/** A short name for a piece on a label: colour initial and size ("red4" -> "R4"). */
export function shortLabel(entry: PieceEntry): string {
  const initial = (entry.colour_name || entry.id).charAt(0).toUpperCase();
  return `${initial}${entry.size}`;
}

/** The size of a shape's box on the board: `w` along x, `d` along y (cells anchored at 0). */
export function footprint(cells: Cube[]): { w: number; d: number } {
  return { w: Math.max(...cells.map((c) => c[0])) + 1, d: Math.max(...cells.map((c) => c[1])) + 1 };
}

/**
 * Where a piece is held by the pointer: a cube on its lowest layer, the one nearest the middle
 * of its footprint. Holding it by a cube (not by the middle of its box, which may be empty for
 * an L) keeps a cube under the pointer, so a click where it was put down takes it up again.
 */
export function grip(cells: Cube[]): [number, number] {
  const { w, d } = footprint(cells);
  const bottom = Math.min(...cells.map((c) => c[2]));
  const [mx, my] = [(w - 1) / 2, (d - 1) / 2];
  let best: Cube = cells[0];
  for (const c of cells) {
    if (c[2] !== bottom) continue;
    const dist = (c[0] - mx) ** 2 + (c[1] - my) ** 2;
    if (best[2] !== bottom || dist < (best[0] - mx) ** 2 + (best[1] - my) ** 2) best = c;
  }
  return [best[0], best[1]];
}
