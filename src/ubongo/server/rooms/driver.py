"""The game driver: a room's game run by the rules, from its start to its stored end.

The server only transports, times and stores: every game decision comes from
:mod:`ubongo.rules`. :class:`GameDriver` turns a command (a submission, a skip, the clock, a
bot's move) into a rules action, applies it, publishes the events it caused in the protocol's
words (:mod:`..protocol.table`), arms the next timers, and at the end stores the game before
anybody is told it is over.

Store, then answer: every action the rules apply holds the room (:meth:`.feed.RoomFeed.hold`)
so that the verdict and the events it caused are sent only once the room has been saved as of
them (:mod:`.saved`): a crash right after a player hears "covered" cannot lose the
finish. A finished game is stored (tried again with a growing delay while the database
refuses) before ``game_over`` announces it; meanwhile the saved room holds the finished game,
so a restart stores it too.

A solo run faster than a human hand can place its pieces (``record_seconds_per_piece`` per
piece of each solved task) is stored marked implausible and left off the leaderboard.

An endless solo run (``docs/ratings.md``) starts from the account's stored rating (a seat
without an account: a new player's), and each task it rates is learned from as it happens
(:meth:`..store.TaskRatingRepository.learn`, in a thread, in order): a run has no end but the
player's, and one left without stopping has lost nothing it played. It is not a record for
the leaderboard.

Player ids given to the rules are the seat numbers as strings (``"0"`` .. ``"3"``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ubongo import rules
from ubongo.board import Area, Placement, Verdict
from ubongo.geometry import Cell
from ubongo.pieces import Piece
from ubongo.puzzles.hints import Hint, HintError, Solved, Stuck, hint
from ubongo.rules import bots
from ubongo.rules.actions import placement_to_json
from ubongo.rules.events import EventKind
from ubongo.rules.state import Entry

from ..config import ServerConfig
from ..online.daily import daily_facts, daily_result, day_of, today
from ..online.ratings import rate_game
from ..online.task_ratings import learn_task
from ..protocol import table
from ..protocol.incoming import ProtocolError
from ..store import Backoff, DailyRecord, GameRecord, SoloRecord, Store, TaskResult
from .cards import CardMaker
from .feed import RoomFeed
from .room import Room, Seat, need_host, need_phase, need_seat
from .timers import ClockCall, RoomTimers

log = logging.getLogger("ubongo.server")


class GameDriver:
    """Owns a room's game: ``room.game`` (the rules' state), the turn and round numbers, the
    round's shown solutions, the stored game's id and the solo record."""

    def __init__(
        self,
        feed: RoomFeed,
        timers: RoomTimers,
        storage: Store | None,
        config: ServerConfig | None = None,
    ) -> None:
        self.feed = feed
        self.timers = timers
        self.storage = storage
        self.clock = feed.clock
        self.config = config or ServerConfig()
        self.retry = Backoff(self.config.store_retry_seconds, self.config.store_retry_max_seconds)
        #: makes a fresh game's next cards in a worker process
        self.cards = CardMaker()
        #: per room, the last endless task's rating being stored (each waits for the one before)
        self._learning: dict[str, asyncio.Task[None]] = {}

    # --- commands ---------------------------------------------------------------------------

    def start(self, room: Room, seat: Seat | None) -> None:
        """The host starts the game: everybody ready, a player count the edition allows."""
        need_host(room, seat)
        need_phase(room, "lobby")
        assert seat is not None
        taken = room.occupied()
        waiting = [s for s in taken if s.kind == "person" and not s.ready and s is not seat]
        if waiting:
            names = ", ".join(s.name for s in waiting)
            raise ProtocolError("not_ready", f"waiting for {names} to be ready")
        st = room.settings
        lo, hi = (1, 1) if st.solo else st.record.players
        if not lo <= len(taken) <= hi:
            raise ProtocolError(
                "bad_seats", f"{st.edition} {st.mode} is for {lo}-{hi} players, not {len(taken)}"
            )
        players = tuple(s.player for s in taken)
        default = st.side_or_default
        levels = tuple(s.side or default for s in taken)
        seed = st.seed if st.seed is not None else secrets.randbits(48)
        # an endless run starts from the account's rating: read (off the loop) before its
        # first task is chosen; the settings are checked now with a new player's
        account = taken[0].account if st.solo and st.solo_goal == "endless" else None
        try:
            # the deck the settings name: the shipped one, (fresh) cards made for this game, or
            # the day's tasks (made when the room was created: ubongo.puzzles.daily caches them)
            settings = st.rules_settings(players, levels, day=today().isoformat())
            game = rules.new_game(settings, seed)
        except rules.SettingsError as e:
            raise ProtocolError("bad_setting", str(e)) from None
        now = self.clock.now()
        room.phase = "playing"
        room.game = game
        room.seed = seed
        room.started_at = now
        room.turn = 0
        room.round_no = 0
        room.solutions = {}
        room.game_id = None
        room.record = None
        for s in taken:
            s.ready = False
        self.feed.hold(room)  # the game's start is told once it is saved
        self.feed.publish(room, "game_started", {"seed": seed}, at=now)
        making = self.cards.ahead(game)
        if making is None and (account is None or self.storage is None):
            self._act(room, rules.StartRound(now))
            return
        # a fresh game's first cards are made off the event loop; the round starts when they
        # are (tens of milliseconds: bench/generate.py --first-task)
        room.preparing = asyncio.get_running_loop().create_task(
            self._first_round(room, game, making, account)
        )

    async def _first_round(
        self,
        room: Room,
        game: rules.Game,
        making: asyncio.Future[None] | None,
        account: int | None = None,
    ) -> None:
        if account is not None and self.storage is not None:
            try:
                rating = await asyncio.to_thread(
                    self.storage.task_ratings.of_player, account, game.settings.edition
                )
            except Exception:
                log.exception("room %s: the player's rating could not be read", room.code)
                rating = None
            if rating is not None and room.game is game and game.round is None:
                # the same deck (its cards are being made), the account's rating
                game = rules.new_game(replace(game.settings, rating=rating), game.seed, game.deck)
                room.game = game
        if making is not None:
            await making
        if room.game is game and game.round is None and room.phase == "playing":
            self._act(room, rules.StartRound(self.clock.now()))

    def submit(
        self,
        room: Room,
        seat: Seat | None,
        round_no: int,
        placements: list[Placement],
        now: float,
        on_accept: Callable[[], None] | None = None,
    ) -> Verdict | None:
        """An "Ubongo!" received at ``now``. Returns ``None`` if it finished the task (and
        ``on_accept`` is called once the room is saved with the finish, before the events it
        causes are delivered, so the sender hears its verdict first), else the cover check's
        verdict; raises :class:`ProtocolError` for a message that cannot be a submission now
        and :class:`~ubongo.rules.RuleError` for one the rules refuse (too late, already
        finished)."""
        seat = self._need_round(room, seat, round_no)
        action = rules.Submit(seat.player, tuple(placements), now)
        try:
            self._act(room, action, on_accept)
        except rules.WrongArrangement as e:
            return e.verdict
        except rules.NoRound:
            # the round named is this one (checked above) and it is over: its time ran out
            # before this message arrived (docs/protocol.md, "Clock")
            raise rules.TooLate("time ran out before this submission") from None
        return None

    def skip(self, room: Room, seat: Seat | None, round_no: int, now: float) -> None:
        """A player gives up their task (solo: draws the next one)."""
        seat = self._need_round(room, seat, round_no)
        self._act(room, rules.SkipTask(seat.player, now))

    def stop(self, room: Room, seat: Seat | None, round_no: int, now: float) -> None:
        """An endless or practice run ends now (``stop``; an endless run ends only so)."""
        seat = self._need_round(room, seat, round_no)
        self._act(room, rules.StopRun(seat.player, now))

    def give_up(self, room: Room, seat: Seat | None, round_no: int, now: float) -> None:
        """Solo and practice: the player gives this task up; the ``gave_up`` event shows a
        solution of it, and the next task is dealt."""
        seat = self._need_round(room, seat, round_no)
        _need_help(room)
        self._act(room, rules.GiveUp(seat.player, now))

    def hint(
        self,
        room: Room,
        seat: Seat | None,
        round_no: int,
        placements: list[Placement],
        now: float,
        reply: Callable[[dict[str, Any]], None],
    ) -> None:
        """Solo and practice: the next piece to put down after ``placements`` (or which to
        move), computed here (:mod:`ubongo.puzzles.hints`) and sent to the asker by ``reply``
        once the rules have charged the hint (:class:`~ubongo.rules.Hint`, in the log) and the
        room is saved. Placements that cannot be a start (``bad_placement``) cost nothing."""
        seat = self._need_round(room, seat, round_no)
        _need_help(room, hint=True)
        game = room.game
        assert game is not None
        entry = game.round.entry(seat.player) if game.round is not None else None
        if entry is None or not entry.active or game.phase != "playing":
            # the rules say why (already finished, too late ...)
            self._act(room, rules.Hint(seat.player, now))
            return
        side, task = rules.entry_task(game, entry)
        pieces = game.deck.task_pieces(task)
        found = _hint_for(side.area, pieces, placements)
        answer = _hint_answer(round_no, found, pieces)
        if isinstance(found, Solved):
            reply(answer)  # nothing to hint: no cost
            return

        def charged() -> None:
            hinted = [e for e in (room.game.events if room.game else []) if e.kind == "hinted"]
            reply({**answer, "penalty": hinted[-1].data["penalty"] if hinted else 0.0})

        self._act(room, rules.Hint(seat.player, now), on_accept=charged)

    def _need_round(self, room: Room, seat: Seat | None, round_no: int) -> Seat:
        seat = need_seat(seat)
        need_phase(room, "playing")
        if round_no != room.round_no:
            raise ProtocolError("stale_round", f"this is round {room.round_no}, not {round_no}")
        return seat

    # --- what the timers ask for --------------------------------------------------------------

    def clock_rang(self, room: Room, call: ClockCall) -> None:
        """The round's clock: the next round starts, or the rules take their next step."""
        now = self.clock.now()
        game = room.game
        busy = room.preparing is not None and not room.preparing.done()
        if call == "start" and game is not None and not busy:
            # the round's cards not made yet (the worker is behind): the round starts when
            # they are, rather than making them here while every room waits
            waiting = self.cards.ready(game)
            if waiting is not None:
                room.preparing = asyncio.get_running_loop().create_task(
                    self._start_when_made(room, game, waiting)
                )
                return
        try:
            if call == "start":
                self._act(room, rules.StartRound(now))
            else:
                self._act(room, rules.Advance(now))
        except rules.RuleError:
            log.exception("room %s: the clock's %s was refused", room.code, call)

    async def _start_when_made(
        self, room: Room, game: rules.Game, waiting: asyncio.Future[None]
    ) -> None:
        try:
            await waiting
        finally:
            room.preparing = None
        if room.game is game and game.phase == "waiting" and self.feed.is_open(room):
            # (cards the worker failed to make are made by the game itself when shown)
            try:
                self._act(room, rules.StartRound(self.clock.now()))
            except rules.RuleError:
                log.exception("room %s: the clock's start was refused", room.code)

    def bot_moves(self, room: Room, seat: Seat, _turn: int) -> None:
        """A bot's thinking time is up: it submits the arrangement the rules know."""
        game = room.game
        if game is None or game.round is None or room.seats[seat.index] is not seat:
            return
        entry = game.round.entry(seat.player)
        if entry is None or not entry.active:
            return
        placements = list(bots.arrangement(game.deck, entry.card, entry.side, entry.key))
        try:
            self.submit(room, seat, room.round_no, placements, self.clock.now())
        except (rules.RuleError, ProtocolError) as e:
            log.info("room %s: bot %s was refused: %s", room.code, seat.index, e)

    # --- applying the rules -------------------------------------------------------------------

    def _act(
        self, room: Room, action: rules.Action, on_accept: Callable[[], None] | None = None
    ) -> None:
        """Apply an action with the rules, publish what it caused, set the next timers; the
        verdict (``on_accept``) and the events are delivered once the room is saved.

        A :class:`~ubongo.rules.RuleError` propagates with the room unchanged."""
        game = room.game
        assert game is not None
        new = rules.apply(game, action)
        if new is game:
            if on_accept is not None:
                on_accept()
            return
        # store, then answer: nothing this action causes is told before it is saved
        self.feed.hold(room)
        if on_accept is not None:
            self.feed.then(room, on_accept)
        was_phase = game.phase
        room.game = new
        new_turn, awards = self._publish_events(room, new.events[len(game.events) :])
        ended = was_phase == "playing" and new.phase != "playing" and new.round is not None
        if ended and new.round is not None and new.round.kind != "solo":
            self._round_ended(room, new, awards)
        if new.phase == "over":
            self.game_over(room)
            return
        if new_turn:
            self.timers.schedule_bots(room)
        self.timers.schedule_clock(room)
        # the next cards of a fresh game, made ahead in a worker while this round is played
        self.cards.ahead(new)

    def _publish_events(self, room: Room, events: list[rules.Event]) -> tuple[bool, dict[str, Any]]:
        """Publish the rules' new events; whether a turn began, and the round's awards."""
        new_turn = False
        awards: dict[str, Any] = {}
        for ev in events:
            if ev.kind in (EventKind.ROUND_STARTED, EventKind.TASK_DRAWN):
                room.turn += 1
                new_turn = True
                if ev.kind == EventKind.ROUND_STARTED:
                    room.round_no += 1
                    room.solutions = {}
                    room.next_round_at = None
            if ev.kind == EventKind.TASK_RATED:
                self._learn(room, ev)
            got = table.awards(ev)
            if got is not None:
                awards = got
            out = table.event(ev, room.round_no)
            if out is not None:
                if ev.kind == EventKind.GAVE_UP and "card" in ev.data:
                    out[1].update(_given_up(room, ev))
                self.feed.publish(room, out[0], out[1], at=ev.at)
        return new_turn, awards

    def _learn(self, room: Room, ev: rules.Event) -> None:
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

    def _round_ended(self, room: Room, game: rules.Game, awards: dict[str, Any]) -> None:
        r = game.round
        assert r is not None
        self.timers.cancel_bots(room)
        solutions: dict[str, list[dict[str, Any]]] = {}
        for e in r.entries:
            if e.finished_at is None:
                placements = list(bots.arrangement(game.deck, e.card, e.side, e.key))
                solutions[e.player] = [placement_to_json(p) for p in placements]
        room.solutions = solutions
        if game.phase == "waiting":
            room.next_round_at = (r.ended_at or self.clock.now()) + room.settings.between_seconds
        self.feed.publish(
            room,
            "round_ended",
            {
                "round": room.round_no,
                "kind": r.kind,
                "finish_order": [int(p) for p in r.finish_order],
                "awards": awards,
                "solutions": solutions,
                "next_round_at": self.clock.ms(room.next_round_at),
            },
            at=r.ended_at,
        )

    # --- the end ----------------------------------------------------------------------------

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
        if game.solo is not None:
            record = rules.solo_record(game)
            result["record"] = record
        stored = _game_record(room, game, result, now)
        solo: SoloRecord | DailyRecord | None = None
        per_piece = self.config.record_seconds_per_piece
        if record is not None and game.settings.puzzles == "daily":
            solo = _daily_record(room, game, record, now, per_piece)
        elif record is not None and game.settings.solo_goal not in ("practice", "endless"):
            solo = _solo_record(room, game, record, now, per_piece)
        room.record = record
        announce: dict[str, Any] = {
            "winners": result["winners"],
            "scores": {str(k): v for k, v in result["scores"].items()},
            "record": record,
            "daily": None,
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
        try:
            while not saved.done():
                await asyncio.wait({saved}, timeout=5.0)
                if not self.feed.is_open(room):
                    return  # closed, or run by another process now (which stores it)
            rating: tuple[bool, str | None] = (False, "not stored: this server keeps no results")
            if self.storage is not None:
                got = await self._store(room, self.storage, stored, solo)
                if got is None:
                    return
                room.game_id, rating = got
            if isinstance(solo, DailyRecord):
                room.daily = announce["daily"] = daily_result(solo.facts, *rating)
        finally:
            room.saving = None
        if self.feed.is_open(room):
            self.feed.hold(room)  # saved with its id before it is announced
            self.feed.publish(room, "game_over", {"game_id": room.game_id, **announce})

    async def _store(
        self,
        room: Room,
        storage: Store,
        stored: GameRecord,
        solo: SoloRecord | DailyRecord | None,
    ) -> tuple[int, tuple[bool, str | None]] | None:
        """Store the finished game (and its solo or daily record, in the same transaction),
        trying again while the database refuses; its id and a daily run's rating (rated, or
        why not), or ``None`` if the room is no longer run here (it stays saved as over:
        whoever runs it next stores it)."""
        failures = 0
        rating: tuple[bool, str | None] = (False, None)
        while True:
            try:
                if isinstance(solo, DailyRecord):
                    game_id, rating = await asyncio.to_thread(storage.daily.save, stored, solo)
                elif solo is not None:
                    game_id, _ = await asyncio.to_thread(storage.records.save, stored, solo)
                else:
                    game_id = await asyncio.to_thread(storage.games.save, stored, rate_game)
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
            return game_id, rating


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
    room: Room, game: rules.Game, record: dict[str, Any], now: float, per_piece: float
) -> SoloRecord:
    """A finished solo run as stored for the leaderboard and personal bests (marked
    implausible if a task was solved faster than a hand can place its pieces)."""
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
        plausible=not too_fast(game, per_piece),
        account=person.account,
        hints=int(record["hints"]),
        skipped=int(record["skipped"]) + int(record["gave_up"]),
    )


