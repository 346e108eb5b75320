// An arena's page (/arena/<id>, docs/arenas.md): its clock, joining, pausing and the harder side,
// the page's player's rank, points, streak and races, the top of the standings and the rows
// around the player, the races in play to watch, and the podium once it is over. The page keeps
// the arena socket open (`/ws/arenas/<id>`): while it is open its player is paired, and when
// the view carries a seat the page goes to that race's room.

import { ApiError, api, currentAccount, ensureAccount } from "./api";
import { arenaClock } from "./arenas";
import { read, UNREADABLE } from "./check";
import { h } from "./dom";
import { errorText, t } from "./i18n";
import { saveTicket } from "./net";
import type { ArenaView, StandingRow } from "./protocol";
import { editionInfo, placeText, toast } from "./ui";

type Navigate = (path: string) => void;

export function arenaScreen(id: string, go: Navigate): { element: HTMLElement; dispose: () => void } {
  const root = h("main.arena", { "data-arena": id }, h("p.loading", {}, t("arena:loading")));
  let view: ArenaView | null = null;
  let offset = 0; // the server's clock minus this browser's, in ms
  let socket: WebSocket | null = null;
  let closed = false;
  let retry = 0;
  const ticking = window.setInterval(() => tick(), 1000);
  const clockEl = h("p.arena-clock#arena-clock", { "aria-live": "off" });

  const tick = () => {
    if (!view) return;
    const now = Date.now() + offset;
    clockEl.textContent = arenaClock(view, now);
  };

  const show = (v: ArenaView) => {
    if (v.me && v.me.results === null) {
      // the socket sends a player's results only when they change: the last ones still hold
      v = { ...v, me: { ...v.me, results: view?.me?.results ?? [] } };
    }
    view = v;
    offset = v.server_time - Date.now();
    const seat = v.me?.seat;
    if (seat) {
      // seated in a race: its room plays it (the arena seats the next one when the page is back)
      saveTicket(seat);
      go(`/room/${seat.code}`);
      return;
    }
    const focused = document.activeElement?.id;
    root.replaceChildren(...draw(v, clockEl, act));
    tick();
    if (focused) document.getElementById(focused)?.focus();
  };

  const act = async (what: "join" | "withdraw" | "pause" | "resume" | "harder" | "easier") => {
    const path = { arena_id: id };
    try {
      if (what === "join") show(await api("POST /api/arenas/{arena_id}/join", { path }));
      else if (what === "withdraw") show(await api("DELETE /api/arenas/{arena_id}/join", { path }));
      else {
        const body =
          what === "pause" || what === "resume" ? { paused: what === "pause" } : { harder: what === "harder" };
        show(await api("PATCH /api/arenas/{arena_id}/me", { path, body }));
      }
    } catch (e) {
      toast(e instanceof ApiError ? e.message : String(e), "bad");
    }
  };

  const fromHttp = () =>
    api("GET /api/arenas/{arena_id}", { path: { arena_id: id } })
      .then(show)
      .catch((e) => {
        const missing = e instanceof ApiError && e.status === 404;
        root.replaceChildren(
          h(
            "section.panel",
            {},
            h("h1", {}, missing ? t("arena:noSuchArena") : t("arena:cannotLoad")),
            h("p", {}, h("a", { href: "/", "data-link": "" }, t("common:backHome"))),
          ),
        );
      });

  const open = () => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/arenas/${encodeURIComponent(id)}`);
    socket = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", token: currentAccount()?.token ?? null }));
    });
    ws.addEventListener("message", (m) => {
      let data: unknown;
      try {
        data = JSON.parse(String(m.data));
      } catch {
        data = m.data;
      }
      const reading = read("ArenaMessage", data);
      if (!reading.ok) {
        console.error(`${UNREADABLE} arena message: ${reading.problem.message}`); // i18n-ignore
        return;
      }
      const message = reading.value;
      if (message.type === "error") {
        // an arena over and no longer kept by the server: its final view comes over HTTP
        if (message.code === "no_arena") closed = true;
        if (message.code === "no_arena") void fromHttp();
        else toast(errorText(message.code, message.message), "bad");
        return;
      }
      retry = 0;
      show(message);
    });
    ws.addEventListener("close", () => {
      if (socket !== ws || closed) return;
      socket = null;
      window.setTimeout(open, Math.min(30000, 1000 * 2 ** retry++));
    });
  };
  void ensureAccount().then(open);
  return {
    element: root,
    dispose: () => {
      closed = true;
      window.clearInterval(ticking);
      socket?.close();
    },
  };
}

type Act = (what: "join" | "withdraw" | "pause" | "resume" | "harder" | "easier") => void;

function draw(v: ArenaView, clockEl: HTMLElement, act: Act): HTMLElement[] {
  const ed = editionInfo(v.edition);
  const side = ed.sides.find((s) => s.value === v.side)?.label ?? v.side;
  const head = h(
    "section.panel.arena-head",
    {},
    h("h1#arena-title", {}, v.title),
    h(
      "p.muted",
      {},
      t("arena:about", { edition: ed.title, side, seats: v.seats, minutes: v.minutes, players: v.players }),
    ),
    clockEl,
    actions(v, act),
  );
  const parts: HTMLElement[] = [head];
  if (v.phase === "over") parts.push(podium(v.top, v.id));
  if (v.me) parts.push(mine(v));
  parts.push(standings(v));
  // once over, nothing is in play and nobody waits: the podium and the results say it all
  if (v.phase !== "over") parts.push(racesInPlay(v));
  return parts;
}

function actions(v: ArenaView, act: Act): HTMLElement {
  const row = h("div.row.arena-actions");
  const open = v.phase === "soon" || v.phase === "running";
  if (!open) return row;
  const button = (what: Parameters<Act>[0], text: string, primary = false) =>
    h(
      `button#arena-${what}${primary ? ".primary" : ""}` as "button",
      { type: "button", onclick: () => act(what) },
      text,
    );
  if (!v.me) {
    row.append(button("join", t("arena:join"), true)); // i18n-ignore: the action, not its words
    return row;
  }
  if (v.me.paused)
    row.append(button("resume", t("arena:resume"), true)); // i18n-ignore: the action, not its words
  else row.append(button("pause", t("arena:pause"))); // i18n-ignore: the action, not its words
  row.append(button("withdraw", t("arena:withdraw"))); // i18n-ignore: the action, not its words
  if (v.harder_side) {
    const full = editionInfo(v.edition).sides.find((s) => s.value === v.harder_side)?.label ?? v.harder_side;
    const label = full.split(" ·")[0]; // "B", not "B · 4 tiles (harder)"
    const box = h("input#arena-harder", { type: "checkbox" });
    box.checked = v.me.harder;
    box.addEventListener("change", () => act(box.checked ? "harder" : "easier"));
    row.append(h("label.check", {}, box, t("arena:harder", { side: label })));
  }
  return row;
}

