// The board: one SVG component for squares, hexagons and triangles.
//
// The task's area is drawn at its own lattice coordinates (one SVG unit = one unit edge), the
// tray of pieces beside or below it in the same SVG, so a piece keeps its size when dragged.
// A piece is drawn at `origin` (an SVG translation); on the area the origin is always the
// screen vector of a lattice translation, which is the placement's offset (the shapes from
// the catalogue are normalized: their anchor is 0). Overlap and overhang are shown, never
// forbidden; everything happens locally, the server only hears about a covered area.

import { type Catalogue, type PieceEntry, type Placement, pieceOf, shade } from "./catalogue";
import {
  type Box,
  type Cell,
  type LatticeName,
  type Point,
  cellAt,
  cellCentre,
  cellKey,
  cellsBounds,
  nearestTranslation,
  outline,
  outlinePath,
  polygonPoints,
  translateCell,
  translationVector,
} from "./geometry";
import { svg } from "./dom";

export interface BoardOptions {
  catalogue: Catalogue;
  area: Cell[];
  pieces: string[];
  /** every change of the arrangement; `covered` when it covers the area exactly */
  onChange?: (placements: Placement[], covered: boolean) => void;
  /** the arrangement covers the area exactly (called once per arrangement) */
  onCovered?: (placements: Placement[]) => void;
  /** placements to start with (e.g. a solution to show) */
  initial?: Placement[];
  readonly?: boolean;
  /** omit the tray (a finished picture) */
  trayless?: boolean;
}

interface PieceState {
  entry: PieceEntry;
  transform: number;
  offset: number[] | null; // null: in the tray
  slot: Box; // its place in the tray
  g: SVGGElement;
}

interface Drag {
  piece: PieceState;
  pointerId: number;
  startClient: Point;
  startSvg: Point;
  origin: Point; // where the piece was drawn when grabbed
  moving: boolean;
  current: Point; // the piece's origin now
}

const FRAME_PAD = 0.7;
const GAP = 0.8;
const DRAG_THRESHOLD_PX = 6;

