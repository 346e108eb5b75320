// What the running clock says without being looked at: the time left spoken (each whole minute,
// at 30 s, at 10 s and from 5 s down) and a tick sounded each of the last 10 seconds.

import { announce } from "../announce";
import { t } from "../i18n";
import type { Room, RoomEvent } from "../protocol";
import { play } from "../sound";
import { placeText } from "../ui";
import { seatName } from "./words";

let last: { key: string; second: number } | null = null;

/** The clock `key` (a round's or task's) shows `left` seconds (null: it counts no time down). */
export function clockCues(key: string, left: number | null): void {
  if (left === null || left <= 0) return;
  const second = Math.ceil(left);
  if (!last || last.key !== key || second >= last.second) {
    // a new clock, or time added: nothing was crossed
    last = { key, second };
    return;
  }
  // the whole seconds passed since the last look (several when the page was busy or hidden)
  const crossed: number[] = [];
  for (let s = last.second - 1; s >= second; s--) crossed.push(s);
  last.second = second;
  const spoken = crossed.find((s) => s <= 5 || s === 10 || s === 30 || (s % 60 === 0 && s >= 60));
  if (spoken !== undefined) announce(leftWords(spoken));
  if (crossed.some((s) => s <= 10)) play(second <= 3 ? "last-tick" : "tick");
}

function leftWords(s: number): string {
  if (s >= 60 && s % 60 === 0) {
    const m = s / 60;
    return t("play:minutesLeft", { count: m });
  }
  return t("play:secondsLeft", { count: s });
}

/** Said to screen readers and sounded for an event of `room` seen from `seat`: another player's
 * "Ubongo!" (one's own is the board's status, spoken already), a round's end with its finish
 * order. */
export function eventCues(ev: RoomEvent, room: Room, seat: number | null): void {
  if (ev.kind === "finished" && ev.data.seat !== seat) {
    announce(t("play:calledUbongo", { name: seatName(room, ev.data.seat), place: placeText(ev.data.place) }));
  } else if (ev.kind === "round_ended" && ev.data.kind !== "solo") {
    play("round-end");
    const order = ev.data.finish_order.map((s, i) => `${placeText(i + 1)} ${seatName(room, s)}`);
    const what = ev.data.kind === "round" ? t("play:roundOver", { round: ev.data.round }) : t("play:tieBreakOver");
    announce(`${what}. ${order.length ? order.join(", ") : t("play:nobodyFinishedShort")}.`);
  }
}
