// The Ubongo 3D board: the same interface as the flat board (board/index.ts), drawn with three.js.
//
// A piece is in the tray, on the board, or in hand. The piece in hand hovers over the area
// above the place where it would land (its "ghost"); arrows, the mouse or taps move it, R T Y
// (or the buttons, or the mouse wheel) turn it, Enter or a click puts it down. Picking a piece on the board takes
// it back in hand; the pieces that rested on it fall. Faults (sticking out, too high) are shown
// in red and never forbidden. When every piece is down and both levels of the area are filled
// exactly, `onCovered` gets the arrangement as placements (ubongo.board.Placement).

import type { BoardOptions } from "../board";
import type { BoardCommand } from "../board/controls";
import { inputKind, onInputKind } from "../board/inputkind";
import type { HandStep } from "../board/options";
import type { Placement } from "../catalogue";
import { pieceOf } from "../catalogue";
import { h } from "../dom";
import { colourName, t } from "../i18n";
import { HeldPieces } from "./hand";
import { boardHint3d } from "./hints";
import { type Action, commandAction, keyAction, listenPointer, listenWheel, toolbar, viewButtons } from "./input";
import type { Scene3D, SceneModel } from "./scene";
import { check, faultOf, shortLabel, translate } from "./shapes";
import { drawTrayButton, type PieceState } from "./tray";

/** How high over its landing place the piece in hand is drawn (in cubes). */
const HELD_LIFT = 0.45;
/** How far (screen px) a press moves before it is a drag, not a click. */
const DRAG_PX = 6;

export class Board3D extends HeldPieces {
  readonly element: HTMLElement;
  private readonly stage: HTMLElement;
  private readonly tray: HTMLElement;
  private readonly hint: HTMLElement;
  private readonly statusEl: HTMLElement;
  private readonly topButton: HTMLButtonElement | null = null;
  /** the piece a pointer holds on the stage (it follows the pointer once it moves) */
  private grabbed: PieceState | null = null;
  private scene: Scene3D | null = null;
  private locked: boolean;
  private destroyed = false;
  private lastCoveredKey = "";
  private resizeObserver: ResizeObserver | null = null;
  /** the hints follow the way of playing (touch or keys) as it changes */
  private readonly stopInputKind = onInputKind(() => this.changed(false));

  constructor(private readonly opts: BoardOptions) {
    super();
    const cat = opts.catalogue;
    this.layers = Math.max(1, cat.layers);
    this.locked = !!opts.readonly;
    this.area = new Set(opts.area.map((c) => `${c[0]},${c[1]}`));
    const xs = opts.area.map((c) => c[0]);
    const ys = opts.area.map((c) => c[1]);
    this.bounds = { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) };

    // the area on the element too: what the player sees, for assistive tools and tests
    this.element = h("div.board.board3d", {
      "data-layers": this.layers,
      "data-area": opts.area.map((c) => `${c[0]},${c[1]}`).join(";"),
    });
    this.stage = h("div.board3d-stage", {
      tabindex: opts.readonly ? "-1" : "0",
      role: "application",
      "aria-label": t("board:board3dLabel", { layers: this.layers, n: opts.pieces.length }),
    });
    this.tray = h("div.board3d-tray", { role: "group", "aria-label": t("board:yourPieces") });
    this.hint = h("div.board3d-hint", { "aria-live": "polite" });
    this.statusEl = h("div.board-status", { "aria-live": "polite" });

    const labels = opts.pieces.map((id) => shortLabel(pieceOf(cat, id)));
    const unique = new Set(labels).size === labels.length;
    this.pieces = opts.pieces.map((id, i) => {
      const entry = pieceOf(cat, id);
      const button = h("button.tray-piece", { type: "button", "data-piece": id });
      button.addEventListener("click", () => this.act({ kind: "select", index: i }));
      return { entry, label: unique ? labels[i] : id, transform: entry.transforms[0], place: null, button };
    });
    for (const pl of opts.initial ?? []) {
      const p = this.pieces.find((x) => x.entry.id === pl.piece);
      if (p && pl.offset.length === 3) {
        p.transform = pl.transform;
        p.place = [pl.offset[0], pl.offset[1], pl.offset[2]];
      }
    }
    this.tray.append(...this.pieces.map((p) => p.button));

