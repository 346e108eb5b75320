// The tray: one square slot per piece, big enough for every orientation of it, in rows below
// the area (narrow boards) or in columns beside it (wide ones). The slots never move while a
// game goes on, so pieces never jump under the player's hand.
//
// Below the area (a phone) the pieces are drawn smaller in the tray, as in the game's own app:
// the area then fills the board's width, and a piece grows to its size on the area as soon as
// it is dragged. The tray takes one, two or three rows, at the scale that leaves the area cells
// and the tray slots both 44 px (touch targets) where the screen allows, then the area the
// larger cells; a slot may be larger than its piece, and a row wider than the area.

import { svg } from "../dom";
import { type Box, type Cell, cellsBounds, type LatticeName, type Point } from "../geometry";
import { type PieceState, shapeOf } from "./piece";

/** The space between the area's frame and the tray. */
const GAP = 0.8;
/** The largest a piece is drawn in a tray below the area (of its size on the area) before the
 * board's size on screen is known; once it is, `bestTray` chooses. */
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
  const w = frame.maxX - frame.minX;
  if (!room) {
    // not measured yet (before the board is in the page): one row as wide as the area
    const scale = Math.min(MAX_TRAY_SCALE, w / sizes.reduce((a, b) => a + b, 0));
    for (const p of pieces) p.scale = scale;
    return rowsBelow(
      pieces,
      sizes.map((s) => s * scale),
      frame,
      pieces.length,
    );
  }
  const best = bestTray(sizes, frame, room);
  for (const p of pieces) p.scale = best.scale;
  return rowsBelow(pieces, best.slots, frame, best.perRow);
}

/** A way to lay the tray out below the area: `perRow` slots a row, pieces drawn at `scale` in
 * slots of sides `slots`; the area's cells and the smallest slot then measure `px` and `slotPx`
 * on screen. */
interface TrayOption {
  perRow: number;
  scale: number;
  slots: number[];
  px: number;
  slotPx: number;
}

/** The tray below the area that gives touch-sized area cells *and* tray slots, with the area's
 * cells as large as they can be (within half a pixel), and then the largest pieces in the tray.
 * One row, two or three; a row may be wider than the area where the screen has width to spare
 * (a tall, narrow area on a phone: the height limits its cells, and a tray as narrow as the
 * area would make its slots too small to touch). When no option gives both, the one whose
 * smaller target is the larger. */
function bestTray(sizes: number[], frame: Box, room: Room): TrayOption {
  const options: TrayOption[] = [];
  for (let rows = 1; rows <= Math.min(3, sizes.length); rows++) {
    const perRow = Math.ceil(sizes.length / rows);
    if (rows > 1 && Math.ceil(sizes.length / perRow) < rows) continue; // the same as fewer rows
    for (let step = 100; step >= 10; step--) {
      options.push(trayOption(sizes, perRow, step / 100, frame, room));
    }
  }
  const touch = options.filter((o) => o.px >= TOUCH_PX && o.slotPx >= TOUCH_PX);
  const worst = (o: TrayOption) => Math.min(o.px, o.slotPx);
  const top = Math.max(...options.map(worst));
  const pool = touch.length ? touch : options.filter((o) => worst(o) >= top - 0.5);
  const largest = Math.max(...pool.map((o) => o.px));
  return pool
    .filter((o) => o.px >= largest - 0.5)
    .reduce((a, b) => (b.scale > a.scale || (b.scale === a.scale && b.perRow > a.perRow) ? b : a));
}

/** The tray of `perRow` slots a row with pieces drawn at `scale`. A small piece's slot is drawn
 * larger than the piece where that is what makes it a touch target: the slots' smallest side is
 * found by a few rounds of "44 px at the size the cells come out at". */
function trayOption(sizes: number[], perRow: number, scale: number, frame: Box, room: Room): TrayOption {
  const fit = (least: number) => {
    const slots = sizes.map((s) => Math.max(s * scale, least));
    const grid = chunk(slots, perRow);
    const widest = Math.max(...grid.map((row) => row.reduce((a, b) => a + b, 0)));
    const tall = grid.reduce((h, row) => h + Math.max(...row), 0);
    // the picture's own margin (Board.setViewBox) is 0.3 on each side
    const width = Math.max(frame.maxX - frame.minX, widest) + 0.6;
    const height = frame.maxY - frame.minY + GAP + tall + 0.6;
    const px = Math.min(room.width / width, room.height / height);
    return { perRow, scale, slots, px, slotPx: Math.min(...slots) * px };
  };
  let option = fit(0);
  for (let round = 0; round < 4 && option.slotPx < TOUCH_PX; round++) {
    option = fit((TOUCH_PX + 0.25) / option.px);
  }
  return option;
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
