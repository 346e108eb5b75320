// An account's public profile (/profile/<id>): its name, ratings by edition with their
// history as a chart, games played, best solo runs and latest games with their replays.
// Everything comes from GET /api/accounts/{id}; nothing here is kept in the browser.

import { ApiError, api, currentAccount } from "./api";
import { h, svg } from "./dom";
import { EDITIONS, editionInfo } from "./editions";
import { dateText, t } from "./i18n";
import type { Profile, ProfileGame, RatingChange } from "./protocol";
import { ratingText } from "./records";
import { profileActions } from "./social";
import { clock, placeText } from "./ui";

export function profileScreen(id: string): HTMLElement {
  const root = h("main.profile", { "data-account": id }, h("p.loading", {}, t("profile:loading")));
  api("GET /api/accounts/{account_id}", { path: { account_id: Number(id) } })
    .then((profile) => root.replaceChildren(...draw(profile)))
    .catch((e) => {
      const missing = e instanceof ApiError && e.status === 404;
      root.replaceChildren(
        h(
          "section.panel",
          {},
          h("h1", {}, missing ? t("profile:noSuchPlayer") : t("profile:cannotLoad")),
          h("p", {}, h("a", { href: "/", "data-link": "" }, t("common:backHome"))),
        ),
      );
    });
  return root;
}

function title(edition: string): string {
  return EDITIONS.some((e) => e.name === edition) ? editionInfo(edition).title : edition;
}

function day(seconds: number): string {
  return dateText(new Date(seconds * 1000));
}

function draw(p: Profile): HTMLElement[] {
  const mine = currentAccount()?.id === p.id;
  const head = h(
    "section.panel",
    {},
    h("h1#profile-name", {}, p.name),
    h(
      "p.muted",
      {},
      `${t("profile:playingSince", { date: day(p.joined) })}${mine ? ` · ${t("profile:thisIsYou")}` : ""}`,
    ),
    profileActions(p),
    headToHead(p),
    h("p", {}, h("a", { href: "/", "data-link": "" }, t("common:backHome"))),
  );
  const editions = [...new Set([...Object.keys(p.ratings), ...Object.keys(p.games)])];
  const ratings = h(
    "section.panel#profile-ratings",
    {},
    h("h2", {}, t("records:ratings")),
    Object.keys(p.ratings).length
      ? h(
          "div.rating-cards",
          {},
          ...editions
            .filter((e) => p.ratings[e])
            .map((e) => {
              const r = p.ratings[e];
              return h(
                "div.rating-card",
                { "data-edition": e },
                h("h3", {}, title(e)),
                h("p.big", {}, ratingText(r)),
                h(
                  "p.muted",
                  {},
                  `${t("profile:ratedGames", { count: r.games })}${r.provisional ? ` · ${t("profile:provisional")}` : ""}`,
                ),
                historyChart(p.history[e] ?? []),
              );
            }),
        )
      : h("p.muted", {}, t("profile:noRatedGames")),
    // two scales meet a player: this one, and endless solo's (against the tasks)
    h("p.muted#rating-scales", {}, t("profile:ratingScales")),
  );
  const played = h(
    "section.panel",
    {},
    h("h2", {}, t("profile:gamesPlayed")),
    editions.length
      ? h("ul", {}, ...editions.map((e) => h("li", {}, `${title(e)}: ${p.games[e] ?? 0}`)))
      : h("p.muted", {}, t("profile:noneYet")),
  );
  const bests = h(
    "section.panel",
    {},
    h("h2", {}, t("profile:bestRuns")),
    p.bests.length
      ? h(
          "ul",
          {},
          ...p.bests.map((b) =>
            h(
              "li",
              {},
              `${title(b.edition)} · ${b.goal === "time" ? t("profile:bestTime", { amount: b.amount, count: b.score }) : t("profile:bestTasks", { count: b.amount, time: clock(b.seconds) })}`,
            ),
          ),
        )
      : h("p.muted", {}, t("profile:noneYet")),
  );
  const list = h("ul#profile-games");
  const show = (games: ProfileGame[]) => {
    list.replaceChildren(...games.map(gameRow));
    if (!games.length) list.append(h("li.muted", {}, t("profile:noneYet")));
  };
  show(p.recent);
  const recent = h(
    "section.panel#profile-recent",
    {},
    h("h2", {}, t("profile:latestGames")),
    gameFilters(p, editions, show),
    list,
  );
  return [head, ratings, played, bests, arenasPlayed(p.id), recent];
}

/** The arenas the account raced in, with its points and final place (docs/arenas.md). */
function arenasPlayed(id: number): HTMLElement {
  const list = h("ul#profile-arenas", {}, h("li.muted", {}, t("profile:loading")));
  api("GET /api/accounts/{account_id}/arenas", { path: { account_id: id } })
    .then((arenas) => {
      list.replaceChildren(
        ...arenas.map((a) =>
          h(
            "li",
            {},
            h("a", { href: `/arena/${a.id}`, "data-link": "" }, a.title),
            ` · ${title(a.edition)} · ${day(a.starts_at / 1000)} · ${t("arena:points", { count: a.points })}`,
            a.place === null ? "" : ` · ${placeText(a.place)}`,
          ),
        ),
      );
      if (!arenas.length) list.replaceChildren(h("li.muted", {}, t("profile:noneYet")));
    })
    .catch(() => list.replaceChildren(h("li.muted", {}, t("arena:notLoaded"))));
  return h("section.panel#profile-arenas-played", {}, h("h2", {}, t("arena:arenas")), list);
}

