// Home without the server: what works offline (practice, the first-run tutorial) and what
// does not (said plainly, not hidden).

import { h } from "../dom";
import { t } from "../i18n";
import { onlineOnly } from "./network";

export function offlineHome(): HTMLElement {
  const unavailable = ["solo", "create", "join", "quick", "daily", "records"].map((k) =>
    t(`offline:home.unavailable.${k}`),
  );
  return h(
    "main.panel.offline-home",
    { "aria-labelledby": "offline-title" },
    h("h1#offline-title", {}, t("offline:home.title")),
    h("p", {}, t("offline:home.lead")),
    h(
      "p.offline-actions",
      {},
      h("a.button.primary#offline-practice", { href: "/practice", "data-link": "" }, t("offline:home.practice")),
      h("a.button#offline-tutorial", { href: "/tutorial", "data-link": "" }, t("offline:home.tutorial")),
      // local versus plays from the bundle too (issue 28)
      h("a.button#offline-versus", { href: "/versus", "data-link": "" }, t("versus:title")),
    ),
    h("h2", {}, t("offline:home.needsTitle")),
    h("p.muted", {}, onlineOnly()),
    h(
      "ul.needs-network-list",
      {},
      ...unavailable.map((what) =>
        h("li", { "data-needs-network": "" }, what, h("span.tag", {}, t("offline:home.needsTag"))),
      ),
    ),
    h("button#offline-retry", { type: "button", onclick: () => location.reload() }, t("offline:home.retry")),
  );
}
