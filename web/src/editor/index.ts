// `/create`: the puzzle editor (issue 27, docs/editor.md). Pick an edition, draw the area on its
// lattice (3D: the board's squares, filled on two levels; Trigo: both areas on one sheet), pick
// the pieces from the edition's set, and the solver's verdict follows the drawing (verdict.ts).
// Undo, Clear, and Download: the puzzle as a puzzle file, which `ubongo solve` reads.

import { announce } from "../announce";
import { pieceShapeNodes } from "../board/draw";
import { type Catalogue, loadCatalogue, type PieceEntry } from "../catalogue";
import { h, svg } from "../dom";
import { EDITIONS } from "../editions";
import { cellsBounds, type LatticeName } from "../geometry";
import { colourName, t } from "../i18n";
import type { PuzzleVerdict, VerdictRequest } from "../protocol";
import { Sheet } from "./canvas";
import { type Drawn, readPuzzle, save } from "./file";
import { normalised, ontoSheet, transformed } from "./lattice";
import { SaveBox } from "./share";
import { UniqueHelper } from "./unique";
import { VerdictPanel } from "./verdict";

/** The solver's bounds (the server's, src/ubongo/server/online/help.py): no more is asked. */
const MOST_PIECES = 8;
const MOST_CELLS = 64;
/** Undo steps kept. */
const UNDO_STEPS = 200;

interface Drawing {
  area: string[];
  pieces: string[];
}

export interface EditorScreen {
  element: HTMLElement;
  dispose(): void;
}

export function editorScreen(wanted: string | null): EditorScreen {
  const editions = EDITIONS;
  const first = editions.find((e) => e.name === wanted) ?? editions[0];
  const select = h(
    "select#editor-edition",
    {},
    editions.map((e) => h("option", { value: e.name, selected: e.name === first.name }, e.title)),
  );
  const undo = h("button#editor-undo", { type: "button", disabled: true }, t("editor:undo"));
  const clear = h("button#editor-clear", { type: "button" }, t("editor:clear"));
  const download = h("button#editor-download", { type: "button", disabled: true }, t("editor:download"));
  const turn = h("button#editor-turn", { type: "button" }, t("editor:turn"));
  const mirror = h("button#editor-mirror", { type: "button" }, t("editor:mirror"));
  // a puzzle file read back: the input is hidden, its button opens it
  const picker = h("input#editor-file", { type: "file", accept: ".json,application/json", hidden: true });
  const openFile = h("button#editor-open", { type: "button", onclick: () => picker.click() }, t("editor:open"));
  const sheetBox = h("div.editor-sheet-box");
  const pieceBox = h("div.editor-pieces", { role: "group", "aria-labelledby": "editor-pieces-heading" });
  const tally = h("p.muted#editor-tally", {});
  const panel = new VerdictPanel((v) => shown(v));
  const share = new SaveBox();
  // "Make it unique": the area with the pieces chosen (perhaps none); a set taken is one undo step
  const unique = new UniqueHelper(
    () =>
      cat && sheet?.area.size
        ? { edition: cat.edition, area: normalised(sheet.areaCells()), pieces: [...chosen] }
        : null,
    (pieces) => {
      remember();
      setDrawing({ area: [...(sheet?.area ?? [])], pieces });
    },
  );
  const element = h(
    "main.editor#main",
    {},
    h("h1", {}, t("editor:heading")),
    h("p.muted", {}, t("editor:intro")),
    h(
      "div.editor-columns",
      {},
      h(
        "section.panel.editor-draw",
        {},
        h("div.row", {}, h("label.field", {}, h("span", {}, t("editor:edition")), select)),
        h("div.editor-tools", {}, undo, clear, turn, mirror),
        sheetBox,
        panel.mini,
        h("p.muted#editor-keys", {}, t("editor:keys")),
        h("h2#editor-pieces-heading", {}, t("editor:pieces")),
        pieceBox,
        tally,
        unique.element,
        h("div.editor-tools", {}, download, openFile, picker),
        share.element,
      ),
      panel.element,
    ),
  );

  let cat: Catalogue | null = null;
  let sheet: Sheet | null = null;
  let chosen: string[] = [];
  let history: Drawing[] = [];
  let alive = true;

  const snapshot = (): Drawing => ({ area: [...(sheet?.area ?? [])], pieces: [...chosen] });
  const remember = () => {
    history.push(snapshot());
    if (history.length > UNDO_STEPS) history.shift();
    undo.disabled = false;
  };

  /** The drawing as a puzzle file; null when there is nothing to ask about yet. */
  function puzzle(): VerdictRequest["puzzle"] | null {
    if (!cat || !sheet?.area.size || !chosen.length) return null;
    return { edition: cat.edition, area: normalised(sheet.areaCells()), pieces: [...chosen] };
  }

  function changed(): void {
    if (!cat || !sheet) return;
    const cells = sheet.area.size * cat.layers;
    const pieceCells = chosen.reduce((n, id) => n + (cat?.pieces.find((p) => p.id === id)?.size ?? 0), 0);
    tally.textContent = t("editor:tally", { count: chosen.length, cells: pieceCells, area: cells });
    download.disabled = !sheet.area.size || !chosen.length;
    sheet.markUnreachable(new Set());
    if (cells > MOST_CELLS) panel.ask(null, cat, t("editor:tooBig", { cells: MOST_CELLS, pieces: MOST_PIECES }));
    else panel.ask(puzzle(), cat, t("editor:empty"));
    share.changed(cells > MOST_CELLS ? null : puzzle());
    unique.changed(sheet.area.size > 0, cells > MOST_CELLS);
    for (const b of pieceBox.querySelectorAll<HTMLButtonElement>("button")) {
      const on = chosen.includes(b.dataset.piece ?? "");
      b.setAttribute("aria-pressed", String(on));
      b.disabled = !on && chosen.length >= MOST_PIECES;
    }
  }

  function shown(v: PuzzleVerdict | null): void {
    share.verdict(v);
    if (!v || !sheet) return;
    // the verdict's cells are the file's: the drawing moved to the origin, moved back here
    const area = sheet.areaCells();
    const dx = Math.min(...area.map((c) => c[0]));
    const dy = Math.min(...area.map((c) => c[1]));
    sheet.markUnreachable(new Set(v.unreachable.map((c) => [c[0] + dx, c[1] + dy, ...c.slice(2)].join(","))));
  }

  function setDrawing(d: Drawing): void {
    chosen = [...d.pieces];
    sheet?.setArea(d.area);
    changed();
  }

  async function open(name: string): Promise<void> {
    select.disabled = true;
    try {
      const loaded = await loadCatalogue(name);
      if (!alive) return;
      const keep = sheet && cat && sheet.lattice === latticeOf(loaded) ? [...sheet.area] : [];
      cat = loaded;
      chosen = [];
      history = [];
      undo.disabled = true;
      sheet = new Sheet(latticeOf(loaded), { begin: remember, changed, say: announce, undo: () => undo.click() });
      sheetBox.replaceChildren(sheet.element);
      pieceBox.replaceChildren(...loaded.pieces.map((p) => pieceButton(loaded, p, toggle)));
      sheet.setArea(keep);
      changed();
    } catch (e) {
      sheetBox.replaceChildren(h("p.bad", {}, e instanceof Error ? e.message : String(e)));
    } finally {
      select.disabled = false;
    }
  }

  function toggle(id: string): void {
    remember();
    chosen = chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id];
    changed();
  }

  /** The area turned or mirrored, kept on the sheet near where it was. */
  function reshape(how: "turn" | "mirror"): void {
    if (!sheet?.area.size) return;
    const now = sheet.areaCells();
    const moved = ontoSheet(sheet.lattice, sheet.cells, transformed(sheet.lattice, now, how), now);
    if (!moved) {
      announce(t("editor:noRoom"));
      return;
    }
    remember();
    setDrawing({ area: moved.map((c) => c.join(",")), pieces: chosen });
  }

  /** A puzzle file opened: its edition, its area on the sheet, its pieces. */
  async function load(file: Drawn): Promise<void> {
    select.value = file.edition;
    await open(file.edition);
    if (!sheet || !cat) return;
    const known = cat.pieces.map((p) => p.id);
    const onSheet = ontoSheet(sheet.lattice, sheet.cells, file.area, []);
    if (!onSheet || !file.pieces.every((id) => known.includes(id))) {
      panel.ask(null, cat, t("editor:badFile"));
      return;
    }
    setDrawing({ area: onSheet.map((c) => c.join(",")), pieces: file.pieces });
  }

  turn.addEventListener("click", () => reshape("turn"));
  mirror.addEventListener("click", () => reshape("mirror"));
  picker.addEventListener("change", async () => {
    const text = await picker.files?.[0]?.text();
    picker.value = "";
    const file = text === undefined ? null : readPuzzle(text);
    if (file) await load(file);
    else if (cat) panel.ask(null, cat, t("editor:badFile"));
  });
  select.addEventListener("change", () => void open(select.value));
  undo.addEventListener("click", () => {
    const last = history.pop();
    if (last) setDrawing(last);
    undo.disabled = !history.length;
  });
  clear.addEventListener("click", () => {
    if (!sheet?.area.size && !chosen.length) return;
    remember();
    setDrawing({ area: [], pieces: [] });
  });
  download.addEventListener("click", () => {
    const file = puzzle();
    if (file) save(file, `ubongo-${String(file.edition)}-puzzle.json`);
  });
  void open(first.name);
  return {
    element,
    dispose() {
      alive = false;
      panel.dispose();
      unique.dispose();
    },
  };
}

