// Small isometric pictures of polycubes in SVG (the tray, the how-to): no WebGL needed, so
// any number of them can be on a page.

import { type Catalogue, pieceOf, shade } from "../catalogue";
import { svg } from "../dom";
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
export function isoNodes(cells: Cube[], colour: string): SVGElement[] {
  const has = new Set(cells.map(cubeKey));
  // the viewer looks along (-1, -1, -1): paint the farthest cubes first
  const order = [...cells].sort((a, b) => a[0] + a[1] + a[2] - (b[0] + b[1] + b[2]));
  const top = colour;
  const right = shade(colour, 0.78);
  const front = shade(colour, 0.62);
  const edge = shade(colour, 0.4);
  const nodes: SVGElement[] = [];
  for (const [x, y, z] of order) {
    const face = (fill: string, corners: [number, number, number][]) =>
      nodes.push(svg("polygon", { points: points(corners), fill, stroke: edge, "stroke-width": 0.04, "stroke-linejoin": "round" }));
    if (!has.has(cubeKey([x, y, z + 1]))) {
      face(top, [[x, y, z + 1], [x + 1, y, z + 1], [x + 1, y + 1, z + 1], [x, y + 1, z + 1]]);
    }
    if (!has.has(cubeKey([x + 1, y, z]))) {
      face(right, [[x + 1, y, z], [x + 1, y + 1, z], [x + 1, y + 1, z + 1], [x + 1, y, z + 1]]);
    }
    if (!has.has(cubeKey([x, y + 1, z]))) {
      face(front, [[x, y + 1, z], [x + 1, y + 1, z], [x + 1, y + 1, z + 1], [x, y + 1, z + 1]]);
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
    for (const dx of [0, 1]) for (const dy of [0, 1]) for (const dz of [0, 1]) corners.push(project(x + dx, y + dy, z + dz));
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
    "aria-label": `piece ${entry.id} (${shortLabel(entry)}), ${entry.colour_name} ${entry.name}, ${entry.size} cubes`,
  }) as SVGSVGElement;
  el.style.width = `${(maxX - minX) * unitRem}rem`;
  el.style.height = `${(maxY - minY) * unitRem}rem`;
  el.append(...isoNodes(cells, entry.colour));
  return el;
}
