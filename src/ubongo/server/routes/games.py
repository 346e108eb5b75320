"""Stored games: the latest ones, one with its whole log, and one replayed by the rules."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query, Request
from pydantic import ValidationError

from ..online.analysis import analysis_json
from ..online.replays import ReplayCache, chat_json, replay_json
from ..protocol import answers as bodies
from ..protocol import incoming as p
from ..protocol.incoming import ProtocolError
from ..store import Store, StoredGame
from . import views
from .deps import MaybeAccount, RoomServiceDep, StoreDep
from .rooms import client_address

router = APIRouter()

T = TypeVar("T")

#: the largest id a stored game can have (a SQL BIGINT): past it there is no game, and the
#: database is not asked (it would refuse the number)
MAX_GAME_ID = 2**63 - 1


@router.get("/api/games", response_model=bodies.GameList)
async def games(
    store: StoreDep, limit: Annotated[int, Query(ge=1, le=100)] = 20
) -> list[dict[str, Any]]:
    """The latest finished games (1-100, default 20), newest first."""
    latest = await asyncio.to_thread(store.games.latest, limit)
    return [views.game_summary(g) for g in latest]


@router.get(
    "/api/games/{game_id}", response_model=bodies.StoredGame, response_model_exclude_unset=True
)
async def game(game_id: int, store: StoreDep) -> dict[str, Any]:
    """One stored game; ``no_game`` if there is none with this id (any integer: ids start
    at 1, so a negative or huge one simply has no game)."""
    return views.stored_game(await _stored(game_id, store))


async def _stored(game_id: int, store: Store) -> StoredGame:
    """The stored game with this id; ``no_game`` if there is none."""
    if not 0 < game_id <= MAX_GAME_ID:
        raise ProtocolError("no_game", "no game with this id")
    found = await asyncio.to_thread(store.games.get, game_id)
    if found is None:
        raise ProtocolError("no_game", f"no game {game_id}")
    return found


#: replays made lately (a fresh game's replay makes its cards again)
_replays = ReplayCache()


@router.get("/api/games/{game_id}/replay", response_model=bodies.GameReplay)
async def game_replay(game_id: int, store: StoreDep, account: MaybeAccount) -> dict[str, Any]:
    """One stored game rebuilt by the rules from its seed and actions, round by round (what
    the replay page shows); ``no_game`` if there is none with this id. Its chat (what its
    players said) only for an account seated in it (``Authorization: Bearer``), for
    anybody else ``null`` (docs/social.md)."""
    made = await _replay(game_id, store)
    seated = {p.get("account") for p in made["players"]}
    if account is None or account.id not in seated:
        return made
    lines = await asyncio.to_thread(store.chat.of_game, game_id)
    return {**made, "chat": chat_json(made, lines)}


async def _replay(game_id: int, store: Store) -> dict[str, Any]:
    """The replay of a stored game without its chat, made once and kept a while."""
    return await _made(_replays, game_id, lambda: _stored(game_id, store), replay_json)


#: analyses made lately (each solves the game's tasks again)
_analyses = ReplayCache()


@router.get("/api/games/{game_id}/analysis", response_model=bodies.GameAnalysis)
async def game_analysis(game_id: int, store: StoreDep) -> dict[str, Any]:
    """Every task of a stored game analysed: solutions, one of them, the median player's time
    and each seat's own (``no_game`` if there is none with this id)."""
    return await _made(_analyses, game_id, lambda: _replay(game_id, store), analysis_json)


async def _made(
    cache: ReplayCache,
    game_id: int,
    source: Callable[[], Awaitable[T]],
    make: Callable[[T], dict[str, Any]],
) -> dict[str, Any]:
    """What ``make`` makes of ``source`` for a game (off the event loop: it replays or
    solves), kept in ``cache``; a kept one at once."""
    kept = cache.get(game_id)
    if kept is not None:
        return kept
    made = await asyncio.to_thread(make, await source())
    cache.put(game_id, made)
    return made


@router.post("/api/replays", response_model=bodies.GameReplay)
async def replay_file(body: p.GameFile, request: Request, rooms: RoomServiceDep) -> dict[str, Any]:
    """The replay of a game file (a game downloaded from its replay page): the game checked as
    ``GET /api/games/{id}`` answers it, then rebuilt by the rules from its seed and actions
    (``bad_game`` if it is not one, or its actions do not replay). Each counts as a room made
    by its address (``rooms_per_minute``): a fresh game's replay makes its cards again."""
    rooms.limits.may_create(client_address(request))
    try:
        shown = bodies.StoredGame.model_validate(body.game)
    except ValidationError as e:
        raise ProtocolError("bad_game", f"not a stored game: {_first(e)}") from None
    data = shown.model_dump(mode="json")
    game = StoredGame(
        id=data["id"],
        room=data["room"],
        edition=data["edition"],
        mode=data["mode"],
        variant=data["variant"],
        settings=body.game["settings"],
        seed=data["seed"],
        events=body.game["events"],
        result=body.game["result"],
        players=data["players"],
        started_at=data["started_at"],
        finished_at=data["finished_at"],
    )
    try:
        return await asyncio.to_thread(replay_json, game)
    except Exception as e:  # whatever a made-up game breaks in the rules: not a game
        raise ProtocolError("bad_game", f"the game does not replay: {type(e).__name__}") from None


def _first(e: ValidationError) -> str:
    error = e.errors()[0]
    where = ".".join(str(x) for x in error["loc"])
    return f"{where}: {error['msg']}"[:100]
