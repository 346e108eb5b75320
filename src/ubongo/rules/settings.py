"""Game settings: which edition, who plays, and every rule a table agrees on before playing.

Fields left at ``None`` take the edition's default when the game starts
(:meth:`Settings.resolved`); the game keeps the resolved settings, so the values in force are
always visible.  Every default and every choice where a rulebook is silent is written down in
``docs/rules.md``.

>>> s = Settings("extreme", ("ann", "bob")).resolved()
>>> s.side, s.rounds, s.countdown, s.tie_break
('A', 8, 20.0, 'tie-round')
>>> Settings("classic", ("ann",), side="B").resolved().hourglass
60.0
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from ubongo.pieces import EDITION_NAMES
from ubongo.puzzles.deck import LEVELS

from .errors import SettingsError

Mode = Literal["race", "solo"]
#: how the game ends when several players share the most points
TieBreak = Literal["playoff", "tie-round", "shared"]
#: Extreme "increased difficulty" / Trigo "expert": only the round's first finisher scores
Variant = Literal["standard", "only-first"]
#: in the only-first variant, what happens to the other players' cards
OthersCards = Literal["discard", "to-first"]
SoloGoal = Literal["time", "tasks"]

#: the sides a game can be played on, per edition (3D: the board levels)
SIDES: dict[str, tuple[str, ...]] = {
    "classic": ("A", "B"),
    "3d": LEVELS,
    "extreme": ("A", "B"),
    "trigo": ("easy", "hard"),
}
#: the side a table plays unless it chooses another (the rulebooks recommend the easy side first)
DEFAULT_SIDE = {"classic": "A", "3d": "yellow", "extreme": "A", "trigo": "easy"}
#: gem editions (hourglass, die, gem display) and card editions (countdown, cards as points)
GEM_EDITIONS = ("classic", "3d")
CARD_EDITIONS = ("extreme", "trigo")
#: editions where each player chooses their own side (3D: a level) and plays boards of their
#: own; in the others everybody plays the table's side from one shared stack
OWN_SIDE_EDITIONS = ("3d",)
#: the length of one turn of the hourglass, in seconds (a choice: see docs/rules.md)
DEFAULT_HOURGLASS = {"classic": 60.0, "3d": 90.0}
#: the countdown after the first finisher: 20 on the easy side, 30 on the hard one
DEFAULT_COUNTDOWN = {"A": 20.0, "B": 30.0, "easy": 20.0, "hard": 30.0}
DEFAULT_ROUNDS = {"classic": 9, "3d": 9, "extreme": 8, "trigo": 8}
DEFAULT_TIE_BREAK: dict[str, TieBreak] = {
    "classic": "playoff",
    "3d": "playoff",
    "extreme": "tie-round",
    "trigo": "shared",
}
#: players per race game: Classic and 3D 1-4; Extreme and Trigo 2-4 (one player plays solo)
RACE_PLAYERS = {"classic": (1, 4), "3d": (1, 4), "extreme": (2, 4), "trigo": (2, 4)}
SOLO_TARGETS = (5, 10, 20)
#: a solo run's default length: minutes for the goal "time" (Trigo's rulebook: 20), tasks for
#: the goal "tasks"
DEFAULT_SOLO_MINUTES = {"classic": 5, "3d": 5, "extreme": 5, "trigo": 20}
DEFAULT_SOLO_TASKS = 5


@dataclass(frozen=True)
class Settings:
    """What the table agreed on.  ``players`` are ids in seating order, clockwise: the player
    to someone's *left* is the next one in the tuple (and the first follows the last).  The
    first player is the youngest: the first die roller (Classic, 3D), the starting player
    (Trigo).

    ``side`` is the side everyone plays (Classic/Extreme ``A``/``B``, Trigo
    ``easy``/``hard``); in 3D ``levels`` gives each player's level (one value: the same for
    all).  ``hourglass`` and ``countdown`` are in seconds.  ``round_limit`` caps a countdown
    round in which nobody has finished yet, ``playoff_limit`` a playoff or tie round (``None``:
    no limit, as at the table).  Solo: ``solo_goal`` ``"time"`` means as many tasks as
    possible in ``solo_target`` minutes, ``"tasks"`` the time needed for ``solo_target``
    tasks.
    """

    edition: str
    players: tuple[str, ...]
    mode: Mode = "race"
    side: str | None = None
    levels: tuple[str, ...] = ()
    rounds: int | None = None
    hourglass: float | None = None
    second_chance: bool = True
    countdown: float | None = None
    variant: Variant = "standard"
    others_cards: OthersCards = "discard"
    tie_break: TieBreak | None = None
    round_limit: float | None = None
    playoff_limit: float | None = None
    solo_goal: SoloGoal = "time"
    solo_target: int | None = None
    deck: str = ""

    @property
    def gems(self) -> bool:
        """Whether this edition scores with gems (Classic, 3D) rather than cards."""
        return self.edition in GEM_EDITIONS

    @property
    def solo(self) -> bool:
        return self.mode == "solo"

    @property
    def own_sides(self) -> bool:
        """Whether each player chooses their own side (3D levels) and has their own boards."""
        return self.edition in OWN_SIDE_EDITIONS

    def level_of(self, player: str) -> str:
        """The side (3D: level) ``player`` plays."""
        if self.own_sides and self.levels:
            if len(self.levels) == 1:
                return self.levels[0]
            return self.levels[self.players.index(player)]
        assert self.side is not None, "resolve the settings first"
        return self.side

    def resolved(self) -> Settings:
        """These settings with every ``None`` replaced by the edition's default, checked.

        Raises :class:`SettingsError` naming the first thing that is wrong."""
        ed = self.edition
        if ed not in EDITION_NAMES:
            raise SettingsError(
                f"unknown edition {ed!r}; expected one of {', '.join(EDITION_NAMES)}"
            )
        if self.mode not in ("race", "solo"):
            raise SettingsError(f"unknown mode {self.mode!r}; expected race or solo")
        players = tuple(self.players)
        if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
            raise SettingsError("players must be distinct, non-empty names")
        if self.mode == "solo":
            if len(players) != 1:
                raise SettingsError(f"solo is for one player, not {len(players)}")
        else:
            lo, hi = RACE_PLAYERS[ed]
            if not lo <= len(players) <= hi:
                extra = " (one player plays the solo variant)" if lo > 1 else ""
                raise SettingsError(f"{ed} is for {lo}-{hi} players, not {len(players)}{extra}")
        side = self.side
        levels = tuple(self.levels)
        if ed in OWN_SIDE_EDITIONS:
            if side is not None and not levels:
                levels = (side,)
            if not levels:
                levels = (DEFAULT_SIDE[ed],)
            if len(levels) not in (1, len(players)):
                raise SettingsError(
                    f"give one level for everyone or one per player, not {len(levels)}"
                )
            for lv in levels:
                if lv not in LEVELS:
                    raise SettingsError(
                        f"unknown 3d level {lv!r}; expected one of {', '.join(LEVELS)}"
                    )
            side = levels[0] if len(set(levels)) == 1 else None
        else:
            if levels:
                raise SettingsError("levels are a 3d setting; other editions choose a side")
            side = side if side is not None else DEFAULT_SIDE[ed]
            if side not in SIDES[ed]:
                raise SettingsError(
                    f"{ed} has no side {side!r}; expected one of {', '.join(SIDES[ed])}"
                )
        rounds = self.rounds if self.rounds is not None else DEFAULT_ROUNDS[ed]
        if rounds < 1:
            raise SettingsError("a game has at least one round")
        if ed in GEM_EDITIONS and rounds > 9:
            raise SettingsError("the gem display holds 9 sapphires and 9 ambers: at most 9 rounds")
        hourglass = self.hourglass
        countdown = self.countdown
        if ed in GEM_EDITIONS:
            hourglass = hourglass if hourglass is not None else DEFAULT_HOURGLASS[ed]
            if hourglass <= 0:
                raise SettingsError("the hourglass must run for some time")
            if countdown is not None:
                raise SettingsError(f"{ed} is timed by the hourglass, not a countdown")
            if self.variant != "standard":
                raise SettingsError(f"{ed} has no {self.variant} variant")
        else:
            countdown = countdown if countdown is not None else DEFAULT_COUNTDOWN[side or "A"]
            if countdown < 0:
                raise SettingsError("the countdown cannot be negative")
            if hourglass is not None:
                raise SettingsError(f"{ed} is timed by a countdown, not an hourglass")
        tie_break = self.tie_break if self.tie_break is not None else DEFAULT_TIE_BREAK[ed]
        allowed: tuple[str, ...] = (
            ("playoff", "shared") if ed in GEM_EDITIONS else ("tie-round", "shared")
        )
        if tie_break not in allowed:
            raise SettingsError(f"{ed} breaks ties with {' or '.join(allowed)}, not {tie_break!r}")
        if self.variant not in ("standard", "only-first"):
            raise SettingsError(f"unknown variant {self.variant!r}")
        if self.others_cards not in ("discard", "to-first"):
            raise SettingsError(f"others_cards is discard or to-first, not {self.others_cards!r}")
        for name in ("round_limit", "playoff_limit"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise SettingsError(f"{name} must be positive (or None for no limit)")
        solo_target = self.solo_target
        if solo_target is None:
            solo_target = (
                DEFAULT_SOLO_MINUTES[ed] if self.solo_goal == "time" else DEFAULT_SOLO_TASKS
            )
        if self.solo_goal not in ("time", "tasks"):
            raise SettingsError(f"solo_goal is time or tasks, not {self.solo_goal!r}")
        if solo_target < 1:
            raise SettingsError("the solo target must be at least 1")
        return replace(
            self,
            players=players,
            side=side,
            levels=levels,
            rounds=rounds,
            hourglass=hourglass,
            countdown=countdown,
            tie_break=tie_break,
            solo_target=solo_target,
        )
