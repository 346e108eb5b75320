// The arenas on the home screen (docs/arenas.md): the ones coming, running and just over, with a
// countdown to the next; a form to make one; and the way back from an arena's race to its page.

import { ApiError, api } from "./api";
import { h } from "./dom";
import { t } from "./i18n";
import { onNotice } from "./notices";
import type { ArenaSummary } from "./protocol";
import { announce } from "./social";
import { clock, EDITIONS, editionInfo, toast } from "./ui";

type Navigate = (path: string) => void;

/** "Starts in 4:12", "12:40 left", "the last races are finishing" or "Over", at `now` (ms,
 * the server's clock): an arena in the list, or on its page. */
export function arenaClock(a: Pick<ArenaSummary, "phase" | "starts_at" | "ends_at">, now: number): string {
  if (a.phase === "soon") return t("arena:startsIn", { time: clock((a.starts_at - now) / 1000) });
  if (a.phase === "running") return t("arena:timeLeft", { time: clock((a.ends_at - now) / 1000) });
  return a.phase === "ending" ? t("arena:ending") : t("arena:over");
}

/** The home screen's arenas panel: the list (its countdowns ticking), and "Make an arena". */
export function arenasPanel(go: Navigate): HTMLElement {
  const list = h("ul.arena-list#arena-list", { "aria-live": "polite" });
  const next = h("p.arena-next#arena-next");
  let arenas: ArenaSummary[] = [];
  let offset = 0;
  const tick = () => {
    if (!list.isConnected && arenas.length) {
      window.clearInterval(timer); // the home screen was left
      return;
    }
    const now = Date.now() + offset;
    for (const li of list.querySelectorAll<HTMLElement>("li[data-arena]")) {
      const a = arenas.find((x) => x.id === li.dataset.arena);
      const span = li.querySelector(".when");
      if (a && span) span.textContent = arenaClock(a, now);
    }
    const soon = arenas.find((a) => a.phase === "soon");
    next.textContent = soon
      ? t("arena:nextArena", { title: soon.title, time: clock((soon.starts_at - now) / 1000) })
      : "";
  };
  const timer = window.setInterval(tick, 1000);
  api("GET /api/arenas")
    .then((got) => {
      offset = got.server_time - Date.now();
      arenas = got.arenas.filter((a) => a.phase !== "over").slice(0, 8);
      list.replaceChildren(...arenas.map((a) => arenaRow(a, go)));
      if (!arenas.length) list.append(h("li.muted", {}, t("arena:noArenas")));
      tick();
    })
    .catch(() => list.replaceChildren(h("li.muted", {}, t("arena:notLoaded"))));
  return h(
    "section.panel.arenas#arenas",
    {},
    h("h2", {}, t("arena:arenas")),
    h("p.muted", {}, t("arena:arenasAbout")),
    next,
    list,
    makeForm(go),
  );
}

function arenaRow(a: ArenaSummary, go: Navigate): HTMLElement {
  const link = h(
    "a",
    {
      href: `/arena/${a.id}`,
      onclick: (e: Event) => {
        e.preventDefault();
        go(`/arena/${a.id}`);
      },
    },
    a.title,
  );
  const ed = editionInfo(a.edition).title;
  return h(
    "li",
    { "data-arena": a.id },
    link,
    ` · ${ed} · ${t("arena:minutes", { count: a.minutes })} · `,
    h("span.when", {}),
    ` · ${t("arena:players", { count: a.players })}`,
  );
}

