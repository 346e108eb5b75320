// The editor's verdict, live: asked of the server (POST /api/puzzles/verdict) once the drawing
// has rested a moment, the question before it dropped; shown as its figures (docs/editor.md):
// solvable or not, the solutions counted, unique or not, a median player's time, the grade, and
// when there is no solution, why, with one solution drawn when there is one.

import { ApiError, api } from "../api";
import { pieceShapeNodes } from "../board/draw";
import type { Catalogue } from "../catalogue";
import { pieceOf } from "../catalogue";
import { h, svg } from "../dom";
import { EDITIONS, sideName } from "../editions";
import { type Cell, cellsBounds, type LatticeName } from "../geometry";
import { t } from "../i18n";
import type { PuzzleVerdict, VerdictRequest } from "../protocol";

/** How long the drawing rests before the verdict is asked for (ms). */
const REST_MS = 250;

export class VerdictPanel {
  readonly element: HTMLElement;
  private readonly headline: HTMLElement;
  /** the headline again, beside the drawing on a phone (where the panel is a scroll away);
   * hidden from screen readers, which hear the panel's */
  readonly mini: HTMLElement;
  private readonly body: HTMLElement;
  private timer: number | undefined;
  private asking: AbortController | null = null;
  /** the verdict on the drawing shown, once it has come */
  last: PuzzleVerdict | null = null;

  constructor(private readonly onVerdict: (v: PuzzleVerdict | null) => void) {
    this.headline = h("p.verdict-headline#verdict-headline", { role: "status", "aria-live": "polite" });
    this.mini = h("p.verdict-mini", { "aria-hidden": "true" });
    this.body = h("div.verdict-body");
    this.element = h(
      "section.panel.verdict#verdict",
      {},
      h("h2", {}, t("editor:verdictHeading")),
      this.headline,
      this.body,
    );
    this.idle(t("editor:empty"));
  }

  /** Ask again for `puzzle` after the drawing rests; null: nothing to ask (`why` says so). */
  ask(puzzle: VerdictRequest["puzzle"] | null, cat: Catalogue, why: string): void {
    window.clearTimeout(this.timer);
    this.asking?.abort();
    this.asking = null;
    this.last = null;
    this.onVerdict(null);
    if (!puzzle) {
      this.idle(why);
      return;
    }
    this.element.setAttribute("aria-busy", "true");
    this.say(t("editor:checking"), false);
    this.timer = window.setTimeout(() => void this.request(puzzle, cat), REST_MS);
  }

  dispose(): void {
    window.clearTimeout(this.timer);
    this.asking?.abort();
  }

  private idle(text: string): void {
    this.element.removeAttribute("aria-busy");
    this.say(text, false);
    this.body.replaceChildren();
  }

  private say(text: string, bad: boolean): void {
    for (const el of [this.headline, this.mini]) {
      el.textContent = text;
      el.classList.toggle("bad", bad);
    }
  }

  private async request(puzzle: VerdictRequest["puzzle"], cat: Catalogue): Promise<void> {
    const asking = new AbortController();
    this.asking = asking;
    try {
      const v = await api("POST /api/puzzles/verdict", { body: { puzzle }, signal: asking.signal });
      if (asking.signal.aborted) return;
      this.last = v;
      this.show(v, cat);
      this.onVerdict(v);
    } catch (e) {
      if (asking.signal.aborted) return;
      const code = e instanceof ApiError ? e.code : "";
      this.idle(code === "no_help" ? t("editor:inPlay") : e instanceof Error ? e.message : String(e));
    } finally {
      if (this.asking === asking) this.asking = null;
    }
  }

