// The service worker (vite.config.ts builds it with Workbox): registered once the page has
// loaded; once it controls the page, the practice bundle is fetched through it so that it is
// kept for offline. A new build's worker is found when a page loads; it waits while a room is
// open (a line offers "Reload": a game is never swapped under a player's hands) and takes
// over at once anywhere else (the page reloads with the new files, seconds after it opened).

import { registerSW } from "virtual:pwa-register";
import { h } from "../dom";
import { t } from "../i18n";
import { loadBundle } from "./bundle";

/** Registers the service worker (not in `vite` dev mode, which serves no worker). */
export function startServiceWorker(): void {
  if (!("serviceWorker" in navigator) || import.meta.env.DEV) return;
  const update = registerSW({
    onNeedRefresh: () => {
      if (location.pathname.startsWith("/room/")) offerReload(() => void update(true));
      else void update(true);
    },
    onRegisteredSW: () => {
      void keepBundle();
    },
  });
}

/** Fetch the bundle once the worker controls the page: its answer is then in its cache. */
async function keepBundle(): Promise<void> {
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    // the first worker claims the page when it activates (clientsClaim)
    await new Promise<void>((resolve) =>
      navigator.serviceWorker.addEventListener("controllerchange", () => resolve(), { once: true }),
    );
  }
  try {
    await loadBundle();
    document.documentElement.dataset.offlineReady = "true";
  } catch {
    // offline at first visit, or the server refused: the next visit tries again
  }
}

function offerReload(reload: () => void): void {
  if (document.querySelector(".update-banner")) return;
  const banner = h(
    "div.update-banner",
    { role: "status" },
    h("span", {}, t("offline:update.ready")),
    h("button.small", { type: "button", onclick: reload }, t("offline:update.reload")),
    h("button.small", { type: "button", onclick: () => banner.remove() }, t("offline:update.later")),
  );
  document.body.append(banner);
}
