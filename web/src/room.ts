// A room: join, lobby, the game, round results and the game's end, all from the room
// snapshots the server sends (docs/protocol.md). The board of the running task is kept while
// its task stays the same, so snapshots never disturb a player's pieces.

import { areaSvg } from "./board";
import { type BoardLike, boardHint, createBoard, levelPicker, levelTag, piecePicture } from "./board3d"; // 3D board (issue #7)
import { areaIsoSvg, solutionIsoSvg } from "./board3d/iso";
import { type Catalogue, type Placement, loadCatalogue } from "./catalogue";
import { h } from "./dom";
import {
  ApiError,
  type Room,
  RoomConnection,
  type RoomEvent,
  type Seat,
  type Task,
  type EditionOptions,
  type GameView,
  type Verdict,
  api,
  loadOptions,
  forgetTicket,
  saveName,
  saveTicket,
  savedName,
  ticketFor,
} from "./net";
import type { Navigate } from "./home";
import { leaderboard, personalBests } from "./records";
import {
  EDITIONS,
  cardIcon,
  clock,
  editionInfo,
  hourglass,
  gem,
  gemRow,
  keyBadge,
  placeText,
  toast,
  watchers,
} from "./ui";

const BOT_LEVELS = ["easy", "medium", "hard"];

export function roomScreen(code: string, go: Navigate): { element: HTMLElement; dispose(): void } {
  const root = h("main.room", { "data-code": code });
  let view: RoomView | null = null;
  const ticket = ticketFor(code);
  if (ticket) {
    view = new RoomView(root, code, go, true);
  } else {
    showJoin(root, code, go, () => {
      view = new RoomView(root, code, go, !!ticketFor(code));
    });
  }
  return {
    element: root,
    dispose: () => view?.dispose(),
  };
}

function showJoin(root: HTMLElement, code: string, go: Navigate, joined: () => void): void {
  const nameInput = h("input#join-name", {
    type: "text",
    value: savedName(),
    placeholder: "Your name",
    maxLength: 24,
    "aria-label": "Your name",
  });
  const info = h("p.muted", {}, "Looking for the room…");
  const joinButton = h("button.primary#take-seat", { type: "button" }, "Take a seat");
  const watch = h("button#spectate", { type: "button" }, "Just watch");
  joinButton.addEventListener("click", async () => {
    joinButton.disabled = true;
    const name = nameInput.value.trim() || "Player";
    saveName(name);
    try {
      const r = await api.post<{ code: string; seat: number; token: string }>(
        `/api/rooms/${code}/seats`,
        { name },
      );
      saveTicket({ code: r.code, seat: r.seat, token: r.token });
      joined();
    } catch (e) {
      joinButton.disabled = false;
      toast(e instanceof ApiError ? e.message : String(e), "bad");
    }
  });
  watch.addEventListener("click", () => joined());
  root.replaceChildren(
    h(
      "section.panel.join-room",
      {},
      h("h1", {}, `Room ${code}`),
      info,
      h("label.field", {}, h("span", {}, "Your name"), nameInput),
      h("div.row", {}, joinButton, watch),
      h("p", {}, h("a", { href: "/", "data-link": "" }, "← Home")),
    ),
  );
  api
    .get<Room>(`/api/rooms/${code}`)
    .then((room) => {
      const ed = editionInfo(room.settings.edition);
      const free = room.seats.filter((s) => s === null).length;
      info.textContent =
        room.phase === "lobby"
          ? `${ed.title} · ${room.seats.filter(Boolean).length} seated · ${free} free`
          : "The game is on: you can watch.";
      if (room.phase !== "lobby" || free === 0) joinButton.disabled = true;
      nameInput.focus();
    })
    .catch((e) => {
      info.textContent = e instanceof ApiError && e.status === 404 ? "There is no room with this code." : "The room cannot be reached.";
      joinButton.disabled = true;
      watch.disabled = true;
      void go;
    });
}

interface RoundEnd {
  round: number;
  data: Record<string, unknown>;
}

interface Award {
  seat: string;
  gems?: string[];
  kind?: string;
  card?: number;
  to?: string | null;
}

/** The rulebooks' names for a tie-break: Classic and 3D play a playoff, Extreme a tie round. */
function tieBreakName(kind: string | null): string {
  return kind === "tie-round" ? "Tie round" : "Playoff";
}

