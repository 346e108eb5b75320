// The Ubongo web client: a tiny router over five screens (home, room, replay, profile, not
// found).
// Rooms carry their own sub-screens (lobby, game, round result, game end, solo).

import "./style.css";
import "./styles/phone.css";
import { h } from "./dom";
import { loadEditions } from "./editions";
import { cellAt, nearestTranslation, outline, translationVector } from "./geometry";
import { homeScreen } from "./home";
import { ensureAccount } from "./net";
import { profileScreen } from "./profile";
import { replayScreen } from "./replay";
import { roomScreen } from "./room";
import { logo } from "./ui";

// the lattice formulas, for the browser console and for tests/web/test_geometry.py
Object.assign(window, { ubongoGeometry: { outline, cellAt, nearestTranslation, translationVector } });

const app = mountPoint();
let dispose: (() => void) | null = null;

function go(path: string, replace = false): void {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  route();
}

function route(): void {
  dispose?.();
  dispose = null;
  const path = location.pathname;
  const header = h("header.app-header", {}, logo());
  const room = path.match(/^\/room\/([A-Za-z0-9]+)\/?$/);
  const replay = path.match(/^\/replay\/([0-9]+)\/?$/);
  const profile = path.match(/^\/profile\/([0-9]+)\/?$/);
  let body: HTMLElement;
  if (room) {
    const screen = roomScreen(room[1].toUpperCase(), go);
    dispose = screen.dispose;
    body = screen.element;
  } else if (replay) {
    const screen = replayScreen(replay[1]);
    dispose = screen.dispose;
    body = screen.element;
  } else if (profile) {
    body = profileScreen(profile[1]);
  } else if (path === "/" || path === "/index.html") {
    body = homeScreen(go);
  } else {
    body = h("main.panel", {}, h("h1", {}, "Nothing here"), h("p", {}, h("a", { href: "/", "data-link": "" }, "Home")));
  }
  app.replaceChildren(header, body);
  window.scrollTo(0, 0);
}

// links marked data-link navigate inside the app
document.addEventListener("click", (e) => {
  const a = (e.target as Element | null)?.closest?.("a[data-link]") as HTMLAnchorElement | null;
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  go(a.getAttribute("href") ?? "/");
});
// every screen reads the editions, which come from the server: draw once they are here
// the account comes with the first visit (records belong to it); the page does not wait for it
void ensureAccount();
loadEditions().then(
  () => {
    window.addEventListener("popstate", route);
    route();
  },
  () => {
    const retry = h("button", { type: "button", onclick: () => location.reload() }, "Try again");
    app.replaceChildren(h("main.panel", {}, h("h1", {}, "The server cannot be reached"), retry));
  },
);

/** The element the app draws into (index.html's `#app`). */
function mountPoint(): HTMLElement {
  const el = document.getElementById("app");
  if (!el) throw new Error("index.html has no #app element");
  return el;
}
