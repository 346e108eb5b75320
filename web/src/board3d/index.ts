// The seam between the game screens and the boards: one small interface that the flat SVG
// board (board.ts) and the 3D board both have, and the choice between them by edition.

import "./board3d.css";
import { Board, type BoardOptions } from "../board";
import type { Placement } from "../catalogue";
import { Board3D } from "./board3d";

export { Board3D } from "./board3d";
export { pieceIsoSvg } from "./iso";

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
}

/** The board for a task: the 3D board for editions filled in levels (Ubongo 3D), else the flat one. */
export function createBoard(opts: BoardOptions): BoardLike {
  return opts.catalogue.layers > 1 ? new Board3D(opts) : new Board(opts);
}

/** The first line a player reads under a new board. */
export function boardHint(layers: number): string {
  return layers > 1
    ? "Take a piece (click it or press its number), turn it with R T Y, move it with the arrows, put it down with Enter."
    : "Drag the pieces onto the light area. R turns, F flips.";
}
