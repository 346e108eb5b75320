// Round play: the task's board (flat or 3D) with the Ubongo! button (solo and practice: Hint and
// Give up too; Undo always), the top bar (room/topbar.ts), the side panel, and the round result
// (or the solution of a task given up) over it. The board of the running task is kept while its
// task stays the same, so snapshots never disturb a player's pieces.

import { areaSvg } from "../board/pictures";
import { type BoardLike, boardHint, createBoard, onInputKind } from "../board3d"; // 3D board (issue #7)
import { solutionIsoSvg } from "../board3d/iso";
import type { Catalogue, Placement } from "../catalogue";
import { h } from "../dom";
import { t, verdictText } from "../i18n";
import { pieceName } from "../piecename";
import type { GameView, HintReply, Room, RoomEvent, Task, Verdict } from "../protocol";
import { settingsMenu } from "../settings";
import { play } from "../sound";
import { editionInfo, placeText } from "../ui";
import { laidMap, saveArrangement, savedArrangement } from "./arrangement";
import { showClock } from "./clock";
import type { RoomContext } from "./context";
import { eventCues } from "./cues";
import { holdSolved } from "./hold";
import { roundResult, showNextRound } from "./result";
import { type SoloRecords, sidePanel } from "./side";
import { spectatorTables } from "./spectate";
import { topBar } from "./topbar";
import { TraceRecorder } from "./trace";
import { UndoControl } from "./undo";
import { hintMessage, isTieBreak, tieBreakName } from "./words";

/** The stages in which the board can still be played. */
const PLAYING = ["playing", "second_chance", "countdown", "playoff"];

interface Parts {
  top: HTMLElement;
  main: HTMLElement;
  side: HTMLElement;
  overlay: HTMLElement;
  timer: HTMLElement | null;
}

export class PlayScreen {
  private board: BoardLike | null = null; // flat or 3D (board3d/index.ts)
  /** the board's arrangements, for Undo (both kinds of board alike) */
  private undo: UndoControl | null = null;
  /** solo: the solved board stays in view a moment before the next task (any key or click
   * goes on at once) */
  private hold: (() => void) | null = null;
  private lastCat: Catalogue | null = null;
  private boardKey = "";
  private boardTurn = -1;
  /** boards (by key) this player covered: they stay locked over later snapshots */
  private readonly finishedBoards = new Set<string>();
  private gameEl: HTMLElement | null = null;
  private parts: Parts | null = null;
  private shownResultFor = -1;
  // one menu for the game: the top bar is redrawn with each change, the menu moves along open
  private settings = settingsMenu();
  private readonly soloRecords: SoloRecords = { element: null };
  /** where each piece on the area lies ("transform|offset"), to hear and see what changed */
  private laid = new Map<string, string>();
  /** the solution of the task this player gave up, shown over the next one until closed */
  private givenUp: HTMLElement | null = null;
  /** what this player does with the pieces of their task, sent with each submit */
  private readonly trace: TraceRecorder;

  constructor(
    private readonly ctx: RoomContext,
    private readonly root: HTMLElement,
  ) {
    this.trace = new TraceRecorder(ctx.code);
  }

  /** Draw the game for a snapshot (keeping the board while the task is the same). */
  draw(room: Room, game: GameView, cat: Catalogue, ev: RoomEvent | null): void {
    const parts = this.layout();
    const task = this.myTask(game);
    const key = task ? JSON.stringify([game.round, task.card, task.side, task.key, task.pieces]) : "";
    if (ev?.kind === "gave_up" && ev.data.seat === this.ctx.store.seat && ev.data.task) {
      this.givenUp = this.solutionPanel(cat, ev.data.task.area, ev.data.solution);
    }
    this.lastCat = cat;
    if (task) this.trace.deal(key); // from the deal, while a solved solo board is held too
    if (key !== this.boardKey && !this.hold) {
      const solved = !!this.board && this.boardKey !== "" && this.board.element.classList.contains("covered");
      if (game.solo && task && solved && ev?.kind !== "gave_up") this.holdSolvedBoard(parts);
      else this.newBoard(parts, room, game, cat, task, key);
    }
    if (!task) {
      // spectators (and a seat without a task): everyone's table, redrawn with each snapshot
      parts.main.replaceChildren(spectatorTables(room, game, cat, this.ctx.store.seat));
    }
    const mine = game.finished.find((f) => f.seat === this.ctx.store.seat);
    if (this.board) {
      const over = !PLAYING.includes(game.stage);
      const locked = !!this.hold || !!mine || over || this.finishedBoards.has(this.boardKey);
      this.board.lock(locked);
      this.undo?.setLocked(locked);
      if (mine && !this.hold) this.board.setStatus(t("play:youFinished", { place: placeText(mine.place) }), "good");
    }
    this.drawTop(parts, room, game);
    parts.side.replaceChildren(...sidePanel(room, game, this.ctx.store.seat, this.soloRecords));
    this.drawOverlay(parts, room, game, cat, ev);
    this.tick();
  }

