// The game's side panel: the gem display and bag, the tie-break explained, every player's state
// and score; in solo the run's progress and the records of that kind of run.

import { h } from "../dom";
import { savedName } from "../net";
import type { GameView, Room } from "../protocol";
import { dailyBoard, leaderboard, personalBests } from "../records";
import { cardIcon, gem, gemRow, placeText } from "../ui";
import { tieBreakName, tiedSeats, tieWords } from "./words";

/** The solo run's records, fetched once per room and kept across snapshots. */
export interface SoloRecords {
  element: HTMLElement | null;
}

/** The side panel of a game: the gem display, the tie-break explained, every player's state and
 * score, or in solo the run's progress and records. */
export function sidePanel(room: Room, game: GameView, seat: number | null, records: SoloRecords): HTMLElement[] {
  const blocks: HTMLElement[] = [];
  if (game.display) {
    const disp = h("div.display", {}, h("h3", {}, "Gem display"));
    const row = h("div.gem-row");
    for (const name of ["sapphire", "amber"])
      row.append(h("span.gem-count", {}, gem(name), `×${game.display[name] ?? 0}`));
    if (game.bag !== null) row.append(h("span.bag", { title: "gems in the bag" }, `${game.bag} gems in the bag`));
    disp.append(row);
    blocks.push(disp);
  }
  if (game.stage === "playoff") {
    // the tie-break is not one more round: say why it is played and how it is won
    const what = tieBreakName(game.kind);
    const mine = seat !== null && tiedSeats(game).includes(seat);
    blocks.push(
      h(
        "div.playoff-note",
        {},
        h("h3", {}, what),
        h(
          "p",
          {},
          `${tieWords(room, game)}. ${game.kind === "playoff" ? "One die roll, no hourglass: " : "No countdown: "}the first to finish wins the game.`,
        ),
        game.deadline ? h("p", {}, "If nobody finishes within the time limit, the win is shared.") : null,
        seat !== null && !mine ? h("p.muted", {}, `You are not in the ${what.toLowerCase()}: watch who wins.`) : null,
      ),
    );
  }
  if (!game.solo) {
    blocks.push(h("div", {}, h("h3", {}, "Players"), playersList(room, game, seat)));
  } else {
    blocks.push(soloPanel(room, game, records));
  }
  return blocks;
}

/** Every player's state (working, finished 1st, ...) and gems or cards. */
function playersList(room: Room, game: GameView, seat: number | null): HTMLElement {
  const list = h("ol.players");
  room.seats.forEach((s, i) => {
    if (!s) return;
    const fin = game.finished.find((f) => f.seat === i);
    const score = game.scores[String(i)];
    const out = game.stage === "playoff" && !tiedSeats(game).includes(i);
    const state = fin
      ? `finished ${placeText(fin.place)}`
      : out
        ? `not in the ${tieBreakName(game.kind).toLowerCase()}`
        : game.stage === "between"
          ? "did not finish"
          : "working…";
    list.append(
      h(
        "li.player",
        { "data-seat": i, class: [fin ? "done" : "", i === seat ? "me" : ""].join(" ") },
        h("span.player-name", {}, s.name, i === seat ? " (you)" : ""),
        h("span.player-state", {}, state, s.connected ? "" : " · away"),
        score
          ? score.gems
            ? h("span.player-score", {}, gemRow(score.gems), h("b", {}, ` ${score.points} pts`))
            : h("span.player-score", {}, cardIcon(), `${score.cards} card${score.cards === 1 ? "" : "s"}`)
          : null,
      ),
    );
  });
  return list;
}

function soloPanel(room: Room, game: GameView, records: SoloRecords): HTMLElement {
  const box = h("div.solo-panel", {}, h("h3", {}, "Solo"));
  const s = game.solo;
  if (!s) return box;
  if (s.endless) {
    // an endless run: ratings instead of records (docs/ratings.md)
    const e = s.endless;
    box.append(
      h("p", {}, "Endless: each task is chosen for your rating. Solve it in time and the next is harder."),
      h("p.big#solo-done", {}, `${s.done}`, h("small", {}, " solved")),
      h(
        "p#endless-player",
        {},
        "Your rating ",
        h("strong", {}, `${Math.round(e.rating)}`),
        ` ± ${Math.round(2 * e.rd)}`,
      ),
    );
    if (e.task_rating !== null) {
      box.append(
        h(
          "p#endless-task",
          {},
          "This task ",
          h("strong", { "data-rating": String(e.task_rating) }, `${Math.round(e.task_rating)}`),
          e.task_limit === null ? "" : ` · ${Math.round(e.task_limit)} s`,
        ),
      );
    }
    return box;
  }
  const st = room.settings;
  const daily = st.puzzles === "daily";
  box.append(
    h(
      "p",
      {},
      daily
        ? `The daily challenge: ${s.amount} tasks, the same for everyone today, easiest first.`
        : s.goal === "practice"
          ? "Practice: no clock, no record. Ask for a hint, or give up to see a solution."
          : s.goal === "time"
            ? `As many tasks as you can in ${s.amount} minutes.`
            : `Solve ${s.amount} tasks as fast as you can.`,
    ),
    h("p.big#solo-done", {}, `${s.done}`, h("small", {}, " solved")),
  );
  // the records of this kind of run, fetched once per room (practice keeps none)
  if (!records.element) {
    const me = savedName();
    const today = new Date().toISOString().slice(0, 10);
    records.element = daily
      ? h("div.solo-records", {}, dailyBoard(st.edition, st.day ?? today, "Today's leaderboard"))
      : s.goal === "practice"
        ? h("div.solo-records")
        : h(
            "div.solo-records",
            {},
            leaderboard(st.edition, st.solo_goal, st.solo_amount, st.side, me),
            me ? personalBests(me) : null,
          );
  }
  box.append(records.element);
  return box;
}
