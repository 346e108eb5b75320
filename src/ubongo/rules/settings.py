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

import datetime
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal, cast

from ubongo import editions
from ubongo.editions import EditionRecord
from ubongo.puzzles.daily import TASKS as DAILY_TASKS
from ubongo.puzzles.pack import PackTask
from ubongo.puzzles.ratings import DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY

from .errors import SettingsError

Mode = Literal["race", "solo"]
#: how the game ends when several players share the most points
TieBreak = Literal["playoff", "tie-round", "shared"]
#: Extreme "increased difficulty" / Trigo "expert": only the round's first finisher scores
Variant = Literal["standard", "only-first"]
#: in the only-first variant, what happens to the other players' cards
OthersCards = Literal["discard", "to-first"]
#: ``endless``: one fresh task after another, each chosen for the player's rating, until the
#: player stops (:mod:`.endless`, ``docs/ratings.md``); ``practice``: untimed tasks, no record
SoloGoal = Literal["time", "tasks", "endless", "practice"]
SOLO_GOALS: tuple[SoloGoal, ...] = ("time", "tasks", "endless", "practice")
#: where the tasks come from: the shipped deck, cards made for this game from its seed, the
#: daily challenge's tasks of the day ``Settings.day`` (:mod:`ubongo.puzzles.daily`), or a
#: pack's puzzles, ``Settings.pack``, one a round for everyone (:mod:`ubongo.puzzles.pack`)
Puzzles = Literal["standard", "fresh", "daily", "pack"]
#: seconds a hint costs in a timed solo run, unless the settings say otherwise (docs/rules.md)
HINT_PENALTY = 15.0


