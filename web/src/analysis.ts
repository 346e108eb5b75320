// A replay's analysis (`GET /api/games/{id}/analysis`, docs/social.md): under each round's end,
// every task with its number of solutions, the time a median player needs (the difficulty
// model) against the player's own, the time a hint at the start would have saved the player
// (or cost them), and one solution to show, beside the player's own when they solved it another
// way.

import { areaSvg } from "./board/pictures";
import { solutionIsoSvg } from "./board3d/iso";
import type { Catalogue } from "./catalogue";
import { h } from "./dom";
import { t } from "./i18n";
import type { GameReplay, RoundAnalysis, TaskAnalysis } from "./protocol";

/** The analysis of one round, `null` while it has not come. */
export function roundAnalysis(
  replay: GameReplay,
  cat: Catalogue,
  round: number,
  analysis: RoundAnalysis | undefined,
): HTMLElement {
  const box = h("section.panel.replay-analysis", { "data-round": round }, h("h3", {}, t("replay:analysis")));
  if (!analysis) {
    box.append(h("p.muted", {}, t("replay:analysing")));
    return box;
  }
  const played = replay.rounds.find((r) => r.number === round);
  const rows = analysis.tasks.map((task, k) => {
    const area = played?.tasks[k]?.task.area ?? [];
    return taskRow(replay, cat, task, area);
  });
  box.append(h("ul.analysis-list", {}, ...rows));
  return box;
}

function taskRow(replay: GameReplay, cat: Catalogue, task: TaskAnalysis, area: number[][]): HTMLElement {
  const name = replay.players.find((p) => p.seat === task.seat)?.name ?? "?";
  const count = task.more
    ? t("replay:moreSolutions", { count: task.solutions })
    : t("replay:solutions", { count: task.solutions });
  const median = Math.round(task.median_seconds);
  const own =
    task.seconds === null
      ? t("replay:notSolved", { name })
      : t("replay:solvedIn", { name, seconds: Math.round(task.seconds) });
  const figure = h("div.analysis-solution");
  const show = h("button.show-solution", { type: "button", "aria-expanded": "false" }, t("replay:showSolution"));
  show.addEventListener("click", () => {
    const open = !figure.childElementCount;
    figure.replaceChildren(
      ...(open
        ? [cat.layers > 1 ? solutionIsoSvg(cat, area, task.solution, 1) : areaSvg(cat, area, task.solution)]
        : []),
    );
    show.setAttribute("aria-expanded", String(open));
    show.textContent = open ? t("replay:hideSolution") : t("replay:showSolution");
  });
  return h(
    "li.task-analysis",
    { "data-seat": task.seat },
    h(
      "p",
      {},
      h("b", {}, name),
      ` · ${count} · ${t("replay:median", { seconds: median })} · ${t("replay:hinted", { seconds: Math.round(task.hinted_seconds) })}`,
    ),
    h("p", {}, own, task.own_differs ? ` ${t("replay:otherWay")}` : ""),
    ...hintLine(name, task.hint_saves),
    show,
    figure,
  );
}

/** What a hint at the start would have changed for the player (nothing for a task not solved). */
function hintLine(name: string, saves: number | null): HTMLElement[] {
  if (saves === null) return [];
  const seconds = Math.round(Math.abs(saves));
  const words =
    seconds === 0
      ? t("replay:hintEven", { name })
      : saves > 0
        ? t("replay:hintSaves", { name, seconds })
        : t("replay:hintCosts", { name, seconds });
  return [h("p.hint-saves", { "data-saves": saves }, words)];
}
