// Small isometric pictures of polycubes in SVG (the tray, the how-to): no WebGL needed, so
// any number of them can be on a page.

import { type Catalogue, type PieceEntry, type Placement, pieceOf, shade } from "../catalogue";
import { svg } from "../dom";
import { colourName, t } from "../i18n";
import { type Cube, cubeKey, shapeOf, shortLabel } from "./shapes";

const COS30 = Math.cos(Math.PI / 6);

/** Screen point of a lattice corner seen from the front right, above: x right, y front, z up. */
function project(x: number, y: number, z: number): [number, number] {
  return [(x - y) * COS30, (x + y) * 0.5 - z];
}

function points(corners: [number, number, number][]): string {
  return corners
    .map(([x, y, z]) => project(x, y, z))
    .map(([u, v]) => `${u.toFixed(3)},${v.toFixed(3)}`)
    .join(" ");
}

/** The SVG nodes of cubes in one colour: the visible faces, back to front. */
export function isoNodes(cells: Cube[], colour: string, solid?: Set<string>): SVGElement[] {
  // a face shows unless a cube (of this piece, or of `solid`) is against it
  const has = solid ?? new Set(cells.map(cubeKey));
  // the viewer looks along (-1, -1, -1): paint the farthest cubes first
  const order = [...cells].sort((a, b) => a[0] + a[1] + a[2] - (b[0] + b[1] + b[2]));
  const top = colour;
  const right = shade(colour, 0.78);
  const front = shade(colour, 0.62);
  const edge = shade(colour, 0.4);
  const nodes: SVGElement[] = [];
  for (const [x, y, z] of order) {
    const face = (fill: string, corners: [number, number, number][]) =>
      nodes.push(
        svg("polygon", {
          points: points(corners),
          fill,
          stroke: edge,
          "stroke-width": 0.04,
          "stroke-linejoin": "round",
        }),
      );
    if (!has.has(cubeKey([x, y, z + 1]))) {
      face(top, [
        [x, y, z + 1],
        [x + 1, y, z + 1],
        [x + 1, y + 1, z + 1],
        [x, y + 1, z + 1],
      ]);
    }
    if (!has.has(cubeKey([x + 1, y, z]))) {
      face(right, [
        [x + 1, y, z],
        [x + 1, y + 1, z],
        [x + 1, y + 1, z + 1],
        [x + 1, y, z + 1],
      ]);
    }
    if (!has.has(cubeKey([x, y + 1, z]))) {
      face(front, [
        [x, y + 1, z],
        [x + 1, y + 1, z],
        [x + 1, y + 1, z + 1],
        [x, y + 1, z + 1],
      ]);
    }
  }
  return nodes;
}

/** An isometric picture of a piece under one of its transforms, `unitRem` per cube edge. */
export function pieceIsoSvg(cat: Catalogue, id: string, transform?: number, unitRem = 0.9): SVGSVGElement {
  const entry = pieceOf(cat, id);
  const cells = shapeOf(entry, transform ?? entry.transforms[0]);
  const corners: [number, number][] = [];
  for (const [x, y, z] of cells) {
    for (const dx of [0, 1])
      for (const dy of [0, 1]) for (const dz of [0, 1]) corners.push(project(x + dx, y + dy, z + dz));
  }
  const pad = 0.08;
  const minX = Math.min(...corners.map((c) => c[0])) - pad;
  const maxX = Math.max(...corners.map((c) => c[0])) + pad;
  const minY = Math.min(...corners.map((c) => c[1])) - pad;
  const maxY = Math.max(...corners.map((c) => c[1])) + pad;
  const el = svg("svg", {
    class: "piece-picture piece-iso",
    viewBox: `${minX} ${minY} ${maxX - minX} ${maxY - minY}`,
    role: "img",
    "aria-label": t("board:pieceIso", {
      id: entry.id,
      label: shortLabel(entry),
      colour: colourName(entry.colour_name),
      name: entry.name,
      count: entry.size,
    }),
  }) as SVGSVGElement;
  el.style.width = `${(maxX - minX) * unitRem}rem`;
  el.style.height = `${(maxY - minY) * unitRem}rem`;
  el.append(...isoNodes(cells, entry.colour));
  return el;
}