@dataclass(frozen=True)
class Settings:
    """What the table agreed on.  ``players`` are ids in seating order, clockwise: the player
    to someone's *left* is the next one in the tuple (and the first follows the last).  The
    first player is the youngest: the first die roller (Classic, 3D), the starting player
    (Trigo).

    ``side`` is the side everyone plays (Classic/Extreme ``A``/``B``, Trigo ``easy``/``hard``);
    in 3D ``levels`` gives each player's level (one value: the same for all). In the other
    editions ``levels`` may give each player a side of their own (an arena's harder side,
    ``docs/arenas.md``): their cards are the ones with every side in play, and a countdown is
    the easiest side's. ``hourglass`` and ``countdown`` are in seconds. ``round_limit`` caps a
    countdown round in which nobody has finished yet, ``playoff_limit`` a playoff or tie round
    (``None``: no limit, as at the table). Solo: ``solo_goal`` ``"time"`` means as many tasks as
    possible in ``solo_target`` minutes, ``"tasks"`` the time needed for ``solo_target`` tasks,
    ``"endless"`` fresh tasks chosen for the player's rating (``rating``: rating, RD, volatility
    at the start; ``None``: a new player's) until they stop, ``"practice"`` untimed tasks one
    after another with no record. ``puzzles`` ``"fresh"`` plays cards made for this game from
    its seed (:mod:`ubongo.puzzles.fresh`) instead of the deck ``deck`` names (default: the
    edition's standard deck); ``"daily"`` plays the daily challenge of the day ``day``
    (``YYYY-MM-DD``) as a solo run: its tasks in order, each once, the run over when every one
    is solved or put aside; ``"pack"`` races the puzzles of ``pack`` in its order, round
    ``n`` dealing puzzle ``n`` to every player, as many rounds as the pack has puzzles (at
    most the edition's limit of rounds: the first ones). ``hint_penalty``: the seconds a solo
    hint costs (a time run's clock runs out that much sooner; a tasks run's time grows by it;
    practice is untimed).
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
    puzzles: Puzzles = "standard"
    rating: tuple[float, float, float] | None = None
    day: str = ""
    hint_penalty: float = HINT_PENALTY
    #: fresh cards made from this seed, not the game's, with ``deck_sides`` beside the sides
    #: in play: games that name one share their cards (an arena's races, docs/arenas.md)
    deck_seed: int | None = None
    deck_sides: tuple[str, ...] = ()
    #: ``puzzles="pack"``: the pack's puzzles in order, each its area's cells and piece ids
    pack: tuple[PackTask, ...] = ()

    def __post_init__(self) -> None:
        """A pack read back from JSON (lists) made tuples again: settings are kept in caches."""
        if not isinstance(self.pack, tuple) or any(not isinstance(t, tuple) for t in self.pack):
            tasks = tuple(
                (tuple(tuple(int(v) for v in c) for c in cells), tuple(str(p) for p in ids))
                for cells, ids in self.pack
            )
            object.__setattr__(self, "pack", tasks)

    @property
    def record(self) -> EditionRecord:
        """The edition's record (:mod:`ubongo.editions`): every default comes from it."""
        return editions.record(self.edition)

    @property
    def gems(self) -> bool:
        """Whether this edition scores with gems (Classic, 3D) rather than cards."""
        return self.record.gems

    @property
    def solo(self) -> bool:
        return self.mode == "solo"

    @property
    def own_sides(self) -> bool:
        """Whether each player chooses their own side (3D levels) and has their own boards."""
        return self.record.own_sides

    def level_of(self, player: str) -> str:
        """The side (3D: level) ``player`` plays."""
        if self.levels:
            if len(self.levels) == 1:
                return self.levels[0]
            return self.levels[self.players.index(player)]
        assert self.side is not None, "resolve the settings first"
        return self.side

    def resolved(self) -> Settings:
        """These settings with every ``None`` replaced by the edition's default, checked.

        Raises :class:`SettingsError` naming the first thing that is wrong."""
        try:
            rec = self.record
        except ValueError as e:
            raise SettingsError(str(e)) from None
        if self.mode not in ("race", "solo"):
            raise SettingsError(f"unknown mode {self.mode!r}; expected race or solo")
        self._check_daily()
        self._check_deck_seed(rec)
        players = self._checked_players(rec)
        side, levels = self._own_levels(rec) if rec.own_sides else self._shared_side(rec)
        rounds = self.rounds if self.rounds is not None else rec.rounds
        if self.puzzles == "pack":
            # as many rounds as the pack has puzzles, whatever the rounds asked for
            rounds = min(len(self.pack), rec.scoring.display_limit or len(self.pack))
        if rounds < 1:
            raise SettingsError("a game has at least one round")
        limit = rec.scoring.display_limit
        if limit is not None and rounds > limit:
            raise SettingsError(
                f"the gem display holds gems for {limit} rounds: at most {limit} rounds"
            )
        # a table of mixed sides is timed as its easiest side is: the harder side is harder
        easiest = side or min(levels, key=rec.deck.side_names.index)
        hourglass, countdown = TIMER_SETTINGS[rec.timer.kind](self, rec, easiest)
        self._check_choices(rec)
        tie_break = self.tie_break if self.tie_break is not None else rec.tie_break
        if tie_break not in rec.tie_breaks:
            raise SettingsError(
                f"{rec.name} breaks ties with {' or '.join(rec.tie_breaks)}, not {tie_break!r}"
            )
        return replace(
            self,
            players=players,
            side=side,
            levels=levels,
            rounds=rounds,
            hourglass=hourglass,
            countdown=countdown,
            tie_break=cast(TieBreak, tie_break),
            solo_goal="tasks" if self.puzzles == "daily" else self.solo_goal,
            solo_target=self._solo_target(rec),
            puzzles=self._puzzles(),
            rating=self._rating(),
        )

    def _check_deck_seed(self, rec: EditionRecord) -> None:
        if self.deck_seed is None and not self.deck_sides:
            return
        if self.puzzles != "fresh" or self.endless:
            raise SettingsError("deck_seed and deck_sides are for fresh cards")
        for name in self.deck_sides:
            if name not in rec.deck.side_names:
                raise SettingsError(f"{rec.name} has no side {name!r}")

    def _check_daily(self) -> None:
        if self.puzzles not in ("standard", "fresh", "daily", "pack"):
            raise SettingsError(f"puzzles is standard, fresh, daily or pack, not {self.puzzles!r}")
        if self.hint_penalty < 0:
            raise SettingsError("hint_penalty cannot be negative")
        if (self.puzzles == "pack") != bool(self.pack):
            raise SettingsError("a pack's puzzles go with puzzles pack, and it needs one")
        if self.puzzles == "pack" and self.mode != "race":
            raise SettingsError("a pack is raced: its solo run is played on its page")
        if self.puzzles != "daily":
            return
        if self.mode != "solo":
            raise SettingsError("the daily challenge is played solo")
        try:
            datetime.date.fromisoformat(self.day)
        except ValueError:
            day = self.day[:20]
            raise SettingsError(f"the daily challenge's day is YYYY-MM-DD, not {day!r}") from None

    def _checked_players(self, rec: EditionRecord) -> tuple[str, ...]:
        players = tuple(self.players)
        if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
            raise SettingsError("players must be distinct, non-empty names")
        if self.mode == "solo":
            if len(players) != 1:
                raise SettingsError(f"solo is for one player, not {len(players)}")
            return players
        lo, hi = rec.players
        if not lo <= len(players) <= hi:
            extra = " (one player plays the solo variant)" if lo > 1 else ""
            raise SettingsError(f"{rec.name} is for {lo}-{hi} players, not {len(players)}{extra}")
        return players

    def _own_levels(self, rec: EditionRecord) -> tuple[str | None, tuple[str, ...]]:
        """3D: one level for everyone or one per player; the side is the level all share."""
        levels = tuple(self.levels)
        if self.side is not None and not levels:
            levels = (self.side,)
        if not levels:
            levels = (rec.default_side,)
        if len(levels) not in (1, len(self.players)):
            raise SettingsError(f"give one level for everyone or one per player, not {len(levels)}")
        names = rec.deck.side_names
        for lv in levels:
            if lv not in names:
                raise SettingsError(
                    f"unknown {rec.name} level {lv!r}; expected one of {', '.join(names)}"
                )
        return (levels[0] if len(set(levels)) == 1 else None), levels

    def _shared_side(self, rec: EditionRecord) -> tuple[str | None, tuple[str, ...]]:
        """One side for the table, or one per player (``levels``: an arena's harder side)."""
        levels = tuple(self.levels)
        if levels and len(levels) != len(self.players):
            raise SettingsError(
                f"{rec.name} plays one side, or one per player: not {len(levels)} sides"
            )
        side = self.side if self.side is not None else rec.default_side
        for name in levels or (side,):
            if name not in rec.deck.side_names:
                raise SettingsError(
                    f"{rec.name} has no side {name!r};"
                    f" expected one of {', '.join(rec.deck.side_names)}"
                )
        if len(set(levels)) > 1:
            return None, levels
        return (levels[0] if levels else side), ()

    def _check_choices(self, rec: EditionRecord) -> None:
        if self.variant not in ("standard", "only-first"):
            raise SettingsError(f"unknown variant {self.variant!r}")
        if self.variant not in rec.variants:
            raise SettingsError(f"{rec.name} has no {self.variant} variant")
        if self.others_cards not in ("discard", "to-first"):
            raise SettingsError(f"others_cards is discard or to-first, not {self.others_cards!r}")
        for name in ("round_limit", "playoff_limit"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise SettingsError(f"{name} must be positive (or None for no limit)")

    @property
    def endless(self) -> bool:
        """Whether this is an endless solo run (tasks chosen for the player's rating)."""
        return self.mode == "solo" and self.solo_goal == "endless"

    def _puzzles(self) -> Puzzles:
        # the value itself is checked with the daily challenge's settings (_check_daily)
        if self.endless and self.puzzles == "daily":
            raise SettingsError("an endless run plays tasks made for it, not the daily challenge")
        if self.endless and self.deck:
            raise SettingsError("an endless run plays tasks made for it, not a deck")
        # an endless run always plays tasks made for it (from every side of the edition)
        return "fresh" if self.endless else self.puzzles

    def _rating(self) -> tuple[float, float, float] | None:
        if not self.endless:
            return None
        if self.rating is None:
            return (DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY)
        try:
            r, rd, vol = (float(v) for v in self.rating)
        except (TypeError, ValueError):
            raise SettingsError("rating is (rating, RD, volatility)") from None
        if not (math.isfinite(r) and 0 < rd <= DEFAULT_RD and 0 < vol < 1):
            raise SettingsError(
                f"rating is (rating, RD 0-{DEFAULT_RD:g}, volatility 0-1), not {self.rating!r}"
            )
        return (r, rd, vol)

    def _solo_target(self, rec: EditionRecord) -> int:
        if self.puzzles == "daily":
            return DAILY_TASKS  # every task of the day
        if self.solo_goal not in SOLO_GOALS:
            raise SettingsError(f"solo_goal is {', '.join(SOLO_GOALS)}, not {self.solo_goal!r}")
        if self.solo_goal in ("endless", "practice"):
            # no target: the run goes on until the player stops
            return 0
        target = self.solo_target
        if target is None:
            target = rec.solo.minutes if self.solo_goal == "time" else rec.solo.tasks
        if target < 1:
            raise SettingsError("the solo target must be at least 1")
        return target


#: the hourglass and the countdown in force, in seconds: one of them is ``None``
Timers = tuple[float | None, float | None]


def _hourglass_timers(s: Settings, rec: EditionRecord, side: str | None) -> Timers:
    """An hourglass times the round (Classic, 3D): the settings' or the edition's."""
    hourglass = s.hourglass if s.hourglass is not None else rec.timer.hourglass
    if hourglass is None or hourglass <= 0:
        raise SettingsError("the hourglass must run for some time")
    if s.countdown is not None:
        raise SettingsError(f"{rec.name} is timed by the hourglass, not a countdown")
    return hourglass, None


def _countdown_timers(s: Settings, rec: EditionRecord, side: str | None) -> Timers:
    """A countdown starts at the first finish (Extreme, Trigo): the settings' or the side's."""
    countdown = s.countdown
    if countdown is None:
        countdown = rec.timer.countdown_for(side or rec.default_side)
    if countdown < 0:
        raise SettingsError("the countdown cannot be negative")
    if s.hourglass is not None:
        raise SettingsError(f"{rec.name} is timed by a countdown, not an hourglass")
    return None, countdown


#: for each kind of timer a record names (``timer.kind``), the times of the settings it keeps,
#: checked; what the timer does in play is its policy (:func:`ubongo.rules.policies.timer_policy`),
#: which works on games and so sits above this module
TIMER_SETTINGS: dict[str, Callable[[Settings, EditionRecord, str | None], Timers]] = {
    "hourglass": _hourglass_timers,
    "countdown": _countdown_timers,
}
