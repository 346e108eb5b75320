// The rules screen (/rules/<edition>): each edition's rules in our own words, in the language
// asked for, with pictures the client draws itself: the player's pieces, a task and its
// solution (the board drawing code and the edition catalogue; no image files).

import { ApiError, loadOptions } from "../api";
import { areaSvg } from "../board/pictures";
import { piecePicture } from "../board3d";
import { areaIsoSvg, solutionIsoSvg } from "../board3d/iso";
import { type Catalogue, loadCatalogue } from "../catalogue";
import { h } from "../dom";
import { EDITIONS, type EditionInfo } from "../editions";
import { language } from "../i18n";
import type { EditionOptions } from "../protocol";
import { type Example, loadExample } from "./example";
import { type Facts, type RulesText, rulesText, SECTION_ORDER, type SectionId } from "./text";

/** The address of an edition's rules in `lang` (named in the address when it is not the
 * language shown, which the rules page follows otherwise). */
export function rulesPath(edition: string, lang = language()): string {
  return `/rules/${encodeURIComponent(edition)}${lang === language() ? "" : `?lang=${lang}`}`;
}

/** A link to an edition's rules, for the home screen and the game's help; in a game, `newTab`
 * opens them beside it (following the link in the page would leave the game). */
export function rulesLink(info: EditionInfo, text: string, lang = language(), newTab = false): HTMLAnchorElement {
  const where = newTab ? { target: "_blank", rel: "noopener" } : { "data-link": "" };
  return h("a.rules-link", { href: rulesPath(info.name, lang), ...where }, text) as HTMLAnchorElement;
}

/** A short name of a side for sentences: its label up to the first " · " ("A", "Easier"). */
function shortSide(label: string): string {
  return label.split(" · ")[0];
}

/** What the text needs to know of an edition: its record's options and its catalogue. */
export function factsOf(info: EditionInfo, options: EditionOptions, cat: Catalogue, lang = language()): Facts {
  // the edition's words in the page's language (editions.json), which may differ from the shown
  const words = info.wordsIn(lang);
  const label = (side: string) => words.sides.find((s) => s.value === side)?.label ?? side;
  return {
    title: words.title,
    lattice: cat.lattice,
    pieces: cat.pieces.length,
    layers: Math.max(cat.layers, 1),
    keyKind: info.keyKind,
    gems: info.gems,
    rounds: info.rounds,
    // a race needs two; one player is the solo run, which has a section of its own
    players: [Math.max(2, options.players[0]), options.players[1]],
    sideWord: words.sideWord,
    sides: words.sides.map((s) => s.label),
    perPlayerSide: info.ownSide,
    hourglassSeconds: options.hourglass_seconds,
    countdown: Object.entries(options.countdown_seconds ?? {}).map(([side, seconds]) => ({
      side: shortSide(label(side)),
      seconds,
    })),
    soloAmounts: info.soloAmounts,
    soloMinutes: info.soloDefault.time ?? info.soloAmounts[0],
    soloTasks: info.soloDefault.tasks ?? info.soloAmounts[0],
    variants: Object.entries(words.variantLabels).map(([name, label]) => ({ name, label })),
  };
}

/** The rules screen of `edition` in `lang` ("en", "de"). */
export function rulesScreen(edition: string, lang = "en"): HTMLElement {
  const text = rulesText(lang);
  const info = EDITIONS.find((e) => e.name === edition);
  const page = h("main.panel.rules-page", { "data-edition": edition, lang });
  if (!info) {
    page.append(h("h1", {}, text.unknownEdition(edition)), nav(text, null, lang));
    return page;
  }
  const status = h("p.muted.rules-status", { role: "status" }, text.loading);
  page.append(h("h1", {}, text.heading(info.wordsIn(lang).title)), nav(text, info, lang), status);
  Promise.all([loadOptions(), loadCatalogue(edition)])
    .then(([options, cat]) => {
      const facts = factsOf(info, options[edition], cat, lang);
      page.append(h("p.rules-intro", {}, text.intro(facts)));
      const sections = new Map<SectionId, HTMLElement>();
      for (const id of SECTION_ORDER) {
        const { title, body } = text.sections[id];
        const paragraphs = body(facts);
        if (!paragraphs.length) continue;
        const section = h(
          "section.rules-section",
          { "data-section": id },
          h("h2", {}, title),
          ...paragraphs.map((p) => h("p", {}, p)),
        );
        sections.set(id, section);
        page.append(section);
      }
      sections.get("pieces")?.append(piecesFigure(cat, text, facts));
      const goal = sections.get("goal");
      return loadExample(edition).then((example) => {
        goal?.append(...exampleFigures(cat, example, text, facts));
        status.remove();
      });
    })
    .catch((error: unknown) => {
      // a refusal says why (too many hints from one address, say); anything else is the network
      const refused = error instanceof ApiError && error.status > 0;
      status.textContent = refused ? `${text.refused} ${error.message}` : text.failed;
    });
  return page;
}

function nav(text: RulesText, info: EditionInfo | null, lang: string): HTMLElement {
  const others = EDITIONS.filter((e) => e !== info).map((e) =>
    h("a", { href: rulesPath(e.name, lang), "data-link": "" }, e.wordsIn(lang).title),
  );
  const languages = (["en", "de"] as const)
    .filter((l) => l !== lang)
    .map((l) =>
      h("a", { href: rulesPath(info?.name ?? EDITIONS[0].name, l), "data-link": "", hreflang: l }, rulesText(l).name),
    );
  return h(
    "nav.rules-nav",
    { "aria-label": text.others },
    h("a", { href: "/", "data-link": "" }, text.home),
    h("span.muted", {}, `${text.others}:`),
    ...others,
    ...languages,
  );
}

function figure(kind: string, caption: string, ...pictures: Element[]): HTMLElement {
  return h(
    "figure.rules-figure",
    { "data-picture": kind },
    h("div.rules-pictures", {}, ...pictures),
    h("figcaption", {}, caption),
  );
}

function piecesFigure(cat: Catalogue, text: RulesText, facts: Facts): HTMLElement {
  const pictures = cat.pieces.map((p) =>
    h("span.rules-piece", {}, piecePicture(cat, p.id, undefined, 1.4), h("span.rules-piece-name", {}, p.id)),
  );
  return figure("pieces", text.captions.pieces(facts), ...pictures);
}

function exampleFigures(cat: Catalogue, example: Example, text: RulesText, facts: Facts): HTMLElement[] {
  const { task, placements } = example;
  const flat = facts.layers < 2;
  const area = flat ? areaSvg(cat, task.area) : areaIsoSvg(task.area, facts.layers, 1.1);
  const pieces = h(
    "span.rules-task-pieces",
    {},
    ...task.pieces.map((id) => piecePicture(cat, String(id), undefined, 1.8)),
  );
  const out = [figure("task", text.captions.task(facts), area, pieces)];
  if (placements.length === task.pieces.length) {
    const solved = flat ? areaSvg(cat, task.area, placements) : solutionIsoSvg(cat, task.area, placements, 1.6);
    out.push(figure("solved", text.captions.solved, solved));
  }
  return out;
}
