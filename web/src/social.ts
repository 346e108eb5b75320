// Friends and challenges in the browser (docs/social.md): the bell in every page's header with
// the challenges made to and by this player (Accept, Decline, Take back), the challenge form, the
// friends list on the home page, and a profile's Follow and Challenge buttons. The notices come
// from the notice socket (notices.ts); the rest over HTTP (api.ts).

import { ApiError, api, currentAccount } from "./api";
import { h, svg } from "./dom";
import { EDITIONS, editionInfo } from "./editions";
import { language, t } from "./i18n";
import { saveTicket } from "./net";
import { onNotice } from "./notices";
import type { Challenge, ChallengeNotice, Friend, Room, Seat } from "./protocol";
import { clock, toast } from "./ui";

type Navigate = (path: string) => void;

/** The open challenges, made and received, by id; and the server clock's offset (ms). */
const open = new Map<number, Challenge>();
let offset = 0;
let navigate: Navigate = () => undefined;
let ticking: number | undefined;

const serverNow = () => Date.now() + offset;

/** Start following the challenges (once, at the page's start): the open ones now, then every
 * notice; `go` takes the challenger to the room of an accepted challenge. */
export function startChallenges(go: Navigate): void {
  navigate = go;
  onNotice((notice) => {
    if (notice.type === "welcome") {
      offset = notice.server_time - Date.now();
      void reload();
    } else if (notice.type === "challenge") heard(notice);
  });
}

async function reload(): Promise<void> {
  try {
    const mine = await api("GET /api/challenges");
    offset = mine.server_time - Date.now();
    open.clear();
    for (const c of [...mine.received, ...mine.made]) open.set(c.id, c);
    redraw();
  } catch {
    // no account or no network: the bell stays as it was, the next welcome tries again
  }
}

function heard({ challenge, seat }: ChallengeNotice): void {
  const me = currentAccount()?.id;
  const mineMade = challenge.from_id === me;
  if (challenge.status === "open") {
    open.set(challenge.id, challenge);
    if (!mineMade) announce(t("social:challenged", { name: challenge.from_name, edition: title(challenge) }));
  } else {
    open.delete(challenge.id);
    if (mineMade && challenge.status === "accepted" && seat) {
      saveTicket(seat);
      toast(t("social:accepted", { name: challenge.to_name }), "good");
      navigate(`/room/${seat.code}`);
    } else if (mineMade && challenge.status === "declined") {
      toast(t("social:declined", { name: challenge.to_name }));
    }
  }
  redraw();
}

/** A toast, and the browser's notification when the tab is hidden (if the player allowed it):
 * a challenge, a rematch offered. */
export function announce(text: string): void {
  toast(text);
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification("Ubongo", { body: text, tag: "ubongo-challenge" }); // i18n-ignore
  }
}

function title(c: Challenge): string {
  const known = EDITIONS.some((e) => e.name === c.edition);
  return known ? editionInfo(c.edition).title : c.edition;
}

// --- the bell ----------------------------------------------------------------------------------

/** The header's bell: how many challenges wait for this player's answer, and the list. */
export function bell(): HTMLElement {
  const menu = h("details.bell-menu", {});
  fill(menu);
  return menu;
}

function redraw(): void {
  for (const menu of document.querySelectorAll<HTMLElement>(".bell-menu")) fill(menu);
  window.clearInterval(ticking);
  ticking = open.size ? window.setInterval(expire, 1000) : undefined;
}

/** Challenges past their time leave the bell; the others' seconds left are redrawn. */
function expire(): void {
  for (const [id, c] of open) if (c.expires_at <= serverNow()) open.delete(id);
  redraw();
}

/** The bell drawn for what is open now. Its summary and list are changed in place, never
 * replaced while the same challenges stand (the seconds left are set each second): a keyboard
 * player's focus on the bell or on Accept stays where it is (run 45: the bell's summary, drawn
 * anew as the notice socket said welcome, dropped the focus of a Tab walk to the page). */
