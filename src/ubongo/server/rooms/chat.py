"""A room's chat (docs/social.md): the players' phrases and lines to everyone in the room, the
spectators' phrases to the room's spectators only, and the players' lines kept with the game
they were said around, for its players' replay.

A player's line is a room event (``chat``: numbered, in the room's log, so a player who
reconnects hears what they missed). A spectator's phrase is not: it is sent to each spectator's
connection of the room (here, or on another process through its stand-in) as a message of its
own (``spectator_said``), never published on the room's hub, so no seated player's connection
is ever given it, whatever the spectator sends. Spectators speak in quick phrases only: anyone
may watch an unlocked room from the home page's live games, so they are strangers to each
other and to the room. Their pace is kept per client address, not per socket: an address that
opens many spectator sockets still says one phrase every :data:`SAY_EVERY_SECONDS`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..online.names import clean_text
from ..protocol import incoming as p
from ..protocol.incoming import ProtocolError
from ..store import ChatLine, ChatReport, Store
from .connection import Connection
from .feed import RoomFeed
from .room import Room, SaidLine, Seat

#: a seat's (or a spectator address's) lines come at most this often: a phrase is a notice on
#: every reader's screen
SAY_EVERY_SECONDS = 1.5

#: reports one seat may make in a room
REPORTS_PER_SEAT = 5

#: the players' lines a room keeps for its next stored game at most (four seats at the chat's
#: pace say about 160 a minute; a game's chat past this many is not kept whole)
KEPT_LINES = 1000

K = TypeVar("K")

#: a write of the store, run off the event loop (:meth:`..gateway.Gateway.keep`)
Keep = Callable[[Callable[[Store], object]], None]


def free_text_allowed(room: Room) -> bool:
    """Free text among a room's players: only where they chose each other, an unrated room
    nobody found on a list (quick match and rated games have quick phrases only)."""
    return not room.settings.rated and not room.settings.listed and not room.settings.solo


def speaker(conn: Connection) -> str:
    """What a spectator is paced and numbered by: its client's address (a stand-in of another
    process's client, whose address this process does not know: the connection itself)."""
    return conn.address or f"connection {conn.id}"


class RoomChat:
    """The chat of this process's rooms: who is in each room to hear a spectator (every
    connection joined to it, here or a stand-in), and the store writes of the games' lines."""

    def __init__(self, feed: RoomFeed, keep: Keep) -> None:
        self.feed = feed
        self.keep = keep
        #: by room code, the connections joined to it (players and spectators)
        self.members: dict[str, set[Connection]] = {}

    def joined(self, room: Room, conn: Connection) -> None:
        self.members.setdefault(room.code, set()).add(conn)

    def left(self, room: Room, conn: Connection) -> None:
        members = self.members.get(room.code)
        if members is not None:
            members.discard(conn)
            if not members:
                del self.members[room.code]

    def say(self, room: Room, conn: Connection, seat: Seat | None, msg: p.Say, at: float) -> None:
        """A phrase or a line: a player's to everyone in the room, a spectator's to the
        spectators."""
        if seat is None:
            self._watcher_says(room, conn, msg, at)
            return
        text = None
        if msg.text is not None:
            if not free_text_allowed(room):
                raise ProtocolError("no_free_text", "quick phrases only in this room")
            text = clean_text(msg.text)
            if not text:
                raise ProtocolError("bad_message", "nothing to say")
        _paced(room.said_at, seat.index, at)
        data = {"seat": seat.index, "phrase": msg.phrase, "text": text}
        seq = self.feed.publish(room, "chat", data, at=at, snapshot=False)
        if text is not None:
            room.said.append(SaidLine(seq, seat.index, seat.name, seat.account, text, at))
        self._keep_line(room, ChatLine(seat.index, msg.phrase, text, at))

    def _watcher_says(self, room: Room, conn: Connection, msg: p.Say, at: float) -> None:
        """A spectator's phrase, to the room's spectators only (docs/social.md)."""
        if msg.phrase is None:
            raise ProtocolError("no_free_text", "spectators say quick phrases only")
        key = speaker(conn)
        _paced(room.watchers_said_at, key, at)
        number = room.watchers.setdefault(key, len(room.watchers) + 1)
        base = {
            "type": "spectator_said",
            "spectator": number,
            "phrase": msg.phrase,
            "at": self.feed.clock.ms(at),
        }
        for other in list(self.members.get(room.code, ())):
            # a spectator welcomed to this room (its subscription is made with its welcome)
            if other.seat is None and other.room is room and other.subscription is not None:
                other.send_json({**base, "mine": speaker(other) == key})

    def _keep_line(self, room: Room, line: ChatLine) -> None:
        """Keep a player's line with the game it belongs to: a stored game's end screen's
        lines at once, the others once the room's next game is stored (:meth:`stored`)."""
        if room.phase == "over" and room.game_id is not None and room.saving is None:
            game_id = room.game_id
            self.keep(lambda store: store.chat.add(game_id, [line]))
        elif len(room.chat) < KEPT_LINES:
            room.chat.append(line)

    def report(self, room: Room, seat: Seat | None, msg: p.Report, at: float) -> None:
        """A player reports a line of free text: what the room heard is kept for the
        moderators (the reporter names the line, the room quotes it), off the event loop."""
        if seat is None:
            raise ProtocolError("spectator", "spectators report nothing")
        line = next((s for s in room.said if s.seq == msg.seq), None)
        if line is None or line.seat == seat.index:
            raise ProtocolError("bad_message", "no line of another player with this number")
        made = room.reports.get(seat.index, 0)
        if made >= REPORTS_PER_SEAT:
            raise ProtocolError("rate_limited", f"at most {REPORTS_PER_SEAT} reports in a room")
        room.reports[seat.index] = made + 1
        report = ChatReport(
            room=room.code,
            reporter=seat.account,
            account=line.account,
            name=line.name,
            text=line.text,
            said_at=line.at,
            at=at,
        )
        self.keep(lambda store: store.reports.add(report))


def kept_lines(room: Room) -> list[ChatLine]:
    """The players' lines a room kept for the game just stored, taken from it."""
    lines, room.chat = room.chat, []
    return lines


def _paced(last_said: dict[K, float], who: K, at: float) -> None:
    """``who`` may say something at ``at`` (``rate_limited`` too soon after its last line)."""
    if at - last_said.get(who, float("-inf")) < SAY_EVERY_SECONDS:
        raise ProtocolError("rate_limited", f"a line every {SAY_EVERY_SECONDS:g} s at most")
    last_said[who] = at
