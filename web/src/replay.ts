// A stored game's replay (`/replay/<id>`): the game rebuilt by the server's rules from its seed
// and actions (`GET /api/games/{id}/replay`), shown step by step on a timeline to scrub: each
// round's start (every task dealt), each finish, give-up or task put aside (the finisher's
// placements drawn on their area), and each round's end (gems or cards won, scores). A link
// to share, copied by a button.

import { areaSvg } from "./board/pictures";
import { piecePicture } from "./board3d";
import { areaIsoSvg, solutionIsoSvg } from "./board3d/iso";
import { type Catalogue, loadCatalogue } from "./catalogue";
import { h } from "./dom";
import { ApiError, api } from "./net";
import type { GameReplay, ReplayRound, ReplayTask } from "./protocol";
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

export function replayScreen(id: string): { element: HTMLElement; dispose(): void } {
  const root = h("main.replay", { "data-game": id }, h("p.loading", {}, "Loading the replay…"));
  let stop: (() => void) | null = null;
  let gone = false;
  api
    .get<GameReplay>(`/api/games/${id}/replay`)
    .then(async (replay) => {
      const cat = await loadCatalogue(replay.edition);
      if (!gone) stop = draw(root, replay, cat);
    })
    .catch((e) => {
      const missing = e instanceof ApiError && e.status === 404;
      root.replaceChildren(
        h(
          "section.panel",
          {},
          h("h1", {}, missing ? "There is no such game" : "The replay cannot be loaded"),
          h("p.muted#replay-error", {}, e instanceof ApiError ? e.message : String(e)),
          h("p", {}, h("a", { href: "/", "data-link": "" }, "← Home")),
        ),
      );
    });
  return {
    element: root,
    dispose: () => {
      gone = true;
      stop?.();
    },
  };
}

function nameOf(replay: GameReplay, seat: number | string): string {
  return replay.players.find((p) => p.seat === Number(seat))?.name ?? `Seat ${seat}`;
}

function roundName(replay: GameReplay, r: ReplayRound): string {
  if (r.kind === "playoff") return "The playoff";
  if (r.kind === "tie-round") return "The tie round";
  if (r.kind === "solo") return "The solo run";
  const total = replay.rounds.filter((x) => x.kind === "round").length;
  return `Round ${r.number} of ${total}`;
}

function taskWords(replay: GameReplay, t: ReplayTask): string {
  const who = nameOf(replay, t.seat);
  const at = t.at ?? 0;
  if (t.outcome === "finished") return `${who} finished ${placeText(t.place ?? 0)} at ${clock(at)}`;
  if (t.outcome === "gave_up") return `${who} gave up at ${clock(at)}`;
  if (t.outcome === "skipped") return `${who} put the task aside at ${clock(at)}`;
  return `${who} did not finish`;
}

/** Every stop of the timeline, in order. */
function steps(replay: GameReplay): Step[] {
  const out: Step[] = [];
  replay.rounds.forEach((r, i) => {
    const name = roundName(replay, r);
    out.push({ round: i, done: [], ended: false, at: 0, text: `${name}: the tasks are dealt` });
    const order = r.tasks
      .map((t, k) => ({ t, k }))
      .filter(({ t }) => t.at !== null)
      .sort((a, b) => (a.t.at ?? 0) - (b.t.at ?? 0) || (a.t.place ?? 9) - (b.t.place ?? 9));
    const done: number[] = [];
    for (const { t, k } of order) {
      done.push(k);
      out.push({ round: i, done: [...done], ended: false, at: t.at ?? 0, text: `${name}: ${taskWords(replay, t)}` });
    }
    out.push({ round: i, done, ended: true, at: r.seconds ?? 0, text: `${name} is over` });
  });
  return out;
}

