// The live games anybody may watch (`GET /api/live`): a list on the home screen, each with a
// "Watch" link that opens the room as a spectator (`/room/CODE?watch`: no seat, no name asked).

import { api } from "./api";
import { h } from "./dom";
import { t } from "./i18n";
import type { LiveRoom, OpenGame } from "./protocol";
import { editionInfo } from "./ui";

/** The home screen's "Watch a live game" panel; it loads the list now and on "Refresh". */
export function liveGames(): HTMLElement {
  const list = h("ul.live-list#live-list", { "aria-live": "polite" });
  const refresh = h("button#live-refresh", { type: "button" }, t("home:refresh"));
  const load = () => {
    refresh.disabled = true;
    api("GET /api/live")
      .then((rooms) => {
        list.replaceChildren(...rooms.map(liveRow));
        if (!rooms.length) list.append(h("li.muted", {}, t("home:noLiveGames")));
      })
      .catch(() => list.replaceChildren(h("li.muted", {}, t("home:liveNotLoaded"))))
      .finally(() => {
        refresh.disabled = false;
      });
  };
  refresh.addEventListener("click", load);
  load();
  return h(
    "section.panel.live",
    {},
    h("h2", {}, t("home:watchLive")),
    h("p.muted", {}, t("home:liveAbout")),
    list,
    refresh,
  );
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
  const list = h("ul.live-list#open-games", { "aria-live": "polite" });
  const refresh = h("button#open-refresh", { type: "button" }, t("home:refresh"));
  const load = () => {
    refresh.disabled = true;
    api("GET /api/open-games")
      .then((games) => {
        list.replaceChildren(...games.map(openRow));
        if (!games.length) list.append(h("li.muted", {}, t("home:noOpenGames")));
      })
      .catch(() => list.replaceChildren(h("li.muted", {}, t("home:liveNotLoaded"))))
      .finally(() => {
        refresh.disabled = false;
      });
  };
  refresh.addEventListener("click", load);
  load();
  return h(
    "section.panel.open-games",
    {},
    h("h2", {}, t("home:openGames")),
    h("p.muted", {}, t("home:openGamesAbout")),
    list,
    refresh,
  );
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
