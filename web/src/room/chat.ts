// The room's chat of quick phrases (docs/social.md): a "Say…" menu of phrases for the seated
// players, and the phrases said, each in this reader's language, under the player's name. Sent
// as keys (`say`), never as text: nobody can write to a stranger. Kept on the page beside the
// room's screens, which redraw without it.

import { h } from "../dom";
import { language, t } from "../i18n";
import type { Phrase } from "../protocol";
import type { RoomContext } from "./context";

export const PHRASES: readonly Phrase[] = [
  "hello",
  "good_luck",
  "well_played",
  "thanks",
  "rematch",
  "oops",
  "wow",
  "bye",
];
/** how many phrases stay shown */
const SHOWN = 4;

export class ChatStrip {
  readonly element = h("aside.chat-strip", { "aria-label": t("social:chat") });
  private readonly lines = h("ol.chat-lines", { "aria-live": "polite" });
  private readonly said: { seat: number; phrase: Phrase }[] = [];
  /** what the menu was drawn for (whether this page speaks, and the language): an event's
   * redraw keeps an open menu open */
  private drawnFor = "";

  constructor(private readonly ctx: RoomContext) {
    document.body.append(this.element);
    this.draw();
  }

  /** A player said `phrase`. */
  heard(seat: number, phrase: Phrase): void {
    this.said.push({ seat, phrase });
    this.said.splice(0, Math.max(0, this.said.length - SHOWN));
    this.drawLines();
  }

  /** Drawn again: the seat may have changed, or the language. */
  draw(): void {
    const room = this.ctx.store.room;
    const speaks = this.ctx.store.seat !== null && room !== null && room.settings.mode !== "solo";
    this.element.hidden = !speaks && !this.said.length;
    const drawnFor = `${speaks} ${language()}`;
    if (drawnFor === this.drawnFor) return;
    this.drawnFor = drawnFor;
    const menu = h(
      "details.chat-say",
      {},
      h("summary", {}, t("social:say")),
      h(
        "div.chat-phrases",
        {},
        ...PHRASES.map((phrase) =>
          h(
            "button.phrase",
            {
              type: "button",
              "data-phrase": phrase,
              onclick: () => {
                this.ctx.send({ type: "say", phrase });
                menu.open = false;
              },
            },
            t(`social:phrase.${phrase}`),
          ),
        ),
      ),
    );
    this.element.replaceChildren(this.lines, speaks ? menu : "");
    this.drawLines();
  }

  private drawLines(): void {
    const seats = this.ctx.store.room?.seats ?? [];
    this.lines.replaceChildren(
      ...this.said.map(({ seat, phrase }) =>
        h("li.chat-line", {}, h("b", {}, `${seats[seat]?.name ?? "?"}: `), t(`social:phrase.${phrase}`)),
      ),
    );
    if (this.said.length) this.element.hidden = false;
  }

  dispose(): void {
    this.element.remove();
  }
}
