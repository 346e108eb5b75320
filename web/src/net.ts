// Talking to the server: JSON over HTTP, and one WebSocket per room (docs/protocol.md).
// The connection measures the server clock's offset by ping/pong, reconnects with the last
// event number it saw, and hands every other message, once, to the room's store (room/store.ts).

import { readMessage } from "./check";
import { errorText, t } from "./i18n";
import type {
  AccountTicket,
  AccountView,
  ApiErrorBody,
  ClientMessage,
  CreateRoom,
  NewAccount,
  Options,
  QuickMatch,
  Rename,
  SeatGrant,
  ServerMessage,
  TakeSeat,
} from "./protocol";
import { type SeatKey, stored } from "./storage";

export type { SeatKey };

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function call<T>(
  method: string,
  path: string,
  body?: unknown,
  retried = false,
  signal?: AbortSignal,
): Promise<T> {
  const headers: Record<string, string> = body === undefined ? {} : { "content-type": "application/json" };
  const token = account?.token;
  if (token) headers.authorization = `Bearer ${token}`;
  let r: Response;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  } catch {
    if (signal?.aborted) throw new ApiError("aborted", t("errors:aborted"), 0);
    throw new ApiError("offline", t("errors:offline"), 0);
  }
  const text = await r.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!r.ok) {
    // every refusal is an ApiErrorBody; a proxy's error page may be anything
    const err = (data as Partial<ApiErrorBody> | null)?.error;
    if (err?.code === "bad_token" && token && !retried) {
      // the server no longer knows this account (a new database): start a new one, once
      forgetAccount();
      await ensureAccount();
      return call<T>(method, path, body, true, signal);
    }
    throw new ApiError(
      err?.code ?? "http",
      err ? errorText(err.code, err.message) : t("errors:http", { status: r.status }),
      r.status,
    );
  }
  return data as T;
}

export const api = {
  get: <T>(path: string) => call<T>("GET", path),
  /** a POST with one of the protocol's request bodies */
  post: <T>(path: string, body: CreateRoom | TakeSeat | NewAccount) => call<T>("POST", path, body),
  patch: <T>(path: string, body: Rename) => call<T>("PATCH", path, body),
  delete: <T>(path: string) => call<T>("DELETE", path),
  /** waits (a long poll) until seated; aborting the request leaves the queue too */
  quickMatch: (body: QuickMatch, signal: AbortSignal) =>
    call<SeatGrant>("POST", "/api/quickmatch", body, false, signal),
};

// --- this browser's account (docs/accounts.md) --------------------------------------------------

/** The account this browser plays as: made on the first visit; its token is the credential. */
let account: AccountTicket | null = stored.account.read();
let making: Promise<AccountTicket | null> | null = null;

export function currentAccount(): AccountTicket | null {
  return account;
}

function forgetAccount(): void {
  account = null;
  stored.account.remove();
}

/** This browser's account, asked for once if it has none (null if the server refuses: the
 * game still plays, its records then kept by name). */
export function ensureAccount(): Promise<AccountTicket | null> {
  if (account) return Promise.resolve(account);
  making ??= call<AccountTicket>("POST", "/api/accounts", savedName() ? { name: savedName() } : {}, true)
    .then((made) => {
      account = made;
      stored.account.write(made);
      return made;
    })
    .catch(() => null)
    .finally(() => {
      making = null;
    });
  return making;
}

// --- seats kept by this browser ---------------------------------------------------------------

export function savedName(): string {
  return stored.name.read() ?? account?.name ?? "";
}

/** The name typed in: kept here, and the account takes it too (records show the account's). */
export function saveName(name: string): void {
  stored.name.write(name);
  const mine = account;
  if (mine && name && name !== mine.name) {
    api.patch<AccountView>("/api/accounts/me", { name }).then(
      (renamed) => {
        account = { ...mine, name: renamed.name };
        stored.account.write(account);
      },
      () => undefined, // kept as typed; the next save tries again
    );
  }
}

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
        this.on.message(msg);
        break;
    }
  }
}

let optionsPromise: Promise<Options> | null = null;

/** What the server offers per edition (GET /api/options), fetched once. */
export function loadOptions(): Promise<Options> {
  if (!optionsPromise) {
    optionsPromise = api.get<Options>("/api/options");
    optionsPromise.catch(() => (optionsPromise = null));
  }
  return optionsPromise;
}
