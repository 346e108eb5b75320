"""Saved puzzles and the community list (docs/editor.md): saving a drawn puzzle, its page by
its link, publishing it, its solution, a play's report, a like, a report to the moderators,
the list of an edition's published puzzles and an account's own. What each may change, and
the refusals, are :mod:`..online.puzzles`'."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request

from ubongo import editions as edition_data
from ubongo import puzzlefile

from ..online.puzzle_ratings import RATING_SHOWN_AFTER, shown
from ..online.puzzles import PuzzleDesk, stats_view
from ..protocol import community as c
from ..protocol.incoming import ProtocolError
from ..store import SavedPuzzle
from .deps import MaybeAccount, PuzzleDeskDep, SignedIn
from .rooms import client_address

router = APIRouter()

#: a link's id as the path gives it (ids are 12 characters; longer ones are no puzzle's)
PuzzleId = Annotated[str, Path(min_length=1, max_length=16)]


def summary(found: SavedPuzzle, times: list[float]) -> dict[str, Any]:
    """``PuzzleSummary`` of ``found`` (its title left out when a moderator hid it)."""
    return {
        "id": found.id,
        "edition": found.edition,
        "title": None if found.title_hidden else found.title,
        "author": found.account,
        "author_name": found.author_name,
        "pieces": found.pieces,
        "grade": found.grade,
        "model_seconds": found.seconds,
        "published": found.published,
        "made_at": found.made_at,
        "stats": stats_view(found, times),
        "rating": shown(found.rating, found.rated_plays),
        "rated_plays": found.rated_plays,
        "rating_after": RATING_SHOWN_AFTER,
    }


async def page(desk: PuzzleDesk, found: SavedPuzzle, account: int | None) -> dict[str, Any]:
    """``PuzzlePage`` of ``found`` as ``account`` sees it."""
    puzzles = desk.store.puzzles
    times = await asyncio.to_thread(puzzles.times, found.id)
    played = await asyncio.to_thread(puzzles.played, found.id, account) if account else None
    liked = await asyncio.to_thread(puzzles.likes, found.id, account) if account else False
    area = puzzlefile.from_json(found.puzzle).area
    return {
        "summary": summary(found, times),
        "area": [list(cell) for cell in sorted(area.cells)],
        "layers": area.layers,
        "piece_ids": [str(p) for p in found.puzzle["pieces"]],
        "solutions": found.solutions,
        "mine": found.account == account,
        "hidden": found.hidden,
        "played": played,
        "liked": liked,
    }


@router.post("/api/puzzles", response_model=c.PuzzlePage, status_code=201)
async def save(
    body: c.SavePuzzle, request: Request, account: SignedIn, desk: PuzzleDeskDep
) -> dict[str, Any]:
    """Save a drawn edition puzzle with a title: proven again by the solver, within the
    verdict's bounds and limits and the account's limits on saving and publishing."""
    address = client_address(request)
    found = await desk.save(account.id, address, body.puzzle, body.title, body.published)
    return await page(desk, found, account.id)


@router.get("/api/puzzles", response_model=c.PuzzleList)
async def community(
    desk: PuzzleDeskDep,
    edition: str | None = None,
    sort: c.Order = "newest",
    page: Annotated[int, Query(ge=0, le=c.LAST_PAGE)] = 0,
) -> dict[str, Any]:
    """One page of an edition's published puzzles (default: the first edition), newest, most
    played, best liked or hardest (the rating learned from play) first."""
    found, more = await desk.listed(known_edition(edition), sort, page)
    return {"puzzles": [await _summary(desk, p) for p in found], "more": more}


def known_edition(edition: str | None) -> str:
    """The edition a list asks for (None: the first), ``no_edition`` if there is none so."""
    name = edition if edition is not None else edition_data.names()[0]
    if name not in edition_data.names():
        raise ProtocolError("no_edition", f"no edition {name[:40]!r}")
    return name


@router.get("/api/puzzles/mine", response_model=c.PuzzleList)
async def mine(account: SignedIn, desk: PuzzleDeskDep) -> dict[str, Any]:
    """The account's own puzzles, newest first."""
    found = await asyncio.to_thread(desk.store.puzzles.of_account, account.id)
    return {"puzzles": [await _summary(desk, p) for p in found], "more": False}


async def _summary(desk: PuzzleDesk, found: SavedPuzzle) -> dict[str, Any]:
    return summary(found, await asyncio.to_thread(desk.store.puzzles.times, found.id))


@router.get("/api/puzzles/{puzzle_id}", response_model=c.PuzzlePage)
async def one(puzzle_id: PuzzleId, account: MaybeAccount, desk: PuzzleDeskDep) -> dict[str, Any]:
    """The puzzle of a link, to play, with its stats (``404 no_puzzle``: none, or hidden)."""
    who = account.id if account else None
    return await page(desk, await desk.get(puzzle_id, who), who)


@router.put("/api/puzzles/{puzzle_id}/published", response_model=c.PuzzlePage)
async def publish(
    puzzle_id: PuzzleId, body: c.Publish, account: SignedIn, desk: PuzzleDeskDep
) -> dict[str, Any]:
    """The author lists the puzzle in the community list, or takes it back to its link."""
    found = await desk.publish(puzzle_id, account.id, body.published)
    return await page(desk, found, account.id)


@router.delete("/api/puzzles/{puzzle_id}", response_model=c.PuzzleDeleted)
async def delete(puzzle_id: PuzzleId, account: SignedIn, desk: PuzzleDeskDep) -> dict[str, Any]:
    """The author deletes the puzzle, its plays, likes and reports with it (``404 no_puzzle``
    to anyone else)."""
    await desk.delete(puzzle_id, account.id)
    return {"deleted": puzzle_id[:16]}


@router.get("/api/puzzles/{puzzle_id}/solution", response_model=c.PuzzleSolution)
async def solution(puzzle_id: PuzzleId, account: SignedIn, desk: PuzzleDeskDep) -> dict[str, Any]:
    """One solution (practice's hints, or shown on giving up); never while the same task is
    being played (``403 no_help``)."""
    return {"solution": await desk.solution(puzzle_id, account.id)}


@router.post("/api/puzzles/{puzzle_id}/plays", response_model=c.PuzzleStats)
async def played(
    puzzle_id: PuzzleId,
    body: c.PlayReport,
    request: Request,
    account: SignedIn,
    desk: PuzzleDeskDep,
) -> dict[str, Any]:
    """Keep the account's one play of the puzzle (counted, and teaching the puzzle's rating,
    once per address); its stats after."""
    address = client_address(request)
    await desk.play(puzzle_id, account.id, body.outcome, body.seconds, address)
    return await desk.stats(await desk.get(puzzle_id, account.id))


@router.put("/api/puzzles/{puzzle_id}/like", response_model=c.PuzzleStats)
async def like(
    puzzle_id: PuzzleId, body: c.Like, request: Request, account: SignedIn, desk: PuzzleDeskDep
) -> dict[str, Any]:
    """Like the puzzle (after playing it), or take the like back; its stats after."""
    await desk.like(puzzle_id, account.id, body.liked, client_address(request))
    return await desk.stats(await desk.get(puzzle_id, account.id))


@router.post("/api/puzzles/{puzzle_id}/report", response_model=c.PuzzleReported)
async def report(
    puzzle_id: PuzzleId, body: c.ReportPuzzle, account: SignedIn, desk: PuzzleDeskDep
) -> dict[str, Any]:
    """Report the puzzle to the moderators (``ubongo review puzzles``), once per account."""
    return {"reported": await desk.report(puzzle_id, account.id, body.reason)}
