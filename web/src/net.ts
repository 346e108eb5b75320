// Talking to the server: JSON over HTTP, and one WebSocket per room (docs/protocol.md).
// The connection measures the server clock's offset by ping/pong, reconnects with the last
// event number it saw, and hands every room snapshot to the screen that draws it.

import type { Placement } from "./catalogue";

export interface Seat {
  seat: number;
  kind: "person" | "bot";
  name: string;
  side: string | null;
  ready: boolean;
  connected: boolean;
  held_until: number | null;
  level: string | null;
}

export interface Task {
  card: number;
  side: string;
  key: string;
  pieces: string[];
  area: number[][];
  layers: number;
  difficulty?: number;
}

export interface Score {
  points: number;
  gems: Record<string, number> | null;
  cards: number;
}

export interface Finish {
  seat: number;
  place: number;
  at: number;
}

export interface SoloState {
  goal: string;
  amount: number;
  done: number;
  skipped: number;
  started_at: number | null;
  ends_at: number | null;
}

export interface GameView {
  /** the number to send with submit and skip (the server's turn counter) */
  turn: number;
  round: number;
  rounds: number;
  /** the round's kind: round, playoff (gem editions), tie-round (card editions), solo */
  kind: string | null;
  stage: string;
  key: string | null;
  roller: number | null;
  deadline: number | null;
  tasks: Record<string, Task | null>;
  finished: Finish[];
  scores: Record<string, Score>;
  display: Record<string, number> | null;
  bag: number | null;
  solo: SoloState | null;
  next_round_at?: number | null;
  solutions: Record<string, Placement[]>;
  winners: number[];
}

export interface Settings {
  edition: string;
  mode: string;
  variant: string;
  side: string;
  rounds: number | null;
  hourglass_seconds: number | null;
  countdown_seconds: number | null;
  solo_goal: string;
  solo_amount: number;
  seat_hold_seconds: number;
  seed: number | null;
  [more: string]: unknown;
}

export interface Room {
  code: string;
  invite: string;
  phase: "lobby" | "playing" | "over";
  host: number | null;
  settings: Settings;
  seats: (Seat | null)[];
  spectators: number;
  game: GameView | null;
  game_id: number | null;
  record?: Record<string, unknown> | null;
}

type Raw = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The game table as the server sends it (docs/protocol.md, "The game table"). */
export function normalizeGame(raw: Raw | null): GameView | null {
  if (!raw) return null;
  const display = raw.display && Object.keys(raw.display).length ? raw.display : null;
  return {
    turn: raw.round,
    solutions: {},
    winners: [],
    ...raw,
    display,
    bag: display ? raw.bag : null,
  } as unknown as GameView;
}

export interface RoomEvent {
  seq: number;
  at: number;
  kind: string;
  data: Record<string, unknown>;
}

export interface Verdict {
  round: number;
  ok: boolean;
  code: string;
  reason: string;
  received_at: number;
}

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let r: Response;
  try {
    r = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("offline", "cannot reach the server", 0);
  }
  const text = await r.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!r.ok) {
    const err = (data as { error?: { code?: string; message?: string }; detail?: unknown } | null)
      ?.error;
    throw new ApiError(err?.code ?? "http", err?.message ?? `server answered ${r.status}`, r.status);
  }
  return data as T;
}

export const api = {
  get: <T>(path: string) => call<T>("GET", path),
  post: <T>(path: string, body: unknown) => call<T>("POST", path, body),
};

// --- seats kept by this browser ---------------------------------------------------------------

export interface SeatTicket {
  code: string;
  seat: number;
  token: string;
}

const NAME_KEY = "ubongo.name";

export function savedName(): string {
  return localStorage.getItem(NAME_KEY) ?? "";
}

export function saveName(name: string): void {
  localStorage.setItem(NAME_KEY, name);
}

export function ticketFor(code: string): SeatTicket | null {
  try {
    const raw = localStorage.getItem(`ubongo.seat.${code}`);
    return raw ? (JSON.parse(raw) as SeatTicket) : null;
  } catch {
    return null;
  }
}

export function saveTicket(t: SeatTicket): void {
  localStorage.setItem(`ubongo.seat.${t.code}`, JSON.stringify(t));
}

export function forgetTicket(code: string): void {
  localStorage.removeItem(`ubongo.seat.${code}`);
}

// --- the room connection ----------------------------------------------------------------------

export interface RoomHandlers {
  room(room: Room, event: RoomEvent | null): void;
  verdict(v: Verdict): void;
  error(code: string, message: string, ref: string | null): void;
  status(connected: boolean, note: string): void;
}

export class RoomConnection {
  seat: number | null = null;
  room: Room | null = null;
  private ws: WebSocket | null = null;
  private lastSeq: number | null = null;
  private offset = 0;
  private bestRtt = Infinity;
  private pingId = 0;
  private pingTimer: number | undefined;
  private retry = 0;
  private closed = false;

