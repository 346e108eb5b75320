// Home: play solo (timed, or practice with hints), the daily challenge (with yesterday's winners),
// create a room, join one; how to play each edition with its real pieces.

import { ApiError, api, currentAccount, ensureAccount, nameToPlay, savedName } from "./api";
import { arenasPanel } from "./arenas";
import { keys3d, piecePicture as pieceSvg } from "./board3d"; // 3D pictures (issue #7)
import { loadCatalogue } from "./catalogue";
import { h } from "./dom";
import { colourName, dayText, t } from "./i18n";
import { liveGames, openGames } from "./live";
import { forgetTicket, saveTicket, ticketFor } from "./net";
import { pieceName } from "./piecename";
import type { CreateRoom, SettingsPatch, SoloGoal } from "./protocol";
import { dailyBoard, leaderboard, myRating, ratingsBoard } from "./records";
import { rulesLink } from "./rules";
import { friendsPanel } from "./social";
import { type HomePrefs, stored } from "./storage";
import { clock, EDITIONS, editionInfo, toast } from "./ui";

export type Navigate = (path: string) => void;

/** The home screen's last choices, with the defaults for those never made. */
function loadPrefs(): HomePrefs {
  const base: HomePrefs = { edition: EDITIONS[0].name, side: {}, goal: "time", amounts: {} };
  return { ...base, ...stored.home.read() };
}

