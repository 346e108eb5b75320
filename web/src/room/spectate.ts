// Spectating: every player's table (the area, flat or as 3D ghost cubes, and the pieces) and
// how far each is, for a spectator or a seat without a task this round.

import { areaSvg } from "../board/pictures";
import { tablePieces } from "../board3d";
import { areaIsoSvg } from "../board3d/iso";
import type { Catalogue } from "../catalogue";
import { h } from "../dom";
import { t } from "../i18n";
import type { GameView, Room } from "../protocol";
import { placeText } from "../ui";
import { shownName } from "./words";

/** What a spectator sees: every player's task (area and pieces) and how far they are. */
export function spectatorTables(room: Room, game: GameView, cat: Catalogue, mySeat: number | null): HTMLElement {
  const grid = h("div.tables");
  for (const [seat, task] of Object.entries(game.tasks)) {
    if (!task) continue;
    const s = room.seats[Number(seat)];
    const fin = game.finished.find((f) => f.seat === Number(seat));
    const state = fin
      ? t("play:finishedPlace", { place: placeText(fin.place) })
      : game.stage === "between"
        ? t("play:didNotFinish")
        : t("play:working");
    grid.append(
      h(
        "figure.table",
        { "data-seat": seat, class: fin ? "done" : "" },
        h(
          "figcaption",
          {},
          h("b", {}, s ? shownName(s, Number(seat)) : t("common:seat", { seat })),
          " ",
          h("span.table-state", {}, state),
        ),
        cat.layers > 1 ? areaIsoSvg(task.area, cat.layers, 0.75) : areaSvg(cat, task.area),
        tablePieces(cat, task.pieces),
      ),
    );
  }
  return h(
    "div.watching",
    {},
    h("h2", {}, t("play:watching")),
    h("p.muted", {}, mySeat !== null ? t("play:notInRound") : t("play:spectatorNote")),
    grid,
  );
}
