"""The typed, frozen edition record: every fact of one edition, as its data file states it.

Field by field, with the shipped values, in ``docs/editions.md``.  The policy fields
(``keys.kind``, ``deal``, ``timer.kind``, ``scoring.kind``) name one of the known policies
below; the rules layer maps each name to code (:mod:`ubongo.rules.policies`).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import Any, Literal, get_args

#: how the task of a card is chosen: a die roll, the corners in order, or the card's only task
KeyKind = Literal["die", "corner", "card"]
KEY_KINDS: tuple[KeyKind, ...] = get_args(KeyKind)
#: how cards reach players: one shared stack that is reshuffled when empty, as many shared
#: cards as the game needs (the rest back in the box), or a stack of their own per player
DEALS = ("shared-stack", "counted-stack", "own-stacks")
#: what times a round: an hourglass (with a second chance), or a countdown after the first finish
TIMER_KINDS = ("hourglass", "countdown")
#: what a round is worth: gems from a display and a bag, or the card played
SCORING_KINDS = ("gems", "cards")
#: how a tie for the most points is broken
TIE_BREAKS = ("playoff", "tie-round", "shared")
#: the variants the rules know: every finisher in time scores, or only the first
VARIANTS = ("standard", "only-first")


@dataclass(frozen=True)
class SideSpec:
    """One side (a 3D level) of the edition's cards: what it is called and how it is made.

    ``pieces`` per task (Trigo: both regions together), ``tasks`` per side.  ``area_sizes``:
    the generator's area sizes (cells) with their weights; empty: any size.  3D only:
    ``cells`` of the footprint and ``fewer``, how many sides of the level get one task fewer.
    """

    name: str
    label: str
    pieces: int
    tasks: int
    area_sizes: tuple[tuple[int, int], ...] = ()
    cells: int = 0
    fewer: int = 0


@dataclass(frozen=True)
class DeckShape:
    """The deck: how many cards, what they are called, their sides and how a task is chosen.

    ``keys`` are the task keys (die faces, corners, ``card``) of kind ``key_kind``.
    ``side_pairs``: which two sides share a card, and on how many cards (empty: every card
    has every side, in order).  ``footprint``: the 3D footprint's smaller and larger side
    bounds.  ``file`` is the shipped deck (``None``: none is shipped), made from ``seed``.
    """

    cards: int
    card_word: str
    key_kind: KeyKind
    keys: tuple[str, ...]
    regions: int
    sides: tuple[SideSpec, ...]
    seed: int
    file: Traversable | None = None
    side_pairs: tuple[tuple[tuple[str, ...], int], ...] = ()
    footprint: tuple[tuple[int, int], tuple[int, int]] | None = None

    @property
    def side_names(self) -> tuple[str, ...]:
        """The sides' (3D: levels') names, in the record's order."""
        return tuple(s.name for s in self.sides)

    def side(self, name: str) -> SideSpec:
        """The side called ``name``; KeyError if the edition has none."""
        for s in self.sides:
            if s.name == name:
                return s
        raise KeyError(f"no side {name!r} (sides: {', '.join(self.side_names)})")


@dataclass(frozen=True)
class Timer:
    """What times a round: ``hourglass`` seconds per turn, or ``countdown`` seconds per side."""

    kind: str
    hourglass: float | None = None
    countdown: tuple[tuple[str, float], ...] = ()

    def countdown_for(self, side: str) -> float:
        """The countdown on ``side``; KeyError for a side without one."""
        return dict(self.countdown)[side]


@dataclass(frozen=True)
class Gem:
    """One colour of gem: its points and how many are in the box."""

    name: str
    value: int
    supply: int


@dataclass(frozen=True)
class Scoring:
    """``gems`` (``gems`` in the bag's drawing order, ``place_gems[i]`` from the display for
    place ``i + 1``, at most ``display_limit`` rounds) or ``cards`` (a won card is a point)."""

    kind: str
    gems: tuple[Gem, ...] = ()
    place_gems: tuple[str, ...] = ()
    display_limit: int | None = None

    @property
    def gem_values(self) -> dict[str, int]:
        """Points per gem, by gem name."""
        return {g.name: g.value for g in self.gems}

    @property
    def gem_supply(self) -> dict[str, int]:
        """How many of each gem the game box holds, by gem name."""
        return {g.name: g.supply for g in self.gems}


@dataclass(frozen=True)
class Solo:
    """A solo run's defaults: ``minutes`` (goal "time"), ``tasks`` (goal "tasks") and the
    amounts a client offers."""

    minutes: int
    tasks: int
    amounts: tuple[int, ...]


@dataclass(frozen=True)
class WebFacts:
    """What the web client shows that the rules do not need."""

    side_word: str
    how_to: tuple[str, ...]
    playable: bool
    variant_labels: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class EditionRecord:
    """Every fact of one edition.  Built by :func:`ubongo.editions.load_record`, never by hand
    in the product (tests may, through :func:`ubongo.editions.register`)."""

    name: str
    order: int
    title: str
    blurb: str
    lattice: str
    reflections: bool
    pieces_file: Traversable
    deck: DeckShape
    players: tuple[int, int]
    rounds: int
    default_side: str
    deal: str
    timer: Timer
    scoring: Scoring
    tie_break: str
    tie_breaks: tuple[str, ...]
    tie_round_key: str | None
    variants: tuple[str, ...]
    solo: Solo
    web: WebFacts

    @property
    def layers(self) -> int:
        """How many layers an area is filled to: 2 on the cube lattice (3D), else 1."""
        return 2 if self.lattice == "cube" else 1

    @property
    def own_sides(self) -> bool:
        """Whether each player chooses their own side (3D: a level) and plays their own stack."""
        return self.deal == "own-stacks"

    @property
    def gems(self) -> bool:
        """Whether the edition scores with gems (and times rounds with what its timer says)."""
        return self.scoring.kind == "gems"

    def web_json(self) -> dict[str, Any]:
        """The facts the web client shows, as JSON (served by ``GET /api/options``)."""
        return {
            "title": self.title,
            "blurb": self.blurb,
            "side_labels": {s.name: s.label for s in self.deck.sides},
            "side_word": self.web.side_word,
            "key_kind": self.deck.key_kind,
            "gems": self.gems,
            "gem_values": dict(self.scoring.gem_values),
            "place_gems": list(self.scoring.place_gems),
            "gem_supply": dict(self.scoring.gem_supply),
            "key_values": list(self.deck.keys),
            "tie_break": self.tie_break,
            "tie_round_key": self.tie_round_key,
            "layers": self.layers,
            "how_to": list(self.web.how_to),
            "playable": self.web.playable,
            "variant_labels": dict(self.web.variant_labels),
            "solo_default": {"time": self.solo.minutes, "tasks": self.solo.tasks},
        }
