// The one line under the 3D board that says what matters now: the piece in hand and where it
// would go wrong, what is wrong on the board, or how many spaces are still empty.

import type { Check, Fault } from "./shapes";

export interface HintFacts {
  /** the piece in hand described ("A (red 4)") and the faults of its cells where it would land */
  hand: { who: string; faults: Fault[] } | null;
  /** the covered check of the pieces on the board */
  result: Check;
  /** a piece described, by id */
  describe(id: string): string;
  layers: number;
  locked: boolean;
  /** how many pieces are in the tray or in hand */
  inTray: number;
  /** played by touch: the hints speak of drags, taps and fingers, not of keys */
  touch: boolean;
}

/** The hint's text, and whether it says something is wrong. */
export function boardHint3d(f: HintFacts): { text: string; bad: boolean } {
  const { result, layers } = f;
  if (f.hand) {
    const wrong = [
      f.hand.faults.includes("outside") ? "stick out of the area" : "",
      f.hand.faults.includes("too_high") ? `go higher than level ${layers}` : "",
    ].filter(Boolean);
    if (wrong.length) return { text: `${f.hand.who} would ${wrong.join(" and ")} here.`, bad: true };
    const how = f.touch
      ? "drag it over the board and let go where its shadow fits; twist two fingers or tap Spin, Tip, Roll to turn it."
      : "arrows move it, R T Y or the wheel turn it, Enter puts it down.";
    return { text: `${f.hand.who} in hand: ${how}`, bad: false };
  }
  if (result.outside.length || result.tooHigh.length) {
    const out = result.outside.length
      ? `${result.outside.map(f.describe).join(", ")} ${result.outside.length > 1 ? "stick" : "sticks"} out of the area.`
      : "";
    const high = result.tooHigh.length
      ? `${result.tooHigh.map(f.describe).join(", ")} ${result.tooHigh.length > 1 ? "go" : "goes"} higher than level ${layers}.`
      : "";
    return { text: [out, high].filter(Boolean).join(" "), bad: true };
  }
  if (!result.covered && !f.locked) {
    const text = f.inTray
      ? f.touch
        ? `Fill the area ${layers} levels high. Drag a piece from the tray onto the board.`
        : `Fill the area ${layers} levels high. Take a piece: drag it onto the board, click it or press its number.`
      : `${result.holes} ${result.holes === 1 ? "space is" : "spaces are"} still empty.`;
    return { text, bad: false };
  }
  return { text: "", bad: false };
}
