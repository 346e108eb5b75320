// Practice (issue 14): the bundle's tasks, solo, no clock, nothing recorded; works with no
// network. An edition's tasks by side and level, the one chosen on the local player, and the
// next one once it is covered. Solved tasks are remembered in this browser only.

import { h } from "../dom";
import { loadBundle, type PracticeBundle, type PracticeTask } from "./bundle";
import { ONLINE_ONLY } from "./network";
import { LocalPlayer } from "./player";

const SOLVED_KEY = "ubongo.practice.solved";

function solvedIds(): Set<string> {
  try {
    const raw = JSON.parse(localStorage.getItem(SOLVED_KEY) ?? "[]") as unknown;
    return new Set(Array.isArray(raw) ? raw.map(String) : []);
  } catch {
    return new Set();
  }
}

function markSolved(id: string): void {
  const ids = solvedIds();
  ids.add(id);
  localStorage.setItem(SOLVED_KEY, JSON.stringify([...ids]));
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
    h("h1#practice-title", {}, "Practice"),
    h(
      "p.practice-lead",
      {},
      "Solo, no clock, nothing recorded: these tasks are kept in this browser and play without a network.",
    ),
  );
  const body = h("div.practice-body", {}, h("p.muted", {}, "Loading the tasks…"));
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
      body.replaceChildren(
        h(
          "p.bad",
          {},
          "The practice tasks are not in this browser yet: open Ubongo once with a network, then they stay.",
        ),
        h("p.muted", {}, ONLINE_ONLY),
      );
    },
  );
  return { element: main, dispose };
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
    this.tabs = h("div.practice-editions", { role: "group", "aria-label": "Edition" });
    this.list = h("div.practice-tasks");
    this.stage = h("section.practice-stage", { "aria-label": "Task" });
    this.element = h("div.practice-layout", {}, h("div.practice-pick", {}, this.tabs, this.list), this.stage);
  }

  start(): void {
    this.drawTabs();
    this.play(this.firstUnsolved());
  }

  private firstUnsolved(): PracticeTask {
    const tasks = this.bundle.editions[this.edition].tasks;
    const solved = solvedIds();
    return tasks.find((t) => !solved.has(t.id)) ?? tasks[0];
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
              this.drawTabs();
              this.play(this.firstUnsolved());
            },
          },
          e.options.title,
        ),
      ),
    );
  }

  private drawList(): void {
    const entry = this.bundle.editions[this.edition];
    const solved = solvedIds();
    const bySide = new Map<string, PracticeTask[]>();
    for (const t of entry.tasks) bySide.set(t.side, [...(bySide.get(t.side) ?? []), t]);
    const groups = [...bySide].map(([side, tasks]) =>
      h(
        "div.practice-side",
        {},
        h("span.practice-side-name", {}, `${entry.options.side_word} ${entry.options.side_labels[side] ?? side}`),
        ...tasks.map((t) =>
          h(
            "button.practice-task",
            {
              type: "button",
              "data-task": t.id,
              "aria-current": t === this.current ? "true" : null,
              title: `${t.pieces.length} pieces, about ${Math.round(t.difficulty)} s for a median player`,
              onclick: () => this.play(t),
            },
            solved.has(t.id) ? "✓ " : "",
            t.level,
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
      "Next task",
    );
    const done = h("p.practice-done", { role: "status" });
    const player = new LocalPlayer({
      catalogue: entry.catalogue,
      task,
      help: true,
      onSolved: (shown) => {
        if (!shown) markSolved(task.id);
        done.textContent = shown ? "That is one way to cover it." : "Solved! Every light cell is covered once.";
        next.hidden = false;
        this.drawList();
        next.focus();
      },
    });
    this.setPlayer(player);
    const title = `${entry.options.title} · ${entry.options.side_word} ${entry.options.side_labels[task.side] ?? task.side} · ${task.level}`;
    this.stage.replaceChildren(
      h("h2.practice-task-title", {}, title),
      player.element,
      h("div.practice-after", {}, done, next),
    );
    player.mounted();
  }

  private after(task: PracticeTask): PracticeTask {
    const tasks = this.bundle.editions[this.edition].tasks;
    return tasks[(tasks.indexOf(task) + 1) % tasks.length];
  }
}
