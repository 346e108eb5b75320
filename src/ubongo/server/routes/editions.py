"""The editions: their names, their drawing catalogues, and what the menus offer."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ubongo import catalogue
from ubongo.pieces import EDITION_NAMES
from ubongo.rules.settings import (
    DEFAULT_COUNTDOWN,
    DEFAULT_HOURGLASS,
    DEFAULT_ROUNDS,
    DEFAULT_SIDE,
    OWN_SIDE_EDITIONS,
    RACE_PLAYERS,
    SIDES,
    SOLO_TARGETS,
)

from ..protocol import ProtocolError

router = APIRouter()


def options() -> dict[str, Any]:
    """What a client offers in its menus, per edition."""
    out: dict[str, Any] = {}
    for ed in EDITION_NAMES:
        gems = ed in DEFAULT_HOURGLASS
        out[ed] = {
            "sides": list(SIDES[ed]),
            "default_side": DEFAULT_SIDE[ed],
            "per_player_side": ed in OWN_SIDE_EDITIONS,
            "players": list(RACE_PLAYERS[ed]),
            "variants": ["standard"] if gems else ["standard", "only-first"],
            "rounds": DEFAULT_ROUNDS[ed],
            "hourglass_seconds": DEFAULT_HOURGLASS.get(ed),
            "countdown_seconds": None
            if gems
            else {s: DEFAULT_COUNTDOWN[s] for s in SIDES[ed] if s in DEFAULT_COUNTDOWN},
            "solo_goals": ["time", "tasks"],
            "solo_amounts": list(SOLO_TARGETS),
        }
    return out


@router.get("/api/editions")
async def editions() -> list[str]:
    """The editions' names."""
    return list(EDITION_NAMES)


@router.get("/api/editions/{name}")
async def edition_catalogue(name: str) -> Any:
    """What a client needs to draw edition ``name``: its pieces and their turns."""
    if name not in EDITION_NAMES:
        raise ProtocolError("no_edition", f"no edition {name!r}")
    return catalogue.edition_catalogue(name)


@router.get("/api/options")
async def get_options() -> dict[str, Any]:
    """:func:`options`."""
    return options()
