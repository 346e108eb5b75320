// The room's state, fed by the protocol: the one place that reads what the server sends over
// the room's WebSocket (welcome, events, verdicts, errors), applies it and tells the screens.
// The screens only read the store; net.ts only carries the messages.

import type {
  EventOf,
  GameView,
  HintReply,
  Room,
  RoomEvent,
  RoomEventMessage,
  ServerMessage,
  SpectatorSaid,
  Verdict,
} from "../protocol";

/** A phrase or a line said in the room: who and what (the `chat` event's data), and the event's
 * number (a report names it). */
export type SaidLine = EventOf<"chat">["data"] & { seq: EventOf<"chat">["seq"] };

/** A round's end as the `round_ended` event told it (finish order, awards, solutions). */
export interface RoundEnd {
  round: number;
  data: EventOf<"round_ended">["data"];
}

/** One player's row in a round result: the gems drawn, or what happened to their card
 * (`kept`; `handed` to `to`, the first to finish; `discarded`, back in the box). */
export interface Award {
  seat: string;
  gems?: string[];
  kind?: "kept" | "handed" | "discarded";
  card?: number;
  to?: string | null;
}

/** What the screens are told. */
export interface RoomListener {
  /** a new snapshot (with the event that made it, or `null` for a welcome) */
  changed(room: Room, event: RoomEvent | null, editionChanged: boolean): void;
  verdict(verdict: Verdict): void;
  /** the answer to this player's `hint` */
  hint(reply: HintReply): void;
  error(code: string, message: string, ref: string | null): void;
  /** a player said a quick phrase or a line */
  said(line: SaidLine): void;
  /** a spectator said a quick phrase (only spectators hear these) */
  spectatorSaid(line: SpectatorSaid): void;
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
        if ("room" in msg) {
          this.applyRoom(adaptRoom(msg.room), eventOf(msg));
        } else if (msg.kind === "chat") {
          // a quick phrase changes nothing else: no redraw, only the chat hears it
          this.listener.said({ ...msg.data, seq: msg.seq });
        } else if (this.room) {
          // the spectators' count comes alone: the snapshot we have, with the new count
          this.applyRoom({ ...this.room, spectators: msg.data.count }, eventOf(msg));
        }
        break;
      case "verdict":
        this.listener.verdict(msg);
        break;
      case "hint":
        this.listener.hint(msg);
        break;
      case "error":
        this.listener.error(msg.code, msg.message, msg.ref);
        break;
      case "spectator_said":
        this.listener.spectatorSaid(msg);
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
      const round = ev.data.round;
      this.lastRoundEnd = { round, data: ev.data };
      this.lastAwards = { round, list: awardsOf(ev.data.awards) };
    }
    if (ev.kind === "rematch" || ev.kind === "game_started") this.lastRoundEnd = null;
  }

  /** The event that ended the game (`game_over`, in a race or solo), if this page saw it. */
  gameOverEvent(): EventOf<"game_over"> | undefined {
    for (let i = this.events.length - 1; i >= 0; i--) {
      const e = this.events[i];
      if (e.kind === "game_over") return e;
    }
    return undefined;
  }
}

/** The event as the store keeps it: the message without its type and snapshot. */
function eventOf(msg: RoomEventMessage): RoomEvent {
  // TypeScript loses the tie between kind and data in a rest of a union; it is the same object
  const { type: _type, ...event } = msg;
  if ("room" in event) {
    const { room: _room, ...alone } = event;
    return alone as RoomEvent;
  }
  return event as RoomEvent;
}

/** The game table with an empty gem display (solo's) as none: the screens test `display`. */
export function normalizeGame(game: GameView | null): GameView | null {
  if (!game) return null;
  const display = game.display && Object.keys(game.display).length ? game.display : null;
  return { ...game, display, bag: display ? game.bag : null };
}

function adaptRoom(room: Room): Room {
  return { ...room, game: normalizeGame(room.game) };
}

/** What the rules' "gems" and "cards" events gave out, as one row per player. */
function awardsOf(awards: EventOf<"round_ended">["data"]["awards"]): Award[] {
  if ("gems" in awards) return Object.entries(awards.gems).map(([seat, gems]) => ({ seat, gems }));
  if (!("kept" in awards)) return []; // a tie-break round awards nothing
  const out: Award[] = [];
  const first = awards.first === null ? null : String(awards.first);
  for (const [seat, card] of Object.entries(awards.kept)) out.push({ seat, kind: "kept", card });
  for (const [seat, card] of Object.entries(awards.handed)) {
    out.push({ seat, kind: "handed", card, to: first });
  }
  for (const [seat, card] of Object.entries(awards.discarded)) out.push({ seat, kind: "discarded", card });
  return out;
}