function mine(v: ArenaView): HTMLElement {
  const me = v.me;
  if (!me) return h("div");
  const open = v.phase === "soon" || v.phase === "running";
  const state = !open
    ? ""
    : me.paused
      ? t("arena:paused")
      : me.present
        ? v.phase === "running"
          ? t("arena:waitingForRace")
          : t("arena:waitingForStart")
        : "";
  const races = (me.results ?? []).map((r) =>
    h(
      "li",
      { "data-race": r.race },
      // "Place 2", not "2nd": a German ordinal is "2.", which read as a second number after
      // the list's own ("3. 2. · 2 Punkte")
      r.place === null ? t("arena:notFinished") : t("arena:rank", { rank: r.place }),
      ` · ${t("arena:points", { count: r.points })}`,
      r.fire ? ` · ${t("arena:doubled")}` : "",
      r.harder ? ` · ${t("arena:onHarder")}` : "",
      r.game_id === null ? "" : " · ",
      r.game_id === null ? "" : h("a", { href: `/replay/${r.game_id}`, "data-link": "" }, t("profile:replay")),
    ),
  );
  return h(
    "section.panel.arena-me#arena-me",
    {},
    h("h2", {}, t("arena:you")),
    h(
      "p.arena-score",
      {},
      me.rank === null ? "" : `${t("arena:rank", { rank: me.rank })} · `,
      h("strong#arena-points", {}, t("arena:points", { count: me.points })),
      me.on_fire && open ? h("span.on-fire#arena-fire", {}, ` · ${t("arena:onFire")}`) : "",
    ),
    state ? h("p.muted#arena-state", { "aria-live": "polite" }, state) : "",
    races.length ? h("ol.arena-races", { reversed: true }, ...races.reverse()) : h("p.muted", {}, t("arena:noRaces")),
  );
}