def _daily_record(
    room: Room, game: rules.Game, record: dict[str, Any], now: float, per_piece: float
) -> DailyRecord:
    """A finished daily run as stored; whether it is rated is decided as it is stored (the
    account's first run of the day), except for what is known now."""
    person = room.occupied()[0]
    unrated = None
    if too_fast(game, per_piece):
        unrated = "a task was solved faster than a hand can place its pieces"
    elif room.started_at is not None and day_of(room.started_at).isoformat() != game.settings.day:
        unrated = "played after its day"
    return DailyRecord(
        game_id=0,
        name=person.name,
        account=person.account,
        facts=daily_facts(game, record),
        finished_at=now,
        unrated=unrated,
    )


def _need_help(room: Room, hint: bool = False) -> None:
    """Hints and giving up are for solo and practice runs; an endless run may give a task up
    (a lost task) but takes no hints (its rating would mean nothing)."""
    st = room.settings
    if hint and st.solo_goal == "endless" and st.solo:
        raise ProtocolError("no_help", "an endless run is rated: no hints (give the task up)")
    if not st.helped:
        what = "the daily challenge" if st.daily else "a race"
        raise ProtocolError(
            "no_help", f"hints and giving up are for solo and practice runs, not {what}"
        )


def _hint_for(
    area: Area, pieces: list[Piece], placements: list[Placement]
) -> Hint | Stuck | Solved:
    """The hint for these placements (``bad_placement`` for ones that cannot be a start)."""
    by_id = {p.id: p for p in pieces}
    placed: dict[str, frozenset[Cell]] = {}
    for pl in placements:
        piece = by_id.get(pl.piece)
        if piece is None:
            raise ProtocolError("bad_placement", f"piece {pl.piece} is not one of this task's")
        if pl.piece in placed:
            raise ProtocolError("bad_placement", f"piece {pl.piece} is placed twice")
        if pl.transform not in piece.allowed_transforms:
            raise ProtocolError("bad_placement", f"piece {pl.piece} has no such turn")
        if len(pl.offset) != piece.lattice.translation_dims:
            raise ProtocolError("bad_placement", f"piece {pl.piece}'s position has a wrong shape")
        placed[pl.piece] = pl.cells(piece)
    try:
        return hint(area, pieces, placed)
    except HintError as e:
        raise ProtocolError("bad_placement", str(e)[:200]) from None


