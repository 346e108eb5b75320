// The pieces laid on a board, kept across a reload (this tab's storage) and compared between
// changes (which piece moved: its place sound and snap).

import type { Placement } from "../catalogue";
import { stored } from "../storage";

/** Each laid piece's place ("transform|offset"), by piece. */
export function laidMap(placements: Placement[]): Map<string, string> {
  return new Map(placements.map((p) => [p.piece, `${p.transform}|${p.offset.join(",")}`]));
}

/** The pieces this tab had laid in room `code` on the board `key` before a reload, if any. */
export function savedArrangement(code: string, key: string): Placement[] {
  const saved = stored.arrangement(code).read();
  return saved && saved.key === key ? saved.placements : [];
}

/** Keep the pieces laid on the board `key` of room `code` for a reload. */
export function saveArrangement(code: string, key: string, placements: Placement[]): void {
  stored.arrangement(code).write({ key, placements });
}
