// Puzzle files in the editor (docs/puzzle-format.md): the drawing saved as one, and an edition
// puzzle read back into the editor (a custom puzzle, with pieces of its own, is not drawn
// here). The server reads every file again: this only takes what the editor can show.

import { h } from "../dom";
import { EDITIONS } from "../editions";
import type { Cell } from "../geometry";
import type { VerdictRequest } from "../protocol";

/** A puzzle file as the editor draws it. */
export interface Drawn {
  edition: string;
  area: Cell[];
  pieces: string[];
}

/** Save `data` as a file named `name` (the browser's download). */
export function save(data: VerdictRequest["puzzle"], name: string): void {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(data)}\n`], { type: "application/json" }));
  const a = h("a", { href: url, download: name });
  a.click();
  URL.revokeObjectURL(url);
}

/** The edition puzzle in `text`, or null when it is not one the editor can draw. */
export function readPuzzle(text: string): Drawn | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  const { edition, area, pieces } = data as Record<string, unknown>;
  if (typeof edition !== "string" || !EDITIONS.some((e) => e.name === edition)) return null;
  if (!Array.isArray(area) || !Array.isArray(pieces)) return null;
  const cells = area.every((row) => typeof row === "string") ? picture(area as string[]) : cellsOf(area);
  const ids = pieces.filter((p) => typeof p === "string" || typeof p === "number").map(String);
  if (!cells?.length || ids.length !== pieces.length) return null;
  return { edition, area: cells, pieces: ids };
}

/** Picture rows ("#" a cell, "." or a space none), top row first. */
function picture(rows: string[]): Cell[] | null {
  const out: Cell[] = [];
  for (const [y, row] of rows.entries()) {
    for (const [x, ch] of [...row].entries()) {
      if (ch === "#") out.push([x, y]);
      else if (ch !== "." && ch !== " ") return null;
    }
  }
  return out;
}

/** Cells as lists of whole numbers (2 or 3 of them). */
function cellsOf(raw: unknown[]): Cell[] | null {
  const ok = (c: unknown): c is number[] =>
    Array.isArray(c) && (c.length === 2 || c.length === 3) && c.every((v) => Number.isInteger(v));
  return raw.every(ok) ? raw.map((c) => [...c]) : null;
}
