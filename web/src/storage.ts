// What this browser keeps between visits (localStorage) and across a reload (sessionStorage),
// in one place: every key, the type of its value, and what a read gives when the storage is
// unavailable or holds something else. No other module touches browser storage
// (tests/test_web_modules.py checks).
//
// - Unavailable (a private window or a browser setting refuses it, a full quota): the values
//   written are kept in this page's memory instead, so the page works on and forgets them when
//   it closes. Nothing here throws.
// - Junk (unreadable JSON, a value of another shape: an older client's, a hand edit): a read
//   gives null, or, for a record of independent choices (settings, home), the choices that are
//   still of their type; the callers' defaults fill in the rest.
// The formats are the ones earlier clients wrote (JSON, or the bare text for a name, language
// or tutorial state), so what a browser kept before still reads.

import type { AccountTicket, Placement, SeatGrant, TraceStep } from "./protocol";

type Area = "local" | "session";

/** One storage area, with an in-memory stand-in for what the browser refuses to keep. */
class Shelf {
  /** values the browser would not keep (or no storage at all): they win over stored ones */
  private readonly memory = new Map<string, string>();

  constructor(private readonly area: Area) {}

  private storage(): Storage | null {
    try {
      // reading the property itself throws where storage is disabled
      return this.area === "local" ? window.localStorage : window.sessionStorage;
    } catch {
      return null;
    }
  }

