// A stored game's replay (`/replay/<id>`): the game rebuilt by the server's rules from its seed
// and actions (`GET /api/games/{id}/replay`), shown step by step on a timeline to scrub: each
// round's start (every task dealt), each finish, give-up or task put aside (the finisher's
// placements drawn on their area), and each round's end (gems or cards won, scores). A link
// to share, copied by a button.

import { roundAnalysis } from "./analysis";
import { ApiError, api } from "./api";
import { areaSvg } from "./board/pictures";
import { tablePieces } from "./board3d";
import { areaIsoSvg, solutionIsoSvg } from "./board3d/iso";
import { type Catalogue, loadCatalogue } from "./catalogue";
import { h } from "./dom";
import { dateText, t } from "./i18n";
import type { GameAnalysis, GameFile, GameReplay, ReplayRound, ReplayTask } from "./protocol";
import { replayChat } from "./replaychat";
import { andList } from "./room/words";
import { clock, editionInfo, gem, gemPoints, gemWords, keyText, placeText, toast } from "./ui";

/** One stop on the timeline: a round, and how many of its tasks' events have happened. */
interface Step {
  round: number;
  /** tasks resolved so far (indices into the round's tasks, in the order they happened) */
  done: number[];
  /** the round is over: its awards and scores are shown */
  ended: boolean;
  /** seconds since the round started */
  at: number;
  /** what this step shows, in words (the timeline's value text) */
  text: string;
}

export function replayScreen(id: string): { element: HTMLElement; dispose(): void; relabel(): void } {
  const root = h("main.replay", { "data-game": id }, h("p.loading", {}, t("replay:loading")));
  let stop: ((() => void) & { at?: () => number }) | null = null;
  let gone = false;
  let shown: { replay: GameReplay; cat: Catalogue } | null = null;
  let analysis: GameAnalysis | null = null;
  let failed: unknown = null;
  api("GET /api/games/{game_id}/replay", { path: { game_id: Number(id) } })
    .then(async (replay) => {
      const cat = await loadCatalogue(replay.edition);
      shown = { replay, cat };
      if (!gone) stop = draw(root, replay, cat);
      // the analysis solves every task again: it comes after the replay, and is drawn in
      analysis = await api("GET /api/games/{game_id}/analysis", { path: { game_id: Number(id) } });
      if (!gone) {
        const at = stop?.at?.() ?? 0;
        stop?.();
        stop = draw(root, replay, cat, at, analysis);
      }
    })
    .catch((e) => {
      failed = e;
      showFailure(root, e);
    });
  return {
    element: root,
    dispose: () => {
      gone = true;
      stop?.();
    },
    // a new language: the same step of the timeline, in the new words
    relabel: () => {
      if (shown) {
        const at = stop?.at?.() ?? 0;
        stop?.();
        stop = draw(root, shown.replay, shown.cat, at, analysis);
      } else if (failed) showFailure(root, failed);
      else root.replaceChildren(h("p.loading", {}, t("replay:loading")));
    },
  };
}

function showFailure(root: HTMLElement, e: unknown): void {
  const missing = e instanceof ApiError && e.status === 404;
  root.replaceChildren(
    h(
      "section.panel",
      {},
      h("h1", {}, missing ? t("replay:noSuchGame") : t("replay:cannotLoad")),
      h("p.muted#replay-error", {}, e instanceof ApiError ? e.message : String(e)),
      h("p", {}, h("a", { href: "/", "data-link": "" }, t("common:backHome"))),
    ),
  );
}

function nameOf(replay: GameReplay, seat: number | string): string {
  return replay.players.find((p) => p.seat === Number(seat))?.name ?? t("replay:seat", { seat });
}

function roundName(replay: GameReplay, r: ReplayRound): string {
  if (r.kind === "playoff") return t("play:theTieBreak_playoff");
  if (r.kind === "tie-round") return t("play:theTieBreak_tieRound");
  if (r.kind === "solo") return t("replay:soloRun");
  const total = replay.rounds.filter((x) => x.kind === "round").length;
  return t("play:roundOf", { round: r.number, rounds: total });
}

function taskWords(replay: GameReplay, task: ReplayTask): string {
  const who = nameOf(replay, task.seat);
  const at = task.at ?? 0;
  return taskState(who, task, at);
}