export function homeScreen(go: Navigate): HTMLElement {
  const prefs = loadPrefs();
  const save = () => stored.home.write(prefs);

  const nameInput = h("input#name", {
    type: "text",
    value: savedName(),
    placeholder: t("home:yourName"),
    maxLength: 24,
    autocomplete: "nickname",
    "aria-label": t("home:yourName"),
  });
  // the server's refusal of the name (taken, or the bots'), under the box until it changes; its
  // line is kept when empty (style.css), so that a refusal arriving as the player moves on
  // does not push "Create a room" and the rest from under their pointer (a click of the CI
  // loop's run 94 landed where the button had been)
  const nameError = h("p.bad.field-error#name-error", { role: "alert" });
  const showRefusal = (refused: ApiError | null) => {
    nameError.textContent = refused?.message ?? "";
    if (refused) nameInput.setAttribute("aria-invalid", "true");
    else nameInput.removeAttribute("aria-invalid");
  };
  nameInput.setAttribute("aria-describedby", "name-error");
  nameInput.addEventListener("input", () => showRefusal(null));
  // the name box shows the account's name once it exists (a first visit draws one): an empty
  // box never stands for a placeholder name. Not while the player is in the box: their typing
  // would be joined to the drawn name ("Nebizu 93Ada", a test's fill in the CI loop's run 55)
  const fillName = () => {
    const me = currentAccount();
    if (me && !nameInput.value.trim() && document.activeElement !== nameInput) nameInput.value = me.name;
  };
  void ensureAccount().then(fillName);
  const name = async () => {
    const played = await nameToPlay(nameInput.value.trim());
    showRefusal(played.refused);
    fillName();
    return played.name;
  };
  nameInput.addEventListener("change", () => void name());

  // --- edition picker (shared by solo and rooms) ---
  const editionButtons = h("div.edition-picker", { role: "radiogroup", "aria-label": t("room:edition") });
  const sideSelect = h("select#side", { "aria-label": t("home:side") });
  const sideLabel = h("label.field", {}, h("span", {}, t("home:side")), sideSelect);
  const howTo = h("section.howto#howto", { "aria-live": "polite", tabindex: "-1" });

  const setEdition = (ed: string) => {
    prefs.edition = ed;
    save();
    for (const b of editionButtons.querySelectorAll("button")) {
      b.setAttribute("aria-checked", String(b.dataset.edition === ed));
      b.tabIndex = b.dataset.edition === ed ? 0 : -1; // one Tab stop, arrows choose (a radio group)
    }
    const info = editionInfo(ed);
    (sideLabel.firstChild as HTMLElement).textContent = info.sideWord;
    sideSelect.replaceChildren(...info.sides.map((s) => h("option", { value: s.value }, s.label)));
    sideSelect.value = prefs.side[ed] ?? info.sides[0].value;
    drawAmounts();
    drawHowTo(howTo, ed);
    drawRecords();
    drawDaily();
    drawRatings();
  };
  editionButtons.addEventListener("keydown", (e) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (!step) return;
    e.preventDefault();
    const buttons = [...editionButtons.querySelectorAll<HTMLButtonElement>("button")];
    const at = buttons.findIndex((b) => b.dataset.edition === prefs.edition);
    const next = buttons[(at + step + buttons.length) % buttons.length];
    setEdition(next.dataset.edition ?? prefs.edition);
    next.focus();
  });
  sideSelect.addEventListener("change", () => {
    prefs.side[prefs.edition] = sideSelect.value;
    save();
  });

  for (const info of EDITIONS.filter((e) => e.playable)) {
    const pic = h("span.edition-pic");
    loadCatalogue(info.name)
      .then((cat) => {
        for (const p of cat.pieces.slice(0, 3)) pic.appendChild(pieceSvg(cat, p.id, undefined, 0.75));
      })
      .catch(() => undefined);
    editionButtons.appendChild(
      h(
        "button.edition",
        {
          type: "button",
          role: "radio",
          "data-edition": info.name,
          onclick: () => setEdition(info.name),
        },
        pic,
        h("strong", {}, info.title),
        h("small", {}, info.blurb),
      ),
    );
  }

  // --- solo ---
  const goal = h(
    "select#solo-goal",
    { "aria-label": t("home:soloMode") },
    h("option", { value: "time" }, t("home:goalTime")),
    h("option", { value: "tasks" }, t("home:goalTasks")),
    h("option", { value: "endless" }, t("home:goalEndless")),
    h("option", { value: "practice" }, t("home:goalPractice")),
  );
  // an endless run has no amount and no leaderboard: a rating instead (docs/ratings.md)
  const endless = () => goal.value === "endless";
  const amount = h("select#solo-amount", { "aria-label": t("home:amount") });
  // the lengths offered and the default are the edition's (Trigo's rulebook: 20 minutes)
  const amountKey = () => `${prefs.edition}:${goal.value}`;
  const amountLabel = h("label.field", {}, h("span", {}, t("home:goal")), amount);
  const drawAmounts = () => {
    // endless and practice have no amount: tasks come one after another until you stop
    const noAmount = endless() || goal.value === "practice";
    amount.hidden = noAmount;
    amountLabel.style.display = noAmount ? "none" : "";
    if (noAmount) return;
    const info = editionInfo(prefs.edition);
    const unit = goal.value === "time" ? "home:minutes" : "home:tasks";
    const offered = [...info.soloAmounts];
    const chosen = prefs.amounts[amountKey()] ?? info.soloDefault[goal.value] ?? offered[0];
    if (!offered.includes(chosen)) offered.push(chosen);
    offered.sort((a, b) => a - b);
    amount.replaceChildren(...offered.map((n) => h("option", { value: String(n) }, t(unit, { count: n }))));
    amount.value = String(chosen);
  };
  goal.value = prefs.goal;
  goal.addEventListener("change", () => {
    prefs.goal = goal.value;
    save();
    drawAmounts();
  });
  amount.addEventListener("change", () => {
    prefs.amounts[amountKey()] = Number(amount.value);
    save();
  });

  const records = h("div.home-records");
  const drawRecords = () => {
    if (endless()) {
      records.replaceChildren(h("p.muted#endless-about", {}, t("home:endlessAbout")));
      return;
    }
    records.replaceChildren(
      goal.value === "practice"
        ? h("p.muted", {}, t("home:practiceAbout"))
        : // the top three and your own run: ten rows pushed Play now off a phone's screens
          leaderboard(prefs.edition, goal.value, Number(amount.value), sideSelect.value, savedName(), 3),
    );
  };

  // --- the daily challenge: today's tasks for everyone, yesterday's winners ---
  const dailyButton = h("button.primary#start-daily", { type: "button" }, t("home:dailyChallenge"));
  const dailyInfo = h("div.daily-boards");
  const dailyMine = h("p#daily-mine", { hidden: true });
  const drawDaily = () => {
    const edition = prefs.edition;
    const title = editionInfo(edition).title;
    dailyButton.textContent = t("home:playDaily", { title });
    dailyMine.hidden = true;
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    dailyInfo.replaceChildren(
      dailyBoard(edition, yesterday, t("home:yesterdaysWinners", { date: dayText(yesterday) }), 3),
    );
    // the day's counted run played already: it is said, and another run is offered as what it
    // is (not counted), before it starts rather than at its end
    const me = currentAccount();
    const today = new Date().toISOString().slice(0, 10);
    if (!me) return;
    api("GET /api/daily/results", { query: { edition, date: today } })
      .then((day) => {
        const mine = day.results.find((r) => r.account === me.id);
        if (!mine || prefs.edition !== edition) return;
        dailyMine.textContent = t("home:dailyPlayed", {
          rank: mine.rank,
          solved: mine.solved,
          total: mine.times.length,
          time: clock(mine.seconds),
        });
        dailyMine.hidden = false;
        dailyButton.textContent = t("home:playDailyAgain", { title });
      })
      .catch(() => undefined);
  };
  for (const el of [goal, amount, sideSelect]) el.addEventListener("change", drawRecords);

  // --- ratings of rated games (quick match) ---
  const ratings = h("div.home-ratings");
  const drawRatings = () => {
    const me = currentAccount();
    ratings.replaceChildren(
      ...(me ? [myRating(prefs.edition, me.id)] : []),
      ratingsBoard(prefs.edition, me?.id ?? null),
      ...(me
        ? [h("p", {}, h("a#my-profile", { href: `/profile/${me.id}`, "data-link": "" }, t("home:yourProfile")))]
        : []),
    );
  };

  const busy = (b: HTMLButtonElement, on: boolean) => {
    b.disabled = on;
    b.classList.toggle("busy", on);
  };

  const createRoom = async (mode: "solo" | "race" | "daily", button: HTMLButtonElement) => {
    busy(button, true);
    try {
      const settings: SettingsPatch = {
        edition: prefs.edition,
        mode: mode === "race" ? "race" : "solo",
        side: sideSelect.value,
      };
      if (mode === "daily") settings.puzzles = "daily";
      if (mode === "solo") {
        settings.solo_goal = goal.value as SoloGoal;
        if (!endless() && goal.value !== "practice") settings.solo_amount = Number(amount.value);
      }
      const body: CreateRoom = { name: await name(), settings };
      const seat = await api("POST /api/rooms", { body });
      saveTicket(seat);
      go(`/room/${seat.code}`);
    } catch (e) {
      toast(e instanceof ApiError ? e.message : String(e), "bad");
      busy(button, false);
    }
  };

  const soloButton = h("button.primary#start-solo", { type: "button" }, t("home:playSolo"));
  soloButton.addEventListener("click", () => createRoom("solo", soloButton));
  dailyButton.addEventListener("click", () => createRoom("daily", dailyButton));
  const roomButton = h("button.primary#create-room", { type: "button" }, t("home:createRoom"));
  roomButton.addEventListener("click", () => createRoom("race", roomButton));

  // --- quick match: a rated game with anyone (docs/protocol.md, "Quick match") ---
  const players = h(
    "select#match-players",
    { "aria-label": t("room:players") },
    ...[2, 3, 4].map((n) => h("option", { value: String(n) }, t("home:nPlayers", { count: n }))),
  );
  const playNow = h("button.primary#play-now", { type: "button" }, t("home:playNow"));
  const cancelMatch = h("button#cancel-match", { type: "button", hidden: true }, t("home:cancel"));
  const matchStatus = h("span.muted#match-status", { "aria-live": "polite" });
  let waiting: AbortController | null = null;
  const stopWaiting = (note: string) => {
    waiting = null;
    busy(playNow, false);
    cancelMatch.hidden = true;
    matchStatus.textContent = note;
  };
  playNow.addEventListener("click", async () => {
    busy(playNow, true);
    // the seat takes the account's name: the one typed in is saved to it first
    await name();
    const me = currentAccount();
    if (!me) {
      toast(t("home:needAccount"), "bad");
      busy(playNow, false);
      return;
    }
    const aborter = new AbortController();
    waiting = aborter;
    cancelMatch.hidden = false;
    matchStatus.textContent = t("home:lookingForPlayers");
    try {
      const body = { edition: prefs.edition, players: Number(players.value) };
      // a long poll: it waits until seated; aborting it leaves the queue too
      const seat = await api("POST /api/quickmatch", { body, signal: aborter.signal });
      saveTicket(seat);
      go(`/room/${seat.code}`);
    } catch (e) {
      if (waiting !== aborter) return; // cancelled
      stopWaiting("");
      toast(e instanceof ApiError ? e.message : String(e), "bad");
    }
  });
  cancelMatch.addEventListener("click", () => {
    const aborter = waiting;
    stopWaiting(t("home:cancelled"));
    aborter?.abort();
    api("DELETE /api/quickmatch").catch(() => undefined);
  });

  const codeInput = h("input#join-code", {
    type: "text",
    placeholder: t("home:codeOrLink"),
    "aria-label": t("home:roomCodeOrLink"),
    autocapitalize: "characters",
  });
  const join = async () => {
    const raw = codeInput.value.trim();
    const m = raw.match(/room\/([A-Za-z0-9]+)/);
    const code = (m ? m[1] : raw).toUpperCase();
    if (!/^[A-Z0-9]{3,12}$/.test(code)) {
      toast(t("home:typeCode"), "bad");
      return;
    }
    await name();
    go(`/room/${code}`);
  };
  codeInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") void join();
  });

  const page = h(
    "main.home",
    {},
    h(
      "section.hero",
      {},
      // the logo above already says "Ubongo": the page's heading is for screen readers
      h("h1.visually-hidden", {}, "Ubongo"),
      h(
        "p.lead",
        {},
        `${t("home:lead")} `,
        h(
          "a.howto-link#howto-link",
          {
            href: "#howto",
            // no fragment navigation: it would be a history step, and the router redraws on those
            onclick: (e: Event) => {
              e.preventDefault();
              howTo.scrollIntoView({ behavior: "smooth", block: "start" });
              howTo.focus({ preventScroll: true });
            },
          },
          t("home:howToPlayLink"),
        ),
      ),
      runningGames(go),
    ),
    h(
      "section.panel.setup",
      {},
      h("h2", {}, t("home:chooseGame")),
      editionButtons,
      h("div.row.top", {}, h("label.field", {}, h("span", {}, t("home:yourName")), nameInput, nameError), sideLabel),
    ),
    h(
      "div.play-columns",
      {},
      h(
        "section.panel.solo",
        {},
        h("h2", {}, t("home:soloHeading")),
        h("div.row", {}, h("label.field", {}, h("span", {}, t("home:mode")), goal), amountLabel),
        soloButton,
        records,
        // your own puzzle, proven by the solver as you draw it (issue 27)
        h("p.editor-link", {}, h("a#editor-link", { href: "/create", "data-link": "" }, t("editor:homeLink"))),
      ),
      // a rated game with anyone, right after solo: on a phone it sat two screens down, below
      // the daily and the friends' rooms (Play solo keeps the first screen)
      h(
        "section.panel.quick",
        {},
        h("h2", {}, t("home:quickHeading")),
        h("p.muted", {}, t("home:quickAbout")),
        h("div.row.quick-match", {}, players, playNow, cancelMatch, matchStatus),
        ratings, // the ratings are quick match's: its games are the rated ones
      ),
      h(
        "section.panel.daily",
        {},
        h("h2", {}, t("home:dailyHeading")),
        h("p.muted", {}, t("home:dailyAbout")),
        dailyMine,
        dailyButton,
        dailyInfo,
      ),
      h(
        "section.panel.rooms",
        {},
        h("h2", {}, t("home:friendsHeading")),
        h("p.muted", {}, t("home:friendsAbout")),
        roomButton,
        h("div.join", {}, codeInput, h("button#join", { type: "button", onclick: join }, t("home:join"))),
        // the boxed game at a real table: the die, the hourglass and the score (issue 28)
        h("p.table-link", {}, h("a#table-link", { href: "/table", "data-link": "" }, t("table:homeLink"))),
        // two players racing on this one screen, offline too (issue 28)
        h("p.table-link", {}, h("a#versus-link", { href: "/versus", "data-link": "" }, t("versus:homeLink"))),
      ),
    ),
    friendsPanel(),
    openGames(),
    liveGames(),
    howTo,
    // below How to play: its list of arenas arrives late and would push that anchor away
    arenasPanel(go),
  );
  const playable = EDITIONS.filter((e) => e.playable);
  setEdition(playable.some((e) => e.name === prefs.edition) ? prefs.edition : playable[0].name);
  return page;
}

