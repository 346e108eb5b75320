// What a screen reader says of the live game: one polite live region (role="status") for the
// whole page, spoken when its words change. Callers say little and seldom (the clock each
// minute and in the last seconds, who called "Ubongo!", the round's result): no flood.

import { h } from "./dom";

let region: HTMLElement | null = null;

function liveRegion(): HTMLElement {
  if (region && document.body.contains(region)) return region;
  region = h("div.visually-hidden#announcer", { role: "status", "aria-live": "polite", "aria-atomic": "true" });
  document.body.append(region);
  return region;
}

/** Have screen readers say `text` (politely: after what they are saying now). */
export function announce(text: string): void {
  const el = liveRegion();
  // the same words twice in a row are spoken again only if the region changes in between
  if (el.textContent === text) el.textContent = "";
  window.setTimeout(() => {
    el.textContent = text;
  }, 30);
}
