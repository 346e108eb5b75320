// The board: one SVG component for squares, hexagons and triangles.
//
// The task's area is drawn at its own lattice coordinates (one SVG unit = one unit edge), the
// tray of pieces beside or below it in the same SVG, so a piece keeps its size when dragged.
// A piece is drawn at `origin` (an SVG translation); on the area the origin is always the
// screen vector of a lattice translation, which is the placement's offset (the shapes from
// the catalogue are normalized: their anchor is 0). Overlap and overhang are shown, never
// forbidden; everything happens locally, the server only hears about a covered area.

import { offsetOf, type Placement, pieceOf } from "../catalogue";
import { svg } from "../dom";
import {
  type Box,
  type Cell,
  cellAt,
  cellKey,
  cellsBounds,
  type LatticeName,
  nearestTranslation,
  outline,
  type Point,
  polygonPoints,
  translateCell,
  translationVector,
} from "../geometry";
import { colourName, t } from "../i18n";
import { play } from "../sound";
import { arrowStep, type BoardCommand, keyCommand, toolbar } from "./controls";
import { coverage } from "./cover";
import { areaLayer, frameRect, hatchDefs, pieceShapeNodes } from "./draw";
import type { BoardOptions } from "./options";
import { emptyBox, type PieceState, shapeCentre, shapeOf } from "./piece";
import { PointerInput } from "./pointer";
import { drawnAt, layOutTray, type Room, roomChanged, roomOf, slotOrigin, trayHitRect } from "./tray";

export type { BoardOptions } from "./options";

/** The frame around the area, in lattice units. */
const FRAME_PAD = 0.7;

/** The flat board: the area, the tray and the pieces of one task, in one SVG. */
export class Board {
  readonly element: HTMLElement;
  readonly svgEl: SVGSVGElement;
  readonly lattice: LatticeName;
  private readonly areaKeys: Set<string>;
  private readonly areaBox: Box;
  private readonly pieces: PieceState[];
  private readonly slotsLayer: SVGGElement;
  readonly piecesLayer: SVGGElement;
  private readonly marksLayer: SVGGElement;
  private readonly areaLayer: SVGGElement;
  private selected: PieceState | null = null;
  private readonly pointer: PointerInput | null = null;
  private locked: boolean;
  private lastCoveredKey = "";
  private trayBelow = true;
  private room: Room | null = null; // the picture's screen box, as last measured (tray rows)
  private resizeObserver: ResizeObserver | null = null;
  private readonly statusEl: HTMLElement;

  constructor(private readonly opts: BoardOptions) {
    const cat = opts.catalogue;
    this.lattice = cat.lattice;
    this.locked = !!opts.readonly;
    this.areaKeys = new Set(opts.area.map(cellKey));
    this.areaBox = cellsBounds(this.lattice, opts.area);

    this.element = document.createElement("div");
    this.element.className = "board";
    this.svgEl = svg("svg", {
      class: "board-svg",
      role: "application",
      "aria-label": t("board:boardLabel"),
      tabindex: opts.readonly ? "-1" : "0",
    }) as SVGSVGElement;
    this.svgEl.appendChild(hatchDefs());
    this.svgEl.appendChild(frameRect(this.areaBox, FRAME_PAD));
    this.areaLayer = areaLayer(this.lattice, opts.area);
    this.svgEl.appendChild(this.areaLayer);
    // a placed piece leaves its outline in the tray: the place it goes back to (tap or drop there)
    this.slotsLayer = svg("g", { class: "tray-slots" }) as SVGGElement;
    this.piecesLayer = svg("g", { class: "pieces" }) as SVGGElement;
    this.marksLayer = svg("g", { class: "marks" }) as SVGGElement;
    this.svgEl.appendChild(this.slotsLayer);
    this.svgEl.appendChild(this.piecesLayer);
    this.svgEl.appendChild(this.marksLayer);

    this.pieces = opts.pieces.map((id) => {
      const entry = pieceOf(cat, id);
      const g = svg("g", { class: "piece", "data-piece": id }) as SVGGElement;
      this.piecesLayer.appendChild(g);
      return { entry, transform: entry.transforms[0], offset: null, slot: emptyBox(), scale: 1, g };
    });
    for (const pl of opts.initial ?? []) {
      const p = this.pieces.find((x) => x.entry.id === pl.piece);
      if (p) {
        p.transform = pl.transform;
        p.offset = [...pl.offset];
      }
    }

    this.statusEl = document.createElement("div");
    this.statusEl.className = "board-status";
    this.statusEl.setAttribute("aria-live", "polite");
    this.element.appendChild(this.svgEl);
    if (!opts.readonly) {
      this.element.appendChild(
        toolbar(
          (c) => this.command(c),
          !!cat.flip,
          () => this.focus(),
        ),
      );
      this.element.appendChild(this.statusEl);
      this.pointer = new PointerInput(this);
      this.svgEl.addEventListener("keydown", (e) => this.key(e));
    }
    this.layout();
    this.redrawAll();
  }