function fill(menu: HTMLElement): void {
  const me = currentAccount()?.id;
  const all = [...open.values()].filter((c) => c.expires_at > serverNow());
  const received = all.filter((c) => c.to_id === me);
  const made = all.filter((c) => c.from_id === me);
  const label = t("social:bellLabel", { count: received.length });
  let summary = menu.querySelector("summary");
  if (!summary) {
    summary = h("summary", {}, bellIcon());
    menu.prepend(summary);
  }
  summary.setAttribute("aria-label", label);
  summary.title = label;
  summary.querySelector(".bell-count")?.remove();
  if (received.length) summary.append(h("span.bell-count", { "aria-hidden": "true" }, String(received.length)));
  const drawnFor = `${all.map((c) => `${c.id}:${c.status}`).join(",")} ${language()} ${notificationsAsked()}`;
  const body = menu.querySelector<HTMLElement>(".bell-items");
  if (body && body.dataset.drawnFor === drawnFor) {
    for (const time of body.querySelectorAll<HTMLElement>("[data-expires]")) {
      time.textContent = left(Number(time.dataset.expires));
    }
    return;
  }
  const items = [...received.map(receivedRow), ...made.map(madeRow)];
  if (!items.length) items.push(h("li.muted", {}, t("social:noChallenges")));
  const allow = notificationsAsked()
    ? null
    : h("button.link#allow-notifications", { type: "button", onclick: askPermission }, t("social:allowNotifications"));
  const fresh = h("div.bell-items", { "data-drawn-for": drawnFor }, h("ul.challenge-list", {}, ...items), allow);
  if (body) body.replaceWith(fresh);
  else menu.append(fresh);
}

/** Whether there is nothing to ask about the browser's notifications (asked, or none). */
function notificationsAsked(): boolean {
  return !("Notification" in window) || Notification.permission !== "default";
}