function standingRow(r: StandingRow, mine: boolean): HTMLElement {
  return h(
    `tr${mine ? ".me" : ""}` as "tr",
    { "data-account": r.account },
    h("td", {}, String(r.rank)),
    h("td", {}, h("a", { href: `/profile/${r.account}`, "data-link": "" }, r.name), r.on_fire ? " 🔥" : ""),
    h("td.num", {}, String(r.points)),
    h("td.num", {}, String(r.wins)),
    h("td.num", {}, String(r.races)),
  );
}

function standings(v: ArenaView): HTMLElement {
  const me = currentAccount()?.id ?? null;
  const rows = v.top.map((r) => standingRow(r, r.account === me));
  if (v.near.length) {
    rows.push(h("tr.gap", {}, h("td", { colspan: 5 }, "…")));
    rows.push(...v.near.map((r) => standingRow(r, r.account === me)));
  }
  const table = h(
    "table.arena-standings#arena-standings",
    {},
    h("caption", {}, t("arena:standings")),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "#"),
        h("th", { scope: "col" }, t("arena:player")),
        h("th.num", { scope: "col" }, t("arena:pointsHead")),
        h("th.num", { scope: "col" }, t("arena:wins")),
        h("th.num", { scope: "col" }, t("arena:racesHead")),
      ),
    ),
    h("tbody", {}, ...rows),
  );
  return h(
    "section.panel",
    {},
    // nobody yet: the standings' heading all the same (the table's caption is its heading)
    ...(v.top.length ? [table] : [h("h2", {}, t("arena:standings")), h("p.muted", {}, t("arena:nobodyYet"))]),
    h("p.muted", {}, t("arena:scoring")),
  );
}

function racesInPlay(v: ArenaView): HTMLElement {
  const items = v.races.map((r) =>
    h("li", {}, `${r.names.join(", ")} `, h("a", { href: `/room/${r.room}?watch`, "data-link": "" }, t("arena:watch"))),
  );
  return h(
    "section.panel.arena-races-in-play",
    {},
    h("h2", {}, t("arena:racesInPlay", { count: v.races_in_play })),
    items.length ? h("ul", {}, ...items) : h("p.muted", {}, t("arena:noRacesInPlay")),
  );
}

/** "All results": every player's line, loaded when asked for (an arena over may have a
 * thousand). */
function allResults(id: string): HTMLElement {
  const box = h("div.arena-all#arena-all");
  const button = h("button#arena-all-results", { type: "button" }, t("arena:allResults"));
  button.addEventListener("click", () => {
    button.disabled = true;
    api("GET /api/arenas/{arena_id}/results", { path: { arena_id: id } })
      .then((r) => {
        const me = currentAccount()?.id ?? null;
        box.replaceChildren(
          h(
            "table.arena-standings",
            {},
            h("caption", {}, t("arena:allResults")),
            h("tbody", {}, ...r.standings.map((row) => standingRow(row, row.account === me))),
          ),
        );
      })
      .catch(() => {
        button.disabled = false;
        toast(t("arena:cannotLoad"), "bad");
      });
  });
  box.append(button);
  return box;
}

function podium(top: StandingRow[], id: string): HTMLElement {
  const steps = top
    .slice(0, 3)
    .map((r, i) =>
      h(
        `li.step.step-${i + 1}` as "li",
        {},
        h("span.place", {}, placeText(i + 1)),
        h("a", { href: `/profile/${r.account}`, "data-link": "" }, r.name),
        h("span.muted", {}, t("arena:points", { count: r.points })),
      ),
    );
  return h(
    "section.panel.arena-podium#arena-podium",
    {},
    h("h2", {}, t("arena:podium")),
    h("ol.podium", {}, ...steps),
    allResults(id),
  );
}
