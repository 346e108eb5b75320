// Table mode's first screen: the edition, its side (where the side sets the countdown) and
// variant, and the players (2-4, each a colour and a name).

import { h } from "../dom";
import { EDITIONS, type EditionInfo, editionInfo } from "../editions";
import { t } from "../i18n";
import type { TablePlayer } from "./logic";

/** The players' colours: the Ubongo boxes' four piece colours first, then two more. */
export const COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"] as const;

export interface TableChoice {
  edition: EditionInfo;
  side: string;
  onlyFirst: boolean;
  players: TablePlayer[];
}

/** A setup screen's edition, one radio button each (table mode, local versus); ``group`` names
 * the buttons' group, ``choose`` hears a change. */
export function editionField(
  group: string,
  choices: readonly EditionInfo[],
  chosen: string,
  choose: (e: EditionInfo) => void,
): HTMLElement {
  return h(
    "fieldset.table-editions",
    {},
    h("legend", {}, t("table:edition")),
    ...choices.map((e) =>
      h(
        "label.table-choice",
        {},
        h("input", {
          type: "radio",
          name: group,
          value: e.name,
          checked: e.name === chosen,
          onchange: () => choose(e),
        }),
        h("span", {}, e.title),
      ),
    ),
  );
}

/** The fewest and most players of a table game of the edition (at least 2: one is solo). */
function playerRange(e: EditionInfo): [number, number] {
  return [Math.max(2, e.players[0]), Math.max(2, e.players[1])];
}

export function setupForm(start: (choice: TableChoice) => void, edition0: string | null): HTMLElement {
  let edition = editionInfo(edition0 ?? EDITIONS[0].name);
  const names: string[] = [];
  const colours: string[] = [...COLOURS];

  const editions = editionField("table-edition", EDITIONS, edition.name, (e) => {
    edition = e;
    redraw();
  });
  const side = h("select#table-side");
  const sideField = h("label.field", {}, h("span#table-side-word"), side);
  const onlyFirst = h("input#table-only-first", { type: "checkbox" });
  const variantField = h("label.table-check", {}, onlyFirst, h("span#table-variant-label"));
  const count = h("select#table-count");
  const countField = h("label.field", {}, h("span", {}, t("table:players")), count);
  const rows = h("div.table-player-rows");
  count.addEventListener("change", () => drawPlayers());

  const drawPlayers = () => {
    rows.replaceChildren();
    for (let i = 0; i < Number(count.value); i++) {
      const name = h("input", {
        type: "text",
        id: `table-name-${i}`,
        maxLength: 16,
        value: names[i] ?? "",
        placeholder: t("table:playerN", { n: i + 1 }),
        "aria-label": t("table:nameOf", { n: i + 1 }),
        autocomplete: "off",
        oninput: (e: Event) => {
          names[i] = (e.target as HTMLInputElement).value;
        },
      });
      const colour = h(
        "select",
        {
          id: `table-colour-${i}`,
          "aria-label": t("table:colourOf", { n: i + 1 }),
          onchange: (e: Event) => {
            colours[i] = (e.target as HTMLSelectElement).value;
            swatch.dataset.colour = colours[i];
          },
        },
        ...COLOURS.map((c) => h("option", { value: c, selected: c === colours[i] }, t(`table:colours.${c}`))),
      );
      const swatch = h("span.table-swatch", { "data-colour": colours[i], "aria-hidden": "true" });
      rows.append(
        h(
          "div.table-player-row",
          {},
          swatch,
          h("label.field", {}, h("span", {}, t("table:name")), name),
          h("label.field", {}, h("span", {}, t("table:colour")), colour),
        ),
      );
    }
  };

  const redraw = () => {
    const [fewest, most] = playerRange(edition);
    const wanted = Math.min(most, Math.max(fewest, Number(count.value) || fewest));
    count.replaceChildren(
      ...Array.from({ length: most - fewest + 1 }, (_, i) =>
        h("option", { value: fewest + i, selected: fewest + i === wanted }, String(fewest + i)),
      ),
    );
    // the side matters to the table only where it sets the countdown (Extreme A/B, Trigo)
    sideField.hidden = !edition.countdownSeconds;
    (sideField.querySelector("#table-side-word") as HTMLElement).textContent = edition.sideWord;
    side.replaceChildren(...edition.sides.map((s) => h("option", { value: s.value }, s.label)));
    const variant = edition.variantLabels["only-first"];
    variantField.hidden = !variant;
    onlyFirst.checked = false;
    (variantField.querySelector("#table-variant-label") as HTMLElement).textContent = variant ?? "";
    drawPlayers();
  };

  const submit = (e: Event) => {
    e.preventDefault();
    const players = Array.from({ length: Number(count.value) }, (_, i) => ({
      name: names[i]?.trim() || t("table:playerN", { n: i + 1 }),
      colour: colours[i],
    }));
    start({ edition, side: side.value || edition.sides[0]?.value, onlyFirst: onlyFirst.checked, players });
  };

  redraw();
  return h(
    "form.table-setup",
    { onsubmit: submit },
    editions,
    h("fieldset.table-options", {}, h("legend", {}, t("table:howToPlay")), sideField, variantField, countField),
    h("fieldset.table-players", {}, h("legend", {}, t("table:whoPlays")), rows),
    h("p.muted", {}, t("table:boxNeeded")),
    h("button.primary.table-btn#table-start", { type: "submit" }, t("table:start")),
  );
}