def _hint_answer(
    round_no: int, found: Hint | Stuck | Solved, pieces: list[Piece]
) -> dict[str, Any]:
    """The ``hint`` message for what :func:`ubongo.puzzles.hints.hint` found (no cost yet)."""
    base: dict[str, Any] = {"type": "hint", "round": round_no, "penalty": 0.0}
    if isinstance(found, Solved):
        return {**base, "placement": None, "move": [], "solved": True, "message": "Ubongo!"}
    if isinstance(found, Stuck):
        names = ", ".join(found.move)
        return {
            **base,
            "placement": None,
            "move": list(found.move),
            "solved": False,
            "message": f"This cannot be finished as it is: move {names}.",
        }
    piece = next(p for p in pieces if p.id == found.piece)
    return {
        **base,
        "placement": placement_to_json(Placement.covering(piece, found.cells)),
        "move": [],
        "solved": False,
        "message": f"Try piece {found.piece} here.",
    }


def _given_up(room: Room, ev: rules.Event) -> dict[str, Any]:
    """What a solo ``gave_up`` event shows: the task given up and an arrangement of it."""
    game = room.game
    assert game is not None
    player = str(ev.data["player"])
    side = str(ev.data.get("side") or game.settings.level_of(player))
    entry = Entry(player, int(ev.data["card"]), side, str(ev.data["key"]))
    placements = bots.arrangement(game.deck, entry.card, entry.side, entry.key)
    return {
        "task": rules.task_json(game, entry),
        "solution": [placement_to_json(p) for p in placements],
    }


