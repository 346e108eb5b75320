// The lobby: who sits where (people, bots and their levels), the host's settings, ready and
// start, and the invite link.

import { levelPicker, levelTag } from "../board3d"; // 3D levels (issue #7)
import { h } from "../dom";
import { t } from "../i18n";
import type { BotLevel, ClientMessage, EditionOptions, Room, Seat, Settings, Variant } from "../protocol";
import { EDITIONS, editionInfo, toast, watchers } from "../ui";
import type { RoomContext } from "./context";
import { shownName } from "./words";

const BOT_LEVELS: readonly BotLevel[] = ["easy", "medium", "hard"];

/** The lobby: seats and bots, the host's settings, ready and start, the invite link. */
export function lobby(
  ctx: RoomContext,
  room: Room,
  options: Record<string, EditionOptions> | null,
  statusNote: string,
): HTMLElement {
  const host = ctx.store.isHost;
  const me = ctx.store.seat !== null ? room.seats[ctx.store.seat] : null;
  const info = editionInfo(room.settings.edition);
  const opts = options?.[room.settings.edition];
  const seats = h("ol.seats");
  room.seats.forEach((s, i) => {
    seats.appendChild(seatRow(ctx, room, s, i, host));
  });
  const seated = room.seats.filter(Boolean).length;
  const minPlayers = Math.max(2, opts?.players?.[0] ?? 2);
  const addBot = h("div.add-bot", {});
  if (host && seated < 4) {
    for (const level of BOT_LEVELS) {
      addBot.appendChild(
        h(
          "button.small",
          { type: "button", "data-add-bot": level, onclick: () => ctx.send({ type: "add_bot", level }) },
          t("room:addBot", { level: t(`room:botLevels.${level}`) }),
        ),
      );
    }
  }
  return h(
    "section.panel.lobby",
    {},
    h(
      "div.lobby-head",
      {},
      h("h1", {}, t("room:lobbyTitle", { title: info.title, code: room.code })),
      h("a.small", { href: "/", "data-link": "" }, t("room:leave")),
    ),
    inviteRow(room),
    room.settings.rated ? h("p.rated-note#rated-note", {}, t("room:ratedTitle")) : null,
    h(
      "div.lobby-grid",
      {},
      h("div", {}, h("div.section-head", {}, h("h2", {}, t("room:players")), watchers(room.spectators)), seats, addBot),
      h(
        "div",
        {},
        h("h2", {}, t("room:settings")),
        settingsFields(ctx, room, opts, me),
        host ? null : h("p.muted", {}, t("room:onlyHostSettings")),
      ),
    ),
    ...readyAndStart(ctx, room, me, minPlayers),
    statusNote ? h("p.bad", {}, statusNote) : null,
  );
}

/** The invite link with its Copy button. */
function inviteRow(room: Room): HTMLElement {
  const invite = h("input#invite", {
    type: "text",
    readOnly: true,
    value: room.invite,
    "aria-label": t("room:inviteLink"),
  });
  const copy = h("button#copy-invite", { type: "button" }, t("room:copyLink"));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(room.invite);
      toast(t("room:inviteCopied"), "good");
    } catch {
      invite.select();
      toast(t("room:selectAndCopy"), "");
    }
  });

  return h("div.invite", {}, invite, copy);
}

