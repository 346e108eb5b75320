// Packs on `/puzzles` (docs/editor.md, "Packs"): the player's own packs, a new pack made of
// their saved puzzles in the order they are ticked, and a pack file imported (each of its
// puzzles saved, as the editor saves one, then the pack made of them). The server checks
// everything again: only the account's own or published puzzles, of one edition, its limits.

import { type AnswerOf, ApiError, api, ensureAccount } from "../api";
import { h } from "../dom";
import { errorText, t } from "../i18n";
import { editionTitle, type PuzzleSummary, titleOf } from "./stats";

type PackFile = AnswerOf<"GET /api/packs/{pack_id}/file">;

/** The packs section: the player's packs, making one, importing one. */
export function packMaker(): HTMLElement {
  const mine = h("div#packs-mine");
  const title = h("input#pack-new-title", { type: "text", maxLength: 32, autocomplete: "off" });
  const choose = h("ul.pack-choose#pack-choose", {});
  // each ticked puzzle's place in the pack, shown beside it
  const places = new Map<string, HTMLElement>();
  const numbered = () => {
    for (const [id, el] of places) {
      const at = order.indexOf(id);
      el.textContent = at < 0 ? "" : t("puzzles:packPlace", { n: at + 1 });
    }
  };
  const make = h("button.primary#pack-make", { type: "button" }, t("puzzles:packMake"));
  const picker = h("input#pack-import-file", { type: "file", accept: ".json,application/json", hidden: true });
  const importButton = h("button#pack-import", { type: "button" }, t("puzzles:packImport"));
  const status = h("p#pack-made", { role: "status" });
  let order: string[] = [];

  const say = (text: string, link?: string) => {
    status.replaceChildren(text);
    if (link)
      status.append(" ", h("a#pack-made-link", { href: `/pack/${link}`, "data-link": "" }, t("puzzles:packOpen")));
  };
  const fail = (e: unknown) => say(e instanceof ApiError ? errorText(e.code, e.message) : String(e));

  async function refresh(): Promise<void> {
    try {
      await ensureAccount();
      const [packs, puzzles] = await Promise.all([api("GET /api/packs/mine"), api("GET /api/puzzles/mine")]);
      mine.replaceChildren(
        packs.packs.length
          ? h(
              "ul.puzzle-list",
              {},
              packs.packs.map((p) =>
                h(
                  "li.puzzle-entry",
                  { "data-pack": p.id },
                  h("a.puzzle-entry-title", { href: `/pack/${p.id}`, "data-link": "" }, p.title),
                  h("p.muted", {}, `${editionTitle(p.edition)} · ${t("puzzles:packPuzzles", { count: p.puzzles })}`),
                ),
              ),
            )
          : h("p.muted", {}, t("puzzles:packNoneMine")),
      );
      places.clear();
      choose.replaceChildren(...puzzles.puzzles.map((p) => choice(p)));
    } catch (e) {
      fail(e);
    }
  }

  /** A puzzle to tick: its place in the pack is the order of the ticks. */
  function choice(p: PuzzleSummary): HTMLElement {
    const box = h("input", { type: "checkbox", value: p.id });
    box.dataset.puzzle = p.id;
    const place = h("span.pack-place", {});
    places.set(p.id, place);
    box.addEventListener("change", () => {
      order = box.checked ? [...order, p.id] : order.filter((id) => id !== p.id);
      numbered();
    });
    const label = `${titleOf(p)} (${editionTitle(p.edition)})`;
    return h("li", {}, h("label.share-check", {}, box, h("span", {}, label)), place);
  }

  make.addEventListener("click", async () => {
    make.disabled = true;
    try {
      const pack = await api("POST /api/packs", { body: { title: title.value, puzzles: order } });
      say(t("puzzles:packMade", { title: pack.title }), pack.id);
      order = [];
      await refresh();
    } catch (e) {
      fail(e);
    } finally {
      make.disabled = false;
    }
  });
  importButton.addEventListener("click", () => picker.click());
  picker.addEventListener("change", async () => {
    const file = picker.files?.[0];
    picker.value = "";
    if (file) await importPack(file, say, fail).then(refresh);
  });
  void refresh();
  return h(
    "section.packs#packs",
    { "aria-labelledby": "packs-heading" },
    h("h2#packs-heading", {}, t("puzzles:packsTitle")),
    h("p.muted", {}, t("puzzles:packsAbout")),
    mine,
    h("h3", {}, t("puzzles:packNew")),
    h("label.field", {}, h("span", {}, t("puzzles:title")), title),
    h("p.muted", {}, t("puzzles:packChoose")),
    choose,
    h("div.editor-tools", {}, make, importButton, picker),
    status,
  );
}

/** A pack file read: each puzzle saved (link only) under its name, then the pack made. */
async function importPack(
  file: File,
  say: (text: string, link?: string) => void,
  fail: (e: unknown) => void,
): Promise<void> {
  let data: PackFile;
  try {
    const raw: unknown = JSON.parse(await file.text());
    if (typeof raw !== "object" || raw === null || !Array.isArray((raw as PackFile).puzzles)) throw new Error();
    data = raw as PackFile;
  } catch {
    say(t("puzzles:packBadFile"));
    return;
  }
  const name = data.name || file.name.replace(/\.json$/i, "");
  try {
    const ids: string[] = [];
    for (const [i, puzzle] of data.puzzles.entries()) {
      say(t("puzzles:packImporting", { n: i + 1, count: data.puzzles.length }));
      const { name: own, ...rest } = puzzle as unknown as { name?: string } & Record<string, unknown>;
      const saved = await api("POST /api/puzzles", {
        body: { puzzle: rest, title: own || `${name} ${i + 1}`, published: false },
      });
      ids.push(saved.summary.id);
    }
    const pack = await api("POST /api/packs", { body: { title: name, puzzles: ids } });
    say(t("puzzles:packMade", { title: pack.title }), pack.id);
  } catch (e) {
    fail(e);
  }
}