/** "Ada", "Ada and Bob", "Ada, Bob and Cy". */
function andList(names: string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** The players tied for the most points, in a tie-break and after it (the table's `tied`). */
function tiedSeats(game: GameView): number[] {
  return (game as GameView & { tied?: number[] }).tied ?? [];
}

/** Whether a round is the tie-break (Classic/3D playoff, Extreme/Trigo tie round). */
function isTieBreak(kind: string | null | undefined): boolean {
  return kind === "playoff" || kind === "tie-round";
}

/** The tie a tie-break is about, in words: "Ada and Bob are tied at 0 points". */
function tieWords(room: Room, past = false): string {
  const game = room.game!;
  const tied = tiedSeats(game);
  const names = andList(tied.map((s) => room.seats[s]?.name ?? `seat ${s}`));
  const score = game.scores[String(tied[0])];
  const gems = editionInfo(room.settings.edition).gems;
  const amount = !score ? "" : gems ? ` at ${score.points} point${score.points === 1 ? "" : "s"}` : ` with ${score.cards} card${score.cards === 1 ? "" : "s"} each`;
  return `${names} ${past ? "were" : "are"}${tied.length > 2 ? " all" : ""} tied${amount}`;
}

/** What the rules' "gems" and "cards" events gave out, as one row per player. */
function awardsOf(d: Record<string, unknown>): Award[] {
  const gems = d.gems ?? d.rewards;
  if (gems && typeof gems === "object") {
    return Object.entries(gems as Record<string, string[]>).map(([seat, g]) => ({ seat, gems: g }));
  }
  const out: Award[] = [];
  const first = d.first === null || d.first === undefined ? null : String(d.first);
  for (const [seat, card] of Object.entries((d.kept ?? {}) as Record<string, number>)) {
    out.push({ seat, kind: "keeps card", card });
  }
  for (const [seat, card] of Object.entries((d.handed ?? {}) as Record<string, number>)) {
    out.push({ seat, kind: "hands over card", card, to: first });
  }
  for (const [seat, card] of Object.entries((d.discarded ?? {}) as Record<string, number>)) {
    out.push({ seat, kind: "discards card", card });
  }
  return out;
}

class RoomView {
  private conn: RoomConnection;
  private room: Room | null = null;
  private cat: Catalogue | null = null;
  private board: BoardLike | null = null; // flat or 3D (board3d/index.ts)
  private boardKey = "";
  private boardTurn = -1;
  private finishedRounds = new Set<string>();
  private lastRoundEnd: RoundEnd | null = null;
  private lastAwards: { round: number; list: Award[] } | null = null;
  private timer: number;
  private autoStarted = false;
  private statusNote = "";
  private events: RoomEvent[] = [];
  private gameEl: HTMLElement | null = null;
  private parts: Record<string, HTMLElement> = {};
  private shownResultFor = -1;
  private soloRecords: HTMLElement | null = null;
  private options: Record<string, EditionOptions> | null = null;

  constructor(
    private readonly root: HTMLElement,
    private readonly code: string,
    private readonly go: Navigate,
    seated: boolean,
  ) {
    root.replaceChildren(h("p.loading", {}, "Connecting…"));
    this.conn = new RoomConnection(code, seated ? ticketFor(code) : null, {
      room: (room, ev) => this.onRoom(room, ev),
      verdict: (v) => this.onVerdict(v),
      error: (c, m, ref) => this.onError(c, m, ref),
      status: (ok, note) => {
        this.statusNote = note;
        const wasOffline = root.classList.contains("offline");
        root.classList.toggle("offline", !ok);
        if (note) toast(note, ok ? "" : "bad");
        // replace "connection lost" at once: it would stay up a few seconds after coming back
        else if (ok && wasOffline) toast("Connected again", "good");
      },
    });
    this.timer = window.setInterval(() => this.tick(), 200);
    loadOptions()
      .then((o) => {
        this.options = o;
        if (this.room?.phase === "lobby") this.render(null);
      })
      .catch(() => undefined);
  }

  dispose(): void {
    window.clearInterval(this.timer);
    this.conn.close();
    this.board?.destroy();
  }

  private get seat(): number | null {
    return this.conn.seat;
  }

  private get isHost(): boolean {
    return this.room !== null && this.seat !== null && this.room.host === this.seat;
  }

  private onError(code: string, message: string, ref: string | null): void {
    if (code === "bad_token" || code === "no_room") {
      forgetTicket(this.code);
      this.root.replaceChildren(
        h(
          "section.panel",
          {},
          h("h1", {}, code === "no_room" ? "No such room" : "This seat is no longer yours"),
          h("p", {}, message),
          h("p", {}, h("a", { href: "/", "data-link": "" }, "← Home")),
        ),
      );
      this.conn.close();
      return;
    }
    if (ref === "submit") this.board?.setStatus(message, "bad");
    else toast(message || code, "bad");
  }

  private onVerdict(v: Verdict): void {
    this.root.dataset.lastVerdict = v.code;
    if (!this.board) return;
    if (v.round !== this.boardTurn) {
      // the verdict on a task that is gone already (solo: the next one is dealt)
      if (v.ok) this.celebrate();
      return;
    }
    if (v.ok) {
      this.finishedRounds.add(this.boardKey);
      this.board.lock(true);
      this.board.setStatus("Ubongo! The area is covered.", "good");
      this.celebrate();
    } else {
      this.board.setStatus(`Not yet: ${v.reason}`, "bad");
    }
  }

  private celebrate(): void {
    const burst = h("div.ubongo-burst", { "aria-hidden": "true" }, "Ubongo!");
    this.gameEl?.appendChild(burst);
    window.setTimeout(() => burst.remove(), 1600);
  }

  private onRoom(room: Room, ev: RoomEvent | null): void {
    const editionChanged = this.room?.settings.edition !== room.settings.edition;
    this.room = room;
    if (ev) {
      this.events.push(ev);
      if (ev.kind === "round_ended") this.lastRoundEnd = { round: Number(ev.data.round), data: ev.data };
      if (ev.kind === "round_ended" && ev.data.awards) {
        this.lastAwards = { round: Number(ev.data.round), list: awardsOf(ev.data.awards as Record<string, unknown>) };
      }
      if (ev.kind === "rematch" || ev.kind === "game_started") {
        this.lastRoundEnd = null;
        this.finishedRounds.clear();
      }
    }
    if (editionChanged || !this.cat) {
      this.cat = null;
      loadCatalogue(room.settings.edition)
        .then((cat) => {
          this.cat = cat;
          this.render(null);
        })
        .catch((e) => toast(String(e), "bad"));
    }
    this.render(ev);
  }

  private render(ev: RoomEvent | null): void {
    const room = this.room;
    if (!room) return;
    this.root.dataset.phase = room.phase;
    if (room.phase === "lobby") {
      this.dropGame();
      if (room.settings.mode === "solo" && this.seat !== null) {
        this.soloAutoStart(room);
        this.root.replaceChildren(h("p.loading", {}, "Dealing your first task…"));
        return;
      }
      this.root.replaceChildren(this.lobby(room));
      return;
    }
    if (room.phase === "over") {
      this.dropGame();
      this.root.replaceChildren(this.gameEnd(room));
      return;
    }
    if (!this.cat) {
      this.root.replaceChildren(h("p.loading", {}, "Loading the pieces…"));
      return;
    }
    this.drawGame(room, ev);
  }

  private dropGame(): void {
    this.board?.destroy();
    this.board = null;
    this.boardKey = "";
    this.gameEl = null;
  }

  private soloAutoStart(room: Room): void {
    if (this.autoStarted) return;
    this.autoStarted = true;
    const seat = room.seats[this.seat ?? 0];
    if (!seat?.ready) this.conn.send({ type: "ready", ready: true });
    this.conn.send({ type: "start" });
  }

  // --- lobby --------------------------------------------------------------------------------

  private lobby(room: Room): HTMLElement {
    const host = this.isHost;
    const me = this.seat !== null ? room.seats[this.seat] : null;
    const info = editionInfo(room.settings.edition);
    const send = (msg: Record<string, unknown>) => this.conn.send(msg);
    const seats = h("ol.seats");
    room.seats.forEach((s, i) => {
      seats.appendChild(this.seatRow(room, s, i, host));
    });

    const invite = h("input#invite", { type: "text", readOnly: true, value: room.invite, "aria-label": "Invite link" });
    const copy = h("button#copy-invite", { type: "button" }, "Copy link");
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(room.invite);
        toast("Invite link copied", "good");
      } catch {
        invite.select();
        toast("Select the link and copy it", "");
      }
    });

    const settings = h("div.settings");
    const setting = (label: string, control: HTMLElement) =>
      settings.append(h("label.field", {}, h("span", {}, label), control));
    const select = (
      id: string,
      options: [string, string][],
      value: string,
      change: (v: string) => void,
    ) => {
      const s = h(`select#${id}` as "select", { disabled: !host });
      for (const [v, l] of options) s.appendChild(h("option", { value: v }, l));
      // a value set elsewhere (the API, another client) that the list lacks: show it, not a blank
      if (!options.some(([v]) => v === value)) s.appendChild(h("option", { value }, id === "set-time" ? `${value} s` : value));
      s.value = value;
      s.addEventListener("change", () => change(s.value));
      return s;
    };
    setting(
      "Edition",
      select(
        "set-edition",
        EDITIONS.filter((e) => e.playable).map((e) => [e.name, e.title]),
        room.settings.edition,
        (v) => send({ type: "settings", settings: { edition: v, side: editionInfo(v).sides[0].value } }),
      ),
    );
    // Ubongo 3D: each player also chooses their own level (issue #7)
    if (editionInfo(room.settings.edition).ownSide && me) {
      settings.append(levelPicker(info.sides, me.side ?? room.settings.side, (side) => send({ type: "choose_side", side })));
    }
    setting(
      info.sideWord,
      select(
        "set-side",
        info.sides.map((s) => [s.value, s.label]),
        room.settings.side,
        (v) => send({ type: "settings", settings: { side: v } }),
      ),
    );
    const opts = this.options?.[room.settings.edition];
    const variantNames: Record<string, string> = {
      standard: "Standard rules",
      ...info.variantLabels,
    };
    const variants: [string, string][] = (opts?.variants ?? ["standard"]).map((v) => [v, variantNames[v] ?? v]);
    setting(
      "Variant",
      select("set-variant", variants, room.settings.variant, (v) =>
        send({ type: "settings", settings: { variant: v } }),
      ),
    );
    const gems = info.gems;
    const timeKey = gems ? "hourglass_seconds" : "countdown_seconds";
    const timeValue = (room.settings[timeKey] as number | null) ?? null;
    const times: [string, string][] = [["", "Rulebook default"]];
    for (const t of gems ? [15, 30, 45, 60, 90, 120, 180] : [10, 20, 30, 45, 60]) times.push([String(t), `${t} s`]);
    setting(
      gems ? "Hourglass" : "Countdown",
      select("set-time", times, timeValue === null ? "" : String(timeValue), (v) =>
        send({ type: "settings", settings: { [timeKey]: v === "" ? null : Number(v) } }),
      ),
    );
    const roundsOptions: [string, string][] = [["", `Rulebook (${info.rounds})`]];
    for (const n of [1, 2, 3, 4, 6]) roundsOptions.push([String(n), `${n}`]);
    setting(
      "Rounds",
      select("set-rounds", roundsOptions, room.settings.rounds === null ? "" : String(room.settings.rounds), (v) =>
        send({ type: "settings", settings: { rounds: v === "" ? null : Number(v) } }),
      ),
    );

    const ready = h(
      "button#ready",
      { type: "button", class: me?.ready ? "on" : "" },
      me?.ready ? "Ready ✓" : "I'm ready",
    );
    ready.addEventListener("click", () => send({ type: "ready", ready: !me?.ready }));
    const people = room.seats.filter((s): s is Seat => !!s && s.kind === "person");
    const allReady = people.every((s) => s.ready);
    const seated = room.seats.filter(Boolean).length;
    const minPlayers = Math.max(2, opts?.players?.[0] ?? 2);
    const start = h(
      "button.primary#start",
      { type: "button", disabled: !host || !allReady || seated < minPlayers },
      "Start the game",
    );
    start.addEventListener("click", () => send({ type: "start" }));
    const addBot = h("div.add-bot", {});
    if (host && seated < 4) {
      for (const level of BOT_LEVELS) {
        addBot.appendChild(
          h(
            "button.small",
            { type: "button", "data-add-bot": level, onclick: () => send({ type: "add_bot", level }) },
            `+ ${level} bot`,
          ),
        );
      }
    }
    const hint = !host
      ? "The host starts the game when everyone is ready."
      : seated < minPlayers
        ? "Invite someone or add a bot: a race needs 2 to 4 players."
        : !allReady
          ? "Waiting for everyone to be ready."
          : "Everyone is ready.";

    return h(
      "section.panel.lobby",
      {},
      h("div.lobby-head", {}, h("h1", {}, `${info.title} · room ${room.code}`), h("a.small", { href: "/", "data-link": "" }, "Leave")),
      h("div.invite", {}, invite, copy),
      h("div.lobby-grid", {},
        h("div", {}, h("div.section-head", {}, h("h2", {}, "Players"), watchers(room.spectators)), seats, addBot),
        h("div", {}, h("h2", {}, "Settings"), settings, host ? null : h("p.muted", {}, "Only the host changes the settings.")),
      ),
      h("div.lobby-actions", {}, me ? ready : h("p.muted", {}, "You are watching."), start),
      h("p.muted.hint", {}, hint),
      this.statusNote ? h("p.bad", {}, this.statusNote) : null,
    );
  }

  private seatRow(room: Room, s: Seat | null, i: number, host: boolean): HTMLElement {
    if (!s) return h("li.seat.free", { "data-seat": i }, h("span.muted", {}, "free seat"));
    const tags = [];
    if (room.host === i) tags.push(h("span.tag", {}, "host"));
    if (editionInfo(room.settings.edition).ownSide) tags.push(levelTag(s.side)); // issue #7
    if (i === this.seat) tags.push(h("span.tag.you", {}, "you"));
    if (!s.connected) tags.push(h("span.tag.bad", {}, "away"));
    const li = h(
      "li.seat",
      { "data-seat": i, class: s.kind },
      h("span.seat-name", {}, s.name),
      ...tags,
      s.kind === "person" ? h("span.ready-mark", { class: s.ready ? "yes" : "" }, s.ready ? "ready" : "not ready") : null,
    );
    if (s.kind === "bot" && host) {
      const level = h("select.bot-level", { "aria-label": `level of ${s.name}` });
      for (const l of BOT_LEVELS) level.appendChild(h("option", { value: l }, l));
      level.value = s.level ?? "medium";
      level.addEventListener("change", () => this.conn.send({ type: "bot_level", seat: i, level: level.value }));
      li.append(
        level,
        h("button.small.remove-bot", { type: "button", onclick: () => this.conn.send({ type: "remove_bot", seat: i }) }, "remove"),
      );
    } else if (s.kind === "bot") {
      li.append(h("span.tag", {}, s.level ?? ""));
    }
    return li;
  }

  // --- the game -----------------------------------------------------------------------------

  private myTask(room: Room): Task | null {
    if (this.seat === null || !room.game) return null;
    return room.game.tasks[String(this.seat)] ?? null;
  }

  private drawGame(room: Room, ev: RoomEvent | null): void {
    const game = room.game!;
    const cat = this.cat!;
    if (!this.gameEl || !this.root.contains(this.gameEl)) {
      this.parts = {
        top: h("header.game-top"),
        main: h("section.game-main"),
        side: h("aside.game-side"),
        overlay: h("div.overlay-slot"),
      };
      this.gameEl = h("div.game", {}, this.parts.top, this.parts.main, this.parts.side, this.parts.overlay);
      this.root.replaceChildren(this.gameEl);
      this.boardKey = "";
    }
    const task = this.myTask(room);
    const key = task ? JSON.stringify([game.turn, task.card, task.side, task.key, task.pieces]) : "";
    if (key !== this.boardKey) {
      this.board?.destroy();
      this.board = null;
      this.boardKey = key;
      this.boardTurn = game.turn;
      this.parts.main.replaceChildren();
      if (task) {
        // the arrangement survives a reload (the round goes on meanwhile)
        const saveKey = `ubongo.arrangement.${this.code}`;
        let initial: Placement[] = [];
        try {
          const saved = JSON.parse(sessionStorage.getItem(saveKey) ?? "null") as { key: string; placements: Placement[] } | null;
          if (saved && saved.key === key) initial = saved.placements;
        } catch {
          initial = [];
        }
        this.board = createBoard({
          catalogue: cat,
          area: task.area,
          pieces: task.pieces,
          initial,
          onCovered: (pl) => this.submit(pl),
          onChange: (pl, covered) => {
            sessionStorage.setItem(saveKey, JSON.stringify({ key, placements: pl }));
            if (!covered) this.board?.setStatus("");
          },
        });
        const ubongo = h("button.primary.ubongo#ubongo", { type: "button" }, "Ubongo!");
        ubongo.addEventListener("click", () => this.board && this.submit(this.board.placements()));
        this.parts.main.append(this.board.element, h("div.main-actions", {}, ubongo));
        this.board.attach();
        // a phone shows the side panel below the board: say here, too, what the playoff is
        this.board.setStatus(
          isTieBreak(game.kind) ? `${tieBreakName(game.kind)}: the first to finish wins the game.` : boardHint(cat.layers),
        );
        window.setTimeout(() => this.board?.focus(), 0);
      }
    }
    if (!task) {
      // spectators (and a seat without a task): everyone's table, redrawn with each snapshot
      this.parts.main.replaceChildren(this.spectatorTables(room));
    }
    const mine = game.finished.find((f) => f.seat === this.seat);
    if (this.board) {
      const over = !["playing", "second_chance", "countdown", "playoff"].includes(game.stage);
      this.board.lock(!!mine || over || this.finishedRounds.has(this.boardKey));
      if (mine) this.board.setStatus(`Ubongo! You finished ${placeText(mine.place)}.`, "good");
    }
    this.drawTop(room);
    this.drawSide(room);
    this.drawOverlay(room, ev);
    this.tick();
  }

  private submit(placements: Placement[]): void {
    const room = this.room;
    if (!room?.game || !this.board) return;
    if (!this.conn.submit(room.game.turn, placements)) {
      this.board.setStatus("Not connected: trying again in a moment…", "bad");
      return;
    }
    this.board.setStatus("Checking…");
  }

  private drawTop(room: Room): void {
    const game = room.game!;
    const ed = editionInfo(room.settings.edition);
    const solo = game.solo;
    const items: (HTMLElement | null)[] = [
      h("a.back", { href: "/", "data-link": "", title: "Home", "aria-label": "Home" }, "⌂"),
      h("div.round-info", {},
        h("strong", {}, ed.title),
        solo
          ? h("span#solo-count", {}, `Solved ${solo.done}${solo.goal === "tasks" ? ` / ${solo.amount}` : ""} · skipped ${solo.skipped}`)
          : h("span#round-no", {}, game.stage === "playoff" ? tieBreakName(game.kind) : `Round ${game.round} of ${game.rounds}`),
      ),
      watchers(room.spectators),
      solo ? null : keyBadge(room.settings.edition, game.key),
      h("div.timer#timer", { "aria-live": "off" }, hourglass(), h("span.timer-label"), h("span.timer-text")),
    ];
    if (solo && this.seat !== null) {
      const skip = h("button#skip", { type: "button" }, "Skip task");
      skip.addEventListener("click", () => this.conn.send({ type: "skip", round: game.turn }));
      items.push(skip);
    }
    this.parts.top.replaceChildren(...items.filter((x): x is HTMLElement => !!x));
    this.parts.timer = this.parts.top.querySelector("#timer") as HTMLElement;
  }

  private drawSide(room: Room): void {
    const game = room.game!;
    const blocks: HTMLElement[] = [];
    if (game.display) {
      const disp = h("div.display", {}, h("h3", {}, "Gem display"));
      const row = h("div.gem-row");
      for (const name of ["sapphire", "amber"]) row.append(h("span.gem-count", {}, gem(name), `×${game.display[name] ?? 0}`));
      if (game.bag !== null) row.append(h("span.bag", { title: "gems in the bag" }, `${game.bag} in the bag`));
      disp.append(row);
      blocks.push(disp);
    }
    if (game.stage === "playoff") {
      // the tie-break is not one more round: say why it is played and how it is won
      const what = tieBreakName(game.kind);
      const mine = this.seat !== null && tiedSeats(game).includes(this.seat);
      blocks.push(
        h(
          "div.playoff-note",
          {},
          h("h3", {}, what),
          h("p", {}, `${tieWords(room)}. ${game.kind === "playoff" ? "One die roll, no hourglass: " : "No countdown: "}the first to finish wins the game.`),
          game.deadline ? h("p", {}, "If nobody finishes within the time limit, the win is shared.") : null,
          this.seat !== null && !mine ? h("p.muted", {}, `You are not in the ${what.toLowerCase()}: watch who wins.`) : null,
        ),
      );
    }
    if (!game.solo) {
      const list = h("ol.players");
      room.seats.forEach((s, i) => {
        if (!s) return;
        const fin = game.finished.find((f) => f.seat === i);
        const score = game.scores[String(i)];
        const out = game.stage === "playoff" && !tiedSeats(game).includes(i);
        const state = fin
          ? `finished ${placeText(fin.place)}`
          : out
            ? `not in the ${tieBreakName(game.kind).toLowerCase()}`
            : game.stage === "between"
              ? "did not finish"
              : "working…";
        list.append(
          h(
            "li.player",
            { "data-seat": i, class: [fin ? "done" : "", i === this.seat ? "me" : ""].join(" ") },
            h("span.player-name", {}, s.name, i === this.seat ? " (you)" : ""),
            h("span.player-state", {}, state, s.connected ? "" : " · away"),
            score
              ? score.gems
                ? h("span.player-score", {}, gemRow(score.gems), h("b", {}, ` ${score.points} pts`))
                : h("span.player-score", {}, cardIcon(), `${score.cards} card${score.cards === 1 ? "" : "s"}`)
              : null,
          ),
        );
      });
      blocks.push(h("div", {}, h("h3", {}, "Players"), list));
    } else {
      blocks.push(this.soloPanel(room));
    }
    this.parts.side.replaceChildren(...blocks);
  }

  private soloPanel(room: Room): HTMLElement {
    const box = h("div.solo-panel", {}, h("h3", {}, "Solo"));
    const s = room.game!.solo!;
    box.append(
      h("p", {}, s.goal === "time" ? `As many tasks as you can in ${s.amount} minutes.` : `Solve ${s.amount} tasks as fast as you can.`),
      h("p.big#solo-done", {}, `${s.done}`, h("small", {}, " solved")),
    );
    // the records of this kind of run, fetched once per room
    if (!this.soloRecords) {
      const st = room.settings;
      const me = savedName();
      this.soloRecords = h(
        "div.solo-records",
        {},
        leaderboard(st.edition, st.solo_goal, st.solo_amount, st.side, me),
        me ? personalBests(me) : null,
      );
    }
    box.append(this.soloRecords);
    return box;
  }

  /** What a spectator sees: every player's task (area and pieces) and how far they are. */
  private spectatorTables(room: Room): HTMLElement {
    const game = room.game!;
    const grid = h("div.tables");
    const cat = this.cat!;
    for (const [seat, task] of Object.entries(game.tasks)) {
      if (!task) continue;
      const s = room.seats[Number(seat)];
      const fin = game.finished.find((f) => f.seat === Number(seat));
      const state = fin ? `finished ${placeText(fin.place)}` : game.stage === "between" ? "did not finish" : "working…";
      const unit = cat.layers > 1 ? 0.6 : cat.lattice === "square" ? 0.75 : 0.65;
      const pieces = h("div.table-pieces", {}, ...task.pieces.map((id) => piecePicture(cat, id, undefined, unit)));
      grid.append(
        h(
          "figure.table",
          { "data-seat": seat, class: fin ? "done" : "" },
          h("figcaption", {}, h("b", {}, s?.name ?? `seat ${seat}`), " ", h("span.table-state", {}, state)),
          cat.layers > 1 ? areaIsoSvg(task.area, cat.layers, 0.75) : areaSvg(cat, task.area),
          pieces,
        ),
      );
    }
    return h(
      "div.watching",
      {},
      h("h2", {}, "Watching"),
      h(
        "p.muted",
        {},
        this.seat !== null
          ? "You are not in this round: you see every table."
          : "You are a spectator: you see every table; only the players can move pieces.",
      ),
      grid,
    );
  }

  private drawOverlay(room: Room, ev: RoomEvent | null): void {
    const game = room.game!;
    if (game.stage !== "between") {
      this.parts.overlay.replaceChildren();
      this.shownResultFor = -1;
      return;
    }
    if (this.shownResultFor === game.round && !(ev && ev.kind === "round_ended")) return;
    this.shownResultFor = game.round;
    this.parts.overlay.replaceChildren(this.roundResult(room));
  }

  /** Round result: finish order, gems drawn one by one or cards handed over, your solution. */
  private roundResult(room: Room): HTMLElement {
    return h(
      "div.overlay",
      { role: "dialog", "aria-label": "Round result" },
      h("div.panel.round-result", {}, ...this.roundResultParts(room), h("p.muted.next-round#next-round", {}, "")),
    );
  }

  private roundResultParts(room: Room): HTMLElement[] {
    const game = room.game!;
    const end = this.lastRoundEnd && this.lastRoundEnd.round === game.round ? this.lastRoundEnd.data : null;
    const name = (seat: number | string) => room.seats[Number(seat)]?.name ?? `seat ${seat}`;
    const order = h("ol.finish-order");
    const finished = [...game.finished].sort((a, b) => a.place - b.place);
    for (const f of finished) order.append(h("li", {}, h("b", {}, placeText(f.place)), " ", name(f.seat)));
    if (!finished.length) order.append(h("li.muted", {}, "Nobody finished this time."));
    else if (!game.solo) {
      for (const seat of Object.keys(game.tasks)) {
        if (!finished.some((f) => String(f.seat) === seat)) {
          order.append(h("li.muted.not-finished", {}, `${name(seat)} did not finish`));
        }
      }
    }

    const awards = h("div.awards");
    let delay = 0;
    const list = this.lastAwards && this.lastAwards.round === game.round ? this.lastAwards.list : [];
    for (const a of list) {
      const row = h("div.award", { "data-seat": a.seat }, h("span.award-name", {}, name(a.seat)));
      for (const g of a.gems ?? []) {
        const el = gem(g, "drop");
        el.style.animationDelay = `${delay}ms`;
        row.append(el);
        delay += 450;
      }
      if (a.kind) {
        const to = a.to !== undefined && a.to !== null ? ` to ${name(a.to)}` : "";
        row.append(h("span.card-award", {}, `${a.kind} ${a.card ?? ""}${to}`));
      }
      awards.append(row);
    }

    const title = isTieBreak(game.kind)
      ? `The ${tieBreakName(game.kind).toLowerCase()}`
      : room.phase === "over"
        ? "The last round"
        : `Round ${game.round} is over`;
    const tie = room.phase !== "over" && game.stage === "between" && tiedSeats(game).length > 1;
    const gemsTie = editionInfo(room.settings.edition).gems;
    const parts: (HTMLElement | null)[] = [
      h("h2", {}, title),
      order,
      list.length ? h("div", {}, h("h3", {}, "Rewards"), awards) : null,
      tie
        ? h(
            "p.tie-note",
            {},
            h("b", {}, "A tie! "),
            `${tieWords(room)}: a ${gemsTie ? "playoff" : "tie round"} decides the game. `,
            gemsTie
              ? "Each gets a new board, one die roll, no hourglass; the first to finish wins."
              : "Each plays a card of the player to their left; the first to finish wins.",
          )
        : null,
    ];
    const solutions = (end?.solutions as Record<string, Placement[]> | undefined) ?? game.solutions;
    // a player sees a solution of their own task; a spectator sees everyone's
    const shown = this.seat !== null ? [String(this.seat)] : Object.keys(solutions).sort();
    for (const seat of shown) {
      const sol = solutions[seat];
      const task = game.tasks[seat];
      if (!sol || !task || !this.cat) continue;
      const title = this.seat !== null ? "A solution of your task" : `A solution of ${name(seat)}'s task`;
      const picture = this.cat.layers > 1 ? solutionIsoSvg(this.cat, task.area, sol) : areaSvg(this.cat, task.area, sol);
      parts.push(h("div.solution", { "data-seat": seat }, h("h3", {}, title), picture));
    }
    return parts.filter((x): x is HTMLElement => !!x);
  }

  private tick(): void {
    const room = this.room;
    if (!room?.game) return;
    const game = room.game;
    const now = this.conn.now();
    const timer = this.parts.timer;
    if (timer) {
      let text = "";
      let cls = "";
      const solo = game.solo;
      if (solo) {
        if (solo.ends_at) {
          const left = (solo.ends_at - now) / 1000;
          text = clock(left);
          cls = left < 30 ? "urgent" : "";
        } else if (solo.started_at) {
          text = clock((now - solo.started_at) / 1000);
        }
      } else if (game.deadline) {
        const left = (game.deadline - now) / 1000;
        text = clock(left);
        cls = left < 10 ? "urgent" : game.stage === "countdown" ? "countdown" : "";
      } else if (game.stage === "playing") {
        text = editionInfo(room.settings.edition).gems ? "" : "no countdown yet";
      }
      const label = timer.querySelector(".timer-text");
      if (label) label.textContent = text;
      // say what the clock is: a first-time player cannot tell a countdown from an hourglass
      const what = timer.querySelector(".timer-label");
      // a card round's clock before anybody finishes is the server's round limit, not a
      // countdown: 5:00 with no word would read like one
      // so is a playoff's: the rules give it no hourglass, the room a limit
      const limit =
        !solo &&
        !!game.deadline &&
        (game.stage === "playoff" || (game.stage === "playing" && !editionInfo(room.settings.edition).gems));
      if (what) {
        what.textContent = !text
          ? ""
          : game.stage === "countdown"
            ? "Countdown"
            : game.stage === "second_chance"
              ? "Second chance"
              : limit
                ? "Time limit"
                : "";
      }
      timer.className = `timer ${cls}${limit ? " limit" : ""}`;
      timer.classList.toggle("empty", !text);
    }
    const next = this.root.querySelector("#next-round");
    if (next && game.next_round_at) {
      const what = tiedSeats(game).length > 1 ? (editionInfo(room.settings.edition).gems ? "Playoff" : "Tie round") : "Next round";
      next.textContent = `${what} in ${Math.max(0, Math.ceil((game.next_round_at - now) / 1000))} s`;
    }
  }

  // --- the end ------------------------------------------------------------------------------

  private gameEnd(room: Room): HTMLElement {
    const game = room.game;
    const over = [...this.events].reverse().find((e) => e.kind === "game_over" || e.kind === "solo_over");
    const name = (seat: number | string) => room.seats[Number(seat)]?.name ?? `seat ${seat}`;
    const page = h("section.panel.game-end");
    if (room.settings.mode === "solo") {
      page.append(this.soloEnd(room, over?.data ?? null));
      return page;
    }
    const scores = game ? Object.entries(game.scores) : [];
    scores.sort((a, b) => b[1].points - a[1].points);
    const winners = game?.winners.length
      ? game.winners
      : ((over?.data.winners as (number | string)[] | undefined) ?? []).map(Number);
    const gems = editionInfo(room.settings.edition).gems;
    const table = h(
      "table.scores",
      {},
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, gems ? "Gems" : "Cards"), gems ? h("th", {}, "Points") : null)),
      h(
        "tbody",
        {},
        ...scores.map(([seat, sc]) =>
          h(
            "tr",
            { class: winners.includes(Number(seat)) ? "winner" : "" },
            h("td", {}, winners.includes(Number(seat)) ? h("span.star", { "aria-label": "winner" }, "★ ") : "", name(seat)),
            h("td", {}, sc.gems ? gemRow(sc.gems, "no gems") : `${sc.cards}`),
            gems ? h("td", {}, String(sc.points)) : null,
          ),
        ),
      ),
    );
    const winnerText = winners.length
      ? winners.length === 1
        ? `${name(winners[0])} wins!`
        : `${andList(winners.map(name))} share the win!`
      : "The game is over.";
    page.append(h("h1#winner", {}, winnerText));
    // right under the winner: why a game level on points still has one (or two)
    if (game && isTieBreak(game.kind) && tiedSeats(game).length > 1) {
      const what = tieBreakName(game.kind).toLowerCase();
      page.append(
        h(
          "p.tie-break",
          {},
          winners.length === 1
            ? `${tieWords(room, true)}, so a ${what} decided it: ${name(winners[0])} finished first.`
            : `${tieWords(room, true)}. Nobody finished the ${what} in time, so they share the win.`,
        ),
      );
    }
    page.append(table);
    if (game && this.lastRoundEnd) {
      page.append(h("section.round-result.last-round", {}, ...this.roundResultParts(room)));
    }
    const actions = h("div.row");
    if (this.isHost) {
      actions.append(h("button.primary#rematch", { type: "button", onclick: () => this.conn.send({ type: "rematch" }) }, "Rematch"));
    } else if (this.seat !== null) {
      actions.append(h("p.muted", {}, "The host can start a rematch."));
    }
    actions.append(h("a.button", { href: "/", "data-link": "" }, "Home"));
    page.append(actions);
    return page;
  }

  private soloEnd(room: Room, data: Record<string, unknown> | null): HTMLElement {
    const s = room.settings;
    const rec = room.record ?? (data?.record as Record<string, unknown> | null) ?? data ?? null;
    const box = h("div.solo-end");
    const done = rec ? Number(rec.solved ?? rec.score ?? rec.done ?? 0) : room.game?.solo?.done ?? 0;
    const secs = rec ? Number(rec.seconds ?? 0) : 0;
    box.append(
      h("h1", {}, s.solo_goal === "time" ? "Time's up!" : "Done!"),
      h("p.big#solo-result", {}, s.solo_goal === "time" ? `${done} solved` : `${done} of ${s.solo_amount} in ${clock(secs)}`),
    );
    const again = h("button.primary#again", { type: "button" }, "Play again");
    again.addEventListener("click", async () => {
      try {
        const r = await api.post<{ code: string; seat: number; token: string }>("/api/rooms", {
          name: savedName() || "Player",
          settings: { edition: s.edition, mode: "solo", side: s.side, solo_goal: s.solo_goal, solo_amount: s.solo_amount },
        });
        saveTicket({ code: r.code, seat: r.seat, token: r.token });
        this.go(`/room/${r.code}`);
      } catch (e) {
        toast(String(e), "bad");
      }
    });
    box.append(h("div.row", {}, again, h("a.button", { href: "/", "data-link": "" }, "Home")));
    const me = savedName();
    box.append(
      h(
        "div.records",
        {},
        leaderboard(s.edition, s.solo_goal, s.solo_amount, s.side, me),
        me ? personalBests(me) : null,
      ),
    );
    return box;
  }
}
