// Table mode (/table, issue 28): a companion for a game played with the real box. It rolls the
// die, runs the hourglass or the countdown, keeps the order of the "Ubongo!" calls, deals the
// gems (or counts the cards) as the rulebooks say, and names the winner with the tie rule.
// The game itself is table/logic.ts (plain functions); this module only draws it and times it.
//
// The address may carry `?edition=<name>` (the edition chosen first), `?seed=<text>` (the die
// and the bag from that seed: the same seed, the same game) and `?seconds=<n>` (the hourglass
// or countdown runs n seconds instead of the edition's: the browser test's short hourglass) and
// `?rounds=<n>` (a shorter game than the rulebook's, as the rules' `rounds` setting).

import { announce } from "../announce";
import { h } from "../dom";
import { language, t } from "../i18n";
import { keyBadge, keyText } from "../ui";
import { type Clock, clockView, keepAwake, letSleep, onWakeLock, timeUpSound, wakeAudio } from "./clock";
import {
  call,
  endRound,
  leaders,
  newGame,
  over,
  playoffKey,
  points,
  rollDie,
  roller,
  secondChanceDue,
  type TableGame,
  tableRules,
  tieCards,
  tiePlayed,
  turnAgain,
  undoCall,
} from "./logic";
import { setupForm, type TableChoice } from "./setup";
import { callOrder, history, roundResult, supplies, tally } from "./view";

/** "Ada, Ben and Cy" in the language shown. */
function together(names: string[]): string {
  return new Intl.ListFormat(language(), { type: "conjunction" }).format(names);
}

type Phase = "ready" | "rolled" | "running" | "timeup" | "scored" | "tie" | "over";

