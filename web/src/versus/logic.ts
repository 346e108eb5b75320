// Local versus' own logic (/versus, issue 28): which card each player plays in a round, the task
// the round's key picks on it, and whose board each key drives. Plain functions, no DOM, no
// clock (tests/test_versus_logic.py runs them in Node). The game itself (rounds, die, calls,
// gems or cards, the winner) is table mode's: table/logic.ts, imported, never copied.

import type { VersusCard } from "../protocol";
import { seeded } from "../table/logic";

export type { VersusCard };

/** One task of a card: its pieces, the area of its card's side. */
export interface VersusTask {
  card: number;
  side: string;
  key: string;
  area: number[][];
  pieces: string[];
}

/** The deck in the order this game deals it: the side's cards shuffled from the seed
 * (Fisher-Yates), the same seed the same order. */
export function shuffled<T>(cards: readonly T[], seed: string, side: string): T[] {
  const out = [...cards];
  const random = seeded(seed, "deck", side);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The task a key picks on a card: the task whose keys hold it (3D: one task may answer two
 * faces of the die; Trigo: the card's one task), else the card's first. */
export function taskOf(card: VersusCard, side: string, key: string): VersusTask {
  const task = card.tasks.find((t) => t.keys.includes(key)) ?? card.tasks[0];
  return { card: card.card, side, key, area: card.area, pieces: task.pieces };
}

/** Each player's task of a round: player p takes the deck's ((round-1)*n + p)-th card of their
 * side, as players take boards from a pile (no card twice until the deck runs out, then round
 * again). `sides`: each player's side (3D: a level each). A playoff or tie round is a round
 * after the last: its cards are the pile's next ones. */
export function dealRound(
  cards: Record<string, VersusCard[]>,
  sides: string[],
  seed: string,
  round: number,
  key: string,
): VersusTask[] {
  const n = sides.length;
  return sides.map((side, p) => {
    const deck = shuffled(cards[side] ?? [], seed, side);
    if (!deck.length) throw new Error(`no cards of side ${side}`);
    return taskOf(deck[((round - 1) * n + p) % deck.length], side, key);
  });
}

// --- keys --------------------------------------------------------------------------------------

/** What a player's key does on their board (board/controls.ts's BoardCommand, without digits). */
export type VersusCommand =
  | { kind: "next"; back: boolean }
  | { kind: "rotate"; back: boolean }
  | { kind: "flip" }
  | { kind: "tray" }
  | { kind: "enter" }
  | { kind: "move"; dx: number; dy: number };

/** A set of keys for one player: `KeyboardEvent.key` (letters in lower case) to its command. */
export interface KeySet {
  name: "arrows" | "wasd";
  keys: Record<string, VersusCommand>;
}

const move = (dx: number, dy: number): VersusCommand => ({ kind: "move", dx, dy });

/** Player 1's keys (the right hand) and player 2's (the left), apart on any keyboard. Players 3
 * and 4 play with the mouse or their fingers. */
export const KEY_SETS: KeySet[] = [
  {
    name: "arrows",
    keys: {
      ArrowLeft: move(-1, 0),
      ArrowRight: move(1, 0),
      ArrowUp: move(0, -1),
      ArrowDown: move(0, 1),
      Enter: { kind: "enter" },
      ".": { kind: "rotate", back: false },
      ",": { kind: "rotate", back: true },
      l: { kind: "flip" },
      m: { kind: "next", back: false },
      Backspace: { kind: "tray" },
    },
  },
  {
    name: "wasd",
    keys: {
      a: move(-1, 0),
      d: move(1, 0),
      w: move(0, -1),
      s: move(0, 1),
      " ": { kind: "enter" },
      e: { kind: "rotate", back: false },
      q: { kind: "rotate", back: true },
      f: { kind: "flip" },
      c: { kind: "next", back: false },
      x: { kind: "tray" },
    },
  },
];

/** Whose board a key drives and what it does there, or null for a key no player has. Letters
 * count in either case (Caps Lock on); a key with Ctrl, Alt or Meta is the browser's. */
export function keyOf(
  key: string,
  players: number,
  mods: { ctrl?: boolean; alt?: boolean; meta?: boolean } = {},
): { player: number; command: VersusCommand } | null {
  if (mods.ctrl || mods.alt || mods.meta) return null;
  const k = key.length === 1 ? key.toLowerCase() : key;
  for (const [player, set] of KEY_SETS.entries()) {
    if (player >= players) break;
    const command = set.keys[k];
    if (command) return { player, command };
  }
  return null;
}

/** The keys a player's panel shows, in the order of `legend` lines: move, put down, turn, flip,
 * next piece, back to the tray (null for a player without keys). */
export function keyLegend(player: number): Record<string, string> | null {
  const set = KEY_SETS[player];
  if (!set) return null;
  return set.name === "arrows"
    ? { move: "← ↑ → ↓", place: "Enter", turn: ". ,", flip: "L", next: "M", tray: "⌫" }
    : { move: "W A S D", place: "Space", turn: "E Q", flip: "F", next: "C", tray: "X" };
}

/** How many players a screen of this size seats: two side by side from 720 px, three from
 * 1000 px, four (two rows) from 1200 px wide and 900 px high; none on a phone. */
export function seatsFor(width: number, height: number): number {
  if (width < 720 || height < 400) return 0;
  if (width >= 1200 && height >= 900) return 4;
  return width >= 1000 ? 3 : 2;
}
