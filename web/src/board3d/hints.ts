// The one line under the 3D board that says what matters now: the piece in hand and where it
// would go wrong, what is wrong on the board, or how many spaces are still empty.

import { t } from "../i18n";
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
    const out = f.hand.faults.includes("outside");
    const high = f.hand.faults.includes("too_high");
    if (out || high) {
      const key = out && high ? "board:wouldBoth" : out ? "board:wouldStickOut" : "board:wouldGoHigher";
      return { text: t(key, { who: f.hand.who, layers }), bad: true };
    }
    return { text: t(f.touch ? "board:inHandTouch" : "board:inHand", { who: f.hand.who }), bad: false };
  }
  if (result.outside.length || result.tooHigh.length) {
    const out = result.outside.length
      ? t("board:sticksOut", { who: result.outside.map(f.describe).join(", "), count: result.outside.length })
      : "";
    const high = result.tooHigh.length
      ? t("board:goesHigher", { who: result.tooHigh.map(f.describe).join(", "), count: result.tooHigh.length, layers })
      : "";
    return { text: [out, high].filter(Boolean).join(" "), bad: true };
  }
  if (!result.covered && !f.locked) {
    const text = f.inTray
      ? t(f.touch ? "board:fillAreaTouch" : "board:fillArea", { layers })
      : t("board:spacesEmpty", { count: result.holes });
    return { text, bad: false };
  }
  return { text: "", bad: false };
}
