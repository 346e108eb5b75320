// `/pack/<id>`: a pack of saved puzzles opened by its link (docs/editor.md, "Packs"). Its
// puzzles in order; played as a solo run here (one after another on the game's own board,
// timed, a result at the end; no play is counted: a puzzle's own page counts those), raced
// with friends in a room made with the pack (each round the pack's next puzzle for everyone),
// or downloaded as a pack file (docs/puzzle-format.md, "Packs").

import "./puzzles.css";
import { type AnswerOf, ApiError, api, currentAccount, ensureAccount, savedName } from "../api";
import { type Catalogue, loadCatalogue } from "../catalogue";
import { h } from "../dom";
import { errorText, t } from "../i18n";
import { saveTicket } from "../net";
import type { PracticeTask } from "../offline/bundle";
import { LocalPlayer } from "../offline/player";
import { clock } from "../ui";
import { packEditor } from "./packedit";
import { removal } from "./remove";
import { editionTitle, showNotFound } from "./stats";

type Pack = AnswerOf<"GET /api/packs/{pack_id}">;
type PackPuzzle = Pack["puzzles"][number];

export interface Screen {
  element: HTMLElement;
  dispose: () => void;
}

/** The page of the pack `id`; `go` follows a link inside the app (the room it makes). */
export function packScreen(id: string, go: (path: string) => void): Screen {
  const main = h("main.panel.puzzle-page#main", { "aria-labelledby": "pack-title" });
  main.append(h("h1#pack-title", {}, t("puzzles:loading")));
  let view: PackView | null = null;
  void (async () => {
    try {
      await ensureAccount();
      const pack = await api("GET /api/packs/{pack_id}", { path: { pack_id: id } });
      const cat = await loadCatalogue(pack.edition);
      // its maker's change shows the pack as changed
      const show = (shown: Pack) => {
        view?.dispose();
        view = new PackView(shown, cat, main, go, show);
      };
      show(pack);
    } catch (e) {
      showNotFound(main, "h1#pack-title", t("puzzles:packNotFound"), e);
    }
  })();
  return { element: main, dispose: () => view?.dispose() };
}

/** One puzzle's end in a solo run: its time, or skipped. */
interface Played {
  puzzle: PackPuzzle;
  seconds: number | null;
}

class PackView {
  private player: LocalPlayer | null = null;
  private readonly stage = h("section.puzzle-stage", { "aria-label": t("puzzles:board") });
  private readonly status = h("p#pack-status", { role: "status" });
  private readonly clockEl = h("span.puzzle-clock#pack-clock", { "aria-hidden": "true" });
  private readonly tick = window.setInterval(() => this.showTime(), 250);
  private readonly actions: HTMLElement;
  private played: Played[] = [];
  private runStart = 0;
  private puzzleStart = 0;
  private running = false;

  constructor(
    private readonly pack: Pack,
    private readonly cat: Catalogue,
    main: HTMLElement,
    private readonly go: (path: string) => void,
    edited: (pack: Pack) => void,
  ) {
    const solo = h("button.primary#pack-solo", { type: "button" }, t("puzzles:packSolo"));
    const race = h("button#pack-race", { type: "button" }, t("puzzles:packRace"));
    const download = h("button#pack-download", { type: "button" }, t("puzzles:packDownload"));
    solo.addEventListener("click", () => this.startRun());
    race.addEventListener("click", () => void this.race(race));
    download.addEventListener("click", () => void this.download());
    solo.disabled = race.disabled = !pack.puzzles.length;
    // no room races a pack a moderator hid (its maker still sees it and may play it alone)
    if (pack.hidden) race.disabled = true;
    this.actions = h("div.row.pack-actions", {}, solo, race, download);
    const left = pack.left_out
      ? h("p.muted#pack-left-out", {}, t("puzzles:packLeftOut", { count: pack.left_out }))
      : "";
    main.replaceChildren(
      h("h1#pack-title", {}, pack.title),
      h(
        "p.muted#pack-about",
        {},
        t("puzzles:packAbout", {
          edition: editionTitle(pack.edition),
          author: pack.author_name,
          count: pack.puzzles.length,
        }),
      ),
      pack.hidden ? h("p.bad#pack-hidden", {}, t("puzzles:packHiddenByModerator")) : "",
      left,
      h(
        "ol.puzzle-list#pack-puzzles",
        {},
        pack.puzzles.map((p) =>
          h(
            "li.puzzle-entry",
            { "data-puzzle": p.id },
            h(
              "a.puzzle-entry-title",
              { href: `/puzzle/${p.id}`, "data-link": "" },
              p.title ?? t("puzzles:titleHidden"),
            ),
            h(
              "p.muted",
              {},
              t("puzzles:pieces", { count: p.piece_ids.length }),
              p.grade ? ` · ${t("puzzles:grade", { grade: p.grade })}` : "",
            ),
          ),
        ),
      ),
      h("p.muted", {}, t("puzzles:packRaceAbout")),
      this.actions,
      this.stage,
      this.status,
      pack.mine ? packEditor(pack, edited) : "",
      pack.mine
        ? h(
            "div.row.pack-owner",
            {},
            removal(() => main, {
              id: "pack-delete",
              ask: t("puzzles:packDeleteAsk"),
              gone: t("puzzles:packDeleted"),
              heading: "pack-title",
              say: (text) => {
                this.status.textContent = text;
              },
              remove: () => api("DELETE /api/packs/{pack_id}", { path: { pack_id: pack.id } }),
              done: () => this.dispose(),
            }),
          )
        : "",
    );
  }

