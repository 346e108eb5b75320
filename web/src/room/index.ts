// A room: join, lobby, the game, round results and the game's end, all drawn from the room's
// store (room/store.ts), which the room's WebSocket feeds. This module picks the screen for the
// room's phase; each screen is a module of its own (docs/web.md, "Layout of web/src").

import { loadOptions } from "../api";
import { type Catalogue, loadCatalogue } from "../catalogue";
import { h } from "../dom";
import type { Navigate } from "../home";
import { errorText, t } from "../i18n";
import { forgetTicket, RoomConnection, ticketFor } from "../net";
import type { EditionOptions, HintReply, Room, RoomEvent, Verdict } from "../protocol";
import { announce } from "../social";
import { toast } from "../ui";
import { ChatStrip } from "./chat";
import type { RoomContext } from "./context";
import { gameEnd } from "./end";
import { showJoin } from "./join";
import { lobby } from "./lobby";
import { PlayScreen } from "./play";
import { RoomStore } from "./store";

export function roomScreen(code: string, go: Navigate): { element: HTMLElement; dispose(): void; relabel(): void } {
  const root = h("main.room", { "data-code": code });
  let view: RoomView | null = null;
  const ticket = ticketFor(code);
  // a "Watch" link (`?watch`, the live games' list) goes straight in as a spectator
  const watch = new URLSearchParams(location.search).has("watch");
  if (ticket) {
    view = new RoomView(root, code, go, true);
  } else if (watch) {
    view = new RoomView(root, code, go, false);
  } else {
    showJoin(root, code, go, joined);
  }
  function joined(): void {
    view = new RoomView(root, code, go, !!ticketFor(code));
  }
  return {
    element: root,
    dispose: () => view?.dispose(),
    // a new language: the room's screen is drawn again from its store; the connection stays
    relabel: () => (view ? view.relabel() : showJoin(root, code, go, joined)),
  };
}

/** One room on the page: the connection, the store it feeds, and the screen for the phase. */
class RoomView {
  private readonly store: RoomStore;
  private readonly conn: RoomConnection;
  private readonly ctx: RoomContext;
  private readonly play: PlayScreen;
  private readonly chat: ChatStrip;
  private cat: Catalogue | null = null;
  private readonly timer: number;
  private autoStarted = false;
  private statusNote = "";
  private options: Record<string, EditionOptions> | null = null;
  /** whether the options' request has answered (or failed): the lobby is drawn once they are
   * in, not redrawn when they arrive, so that a click on a button of the first lobby is never
   * lost to a redraw between its press and its release */
  private optionsIn = false;

  constructor(
    private readonly root: HTMLElement,
    code: string,
    go: Navigate,
    seated: boolean,
  ) {
    root.replaceChildren(h("p.loading", {}, t("room:connecting")));
    this.store = new RoomStore({
      changed: (room, ev, editionChanged) => this.onRoom(room, ev, editionChanged),
      verdict: (v) => this.onVerdict(v),
      hint: (r) => this.onHint(r),
      error: (c, m, ref) => this.onError(c, m, ref),
      said: (line) => this.chat.heard(line),
      spectatorSaid: (line) => this.chat.heardSpectator(line),
    });
    this.conn = new RoomConnection(code, seated ? ticketFor(code) : null, {
      message: (msg) => this.store.receive(msg),
      status: (ok, note) => this.onStatus(ok, note),
      unreadable: () => this.onError("unreadable", t("errors:unreadable"), null),
    });
    this.ctx = { code, store: this.store, go, send: (msg) => this.conn.send(msg), now: () => this.conn.now() };
    this.play = new PlayScreen(this.ctx, root);
    this.chat = new ChatStrip(this.ctx);
    this.timer = window.setInterval(() => this.play.tick(), 200);
    loadOptions()
      .then((o) => {
        this.options = o;
      })
      .catch(() => undefined)
      .finally(() => {
        this.optionsIn = true;
        if (this.store.room?.phase === "lobby") this.render(null);
      });
  }

