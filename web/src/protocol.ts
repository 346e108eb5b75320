// The messages and bodies the client and the server exchange (docs/protocol.md), in one place:
// what arrives over the room WebSocket, what the client sends, and the room snapshot's parts.
// The room store (room/store.ts) is the only reader of server messages; when these types are
// generated from the server's schema (protocol.gen.ts), this module is what gets replaced.

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

/** The room snapshot as it comes over the wire: `game` not yet normalized (see room/store.ts). */
export type WireRoom = Omit<Room, "game"> & { game: Record<string, unknown> | null };

/** Server to client over `/ws` (docs/protocol.md, "Server to client"). */
export type ServerMessage =
  | { type: "welcome"; seat: number | null; seq: number; server_time?: number; resumed?: boolean; room: WireRoom }
  | { type: "event"; seq: number; at: number; kind: string; data?: Record<string, unknown>; room: WireRoom }
  | { type: "pong"; id: number; t: number; server_time: number }
  | ({ type: "verdict" } & Verdict)
  | { type: "error"; code: string; message?: string; ref?: string | null };

/** Client to server over `/ws` (docs/protocol.md, "Client to server"). */
export type ClientMessage =
  | { type: "hello"; room: string; token?: string; spectate?: boolean; last_seq?: number }
  | { type: "ping"; id: number; t: number }
  | { type: "settings"; settings: Partial<Settings> }
  | { type: "choose_side"; side: string }
  | { type: "add_bot"; level: string }
  | { type: "remove_bot"; seat: number }
  | { type: "bot_level"; seat: number; level: string }
  | { type: "ready"; ready: boolean }
  | { type: "start" }
  | { type: "submit"; round: number; placements: Placement[] }
  | { type: "skip"; round: number }
  | { type: "rematch" }
  | { type: "leave" };

/** `POST /api/rooms` and `POST /api/rooms/{code}/seats`: the seat taken and its token. */
export interface SeatGrant {
  code: string;
  seat: number;
  token: string;
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