export class Board {
  readonly element: HTMLElement;
  private readonly svgEl: SVGSVGElement;
  private readonly lattice: LatticeName;
  private readonly areaKeys: Set<string>;
  private readonly areaBox: Box;
  private readonly pieces: PieceState[];
  private readonly slotsLayer: SVGGElement;
  private readonly piecesLayer: SVGGElement;
  private readonly marksLayer: SVGGElement;
  private readonly areaLayer: SVGGElement;
  private selected: PieceState | null = null;
  private drag: Drag | null = null;
  private locked: boolean;
  private lastCoveredKey = "";
  private trayBelow = true;
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
      "aria-label": "Puzzle board: drag the pieces onto the light area",
      tabindex: opts.readonly ? "-1" : "0",
    }) as SVGSVGElement;
    this.svgEl.appendChild(defs());
    const frame = this.areaBox;
    this.svgEl.appendChild(
      svg("rect", {
        class: "board-frame",
        x: frame.minX - FRAME_PAD,
        y: frame.minY - FRAME_PAD,
        width: frame.maxX - frame.minX + 2 * FRAME_PAD,
        height: frame.maxY - frame.minY + 2 * FRAME_PAD,
        rx: 0.35,
      }),
    );
    this.areaLayer = svg("g", { class: "area" }) as SVGGElement;
    for (const c of opts.area) {
      this.areaLayer.appendChild(
        svg("polygon", {
          class: "area-cell",
          points: polygonPoints(outline(this.lattice, c)),
          "data-area-cell": cellKey(c),
        }),
      );
    }
    this.areaLayer.appendChild(
      svg("path", { class: "area-edge", d: outlinePath(this.lattice, opts.area) }),
    );
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
      return { entry, transform: entry.transforms[0], offset: null, slot: emptyBox(), g };
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
      this.element.appendChild(this.toolbar());
      this.element.appendChild(this.statusEl);
      this.listen();
    }
    this.layout();
    this.redrawAll();
  }

  // --- public -------------------------------------------------------------------------------

  placements(): Placement[] {
    return this.pieces
      .filter((p) => p.offset !== null)
      .map((p) => ({ piece: p.entry.id, transform: p.transform, offset: [...p.offset!] }));
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
      if (below !== this.trayBelow) {
        this.trayBelow = below;
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

  private shape(p: PieceState, transform = p.transform): Cell[] {
    return p.entry.shapes[String(transform)];
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
    // one square slot per piece, big enough for every orientation, so the layout never moves
    const sizes = this.pieces.map((p) => {
      let side = 0;
      for (const t of p.entry.transforms) {
        const b = cellsBounds(this.lattice, this.shape(p, t));
        side = Math.max(side, b.maxX - b.minX, b.maxY - b.minY);
      }
      return side + 0.5;
    });
    const frameW = frame.maxX - frame.minX;
    const frameH = frame.maxY - frame.minY;
    let bounds: Box;
    if (this.trayBelow) {
      const width = Math.max(frameW, Math.max(...sizes) * 3);
      let x = 0;
      let y = frame.maxY + GAP;
      let rowH = 0;
      const rows: PieceState[][] = [[]];
      this.pieces.forEach((p, i) => {
        if (x > 0 && x + sizes[i] > width) {
          x = 0;
          y += rowH;
          rowH = 0;
          rows.push([]);
        }
        p.slot = { minX: x, minY: y, maxX: x + sizes[i], maxY: y + sizes[i] };
        rows[rows.length - 1].push(p);
        x += sizes[i];
        rowH = Math.max(rowH, sizes[i]);
      });
      // centre each row under the area
      const centre = (frame.minX + frame.maxX) / 2;
      for (const row of rows) {
        const w = row.reduce((s, p) => s + (p.slot.maxX - p.slot.minX), 0);
        const shift = centre - w / 2;
        for (const p of row) {
          p.slot.minX += shift;
          p.slot.maxX += shift;
        }
      }
      bounds = {
        minX: Math.min(frame.minX, centre - width / 2),
        minY: frame.minY,
        maxX: Math.max(frame.maxX, centre + width / 2),
        maxY: y + rowH,
      };
    } else {
      // columns to the right of the area, as high as the area (at least two slots)
      const height = Math.max(frameH, Math.max(...sizes) * 2);
      let x = frame.maxX + GAP;
      let y = 0;
      let colW = 0;
      let maxY = 0;
      this.pieces.forEach((p, i) => {
        if (y > 0 && y + sizes[i] > height) {
          y = 0;
          x += colW;
          colW = 0;
        }
        p.slot = { minX: x, minY: y, maxX: x + sizes[i], maxY: y + sizes[i] };
        y += sizes[i];
        maxY = Math.max(maxY, y);
        colW = Math.max(colW, sizes[i]);
      });
      const top = (frame.minY + frame.maxY) / 2 - maxY / 2;
      for (const p of this.pieces) {
        p.slot.minY += top;
        p.slot.maxY += top;
      }
      bounds = {
        minX: frame.minX,
        minY: Math.min(frame.minY, top),
        maxX: x + colW,
        maxY: Math.max(frame.maxY, top + maxY),
      };
    }
    this.setViewBox(bounds, 0.3);
  }

  private setViewBox(b: Box, pad: number): void {
    const w = b.maxX - b.minX + 2 * pad;
    const h = b.maxY - b.minY + 2 * pad;
    this.svgEl.setAttribute("viewBox", `${b.minX - pad} ${b.minY - pad} ${w} ${h}`);
    this.element.style.setProperty("--board-aspect", `${w} / ${h}`);
  }

  /** Where a piece is drawn: its placement, its tray slot, or where it is being dragged. */
  private origin(p: PieceState): Point {
    if (this.drag?.piece === p && this.drag.moving) return this.drag.current;
    if (p.offset) return translationVector(this.lattice, p.offset);
    return this.slotOrigin(p);
  }

  private drawPiece(p: PieceState): void {
    const g = p.g;
    g.replaceChildren(...pieceShapeNodes(this.lattice, p.entry, this.shape(p)));
    const [x, y] = this.origin(p);
    g.setAttribute("transform", `translate(${x} ${y})`);
    g.setAttribute("data-state", p.offset ? "placed" : "tray");
    g.setAttribute("data-transform", String(p.transform));
    g.setAttribute("data-offset", p.offset ? p.offset.join(",") : "");
    g.classList.toggle("selected", this.selected === p);
    g.classList.toggle("dragging", this.drag?.piece === p && this.drag.moving);
    g.setAttribute(
      "aria-label",
      `piece ${p.entry.id} (${p.entry.colour_name || p.entry.name})${p.offset ? " on the board" : " in the tray"}`,
    );
  }

  private moveOnly(p: PieceState): void {
    const [x, y] = this.origin(p);
    p.g.setAttribute("transform", `translate(${x} ${y})`);
  }

  private redrawAll(): void {
    for (const p of this.pieces) this.drawPiece(p);
    this.drawSlots();
    this.drawMarks();
  }

  /** Where a piece sits in its tray slot (its middle in the slot's middle). */
  private slotOrigin(p: PieceState): Point {
    const b = cellsBounds(this.lattice, this.shape(p));
    return [
      (p.slot.minX + p.slot.maxX) / 2 - (b.minX + b.maxX) / 2,
      (p.slot.minY + p.slot.maxY) / 2 - (b.minY + b.maxY) / 2,
    ];
  }

  /** The empty slots of pieces on the board (or in hand): a dashed outline with the label. */
  private drawSlots(): void {
    if (this.opts.trayless) return;
    const nodes: SVGElement[] = [];
    for (const p of this.pieces) {
      const away = p.offset !== null || (this.drag?.piece === p && this.drag.moving);
      if (!away) continue;
      const [x, y] = this.slotOrigin(p);
      const g = svg("g", { class: "tray-slot", "data-slot": p.entry.id, transform: `translate(${x} ${y})` });
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

  private placedCells(p: PieceState): Cell[] {
    return this.shape(p).map((c) => translateCell(c, p.offset!));
  }

  /** Overhang and overlap marks, and whether the area is covered exactly. */
  private drawMarks(): boolean {
    const count = new Map<string, { cell: Cell; n: number }>();
    let allPlaced = true;
    for (const p of this.pieces) {
      if (!p.offset) {
        allPlaced = false;
        continue;
      }
      for (const c of this.placedCells(p)) {
        const k = cellKey(c);
        const e = count.get(k);
        if (e) e.n += 1;
        else count.set(k, { cell: c, n: 1 });
      }
    }
    const marks: SVGElement[] = [];
    let bad = 0;
    for (const [k, { cell, n }] of count) {
      const outside = !this.areaKeys.has(k);
      if (outside || n > 1) {
        bad += 1;
        marks.push(
          svg("polygon", {
            class: outside ? "mark-outside" : "mark-overlap",
            points: polygonPoints(outline(this.lattice, cell)),
          }),
        );
      }
    }
    this.marksLayer.replaceChildren(...marks);
    const covered = allPlaced && bad === 0 && count.size === this.areaKeys.size;
    this.element.classList.toggle("covered", covered);
    return covered;
  }

  private changed(): void {
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

  private select(p: PieceState | null): void {
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
    if (before) {
      // turn about the piece's middle, then snap
      const c = shapeCentre(this.lattice, this.shape(p));
      p.offset = nearestTranslation(this.lattice, [before[0] - c[0], before[1] - c[1]]);
    }
    if (this.drag?.piece === p && this.drag.moving) {
      // keep the turned piece under the pointer
      const c = shapeCentre(this.lattice, this.shape(p));
      const ptr = this.drag.current;
      const oldC = this.dragCentre;
      const hold = oldC ?? [ptr[0], ptr[1]];
      this.drag.current = [hold[0] - c[0], hold[1] - c[1]];
      this.drag.origin = this.drag.current;
      this.drag.startSvg = this.lastPointerSvg ?? this.drag.startSvg;
    }
    this.changed();
  }

  private dragCentre: Point | null = null;
  private lastPointerSvg: Point | null = null;

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
    const own =
      shape.find((c) => c.length < 3 || c[2] === target[2]) ?? shape[0];
    p.offset = [target[0] - own[0], target[1] - own[1]];
    this.changed();
  }

  private move(p: PieceState, dx: number, dy: number): void {
    if (!p.offset) {
      const first = [...this.areaKeys][0].split(",").map(Number);
      this.placeOn(p, first);
      return;
    }
    let step: number[];
    if (this.lattice === "square") step = [dx, dy];
    else if (dy === 0) step = [dx, 0];
    else {
      // hexagons and triangles have no straight "down": zig-zag so the piece keeps its column
      this.zig = !this.zig;
      const up = this.lattice === "hexagon" ? [this.zig ? 0 : 1, -1] : [this.zig ? 0 : -1, 1];
      step = dy < 0 ? up : [-up[0], -up[1]];
    }
    p.offset = [p.offset[0] + step[0], p.offset[1] + step[1]];
    this.changed();
  }

  private zig = false;

  // --- input --------------------------------------------------------------------------------

  private toolbar(): HTMLElement {
    const bar = document.createElement("div");
    bar.className = "board-tools";
    const button = (label: string, title: string, act: () => void, name: string) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `tool tool-${name}`;
      b.innerHTML = label;
      b.title = title;
      b.setAttribute("aria-label", title);
      b.addEventListener("click", () => {
        act();
        this.focus();
      });
      bar.appendChild(b);
    };
    button("⟳ <span>Rotate</span>", "Rotate the selected piece (R)", () => this.rotate(), "rotate");
    if (this.opts.catalogue.flip) {
      button("⇋ <span>Flip</span>", "Flip the selected piece (F)", () => this.flip(), "flip");
    }
    button("↩ <span>Tray</span>", "Put the selected piece back (Esc)", () => this.toTray(), "tray");
    button("✕ <span>Clear</span>", "Put every piece back", () => this.clear(), "clear");
    return bar;
  }

  private svgPoint(clientX: number, clientY: number): Point {
    const m = this.svgEl.getScreenCTM();
    if (!m) return [0, 0];
    const pt = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return [pt.x, pt.y];
  }

  private pieceAt(target: EventTarget | null): PieceState | null {
    const el = (target as Element | null)?.closest?.("[data-piece]");
    if (!el) return null;
    return this.pieces.find((p) => p.g === el) ?? null;
  }

  private inFrame(pt: Point): boolean {
    const a = this.areaBox;
    const m = FRAME_PAD + 0.3;
    return pt[0] >= a.minX - m && pt[0] <= a.maxX + m && pt[1] >= a.minY - m && pt[1] <= a.maxY + m;
  }

  private listen(): void {
    const el = this.svgEl;
    el.addEventListener("pointerdown", (e) => {
      if (this.locked || this.drag || e.button > 0) return;
      const p = this.pieceAt(e.target);
      const pt = this.svgPoint(e.clientX, e.clientY);
      if (!p) {
        this.tapEmpty(pt);
        return;
      }
      e.preventDefault();
      el.setPointerCapture(e.pointerId);
      const origin = this.origin(p);
      this.drag = {
        piece: p,
        pointerId: e.pointerId,
        startClient: [e.clientX, e.clientY],
        startSvg: pt,
        origin,
        moving: false,
        current: origin,
      };
    });
    el.addEventListener("pointermove", (e) => {
      const d = this.drag;
      if (!d || e.pointerId !== d.pointerId) return;
      const pt = this.svgPoint(e.clientX, e.clientY);
      this.lastPointerSvg = pt;
      if (!d.moving) {
        const dist = Math.hypot(e.clientX - d.startClient[0], e.clientY - d.startClient[1]);
        if (dist < DRAG_THRESHOLD_PX) return;
        d.moving = true;
        this.select(d.piece);
        this.piecesLayer.appendChild(d.piece.g); // on top of the others
        d.piece.g.classList.add("dragging");
        this.drawSlots();
      }
      d.current = [d.origin[0] + pt[0] - d.startSvg[0], d.origin[1] + pt[1] - d.startSvg[1]];
      const c = shapeCentre(this.lattice, this.shape(d.piece));
      this.dragCentre = [d.current[0] + c[0], d.current[1] + c[1]];
      this.moveOnly(d.piece);
    });
    const end = (e: PointerEvent, cancelled: boolean) => {
      const d = this.drag;
      if (!d || e.pointerId !== d.pointerId) return;
      this.drag = null;
      this.dragCentre = null;
      d.piece.g.classList.remove("dragging");
      if (!d.moving) {
        this.tapPiece(d.piece);
        return;
      }
      const pt = this.svgPoint(e.clientX, e.clientY);
      if (!cancelled && this.inFrame(pt)) {
        d.piece.offset = nearestTranslation(this.lattice, d.current);
      } else if (!cancelled) {
        d.piece.offset = null;
      }
      this.changed();
    };
    el.addEventListener("pointerup", (e) => end(e, false));
    el.addEventListener("pointercancel", (e) => end(e, true));
    el.addEventListener(
      "wheel",
      (e) => {
        if (!this.drag?.moving) return;
        e.preventDefault();
        this.rotate(e.deltaY < 0);
      },
      { passive: false },
    );
    el.addEventListener("keydown", (e) => this.key(e));
  }

  private tapPiece(p: PieceState): void {
    this.select(p);
    this.focus();
  }

  private tapEmpty(pt: Point): void {
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
    const k = e.key;
    let handled = true;
    const digit = Number.parseInt(k, 10);
    if (!Number.isNaN(digit) && digit >= 1 && digit <= this.pieces.length) {
      this.select(this.pieces[digit - 1]);
    } else if (k === "n" || k === "N") {
      const i = this.selected ? this.pieces.indexOf(this.selected) : -1;
      const step = k === "N" ? this.pieces.length - 1 : 1;
      this.select(this.pieces[(i + step) % this.pieces.length]);
    } else if (k === "r" || k === "R") this.rotate(k === "R");
    else if (k === "f" || k === "F") this.flip();
    else if (k === "Escape" || k === "Backspace" || k === "Delete") this.toTray();
    else if (k === "Enter" || k === " ") {
      const p = this.selected;
      if (p && !p.offset) this.move(p, 0, 0);
      else this.select(null);
    } else if (k.startsWith("Arrow") && this.selected) {
      const dx = k === "ArrowLeft" ? -1 : k === "ArrowRight" ? 1 : 0;
      const dy = k === "ArrowUp" ? -1 : k === "ArrowDown" ? 1 : 0;
      this.move(this.selected, dx, dy);
    } else handled = false;
    if (handled) e.preventDefault();
  }

  /** A short line for the player: what is selected, what is wrong. */
  setStatus(text: string, kind: "" | "good" | "bad" = ""): void {
    this.statusEl.textContent = text;
    this.statusEl.dataset.kind = kind;
  }
}

function emptyBox(): Box {
  return { minX: 0, minY: 0, maxX: 0, maxY: 0 };
}

function shapeCentre(lattice: LatticeName, cells: Cell[]): Point {
  let x = 0;
  let y = 0;
  for (const c of cells) {
    const [u, v] = cellCentre(lattice, c);
    x += u;
    y += v;
  }
  return [x / cells.length, y / cells.length];
}

/** The SVG nodes of a piece at the origin: cells, faint inner lines, outline and label. */
export function pieceShapeNodes(lattice: LatticeName, entry: PieceEntry, cells: Cell[]): SVGElement[] {
  const nodes: SVGElement[] = [];
  for (const c of cells) {
    nodes.push(
      svg("polygon", {
        class: "piece-cell",
        points: polygonPoints(outline(lattice, c)),
        fill: entry.colour,
        stroke: entry.colour,
        "data-cell": cellKey(c),
      }),
    );
  }
  nodes.push(
    svg("path", { class: "piece-edge", d: outlinePath(lattice, cells), stroke: shade(entry.colour, 0.55) }),
  );
  // the label sits in the cell nearest the middle, so it is always on the piece
  const mid = shapeCentre(lattice, cells);
  let best = cells[0];
  let bestD = Infinity;
  for (const c of cells) {
    const [x, y] = cellCentre(lattice, c);
    const d = (x - mid[0]) ** 2 + (y - mid[1]) ** 2;
    if (d < bestD - 1e-9) {
      bestD = d;
      best = c;
    }
  }
  const [lx, ly] = cellCentre(lattice, best);
  const size = lattice === "triangle" ? 0.36 : 0.5;
  const label = svg("text", {
    class: "piece-label",
    x: lx,
    y: ly,
    "font-size": size,
    "text-anchor": "middle",
    "dominant-baseline": "central",
  });
  label.textContent = entry.id;
  nodes.push(label);
  return nodes;
}

/** A picture of one piece (the how-to, the tray of a finished round). */
export function pieceSvg(cat: Catalogue, id: string, transform?: number, unitRem = 1.1): SVGSVGElement {
  const entry = pieceOf(cat, id);
  const cells = entry.shapes[String(transform ?? entry.transforms[0])];
  const b = cellsBounds(cat.lattice, cells);
  const pad = 0.1;
  const el = svg("svg", {
    class: "piece-picture",
    viewBox: `${b.minX - pad} ${b.minY - pad} ${b.maxX - b.minX + 2 * pad} ${b.maxY - b.minY + 2 * pad}`,
    role: "img",
    "aria-label": `piece ${entry.id}, ${entry.colour_name} ${entry.name}`,
  }) as SVGSVGElement;
  // one size per unit edge, so that pictures of different pieces share a scale
  el.style.width = `${(b.maxX - b.minX + 2 * pad) * unitRem}rem`;
  el.style.height = `${(b.maxY - b.minY + 2 * pad) * unitRem}rem`;
  const g = svg("g", { class: "piece" });
  g.append(...pieceShapeNodes(cat.lattice, entry, cells));
  el.appendChild(g);
  return el;
}

/** A small picture of an area with some placements (opponents' boards, solutions). */
export function areaSvg(cat: Catalogue, area: Cell[], placements: Placement[] = []): SVGSVGElement {
  const board = new Board({ catalogue: cat, area, pieces: placements.map((p) => p.piece), initial: placements, readonly: true, trayless: true });
  const el = board.element.querySelector("svg") as SVGSVGElement;
  el.classList.add("area-picture");
  return el;
}

function defs(): SVGElement {
  const d = svg("defs", {});
  const pattern = svg("pattern", {
    id: "hatch",
    width: 0.25,
    height: 0.25,
    patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)",
  });
  pattern.appendChild(svg("rect", { width: 0.1, height: 0.25, fill: "rgba(200,0,30,0.75)" }));
  d.appendChild(pattern);
  return d;
}
