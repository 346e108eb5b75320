// The live games anybody may watch (`GET /api/live`): a list on the home screen, each with a
// "Watch" link that opens the room as a spectator (`/room/CODE?watch`: no seat, no name asked).

import { h } from "./dom";
import { api } from "./net";
import type { LiveRoom } from "./protocol";
import { editionInfo } from "./ui";

/** The home screen's "Watch a live game" panel; it loads the list now and on "Refresh". */
export function liveGames(): HTMLElement {
  const list = h("ul.live-list#live-list", { "aria-live": "polite" });
  const refresh = h("button#live-refresh", { type: "button" }, "Refresh");
  const load = () => {
    refresh.disabled = true;
    api
      .get<LiveRoom[]>("/api/live")
      .then((rooms) => {
        list.replaceChildren(...rooms.map(liveRow));
        if (!rooms.length) list.append(h("li.muted", {}, "No public game is being played right now."));
      })
      .catch(() => list.replaceChildren(h("li.muted", {}, "The live games cannot be loaded.")))
      .finally(() => {
        refresh.disabled = false;
      });
  };
  refresh.addEventListener("click", load);
  load();
  return h(
    "section.panel.live",
    {},
    h("h2", {}, "Watch a live game"),
    h("p.muted", {}, "Games being played now in rooms that are not locked."),
    list,
    refresh,
  );
}

function liveRow(room: LiveRoom): HTMLElement {
  const ed = editionInfo(room.edition);
  const players = room.players.map((p) => p.name).join(", ");
  const round =
    room.kind === "solo"
      ? "solo run"
      : room.kind === "playoff" || room.kind === "tie-round"
        ? "tie-break"
        : `round ${room.round}${room.rounds ? ` of ${room.rounds}` : ""}`;
  const watching = room.spectators ? ` · ${room.spectators} watching` : "";
  return h(
    "li.live-room",
    { "data-code": room.code },
    h("span", {}, h("b", {}, ed.title), ` · ${players} · ${round}${watching}`),
    h(
      "a.button.watch",
      { href: `/room/${room.code}?watch`, "data-link": "", "aria-label": `Watch ${ed.title}: ${players}` },
      "Watch",
    ),
  );
}
