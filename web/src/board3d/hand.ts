// The pieces of the 3D board and the one in hand: where each lies, where the piece in hand would
// land, and the moves that change them (take, put back, drop, turn, move). Board3D draws them and
// turns input into these moves.

import type { HandStep } from "../board/options";
import { play } from "../sound";
import { type Cube, cubeKey, footprint, grip, landingZ, shapeOf, translate, turned } from "./shapes";
import type { PieceState } from "./tray";

export interface Hand {
  piece: PieceState;
  x: number;
  y: number;
  /** where it was taken from, to go back there when another piece is taken */
  from: { transform: number; place: Cube } | null;
}

/** How far a piece in hand may wander beyond the area's edge (in cubes). */
const MARGIN = 2;
/** The pieces and the hand; the subclass (Board3D) fills the fields in its constructor. */
export abstract class HeldPieces {
  protected pieces!: PieceState[];
  protected area!: Set<string>;
  protected layers!: number;
  protected bounds!: { minX: number; maxX: number; minY: number; maxY: number };
  protected hand: Hand | null = null;

  /** How many quarter turns the camera has gone round the board. */
  protected abstract viewQuadrant(): number;

  /** A piece taken in hand or turned (the play trace; what lands where, the placements tell). */
  protected abstract tellHand(step: HandStep): void;

  // --- state ------------------------------------------------------------------------------

  protected cells(p: PieceState, transform = p.transform): Cube[] {
    return shapeOf(p.entry, transform);
  }

  protected occupied(except: PieceState | null = null): Set<string> {
    const out = new Set<string>();
    for (const p of this.pieces) {
      if (p.place && p !== except) for (const c of translate(this.cells(p), p.place)) out.add(cubeKey(c));
    }
    return out;
  }

  /** Where the piece in hand would land. */
  protected landing(hand: Hand): Cube {
    const z = landingZ(this.cells(hand.piece), hand.x, hand.y, this.occupied(hand.piece));
    return [hand.x, hand.y, z];
  }

  /** Pieces resting on nothing fall, lowest first (after a piece is taken away). */
  protected settle(): void {
    const placed = this.pieces.flatMap((p) => (p.place ? [{ p, at: p.place }] : []));
    placed.sort((a, b) => a.at[2] - b.at[2]);
    for (const { p, at } of placed) {
      const others = this.occupied(p);
      const shape = this.cells(p);
      while (at[2] > 0 && shape.every((c) => !others.has(cubeKey([c[0] + at[0], c[1] + at[1], c[2] + at[2] - 1])))) {
        at[2] -= 1;
      }
    }
  }

  protected footprint(p: PieceState, transform = p.transform): { w: number; d: number } {
    return footprint(this.cells(p, transform));
  }

  protected clampHand(hand: Hand): void {
    const { w, d } = this.footprint(hand.piece);
    const b = this.bounds;
    hand.x = Math.max(b.minX - MARGIN, Math.min(b.maxX + MARGIN - w + 1, hand.x));
    hand.y = Math.max(b.minY - MARGIN, Math.min(b.maxY + MARGIN - d + 1, hand.y));
  }

  /** Take a piece in hand: from the tray (over the middle of the area) or off the board. */
  protected take(p: PieceState): void {
    if (this.hand?.piece === p) return;
    play("pick");
    this.tellHand({ op: "pick", piece: p.entry.id });
    if (this.hand) this.putBack();
    if (p.place) {
      const from = { transform: p.transform, place: p.place };
      this.hand = { piece: p, x: p.place[0], y: p.place[1], from };
      p.place = null;
      this.settle();
    } else {
      const { w, d } = this.footprint(p);
      const b = this.bounds;
      this.hand = {
        piece: p,
        x: Math.floor((b.minX + b.maxX + 1 - w) / 2),
        y: Math.floor((b.minY + b.maxY + 1 - d) / 2),
        from: null,
      };
    }
  }

  /** The piece in hand goes back where it came from if that place is still free, else to the tray. */
  protected putBack(): void {
    const hand = this.hand;
    if (!hand) return;
    this.hand = null;
    const p = hand.piece;
    if (hand.from) {
      const occ = this.occupied(p);
      const free = translate(this.cells(p, hand.from.transform), hand.from.place).every((c) => !occ.has(cubeKey(c)));
      if (free) {
        p.transform = hand.from.transform;
        p.place = hand.from.place;
        return;
      }
    }
    p.place = null;
  }

  protected drop(): void {
    const hand = this.hand;
    if (!hand) return;
    hand.piece.place = this.landing(hand);
    this.hand = null;
  }

  protected turn(turn: "spin" | "tip" | "roll", back: boolean): void {
    const hand = this.hand;
    if (!hand) return;
    const p = hand.piece;
    const before = this.footprint(p);
    const view = this.viewQuadrant();
    p.transform = turned(p.entry, p.transform, turn, back ? 3 : 1, view);
    play("rotate");
    this.tellHand({ op: "turn", piece: p.entry.id, transform: p.transform });
    // keep the middle of the footprint where it was
    const after = this.footprint(p);
    hand.x += Math.round((before.w - after.w) / 2);
    hand.y += Math.round((before.d - after.d) / 2);
    this.clampHand(hand);
  }

  protected move(dx: number, dy: number): void {
    const hand = this.hand;
    if (!hand) return;
    // arrows move as seen from the camera: "up" is away from it
    let [u, v] = [dx, dy];
    const q = this.viewQuadrant();
    for (let i = 0; i < q; i++) [u, v] = [-v, u];
    hand.x += u;
    hand.y += v;
    this.clampHand(hand);
  }

  /** Put the footprint's middle of the piece in hand over a board cell. */
  protected moveTo(cell: [number, number]): boolean {
    const hand = this.hand;
    if (!hand) return false;
    const [gx, gy] = grip(this.cells(hand.piece));
    const [x, y] = [cell[0] - gx, cell[1] - gy];
    const moved = x !== hand.x || y !== hand.y;
    hand.x = x;
    hand.y = y;
    this.clampHand(hand);
    return moved;
  }

  protected toTray(): void {
    if (!this.hand) return;
    this.hand.piece.place = null;
    this.hand = null;
  }
}