  // --- public -------------------------------------------------------------------------------

  placements(): Placement[] {
    return this.pieces.flatMap((p) =>
      p.offset ? [{ piece: p.entry.id, transform: p.transform, offset: offsetOf(p.offset) }] : [],
    );
  }

  /** Stop (or allow) moving pieces, e.g. once finished or when the round is over. */
  lock(locked: boolean): void {
    this.locked = locked;
    this.element.classList.toggle("locked", locked);
    if (locked) this.select(null);
  }

  /** Put every piece where `placements` say (pieces not named go back to the tray). */
  arrange(placements: Placement[]): void {
    for (const p of this.pieces) {
      const pl = placements.find((x) => x.piece === p.entry.id);
      p.offset = pl ? [...pl.offset] : null;
      if (pl) p.transform = pl.transform;
    }
    this.changed();
  }

  /** Fit the tray beside the area when the board is wide, below it when it is tall. */
  attach(): void {
    if (this.opts.trayless) return;
    const fit = () => {
      const rect = this.element.getBoundingClientRect();
      if (rect.width === 0) return;
      const below = rect.width < rect.height * 1.25 || rect.width < 560;
      const room = roomOf(this.svgEl);
      if (below !== this.trayBelow || (below && roomChanged(this.room, room))) {
        this.trayBelow = below;
        this.room = room;
        this.layout();
        this.redrawAll();
      }
    };
    // decide now, before the first paint, so that pieces do not jump once shown
    fit();
    if (typeof ResizeObserver !== "undefined") {
      this.resizeObserver = new ResizeObserver(fit);
      this.resizeObserver.observe(this.element);
    }
  }

  destroy(): void {
    this.resizeObserver?.disconnect();
    this.element.remove();
  }

  focus(): void {
    this.svgEl.focus({ preventScroll: true });
  }

  // --- layout and drawing -----------------------------------------------------------------

  shape(p: PieceState): Cell[] {
    return shapeOf(p);
  }

  private layout(): void {
    const a = this.areaBox;
    const frame = {
      minX: a.minX - FRAME_PAD,
      minY: a.minY - FRAME_PAD,
      maxX: a.maxX + FRAME_PAD,
      maxY: a.maxY + FRAME_PAD,
    };
    if (this.opts.trayless) {
      this.setViewBox(frame, 0.2);
      return;
    }
    const bounds = layOutTray(this.lattice, this.pieces, frame, this.trayBelow, this.room);
    this.setViewBox(bounds, 0.3);
  }

  private setViewBox(b: Box, pad: number): void {
    const w = b.maxX - b.minX + 2 * pad;
    const h = b.maxY - b.minY + 2 * pad;
    this.svgEl.setAttribute("viewBox", `${b.minX - pad} ${b.minY - pad} ${w} ${h}`);
    this.element.style.setProperty("--board-aspect", `${w} / ${h}`);
  }

  /** Where a piece is drawn: its placement, its tray slot, or where it is being dragged. */
  origin(p: PieceState): Point {
    const dragged = this.pointer?.draggedOrigin(p);
    if (dragged) return dragged;
    if (p.offset) return translationVector(this.lattice, p.offset);
    return this.slotOrigin(p);
  }

  private drawPiece(p: PieceState): void {
    const g = p.g;
    g.replaceChildren(...pieceShapeNodes(this.lattice, p.entry, this.shape(p)));
    const scale = this.drawScale(p);
    // below the area the whole slot answers a touch, whatever size the piece is drawn at there
    const inTray = !p.offset && !this.pointer?.draggedOrigin(p);
    if (scale !== 1 || (inTray && this.trayBelow)) {
      g.prepend(trayHitRect(p.slot, this.origin(p), scale));
    }
    g.setAttribute("transform", this.placement(p));
    g.setAttribute("data-state", p.offset ? "placed" : "tray");
    g.setAttribute("data-transform", String(p.transform));
    g.setAttribute("data-offset", p.offset ? p.offset.join(",") : "");
    g.classList.toggle("selected", this.selected === p);
    g.classList.toggle("dragging", !!this.pointer?.draggedOrigin(p));
    g.setAttribute(
      "aria-label",
      t(p.offset ? "board:pieceOnBoard" : "board:pieceInTray", {
        id: p.entry.id,
        colour: p.entry.colour_name ? colourName(p.entry.colour_name) : p.entry.name,
      }),
    );
  }

