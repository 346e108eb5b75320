// One name for a piece, the same on every screen: on the flat boards its letter ("A"); on the
// 3D board the label drawn on the piece with its colour and size ("G3 (green 3)"), as the 3D
// board's own hints say it.

import { shortLabel } from "./board3d/shapes";
import { type Catalogue, pieceOf } from "./catalogue";
import { colourName } from "./i18n";

export function pieceName(cat: Catalogue, id: string): string {
  if (cat.layers <= 1) return id;
  const entry = pieceOf(cat, id);
  return `${shortLabel(entry)} (${colourName(entry.colour_name)} ${entry.size})`;
}
