// The round result: the finish order (and who did not finish), the gems each finisher drew
// (dropping in one by one) or the cards kept and handed over, a tie announced, a solution of
// your task (a spectator: of every unfinished player's), and the time to the next round.

import { areaSvg } from "../board/pictures";
import { solutionIsoSvg } from "../board3d/iso";
import type { Catalogue } from "../catalogue";
import { h } from "../dom";
import { t } from "../i18n";
import type { GameView, Room } from "../protocol";
import { aGemWords, cardIcon, editionInfo, gem, gemPoints, gemWords, placeText } from "../ui";
import type { Award, RoomStore } from "./store";
import { andList, isTieBreak, seatName, tiedSeats, tieKind, tieWords } from "./words";

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
    awards.length ? h("div", {}, h("h3", {}, t("play:rewards")), awardRows(store, room, game, awards)) : null,
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
        const key = editionInfo(room.settings.edition).gems ? "play:didNotFinishNoGem" : "play:didNotFinishInTime";
        order.append(h("li.muted.not-finished", {}, t(key, { name: seatName(room, seat) })));
      }
    }
  }
  return order;
}

/** One row per player who got something (or lost their card): what they got, drawn as gems
 * or cards, its points, and one line saying what happened and why. */
function awardRows(store: RoomStore, room: Room, game: GameView, list: Award[]): HTMLElement {
  const awards = h("div.awards");
  const end = store.lastRoundEnd && store.lastRoundEnd.round === game.round ? store.lastRoundEnd.data : null;
  const order = (end?.finish_order ?? [...game.finished].sort((a, b) => a.place - b.place).map((f) => f.seat)).map(
    String,
  );
  const placeOf = (seat: string) => order.indexOf(seat) + 1;
  const placeGems = editionInfo(room.settings.edition).placeGems;
  // finishers first, in their order; then the others
  const rows = [...list].sort((a, b) => (placeOf(a.seat) || 99) - (placeOf(b.seat) || 99));
  let delay = 0;
  for (const a of rows) {
    const name = seatName(room, a.seat);
    const row = h("div.award", { "data-seat": a.seat }, h("span.award-name", {}, name));
    let points = 0;
    let why = "";
    if (a.gems) {
      for (const g of a.gems) {
        const el = gem(g, "drop");
        el.style.animationDelay = `${delay}ms`;
        row.append(el);
        delay += 450;
      }
      points = gemPoints(a.gems);
      why = gemWhy(name, placeOf(a.seat), a.gems, placeGems);
    } else if (a.kind) {
      const handedToMe = list.filter((o) => o.kind === "handed" && o.to === a.seat).length;
      points = (a.kind === "kept" ? 1 : 0) + handedToMe;
      for (let i = 0; i < points; i++) row.append(h("span.card-won", { title: t("play:cardWon") }, cardIcon()));
      why = cardWhy(room, a, name, placeOf(a.seat), handedToMe);
    }
    row.append(h("span.award-points", {}, points ? t("play:plusPoints", { count: points }) : t("play:noPoints")));
    row.append(h("p.award-why", {}, why));
    awards.append(row);
  }
  const toBag = end && "to_bag" in end.awards ? end.awards.to_bag : [];
  if (toBag.length) {
    const gems = andList(toBag.map(gemWords));
    awards.append(
      h(
        "p.award-why.to-bag",
        {},
        order.length
          ? t("play:why.toBagPlace", { place: placeText(order.length + 1), gems })
          : t("play:why.toBagNobody", { gems }),
      ),
    );
  }
  return awards;
}

/** "Ada solved first: took a blue sapphire (3) from the display and drew a red ruby (4) from
 * the bag." */
function gemWhy(name: string, place: number, gems: string[], placeGems: string[]): string {
  const ordinal = t(`play:why.nth.${place}`, { defaultValue: placeText(place) });
  const fromDisplay = place >= 1 && place <= placeGems.length;
  const bag = fromDisplay ? gems.slice(1) : gems;
  const parts: string[] = [];
  if (fromDisplay && gems.length) parts.push(t("play:why.fromDisplay", { gem: aGemWords(gems[0]) }));
  if (bag.length) parts.push(t("play:why.fromBag", { gems: andList(bag.map(aGemWords)) }));
  const bonus = fromDisplay ? ` ${t("play:why.bonus", { count: placeGems.length })}` : "";
  return t("play:why.solved", { name, nth: ordinal, what: andList(parts), bonus });
}

/** What happened to a player's card, in words: kept as a point, handed to the first to
 * finish, or put back in the box. */
function cardWhy(room: Room, a: Award, name: string, place: number, handedToMe: number): string {
  const given = handedToMe ? ` ${t("play:why.handedToMe", { count: handedToMe })}` : "";
  if (a.kind === "kept") {
    return place === 1 ? t("play:why.keptFirst", { name, given }) : t("play:why.keptInTime", { name });
  }
  if (a.kind === "handed") {
    return a.to !== undefined && a.to !== null
      ? t("play:why.handed", { name, first: seatName(room, a.to) })
      : t("play:why.handedFirst", { name });
  }
  return place ? t("play:why.discardedPlace", { name }) : t("play:why.discardedNobody", { name });
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
