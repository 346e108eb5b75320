// The game's top bar: the way home (asking first in a running game), the edition, the round or
// the solo run's progress, spectators, the die or corner, the clock, Skip and Stop in solo, and
// the language picker and settings (the app's header is hidden during a round).

import { h } from "../dom";
import { languagePicker, t } from "../i18n";
import type { GameView, Room } from "../protocol";
import { editionInfo, hourglass, keyBadge, watchers } from "../ui";
import type { RoomContext } from "./context";
import { askBeforeLeaving } from "./leave";
import { tieBreakName } from "./words";

/** The top bar's items for the running round (`settings`: the screen's settings menu, kept). */
export function topBar(ctx: RoomContext, room: Room, game: GameView, settings: HTMLElement): HTMLElement[] {
  const ed = editionInfo(room.settings.edition);
  const solo = game.solo;
  const items: (HTMLElement | null)[] = [
    h(
      "a.back#home-link",
      {
        href: "/",
        "data-link": "",
        title: t("common:home"),
        "aria-label": t("common:home"),
        onclick: (e: MouseEvent) => askBeforeLeaving(e, room, ctx),
      },
      "⌂",
    ),
    h(
      "div.round-info",
      {},
      h("strong", {}, ed.title),
      // said from the first moment: this game moves ratings
      room.settings.rated ? h("span.tag.rated#rated-badge", { title: t("room:ratedTitle") }, t("room:rated")) : null,
      room.settings.arena_race
        ? h("span.tag#arena-badge", {}, t("arena:raceNumber", { number: room.settings.arena_race }))
        : null,
      solo
        ? h(
            "span#solo-count",
            {},
            soloCount(room, solo),
            solo.endless
              ? h(
                  "span#endless-rating",
                  { title: t("play:ratingTitle") },
                  t("play:ratingShort", { rating: Math.round(solo.endless.rating) }),
                )
              : null,
          )
        : h(
            "span#round-no",
            {},
            game.stage === "playoff"
              ? tieBreakName(game.kind)
              : t("play:roundOf", { round: game.round, rounds: game.rounds }),
          ),
    ),
    watchers(room.spectators),
    solo ? null : keyBadge(room.settings.edition, game.key),
    h("div.timer#timer", { "aria-live": "off" }, hourglass(), h("span.timer-label"), h("span.timer-text")),
  ];
  if (solo && ctx.store.seat !== null) {
    const skip = h("button#skip", { type: "button" }, t("play:skipTask"));
    skip.addEventListener("click", () => ctx.send({ type: "skip", round: game.round }));
    items.push(skip);
    if (room.settings.puzzles !== "daily") {
      // an endless run has no end but this; a time or tasks run so ended is not ranked (a
      // daily run is played to its last task)
      const stop = h("button#stop", { type: "button" }, t("play:stop"));
      stop.addEventListener("click", () => ctx.send({ type: "stop", round: game.round }));
      items.push(stop);
    }
  }
  // the app's header (its language picker and settings) is hidden during a round: both come
  // along in the top bar
  items.push(languagePicker(true), settings);
  return items.filter((x): x is HTMLElement => !!x);
}

/** The solo run's progress in the top bar: a daily run counts its tasks, practice has no goal. */
function soloCount(room: Room, solo: NonNullable<GameView["solo"]>): string {
  const skipped = solo.skipped + solo.gave_up;
  if (room.settings.puzzles === "daily") {
    return t("play:dailyCount", {
      task: Math.min(solo.amount, solo.done + skipped + 1),
      amount: solo.amount,
      done: solo.done,
    });
  }
  const of = solo.goal === "tasks" ? ` / ${solo.amount}` : "";
  const hints = solo.hints ? ` · ${t("records:hints", { count: solo.hints })}` : "";
  const practice = solo.goal === "practice" ? t("play:practicePrefix") : "";
  return `${practice}${t("play:soloCount", { done: solo.done, of, skipped })}${hints}`;
}