/** The cubes a placement fills: its catalogue shape moved by its offset. */
function placedCubes(cat: Catalogue, pl: Placement): Cube[] {
  const shape = shapeOf(pieceOf(cat, pl.piece), pl.transform);
  return shape.map(([x, y, z]) => [x + pl.offset[0], y + pl.offset[1], z + (pl.offset[2] ?? 0)] as Cube);
}

function sizedSvg(corners: [number, number][], label: string, unitRem: number, cls: string): SVGSVGElement {
  const pad = 0.15;
  const minX = Math.min(...corners.map((c) => c[0])) - pad;
  const maxX = Math.max(...corners.map((c) => c[0])) + pad;
  const minY = Math.min(...corners.map((c) => c[1])) - pad;
  const maxY = Math.max(...corners.map((c) => c[1])) + pad;
  const el = svg("svg", {
    class: cls,
    viewBox: `${minX} ${minY} ${maxX - minX} ${maxY - minY}`,
    role: "img",
    "aria-label": label,
  }) as SVGSVGElement;
  el.style.width = `${(maxX - minX) * unitRem}rem`;
  el.style.height = `${(maxY - minY) * unitRem}rem`;
  return el;
}

function boxCorners(cells: readonly (readonly number[])[], z0: number, z1: number): [number, number][] {
  const out: [number, number][] = [];
  for (const [x, y] of cells) {
    for (const dx of [0, 1]) for (const dy of [0, 1]) for (const z of [z0, z1]) out.push(project(x + dx, y + dy, z));
  }
  return out;
}

/** The area's floor: flat light tiles at z = 0 with the area's outline. */
function floorNodes(area: readonly (readonly number[])[], z: number, cls: string): SVGElement[] {
  return area.map(([x, y]) =>
    svg("polygon", {
      class: cls,
      points: points([
        [x, y, z],
        [x + 1, y, z],
        [x + 1, y + 1, z],
        [x, y + 1, z],
      ]),
    }),
  );
}

/**
 * An empty Ubongo 3D task: the area's two levels as ghost cubes, the volume the pieces must
 * fill (opponents' tables, the spectators' view).
 */
export function areaIsoSvg(area: readonly (readonly number[])[], levels = 2, unitRem = 0.9): SVGSVGElement {
  const el = sizedSvg(
    boxCorners(area, 0, levels),
    t("board:areaIso", { squares: area.length, count: levels }),
    unitRem,
    "area-iso",
  );
  el.append(...floorNodes(area, 0, "iso-floor"));
  const cubes: Cube[] = [];
  for (const [x, y] of area) for (let z = 0; z < levels; z++) cubes.push([x, y, z]);
  const g = svg("g", { class: "iso-ghost" });
  g.append(...isoNodes(cubes, "#dfe7ef"));
  el.append(g);
  return el;
}

/**
 * A solution of a Ubongo 3D task, drawn so that every piece shows: the two levels pulled apart
 * (level 2 above level 1), each cube in its piece's colour, each piece's label on its top faces
 * in each level it reaches.
 */
