// The shape of a language's rules text (en.ts, de.ts): the same sections in every language,
// each a function of the edition's facts, so the text follows the edition records (numbers,
// sides, timers) instead of naming editions.

import type { LatticeName } from "../../geometry";

/** What the rules of one edition say, read from its record (GET /api/options) and catalogue. */
export interface Facts {
  title: string;
  lattice: LatticeName;
  /** pieces in each player's set */
  pieces: number;
  /** levels an area is filled in (2: the 3D board) */
  layers: number;
  /** what picks a board's task: a die, the corners in turn, or the card itself */
  keyKind: "die" | "corner" | "card";
  /** rounds scored with gems (hourglass, gem display and bag) or with cards (countdown) */
  gems: boolean;
  rounds: number;
  players: [number, number];
  /** what a side is called (side, level) and each one's label, easiest first */
  sideWord: string;
  sides: string[];
  /** each player picks their own side (3D's levels) */
  perPlayerSide: boolean;
  hourglassSeconds: number | null;
  /** the countdown after the first finisher, by side label */
  countdown: { side: string; seconds: number }[];
  soloAmounts: number[];
  soloMinutes: number;
  soloTasks: number;
  /** the variants beyond the standard game, by name (their labels as the record words them) */
  variants: { name: string; label: string }[];
}

export type SectionId = "goal" | "pieces" | "round" | "finish" | "end" | "solo" | "variants";

/** The order the sections are shown in. */
export const SECTION_ORDER: SectionId[] = ["goal", "pieces", "round", "finish", "end", "solo", "variants"];

export interface Section {
  title: string;
  /** paragraphs; an empty list leaves the section out (an edition with no variants) */
  body: (f: Facts) => string[];
}

export interface RulesText {
  /** the language's own name, for the link to it */
  name: string;
  heading: (title: string) => string;
  intro: (f: Facts) => string;
  sections: Record<SectionId, Section>;
  captions: {
    pieces: (f: Facts) => string;
    task: (f: Facts) => string;
    solved: string;
  };
  loading: string;
  failed: string;
  /** before the server's reason, when it refused what the pictures need (a hint) */
  refused: string;
  /** the link back to the home screen, and to the other editions' rules */
  home: string;
  others: string;
  /** "round" words etc. used in sentences built by the screen */
  unknownEdition: (name: string) => string;
}
