// The covered check of the flat board: which cells stick out of the area or lie under two
// pieces (shown, never forbidden), and whether the pieces cover the area exactly.

import { type Cell, cellKey } from "../geometry";

export interface Coverage {
  /** the cells to mark: off the area (`outside`) or covered twice or more */
  faults: { cell: Cell; outside: boolean }[];
  /** every piece is placed and together they cover the area exactly */
  covered: boolean;
}

/**
 * `placed` holds the cells of each piece on the board, out of `pieceCount` pieces; `areaKeys`
 * the `cellKey`s of the area.
 */
export function coverage(placed: Cell[][], pieceCount: number, areaKeys: Set<string>): Coverage {
  const count = new Map<string, { cell: Cell; n: number }>();
  for (const cells of placed) {
    for (const c of cells) {
      const k = cellKey(c);
      const e = count.get(k);
      if (e) e.n += 1;
      else count.set(k, { cell: c, n: 1 });
    }
  }
  const faults: Coverage["faults"] = [];
  for (const [k, { cell, n }] of count) {
    const outside = !areaKeys.has(k);
    if (outside || n > 1) faults.push({ cell, outside });
  }
  const allPlaced = placed.length === pieceCount;
  return { faults, covered: allPlaced && faults.length === 0 && count.size === areaKeys.size };
}
