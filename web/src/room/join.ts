// The invite link's first screen: take a seat with a name, or just watch.

import { ApiError, api, nameToPlay, savedName } from "../api";
import { h } from "../dom";
import type { Navigate } from "../home";
import { t } from "../i18n";
import { saveTicket } from "../net";
import { editionInfo, toast } from "../ui";

/** The form on an invite link: take a seat with a name, or just watch. */
export function showJoin(root: HTMLElement, code: string, go: Navigate, joined: () => void): void {
  const nameInput = h("input#join-name", {
    type: "text",
    value: savedName(),
    placeholder: t("home:yourName"),
    maxLength: 24,
    "aria-label": t("home:yourName"),
  });
  const info = h("p.muted", {}, t("room:lookingForRoom"));
  const joinButton = h("button.primary#take-seat", { type: "button" }, t("room:takeSeat"));
  const watch = h("button#spectate", { type: "button" }, t("room:justWatch"));
  joinButton.addEventListener("click", async () => {
    joinButton.disabled = true;
    // a name the account may not take is said, not in the way
    const { name, refused } = await nameToPlay(nameInput.value.trim());
    if (refused) toast(refused.message, "bad");
    try {
      const r = await api("POST /api/rooms/{code}/seats", { path: { code }, body: { name } });
      saveTicket(r);
      joined();
    } catch (e) {
      joinButton.disabled = false;
      toast(e instanceof ApiError ? e.message : String(e), "bad");
    }
  });
  watch.addEventListener("click", () => joined());
  // the name field and the seat buttons appear once the room is found: a wrong code shows
  // only what went wrong and the way home
  const form = h(
    "div.join-form",
    { hidden: true },
    h("label.field", {}, h("span", {}, t("home:yourName")), nameInput),
    h("div.row", {}, joinButton, watch),
  );
  root.replaceChildren(
    h(
      "section.panel.join-room",
      {},
      h("h1", {}, t("room:roomCode", { code })),
      info,
      form,
      h("p", {}, h("a", { href: "/", "data-link": "" }, t("common:backHome"))),
    ),
  );
  api("GET /api/rooms/{code}", { path: { code } })
    .then((room) => {
      const ed = editionInfo(room.settings.edition);
      const free = room.seats.filter((s) => s === null).length;
      info.textContent =
        room.phase === "lobby"
          ? t("room:seatsInfo", { title: ed.title, seated: room.seats.filter(Boolean).length, free })
          : t("room:gameOnWatch");
      if (room.phase !== "lobby" || free === 0) joinButton.disabled = true;
      form.hidden = false;
      nameInput.focus();
    })
    .catch((e) => {
      const missing = e instanceof ApiError && e.status === 404;
      info.textContent = missing ? t("room:noRoomWithCodeHelp", { code }) : t("room:roomUnreachableRetry");
      info.className = "bad join-missing";
      info.setAttribute("role", "alert");
      form.remove();
      void go;
    });
}
