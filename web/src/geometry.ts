// The three flat lattices on screen: the same formulas as src/ubongo/geometry.py (outline()),
// plus their inverses (screen point -> cell, nearest translation) for snapping.
//
// Screen coordinates: x right, y down, unit edge (hexagons: neighbouring centres 1 apart).
// Cells: square [x, y]; hexagon [q, r] (axial, pointy-top); triangle [a, b, s] (s = 0 up, 1 down).

export type LatticeName = "square" | "hexagon" | "triangle" | "cube";
export type Cell = number[];
export type Point = [number, number];

const SQRT3 = Math.sqrt(3);

/** Lattice point a*e1 + b*e2 of the triangle lattice (e1 right, e2 up and to the right). */
export function trianglePoint(a: number, b: number): Point {
  return [a + b / 2, (-b * SQRT3) / 2];
}

/** The cell's polygon on screen, corner for corner as the Python outline(). */
export function outline(lattice: LatticeName, cell: Cell): Point[] {
  switch (lattice) {
    case "square":
    case "cube": {
      const [x, y] = cell;
      return [
        [x, y],
        [x + 1, y],
        [x + 1, y + 1],
        [x, y + 1],
      ];
    }
    case "hexagon": {
      const [q, r] = cell;
      const cx = q + r / 2;
      const cy = (r * SQRT3) / 2;
      const radius = 1 / SQRT3;
      return [-90, -30, 30, 90, 150, 210].map((deg) => {
        const a = (deg * Math.PI) / 180;
        return [cx + radius * Math.cos(a), cy + radius * Math.sin(a)] as Point;
      });
    }
    case "triangle": {
      const [a, b, s] = cell;
      const corners: Point[] =
        s === 0
          ? [
              [a, b],
              [a + 1, b],
              [a, b + 1],
            ]
          : [
              [a + 1, b],
              [a + 1, b + 1],
              [a, b + 1],
            ];
      return corners.map(([u, v]) => trianglePoint(u, v));
    }
  }
}

export function centroid(points: Point[]): Point {
  let x = 0;
  let y = 0;
  for (const p of points) {
    x += p[0];
    y += p[1];
  }
  return [x / points.length, y / points.length];
}

export function cellCentre(lattice: LatticeName, cell: Cell): Point {
  return centroid(outline(lattice, cell));
}

/** The hexagon whose interior holds the point (cube rounding of fractional axial coordinates). */
function hexAt(x: number, y: number): [number, number] {
  const rf = (2 * y) / SQRT3;
  const qf = x - rf / 2;
  const sf = -qf - rf;
  let q = Math.round(qf);
  let r = Math.round(rf);
  const s = Math.round(sf);
  const dq = Math.abs(q - qf);
  const dr = Math.abs(r - rf);
  const ds = Math.abs(s - sf);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  return [q + 0, r + 0];
}

/** The cell that contains a screen point (the inverse of outline). */
export function cellAt(lattice: LatticeName, p: Point): Cell {
  const [x, y] = p;
  switch (lattice) {
    case "square":
    case "cube":
      return [Math.floor(x), Math.floor(y)];
    case "hexagon":
      return hexAt(x, y);
    case "triangle": {
      const bf = (-2 * y) / SQRT3;
      const af = x - bf / 2;
      const a = Math.floor(af);
      const b = Math.floor(bf);
      return [a, b, af - a + (bf - b) < 1 ? 0 : 1];
    }
  }
}

/** How far a translation by `offset` (lattice steps) moves things on screen. */
export function translationVector(lattice: LatticeName, offset: number[]): Point {
  const [u, v] = offset;
  switch (lattice) {
    case "square":
    case "cube":
      return [u, v];
    case "hexagon":
      return [u + v / 2, (v * SQRT3) / 2];
    case "triangle":
      return trianglePoint(u, v);
  }
}

/** The translation (lattice steps) whose screen vector is nearest to `v`: snapping. */
export function nearestTranslation(lattice: LatticeName, v: Point): number[] {
  switch (lattice) {
    case "square":
    case "cube":
      return [Math.round(v[0]) + 0, Math.round(v[1]) + 0];
    case "hexagon":
      // the translations are the hexagon centres; the nearest is the hexagon holding v
      return hexAt(v[0], v[1]);
    case "triangle":
      // trianglePoint(a, b) is the hexagon centre (a, b) mirrored in the x axis
      return hexAt(v[0], -v[1]);
  }
}

export function translateCell(cell: Cell, offset: number[]): Cell {
  return cell.map((c, i) => (i < offset.length ? c + offset[i] : c));
}

/** The smallest translation coordinates of some cells (Python's Lattice.anchor). */
export function anchor(cells: Cell[]): number[] {
  // every flat lattice translates by its first two coordinates
  return [0, 1].map((i) => Math.min(...cells.map((c) => c[i])) + 0);
}

export function cellKey(cell: Cell): string {
  return cell.join(",");
}

export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export function boundsOf(points: Point[]): Box {
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const [x, y] of points) {
    box.minX = Math.min(box.minX, x);
    box.minY = Math.min(box.minY, y);
    box.maxX = Math.max(box.maxX, x);
    box.maxY = Math.max(box.maxY, y);
  }
  return box;
}

export function cellsBounds(lattice: LatticeName, cells: Cell[]): Box {
  return boundsOf(cells.flatMap((c) => outline(lattice, c)));
}

/** The outer edges of a set of cells (edges not shared by two of them), as an SVG path. */
export function outlinePath(lattice: LatticeName, cells: Cell[]): string {
  const key = (p: Point) => `${p[0].toFixed(4)},${p[1].toFixed(4)}`;
  const count = new Map<string, number>();
  const edges: [Point, Point, string][] = [];
  for (const c of cells) {
    const pts = outline(lattice, c);
    pts.forEach((p, i) => {
      const q = pts[(i + 1) % pts.length];
      const [k1, k2] = [key(p), key(q)];
      const k = k1 < k2 ? `${k1}|${k2}` : `${k2}|${k1}`;
      count.set(k, (count.get(k) ?? 0) + 1);
      edges.push([p, q, k]);
    });
  }
  return edges
    .filter(([, , k]) => count.get(k) === 1)
    .map(([p, q]) => `M${fmt(p[0])} ${fmt(p[1])}L${fmt(q[0])} ${fmt(q[1])}`)
    .join("");
}

export function polygonPoints(points: Point[]): string {
  return points.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(" ");
}

function fmt(v: number): string {
  return (Math.round(v * 10000) / 10000).toString();
}
