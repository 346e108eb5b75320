"""The editions: their names, their drawing catalogues, and what the menus offer."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ubongo import catalogue
from ubongo import editions as edition_data
from ubongo.rules.settings import SOLO_GOALS

from ..ops.security import quote
from ..protocol import answers as bodies
from ..protocol.incoming import ProtocolError

router = APIRouter()


def options() -> dict[str, Any]:
    """What a client offers in its menus, and shows of each edition, per edition (its record)."""
    out: dict[str, Any] = {}
    for rec in edition_data.records():
        timer = rec.timer
        out[rec.name] = {
            "sides": list(rec.deck.side_names),
            "default_side": rec.default_side,
            "per_player_side": rec.own_sides,
            "players": list(rec.players),
            "variants": list(rec.variants),
            "rounds": rec.rounds,
            "hourglass_seconds": timer.hourglass,
            "countdown_seconds": dict(timer.countdown) or None,
            "solo_goals": list(SOLO_GOALS),
            "solo_amounts": list(rec.solo.amounts),
            **rec.web_json(),
        }
    return out


@router.get("/api/editions", response_model=bodies.EditionNames)
async def editions() -> list[str]:
    """The editions' names."""
    return list(edition_data.names())


@router.get("/api/editions/{name}", response_model=bodies.EditionCatalogue)
async def edition_catalogue(name: str) -> Any:
    """What a client needs to draw edition ``name``: its pieces and their turns."""
    if name not in edition_data.names():
        raise ProtocolError("no_edition", f"no edition {quote(name)}")
    return catalogue.edition_catalogue(name)


@router.get("/api/options", response_model=bodies.Options)
async def get_options() -> dict[str, Any]:
    """:func:`options`."""
    return options()
