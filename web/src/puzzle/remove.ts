// Deleting one's own puzzle or pack (docs/editor.md): asked twice, the first press saying what
// goes with it, the second deleting; then the page says it is gone, with the way back to the
// community list.

import { ApiError } from "../api";
import { h } from "../dom";
import { errorText, t } from "../i18n";

export interface Removal {
  /** the element id of the first button (the second's is `${id}-sure`) */
  id: string;
  /** what the first press says goes with it (an i18n text, already translated) */
  ask: string;
  /** the page's heading once it is gone (translated) */
  gone: string;
  /** the element id of that heading (the page's own heading's) */
  heading: string;
  /** where the status is said (the page's live region) */
  say: (text: string) => void;
  /** the request that deletes it */
  remove: () => Promise<unknown>;
  /** called once it is deleted, before the page is replaced (timers, players) */
  done?: () => void;
}

/** The two buttons; on success `main` shows the deleted heading and the community link. */
export function removal(main: () => HTMLElement | null, r: Removal): HTMLElement {
  const ask = h(`button#${r.id}`, { type: "button" }, t("puzzles:delete"));
  const sure = h(`button.primary#${r.id}-sure`, { type: "button", hidden: true }, t("puzzles:deleteSure"));
  ask.addEventListener("click", () => {
    ask.hidden = true;
    sure.hidden = false;
    sure.focus();
    r.say(r.ask);
  });
  sure.addEventListener("click", async () => {
    sure.disabled = true;
    try {
      await r.remove();
      r.done?.();
      main()?.replaceChildren(
        h(`h1#${r.heading}`, {}, r.gone),
        h("p", {}, h("a", { href: "/puzzles", "data-link": "" }, t("puzzles:communityLink"))),
      );
    } catch (e) {
      sure.disabled = false;
      r.say(e instanceof ApiError && e.code ? errorText(e.code, e.message) : String(e));
    }
  });
  return h("span.removal", {}, ask, sure);
}
