"""The editions: one record per edition, read from ``ubongo/data/editions/<name>.json``.

Every layer (pieces, decks, generator, rules, server, command line, and the web client through
``GET /api/options``) reads an edition's facts here; nothing else in the package names an
edition.  What a record holds is in ``docs/editions.md``.

>>> names()
('classic', '3d', 'extreme', 'trigo')
>>> r = record("trigo")
>>> r.lattice, r.deck.regions, r.deck.side_names, r.solo.minutes
('triangle', 2, ('easy', 'hard'), 20)
>>> r.timer.kind, r.timer.countdown_for("hard"), r.scoring.kind, r.tie_break
('countdown', 30.0, 'cards', 'shared')
>>> record("chess")
Traceback (most recent call last):
...
ValueError: unknown edition 'chess'; expected one of classic, 3d, extreme, trigo

An edition that is not shipped (a test's, a plug-in's) is added with :func:`register`.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from .load import EditionDataError, load_record, record_from_json
from .record import (
    DEALS,
    KEY_KINDS,
    SCORING_KINDS,
    TIE_BREAKS,
    TIMER_KINDS,
    VARIANTS,
    DeckShape,
    EditionRecord,
    Gem,
    Scoring,
    SideSpec,
    Solo,
    Timer,
    WebFacts,
)

_records: dict[str, EditionRecord] = {}
#: the names added with register(), as opposed to the shipped ones
_registered: set[str] = set()


def _data() -> Traversable:
    return resources.files("ubongo").joinpath("data")


def _shipped() -> dict[str, EditionRecord]:
    if not _records:
        found = []
        for f in _data().joinpath("editions").iterdir():
            if f.name.endswith(".json"):
                r = load_record(f, _data())
                if f.name != f"{r.name}.json":
                    raise EditionDataError(f"{f.name}: name: the file must be called {r.name}.json")
                found.append(r)
        for r in sorted(found, key=lambda r: (r.order, r.name)):
            _records[r.name] = r
    return _records


def names() -> tuple[str, ...]:
    """The names of every edition, shipped ones first in their ``order``, then registered ones."""
    return tuple(_shipped())


def records() -> tuple[EditionRecord, ...]:
    """Every edition's record, in the order of :func:`names`."""
    return tuple(_shipped().values())


def record(name: str) -> EditionRecord:
    """The record of edition ``name``; ValueError naming the known ones if there is none."""
    found = _shipped().get(name)
    if found is None:
        raise ValueError(f"unknown edition {name!r}; expected one of {', '.join(names())}")
    return found


def register(rec: EditionRecord) -> None:
    """Add an edition that is not shipped (made with :func:`load_record`), e.g. for a test.

    Its pieces, decks, rules and catalogue then work like a shipped edition's.  A name that is
    taken is refused (ValueError)."""
    if rec.name in _shipped():
        raise ValueError(f"an edition called {rec.name!r} is already known")
    _records[rec.name] = rec
    _registered.add(rec.name)


def unregister(name: str) -> None:
    """Forget an edition added with :func:`register` (a test cleaning up after itself).

    A shipped edition cannot be forgotten (ValueError)."""
    if name not in _registered:
        raise ValueError(f"{name!r} was not registered")
    _registered.discard(name)
    del _records[name]


__all__ = [
    "DEALS",
    "KEY_KINDS",
    "SCORING_KINDS",
    "TIE_BREAKS",
    "TIMER_KINDS",
    "VARIANTS",
    "DeckShape",
    "EditionDataError",
    "EditionRecord",
    "Gem",
    "Scoring",
    "SideSpec",
    "Solo",
    "Timer",
    "WebFacts",
    "load_record",
    "names",
    "record",
    "record_from_json",
    "records",
    "register",
    "unregister",
]
