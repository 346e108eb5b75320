// One player's part of the versus screen: their name and colour, how they play (keys or
// fingers), their place once finished, and their own board (flat or 3D, board3d's
// createBoard). Each board listens to its own pointers, so several fingers play at once.

import type { BoardCommand } from "../board/controls";
import { type BoardLike, createBoard } from "../board3d";
import type { Catalogue } from "../catalogue";
import { h } from "../dom";
import { t } from "../i18n";
import type { TablePlayer } from "../table/logic";
import { placeText } from "../ui";
import type { VersusTask } from "./logic";
import { controlsLine } from "./setup";

export type SeatState = "waiting" | "playing" | "done" | "out" | "watching";

export class Seat {
  readonly element: HTMLElement;
  private readonly stage: HTMLElement;
  private readonly badge: HTMLElement;
  private board: BoardLike | null = null;

  constructor(
    readonly index: number,
    player: TablePlayer,
  ) {
    this.badge = h("span.versus-place", { "aria-live": "polite" });
    this.stage = h("div.versus-board", {}, h("p.muted.versus-wait", {}, t("versus:waiting")));
    this.element = h(
      "section.versus-seat",
      {
        id: `versus-seat-${index}`,
        "data-player": index,
        "data-colour": player.colour,
        "data-state": "waiting",
        "aria-labelledby": `versus-name-title-${index}`,
      },
      h(
        "div.versus-seat-head",
        {},
        h("h2", { id: `versus-name-title-${index}` }, h("span.table-swatch", { "aria-hidden": "true" }), player.name),
        this.badge,
      ),
      controlsLine(index),
      this.stage,
    );
  }

  /** A new task on this player's board; `covered` when they cover it. */
  deal(catalogue: Catalogue, task: VersusTask, covered: () => void): void {
    this.clearBoard();
    const board = createBoard({ catalogue, area: task.area, pieces: task.pieces, onCovered: () => covered() });
    this.board = board;
    this.stage.replaceChildren(board.element);
    this.stage.dataset.card = String(task.card);
    this.stage.dataset.side = task.side;
    this.stage.dataset.key = task.key;
    this.stage.dataset.layers = String(catalogue.layers);
    board.attach();
    this.setState("playing");
  }

  /** This player sits out (a playoff of the others): no board. */
  sitOut(): void {
    this.clearBoard();
    this.stage.replaceChildren(h("p.muted.versus-wait", {}, t("versus:watching")));
    this.setState("watching");
  }

  /** Finished: the board stays in view, locked, with the place. */
  finished(place: number): void {
    this.board?.lock(true);
    this.board?.setStatus(t("versus:finished", { place: placeText(place) }), "good");
    this.badge.textContent = placeText(place);
    this.setState("done");
  }

  /** This player won the game (or shares the win): their panel is crowned. */
  won(): void {
    this.element.dataset.winner = "true";
    this.badge.textContent = t("versus:winner");
  }

  /** The round is over for this player without a finish. */
  timeUp(): void {
    if (this.element.dataset.state !== "playing") return;
    this.board?.lock(true);
    this.board?.setStatus(t("versus:notFinished"), "bad");
    this.setState("out");
  }

  /** A key of this player's: to their board while they play. */
  command(c: BoardCommand): void {
    if (this.element.dataset.state === "playing") this.board?.command(c);
  }

  /** The words drawn again in another language (the board plays on). */
  relabel(): void {
    this.element.querySelector(".versus-controls")?.replaceWith(controlsLine(this.index));
    this.element.querySelector(".versus-wait")?.replaceWith(h("p.muted.versus-wait", {}, t(this.waitWords())));
  }

  private waitWords(): string {
    return this.element.dataset.state === "watching" ? "versus:watching" : "versus:waiting";
  }

  playing(): boolean {
    return this.element.dataset.state === "playing";
  }

  destroy(): void {
    this.clearBoard();
  }

  private clearBoard(): void {
    this.board?.destroy();
    this.board = null;
    this.badge.textContent = "";
  }

  private setState(state: SeatState): void {
    this.element.dataset.state = state;
  }
}
