// The 3D board's tray: one button per piece with its isometric picture, its number key and its
// label, saying whether it is in the tray, on the board or in hand.

import type { Catalogue, PieceEntry } from "../catalogue";
import { h } from "../dom";
import { t } from "../i18n";
import { pieceIsoSvg } from "./iso";
import type { Cube } from "./shapes";

export interface PieceState {
  entry: PieceEntry;
  label: string;
  transform: number;
  /** the offset of its bounding box's corner on the board, or null (tray or in hand) */
  place: Cube | null;
  button: HTMLButtonElement;
}

/** Redraw piece `p`'s tray button (`n`: its number key); `where` is where it lies or would land. */
export function drawTrayButton(
  cat: Catalogue,
  p: PieceState,
  n: number,
  now: { inHand: boolean; faulty: boolean; where: Cube | null },
): void {
  const state = now.inHand ? "held" : p.place ? "placed" : "tray";
  const b = p.button;
  b.dataset.state = state;
  b.dataset.transform = String(p.transform);
  b.dataset.offset = now.where ? now.where.join(",") : "";
  b.classList.toggle("selected", now.inHand);
  b.classList.toggle("faulty", now.faulty);
  b.setAttribute("aria-pressed", String(now.inHand));
  b.title = t(`board:trayButton.${state}`, { n, id: p.entry.id });
  b.replaceChildren(
    pieceIsoSvg(cat, p.entry.id, p.transform, 0.62),
    h("span.tray-label", {}, h("kbd", {}, String(n)), " ", p.label),
  );
}
