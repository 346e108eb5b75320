// The game's end: the winner(s) and, when a playoff or tie round decided it, why; the scores;
// the last round's result; Rematch (host) and Home. A solo run ends with its result, the
// leaderboard of that kind of run, your personal bests and Play again; a daily challenge run with
// its times, whether it is rated, the text to share (Copy) and the day's leaderboard.

import { ApiError, api, nameToPlay, savedName } from "../api";
import { backToArena } from "../arenas";
import type { Catalogue } from "../catalogue";
import { h } from "../dom";
import { dayText, t } from "../i18n";
import { saveTicket } from "../net";
import type { DailyResult, EventOf, GameView, RatingMove, Room } from "../protocol";
import { dailyBoard, leaderboard, personalBests } from "../records";
import { playedWith } from "../social";
import { clock, editionInfo, GEM_VALUES, gemKey, gemRow, toast } from "../ui";
import type { RoomContext } from "./context";
import { roundResultParts } from "./result";
import { andList, isTieBreak, seatName, tiedSeats, tieKind, tieWords } from "./words";

/** The page shown once the room's phase is "over". */
export function gameEnd(ctx: RoomContext, room: Room, cat: Catalogue | null): HTMLElement {
  const { store } = ctx;
  const game = room.game;
  const over = store.gameOverEvent();
  const page = h("section.panel.game-end");
  const daily = room.daily ?? over?.data.daily ?? null;
  if (daily) {
    page.append(dailyEnd(room, daily));
    return page;
  }
  if (room.settings.mode === "solo") {
    page.append(soloEnd(ctx, room, over?.data ?? null));
    return page;
  }
  const winners = game?.winners.length ? game.winners : (over?.data.winners ?? []);
  const name = (seat: number | string) => seatName(room, seat);
  const winnerText = winners.length
    ? winners.length === 1
      ? t("play:wins", { name: name(winners[0]) })
      : t("play:shareWin", { names: andList(winners.map(name)) })
    : t("play:gameIsOver");
  page.append(h("h1#winner", {}, winnerText));
  // right under the winner: why a game level on points still has one (or two)
  if (game && isTieBreak(game.kind) && tiedSeats(game).length > 1) {
    page.append(tieBreakNote(room, game, winners));
  }
  page.append(scoreTable(room, game, winners, room.ratings ?? over?.data.ratings ?? null), scoringNote(room));
  if (game && store.lastRoundEnd) {
    page.append(h("section.round-result.last-round", {}, ...roundResultParts(store, room, game, cat)));
  }
  const actions = h("div.row");
  const arena = room.settings.arena;
  if (arena && store.seat !== null) {
    page.append(backToArena(arena, room.code, ctx.go)); // an arena's race is one game
  } else if (arena) {
    actions.append(h("a.button", { href: `/arena/${arena}`, "data-link": "" }, t("arena:toArena")));
  } else if (store.isHost) {
    actions.append(
      h("button.primary#rematch", { type: "button", onclick: () => ctx.send({ type: "rematch" }) }, t("play:rematch")),
    );
  } else if (store.seat !== null) {
    actions.append(h("p.muted", {}, t("play:hostRematch")));
  }
  if (room.game_id !== null) actions.append(replayLink(room.game_id));
  actions.append(h("a.button", { href: "/", "data-link": "" }, t("common:home")));
  page.append(actions);
  const others = playedWith(room, store.seat);
  if (others) page.append(others);
  return page;
}

/** The stored game's replay (`/replay/<id>`), to watch again or share. */
function replayLink(gameId: number): HTMLElement {
  return h("a.button#watch-replay", { href: `/replay/${gameId}`, "data-link": "" }, t("play:watchReplay"));
}

function tieBreakNote(room: Room, game: GameView, winners: number[]): HTMLElement {
  const context = tieKind(game.kind);
  const tie = tieWords(room, game, true);
  return h(
    "p.tie-break",
    {},
    winners.length === 1
      ? t("play:tieDecided", { tie, context, name: seatName(room, winners[0]) })
      : t("play:tieShared", { tie, context }),
  );
}

/** A rating's move as shown: "+12", "−8" (a minus sign), "±0". */
function moveText(m: RatingMove): string {
  const d = m.after - m.before;
  return d > 0 ? `+${d}` : d < 0 ? `−${-d}` : "±0";
}

