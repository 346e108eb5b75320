// The game's clock in the top bar: the hourglass or countdown from the server's deadline, the
// solo run's time, and a word saying which clock it is.

import { t } from "../i18n";
import type { GameView, Room } from "../protocol";
import { clock, editionInfo } from "../ui";
import { clockCues } from "./cues";

/** Redraw the clock `timer` (the top bar's `#timer`) for the server time `now`. */
export function showClock(timer: HTMLElement, room: Room, game: GameView, now: number): void {
  const gems = editionInfo(room.settings.edition).gems;
  const { text, urgent, left } = clockText(game, gems, now);
  clockCues(`${room.code}:${game.round}:${game.stage}`, left);
  const label = timer.querySelector(".timer-text");
  if (label) label.textContent = text;
  // a card round's clock before anybody finishes is the server's round limit, not a
  // countdown: 5:00 with no word would read like one
  // so is a playoff's: the rules give it no hourglass, the room a limit
  const limit = !game.solo && !!game.deadline && (game.stage === "playoff" || (game.stage === "playing" && !gems));
  // say what the clock is: a first-time player cannot tell a countdown from an hourglass
  const what = timer.querySelector(".timer-label");
  if (what) what.textContent = text ? clockLabel(game.stage, limit) : "";
  timer.className = `timer ${urgent}${limit ? " limit" : ""}`;
  timer.classList.toggle("empty", !text);
}

/** The clock's words, its urgency class and the seconds it counts down to (null: none). */
function clockText(game: GameView, gems: boolean, now: number): { text: string; urgent: string; left: number | null } {
  const solo = game.solo;
  if (solo) {
    // an endless run's clock is the task's: its own time limit
    const ends = solo.endless ? game.deadline : solo.ends_at;
    if (ends) {
      const left = (ends - now) / 1000;
      return { text: clock(left), urgent: left < (solo.endless ? 10 : 30) ? "urgent" : "", left };
    }
    if (solo.ends_at) {
      const left = (solo.ends_at - now) / 1000;
      return { text: clock(left), urgent: left < 30 ? "urgent" : "", left };
    }
    return { text: solo.started_at ? clock((now - solo.started_at) / 1000) : "", urgent: "", left: null };
  }
  if (game.deadline) {
    const left = (game.deadline - now) / 1000;
    const urgent = left < 10 ? "urgent" : game.stage === "countdown" ? "countdown" : "";
    return { text: clock(left), urgent, left };
  }
  if (game.stage === "playing") return { text: gems ? "" : t("play:noCountdownYet"), urgent: "", left: null };
  return { text: "", urgent: "", left: null };
}

function clockLabel(stage: string, limit: boolean): string {
  if (stage === "countdown") return t("play:countdown");
  if (stage === "second_chance") return t("play:secondChance");
  return limit ? t("play:timeLimit") : "";
}