/** What became of a task: "Ada finished 1st at 0:42" (who: "" for the state alone). */
function taskState(who: string, task: ReplayTask, at: number): string {
  const time = clock(at);
  const ctx = who ? "" : "Alone";
  if (task.outcome === "finished") return t(`replay:finished${ctx}`, { who, place: placeText(task.place ?? 0), time });
  if (task.outcome === "gave_up") return t(`replay:gaveUp${ctx}`, { who, time });
  if (task.outcome === "skipped") return t(`replay:skipped${ctx}`, { who, time });
  return who ? t("play:playerDidNotFinish", { name: who }) : t("play:didNotFinish");
}

/** Every stop of the timeline, in order. */
function steps(replay: GameReplay): Step[] {
  const out: Step[] = [];
  replay.rounds.forEach((r, i) => {
    const name = roundName(replay, r);
    out.push({ round: i, done: [], ended: false, at: 0, text: t("replay:dealt", { name }) });
    const order = r.tasks
      .map((task, k) => ({ task, k }))
      .filter(({ task }) => task.at !== null)
      .sort((a, b) => (a.task.at ?? 0) - (b.task.at ?? 0) || (a.task.place ?? 9) - (b.task.place ?? 9));
    const done: number[] = [];
    for (const { task, k } of order) {
      done.push(k);
      out.push({
        round: i,
        done: [...done],
        ended: false,
        at: task.at ?? 0,
        text: `${name}: ${taskWords(replay, task)}`,
      });
    }
    out.push({ round: i, done, ended: true, at: r.seconds ?? 0, text: t("replay:isOver", { name }) });
  });
  return out;
}

function draw(
  root: HTMLElement,
  replay: GameReplay,
  cat: Catalogue,
  start = 0,
  analysis: GameAnalysis | null = null,
): (() => void) & { at: () => number } {
  const all = steps(replay);
  const ed = editionInfo(replay.edition);
  const link = `${location.origin}/replay/${replay.id}`;
  const range = h("input#replay-timeline", {
    type: "range",
    min: 0,
    max: Math.max(0, all.length - 1),
    step: 1,
    value: 0,
    "aria-label": t("replay:timeline"),
  });
  // named by the words they show (German "Zurück" was named "Voriger Schritt": axe, label in
  // name); what they do in full is their title
  const prev = h(
    "button#replay-prev",
    { type: "button", title: t("replay:previousStep") },
    `◀ ${t("replay:previous")}`,
  );
  const next = h("button#replay-next", { type: "button", title: t("replay:nextStep") }, `${t("replay:next")} ▶`);
  const caption = h("p.replay-caption#replay-caption", { "aria-live": "polite" });
  const stage = h("div.replay-stage");
  let at = 0;
  const show = (i: number) => {
    at = Math.max(0, Math.min(all.length - 1, i));
    const step = all[at];
    range.value = String(at);
    range.setAttribute("aria-valuetext", step.text);
    caption.textContent = t("replay:stepOf", { n: at + 1, total: all.length, text: step.text });
    prev.disabled = at === 0;
    next.disabled = at === all.length - 1;
    stage.replaceChildren(...stepView(replay, cat, step, at === all.length - 1, analysis));
  };
  range.addEventListener("input", () => show(Number(range.value)));
  prev.addEventListener("click", () => show(at - 1));
  next.addEventListener("click", () => show(at + 1));
  const onKey = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement | null;
    // the range input moves itself with the arrows; text fields keep theirs
    if (target === range || target?.closest?.("input, textarea, select")) return;
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      e.preventDefault();
      show(at + (e.key === "ArrowLeft" ? -1 : 1));
    } else if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      show(e.key === "Home" ? 0 : all.length - 1);
    }
  };
  document.addEventListener("keydown", onKey);
  const copy = h("button#copy-replay-link", { type: "button" }, t("room:copyLink"));
  copy.addEventListener("click", () => {
    navigator.clipboard?.writeText(link).then(
      () => toast(t("replay:linkCopied"), "good"),
      () => toast(t("replay:copyThisLink", { link })),
    ) ?? toast(t("replay:copyThisLink", { link }));
  });
  const when = dateText(new Date(replay.started_at * 1000), true);
  const chat = replayChat(replay); // for its players only: the server sends it to nobody else
  root.replaceChildren(
    h(
      "section.panel.replay-head",
      {},
      h("h1", {}, t("replay:title", { title: ed.title })),
      h(
        "p.muted",
        {},
        t("replay:about", { players: replay.players.map((p) => p.name).join(", "), when, time: clock(replay.seconds) }),
      ),
      h(
        "div.row.replay-share",
        {},
        h("a#replay-link", { href: `/replay/${replay.id}` }, link),
        copy,
        downloadButton(replay),
        h("a.button#open-game-file", { href: "/replay/file", "data-link": "" }, t("replay:openFile")),
        h("a.button", { href: "/", "data-link": "" }, t("common:home")),
      ),
    ),
    h(
      "section.panel.replay-controls",
      { "aria-label": t("replay:timeline") },
      h("div.row", {}, prev, range, next),
      caption,
      h("p.muted.keys", {}, t("replay:keys")),
    ),
    stage,
    ...(chat ? [chat] : []),
  );
  show(start);
  return Object.assign(() => document.removeEventListener("keydown", onKey), { at: () => at });
}