  constructor(
    readonly code: string,
    private readonly ticket: SeatTicket | null,
    private readonly on: RoomHandlers,
  ) {
    this.open();
  }

  /** Server time now, in ms (the server's clock, as estimated here). */
  now(): number {
    return Date.now() + this.offset;
  }

  send(msg: Record<string, unknown>): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  submit(round: number, placements: Placement[]): boolean {
    return this.send({ type: "submit", round, placements });
  }

  close(): void {
    this.closed = true;
    window.clearInterval(this.pingTimer);
    this.ws?.close(1000);
  }

  private open(): void {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      const hello: Record<string, unknown> = { type: "hello", room: this.code };
      if (this.ticket) hello.token = this.ticket.token;
      else hello.spectate = true;
      if (this.lastSeq !== null) hello.last_seq = this.lastSeq;
      ws.send(JSON.stringify(hello));
      this.retry = 0;
      this.bestRtt = Infinity;
      // a few quick pings for the offset, then one now and then to follow drift
      let quick = 0;
      const burst = window.setInterval(() => {
        this.ping();
        if (++quick >= 4) window.clearInterval(burst);
      }, 150);
      window.clearInterval(this.pingTimer);
      this.pingTimer = window.setInterval(() => this.ping(), 10000);
    });
    ws.addEventListener("message", (m) => this.receive(m.data));
    ws.addEventListener("close", (e) => {
      window.clearInterval(this.pingTimer);
      if (this.closed) return;
      if (e.code === 4001) {
        this.on.status(false, "This seat was opened in another tab.");
        return;
      }
      if (e.code === 4004) {
        this.on.status(false, "The room was closed.");
        return;
      }
      this.on.status(false, "Connection lost, reconnecting…");
      const wait = Math.min(5000, 300 * 2 ** this.retry++);
      window.setTimeout(() => this.open(), wait);
    });
  }

  private ping(): void {
    this.send({ type: "ping", id: ++this.pingId, t: Date.now() });
  }

  private receive(raw: unknown): void {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(String(raw)) as Record<string, unknown>;
    } catch {
      return;
    }
    switch (msg.type) {
      case "welcome": {
        this.seat = (msg.seat as number | null) ?? null;
        this.lastSeq = msg.seq as number;
        this.room = adaptRoom(msg.room as Raw);
        if (typeof msg.server_time === "number" && this.bestRtt === Infinity) {
          this.offset = msg.server_time - Date.now();
        }
        this.on.status(true, "");
        this.on.room(this.room, null);
        break;
      }
      case "event": {
        const seq = msg.seq as number;
        if (this.lastSeq !== null && seq <= this.lastSeq) return; // seen already
        this.lastSeq = seq;
        this.room = adaptRoom(msg.room as Raw);
        const ev: RoomEvent = {
          seq,
          at: msg.at as number,
          kind: msg.kind as string,
          data: (msg.data as Record<string, unknown>) ?? {},
        };
        this.on.room(this.room, ev);
        break;
      }
      case "pong": {
        const sent = msg.t as number;
        const back = Date.now();
        const rtt = back - sent;
        if (rtt < this.bestRtt) {
          this.bestRtt = rtt;
          this.offset = (msg.server_time as number) - (sent + back) / 2;
        }
        break;
      }
      case "verdict":
        this.on.verdict(msg as unknown as Verdict);
        break;
      case "error":
        this.on.error(
          String(msg.code),
          String(msg.message ?? ""),
          (msg.ref as string | null | undefined) ?? null,
        );
        break;
    }
  }
}

export function adaptRoom(raw: Raw): Room {
  return { ...raw, game: normalizeGame(raw.game) } as Room;
}

/** One edition's entry in GET /api/options: its record's menus and what the screens show. */
export interface EditionOptions {
  sides: string[];
  default_side: string;
  per_player_side: boolean;
  players: [number, number];
  variants: string[];
  rounds: number;
  hourglass_seconds: number | null;
  countdown_seconds: Record<string, number> | null;
  solo_goals: string[];
  solo_amounts: number[];
  title: string;
  blurb: string;
  side_labels: Record<string, string>;
  side_word: string;
  key_kind: "die" | "corner" | "card";
  gems: boolean;
  layers: number;
  how_to: string[];
  playable: boolean;
  variant_labels: Record<string, string>;
  solo_default: Record<string, number>;
}

let optionsPromise: Promise<Record<string, EditionOptions>> | null = null;

/** What the server offers per edition (GET /api/options), fetched once. */
export function loadOptions(): Promise<Record<string, EditionOptions>> {
  if (!optionsPromise) {
    optionsPromise = api.get<Record<string, EditionOptions>>("/api/options");
    optionsPromise.catch(() => (optionsPromise = null));
  }
  return optionsPromise;
}
