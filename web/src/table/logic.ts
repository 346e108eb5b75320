// Table mode's game logic (issue 28): plain functions over plain data, no DOM, no clock, no
// global random generator (as boardgame.io keeps a game's moves apart from its board). The
// page (table/index.ts) keeps a TableGame and replaces it with what these functions return.
//
// What differs between editions is a small policy read from the edition's record (GET
// /api/options), never a test of the edition's name; the same policies as src/ubongo/rules/
// policies.py:
//   keys     "roll" (the die picks the task; the roller moves to the left every round) or
//            "schedule" (the keys in turn: Extreme's corners, Trigo's one task)
//   timer    "hourglass" (from the start; a second chance when nobody finished) or
//            "countdown" (from the first "Ubongo!", by side)
//   scoring  "gems" (display and bag, as the Classic and 3D rulebooks' Rewards) or
//            "cards" (a kept card is a point; the others' cards go to the first)
//   tie      "playoff", "tie-round" or "shared"

/** The edition facts table mode reads (a part of editions.ts's EditionInfo). */
export interface EditionFacts {
  keyKind: "die" | "corner" | "card";
  keyValues: string[];
  gems: boolean;
  gemValues: Record<string, number>;
  gemSupply: Record<string, number>;
  placeGems: string[];
  hourglassSeconds: number | null;
  countdownSeconds: Record<string, number> | null;
  rounds: number;
  tieBreak: "playoff" | "tie-round" | "shared";
  tieRoundKey: string | null;
}

export type Timer = { kind: "hourglass"; seconds: number } | { kind: "countdown"; seconds: number };
export type Scoring =
  | { kind: "gems"; values: Record<string, number>; supply: Record<string, number>; placeGems: string[] }
  | { kind: "cards"; onlyFirst: boolean };

export interface TableRules {
  keys: "roll" | "schedule";
  keyValues: string[];
  timer: Timer;
  scoring: Scoring;
  rounds: number;
  tie: "playoff" | "tie-round" | "shared";
  tieRoundKey: string | null;
}

/** The rules of a table game of an edition: `side` picks the countdown (Extreme A/B, Trigo
 * easy/hard), `onlyFirst` the variant where only the first keeps a card, `seconds` (when given)
 * replaces the timer's length (a test's short hourglass: `/table?seconds=2`). */
export function tableRules(e: EditionFacts, side: string, onlyFirst: boolean, seconds?: number): TableRules {
  const countdown = e.countdownSeconds?.[side] ?? Object.values(e.countdownSeconds ?? {})[0];
  const timer: Timer =
    e.hourglassSeconds !== null
      ? { kind: "hourglass", seconds: seconds ?? e.hourglassSeconds }
      : { kind: "countdown", seconds: seconds ?? countdown ?? 20 };
  const scoring: Scoring = e.gems
    ? { kind: "gems", values: e.gemValues, supply: e.gemSupply, placeGems: e.placeGems }
    : { kind: "cards", onlyFirst };
  return {
    keys: e.keyKind === "die" ? "roll" : "schedule",
    keyValues: e.keyValues,
    timer,
    scoring,
    rounds: e.rounds,
    tie: e.tieBreak,
    tieRoundKey: e.tieRoundKey,
  };
}

// --- seeded draws ------------------------------------------------------------------------------

/** A random generator for one draw, seeded by the game's seed and what is drawn (as the
 * rules' `rng(game, *what)`): the same seed gives the same die rolls and bag draws. */
