// The room's WebSocket (docs/protocol.md), and the seats this browser holds (HTTP is api.ts).
// The connection measures the server clock's offset by ping/pong, reconnects with the last
// event number it saw, checks every message against the protocol (check.ts) and hands every
// other one, once, to the room's store (room/store.ts).

import { readMessage } from "./check";
import { t } from "./i18n";
import type { ClientMessage, ServerMessage } from "./protocol";
import { type SeatKey, stored } from "./storage";

// --- seats kept by this browser ---------------------------------------------------------------

export function ticketFor(code: string): SeatKey | null {
  return stored.seat(code).read();
}

export function saveTicket(t: SeatKey): void {
  stored.seat(t.code).write(t);
}

export function forgetTicket(code: string): void {
  stored.seat(code).remove();
}

// --- the room connection ----------------------------------------------------------------------

export interface ConnectionHandlers {
  /** every message but the clock's pongs, once each (an event seen before a reconnect is dropped) */
  message(msg: Exclude<ServerMessage, { type: "pong" }>): void;
  status(connected: boolean, note: string): void;
  /** a message that is not the protocol's arrived (logged with what was wrong) and was dropped;
   * the connection stays open */
  unreadable(): void;
}

export class RoomConnection {
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
    private readonly ticket: SeatKey | null,
    private readonly on: ConnectionHandlers,
  ) {
    this.open();
  }

  /** Server time now, in ms (the server's clock, as estimated here). */
  now(): number {
    return Date.now() + this.offset;
  }

  send(msg: ClientMessage): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close(): void {
    this.closed = true;
    window.clearInterval(this.pingTimer);
    this.ws?.close(1000);
  }

  private open(): void {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // the room's code in the URL too: a load balancer sends every connection of a room to the
    // process that runs it (docs/operations.md); the server reads the hello only
    const room = encodeURIComponent(this.code.slice(0, 5).toUpperCase());
    const ws = new WebSocket(`${proto}//${location.host}/ws?room=${room}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      const hello: ClientMessage = { type: "hello", room: this.code };
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
        this.on.status(false, t("common:openedElsewhere"));
        return;
      }
      if (e.code === 4004) {
        this.on.status(false, t("common:roomClosed"));
        return;
      }
      this.on.status(false, t("common:reconnecting"));
      const wait = Math.min(5000, 300 * 2 ** this.retry++);
      window.setTimeout(() => this.open(), wait);
    });
  }

  private ping(): void {
    this.send({ type: "ping", id: ++this.pingId, t: Date.now() });
  }

  private receive(raw: unknown): void {
    const msg = readMessage(String(raw));
    if (!msg) {
      // logged by readMessage; dropped whole here, so no screen ever reads it
      this.on.unreadable();
      return;
    }
    switch (msg.type) {
      case "welcome":
        this.lastSeq = msg.seq;
        if (typeof msg.server_time === "number" && this.bestRtt === Infinity) {
          this.offset = msg.server_time - Date.now();
        }
        this.on.status(true, "");
        this.on.message(msg);
        break;
      case "event":
        if (this.lastSeq !== null && msg.seq <= this.lastSeq) return; // seen already
        this.lastSeq = msg.seq;
        this.on.message(msg);
        break;
      case "pong": {
        const back = Date.now();
        const rtt = back - msg.t;
        if (rtt < this.bestRtt) {
          this.bestRtt = rtt;
          this.offset = msg.server_time - (msg.t + back) / 2;
        }
        break;
      }
      case "verdict":
      case "hint":
      case "error":
      case "spectator_said":
        this.on.message(msg);
        break;
    }
  }
}
