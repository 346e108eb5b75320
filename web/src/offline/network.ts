// Being offline, said once for every screen: a line under the header while the browser has
// no network, naming what needs it. Screens that need the server show `needsNetwork()`.

import { h } from "../dom";

/** What the app cannot do without the server (the words every offline notice uses). */
export const ONLINE_ONLY = "Rooms, quick match, the daily challenge and records need the network.";

let banner: HTMLElement | null = null;

function update(): void {
  if (!banner) return;
  const offline = !navigator.onLine;
  banner.hidden = !offline;
  document.documentElement.classList.toggle("is-offline", offline);
}

/** The one offline line (the same element on every screen: main.ts puts it in the header). */
export function offlineBanner(): HTMLElement {
  if (!banner) {
    banner = h(
      "p.offline-banner",
      { role: "status" },
      h("strong", {}, "You are offline. "),
      `${ONLINE_ONLY} `,
      h("a", { href: "/practice", "data-link": "" }, "Practice"),
      " works without it.",
    );
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
  }
  update();
  return banner;
}

/** A screen the server is needed for, shown instead of it when it cannot be reached. */
export function needsNetwork(what: string): HTMLElement {
  return h(
    "main.panel.needs-network",
    {},
    h("h1", {}, `${what} needs the network`),
    h("p", {}, `The server cannot be reached. ${ONLINE_ONLY}`),
    h(
      "p.needs-network-actions",
      {},
      h("a.button.primary", { href: "/practice", "data-link": "" }, "Practice offline"),
      h("button", { type: "button", onclick: () => location.reload() }, "Try again"),
    ),
  );
}
