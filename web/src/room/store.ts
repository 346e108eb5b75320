// The room's state, fed by the protocol: the one place that reads what the server sends over
// the room's WebSocket (welcome, events, verdicts, errors), applies it and tells the screens.
// The screens only read the store; net.ts only carries the messages.

import type { GameView, Room, RoomEvent, ServerMessage, Verdict, WireRoom } from "../protocol";

/** A round's end as the `round_ended` event told it (finish order, awards, solutions). */
export interface RoundEnd {
  round: number;
  data: Record<string, unknown>;
}

/** One player's row in a round result: the gems drawn, or what happened to their card. */
export interface Award {
  seat: string;
  gems?: string[];
  kind?: string;
  card?: number;
  to?: string | null;
}

/** What the screens are told. */
export interface RoomListener {
  /** a new snapshot (with the event that made it, or `null` for a welcome) */
  changed(room: Room, event: RoomEvent | null, editionChanged: boolean): void;
  verdict(verdict: Verdict): void;
  error(code: string, message: string, ref: string | null): void;
}

export class RoomStore {
  /** the latest snapshot */
  room: Room | null = null;
  /** this browser's seat, `null` for a spectator (from the welcome) */
  seat: number | null = null;
  /** every event since this page joined, oldest first */
  readonly events: RoomEvent[] = [];
  /** the last `round_ended` of this game */
  lastRoundEnd: RoundEnd | null = null;
  /** what that round gave out */
  lastAwards: { round: number; list: Award[] } | null = null;

  constructor(private readonly listener: RoomListener) {}

  get isHost(): boolean {
    return this.room !== null && this.seat !== null && this.room.host === this.seat;
  }

  /** Apply one message from the server and tell the screens. */
  receive(msg: ServerMessage): void {
    switch (msg.type) {
      case "welcome":
        this.seat = msg.seat ?? null;
        this.applyRoom(adaptRoom(msg.room), null);
        break;
      case "event":
        this.applyRoom(adaptRoom(msg.room), { seq: msg.seq, at: msg.at, kind: msg.kind, data: msg.data ?? {} });
        break;
      case "verdict":
        this.listener.verdict(msg);
        break;
      case "error":
        this.listener.error(String(msg.code), String(msg.message ?? ""), msg.ref ?? null);
        break;
      case "pong":
        break; // the connection's clock
    }
  }

  private applyRoom(room: Room, ev: RoomEvent | null): void {
    const editionChanged = this.room?.settings.edition !== room.settings.edition;
    this.room = room;
    if (ev) this.applyEvent(ev);
    this.listener.changed(room, ev, editionChanged);
  }

  private applyEvent(ev: RoomEvent): void {
    this.events.push(ev);
    if (ev.kind === "round_ended") {
      const round = Number(ev.data.round);
      this.lastRoundEnd = { round, data: ev.data };
      if (ev.data.awards) this.lastAwards = { round, list: awardsOf(ev.data.awards as Record<string, unknown>) };
    }
    if (ev.kind === "rematch" || ev.kind === "game_started") this.lastRoundEnd = null;
  }

  /** The event that ended the game (`game_over`, or `solo_over`), if this page saw it. */
  gameOverEvent(): RoomEvent | undefined {
    return [...this.events].reverse().find((e) => e.kind === "game_over" || e.kind === "solo_over");
  }
}

/** The game table as the server sends it (docs/protocol.md, "The game table"). */
export function normalizeGame(raw: Record<string, unknown> | null): GameView | null {
  if (!raw) return null;
  const shown = raw.display as Record<string, number> | null | undefined;
  const display = shown && Object.keys(shown).length ? shown : null;
  return {
    turn: raw.round,
    solutions: {},
    winners: [],
    ...raw,
    display,
    bag: display ? raw.bag : null,
  } as unknown as GameView;
}

function adaptRoom(raw: WireRoom): Room {
  return { ...raw, game: normalizeGame(raw.game) };
}

/** What the rules' "gems" and "cards" events gave out, as one row per player. */
function awardsOf(d: Record<string, unknown>): Award[] {
  const gems = d.gems ?? d.rewards;
  if (gems && typeof gems === "object") {
    return Object.entries(gems as Record<string, string[]>).map(([seat, g]) => ({ seat, gems: g }));
  }
  const out: Award[] = [];
  const first = d.first === null || d.first === undefined ? null : String(d.first);
  for (const [seat, card] of Object.entries((d.kept ?? {}) as Record<string, number>)) {
    out.push({ seat, kind: "keeps card", card });
  }
  for (const [seat, card] of Object.entries((d.handed ?? {}) as Record<string, number>)) {
    out.push({ seat, kind: "hands over card", card, to: first });
  }
  for (const [seat, card] of Object.entries((d.discarded ?? {}) as Record<string, number>)) {
    out.push({ seat, kind: "discards card", card });
  }
  return out;
}
