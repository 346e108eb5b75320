"""What an operator may tune: the server's limits, in one place."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ServerConfig:
    """What an operator may tune (``ubongo serve`` flags; ``docs/server.md``, "Rooms and
    limits"). Limits per client address are generous enough for a family behind one router."""

    public_url: str = "http://127.0.0.1:8000"
    #: how long an empty room (nobody connected) is kept
    idle_room_seconds: float = 1800.0
    #: how long a room whose game is over (and stored) is kept once nobody is connected
    finished_room_seconds: float = 300.0
    #: seconds between two full collections of the garbage collector (each stops the server
    #: for as long as it walks everything the players hold: about 1 s at 5,000 players)
    full_collection_seconds: float = 3600.0
    #: how long a room that nobody ever joined (created, never connected to) is kept
    unjoined_room_seconds: float = 60.0
    #: rooms one address may create a minute (a burst of as many, then one every 60/n s)
    rooms_per_minute: int = 30
    #: accounts one address may create an hour (a burst of as many): a browser makes one on
    #: its first visit, so this is a school's or a family's worth of first visits
    accounts_per_hour: int = 60
    #: failed room lookups (a wrong code or invite) one address may make at once, and how many
    #: more an hour after that: guessing a 5-letter code is hopeless at this pace
    failed_lookup_burst: int = 20
    failed_lookups_per_hour: int = 60
    #: WebSockets open at once from one address
    connections_per_address: int = 50
    #: seconds a new WebSocket has to say ``hello``
    hello_seconds: float = 10.0
    #: spectators one room accepts at once
    spectators_per_room: int = 200
    #: messages a second one WebSocket may send (bursts of twice as many)
    messages_per_second: float = 20.0
    #: messages waiting for a client that does not read, before it is dropped
    max_queued_messages: int = 1000
    #: at most one spectator-count event per room in this many seconds (bursts coalesce)
    presence_seconds: float = 0.25
    #: seconds a database write waits for a lock (SQLite) before it fails and is tried again
    store_timeout: float = 30.0
    #: the wait before trying a failed write again, doubling up to the longest wait
    store_retry_seconds: float = 1.0
    store_retry_max_seconds: float = 60.0
    #: the fastest a human hand places a piece (seconds): a solo task solved faster than its
    #: pieces times this is not ranked (docs/server.md, "Plausible records")
    record_seconds_per_piece: float = 0.6
    #: seconds a quick match waits for other players before it fills the seats with bots
    quickmatch_wait: float = 10.0
    #: room settings of quick-match rooms beyond the edition (e.g. fewer rounds, for a demo or
    #: a test); settings an edition refuses are left out for its rooms
    quickmatch_settings: dict[str, Any] = field(default_factory=dict)
    #: several processes behind nginx's ``hash ... consistent``: its upstream servers as it
    #: names them, and this process's name among them; rooms made here get codes that nginx
    #: sends here (:mod:`.cluster.ring`); empty: any code
    upstreams: tuple[str, ...] = ()
    upstream_name: str = ""
