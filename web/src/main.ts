// The Ubongo web client: a tiny router over its screens (home, room, arena, replay, profile,
// rules, practice, tutorial, the puzzle editor, not found).
// Rooms carry their own sub-screens (lobby, game, round result, game end, solo).

import "./style.css";
import "./styles/phone.css";
import "./styles/dark.css";
import "./styles/focus.css";
import "./styles/i18n.css";
import "./styles/motion.css";
import "./styles/rules.css";
import "./styles/settings.css";
import "./styles/findings.css";
import "./styles/social.css";
import "./styles/solution.css";
import "./styles/table.css";
import "./styles/editor.css";
import { ensureAccount } from "./api";
import { arenaScreen } from "./arena";
import { startArenaNotices } from "./arenas";
import { h } from "./dom";
import { loadEditions } from "./editions";
import { editorScreen } from "./editor";
import { cellAt, nearestTranslation, outline, translationVector } from "./geometry";
import { homeScreen } from "./home";
import { language, languagePicker, onLanguageChange, t } from "./i18n";
import "./offline/offline.css";
import { sayHere, startNotices } from "./notices";
import { offlineHome } from "./offline/home";
import { needsNetwork, offlineBanner } from "./offline/network";
import { practiceScreen } from "./offline/practice";
import { startServiceWorker } from "./offline/pwa";
import { profileScreen } from "./profile";
import { puzzlesScreen } from "./puzzle/list";
import { packScreen } from "./puzzle/pack";
import { puzzleScreen } from "./puzzle/page";
import { replayFileScreen, replayScreen } from "./replay";
import { roomScreen } from "./room";
import { rulesScreen } from "./rules";
import { applyTheme, settingsMenu } from "./settings";
import { bell, startChallenges } from "./social";
import { solutionScreen } from "./solution";
import { tableScreen } from "./table";
import { helpMenu, tutorialOffer, tutorialScreen } from "./tutorial";
import { logo } from "./ui";
import { versusScreen } from "./versus";

// the lattice formulas, for the browser console and for tests/web/test_geometry.py
Object.assign(window, { ubongoGeometry: { outline, cellAt, nearestTranslation, translationVector } });

// the colours first: the system's or the player's choice (settings.ts, styles/dark.css)
applyTheme();
const app = mountPoint();
let dispose: (() => void) | null = null;
/** the current screen's own redraw in a new language (a room keeps its game); else it is drawn anew */
let relabel: (() => void) | null = null;
// false when the editions could not be loaded (no network, no server): only the screens that
// play from the practice bundle work then (issue 14, offline)
let online = true;

function go(path: string, replace = false): void {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  route();
}

/** The page header: the logo, Help, the language, the settings and the offline banner. */
function appHeader(): HTMLElement {
  return h(
    "header.app-header",
    {},
    skipLink(),
    logo(),
    helpMenu(),
    online ? bell() : null,
    languagePicker(),
    settingsMenu(),
    offlineBanner(),
  );
}

/** The first Tab stop of every page, shown when focused: past the header to the page's own
 * content (a keyboard player's way round the header's menus). */
function skipLink(): HTMLElement {
  const link = h("a.skip-link", { href: "#main" }, t("common:skipToContent"));
  link.addEventListener("click", (e) => {
    e.preventDefault();
    const main = app.querySelector<HTMLElement>("main");
    if (!main) return;
    if (!main.hasAttribute("tabindex")) main.tabIndex = -1;
    main.focus();
  });
  return link;
}