  /** Solo: the board just solved stays a moment with the "Ubongo!" flash (room/hold.ts). */
  private holdSolvedBoard(parts: Parts): void {
    if (!this.gameEl?.querySelector(".ubongo-burst")) this.celebrate();
    this.board?.setStatus(t("play:solvedNext"), "good");
    this.hold = holdSolved(parts.main, () => {
      this.hold = null;
      this.drop(); // the solved board goes: the next draw deals the task in hand
      const room = this.ctx.store.room;
      if (room?.game && this.lastCat) this.draw(room, room.game, this.lastCat, null);
    });
  }

  /** A new game (or a rematch) forgets which boards were covered. */
  eventSeen(ev: RoomEvent): void {
    if (ev.kind === "rematch" || ev.kind === "game_started") {
      this.finishedBoards.clear();
      this.trace.forget();
    }
    const { seat, room } = this.ctx.store;
    if (room) eventCues(ev, room, seat);
  }

  /** Build the game's screen anew at the next draw (a new language); the board comes back with
   * the pieces laid (they are kept for a reload), the round result is shown again. */
  relabel(): void {
    // the settings menu in the new language, open if it was (the picker is in the top bar too)
    const open = (this.settings as HTMLDetailsElement).open;
    this.settings = settingsMenu();
    (this.settings as HTMLDetailsElement).open = open;
    this.drop();
    this.shownResultFor = -1;
    this.soloRecords.element = null;
  }

  /** Forget the game (the lobby or the end is shown instead). */
  drop(): void {
    this.hold?.();
    this.hold = null;
    this.board?.destroy();
    this.board = null;
    this.boardKey = "";
    this.gameEl = null;
  }

  /** The server's answer to an arrangement this player sent. */
  verdict(v: Verdict): void {
    if (!this.board) return;
    if (v.round !== this.boardTurn) {
      // the verdict on a task that is gone already (solo: the next one is dealt)
      if (v.ok) play("ubongo");
      if (v.ok && !this.hold) this.celebrate();
      return;
    }
    play(v.ok ? "ubongo" : "wrong");
    if (v.ok) {
      this.finishedBoards.add(this.boardKey);
      this.board.lock(true);
      this.undo?.setLocked(true);
      if (!this.hold) {
        this.board.setStatus(t("play:covered"), "good");
        this.celebrate();
      }
    } else {
      this.board.setStatus(t("play:notYet", { reason: verdictText(v.code, v.reason) }), "bad");
    }
  }

  /** The server's answer to this player's hint: the piece is put where it goes. */
  hint(r: HintReply): void {
    if (!this.board || r.round !== this.boardTurn) return;
    const cost = r.penalty ? t("play:hintCost", { n: r.penalty }) : "";
    if (r.placement) {
      const piece = r.placement.piece;
      const rest = this.board.placements().filter((p) => p.piece !== piece);
      this.board.arrange([...rest, r.placement]);
      const name = this.lastCat ? pieceName(this.lastCat, piece) : piece;
      this.board.setStatus(t("play:hintHere", { piece: name, cost }), "good");
    } else {
      this.board.setStatus(`${hintMessage(r)}${cost}`, r.solved ? "good" : "bad");
    }
  }

  /** An error the server sent about the last submit, hint or give-up. */
  submitError(message: string): void {
    this.board?.setStatus(message, "bad");
  }

  /** Move the clocks on (five times a second). */
  tick(): void {
    const room = this.ctx.store.room;
    if (!room?.game) return;
    const now = this.ctx.now();
    if (this.parts?.timer) showClock(this.parts.timer, room, room.game, now);
    showNextRound(this.root, room, room.game, now);
  }

