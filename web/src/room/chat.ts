// The room's chat (docs/social.md): quick phrases for every seated player ("Say…"), each reader
// seeing them in their own language, and a line of free text where the players chose each other
// (an unrated room nobody found on a list). Spectators say quick phrases too, heard by the other
// spectators only (never by the players: the server sends them to no seated player). Each
// reader may mute a player or a spectator on this page, and a player may report a line: the
// report names the line's event, and the room quotes what it heard. The room puts it under each
// screen it draws (the same element: an open menu, a line being typed stay).

import { h } from "../dom";
import { language, t } from "../i18n";
import type { Phrase, Room, SpectatorSaid } from "../protocol";
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

/** A line as the strip keeps it: a player's (`seat`) or a spectator's (`spectator`); `who` is
 * what mute goes by ("p1": seat 1, "s2": spectator 2). */
type Heard =
  | (SaidLine & { who: string; spectator?: undefined })
  | { who: string; spectator: number; mine: boolean; phrase: Phrase; text: null };

/** Whether the room takes free text (as the server decides it: gateway.free_text_allowed). */
function freeText(room: Room): boolean {
  return !room.settings.rated && !room.settings.listed && room.settings.mode !== "solo";
}

export class ChatStrip {
  readonly element = h("aside.chat-strip", { "aria-label": t("social:chat") });
  private readonly lines = h("ol.chat-lines", { "aria-live": "polite" });
  private readonly said: Heard[] = [];
  private readonly muted = new Set<string>();
  /** what the controls were drawn for (whether this page speaks, free text, the language): an
   * event's redraw keeps an open menu open and a line being typed */
  private drawnFor = "";

  constructor(private readonly ctx: RoomContext) {
    this.draw();
  }

  /** A player said something. */
  heard(line: SaidLine): void {
    this.keep({ ...line, who: `p${line.seat}` });
  }

  /** Another spectator (or this one) said a phrase: only spectators hear these. */
  heardSpectator(line: SpectatorSaid): void {
    const { spectator, mine, phrase } = line;
    this.keep({ who: `s${spectator}`, spectator, mine, phrase, text: null });
  }

  private keep(line: Heard): void {
    this.said.push(line);
    this.said.splice(0, Math.max(0, this.said.length - 20));
    this.drawLines();
  }

  /** Drawn again: the seat may have changed, the settings, or the language. */
  draw(): void {
    const room = this.ctx.store.room;
    const me = this.ctx.store.seat;
    // somebody to speak to: another person seated (bots do not listen); a spectator speaks to
    // the other spectators
    const others = room?.seats.some((s) => s !== null && s.kind === "person" && s.seat !== me) ?? false;
    const watching = me === null && room !== null;
    const speaks = watching || (me !== null && room !== null && room.settings.mode !== "solo" && others);
    const writes = speaks && !watching && room !== null && freeText(room);
    this.element.hidden = !speaks && !this.said.length;
    const drawnFor = `${speaks} ${writes} ${watching} ${language()}`;
    if (drawnFor === this.drawnFor) return;
    this.drawnFor = drawnFor;
    const controls: HTMLElement[] = [];
    if (speaks) controls.push(this.phraseMenu(watching));
    if (writes) controls.push(this.textBox());
    this.element.replaceChildren(this.lines, ...controls);
    this.drawLines();
  }

  private phraseMenu(watching: boolean): HTMLElement {
    const menu = h(
      "details.chat-say",
      {},
      h("summary", {}, t("social:say")),
      h(
        "div.chat-phrases",
        {},
        ...(watching ? [h("p.muted.chat-audience", {}, t("social:spectatorsOnly"))] : []),
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

  private nameOf(line: Heard): string {
    if (line.spectator !== undefined) return line.mine ? t("social:you") : t("social:spectator", { n: line.spectator });
    return this.ctx.store.room?.seats[line.seat]?.name ?? "?";
  }

  private drawLines(): void {
    const shown = this.said.filter((l) => !this.muted.has(l.who)).slice(-SHOWN);
    this.lines.replaceChildren(...shown.map((l) => this.lineItem(l)));
    if (this.muted.size) {
      const names = [...new Set(this.said.filter((l) => this.muted.has(l.who)).map((l) => this.nameOf(l)))];
      const unmute = h("button.link.unmute", { type: "button" }, t("social:unmuteAll"));
      unmute.addEventListener("click", () => {
        this.muted.clear();
        this.drawLines();
      });
      this.lines.append(
        h("li.muted.chat-muted", {}, `${t("social:mutedNames", { names: names.join(", ") })} `, unmute),
      );
    }
    if (this.said.length) this.element.hidden = false;
  }

  private lineItem(line: Heard): HTMLElement {
    const name = this.nameOf(line);
    const words = line.phrase ? t(`social:phrase.${line.phrase}`) : (line.text ?? "");
    const attrs = line.spectator !== undefined ? { "data-spectator": line.spectator } : { "data-seat": line.seat };
    const item = h("li.chat-line", attrs, h("b", {}, `${name}: `), words);
    const me = this.ctx.store.seat;
    if (line.spectator !== undefined ? line.mine : line.seat === me) return item;
    const mute = h("button.link.mute", { type: "button", title: t("social:muteTitle", { name }) }, t("social:mute"));
    mute.addEventListener("click", () => {
      this.muted.add(line.who);
      this.drawLines();
    });
    item.append(" ", mute);
    // a player reports another player's line of free text (spectators say phrases only)
    if (line.spectator === undefined && line.text !== null && me !== null) {
      const report = h("button.link.report", { type: "button" }, t("social:report"));
      const seq = line.seq;
      report.addEventListener("click", () => {
        if (this.ctx.send({ type: "report", seq })) toast(t("social:reported"), "good");
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
