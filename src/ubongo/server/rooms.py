"""Rooms: seats and tokens, the lobby, and the running of a game by the rules.

The server only transports, times and stores: every game decision comes from
:mod:`ubongo.rules`. A :class:`Room` holds the seats and the rules' :class:`~ubongo.rules.Game`;
:class:`Rooms` handles every command (from a WebSocket, from HTTP, from a bot or a timer),
applies it, and publishes what changed through the :class:`~ubongo.server.bus.RoomHub`.

Everything here runs on the event loop and never awaits in the middle of a change, so no two
commands interleave: the order in which commands are handled is the order of their receive
times, which is how finish order is decided.

Player ids given to the rules are the seat numbers as strings (``"0"`` .. ``"3"``).
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import secrets
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from ubongo import editions, rules
from ubongo.board import Placement, Verdict
from ubongo.puzzles.deck import standard_deck
from ubongo.rules import bots
from ubongo.rules.actions import placement_to_json

from . import table
from .bus import Event, RoomHub
from .clock import Clock
from .protocol import ProtocolError, SettingsPatch
from .storage import GameRecord, SoloRecord, Storage

log = logging.getLogger("ubongo.server")

SEATS = 4
#: join codes: no vowels (no words), no 0/O, 1/I/L look-alikes
CODE_ALPHABET = "BCDFGHJKMNPQRSTVWXZ23456789"
CODE_LENGTH = 5

Phase = Literal["lobby", "playing", "over"]


def clean_name(name: str) -> str:
    """A display name: control characters removed, spaces collapsed, 1-32 characters.

    >>> clean_name("  Ada\\u0000  Lovelace ")
    'Ada Lovelace'
    """
    text = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")
    text = re.sub(r"\s+", " ", text).strip()[:32]
    if not text:
        raise ProtocolError("bad_message", "a name needs at least one visible character")
    return text


@dataclass
class RoomSettings:
    """What the host chose (``None``: the rules' default). See ``docs/protocol.md``."""

    edition: str = field(default_factory=lambda: editions.names()[0])
    mode: str = "race"
    variant: str = "standard"
    side: str | None = None
    rounds: int | None = None
    hourglass_seconds: float | None = None
    countdown_seconds: float | None = None
    round_limit_seconds: float | None = 300.0
    solo_goal: str = "time"
    #: minutes or tasks; ``None``: the edition's default for the goal (Trigo: 20 minutes)
    solo_amount: int | None = None
    seat_hold_seconds: float = 60.0
    between_seconds: float = 6.0
    seed: int | None = None

    def patched(self, patch: SettingsPatch) -> RoomSettings:
        changes = {k: v for k, v in patch.model_dump(exclude_unset=True).items()}
        out = replace(self, **changes)
        if "edition" in changes and changes["edition"] != self.edition:
            # a side or a timer of another edition means nothing here
            for name in ("side", "hourglass_seconds", "countdown_seconds"):
                if name not in changes:
                    setattr(out, name, None)
        return out

    def to_json(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["side"] = self.side_or_default
        data["solo_amount"] = self.solo_amount_or_default
        return data

    @property
    def record(self) -> editions.EditionRecord:
        return editions.record(self.edition)

    @property
    def side_or_default(self) -> str:
        return self.side if self.side is not None else self.record.default_side

    @property
    def solo_amount_or_default(self) -> int:
        if self.solo_amount is not None:
            return self.solo_amount
        solo = self.record.solo
        return solo.tasks if self.solo_goal == "tasks" else solo.minutes

    @property
    def solo(self) -> bool:
        return self.mode == "solo"

    def rules_settings(self, players: tuple[str, ...], levels: tuple[str, ...]) -> rules.Settings:
        own = self.record.own_sides
        return rules.Settings(
            edition=self.edition,
            players=players,
            mode="solo" if self.solo else "race",
            side=None if own else self.side,
            levels=levels if own else (),
            rounds=self.rounds,
            hourglass=self.hourglass_seconds,
            countdown=self.countdown_seconds,
            variant="only-first" if self.variant in ("only-first", "expert") else "standard",
            round_limit=self.round_limit_seconds,
            playoff_limit=self.round_limit_seconds,
            solo_goal="tasks" if self.solo_goal == "tasks" else "time",
            solo_target=self.solo_amount,
        )


@dataclass
class Seat:
    index: int
    kind: Literal["person", "bot"]
    name: str
    token: str = ""
    level: str | None = None
    side: str | None = None
    ready: bool = False
    connections: int = 0
    held_until: float | None = None
    hold_timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    replaced: bool = False

    @property
    def player(self) -> str:
        return str(self.index)

    def to_json(self, clock: Clock, default_side: str) -> dict[str, Any]:
        return {
            "seat": self.index,
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "side": self.side or default_side,
            "ready": self.ready or self.kind == "bot",
            "connected": self.kind == "bot" or self.connections > 0,
            "held_until": clock.ms(self.held_until),
            "replaced": self.replaced,
        }


@dataclass
class Room:
    code: str
    settings: RoomSettings
    invite: str
    seats: list[Seat | None] = field(default_factory=lambda: [None] * SEATS)
    host: int | None = 0
    phase: Phase = "lobby"
    game: rules.Game | None = None
    seed: int | None = None
    started_at: float | None = None
    turn: int = 0
    next_round_at: float | None = None
    solutions: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    spectators: int = 0
    game_id: int | None = None
    record: dict[str, Any] | None = None
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    bot_timers: dict[int, asyncio.TimerHandle] = field(default_factory=dict, repr=False)
    idle_since: float | None = None
    round_no: int = 0
    saving: asyncio.Task[None] | None = field(default=None, repr=False)
    _view_cache: tuple[Any, dict[str, Any]] | None = field(default=None, repr=False)

    def occupied(self) -> list[Seat]:
        return [s for s in self.seats if s is not None]

    def seat_by_token(self, token: str) -> Seat | None:
        for s in self.occupied():
            if s.kind == "person" and s.token and secrets.compare_digest(s.token, token):
                return s
        return None

    @property
    def capacity(self) -> int:
        return 1 if self.settings.solo else SEATS


@dataclass
class ServerConfig:
    public_url: str = "http://127.0.0.1:8000"
    #: how long an empty room (nobody connected) is kept
    idle_room_seconds: float = 1800.0


class Rooms:
    """Every room command: the lobby, the game's clock, bots, storage at the end."""

    def __init__(
        self,
        hub: RoomHub[Room],
        storage: Storage | None,
        clock: Clock | None = None,
        config: ServerConfig | None = None,
    ) -> None:
        self.hub = hub
        self.storage = storage
        self.clock = clock or Clock()
        self.config = config or ServerConfig()

    # --- helpers ----------------------------------------------------------------------------

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    def room(self, code: str) -> Room:
        room = self.hub.get(code.upper())
        if room is None:
            raise ProtocolError("no_room", f"no room {code!r}")
        return room

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if self.hub.get(code) is None:
                return code

    def snapshot(self, room: Room) -> dict[str, Any]:
        default_side = room.settings.side_or_default
        game_view: dict[str, Any] | None = None
        if room.game is not None:
            key = (id(room.game), room.round_no, room.next_round_at, id(room.solutions))
            cache = room._view_cache
            if cache is None or cache[0] != key:
                game_view = table.game_json(
                    room.game, room.round_no, room.next_round_at, room.solutions
                )
                room._view_cache = (key, game_view)
            else:
                game_view = cache[1]
        return {
            "code": room.code,
            "invite": room.invite,
            "phase": room.phase,
            "host": room.host,
            "settings": room.settings.to_json(),
            "seats": [
                None if s is None else s.to_json(self.clock, default_side)
                for s in room.seats[: room.capacity]
            ],
            "spectators": room.spectators,
            "game": game_view,
            "game_id": room.game_id,
            "record": room.record,
        }

    def publish(self, room: Room, kind: str, data: dict[str, Any], at: float | None = None) -> None:
        at = self.clock.now() if at is None else at
        self.hub.publish(
            room.code,
            {
                "type": "event",
                "at": self.clock.ms(at),
                "kind": kind,
                "data": data,
                "room": self.snapshot(room),
            },
        )

    def _need_host(self, room: Room, seat: Seat | None) -> None:
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot act")
        if room.host != seat.index:
            raise ProtocolError("not_host", "only the host can do this")

    def _need_phase(self, room: Room, *phases: Phase) -> None:
        if room.saving is not None:
            raise ProtocolError("wrong_phase", "the game is being stored; a moment")
        if room.phase not in phases:
            raise ProtocolError("wrong_phase", f"not possible while the room is {room.phase}")

    def _check_settings(self, settings: RoomSettings, players: int) -> None:
        """Ask the rules whether these settings make a game (player count aside)."""
        n = 1 if settings.solo else max(players, settings.record.players[0])
        names = tuple(str(i) for i in range(n))
        try:
            settings.rules_settings(names, ()).resolved()
        except rules.SettingsError as e:
            raise ProtocolError("bad_setting", str(e)) from None
        if settings.side is not None and settings.side not in settings.record.deck.side_names:
            raise ProtocolError("bad_setting", f"{settings.edition} has no side {settings.side!r}")

    # --- rooms and seats (HTTP) -------------------------------------------------------------

    def create_room(
        self, name: str, patch: SettingsPatch, code: str | None = None
    ) -> tuple[Room, Seat]:
        """A new room with its creator in seat 0; ``code``: a join code reserved beforehand
        (several processes: unique across them), else a new one."""
        settings = RoomSettings().patched(patch)
        self._check_settings(settings, 1)
        code = code or self._new_code()
        room = Room(code, settings, f"{self.config.public_url}/room/{code}")
        seat = Seat(0, "person", clean_name(name), token=secrets.token_urlsafe(24))
        room.seats[0] = seat
        room.idle_since = self.clock.now()
        self.hub.add(code, room)
        self.publish(room, "seat_taken", {"seat": 0, "name": seat.name})
        # nobody is connected yet: the creator's seat is held like a dropped connection
        self._hold(room, seat)
        return room, seat

    def take_seat(self, code: str, name: str) -> tuple[Room, Seat]:
        room = self.room(code)
        if room.phase != "lobby":
            raise ProtocolError("game_running", "the game has started; watch as a spectator")
        free = [i for i in range(room.capacity) if room.seats[i] is None]
        if not free:
            raise ProtocolError("room_full", f"all {room.capacity} seats are taken")
        seat = Seat(free[0], "person", clean_name(name), token=secrets.token_urlsafe(24))
        room.seats[seat.index] = seat
        if room.host is None:
            room.host = seat.index
        self.publish(room, "seat_taken", {"seat": seat.index, "name": seat.name})
        self._hold(room, seat)
        return room, seat

    # --- connections ------------------------------------------------------------------------

    def attach(self, room: Room, token: str | None, spectate: bool) -> Seat | None:
        """A connection joins the room (``hello``): as the token's seat, or as a spectator."""
        if spectate or token is None:
            if not spectate:
                raise ProtocolError("bad_message", "hello needs a token or spectate: true")
            room.spectators += 1
            room.idle_since = None
            self.publish(room, "spectators", {"count": room.spectators})
            return None
        seat = room.seat_by_token(token)
        if seat is None:
            raise ProtocolError("bad_token", "this token holds no seat in this room")
        seat.connections += 1
        room.idle_since = None
        if seat.hold_timer is not None:
            seat.hold_timer.cancel()
            seat.hold_timer = None
        if seat.held_until is not None or seat.connections == 1:
            seat.held_until = None
            self.publish(
                room, "connection", {"seat": seat.index, "connected": True, "held_until": None}
            )
        return seat

    def detach(self, room: Room, seat: Seat | None) -> None:
        if self.hub.get(room.code) is not room:
            return
        if seat is None:
            room.spectators = max(0, room.spectators - 1)
            self.publish(room, "spectators", {"count": room.spectators})
        else:
            seat.connections = max(0, seat.connections - 1)
            if seat.connections == 0 and seat.kind == "person" and room.seats[seat.index] is seat:
                self._hold(room, seat)
                self.publish(
                    room,
                    "connection",
                    {
                        "seat": seat.index,
                        "connected": False,
                        "held_until": self.clock.ms(seat.held_until),
                    },
                )
        if room.spectators == 0 and not any(s.connections for s in room.occupied()):
            room.idle_since = self.clock.now()

    def _hold(self, room: Room, seat: Seat) -> None:
        hold = room.settings.seat_hold_seconds
        seat.held_until = self.clock.now() + hold
        if seat.hold_timer is not None:
            seat.hold_timer.cancel()
        seat.hold_timer = self.loop.call_later(hold, self._hold_expired, room, seat)

    def _hold_expired(self, room: Room, seat: Seat) -> None:
        seat.hold_timer = None
        if room.seats[seat.index] is not seat or seat.connections > 0:
            return
        self._gone(room, seat)

    def _gone(self, room: Room, seat: Seat) -> None:
        """A person left for good: a free seat in the lobby, a bot in a running game."""
        seat.held_until = None
        if seat.hold_timer is not None:
            seat.hold_timer.cancel()
            seat.hold_timer = None
        if room.phase == "playing":
            seat.kind = "bot"
            seat.level = "medium"
            seat.token = ""
            seat.replaced = True
            seat.name = f"{seat.name} (bot)"
            self._new_host_if(room, seat.index)
            self.publish(room, "replaced_by_bot", {"seat": seat.index, "level": seat.level})
            self._schedule_bot(room, seat, late=True)
        else:
            room.seats[seat.index] = None
            self._new_host_if(room, seat.index)
            self.publish(room, "seat_freed", {"seat": seat.index})
        if not any(s.kind == "person" for s in room.occupied()) and room.spectators == 0:
            self.close_room(room)

    def _new_host_if(self, room: Room, leaving: int) -> None:
        if room.host != leaving:
            return
        people = [s.index for s in room.occupied() if s.kind == "person"]
        room.host = people[0] if people else None
        if room.host is not None:
            self.publish(room, "host", {"seat": room.host})

    def close_room(self, room: Room) -> None:
        self._cancel_timers(room)
        for s in room.occupied():
            if s.hold_timer is not None:
                s.hold_timer.cancel()
        self.hub.remove(room.code)

    def stop_timers(self, room: Room) -> None:
        """Every timer of the room cancelled (another process runs it now)."""
        self._cancel_timers(room)
        for s in room.occupied():
            if s.hold_timer is not None:
                s.hold_timer.cancel()
                s.hold_timer = None

    def reopen(self, room: Room, seq: int, events: Iterable[Event] = ()) -> None:
        """Run a room rebuilt from where it was kept (:mod:`.durable`) at event ``seq``: its
        clock never goes back behind the game's last time, and its timers start again."""
        if room.game is not None and room.game.now is not None:
            self.clock.not_before(room.game.now)
        self.hub.restore(room.code, room, seq, events)
        self._resume(room)

    def _resume(self, room: Room) -> None:
        """Run a room rebuilt from its stored snapshot (its process stopped): nobody is
        connected yet, so every person's seat is held (a hold already running keeps its end);
        the clock and the bots are armed again from the stored deadlines."""
        now = self.clock.now()
        # nobody is connected here yet; each connection re-attached counts again (and its
        # ``hello`` publishes the new count), so no event for the reset itself
        room.spectators = 0
        if room.idle_since is None:
            room.idle_since = now
        for s in room.occupied():
            s.connections = 0
            s.hold_timer = None
            if s.kind != "person":
                continue
            if s.held_until is None:
                self._hold(room, s)
            else:
                s.hold_timer = self.loop.call_later(
                    self.clock.loop_delay(s.held_until), self._hold_expired, room, s
                )
        game = room.game
        if room.phase == "playing" and game is not None:
            self._schedule_bots(room)
            self._schedule_clock(room)
        elif (
            room.phase == "over"
            and room.game_id is None
            and self.storage is not None
            and game is not None
            and game.phase == "over"
        ):
            # the process stopped between the end of the game and its announcement: store and
            # announce it here (stored twice at worst, never lost)
            self._game_over(room)

    def sweep(self) -> None:
        """Forget rooms nobody has been connected to for ``idle_room_seconds``."""
        now = self.clock.now()
        for code in self.hub.codes():
            room = self.hub.get(code)
            if (
                room is not None
                and room.idle_since is not None
                and now - room.idle_since > self.config.idle_room_seconds
            ):
                self.close_room(room)

    # --- lobby commands ---------------------------------------------------------------------

    def change_settings(self, room: Room, seat: Seat | None, patch: SettingsPatch) -> None:
        self._need_host(room, seat)
        self._need_phase(room, "lobby", "over")
        new = room.settings.patched(patch)
        if new.solo != room.settings.solo and len(room.occupied()) > (1 if new.solo else SEATS):
            raise ProtocolError("bad_setting", "solo is for a room with one seat taken")
        self._check_settings(new, len(room.occupied()))
        if new.solo:
            for s in room.occupied():
                if s.kind == "bot":
                    raise ProtocolError("bad_setting", "remove the bots before playing solo")
        room.settings = new
        if room.phase == "over":
            self._back_to_lobby(room)
        for s in room.occupied():
            s.ready = False
            if s.side is not None and s.side not in new.record.deck.side_names:
                s.side = None
        self.publish(room, "settings_changed", {"settings": new.to_json()})

    def choose_side(self, room: Room, seat: Seat | None, side: str) -> None:
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot act")
        self._need_phase(room, "lobby")
        edition = room.settings.edition
        rec = room.settings.record
        if not rec.own_sides:
            raise ProtocolError(
                "bad_setting", "in this edition everyone plays the side the host chooses"
            )
        if side not in rec.deck.side_names:
            raise ProtocolError("bad_setting", f"{edition} has no level {side!r}")
        seat.side = side
        self.publish(room, "side_chosen", {"seat": seat.index, "side": side})

    def add_bot(self, room: Room, seat: Seat | None, level: str) -> None:
        self._need_host(room, seat)
        self._need_phase(room, "lobby")
        if room.settings.solo:
            raise ProtocolError("bad_setting", "solo games have no bots")
        free = [i for i in range(room.capacity) if room.seats[i] is None]
        if not free:
            raise ProtocolError("room_full", f"all {room.capacity} seats are taken")
        bot = Seat(free[0], "bot", f"Bot {free[0] + 1} ({level})", level=level, ready=True)
        room.seats[bot.index] = bot
        self.publish(room, "bot_added", {"seat": bot.index, "level": level})

    def _bot_seat(self, room: Room, index: int) -> Seat:
        s = room.seats[index] if index < room.capacity else None
        if s is None or s.kind != "bot":
            raise ProtocolError("no_such_seat", f"seat {index} has no bot")
        return s

    def remove_bot(self, room: Room, seat: Seat | None, index: int) -> None:
        self._need_host(room, seat)
        self._need_phase(room, "lobby")
        self._bot_seat(room, index)
        room.seats[index] = None
        self.publish(room, "seat_freed", {"seat": index})

    def bot_level(self, room: Room, seat: Seat | None, index: int, level: str) -> None:
        self._need_host(room, seat)
        self._need_phase(room, "lobby")
        bot = self._bot_seat(room, index)
        bot.level = level
        if not bot.replaced:
            bot.name = f"Bot {index + 1} ({level})"
        self.publish(room, "bot_changed", {"seat": index, "level": level})

    def set_ready(self, room: Room, seat: Seat | None, ready: bool) -> None:
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot act")
        self._need_phase(room, "lobby")
        seat.ready = ready
        self.publish(room, "ready", {"seat": seat.index, "ready": ready})

    def leave(self, room: Room, seat: Seat | None) -> None:
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot act")
        self._gone(room, seat)

    # --- the game ---------------------------------------------------------------------------

    def start(self, room: Room, seat: Seat | None) -> None:
        self._need_host(room, seat)
        self._need_phase(room, "lobby")
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
        try:
            deck = standard_deck(st.edition)
            game = rules.new_game(st.rules_settings(players, levels), seed, deck)
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
        self.publish(room, "game_started", {"seed": seed}, at=now)
        self._act(room, rules.StartRound(now))

    def submit(
        self,
        room: Room,
        seat: Seat | None,
        round_no: int,
        placements: list[Placement],
        now: float,
        on_accept: Callable[[], None] | None = None,
    ) -> Verdict | None:
        """An "Ubongo!" received at ``now``. Returns ``None`` if it finished the task (after
        calling ``on_accept`` *before* the events it causes are published, so the sender hears
        its verdict first), else the cover check's verdict; raises :class:`ProtocolError` for a
        message that cannot be a submission now and :class:`~ubongo.rules.RuleError` for one
        the rules refuse (too late, already finished)."""
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot act")
        self._need_phase(room, "playing")
        if round_no != room.round_no:
            raise ProtocolError("stale_round", f"this is round {room.round_no}, not {round_no}")
        action = rules.Submit(seat.player, tuple(placements), now)
        try:
            self._act(room, action, on_accept)
        except rules.WrongArrangement as e:
            return e.verdict
        return None

    def skip(self, room: Room, seat: Seat | None, round_no: int, now: float) -> None:
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot act")
        self._need_phase(room, "playing")
        if round_no != room.round_no:
            raise ProtocolError("stale_round", f"this is round {room.round_no}, not {round_no}")
        self._act(room, rules.SkipTask(seat.player, now))

    def rematch(self, room: Room, seat: Seat | None) -> None:
        self._need_host(room, seat)
        self._need_phase(room, "over")
        self._back_to_lobby(room)
        self.publish(room, "rematch", {})

    def _back_to_lobby(self, room: Room) -> None:
        self._cancel_timers(room)
        room.phase = "lobby"
        room.game = None
        room._view_cache = None
        room.turn = 0
        room.round_no = 0
        room.next_round_at = None
        room.solutions = {}
        for s in room.occupied():
            s.ready = s.kind == "bot"

    def _cancel_timers(self, room: Room) -> None:
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        for handle in room.bot_timers.values():
            handle.cancel()
        room.bot_timers.clear()

    def _act(
        self, room: Room, action: rules.Action, on_accept: Callable[[], None] | None = None
    ) -> None:
        """Apply an action with the rules, publish what it caused, set the next timers.

        A :class:`~ubongo.rules.RuleError` propagates with the room unchanged."""
        game = room.game
        assert game is not None
        new = rules.apply(game, action)
        if on_accept is not None:
            on_accept()
        if new is game:
            return
        was_phase = game.phase
        room.game = new
        new_turn = False
        awards: dict[str, Any] = {}
        for ev in new.events[len(game.events) :]:
            if ev.kind in ("round_started", "task_drawn"):
                room.turn += 1
                new_turn = True
                if ev.kind == "round_started":
                    room.round_no += 1
                    room.solutions = {}
                    room.next_round_at = None
            got = table.awards(ev)
            if got is not None:
                awards = got
            out = table.event(ev, room.round_no)
            if out is not None:
                self.publish(room, out[0], out[1], at=ev.at)
        ended = was_phase == "playing" and new.phase != "playing" and new.round is not None
        if ended and new.round is not None and new.round.kind != "solo":
            self._round_ended(room, new, awards)
        if new.phase == "over":
            self._game_over(room)
            return
        if new_turn:
            self._schedule_bots(room)
        self._schedule_clock(room)

    def _round_ended(self, room: Room, game: rules.Game, awards: dict[str, Any]) -> None:
        r = game.round
        assert r is not None
        for handle in room.bot_timers.values():
            handle.cancel()
        room.bot_timers.clear()
        solutions: dict[str, list[dict[str, Any]]] = {}
        for e in r.entries:
            if e.finished_at is None:
                placements = list(bots.arrangement(game.deck, e.card, e.side, e.key))
                solutions[e.player] = [placement_to_json(p) for p in placements]
        room.solutions = solutions
        if game.phase == "waiting":
            room.next_round_at = (r.ended_at or self.clock.now()) + room.settings.between_seconds
        self.publish(
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

    def _schedule_clock(self, room: Room) -> None:
        game = room.game
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        if game is None or game.phase == "over":
            return
        if game.phase == "waiting":
            at = room.next_round_at or self.clock.now()
            room.timer = self.loop.call_later(
                self.clock.loop_delay(at), self._on_timer, room, "start", at
            )
        elif game.deadline is not None:
            at = game.deadline
            room.timer = self.loop.call_later(
                self.clock.loop_delay(at) + 0.001, self._on_timer, room, "advance", at
            )

    def _on_timer(self, room: Room, what: str, at: float) -> None:
        room.timer = None
        if self.hub.get(room.code) is not room or room.game is None:
            return
        now = self.clock.now()
        if now < at:  # woke early: wait the rest
            self._schedule_clock(room)
            return
        try:
            if what == "start":
                self._act(room, rules.StartRound(now))
            else:
                self._act(room, rules.Advance(now))
        except rules.RuleError:
            log.exception("room %s: the clock's %s was refused", room.code, what)

    # --- bots -------------------------------------------------------------------------------

    def _time_scale(self, room: Room) -> float:
        """Bots keep pace with the table's timer: half the hourglass, half the bot's time."""
        st = room.settings
        timer = st.record.timer
        if timer.hourglass is not None:
            if st.hourglass_seconds is None:
                return 1.0
            return st.hourglass_seconds / timer.hourglass
        if st.countdown_seconds is None:
            return 1.0
        return st.countdown_seconds / dict(timer.countdown).get(st.side_or_default, 20.0)

    def _schedule_bots(self, room: Room) -> None:
        for s in room.occupied():
            if s.kind == "bot":
                self._schedule_bot(room, s, late=False)

    def _schedule_bot(self, room: Room, seat: Seat, late: bool) -> None:
        game = room.game
        if game is None or game.phase != "playing" or game.round is None:
            return
        entry = game.round.entry(seat.player)
        if entry is None or not entry.active:
            return
        assert room.seed is not None
        # seeded by game, seat and turn, so the same game gives the same bot times
        late_tag = "late" if late else ""
        rng = random.Random(f"{room.seed}:bot:{seat.index}:{room.turn}:{late_tag}")
        level = bots.LEVELS[seat.level or "medium"]
        if bots.gets_stuck(level, rng):
            return
        _side, task = rules.entry_task(game, entry)
        seconds = bots.finish_time(task.difficulty, level, rng) * self._time_scale(room)
        at = game.round.started_at + seconds
        now = self.clock.now()
        if at <= now:
            at = now + seconds * 0.25  # took over late: still needs a moment
        old = room.bot_timers.pop(seat.index, None)
        if old is not None:
            old.cancel()
        room.bot_timers[seat.index] = self.loop.call_later(
            self.clock.loop_delay(at), self._bot_move, room, seat, room.turn
        )

    def _bot_move(self, room: Room, seat: Seat, turn: int) -> None:
        room.bot_timers.pop(seat.index, None)
        game = room.game
        if self.hub.get(room.code) is not room or game is None or room.turn != turn:
            return
        if game.round is None or room.seats[seat.index] is not seat:
            return
        entry = game.round.entry(seat.player)
        if entry is None or not entry.active:
            return
        placements = list(bots.arrangement(game.deck, entry.card, entry.side, entry.key))
        try:
            self.submit(room, seat, room.round_no, placements, self.clock.now())
        except (rules.RuleError, ProtocolError) as e:
            log.info("room %s: bot %s was refused: %s", room.code, seat.index, e)

    # --- the end ----------------------------------------------------------------------------

    def _game_over(self, room: Room) -> None:
        game = room.game
        assert game is not None
        self._cancel_timers(room)
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
        game_json = rules.game_to_json(game)
        stored = GameRecord(
            room=room.code,
            edition=game.settings.edition,
            mode=game.settings.mode,
            variant=game.settings.variant,
            settings={"room": room.settings.to_json(), "rules": game_json["game"]["settings"]},
            seed=int(room.seed or 0),
            events=[rules.action_to_json(a) for a in game.log],
            result={**result, "deck": game_json["deck"], "events": _events_json(game)},
            players=[
                {"seat": s.index, "name": s.name, "kind": s.kind, "level": s.level}
                for s in room.occupied()
            ],
            started_at=room.started_at or now,
            finished_at=now,
        )
        solo: SoloRecord | None = None
        if record is not None:
            person = room.occupied()[0]
            solo = SoloRecord(
                game_id=0,
                name=person.name,
                edition=game.settings.edition,
                goal=str(record["goal"]),
                amount=int(record["target"]),
                side=game.settings.level_of(person.player),
                score=int(record["solved"]),
                seconds=float(record["seconds"]),
                finished_at=now,
            )
        room.record = record
        announce = {
            "winners": result["winners"],
            "scores": {str(k): v for k, v in result["scores"].items()},
            "record": record,
        }
        # stored before anybody hears the game is over (a killed server loses nothing that
        # was announced), in a thread so that other rooms' clocks and verdicts do not wait
        # for the disk; until then the room refuses rematch and settings
        room.saving = self.loop.create_task(self._store_and_announce(room, stored, solo, announce))

    async def _store_and_announce(
        self, room: Room, stored: GameRecord, solo: SoloRecord | None, announce: dict[str, Any]
    ) -> None:
        storage = self.storage
        try:
            if storage is not None:
                if solo is not None:
                    room.game_id, _ = await asyncio.to_thread(storage.save_solo_game, stored, solo)
                else:
                    room.game_id = await asyncio.to_thread(storage.save_game, stored)
        except Exception:
            log.exception("room %s: the finished game could not be stored", room.code)
        finally:
            room.saving = None
        if self.hub.get(room.code) is room:
            self.publish(room, "game_over", {"game_id": room.game_id, **announce})


def _events_json(game: rules.Game) -> list[dict[str, Any]]:
    return [{"kind": e.kind, "at": e.at, "data": e.data} for e in game.events]
