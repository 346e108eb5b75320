// The first run (issue 14): a guided first task per edition on the local player. Five steps:
// pick a piece, turn it, flip it (flat editions that allow it), drop it on the area, cover
// the whole area; each says how with a mouse, a finger and the keys, and moves on when the
// board shows it was done. Skippable; offered on the first visit (home) and again from the
// Help menu; remembered once done or skipped (storage.ts).

import "./tutorial.css";
import { h } from "../dom";
import { editionWord } from "../editions";
import { hasKey, t } from "../i18n";
import { editionName, loadBundle, type PracticeEdition, type PracticeTask } from "../offline/bundle";
import { LocalPlayer } from "../offline/player";
import { stored, type TutorialState } from "../storage";

export type Navigate = (path: string) => void;

/** "done", "skipped" or null (never seen: the home screen offers it). */
export function tutorialState(): TutorialState | null {
  return stored.tutorial.read();
}

function remember(state: TutorialState): void {
  // a tutorial done stays done; skipping it later does not undo that
  if (state === "skipped" && tutorialState() === "done") return;
  stored.tutorial.write(state);
}

interface Step {
  id: string;
  title: string;
  mouse: string;
  touch: string;
  keys: string;
}

function steps(entry: PracticeEdition, task: PracticeTask): Step[] {
  const n = task.pieces.length;
  const cubes = entry.catalogue.layers > 1;
  // a step's words: locales/<lang>/tutorial.json, `…3d` for the 3D board's own way
  const step = (id: string, values: Record<string, number> = {}): Step => {
    const say = (how: string) => {
      const key = `tutorial:steps.${id}.${how}`;
      return t(cubes && hasKey(`${key}3d`) ? `${key}3d` : key, values);
    };
    return { id, title: t(`tutorial:steps.${id}.title`), mouse: say("mouse"), touch: say("touch"), keys: say("keys") };
  };
  const out: Step[] = [step("pick", { n }), step("turn")];
  if (!cubes && entry.catalogue.flip) out.push(step("flip"));
  out.push(step("drop"), step("cover", { count: n }));
  return out;
}

/** The piece in the player's hand, as the board shows it (flat: the selected piece; 3D: held). */
function heldPiece(board: HTMLElement): string {
  const selected = board.querySelector<SVGGElement>(".piece.selected");
  return selected?.dataset.piece ?? board.dataset.held ?? "";
}

/** The tutorial's task: the bundle's easiest of the edition (fewest pieces, then easiest). */
function firstTask(entry: PracticeEdition): PracticeTask {
  return [...entry.tasks].sort((a, b) => a.pieces.length - b.pieces.length || a.difficulty - b.difficulty)[0];
}

/** The tutorial screen (`/tutorial`, `/tutorial?edition=trigo`). */
export function tutorialScreen(edition: string | null, go: Navigate): { element: HTMLElement; dispose: () => void } {
  const main = h("main.tutorial", { "aria-labelledby": "tutorial-title" });
  let cleanup: (() => void) | null = null;
  const skip = h(
    "button#tutorial-skip",
    {
      type: "button",
      onclick: () => {
        remember("skipped");
        go("/");
      },
    },
    t("tutorial:skip"),
  );
  main.append(h("div.tutorial-head", {}, h("h1#tutorial-title", {}, t("tutorial:title")), skip));
  const body = h("div.tutorial-body", {}, h("p.muted", {}, t("tutorial:loading")));
  main.append(body);
  loadBundle().then(
    (bundle) => {
      const name = editionName(bundle, edition);
      const editions = h(
        "div.tutorial-editions",
        { role: "group", "aria-label": t("tutorial:edition") },
        ...Object.entries(bundle.editions).map(([n, e]) =>
          h(
            "a.tutorial-edition",
            { href: `/tutorial?edition=${n}`, "data-link": "", "aria-current": n === name ? "page" : null },
            editionWord(n, "title", e.options.title),
          ),
        ),
      );
      const guide = new Guide(bundle.editions[name], go);
      cleanup = () => guide.destroy();
      body.replaceChildren(editions, guide.element);
      guide.start();
    },
    () => body.replaceChildren(h("p.bad", {}, t("tutorial:failed"))),
  );
  return { element: main, dispose: () => cleanup?.() };
}

class Guide {
  readonly element: HTMLElement;
  private readonly steps: Step[];
  private readonly task: PracticeTask;
  private readonly player: LocalPlayer;
  private readonly list: HTMLOListElement;
  private readonly detail: HTMLElement;
  private readonly observer: MutationObserver;
  private index = 0;
  private seen = new Set<string>();

  constructor(
    private readonly entry: PracticeEdition,
    private readonly go: Navigate,
  ) {
    this.task = firstTask(entry);
    this.steps = steps(entry, this.task);
    this.player = new LocalPlayer({ catalogue: entry.catalogue, task: this.task, onSolved: () => this.finish() });
    this.list = h("ol.tutorial-steps");
    this.detail = h("div.tutorial-detail", { "aria-live": "polite" });
    const coach = h("section.tutorial-coach", { "aria-label": t("tutorial:whatToDo") }, this.list, this.detail);
    this.element = h("div.tutorial-layout", { "data-edition": entry.catalogue.edition }, coach, this.player.element);
    const board = this.player.board.element;
    // the board says what happened through its attributes (pointer, touch, keys alike)
    this.observer = new MutationObserver(() => this.check());
    this.observer.observe(board, {
      attributes: true,
      subtree: true,
      attributeFilter: ["class", "data-transform", "data-held", "data-state"],
    });
    board.addEventListener("keydown", (e) => this.sawKey(e.key), true);
    board.addEventListener("click", (e) => this.sawClick(e.target), true);
    board.addEventListener("wheel", () => this.saw("turn"), { capture: true, passive: true });
  }

