// The rules texts by language; the i18n layer chooses the language, this module only holds them.

import { de } from "./de";
import { en } from "./en";
import type { RulesText } from "./types";

export type Lang = "en" | "de";

export const RULES_TEXT: Record<Lang, RulesText> = { en, de };

/** The text of `lang`, English for a language we have no text in. */
export function rulesText(lang: string): RulesText {
  return lang in RULES_TEXT ? RULES_TEXT[lang as Lang] : en;
}

export type { Facts, RulesText, SectionId } from "./types";
export { SECTION_ORDER } from "./types";
