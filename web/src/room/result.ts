// The round result: the finish order (and who did not finish), the gems each finisher drew
// (dropping in one by one) or the cards kept and handed over, a tie announced, a solution of
// your task (a spectator: of every unfinished player's), and the time to the next round.

import { areaSvg } from "../board/pictures";
import { solutionIsoSvg } from "../board3d/iso";
import type { Catalogue } from "../catalogue";
import { h } from "../dom";
import { t } from "../i18n";
import type { GameView, Room } from "../protocol";
import { editionInfo, gem, placeText } from "../ui";
import type { Award, RoomStore } from "./store";
import { isTieBreak, seatName, tiedSeats, tieKind, tieWords } from "./words";

/** The round result as a dialog over the board, with the time to the next round. */
export function roundResult(store: RoomStore, room: Room, game: GameView, cat: Catalogue | null): HTMLElement {
  return h(
    "div.overlay",
    { role: "dialog", "aria-label": t("play:roundResult") },
    h(
      "div.panel.round-result",
      {},
      ...roundResultParts(store, room, game, cat),
      h("p.muted.next-round#next-round", {}, ""),
    ),
  );
}

/** What a round result says (also shown under the game's end for the last round). */
export function roundResultParts(store: RoomStore, room: Room, game: GameView, cat: Catalogue | null): HTMLElement[] {
  const awards = store.lastAwards && store.lastAwards.round === game.round ? store.lastAwards.list : [];
  const title = isTieBreak(game.kind)
    ? t("play:theTieBreak", { context: tieKind(game.kind) })
    : room.phase === "over"
      ? t("play:lastRound")
      : t("play:roundOver", { round: game.round });
  const tie = room.phase !== "over" && game.stage === "between" && tiedSeats(game).length > 1;
  const parts: (HTMLElement | null)[] = [
    h("h2", {}, title),
    finishOrder(room, game),
    awards.length ? h("div", {}, h("h3", {}, t("play:rewards")), awardRows(room, awards)) : null,
    tie ? tieNote(room, game) : null,
  ];
  if (cat) parts.push(...solutions(store, room, game, cat));
  return parts.filter((x): x is HTMLElement => !!x);
}

function finishOrder(room: Room, game: GameView): HTMLElement {
  const order = h("ol.finish-order");
  const finished = [...game.finished].sort((a, b) => a.place - b.place);
  for (const f of finished) order.append(h("li", {}, h("b", {}, placeText(f.place)), " ", seatName(room, f.seat)));
  if (!finished.length) order.append(h("li.muted", {}, t("play:nobodyFinished")));
  else if (!game.solo) {
    for (const seat of Object.keys(game.tasks)) {
      if (!finished.some((f) => String(f.seat) === seat)) {
        order.append(h("li.muted.not-finished", {}, t("play:playerDidNotFinish", { name: seatName(room, seat) })));
      }
    }
  }
  return order;
}

function awardRows(room: Room, list: Award[]): HTMLElement {
  const awards = h("div.awards");
  let delay = 0;
  for (const a of list) {
    const row = h("div.award", { "data-seat": a.seat }, h("span.award-name", {}, seatName(room, a.seat)));
    for (const g of a.gems ?? []) {
      const el = gem(g, "drop");
      el.style.animationDelay = `${delay}ms`;
      row.append(el);
      delay += 450;
    }
    if (a.kind) {
      const to = a.to !== undefined && a.to !== null ? seatName(room, a.to) : "";
      const text = to
        ? t(`play:award.${a.kind}To`, { card: a.card ?? "", to })
        : t(`play:award.${a.kind}`, { card: a.card ?? "" });
      row.append(h("span.card-award", {}, text));
    }
    awards.append(row);
  }
  return awards;
}

function tieNote(room: Room, game: GameView): HTMLElement {
  const gems = editionInfo(room.settings.edition).gems;
  return h(
    "p.tie-note",
    {},
    h("b", {}, `${t("play:aTie")} `),
    `${t(gems ? "play:playoffDecides" : "play:tieRoundDecides", { tie: tieWords(room, game) })} `,
    gems ? t("play:playoffHow") : t("play:tieRoundHow"),
  );
}

function solutions(store: RoomStore, room: Room, game: GameView, cat: Catalogue): HTMLElement[] {
  const end = store.lastRoundEnd && store.lastRoundEnd.round === game.round ? store.lastRoundEnd.data : null;
  const solutions = end?.solutions ?? game.solutions;
  // a player sees a solution of their own task; a spectator sees everyone's
  const mine = store.seat;
  const shown = mine !== null ? [String(mine)] : Object.keys(solutions).sort();
  const out: HTMLElement[] = [];
  for (const seat of shown) {
    const sol = solutions[seat];
    const task = game.tasks[seat];
    if (!sol || !task) continue;
    const title = mine !== null ? t("play:yourSolution") : t("play:solutionOf", { name: seatName(room, seat) });
    const picture = cat.layers > 1 ? solutionIsoSvg(cat, task.area, sol) : areaSvg(cat, task.area, sol);
    out.push(h("div.solution", { "data-seat": seat }, h("h3", {}, title), picture));
  }
  return out;
}

/** "Next round in 4 s" (or the playoff's, the tie round's) under a round result. */
export function showNextRound(root: HTMLElement, room: Room, game: GameView, now: number): void {
  const next = root.querySelector("#next-round");
  if (next && game.next_round_at) {
    const gems = editionInfo(room.settings.edition).gems;
    const what = tiedSeats(game).length > 1 ? (gems ? t("play:playoff") : t("play:tieRound")) : t("play:nextRound");
    next.textContent = t("play:inSeconds", { what, n: Math.max(0, Math.ceil((game.next_round_at - now) / 1000)) });
  }
}
