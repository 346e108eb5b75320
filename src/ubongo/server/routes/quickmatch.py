"""Quick match: wait for a seat in a rated game, or leave the queue (``docs/protocol.md``,
"Quick match"). The request waits (a long poll) until its account is seated; a client that
closes the connection while waiting leaves the queue. An account that keeps leaving rated
games is refused for a while, and nobody is seated with an account seen at its address
(:mod:`..online.conduct`)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, Request

from ..protocol import answers as bodies
from ..protocol import incoming as p
from .deps import ConductDep, RoomServiceDep, SignedIn
from .rooms import client_address

router = APIRouter()


async def _gone(request: Request) -> None:
    """Returns when the client has closed the connection (its body was read already, so the
    next message the server hears about the request is its end)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


@router.post("/api/quickmatch", status_code=201, response_model=bodies.SeatTicket)
async def quick_match(
    body: p.QuickMatch,
    request: Request,
    rooms: RoomServiceDep,
    account: SignedIn,
    conduct: ConductDep,
) -> dict[str, Any]:
    """Wait for a rated game of ``edition`` for ``players`` (with people of close ratings,
    or bots after the server's wait); the seat, as joining a room answers it. Each request
    counts as a room made by its address (``rooms_per_minute``): a quick match makes one.
    ``429 playban`` for an account that left too many of its latest rated games."""
    address = client_address(request)
    rooms.limits.may_create(address)
    addresses = await conduct.admit(account.id, address)
    waiting = asyncio.create_task(
        rooms.quick.join(account.id, account.name, body.edition, body.players, addresses)
    )
    gone = asyncio.create_task(_gone(request))
    try:
        await asyncio.wait({waiting, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
        if not waiting.done():
            waiting.cancel()  # the client went: out of the queue
        for task in (gone, waiting):
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait({task})
    if waiting.cancelled():
        raise p.ProtocolError("unavailable", "the client left the queue")
    return waiting.result()


@router.delete("/api/quickmatch", response_model=bodies.QuickMatchLeft)
async def leave_queue(rooms: RoomServiceDep, account: SignedIn) -> dict[str, Any]:
    """Take the token's account out of the quick-match queue (``left``: it was waiting)."""
    return {"left": await rooms.quick.leave(account.id)}
