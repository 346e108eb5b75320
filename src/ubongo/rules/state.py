"""The game state: plain dataclasses that serialize to JSON and back.

A :class:`Game` holds the resolved settings, the seed, the deck (not serialized: a game names
its deck and is given it again when loaded), everything on the table, the log of accepted
actions and the events they caused.  The engine never mutates a game it was given; it
returns a new one.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from enum import Enum
from typing import Any, Literal

from ubongo.puzzles.deck import Cards

from .actions import Action, action_from_json, action_to_json
from .errors import SettingsError
from .events import Event
from .settings import Settings

Phase = Literal["waiting", "playing", "over"]
RoundKind = Literal["round", "playoff", "tie-round", "solo"]


@dataclass
class Entry:
    """One player's task in the running round, and how it went."""

    player: str
    card: int
    side: str
    key: str
    finished_at: float | None = None
    place: int | None = None
    gave_up: bool = False

    @property
    def active(self) -> bool:
        """Still trying: neither finished nor given up."""
        return self.finished_at is None and not self.gave_up


@dataclass
class Round:
    """A round in progress (or the last one played, once it ended)."""

    kind: RoundKind
    number: int
    started_at: float
    entries: list[Entry]
    roller: str | None = None
    die: str | None = None
    deadline: float | None = None
    hourglass_turns: int = 0
    finish_order: list[str] = field(default_factory=list)
    ended_at: float | None = None

    def entry(self, player: str) -> Entry | None:
        for e in self.entries:
            if e.player == player:
                return e
        return None


@dataclass
class PlayerState:
    """A player's gems (Classic, 3D: every colour of the edition, from 0), won cards (Extreme,
    Trigo; the last is on top) and, in 3D, their own stack of boards (the next board first)."""

    id: str
    side: str
    gems: dict[str, int] = field(default_factory=dict)
    cards: list[int] = field(default_factory=list)
    stack: list[int] = field(default_factory=list)

    def score(self, gem_values: Mapping[str, int] | None) -> int:
        """Points: the gems' ``gem_values`` (an edition that scores gems), else won cards."""
        if gem_values is not None:
            return sum(gem_values[g] * n for g, n in self.gems.items())
        return len(self.cards)


@dataclass
class Solo:
    """The solo run: its clock and its record (``gave_up``: tasks given up, their solution
    shown; ``hints`` asked for, and the ``penalty`` seconds they added to a tasks run); in an
    endless run also the player's rating (rating, RD, volatility), the task in hand's rating
    and time limit, when it was dealt, and how many tasks were rated and ran out of time."""

    started_at: float | None = None
    ended_at: float | None = None
    solved: int = 0
    skipped: int = 0
    drawn: int = 0
    gave_up: int = 0
    hints: int = 0
    penalty: float = 0.0
    rating: tuple[float, float, float] | None = None
    task_rating: tuple[float, float, float] | None = None
    task_limit: float | None = None
    dealt_at: float | None = None
    rated: int = 0
    timed_out: int = 0
    #: the player ended the run before its goal (a time or tasks run so ended is no record)
    stopped: bool = False


@dataclass
class Game:
    """A whole game.  Read it freely; change it only through :func:`ubongo.rules.apply`."""

    settings: Settings
    seed: str
    deck: Cards = field(compare=False, repr=False, metadata={"json": False})
    players: list[PlayerState] = field(default_factory=list)
    phase: Phase = "waiting"
    now: float | None = None
    rounds_played: int = 0
    next_kind: RoundKind = "round"
    stack: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    box: list[int] = field(default_factory=list)
    display: dict[str, int] = field(default_factory=dict)
    bag: dict[str, int] = field(default_factory=dict)
    round: Round | None = None
    tied: list[str] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    solo: Solo | None = None
    reshuffles: int = 0
    events: list[Event] = field(default_factory=list)
    log: tuple[Action, ...] = ()

    def player(self, player_id: str) -> PlayerState:
        for p in self.players:
            if p.id == player_id:
                return p
        raise KeyError(player_id)

    @property
    def deadline(self) -> float | None:
        """When the server must call ``Advance``: the running clock's end, or ``None``."""
        return self.round.deadline if self.round is not None and self.phase == "playing" else None

    def scores(self) -> dict[str, int]:
        """Points per player: gem values (ruby 4, sapphire 3, emerald 2, amber 1) or cards."""
        scoring = self.settings.record.scoring
        values = scoring.gem_values if scoring.gems else None
        return {p.id: p.score(values) for p in self.players}

    def gem_total(self) -> dict[str, int]:
        """Every gem on the table, by colour: display + bag + players (always the supply)."""
        names = [g.name for g in self.settings.record.scoring.gems]
        total = {g: self.display.get(g, 0) + self.bag.get(g, 0) for g in names}
        for p in self.players:
            for g, n in p.gems.items():
                total[g] += n
        return total