  /** Draw the screen again (in a new language): the connection, the game and the pieces laid stay. */
  relabel(): void {
    this.play.relabel();
    this.render(null);
  }

  dispose(): void {
    window.clearInterval(this.timer);
    this.chat.dispose();
    this.conn.close();
    this.play.drop();
  }

  private onStatus(ok: boolean, note: string): void {
    this.statusNote = note;
    const wasOffline = this.root.classList.contains("offline");
    this.root.classList.toggle("offline", !ok);
    if (note) toast(note, ok ? "" : "bad");
    // replace "connection lost" at once: it would stay up a few seconds after coming back
    else if (ok && wasOffline) toast(t("room:connectedAgain"), "good");
  }

  private onError(code: string, message: string, ref: string | null): void {
    if (code === "bad_token" || code === "no_room") {
      forgetTicket(this.ctx.code);
      this.root.replaceChildren(
        h(
          "section.panel",
          {},
          h("h1", {}, code === "no_room" ? t("room:noSuchRoom") : t("room:seatGone")),
          h("p", {}, errorText(code, message)),
          h("p", {}, h("a", { href: "/", "data-link": "" }, t("common:backHome"))),
        ),
      );
      this.conn.close();
      return;
    }
    if (ref === "submit" || ref === "hint" || ref === "give_up") this.play.submitError(errorText(code, message));
    else toast(errorText(code, message), "bad");
  }

  private onVerdict(v: Verdict): void {
    this.root.dataset.lastVerdict = v.code;
    this.play.verdict(v);
  }

  private onHint(r: HintReply): void {
    this.play.hint(r);
  }

  private onRoom(room: Room, ev: RoomEvent | null, editionChanged: boolean): void {
    if (ev) this.play.eventSeen(ev);
    // the host offers a rematch: a player who looked away hears of it (the bell's notification)
    if (ev?.kind === "rematch" && !this.store.isHost && this.store.seat !== null && room.host !== null) {
      announce(t("social:rematchOffered", { name: room.seats[room.host]?.name ?? "?" }));
    }
    if (editionChanged || !this.cat) {
      this.cat = null;
      loadCatalogue(room.settings.edition)
        .then((cat) => {
          this.cat = cat;
          // the lobby draws no piece: it is not drawn again for them (a redraw under a click
          // would lose it)
          if (this.store.room?.phase !== "lobby") this.render(null);
        })
        .catch((e) => toast(String(e), "bad"));
    }
    this.render(ev);
  }

  private render(ev: RoomEvent | null): void {
    this.screen(ev);
    if (this.store.room) this.root.append(this.chat.element);
  }

  /** The screen of the room's phase. */
  private screen(ev: RoomEvent | null): void {
    const room = this.store.room;
    if (!room) return;
    this.root.dataset.phase = room.phase;
    this.chat.draw();
    if (room.phase === "lobby") {
      this.play.drop();
      if (room.settings.mode === "solo" && this.store.seat !== null) {
        this.soloAutoStart(room);
        this.root.replaceChildren(h("p.loading", {}, t("room:dealing")));
        return;
      }
      if (!this.optionsIn) {
        this.root.replaceChildren(h("p.loading", {}, t("room:connecting")));
        return;
      }
      this.root.replaceChildren(lobby(this.ctx, room, this.options, this.statusNote));
      return;
    }
    if (room.phase === "over") {
      this.play.drop();
      this.root.replaceChildren(gameEnd(this.ctx, room, this.cat));
      return;
    }
    if (!this.cat || !room.game) {
      this.root.replaceChildren(h("p.loading", {}, t("room:loadingPieces")));
      return;
    }
    this.play.draw(room, room.game, this.cat, ev);
  }

  /** A solo room starts by itself: ready and start as soon as the welcome arrives. */
  private soloAutoStart(room: Room): void {
    if (this.autoStarted) return;
    this.autoStarted = true;
    const seat = room.seats[this.store.seat ?? 0];
    if (!seat?.ready) this.conn.send({ type: "ready", ready: true });
    this.conn.send({ type: "start" });
  }
}
