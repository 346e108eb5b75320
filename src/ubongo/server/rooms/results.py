"""A game's results, stored: a finished game before anybody is told it is over, and what an
endless run teaches as it is played.

A finished game is stored (tried again with a growing delay while the database refuses) before
``game_over`` announces it, and only once the room has been saved as over
(:mod:`.saved`), so that a restart meanwhile stores it too; until then the room refuses rematch
and settings.

A solo run faster than a human hand can place its pieces (``record_seconds_per_piece`` per
piece of each solved task) is stored marked implausible and left off the leaderboard.

An endless solo run (``docs/ratings.md``) is rated as it happens: each task it rates is learned
from (:meth:`..store.TaskRatingRepository.learn`, in a thread, in order), so a run has no end
but the player's, and one left without stopping has lost nothing it played. It is not a record
for the leaderboard.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from ubongo import rules

from ..config import ServerConfig
from ..online.arena_live import RaceOutcome
from ..online.daily import daily_facts, daily_result, day_of
from ..online.fairplay import (
    PAIR_WINDOW_SECONDS,
    pair_capped,
    seated_accounts,
    too_fast,
    too_fast_players,
    untraced,
)
from ..online.plausibility import Judgement, judge
from ..online.ratings import rate_game
from ..online.task_ratings import learn_task
from ..online.traces import TraceNote
from ..store import Backoff, DailyRecord, GameRecord, Held, SoloRecord, Store, TaskResult
from ..store.ratings import Moves, RatingRows
from ..store.review import HELD
from .chat import kept_lines
from .feed import RoomFeed
from .room import Room
from .timers import RoomTimers

log = logging.getLogger("ubongo.server")


class GameResults:
    """Owns the storing of a room's results: the finished games being stored before they are
    announced (``room.saving``) and, per room, the endless run's last task rating being
    stored."""

    def __init__(
        self, feed: RoomFeed, timers: RoomTimers, storage: Store | None, config: ServerConfig
    ) -> None:
        self.feed = feed
        self.timers = timers
        self.storage = storage
        self.clock = feed.clock
        self.config = config
        self.retry = Backoff(config.store_retry_seconds, config.store_retry_max_seconds)
        #: per room, the last endless task's rating being stored (each waits for the one before)
        self._learning: dict[str, asyncio.Task[None]] = {}
        #: games' chat being stored (kept, so that they are not collected)
        self._writing: set[asyncio.Future[None]] = set()
        #: where an arena race's end is scored, once its game is stored (the arenas' director)
        self.race_over: Callable[[RaceOutcome], Awaitable[None]] | None = None

    def game_over(self, room: Room) -> None:
        """The rules say the game is over: store it (off the event loop), then announce it.
        Until it is stored the room refuses rematch and settings."""
        game = room.game
        assert game is not None
        self.timers.cancel_game(room)
        room.phase = "over"
        now = self.clock.now()
        names = {s.player: s.name for s in room.occupied()}
        scores = game.scores()
        result: dict[str, Any] = {
            "winners": [int(w) for w in game.winners],
            "scores": {p: scores.get(p) for p in game.settings.players},
            "names": names,
        }
        record: dict[str, Any] | None = None
        checks = _Checks(room, game, self.config)
        if game.solo is not None:
            record = rules.solo_record(game)
            result["record"] = record
        elif room.settings.rated:
            result.update(_fair_play(room, checks))
        if room.traces:
            result["traces"] = room.traces  # private: the player's and the moderators'
        kind = (
            "race" if game.solo is None else "daily" if game.settings.puzzles == "daily" else "solo"
        )
        stored = replace(_game_record(room, game, result, now), held=checks.holds(kind))
        solo: SoloRecord | DailyRecord | None = None
        if record is not None and game.settings.puzzles == "daily":
            solo = _daily_record(room, game, record, now, checks)
        elif (
            record is not None
            and game.settings.solo_goal in ("time", "tasks")
            and record["complete"]  # a run stopped before its goal is its player's, not ranked
        ):
            solo = _solo_record(room, game, record, now, checks)
        room.record = record
        announce: dict[str, Any] = {
            "winners": result["winners"],
            "scores": {str(k): v for k, v in result["scores"].items()},
            "record": record,
            "daily": None,
            "ratings": None,
        }
        # stored before anybody hears the game is over (a killed server loses nothing that
        # was announced), in a thread so that other rooms' clocks and verdicts do not wait
        # for the disk, and only once the room is saved as over (so that a restart meanwhile
        # stores it); until then the room refuses rematch and settings
        loop = asyncio.get_running_loop()
        saved: asyncio.Future[None] = loop.create_future()
        self.feed.then(room, lambda: None if saved.done() else saved.set_result(None))
        room.saving = loop.create_task(
            self._store_and_announce(room, saved, stored, solo, announce)
        )

    async def _store_and_announce(
        self,
        room: Room,
        saved: asyncio.Future[None],
        stored: GameRecord,
        solo: SoloRecord | DailyRecord | None,
        announce: dict[str, Any],
    ) -> None:
        outcome: RaceOutcome | None = None
        try:
            while not saved.done():
                await asyncio.wait({saved}, timeout=5.0)
                if not self.feed.is_open(room):
                    return  # closed, or run by another process now (which stores it)
            rating: tuple[bool, str | None] = (False, "not stored: this server keeps no results")
            moved: Moves = {}
            if self.storage is not None:
                got = await self._store(room, self.storage, stored, solo)
                if got is None:
                    return
                room.game_id, rating, moved = got
            if isinstance(solo, DailyRecord):
                room.daily = announce["daily"] = daily_result(solo.facts, *rating)
            if stored.rated and self.storage is not None and room.game_id is not None:
                room.ratings = announce["ratings"] = {
                    str(seat): {"before": moved[account][0], "after": moved[account][1]}
                    for seat, account in seated_accounts(stored).items()
                    if account in moved
                }
            if room.settings.arena is not None:
                outcome = race_outcome(room, stored, room.game_id)
        finally:
            room.saving = None
        self._keep_chat(room)
        if self.feed.is_open(room):
            self.feed.hold(room)  # saved with its id before it is announced
            self.feed.publish(room, "game_over", {"game_id": room.game_id, **announce})
        # an arena's race is scored once its players have heard it is over (their next seat
        # comes after the end of this one)
        if outcome is not None and self.race_over is not None:
            await self.race_over(outcome)

    async def _store(
        self,
        room: Room,
        storage: Store,
        stored: GameRecord,
        solo: SoloRecord | DailyRecord | None,
    ) -> tuple[int, tuple[bool, str | None], Moves] | None:
        """Store the finished game (and its solo or daily record, in the same transaction),
        trying again while the database refuses; its id, a daily run's rating (rated, or
        why not) and a rated game's rating moves, or ``None`` if the room is no longer run
        here (it stays saved as over: whoever runs it next stores it)."""
        failures = 0
        rating: tuple[bool, str | None] = (False, None)
        moved: Moves = {}
        while True:
            try:
                if isinstance(solo, DailyRecord):
                    game_id, rating = await asyncio.to_thread(storage.daily.save, stored, solo)
                elif solo is not None:
                    game_id, _ = await asyncio.to_thread(storage.records.save, stored, solo)
                else:
                    game_id, moved = await asyncio.to_thread(self._save_game, storage, stored)
            except Exception as e:
                failures += 1
                delay = self.retry.delay(failures)
                log.error(
                    "room %s: the finished game could not be stored (%s); trying again in %.1f s",
                    room.code,
                    e,
                    delay,
                )
                await asyncio.sleep(delay)
                if not self.feed.is_open(room):
                    return None
                continue
            if failures:
                log.warning("room %s: stored game %d after %d tries", room.code, game_id, failures)
            return game_id, rating, moved

    def _keep_chat(self, room: Room) -> None:
        """The players' lines said around the game just stored (from its lobby to now), kept
        with it for its players' replay, off the event loop (lost if the write fails: logged).
        Lines said on its end screen from now on are kept one by one (:mod:`.chat`)."""
        lines = kept_lines(room)
        storage, game_id = self.storage, room.game_id
        if storage is None or game_id is None or not lines:
            return
        done = asyncio.get_running_loop().run_in_executor(None, storage.chat.add, game_id, lines)

        def finished(f: asyncio.Future[None]) -> None:
            self._writing.discard(f)
            if not f.cancelled() and f.exception() is not None:
                log.error("game %d: its chat was not stored: %s", game_id, f.exception())

        self._writing.add(done)
        done.add_done_callback(finished)

    def _save_game(self, storage: Store, stored: GameRecord) -> tuple[int, Moves]:
        """Store a finished game (in a thread); its id and, a rated one, its accounts' rating
        moves for its end screen, as the same transaction wrote them. A rated one's seats
        whose accounts have played each other in as many rated games as count a day are
        marked unrated first (``pair_cap``: docs/fair-play.md). The count is read just before
        the game is stored: two games of one pair ending in the same moment may both count."""
        if stored.rated:
            accounts = seated_accounts(stored).values()
            since = stored.finished_at - PAIR_WINDOW_SECONDS
            together = storage.ratings.games_together(accounts, since)
            stored = pair_capped(stored, together, self.config.rated_games_per_pair)
        moved: Moves = {}

        def rate(game: GameRecord, rows: RatingRows) -> None:
            rate_game(game, rows)
            moved.update(rows.moves)

        return storage.games.save(stored, rate), moved

    def learn(self, room: Room, ev: rules.Event) -> None:
        """Store what an endless task taught (the task's rating, the account's), in a thread,
        after the room's earlier ratings: a rating is only ever replaced by a later one."""
        if self.storage is None or room.game is None:
            return
        d = ev.data
        seat = room.seats[int(d["player"])]
        result = TaskResult(
            fingerprint=str(d["fingerprint"]),
            edition=room.game.settings.edition,
            prior=_task_prior(room.game, d),
            shift=float(d["shift"]),
            score=float(d["score"]),
            before=_triple(d["before"]),
            after=_triple(d["after"]),
            at=ev.at,
            account=seat.account if seat is not None else None,
        )
        storage = self.storage
        previous = self._learning.get(room.code)

        async def learn() -> None:
            if previous is not None:
                await asyncio.wait({previous})
            try:
                await asyncio.to_thread(storage.task_ratings.learn, result, learn_task)
            except Exception:
                log.exception("room %s: a task's rating could not be stored", room.code)
            finally:
                if self._learning.get(room.code) is task:
                    del self._learning[room.code]

        task = asyncio.get_running_loop().create_task(learn())
        self._learning[room.code] = task