  private show(v: PuzzleVerdict, cat: Catalogue): void {
    this.element.removeAttribute("aria-busy");
    const counted = v.more
      ? t("editor:moreThan", { count: v.solutions })
      : t("editor:solutions", { count: v.solutions });
    const headline = v.unique
      ? t("editor:unique")
      : v.solvable
        ? t("editor:solvable", { counted })
        : t("editor:notSolvable");
    this.say(headline, !v.solvable);
    const cubes = cat.layers > 1;
    const rows: [string, string][] = [
      [t("editor:solutionsLabel"), counted],
      [t("editor:uniqueLabel"), v.unique ? t("editor:yes") : t("editor:no")],
      [
        t(cubes ? "editor:cubesLabel" : "editor:cellsLabel"),
        t("editor:cellsValue", { area: v.area_cells, pieces: v.piece_cells }),
      ],
    ];
    if (v.median_seconds !== null)
      rows.push([t("editor:medianLabel"), t("editor:seconds", { s: Math.round(v.median_seconds) })]);
    const grade = gradeLabel(cat.edition, v.grade);
    if (grade) rows.push([t("editor:gradeLabel"), grade]);
    if (v.faster_than !== null) {
      const pct = Math.round(v.faster_than * 100);
      const key = pct <= 0 ? "editor:harderNone" : pct >= 100 ? "editor:harderAll" : "editor:harderValue";
      rows.push([t("editor:harderLabel"), t(key, { pct })]);
    }
    const figures = h(
      "dl.verdict-figures",
      {},
      rows.map(([k, val]) => h("div", {}, h("dt", {}, k), h("dd", {}, val))),
    );
    const reason = v.reason ? h("p.verdict-reason#verdict-reason", {}, reasonText(v, cubes)) : null;
    const picture = v.solution.length ? solutionPicture(cat, v) : null;
    const levels = picture && cubes ? h("p.muted.verdict-levels", {}, t("editor:levels")) : null;
    this.body.replaceChildren(...[reason, figures, picture, levels].filter((x) => x !== null));
  }
}

/** The grade as the edition names its sides ("Board side A · 3 tiles (easier)"). */
function gradeLabel(edition: string, grade: string | null): string | null {
  const info = EDITIONS.find((e) => e.name === edition);
  const side = info?.sides.find((s) => s.value === grade);
  return info && side ? sideName(info.sideWord, side.label) : grade;
}

/** Why there is no solution, in words a player understands. */
export function reasonText(v: PuzzleVerdict, cubes: boolean): string {
  const unit = cubes ? "Cubes" : "Cells";
  switch (v.reason) {
    case "sizes": {
      const gap = v.area_cells - v.piece_cells;
      const key = gap > 0 ? `editor:sizesAreaBigger${unit}` : `editor:sizesPiecesBigger${unit}`;
      const sizes = t(key, { area: v.area_cells, pieces: v.piece_cells, count: Math.abs(gap) });
      // cells no piece reaches are marked on the sheet: said too, not only the sum
      return v.unreachable.length ? `${sizes} ${t("editor:unreachable", { count: v.unreachable.length })}` : sizes;
    }
    case "unreachable":
      return t("editor:unreachable", { count: v.unreachable.length });
    case "no_fit":
      return t("editor:noFit");
    default:
      return "";
  }
}

/** One solution drawn: each piece in its colour (3D: the two levels side by side, the lower
 * one first). */
function solutionPicture(cat: Catalogue, v: PuzzleVerdict): SVGSVGElement {
  const flat: LatticeName = cat.layers > 1 ? "square" : cat.lattice;
  const levels = cat.layers > 1 ? [0, 1] : [null];
  const all = v.solution.flatMap((p) => p.cells);
  const b = cellsBounds(
    flat,
    all.map((c) => c.slice(0, flat === "triangle" ? 3 : 2)),
  );
  const width = b.maxX - b.minX;
  const pad = 0.2;
  const total = levels.length * width + (levels.length - 1) * 0.8;
  const el = svg("svg", {
    class: cat.layers > 1 ? "verdict-solution cubes" : "verdict-solution",
    viewBox: `${b.minX - pad} ${b.minY - pad} ${total + 2 * pad} ${b.maxY - b.minY + 2 * pad}`,
    role: "img",
    "aria-label": t("editor:solutionPicture"),
  }) as SVGSVGElement;
  levels.forEach((z, i) => {
    const g = svg("g", { transform: `translate(${i * (width + 0.8)} 0)` });
    for (const placed of v.solution) {
      const cells: Cell[] = placed.cells
        .filter((c) => z === null || c[2] === z)
        .map((c) => (z === null ? c : c.slice(0, 2)));
      if (cells.length) g.append(...pieceShapeNodes(flat, pieceOf(cat, String(placed.piece)), cells));
    }
    el.appendChild(g);
  });
  return el;
}
