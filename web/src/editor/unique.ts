// "Make it unique" (docs/editor.md): the server proposes a set of the edition's pieces that
// covers the drawn area in exactly one way (POST /api/puzzles/unique), the nearest to the
// pieces chosen; the player may take it (one undo step) or leave it. A proposal is for the
// drawing it was asked for: any change to the drawing withdraws it.

import { type AnswerOf, ApiError, api, type CallOf } from "../api";
import { h } from "../dom";
import { t } from "../i18n";

/** The refusal of a task being played: said in the editor's own words. */
const NO_HELP = "no_help";

type Drawn = CallOf<"POST /api/puzzles/unique">["body"]["puzzle"];
type UniqueProposal = AnswerOf<"POST /api/puzzles/unique">;

export class UniqueHelper {
  readonly element: HTMLElement;
  private readonly ask = h("button#unique-ask", { type: "button", disabled: true }, t("editor:makeUnique"));
  private readonly take = h("button.primary#unique-take", { type: "button", hidden: true }, t("editor:takeSet"));
  private readonly status = h("p#unique-status", { role: "status" });
  private proposal: string[] | null = null;
  private asking: AbortController | null = null;

  /** `drawn`: the area and the pieces chosen now (null: no area); `use`: take a piece set. */
  constructor(
    private readonly drawn: () => Drawn | null,
    private readonly use: (pieces: string[]) => void,
  ) {
    this.element = h("div.editor-unique", {}, h("div.editor-tools", {}, this.ask, this.take), this.status);
    this.ask.addEventListener("click", () => void this.request());
    this.take.addEventListener("click", () => {
      const pieces = this.proposal;
      if (!pieces) return;
      this.use(pieces);
      this.status.textContent = t("editor:setTaken", { pieces: pieces.join(", ") });
    });
  }

  /** The drawing changed: a proposal for the one before is withdrawn. */
  changed(hasArea: boolean, tooBig: boolean): void {
    this.asking?.abort();
    this.asking = null;
    this.ask.disabled = !hasArea || tooBig;
    if (this.proposal) {
      this.proposal = null;
      this.take.hidden = true;
    }
  }

  dispose(): void {
    this.asking?.abort();
  }

  private async request(): Promise<void> {
    const puzzle = this.drawn();
    if (!puzzle) return;
    const asking = new AbortController();
    this.asking = asking;
    this.status.textContent = t("editor:checking");
    try {
      const found = await api("POST /api/puzzles/unique", { body: { puzzle }, signal: asking.signal });
      if (asking.signal.aborted) return;
      this.shown(found);
    } catch (e) {
      if (asking.signal.aborted) return;
      const inPlay = e instanceof ApiError && e.code === NO_HELP;
      this.status.textContent = inPlay ? t("editor:inPlay") : e instanceof Error ? e.message : String(e);
    } finally {
      if (this.asking === asking) this.asking = null;
    }
  }

  private shown(found: UniqueProposal): void {
    const pieces = found.pieces.map(String);
    this.proposal = found.found ? pieces : null;
    this.take.hidden = !found.found;
    if (found.found) this.status.textContent = t("editor:uniqueFound", { pieces: pieces.join(", ") });
    else if (found.complete) this.status.textContent = t("editor:uniqueNone");
    else this.status.textContent = t("editor:uniqueBound", { tried: found.tried, candidates: found.candidates });
  }
}