/** A bell drawn in the text's colour (an emoji is missing from some systems' fonts). */
function bellIcon(): SVGElement {
  const icon = svg("svg", { viewBox: "0 0 24 24", width: 22, height: 22, "aria-hidden": "true", class: "bell-icon" });
  const body = "M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6z M10 19a2 2 0 0 0 4 0";
  icon.append(
    svg("path", { d: body, fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linejoin": "round" }),
  );
  return icon;
}

function askPermission(this: HTMLButtonElement): void {
  void Notification.requestPermission().then(() => redraw());
}

/** The time left until `expiresAt` (server ms). */
function left(expiresAt: number): string {
  return clock(Math.max(0, Math.ceil((expiresAt - serverNow()) / 1000)));
}

function what(c: Challenge): HTMLElement {
  return h(
    "span",
    {},
    ` ${title(c)} · ${c.rated ? t("social:rated") : t("social:casual")} · `,
    h("span.time-left", { "data-expires": c.expires_at }, left(c.expires_at)),
  );
}

function receivedRow(c: Challenge): HTMLElement {
  const accept = h("button.primary.accept", { type: "button" }, t("social:accept"));
  const decline = h("button.decline", { type: "button" }, t("social:decline"));
  accept.addEventListener("click", async () => {
    accept.disabled = decline.disabled = true;
    try {
      const seat = await api("POST /api/challenges/{challenge_id}/accept", { path: { challenge_id: c.id } });
      open.delete(c.id);
      saveTicket(seat);
      redraw();
      navigate(`/room/${seat.code}`);
    } catch (e) {
      refused(e, c);
    }
  });
  decline.addEventListener("click", () => answer(c, "decline"));
  return h(
    "li.challenge.received",
    { "data-challenge": String(c.id) },
    h("span", {}, h("b", {}, t("social:challengesYou", { name: c.from_name })), what(c)),
    h("span.buttons", {}, accept, decline),
  );
}

function madeRow(c: Challenge): HTMLElement {
  const back = h("button.take-back", { type: "button" }, t("social:takeBack"));
  back.addEventListener("click", () => answer(c, "cancel"));
  return h(
    "li.challenge.made",
    { "data-challenge": String(c.id) },
    h("span", {}, h("b", {}, t("social:waitingFor", { name: c.to_name })), what(c)),
    h("span.buttons", {}, back),
  );
}

async function answer(c: Challenge, how: "decline" | "cancel"): Promise<void> {
  try {
    const path = { challenge_id: c.id };
    if (how === "decline") await api("POST /api/challenges/{challenge_id}/decline", { path });
    else await api("DELETE /api/challenges/{challenge_id}", { path });
    open.delete(c.id);
    redraw();
  } catch (e) {
    refused(e, c);
  }
}

function refused(e: unknown, c: Challenge): void {
  toast(e instanceof ApiError ? e.message : String(e), "bad");
  if (e instanceof ApiError && (e.code === "challenge_gone" || e.code === "no_challenge")) open.delete(c.id);
  redraw();
}

// --- the challenge form ------------------------------------------------------------------------

/** A small form to challenge `who`: the edition, rated or not, Send. */
export function challengeForm(who: { id: number; name: string }): HTMLElement {
  const editions = h(
    "select.challenge-edition",
    { "aria-label": t("social:edition") },
    ...EDITIONS.filter((e) => e.playable).map((e) => h("option", { value: e.name }, e.title)),
  );
  const rated = h("input.challenge-rated", { type: "checkbox" });
  const send = h("button.primary.send-challenge", { type: "button" }, t("social:send"));
  send.addEventListener("click", async () => {
    send.disabled = true;
    try {
      const body = { to: who.id, edition: editions.value, rated: rated.checked };
      const made = await api("POST /api/challenges", { body });
      open.set(made.id, made);
      redraw();
      toast(t("social:sent", { name: who.name }), "good");
    } catch (e) {
      toast(e instanceof ApiError ? e.message : String(e), "bad");
    } finally {
      send.disabled = false;
    }
  });
  return h("div.challenge-form", {}, editions, h("label.check", {}, rated, ` ${t("social:ratedGame")}`), send);
}

/** A Challenge button that opens the form below it. */
function challengeButton(who: { id: number; name: string }, place: HTMLElement): HTMLElement {
  const button = h("button.challenge-open", { type: "button", "aria-expanded": "false" }, t("social:challenge"));
  button.addEventListener("click", () => {
    const shown = place.querySelector(".challenge-form");
    if (shown) shown.remove();
    else place.append(challengeForm(who));
    button.setAttribute("aria-expanded", String(!shown));
  });
  return button;
}

// --- friends -----------------------------------------------------------------------------------

/** The home page's friends list: whom this player follows, who of them is online and where. */
export function friendsPanel(): HTMLElement {
  const list = h("ul.friend-list#friend-list", { "aria-live": "polite" });
  const refresh = h("button#friends-refresh", { type: "button" }, t("home:refresh"));
  const load = () => {
    api("GET /api/friends")
      .then((friends) => {
        list.replaceChildren(...friends.map(friendRow));
        if (!friends.length) list.append(h("li.muted", {}, t("social:noFriends")));
      })
      .catch(() => list.replaceChildren(h("li.muted", {}, t("social:friendsNotLoaded"))));
  };
  refresh.addEventListener("click", load);
  load();
  return h("section.panel.friends", {}, h("h2", {}, t("social:friends")), list, refresh);
}

function friendRow(f: Friend): HTMLElement {
  const status = !f.mutual
    ? h("span.muted.presence", {}, t("social:notFollowingBack"))
    : f.online
      ? h("span.presence.online", {}, t("social:online"))
      : h("span.muted.presence", {}, t("social:offline"));
  const where = f.room
    ? h("a.button.friend-room", { href: `/room/${f.room}`, "data-link": "" }, t("social:inRoom", { code: f.room }))
    : null;
  const row = h("li.friend", { "data-account": String(f.id) });
  row.append(
    h("a.friend-name", { href: `/profile/${f.id}`, "data-link": "" }, f.name),
    status,
    where ?? "",
    challengeButton(f, row),
  );
  return row;
}

/** A profile's Follow (or Unfollow) and Challenge buttons; none on one's own profile. */
export function profileActions(who: { id: number; name: string }): HTMLElement | null {
  const me = currentAccount();
  if (!me || me.id === who.id) return null;
  const place = h("div.profile-actions");
  const follow = h("button.follow", { type: "button", "aria-pressed": "false" }, t("social:follow"));
  let following = false;
  const show = () => {
    follow.textContent = following ? t("social:unfollow") : t("social:follow");
    follow.setAttribute("aria-pressed", String(following));
  };
  api("GET /api/friends")
    .then((friends) => {
      following = friends.some((f) => f.id === who.id);
      show();
    })
    .catch(() => undefined);
  follow.addEventListener("click", async () => {
    follow.disabled = true;
    try {
      const path = { account_id: who.id };
      const now = following
        ? await api("DELETE /api/accounts/{account_id}/follow", { path })
        : await api("PUT /api/accounts/{account_id}/follow", { path });
      following = now.following;
      show();
    } catch (e) {
      toast(e instanceof ApiError ? e.message : String(e), "bad");
    } finally {
      follow.disabled = false;
    }
  });
  place.append(follow, challengeButton(who, place));
  return place;
}

/** The end of a game: the other people who played it with an account, each with their
 * profile and a Challenge button (a rematch among strangers starts here). */
export function playedWith(room: Room, mySeat: number | null): HTMLElement | null {
  const me = currentAccount()?.id;
  const others = room.seats.filter(
    (s): s is Seat => !!s && s.kind === "person" && s.account !== null && s.account !== me && s.seat !== mySeat,
  );
  if (!others.length || !me) return null;
  const rows = others.map((s) => {
    const who = { id: s.account as number, name: s.name };
    const row = h("li.friend", { "data-account": String(who.id) });
    row.append(h("a.friend-name", { href: `/profile/${who.id}`, "data-link": "" }, s.name), challengeButton(who, row));
    return row;
  });
  return h("section.played-with", {}, h("h2", {}, t("social:playedWith")), h("ul.friend-list", {}, ...rows));
}
