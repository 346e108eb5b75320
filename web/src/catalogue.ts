// The drawing catalogue of an edition, as served by GET /api/editions/{name}
// (src/ubongo/catalogue.py): the client never re-implements the transform group.

import { ApiError, api } from "./api";
import type { CataloguePiece, EditionCatalogue, Placement } from "./protocol";

/** An edition's drawing catalogue (generated from the server's model, as every protocol type). */
export type Catalogue = EditionCatalogue;
/** One piece of a catalogue: names, colour, and its cells under each allowed transform. */
export type PieceEntry = CataloguePiece;
export type { Placement };

/** An offset as the protocol carries it: the lattice's 2 or 3 coordinates of a cell. */
export function offsetOf(cell: readonly number[]): Placement["offset"] {
  if (cell.length === 2) return [cell[0], cell[1]];
  if (cell.length === 3) return [cell[0], cell[1], cell[2]];
  throw new Error(`an offset has 2 or 3 coordinates, not ${cell.length}`);
}

const cache = new Map<string, Promise<Catalogue>>();

export function loadCatalogue(edition: string): Promise<Catalogue> {
  let found = cache.get(edition);
  if (!found) {
    found = api("GET /api/editions/{name}", { path: { name: edition } }).catch((e: unknown) => {
      // a room's toast says which pieces and the status (a refusal); no network says so itself
      throw e instanceof ApiError && e.status ? new Error(`cannot load the ${edition} pieces (${e.status})`) : e;
    });
    found.catch(() => cache.delete(edition));
    cache.set(edition, found);
  }
  return found;
}

export function pieceOf(cat: Catalogue, id: string): PieceEntry {
  const p = cat.pieces.find((x) => x.id === id);
  if (!p) throw new Error(`no piece ${id} in ${cat.edition}`);
  return p;
}

/** The label a player knows a piece by: its letter (Classic) or number (Extreme, Trigo). */
export function pieceLabel(p: PieceEntry): string {
  return p.id;
}

/** A darker shade of a piece colour, for its outline. */
export function shade(hex: string, factor: number): string {
  const n = parseInt(hex.slice(1), 16);
  const ch = (v: number) => Math.max(0, Math.min(255, Math.round(v * factor)));
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map(ch);
  return `rgb(${r},${g},${b})`;
}