function route(): void {
  dispose?.();
  dispose = null;
  relabel = null;
  const path = location.pathname;
  const header = appHeader();
  const room = path.match(/^\/room\/([A-Za-z0-9]+)\/?$/);
  const replay = path.match(/^\/replay\/([0-9]+)\/?$/);
  const profile = path.match(/^\/profile\/([0-9]+)\/?$/);
  const arena = path.match(/^\/arena\/([A-Za-z0-9]+)\/?$/);
  const saved = path.match(/^\/puzzle\/([A-Za-z0-9_-]+)\/?$/);
  const pack = path.match(/^\/pack\/([A-Za-z0-9_-]+)\/?$/);
  const rules = path.match(/^\/rules\/([^/]+)\/?$/);
  const edition = new URLSearchParams(location.search).get("edition");
  // friends see the room this page shows: its short code, never an invite's secret
  sayHere(room ? room[1].slice(0, 5).toUpperCase() : null);
  let body: HTMLElement;
  let offer: HTMLElement | null = null;
  if (path === "/versus" || path === "/versus/") {
    // two to four players on one screen, from the practice bundle: offline too (issue 28)
    const screen = versusScreen();
    dispose = screen.dispose;
    relabel = screen.relabel;
    body = screen.element;
  } else if (path === "/practice" || path === "/tutorial") {
    const screen = path === "/practice" ? practiceScreen(edition) : tutorialScreen(edition, go);
    dispose = screen.dispose;
    body = screen.element;
  } else if (!online) {
    const what = room || arena ? "room" : replay ? "replay" : profile ? "profile" : null;
    body = what ? needsNetwork(t(`offline:needs.${what}`)) : offlineHome();
  } else if (room) {
    const screen = roomScreen(room[1].toUpperCase(), go);
    dispose = screen.dispose;
    relabel = screen.relabel;
    body = screen.element;
  } else if (arena) {
    const screen = arenaScreen(arena[1], go);
    dispose = screen.dispose;
    body = screen.element;
  } else if (path === "/create" || path === "/create/") {
    // the puzzle editor (issue 27, docs/editor.md)
    const screen = editorScreen(edition);
    dispose = screen.dispose;
    body = screen.element;
  } else if (pack) {
    // a pack of saved puzzles: a solo run, a room to race it, its file (docs/editor.md)
    const screen = packScreen(pack[1], go);
    dispose = screen.dispose;
    body = screen.element;
  } else if (saved || path === "/puzzles" || path === "/puzzles/") {
    // saved puzzles: one by its link, and the community list (issue 27, docs/editor.md)
    const query = new URLSearchParams(location.search);
    const screen = saved ? puzzleScreen(saved[1]) : puzzlesScreen(edition, query.get("sort"));
    dispose = screen.dispose;
    body = screen.element;
  } else if (path === "/table" || path === "/table/") {
    const screen = tableScreen();
    dispose = screen.dispose;
    relabel = screen.relabel;
    body = screen.element;
  } else if (path === "/solution" || path === "/solution/") {
    // a printed task's solution by its code (issue 28, docs/web.md)
    const screen = solutionScreen(new URLSearchParams(location.search).get("code"));
    dispose = screen.dispose;
    body = screen.element;
  } else if (path === "/replay/file") {
    body = replayFileScreen();
  } else if (replay) {
    const screen = replayScreen(replay[1]);
    dispose = screen.dispose;
    relabel = screen.relabel;
    body = screen.element;
  } else if (profile) {
    body = profileScreen(profile[1]);
  } else if (rules) {
    // the language shown, unless the address asks for another (?lang=, a link to share)
    const lang = new URLSearchParams(location.search).get("lang") ?? language();
    body = rulesScreen(decodeURIComponent(rules[1]), lang);
  } else if (path === "/" || path === "/index.html") {
    body = homeScreen(go);
    offer = tutorialOffer(go);
  } else {
    body = h(
      "main.panel",
      {},
      h("h1", {}, t("common:nothingHere")),
      h("p", {}, h("a", { href: "/", "data-link": "" }, t("common:home"))),
    );
  }
  app.replaceChildren(...[header, offer, body].filter((el) => el !== null));
  window.scrollTo(0, 0);
}

// a new language: the header is drawn anew; the screen redraws itself (a room keeps its game and
// its connection) or, having nothing to lose, is drawn anew
onLanguageChange(() => {
  if (!relabel) {
    const y = window.scrollY;
    route();
    window.scrollTo(0, y);
    return;
  }
  app.querySelector(".app-header")?.replaceWith(appHeader());
  relabel();
});

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
    // challenges and friends' whereabouts (docs/social.md): after the first screen is drawn
    startChallenges(go);
    startArenaNotices(go);
    startNotices();
  },
  () => {
    // no server: the practice bundle (kept by the service worker) still plays
    online = false;
    window.addEventListener("popstate", route);
    route();
  },
);
startServiceWorker();

/** The element the app draws into (index.html's `#app`). */
function mountPoint(): HTMLElement {
  const el = document.getElementById("app");
  if (!el) throw new Error("index.html has no #app element");
  return el;
}