class _Checks:
    """The fair-play checks of a finished game's people (docs/fair-play.md): who finished a
    task faster than a hand, and whose finishes lack a consistent play trace."""

    def __init__(self, room: Room, game: rules.Game, config: ServerConfig) -> None:
        self.people = {s.player for s in room.occupied() if s.kind == "person"}
        per_piece = config.record_seconds_per_piece
        self.too_fast_tasks = too_fast(game, per_piece) if game.solo is not None else []
        self.fast = too_fast_players(game, per_piece) & self.people  # a bot's speed is its own
        notes = [TraceNote.from_json(n) for n in room.traces]
        self.untraced = untraced(game, notes, self.people) if config.require_traces else {}
        self.accounts = {s.player: s.account for s in room.occupied() if s.kind == "person"}
        self.held: dict[str, Judgement] = {}
        for player in self.people - set(self.untraced) - self.fast:
            judged = judge([n for n in notes if n.player == player and n.fault is None])
            if judged.held_at(config.hold_score):
                self.held[player] = judged

    def unrated(self) -> dict[str, str]:
        """The people not rated (or not ranked), and why."""
        held = dict.fromkeys(self.held, "held")
        return {**held, **self.untraced, **{player: "too_fast" for player in self.fast}}

    def holds(self, kind: str) -> tuple[Held, ...]:
        """The held results to store with the game (a person with an account: a guest's
        result is never rated nor ranked anyway)."""
        return tuple(
            Held(account, int(player), kind, judged.score, judged.reasons)
            for player, judged in sorted(self.held.items())
            if (account := self.accounts.get(player)) is not None
        )


