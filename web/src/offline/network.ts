// Being offline, said once for every screen: a line under the header while the browser has
// no network, naming what needs it. Screens that need the server show `needsNetwork()`.

import { h } from "../dom";
import { language, t } from "../i18n";

/** What the app cannot do without the server (the words every offline notice uses). */
export function onlineOnly(): string {
  return t("offline:onlineOnly");
}

let banner: HTMLElement | null = null;
let bannerLanguage = "";

function update(): void {
  if (!banner) return;
  const offline = !navigator.onLine;
  banner.hidden = !offline;
  document.documentElement.classList.toggle("is-offline", offline);
}

/** The one offline line (the same element on every screen: main.ts puts it in the header). */
export function offlineBanner(): HTMLElement {
  if (!banner) {
    banner = h("p.offline-banner", { role: "status" });
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
  }
  // its words follow the language (the header is drawn anew after a change); not rewritten
  // otherwise: a live region would say them again
  if (bannerLanguage !== language()) {
    bannerLanguage = language();
    banner.replaceChildren(
      h("strong", {}, t("offline:banner.offline")),
      ` ${onlineOnly()} `,
      h("a", { href: "/practice", "data-link": "" }, t("offline:banner.practice")),
      t("offline:banner.worksWithout"),
    );
  }
  update();
  return banner;
}

/** A screen the server is needed for, shown instead of it when it cannot be reached. */
export function needsNetwork(title: string): HTMLElement {
  return h(
    "main.panel.needs-network",
    {},
    h("h1", {}, title),
    h("p", {}, t("offline:needs.unreachable", { onlineOnly: onlineOnly() })),
    h(
      "p.needs-network-actions",
      {},
      h("a.button.primary", { href: "/practice", "data-link": "" }, t("offline:needs.practice")),
      h("button", { type: "button", onclick: () => location.reload() }, t("common:tryAgain")),
    ),
  );
}