def too_fast(game: rules.Game, per_piece: float) -> list[int]:
    """The solo tasks (by the order they were solved, from 0) solved in less time than
    ``per_piece`` seconds for each of their pieces: faster than a human hand places them.

    A task's time runs from when it was dealt (the round's start, or the previous task
    solved or put aside) to its ``finished`` event, both in the rules' own times."""
    fast: list[int] = []
    dealt_at: float | None = None
    solved = 0
    for ev in game.events:
        if ev.kind in (EventKind.ROUND_STARTED, EventKind.TASK_DRAWN):
            dealt_at = ev.at
        elif ev.kind == EventKind.FINISHED and dealt_at is not None:
            player = str(ev.data["player"])
            side_name = ev.data.get("side") or game.settings.level_of(player)
            side = rules.card(game, int(ev.data["card"])).side(side_name)
            pieces = len(side.task(ev.data["key"]).pieces)
            if ev.at - dealt_at < pieces * per_piece:
                fast.append(solved)
            solved += 1
            dealt_at = ev.at
    return fast


def _triple(value: Any) -> tuple[float, float, float]:
    r, rd, vol = (float(v) for v in value)
    return (r, rd, vol)


def _task_prior(game: rules.Game, data: dict[str, Any]) -> tuple[float, float, float]:
    """The model's rating of the task with its side's whole limit (what is stored)."""
    r, rd, vol = _triple(data["task"])
    return (r - float(data["shift"]), rd, vol)


def _events_json(game: rules.Game) -> list[dict[str, Any]]:
    return [{"kind": e.kind, "at": e.at, "data": e.data} for e in game.events]
