// Solo records: the local leaderboard of one kind of run and a player's personal bests
// (GET /api/leaderboard, GET /api/records), drawn as small tables.

import { api, currentAccount } from "./api";
import { h } from "./dom";
import { t } from "./i18n";
import type { PersonalBest, RankedRecord } from "./protocol";
import { clock, editionInfo } from "./ui";

/** A leaderboard row, or one of a player's personal bests. */
export type RecordRow = RankedRecord | PersonalBest;

/** "7 solved" for a timed run, "3:12" for a run of a number of tasks. */
export function resultText(r: { goal: string; score: number; seconds: number; amount: number }): string {
  if (r.goal === "time") return t("records:solved", { count: r.score });
  return r.score >= r.amount ? clock(r.seconds) : t("records:scoreOf", { score: r.score, amount: r.amount });
}

export function runName(r: { edition: string; goal: string; amount: number; side: string }): string {
  const info = editionInfo(r.edition);
  const side = info.sides.find((s) => s.value === r.side)?.label.split(" ·")[0] ?? r.side;
  const what = r.goal === "time" ? t("records:minutesShort", { n: r.amount }) : t("home:tasks", { count: r.amount });
  return t("records:runName", { title: info.title, side, what });
}

/** A name on a leaderboard: a link to its account's profile, or plain text for a run without
 * an account (it has no profile). Text either way, never markup: a name is whatever its
 * player typed. */
export function playerName(name: string, account: number | null): HTMLElement | string {
  return account === null ? name : h("a.player", { href: `/profile/${account}`, "data-link": "" }, name);
}

/** Whether a leaderboard row is this browser's: its account's, or (a run without an account)
 * its typed name's. */
function mine(row: { name: string; account: number | null }, me: string): boolean {
  const account = currentAccount();
  return account ? row.account === account.id : row.account === null && row.name === me;
}

/** The leaderboard of one kind of run, filled in when the server answers: its top ten, or
 * its top `shown` and your own row among the ten. */
export function leaderboard(
  edition: string,
  goal: string,
  amount: number,
  side: string,
  me = "",
  shown = 10,
): HTMLElement {
  const table = h("table.leaderboard", {}, h("caption", {}, t("records:leaderboard")));
  api("GET /api/leaderboard", { query: { edition, goal, amount, side, limit: 10 } })
    .then((rows) => {
      for (const r of rows.filter((row, i) => i < shown || mine(row, me))) {
        table.append(
          h(
            "tr",
            { class: mine(r, me) ? "me" : "" },
            h("td.rank", {}, String(r.rank ?? "")),
            h("td.name", {}, playerName(r.name, r.account)),
            h("td.result", {}, resultText(r)),
            h("td.hints.muted", {}, hintsText(r.hints)),
            h("td.skips.muted", {}, skipsText(r.skipped)),
          ),
        );
      }
      if (!rows.length) table.append(h("tr", {}, h("td.muted", {}, t("records:noRecords"))));
    })
    .catch(() => table.append(h("tr", {}, h("td.muted", {}, t("records:recordsUnavailable")))));
  return table;
}

/** A hinted run is marked on the leaderboard: "2 hints". */
export function hintsText(hints: number): string {
  return hints ? t("records:hints", { count: hints }) : "";
}

/** A run with tasks put aside is marked: "1 skipped" (the rulebooks allow it; the clock
 * runs on meanwhile, so it costs time). */
export function skipsText(skipped: number): string {
  return skipped ? t("records:skipped", { count: skipped }) : "";
}

/** The daily challenge's leaderboard of one edition and day (rated runs, best first). */
export function dailyBoard(edition: string, date: string, caption: string, limit = 10): HTMLElement {
  const table = h("table.leaderboard.daily-board", { "data-date": date }, h("caption", {}, caption));
  api("GET /api/daily/results", { query: { edition, date } })
    .then((day) => {
      for (const r of day.results.slice(0, limit)) {
        table.append(
          h(
            "tr",
            {},
            h("td.rank", {}, String(r.rank)),
            h("td.name", {}, playerName(r.name, r.account)),
            h("td.result", {}, t("records:solved", { count: r.solved })),
            h("td.result", {}, clock(r.seconds)),
          ),
        );
      }
      if (!day.results.length) table.append(h("tr", {}, h("td.muted", {}, t("records:nobodyPlayed"))));
    })
    .catch(() => table.append(h("tr", {}, h("td.muted", {}, t("records:resultsUnavailable")))));
  return table;
}

