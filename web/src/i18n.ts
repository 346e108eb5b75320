// The client's languages (i18next): every visible string is a key in web/src/locales/<lang>/<area>.json,
// one file per screen or area so that work on different screens merges cleanly. The language is
// the one the player picked (kept by storage.ts), else the browser's first one we have, else
// English; `<html lang>` always follows the language shown. Switching tells the screens
// (onLanguageChange), which redraw themselves without leaving the game.

import i18next, { type TOptions } from "i18next";
import { h } from "./dom";
import { stored } from "./storage";

/** The languages the client speaks, each named in its own language (the picker's options). */
export const LANGUAGES: readonly { code: string; name: string }[] = [
  { code: "en", name: "English" },
  { code: "de", name: "Deutsch" },
];

type Resources = Record<string, Record<string, Record<string, unknown>>>;

/** Every locale file, bundled: `./locales/de/home.json` is language "de", namespace "home". */
function resources(): Resources {
  const files = import.meta.glob("./locales/*/*.json", { eager: true, import: "default" }) as Record<
    string,
    Record<string, unknown>
  >;
  const out: Resources = {};
  for (const [path, data] of Object.entries(files)) {
    const m = /\/locales\/([\w-]+)\/([\w-]+)\.json$/.exec(path);
    if (!m) continue;
    out[m[1]] ??= {};
    out[m[1]][m[2]] = data;
  }
  return out;
}

/** The language to start in: the saved choice, else the browser's first language we have. */
function initialLanguage(): string {
  const known = LANGUAGES.map((l) => l.code);
  const saved = stored.language.read();
  if (saved && known.includes(saved)) return saved;
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of wanted) {
    const base = (tag ?? "").toLowerCase().split("-")[0];
    if (known.includes(base)) return base;
  }
  return "en";
}

const res = resources();
void i18next.init({
  resources: res,
  lng: initialLanguage(),
  fallbackLng: "en",
  supportedLngs: LANGUAGES.map((l) => l.code),
  ns: Object.keys(res.en ?? {}),
  defaultNS: "common",
  interpolation: { escapeValue: false }, // the DOM helpers set text, never HTML
  returnNull: false,
  initAsync: false, // the resources are bundled: ready before the first screen is drawn
});
document.documentElement.lang = i18next.language;

/** The text of `key` ("area:key.path") in the language shown; `count` picks the plural form. */
export function t(key: string, options?: TOptions): string {
  return String(i18next.t(key, options as TOptions));
}

/** Whether `key` has a text (in the language shown or English). */
export function hasKey(key: string): boolean {
  return i18next.exists(key);
}

/** The language shown ("en", "de"). */
export function language(): string {
  return i18next.language;
}

const listeners = new Set<() => void>();

/** Call `f` after every change of language; returns the way to stop. */
export function onLanguageChange(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Show the client in `code`, remember the choice, and let the screens redraw. */
export function setLanguage(code: string): void {
  if (code === i18next.language) return;
  void i18next.changeLanguage(code);
  document.documentElement.lang = i18next.language;
  stored.language.write(code); // private mode: the choice lasts for this page only (storage.ts)
  for (const f of [...listeners]) f();
}

/** The server's refusal `code` as the player reads it: the client's own sentence for a known
 * code, in every language (the server's sentence is written for developers and logs: "an
 * endless run is rated: no hints"); the server's for a code the client does not know yet. */
export function errorText(code: string, message: string): string {
  const key = `errors:${code}`;
  if (hasKey(key)) return t(key);
  const text = message || code;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Why a board is not covered yet, as the rules judged it: in English the rules' own sentence,
 * which names the pieces ("piece C is not placed"); in another language the code's sentence
 * (the rules are written in English). A refusal is `errorText`'s. */
export function verdictText(code: string, reason: string): string {
  return language() === "en" && reason ? reason : errorText(code, reason);
}

/** The language picker: a select of LANGUAGES (the header's, `#language`; `short`: the game's
 * top bar, the codes only). */
export function languagePicker(short = false): HTMLElement {
  const select = h(
    short ? "select.language-short" : "select#language",
    { "aria-label": t("common:language") },
    ...LANGUAGES.map((l) => h("option", { value: l.code, lang: l.code }, short ? l.code.toUpperCase() : l.name)),
  );
  select.value = language();
  select.addEventListener("change", () => setLanguage(select.value));
  return h("label.language-picker", { title: t("common:language") }, select);
}

/** Dates in the language shown. */
export function dateText(d: Date, withTime = false): string {
  return withTime ? d.toLocaleString(language()) : d.toLocaleDateString(language());
}

/** A day named as the server names it (YYYY-MM-DD, a UTC day: the daily's) in the language
 * shown: "26.11.2026", "11/26/2026". */
export function dayText(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString(language(), { timeZone: "UTC" });
}

/** A piece's colour as the catalogue names it ("red", "light blue"), in the language shown. */
export function colourName(colour: string): string {
  return t(`board:colours.${colour}`, { defaultValue: colour });
}
