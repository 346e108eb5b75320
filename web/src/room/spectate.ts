// Spectating: every player's table (the area, flat or as 3D ghost cubes, and the pieces) and
// how far each is, for a spectator or a seat without a task this round.

import { areaSvg } from "../board/pictures";
import { piecePicture } from "../board3d";
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
    const unit = cat.layers > 1 ? 0.6 : cat.lattice === "square" ? 0.75 : 0.65;
    const pieces = h("div.table-pieces", {}, ...task.pieces.map((id) => piecePicture(cat, id, undefined, unit)));
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
        pieces,
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
