// The room's chat (docs/social.md): quick phrases for every seated player ("Say…"), each reader
// seeing them in their own language, and a line of free text where the players chose each other
// (an unrated room nobody found on a list). Each reader may mute a player on this page, and
// report a line: the report names the line's event, and the room quotes what it heard. The room
// puts it under each screen it draws (the same element: an open menu, a line being typed stay).

import { h } from "../dom";
import { language, t } from "../i18n";
import type { Phrase, Room } from "../protocol";
import { toast } from "../ui";
import type { RoomContext } from "./context";
import type { SaidLine } from "./store";

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
/** how many lines stay shown */
const SHOWN = 4;

/** Whether the room takes free text (as the server decides it: gateway.free_text_allowed). */
function freeText(room: Room): boolean {
  return !room.settings.rated && !room.settings.listed && room.settings.mode !== "solo";
}

export class ChatStrip {
  readonly element = h("aside.chat-strip", { "aria-label": t("social:chat") });
  private readonly lines = h("ol.chat-lines", { "aria-live": "polite" });
  private readonly said: SaidLine[] = [];
  private readonly muted = new Set<number>();
  /** what the controls were drawn for (whether this page speaks, free text, the language): an
   * event's redraw keeps an open menu open and a line being typed */
  private drawnFor = "";

  constructor(private readonly ctx: RoomContext) {
    this.draw();
  }

  /** A player said something. */
  heard(line: SaidLine): void {
    this.said.push(line);
    this.said.splice(0, Math.max(0, this.said.length - 20));
    this.drawLines();
  }

  /** Drawn again: the seat may have changed, the settings, or the language. */
  draw(): void {
    const room = this.ctx.store.room;
    const me = this.ctx.store.seat;
    // somebody to speak to: another person seated (bots do not listen)
    const others = room?.seats.some((s) => s !== null && s.kind === "person" && s.seat !== me) ?? false;
    const speaks = me !== null && room !== null && room.settings.mode !== "solo" && others;
    const writes = speaks && room !== null && freeText(room);
    this.element.hidden = !speaks && !this.said.length;
    const drawnFor = `${speaks} ${writes} ${language()}`;
    if (drawnFor === this.drawnFor) return;
    this.drawnFor = drawnFor;
    const controls: HTMLElement[] = [];
    if (speaks) controls.push(this.phraseMenu());
    if (writes) controls.push(this.textBox());
    this.element.replaceChildren(this.lines, ...controls);
    this.drawLines();
  }

  private phraseMenu(): HTMLElement {
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
    return menu;
  }

  private textBox(): HTMLElement {
    const input = h("input.chat-text", {
      type: "text",
      maxlength: 200,
      "aria-label": t("social:writeLine"),
      placeholder: t("social:writeLine"),
    });
    const form = h("form.chat-write", {}, input, h("button", { type: "submit" }, t("social:sendLine")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (text && this.ctx.send({ type: "say", text })) input.value = "";
    });
    return form;
  }

  private drawLines(): void {
    const seats = this.ctx.store.room?.seats ?? [];
    const shown = this.said.filter((l) => !this.muted.has(l.seat)).slice(-SHOWN);
    this.lines.replaceChildren(...shown.map((l) => this.lineItem(l, seats[l.seat]?.name ?? "?")));
    if (this.muted.size) {
      const names = [...this.muted].map((s) => seats[s]?.name ?? "?").join(", ");
      const unmute = h("button.link.unmute", { type: "button" }, t("social:unmuteAll"));
      unmute.addEventListener("click", () => {
        this.muted.clear();
        this.drawLines();
      });
      this.lines.append(h("li.muted.chat-muted", {}, `${t("social:mutedNames", { names })} `, unmute));
    }
    if (this.said.length) this.element.hidden = false;
  }

  private lineItem(line: SaidLine, name: string): HTMLElement {
    const words = line.phrase ? t(`social:phrase.${line.phrase}`) : (line.text ?? "");
    const item = h("li.chat-line", { "data-seat": line.seat }, h("b", {}, `${name}: `), words);
    if (line.seat === this.ctx.store.seat || this.ctx.store.seat === null) return item;
    const mute = h("button.link.mute", { type: "button", title: t("social:muteTitle", { name }) }, t("social:mute"));
    mute.addEventListener("click", () => {
      this.muted.add(line.seat);
      this.drawLines();
    });
    item.append(" ", mute);
    if (line.text !== null) {
      const report = h("button.link.report", { type: "button" }, t("social:report"));
      report.addEventListener("click", () => {
        if (this.ctx.send({ type: "report", seq: line.seq })) toast(t("social:reported"), "good");
        report.remove();
      });
      item.append(" ", report);
    }
    return item;
  }

  dispose(): void {
    this.element.remove();
  }
}
