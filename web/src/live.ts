// The live games anybody may watch (`GET /api/live`): a list on the home screen, each with a
// "Watch" link that opens the room as a spectator (`/room/CODE?watch`: no seat, no name asked).

import { api } from "./api";
import { h } from "./dom";
import { t } from "./i18n";
import type { LiveRoom, OpenGame } from "./protocol";
import { editionInfo } from "./ui";

/** What a home-screen list of rooms is: its element ids and class, its words. */
interface RoomsList {
  list: string;
  refresh: string;
  className: string;
  heading: string;
  about: string;
  empty: string;
}

/** A home-screen panel of rooms from `load`, loaded now and on "Refresh", each drawn by `row`. */
function roomsPanel<T>(what: RoomsList, load: () => Promise<T[]>, row: (item: T) => HTMLElement): HTMLElement {
  const { list: listId, refresh: refreshId, className, heading, about, empty } = what;
  const list = h(`ul.live-list#${listId}` as "ul", { "aria-live": "polite" });
  const refresh = h(`button#${refreshId}` as "button", { type: "button" }, t("home:refresh"));
  const show = () => {
    refresh.disabled = true;
    load()
      .then((items) => {
        list.replaceChildren(...items.map(row));
        if (!items.length) list.append(h("li.muted", {}, empty));
      })
      .catch(() => list.replaceChildren(h("li.muted", {}, t("home:liveNotLoaded"))))
      .finally(() => {
        refresh.disabled = false;
      });
  };
  refresh.addEventListener("click", show);
  show();
  return h(`section.panel.${className}` as "section", {}, h("h2", {}, heading), h("p.muted", {}, about), list, refresh);
}

/** The home screen's "Watch a live game" panel. */
export function liveGames(): HTMLElement {
  const what = {
    list: "live-list",
    refresh: "live-refresh",
    className: "live",
    heading: t("home:watchLive"),
    about: t("home:liveAbout"),
    empty: t("home:noLiveGames"),
  };
  return roomsPanel(what, () => api("GET /api/live"), liveRow);
}

function liveRow(room: LiveRoom): HTMLElement {
  const ed = editionInfo(room.edition);
  const players = room.players.map((p) => p.name).join(", ");
  const round =
    room.kind === "solo"
      ? t("home:soloRun")
      : room.kind === "playoff" || room.kind === "tie-round"
        ? t("home:tieBreak")
        : room.rounds
          ? t("home:liveRoundOf", { round: room.round, rounds: room.rounds })
          : t("home:liveRound", { round: room.round });
  const watching = room.spectators ? ` · ${t("common:watching", { count: room.spectators })}` : "";
  return h(
    "li.live-room",
    { "data-code": room.code },
    h("span", {}, h("b", {}, ed.title), ` · ${players} · ${round}${watching}`),
    h(
      "a.button.watch",
      {
        href: `/room/${room.code}?watch`,
        "data-link": "",
        "aria-label": t("home:watchLabel", { title: ed.title, players }),
      },
      t("home:watch"),
    ),
  );
}

/** The home screen's "Open games": rooms waiting for players that their hosts listed
 * (`GET /api/open-games`), each with a Join link (the room's join screen asks for the name). */
export function openGames(): HTMLElement {
  const what = {
    list: "open-games",
    refresh: "open-refresh",
    className: "open-games",
    heading: t("home:openGames"),
    about: t("home:openGamesAbout"),
    empty: t("home:noOpenGames"),
  };
  return roomsPanel(what, () => api("GET /api/open-games"), openRow);
}

function openRow(game: OpenGame): HTMLElement {
  const ed = editionInfo(game.edition);
  const players = game.players.map((p) => p.name).join(", ");
  const rated = game.rated ? ` · ${t("social:rated")}` : "";
  return h(
    "li.live-room",
    { "data-code": game.code },
    h("span", {}, h("b", {}, ed.title), ` · ${players} · ${t("home:freeSeats", { count: game.free })}${rated}`),
    h(
      "a.button.join-open",
      { href: `/room/${game.code}`, "data-link": "", "aria-label": t("home:joinLabel", { title: ed.title, players }) },
      t("home:join"),
    ),
  );
}