    this.element.append(this.stage);
    if (!opts.readonly) {
      const view = viewButtons((a) => this.act(a));
      this.topButton = view.top;
      // beside the scene, not in it: on a phone they take a row of their own above the board
      this.element.append(view.element);
      this.element.append(
        this.tray,
        toolbar((a) => this.act(a)),
        this.hint,
        this.statusEl,
      );
      this.stage.addEventListener("keydown", (e) => this.key(e));
      this.tray.addEventListener("keydown", (e) => this.key(e));
      listenPointer(this.stage, {
        hover: (x, y) => this.hover(x, y),
        tap: (x, y, touch) => this.tap(x, y, touch),
        grab: (x, y) => this.grab(x, y),
        drag: (x, y) => this.dragTo(x, y),
        release: (x, y, moved, touch) => this.release(x, y, moved, touch),
        twist: (clockwise) => {
          if (!this.hand || this.locked) return false;
          this.act({ kind: "turn", turn: "spin", back: !clockwise });
          return true;
        },
        holding: () => this.hand !== null && !this.locked,
        orbiting: (on) => this.scene?.setOrbiting(on),
      });
      for (const [i, p] of this.pieces.entries()) this.dragFromTray(p, i);
      // the wheel spins the piece in hand as R does (back: Shift+R), Shift+wheel tips it as T
      listenWheel(this.stage, {
        holding: () => this.hand !== null && !this.locked,
        turn: (forward, shift) => this.act({ kind: "turn", turn: shift ? "tip" : "spin", back: !forward }),
      });
    }
    // three.js is loaded with the first 3D board only, so the flat editions never wait for it
    import("./scene")
      .then(({ Scene3D }) => {
        if (this.destroyed) return;
        this.scene = new Scene3D(this.stage, opts.area, this.layers);
        this.element.dataset.ready = "true";
        this.redraw();
      })
      .catch((e: unknown) => {
        this.stage.append(h("p.board3d-error", {}, t("board:no3d", { error: String(e) })));
      });
    this.changed(false);
  }

  // --- the interface shared with the flat board ----------------------------------------------

  placements(): Placement[] {
    return this.pieces.flatMap((p) =>
      p.place ? [{ piece: p.entry.id, transform: p.transform, offset: [...p.place] }] : [],
    );
  }

  lock(locked: boolean): void {
    this.locked = locked;
    this.element.classList.toggle("locked", locked);
    if (locked && this.hand) {
      this.putBack();
      this.changed();
    }
  }

  arrange(placements: Placement[]): void {
    this.hand = null;
    for (const p of this.pieces) {
      const pl = placements.find((x) => x.piece === p.entry.id);
      p.place = pl && pl.offset.length === 3 ? [pl.offset[0], pl.offset[1], pl.offset[2]] : null;
      if (pl) p.transform = pl.transform;
    }
    this.changed();
  }

  attach(): void {
    if (typeof ResizeObserver === "undefined") return;
    this.resizeObserver = new ResizeObserver(() => this.scene?.resize());
    this.resizeObserver.observe(this.stage);
  }

  destroy(): void {
    this.destroyed = true;
    this.stopInputKind();
    this.resizeObserver?.disconnect();
    this.scene?.dispose();
    this.scene = null;
    this.element.remove();
  }

  focus(): void {
    this.stage.focus({ preventScroll: true });
  }

  /** A command from outside the board (local versus: each player's own keys). */
  command(c: BoardCommand): boolean {
    if (this.locked) return false;
    this.act(commandAction(c));
    return true;
  }

  setStatus(text: string, kind: "" | "good" | "bad" = ""): void {
    this.statusEl.textContent = text;
    this.statusEl.dataset.kind = kind;
  }

  /** How many quarter turns the camera has gone round the board (arrows and turns follow it). */
  protected viewQuadrant(): number {
    return this.scene?.quadrant() ?? 0;
  }

  protected tellHand(step: HandStep): void {
    this.opts.onHand?.(step);
  }

  // --- input --------------------------------------------------------------------------------

  private act(a: Action): void {
    if (a.kind === "topView") {
      const on = !(this.scene?.isTopView() ?? false);
      this.scene?.setTopView(on);
      this.topButton?.setAttribute("aria-pressed", String(on));
      this.focus();
      return;
    }
    if (a.kind === "orbit") {
      this.scene?.orbit(a.steps);
      this.topButton?.setAttribute("aria-pressed", "false");
      this.focus();
      return;
    }
    if (this.locked) return;
    switch (a.kind) {
      case "select":
        this.take(this.pieces[a.index]);
        break;
      case "next": {
        const i = this.hand ? this.pieces.indexOf(this.hand.piece) : -1;
        const n = this.pieces.length;
        this.take(this.pieces[(i + (a.back ? n - 1 : 1) + n) % n]);
        break;
      }
      case "turn":
        this.turn(a.turn, a.back);
        break;
      case "move":
        this.move(a.dx, a.dy);
        break;
      case "drop":
        if (this.hand) this.drop();
        else {
          const first = this.pieces.find((p) => !p.place);
          if (first) this.take(first);
        }
        break;
      case "tray":
        if (this.hand) {
          this.hand.piece.place = null;
          this.hand = null;
        }
        break;
      case "clear":
        this.hand = null;
        for (const p of this.pieces) p.place = null;
        break;
    }
    this.changed();
    this.focus();
  }

  private key(e: KeyboardEvent): void {
    const onButton = (e.target as Element | null)?.closest?.("button");
    if (onButton && (e.key === "Enter" || e.key === " ")) return; // the button's own click
    const a = keyAction(e, this.pieces.length);
    if (!a) return;
    e.preventDefault();
    this.act(a);
  }

  /** A press on the stage: on the piece in hand or a placed piece, the pointer takes hold of it. */
  private grab(clientX: number, clientY: number): boolean {
    if (this.locked || !this.scene) return false;
    const { piece, held } = this.scene.pick(clientX, clientY);
    if (this.hand && held) {
      this.grabbed = this.hand.piece;
      return true;
    }
    const p = piece ? this.pieces.find((x) => x.entry.id === piece) : undefined;
    this.grabbed = p ?? null;
    return !!p;
  }

  /** The pointer holding a piece moves: the piece goes (lands) under it. */
  private dragTo(clientX: number, clientY: number): void {
    const p = this.grabbed;
    if (!p || this.locked || !this.scene) return;
    if (this.hand?.piece !== p) this.take(p);
    const { cell } = this.scene.pick(clientX, clientY);
    if (cell) this.moveTo(cell);
    this.changed();
  }

  /** The pointer lets go: a dragged piece lands where it shows (or goes back to the tray when
   * let go beside the board); a press that did not move is a tap. */
  private release(clientX: number, clientY: number, moved: boolean, touch: boolean): void {
    this.grabbed = null;
    if (!moved) {
      this.tap(clientX, clientY, touch);
      return;
    }
    if (!this.hand || this.locked) return;
    if (this.overStage(clientX, clientY)) this.drop();
    else this.toTray();
    this.changed();
    this.focus();
  }

  private overStage(clientX: number, clientY: number): boolean {
    const r = this.stage.getBoundingClientRect();
    return clientX >= r.left && clientX <= r.right && clientY >= r.top && clientY <= r.bottom;
  }

  /**
   * A piece is dragged out of the tray with the mouse or a finger: in hand as soon as it moves,
   * over the cells under the pointer while it is over the board, put down where its ghost shows
   * when let go there (back in the tray when let go elsewhere). A press without a drag is the
   * button's click (take it in hand), as with the keyboard.
   */
  private dragFromTray(p: PieceState, index: number): void {
    const b = p.button;
    let press: { id: number; x: number; y: number; moved: boolean } | null = null;
    let swallowClick = false;
    const move = (e: PointerEvent) => {
      if (!press || e.pointerId !== press.id) return;
      if (!press.moved) {
        if (Math.hypot(e.clientX - press.x, e.clientY - press.y) <= DRAG_PX) return;
        press.moved = true;
        this.act({ kind: "select", index });
      }
      if (this.hand?.piece !== p || !this.scene) return;
      if (this.overStage(e.clientX, e.clientY)) {
        const { cell } = this.scene.pick(e.clientX, e.clientY);
        if (cell && this.moveTo(cell)) this.changed(false);
      }
    };
    const up = (e: PointerEvent) => {
      if (!press || e.pointerId !== press.id) return;
      const moved = press.moved;
      press = null;
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      if (!moved || this.hand?.piece !== p || this.locked) return;
      swallowClick = true; // the click that may follow is the end of this drag
      setTimeout(() => {
        swallowClick = false;
      }, 0);
      if (e.type === "pointerup" && this.overStage(e.clientX, e.clientY)) this.drop();
      else this.toTray();
      this.changed();
      this.focus();
    };
    b.addEventListener("pointerdown", (e) => {
      if (this.locked || press || e.button > 0) return;
      press = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false };
      window.addEventListener("pointermove", move);
      window.addEventListener("pointerup", up);
      window.addEventListener("pointercancel", up);
    });
    b.addEventListener(
      "click",
      (e) => {
        if (!swallowClick) return;
        swallowClick = false;
        e.stopImmediatePropagation();
      },
      { capture: true },
    );
  }

  private hover(clientX: number, clientY: number): void {
    if (!this.hand || this.locked || !this.scene) return;
    const { cell } = this.scene.pick(clientX, clientY);
    if (cell && this.moveTo(cell)) this.changed();
  }

  private tap(clientX: number, clientY: number, touch: boolean): void {
    this.focus();
    if (this.locked || !this.scene) return;
    const { piece, cell } = this.scene.pick(clientX, clientY);
    if (this.hand) {
      // touch: the first tap shows where the piece goes, a second tap there puts it down
      const moved = cell ? this.moveTo(cell) : false;
      if (!touch || !moved) this.drop();
    } else if (piece) {
      const p = this.pieces.find((x) => x.entry.id === piece);
      if (p) this.take(p);
    }
    this.changed();
  }

  // --- drawing and reporting -------------------------------------------------------------

  private model(): SceneModel {
    const placed = this.pieces
      .flatMap((p) => (p.place ? [{ p, cells: translate(this.cells(p), p.place) }] : []))
      .map(({ p, cells }) => {
        return {
          id: p.entry.id,
          label: p.label,
          colour: p.entry.colour,
          cells,
          faults: cells.map((c) => faultOf(c, this.area, this.layers)),
        };
      });
    let held: SceneModel["held"] = null;
    if (this.hand) {
      const p = this.hand.piece;
      const cells = translate(this.cells(p), this.landing(this.hand));
      held = {
        id: p.entry.id,
        label: p.label,
        colour: p.entry.colour,
        cells,
        faults: cells.map((c) => faultOf(c, this.area, this.layers)),
        // a little above where it lands, as a hand holds a block over the board: drawn at the
        // same size as the pieces on the board, never above the view
        lift: HELD_LIFT,
      };
    }
    const covered = this.element.classList.contains("covered");
    return { placed, held, covered };
  }

  private redraw(): void {
    this.scene?.update(this.model());
  }

  private describe(p: PieceState): string {
    return `${p.label} (${colourName(p.entry.colour_name)} ${p.entry.size})`;
  }

  /** After every action: gravity, faults, the tray, the scene, and the covered check. */
  private changed(report = true): void {
    this.settle();
    const placed = this.pieces.flatMap((p) =>
      p.place ? [{ id: p.entry.id, cells: translate(this.cells(p), p.place) }] : [],
    );
    const inTray = this.pieces.length - placed.length;
    const result = check(placed, this.area, this.layers, inTray);
    this.element.classList.toggle("covered", result.covered);
    this.element.dataset.covered = String(result.covered);
    this.element.dataset.held = this.hand?.piece.entry.id ?? "";

    this.pieces.forEach((p, i) => {
      const inHand = this.hand?.piece === p;
      const faulty = result.outside.includes(p.entry.id) || result.tooHigh.includes(p.entry.id);
      const where = this.hand && inHand ? this.landing(this.hand) : p.place;
      drawTrayButton(this.opts.catalogue, p, i + 1, { inHand, faulty, where });
    });

    // one line on what matters now: the piece in hand, or what is wrong
    const hand = this.hand;
    const hint = boardHint3d({
      hand: hand && {
        who: this.describe(hand.piece),
        faults: translate(this.cells(hand.piece), this.landing(hand)).map((c) => faultOf(c, this.area, this.layers)),
      },
      result,
      describe: (id) => this.describe(this.pieces.find((p) => p.entry.id === id) ?? this.pieces[0]),
      layers: this.layers,
      locked: this.locked,
      inTray,
      touch: inputKind() === "touch",
    });
    this.hint.textContent = hint.text;
    this.hint.dataset.kind = hint.bad ? "bad" : "";
    this.redraw();

    if (!report) return;
    const placements = this.placements();
    this.opts.onChange?.(placements, result.covered);
    if (result.covered) {
      const key = JSON.stringify(placements);
      if (key !== this.lastCoveredKey) {
        this.lastCoveredKey = key;
        this.opts.onCovered?.(placements);
      }
    } else {
      this.lastCoveredKey = "";
    }
  }
}