export function seeded(seed: string, ...what: (string | number)[]): () => number {
  // FNV-1a over the text, then mulberry32
  let h = 0x811c9dc5;
  for (const ch of [seed, ...what].join(":")) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** One gem from the bag, each gem in it as likely as any other (the rulebooks' "randomly
 * takes one gem from the bag"); the bag is given back one gem lighter. */
export function drawFromBag(bag: Record<string, number>, random: () => number): [string, Record<string, number>] {
  const total = Object.values(bag).reduce((a, b) => a + b, 0);
  if (total <= 0) throw new Error("the bag is empty");
  let n = Math.floor(random() * total);
  for (const [gem, count] of Object.entries(bag)) {
    if (n < count) return [gem, { ...bag, [gem]: count - 1 }];
    n -= count;
  }
  throw new Error("unreachable");
}

// --- the game ----------------------------------------------------------------------------------

export interface TablePlayer {
  name: string;
  colour: string;
}

/** What one round gave: the calls in order and, by scoring, the gems or the cards. */
export interface RoundResult {
  round: number;
  key: string | null;
  calls: number[];
  /** gems: what each caller took, in call order (a display gem first, then the bag's) */
  gems: { player: number; gems: string[] }[];
  /** gems: the display gems nobody claimed, tossed into the bag */
  toBag: string[];
  /** cards: who kept their card, who handed theirs to whom, whose went out of play */
  kept: number[];
  handed: number[];
  discarded: number[];
}

export interface TableGame {
  rules: TableRules;
  seed: string;
  players: TablePlayer[];
  /** the round being played, from 1 */
  round: number;
  /** the task key of the round: the die's face or the round's corner (null: not rolled yet) */
  key: string | null;
  /** "Ubongo!" calls of the round, by player index, in tap order */
  calls: number[];
  /** the hourglass was turned a second time (the second-chance round) */
  secondChance: boolean;
  bag: Record<string, number>;
  display: Record<string, number>;
  gems: Record<string, number>[];
  cards: number[];
  results: RoundResult[];
}

/** A new game: the display holds one of each place's gem per round, the rest are in the bag. */
export function newGame(rules: TableRules, players: TablePlayer[], seed: string): TableGame {
  const game: TableGame = {
    rules,
    seed,
    players,
    round: 1,
    key: null,
    calls: [],
    secondChance: false,
    bag: {},
    display: {},
    gems: players.map(() => ({})),
    cards: players.map(() => 0),
    results: [],
  };
  if (rules.scoring.kind === "gems") {
    const { supply, placeGems } = rules.scoring;
    game.display = Object.fromEntries(placeGems.map((g) => [g, rules.rounds]));
    game.bag = Object.fromEntries(Object.entries(supply).map(([g, n]) => [g, n - (game.display[g] ?? 0)]));
    game.gems = players.map(() => Object.fromEntries(Object.keys(supply).map((g) => [g, 0])));
  }
  if (rules.keys === "schedule") game.key = scheduledKey(rules, 1);
  return game;
}

function scheduledKey(rules: TableRules, round: number): string {
  return rules.keyValues[(round - 1) % rules.keyValues.length];
}

/** Who rolls the die this round: the first player (the youngest), then the next to the left. */
export function roller(game: TableGame): number {
  return (game.round - 1) % game.players.length;
}

/** The die is rolled: one of its faces, seeded by the round. */
export function rollDie(game: TableGame): TableGame {
  const faces = game.rules.keyValues;
  const face = faces[Math.floor(seeded(game.seed, "die", game.round)() * faces.length)];
  return { ...game, key: face };
}

/** A player calls "Ubongo!": added to the order; a second call of the same player is ignored. */
export function call(game: TableGame, player: number): TableGame {
  if (game.calls.includes(player) || player < 0 || player >= game.players.length) return game;
  return { ...game, calls: [...game.calls, player] };
}

/** The last call taken back (a tap by mistake). */
export function undoCall(game: TableGame): TableGame {
  return { ...game, calls: game.calls.slice(0, -1) };
}

/** Whether the hourglass is turned again: it ran out for the first time and nobody called. */
export function secondChanceDue(game: TableGame): boolean {
  return game.rules.timer.kind === "hourglass" && !game.secondChance && game.calls.length === 0;
}

export function turnAgain(game: TableGame): TableGame {
  return { ...game, secondChance: true };
}

/** The round is scored by the edition's scoring; the game moves on to the next round. */
export function endRound(game: TableGame): TableGame {
  const base: RoundResult = {
    round: game.round,
    key: game.key,
    calls: game.calls,
    gems: [],
    toBag: [],
    kept: [],
    handed: [],
    discarded: [],
  };
  const scored = game.rules.scoring.kind === "gems" ? gemRound(game, base) : cardRound(game, base);
  const round = game.round + 1;
  return {
    ...scored,
    round,
    key: game.rules.keys === "schedule" ? scheduledKey(game.rules, round) : null,
    calls: [],
    secondChance: false,
  };
}

/** The Rewards of the Classic and 3D rulebooks: in call order, the 1st takes a sapphire from
 * the display, the 2nd an amber (the record's place gems), and each caller one gem from the
 * bag; then the display gems of the round nobody claimed are tossed into the bag. */
function gemRound(game: TableGame, result: RoundResult): TableGame {
  if (game.rules.scoring.kind !== "gems") return game;
  const placeGems = game.rules.scoring.placeGems;
  let bag = { ...game.bag };
  const display = { ...game.display };
  const gems = game.gems.map((g) => ({ ...g }));
  game.calls.forEach((player, i) => {
    const got: string[] = [];
    if (i < placeGems.length) {
      display[placeGems[i]] -= 1;
      got.push(placeGems[i]);
    }
    let drawn: string;
    [drawn, bag] = drawFromBag(bag, seeded(game.seed, "bag", game.round, i + 1));
    got.push(drawn);
    for (const g of got) gems[player][g] = (gems[player][g] ?? 0) + 1;
    result.gems.push({ player, gems: got });
  });
  placeGems.forEach((gem, i) => {
    if (game.calls.length <= i) {
      display[gem] -= 1;
      bag[gem] = (bag[gem] ?? 0) + 1;
      result.toBag.push(gem);
    }
  });
  return { ...game, bag, display, gems, results: [...game.results, result] };
}

/** The Extreme and Trigo rulebooks: the first keeps their card, so does everyone who called in
 * time; the others hand theirs to the first. Only-first: only the first keeps a card, the
 * others' go out of play. Nobody called: every card goes out of play. */
function cardRound(game: TableGame, result: RoundResult): TableGame {
  if (game.rules.scoring.kind !== "cards") return game;
  const onlyFirst = game.rules.scoring.onlyFirst;
  const cards = [...game.cards];
  const first = game.calls[0];
  game.players.forEach((_, p) => {
    if (p === first || (game.calls.includes(p) && !onlyFirst)) {
      cards[p] += 1;
      result.kept.push(p);
    } else if (first !== undefined && !onlyFirst) {
      cards[first] += 1;
      result.handed.push(p);
    } else {
      result.discarded.push(p);
    }
  });
  return { ...game, cards, results: [...game.results, result] };
}

export function over(game: TableGame): boolean {
  return game.round > game.rules.rounds;
}

/** A player's points: the gems' values, or the cards won. */
export function points(game: TableGame, player: number): number {
  if (game.rules.scoring.kind === "gems") {
    const values = game.rules.scoring.values;
    return Object.entries(game.gems[player]).reduce((sum, [g, n]) => sum + (values[g] ?? 0) * n, 0);
  }
  return game.cards[player];
}

/** Who has the most points; more than one: the tie the edition's tie rule settles. */
export function leaders(game: TableGame): number[] {
  const all = game.players.map((_, p) => points(game, p));
  const best = Math.max(...all);
  return all.flatMap((pts, p) => (pts === best ? [p] : []));
}

/** Whether a tie for the most points is played off (a playoff, or a tie round where every tied
 * player finds a card to play); false: the tied players share the win (Trigo, or no card). */
export function tiePlayed(game: TableGame, tied: number[]): boolean {
  if (tied.length < 2) return false;
  return game.rules.tie === "playoff" || (game.rules.tie === "tie-round" && tieCards(game, tied) !== null);
}

/** The playoff's die roll (Classic, 3D: the tied players each take a board, one roll, no
 * hourglass, the first to finish wins). */
export function playoffKey(game: TableGame): string {
  const faces = game.rules.keyValues;
  return faces[Math.floor(seeded(game.seed, "playoff")() * faces.length)];
}

/** Extreme's tie round: each tied player plays the top card of the player to their left (the
 * next one in seating order), the tie-round key's task; a player with no card left to give is
 * passed over for the next one to the left (the rules' `_tie_round_cards`). Whose card each tied
 * player plays, in their order; null when some tied player finds none (the tie is shared). */
export function tieCards(game: TableGame, tied: number[]): [number, number][] | null {
  const n = game.players.length;
  const taken = game.players.map(() => 0);
  const out: [number, number][] = [];
  for (const p of tied) {
    let giver: number | null = null;
    for (let step = 1; step <= n && giver === null; step++) {
      const left = (p + step) % n;
      if (taken[left] < game.cards[left]) giver = left;
    }
    if (giver === null) return null;
    taken[giver] += 1;
    out.push([p, giver]);
  }
  return out;
}
