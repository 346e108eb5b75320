// The round result: the finish order (and who did not finish), the gems each finisher drew
// (dropping in one by one) or the cards kept and handed over, a tie announced, a solution of
// your task (a spectator: of every unfinished player's), and the time to the next round.

import { areaSvg } from "../board/pictures";
import { solutionIsoSvg } from "../board3d/iso";
import type { Catalogue } from "../catalogue";
import { h } from "../dom";
import type { GameView, Room } from "../protocol";
import { cardIcon, editionInfo, gem, gemPoints, gemWords, placeText } from "../ui";
import type { Award, RoomStore } from "./store";
import { isTieBreak, seatName, tieBreakName, tiedSeats, tieWords } from "./words";

/** The round result as a dialog over the board, with the time to the next round. */
export function roundResult(store: RoomStore, room: Room, game: GameView, cat: Catalogue | null): HTMLElement {
  return h(
    "div.overlay",
    { role: "dialog", "aria-label": "Round result" },
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
    ? `The ${tieBreakName(game.kind).toLowerCase()}`
    : room.phase === "over"
      ? "The last round"
      : `Round ${game.round} is over`;
  const tie = room.phase !== "over" && game.stage === "between" && tiedSeats(game).length > 1;
  const parts: (HTMLElement | null)[] = [
    h("h2", {}, title),
    finishOrder(room, game),
    awards.length ? h("div", {}, h("h3", {}, "Rewards"), awardRows(store, room, game, awards)) : null,
    tie ? tieNote(room, game) : null,
  ];
  if (cat) parts.push(...solutions(store, room, game, cat));
  return parts.filter((x): x is HTMLElement => !!x);
}

function finishOrder(room: Room, game: GameView): HTMLElement {
  const order = h("ol.finish-order");
  const finished = [...game.finished].sort((a, b) => a.place - b.place);
  for (const f of finished) order.append(h("li", {}, h("b", {}, placeText(f.place)), " ", seatName(room, f.seat)));
  if (!finished.length) order.append(h("li.muted", {}, "Nobody finished this time."));
  else if (!game.solo) {
    for (const seat of Object.keys(game.tasks)) {
      if (!finished.some((f) => String(f.seat) === seat)) {
        const nothing = editionInfo(room.settings.edition).gems ? ": no gem this round" : "";
        order.append(h("li.muted.not-finished", {}, `${seatName(room, seat)} did not finish in time${nothing}`));
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
      for (let i = 0; i < points; i++) row.append(h("span.card-won", { title: "a card won: 1 point" }, cardIcon()));
      why = cardWhy(room, a, name, placeOf(a.seat), handedToMe);
    }
    row.append(h("span.award-points", {}, points ? `+${points} point${points === 1 ? "" : "s"}` : "no points"));
    row.append(h("p.award-why", {}, why));
    awards.append(row);
  }
  const toBag = end && "to_bag" in end.awards ? end.awards.to_bag : [];
  if (toBag.length) {
    const what = toBag.map(gemWords).join(" and ");
    awards.append(
      h(
        "p.award-why.to-bag",
        {},
        order.length
          ? `Nobody finished ${placeText(order.length + 1)}, so this round's ${what} went back into the bag.`
          : `Nobody finished in time, so this round's ${what} went back into the bag.`,
      ),
    );
  }
  return awards;
}

/** "Ada solved first: took a blue sapphire (3) from the display and drew a red ruby (4) from
 * the bag." */
function gemWhy(name: string, place: number, gems: string[], placeGems: string[]): string {
  const ordinal = ["first", "second", "third", "fourth", "fifth", "sixth"][place - 1] ?? placeText(place);
  const fromDisplay = place >= 1 && place <= placeGems.length;
  const bag = fromDisplay ? gems.slice(1) : gems;
  const parts: string[] = [];
  if (fromDisplay && gems.length) parts.push(`took a ${gemWords(gems[0])} from the display`);
  if (bag.length) parts.push(`drew a ${bag.map(gemWords).join(" and a ")} from the bag`);
  const bonus = fromDisplay ? ` (the ${placeGems.length === 2 ? "two fastest get" : "fastest get"} a bonus gem)` : "";
  return `${name} solved ${ordinal}: ${parts.join(" and ")}${bonus}.`;
}

/** What happened to a player's card, in words: kept as a point, handed to the first to
 * finish, or put back in the box. */
function cardWhy(room: Room, a: Award, name: string, place: number, handedToMe: number): string {
  const given = handedToMe
    ? ` and is handed ${handedToMe === 1 ? "a card" : `${handedToMe} cards`} by those who did not finish`
    : "";
  if (a.kind === "kept") {
    return place === 1
      ? `${name} finished first: keeps the card (1 point)${given}.`
      : `${name} finished in time: keeps the card (1 point).`;
  }
  const first = a.to !== undefined && a.to !== null ? seatName(room, a.to) : "the first to finish";
  if (a.kind === "handed") return `${name} did not finish in time: the card goes to ${first}, who finished first.`;
  return `${name}'s card goes back in the box: ${place ? "only the first to finish scores in this variant" : "nobody scores it"}.`;
}

function tieNote(room: Room, game: GameView): HTMLElement {
  const gems = editionInfo(room.settings.edition).gems;
  return h(
    "p.tie-note",
    {},
    h("b", {}, "A tie! "),
    `${tieWords(room, game)}: a ${gems ? "playoff" : "tie round"} decides the game. `,
    gems
      ? "Each gets a new board, one die roll, no hourglass; the first to finish wins."
      : "Each plays a card of the player to their left; the first to finish wins.",
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
    const title = mine !== null ? "A solution of your task" : `A solution of ${seatName(room, seat)}'s task`;
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
    const what = tiedSeats(game).length > 1 ? (gems ? "Playoff" : "Tie round") : "Next round";
    next.textContent = `${what} in ${Math.max(0, Math.ceil((game.next_round_at - now) / 1000))} s`;
  }
}
