// `/puzzle/<id>`: a saved puzzle opened by its link (docs/editor.md, "Saving and sharing").
// Played solo on the game's own board (offline/player.ts): timed (Give up shows the solution)
// or as practice with hints from the puzzle's own solution. A finished play is reported once
// (the server counts one per account, never the author's); its stats, a like, a report, and
// for its author the choice of being listed in the community list or reached by the link only.

import "./puzzles.css";
import { type AnswerOf, ApiError, api, type CallOf, ensureAccount } from "../api";
import type { Placement } from "../catalogue";
import { type Catalogue, loadCatalogue } from "../catalogue";
import { h } from "../dom";
import { errorText, t } from "../i18n";
import type { PracticeTask } from "../offline/bundle";
import { LocalPlayer } from "../offline/player";
import { clock } from "../ui";
import { removal } from "./remove";
import { editionTitle, ratingText, showNotFound, statsList, titleOf } from "./stats";

type Page = AnswerOf<"GET /api/puzzles/{puzzle_id}">;
type Outcome = CallOf<"POST /api/puzzles/{puzzle_id}/plays">["body"]["outcome"];

export interface Screen {
  element: HTMLElement;
  dispose: () => void;
}

/** The page of the puzzle `id`. */
export function puzzleScreen(id: string): Screen {
  const main = h("main.panel.puzzle-page#main", { "aria-labelledby": "puzzle-title" });
  main.append(h("h1#puzzle-title", {}, t("puzzles:loading")));
  let view: PuzzleView | null = null;
  void (async () => {
    try {
      await ensureAccount();
      const page = await api("GET /api/puzzles/{puzzle_id}", { path: { puzzle_id: id } });
      const cat = await loadCatalogue(page.summary.edition);
      view = new PuzzleView(page, cat, main);
    } catch (e) {
      showNotFound(main, "h1#puzzle-title", t("puzzles:notFound"), e);
    }
  })();
  return { element: main, dispose: () => view?.dispose() };
}

class PuzzleView {
  private player: LocalPlayer | null = null;
  private readonly stage = h("section.puzzle-stage", { "aria-label": t("puzzles:board") });
  private readonly stats = h("div.puzzle-stats-box");
  private readonly status = h("p#puzzle-status", { role: "status" });
  private readonly like = h("button#puzzle-like", { type: "button", "aria-pressed": "false" }, t("puzzles:like"));
  private readonly tick = window.setInterval(() => this.showTime(), 250);
  private readonly clockEl = h("span.puzzle-clock#puzzle-clock", { "aria-hidden": "true" });
  private started = 0;
  private running = false;
  private helped = false;

  constructor(
    private page: Page,
    private readonly cat: Catalogue,
    main: HTMLElement,
  ) {
    const s = page.summary;
    main.replaceChildren(
      h("h1#puzzle-title", {}, titleOf(s)),
      h(
        "p.muted#puzzle-about",
        {},
        t("puzzles:about", { edition: editionTitle(s.edition), author: s.author_name, count: s.pieces }),
        s.grade ? ` · ${t("puzzles:grade", { grade: s.grade })}` : "",
        ` · ${t("puzzles:model", { s: Math.round(s.model_seconds) })}`,
      ),
      this.owner() ?? "",
      this.stats,
      this.choice(),
      this.stage,
      this.status,
      this.social() ?? "",
    );
    this.drawStats();
  }

  dispose(): void {
    window.clearInterval(this.tick);
    this.player?.destroy();
  }

  /** The author's own controls: listed or by link only. */
  private owner(): HTMLElement | null {
    if (!this.page.mine) return null;
    const listed = this.page.summary.published;
    const button = h(
      "button#puzzle-publish",
      { type: "button" },
      t(listed ? "puzzles:unpublish" : "puzzles:publishNow"),
    );
    button.addEventListener("click", async () => {
      try {
        this.page = await api("PUT /api/puzzles/{puzzle_id}/published", {
          path: { puzzle_id: this.page.summary.id },
          body: { published: !this.page.summary.published },
        });
        button.textContent = t(this.page.summary.published ? "puzzles:unpublish" : "puzzles:publishNow");
        this.say(t(this.page.summary.published ? "puzzles:listedNow" : "puzzles:linkOnlyNow"));
      } catch (e) {
        this.fail(e);
      }
    });
    const state = this.page.hidden ? t("puzzles:hiddenByModerator") : t("puzzles:yours");
    return h("div.puzzle-owner", {}, h("p.muted", {}, state), h("div.row", {}, button, this.deleting()));
  }

  /** Delete, asked twice (:func:`removal`). */
  private deleting(): HTMLElement {
    return removal(() => this.stage.closest("main"), {
      id: "puzzle-delete",
      ask: t("puzzles:deleteAsk"),
      gone: t("puzzles:deleted"),
      heading: "puzzle-title",
      say: (text) => this.say(text),
      remove: () => api("DELETE /api/puzzles/{puzzle_id}", { path: { puzzle_id: this.page.summary.id } }),
      done: () => this.dispose(),
    });
  }

  /** Timed or practice: the two ways to play it. */
  private choice(): HTMLElement {
    const counted = this.page.mine
      ? t("puzzles:ownNotCounted")
      : this.page.played
        ? t("puzzles:playedCounted")
        : t("puzzles:countedOnce");
    const timed = h("button.primary#puzzle-timed", { type: "button" }, t("puzzles:playTimed"));
    const practice = h("button#puzzle-practice", { type: "button" }, t("puzzles:playPractice"));
    const box = h("div.puzzle-choice", {}, h("p.muted", {}, counted), h("div.row", {}, timed, practice));
    timed.addEventListener("click", () => void this.start(false, box));
    practice.addEventListener("click", () => void this.start(true, box));
    return box;
  }

