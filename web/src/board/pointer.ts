// Mouse and touch on the flat board (pointer events): drag a piece from the tray onto the area,
// drag it again to move it or off the board to put it back, turn it with the wheel while
// dragging; a press that does not move is a tap (select, or place the selected piece).

import { type Cell, type LatticeName, nearestTranslation, type Point } from "../geometry";
import { type PieceState, shapeCentre } from "./piece";

/** How far (screen px) a press moves before it is a drag, not a tap. */
const DRAG_THRESHOLD_PX = 6;

interface Drag {
  piece: PieceState;
  pointerId: number;
  startClient: Point;
  startSvg: Point;
  origin: Point; // where the piece was drawn when grabbed
  moving: boolean;
  current: Point; // the piece's origin now
}

/** What the pointer needs from the board it drives. */
export interface PointerHost {
  readonly lattice: LatticeName;
  readonly svgEl: SVGSVGElement;
  readonly piecesLayer: SVGGElement;
  isLocked(): boolean;
  pieceAt(target: EventTarget | null): PieceState | null;
  shape(p: PieceState): Cell[];
  /** where a piece is drawn (its placement or its slot, or here while dragged) */
  origin(p: PieceState): Point;
  /** how large it is drawn there (smaller in a phone's tray) */
  drawScale(p: PieceState): number;
  inFrame(pt: Point): boolean;
  /** select a piece; `again`: it is taken in hand even if it was selected (a drag) */
  select(p: PieceState | null, again?: boolean): void;
  tapPiece(p: PieceState): void;
  tapEmpty(pt: Point): void;
  rotate(back: boolean): void;
  drawSlots(): void;
  moveOnly(p: PieceState): void;
  changed(): void;
}

export class PointerInput {
  private drag: Drag | null = null;
  /** the dragged piece's middle, so a turn while dragging keeps it under the pointer */
  private dragCentre: Point | null = null;
  private lastPointerSvg: Point | null = null;

  constructor(private readonly host: PointerHost) {
    const el = host.svgEl;
    el.addEventListener("pointerdown", (e) => this.down(e));
    el.addEventListener("pointermove", (e) => this.moveTo(e));
    el.addEventListener("pointerup", (e) => this.end(e, false));
    el.addEventListener("pointercancel", (e) => this.end(e, true));
    el.addEventListener(
      "wheel",
      (e) => {
        if (!this.drag?.moving) return;
        e.preventDefault();
        host.rotate(e.deltaY < 0);
      },
      { passive: false },
    );
  }

  /** Where `p` is drawn while it is being dragged, or null when it is not. */
  draggedOrigin(p: PieceState): Point | null {
    return this.drag?.piece === p && this.drag.moving ? this.drag.current : null;
  }

  /** After `p` turned while dragged: keep its middle under the pointer. */
  turned(p: PieceState): void {
    const d = this.drag;
    if (d?.piece !== p || !d.moving) return;
    const c = shapeCentre(this.host.lattice, this.host.shape(p));
    const hold = this.dragCentre ?? [d.current[0], d.current[1]];
    d.current = [hold[0] - c[0], hold[1] - c[1]];
    d.origin = d.current;
    d.startSvg = this.lastPointerSvg ?? d.startSvg;
  }

  private svgPoint(clientX: number, clientY: number): Point {
    const m = this.host.svgEl.getScreenCTM();
    if (!m) return [0, 0];
    const pt = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return [pt.x, pt.y];
  }

  private down(e: PointerEvent): void {
    const host = this.host;
    if (host.isLocked() || this.drag || e.button > 0) return;
    const p = host.pieceAt(e.target);
    const pt = this.svgPoint(e.clientX, e.clientY);
    if (!p) {
      host.tapEmpty(pt);
      return;
    }
    e.preventDefault();
    host.svgEl.setPointerCapture(e.pointerId);
    // a piece drawn small in the tray grows to its size when dragged, about the point held
    const at = host.origin(p);
    const scale = host.drawScale(p);
    const origin: Point = [pt[0] - (pt[0] - at[0]) / scale, pt[1] - (pt[1] - at[1]) / scale];
    this.drag = {
      piece: p,
      pointerId: e.pointerId,
      startClient: [e.clientX, e.clientY],
      startSvg: pt,
      origin,
      moving: false,
      current: origin,
    };
  }

  private moveTo(e: PointerEvent): void {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    const host = this.host;
    const pt = this.svgPoint(e.clientX, e.clientY);
    this.lastPointerSvg = pt;
    if (!d.moving) {
      const dist = Math.hypot(e.clientX - d.startClient[0], e.clientY - d.startClient[1]);
      if (dist < DRAG_THRESHOLD_PX) return;
      d.moving = true;
      host.select(d.piece, true);
      host.piecesLayer.appendChild(d.piece.g); // on top of the others
      d.piece.g.classList.add("dragging");
      host.drawSlots();
    }
    d.current = [d.origin[0] + pt[0] - d.startSvg[0], d.origin[1] + pt[1] - d.startSvg[1]];
    const c = shapeCentre(host.lattice, host.shape(d.piece));
    this.dragCentre = [d.current[0] + c[0], d.current[1] + c[1]];
    host.moveOnly(d.piece);
  }

  private end(e: PointerEvent, cancelled: boolean): void {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    const host = this.host;
    this.drag = null;
    this.dragCentre = null;
    d.piece.g.classList.remove("dragging");
    if (!d.moving) {
      host.tapPiece(d.piece);
      return;
    }
    const pt = this.svgPoint(e.clientX, e.clientY);
    if (!cancelled && host.inFrame(pt)) {
      d.piece.offset = nearestTranslation(host.lattice, d.current);
    } else if (!cancelled) {
      d.piece.offset = null;
    }
    host.changed();
  }
}