function stepView(
  replay: GameReplay,
  cat: Catalogue,
  step: Step,
  last: boolean,
  analysis: GameAnalysis | null,
): HTMLElement[] {
  const r = replay.rounds[step.round];
  const parts: HTMLElement[] = [];
  const key = r.key && r.kind !== "solo" ? ` · ${keyText(replay.edition, r.key)}` : "";
  parts.push(
    h(
      "section.panel.replay-round",
      { "data-round": r.number },
      h("h2", {}, `${roundName(replay, r)}${key}`, h("span.muted", {}, ` · ${clock(step.at)}`)),
      tables(replay, cat, r, step),
    ),
  );
  if (step.ended) {
    parts.push(roundEnd(replay, r));
    parts.push(
      roundAnalysis(
        replay,
        cat,
        r.number,
        analysis?.rounds.find((a) => a.number === r.number),
      ),
    );
  }
  if (last) parts.push(finalResult(replay));
  return parts;
}

function tables(replay: GameReplay, cat: Catalogue, r: ReplayRound, step: Step): HTMLElement {
  const grid = h("div.tables");
  r.tasks.forEach((task, k) => {
    // solo: a task is drawn when the one before it is solved or put aside
    if (task.shown > 0 && !step.done.includes(k - 1)) return;
    const resolved = step.done.includes(k);
    const placed = resolved && task.outcome === "finished" && task.placements ? task.placements : [];
    const state = resolved
      ? taskState("", task, task.at ?? 0)
      : step.ended
        ? t("play:didNotFinish")
        : t("play:working");
    const layered = cat.layers > 1;
    const picture = layered
      ? placed.length
        ? solutionIsoSvg(cat, task.task.area, placed, 1.2)
        : areaIsoSvg(task.task.area, cat.layers, 0.75)
      : areaSvg(cat, task.task.area, placed);
    grid.append(
      h(
        "figure.table.replay-table",
        {
          "data-seat": task.seat,
          "data-outcome": resolved ? task.outcome : "open",
          class: placed.length ? "done" : "",
        },
        h("figcaption", {}, h("b", {}, nameOf(replay, task.seat)), " ", h("span.table-state", {}, state)),
        picture,
        placed.length ? null : tablePieces(cat, task.task.pieces),
      ),
    );
  });
  return h("div.watching", {}, grid);
}

function roundEnd(replay: GameReplay, r: ReplayRound): HTMLElement {
  const box = h("section.panel.replay-end", {}, h("h3", {}, t("replay:wonThisRound")));
  const a = r.awards;
  const rows = h("div.awards");
  if ("gems" in a) {
    for (const [seat, gems] of Object.entries(a.gems)) {
      rows.append(
        h(
          "div.award",
          { "data-seat": seat },
          h("span.award-name", {}, nameOf(replay, seat)),
          ...gems.map((g) => gem(g)),
          h("span.award-points", {}, t("play:plusPoints", { count: gemPoints(gems) })),
        ),
      );
    }
    if (a.to_bag.length) {
      rows.append(h("p.muted", {}, t("replay:unclaimedIntoBag", { gems: a.to_bag.map(gemWords).join(", ") })));
    }
  } else if ("kept" in a) {
    const first = a.first === null ? null : nameOf(replay, String(a.first));
    for (const seat of Object.keys(a.kept)) {
      rows.append(
        h("div.award", { "data-seat": seat }, h("span.award-name", {}, nameOf(replay, seat)), t("replay:keepsTheCard")),
      );
    }
    for (const seat of Object.keys(a.handed)) {
      rows.append(
        h(
          "div.award",
          { "data-seat": seat },
          h("span.award-name", {}, nameOf(replay, seat)),
          first ? t("replay:cardGoesTo", { name: first }) : t("replay:cardGoesToFirst"),
        ),
      );
    }
  }
  if (!rows.childElementCount) rows.append(h("p.muted", {}, r.kind === "solo" ? "" : t("replay:nothing")));
  box.append(rows);
  if (r.scores) box.append(h("h3", {}, t("replay:scoresAfter")), scores(replay, r.scores));
  return box;
}

