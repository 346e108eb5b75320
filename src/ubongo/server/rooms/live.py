"""Live games anybody may watch (``GET /api/live``): the rooms of this process with a game on.

What is public: a room whose game is running (phase ``playing``) and whose host has not
locked it, while it has room for one more spectator. Locking is how a host keeps a game
private (it also closes the free seats); an unlocked room is already open to anybody with its
short code, which is all the list shows of it: never a token, never the invite (the room's
secret). Watching is what spectating by the short code already is (``hello`` with
``spectate: true``): a spectator sees every table but moves no piece.

With several processes (Redis) each answers for the rooms it runs (``docs/server.md``).
"""

from __future__ import annotations

from typing import Any

from ..config import ServerConfig
from .room import Room

#: the most rooms one answer lists (the newest games first)
LIVE_LIMIT = 50


def is_public(room: Room, config: ServerConfig) -> bool:
    """Whether ``room`` is listed as a live game to watch."""
    return (
        room.phase == "playing"
        and room.game is not None
        and not room.locked
        and room.spectators < config.spectators_per_room
    )


def live_json(room: Room, ms: Any) -> dict[str, Any]:
    """What the list shows of a room (``ms``: seconds to the protocol's milliseconds)."""
    game = room.game
    assert game is not None
    r = game.round
    st = room.settings
    return {
        "code": room.code,
        "edition": st.edition,
        "mode": st.mode,
        "variant": st.variant,
        "puzzles": st.puzzles,
        "players": [
            {"seat": s.index, "name": s.name, "kind": s.kind, "level": s.level}
            for s in room.occupied()
        ],
        "round": room.round_no,
        "rounds": game.settings.rounds,
        "kind": None if r is None else r.kind,
        "scores": {p: n for p, n in game.scores().items()},
        "spectators": room.spectators,
        "started_at": ms(room.started_at),
    }


def is_open(room: Room) -> bool:
    """Whether ``room`` is listed among the open games: a race room its host listed, in its
    lobby, not locked, with a free seat and somebody waiting in it."""
    return (
        room.settings.listed
        and room.settings.mode == "race"
        and room.phase == "lobby"
        and not room.locked
        and any(s is None for s in room.seats)
        and any(s.kind == "person" and s.connections > 0 for s in room.occupied())
    )


def open_json(room: Room) -> dict[str, Any]:
    """What the open games' list shows of a room: never a token nor the invite."""
    st = room.settings
    host = room.seats[room.host] if room.host is not None else None
    return {
        "code": room.code,
        "edition": st.edition,
        "variant": st.variant,
        "side": st.side_or_default,
        "rated": st.rated,
        "host": host.name if host is not None else None,
        "players": [
            {"seat": s.index, "name": s.name, "kind": s.kind, "level": s.level}
            for s in room.occupied()
        ],
        "free": _free(room),
    }


def _free(room: Room) -> int:
    return sum(1 for s in room.seats if s is None)


def open_rooms(rooms: list[Room]) -> list[dict[str, Any]]:
    """The open games among ``rooms``, the fullest first (one seat left: a game soon), at most
    :data:`LIVE_LIMIT`."""
    listed = sorted((r for r in rooms if is_open(r)), key=lambda r: (_free(r), r.code))
    return [open_json(r) for r in listed[:LIVE_LIMIT]]


def live_rooms(rooms: list[Room], config: ServerConfig, ms: Any) -> list[dict[str, Any]]:
    """The public rooms among ``rooms``, the newest game first, at most :data:`LIVE_LIMIT`."""
    public = [r for r in rooms if is_public(r, config)]
    public.sort(key=lambda r: (-(r.started_at or 0.0), r.code))
    return [live_json(r, ms) for r in public[:LIVE_LIMIT]]