  private task(solution: Placement[]): PracticeTask {
    const p = this.page;
    return {
      id: p.summary.id,
      card: 0,
      side: "",
      key: "",
      level: "medium",
      pieces: p.piece_ids,
      area: p.area,
      layers: p.layers,
      difficulty: p.summary.model_seconds,
      solution,
    };
  }

  private async start(practice: boolean, choice: HTMLElement): Promise<void> {
    let solution: Placement[] = [];
    if (practice) {
      try {
        solution = (await api("GET /api/puzzles/{puzzle_id}/solution", { path: { puzzle_id: this.page.summary.id } }))
          .solution;
      } catch (e) {
        this.fail(e);
        return;
      }
    }
    choice.hidden = true;
    this.helped = practice;
    this.mount(solution, practice);
    this.started = performance.now();
    this.running = true;
    this.showTime();
  }

  private mount(solution: Placement[], help: boolean): LocalPlayer {
    this.player?.destroy();
    const player = new LocalPlayer({
      catalogue: this.cat,
      task: this.task(solution),
      help,
      onSolved: (shown) => void this.finished(shown || this.helped ? "helped" : "solved"),
    });
    this.player = player;
    const giveUp = h("button#puzzle-give-up", { type: "button", hidden: help }, t("puzzles:giveUp"));
    giveUp.addEventListener("click", () => void this.giveUp(giveUp));
    const top = h("div.puzzle-top", {}, this.clockEl, giveUp);
    this.stage.replaceChildren(top, player.element);
    player.mounted();
    return player;
  }

  private showTime(): void {
    if (!this.running) return;
    this.clockEl.textContent = clock((performance.now() - this.started) / 1000);
  }

  private seconds(): number {
    return Math.max(0.001, (performance.now() - this.started) / 1000);
  }

  /** Give up: the play is reported as given up, and the solution shown on the board. */
  private async giveUp(button: HTMLButtonElement): Promise<void> {
    if (!this.running) return;
    button.disabled = true;
    await this.finished("gave_up");
    try {
      const { solution } = await api("GET /api/puzzles/{puzzle_id}/solution", {
        path: { puzzle_id: this.page.summary.id },
      });
      this.mount(solution, false).showSolution();
      this.stage.querySelector("#puzzle-give-up")?.remove();
    } catch (e) {
      this.fail(e);
    }
  }

  private async finished(outcome: Outcome): Promise<void> {
    if (!this.running) return;
    this.running = false;
    const seconds = this.seconds();
    this.clockEl.textContent = clock(seconds);
    const said =
      outcome === "gave_up" ? "puzzles:gaveUp" : outcome === "helped" ? "puzzles:solvedHelped" : "puzzles:solved";
    this.say(t(said, { time: clock(seconds) }));
    if (this.page.mine || this.page.played) return;
    try {
      const stats = await api("POST /api/puzzles/{puzzle_id}/plays", {
        path: { puzzle_id: this.page.summary.id },
        body: { outcome, seconds: Math.round(seconds * 1000) / 1000 },
      });
      this.page = { ...this.page, played: outcome, summary: { ...this.page.summary, stats } };
      this.drawStats();
      this.like.disabled = false;
    } catch (e) {
      this.fail(e);
    }
  }

  private drawStats(): void {
    const { rating, rated_plays: taught, rating_after: needed } = this.page.summary;
    // the rating learned from play (docs/editor.md, "Rated by play"), or how far it has come
    const rated = h(
      "p.puzzle-rating#puzzle-rating",
      {},
      rating === null ? t("puzzles:notRatedYet", { count: taught, needed }) : ratingText(rating),
    );
    this.stats.replaceChildren(h("h2", {}, t("puzzles:statsHeading")), statsList(this.page.summary.stats), rated);
  }

  /** A like (after a play) and a report to the moderators. */
  private social(): HTMLElement | null {
    if (this.page.mine) return null;
    this.like.setAttribute("aria-pressed", String(this.page.liked));
    this.like.disabled = !this.page.played;
    this.like.title = t("puzzles:likeAfterPlay");
    this.like.addEventListener("click", async () => {
      const liked = this.like.getAttribute("aria-pressed") !== "true";
      try {
        const stats = await api("PUT /api/puzzles/{puzzle_id}/like", {
          path: { puzzle_id: this.page.summary.id },
          body: { liked },
        });
        this.like.setAttribute("aria-pressed", String(liked));
        this.page = { ...this.page, liked, summary: { ...this.page.summary, stats } };
        this.drawStats();
      } catch (e) {
        this.fail(e);
      }
    });
    const reason = h("input#puzzle-report-reason", { type: "text", maxLength: 200 });
    const send = h("button#puzzle-report-send", { type: "submit" }, t("puzzles:reportSend"));
    const form = h(
      "form.row.puzzle-report-form",
      { hidden: true },
      h("label.field", {}, h("span", {}, t("puzzles:reportWhy")), reason),
      send,
    );
    const report = h("button#puzzle-report", { type: "button" }, t("puzzles:report"));
    report.addEventListener("click", () => {
      form.hidden = false;
      reason.focus();
    });
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        await api("POST /api/puzzles/{puzzle_id}/report", {
          path: { puzzle_id: this.page.summary.id },
          body: { reason: reason.value },
        });
        form.hidden = true;
        report.disabled = true;
        this.say(t("puzzles:reported"));
      } catch (err) {
        this.fail(err);
      }
    });
    return h("div.puzzle-social", {}, h("div.row", {}, this.like, report), form);
  }

  private say(text: string): void {
    this.status.className = "";
    this.status.textContent = text;
  }

  private fail(e: unknown): void {
    this.status.className = "bad";
    this.status.textContent = e instanceof ApiError ? errorText(e.code, e.message) : String(e);
  }
}
