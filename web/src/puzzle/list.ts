// `/puzzles`: the community list (docs/editor.md, "The community list"): an edition's published
// puzzles, newest, most played or best liked first, each with its maker and its stats, a link
// to play it; and the player's own puzzles, published or not, to share or to publish.

import "./puzzles.css";
import { type AnswerOf, ApiError, api, ensureAccount } from "../api";
import { h } from "../dom";
import { EDITIONS } from "../editions";
import { errorText, t } from "../i18n";
import { packMaker } from "./packmaker";
import { editionTitle, type PuzzleSummary, statsList, titleOf } from "./stats";

export interface Screen {
  element: HTMLElement;
  dispose: () => void;
}

const SORTS = ["newest", "played", "liked"] as const;

/** The community list; `edition` and `sort` from the address (`/puzzles?edition=trigo`). */
export function puzzlesScreen(wanted: string | null, sortWanted: string | null): Screen {
  let edition = EDITIONS.find((e) => e.name === wanted)?.name ?? EDITIONS[0]?.name ?? "";
  let sort: string = SORTS.find((s) => s === sortWanted) ?? "newest";
  const editionSelect = h(
    "select#puzzles-edition",
    {},
    EDITIONS.map((e) => h("option", { value: e.name, selected: e.name === edition }, e.title)),
  );
  const sortSelect = h(
    "select#puzzles-sort",
    {},
    SORTS.map((s) => h("option", { value: s, selected: s === sort }, t(`puzzles:sort.${s}`))),
  );
  const list = h("div#puzzles-list", { "aria-live": "polite" });
  const mine = h("div#puzzles-mine");
  let asking: AbortController | null = null;

  async function load(): Promise<void> {
    asking?.abort();
    const now = new AbortController();
    asking = now;
    list.setAttribute("aria-busy", "true");
    try {
      const found = await api("GET /api/puzzles", { query: { edition, sort }, signal: now.signal });
      if (now.signal.aborted) return;
      list.replaceChildren(
        found.puzzles.length
          ? h(
              "ol.puzzle-list",
              {},
              found.puzzles.map((p) => entry(p)),
            )
          : h("p.muted", {}, t("puzzles:none")),
      );
    } catch (e) {
      if (!now.signal.aborted) list.replaceChildren(h("p.bad", {}, failure(e)));
    } finally {
      if (asking === now) list.removeAttribute("aria-busy");
    }
  }

  const changed = () => {
    edition = editionSelect.value;
    sort = sortSelect.value;
    history.replaceState(history.state, "", `/puzzles?edition=${encodeURIComponent(edition)}&sort=${sort}`);
    void load();
  };
  editionSelect.addEventListener("change", changed);
  sortSelect.addEventListener("change", changed);
  const main = h(
    "main.panel.puzzles-page#main",
    { "aria-labelledby": "puzzles-title" },
    h("h1#puzzles-title", {}, t("puzzles:communityTitle")),
    h(
      "p.muted",
      {},
      t("puzzles:communityAbout"),
      " ",
      h("a", { href: "/create", "data-link": "" }, t("puzzles:makeOne")),
    ),
    h(
      "div.row.puzzles-filters",
      {},
      h("label.field", {}, h("span", {}, t("puzzles:edition")), editionSelect),
      h("label.field", {}, h("span", {}, t("puzzles:sortBy")), sortSelect),
    ),
    list,
    h("h2", {}, t("puzzles:mineTitle")),
    mine,
    packMaker(),
  );
  void load();
  void loadMine(mine);
  return { element: main, dispose: () => asking?.abort() };
}

async function loadMine(into: HTMLElement): Promise<void> {
  try {
    await ensureAccount();
    const found: AnswerOf<"GET /api/puzzles/mine"> = await api("GET /api/puzzles/mine");
    into.replaceChildren(
      found.puzzles.length
        ? h(
            "ol.puzzle-list",
            {},
            found.puzzles.map((p) => entry(p, true)),
          )
        : h("p.muted", {}, t("puzzles:noneMine")),
    );
  } catch (e) {
    into.replaceChildren(h("p.bad", {}, failure(e)));
  }
}

/** One puzzle of a list: its title (the link to play it), maker, edition, and stats. */
function entry(p: PuzzleSummary, own = false): HTMLElement {
  const about = own
    ? t(p.published ? "puzzles:listed" : "puzzles:linkOnly")
    : t("puzzles:by", { author: p.author_name });
  return h(
    "li.puzzle-entry",
    { "data-puzzle": p.id },
    h("a.puzzle-entry-title", { href: `/puzzle/${p.id}`, "data-link": "" }, titleOf(p)),
    h(
      "p.muted",
      {},
      `${about} · ${editionTitle(p.edition)} · ${t("puzzles:pieces", { count: p.pieces })}`,
      p.grade ? ` · ${t("puzzles:grade", { grade: p.grade })}` : "",
    ),
    statsList(p.stats),
  );
}

function failure(e: unknown): string {
  return e instanceof ApiError ? errorText(e.code, e.message) : String(e);
}
