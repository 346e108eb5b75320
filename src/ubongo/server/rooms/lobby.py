"""The lobby: seats and their tokens, the host, connections and held seats, the settings.

Everything about who is in a room, apart from playing: creating a room and taking a seat
(HTTP), a connection's ``hello`` and its end, a person who leaves or does not come back (a free
seat in the lobby, a bot in a running game), the host's lobby commands, and closing a room.
"""

from __future__ import annotations

import asyncio

from ubongo import rules

from ..config import ServerConfig
from ..online.daily import today
from ..online.names import check_name
from ..ops import strong_random
from ..protocol.incoming import ProtocolError, SettingsPatch
from .feed import RoomFeed
from .room import (
    SEATS,
    Room,
    RoomSettings,
    Seat,
    need_host,
    need_phase,
    need_seat,
    new_invite_key,
    room_code,
)
from .timers import RoomTimers


class Lobby:
    """Owns a room's seats, tokens, host, spectator count and settings (the game itself
    belongs to :class:`~.driver.GameDriver`). Every command checks who may do it and when,
    changes the room and publishes what changed."""

    def __init__(self, feed: RoomFeed, timers: RoomTimers, config: ServerConfig) -> None:
        self.feed = feed
        self.timers = timers
        self.config = config
        self.clock = feed.clock

    # --- rooms and seats (HTTP) -------------------------------------------------------------

    def create_room(
        self, name: str, patch: SettingsPatch, code: str | None = None, account: int | None = None
    ) -> tuple[Room, Seat]:
        """A new room with its creator in seat 0 (played by ``account``, if the creator has
        one); ``code``: a join code reserved beforehand (several processes: unique across
        them), else a new one."""
        settings = RoomSettings().patched(patch)
        _check_settings(settings, 1)
        code = code or self.feed.new_code()
        # the invite carries the room's secret: the link cannot be guessed, the code alone
        # (for reading aloud) is what the per-address lookup limit protects
        room = Room(code, settings, f"{self.config.public_url}/room/{new_invite_key(code)}")
        seat = Seat(
            0, "person", check_name(name), token=strong_random.token_urlsafe(24), account=account
        )
        room.seats[0] = seat
        room.idle_since = self.clock.now()
        self.feed.hub.add(code, room)
        self.feed.publish(room, "seat_taken", {"seat": 0, "name": seat.name})
        # nobody is connected yet: the creator's seat is held like a dropped connection
        self.timers.hold(room, seat)
        return room, seat

    def find(self, name: str) -> Room:
        """The open room a client names: by its short code or its invite key (``no_room``
        otherwise, without repeating what was sent)."""
        room = self.feed.hub.get(room_code(name))
        if room is None or not room.named_by(name):
            raise ProtocolError("no_room", "no room with this code or invite")
        return room

    def take_seat(self, code: str, name: str, account: int | None = None) -> tuple[Room, Seat]:
        """The first free seat of room ``code`` (its short code or invite key) for ``name``
        (playing as ``account``, if given), with a new token (lobby only, and not in a room
        its host has locked)."""
        room = self.find(code)
        if room.locked:
            raise ProtocolError("room_locked", "the host has locked this room; you may watch")
        if room.phase != "lobby":
            raise ProtocolError("game_running", "the game has started; watch as a spectator")
        free = [i for i in range(room.capacity) if room.seats[i] is None]
        if not free:
            raise ProtocolError("room_full", f"all {room.capacity} seats are taken")
        if account is not None and any(s.account == account for s in room.occupied()):
            # one account, one seat: a second would play against itself (docs/fair-play.md)
            raise ProtocolError("already_seated", "this account has a seat in this room already")
        seat = Seat(
            free[0],
            "person",
            check_name(name),
            token=strong_random.token_urlsafe(24),
            account=account,
        )
        room.seats[seat.index] = seat
        if room.host is None:
            room.host = seat.index
        self.feed.publish(room, "seat_taken", {"seat": seat.index, "name": seat.name})
        self.timers.hold(room, seat)
        return room, seat

    # --- connections ------------------------------------------------------------------------

    def attach(self, room: Room, token: str | None, spectate: bool) -> Seat | None:
        """A connection joins the room (``hello``): as the token's seat, or as a spectator."""
        if spectate or token is None:
            if not spectate:
                raise ProtocolError("bad_message", "hello needs a token or spectate: true")
            if room.spectators >= self.config.spectators_per_room:
                raise ProtocolError(
                    "spectators_full",
                    f"{self.config.spectators_per_room} are watching this room already",
                )
            room.spectators += 1
            room.idle_since = None
            room.joined_ever = True
            self._presence_changed(room)
            return None
        seat = room.seat_by_token(token)
        if seat is None:
            raise ProtocolError("bad_token", "this token holds no seat in this room")
        seat.connections += 1
        room.arrivals.set()
        room.idle_since = None
        room.joined_ever = True
        was_held = seat.held_until is not None
        self.timers.release(seat)
        if was_held or seat.connections == 1:
            self.feed.publish(
                room, "connection", {"seat": seat.index, "connected": True, "held_until": None}
            )
        return seat

    def detach(self, room: Room, seat: Seat | None) -> None:
        """A connection of the room ended (``seat``: its seat, ``None`` for a spectator); a
        person's last connection starts the hold of their seat."""
        if not self.feed.is_open(room):
            return
        if seat is None:
            room.spectators = max(0, room.spectators - 1)
            self._presence_changed(room)
        else:
            seat.connections = max(0, seat.connections - 1)
            if seat.connections == 0 and seat.kind == "person" and room.seats[seat.index] is seat:
                self.timers.hold(room, seat)
                self.feed.publish(
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

    def _presence_changed(self, room: Room) -> None:
        """The spectator count changed: everybody hears it, at most once a
        ``presence_seconds`` per room (a burst of arrivals is one event with the count
        after it; none if the count is back where it was)."""
        if room.presence_timer is not None:
            return  # an event is due: it will carry the count as it is then
        wait = room.presence_at + self.config.presence_seconds - self.clock.now()
        if wait <= 0:
            self._send_presence(room)
        else:
            # a hair late rather than early: the event loop may run a timer a little before
            # its time, and the next event must be a whole ``presence_seconds`` after the last
            loop = asyncio.get_running_loop()
            room.presence_timer = loop.call_later(wait + 0.002, self._send_presence, room)

    def _send_presence(self, room: Room) -> None:
        room.presence_timer = None
        if not self.feed.is_open(room) or room.spectators == room.presence_sent:
            return
        room.presence_at = self.clock.now()
        room.presence_sent = room.spectators
        self.feed.publish(room, "spectators", {"count": room.spectators}, snapshot=False)

    def hold_expired(self, room: Room, seat: Seat) -> None:
        """A seat's hold ran out with nobody back in it: its person has gone."""
        self._gone(room, seat)

    def leave(self, room: Room, seat: Seat | None) -> None:
        """A person leaves for good (``leave``)."""
        self._gone(room, need_seat(seat))

    def _gone(self, room: Room, seat: Seat) -> None:
        """A person left for good: a free seat in the lobby, a bot in a running game."""
        self.timers.release(seat)
        if room.phase == "playing":
            seat.kind = "bot"
            seat.level = "medium"
            seat.token = ""
            seat.replaced = True
            seat.name = f"{seat.name} (bot)"
            self._new_host_if(room, seat.index)
            self.feed.publish(room, "replaced_by_bot", {"seat": seat.index, "level": seat.level})
            self.timers.schedule_bot(room, seat, late=True)
        else:
            room.seats[seat.index] = None
            self._new_host_if(room, seat.index)
            self.feed.publish(room, "seat_freed", {"seat": seat.index})
        # a rated game is played out by the bots, stored and rated, whoever stays (leaving
        # is a loss: docs/fair-play.md); any other room nobody is left in is forgotten
        played_out = room.phase == "playing" and room.settings.rated
        nobody = not any(s.kind == "person" for s in room.occupied()) and room.spectators == 0
        if nobody and not played_out:
            self.close_room(room)

    def _new_host_if(self, room: Room, leaving: int) -> None:
        if room.host != leaving:
            return
        people = [s.index for s in room.occupied() if s.kind == "person"]
        room.host = people[0] if people else None
        if room.host is not None:
            self.feed.publish(room, "host", {"seat": room.host})

    def close_room(self, room: Room) -> None:
        """Forget the room: its timers stop, its events and code are gone."""
        if room.presence_timer is not None:
            room.presence_timer.cancel()
            room.presence_timer = None
        self.timers.stop(room)
        self.feed.hub.remove(room.code)

    # --- the host's and the players' lobby commands -------------------------------------------

    def change_settings(self, room: Room, seat: Seat | None, patch: SettingsPatch) -> None:
        """The host changes the settings (in the lobby, or after a game: back to the lobby);
        everybody is unready again."""
        need_host(room, seat)
        need_phase(room, "lobby", "over")
        _not_an_arena_race(room)
        new = room.settings.patched(patch)
        if new.solo != room.settings.solo and len(room.occupied()) > (1 if new.solo else SEATS):
            raise ProtocolError("bad_setting", "solo is for a room with one seat taken")
        _check_settings(new, len(room.occupied()))
        if new.solo:
            for s in room.occupied():
                if s.kind == "bot":
                    raise ProtocolError("bad_setting", "remove the bots before playing solo")
        room.settings = new
        if room.phase == "over":
            self.back_to_lobby(room)
        for s in room.occupied():
            s.ready = False
            if s.side is not None and s.side not in new.record.deck.side_names:
                s.side = None
        self.feed.publish(room, "settings_changed", {"settings": new.to_json()})

    def choose_side(self, room: Room, seat: Seat | None, side: str) -> None:
        """A player chooses their own side or level (editions where each player does)."""
        seat = need_seat(seat)
        need_phase(room, "lobby")
        edition = room.settings.edition
        rec = room.settings.record
        if not rec.own_sides:
            raise ProtocolError(
                "bad_setting", "in this edition everyone plays the side the host chooses"
            )
        if side not in rec.deck.side_names:
            raise ProtocolError("bad_setting", f"{edition} has no level {side!r}")
        seat.side = side
        self.feed.publish(room, "side_chosen", {"seat": seat.index, "side": side})

    def add_bot(self, room: Room, seat: Seat | None, level: str) -> None:
        """The host puts a bot of ``level`` in the first free seat."""
        need_host(room, seat)
        need_phase(room, "lobby")
        if room.settings.solo:
            raise ProtocolError("bad_setting", "solo games have no bots")
        free = [i for i in range(room.capacity) if room.seats[i] is None]
        if not free:
            raise ProtocolError("room_full", f"all {room.capacity} seats are taken")
        bot = Seat(free[0], "bot", f"Bot {free[0] + 1} ({level})", level=level, ready=True)
        room.seats[bot.index] = bot
        self.feed.publish(room, "bot_added", {"seat": bot.index, "level": level})

    def remove_bot(self, room: Room, seat: Seat | None, index: int) -> None:
        """The host frees the bot's seat ``index``."""
        need_host(room, seat)
        need_phase(room, "lobby")
        _bot_seat(room, index)
        room.seats[index] = None
        self.feed.publish(room, "seat_freed", {"seat": index})

    def bot_level(self, room: Room, seat: Seat | None, index: int, level: str) -> None:
        """The host changes the level of the bot in seat ``index``."""
        need_host(room, seat)
        need_phase(room, "lobby")
        bot = _bot_seat(room, index)
        bot.level = level
        if not bot.replaced:
            bot.name = f"Bot {index + 1} ({level})"
        self.feed.publish(room, "bot_changed", {"seat": index, "level": level})

    def lock(self, room: Room, seat: Seat | None, locked: bool) -> None:
        """The host closes the free seats (or opens them again): nobody new may take a seat,
        by invite or by code; spectators may still come, and seated people may reconnect."""
        need_host(room, seat)
        room.locked = locked
        self.feed.publish(room, "locked", {"locked": locked})

    def kick(self, room: Room, seat: Seat | None, index: int) -> Seat:
        """The host removes the person in seat ``index`` (lobby only): the seat is free and its
        token no longer works. The removed seat is returned (its connection is closed by the
        caller)."""
        need_host(room, seat)
        need_phase(room, "lobby")
        target = room.seats[index] if index < room.capacity else None
        if target is None or target.kind != "person":
            raise ProtocolError("no_such_seat", f"seat {index} has no person")
        if target is seat:
            raise ProtocolError("bad_message", "the host cannot remove themselves; leave instead")
        self.timers.release(target)
        room.seats[index] = None
        target.token = ""
        self.feed.publish(room, "kicked", {"seat": index})
        return target

    def set_ready(self, room: Room, seat: Seat | None, ready: bool) -> None:
        """A player says whether they are ready to start."""
        seat = need_seat(seat)
        need_phase(room, "lobby")
        seat.ready = ready
        self.feed.publish(room, "ready", {"seat": seat.index, "ready": ready})

    def rematch(self, room: Room, seat: Seat | None) -> None:
        """The host takes a finished game's room back to the lobby, seats kept."""
        need_host(room, seat)
        need_phase(room, "over")
        _not_an_arena_race(room)
        self.back_to_lobby(room)
        self.feed.publish(room, "rematch", {})

    def back_to_lobby(self, room: Room) -> None:
        """Drop the game (its timers stop); bots are ready, people are not."""
        self.timers.cancel_game(room)
        room.phase = "lobby"
        room.game = None
        room._view_cache = None
        room.turn = 0
        room.round_no = 0
        room.next_round_at = None
        room.solutions = {}
        room.traces = []
        room.daily = None
        room.ratings = None
        for s in room.occupied():
            s.ready = s.kind == "bot"


def _not_an_arena_race(room: Room) -> None:
    """An arena's race is one game as the arena made it: its room is not played again."""
    if room.settings.arena is not None:
        raise ProtocolError(
            "wrong_phase", "an arena's race is one game: the arena seats its players in the next"
        )


def _bot_seat(room: Room, index: int) -> Seat:
    s = room.seats[index] if index < room.capacity else None
    if s is None or s.kind != "bot":
        raise ProtocolError("no_such_seat", f"seat {index} has no bot")
    return s


def _check_settings(settings: RoomSettings, players: int) -> None:
    """Ask the rules whether these settings make a game (player count aside)."""
    n = 1 if settings.solo else max(players, settings.record.players[0])
    names = tuple(str(i) for i in range(n))
    try:
        settings.rules_settings(names, (), day=today().isoformat()).resolved()
    except rules.SettingsError as e:
        raise ProtocolError("bad_setting", str(e)) from None
    if settings.side is not None and settings.side not in settings.record.deck.side_names:
        raise ProtocolError("bad_setting", f"{settings.edition} has no side {settings.side!r}")
