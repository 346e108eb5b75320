// The pieces laid on a board, kept across a reload (sessionStorage) and compared between
// changes (which piece moved: its place sound and snap).

import type { Placement } from "../catalogue";

/** Each laid piece's place ("transform|offset"), by piece. */
export function laidMap(placements: Placement[]): Map<string, string> {
  return new Map(placements.map((p) => [p.piece, `${p.transform}|${p.offset.join(",")}`]));
}

/** The pieces this browser had laid for the board `key` before a reload, if any. */
export function savedArrangement(saveKey: string, key: string): Placement[] {
  try {
    const saved = JSON.parse(sessionStorage.getItem(saveKey) ?? "null") as {
      key: string;
      placements: Placement[];
    } | null;
    return saved && saved.key === key ? saved.placements : [];
  } catch {
    return [];
  }
}
