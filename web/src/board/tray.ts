// The tray: one square slot per piece, big enough for every orientation of it, in rows below
// the area (narrow boards) or in columns beside it (wide ones). The slots never move while a
// game goes on, so pieces never jump under the player's hand.
//
// Below the area (a phone) the pieces are drawn smaller in the tray, as in the game's own app:
// the area then fills the board's width, and a piece grows to its size on the area as soon as
// it is dragged. The tray takes one row or two, whichever leaves the area the larger cells.

import { svg } from "../dom";
import { type Box, type Cell, cellsBounds, type LatticeName, type Point } from "../geometry";
import { type PieceState, shapeOf } from "./piece";

/** The space between the area's frame and the tray. */
const GAP = 0.8;
/** The largest a piece is drawn in a tray below the area (of its size on the area). */
const MAX_TRAY_SCALE = 0.6;
/** Cells this large (screen px) are good touch targets: a layout that gives them is preferred. */
export const TOUCH_PX = 44;

/** The screen box the board's picture fits in (px), to choose the tray's rows by. */
export interface Room {
  width: number;
  height: number;
}

/** Give every piece its tray slot (`slot`, `scale`) around the area's `frame`; returns the
 * bounds of the frame and the tray together. */
export function layOutTray(
  lattice: LatticeName,
  pieces: PieceState[],
  frame: Box,
  below: boolean,
  room: Room | null = null,
): Box {
  // one square slot per piece, big enough for every orientation, so the layout never moves
  const sizes = pieces.map((p) => {
    let side = 0;
    for (const t of p.entry.transforms) {
      const b = cellsBounds(lattice, shapeOf(p, t));
      side = Math.max(side, b.maxX - b.minX, b.maxY - b.minY);
    }
    return side + 0.5;
  });
  if (!below) {
    for (const p of pieces) p.scale = 1;
    return columnsBeside(pieces, sizes, frame);
  }
  // one row or two across the area's width: the one whose cells come out larger on screen
  // (with touch-sized cells either way, the one with the larger pieces in the tray)
  const options = [1, 2].map((rows) => {
    const perRow = Math.ceil(pieces.length / rows);
    const widest = Math.max(...chunk(sizes, perRow).map((row) => row.reduce((a, b) => a + b, 0)));
    const w = frame.maxX - frame.minX;
    const fitsWidth = w / widest;
    const withScale = (scale: number) => {
      const tall = chunk(sizes, perRow).reduce((h, row) => h + Math.max(...row) * scale, 0);
      const h = frame.maxY - frame.minY + GAP + tall;
      // the picture's own margin (Board.setViewBox) is 0.3 on each side
      const px = room ? Math.min(room.width / (w + 0.6), room.height / (h + 0.6)) : 0;
      return { perRow, scale, px };
    };
    let chosen = withScale(Math.min(MAX_TRAY_SCALE, fitsWidth));
    // height to spare (the width limits the area's cells): the tray's pieces grow towards
    // their size on the area, easier to take, as long as the area's cells keep their size
    for (let scale = Math.min(1, fitsWidth); room && scale > chosen.scale; scale -= 0.05) {
      const larger = withScale(scale);
      if (larger.px >= chosen.px - 0.5) {
        chosen = larger;
        break;
      }
    }
    return chosen;
  });
  const touch = options.filter((o) => o.px >= TOUCH_PX);
  const best = touch.length
    ? touch.reduce((a, b) => (b.scale > a.scale ? b : a))
    : options.reduce((a, b) => (b.px > a.px ? b : a));
  for (const p of pieces) p.scale = best.scale;
  return rowsBelow(
    pieces,
    sizes.map((s) => s * best.scale),
    frame,
    best.perRow,
  );
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Rows of `perRow` slots under the area, each centred under it. */
function rowsBelow(pieces: PieceState[], sizes: number[], frame: Box, perRow: number): Box {
  const frameW = frame.maxX - frame.minX;
  const width = Math.max(frameW, ...chunk(sizes, perRow).map((row) => row.reduce((a, b) => a + b, 0)));
  let x = 0;
  let y = frame.maxY + GAP;
  let rowH = 0;
  const rows: PieceState[][] = [[]];
  pieces.forEach((p, i) => {
    if (i > 0 && i % perRow === 0) {
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

/** Where a piece sits in its tray slot (its middle in the slot's middle, at its tray scale). */
export function slotOrigin(lattice: LatticeName, p: PieceState, shape: Cell[]): Point {
  const b = cellsBounds(lattice, shape);
  return [
    (p.slot.minX + p.slot.maxX) / 2 - (p.scale * (b.minX + b.maxX)) / 2,
    (p.slot.minY + p.slot.maxY) / 2 - (p.scale * (b.minY + b.maxY)) / 2,
  ];
}

/** The SVG transform that draws a piece at `origin`, `scale` times its size on the area. */
export function drawnAt(origin: Point, scale: number): string {
  const [x, y] = origin;
  return scale === 1 ? `translate(${x} ${y})` : `translate(${x} ${y}) scale(${scale})`;
}

/** A transparent box over a whole tray slot, in the coordinates of a piece drawn at `origin`
 * and `scale` in it: a touch anywhere in the slot takes the piece. */
export function trayHitRect(slot: Box, origin: Point, scale: number): SVGElement {
  return svg("rect", {
    class: "tray-hit",
    x: (slot.minX - origin[0]) / scale,
    y: (slot.minY - origin[1]) / scale,
    width: (slot.maxX - slot.minX) / scale,
    height: (slot.maxY - slot.minY) / scale,
  });
}

/** The screen box an element's picture fits in. */
export function roomOf(el: Element): Room {
  const box = el.getBoundingClientRect();
  return { width: box.width, height: box.height };
}

/** Whether the room changed enough (8 px) to lay the tray out again. */
export function roomChanged(before: Room | null, now: Room): boolean {
  return !before || Math.abs(now.width - before.width) + Math.abs(now.height - before.height) > 8;
}
