// The game's side panel: the gem display and bag, the tie-break explained, every player's state
// and score; in solo the run's progress and the records of that kind of run.

import { savedName } from "../api";
import { h } from "../dom";
import { t } from "../i18n";
import type { GameView, Room } from "../protocol";
import { dailyBoard, leaderboard, personalBests } from "../records";
import { cardIcon, gem, gemRow, placeText } from "../ui";
import { shownName, tieBreakName, tiedSeats, tieKind, tieWords } from "./words";

/** The solo run's records, fetched once per room and kept across snapshots. */
export interface SoloRecords {
  element: HTMLElement | null;
}

/** The side panel of a game: the gem display, the tie-break explained, every player's state and
 * score, or in solo the run's progress and records. */
export function sidePanel(room: Room, game: GameView, seat: number | null, records: SoloRecords): HTMLElement[] {
  const blocks: HTMLElement[] = [];
  if (game.display) {
    const disp = h("div.display", {}, h("h2", {}, t("play:gemDisplay")));
    const row = h("div.gem-row");
    for (const name of ["sapphire", "amber"])
      row.append(h("span.gem-count", {}, gem(name), `×${game.display[name] ?? 0}`));
    if (game.bag !== null)
      row.append(h("span.bag", { title: t("play:gemsInBag") }, t("play:gemsInTheBag", { count: game.bag })));
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
        h("h2", {}, what),
        h(
          "p",
          {},
          t(game.kind === "playoff" ? "play:playoffRules" : "play:tieRoundRules", { tie: tieWords(room, game) }),
        ),
        game.deadline ? h("p", {}, t("play:sharedIfNobody")) : null,
        seat !== null && !mine ? h("p.muted", {}, t("play:notInTieBreak", { context: tieKind(game.kind) })) : null,
      ),
    );
  }
  if (!game.solo) {
    blocks.push(h("div", {}, h("h2", {}, t("room:players")), playersList(room, game, seat)));
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
      ? t("play:finishedPlace", { place: placeText(fin.place) })
      : out
        ? t("play:notInThe", { context: tieKind(game.kind) })
        : game.stage === "between"
          ? t("play:didNotFinish")
          : t("play:working");
    list.append(
      h(
        "li.player",
        { "data-seat": i, class: [fin ? "done" : "", i === seat ? "me" : ""].join(" ") },
        h("span.player-name", {}, shownName(s, i), i === seat ? t("play:youSuffix") : ""),
        h("span.player-state", {}, state, s.connected ? "" : ` · ${t("room:away")}`),
        score
          ? score.gems
            ? h(
                "span.player-score",
                {},
                gemRow(score.gems),
                h("b", {}, ` ${t("play:points", { count: score.points })}`),
              )
            : h("span.player-score", {}, cardIcon(), t("play:cards", { count: score.cards }))
          : null,
      ),
    );
  });
  return list;
}

function soloPanel(room: Room, game: GameView, records: SoloRecords): HTMLElement {
  const box = h("div.solo-panel", {}, h("h2", {}, t("play:soloHeading")));
  const s = game.solo;
  if (!s) return box;
  if (s.endless) {
    // an endless run: ratings instead of records (docs/ratings.md)
    const e = s.endless;
    box.append(
      h("p", {}, t("play:endlessAbout")),
      h("p.big#solo-done", {}, `${s.done}`, h("small", {}, ` ${t("play:solvedWord")}`)),
      h(
        "p#endless-player",
        {},
        `${t("play:yourRatingWord")} `,
        h("strong", {}, `${Math.round(e.rating)}`),
        ` ± ${Math.round(2 * e.rd)}`,
      ),
    );
    if (e.task_rating !== null) {
      box.append(
        h(
          "p#endless-task",
          {},
          `${t("play:thisTaskWord")} `,
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
        ? t("play:dailyAbout", { count: s.amount })
        : s.goal === "practice"
          ? t("play:practiceAbout")
          : s.goal === "time"
            ? t("play:timeAbout", { count: s.amount })
            : t("play:tasksAbout", { count: s.amount }),
    ),
    h("p.big#solo-done", {}, `${s.done}`, h("small", {}, ` ${t("play:solvedWord")}`)),
  );
  // the records of this kind of run, fetched once per room (practice keeps none)
  if (!records.element) {
    const me = savedName();
    const today = new Date().toISOString().slice(0, 10);
    records.element = daily
      ? h("div.solo-records", {}, dailyBoard(st.edition, st.day ?? today, t("play:todaysLeaderboard")))
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