  get(key: string): string | null {
    const held = this.memory.get(key);
    if (held !== undefined) return held;
    try {
      return this.storage()?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }

  set(key: string, value: string): void {
    try {
      const storage = this.storage();
      if (storage) {
        storage.setItem(key, value);
        this.memory.delete(key);
        return;
      }
    } catch {
      // over the quota, or refused: kept below for this page
    }
    this.memory.set(key, value);
  }

  remove(key: string): void {
    this.memory.delete(key);
    try {
      this.storage()?.removeItem(key);
    } catch {
      // nothing kept that could be removed
    }
  }

  /** The keys that start with `prefix`, stored or held in memory. */
  keys(prefix: string): string[] {
    const found = new Set([...this.memory.keys()].filter((k) => k.startsWith(prefix)));
    try {
      const storage = this.storage();
      for (let i = 0; storage && i < storage.length; i++) {
        const key = storage.key(i);
        if (key?.startsWith(prefix)) found.add(key);
      }
    } catch {
      // the memory's keys are all there is
    }
    return [...found];
  }
}

const local = new Shelf("local");
const session = new Shelf("session");

/** One kept value: read gives it, or null when nothing (usable) is kept. */
export interface Entry<T> {
  read(): T | null;
  write(value: T): void;
  remove(): void;
}

/** A value kept as JSON; `parse` turns what was read into the value, or null for junk. */
function json<T>(shelf: Shelf, key: string, parse: (raw: unknown) => T | null): Entry<T> {
  return {
    read() {
      const text = shelf.get(key);
      if (text === null) return null;
      try {
        return parse(JSON.parse(text));
      } catch {
        return null;
      }
    },
    write: (value) => shelf.set(key, JSON.stringify(value)),
    remove: () => shelf.remove(key),
  };
}

/** A value kept as its bare text (no quotes: the format earlier clients wrote). */
function text<T extends string>(shelf: Shelf, key: string, valid: (raw: string) => raw is T): Entry<T> {
  return {
    read() {
      const raw = shelf.get(key);
      return raw !== null && valid(raw) ? raw : null;
    },
    write: (value) => shelf.set(key, value),
    remove: () => shelf.remove(key),
  };
}

// --- the shapes kept ----------------------------------------------------------------------------

/** What this browser keeps of a seat it took: enough to say hello as that seat again. */
export type SeatKey = Pick<SeatGrant, "code" | "seat" | "token">;

export type Theme = "system" | "light" | "dark";
export const THEMES: readonly Theme[] = ["system", "light", "dark"];

/** The settings menu's choices (settings.ts). */
export interface Settings {
  theme: Theme;
  sound: boolean;
  vibrate: boolean;
}

/** The home screen's last choices (home.ts). */
export interface HomePrefs {
  edition: string;
  side: Record<string, string>;
  goal: string;
  /** the solo length chosen, per "edition:goal" (unset: the edition's default) */
  amounts: Record<string, number>;
}

/** The pieces laid on a room's board, for the board (task) `key` (room/arrangement.ts). */
export interface SavedArrangement {
  key: string;
  placements: Placement[];
}

/** The play trace of a room's board `key` (room/trace.ts): when the task was dealt (ms since
 * the epoch, as `performance.timeOrigin + performance.now()`) and the steps so far. */
export interface SavedTrace {
  key: string;
  dealtAt: number;
  steps: TraceStep[];
}

export type TutorialState = "done" | "skipped";

type Json = Record<string, unknown>;

function isRecord(raw: unknown): raw is Json {
  return typeof raw === "object" && raw !== null && !Array.isArray(raw);
}

/** The entries of a record whose values pass `valid`. */
function recordOf<V>(raw: unknown, valid: (v: unknown) => v is V): Record<string, V> {
  const out: Record<string, V> = {};
  if (!isRecord(raw)) return out;
  for (const [k, v] of Object.entries(raw)) if (valid(v)) out[k] = v;
  return out;
}

const isString = (v: unknown): v is string => typeof v === "string";
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isBoolean = (v: unknown): v is boolean => typeof v === "boolean";
const anyText = (_raw: string): _raw is string => true;

const isInteger = (v: unknown): v is number => Number.isInteger(v);

function accountTicket(raw: unknown): AccountTicket | null {
  if (!isRecord(raw) || !isInteger(raw.id) || !isString(raw.name) || !isString(raw.token)) return null;
  return { id: raw.id, name: raw.name, token: raw.token };
}

function seatKey(raw: unknown): SeatKey | null {
  if (!isRecord(raw) || !isString(raw.code) || !isInteger(raw.seat) || !isString(raw.token)) return null;
  return { code: raw.code, seat: raw.seat, token: raw.token };
}

/** The choices of the right type; the others are left out (the defaults stand for them). */
function settingsOf(raw: unknown): Partial<Settings> | null {
  if (!isRecord(raw)) return null;
  const out: Partial<Settings> = {};
  const theme = THEMES.find((t) => t === raw.theme);
  if (theme) out.theme = theme;
  if (isBoolean(raw.sound)) out.sound = raw.sound;
  if (isBoolean(raw.vibrate)) out.vibrate = raw.vibrate;
  return out;
}

function homePrefsOf(raw: unknown): Partial<HomePrefs> | null {
  if (!isRecord(raw)) return null;
  const out: Partial<HomePrefs> = {};
  if (isString(raw.edition)) out.edition = raw.edition;
  if (isString(raw.goal)) out.goal = raw.goal;
  if (isRecord(raw.side)) out.side = recordOf(raw.side, isString);
  if (isRecord(raw.amounts)) out.amounts = recordOf(raw.amounts, isNumber);
  return out;
}

function isPlacement(raw: unknown): raw is Placement {
  return (
    isRecord(raw) &&
    isString(raw.piece) &&
    isInteger(raw.transform) &&
    Array.isArray(raw.offset) &&
    (raw.offset.length === 2 || raw.offset.length === 3) &&
    raw.offset.every(isInteger)
  );
}

function arrangementOf(raw: unknown): SavedArrangement | null {
  if (!isRecord(raw) || !isString(raw.key) || !Array.isArray(raw.placements)) return null;
  if (!raw.placements.every(isPlacement)) return null;
  return { key: raw.key, placements: raw.placements };
}

const OPS: readonly TraceStep["op"][] = ["pick", "turn", "place", "lift"];

function traceStepOf(raw: unknown): TraceStep | null {
  if (!isRecord(raw) || !isNumber(raw.t) || !isString(raw.piece)) return null;
  const op = OPS.find((o) => o === raw.op);
  if (!op) return null;
  const step: TraceStep = { t: raw.t, op, piece: raw.piece };
  if (isInteger(raw.transform)) step.transform = raw.transform;
  const offset = raw.offset;
  if (Array.isArray(offset) && offset.every(isInteger)) {
    if (offset.length === 2) step.offset = [offset[0], offset[1]];
    else if (offset.length === 3) step.offset = [offset[0], offset[1], offset[2]];
  }
  return step;
}

function traceOf(raw: unknown): SavedTrace | null {
  if (!isRecord(raw) || !isString(raw.key) || !isNumber(raw.dealtAt) || !Array.isArray(raw.steps)) return null;
  const steps = raw.steps.map(traceStepOf);
  // one step unread would change where the trace leaves the pieces: all or nothing
  if (!steps.every((s): s is TraceStep => s !== null)) return null;
  return { key: raw.key, dealtAt: raw.dealtAt, steps };
}

function stringsOf(raw: unknown): string[] | null {
  return Array.isArray(raw) ? raw.map(String) : null;
}

const SEAT_PREFIX = "ubongo.seat.";

/** Every key this client keeps, with the type of its value. */
export const stored = {
  /** this browser's account; its token is the credential (docs/accounts.md) */
  account: json(local, "ubongo.account", accountTicket),
  /** the name last typed in */
  name: text(local, "ubongo.name", anyText),
  /** the language picked (i18n.ts checks it is one it has) */
  language: text(local, "ubongo.lang", anyText),
  /** the first-run tutorial done or skipped; null: never seen */
  tutorial: text(local, "ubongo.tutorial", (raw): raw is TutorialState => raw === "done" || raw === "skipped"),
  settings: json(local, "ubongo.settings", settingsOf),
  home: json(local, "ubongo.home", homePrefsOf),
  /** the practice tasks solved in this browser, by id */
  practiceSolved: json(local, "ubongo.practice.solved", stringsOf),
  /** the seat this browser holds in room `code` */
  seat: (code: string) => json(local, `${SEAT_PREFIX}${code}`, seatKey),
  /** the rooms this browser holds a seat in, by the code each ticket was kept under */
  seatCodes: (): string[] => local.keys(SEAT_PREFIX).map((key) => key.slice(SEAT_PREFIX.length)),
  /** the pieces laid in room `code`, kept for a reload (this tab only) */
  arrangement: (code: string) => json(session, `ubongo.arrangement.${code}`, arrangementOf),
  /** the play trace of the task in hand in room `code`, kept for a reload (this tab only) */
  trace: (code: string) => json(session, `ubongo.trace.${code}`, traceOf),
};