function gameRow(g: ProfileGame): HTMLElement {
  return h(
    "li",
    {},
    `${day(g.finished_at)} · ${title(g.edition)} · ${t(`profile:modes.${g.mode}`, { defaultValue: g.mode })} · ${g.players.map((x) => x.name).join(", ")}${g.winners.includes(g.seat) ? ` · ${t("profile:won")}` : ""} `,
    h("a", { href: `/replay/${g.id}`, "data-link": "" }, t("profile:replay")),
  );
}

/** The latest games' filters: an edition, rated only, with me (on another's profile). */
function gameFilters(p: Profile, editions: string[], show: (games: ProfileGame[]) => void): HTMLElement {
  const me = currentAccount();
  const edition = h(
    "select#games-edition",
    { "aria-label": t("profile:filterEdition") },
    h("option", { value: "" }, t("profile:allEditions")),
    ...editions.map((e) => h("option", { value: e }, title(e))),
  );
  const rated = h("input#games-rated", { type: "checkbox" });
  const withMe = h("input#games-with-me", { type: "checkbox" });
  // quick changes ask again before the last answer is back: only the newest asking is shown
  // (an older answer arriving last showed games the filters had left out; CI's run on 567492d)
  let asking: AbortController | null = null;
  const load = () => {
    asking?.abort();
    const now = new AbortController();
    asking = now;
    const query = {
      edition: edition.value || undefined,
      rated: rated.checked ? true : undefined,
      with_account: withMe.checked && me ? me.id : undefined,
    };
    api("GET /api/accounts/{account_id}/games", { path: { account_id: p.id }, query, signal: now.signal })
      .then((games) => {
        if (!now.signal.aborted) show(games);
      })
      .catch(() => undefined);
  };
  for (const control of [edition, rated, withMe]) control.addEventListener("change", load);
  const others = me && me.id !== p.id;
  return h(
    "div.game-filters",
    {},
    edition,
    h("label.check", {}, rated, ` ${t("profile:ratedOnly")}`),
    others ? h("label.check", {}, withMe, ` ${t("profile:withMe")}`) : null,
  );
}

/** On another's profile: how this player fared against them, in the games they shared. */
function headToHead(p: Profile): HTMLElement | null {
  const me = currentAccount();
  if (!me || me.id === p.id) return null;
  const line = h("p#head-to-head.muted");
  api("GET /api/accounts/{account_id}/versus/{other_id}", { path: { account_id: me.id, other_id: p.id } })
    .then((r) => {
      line.textContent = r.games
        ? t("profile:headToHead", { name: p.name, count: r.games, ahead: r.ahead, behind: r.behind, level: r.level })
        : t("profile:neverPlayed", { name: p.name });
    })
    .catch(() => undefined);
  return line;
}

/** The shown rating after each rated game, oldest first, as a line with its range marked. */
function historyChart(changes: RatingChange[]): Element {
  if (changes.length === 0) return h("p.muted", {}, t("profile:noHistory"));
  const points = [changes[0].before, ...changes.map((c) => c.after)];
  const lo = Math.min(...points);
  const hi = Math.max(...points);
  const span = Math.max(1, hi - lo);
  // wide and low: it fills its card without growing tall (its words stay small)
  const x = (i: number) => 44 + (i * 546) / Math.max(1, points.length - 1);
  const y = (v: number) => 96 - ((v - lo) * 84) / span;
  const chart = svg("svg", {
    class: "history-chart",
    viewBox: "0 0 600 128",
    role: "img",
    "aria-label": t("profile:historyLabel", { from: points[0], to: points[points.length - 1], count: changes.length }),
  });
  const axis = (v: number) => {
    const label = svg("text", { x: 0, y: y(v) + 4, "font-size": 11, fill: "currentColor" });
    label.textContent = String(v);
    return label;
  };
  const line = svg("polyline", {
    points: points.map((v, i) => `${x(i)},${y(v)}`).join(" "),
    fill: "none",
    stroke: "currentColor",
    "stroke-width": 2,
  });
  // the time axis: a base line, the first and the last rated game's days under its ends
  const base = svg("line", { x1: 40, x2: 594, y1: 104, y2: 104, stroke: "currentColor", "stroke-opacity": 0.35 });
  const when = (at: number, x0: number, anchor: string) => {
    const label = svg("text", { x: x0, y: 122, "font-size": 11, fill: "currentColor", "text-anchor": anchor });
    label.textContent = dateText(new Date(at * 1000));
    return label;
  };
  chart.append(axis(hi), axis(lo), base, line, when(changes[0].at, 44, "start"));
  if (changes.length > 1) chart.append(when(changes[changes.length - 1].at, 590, "end"));
  points.forEach((v, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(v), r: 3, fill: "currentColor" });
    const tip = svg("title");
    tip.textContent =
      i === 0 ? t("profile:beforeFirst", { v }) : t("profile:afterGame", { v, game: changes[i - 1].game_id });
    dot.append(tip);
    chart.append(dot);
  });
  return chart;
}
