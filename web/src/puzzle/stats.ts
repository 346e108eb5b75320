// A saved puzzle's figures as the pages show them (docs/editor.md): its title (a moderator may
// have hidden it), who made it, and what play made of it (plays, solve rate, median time,
// likes), the same on the puzzle's page and in the community list.

import { type AnswerOf, ApiError } from "../api";
import { h } from "../dom";
import { editionInfo } from "../editions";
import { errorText, t } from "../i18n";

/** A puzzle as a list shows it. */
export type PuzzleSummary = AnswerOf<"GET /api/puzzles">["puzzles"][number];
/** What play made of a puzzle. */
export type PuzzleStats = AnswerOf<"POST /api/puzzles/{puzzle_id}/plays">;

/** The title, or what stands for one a moderator hid. */
export function titleOf(p: PuzzleSummary): string {
  return p.title ?? t("puzzles:titleHidden");
}

/** The edition's title in the language shown. */
export function editionTitle(name: string): string {
  return editionInfo(name).title;
}

/** A rating learned from play as a word and its number ("hard · 1650"; docs/editor.md,
 * "Rated by play": below 1200 easy, to 1500 medium, to 1800 hard, above very hard). */
export function ratingText(rating: number): string {
  const word = rating < 1200 ? "easy" : rating < 1500 ? "medium" : rating < 1800 ? "hard" : "veryHard";
  return t("puzzles:rated", { word: t(`puzzles:ratingWord.${word}`), rating });
}

/** The stats as a definition list (`.puzzle-stats`), each figure with its `data-stat`. */
export function statsList(s: PuzzleStats): HTMLElement {
  const rate = s.solve_rate === null ? "–" : `${Math.round(s.solve_rate * 100)} %`;
  const median = s.median_seconds === null ? "–" : t("puzzles:seconds", { s: Math.round(s.median_seconds) });
  const rows: [string, string, string][] = [
    ["plays", t("puzzles:plays"), String(s.plays)],
    ["rate", t("puzzles:solveRate"), rate],
    ["median", t("puzzles:median"), median],
    ["likes", t("puzzles:likes"), String(s.likes)],
  ];
  return h(
    "dl.puzzle-stats",
    {},
    rows.map(([key, label, value]) => h("div", { "data-stat": key }, h("dt", {}, label), h("dd", {}, value))),
  );
}

/** A puzzle's or pack's page that could not be loaded: `heading` (its title's element, e.g.
 * `h1#pack-title`) says so, the reason below, and a way back to the community list. */
export function showNotFound(main: HTMLElement, heading: string, title: string, e: unknown): void {
  main.replaceChildren(
    h(heading, {}, title),
    h("p.bad", {}, e instanceof ApiError ? errorText(e.code, e.message) : String(e)),
    h("p", {}, h("a", { href: "/puzzles", "data-link": "" }, t("puzzles:communityLink"))),
  );
}