def race_outcome(room: Room, stored: GameRecord, game_id: int | None) -> RaceOutcome | None:
    """An arena race's end (docs/arenas.md): each person's place in the round's finishing
    order among the seats that count (a bot counts; a person who left, or whose result fair
    play did not count, is placed nowhere), and their side."""
    game, st = room.game, room.settings
    if game is None or game.round is None or st.arena is None or st.arena_race is None:
        return None
    left = {str(i) for i in stored.result.get("left", [])}
    uncounted = left | set(stored.result.get("unrated", {}))
    order = [p for p in game.round.finish_order if p not in uncounted]
    places: dict[int, int | None] = {}
    sides: dict[int, str] = {}
    gone: set[int] = set()
    for seat in room.occupied():
        if seat.account is None:  # a bot (a person replaced by one keeps their account)
            continue
        places[seat.account] = order.index(seat.player) + 1 if seat.player in order else None
        sides[seat.account] = game.player(seat.player).side
        if seat.player in left:
            gone.add(seat.account)
    return RaceOutcome(
        st.arena, st.arena_race, places, sides, frozenset(gone), game_id, stored.finished_at
    )


def _fair_play(room: Room, checks: _Checks) -> dict[str, Any]:
    """What a rated race's result says beside its ranking (docs/fair-play.md): the seats whose
    person left (placed last in the ratings) and the seats not rated, with why."""
    return {
        "left": [s.index for s in room.occupied() if s.replaced],
        "unrated": dict(sorted(checks.unrated().items())),
    }


