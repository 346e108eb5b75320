// A piece on the flat board: its catalogue entry, how it is turned, where it lies (on the area or
// in its tray slot), and the geometry the drawing, the tray and the input share.

import type { PieceEntry } from "../catalogue";
import { type Box, type Cell, cellCentre, type LatticeName, type Point } from "../geometry";

export interface PieceState {
  entry: PieceEntry;
  transform: number;
  offset: number[] | null; // null: in the tray
  slot: Box; // its place in the tray
  /** how large it is drawn in its tray slot (1: as on the area; small pieces on a phone) */
  scale: number;
  g: SVGGElement;
}

/** The piece's cells turned by `transform` (its own by default), anchored at 0. */
export function shapeOf(p: PieceState, transform = p.transform): Cell[] {
  return p.entry.shapes[String(transform)];
}

/** The middle of some cells (the mean of their centres). */
export function shapeCentre(lattice: LatticeName, cells: Cell[]): Point {
  let x = 0;
  let y = 0;
  for (const c of cells) {
    const [u, v] = cellCentre(lattice, c);
    x += u;
    y += v;
  }
  return [x / cells.length, y / cells.length];
}

export function emptyBox(): Box {
  return { minX: 0, minY: 0, maxX: 0, maxY: 0 };
}
