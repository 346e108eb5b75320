// The tray: one square slot per piece, big enough for every orientation of it, in rows below
// the area (narrow boards) or in columns beside it (wide ones). The slots never move while a
// game goes on, so pieces never jump under the player's hand.

import { type Box, cellsBounds, type LatticeName } from "../geometry";
import { type PieceState, shapeOf } from "./piece";

/** The space between the area's frame and the tray. */
const GAP = 0.8;

/** Give every piece its tray slot (`slot`) around the area's `frame`; returns the bounds of the
 * frame and the tray together. */
export function layOutTray(lattice: LatticeName, pieces: PieceState[], frame: Box, below: boolean): Box {
  // one square slot per piece, big enough for every orientation, so the layout never moves
  const sizes = pieces.map((p) => {
    let side = 0;
    for (const t of p.entry.transforms) {
      const b = cellsBounds(lattice, shapeOf(p, t));
      side = Math.max(side, b.maxX - b.minX, b.maxY - b.minY);
    }
    return side + 0.5;
  });
  return below ? rowsBelow(pieces, sizes, frame) : columnsBeside(pieces, sizes, frame);
}

/** Rows under the area, each centred under it, at least three slots wide. */
function rowsBelow(pieces: PieceState[], sizes: number[], frame: Box): Box {
  const frameW = frame.maxX - frame.minX;
  const width = Math.max(frameW, Math.max(...sizes) * 3);
  let x = 0;
  let y = frame.maxY + GAP;
  let rowH = 0;
  const rows: PieceState[][] = [[]];
  pieces.forEach((p, i) => {
    if (x > 0 && x + sizes[i] > width) {
      x = 0;
      y += rowH;
      rowH = 0;
      rows.push([]);
    }
    p.slot = { minX: x, minY: y, maxX: x + sizes[i], maxY: y + sizes[i] };
    rows[rows.length - 1].push(p);
    x += sizes[i];
    rowH = Math.max(rowH, sizes[i]);
  });
  // centre each row under the area
  const centre = (frame.minX + frame.maxX) / 2;
  for (const row of rows) {
    const w = row.reduce((s, p) => s + (p.slot.maxX - p.slot.minX), 0);
    const shift = centre - w / 2;
    for (const p of row) {
      p.slot.minX += shift;
      p.slot.maxX += shift;
    }
  }
  return {
    minX: Math.min(frame.minX, centre - width / 2),
    minY: frame.minY,
    maxX: Math.max(frame.maxX, centre + width / 2),
    maxY: y + rowH,
  };
}

/** Columns to the right of the area, as high as the area (at least two slots), centred on it. */
function columnsBeside(pieces: PieceState[], sizes: number[], frame: Box): Box {
  const frameH = frame.maxY - frame.minY;
  const height = Math.max(frameH, Math.max(...sizes) * 2);
  let x = frame.maxX + GAP;
  let y = 0;
  let colW = 0;
  let maxY = 0;
  pieces.forEach((p, i) => {
    if (y > 0 && y + sizes[i] > height) {
      y = 0;
      x += colW;
      colW = 0;
    }
    p.slot = { minX: x, minY: y, maxX: x + sizes[i], maxY: y + sizes[i] };
    y += sizes[i];
    maxY = Math.max(maxY, y);
    colW = Math.max(colW, sizes[i]);
  });
  const top = (frame.minY + frame.maxY) / 2 - maxY / 2;
  for (const p of pieces) {
    p.slot.minY += top;
    p.slot.maxY += top;
  }
  return {
    minX: frame.minX,
    minY: Math.min(frame.minY, top),
    maxX: x + colW,
    maxY: Math.max(frame.maxY, top + maxY),
  };
}
