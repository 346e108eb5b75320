// The seam between the game screens and the boards: one small interface that the flat SVG
// board (board/index.ts) and the 3D board both have, and the choice between them by edition.

import "./board3d.css";
import { Board, type BoardOptions } from "../board";
import type { BoardCommand } from "../board/controls";
import { inputKind } from "../board/inputkind";
import { pieceSvg } from "../board/pictures";
import type { Catalogue, Placement } from "../catalogue";
import { h } from "../dom";
import { colourName, t } from "../i18n";
import { Board3D } from "./board3d";
import { pieceIsoSvg } from "./iso";

export { inputKind, onInputKind } from "../board/inputkind";
export { Board3D } from "./board3d";
export { pieceIsoSvg };

/** What a game screen needs from a board, whichever edition it is. */
export interface BoardLike {
  readonly element: HTMLElement;
  placements(): Placement[];
  lock(locked: boolean): void;
  arrange(placements: Placement[]): void;
  attach(): void;
  destroy(): void;
  focus(): void;
  setStatus(text: string, kind?: "" | "good" | "bad"): void;
  /** a key's command sent from outside (local versus); false when it did not apply */
  command(c: BoardCommand): boolean;
}

/** The board for a task: the 3D board for editions filled in levels (Ubongo 3D), else the flat one. */
export function createBoard(opts: BoardOptions): BoardLike {
  return opts.catalogue.layers > 1 ? new Board3D(opts) : new Board(opts);
}

/**
 * The first line a player reads under a new board: of taps and drags on a touch screen, of
 * keys with a keyboard (board/inputkind.ts).
 */
export function boardHint(layers: number, canFlip = true): string {
  // the 3D board writes its own hints under the scene
  if (layers > 1) return "";
  const key = inputKind() === "touch" ? "board:hint2dTouch" : "board:hint2d";
  return t(canFlip ? key : `${key}NoFlip`);
}

/** A picture of one piece: isometric cubes for Ubongo 3D, the flat drawing otherwise. */
export function piecePicture(cat: Catalogue, id: string, transform?: number, unitRem?: number): SVGSVGElement {
  return cat.layers > 1 ? pieceIsoSvg(cat, id, transform, unitRem) : pieceSvg(cat, id, transform, unitRem);
}

/** A watched table's pieces, small: cubes a little smaller than tiles, squares larger than
 * hexagons and triangles (whose drawings fill less of their box). The spectators' tables and
 * the replay's show the same. */
export function tablePieces(cat: Catalogue, ids: readonly string[]): HTMLElement {
  const unit = cat.layers > 1 ? 0.6 : cat.lattice === "square" ? 0.75 : 0.65;
  return h("div.table-pieces", {}, ...ids.map((id) => piecePicture(cat, id, undefined, unit)));
}

/** How the 3D board is played with keys and buttons (the how-to). */
export function keys3d(): string {
  return t("board:keys3d");
}

/** Ubongo 3D lobby: every player chooses their own level (`levels`: the edition's sides). */
export function levelPicker(
  levels: { value: string; label: string }[],
  current: string,
  choose: (level: string) => void,
): HTMLElement {
  const select = h("select#my-level", { "aria-label": t("board:yourLevel") });
  for (const s of levels) select.append(h("option", { value: s.value }, s.label));
  select.value = current;
  select.addEventListener("change", () => choose(select.value));
  return h("label.field", {}, h("span", {}, t("board:yourLevel")), select);
}

/** A seat's level as a small coloured tag. */
export function levelTag(level: string | null): HTMLElement {
  return h("span.tag.level-tag", { "data-level": level ?? "" }, level ? colourName(level) : "");
}
