// Home without the server: what works offline (practice, the first-run tutorial) and what
// does not (said plainly, not hidden).

import { h } from "../dom";
import { ONLINE_ONLY } from "./network";

export function offlineHome(): HTMLElement {
  const unavailable = [
    "Play solo (timed, recorded)",
    "Create a room",
    "Join a room",
    "Quick match",
    "Daily challenge",
    "Leaderboards and records",
  ];
  return h(
    "main.panel.offline-home",
    { "aria-labelledby": "offline-title" },
    h("h1#offline-title", {}, "Play offline"),
    h("p", {}, "The server cannot be reached right now. You can still practise: the tasks are kept in this browser."),
    h(
      "p.offline-actions",
      {},
      h("a.button.primary#offline-practice", { href: "/practice", "data-link": "" }, "Practice"),
      h("a.button#offline-tutorial", { href: "/tutorial", "data-link": "" }, "First puzzle (tutorial)"),
    ),
    h("h2", {}, "Needs the network"),
    h("p.muted", {}, ONLINE_ONLY),
    h(
      "ul.needs-network-list",
      {},
      ...unavailable.map((what) => h("li", { "data-needs-network": "" }, what, h("span.tag", {}, "needs the network"))),
    ),
    h("button#offline-retry", { type: "button", onclick: () => location.reload() }, "Try to connect again"),
  );
}
