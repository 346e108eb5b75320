// The drawing catalogue of an edition, as served by GET /api/editions/{name}
// (src/ubongo/catalogue.py): the client never re-implements the transform group.

import type { Cell, LatticeName } from "./geometry";

export interface PieceEntry {
  id: string;
  number: number;
  name: string;
  colour: string;
  colour_name: string;
  size: number;
  transforms: number[];
  shapes: Record<string, Cell[]>;
}

export interface Catalogue {
  edition: string;
  lattice: LatticeName;
  area_lattice: LatticeName;
  layers: number;
  reflections: boolean;
  group_size: number;
  rotate: number[];
  flip: number[] | null;
  pieces: PieceEntry[];
}

export interface Placement {
  piece: string;
  transform: number;
  offset: number[];
}

const cache = new Map<string, Promise<Catalogue>>();

export function loadCatalogue(edition: string): Promise<Catalogue> {
  let found = cache.get(edition);
  if (!found) {
    found = fetch(`/api/editions/${encodeURIComponent(edition)}`).then(async (r) => {
      if (!r.ok) throw new Error(`cannot load the ${edition} pieces (${r.status})`);
      return (await r.json()) as Catalogue;
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
