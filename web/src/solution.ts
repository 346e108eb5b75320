// Solutions for the box (issue 28, docs/web.md): a player with the boxed game or a printed deck
// types the code printed beside a task (`ubongo deck print`: classic-12-A-3, extreme-7-B-UL,
// trigo-19-H) and sees the task, then its solution a piece at a time or whole. The task comes
// from GET /api/printed/{code}, each piece from POST /api/hint (an account; the hints' limits;
// never for a task dealt in a room now: docs/fair-play.md).

import { type AnswerOf, ApiError, api, ensureAccount } from "./api";
import { areaSvg } from "./board/pictures";
import { solutionIsoSvg } from "./board3d/iso";
import { type Catalogue, loadCatalogue, offsetOf, type Placement } from "./catalogue";
import { h } from "./dom";
import { editionInfo } from "./editions";
import { colourName, errorText, t } from "./i18n";
import type { HintRequest } from "./protocol";

type Printed = AnswerOf<"GET /api/printed/{code}">;

export interface Screen {
  element: HTMLElement;
  dispose: () => void;
}

/** The page: a code to type (or `?code=` in the address), then its task and solution. */
export function solutionScreen(code: string | null): Screen {
  const input = h("input#solution-code", {
    type: "text",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: "classic-12-A-3", // i18n-ignore: a code, the same in every language
    "aria-describedby": "solution-about",
  });
  const shown = h("div#solution-task");
  const form = h(
    "form.row.solution-form",
    {},
    h("label", { for: "solution-code" }, t("solution:code")),
    input,
    h("button.primary#solution-find", { type: "submit" }, t("solution:find")),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const typed = input.value.trim();
    if (typed) void show(typed, shown);
  });
  const main = h(
    "main.panel.solution-page",
    { "aria-labelledby": "solution-title" },
    h("h1#solution-title", {}, t("solution:title")),
    h("p.muted#solution-about", {}, t("solution:about")),
    form,
    shown,
  );
  if (code) {
    input.value = code;
    void show(code, shown);
  }
  return { element: main, dispose: () => {} };
}

async function show(code: string, into: HTMLElement): Promise<void> {
  into.replaceChildren(h("p.muted", {}, t("solution:loading")));
  try {
    const printed = await api("GET /api/printed/{code}", { path: { code } });
    const cat = await loadCatalogue(printed.edition);
    into.replaceChildren(taskView(printed, cat));
  } catch (e) {
    const said = e instanceof ApiError && e.code ? errorText(e.code, e.message) : t("solution:failed");
    into.replaceChildren(h("p.error#solution-error", { role: "alert" }, said));
  }
}

/** The task, and its solution's pieces as they are asked for one at a time. */
function taskView(printed: Printed, cat: Catalogue): HTMLElement {
  const task = printed.puzzle;
  const placements: Placement[] = [];
  const picture = h("div.solution-picture");
  const progress = h("p#solution-progress", { "aria-live": "polite" });
  const problem = h("p.error", { role: "alert" });
  const next = h("button.primary#solution-next", { type: "button" }, t("solution:next"));
  const whole = h("button#solution-all", { type: "button" }, t("solution:whole"));
  const again = h("button#solution-reset", { type: "button" }, t("solution:reset"));
  const draw = () => {
    const pic = cat.layers > 1 ? solutionIsoSvg(cat, task.area, placements, 1.6) : areaSvg(cat, task.area, placements);
    picture.replaceChildren(pic);
    progress.textContent = t("solution:progress", { count: placements.length, all: task.pieces.length });
    const done = placements.length >= task.pieces.length;
    next.disabled = done;
    whole.disabled = done;
  };
  // what the hint route is told is down (its cells), beside what is drawn (its placement)
  const placed: HintRequest["placements"] = [];
  const ask = async (): Promise<boolean> => {
    await ensureAccount();
    const answer = await api("POST /api/hint", { body: { puzzle: { ...task }, placements: placed } });
    const p = answer.placement;
    if (!p) return false;
    placed.push({ piece: p.piece, cells: p.cells as [number[], ...number[][]] });
    placements.push({ piece: String(p.piece), transform: p.transform, offset: offsetOf(p.offset) });
    return true;
  };
  const run = async (all: boolean) => {
    problem.textContent = "";
    next.disabled = whole.disabled = true;
    try {
      while ((await ask()) && all && placements.length < task.pieces.length) draw();
    } catch (e) {
      problem.textContent = e instanceof ApiError && e.code ? errorText(e.code, e.message) : t("solution:failed");
    }
    draw();
  };
  next.addEventListener("click", () => void run(false));
  whole.addEventListener("click", () => void run(true));
  again.addEventListener("click", () => {
    placements.length = 0;
    placed.length = 0;
    problem.textContent = "";
    draw();
  });
  draw();
  const ed = editionInfo(printed.edition);
  // a side's label ("A", "easy"), or for 3D's coloured sides the colour's name
  const label = ed.sides.find((x) => x.value === printed.side)?.label.split(" ·")[0];
  const side = label ?? colourName(printed.side);
  return h(
    "section.solution-task",
    {},
    h(
      "h2#solution-where",
      {},
      t("solution:where", { edition: ed.title, card: printed.card, side, code: printed.code }),
    ),
    picture,
    progress,
    h("div.row", {}, next, whole, again),
    problem,
  );
}
