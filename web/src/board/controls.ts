// The flat board's keys and buttons, as commands the board carries out: `1`-`9` select a piece,
// `N` the next one, `R` turns (Shift+R the other way), `F` flips, arrows move, `Enter` puts a
// tray piece on the board, `Esc` or `Backspace` sends it back; buttons Rotate, Flip, Tray, Clear.

import { nameWithLabel } from "../dom";
import type { LatticeName } from "../geometry";
import { t } from "../i18n";

export type BoardCommand =
  | { kind: "select"; index: number }
  | { kind: "next"; back: boolean }
  | { kind: "rotate"; back: boolean }
  | { kind: "flip" }
  | { kind: "tray" }
  | { kind: "enter" }
  | { kind: "move"; dx: number; dy: number }
  | { kind: "clear" };

/** The command of a key (`KeyboardEvent.key`) on a board of `pieceCount` pieces, or null. */
export function keyCommand(k: string, pieceCount: number): BoardCommand | null {
  const digit = Number.parseInt(k, 10);
  if (!Number.isNaN(digit) && digit >= 1 && digit <= pieceCount) return { kind: "select", index: digit - 1 };
  if (k === "n" || k === "N") return { kind: "next", back: k === "N" };
  if (k === "r" || k === "R") return { kind: "rotate", back: k === "R" };
  if (k === "f" || k === "F") return { kind: "flip" };
  if (k === "Escape" || k === "Backspace" || k === "Delete") return { kind: "tray" };
  if (k === "Enter" || k === " ") return { kind: "enter" };
  if (k.startsWith("Arrow")) {
    const dx = k === "ArrowLeft" ? -1 : k === "ArrowRight" ? 1 : 0;
    const dy = k === "ArrowUp" ? -1 : k === "ArrowDown" ? 1 : 0;
    return { kind: "move", dx, dy };
  }
  return null;
}

/** The lattice translation an arrow key moves a piece by (`dx` or `dy` is ±1). Hexagons and
 * triangles have no straight "down": up and down zig-zag (`zig` alternating) so that the
 * piece keeps its column. */
export function arrowStep(lattice: LatticeName, dx: number, dy: number, zig: boolean): number[] {
  if (lattice === "square") return [dx, dy];
  if (dy === 0) return [dx, 0];
  const up = lattice === "hexagon" ? [zig ? 0 : 1, -1] : [zig ? 0 : -1, 1];
  return dy < 0 ? up : [-up[0], -up[1]];
}

/** The board's buttons; each gives the focus back to the board (`done`) after acting. */
export function toolbar(run: (command: BoardCommand) => void, canFlip: boolean, done: () => void): HTMLElement {
  const bar = document.createElement("div");
  bar.className = "board-tools";
  const button = (label: string, title: string, command: BoardCommand, name: string) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `tool tool-${name}`;
    b.innerHTML = label;
    b.title = title;
    b.setAttribute("aria-label", nameWithLabel(label, title));
    b.addEventListener("click", () => {
      run(command);
      done();
    });
    bar.appendChild(b);
  };
  button(`⟳ <span>${t("board:rotate")}</span>`, t("board:rotateTitle"), { kind: "rotate", back: false }, "rotate");
  if (canFlip) button(`⇋ <span>${t("board:flip")}</span>`, t("board:flipTitle"), { kind: "flip" }, "flip");
  button(`↩ <span>${t("board:tray")}</span>`, t("board:trayTitle"), { kind: "tray" }, "tray");
  button(`✕ <span>${t("board:clear")}</span>`, t("board:clearTitle"), { kind: "clear" }, "clear");
  return bar;
}