function scores(replay: GameReplay, by: Record<string, number>): HTMLElement {
  const gems = editionInfo(replay.edition).gems;
  const rows = Object.entries(by).sort((a, b) => b[1] - a[1]);
  return h(
    "table.scores.replay-scores",
    {},
    h(
      "thead",
      {},
      h("tr", {}, h("th", {}, t("play:player")), h("th", {}, gems ? t("play:pointsHeading") : t("play:cardsHeading"))),
    ),
    h("tbody", {}, ...rows.map(([seat, n]) => h("tr", {}, h("td", {}, nameOf(replay, seat)), h("td", {}, String(n))))),
  );
}

function finalResult(replay: GameReplay): HTMLElement {
  const res = replay.result;
  const names = res.winners.map((w) => nameOf(replay, w));
  const solo = res.record;
  const headline = solo
    ? t("replay:soloHeadline", { solved: solo.solved, skipped: solo.skipped, time: clock(solo.seconds) })
    : names.length === 1
      ? t("play:wins", { name: names[0] })
      : names.length
        ? t("play:shareWin", { names: andList(names) })
        : t("replay:nobodyWon");
  return h(
    "section.panel.replay-final",
    {},
    h("h2#replay-winner", {}, headline),
    solo ? null : scores(replay, res.scores),
  );
}

// --- game files: a game downloaded, and opened again (docs/social.md) ------------------------

/** "Download": the stored game and its tasks as puzzle files, in one file. */
function downloadButton(replay: GameReplay): HTMLElement {
  const button = h("button#download-game", { type: "button" }, t("replay:download"));
  button.addEventListener("click", async () => {
    try {
      const game = await api("GET /api/games/{game_id}", { path: { game_id: replay.id } });
      const tasks = replay.rounds.flatMap((r) =>
        r.tasks.map((task) => ({
          name: `${roundName(replay, r)}, ${nameOf(replay, task.seat)}`,
          edition: replay.edition,
          area: task.task.area,
          pieces: task.task.pieces,
        })),
      );
      // the game as its route gave it: the file carries it whole (the server checks it again)
      const file: GameFile = { format: "ubongo-game", version: 1, game: { ...game }, tasks };
      const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 1)], { type: "application/json" }));
      const a = h("a", { href: url, download: `ubongo-game-${replay.id}.json` });
      a.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      toast(e instanceof ApiError ? e.message : String(e), "bad");
    }
  });
  return button;
}

/** `/replay/file`: a game file chosen on this device, replayed by the server's rules. */
export function replayFileScreen(): HTMLElement {
  const root = h("main.replay");
  const input = h("input#game-file", { type: "file", accept: ".json,application/json" });
  const pick = h(
    "section.panel.replay-head",
    {},
    h("h1", {}, t("replay:openFile")),
    h("p.muted", {}, t("replay:openFileAbout")),
    h("label.field", {}, h("span", {}, t("replay:chooseFile")), input),
  );
  input.addEventListener("change", async () => {
    const chosen = input.files?.[0];
    if (!chosen) return;
    try {
      const body = JSON.parse(await chosen.text()) as GameFile;
      const replay = await api("POST /api/replays", { body });
      const cat = await loadCatalogue(replay.edition);
      draw(root, replay, cat);
    } catch (e) {
      toast(e instanceof ApiError ? e.message : t("errors:bad_game"), "bad");
    }
  });
  root.append(pick);
  return root;
}
