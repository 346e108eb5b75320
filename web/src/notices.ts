// The notice socket (`/ws/notices`, docs/social.md): one per page of a player with an account. It
// says hello with the account's token, tells the server which room the page shows (friends see
// it), and hands every notice, checked against the protocol (check.ts), to the modules that
// listen (the bell, the friends list). It reconnects by itself, waiting longer each time.

import { currentAccount, ensureAccount } from "./api";
import { read, UNREADABLE } from "./check";
import type { Notice } from "./protocol";

type Listener = (notice: Notice) => void;

/** how often an open socket says where its page is, though nothing changed */
const KEEP_ALIVE_MS = 45000;
const listeners = new Set<Listener>();
let socket: WebSocket | null = null;
let room: string | null = null;
let retry = 0;
let started = false;

/** Open the page's notice socket (once; after the account exists). */
export function startNotices(): void {
  if (started) return;
  started = true;
  void ensureAccount().then((account) => {
    if (account) open();
  });
}

/** Hear every notice until the returned function is called. */
export function onNotice(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The room this page shows now (or none): friends see it. */
export function sayHere(code: string | null): void {
  room = code;
  send();
}

function send(): void {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "here", room }));
}

function open(): void {
  const account = currentAccount();
  if (!account) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/notices`);
  socket = ws;
  ws.addEventListener("open", () => {
    ws.send(JSON.stringify({ type: "hello", token: account.token }));
    send();
  });
  // a quiet socket is closed by proxies (nginx's read timeout: 90 s): say where it is now and then
  const alive = window.setInterval(send, KEEP_ALIVE_MS);
  ws.addEventListener("message", (m) => receive(String(m.data)));
  ws.addEventListener("close", () => {
    window.clearInterval(alive);
    if (socket !== ws) return;
    socket = null;
    // the server restarted, the network dropped, or the page read too slowly: again, later
    const wait = Math.min(30000, 1000 * 2 ** retry++);
    window.setTimeout(open, wait);
  });
}

function receive(text: string): void {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = text;
  }
  const reading = read("Notice", data);
  if (!reading.ok) {
    console.error(`${UNREADABLE} notice from the server: ${reading.problem.message}`); // i18n-ignore
    return;
  }
  if (reading.value.type === "welcome") retry = 0;
  for (const listener of listeners) listener(reading.value);
}