/** A player's best run of every kind they played: this browser's account's when it has one
 * (runs belong to it), else the runs kept by the name. */
export function personalBests(name: string): HTMLElement {
  const table = h("table.bests", {}, h("caption", {}, t("records:personalBests", { name })));
  const account = currentAccount();
  const query = account ? { account: account.id } : { name };
  api("GET /api/records", { query })
    .then((rows) => {
      for (const r of rows) {
        table.append(
          h(
            "tr",
            {},
            h("td", {}, runName(r)),
            h("td.result", {}, resultText(r)),
            h("td.muted", {}, hintsText(r.hints)),
            h("td.muted.skips", {}, skipsText(r.skipped)),
            h("td.muted", {}, r.runs ? t("records:runs", { count: r.runs }) : ""),
          ),
        );
      }
      if (!rows.length) table.append(h("tr", {}, h("td.muted", {}, t("records:noRuns"))));
    })
    .catch(() => undefined);
  return table;
}

/** A rating as shown: "1123", with "?" while provisional (its first rated games). */
export function ratingText(r: { rating: number; provisional: boolean }): string {
  return r.provisional ? `${r.rating}?` : String(r.rating);
}

/** An edition's ratings leaderboard (GET /api/ratings), this browser's account marked. */
export function ratingsBoard(edition: string, me: number | null): HTMLElement {
  const table = h("table.leaderboard.ratings", {}, h("caption", {}, t("records:ratings")));
  api("GET /api/ratings", { query: { edition, limit: 10 } })
    .then((board) => {
      for (const r of board.players) {
        table.append(
          h(
            "tr",
            { class: r.account === me ? "me" : "" },
            h("td.rank", {}, String(r.rank)),
            h("td.name", {}, playerName(r.name, r.account)),
            h("td.result", {}, ratingText(r)),
          ),
        );
      }
      if (!board.players.length) {
        table.append(h("tr", {}, h("td.muted", {}, t("records:ratedAfter", { count: board.min_games }))));
      }
      const bots = board.bots.map((b) => `${t(`room:botLevels.${b.level}`)} ${b.rating}`).join(" · ");
      if (bots) table.append(h("tr", {}, h("td.muted", { colSpan: 3 }, t("records:bots", { bots }))));
    })
    .catch(() => table.append(h("tr", {}, h("td.muted", {}, t("records:ratingsUnavailable")))));
  return table;
}

/** This account's rating in an edition and a small chart of its rated games (its profile). */
export function myRating(edition: string, account: number): HTMLElement {
  const box = h("p.my-rating.muted");
  api("GET /api/accounts/{account_id}", { path: { account_id: account } })
    .then((profile) => {
      const r = profile.ratings[edition];
      if (!r) {
        box.textContent = t("records:noRatingYet");
        return;
      }
      box.replaceChildren(
        h("span", {}, t("records:yourRating", { rating: ratingText(r), count: r.games })),
        ratingChart((profile.history[edition] ?? []).map((c) => c.after)),
      );
    })
    .catch(() => undefined);
  return box;
}

/** A line through the ratings after each rated game (oldest first). */
function ratingChart(points: number[]): SVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("viewBox", "0 0 100 30");
  svg.setAttribute("aria-label", t("records:ratingHistory"));
  if (points.length > 1) {
    const lo = Math.min(...points);
    const span = Math.max(1, Math.max(...points) - lo);
    const line = document.createElementNS(ns, "polyline");
    const xy = points.map((p, i) => `${(i * 100) / (points.length - 1)},${28 - ((p - lo) * 26) / span}`);
    line.setAttribute("points", xy.join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", "currentColor");
    svg.append(line);
  }
  return svg;
}
