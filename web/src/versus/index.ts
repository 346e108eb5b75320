// Local versus (/versus, issue 28): two to four players race on one screen, each on their own
// board, with the full rules of the edition: rounds, the die (or the corner), the hourglass or
// the countdown, "Ubongo!" in the order the boards are covered, gems or cards, the winner with
// the tie rule. The game is table mode's (table/logic.ts), its pictures too (table/view.ts);
// this module deals the cards (versus/logic.ts), times the rounds and routes each player's keys
// to their own board. It plays from the practice bundle, so it works offline; nothing is sent.
//
// The address may carry `?edition=`, `?seed=` (the die, the deal and the bag), `?seconds=` (a
// shorter hourglass or countdown) and `?rounds=` (a shorter game), as table mode's.

import "./versus.css";
import { announce } from "../announce";
import { h } from "../dom";
import { EDITIONS, editionsFromBundle } from "../editions";
import { language, t } from "../i18n";
import { loadBundle, type PracticeBundle } from "../offline/bundle";
import { onlineOnly } from "../offline/network";
import { settings } from "../settings";
import { play } from "../sound";
import { type Clock, clockView, keepAwake, letSleep, timeUpSound, wakeAudio } from "../table/clock";
import {
  call,
  endRound,
  leaders,
  newGame,
  over,
  playoffKey,
  points,
  rollDie,
  secondChanceDue,
  type TableGame,
  tableRules,
  tiePlayed,
  turnAgain,
} from "../table/logic";
import { history, roundResult, supplies, tally } from "../table/view";
import { keyBadge, keyText } from "../ui";
import { dealRound, keyOf, seatsFor } from "./logic";
import { Seat } from "./seat";
import { setupForm, type VersusChoice } from "./setup";

type Phase = "ready" | "running" | "scored" | "tie" | "over";