/** The results by seat: gems or cards, points, and in a rated game each account's rating move
 * (once the game is stored; a seat whose rating did not move shows "not rated"). */
function scoreTable(
  room: Room,
  game: GameView | null,
  winners: number[],
  moves: Record<string, RatingMove> | null,
): HTMLElement {
  const scores = game ? Object.entries(game.scores) : [];
  const rated = room.settings.rated && moves !== null;
  scores.sort((a, b) => b[1].points - a[1].points);
  const gems = editionInfo(room.settings.edition).gems;
  return h(
    "table.scores",
    {},
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, t("play:player")),
        h("th", {}, gems ? t("play:gemsHeading") : t("play:cardsHeading")),
        gems ? h("th", {}, t("play:pointsHeading")) : null,
        rated ? h("th", {}, t("play:ratingHeading")) : null,
      ),
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
            winners.includes(Number(seat)) ? h("span.star", { "aria-label": t("play:winner") }, "★ ") : "",
            seatName(room, seat),
          ),
          h("td", {}, sc.gems ? gemRow(sc.gems, t("common:noGems")) : `${sc.cards}`),
          gems
            ? h("td.points", {}, h("b", {}, String(sc.points)), pointsSum(sc.gems as Record<string, number> | null))
            : null,
          rated ? ratingCell(moves?.[seat], room.seats[Number(seat)]?.kind === "bot") : null,
        ),
      ),
    ),
  );
}

/** How the points add up: "1×4 + 2×3 = 10" (nothing for no gems). */
function pointsSum(gems: Record<string, number> | null | undefined): HTMLElement | null {
  if (!gems) return null;
  const terms = Object.entries(GEM_VALUES)
    .filter(([name]) => (gems[name] ?? 0) > 0)
    .map(([name, value]) => `${gems[name]}×${value}`);
  return terms.length ? h("span.points-sum.muted", {}, ` (${terms.join(" + ")})`) : null;
}

/** Under the final table: what the numbers mean. */
function scoringNote(room: Room): HTMLElement {
  const info = editionInfo(room.settings.edition);
  if (info.gems) {
    return h("div.scoring-note", {}, gemKey(), h("p.muted", {}, t("play:scoringGems")));
  }
  return h("p.scoring-note.muted", {}, t("play:scoringCards"));
}

function ratingCell(move: RatingMove | undefined, bot: boolean): HTMLElement {
  // a bot's level has a rating too, but it is not a player's to see move
  if (!move) return h("td.rating-move.muted", {}, bot ? "" : t("play:notRatedShort"));
  const d = move.after - move.before;
  return h(
    "td.rating-move",
    { class: d > 0 ? "up" : d < 0 ? "down" : "", title: `${move.before} → ${move.after}` },
    h("b", {}, moveText(move)),
    h("small.muted", {}, ` ${move.after}`),
  );
}

/** The result to share in the language shown, made as the server makes its (English) `share`:
 * edition, day, each task's time or ✗, tasks solved and the whole time; nothing of the tasks. */
export function shareText(daily: DailyResult, title: string): string {
  const values = { title, date: dayText(daily.date) };
  const head = daily.rated ? t("play:shareHead", values) : t("play:shareHeadUnrated", values);
  const marks = daily.times.map((time) => (time === null ? "✗" : clock(time))).join(" · ");
  const solved = daily.times.filter((time) => time !== null).length;
  const tally = t("play:shareSolved", { solved, total: daily.times.length, time: clock(daily.seconds) });
  // the link: whoever reads it can play the same day's tasks
  return `${head}\n${marks}\n${tally}\n${location.origin}/`;
}

