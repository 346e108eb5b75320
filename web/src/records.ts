// Solo records: the local leaderboard of one kind of run and a player's personal bests
// (GET /api/leaderboard, GET /api/records), drawn as small tables.

import { h } from "./dom";
import { api } from "./net";
import type { DailyResults, Leaderboard, PersonalBest, PersonalBests, RankedRecord } from "./protocol";
import { clock, editionInfo } from "./ui";

/** A leaderboard row, or one of a player's personal bests. */
export type RecordRow = RankedRecord | PersonalBest;

/** "7 solved" for a timed run, "3:12" for a run of a number of tasks. */
export function resultText(r: { goal: string; score: number; seconds: number; amount: number }): string {
  if (r.goal === "time") return `${r.score} solved`;
  return r.score >= r.amount ? clock(r.seconds) : `${r.score} of ${r.amount}`;
}

export function runName(r: { edition: string; goal: string; amount: number; side: string }): string {
  const info = editionInfo(r.edition);
  const side = info.sides.find((s) => s.value === r.side)?.label.split(" ·")[0] ?? r.side;
  const what = r.goal === "time" ? `${r.amount} min` : `${r.amount} tasks`;
  return `${info.title} ${side}, ${what}`;
}

/** The leaderboard of one kind of run, filled in when the server answers. */
export function leaderboard(edition: string, goal: string, amount: number, side: string, me = ""): HTMLElement {
  const table = h("table.leaderboard", {}, h("caption", {}, "Leaderboard"));
  const q = new URLSearchParams({ edition, goal, mode: goal, amount: String(amount), side, limit: "10" });
  api
    .get<Leaderboard>(`/api/leaderboard?${q}`)
    .then((rows) => {
      for (const r of rows) {
        table.append(
          h(
            "tr",
            { class: r.name === me ? "me" : "" },
            h("td.rank", {}, String(r.rank ?? "")),
            h("td", {}, r.name),
            h("td.result", {}, resultText(r)),
            h("td.hints.muted", {}, hintsText(r.hints)),
          ),
        );
      }
      if (!rows.length) table.append(h("tr", {}, h("td.muted", {}, "No records yet: be the first.")));
    })
    .catch(() => table.append(h("tr", {}, h("td.muted", {}, "Records are not available."))));
  return table;
}

/** A hinted run is marked on the leaderboard: "2 hints". */
export function hintsText(hints: number): string {
  return hints ? `${hints} hint${hints === 1 ? "" : "s"}` : "";
}

/** The daily challenge's leaderboard of one edition and day (rated runs, best first). */
export function dailyBoard(edition: string, date: string, caption: string, limit = 10): HTMLElement {
  const table = h("table.leaderboard.daily-board", { "data-date": date }, h("caption", {}, caption));
  const q = new URLSearchParams({ edition, date });
  api
    .get<DailyResults>(`/api/daily/results?${q}`)
    .then((day) => {
      for (const r of day.results.slice(0, limit)) {
        table.append(
          h(
            "tr",
            {},
            h("td.rank", {}, String(r.rank)),
            h("td", {}, r.name),
            h("td.result", {}, `${r.solved} solved`),
            h("td.result", {}, clock(r.seconds)),
          ),
        );
      }
      if (!day.results.length) table.append(h("tr", {}, h("td.muted", {}, "Nobody has played it yet.")));
    })
    .catch(() => table.append(h("tr", {}, h("td.muted", {}, "Results are not available."))));
  return table;
}

/** A player's best run of every kind they played. */
export function personalBests(name: string): HTMLElement {
  const table = h("table.bests", {}, h("caption", {}, `Personal bests of ${name}`));
  api
    .get<PersonalBests>(`/api/records?name=${encodeURIComponent(name)}`)
    .then((rows) => {
      for (const r of rows) {
        table.append(
          h(
            "tr",
            {},
            h("td", {}, runName(r)),
            h("td.result", {}, resultText(r)),
            h("td.muted", {}, hintsText(r.hints)),
            h("td.muted", {}, r.runs ? `${r.runs} run${r.runs === 1 ? "" : "s"}` : ""),
          ),
        );
      }
      if (!rows.length) table.append(h("tr", {}, h("td.muted", {}, "No solo runs yet.")));
    })
    .catch(() => undefined);
  return table;
}