/** The room's settings: selects the host changes (and, in 3D, your own level). */
function settingsFields(ctx: RoomContext, room: Room, opts: EditionOptions | undefined, me: Seat | null): HTMLElement {
  const host = ctx.store.isHost;
  const info = editionInfo(room.settings.edition);
  const send = (msg: ClientMessage) => ctx.send(msg);
  const settings = h("div.settings");
  const setting = (label: string, control: HTMLElement) =>
    settings.append(h("label.field", {}, h("span", {}, label), control));
  const select = (id: string, options: [string, string][], value: string, change: (v: string) => void) => {
    const s = h(`select#${id}` as "select", { disabled: !host });
    for (const [v, l] of options) s.appendChild(h("option", { value: v }, l));
    // a value set elsewhere (the API, another client) that the list lacks: show it, not a blank
    if (!options.some(([v]) => v === value))
      s.appendChild(h("option", { value }, id === "set-time" ? t("common:seconds", { n: value }) : value));
    s.value = value;
    s.addEventListener("change", () => change(s.value));
    return s;
  };
  setting(
    t("room:edition"),
    select(
      "set-edition",
      EDITIONS.filter((e) => e.playable).map((e) => [e.name, e.title]),
      room.settings.edition,
      (v) => send({ type: "settings", settings: { edition: v, side: editionInfo(v).sides[0].value } }),
    ),
  );
  // Ubongo 3D: each player also chooses their own level (issue #7)
  if (editionInfo(room.settings.edition).ownSide && me) {
    settings.append(
      levelPicker(info.sides, me.side ?? room.settings.side, (side) => send({ type: "choose_side", side })),
    );
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
  const variantNames: Record<string, string> = {
    standard: t("room:standardRules"),
    ...info.variantLabels,
  };
  const variants: [string, string][] = (opts?.variants ?? ["standard"]).map((v) => [v, variantNames[v] ?? v]);
  setting(
    t("room:variant"),
    select("set-variant", variants, room.settings.variant, (v) =>
      send({ type: "settings", settings: { variant: v as Variant } }),
    ),
  );
  // fresh: tasks made for this game from its seed; standard: the printed cards, to play along;
  // a room made with a pack may race it (docs/editor.md, "Packs")
  const sources: [string, string][] = [
    ["fresh", t("room:tasksFresh")],
    ["standard", t("room:tasksPrinted")],
  ];
  if (room.settings.pack) sources.push(["pack", t("room:tasksPack", { title: room.settings.pack_title })]);
  setting(
    t("room:tasks"),
    select("set-puzzles", sources, room.settings.puzzles, (v) =>
      send({ type: "settings", settings: { puzzles: v as Settings["puzzles"] } }),
    ),
  );
  const gems = info.gems;
  const timeKey = gems ? "hourglass_seconds" : "countdown_seconds";
  const timeValue = (room.settings[timeKey] as number | null) ?? null;
  const times: [string, string][] = [["", t("room:rulebookDefault")]];
  for (const n of gems ? [15, 30, 45, 60, 90, 120, 180] : [10, 20, 30, 45, 60])
    times.push([String(n), t("common:seconds", { n })]);
  setting(
    gems ? t("room:hourglass") : t("room:countdown"),
    select("set-time", times, timeValue === null ? "" : String(timeValue), (v) =>
      send({ type: "settings", settings: { [timeKey]: v === "" ? null : Number(v) } }),
    ),
  );
  // a listed room is one of the home page's open games: anybody may take a free seat
  if (room.settings.mode === "race" && !room.settings.rated) {
    setting(
      t("room:whoMayJoin"),
      select(
        "set-listed",
        [
          ["private", t("room:joinByLink")],
          ["listed", t("room:joinAnyone")],
        ],
        room.settings.listed ? "listed" : "private",
        (v) => send({ type: "settings", settings: { listed: v === "listed" } }),
      ),
    );
  }
  // a pack's rounds are its puzzles, one a round (the rules' choice)
  if (room.settings.puzzles === "pack") {
    settings.append(h("p.muted#pack-rounds", {}, t("room:packRounds")));
    return settings;
  }
  const roundsOptions: [string, string][] = [["", t("room:rulebookRounds", { rounds: info.rounds })]];
  for (const n of [1, 2, 3, 4, 6]) roundsOptions.push([String(n), `${n}`]);
  setting(
    t("room:rounds"),
    select("set-rounds", roundsOptions, room.settings.rounds === null ? "" : String(room.settings.rounds), (v) =>
      send({ type: "settings", settings: { rounds: v === "" ? null : Number(v) } }),
    ),
  );

  return settings;
}

/** The room's seats taken by people (not bots). */
function people(room: Room): Seat[] {
  return room.seats.filter((s): s is Seat => !!s && s.kind === "person");
}

/** Ready, Start and the line saying what the game waits for. */
function readyAndStart(ctx: RoomContext, room: Room, me: Seat | null, minPlayers: number): HTMLElement[] {
  const host = ctx.store.isHost;
  const send = (msg: ClientMessage) => ctx.send(msg);
  const ready = h(
    "button#ready",
    { type: "button", class: me?.ready ? "on" : "" },
    me?.ready ? t("room:readyDone") : t("room:imReady"),
  );
  ready.addEventListener("click", () => send({ type: "ready", ready: !me?.ready }));
  // the host's Start is their "ready" (the server waits for the others only): a host alone
  // with bots just starts
  const others = people(room).filter((s) => s.seat !== room.host);
  const allReady = others.every((s) => s.ready);
  const askReady = me !== null && !(host && others.length === 0);
  const seated = room.seats.filter(Boolean).length;
  const start = h(
    "button.primary#start",
    { type: "button", disabled: !host || !allReady || seated < minPlayers },
    t("room:startGame"),
  );
  start.addEventListener("click", () => send({ type: "start" }));
  const hint = !host
    ? t("room:hostStarts")
    : seated < minPlayers
      ? t("room:needPlayers")
      : !allReady
        ? t("room:waitingReady")
        : t("room:everyoneReady");
  return [
    h("div.lobby-actions", {}, askReady ? ready : me ? null : h("p.muted", {}, t("room:youAreWatching")), start),
    h("p.muted.hint", {}, hint),
  ];
}

function seatRow(ctx: RoomContext, room: Room, s: Seat | null, i: number, host: boolean): HTMLElement {
  if (!s) return h("li.seat.free", { "data-seat": i }, h("span.muted", {}, t("room:freeSeat")));
  const tags = [];
  if (room.host === i) tags.push(h("span.tag", {}, t("room:host")));
  if (editionInfo(room.settings.edition).ownSide) tags.push(levelTag(s.side)); // issue #7
  if (i === ctx.store.seat) tags.push(h("span.tag.you", {}, t("room:you")));
  if (!s.connected) tags.push(h("span.tag.bad", {}, t("room:away")));
  const li = h(
    "li.seat",
    { "data-seat": i, class: s.kind },
    h("span.seat-name", {}, shownName(s, i)),
    ...tags,
    // the host alone among bots starts when they like: no "not ready" on their row
    s.kind === "person" && !(room.host === i && people(room).length === 1)
      ? h("span.ready-mark", { class: s.ready ? "yes" : "" }, s.ready ? t("room:ready") : t("room:notReady"))
      : null,
  );
  if (s.kind === "bot" && host) {
    const level = h("select.bot-level", { "aria-label": t("room:botLevelOf", { name: shownName(s, i) }) });
    for (const l of BOT_LEVELS) level.appendChild(h("option", { value: l }, t(`room:botLevels.${l}`)));
    level.value = s.level ?? "medium";
    level.addEventListener("change", () => ctx.send({ type: "bot_level", seat: i, level: level.value as BotLevel }));
    li.append(
      level,
      h(
        "button.small.remove-bot",
        { type: "button", onclick: () => ctx.send({ type: "remove_bot", seat: i }) },
        t("room:removeBot"),
      ),
    );
  } else if (s.kind === "bot") {
    li.append(h("span.tag", {}, s.level ? t(`room:botLevels.${s.level}`) : ""));
  }
  return li;
}
