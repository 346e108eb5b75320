// Saving a drawn puzzle (docs/editor.md, "Saving and sharing"): a title, whether it is listed
// in the community list (/puzzles), and Save, offered once the solver has found a solution.
// The server proves it again and keeps it under a link (/puzzle/<id>) shown here to share.

import "../puzzle/puzzles.css";
import { ApiError, api } from "../api";
import { h } from "../dom";
import { errorText, t } from "../i18n";
import type { PuzzleVerdict, VerdictRequest } from "../protocol";

type PuzzleFile = VerdictRequest["puzzle"];

/** The editor's save box: it follows the drawing (`changed`) and the verdict (`verdict`). */
export class SaveBox {
  readonly element: HTMLElement;
  private readonly title = h("input#share-title", { type: "text", maxLength: 32, autocomplete: "off" });
  private readonly publish = h("input#share-publish", { type: "checkbox" });
  private readonly button = h("button.primary#share-save", { type: "button", disabled: true }, t("puzzles:save"));
  private readonly status = h("p#share-status", { role: "status" });
  private puzzle: PuzzleFile | null = null;
  private solvable = false;
  private busy = false;

  constructor() {
    this.element = h(
      "section.share-box",
      { "aria-labelledby": "share-heading" },
      h("h2#share-heading", {}, t("puzzles:saveHeading")),
      h("label.field", {}, h("span", {}, t("puzzles:title")), this.title),
      h("label.share-check", {}, this.publish, h("span", {}, t("puzzles:publish"))),
      h(
        "div.editor-tools",
        {},
        this.button,
        h("a#share-community", { href: "/puzzles", "data-link": "" }, t("puzzles:communityLink")),
      ),
      this.status,
    );
    this.button.addEventListener("click", () => void this.save());
    this.title.addEventListener("input", () => this.update());
  }

  /** The drawing changed: the puzzle to save (null: nothing drawn); the verdict follows. */
  changed(puzzle: PuzzleFile | null): void {
    this.puzzle = puzzle;
    this.solvable = false;
    this.update();
  }

  /** The solver's verdict on the drawing shown. */
  verdict(v: PuzzleVerdict | null): void {
    this.solvable = !!v?.solvable;
    this.update();
  }

  private update(): void {
    this.button.disabled = this.busy || !this.puzzle || !this.solvable || !this.title.value.trim();
  }

  private async save(): Promise<void> {
    if (!this.puzzle) return;
    this.busy = true;
    this.update();
    this.status.className = "";
    this.status.textContent = t("puzzles:saving");
    try {
      const page = await api("POST /api/puzzles", {
        body: { puzzle: this.puzzle, title: this.title.value, published: this.publish.checked },
      });
      const path = `/puzzle/${page.summary.id}`;
      this.status.replaceChildren(
        h("span", {}, t(page.summary.published ? "puzzles:savedListed" : "puzzles:savedPrivate"), " "),
        h("a#share-link", { href: path, "data-link": "" }, `${location.origin}${path}`),
      );
    } catch (e) {
      this.status.className = "bad";
      this.status.textContent = e instanceof ApiError ? errorText(e.code, e.message) : String(e);
    } finally {
      this.busy = false;
      this.update();
    }
  }
}
