// The game's end: the winner(s) and, when a playoff or tie round decided it, why; the scores;
// the last round's result; Rematch (host) and Home. A solo run ends with its result, the
// leaderboard of that kind of run, your personal bests and Play again.

import type { Catalogue } from "../catalogue";
import { h } from "../dom";
import { api, savedName, saveTicket } from "../net";
import type { EventOf, GameView, Room, SeatGrant } from "../protocol";
import { leaderboard, personalBests } from "../records";
import { clock, editionInfo, gemRow, toast } from "../ui";
import type { RoomContext } from "./context";
import { roundResultParts } from "./result";
import { andList, isTieBreak, seatName, tieBreakName, tiedSeats, tieWords } from "./words";

/** The page shown once the room's phase is "over". */
export function gameEnd(ctx: RoomContext, room: Room, cat: Catalogue | null): HTMLElement {
  const { store } = ctx;
  const game = room.game;
  const over = store.gameOverEvent();
  const page = h("section.panel.game-end");
  if (room.settings.mode === "solo") {
    page.append(soloEnd(ctx, room, over?.data ?? null));
    return page;
  }
  const winners = game?.winners.length ? game.winners : (over?.data.winners ?? []);
  const name = (seat: number | string) => seatName(room, seat);
  const winnerText = winners.length
    ? winners.length === 1
      ? `${name(winners[0])} wins!`
      : `${andList(winners.map(name))} share the win!`
    : "The game is over.";
  page.append(h("h1#winner", {}, winnerText));
  // right under the winner: why a game level on points still has one (or two)
  if (game && isTieBreak(game.kind) && tiedSeats(game).length > 1) {
    page.append(tieBreakNote(room, game, winners));
  }
  page.append(scoreTable(room, game, winners));
  if (game && store.lastRoundEnd) {
    page.append(h("section.round-result.last-round", {}, ...roundResultParts(store, room, game, cat)));
  }
  const actions = h("div.row");
  if (store.isHost) {
    actions.append(
      h("button.primary#rematch", { type: "button", onclick: () => ctx.send({ type: "rematch" }) }, "Rematch"),
    );
  } else if (store.seat !== null) {
    actions.append(h("p.muted", {}, "The host can start a rematch."));
  }
  if (room.game_id !== null) actions.append(replayLink(room.game_id));
  actions.append(h("a.button", { href: "/", "data-link": "" }, "Home"));
  page.append(actions);
  return page;
}

/** The stored game's replay (`/replay/<id>`), to watch again or share. */
function replayLink(gameId: number): HTMLElement {
  return h("a.button#watch-replay", { href: `/replay/${gameId}`, "data-link": "" }, "Watch the replay");
}

function tieBreakNote(room: Room, game: GameView, winners: number[]): HTMLElement {
  const what = tieBreakName(game.kind).toLowerCase();
  return h(
    "p.tie-break",
    {},
    winners.length === 1
      ? `${tieWords(room, game, true)}, so a ${what} decided it: ${seatName(room, winners[0])} finished first.`
      : `${tieWords(room, game, true)}. Nobody finished the ${what} in time, so they share the win.`,
  );
}

function scoreTable(room: Room, game: GameView | null, winners: number[]): HTMLElement {
  const scores = game ? Object.entries(game.scores) : [];
  scores.sort((a, b) => b[1].points - a[1].points);
  const gems = editionInfo(room.settings.edition).gems;
  return h(
    "table.scores",
    {},
    h(
      "thead",
      {},
      h("tr", {}, h("th", {}, "Player"), h("th", {}, gems ? "Gems" : "Cards"), gems ? h("th", {}, "Points") : null),
    ),
    h(
      "tbody",
      {},
      ...scores.map(([seat, sc]) =>
        h(
          "tr",
          { class: winners.includes(Number(seat)) ? "winner" : "" },
          h(
            "td",
            {},
            winners.includes(Number(seat)) ? h("span.star", { "aria-label": "winner" }, "★ ") : "",
            seatName(room, seat),
          ),
          h("td", {}, sc.gems ? gemRow(sc.gems, "no gems") : `${sc.cards}`),
          gems ? h("td", {}, String(sc.points)) : null,
        ),
      ),
    ),
  );
}

function soloEnd(ctx: RoomContext, room: Room, over: EventOf<"game_over">["data"] | null): HTMLElement {
  const s = room.settings;
  const rec = room.record ?? over?.record ?? null;
  const box = h("div.solo-end");
  const done = rec ? rec.solved : (room.game?.solo?.done ?? 0);
  const secs = rec ? rec.seconds : 0;
  box.append(
    h("h1", {}, s.solo_goal === "time" ? "Time's up!" : "Done!"),
    h(
      "p.big#solo-result",
      {},
      s.solo_goal === "time" ? `${done} solved` : `${done} of ${s.solo_amount} in ${clock(secs)}`,
    ),
  );
  const again = h("button.primary#again", { type: "button" }, "Play again");
  again.addEventListener("click", async () => {
    try {
      const r = await api.post<SeatGrant>("/api/rooms", {
        name: savedName() || "Player",
        settings: {
          edition: s.edition,
          mode: "solo",
          side: s.side,
          solo_goal: s.solo_goal,
          solo_amount: s.solo_amount,
        },
      });
      saveTicket(r);
      ctx.go(`/room/${r.code}`);
    } catch (e) {
      toast(String(e), "bad");
    }
  });
  box.append(h("div.row", {}, again, h("a.button", { href: "/", "data-link": "" }, "Home")));
  const me = savedName();
  box.append(
    h("div.records", {}, leaderboard(s.edition, s.solo_goal, s.solo_amount, s.side, me), me ? personalBests(me) : null),
  );
  return box;
}