export function tableScreen(): { element: HTMLElement; dispose: () => void; relabel: () => void } {
  const params = new URLSearchParams(location.search);
  const seconds = Number(params.get("seconds")) > 0 ? Number(params.get("seconds")) : undefined;
  // a shorter game (as the rules' `rounds` setting): the display holds as many gems as rounds
  const rounds = Math.floor(Number(params.get("rounds")));
  const main = h("main.panel.table-mode#main", { "data-phase": "setup" });
  let choice: TableChoice | null = null;
  let game: TableGame | null = null;
  let phase: Phase = "ready";
  let muted = false;
  let winners: number[] = [];
  let clock: Clock | null = null;
  const body = h("div.table-body");
  onWakeLock((state) => {
    main.dataset.wakeLock = state;
    const line = main.querySelector<HTMLElement>(".table-awake");
    if (line) line.hidden = state !== "held";
  });

  const newSeed = () => {
    const bytes = crypto.getRandomValues(new Uint8Array(6));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  };
  let seed = params.get("seed") ?? newSeed();

  const begin = (c: TableChoice) => {
    choice = c;
    const full = tableRules(c.edition, c.side, c.onlyFirst, seconds);
    const rules = rounds > 0 && rounds < full.rounds ? { ...full, rounds } : full;
    game = newGame(rules, c.players, seed);
    clock = clockView(rules.timer.kind);
    phase = "ready";
    winners = [];
    draw();
    main.querySelector<HTMLElement>("h1")?.focus();
  };

  // --- what happens ------------------------------------------------------------------------

  const set = (g: TableGame, p: Phase = phase) => {
    game = g;
    phase = p;
    draw();
  };

  const startClock = (g: TableGame) => {
    clock?.start(g.rules.timer.seconds, timeUp);
  };

  const startRound = () => {
    if (!game) return;
    wakeAudio();
    void keepAwake();
    if (game.rules.timer.kind === "hourglass") startClock(game);
    announce(t("table:roundStarted"));
    set(game, "running");
  };

  const roll = () => {
    if (!game) return;
    wakeAudio();
    const g = rollDie(game);
    announce(t("table:rolled", { key: g.key }));
    set(g, "rolled");
  };

  const timeUp = () => {
    timeUpSound(muted);
    letSleep();
    announce(t("table:timeUp"));
    if (game) set(game, "timeup");
  };

  const stopEarly = () => {
    clock?.stop();
    letSleep();
    if (game) set(game, "timeup");
  };

  const onCall = (p: number) => {
    if (!game) return;
    if (phase === "tie") return settleTie(p);
    if (phase !== "running") return;
    const g = call(game, p);
    if (g === game) return; // the same player twice
    announce(t("table:called", { name: g.players[p].name, place: g.calls.length }));
    // the countdown starts at the first "Ubongo!" (Extreme, Trigo)
    if (g.rules.timer.kind === "countdown" && g.calls.length === 1) startClock(g);
    if (g.calls.length === g.players.length) {
      // everyone has finished: nobody waits for the sand
      clock?.stop();
      letSleep();
      return set(g, "timeup");
    }
    set(g);
  };

  const undo = () => {
    if (!game?.calls.length) return;
    const g = undoCall(game);
    if (g.rules.timer.kind === "countdown" && !g.calls.length && phase === "running") clock?.stop();
    set(g);
  };

  const secondChance = () => {
    if (!game) return;
    const g = turnAgain(game);
    void keepAwake();
    startClock(g);
    set(g, "running");
  };

  const score = () => {
    if (!game) return;
    clock?.stop();
    const g = endRound(game);
    set(g, "scored");
  };

  const next = () => {
    if (!game) return;
    if (!over(game)) return set(game, "ready");
    winners = leaders(game);
    // a tie round needs a card for every tied player: with none to give, the tie is shared
    set(game, tiePlayed(game, winners) ? "tie" : "over");
  };

  const settleTie = (p: number | null) => {
    if (!game) return;
    if (p !== null && !winners.includes(p)) return;
    // nobody finishes the playoff or tie round: the tied players share the win
    if (p !== null) winners = [p];
    set(game, "over");
  };

  const again = () => {
    seed = newSeed();
    if (choice) begin(choice);
  };

  // --- drawing -----------------------------------------------------------------------------

  const action = (id: string, text: string, onclick: () => void, primary = true) =>
    h(`button#${id}${primary ? ".primary" : ""}.table-btn` as "button", { type: "button", onclick }, text);

  const callButtons = (g: TableGame, who: number[], enabled: boolean) =>
    h(
      "div.table-call-grid",
      { "data-count": who.length },
      ...who.map((p) => {
        const place = g.calls.indexOf(p);
        return h(
          "button.table-call",
          {
            type: "button",
            id: `table-call-${p}`,
            "data-player": p,
            "data-colour": g.players[p].colour,
            disabled: !enabled,
            onpointerdown: (e: PointerEvent) => {
              // a tap calls at once (no wait for the click); the click after it is then ignored
              e.preventDefault();
              onCall(p);
            },
            onclick: (e: MouseEvent) => {
              if (e.detail === 0) onCall(p); // the keyboard's Enter or Space
            },
          },
          h("span.table-call-name", {}, g.players[p].name),
          h("span.table-call-word", {}, t("table:ubongo")),
          place >= 0 && phase !== "tie" ? h("span.table-call-place", {}, String(place + 1)) : null,
        );
      }),
    );

  /** What to do now: a line of words (who rolls, why a second chance) and the buttons. */
  const controls = (g: TableGame): [HTMLElement | null, HTMLElement[]] => {
    const out: HTMLElement[] = [];
    let words: HTMLElement | null = null;
    const rolls = g.rules.keys === "roll";
    if (phase === "ready" && rolls) {
      words = h("p.table-roller", {}, t("table:rollerIs", { name: g.players[roller(g)].name }));
      out.push(action("table-roll", t("table:roll"), roll));
    } else if (phase === "ready" || phase === "rolled") {
      const label = g.rules.timer.kind === "hourglass" ? t("table:turnHourglass") : t("table:startRound");
      out.push(action("table-go", label, startRound));
    } else if (phase === "running") {
      if (g.rules.timer.kind === "hourglass") out.push(action("table-stop", t("table:stop"), stopEarly, false));
      else if (!g.calls.length) out.push(action("table-nobody", t("table:nobodyCan"), stopEarly, false));
    } else if (phase === "timeup") {
      if (secondChanceDue(g)) {
        words = h("p", {}, t("table:secondChanceWhy"));
        out.push(action("table-second", t("table:secondChance"), secondChance));
      } else {
        const label = g.rules.scoring.kind === "gems" ? t("table:dealGems") : t("table:scoreCards");
        out.push(action("table-score", label, score));
      }
    } else if (phase === "scored") {
      out.push(action("table-next", over(g) ? t("table:seeWinner") : t("table:nextRound"), next));
    }
    if ((phase === "running" || phase === "timeup") && g.calls.length) {
      out.push(action("table-undo", t("table:undo"), undo, false));
    }
    return [words, out];
  };

  const taskLine = (key: string | null): HTMLElement | null => {
    if (!choice || !key) return null;
    // which task the key picks on the board or card (the rulebooks' words, by kind of key)
    const how = h("p.muted.table-key-how", {}, t(`table:keyHow.${choice.edition.keyKind}`));
    return h("div.table-key#table-key", { "data-key": key }, keyBadge(choice.edition.name, key), how);
  };

  const tieSection = (g: TableGame): HTMLElement => {
    const names = together(winners.map((p) => g.players[p].name));
    const playoff = g.rules.tie === "playoff";
    const key = playoff ? playoffKey(g) : g.rules.tieRoundKey;
    const cards = playoff
      ? null
      : h(
          "ul",
          {},
          ...(tieCards(g, winners) ?? []).map(([p, of]) =>
            h("li", {}, t("table:playsCardOf", { name: g.players[p].name, of: g.players[of].name })),
          ),
        );
    return h(
      "section.table-tie#table-tie",
      { "data-tie": g.rules.tie },
      h("h2", {}, t(playoff ? "table:playoff" : "table:tieRound")),
      h("p", {}, t(playoff ? "table:playoffHow" : "table:tieRoundHow", { names })),
      taskLine(key),
      cards,
      h("p", {}, t("table:whoFirst")),
      callButtons(g, winners, true),
      action("table-share", t("table:share"), () => settleTie(null), false),
    );
  };

  const winnerSection = (g: TableGame): HTMLElement => {
    const names = winners.map((p) => g.players[p].name);
    const text =
      names.length === 1
        ? t("table:wins", { name: names[0], count: points(g, winners[0]) })
        : t("table:shareWin", { names: together(names) });
    return h(
      "section.table-winner#table-winner",
      { "data-winners": winners.join(" ") },
      h("h2", {}, text),
      h(
        "div.table-controls",
        {},
        action("table-again", t("table:again"), again),
        action("table-change", t("table:changePlayers"), () => draw(true), false),
      ),
    );
  };

  const draw = (toSetup = false) => {
    const focused = document.activeElement?.id;
    if (toSetup || !game || !choice || !clock) {
      game = null;
      letSleep();
      main.dataset.phase = "setup";
      main.replaceChildren(
        h("h1", { tabindex: "-1" }, t("table:title")),
        h("p", {}, t("table:intro")),
        setupForm(begin, params.get("edition")),
      );
      return;
    }
    const g = game;
    main.dataset.phase = phase;
    const round = Math.min(g.round, g.rules.rounds);
    const shownRound = phase === "scored" ? g.round - 1 : round;
    const last = g.results[g.results.length - 1];
    const sound = h("input#table-sound", {
      type: "checkbox",
      checked: !muted,
      onchange: (e: Event) => {
        muted = !(e.target as HTMLInputElement).checked;
      },
    });
    const head = h(
      "div.table-head",
      {},
      h("h1", { tabindex: "-1" }, t("table:titleOf", { edition: choice.edition.title })),
      phase === "tie" || phase === "over"
        ? null
        : h(
            "p.table-round#table-round",
            { "data-round": shownRound },
            t("table:round", { round: shownRound, rounds: g.rules.rounds }),
          ),
      h("label.table-check", {}, sound, h("span", {}, t("table:sound"))),
      h("p.muted.table-awake", { hidden: main.dataset.wakeLock !== "held" }, t("table:awake")),
    );
    if (!main.contains(clock.element)) {
      main.replaceChildren(head, h("div.table-stage", {}, h("div.table-task"), clock.element), body);
    } else {
      main.firstElementChild?.replaceWith(head);
    }
    const task = main.querySelector(".table-task") as HTMLElement;
    const playing = phase === "rolled" || phase === "running" || phase === "timeup";
    const done = phase === "scored" || phase === "tie" || phase === "over";
    const [words, buttons] = controls(g);
    task.replaceChildren(
      ...[done ? null : taskLine(g.key), words, h("div.table-controls", {}, ...buttons)].filter((x) => x !== null),
    );
    clock.element.hidden = done || (g.rules.timer.kind === "countdown" && !clock.running() && phase !== "timeup");
    const parts: (HTMLElement | null)[] = [];
    if (phase === "tie") parts.push(tieSection(g));
    else if (phase === "over") parts.push(winnerSection(g));
    else {
      // once the round is scored its result takes the buttons' place
      const everyone = g.players.map((_, p) => p);
      if (phase !== "scored") parts.push(callButtons(g, everyone, phase === "running"));
      if (playing) parts.push(callOrder(g));
      if (phase === "scored" && last) parts.push(roundResult(g, last));
    }
    parts.push(
      supplies(g),
      tally(g),
      history(g, (key) => keyText(choice?.edition.name ?? "", key)),
    );
    body.replaceChildren(...parts.filter((x) => x !== null));
    if (focused) document.getElementById(focused)?.focus();
  };

  draw();
  return {
    element: main,
    dispose: () => {
      clock?.stop();
      letSleep();
    },
    // another language: the same game drawn in it (the clock runs on)
    relabel: () => {
      draw();
      clock?.refresh();
    },
  };
}