export function solutionIsoSvg(
  cat: Catalogue,
  area: readonly (readonly number[])[],
  placements: Placement[],
  unitRem = 2.4,
): SVGSVGElement {
  const levels = Math.max(cat.layers, 1);
  const sums = area.map(([x, y]) => x + y);
  // lift each level so that it clears the one below on screen (a level spans its x + y range)
  const lift = (Math.max(...sums) - Math.min(...sums) + 2) * 0.5 + 1.6;
  const owner = new Map<string, { entry: PieceEntry; cube: Cube }>();
  for (const pl of placements) {
    const entry = pieceOf(cat, pl.piece);
    for (const c of placedCubes(cat, pl)) owner.set(cubeKey(c), { entry, cube: c });
  }
  const corners: [number, number][] = [];
  // each level's name stands to the right of it, half way up
  const captionAt = (z: number): [number, number] => {
    const box = boxCorners(area, z * lift, z * lift + 1);
    const vs = box.map((c) => c[1]);
    return [Math.max(...box.map((c) => c[0])) + 0.3, (Math.min(...vs) + Math.max(...vs)) / 2];
  };
  for (let z = 0; z < levels; z++) {
    corners.push(...boxCorners(area, z * lift, z * lift + 1));
    const [u, v] = captionAt(z);
    corners.push([u + 3.6, v - 0.3], [u, v + 0.3]);
  }
  const el = sizedSvg(
    corners,
    t("board:solutionIso", {
      pieces: placements.map((p) => shortLabel(pieceOf(cat, p.piece))).join(", "),
      count: levels,
    }),
    unitRem,
    "solution-iso",
  );
  // the upper level last: it is drawn above (and nearer than) the lower one
  for (let z = 0; z < levels; z++) {
    const base = z * lift - z; // screen height of this level's cubes: z * lift
    const g = svg("g", { class: "iso-level", "data-level": z + 1 });
    g.append(...floorNodes(area, z * lift, "iso-floor"));
    const inLevel = [...owner.values()].filter((o) => o.cube[2] === z);
    const byPiece = new Map<PieceEntry, Cube[]>();
    for (const o of inLevel) byPiece.set(o.entry, [...(byPiece.get(o.entry) ?? []), o.cube]);
    // every cube of the level, back to front, each in its piece's colour; a face between two
    // pieces is hidden anyway (cubes are solid), so only the level's outer faces show
    const all = [...inLevel].sort((a, b) => a.cube[0] + a.cube[1] - (b.cube[0] + b.cube[1]));
    const lifted = (c: Cube): Cube => [c[0], c[1], c[2] + base];
    const solid = new Set(all.map((o) => cubeKey(lifted(o.cube))));
    for (const o of all) g.append(...isoNodes([lifted(o.cube)], o.entry.colour, solid));
    // borders between pieces on the top faces, so that two pieces of one colour stay apart
    for (const { cube: c, entry: me } of all) {
      const top = c[2] + base + 1;
      const edges: [Cube, [number, number, number][]][] = [
        [
          [c[0] + 1, c[1], c[2]],
          [
            [c[0] + 1, c[1], top],
            [c[0] + 1, c[1] + 1, top],
          ],
        ],
        [
          [c[0], c[1] + 1, c[2]],
          [
            [c[0], c[1] + 1, top],
            [c[0] + 1, c[1] + 1, top],
          ],
        ],
      ];
      for (const [next, line] of edges) {
        const other = owner.get(cubeKey(next));
        if (other && other.entry !== me) {
          g.append(svg("polyline", { class: "iso-piece-edge", points: points(line) }));
        }
      }
    }
    for (const [entry, cubes] of byPiece) {
      // the label on the cube nearest the middle of the piece's cubes in this level
      const mx = cubes.reduce((s, c) => s + c[0], 0) / cubes.length;
      const my = cubes.reduce((s, c) => s + c[1], 0) / cubes.length;
      const at = [...cubes].sort((a, b) => Math.hypot(a[0] - mx, a[1] - my) - Math.hypot(b[0] - mx, b[1] - my))[0];
      const [u, v] = project(at[0] + 0.5, at[1] + 0.5, at[2] + base + 1);
      const text = svg("text", { class: "iso-label", x: u, y: v, "data-piece": entry.id });
      text.textContent = shortLabel(entry);
      g.append(text);
    }
    const [lu, lv] = captionAt(z);
    const caption = svg("text", { class: "iso-level-name", x: lu, y: lv });
    caption.textContent =
      z === 0
        ? t("board:levelBottom")
        : z === levels - 1
          ? t("board:levelTop", { n: z + 1 })
          : t("board:level", { n: z + 1 });
    g.append(caption);
    el.append(g);
  }
  return el;
}