  moveOnly(p: PieceState): void {
    p.g.setAttribute("transform", this.placement(p));
    // dragged, it is drawn at its size on the area: the tray slot's hit box stays behind
    if (this.pointer?.draggedOrigin(p)) p.g.querySelector(".tray-hit")?.remove();
  }

  /** How large a piece is drawn: smaller in a phone's tray, else as on the area. */
  drawScale(p: PieceState): number {
    return p.offset || this.pointer?.draggedOrigin(p) ? 1 : p.scale;
  }

  private placement(p: PieceState): string {
    return drawnAt(this.origin(p), this.drawScale(p));
  }

  private redrawAll(): void {
    for (const p of this.pieces) this.drawPiece(p);
    this.drawSlots();
    this.drawMarks();
  }

  /** Where a piece sits in its tray slot (its middle in the slot's middle). */
  private slotOrigin(p: PieceState): Point {
    return slotOrigin(this.lattice, p, this.shape(p));
  }

  /** The empty slots of pieces on the board (or in hand): a dashed outline with the label. */
  drawSlots(): void {
    if (this.opts.trayless) return;
    const nodes: SVGElement[] = [];
    for (const p of this.pieces) {
      const away = p.offset !== null || !!this.pointer?.draggedOrigin(p);
      if (!away) continue;
      const [x, y] = this.slotOrigin(p);
      const g = svg("g", { class: "tray-slot", "data-slot": p.entry.id, transform: drawnAt([x, y], p.scale) });
      g.append(...pieceShapeNodes(this.lattice, p.entry, this.shape(p)));
      nodes.push(g);
    }
    this.slotsLayer.replaceChildren(...nodes);
  }

  /** The piece whose empty tray slot is under a point, if any. */
  private slotAt(pt: Point): PieceState | null {
    for (const p of this.pieces) {
      const b = p.slot;
      if (p.offset && pt[0] >= b.minX && pt[0] <= b.maxX && pt[1] >= b.minY && pt[1] <= b.maxY) return p;
    }
    return null;
  }

  private placedCells(p: PieceState, offset: number[]): Cell[] {
    return this.shape(p).map((c) => translateCell(c, offset));
  }

  /** Overhang and overlap marks, and whether the area is covered exactly. */
  private drawMarks(): boolean {
    const placed = this.pieces.flatMap((p) => (p.offset ? [this.placedCells(p, p.offset)] : []));
    const { faults, covered } = coverage(placed, this.pieces.length, this.areaKeys);
    this.marksLayer.replaceChildren(
      ...faults.map(({ cell, outside }) =>
        svg("polygon", {
          class: outside ? "mark-outside" : "mark-overlap",
          points: polygonPoints(outline(this.lattice, cell)),
        }),
      ),
    );
    this.element.classList.toggle("covered", covered);
    return covered;
  }

  changed(): void {
    this.redrawAll();
    const covered = this.drawMarks();
    const placements = this.placements();
    this.opts.onChange?.(placements, covered);
    if (covered) {
      const key = JSON.stringify(placements);
      if (key !== this.lastCoveredKey) {
        this.lastCoveredKey = key;
        this.opts.onCovered?.(placements);
      }
    } else {
      this.lastCoveredKey = "";
    }
  }

  /** Select `p` (or nothing): a piece newly selected, or dragged again (`again`), is taken in hand. */
  select(p: PieceState | null, again = false): void {
    const fresh = !!p && p !== this.selected;
    if (p && (fresh || again) && !this.locked) this.opts.onHand?.({ op: "pick", piece: p.entry.id });
    if (fresh && !this.locked) play("pick");
    this.selected = p;
    for (const q of this.pieces) q.g.classList.toggle("selected", q === p);
    this.element.classList.toggle("has-selection", !!p);
  }

  // --- moves ------------------------------------------------------------------------------

  private turn(p: PieceState, table: number[] | null, times = 1): void {
    if (!table || this.locked) return;
    const before = p.offset ? this.centreOf(p) : null;
    let t = p.transform;
    for (let i = 0; i < times; i++) t = table[t];
    p.transform = t;
    play("rotate");
    this.opts.onHand?.({ op: "turn", piece: p.entry.id, transform: t });
    if (before) {
      // turn about the piece's middle, then snap
      const c = shapeCentre(this.lattice, this.shape(p));
      p.offset = nearestTranslation(this.lattice, [before[0] - c[0], before[1] - c[1]]);
    }
    this.pointer?.turned(p); // keep the turned piece under the pointer
    this.changed();
  }

