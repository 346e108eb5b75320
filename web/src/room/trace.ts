// The play trace (docs/protocol.md, "The play trace"): what this player did with the pieces
// since their task was dealt, sent with every `submit`. Rated and ranked play needs it: the
// server checks that it ends where the submission has the pieces and that no two placements
// come closer together than a hand can make them (docs/fair-play.md).
//
// Pick and turn are told by the board (`onHand`). Place and lift are read from the arrangement
// the board reports after each change (`onChange`), the very placements it submits, so the
// trace ends where the board is whatever moved the pieces: a drag, a key, Undo, Clear, a hint,
// 3D pieces falling when the one below is taken.

import type { HandStep } from "../board/options";
import type { Placement, TraceStep } from "../protocol";
import { stored } from "../storage";
import { laidMap } from "./arrangement";

/** The most steps a submit carries (the server's MAX_TRACE_STEPS): the latest are kept. */
export const MAX_STEPS = 180;
/** The server takes no step later than this (seconds): a trace that runs longer is not sent
 * (it would make the whole submit unreadable). */
const MAX_T = 3600;
/** Placements of one piece closer together than this are one move: a key held down moves a
 * piece cell by cell, and the server counts placements closer than a hand makes them
 * (`--trace-seconds-per-move`, 0.15 s by default) against the trace. */
const SAME_MOVE_S = 0.15;

/** How a trace that does not end where the board is shows in the console: a bug of this client
 * (tests/web/webharness.py fails a test on it). */
export const TRACE_ADRIFT = "ubongo: the play trace";

/** A clock that goes on across a reload of the page (ms since the epoch; `performance.now()`
 * within one page). */
function now(): number {
  return performance.timeOrigin + performance.now();
}

/** Where the steps leave the pieces, as the server reads a trace: each piece's last place or
 * lift ("transform|offset" by piece, as `laidMap`). */
function laidBy(steps: readonly TraceStep[]): Map<string, string> {
  const laid = new Map<string, string>();
  for (const s of steps) {
    if (s.op === "place") laid.set(s.piece, `${s.transform}|${s.offset?.join(",")}`);
    else if (s.op === "lift") laid.delete(s.piece);
  }
  return laid;
}

function sameLaid(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([piece, at]) => b.get(piece) === at);
}

/** The trace of this player's task in hand, in room `code`; every call names the task (the
 * board's key), and calls for another task than the one dealt last (a solved board still in
 * view) are left out. */
export class TraceRecorder {
  private key = "";
  /** when the task was dealt, by `now()` */
  private dealtAt = 0;
  private steps: TraceStep[] = [];

  constructor(private readonly code: string) {}

  /** The task `key` is this player's: a new trace from now on, unless it is the one recorded
   * already (a snapshot, a new language) or the one this tab kept before a reload. */
  deal(key: string): void {
    if (key === this.key) return;
    const kept = stored.trace(this.code).read();
    this.key = key;
    if (kept?.key === key) {
      this.dealtAt = kept.dealtAt;
      this.steps = kept.steps;
    } else {
      this.dealtAt = now();
      this.steps = [];
      this.save();
    }
  }

  /** A new game: what was recorded is for none of its tasks (which may have the same keys). */
  forget(): void {
    this.key = "";
    this.steps = [];
    stored.trace(this.code).remove();
  }

  /** A piece taken in hand or turned on the board of task `key`. */
  hand(key: string, step: HandStep): void {
    if (key !== this.key) return;
    this.add({ t: this.seconds(), ...step });
    this.save();
  }

  /** The arrangement of the board of task `key` now: a `place` for each piece put down or moved,
   * a `lift` for each taken off. */
  arranged(key: string, placements: Placement[]): void {
    if (key !== this.key) return;
    const before = laidBy(this.steps);
    const after = laidMap(placements);
    if (sameLaid(before, after)) return;
    const t = this.seconds();
    for (const piece of before.keys()) if (!after.has(piece)) this.add({ t, op: "lift", piece });
    for (const p of placements) {
      if (before.get(p.piece) !== after.get(p.piece)) {
        this.add({ t, op: "place", piece: p.piece, transform: p.transform, offset: p.offset });
      }
    }
    this.save();
  }

  /** The trace to send with a submit of `placements` on the board of task `key`, or null when
   * there is none to send. It ends in `placements`: if it did not, a move reached the board by
   * a way that is not recorded (a bug, said in the console); the steps are then brought in line,
   * so that the finish is still one the server can count. */
  forSubmit(key: string, placements: Placement[]): TraceStep[] | null {
    if (key !== this.key) {
      console.warn(`${TRACE_ADRIFT} is for another task than the one submitted`); // i18n-ignore
      return null;
    }
    if (!sameLaid(laidBy(this.steps), laidMap(placements))) {
      const adrift = `${TRACE_ADRIFT} does not end in the arrangement submitted`; // i18n-ignore
      console.warn(adrift, this.steps, placements);
      this.arranged(key, placements);
    }
    const last = this.steps[this.steps.length - 1];
    if (!last || last.t > MAX_T) return null;
    return this.steps.map((s) => ({ ...s }));
  }

  /** Seconds since the deal, to the millisecond. */
  private seconds(): number {
    return Math.max(0, Math.round(now() - this.dealtAt) / 1000);
  }

  private add(step: TraceStep): void {
    const steps = this.steps;
    const last = steps[steps.length - 1];
    // never back in time (the wall clock under `now()` may be set back between two pages)
    if (last && step.t < last.t) step.t = last.t;
    if (step.op === "place") {
      const i = lastIndex(steps, (s) => s.op === "place");
      if (i >= 0 && steps[i].piece === step.piece && step.t - steps[i].t < SAME_MOVE_S) steps.splice(i, 1);
    }
    steps.push(step);
    const spare = steps.length > MAX_STEPS ? this.oldestSpare() : -1;
    if (spare >= 0) steps.splice(spare, 1);
  }

  /** The oldest step that can go without changing where the trace leaves the pieces: any but a
   * piece's last place or lift. Dropping a step never brings two placements closer. */
  private oldestSpare(): number {
    const final = new Map<string, number>();
    this.steps.forEach((s, i) => {
      if (s.op === "place" || s.op === "lift") final.set(s.piece, i);
    });
    const kept = new Set(final.values());
    return this.steps.findIndex((_, i) => !kept.has(i));
  }

  private save(): void {
    if (this.key) stored.trace(this.code).write({ key: this.key, dealtAt: this.dealtAt, steps: this.steps });
  }
}

function lastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i])) return i;
  return -1;
}
