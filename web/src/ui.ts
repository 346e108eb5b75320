// Small shared pieces of the screens: edition facts, the die, corners, gems, times, toasts.

import { h, svg } from "./dom";
import { editionInfo, GEM_VALUES } from "./editions";
import { t } from "./i18n";
import type { Gems } from "./protocol";

// the editions are the server's (GET /api/options): see editions.ts
export { EDITIONS, type EditionInfo, editionInfo, GEM_VALUES } from "./editions";

const PIPS: Record<string, [number, number][]> = {
  "1": [[2, 2]],
  "2": [
    [1, 1],
    [3, 3],
  ],
  "3": [
    [1, 1],
    [2, 2],
    [3, 3],
  ],
  "4": [
    [1, 1],
    [3, 1],
    [1, 3],
    [3, 3],
  ],
  "5": [
    [1, 1],
    [3, 1],
    [2, 2],
    [1, 3],
    [3, 3],
  ],
  "6": [
    [1, 1],
    [3, 1],
    [1, 2],
    [3, 2],
    [1, 3],
    [3, 3],
  ],
};

/** The die face (pips) or the corner in use, as a small picture with a text alternative. */
export function keyBadge(edition: string, key: string | null): HTMLElement {
  const info = editionInfo(edition);
  const box = h("div.key-badge", { title: keyText(edition, key) });
  if (!key) return box;
  if (info.keyKind === "die" && PIPS[key]) {
    const s = svg("svg", { viewBox: "0 0 4 4", class: "die", role: "img", "aria-label": t("common:die", { key }) });
    s.appendChild(svg("rect", { x: 0.2, y: 0.2, width: 3.6, height: 3.6, rx: 0.7, class: "die-body" }));
    for (const [x, y] of PIPS[key]) s.appendChild(svg("circle", { cx: x, cy: y, r: 0.38, class: "pip" }));
    box.appendChild(s);
  } else if (info.keyKind === "corner") {
    const s = svg("svg", {
      viewBox: "0 0 6 4",
      class: "corner",
      role: "img",
      "aria-label": t(`common:corners.${key}`, { defaultValue: key }),
    });
    s.appendChild(svg("rect", { x: 0.2, y: 0.2, width: 5.6, height: 3.6, rx: 0.4, class: "card-body" }));
    const [top, left] = [key.startsWith("upper"), key.endsWith("left")];
    s.appendChild(svg("circle", { cx: left ? 1.2 : 4.8, cy: top ? 1.2 : 2.8, r: 0.75, class: "corner-dot" }));
    box.appendChild(s);
  }
  box.appendChild(h("span.key-text", {}, keyText(edition, key)));
  return box;
}

export function keyText(edition: string, key: string | null): string {
  if (!key) return "";
  const kind = editionInfo(edition).keyKind;
  if (kind === "die") return t("common:dieFace", { key });
  if (kind === "corner") return t("common:corner", { corner: t(`common:corners.${key}`, { defaultValue: key }) });
  // no die, no corner: the card shows one task (Trigo: both of its areas, filled together)
  return t("common:noDieWholeCard");
}

export const GEM_COLOURS: Record<string, string> = {
  ruby: "#d7263d",
  sapphire: "#1b63c6",
  emerald: "#1f9e5a",
  amber: "#a8620a",
};
/** The rulebooks' words for a gem, its colour first as players at the table say it ("red
 * ruby"; common:gemWords in the locale files). */
function gemName(name: string): string {
  return t(`common:gemWords.${name}`, { defaultValue: name });
}

/** "blue sapphire (3)": a gem as a newcomer reads it, colour, name and points. */
export function gemWords(name: string): string {
  const value = GEM_VALUES[name];
  return value !== undefined ? t("common:gemWithValue", { gem: gemName(name), value }) : gemName(name);
}

/** "a blue sapphire (3)": the gem as the object of a sentence ("took a blue sapphire (3)";
 * German declines it: "einen blauen Saphir (3)"). */
export function aGemWords(name: string): string {
  const value = GEM_VALUES[name];
  const words = t(`common:aGem.${name}`, { defaultValue: name });
  return value !== undefined ? t("common:gemWithValue", { gem: words, value }) : words;
}

/** The gem drawn as a gem in its colour, its points written on it. */
export function gem(name: string, extra = ""): HTMLElement {
  const value = GEM_VALUES[name];
  const label = value !== undefined ? t("common:gemLabel", { gem: gemName(name), count: value }) : gemName(name);
  const el = h(`span.gem.gem-${name}${extra ? `.${extra}` : ""}` as "span", {
    title: label,
    role: "img",
    "aria-label": label,
    "data-gem": name,
  });
  const s = svg("svg", { viewBox: "0 0 10 10", "aria-hidden": "true" });
  s.appendChild(svg("polygon", { points: "5,0.6 9.4,3.8 7.6,9.4 2.4,9.4 0.6,3.8", fill: GEM_COLOURS[name] ?? "#888" }));
  s.appendChild(svg("polygon", { points: "5,0.6 7,3.8 5,9.4 3,3.8", fill: "rgba(255,255,255,0.28)" }));
  el.appendChild(s);
  // the points on the gem; a gem without a value shows its letter
  const mark = value !== undefined ? String(value) : t(`common:gemLetters.${name}`, { defaultValue: name[0] });
  el.appendChild(h("span.gem-letter", { "aria-hidden": "true" }, mark));
  return el;
}

