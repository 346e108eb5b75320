// `/puzzles`: the community list (docs/editor.md, "The community list"): an edition's published
// puzzles, newest, most played, best liked or hardest (rated by play) first, each with its
// maker, its stats and rating, a link to play it, 20 at a time ("More"); or the edition's
// listed packs, newest, most played or best liked first (their puzzles' figures added up); and
// the player's own puzzles, published or not, to share or to publish.

import "./puzzles.css";
import { type AnswerOf, ApiError, api, ensureAccount } from "../api";
import { h } from "../dom";
import { EDITIONS } from "../editions";
import { errorText, t } from "../i18n";
import { packMaker } from "./packmaker";
import { editionTitle, type PuzzleSummary, ratingText, statsList, titleOf } from "./stats";

export interface Screen {
  element: HTMLElement;
  dispose: () => void;
}

const SORTS = ["newest", "played", "liked", "rating"] as const;
/** the orders a list of packs has (a pack has no rating of its own) */
const PACK_SORTS: readonly string[] = ["newest", "played", "liked"];
const KINDS = ["puzzles", "packs"] as const;

type ListedPack = AnswerOf<"GET /api/packs">["packs"][number];

/** The community list; `edition` and `sort` from the address (`/puzzles?edition=trigo`), and
 * `kind` (`packs`: the edition's listed packs instead of its puzzles). */
export function puzzlesScreen(wanted: string | null, sortWanted: string | null): Screen {
  let edition = EDITIONS.find((e) => e.name === wanted)?.name ?? EDITIONS[0]?.name ?? "";
  let sort: string = SORTS.find((s) => s === sortWanted) ?? "newest";
  const kindWanted = new URLSearchParams(location.search).get("kind");
  let kind: string = KINDS.find((k) => k === kindWanted) ?? "puzzles";
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
  const kindSelect = h(
    "select#puzzles-kind",
    {},
    KINDS.map((k) => h("option", { value: k, selected: k === kind }, t(`puzzles:kind.${k}`))),
  );
  const sortField = h("label.field", {}, h("span", {}, t("puzzles:sortBy")), sortSelect);
  const list = h("div#puzzles-list", { "aria-live": "polite" });
  const more = h("button#puzzles-more", { type: "button", hidden: true }, t("puzzles:more"));
  const mine = h("div#puzzles-mine");
  let asking: AbortController | null = null;
  let page = 0;

  /** Page `page` of the list: the first replaces what is shown, the next ones are added. */
  async function load(): Promise<void> {
    asking?.abort();
    const now = new AbortController();
    asking = now;
    list.setAttribute("aria-busy", "true");
    more.disabled = true;
    try {
      const { items, hasMore } = await fetchPage(kind, edition, sort, page, now.signal);
      if (now.signal.aborted) return;
      const shown = list.querySelector("ol.puzzle-list");
      if (page > 0 && shown) shown.append(...items);
      else
        list.replaceChildren(
          items.length
            ? h("ol.puzzle-list", {}, items)
            : h("p.muted", {}, t(kind === "packs" ? "puzzles:noPacks" : "puzzles:none")),
        );
      more.hidden = !hasMore;
    } catch (e) {
      if (!now.signal.aborted) list.replaceChildren(h("p.bad", {}, failure(e)));
    } finally {
      if (asking === now) {
        list.removeAttribute("aria-busy");
        more.disabled = false;
      }
    }
  }

  const changed = () => {
    edition = editionSelect.value;
    sort = sortSelect.value;
    kind = kindSelect.value;
    page = 0;
    fitSorts();
    const tail = kind === "packs" ? "&kind=packs" : "";
    history.replaceState(history.state, "", `/puzzles?edition=${encodeURIComponent(edition)}&sort=${sort}${tail}`);
    void load();
  };
  editionSelect.addEventListener("change", changed);
  sortSelect.addEventListener("change", changed);
  kindSelect.addEventListener("change", changed);
  more.addEventListener("click", () => {
    page += 1;
    void load();
  });
  /** Offer the orders the kind of list has: packs none by rating (one asked for is newest). */
  function fitSorts(): void {
    const packs = kind === "packs";
    for (const option of sortSelect.options)
      option.hidden = option.disabled = packs && !PACK_SORTS.includes(option.value);
    if (packs && !PACK_SORTS.includes(sort)) sort = sortSelect.value = "newest";
  }
  fitSorts();
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
      h("label.field", {}, h("span", {}, t("puzzles:show")), kindSelect),
      sortField,
    ),
    list,
    more,
    h("h2", {}, t("puzzles:mineTitle")),
    mine,
    packMaker(),
  );
  void load();
  void loadMine(mine);
  return { element: main, dispose: () => asking?.abort() };
}

/** One page of the community list's puzzles or packs, as list items. */
async function fetchPage(
  kind: string,
  edition: string,
  sort: string,
  page: number,
  signal: AbortSignal,
): Promise<{ items: HTMLElement[]; hasMore: boolean }> {
  if (kind === "packs") {
    const found = await api("GET /api/packs", { query: { edition, sort, page }, signal });
    return { items: found.packs.map((p) => packEntry(p)), hasMore: found.more };
  }
  const found = await api("GET /api/puzzles", { query: { edition, sort, page }, signal });
  return { items: found.puzzles.map((p) => entry(p)), hasMore: found.more };
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
      p.rating === null ? "" : ` · ${ratingText(p.rating)}`,
    ),
    statsList(p.stats),
  );
}

/** One listed pack: its title (the link to it), maker, puzzles, and its puzzles' plays and likes. */
function packEntry(p: ListedPack): HTMLElement {
  return h(
    "li.puzzle-entry",
    { "data-pack": p.id },
    h("a.puzzle-entry-title", { href: `/pack/${p.id}`, "data-link": "" }, p.title),
    h(
      "p.muted",
      {},
      `${t("puzzles:by", { author: p.author_name })} · ${t("puzzles:packPuzzles", { count: p.puzzles })}`,
    ),
    h("p.muted.pack-figures", {}, t("puzzles:packFigures", { plays: p.plays, likes: p.likes })),
  );
}

function failure(e: unknown): string {
  return e instanceof ApiError ? errorText(e.code, e.message) : String(e);
}
