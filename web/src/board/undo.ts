// Undo for every board: the arrangements a board went through, so that the last placement or
// turn can be taken back (the Undo button, Ctrl+Z or Cmd+Z). It needs only what every board
// already offers the game screen (board3d's BoardLike): its placements, told on each change,
// and `arrange` to put them back; the flat and the 3D board are undone alike.

import type { Placement } from "../catalogue";

/** The part of a board that undo needs. */
export interface Arrangeable {
  arrange(placements: Placement[]): void;
}

/** How many steps are kept (a task has at most a few dozen moves). */
const KEEP = 200;

function keyOf(placements: Placement[]): string {
  return JSON.stringify([...placements].sort((a, b) => (a.piece < b.piece ? -1 : a.piece > b.piece ? 1 : 0)));
}

/** The arrangements of one board, oldest first; the last is the board as it is. */
export class UndoHistory {
  private readonly steps: string[];
  private restoring = false;

  constructor(initial: Placement[] = []) {
    this.steps = [keyOf(initial)];
  }

  /** A change of the board (its `onChange`): a new step unless the placements are the same
   * (a piece picked up, the pointer moved) or it is an undo being carried out. */
  record(placements: Placement[]): void {
    if (this.restoring) return;
    const key = keyOf(placements);
    if (key === this.steps[this.steps.length - 1]) return;
    this.steps.push(key);
    if (this.steps.length > KEEP) this.steps.shift();
  }

  get canUndo(): boolean {
    return this.steps.length > 1;
  }

  /** Put the board back as it was before its last change; false when there is none. */
  undo(board: Arrangeable): boolean {
    if (!this.canUndo) return false;
    this.steps.pop();
    const before = JSON.parse(this.steps[this.steps.length - 1]) as Placement[];
    this.restoring = true;
    try {
      board.arrange(before);
    } finally {
      this.restoring = false;
    }
    return true;
  }
}

/** Ctrl+Z (Cmd+Z on a Mac): undo. Shift+Ctrl+Z is redo elsewhere, and not this. */
export function isUndoKey(e: KeyboardEvent): boolean {
  return (e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "z";
}
