// The local task player: one task on the game screens' own boards (flat or 3D, through
// board3d's createBoard), checked by the client's geometry alone (the boards know when an
// area is covered). Practice and the first-run tutorial play with it; no server is asked.

import { type BoardLike, boardHint, createBoard } from "../board3d";
import type { Catalogue, Placement } from "../catalogue";
import { h } from "../dom";
import { t } from "../i18n";
import type { PracticeTask } from "./bundle";

export interface PlayerOptions {
  catalogue: Catalogue;
  task: PracticeTask;
  /** the area is covered (by the player, or by "Show solution": `shown`) */
  onSolved?: (shown: boolean) => void;
  /** offer Hint and Show solution (practice; the tutorial has its own help) */
  help?: boolean;
}

/** One task being played: the board, its status line and (practice) Hint and Show solution. */
export class LocalPlayer {
  readonly element: HTMLElement;
  readonly board: BoardLike;
  private shown = false;
  private solved = false;

  constructor(private readonly opts: PlayerOptions) {
    const { catalogue, task } = opts;
    this.board = createBoard({
      catalogue,
      area: task.area,
      pieces: task.pieces,
      onCovered: () => this.covered(),
    });
    const actions = h("div.local-actions");
    if (opts.help) {
      actions.append(
        h("button#local-hint", { type: "button", onclick: () => this.hint() }, t("offline:player.hint")),
        h(
          "button#local-show",
          { type: "button", onclick: () => this.showSolution() },
          t("offline:player.showSolution"),
        ),
      );
    }
    this.element = h("div.local-player", { "data-task": task.id }, this.board.element, actions);
  }

  /** Call once the element is in the page: the board fits its tray to the space it has. */
  mounted(): void {
    this.board.attach();
    this.board.setStatus(boardHint(this.opts.catalogue.layers));
    window.setTimeout(() => this.board.focus(), 0);
  }

  destroy(): void {
    this.board.destroy();
  }

  isSolved(): boolean {
    return this.solved;
  }

  /** Put one piece where the solution has it (the first one not there yet). */
  hint(): void {
    if (this.solved) return;
    const now = this.board.placements();
    const same = (a: Placement, b: Placement) =>
      a.piece === b.piece && a.transform === b.transform && a.offset.join() === b.offset.join();
    const next = this.opts.task.solution.find((s) => !now.some((p) => same(p, s)));
    if (!next) return;
    // the pieces lying on the hinted piece's cells go back to the tray: the rest stays
    const keep = now.filter((p) => p.piece !== next.piece);
    this.board.arrange([...keep, next]);
    if (!this.solved) this.board.setStatus(t("offline:player.hintPiece", { piece: next.piece }));
  }

  showSolution(): void {
    if (this.solved) return;
    this.shown = true;
    this.board.arrange(this.opts.task.solution);
  }

  private covered(): void {
    if (this.solved) return;
    this.solved = true;
    this.board.lock(true);
    this.element.classList.add("solved");
    this.board.setStatus(this.shown ? t("offline:player.shown") : t("offline:player.covered"), "good");
    this.opts.onSolved?.(this.shown);
  }
}
