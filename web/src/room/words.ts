// How the room screens say who is tied and what breaks the tie (shared by the game, the round
// result and the game's end), and a hint's answer.

import { language, t } from "../i18n";
import type { GameView, HintReply, Room, Seat } from "../protocol";
import { editionInfo } from "../ui";

/** The rulebooks' names for a tie-break: Classic and 3D play a playoff, Extreme a tie round. */
export function tieBreakName(kind: string | null): string {
  return kind === "tie-round" ? t("play:tieRound") : t("play:playoff");
}

/** The tie-break as a translation's context: sentences about it differ by kind (in German
 * even their articles do), so each has a text per kind (`key_playoff`, `key_tieRound`). */
export function tieKind(kind: string | null): "playoff" | "tieRound" {
  return kind === "tie-round" ? "tieRound" : "playoff";
}

/** "Ada", "Ada and Bob", "Ada, Bob and Cy". */
export function andList(names: string[]): string {
  return names.length < 2
    ? names.join("")
    : t("common:andList", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/** The players tied for the most points, in a tie-break and after it (the table's `tied`). */
export function tiedSeats(game: GameView): number[] {
  return (game as GameView & { tied?: number[] }).tied ?? [];
}

/** Whether a round is the tie-break (Classic/3D playoff, Extreme/Trigo tie round). */
export function isTieBreak(kind: string | null | undefined): boolean {
  return kind === "playoff" || kind === "tie-round";
}

/** A seat's player's name, or "seat 2" for a seat emptied since. */
export function seatName(room: Room, seat: number | string): string {
  const s = room.seats[Number(seat)];
  return s ? shownName(s, Number(seat)) : t("common:seat", { seat });
}

/** The name a seat is shown by: a bot's name as the server gives it ("Bot 2 (easy)", which
 * says its level) in the language shown; a person's as they chose it. */
export function shownName(s: Seat, index: number): string {
  if (s.kind === "bot" && s.level && s.name === `Bot ${index + 1} (${s.level})`) {
    return t("room:botName", { n: index + 1, level: t(`room:botLevels.${s.level}`) });
  }
  return s.name;
}

/** The tie a tie-break is about, in words: "Ada and Bob are tied at 0 points". */
export function tieWords(room: Room, game: GameView, past = false): string {
  const tied = tiedSeats(game);
  const names = andList(tied.map((s) => seatName(room, s)));
  const score = game.scores[String(tied[0])];
  const gems = editionInfo(room.settings.edition).gems;
  const amount = !score
    ? ""
    : gems
      ? t("play:tiedAtPoints", { count: score.points })
      : t("play:tiedWithCards", { count: score.cards });
  const all = tied.length > 2 ? "All" : "";
  return t(past ? `play:tiedPast${all}` : `play:tied${all}`, { names, amount });
}

/** The server's sentence on a hint, said again in the language shown from the reply's facts. */
export function hintMessage(r: HintReply): string {
  if (language() === "en") return r.message;
  if (r.solved) return t("play:hintSolved");
  if (r.move.length) return t("play:hintMove", { pieces: r.move.join(", ") });
  return r.message;
}