function draw(root: HTMLElement, replay: GameReplay, cat: Catalogue): () => void {
  const all = steps(replay);
  const ed = editionInfo(replay.edition);
  const link = `${location.origin}/replay/${replay.id}`;
  const range = h("input#replay-timeline", {
    type: "range",
    min: 0,
    max: Math.max(0, all.length - 1),
    step: 1,
    value: 0,
    "aria-label": "Timeline",
  });
  const prev = h("button#replay-prev", { type: "button", "aria-label": "Previous step" }, "◀ Previous");
  const next = h("button#replay-next", { type: "button", "aria-label": "Next step" }, "Next ▶");
  const caption = h("p.replay-caption#replay-caption", { "aria-live": "polite" });
  const stage = h("div.replay-stage");
  let at = 0;
  const show = (i: number) => {
    at = Math.max(0, Math.min(all.length - 1, i));
    const step = all[at];
    range.value = String(at);
    range.setAttribute("aria-valuetext", step.text);
    caption.textContent = `Step ${at + 1} of ${all.length} · ${step.text}`;
    prev.disabled = at === 0;
    next.disabled = at === all.length - 1;
    stage.replaceChildren(...stepView(replay, cat, step, at === all.length - 1));
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
  const copy = h("button#copy-replay-link", { type: "button" }, "Copy link");
  copy.addEventListener("click", () => {
    navigator.clipboard?.writeText(link).then(
      () => toast("Link copied", "good"),
      () => toast(`Copy this link: ${link}`),
    ) ?? toast(`Copy this link: ${link}`);
  });
  const when = new Date(replay.started_at * 1000).toLocaleString();
  root.replaceChildren(
    h(
      "section.panel.replay-head",
      {},
      h("h1", {}, `Replay · ${ed.title}`),
      h("p.muted", {}, `${replay.players.map((p) => p.name).join(", ")} · ${when} · ${clock(replay.seconds)} played`),
      h(
        "div.row.replay-share",
        {},
        h("a#replay-link", { href: `/replay/${replay.id}` }, link),
        copy,
        h("a.button", { href: "/", "data-link": "" }, "Home"),
      ),
    ),
    h(
      "section.panel.replay-controls",
      { "aria-label": "Timeline" },
      h("div.row", {}, prev, range, next),
      caption,
      h("p.muted.keys", {}, "← → step through the game, Home and End jump to its start and end."),
    ),
    stage,
  );
  show(0);
  return () => document.removeEventListener("keydown", onKey);
}

function stepView(replay: GameReplay, cat: Catalogue, step: Step, last: boolean): HTMLElement[] {
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
  if (step.ended) parts.push(roundEnd(replay, r));
  if (last) parts.push(finalResult(replay));
  return parts;
}

function tables(replay: GameReplay, cat: Catalogue, r: ReplayRound, step: Step): HTMLElement {
  const grid = h("div.tables");
  r.tasks.forEach((t, k) => {
    // solo: a task is drawn when the one before it is solved or put aside
    if (t.shown > 0 && !step.done.includes(k - 1)) return;
    const resolved = step.done.includes(k);
    const placed = resolved && t.outcome === "finished" && t.placements ? t.placements : [];
    const state = resolved
      ? taskWords(replay, t).replace(`${nameOf(replay, t.seat)} `, "")
      : step.ended
        ? "did not finish"
        : "working…";
    const layered = cat.layers > 1;
    const picture = layered
      ? placed.length
        ? solutionIsoSvg(cat, t.task.area, placed, 1.2)
        : areaIsoSvg(t.task.area, cat.layers, 0.75)
      : areaSvg(cat, t.task.area, placed);
    const unit = layered ? 0.6 : cat.lattice === "square" ? 0.75 : 0.65;
    grid.append(
      h(
        "figure.table.replay-table",
        {
          "data-seat": t.seat,
          "data-outcome": resolved ? t.outcome : "open",
          class: placed.length ? "done" : "",
        },
        h("figcaption", {}, h("b", {}, nameOf(replay, t.seat)), " ", h("span.table-state", {}, state)),
        picture,
        placed.length
          ? null
          : h("div.table-pieces", {}, ...t.task.pieces.map((id) => piecePicture(cat, id, undefined, unit))),
      ),
    );
  });
  return h("div.watching", {}, grid);
}

function roundEnd(replay: GameReplay, r: ReplayRound): HTMLElement {
  const box = h("section.panel.replay-end", {}, h("h3", {}, "Won this round"));
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
          h("span.award-points", {}, `+${gemPoints(gems)} points`),
        ),
      );
    }
    if (a.to_bag.length) {
      rows.append(h("p.muted", {}, `Unclaimed, back into the bag: ${a.to_bag.map(gemWords).join(", ")}`));
    }
  } else if ("kept" in a) {
    const first = a.first === null ? null : nameOf(replay, String(a.first));
    for (const seat of Object.keys(a.kept)) {
      rows.append(
        h(
          "div.award",
          { "data-seat": seat },
          h("span.award-name", {}, nameOf(replay, seat)),
          "finished in time: keeps the card (1 point)",
        ),
      );
    }
    for (const seat of Object.keys(a.handed)) {
      rows.append(
        h(
          "div.award",
          { "data-seat": seat },
          h("span.award-name", {}, nameOf(replay, seat)),
          `did not finish: the card goes to ${first ?? "the first to finish"}`,
        ),
      );
    }
  }
  if (!rows.childElementCount) rows.append(h("p.muted", {}, r.kind === "solo" ? "" : "Nothing this round."));
  box.append(rows);
  if (r.scores) box.append(h("h3", {}, "Scores after it"), scores(replay, r.scores));
  return box;
}

function scores(replay: GameReplay, by: Record<string, number>): HTMLElement {
  const gems = editionInfo(replay.edition).gems;
  const rows = Object.entries(by).sort((a, b) => b[1] - a[1]);
  return h(
    "table.scores.replay-scores",
    {},
    h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, gems ? "Points" : "Cards"))),
    h("tbody", {}, ...rows.map(([seat, n]) => h("tr", {}, h("td", {}, nameOf(replay, seat)), h("td", {}, String(n))))),
  );
}

function finalResult(replay: GameReplay): HTMLElement {
  const res = replay.result;
  const names = res.winners.map((w) => nameOf(replay, w));
  const solo = res.record;
  const headline = solo
    ? `${solo.solved} solved, ${solo.skipped} put aside, in ${clock(solo.seconds)}`
    : names.length === 1
      ? `${names[0]} wins!`
      : names.length
        ? `${names.join(" and ")} share the win!`
        : "Nobody won.";
  return h(
    "section.panel.replay-final",
    {},
    h("h2#replay-winner", {}, headline),
    solo ? null : scores(replay, res.scores),
  );
}