/** Points of a collection of gems (by gem name). */
export function gemPoints(gems: Record<string, number> | string[]): number {
  const counts = Array.isArray(gems) ? gems.map((g) => [g, 1] as const) : Object.entries(gems);
  return counts.reduce((sum, [name, n]) => sum + (GEM_VALUES[name] ?? 0) * n, 0);
}

/** The gems' values as a key: each gem drawn with its points ("what a gem is worth"). */
export function gemKey(): HTMLElement {
  const key = h("p.gem-key", {}, h("span.muted", {}, `${t("common:gemValues")} `));
  for (const name of Object.keys(GEM_VALUES)) key.append(h("span.gem-count", {}, gem(name), ` ${gemWords(name)}`));
  return key;
}

/** A player's gems as icons with counts; `none` is said when there are none ("no gems yet"
 * during a game, "no gems" at its end). */
export function gemRow(
  gems: Gems | Record<string, number> | null | undefined,
  none = t("common:noGemsYet"),
): HTMLElement {
  const row = h("span.gem-row");
  if (!gems) return row;
  for (const name of Object.keys(GEM_VALUES)) {
    const n = (gems as Record<string, number>)[name] ?? 0;
    if (n > 0) row.append(h("span.gem-count", {}, gem(name), `×${n}`));
  }
  if (!row.childElementCount) row.append(h("span.muted", {}, none));
  return row;
}

export function placeText(place: number): string {
  return t("common:place", { count: place, ordinal: true });
}

export function clock(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

let toastTimer: number | undefined;

export function toast(text: string, kind: "" | "good" | "bad" = ""): void {
  const el =
    document.getElementById("toast") ??
    document.body.appendChild(h("div#toast", { role: "status", "aria-live": "polite" }));
  el.textContent = text;
  el.dataset.kind = kind;
  el.classList.add("show");
  window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => el.classList.remove("show"), 3200);
}

export function logo(): HTMLElement {
  const s = svg("svg", { viewBox: "0 0 5 3", class: "logo-mark", "aria-hidden": "true" });
  s.appendChild(svg("path", { d: "M0 0h2v1h1v2H1V2H0z", fill: "#e1523a" }));
  s.appendChild(svg("path", { d: "M2 0h3v1H4v2H3V1H2z", fill: "#2da2e2" }));
  return h("a.logo", { href: "/", "data-link": "" }, s, h("span", {}, "Ubongo"));
}

/** An hourglass, the sand running (CSS) while a round's clock runs. */
export function hourglass(): SVGElement {
  const s = svg("svg", { viewBox: "0 0 10 14", class: "hourglass", "aria-hidden": "true" });
  s.appendChild(svg("path", { d: "M1 0.5h8M1 13.5h8", class: "hg-frame" }));
  s.appendChild(svg("path", { d: "M2 1c0 4 3 4.5 3 6s-3 2-3 6h6c0-4-3-4.5-3-6s3-2 3-6z", class: "hg-glass" }));
  s.appendChild(svg("path", { d: "M3 3.2h4c-0.6 1.6-2 2.2-2 3.2c0-1-1.4-1.6-2-3.2z", class: "hg-sand-top" }));
  s.appendChild(svg("path", { d: "M2.6 12.6h4.8c-0.4-1.6-1.6-2.6-2.4-2.6s-2 1-2.4 2.6z", class: "hg-sand-bottom" }));
  return s;
}

/** A small card (Extreme, Trigo scores). */
export function cardIcon(): SVGElement {
  const s = svg("svg", { viewBox: "0 0 10 14", class: "card-icon", "aria-hidden": "true" });
  s.appendChild(svg("rect", { x: 0.7, y: 0.7, width: 8.6, height: 12.6, rx: 1.4 }));
  return s;
}

/** "2 watching", with an eye: how many spectators the room has (event `spectators`); nothing
 * when nobody watches. */
export function watchers(count: number): HTMLElement | null {
  if (!count) return null;
  const eye = svg("svg", { viewBox: "0 0 16 10", class: "eye", "aria-hidden": "true" });
  eye.appendChild(
    svg("path", { d: "M0.8 5C3 1.6 5.4 0.8 8 0.8S13 1.6 15.2 5C13 8.4 10.6 9.2 8 9.2S3 8.4 0.8 5z", class: "eye-lid" }),
  );
  eye.appendChild(svg("circle", { cx: 8, cy: 5, r: 2.3, class: "eye-pupil" }));
  return h(
    "span.watchers#watchers",
    { title: t("common:spectatorsWatching", { count }), "data-count": count },
    eye,
    t("common:watching", { count }),
  );
}
