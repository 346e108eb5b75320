// Table mode's pictures of the game: the tally across the rounds, a round's result, the
// display and the bag, the call order. Drawn from a TableGame; nothing here changes it.

import { h } from "../dom";
import { t } from "../i18n";
import { cardIcon, gem, gemRow, placeText as ordinal } from "../ui";
import { points, type RoundResult, type TableGame } from "./logic";

/** Each player's gems or cards and points, the leaders marked. */
export function tally(game: TableGame): HTMLElement {
  const gems = game.rules.scoring.kind === "gems";
  const all = game.players.map((_, p) => points(game, p));
  const best = Math.max(...all);
  return h(
    "table.table-tally#table-tally",
    {},
    h("caption", {}, t(game.round > game.rules.rounds ? "table:finalTally" : "table:tally")),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, t("table:player")),
        h("th", { scope: "col" }, gems ? t("table:gems") : t("table:cards")),
        h("th", { scope: "col" }, t("table:points")),
      ),
    ),
    h(
      "tbody",
      {},
      ...game.players.map((pl, p) =>
        h(
          "tr",
          { "data-player": p, class: all[p] === best && best > 0 ? "leading" : "" },
          h(
            "th",
            { scope: "row" },
            h("span.table-swatch", { "data-colour": pl.colour, "aria-hidden": "true" }),
            pl.name,
          ),
          h(
            "td",
            {},
            gems ? gemRow(game.gems[p], t("table:noGems")) : h("span.table-cards", {}, cardIcon(), `×${game.cards[p]}`),
          ),
          h("td.table-points", { "data-points": all[p] }, String(all[p])),
        ),
      ),
    ),
  );
}

/** The display's gems still to win and the bag's count (gem editions). */
export function supplies(game: TableGame): HTMLElement | null {
  if (game.rules.scoring.kind !== "gems") return null;
  const inBag = Object.values(game.bag).reduce((a, b) => a + b, 0);
  return h(
    "p.table-supplies#table-supplies",
    { "data-bag": inBag },
    h("span", {}, t("table:display"), " "),
    ...Object.entries(game.display).map(([g, n]) => h("span.gem-count", {}, gem(g), `×${n}`)),
    h("span.table-bag", {}, t("table:bag", { count: inBag })),
  );
}

/** The calls of the round in order: "1st Ada, 2nd Ben". */
export function callOrder(game: TableGame): HTMLElement {
  return h(
    "ol.table-calls#table-calls",
    { "aria-label": t("table:callOrder") },
    ...game.calls.map((p, i) =>
      h(
        "li",
        { "data-player": p },
        h("span.table-place", {}, ordinal(i + 1)),
        " ",
        h("span.table-swatch", { "data-colour": game.players[p].colour, "aria-hidden": "true" }),
        game.players[p].name,
      ),
    ),
  );
}

/** What the round gave, in words and gems (the rulebook's Rewards, or the cards kept and handed). */
export function roundResult(game: TableGame, r: RoundResult): HTMLElement {
  return h(
    "section.table-result#table-result",
    { "aria-labelledby": "table-result-title" },
    h("h2#table-result-title", {}, t("table:roundResult", { round: r.round })),
    h("ul", {}, ...resultLines(game, r)),
  );
}

/** The rounds played so far, each with its task and what it gave (folded: to settle a doubt). */
export function history(game: TableGame, keyText: (key: string) => string): HTMLElement | null {
  if (!game.results.length) return null;
  return h(
    "details.table-history#table-history",
    {},
    h("summary", {}, t("table:history", { count: game.results.length })),
    h(
      "ol",
      {},
      ...game.results.map((r) =>
        h(
          "li",
          { "data-round": r.round },
          r.key ? h("span.table-history-key", {}, keyText(r.key)) : null,
          h("ul", {}, ...resultLines(game, r)),
        ),
      ),
    ),
  );
}

function resultLines(game: TableGame, r: RoundResult): HTMLElement[] {
  const name = (p: number) => game.players[p].name;
  const lines: HTMLElement[] = [];
  for (const got of r.gems) {
    const place = r.calls.indexOf(got.player) + 1;
    lines.push(
      h(
        "li",
        { "data-player": got.player, "data-gems": got.gems.join(" ") },
        t("table:took", { place: ordinal(place), name: name(got.player) }),
        " ",
        ...got.gems.map((g) => gem(g)),
      ),
    );
  }
  if (r.toBag.length) {
    lines.push(
      h("li.table-to-bag", { "data-gems": r.toBag.join(" ") }, t("table:toBag"), " ", ...r.toBag.map((g) => gem(g))),
    );
  }
  for (const p of r.kept) lines.push(h("li", { "data-kept": p }, t("table:kept", { name: name(p) })));
  const first = r.calls[0];
  for (const p of r.handed)
    lines.push(h("li", { "data-handed": p }, t("table:handed", { name: name(p), to: name(first) })));
  for (const p of r.discarded) lines.push(h("li", { "data-discarded": p }, t("table:discarded", { name: name(p) })));
  if (!r.calls.length) lines.unshift(h("li", {}, t("table:nobody")));
  return lines;
}
