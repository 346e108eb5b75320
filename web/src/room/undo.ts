// The game screen's Undo: the button and Ctrl+Z/Cmd+Z over the board's history
// (board/undo.ts), for the flat and the 3D board alike.

import { isUndoKey, UndoHistory } from "../board/undo";
import type { BoardLike } from "../board3d";
import type { Placement } from "../catalogue";
import { h } from "../dom";
import { t } from "../i18n";

export class UndoControl {
  readonly button: HTMLButtonElement;
  private readonly history: UndoHistory;
  private locked = false;

  constructor(
    private readonly board: () => BoardLike | null,
    initial: Placement[],
  ) {
    this.history = new UndoHistory(initial);
    this.button = h(
      "button#undo",
      { type: "button", title: t("play:undo.title"), "aria-keyshortcuts": "Control+Z Meta+Z" },
      `↶ ${t("play:undo.button")}`,
    ) as HTMLButtonElement;
    this.button.addEventListener("click", () => {
      this.undo();
      this.board()?.focus();
    });
    this.draw();
  }

  /** Ctrl+Z or Cmd+Z on `el` (the board) undoes. */
  keys(el: HTMLElement): void {
    el.addEventListener("keydown", (e) => {
      if (isUndoKey(e) && this.undo()) e.preventDefault();
    });
  }

  /** A change of the board (its onChange). */
  record(placements: Placement[]): void {
    this.history.record(placements);
    this.draw();
  }

  /** A locked board (finished, or the round over) is not undone. */
  setLocked(locked: boolean): void {
    this.locked = locked;
    this.draw();
  }

  /** Take back the board's last change. */
  undo(): boolean {
    const board = this.board();
    if (!board || this.locked) return false;
    const done = this.history.undo(board);
    this.draw();
    if (done) board.setStatus(t("play:undo.done"));
    return done;
  }

  private draw(): void {
    this.button.disabled = this.locked || !this.history.canUndo;
  }
}
