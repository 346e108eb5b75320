"""Friends and challenges (``docs/social.md``): following an account, the friends list, the
challenges made, answered and taken back, and the notice socket ``/ws/notices`` that tells a
player's every page of them at once."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from ..online.notices import Listener
from ..ops.ratelimit import TokenBucket
from ..protocol import answers as bodies
from ..protocol import social
from ..protocol.incoming import MAX_MESSAGE_BYTES, ProtocolError
from .accounts import MAX_ID, known_id
from .deps import AccountsDep, RoomServiceDep, SignedIn, SocialDep
from .websocket import CLOSE_NO_HELLO, admit, first_frame, next_frame, write_queue

log = logging.getLogger("ubongo.server")

router = APIRouter()

#: messages a second a notice socket may send (``here`` as its page moves), and the burst
NOTICE_RATE, NOTICE_BURST = 2.0, 10


def _challenge_id(value: int) -> int:
    """A challenge's id from a path: ids start at 1 and are SQL integers."""
    if not 0 < value <= MAX_ID:
        raise ProtocolError("no_challenge", "no such challenge of yours")
    return value


@router.put("/api/accounts/{account_id}/follow", response_model=social.FollowState)
async def follow(account_id: int, account: SignedIn, friends: SocialDep) -> dict[str, Any]:
    """The token's account follows ``account_id`` (again: nothing changes)."""
    await friends.follow(account.id, known_id(account_id))
    return {"following": True}


@router.delete("/api/accounts/{account_id}/follow", response_model=social.FollowState)
async def unfollow(account_id: int, account: SignedIn, friends: SocialDep) -> dict[str, Any]:
    """The token's account no longer follows ``account_id``."""
    await friends.unfollow(account.id, known_id(account_id))
    return {"following": False}


@router.get("/api/friends", response_model=social.Friends)
async def friends_list(account: SignedIn, friends: SocialDep) -> list[dict[str, Any]]:
    """The accounts the token's account follows; the mutual ones say if they are online and
    which room their page shows."""
    return await friends.friends(account.id)


@router.post("/api/challenges", status_code=201, response_model=social.ChallengeView)
async def challenge(
    body: social.NewChallenge, account: SignedIn, friends: SocialDep
) -> dict[str, Any]:
    """Challenge an account to a game (its pages hear of it at once)."""
    return await friends.challenge(account.id, body.to, body.edition, body.rated)


@router.get("/api/challenges", response_model=social.Challenges)
async def challenges(account: SignedIn, friends: SocialDep) -> dict[str, Any]:
    """The token's account's open challenges, and the seats of those accepted lately."""
    return await friends.challenges(account.id)


@router.post(
    "/api/challenges/{challenge_id}/accept", status_code=201, response_model=bodies.SeatTicket
)
async def accept(
    challenge_id: int, account: SignedIn, friends: SocialDep, rooms: RoomServiceDep
) -> dict[str, Any]:
    """Accept a challenge made to the token's account: a room with both players seated; the
    answer is the acceptor's seat (the challenger's pages are told theirs)."""
    return await friends.accept(account.id, _challenge_id(challenge_id), rooms)


@router.post("/api/challenges/{challenge_id}/decline", response_model=social.ChallengeView)
async def decline(challenge_id: int, account: SignedIn, friends: SocialDep) -> dict[str, Any]:
    """Decline a challenge made to the token's account."""
    return await friends.decline(account.id, _challenge_id(challenge_id))


@router.delete("/api/challenges/{challenge_id}", response_model=social.ChallengeView)
async def cancel(challenge_id: int, account: SignedIn, friends: SocialDep) -> dict[str, Any]:
    """Take back a challenge the token's account made."""
    return await friends.cancel(account.id, _challenge_id(challenge_id))


# --- the notice socket ------------------------------------------------------------------------


@router.websocket("/ws/notices")
async def notices(ws: WebSocket, rooms: RoomServiceDep, accounts: AccountsDep) -> None:
    """A page's notices: ``hello`` with the account's token, then ``here`` as the page moves;
    challenges arrive as they are made and answered. It counts among the address's sockets."""
    address = await admit(ws, rooms)
    if address is None:
        return
    try:
        await ws.accept()
        listener = await _hello(ws, rooms, accounts)
        if listener is not None:
            try:
                await _serve(ws, rooms, listener)
            finally:
                rooms.notices.leave(listener)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        rooms.limits.close_socket(address)
        with contextlib.suppress(Exception):
            await ws.close()


async def _error(ws: WebSocket, code: str, message: str) -> None:
    notice = {"type": "error", "code": code, "message": message}
    await ws.send_text(social.encode_notice(notice))


async def _hello(ws: WebSocket, rooms: RoomServiceDep, accounts: AccountsDep) -> Listener | None:
    """The page's account, from its first message (within ``--hello-seconds``), listening."""
    raw = await first_frame(ws, rooms.config.hello_seconds)
    if raw is None:
        return None
    try:
        hello = social.notice_client_message(raw[:MAX_MESSAGE_BYTES])
        if not isinstance(hello, social.NoticeHello):
            raise ProtocolError("not_joined", "say hello with the account's token first")
        account = await accounts.of_token(hello.token)
    except ValidationError:
        await _error(ws, "bad_message", "not a notice socket message (docs/social.md)")
        await ws.close(CLOSE_NO_HELLO)
        return None
    except ProtocolError as e:
        await _error(ws, e.code, e.message)
        await ws.close(CLOSE_NO_HELLO)
        return None
    listener = rooms.notices.listen(account.id)
    now = rooms.clock.now()
    welcome = {"type": "welcome", "account": account.id, "server_time": round(now * 1000)}
    await ws.send_text(social.encode_notice(welcome))
    return listener


async def _serve(ws: WebSocket, rooms: RoomServiceDep, listener: Listener) -> None:
    """Read ``here`` messages while the listener's notices are written to the socket."""
    writer = asyncio.create_task(write_queue(ws, listener.queue))
    bucket = TokenBucket(NOTICE_RATE, NOTICE_BURST, rooms.clock.now())
    try:
        while not writer.done():
            reading = asyncio.ensure_future(next_frame(ws))
            await asyncio.wait({reading, writer}, return_when=asyncio.FIRST_COMPLETED)
            if not reading.done():
                reading.cancel()
                break
            raw = reading.result()
            if raw is None:
                break
            if not bucket.allow(rooms.clock.now()):
                await _error(ws, "rate_limited", "a notice socket says where it is, not more")
                continue
            try:
                message = social.notice_client_message(raw[:MAX_MESSAGE_BYTES])
            except ValidationError:
                await _error(ws, "bad_message", "not a notice socket message (docs/social.md)")
                continue
            if isinstance(message, social.Here):
                rooms.notices.here(listener, message.room and message.room.upper())
    finally:
        writer.cancel()
        await asyncio.wait({writer})