  start(): void {
    this.player.mounted();
    this.draw();
  }

  destroy(): void {
    this.observer.disconnect();
    this.player.destroy();
  }

  private sawKey(key: string): void {
    if (/^[rRtTyY]$/.test(key)) this.saw("turn");
    if (key === "f" || key === "F") this.saw("flip");
    window.setTimeout(() => this.check(), 0);
  }

  private sawClick(target: EventTarget | null): void {
    const tool = (target as Element | null)?.closest?.(".tool");
    if (tool && /tool-(rotate|spin|tip|roll)/.test(tool.className)) this.saw("turn");
    if (tool?.classList.contains("tool-flip")) this.saw("flip");
    window.setTimeout(() => this.check(), 0);
  }

  private saw(what: string): void {
    // only while that step is on: turning before being asked to does not skip a step
    if (this.steps[this.index]?.id === what) this.seen.add(what);
  }

  private check(): void {
    const step = this.steps[this.index];
    if (!step) return;
    const placed = this.player.board.placements().length;
    let done = false;
    switch (step.id) {
      case "pick":
        done = heldPiece(this.player.board.element) !== "";
        break;
      case "turn":
        done = this.seen.has("turn");
        break;
      case "flip":
        done = this.seen.has("flip");
        break;
      case "drop":
        done = placed > 0;
        break;
      case "cover":
        done = false; // the board's onCovered ends it (finish)
        break;
    }
    if (done) this.advance();
  }

  private advance(): void {
    this.index += 1;
    this.draw();
    this.check(); // a step may be done already (a piece dropped while turning it)
  }

  private draw(): void {
    this.list.replaceChildren(
      ...this.steps.map((s, i) =>
        h(
          "li",
          {
            "data-step": s.id,
            class: i < this.index ? "done" : i === this.index ? "current" : "",
            "aria-current": i === this.index ? "step" : null,
          },
          i < this.index ? "✓ " : "",
          s.title,
        ),
      ),
    );
    const step = this.steps[this.index];
    if (!step) return;
    this.element.dataset.step = step.id;
    this.detail.replaceChildren(
      h("h2", {}, t("tutorial:stepOf", { n: this.index + 1, total: this.steps.length, title: step.title })),
      h(
        "dl.tutorial-how",
        {},
        h("dt", {}, t("tutorial:mouse")),
        h("dd", {}, step.mouse),
        h("dt", {}, t("tutorial:touch")),
        h("dd", {}, step.touch),
        h("dt", {}, t("tutorial:keys")),
        h("dd", {}, step.keys),
      ),
    );
  }

  private finish(): void {
    this.index = this.steps.length;
    remember("done");
    this.element.dataset.step = "solved";
    this.draw();
    const edition = this.entry.catalogue.edition;
    this.detail.replaceChildren(
      h("h2.tutorial-solved", {}, t("tutorial:solved")),
      h("p", {}, t("tutorial:solvedAbout")),
      h(
        "p.tutorial-next",
        {},
        h("button.primary#tutorial-play", { type: "button", onclick: () => this.go("/") }, t("tutorial:play")),
        h(
          "button#tutorial-practice",
          { type: "button", onclick: () => this.go(`/practice?edition=${edition}`) },
          t("tutorial:practiceMore"),
        ),
      ),
    );
    this.detail.querySelector<HTMLButtonElement>("#tutorial-play")?.focus();
  }
}

/** The first visit's offer on the home screen (null once the tutorial was done or skipped). */
export function tutorialOffer(go: Navigate): HTMLElement | null {
  if (tutorialState() !== null) return null;
  const offer = h(
    "aside.tutorial-offer",
    { "aria-label": t("tutorial:offer.label") },
    h("p", {}, h("strong", {}, t("tutorial:offer.lead")), " ", t("tutorial:offer.text")),
    h(
      "button.primary.small#tutorial-start",
      { type: "button", onclick: () => go("/tutorial") },
      t("tutorial:offer.start"),
    ),
    h(
      "button.small#tutorial-dismiss",
      {
        type: "button",
        onclick: () => {
          remember("skipped");
          offer.remove();
        },
      },
      t("tutorial:offer.dismiss"),
    ),
  );
  return offer;
}

/** The header's Help menu: the tutorial again, and practice. */
export function helpMenu(): HTMLElement {
  return h(
    "details.help-menu",
    {},
    h("summary", {}, t("tutorial:help.menu")),
    h(
      "ul.help-items",
      {},
      h("li", {}, h("a", { href: "/tutorial", "data-link": "" }, t("tutorial:help.tutorial"))),
      h("li", {}, h("a", { href: "/practice", "data-link": "" }, t("tutorial:help.practice"))),
    ),
  );
}