  private layout(): Parts {
    if (!this.parts || !this.gameEl || !this.root.contains(this.gameEl)) {
      const parts: Parts = {
        top: h("header.game-top"),
        main: h("section.game-main"),
        // on a phone it scrolls below the board: a named region the keyboard can reach
        side: h("aside.game-side", { tabindex: "0", role: "region", "aria-label": t("play:sidePanel") }),
        overlay: h("div.overlay-slot"),
        timer: null,
      };
      this.parts = parts;
      // the page's top-level heading, for screen readers (the top bar shows the same facts)
      const room = this.ctx.store.room;
      const what = room
        ? `${editionInfo(room.settings.edition).title} · ${room.settings.mode === "solo" ? t("play:solo") : t("play:roomCode", { code: room.code })}`
        : "";
      const heading = h(
        "h1.visually-hidden#game-title",
        {},
        what ? t("play:gameTitleOf", { what }) : t("play:gameTitle"),
      );
      this.gameEl = h("div.game", {}, heading, parts.top, parts.main, parts.side, parts.overlay);
      this.root.replaceChildren(this.gameEl);
      this.boardKey = "";
    }
    return this.parts;
  }

  private myTask(game: GameView): Task | null {
    const seat = this.ctx.store.seat;
    if (seat === null) return null;
    return game.tasks[String(seat)] ?? null;
  }

  private newBoard(parts: Parts, room: Room, game: GameView, cat: Catalogue, task: Task | null, key: string): void {
    this.board?.destroy();
    this.board = null;
    this.boardKey = key;
    this.boardTurn = game.round;
    parts.main.replaceChildren();
    if (!task) return;
    // the arrangement survives a reload (the round goes on meanwhile)
    const initial = savedArrangement(this.ctx.code, key);
    const undo = new UndoControl(() => this.board, initial ?? []);
    this.undo = undo;
    this.laid = laidMap(initial);
    const board = createBoard({
      catalogue: cat,
      area: task.area,
      pieces: task.pieces,
      initial,
      onCovered: (pl) => this.submit(pl),
      onHand: (step) => this.trace.hand(key, step),
      onChange: (pl, covered) => {
        this.trace.arranged(key, pl);
        this.placedCues(pl);
        saveArrangement(this.ctx.code, key, pl);
        undo.record(pl);
        if (!covered) this.board?.setStatus("");
      },
    });
    this.board = board;
    this.trace.arranged(key, board.placements()); // pieces laid before a reload, if not traced
    const ubongo = h("button.primary.ubongo#ubongo", { type: "button" }, t("play:ubongo"));
    ubongo.addEventListener("click", () => this.board && this.submit(this.board.placements()));
    const actions = h("div.main-actions", {}, undo.button, ubongo);
    // solo and practice (not a race, not the daily challenge): a hint, or the whole solution
    if (room.settings.mode === "solo" && room.settings.puzzles !== "daily") {
      const timed = room.settings.solo_goal !== "practice";
      const hint = h(
        "button#hint",
        { type: "button", title: timed ? t("play:hintTitleTimed") : t("play:hintTitle") },
        timed ? t("play:hintTimed") : t("play:hint"),
      );
      hint.addEventListener("click", () => this.askHint());
      const giveUp = h("button#give-up", { type: "button", title: t("play:giveUpTitle") }, t("play:giveUp"));
      giveUp.addEventListener("click", () => {
        const g = this.ctx.store.room?.game;
        if (g) this.ctx.send({ type: "give_up", round: g.round });
      });
      // an endless run is rated: no hints there, but a task may be given up (a lost task)
      if (room.settings.solo_goal !== "endless") actions.append(hint);
      actions.append(giveUp);
    }
    parts.main.append(board.element, actions);
    undo.keys(board.element);
    board.attach();
    // the focus was on what this board replaced (the home's button, the last task's board): a
    // keyboard player goes on playing here instead of starting over from the page's top
    if (!document.activeElement || document.activeElement === document.body) board.focus();
    // a phone shows the side panel below the board: say here, too, what the playoff is
    const firstLine = () =>
      isTieBreak(game.kind)
        ? t("play:tieBreakFirstWins", { what: tieBreakName(game.kind) })
        : boardHint(cat.layers, !!cat.flip);
    let shown = firstLine();
    board.setStatus(shown);
    // a first touch (or key) changes how the hint speaks, while it is still the first line
    const stop = onInputKind(() => {
      const status = board.element.querySelector(".board-status");
      if (this.board !== board || !status) stop();
      else if (status.textContent === shown) {
        shown = firstLine();
        board.setStatus(shown);
      }
    });
    window.setTimeout(() => this.board?.focus(), 0);
  }

