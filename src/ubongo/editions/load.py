"""Reading and checking an edition's data file into an :class:`EditionRecord`.

Every mistake is an :class:`EditionDataError` naming the file and the field, e.g.
``classic.json: timer.hourglass_seconds: expected a number above 0, not 'sixty'``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib.resources.abc import Traversable
from typing import Any, TypeVar

from ubongo.geometry import lattice

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

FORMAT = "ubongo-edition"
VERSION = 1

T = TypeVar("T")
C = TypeVar("C", bound=str)


class EditionDataError(ValueError):
    """An edition record that cannot be used: says which file and which field, and why."""


class _Fields:
    """One JSON object of a record, read field by field; errors name ``file: path.field``."""

    def __init__(self, data: Any, file: str, path: str = "") -> None:
        self.file = file
        self.path = path
        if not isinstance(data, dict):
            self.fail("", f"expected an object, not {_short(data)}")
        self.data: dict[str, Any] = data

    def fail(self, key: str, message: str) -> None:
        where = ".".join(p for p in (self.path, key) if p) or "(the record)"
        raise EditionDataError(f"{self.file}: {where}: {message}")

    def value(self, key: str, default: Any = ...) -> Any:
        if key not in self.data:
            if default is ...:
                self.fail(key, "missing")
            return default
        return self.data[key]

    def text(self, key: str, default: Any = ...) -> str:
        v = self.value(key, default)
        if not isinstance(v, str) or (default is ... and not v):
            self.fail(key, f"expected a non-empty string, not {_short(v)}")
        return str(v)

    def whole(self, key: str, low: int = 0, default: Any = ...) -> int:
        v = self.value(key, default)
        if isinstance(v, bool) or not isinstance(v, int) or v < low:
            self.fail(key, f"expected a whole number of at least {low}, not {_short(v)}")
        return int(v)

    def number(self, key: str, default: Any = ...) -> float:
        v = self.value(key, default)
        if isinstance(v, bool) or not isinstance(v, int | float) or v <= 0:
            self.fail(key, f"expected a number above 0, not {_short(v)}")
        return float(v)

    def flag(self, key: str) -> bool:
        v = self.value(key)
        if not isinstance(v, bool):
            self.fail(key, f"expected true or false, not {_short(v)}")
        return bool(v)

    def choice(self, key: str, allowed: tuple[C, ...], default: Any = ...) -> C:
        v = self.value(key, default)
        if v not in allowed:
            self.fail(key, f"expected one of {', '.join(allowed)}, not {_short(v)}")
        return allowed[allowed.index(v)]

    def items(self, key: str, read: Callable[[Any, str], T], default: Any = ...) -> tuple[T, ...]:
        v = self.value(key, default)
        if not isinstance(v, list):
            self.fail(key, f"expected a list, not {_short(v)}")
        return tuple(read(item, f"{self.sub(key)}[{i}]") for i, item in enumerate(v))

    def texts(self, key: str, default: Any = ...) -> tuple[str, ...]:
        def one(item: Any, where: str) -> str:
            if not isinstance(item, str) or not item:
                raise EditionDataError(
                    f"{self.file}: {where}: expected a string, not {_short(item)}"
                )
            return item

        return self.items(key, one, default)

    def obj(self, key: str, default: Any = ...) -> _Fields:
        return _Fields(self.value(key, default), self.file, self.sub(key))

    def sub(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key


def _short(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False) if v is not ... else "nothing"
    return text if len(text) <= 40 else text[:37] + "..."


def _side(data: Any, file: str, where: str) -> SideSpec:
    f = _Fields(data, file, where)
    sizes = f.obj("area_sizes", {})
    pairs = []
    for size, weight in sizes.data.items():
        if not size.isdigit() or isinstance(weight, bool) or not isinstance(weight, int):
            sizes.fail(size, "expected cells (digits) mapped to a whole weight")
        pairs.append((int(size), int(weight)))
    return SideSpec(
        name=f.text("name"),
        label=f.text("label"),
        pieces=f.whole("pieces", 1),
        tasks=f.whole("tasks", 1),
        area_sizes=tuple(sorted(pairs)),
        cells=f.whole("cells", 0, 0),
        fewer=f.whole("fewer", 0, 0),
    )


def _pair(data: Any, file: str, where: str) -> tuple[tuple[str, ...], int]:
    if (
        not isinstance(data, list)
        or len(data) != 2
        or not isinstance(data[0], list)
        or not all(isinstance(s, str) for s in data[0])
        or isinstance(data[1], bool)
        or not isinstance(data[1], int)
    ):
        raise EditionDataError(f"{file}: {where}: expected [[side, side], number of cards]")
    return tuple(data[0]), int(data[1])


def _deck(f: _Fields, base: Traversable) -> DeckShape:
    keys = f.obj("keys")
    sides = f.items("sides", lambda d, w: _side(d, f.file, w))
    if not sides:
        f.fail("sides", "an edition's cards have at least one side")
    names = [s.name for s in sides]
    if len(set(names)) != len(names):
        f.fail("sides", f"side names repeat: {names}")
    pairs = f.items("side_pairs", lambda d, w: _pair(d, f.file, w), [])
    for i, (pair, _n) in enumerate(pairs):
        for name in pair:
            if name not in names:
                f.fail(f"side_pairs[{i}]", f"no side {name!r}")
    box = f.value("footprint", None)
    footprint = None
    if box is not None:
        try:
            (a, b), (c, d) = box
            footprint = ((int(a), int(b)), (int(c), int(d)))
        except (TypeError, ValueError):
            f.fail("footprint", "expected [[smallest, largest], [smallest, largest]]")
    file = f.value("file", None)
    if file is not None and not isinstance(file, str):
        f.fail("file", f"expected a file name or null, not {_short(file)}")
    return DeckShape(
        cards=f.whole("cards", 1),
        card_word=f.text("card_word"),
        key_kind=keys.choice("kind", KEY_KINDS),
        keys=keys.texts("values"),
        regions=f.whole("regions", 1),
        sides=sides,
        seed=f.whole("seed", 0),
        file=None if file is None else base.joinpath(file),
        side_pairs=pairs,
        footprint=footprint,
    )


def _timer(f: _Fields, sides: tuple[str, ...]) -> Timer:
    kind = f.choice("kind", TIMER_KINDS)
    if kind == "hourglass":
        return Timer(kind, hourglass=f.number("hourglass_seconds"))
    per_side = f.obj("countdown_seconds")
    for side in sides:
        per_side.number(side)
    extra = set(per_side.data) - set(sides)
    if extra:
        per_side.fail(sorted(extra)[0], "not a side of the edition")
    return Timer(kind, countdown=tuple((s, per_side.number(s)) for s in sides))


def _scoring(f: _Fields) -> Scoring:
    kind = f.choice("kind", SCORING_KINDS)
    if kind == "cards":
        return Scoring(kind)

    def gem(data: Any, where: str) -> Gem:
        g = _Fields(data, f.file, where)
        return Gem(g.text("name"), g.whole("value", 1), g.whole("supply", 0))

    gems = f.items("gems", gem)
    names = [g.name for g in gems]
    place = f.texts("place_gems")
    for i, name in enumerate(place):
        if name not in names:
            f.fail(f"place_gems[{i}]", f"no gem {name!r} in gems")
    return Scoring(kind, gems, place, f.whole("display_limit", 1))


def _web(f: _Fields, variants: tuple[str, ...]) -> WebFacts:
    labels = f.obj("variant_labels", {})
    for name in labels.data:
        if name not in variants:
            labels.fail(name, "not a variant the edition offers")
        labels.text(name)
    return WebFacts(
        side_word=f.text("side_word"),
        how_to=f.texts("how_to"),
        playable=f.flag("playable"),
        variant_labels=tuple(sorted(labels.data.items())),
    )


def record_from_json(data: Any, file: str, base: Traversable) -> EditionRecord:
    """Check ``data`` (a parsed record) and build the record; ``file`` names it in errors and
    ``base`` is the folder its ``pieces`` and ``deck.file`` names are relative to."""
    # the first fault found is the one reported: the checks keep their order
    f = _Fields(data, file)
    lat = _lattice_name(f)
    deck = _deck(f.obj("deck"), base)
    sides = deck.side_names
    players = _players(f)
    tie = f.obj("tie_break")
    allowed = tie.items("allowed", lambda v, w: _one_of(v, TIE_BREAKS, f.file, w))
    scoring = _scoring(f.obj("scoring"))
    variants = f.items("variants", lambda v, w: _one_of(v, VARIANTS, f.file, w))
    tie_round_key = _tie_round_key(f, deck.keys, allowed)
    rounds = f.whole("rounds", 1)
    if scoring.display_limit is not None and rounds > scoring.display_limit:
        f.fail("rounds", f"the gem display holds at most {scoring.display_limit} rounds")
    solo = f.obj("solo")
    return EditionRecord(
        name=f.text("name"),
        order=f.whole("order", 0),
        title=f.text("title"),
        blurb=f.text("blurb"),
        lattice=lat,
        reflections=f.flag("reflections"),
        pieces_file=base.joinpath(f.text("pieces")),
        deck=deck,
        players=players,
        rounds=rounds,
        default_side=f.choice("default_side", sides),
        deal=f.choice("deal", DEALS),
        timer=_timer(f.obj("timer"), sides),
        scoring=scoring,
        tie_break=tie.choice("default", allowed),
        tie_breaks=allowed,
        tie_round_key=tie_round_key,
        variants=variants,
        solo=Solo(
            solo.whole("minutes", 1),
            solo.whole("tasks", 1),
            solo.items("amounts", lambda v, w: _amount(v, f.file, w)),
        ),
        web=_web(f.obj("web"), variants),
    )


def _lattice_name(f: _Fields) -> str:
    """The record's lattice, once its format and version are known to be this loader's."""
    if f.value("format", None) != FORMAT or f.value("version", None) != VERSION:
        f.fail("format", f'expected "format": "{FORMAT}" and "version": {VERSION}')
    lat = f.text("lattice")
    try:
        lattice(lat)
    except (KeyError, ValueError):
        f.fail("lattice", f"no lattice {lat!r}")
    return lat


def _players(f: _Fields) -> tuple[int, int]:
    """The fewest and the most players."""
    players = f.value("players")
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in players)
        or not 1 <= players[0] <= players[1]
    ):
        f.fail(
            "players", f"expected [fewest, most] with 1 <= fewest <= most, not {_short(players)}"
        )
    return int(players[0]), int(players[1])


def _tie_round_key(f: _Fields, keys: tuple[str, ...], allowed: tuple[str, ...]) -> str | None:
    """The key a tie round is played with: one of the deck's, and named if one is allowed."""
    tie_round_key = f.value("tie_round_key", None)
    if tie_round_key is not None and tie_round_key not in keys:
        f.fail("tie_round_key", f"expected one of the keys {', '.join(keys)} or null")
    if "tie-round" in allowed and tie_round_key is None:
        f.fail(
            "tie_round_key", "an edition that allows a tie round names the key it is played with"
        )
    return None if tie_round_key is None else str(tie_round_key)  # one of the keys


def _one_of(value: Any, allowed: tuple[str, ...], file: str, where: str) -> str:
    if value not in allowed:
        raise EditionDataError(
            f"{file}: {where}: expected one of {', '.join(allowed)}, not {_short(value)}"
        )
    return str(value)


def _amount(value: Any, file: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise EditionDataError(f"{file}: {where}: expected a whole number of at least 1")
    return int(value)


def load_record(path: Traversable, base: Traversable | None = None) -> EditionRecord:
    """Read and check the record in file ``path``; names in it are relative to ``base``
    (default: the file's folder).  Raises :class:`EditionDataError`."""
    try:
        text = path.read_text("utf-8")
    except OSError as e:
        raise EditionDataError(f"{path.name}: cannot read it ({e.strerror or e})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise EditionDataError(f"{path.name}: not JSON: {e}") from None
    folder = base if base is not None else _parent(path)
    return record_from_json(data, path.name, folder)


def _parent(path: Traversable) -> Traversable:
    parent = getattr(path, "parent", None)
    if parent is None:
        raise EditionDataError(f"{path.name}: give the folder its names are relative to")
    return parent  # type: ignore[no-any-return]
