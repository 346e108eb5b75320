"""What a room is: its settings, its seats and their tokens, its phase and its game.

Plain data, and the checks every command makes (who may act, and in which phase). The parts
that run rooms act on it, each with one job: :mod:`.feed` (looking rooms up, snapshots,
events), :mod:`.lobby` (seats, tokens, host, holds, settings), :mod:`.driver` (the game by the
rules, stored at its end), :mod:`.timers` (the clock, bots and holds), wired together by
:class:`~.runner.Rooms`.

Everything runs on the event loop and never awaits in the middle of a change, so no two
commands interleave: the order in which commands are handled is the order of their receive
times, which is how finish order is decided.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import deque
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, cast

from ubongo import editions, rules
from ubongo.puzzles.pack import PackTask
from ubongo.rules.settings import Puzzles, SoloGoal

from ..online.daily import check_day
from ..ops import strong_random
from ..ops.clock import Clock
from ..protocol.incoming import ProtocolError, SettingsPatch
from ..protocol.snapshot import GameTable, RoomSettingsView, TaskView
from ..store.game_chat import ChatLine

SEATS = 4
#: join codes: no vowels (no words), no 0/O, 1/I/L look-alikes
CODE_ALPHABET = "BCDFGHJKMNPQRSTVWXZ23456789"
CODE_LENGTH = 5
#: the random part of an invite: 21 letters of :data:`CODE_ALPHABET` are 99.9 bits, so an
#: invite cannot be guessed; the short code alone (23.8 bits) is for reading aloud, and
#: failed lookups per address are limited (:class:`ServerConfig`)
INVITE_SECRET_LENGTH = 21


def new_invite_key(code: str) -> str:
    """A room's invite key: its code, then the random secret (one case, letters and digits
    that survive being read, typed or upper-cased by a client).

    >>> key = new_invite_key("K7QXB")
    >>> key[:5], len(key), key == key.upper()
    ('K7QXB', 26, True)
    """
    secret = "".join(strong_random.choice(CODE_ALPHABET) for _ in range(INVITE_SECRET_LENGTH))
    return code + secret


def room_code(name: str) -> str:
    """The join code in what a client names a room by: its short code or its invite key
    (which starts with the code), in any case.

    >>> room_code("k7qxb"), room_code("K7QXB" + "Z" * 21)
    ('K7QXB', 'K7QXB')
    """
    return name[:CODE_LENGTH].upper()


Phase = Literal["lobby", "playing", "over"]


#: the settings where ``null`` means something (the rules' or the edition's default)
NULLABLE_SETTINGS = frozenset(
    {"side", "rounds", "hourglass_seconds", "countdown_seconds", "round_limit_seconds"}
    | {"solo_amount", "seed", "day"}
)


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
    #: time, tasks or endless (tasks chosen for the player's rating until they stop)
    solo_goal: str = "time"
    #: minutes or tasks; ``None``: the edition's default for the goal (Trigo: 20 minutes);
    #: an endless run has none (0)
    solo_amount: int | None = None
    seat_hold_seconds: float = 60.0
    between_seconds: float = 6.0
    seed: int | None = None
    #: fresh: cards made for each game from its seed; standard: the shipped deck; daily: the
    #: daily challenge of ``day`` (a solo run)
    puzzles: str = "fresh"
    #: the daily challenge's day (YYYY-MM-DD); ``None``: the day the run starts (UTC)
    day: str | None = None
    #: the game's final ranking changes its players' ratings (quick matches always; a
    #: private room if its host asks; never solo)
    rated: bool = False
    #: listed among the open games on the home page while it waits for players: anyone may
    #: take a free seat (a race room; docs/social.md)
    listed: bool = False
    #: the arena whose race this room is, and the race's number (docs/arenas.md): set by
    #: the arena's director, never by a host; the race is one game, its ties shared
    arena: str | None = None
    arena_race: int | None = None
    #: an arena's races share one fresh deck: its seed and the sides it is made with
    deck_seed: int | None = None
    deck_sides: tuple[str, ...] = ()
    #: a room made with a pack (docs/editor.md, "Packs"): its link id, title and puzzles, read
    #: from the store when the room is made (:class:`PackPatch`); never rated
    pack: str | None = None
    pack_title: str = ""
    pack_tasks: tuple[PackTask, ...] = ()

    def patched(self, patch: SettingsPatch) -> RoomSettings:
        """These settings with ``patch``'s fields; ``null`` is the rules' default where there
        is one, and leaves the setting as it is where there is none (an edition, a mode ...).

        >>> RoomSettings(edition="classic").patched(SettingsPatch(edition=None)).edition
        'classic'
        """
        changes = {
            k: v
            for k, v in patch.model_dump(exclude_unset=True).items()
            if v is not None or k in NULLABLE_SETTINGS
        }
        out = replace(self, **changes)
        if "edition" in changes and changes["edition"] != self.edition:
            # a side or a timer of another edition means nothing here
            for name in ("side", "hourglass_seconds", "countdown_seconds"):
                if name not in changes:
                    setattr(out, name, None)
        amounts = out.record.solo.amounts
        if out.solo_amount is not None and out.solo_amount not in amounts:
            if "solo_amount" in changes:
                offered = ", ".join(str(a) for a in amounts)
                raise ProtocolError(
                    "bad_setting", f"solo_amount is one of {offered} in {out.edition}"
                )
            out.solo_amount = None  # the new edition's default
        _check_pack(self, out, changes)
        if out.puzzles == "daily":
            if out.mode != "solo":
                raise ProtocolError("bad_setting", "the daily challenge is played solo")
            if out.day is not None:
                check_day(out.day)
        return out

    def to_json(self) -> dict[str, Any]:
        # a pack's puzzles are the rules' (and the stored game's), not the snapshot's
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "pack_tasks"}
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
        if self.solo_goal == "endless":
            return 0
        if self.solo_amount is not None:
            return self.solo_amount
        solo = self.record.solo
        return solo.tasks if self.solo_goal == "tasks" else solo.minutes

    @property
    def solo(self) -> bool:
        return self.mode == "solo"

    @property
    def daily(self) -> bool:
        """A daily challenge run."""
        return self.puzzles == "daily"

    @property
    def helped(self) -> bool:
        """Whether hints and giving up are offered: solo and practice, not a race or the
        daily challenge."""
        return self.solo and not self.daily

    def rules_settings(
        self,
        players: tuple[str, ...],
        levels: tuple[str, ...],
        rating: tuple[float, float, float] | None = None,
        day: str = "",
    ) -> rules.Settings:
        """The rules' settings for these players (seat numbers) and levels; ``rating``: an
        endless run's starting rating (``None``: a new player's); ``day``: a daily run's day
        when the room leaves it to the start."""
        own = self.record.own_sides
        goal = self.solo_goal if self.solo_goal in ("tasks", "practice", "endless") else "time"
        return rules.Settings(
            edition=self.edition,
            players=players,
            mode="solo" if self.solo else "race",
            side=None if own else self.side,
            # a table of one side gives none; an arena's race may seat players of two sides
            levels=levels if own or len(set(levels)) > 1 else (),
            rounds=self.rounds,
            hourglass=self.hourglass_seconds,
            countdown=self.countdown_seconds,
            variant="only-first" if self.variant in ("only-first", "expert") else "standard",
            round_limit=self.round_limit_seconds,
            playoff_limit=self.round_limit_seconds,
            tie_break="shared" if self.arena is not None else None,
            deck_seed=self.deck_seed,
            deck_sides=tuple(self.deck_sides),
            solo_goal=cast(SoloGoal, goal),
            solo_target=None if goal in ("practice", "endless") else self.solo_amount,
            rating=rating if goal == "endless" else None,
            puzzles=cast(Puzzles, self.puzzles if self.puzzles in PUZZLES else "fresh"),
            day=(self.day or day) if self.daily else "",
            pack=self.pack_tasks if self.puzzles == "pack" else (),
        )


#: where a room's tasks may come from (:class:`RoomSettings` ``puzzles``)
PUZZLES = ("fresh", "standard", "daily", "pack")


class PackPatch(SettingsPatch):
    """Settings with a pack's title and puzzles, made by the route that makes the room from
    what the store holds (never from a client: no message's patch has these fields)."""

    pack_title: str = ""
    pack_tasks: tuple[PackTask, ...] = ()


def _check_pack(before: RoomSettings, out: RoomSettings, changes: dict[str, Any]) -> None:
    """A room's pack is chosen when it is made (its puzzles read then); a pack room is raced
    and never rated (docs/editor.md, "Packs"). ``bad_setting`` otherwise."""
    if out.pack != before.pack and "pack_tasks" not in changes:
        raise ProtocolError("bad_setting", "a room's pack is chosen when the room is made")
    if out.puzzles != "pack":
        return
    if not out.pack_tasks:
        raise ProtocolError("bad_setting", "puzzles pack needs a pack: make the room with one")
    if out.rated:
        raise ProtocolError("bad_setting", "a room racing a pack is never rated")
    if out.edition != before.edition and "pack_tasks" not in changes:
        raise ProtocolError("bad_setting", "a pack is raced in its puzzles' edition")
    if out.solo:
        raise ProtocolError("bad_setting", "a pack is raced: its solo run is on its page")


@dataclass(frozen=True)
class SaidLine:
    """A line of free text said in a room: its event's number, who said it, and what."""

    seq: int
    seat: int
    name: str
    account: int | None
    text: str
    at: float


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
    #: the account playing this seat (a person who took it with ``Authorization: Bearer``);
    #: its games, records and endless rating are the account's (``docs/accounts.md``)
    account: int | None = None

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
            "account": self.account,
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
    #: the host closed the seats (spectators may still come)
    locked: bool = False
    #: whether anybody has ever connected (a room nobody joined is forgotten sooner)
    joined_ever: bool = False
    #: a spectator-count event is waiting to be sent (bursts of arrivals coalesce)
    presence_timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    presence_sent: int = 0
    presence_at: float = float("-inf")
    #: when each seat last said a quick phrase (the chat's pace: :data:`SAY_EVERY_SECONDS`)
    said_at: dict[int, float] = field(default_factory=dict, repr=False)
    #: the latest lines of free text said (for a report to quote what was said, not what the
    #: reporter claims): kept in memory only, a few dozen
    said: deque[SaidLine] = field(default_factory=lambda: deque(maxlen=50), repr=False)
    #: the reports made from each seat in this room (a few at most)
    reports: dict[int, int] = field(default_factory=dict, repr=False)
    #: the players' lines said since the room's last game was stored, kept for the next one
    #: (docs/social.md: a game's chat, in its players' replay); memory only
    chat: list[ChatLine] = field(default_factory=list, repr=False)
    #: the spectators' chat: when each spectator (by client address) last said a phrase, and
    #: its number in this room (what the spectators see of it)
    watchers_said_at: dict[str, float] = field(default_factory=dict, repr=False)
    watchers: dict[str, int] = field(default_factory=dict, repr=False)
    #: a daily run's result once it is over (``DailyResult``)
    daily: dict[str, Any] | None = None
    #: a rated game's moves of its accounts' shown ratings once it is stored, by seat
    #: (``RatingMove``)
    ratings: dict[str, dict[str, int]] | None = None
    #: the play traces of the game's finishes, as :class:`..online.traces.TraceNote` JSON, for
    #: rated and ranked play (docs/fair-play.md): stored with the game
    traces: list[dict[str, Any]] = field(default_factory=list)
    #: a fresh game's first cards being made (the first round starts when they are)
    preparing: asyncio.Task[None] | None = field(default=None, repr=False)
    #: set as a person's connection arrives (a quick match's game waits for all its people)
    arrivals: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    #: the snapshot's game while the game, its round and its solutions stay the same (see
    #: :meth:`.feed.RoomFeed.snapshot`): what it was made of, its JSON, and that JSON checked
    #: through its model
    _view_cache: tuple[Any, dict[str, Any], GameTable] | None = field(default=None, repr=False)
    #: each seat's task as the snapshot's game last gave it, and it checked: the tasks are most
    #: of the game's view and change only when dealt, while the view changes at every finish
    _task_views: dict[str, tuple[dict[str, Any], TaskView]] = field(
        default_factory=dict, repr=False
    )
    #: the snapshot's settings while they stay the same: a copy of the settings (compared by
    #: value, so that a change made in place is seen too), their JSON, and it checked
    _settings_cache: tuple[RoomSettings, dict[str, Any], RoomSettingsView] | None = field(
        default=None, repr=False
    )

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

    @property
    def invite_key(self) -> str:
        """What the invite link carries after ``/room/``: the code and the secret (a room
        made before invites had secrets: the code alone)."""
        return self.invite.rsplit("/", 1)[-1].upper()

    def named_by(self, name: str) -> bool:
        """Whether ``name`` (a client's) names this room: its short code, or its whole
        invite key (compared in constant time)."""
        key = name.upper()
        if len(key) == CODE_LENGTH:
            return key == self.code
        return secrets.compare_digest(key.encode(), self.invite_key.encode())


def need_seat(seat: Seat | None) -> Seat:
    """The seat of a command's sender; spectators cannot act."""
    if seat is None:
        raise ProtocolError("spectator", "spectators cannot act")
    return seat


def need_host(room: Room, seat: Seat | None) -> None:
    """Only the host may do this."""
    if need_seat(seat).index != room.host:
        raise ProtocolError("not_host", "only the host can do this")


def need_phase(room: Room, *phases: Phase) -> None:
    """Only in these phases, and not while the finished game is being stored."""
    if room.saving is not None:
        raise ProtocolError("wrong_phase", "the game is being stored; a moment")
    if room.phase not in phases:
        raise ProtocolError("wrong_phase", f"not possible while the room is {room.phase}")
