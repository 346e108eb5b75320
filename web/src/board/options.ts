// What a flat board is made from (board/index.ts): the task, its pieces and what to tell.

import type { Catalogue, Placement } from "../catalogue";
import type { Cell } from "../geometry";

export interface BoardOptions {
  catalogue: Catalogue;
  area: Cell[];
  pieces: string[];
  /** every change of the arrangement; `covered` when it covers the area exactly */
  onChange?: (placements: Placement[], covered: boolean) => void;
  /** the arrangement covers the area exactly (called once per arrangement) */
  onCovered?: (placements: Placement[]) => void;
  /** a piece taken in hand or turned (the play trace, room/trace.ts); where pieces are put down
   * or taken off is what `onChange` tells */
  onHand?: (step: HandStep) => void;
  /** placements to start with (e.g. a solution to show) */
  initial?: Placement[];
  readonly?: boolean;
  /** omit the tray (a finished picture) */
  trayless?: boolean;
}

/** What the player did with a piece that the arrangement does not show: took it in hand
 * (from the tray or from the area), or turned or flipped it (to `transform`). */
export type HandStep = { op: "pick"; piece: string } | { op: "turn"; piece: string; transform: number };
