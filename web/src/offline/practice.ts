// Practice (issue 14): the bundle's tasks, solo, no clock, nothing recorded; works with no
// network. An edition's tasks by side and level, the one chosen on the local player, and the
// next one once it is covered. Solved tasks are remembered in this browser only.

import { h } from "../dom";
import { editionWord, sideName } from "../editions";
import { t } from "../i18n";
import { stored } from "../storage";
import { loadBundle, type PracticeBundle, type PracticeTask } from "./bundle";
import { onlineOnly } from "./network";
import { LocalPlayer } from "./player";

function solvedIds(): Set<string> {
  return new Set(stored.practiceSolved.read() ?? []);
}

function markSolved(id: string): void {
  const ids = solvedIds();
  ids.add(id);
  stored.practiceSolved.write([...ids]);
}

export interface Screen {
  element: HTMLElement;
  dispose: () => void;
}

/** The practice screen; `edition` from the address (`/practice?edition=trigo`). */
export function practiceScreen(edition: string | null): Screen {
  const main = h("main.practice", { "aria-labelledby": "practice-title" });
  let player: LocalPlayer | null = null;
  const dispose = () => {
    player?.destroy();
    player = null;
  };
  main.append(
    h("h1#practice-title", {}, t("offline:practice.title")),
    h("p.practice-lead", {}, t("offline:practice.lead")),
  );
  const body = h("div.practice-body", {}, h("p.muted", {}, t("offline:practice.loading")));
  main.append(body);
  loadBundle().then(
    (bundle) => {
      const view = new PracticeView(bundle, edition, (p) => {
        player?.destroy();
        player = p;
      });
      body.replaceChildren(view.element);
      view.start();
    },
    () => {
      body.replaceChildren(h("p.bad", {}, t("offline:practice.missing")), h("p.muted", {}, onlineOnly()));
    },
  );
  return { element: main, dispose };
}

/** A task's level ("easy") in the language shown; a level the client has no word for as it is. */
function levelName(level: string): string {
  return t(`offline:practice.levels.${level}`, { defaultValue: level });
}

class PracticeView {
  readonly element: HTMLElement;
  private edition: string;
  private readonly tabs: HTMLElement;
  private readonly list: HTMLElement;
  private readonly stage: HTMLElement;
  private current: PracticeTask | null = null;

  constructor(
    private readonly bundle: PracticeBundle,
    wanted: string | null,
    private readonly setPlayer: (p: LocalPlayer) => void,
  ) {
    const names = Object.keys(bundle.editions);
    this.edition = wanted && names.includes(wanted) ? wanted : names[0];
    this.tabs = h("div.practice-editions", { role: "group", "aria-label": t("offline:practice.edition") });
    this.list = h("div.practice-tasks");
    this.stage = h("section.practice-stage", { "aria-label": t("offline:practice.task") });
    this.element = h("div.practice-layout", {}, h("div.practice-pick", {}, this.tabs, this.list), this.stage);
  }

  start(): void {
    this.drawTabs();
    this.play(this.firstUnsolved());
  }

  private firstUnsolved(): PracticeTask {
    const tasks = this.bundle.editions[this.edition].tasks;
    const solved = solvedIds();
    return tasks.find((task) => !solved.has(task.id)) ?? tasks[0];
  }

  private drawTabs(): void {
    this.tabs.replaceChildren(
      ...Object.entries(this.bundle.editions).map(([name, e]) =>
        h(
          "button.practice-edition",
          {
            type: "button",
            "data-edition": name,
            "aria-pressed": String(name === this.edition),
            onclick: () => {
              this.edition = name;
              // the address names it: a redraw (a new language) keeps the edition
              history.replaceState(history.state, "", `/practice?edition=${encodeURIComponent(name)}`);
              this.drawTabs();
              this.play(this.firstUnsolved());
            },
          },
          editionWord(name, "title", e.options.title),
        ),
      ),
    );
  }

  private drawList(): void {
    const entry = this.bundle.editions[this.edition];
    const solved = solvedIds();
    const bySide = new Map<string, PracticeTask[]>();
    for (const task of entry.tasks) bySide.set(task.side, [...(bySide.get(task.side) ?? []), task]);
    const groups = [...bySide].map(([side, tasks]) =>
      h(
        "div.practice-side",
        {},
        h("span.practice-side-name", {}, this.sideName(side)),
        ...tasks.map((task) =>
          h(
            "button.practice-task",
            {
              type: "button",
              "data-task": task.id,
              "aria-current": task === this.current ? "true" : null,
              title: t("offline:practice.taskInfo", {
                count: task.pieces.length,
                seconds: Math.round(task.difficulty),
              }),
              onclick: () => this.play(task),
            },
            solved.has(task.id) ? "✓ " : "",
            levelName(task.level),
          ),
        ),
      ),
    );
    this.list.replaceChildren(...groups);
  }

  private play(task: PracticeTask): void {
    this.current = task;
    this.drawList();
    const entry = this.bundle.editions[this.edition];
    const next = h(
      "button.primary#practice-next",
      { type: "button", hidden: true, onclick: () => this.play(this.after(task)) },
      t("offline:practice.next"),
    );
    const done = h("p.practice-done", { role: "status" });
    const player = new LocalPlayer({
      catalogue: entry.catalogue,
      task,
      help: true,
      onSolved: (shown) => {
        if (!shown) markSolved(task.id);
        done.textContent = shown ? t("offline:practice.shownDone") : t("offline:practice.solved");
        next.hidden = false;
        this.drawList();
        next.focus();
      },
    });
    this.setPlayer(player);
    const title = `${editionWord(this.edition, "title", entry.options.title)} · ${this.sideName(task.side)} · ${levelName(task.level)}`;
    this.stage.replaceChildren(
      h("h2.practice-task-title", {}, title),
      player.element,
      h("div.practice-after", {}, done, next),
    );
    player.mounted();
  }

  /** A side's name in the language shown (the edition's words, translated by editions.json). */
  private sideName(side: string): string {
    const o = this.bundle.editions[this.edition].options;
    const word = editionWord(this.edition, "side_word", o.side_word);
    return sideName(word, editionWord(this.edition, `sides.${side}`, o.side_labels[side] ?? side));
  }

  private after(task: PracticeTask): PracticeTask {
    const tasks = this.bundle.editions[this.edition].tasks;
    return tasks[(tasks.indexOf(task) + 1) % tasks.length];
  }
}
