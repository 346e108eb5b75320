// Drawing the flat board in SVG: a piece's cells, inner lines, outline and label (the board, the
// tray and every picture use the same nodes), the area and its frame, and the overlap hatching.

import { type PieceEntry, shade } from "../catalogue";
import { svg } from "../dom";
import {
  type Box,
  type Cell,
  cellCentre,
  cellKey,
  type LatticeName,
  outline,
  outlinePath,
  polygonPoints,
} from "../geometry";
import { shapeCentre } from "./piece";

/** The SVG nodes of a piece at the origin: cells, faint inner lines, outline and label. */
export function pieceShapeNodes(lattice: LatticeName, entry: PieceEntry, cells: Cell[]): SVGElement[] {
  const nodes: SVGElement[] = [];
  for (const c of cells) {
    nodes.push(
      svg("polygon", {
        class: "piece-cell",
        points: polygonPoints(outline(lattice, c)),
        fill: entry.colour,
        stroke: entry.colour,
        "data-cell": cellKey(c),
      }),
    );
  }
  nodes.push(svg("path", { class: "piece-edge", d: outlinePath(lattice, cells), stroke: shade(entry.colour, 0.55) }));
  // the label sits in the cell nearest the middle, so it is always on the piece
  const mid = shapeCentre(lattice, cells);
  let best = cells[0];
  let bestD = Infinity;
  for (const c of cells) {
    const [x, y] = cellCentre(lattice, c);
    const d = (x - mid[0]) ** 2 + (y - mid[1]) ** 2;
    if (d < bestD - 1e-9) {
      bestD = d;
      best = c;
    }
  }
  const [lx, ly] = cellCentre(lattice, best);
  const size = lattice === "triangle" ? 0.36 : 0.5;
  const label = svg("text", {
    class: "piece-label",
    x: lx,
    y: ly,
    "font-size": size,
    "text-anchor": "middle",
    "dominant-baseline": "central",
  });
  label.textContent = entry.id;
  nodes.push(label);
  return nodes;
}

/** The board's shared SVG definitions: the red hatching of overlap and overhang. */
export function hatchDefs(): SVGElement {
  const d = svg("defs", {});
  const pattern = svg("pattern", {
    id: "hatch",
    width: 0.25,
    height: 0.25,
    patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)",
  });
  pattern.appendChild(svg("rect", { width: 0.1, height: 0.25, fill: "rgba(200,0,30,0.75)" }));
  d.appendChild(pattern);
  return d;
}

/** The frame around the area: `pad` beyond the area's bounds `box`. */
export function frameRect(box: Box, pad: number): SVGElement {
  return svg("rect", {
    class: "board-frame",
    x: box.minX - pad,
    y: box.minY - pad,
    width: box.maxX - box.minX + 2 * pad,
    height: box.maxY - box.minY + 2 * pad,
    rx: 0.35,
  });
}

/** The task's area: its cells (each tagged `data-area-cell`) and its outline. */
export function areaLayer(lattice: LatticeName, area: Cell[]): SVGGElement {
  const layer = svg("g", { class: "area" }) as SVGGElement;
  for (const c of area) {
    layer.appendChild(
      svg("polygon", {
        class: "area-cell",
        points: polygonPoints(outline(lattice, c)),
        "data-area-cell": cellKey(c),
      }),
    );
  }
  layer.appendChild(svg("path", { class: "area-edge", d: outlinePath(lattice, area) }));
  return layer;
}
