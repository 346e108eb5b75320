// The invite link's first screen: take a seat with a name, or just watch.

import { h } from "../dom";
import type { Navigate } from "../home";
import { ApiError, api, savedName, saveName, saveTicket } from "../net";
import type { Room, SeatGrant } from "../protocol";
import { editionInfo, toast } from "../ui";

/** The form on an invite link: take a seat with a name, or just watch. */
export function showJoin(root: HTMLElement, code: string, go: Navigate, joined: () => void): void {
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
      const r = await api.post<SeatGrant>(`/api/rooms/${code}/seats`, { name });
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
    h("label.field", {}, h("span", {}, "Your name"), nameInput),
    h("div.row", {}, joinButton, watch),
  );
  root.replaceChildren(
    h(
      "section.panel.join-room",
      {},
      h("h1", {}, `Room ${code}`),
      info,
      form,
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
      form.hidden = false;
      nameInput.focus();
    })
    .catch((e) => {
      const missing = e instanceof ApiError && e.status === 404;
      info.textContent = missing
        ? `There is no room with the code ${code}. Check the code (letters and digits, as the host sent it), or ask the host for the invite link again.`
        : "The room cannot be reached: check your connection and try again.";
      info.className = "bad join-missing";
      info.setAttribute("role", "alert");
      form.remove();
      void go;
    });
}
