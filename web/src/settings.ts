// The player's settings on this device (kept by storage.ts): the colours (the system's, light or
// dark), sound on or off, vibration on or off; and the small menu that changes them, shown in
// the page header on home and in the game's top bar.

import { h } from "./dom";
import { t } from "./i18n";
import { type Settings, stored, THEMES, type Theme } from "./storage";

export type { Settings, Theme };

const DEFAULTS: Settings = { theme: "system", sound: true, vibrate: true };

/** The settings saved on this device, with the defaults for what was never chosen. */
export function settings(): Settings {
  return { ...DEFAULTS, ...stored.settings.read() };
}

export function saveSetting<K extends keyof Settings>(key: K, value: Settings[K]): void {
  // a private window may refuse storage: the choice then holds for this page only (storage.ts)
  stored.settings.write({ ...settings(), [key]: value });
  if (key === "theme") applyTheme(value as Theme);
}

const darkQuery = typeof window.matchMedia === "function" ? window.matchMedia("(prefers-color-scheme: dark)") : null;

/** The colours shown: the chosen theme, or the system's for "system". */
export function shownTheme(theme: Theme = settings().theme): "light" | "dark" {
  if (theme !== "system") return theme;
  return darkQuery?.matches ? "dark" : "light";
}

const THEME_EVENT = "ubongo:theme";

/** Mark the page with the colours to show (`<html data-theme>`, read by styles/dark.css) and
 * tell the drawings that paint their own colours (the 3D scene). */
export function applyTheme(theme: Theme = settings().theme): void {
  const shown = shownTheme(theme);
  const root = document.documentElement;
  root.dataset.theme = shown;
  root.style.colorScheme = shown;
  document.querySelector('meta[name="theme-color"]')?.setAttribute("content", shown === "dark" ? "#0f171d" : "#1f3b4d");
  window.dispatchEvent(new Event(THEME_EVENT));
}

/** Call `f` whenever the colours shown change; returns the way to stop. */
export function onThemeChange(f: () => void): () => void {
  window.addEventListener(THEME_EVENT, f);
  return () => window.removeEventListener(THEME_EVENT, f);
}

/** A colour of the page's palette (a CSS custom property of `<html>`), e.g. for a canvas. */
export function themeColour(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

// the system's setting is followed while the player keeps "system"
darkQuery?.addEventListener("change", () => {
  if (settings().theme === "system") applyTheme();
});

let menus = 0;

/** The settings menu: a disclosure button ("Settings") opening the colours, sound and vibration
 * choices; each choice is saved at once. */
export function settingsMenu(): HTMLElement {
  const now = settings();
  const id = `settings-${++menus}`;
  const themeChoice = h(
    "fieldset.settings-theme",
    {},
    h("legend", {}, t("settings:colours")),
    ...THEMES.map((value) =>
      h(
        "label",
        {},
        h("input", {
          type: "radio",
          name: `${id}-theme`,
          value,
          checked: now.theme === value,
          "data-theme-choice": value,
          onchange: () => saveSetting("theme", value),
        }),
        ` ${t(`settings:themes.${value}`)}`,
      ),
    ),
  );
  const toggle = (key: "sound" | "vibrate") =>
    h(
      "label.settings-toggle",
      {},
      h("input", {
        type: "checkbox",
        checked: now[key],
        "data-setting": key,
        onchange: (e: Event) => saveSetting(key, (e.target as HTMLInputElement).checked),
      }),
      ` ${t(`settings:${key}`)}`,
    );
  const vibrationOffered = typeof navigator.vibrate === "function";
  const panel = h(
    "div.settings-panel",
    { id },
    themeChoice,
    toggle("sound"),
    vibrationOffered ? toggle("vibrate") : null,
  );
  const menu = h(
    "details.settings-menu",
    {},
    h(
      "summary",
      {},
      h("span", { "aria-hidden": "true" }, "⚙"),
      h("span.settings-word", {}, ` ${t("settings:settings")}`),
    ),
    panel,
  );
  // Escape closes the menu and gives the focus back to its button
  menu.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !menu.open) return;
    menu.open = false;
    (menu.querySelector("summary") as HTMLElement).focus();
    e.stopPropagation();
  });
  return menu;
}
