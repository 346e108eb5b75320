"""The practice bundle: tasks with their solutions, the editions' options and catalogues, all
in one answer that the web client's service worker keeps for playing offline.

A route rather than a file written at build time: the tasks come from the decks this server
ships and are solved by its solver, so a client always practises on what its server would
deal, and the web build needs no Python step (``npm run dev`` gets it through the proxy).
Made once per process (the solver takes about a second for the 3D tasks), off the event loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from functools import cache
from typing import Any

from fastapi import APIRouter, Response

from ubongo import catalogue
from ubongo import editions as edition_data
from ubongo.puzzles.practice import practice_tasks, versus_cards

from ..protocol import answers as bodies
from .editions import options

router = APIRouter()


@cache
def bundle_bytes() -> bytes:
    """The bundle as JSON bytes (``bodies.PracticeBundle``); its version is a digest of the
    rest, so a client sees a new version exactly when something in it changed."""
    every = options()
    body: dict[str, Any] = {}
    for name in edition_data.names():
        if not every[name]["playable"]:
            continue
        body[name] = {
            "options": every[name],
            "catalogue": catalogue.edition_catalogue(name),
            "tasks": [t.to_json() for t in practice_tasks(name)],
            # local versus deals a card per player per round: the whole deck, no solutions
            "cards": versus_cards(name),
        }
    text = json.dumps(body, separators=(",", ":"), sort_keys=True)
    version = hashlib.sha256(text.encode()).hexdigest()[:16]
    return json.dumps({"version": version, "editions": body}, separators=(",", ":")).encode()


@router.get(
    "/api/practice-bundle",
    response_class=Response,
    responses={200: {"model": bodies.PracticeBundle, "content": {"application/json": {}}}},
)
async def practice_bundle() -> Response:
    """Every playable edition's practice tasks with one solution each, its options and its
    drawing catalogue (``docs/protocol.md``)."""
    data = await asyncio.to_thread(bundle_bytes)
    # the service worker asks the network first and keeps the answer: no browser caching
    # of its own in between, so a new server's bundle reaches it at once
    return Response(data, media_type="application/json", headers={"Cache-Control": "no-cache"})