def _game_record(room: Room, game: rules.Game, result: dict[str, Any], now: float) -> GameRecord:
    """A finished game as stored: settings, seed, action log, result and players."""
    game_json = rules.game_to_json(game)
    return GameRecord(
        room=room.code,
        edition=game.settings.edition,
        mode=game.settings.mode,
        variant=game.settings.variant,
        settings={"room": room.settings.to_json(), "rules": game_json["game"]["settings"]},
        seed=int(room.seed or 0),
        events=[rules.action_to_json(a) for a in game.log],
        result={**result, "deck": game_json["deck"], "events": _events_json(game)},
        players=[
            {
                "seat": s.index,
                "name": s.name,
                "kind": s.kind,
                "level": s.level,
                "account": s.account,
            }
            for s in room.occupied()
        ],
        started_at=room.started_at or now,
        finished_at=now,
        rated=room.settings.rated and game.solo is None and len(room.occupied()) > 1,
    )


def _solo_record(
    room: Room, game: rules.Game, record: dict[str, Any], now: float, checks: _Checks
) -> SoloRecord:
    """A finished solo run as stored for the leaderboard and personal bests (marked
    implausible if a task was solved faster than a hand can place its pieces, or without a
    consistent play trace)."""
    person = room.occupied()[0]
    return SoloRecord(
        game_id=0,
        name=person.name,
        edition=game.settings.edition,
        goal=str(record["goal"]),
        amount=int(record["target"]),
        side=game.settings.level_of(person.player),
        score=int(record["solved"]),
        seconds=float(record["seconds"]),
        finished_at=now,
        plausible=not checks.too_fast_tasks and not checks.untraced and not checks.held,
        account=person.account,
        hints=int(record["hints"]),
        skipped=int(record["skipped"]) + int(record["gave_up"]),
    )


def _daily_record(
    room: Room, game: rules.Game, record: dict[str, Any], now: float, checks: _Checks
) -> DailyRecord:
    """A finished daily run as stored; whether it is rated is decided as it is stored (the
    account's first run of the day), except for what is known now."""
    person = room.occupied()[0]
    unrated = None
    if checks.too_fast_tasks:
        unrated = "a task was solved faster than a hand can place its pieces"
    elif checks.untraced:
        unrated = "a task was solved without a consistent play trace"
    elif checks.held:
        unrated = HELD
    elif room.started_at is not None and day_of(room.started_at).isoformat() != game.settings.day:
        unrated = "played after its day"
    elif int(record["solved"]) == 0:
        # every task put aside: the day's run all the same (it saw the tasks), not ranked
        unrated = "no task solved"
    return DailyRecord(
        game_id=0,
        name=person.name,
        account=person.account,
        facts=daily_facts(game, record),
        finished_at=now,
        unrated=unrated,
    )


def _triple(value: Any) -> tuple[float, float, float]:
    r, rd, vol = (float(v) for v in value)
    return (r, rd, vol)


def _task_prior(game: rules.Game, data: dict[str, Any]) -> tuple[float, float, float]:
    """The model's rating of the task with its side's whole limit (what is stored)."""
    r, rd, vol = _triple(data["task"])
    return (r - float(data["shift"]), rd, vol)


def _events_json(game: rules.Game) -> list[dict[str, Any]]:
    return [{"kind": e.kind, "at": e.at, "data": e.data} for e in game.events]