# --- JSON ------------------------------------------------------------------------------------

FORMAT = "ubongo-game"
VERSION = 1


def _encode(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _encode(getattr(value, f.name))
            for f in fields(value)
            if f.metadata.get("json", True)
        }
    if isinstance(value, list | tuple):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    return value


def _decode(tp: Any, value: Any) -> Any:
    """``value`` (JSON data) read back as type ``tp``; the inverse of :func:`_encode`."""
    if tp is Any:
        return value
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(value)
    origin = typing.get_origin(tp)
    if origin is not None:
        return _decode_generic(origin, typing.get_args(tp), value)
    if isinstance(tp, type) and is_dataclass(tp):
        return _decode_dataclass(tp, value)
    return _decode_scalar(tp, value)


def _decode_generic(origin: Any, args: tuple[Any, ...], value: Any) -> Any:
    """A value of a parametrised type: ``Literal``, a union, ``list``, ``tuple``, ``dict``."""
    if origin is Literal:
        if value not in args:
            raise ValueError(f"{value!r} is not one of {args}")
        return value
    if origin in (typing.Union, types.UnionType):
        return _decode_union(args, value)
    if origin is list:
        return [_decode(args[0], v) for v in value]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in value)
        return tuple(_decode(a, v) for a, v in zip(args, value, strict=True))
    if origin is dict:
        return {_decode(args[0], k): _decode(args[1], v) for k, v in value.items()}
    raise TypeError(f"cannot read a {origin!r}")


def _decode_union(args: tuple[Any, ...], value: Any) -> Any:
    """The first member of the union that reads ``value``."""
    if value is None and type(None) in args:
        return None
    errors = []
    for a in args:
        if a is type(None):
            continue
        try:
            return _decode(a, value)
        except (TypeError, ValueError, KeyError) as e:
            errors.append(str(e))
    raise ValueError(f"{value!r} matches none of {args}: {'; '.join(errors)}")


def _decode_dataclass(tp: type, value: Any) -> Any:
    """A dataclass from its JSON object; fields left out take their defaults."""
    if not isinstance(value, dict):
        raise TypeError(f"expected an object for {tp.__name__}")
    hints = typing.get_type_hints(tp)
    kwargs = {f.name: _decode(hints[f.name], value[f.name]) for f in fields(tp) if f.name in value}
    return tp(**kwargs)


def _decode_scalar(tp: Any, value: Any) -> Any:
    """A number, string or truth value, checked (JSON's ``true`` is not a number here)."""
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"expected a number, not {value!r}")
        return float(value)
    if tp in (int, str, bool):
        if not isinstance(value, tp) or (tp is int and isinstance(value, bool)):
            raise TypeError(f"expected {tp.__name__}, not {value!r}")
        return value
    raise TypeError(f"cannot read a {tp!r}")


def deck_ref(deck: Cards) -> dict[str, Any]:
    """What a saved game records about its deck, to check it is given the same one again."""
    return {"name": deck.edition, "seed": deck.seed, "cards": deck.size}


def game_to_json(game: Game) -> dict[str, Any]:
    """The whole game as JSON data (the deck only by reference)."""
    data = _encode(game)
    data["log"] = [action_to_json(a) for a in game.log]
    return {"format": FORMAT, "version": VERSION, "deck": deck_ref(game.deck), "game": data}


def game_from_json(data: Any, deck: Cards) -> Game:
    """The game saved by :func:`game_to_json`, played with ``deck``.

    Raises :class:`SettingsError` if the data is not a saved game or names another deck."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise SettingsError(f"not a saved game (expected format {FORMAT} version {VERSION})")
    if data.get("deck") != deck_ref(deck):
        raise SettingsError(
            f"the game was played with deck {data.get('deck')}, not {deck_ref(deck)}"
        )
    body = dict(data["game"])
    log = tuple(action_from_json(a) for a in body.pop("log", []))
    body["deck"] = None
    try:
        hints = typing.get_type_hints(Game)
        kwargs = {
            f.name: _decode(hints[f.name], body[f.name])
            for f in fields(Game)
            if f.name in body and f.name not in ("deck", "log")
        }
    except (KeyError, TypeError, ValueError) as e:
        raise SettingsError(f"malformed saved game: {type(e).__name__}: {e}") from None
    return Game(deck=deck, log=log, **kwargs)
