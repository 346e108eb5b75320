// The editor's drawing sheet on screen: every cell of the sheet, the area's filled. A click or a
// tap toggles a cell; dragging paints (or, begun on a filled cell, erases) every cell it passes;
// the arrow keys move a cursor from cell to cell and Space or Enter toggles the cell under it.
// Each stroke (a drag, a key) is one step the editor can undo.

import { svg } from "../dom";
import {
  type Cell,
  cellAt,
  cellKey,
  cellsBounds,
  type LatticeName,
  outline,
  outlinePath,
  polygonPoints,
} from "../geometry";
import { t } from "../i18n";
import { DIRECTIONS, keyCell, rowColumn, sheetCells, step } from "./lattice";

export interface SheetHooks {
  /** a stroke begins: the editor keeps the drawing as it was, to undo */
  begin(): void;
  /** the area changed (during a stroke too) */
  changed(): void;
  /** what the cursor is on, for screen readers */
  say(text: string): void;
  /** Ctrl+Z (or Cmd+Z) on the sheet: the last step undone */
  undo(): void;
}

export class Sheet {
  readonly element: SVGSVGElement;
  readonly cells: Cell[];
  /** the area: the keys of its cells */
  area = new Set<string>();
  private readonly polys = new Map<string, SVGElement>();
  private readonly edge: SVGElement;
  private cursor: Cell;
  private painting: boolean | null = null;

  constructor(
    readonly lattice: LatticeName,
    private readonly hooks: SheetHooks,
  ) {
    this.cells = sheetCells(lattice);
    this.cursor = this.cells[Math.floor(this.cells.length / 2)];
    const b = cellsBounds(lattice, this.cells);
    const pad = 0.15;
    this.element = svg("svg", {
      class: "editor-sheet",
      viewBox: `${b.minX - pad} ${b.minY - pad} ${b.maxX - b.minX + 2 * pad} ${b.maxY - b.minY + 2 * pad}`,
      role: "application",
      "aria-label": t("editor:sheetLabel"),
      "aria-describedby": "editor-keys",
      tabindex: "0",
    }) as SVGSVGElement;
    for (const c of this.cells) {
      const poly = svg("polygon", { class: "sheet-cell", points: polygonPoints(outline(lattice, c)) });
      poly.dataset.cell = cellKey(c);
      this.polys.set(cellKey(c), poly);
      this.element.appendChild(poly);
    }
    this.edge = svg("path", { class: "sheet-edge", d: "" });
    this.element.appendChild(this.edge);
    this.listen();
    this.showCursor(false);
  }

  /** The area's cells. */
  areaCells(): Cell[] {
    return [...this.area].map(keyCell);
  }

  /** Draw `keys` as the area (an undo, a clear, an edition's change). */
  setArea(keys: Iterable<string>): void {
    this.area = new Set([...keys].filter((k) => this.polys.has(k)));
    this.redraw();
  }

  /** Mark the cells no piece reaches (from the verdict); none: no mark. */
  markUnreachable(keys: Set<string>): void {
    for (const [k, poly] of this.polys) poly.classList.toggle("unreachable", keys.has(k));
  }

  private redraw(): void {
    for (const [k, poly] of this.polys) poly.classList.toggle("on", this.area.has(k));
    this.edge.setAttribute("d", outlinePath(this.lattice, this.areaCells()));
  }

  private set(key: string, on: boolean): void {
    if (this.area.has(key) === on || !this.polys.has(key)) return;
    if (on) this.area.add(key);
    else this.area.delete(key);
    this.redraw();
    this.hooks.changed();
  }

  private cellUnder(e: PointerEvent): string | null {
    const m = this.element.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    const key = cellKey(cellAt(this.lattice, [p.x, p.y]));
    return this.polys.has(key) ? key : null;
  }

  private listen(): void {
    const el = this.element;
    el.addEventListener("pointerdown", (e) => {
      const key = this.cellUnder(e);
      if (key === null) return;
      e.preventDefault();
      el.setPointerCapture?.(e.pointerId);
      this.hooks.begin();
      this.painting = !this.area.has(key);
      this.cursor = keyCell(key);
      this.showCursor(false);
      this.set(key, this.painting);
    });
    el.addEventListener("pointermove", (e) => {
      if (this.painting === null) return;
      const key = this.cellUnder(e);
      if (key !== null) this.set(key, this.painting);
    });
    const end = () => {
      this.painting = null;
    };
    el.addEventListener("pointerup", end);
    el.addEventListener("pointercancel", end);
    el.addEventListener("keydown", (e) => this.key(e));
    el.addEventListener("focus", () => this.showCursor(true));
    el.addEventListener("blur", () => this.showCursor(false));
  }

  private key(e: KeyboardEvent): void {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") {
      e.preventDefault();
      this.hooks.undo();
      return;
    }
    const dir = DIRECTIONS[e.key];
    if (dir) {
      e.preventDefault();
      const next = step(this.lattice, this.cells, this.cursor, dir);
      if (next) this.cursor = next;
      this.showCursor(true);
      return;
    }
    if (e.key === " " || e.key === "Enter") {
      e.preventDefault();
      const key = cellKey(this.cursor);
      this.hooks.begin();
      this.set(key, !this.area.has(key));
      this.showCursor(true);
    }
  }

  private showCursor(focused: boolean): void {
    const key = cellKey(this.cursor);
    for (const [k, poly] of this.polys) poly.classList.toggle("cursor", focused && k === key);
    if (!focused) return;
    const [row, column] = rowColumn(
      this.lattice,
      this.cells.findIndex((c) => cellKey(c) === key),
    );
    this.hooks.say(
      t(this.area.has(key) ? "editor:cursorOn" : "editor:cursorOff", { row, column, cells: this.area.size }),
    );
  }
}