function drawHowTo(box: HTMLElement, edition: string): void {
  const info = editionInfo(edition);
  const pieces = h("div.howto-pieces");
  box.replaceChildren(
    h("h2", {}, t("home:howToPlay", { title: info.title })),
    h("ol", {}, ...info.howTo.map((t) => h("li", {}, t))),
    h("p", {}, rulesLink(info, t("home:allRules", { title: info.title }))),
    // with the boxed game or a printed deck: a task's solution by its printed code (issue 28)
    h("p", {}, h("a#solution-link", { href: "/solution", "data-link": "" }, t("solution:link"))),
    h("h3", {}, t("home:yourPieces")),
    pieces,
    h(
      "p.muted.keys",
      {},
      ...(info.layers > 1 // the 3D board (issue #7)
        ? [keys3d()]
        : [`${t("home:keysMouse")} `, t("home:keysKeyboard")]),
    ),
  );
  loadCatalogue(edition)
    .then((cat) => {
      for (const p of cat.pieces) {
        pieces.appendChild(
          h(
            "figure.howto-piece",
            {},
            pieceSvg(cat, p.id),
            h("figcaption", {}, cat.layers > 1 ? pieceName(cat, p.id) : `${p.id} · ${colourName(p.colour_name)}`),
          ),
        );
      }
    })
    .catch(() => pieces.append(h("p.muted", {}, t("home:piecesNotLoaded"))));
}

/** The games this browser holds a seat in that are still on (its seat tickets, asked of the
 * server): a way back to each, at the top of home. Tickets of rooms gone are forgotten. */
function runningGames(go: Navigate): HTMLElement {
  const box = h("div.running-games#running-games", { "aria-live": "polite" });
  for (const code of stored.seatCodes().slice(0, 8)) {
    const ticket = ticketFor(code);
    if (!ticket) continue;
    api("GET /api/rooms/{code}", { path: { code } })
      .then((room) => {
        if (room.phase !== "playing" || !room.seats[ticket.seat]) return;
        const title = editionInfo(room.settings.edition).title;
        const what =
          room.settings.mode === "solo" ? t("home:runningSolo", { title }) : t("home:runningGame", { title, code });
        box.append(
          h(
            "p.running-game",
            { "data-code": code },
            `${what} `,
            h(
              "a.button.primary.back-to-game",
              {
                href: `/room/${code}`,
                onclick: (e: Event) => {
                  e.preventDefault();
                  go(`/room/${code}`);
                },
              },
              t("home:backToGame"),
            ),
          ),
        );
      })
      .catch((e) => {
        if (e instanceof ApiError && e.status === 404) forgetTicket(code);
      });
  }
  return box;
}