  dispose(): void {
    window.clearInterval(this.tick);
    this.player?.destroy();
  }

  /** A solo run: every puzzle in order, timed from the first to the last. */
  private startRun(): void {
    this.actions.hidden = true;
    this.played = [];
    this.runStart = performance.now();
    this.running = true;
    this.next();
  }

  private next(): void {
    const n = this.played.length;
    const puzzle = this.pack.puzzles[n];
    if (!puzzle) {
      this.end();
      return;
    }
    this.player?.destroy();
    const player = new LocalPlayer({
      catalogue: this.cat,
      task: taskOf(puzzle),
      onSolved: () => this.done(puzzle, true),
    });
    this.player = player;
    const skip = h("button#pack-skip", { type: "button" }, t("puzzles:packSkip"));
    skip.addEventListener("click", () => this.done(puzzle, false));
    const where = h(
      "span#pack-where",
      {},
      t("puzzles:packWhere", { n: n + 1, count: this.pack.puzzles.length, title: puzzle.title ?? "" }),
    );
    this.stage.replaceChildren(h("div.puzzle-top", {}, where, this.clockEl, skip), player.element);
    player.mounted();
    this.puzzleStart = performance.now();
    this.showTime();
  }

  private done(puzzle: PackPuzzle, solved: boolean): void {
    if (!this.running || this.played.some((p) => p.puzzle === puzzle)) return;
    const seconds = (performance.now() - this.puzzleStart) / 1000;
    this.played.push({ puzzle, seconds: solved ? seconds : null });
    this.status.textContent = solved ? t("puzzles:packSolvedOne", { time: clock(seconds) }) : t("puzzles:packSkipped");
    this.next();
  }

  /** The run's result: how many solved, the whole time, each puzzle's. */
  private end(): void {
    this.running = false;
    this.player?.destroy();
    this.player = null;
    const total = (performance.now() - this.runStart) / 1000;
    const solved = this.played.filter((p) => p.seconds !== null).length;
    const rows = this.played.map((p, i) =>
      h(
        "tr",
        {},
        h("td", {}, String(i + 1)),
        h("td", {}, p.puzzle.title ?? t("puzzles:titleHidden")),
        h("td", {}, p.seconds === null ? t("puzzles:packSkippedShort") : clock(p.seconds)),
      ),
    );
    const again = h("button.primary#pack-again", { type: "button" }, t("puzzles:packAgain"));
    again.addEventListener("click", () => this.startRun());
    this.stage.replaceChildren(
      h(
        "div.pack-result#pack-result",
        {},
        h("h2", {}, t("puzzles:packResult", { solved, count: this.played.length, time: clock(total) })),
        h(
          "table.pack-times",
          {},
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col" }, "#"),
              h("th", { scope: "col" }, t("puzzles:title")),
              h("th", { scope: "col" }, t("puzzles:packTime")),
            ),
          ),
          h("tbody", {}, rows),
        ),
        again,
      ),
    );
    this.status.textContent = t("puzzles:packResult", { solved, count: this.played.length, time: clock(total) });
  }

  private showTime(): void {
    if (!this.running) return;
    this.clockEl.textContent = clock((performance.now() - this.runStart) / 1000);
  }

  /** A room made with the pack: this player hosts it and shares its link. */
  private async race(button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    try {
      const name = savedName() || currentAccount()?.name || t("puzzles:packPlayer");
      const seat = await api("POST /api/rooms", {
        body: { name, settings: { pack: this.pack.id, puzzles: "pack" } },
      });
      saveTicket(seat);
      this.go(`/room/${seat.code}`);
    } catch (e) {
      button.disabled = false;
      this.status.textContent = e instanceof ApiError ? errorText(e.code, e.message) : String(e);
    }
  }

  private async download(): Promise<void> {
    try {
      const file = await api("GET /api/packs/{pack_id}/file", { path: { pack_id: this.pack.id } });
      const url = URL.createObjectURL(new Blob([`${JSON.stringify(file)}\n`], { type: "application/json" }));
      const a = h("a", { href: url, download: `ubongo-pack-${this.pack.id}.json` });
      a.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      this.status.textContent = e instanceof ApiError ? errorText(e.code, e.message) : String(e);
    }
  }
}

/** A pack's puzzle as the board plays it (no solution: a run has no hints). */
function taskOf(p: PackPuzzle): PracticeTask {
  return {
    id: p.id,
    card: 0,
    side: "",
    key: "",
    level: "medium",
    pieces: p.piece_ids,
    area: p.area,
    layers: p.layers,
    difficulty: p.model_seconds,
    solution: [],
  };
}