/** "Make an arena": title, edition, length, seats per race, start; public or by link only. */
function makeForm(go: Navigate): HTMLElement {
  const title = h("input#arena-new-title", { type: "text", maxLength: 40, required: true });
  title.value = t("arena:defaultTitle");
  const edition = h(
    "select#arena-new-edition",
    {},
    ...EDITIONS.filter((e) => e.playable).map((e) => h("option", { value: e.name }, e.title)),
  );
  const minutes = h(
    "select#arena-new-minutes",
    {},
    ...[10, 20, 30, 45, 60].map((m) => h("option", { value: m }, String(m))),
  );
  minutes.value = "30";
  const seats = h("select#arena-new-seats", {}, ...[2, 3, 4].map((n) => h("option", { value: n }, String(n))));
  seats.value = "4";
  const starts = h(
    "select#arena-new-starts",
    {},
    ...[0, 5, 15, 30, 60].map((m) => h("option", { value: m }, String(m))),
  );
  starts.value = "5";
  const hidden = h("input#arena-new-private", { type: "checkbox" });
  const field = (label: string, control: HTMLElement) => h("label.field", {}, h("span", {}, label), control);
  const submit = h("button.primary#arena-new-make", { type: "submit" }, t("arena:make"));
  const form = h(
    "form.arena-new",
    {},
    field(t("arena:title"), title),
    field(t("room:edition"), edition),
    field(t("arena:length"), minutes),
    field(t("arena:seats"), seats),
    field(t("arena:startsInMinutes"), starts),
    h("label.check", {}, hidden, t("arena:private")),
    submit,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    submit.disabled = true;
    try {
      const made = await api("POST /api/arenas", {
        body: {
          title: title.value.trim(),
          edition: edition.value,
          minutes: Number(minutes.value),
          seats: Number(seats.value),
          starts_in: Number(starts.value),
          private: hidden.checked,
        },
      });
      // its maker plays in it: joined at once (the page pairs them when it starts)
      await api("POST /api/arenas/{arena_id}/join", { path: { arena_id: made.id } });
      go(`/arena/${made.id}`);
    } catch (err) {
      toast(err instanceof ApiError ? err.message : String(err), "bad");
    } finally {
      submit.disabled = false;
    }
  });
  return h("details.arena-make", {}, h("summary", {}, t("arena:makeOne")), form);
}

/** When each finished race's room goes back to its arena (ms), kept across the end screen's
 * redraws; Infinity once its player chose to stay. */
const returnAt = new Map<string, number>();
const RETURN_MS = 8000;

/** At the end of an arena's race (room `code`): back to the arena's page, where the next race
 * is paired, in a few seconds or at once; "Stay here" keeps the result on screen. */
export function backToArena(arena: string, code: string, go: Navigate): HTMLElement {
  if (!returnAt.has(code)) returnAt.set(code, Date.now() + RETURN_MS);
  const text = h("span#arena-return-text", {});
  const back = h(
    "a.button.primary#arena-back",
    {
      href: `/arena/${arena}`,
      onclick: (e: Event) => {
        e.preventDefault();
        go(`/arena/${arena}`);
      },
    },
    t("arena:backToArena"),
  );
  const stay = h("button#arena-stay", { type: "button" }, t("arena:stay"));
  const box = h("div.row.arena-return#arena-return", {}, back, stay, text);
  let drawn = false;
  const update = () => {
    if (drawn && !box.isConnected) {
      window.clearInterval(timer); // redrawn (a new box counts on), or the room was left
      return;
    }
    drawn ||= box.isConnected;
    const at = returnAt.get(code) ?? Number.POSITIVE_INFINITY;
    if (at === Number.POSITIVE_INFINITY) {
      text.textContent = "";
      stay.hidden = true;
      return;
    }
    const left = Math.max(0, Math.ceil((at - Date.now()) / 1000));
    text.textContent = t("arena:backIn", { count: left });
    if (left <= 0 && box.isConnected) {
      window.clearInterval(timer);
      returnAt.set(code, Number.POSITIVE_INFINITY);
      go(`/arena/${arena}`);
    }
  };
  const timer = window.setInterval(update, 250);
  stay.addEventListener("click", () => {
    returnAt.set(code, Number.POSITIVE_INFINITY);
    update();
  });
  update();
  return box;
}

/** Tell the player, on whatever page they are, that an arena they joined has started: a note
 * with the way to its page (the races begin when it is open); the browser's notification too
 * when the tab is hidden. */
export function startArenaNotices(go: Navigate): void {
  onNotice((notice) => {
    if (notice.type !== "arena" || location.pathname === `/arena/${notice.arena}`) return;
    const said = notice.friend
      ? t("arena:friendStarted", { friend: notice.friend, title: notice.title })
      : t("arena:started", { title: notice.title });
    announce(said);
    document.getElementById("arena-called")?.remove();
    const note = h(
      "div.arena-called#arena-called",
      { role: "status" },
      h("span", {}, said),
      " ",
      h(
        "a.button.primary",
        {
          href: `/arena/${notice.arena}`,
          onclick: (e: Event) => {
            e.preventDefault();
            note.remove();
            go(`/arena/${notice.arena}`);
          },
        },
        t("arena:openIt"),
      ),
      " ",
      h("button", { type: "button", onclick: () => note.remove() }, t("arena:notNow")),
    );
    document.body.append(note);
  });
}
