// A pack's maker changes it on its page (docs/editor.md, "Changing a pack"): its title, its
// puzzles moved up or down, taken out or added by a puzzle's link, and whether it is listed in
// the community list. The server holds the change to the rules of making a pack, and refuses
// it to anyone else (`403 not_your_pack`).

import { type AnswerOf, ApiError, api } from "../api";
import { h } from "../dom";
import { errorText, t } from "../i18n";

type Pack = AnswerOf<"GET /api/packs/{pack_id}">;

interface Item {
  id: string;
  title: string;
}

/** The "Edit pack" section of `pack`'s page; `saved` gets the pack as changed. */
export function packEditor(pack: Pack, saved: (pack: Pack) => void): HTMLElement {
  let items: Item[] = pack.puzzles.map((p) => ({ id: p.id, title: p.title ?? t("puzzles:titleHidden") }));
  const title = h("input#pack-edit-title", { type: "text", maxLength: 32, value: pack.title, autocomplete: "off" });
  const list = h("ol.pack-edit-list#pack-edit-list", {});
  const add = h("input#pack-edit-add", { type: "text", autocomplete: "off", spellcheck: false });
  const addButton = h("button#pack-edit-add-button", { type: "button" }, t("puzzles:packEditAddButton"));
  const listed = h("input#pack-edit-listed", { type: "checkbox", checked: pack.published });
  const save = h("button.primary#pack-edit-save", { type: "button" }, t("puzzles:packEditSave"));
  const status = h("p#pack-edit-status", { role: "status" });
  const fail = (e: unknown) => {
    status.textContent = e instanceof ApiError ? errorText(e.code, e.message) : String(e);
  };

  const move = (from: number, to: number) => {
    if (to < 0 || to >= items.length) return;
    const next = [...items];
    const [one] = next.splice(from, 1);
    next.splice(to, 0, one);
    items = next;
    draw();
  };
  const control = (cls: string, label: string, text: string, act: () => void) => {
    const b = h(`button.${cls}`, { type: "button", "aria-label": label }, text);
    b.addEventListener("click", act);
    return b;
  };
  function draw(): void {
    list.replaceChildren(
      ...items.map((item, i) =>
        h(
          "li.pack-edit-item",
          { "data-puzzle": item.id },
          h("span.pack-edit-name", {}, item.title),
          control("pack-edit-up", t("puzzles:packEditUp", { title: item.title }), t("puzzles:packEditUpShort"), () =>
            move(i, i - 1),
          ),
          control(
            "pack-edit-down",
            t("puzzles:packEditDown", { title: item.title }),
            t("puzzles:packEditDownShort"),
            () => move(i, i + 1),
          ),
          control(
            "pack-edit-remove",
            t("puzzles:packEditRemove", { title: item.title }),
            t("puzzles:packEditRemoveShort"),
            () => {
              items = items.filter((_, j) => j !== i);
              draw();
            },
          ),
        ),
      ),
    );
  }

  addButton.addEventListener("click", () => void adding());
  async function adding(): Promise<void> {
    // a puzzle's link (…/puzzle/<id>) or its id
    const id = add.value.trim().split("/").filter(Boolean).pop() ?? "";
    if (!id) return;
    if (items.some((i) => i.id === id)) {
      status.textContent = t("puzzles:packEditTwice");
      return;
    }
    try {
      const found = await api("GET /api/puzzles/{puzzle_id}", { path: { puzzle_id: id } });
      items = [...items, { id: found.summary.id, title: found.summary.title ?? t("puzzles:titleHidden") }];
      add.value = "";
      status.textContent = "";
      draw();
    } catch (e) {
      fail(e);
    }
  }

  save.addEventListener("click", () => void saving());
  async function saving(): Promise<void> {
    save.disabled = true;
    try {
      const changed = await api("PATCH /api/packs/{pack_id}", {
        path: { pack_id: pack.id },
        body: { title: title.value, puzzles: items.map((i) => i.id), published: listed.checked },
      });
      saved(changed);
    } catch (e) {
      fail(e);
      save.disabled = false;
    }
  }

  draw();
  return h(
    "details.pack-edit#pack-edit",
    {},
    h("summary", {}, t("puzzles:packEdit")),
    h("label.field", {}, h("span", {}, t("puzzles:title")), title),
    list,
    h("div.row.pack-edit-add", {}, h("label.field", {}, h("span", {}, t("puzzles:packEditAdd")), add), addButton),
    h("label.share-check", {}, listed, h("span", {}, t("puzzles:packEditListed"))),
    save,
    status,
  );
}