export function versusScreen(): { element: HTMLElement; dispose: () => void; relabel: () => void } {
  const params = new URLSearchParams(location.search);
  const seconds = Number(params.get("seconds")) > 0 ? Number(params.get("seconds")) : undefined;
  const rounds = Math.floor(Number(params.get("rounds")));
  const main = h("main.panel.versus#main", { "data-phase": "setup" });
  let bundle: PracticeBundle | null = null;
  let choice: VersusChoice | null = null;
  let game: TableGame | null = null;
  let phase: Phase = "ready";
  let seats: Seat[] = [];
  let winners: number[] = [];
  let note = "";
  let clock: Clock | null = null;
  const newSeed = () => Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16)).join("");
  let seed = params.get("seed") ?? newSeed();
  const grid = h("div.versus-seats");
  const after = h("div.versus-after");

  // --- setup ----------------------------------------------------------------------------

  const drawSetup = () => {
    stop();
    for (const s of seats) s.destroy();
    seats = [];
    game = null;
    main.dataset.phase = "setup";
    const title = h("h1", { tabindex: "-1" }, t("versus:title"));
    const fit = seatsFor(window.innerWidth, window.innerHeight);
    if (!fit) {
      // a phone: two boards side by side would be too small to play on
      main.replaceChildren(title, h("p.versus-too-small#versus-too-small", { role: "alert" }, t("versus:tooSmall")));
      return;
    }
    if (!bundle) {
      main.replaceChildren(title, h("p.muted", {}, t("offline:practice.loading")));
      return;
    }
    const editions = EDITIONS.filter((e) => e.playable && bundle?.editions[e.name]);
    main.replaceChildren(
      title,
      h("p", {}, t("versus:intro")),
      setupForm(editions, choice?.edition.name ?? params.get("edition"), fit, begin),
    );
  };

  const begin = (c: VersusChoice) => {
    choice = c;
    const full = tableRules(c.edition, c.sides[0], c.onlyFirst, seconds);
    const rules = rounds > 0 && rounds < full.rounds ? { ...full, rounds } : full;
    game = newGame(rules, c.players, seed);
    clock = clockView(rules.timer.kind);
    for (const s of seats) s.destroy(); // "Play again": the last game's boards (3D: their scenes) go
    seats = c.players.map((p, i) => new Seat(i, p));
    grid.dataset.count = String(seats.length);
    grid.replaceChildren(...seats.map((s) => s.element));
    winners = [];
    note = "";
    phase = "ready";
    // the round's result and the end above the boards: in view without scrolling
    main.replaceChildren(h("div.versus-head"), after, grid);
    draw();
    main.querySelector<HTMLElement>("#versus-go")?.focus();
  };

  // --- a round ----------------------------------------------------------------------------

  const catalogue = () => {
    const entry = choice && bundle?.editions[choice.edition.name];
    if (!entry) throw new Error("no edition in the bundle");
    return entry.catalogue;
  };

  const deal = (round: number, key: string, who: number[], covered: (p: number) => void) => {
    if (!choice || !bundle) return;
    const cards = bundle.editions[choice.edition.name].cards;
    const tasks = dealRound(cards, choice.sides, seed, round, key);
    seats.forEach((s, p) => {
      if (who.includes(p)) s.deal(catalogue(), tasks[p], () => covered(p));
      else s.sitOut();
    });
  };

  const startRound = () => {
    if (!game) return;
    wakeAudio();
    void keepAwake();
    const g = game.rules.keys === "roll" ? rollDie(game) : game;
    game = g;
    deal(
      g.round,
      g.key ?? g.rules.keyValues[0],
      g.players.map((_, p) => p),
      finish,
    );
    if (g.rules.timer.kind === "hourglass") clock?.start(g.rules.timer.seconds, timeUp);
    note = "";
    phase = "running";
    announce(t("versus:roundStarted", { round: g.round }));
    draw();
  };

  const finish = (p: number) => {
    if (!game || phase !== "running") return;
    const g = call(game, p);
    if (g === game) return;
    game = g;
    seats[p].finished(g.calls.length);
    play("ubongo");
    announce(t("table:called", { name: g.players[p].name, place: g.calls.length }));
    // the countdown starts at the first "Ubongo!" (Extreme, Trigo)
    if (g.rules.timer.kind === "countdown" && g.calls.length === 1) clock?.start(g.rules.timer.seconds, timeUp);
    if (g.calls.length === g.players.length) return score();
    draw();
  };

  const timeUp = () => {
    if (!game) return;
    timeUpSound(!settings().sound);
    if (secondChanceDue(game)) {
      // nobody finished: the hourglass is turned once more, the same tasks (the rulebooks)
      game = turnAgain(game);
      note = t("table:secondChanceWhy");
      announce(note);
      clock?.start(game.rules.timer.seconds, timeUp);
      return draw();
    }
    score();
  };

  const score = () => {
    if (!game) return;
    stop();
    for (const s of seats) s.timeUp();
    game = endRound(game);
    phase = "scored";
    note = "";
    draw();
    main.querySelector<HTMLElement>("#versus-next")?.focus();
  };

  const next = () => {
    if (!game) return;
    if (!over(game)) {
      phase = "ready";
      draw();
      main.querySelector<HTMLElement>("#versus-go")?.focus();
      return;
    }
    winners = leaders(game);
    if (!tiePlayed(game, winners)) return end();
    // the tied players play off on fresh cards, no clock: the first to finish wins
    const key = game.rules.tie === "playoff" ? playoffKey(game) : (game.rules.tieRoundKey ?? game.rules.keyValues[0]);
    phase = "tie";
    deal(game.rules.rounds + 1, key, winners, (p) => {
      if (phase !== "tie") return;
      seats[p].finished(1);
      winners = [p];
      end();
    });
    draw(key);
  };

  const end = () => {
    phase = "over";
    stop();
    for (const s of seats) s.timeUp();
    for (const p of winners) seats[p]?.won();
    draw();
    main.querySelector<HTMLElement>("#versus-again")?.focus();
  };

  const stop = () => {
    clock?.stop();
    letSleep();
  };

  // --- keys: each player's own, whichever board has the focus ----------------------------------

  const onKey = (e: KeyboardEvent) => {
    if (phase !== "running" && phase !== "tie") return;
    const target = e.target as HTMLElement | null;
    // a text field, or the round's own buttons above the boards (Tab, then Enter or Space)
    if (target?.closest?.("input, select, textarea, .versus-head button")) return;
    const hit = keyOf(e.key, seats.length, { ctrl: e.ctrlKey, alt: e.altKey, meta: e.metaKey });
    if (!hit) return;
    // the key is this player's even when their board is done: it never clicks a focused button
    e.preventDefault();
    e.stopPropagation();
    seats[hit.player].command(hit.command);
  };
  window.addEventListener("keydown", onKey, { capture: true });

  // --- drawing ----------------------------------------------------------------------------

  const action = (id: string, text: string, onclick: () => void, primary = true) =>
    h(`button#${id}.table-btn${primary ? ".primary" : ""}` as "button", { type: "button", onclick }, text);

  const controls = (g: TableGame): HTMLElement[] => {
    if (phase === "ready") return [action("versus-go", t("versus:go", { round: g.round }), startRound)];
    if (phase === "running" && g.rules.timer.kind === "countdown" && !g.calls.length)
      return [action("versus-nobody", t("table:nobodyCan"), score, false)];
    if (phase === "scored") return [action("versus-next", over(g) ? t("table:seeWinner") : t("table:nextRound"), next)];
    if (phase === "tie") return [action("versus-share", t("table:share"), end, false)];
    if (phase === "over")
      return [
        action("versus-again", t("table:again"), () => {
          seed = newSeed();
          if (choice) begin(choice);
        }),
        action("versus-change", t("table:changePlayers"), drawSetup, false),
      ];
    return [];
  };

  const head = (g: TableGame, tieKey: string | null): HTMLElement => {
    const shown = phase === "scored" ? g.round - 1 : Math.min(g.round, g.rules.rounds);
    const key = phase === "tie" ? tieKey : phase === "running" ? g.key : null;
    const edition = choice?.edition.name ?? "";
    const words =
      phase === "tie"
        ? t(g.rules.tie === "playoff" ? "table:playoff" : "table:tieRound")
        : phase === "over"
          ? t("versus:over")
          : t("table:round", { round: shown, rounds: g.rules.rounds });
    return h(
      "div.versus-head",
      {},
      h("h1", { tabindex: "-1" }, t("versus:titleOf", { edition: choice?.edition.title ?? "" })),
      h("p.versus-round#versus-round", { "data-round": shown }, words),
      key ? h("div.versus-key#versus-key", { "data-key": key }, keyBadge(edition, key)) : null,
      note ? h("p.versus-note#versus-note", {}, note) : null,
      h("div.table-controls", {}, ...controls(g)),
    );
  };

  const winnerLine = (g: TableGame): HTMLElement => {
    const names = winners.map((p) => g.players[p].name);
    const text =
      names.length === 1
        ? t("table:wins", { name: names[0], count: points(g, winners[0]) })
        : t("table:shareWin", { names: new Intl.ListFormat(language(), { type: "conjunction" }).format(names) });
    return h(
      "section.table-winner.versus-winner#versus-winner",
      { "data-winners": winners.join(" ") },
      h("h2", {}, text),
    );
  };

  let lastTieKey: string | null = null;
  const draw = (tieKey: string | null = lastTieKey) => {
    const g = game;
    if (!g || !clock) return drawSetup();
    lastTieKey = tieKey;
    main.dataset.phase = phase;
    const top = head(g, tieKey);
    const running = phase === "running";
    clock.element.hidden = !running || (g.rules.timer.kind === "countdown" && !clock.running());
    top.append(clock.element);
    main.querySelector(".versus-head")?.replaceWith(top);
    const last = g.results[g.results.length - 1];
    const parts: (HTMLElement | null)[] = [];
    if (phase === "over") parts.push(winnerLine(g));
    if (phase === "scored" && last) parts.push(roundResult(g, last));
    if (phase !== "running" && phase !== "tie")
      parts.push(
        supplies(g),
        tally(g),
        history(g, (k) => keyText(choice?.edition.name ?? "", k)),
      );
    after.replaceChildren(...parts.filter((x) => x !== null));
  };

  loadBundle().then(
    (b) => {
      bundle = b;
      editionsFromBundle(Object.fromEntries(Object.entries(b.editions).map(([n, e]) => [n, e.options])));
      if (!game) drawSetup();
    },
    () => {
      main.replaceChildren(
        h("h1", {}, t("versus:title")),
        h("p.bad", {}, t("versus:missing")),
        h("p.muted", {}, onlineOnly()),
      );
    },
  );
  // a phone turned sideways (or a window made wider) may seat two players after all
  let seated = seatsFor(window.innerWidth, window.innerHeight);
  const resized = () => {
    const now = seatsFor(window.innerWidth, window.innerHeight);
    if (!game && now !== seated) drawSetup();
    seated = now;
  };
  window.addEventListener("resize", resized);
  drawSetup();
  return {
    element: main,
    dispose: () => {
      stop();
      for (const s of seats) s.destroy();
      window.removeEventListener("keydown", onKey, { capture: true });
      window.removeEventListener("resize", resized);
    },
    // another language: the same game said in it (the boards and the clock play on)
    relabel: () => {
      if (!game) return drawSetup();
      for (const s of seats) s.relabel();
      draw();
      clock?.refresh();
    },
  };
}