  private centreOf(p: PieceState): Point {
    const o = this.origin(p);
    const c = shapeCentre(this.lattice, this.shape(p));
    return [o[0] + c[0], o[1] + c[1]];
  }

  rotate(back = false): void {
    const p = this.selected;
    if (!p) return;
    const steps = this.opts.catalogue.lattice === "square" ? 4 : 6;
    this.turn(p, this.opts.catalogue.rotate, back ? steps - 1 : 1);
  }

  flip(): void {
    if (this.selected) this.turn(this.selected, this.opts.catalogue.flip);
  }

  toTray(p: PieceState | null = this.selected): void {
    if (!p || this.locked) return;
    p.offset = null;
    this.changed();
  }

  clear(): void {
    if (this.locked) return;
    for (const p of this.pieces) p.offset = null;
    this.select(null);
    this.changed();
  }

  /** Put a piece so that one of its cells lies on `target` (tap-to-place, keyboard). */
  private placeOn(p: PieceState, target: Cell): void {
    const shape = this.shape(p);
    // a triangle only moves to triangles of its own kind (up or down)
    const own = shape.find((c) => c.length < 3 || c[2] === target[2]) ?? shape[0];
    p.offset = [target[0] - own[0], target[1] - own[1]];
    this.changed();
  }

  private move(p: PieceState, dx: number, dy: number): void {
    if (!p.offset) {
      const first = [...this.areaKeys][0].split(",").map(Number);
      this.placeOn(p, first);
      return;
    }
    if (this.lattice !== "square" && dy !== 0) this.zig = !this.zig;
    const step = arrowStep(this.lattice, dx, dy, this.zig);
    p.offset = [p.offset[0] + step[0], p.offset[1] + step[1]];
    this.changed();
  }

  /** up and down on hexagons and triangles go left and right of straight in turn */
  private zig = false;

  // --- input --------------------------------------------------------------------------------

  pieceAt(target: EventTarget | null): PieceState | null {
    const el = (target as Element | null)?.closest?.("[data-piece]");
    if (!el) return null;
    return this.pieces.find((p) => p.g === el) ?? null;
  }

  inFrame(pt: Point): boolean {
    const a = this.areaBox;
    const m = FRAME_PAD + 0.3;
    return pt[0] >= a.minX - m && pt[0] <= a.maxX + m && pt[1] >= a.minY - m && pt[1] <= a.maxY + m;
  }

  tapPiece(p: PieceState): void {
    this.select(p);
    this.focus();
  }

  tapEmpty(pt: Point): void {
    const back = this.slotAt(pt);
    if (back && !this.locked) {
      // a tap on an empty slot puts its piece back, whether or not it was selected
      this.select(back);
      this.toTray(back);
      return;
    }
    const p = this.selected;
    if (!p) return;
    const cell = cellAt(this.lattice, pt);
    if (this.areaKeys.has(cellKey(cell)) || this.inFrame(pt)) this.placeOn(p, cell);
    else if (p.offset) this.toTray(p);
    else this.select(null);
  }

  private key(e: KeyboardEvent): void {
    if (this.locked || e.altKey || e.ctrlKey || e.metaKey) return;
    const command = keyCommand(e.key, this.pieces.length);
    if (command && this.command(command)) e.preventDefault();
  }

  /** Carry out a key's or a button's command; false when it did not apply. Public: local versus
   * sends each player's own keys to their own board, whichever board has the focus. */
  command(c: BoardCommand): boolean {
    if (this.locked) return false;
    const p = this.selected;
    switch (c.kind) {
      case "select":
        this.select(this.pieces[c.index]);
        break;
      case "next": {
        const i = p ? this.pieces.indexOf(p) : -1;
        const step = c.back ? this.pieces.length - 1 : 1;
        this.select(this.pieces[(i + step) % this.pieces.length]);
        break;
      }
      case "rotate":
        this.rotate(c.back);
        break;
      case "flip":
        this.flip();
        break;
      case "tray":
        this.toTray();
        break;
      case "clear":
        this.clear();
        break;
      case "enter":
        if (p && !p.offset) this.move(p, 0, 0);
        else this.select(null);
        break;
      case "move":
        if (!p) return false;
        this.move(p, c.dx, c.dy);
        break;
    }
    return true;
  }

  isLocked(): boolean {
    return this.locked;
  }

  /** A short line for the player: what is selected, what is wrong. */
  setStatus(text: string, kind: "" | "good" | "bad" = ""): void {
    this.statusEl.textContent = text;
    this.statusEl.dataset.kind = kind;
  }
}
