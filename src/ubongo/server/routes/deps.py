"""The shared services the routes are given (FastAPI dependencies).

:func:`~..app.create_app` puts them on ``app.state`` when the app starts (``lifespan``); a
route names what it needs with one of the ``Annotated`` types here, e.g.
``async def games(store: StoreDep)``, and never builds or looks one up itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import structlog
from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from ..online.accounts import Account, Accounts
from ..online.conduct import Conduct
from ..online.editor import EditorDesk
from ..online.help import HintDesk
from ..online.puzzles import PuzzleDesk
from ..online.social import Social
from ..ops.clock import Clock
from ..protocol.incoming import ProtocolError
from ..rooms.service import RoomService
from ..store import Store


def room_service(conn: HTTPConnection) -> RoomService:
    """The rooms (one process, or a cluster: the routes do not ask which)."""
    service: RoomService = conn.app.state.rooms
    return service


def store(conn: HTTPConnection) -> Store:
    """The database's repositories: stored games, records, accounts, ratings."""
    found: Store = conn.app.state.store
    return found


def accounts(conn: HTTPConnection) -> Accounts:
    """The players' accounts."""
    found: Accounts = conn.app.state.accounts
    return found


async def bearer(
    conn: HTTPConnection, authorization: Annotated[str | None, Header(max_length=200)] = None
) -> Account | None:
    """The account a request comes from (``Authorization: Bearer <token>``), if it says;
    ``bad_token`` (401) for a header that is not a bearer token or a token of no account."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ProtocolError("bad_token", "Authorization must be 'Bearer <token>'")
    account = await accounts(conn).of_token(token.strip())
    structlog.contextvars.bind_contextvars(account=account.id)  # never the token
    return account


async def signed_in(account: Annotated[Account | None, Depends(bearer)]) -> Account:
    """The request's account, which it must have."""
    if account is None:
        raise ProtocolError("bad_token", "this needs an account: send Authorization: Bearer")
    return account


def conduct(conn: HTTPConnection) -> Conduct:
    """Who may queue for a quick match, and the addresses accounts come from."""
    found: Conduct = conn.app.state.conduct
    return found


def hint_desk(conn: HTTPConnection) -> HintDesk:
    """Hints outside rooms, within their limits."""
    found: HintDesk = conn.app.state.hint_desk
    return found


def editor_desk(conn: HTTPConnection) -> EditorDesk:
    """The puzzle editor's verdicts, within their limits."""
    found: EditorDesk = conn.app.state.editor_desk
    return found


def puzzle_desk(conn: HTTPConnection) -> PuzzleDesk:
    """Saved puzzles: saving, plays, likes, reports, within their limits."""
    found: PuzzleDesk = conn.app.state.puzzle_desk
    return found


def social(conn: HTTPConnection) -> Social:
    """Follows and challenges."""
    found: Social = conn.app.state.social
    return found


def clock(conn: HTTPConnection) -> Clock:
    """The server's clock (the rooms' time line)."""
    return room_service(conn).clock


def web_dist(conn: HTTPConnection) -> Path:
    """The built web client's folder."""
    dist: Path = conn.app.state.web_dist
    return dist


RoomServiceDep = Annotated[RoomService, Depends(room_service)]
StoreDep = Annotated[Store, Depends(store)]
AccountsDep = Annotated[Accounts, Depends(accounts)]
HintDeskDep = Annotated[HintDesk, Depends(hint_desk)]
EditorDeskDep = Annotated[EditorDesk, Depends(editor_desk)]
PuzzleDeskDep = Annotated[PuzzleDesk, Depends(puzzle_desk)]
ConductDep = Annotated[Conduct, Depends(conduct)]
SocialDep = Annotated[Social, Depends(social)]
#: the request's account, or None (no Authorization header)
MaybeAccount = Annotated[Account | None, Depends(bearer)]
#: the request's account, required
SignedIn = Annotated[Account, Depends(signed_in)]
ClockDep = Annotated[Clock, Depends(clock)]
WebDistDep = Annotated[Path, Depends(web_dist)]
