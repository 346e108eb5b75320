// Local versus' first screen: the edition, its side (3D: a level for each player), the
// variant where the edition has one, and the players (two, or three and four where the screen
// is wide enough), each with their name, colour and way of playing shown.

import { h } from "../dom";
import { type EditionInfo, sideName } from "../editions";
import { t } from "../i18n";
import type { TablePlayer } from "../table/logic";
import { COLOURS, editionField } from "../table/setup";
import { keyLegend } from "./logic";

export interface VersusChoice {
  edition: EditionInfo;
  /** each player's side of the cards (the same for all but where each chooses: 3D's levels) */
  sides: string[];
  onlyFirst: boolean;
  players: TablePlayer[];
}

/** How a player plays: their keys (players 1 and 2), and always the mouse or their fingers. */
export function controlsLine(player: number): HTMLElement {
  const keys = keyLegend(player);
  if (!keys) return h("p.versus-controls.muted", {}, t("versus:pointerOnly"));
  const name = (k: string) => t(`versus:keyNames.${k}`, { defaultValue: k });
  const part = (what: string, k: string) =>
    h("span.versus-key", {}, h("kbd", {}, name(k)), " ", t(`versus:keyWhat.${what}`));
  return h(
    "p.versus-controls",
    { "data-keys": player === 0 ? "arrows" : "wasd" },
    ...Object.entries(keys).map(([what, k]) => part(what, k)),
  );
}

export function setupForm(
  editions: EditionInfo[],
  edition0: string | null,
  seats: number,
  start: (choice: VersusChoice) => void,
): HTMLElement {
  let edition = editions.find((e) => e.name === edition0) ?? editions[0];
  const names: string[] = [];
  const sides: string[] = [];
  const count = h("select#versus-count");
  const rows = h("div.versus-player-rows");
  const sideSelect = h("select#versus-side");
  const sideField = h("label.field", {}, h("span#versus-side-word"), sideSelect);
  const onlyFirst = h("input#versus-only-first", { type: "checkbox" });
  const variantField = h("label.table-check", {}, onlyFirst, h("span#versus-variant-label"));
  count.addEventListener("change", () => drawPlayers());

  const sideOptions = (chosen: string) =>
    edition.sides.map((s) =>
      h("option", { value: s.value, selected: s.value === chosen }, sideName(edition.sideWord, s.label)),
    );

  const drawPlayers = () => {
    rows.replaceChildren();
    for (let i = 0; i < Number(count.value); i++) {
      const name = h("input", {
        type: "text",
        id: `versus-name-${i}`,
        maxLength: 16,
        value: names[i] ?? "",
        placeholder: t("table:playerN", { n: i + 1 }),
        "aria-label": t("table:nameOf", { n: i + 1 }),
        autocomplete: "off",
        oninput: (e: Event) => {
          names[i] = (e.target as HTMLInputElement).value;
        },
      });
      // 3D: each player their own level, as in the boxed game
      const level = edition.ownSide
        ? h(
            "label.field",
            {},
            h("span", {}, edition.sideWord),
            h(
              "select",
              {
                id: `versus-side-${i}`,
                onchange: (e: Event) => {
                  sides[i] = (e.target as HTMLSelectElement).value;
                },
              },
              ...sideOptions(sides[i] ?? edition.sides[0]?.value),
            ),
          )
        : null;
      rows.append(
        h(
          "div.versus-player-row",
          { "data-colour": COLOURS[i] },
          h("span.table-swatch", { "aria-hidden": "true" }),
          h("label.field", {}, h("span", {}, t("table:name")), name),
          level,
          controlsLine(i),
        ),
      );
    }
  };

  const redraw = () => {
    const most = Math.max(2, Math.min(seats, edition.players[1]));
    const wanted = Math.min(most, Math.max(2, Number(count.value) || 2));
    count.replaceChildren(
      ...Array.from({ length: most - 1 }, (_, i) => h("option", { value: i + 2, selected: i + 2 === wanted }, i + 2)),
    );
    sideField.hidden = edition.ownSide;
    (sideField.querySelector("#versus-side-word") as HTMLElement).textContent = edition.sideWord;
    sideSelect.replaceChildren(...sideOptions(edition.sides[0]?.value));
    sides.length = 0;
    const variant = edition.variantLabels["only-first"];
    variantField.hidden = !variant;
    onlyFirst.checked = false;
    (variantField.querySelector("#versus-variant-label") as HTMLElement).textContent = variant ?? "";
    drawPlayers();
  };

  const submit = (e: Event) => {
    e.preventDefault();
    const n = Number(count.value);
    const players = Array.from({ length: n }, (_, i) => ({
      name: names[i]?.trim() || t("table:playerN", { n: i + 1 }),
      colour: COLOURS[i],
    }));
    const shared = sideSelect.value || edition.sides[0]?.value;
    const each = Array.from({ length: n }, (_, i) =>
      edition.ownSide ? (sides[i] ?? edition.sides[0]?.value) : shared,
    );
    start({ edition, sides: each, onlyFirst: onlyFirst.checked, players });
  };

  const editionsField = editionField("versus-edition", editions, edition.name, (e) => {
    edition = e;
    redraw();
  });
  redraw();
  return h(
    "form.table-setup.versus-setup",
    { onsubmit: submit },
    editionsField,
    h(
      "fieldset.table-options",
      {},
      h("legend", {}, t("table:howToPlay")),
      sideField,
      variantField,
      h("label.field", {}, h("span", {}, t("table:players")), count),
    ),
    h("fieldset.table-players", {}, h("legend", {}, t("versus:whoPlays")), rows),
    h("button.primary.table-btn#versus-start", { type: "submit" }, t("table:start")),
  );
}