/** The lattice the area is drawn on (3D: the board's squares). */
function latticeOf(cat: Catalogue): LatticeName {
  return cat.area_lattice;
}

/** A piece to pick: its picture (3D: seen from above) and its label; pressed when chosen. */
function pieceButton(cat: Catalogue, p: PieceEntry, toggle: (id: string) => void): HTMLButtonElement {
  const flat = cat.area_lattice;
  const raw = p.shapes[String(p.transforms[0])];
  const seen = new Map(raw.map((c) => [c.slice(0, flat === "triangle" ? 3 : 2).join(","), c]));
  const cells = [...seen.keys()].map((k) => k.split(",").map(Number));
  const b = cellsBounds(flat, cells);
  const pad = 0.1;
  const picture = svg("svg", {
    class: "piece-picture",
    viewBox: `${b.minX - pad} ${b.minY - pad} ${b.maxX - b.minX + 2 * pad} ${b.maxY - b.minY + 2 * pad}`,
    "aria-hidden": "true",
  });
  picture.style.width = `${(b.maxX - b.minX + 2 * pad) * 0.8}rem`;
  picture.append(...pieceShapeNodes(flat, p, cells));
  // the name read out starts with the label seen (WCAG 2.5.3): "B (light blue, 3 cells)"
  const details = t("editor:pieceDetails", { colour: colourName(p.colour_name), size: p.size });
  const button = h(
    "button.editor-piece",
    { type: "button", "aria-pressed": "false", title: `${p.id} ${details}` },
    picture,
    h("span", {}, p.id),
    h("span.visually-hidden", {}, ` ${details}`),
  );
  button.dataset.piece = p.id;
  button.addEventListener("click", () => toggle(p.id));
  return button;
}
