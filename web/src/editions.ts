// The editions as the server describes them: GET /api/options, built from each edition's
// record (src/ubongo/data/editions/<name>.json). The client keeps no table of its own: main.ts
// calls loadEditions() once before drawing any screen.

import { loadOptions } from "./api";
import { t } from "./i18n";
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
  /** how many of each gem the box holds, in the bag's order (empty without gems) */
  gemSupply: Record<string, number>;
  /** the task keys in order: die faces, corners, or the card's one task */
  keyValues: string[];
  /** the edition's timer: hourglass seconds, or countdown seconds by side (after the first finish) */
  hourglassSeconds: number | null;
  countdownSeconds: Record<string, number> | null;
  /** players of a race: [fewest, most] */
  players: [number, number];
  /** what settles a tie for the most points by default, and the key a tie round is played with */
  tieBreak: "playoff" | "tie-round" | "shared";
  tieRoundKey: string | null;
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
  /** the edition's words in `lang` rather than the language shown (a rules page in another) */
  wordsIn(lang: string): EditionWords;
}

/** An edition's words in one language. */
export interface EditionWords {
  title: string;
  sideWord: string;
  sides: { value: string; label: string }[];
  variantLabels: Record<string, string>;
}

/** Points per gem by gem name, as the editions' records say (filled by loadEditions()). */
export const GEM_VALUES: Record<string, number> = {};

/** Every edition, in the server's order; empty until loadEditions() has run. */
export const EDITIONS: EditionInfo[] = [];

/** An edition's text in the language shown (locales/<lang>/editions.json, by edition and field),
 * the server's English text when the client has none; `lang`: in that language instead. */
export function editionWord(name: string, path: string, server: string, lang?: string): string {
  return t(`editions:${name}.${path}`, { defaultValue: server, lng: lang });
}

const said = editionWord;

/** A side's name with its edition's word for sides ("Board side A · 3 pieces"), the word left
 * out when the side's label starts with it already ("Level 1 · Green"). */
export function sideName(sideWord: string, label: string): string {
  return label.toLowerCase().startsWith(sideWord.toLowerCase()) ? label : `${sideWord} ${label}`;
}

function fromOptions(name: string, o: EditionOptions): EditionInfo {
  // the words are read when shown (getters), so that a change of language reaches every screen
  return {
    name,
    get title() {
      return said(name, "title", o.title);
    },
    get blurb() {
      return said(name, "blurb", o.blurb);
    },
    get sides() {
      return o.sides.map((value) => ({ value, label: said(name, `sides.${value}`, o.side_labels[value] ?? value) }));
    },
    get sideWord() {
      return said(name, "side_word", o.side_word);
    },
    keyKind: o.key_kind,
    gems: o.gems,
    gemValues: o.gem_values,
    placeGems: o.place_gems,
    gemSupply: o.gem_supply,
    keyValues: o.key_values,
    hourglassSeconds: o.hourglass_seconds,
    countdownSeconds: o.countdown_seconds,
    players: o.players,
    tieBreak: o.tie_break,
    tieRoundKey: o.tie_round_key,
    ownSide: o.per_player_side,
    layers: o.layers,
    playable: o.playable,
    get howTo() {
      return o.how_to.map((line, i) => said(name, `how_to.${i}`, line));
    },
    rounds: o.rounds,
    get variantLabels() {
      return Object.fromEntries(
        Object.entries(o.variant_labels).map(([v, label]) => [v, said(name, `variants.${v}`, label)]),
      );
    },
    soloAmounts: o.solo_amounts,
    soloDefault: o.solo_default,
    wordsIn: (lang) => ({
      title: said(name, "title", o.title, lang),
      sideWord: said(name, "side_word", o.side_word, lang),
      sides: o.sides.map((value) => ({
        value,
        label: said(name, `sides.${value}`, o.side_labels[value] ?? value, lang),
      })),
      variantLabels: Object.fromEntries(
        Object.entries(o.variant_labels).map(([v, label]) => [v, said(name, `variants.${v}`, label, lang)]),
      ),
    }),
  };
}

/** Fetch the editions from the server (once) and fill EDITIONS. */
export async function loadEditions(): Promise<void> {
  setEditions(await loadOptions());
}

function setEditions(options: Record<string, EditionOptions>): void {
  EDITIONS.splice(0, EDITIONS.length, ...Object.entries(options).map(([name, o]) => fromOptions(name, o)));
  for (const e of EDITIONS) Object.assign(GEM_VALUES, e.gemValues);
}

/** Without the server the editions come from the practice bundle's copy of the options (local
 * versus offline); once loaded from the server they stay. */
export function editionsFromBundle(options: Record<string, EditionOptions>): void {
  if (!EDITIONS.length) setEditions(options);
}

/** The edition called `name` (the first one for a name the server does not know). */
export function editionInfo(name: string): EditionInfo {
  return EDITIONS.find((e) => e.name === name) ?? EDITIONS[0];
}
