// The rules in English, in our own words (facts from the rulebooks in shared/seeds/). The same
// structure as de.ts; the numbers come from the edition's record.

import type { LatticeName } from "../../geometry";
import type { Facts, RulesText } from "./types";

const list = (items: string[]): string =>
  items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;

const players = (f: Facts): string => `${f.players[0]} to ${f.players[1]} players`;

const PIECES: Record<LatticeName, (n: number) => string> = {
  square: (n) =>
    `Every player has the same set of ${n} flat pieces, each made of squares and known by its letter and colour.`,
  hexagon: (n) =>
    `Every player has the same set of ${n} flat pieces, each made of hexagons and known by its number and colour.`,
  triangle: (n) =>
    `Every player has the same set of ${n} flat pieces, each made of triangles and known by its number; on a card the number is printed in the piece's colour.`,
  cube: (n) => `Every player has the same set of ${n} pieces built from cubes, each with its own colour.`,
};

export const en: RulesText = {
  name: "English",
  heading: (title) => `How to play ${title}`,
  intro: (f) =>
    `A puzzle race for ${players(f)}, or a solo run against the clock. Nobody waits for a turn: everyone puzzles at the same time.`,
  sections: {
    goal: {
      title: "The goal",
      body: (f) => [
        `Each round you get a task: an area and the pieces to fill it with. Cover the area exactly: every cell covered, no piece sticking out over the edge, no two pieces in the same place.`,
        f.layers > 1
          ? `Here the area is filled on ${f.layers} levels: pieces stand on the area and on each other, and when you are done every square of the area is covered ${f.layers} cubes high, with nothing sticking out over the edge or above the top level.`
          : `The first to finish calls "Ubongo!". Fast players collect the most over the game.`,
      ],
    },
    pieces: {
      title: "Your pieces",
      body: (f) => [
        PIECES[f.lattice](f.pieces),
        f.layers > 1
          ? "You may turn a piece any way you like: lay it on any face, stand it up, spin it."
          : "You may turn a piece and flip it over; a task may need either.",
        "A task names only some of your pieces; the others stay aside for that round.",
      ],
    },
    round: {
      title: "A round",
      body: (f) => {
        const sides = f.perPlayerSide
          ? `Each player chooses their own ${f.sideWord.toLowerCase()} (${list(f.sides)}), so beginners and experts can race each other fairly.`
          : `Before the game the players choose the ${f.sideWord.toLowerCase()} they all play: ${list(f.sides)}.`;
        const task = {
          die: "Everyone takes a new board. One player rolls the die: its symbol says which row of the board, and so which pieces, everyone uses this round. The die goes round the table from round to round.",
          corner:
            "Everyone takes a new card. The corners of the card say which pieces to use: the upper-left corner in the first round, then upper-right, lower-left and lower-right, and the same order again from the fifth round on.",
          card: "Everyone takes a new card. A card shows two areas and, beside them, the pieces to fill both with; the round is done when both areas are covered.",
        }[f.keyKind];
        const clock = f.gems
          ? f.hourglassSeconds !== null
            ? `Then the hourglass is turned: ${f.hourglassSeconds} seconds to solve the task.`
            : "Then the hourglass is turned."
          : "There is no hourglass: the round ends with the countdown started by the first player to finish.";
        return [sides, task, clock];
      },
    },
    finish: {
      title: "Ubongo!",
      body: (f) =>
        f.gems
          ? [
              `When your area is covered, call "Ubongo!" (here: press the Ubongo! button, and the board is checked). Only players who finish before the hourglass runs out win anything.`,
              "The first to finish takes a sapphire (3 points) from the gem display and one gem drawn blind from the bag; the second takes an amber (1 point) and a gem from the bag; everyone else who finishes in time takes one gem from the bag.",
              "If the hourglass runs out before anyone has finished, it is turned once more: a second chance. If nobody finishes then either, the round ends without gems.",
            ]
          : [
              `When your area is covered, call "Ubongo!" (here: press the Ubongo! button, and the board is checked). That starts a countdown for the others: ${list(
                f.countdown.map((c) => `${c.seconds} seconds on ${c.side}`),
              )}.`,
              "Everyone who finishes before the countdown ends keeps their card: each kept card is one point. Whoever does not finish in time hands their card to the player who finished first.",
            ],
    },
    end: {
      title: "The end of the game",
      body: (f) =>
        f.gems
          ? [
              `The game lasts ${f.rounds} rounds; the gem display counts them down. Then everyone adds up their gems: ruby 4 points, sapphire 3, emerald 2, amber 1. The highest total wins.`,
              "A tie is settled by a playoff: the tied players each take a task, with no hourglass, and the first to finish wins the game.",
            ]
          : [
              `The game lasts ${f.rounds} rounds, until the stack of cards is used up. Each card you hold is one point; the most points win.`,
              "A tie is settled by one more round between the tied players.",
            ],
    },
    solo: {
      title: "Playing alone",
      body: (f) => [
        `Solve as many tasks as you can in ${f.soloMinutes} minutes, or time how long you need for ${f.soloTasks} tasks (or ${list(
          f.soloAmounts.filter((n) => n !== f.soloTasks).map(String),
        )}).`,
        "Stuck? Put the task aside and take the next one. Your result says how many tasks you put aside; beat your own record.",
      ],
    },
    variants: {
      title: "Variants",
      body: (f) =>
        f.variants.map((v) =>
          v.name === "only-first"
            ? `${v.label.split(":")[0]}: only the first player to finish in each round wins the card; the cards of everyone else leave the game.`
            : v.label,
        ),
    },
  },
  captions: {
    pieces: (f) => `The ${f.pieces} pieces of each player`,
    task: (f) =>
      f.layers > 1
        ? `A task: fill this area ${f.layers} levels high with these pieces`
        : "A task: cover this area with these pieces",
    solved: "Solved: every cell covered, nothing sticking out",
  },
  loading: "Drawing the pictures…",
  failed: "The pictures could not be loaded (is the server reachable?).",
  refused: "The pictures could not be drawn:",
  home: "Home",
  others: "Rules of the other editions",
  unknownEdition: (name) => `There is no edition called “${name}”.`,
};