  private askHint(): void {
    const game = this.ctx.store.room?.game;
    if (!game || !this.board) return;
    if (!this.ctx.send({ type: "hint", round: game.round, placements: this.board.placements() })) {
      this.board.setStatus(t("play:notConnected"), "bad");
      return;
    }
    this.board.setStatus(t("play:lookingForHint"));
  }

  /** The solution of a task given up, as a dialog over the next task. */
  private solutionPanel(cat: Catalogue, area: number[][], solution: Placement[]): HTMLElement {
    const picture = cat.layers > 1 ? solutionIsoSvg(cat, area, solution) : areaSvg(cat, area, solution);
    const next = h("button.primary#next-task", { type: "button" }, t("play:nextTask"));
    const panel = h(
      "div.overlay.gave-up",
      { role: "dialog", "aria-label": t("play:theSolution") },
      h(
        "div.panel.round-result",
        {},
        h("h2", {}, t("play:gaveUpSolution")),
        h("div.solution", {}, picture),
        h("p.muted", {}, t("play:gaveUpNote")),
        next,
      ),
    );
    next.addEventListener("click", () => {
      this.givenUp = null;
      panel.remove();
      this.board?.focus();
    });
    window.setTimeout(() => next.focus(), 0);
    return panel;
  }

  private submit(placements: Placement[]): void {
    const game = this.ctx.store.room?.game;
    if (!game || !this.board) return;
    const trace = this.trace.forSubmit(this.boardKey, placements);
    if (!this.ctx.send({ type: "submit", round: game.round, placements, trace })) {
      this.board.setStatus(t("play:notConnected"), "bad");
      return;
    }
    this.board.setStatus(t("play:checking"));
  }

  /** A piece put down or moved on the area: the place sound, and the piece snaps (motion.css). */
  private placedCues(placements: Placement[]): void {
    const now = laidMap(placements);
    const moved = [...now].filter(([piece, at]) => this.laid.get(piece) !== at).map(([piece]) => piece);
    this.laid = now;
    if (!moved.length) return;
    play("place");
    for (const piece of moved) {
      const g = this.board?.element.querySelector(`g[data-piece="${piece}"]`);
      if (!g) continue;
      g.classList.remove("snap");
      // a reflow between restarts the animation of a piece moved twice in a row
      void g.getBoundingClientRect();
      g.classList.add("snap");
      window.setTimeout(() => g.classList.remove("snap"), 400);
    }
  }

  private celebrate(): void {
    const burst = h("div.ubongo-burst", { "aria-hidden": "true" }, t("play:ubongo"));
    this.gameEl?.appendChild(burst);
    window.setTimeout(() => burst.remove(), 1600);
  }

  private drawTop(parts: Parts, room: Room, game: GameView): void {
    // a keyboard player in the kept settings menu stays there when the next task redraws the bar
    const focused = parts.top.contains(document.activeElement) ? (document.activeElement as HTMLElement) : null;
    parts.top.replaceChildren(...topBar(this.ctx, room, game, this.settings));
    if (focused?.isConnected) focused.focus({ preventScroll: true });
    parts.timer = parts.top.querySelector("#timer") as HTMLElement;
  }

  private drawOverlay(parts: Parts, room: Room, game: GameView, cat: Catalogue, ev: RoomEvent | null): void {
    if (game.stage !== "between") {
      parts.overlay.replaceChildren(...(this.givenUp ? [this.givenUp] : []));
      this.shownResultFor = -1;
      return;
    }
    if (this.shownResultFor === game.round && !(ev && ev.kind === "round_ended")) return;
    this.shownResultFor = game.round;
    parts.overlay.replaceChildren(roundResult(this.ctx.store, room, game, cat));
  }
}