/** A daily run's end: each task's time, rated or why not, the text to share, the day's board. */
function dailyEnd(room: Room, daily: DailyResult): HTMLElement {
  const title = editionInfo(daily.edition).title;
  const box = h("div.solo-end.daily-end");
  const times = h("ul.daily-times", { "aria-label": t("play:eachTaskTime") });
  daily.times.forEach((time, i) => {
    times.append(
      h(
        "li",
        { class: time === null ? "missed" : "" },
        t("play:taskTime", { n: i + 1, time: time === null ? "✗" : clock(time) }),
      ),
    );
  });
  const text = shareText(daily, title);
  const share = h("pre.share#share-text", {}, text);
  const copy = h("button.primary#copy-share", { type: "button" }, t("play:copy"));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast(t("play:copied"), "good");
      copy.textContent = t("play:copiedShort"); // said where the click was, too
    } catch {
      // no clipboard (an insecure page, a refusal): select the text to copy by hand
      const range = document.createRange();
      range.selectNodeContents(share);
      const sel = window.getSelection();
      sel?.removeAllRanges();
      sel?.addRange(range);
      toast(t("play:pressCtrlC"));
    }
  });
  box.append(
    h("h1", {}, t("play:dailyTitle", { title })),
    h(
      "p.big#solo-result",
      {},
      t("play:solvedOfIn", { done: daily.solved, amount: daily.times.length, time: clock(daily.seconds) }),
    ),
    h(
      "p#daily-rated",
      { class: daily.rated ? "good" : "muted" },
      daily.rated
        ? t("play:onLeaderboardOf", { date: dayText(daily.date) })
        : t("play:notRated", { why: daily.unrated ?? t("play:notCounted") }),
    ),
    times,
    h("div.share-box", {}, h("h2", {}, t("play:shareResult")), share, copy),
    h("div.row", {}, h("a.button", { href: "/", "data-link": "" }, t("common:home"))),
    h(
      "div.records",
      {},
      dailyBoard(room.settings.edition, daily.date, t("play:leaderboardOf", { date: dayText(daily.date) })),
    ),
  );
  return box;
}

function soloEnd(ctx: RoomContext, room: Room, over: EventOf<"game_over">["data"] | null): HTMLElement {
  const s = room.settings;
  const rec = room.record ?? over?.record ?? null;
  const box = h("div.solo-end");
  const done = rec ? rec.solved : (room.game?.solo?.done ?? 0);
  const secs = rec ? rec.seconds : 0;
  const endless = s.solo_goal === "endless";
  // a time or tasks run its player stopped: shown, not ranked (docs/protocol.md, `stop`)
  const stopped = rec !== null && (s.solo_goal === "time" || s.solo_goal === "tasks") && !rec.complete;
  box.append(
    h("h1", {}, stopped ? t("play:stopped") : s.solo_goal === "time" ? t("play:timesUp") : t("play:done")),
    h(
      "p.big#solo-result",
      {},
      endless
        ? t("play:solvedIn", { done, time: clock(secs) })
        : s.solo_goal === "time"
          ? t("records:solved", { count: done })
          : t("play:solvedIn", { done, time: clock(secs) }),
    ),
  );
  // tasks put aside are shown, with the rulebook's rule that makes them allowed
  const skipped = rec ? rec.skipped + rec.gave_up : 0;
  const drawn = done + skipped;
  box.append(
    h(
      "p#solo-skips",
      { class: skipped ? "" : "muted" },
      `${skipped ? t("play:putAside", { count: skipped, drawn, done }) : t("play:noneAside")} `,
      h("span.muted", {}, t("play:putAsideRule")),
    ),
  );
  if (stopped) box.append(h("p.muted#solo-stopped", {}, t("play:stoppedNote")));
  if (endless && rec?.rating != null)
    box.append(h("p#endless-final", {}, t("play:yourRating", { rating: Math.round(rec.rating) })));
  const again = h("button.primary#again", { type: "button" }, t("play:playAgain"));
  again.addEventListener("click", async () => {
    try {
      const r = await api("POST /api/rooms", {
        body: {
          name: (await nameToPlay(savedName())).name,
          settings: {
            edition: s.edition,
            mode: "solo",
            side: s.side,
            solo_goal: s.solo_goal,
            ...(endless ? {} : { solo_amount: s.solo_amount }),
          },
        },
      });
      saveTicket(r);
      ctx.go(`/room/${r.code}`);
    } catch (e) {
      toast(e instanceof ApiError ? e.message : String(e), "bad");
    }
  });
  box.append(h("div.row", {}, again, h("a.button", { href: "/", "data-link": "" }, t("common:home"))));
  const me = savedName();
  if (!endless) {
    box.append(
      h(
        "div.records",
        {},
        leaderboard(s.edition, s.solo_goal, s.solo_amount, s.side, me),
        me ? personalBests(me) : null,
      ),
    );
  }
  return box;
}
