// Pictures drawn with the flat board's nodes: one piece (the how-to, the tray of a finished
// round) and an area with some placements (spectators' tables, solutions).

import { type Catalogue, type Placement, pieceOf } from "../catalogue";
import { svg } from "../dom";
import { type Cell, cellsBounds } from "../geometry";
import { colourName, t } from "../i18n";
import { pieceShapeNodes } from "./draw";
import { Board } from "./index";

/** A picture of one piece (the how-to, the tray of a finished round). */
export function pieceSvg(cat: Catalogue, id: string, transform?: number, unitRem = 1.1): SVGSVGElement {
  const entry = pieceOf(cat, id);
  const cells = entry.shapes[String(transform ?? entry.transforms[0])];
  const b = cellsBounds(cat.lattice, cells);
  const pad = 0.1;
  const el = svg("svg", {
    class: "piece-picture",
    viewBox: `${b.minX - pad} ${b.minY - pad} ${b.maxX - b.minX + 2 * pad} ${b.maxY - b.minY + 2 * pad}`,
    role: "img",
    "aria-label": t("board:piecePicture", { id: entry.id, colour: colourName(entry.colour_name), name: entry.name }),
  }) as SVGSVGElement;
  // one size per unit edge, so that pictures of different pieces share a scale
  el.style.width = `${(b.maxX - b.minX + 2 * pad) * unitRem}rem`;
  el.style.height = `${(b.maxY - b.minY + 2 * pad) * unitRem}rem`;
  const g = svg("g", { class: "piece" });
  g.append(...pieceShapeNodes(cat.lattice, entry, cells));
  el.appendChild(g);
  return el;
}

/** A small picture of an area with some placements (opponents' boards, solutions). */
export function areaSvg(cat: Catalogue, area: Cell[], placements: Placement[] = []): SVGSVGElement {
  const board = new Board({
    catalogue: cat,
    area,
    pieces: placements.map((p) => p.piece),
    initial: placements,
    readonly: true,
    trayless: true,
  });
  const el = board.element.querySelector("svg") as SVGSVGElement;
  el.classList.add("area-picture");
  return el;
}
