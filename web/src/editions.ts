// The editions as the server describes them: GET /api/options, built from each edition's
// record (src/ubongo/data/editions/<name>.json). The client keeps no table of its own: main.ts
// calls loadEditions() once before drawing any screen.

import { loadOptions } from "./net";
import type { EditionOptions } from "./protocol";

export interface EditionInfo {
  name: string;
  title: string;
  blurb: string;
  sides: { value: string; label: string }[];
  sideWord: string;
  keyKind: "die" | "corner" | "card";
  /** gem editions: hourglass, second chance, gems and a playoff; the others: countdown, cards */
  gems: boolean;
  /** points per gem by gem name, most valuable first (empty without gems) */
  gemValues: Record<string, number>;
  /** the display gem each place takes (1st, 2nd ...) besides one drawn from the bag */
  placeGems: string[];
  /** each player chooses their own side (3D: a level) */
  ownSide: boolean;
  /** an area is filled in this many layers (2: the 3D board) */
  layers: number;
  playable: boolean; // in this client
  howTo: string[];
  rounds: number;
  /** names of the variants beyond "standard", as the edition calls them */
  variantLabels: Record<string, string>;
  /** a solo run's length offered, and its default per goal ("time": minutes, "tasks") */
  soloAmounts: number[];
  soloDefault: Record<string, number>;
}

/** Points per gem by gem name, as the editions' records say (filled by loadEditions()). */
export const GEM_VALUES: Record<string, number> = {};

/** Every edition, in the server's order; empty until loadEditions() has run. */
export const EDITIONS: EditionInfo[] = [];

function fromOptions(name: string, o: EditionOptions): EditionInfo {
  return {
    name,
    title: o.title,
    blurb: o.blurb,
    sides: o.sides.map((value) => ({ value, label: o.side_labels[value] ?? value })),
    sideWord: o.side_word,
    keyKind: o.key_kind,
    gems: o.gems,
    gemValues: o.gem_values,
    placeGems: o.place_gems,
    ownSide: o.per_player_side,
    layers: o.layers,
    playable: o.playable,
    howTo: o.how_to,
    rounds: o.rounds,
    variantLabels: o.variant_labels,
    soloAmounts: o.solo_amounts,
    soloDefault: o.solo_default,
  };
}

/** Fetch the editions from the server (once) and fill EDITIONS. */
export async function loadEditions(): Promise<void> {
  const options = await loadOptions();
  EDITIONS.splice(0, EDITIONS.length, ...Object.entries(options).map(([name, o]) => fromOptions(name, o)));
  for (const e of EDITIONS) Object.assign(GEM_VALUES, e.gemValues);
}

/** The edition called `name` (the first one for a name the server does not know). */
export function editionInfo(name: string): EditionInfo {
  return EDITIONS.find((e) => e.name === name) ?? EDITIONS[0];
}
