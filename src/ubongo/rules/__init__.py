"""The rules of every Ubongo edition as pure, replayable state machines.

One engine plays Classic, 3D, Extreme and Trigo, in a race for 1-4 players or solo; what the
editions do differently (how a task is chosen, how a round is timed, how it is scored, how a
tie is broken) is data in the edition's record (:mod:`ubongo.editions`), read through
:class:`Settings`, and small named policies (:mod:`.policies`).  The rules in
force, and every choice made where a rulebook is silent, are in ``docs/rules.md``.

The API (everything a server needs)::

    game = new_game(Settings("classic", ("ann", "bob")), seed=7)   # deck: the standard one
    game = apply(game, StartRound(now=0.0))          # deal, roll the die, turn the hourglass
    game.deadline                                    # 60.0: call Advance when it has passed
    game = apply(game, Submit("ann", placements, now=23.4))   # "Ubongo!"
    game = apply(game, Advance(now=60.0))            # hourglass ran out: the round ends
    view(game, "bob")                                # JSON-ready snapshot for bob's screen
    game_to_json(game); game_from_json(data, deck)   # save and load
    replay(settings, seed, game.log, deck) == game   # the log replays to the same game
    timeline(settings, seed, game.log, deck)         # the same, told round by round

* **Pure**: :func:`apply` never changes the game it is given and never reads a clock or a
  global random generator.  Time is a float in seconds on the caller's monotonic clock,
  carried by every action; randomness (shuffles, die rolls, bag draws) is derived from the
  seed, so ``replay(settings, seed, game.log)`` rebuilds the game exactly.
* **Actions**: :class:`StartRound`, :class:`Submit`, :class:`GiveUp`, :class:`SkipTask`
  and :class:`Hint` (solo), :class:`Advance` (a deadline passed).  Accepted actions are
  appended to ``game.log``; what they caused is appended to ``game.events`` (kind, time,
  data) for logs and notifications.
* **Errors**: a wrong action raises a :class:`RuleError` subclass with a stable ``code``, and
  the game is unchanged.  A :class:`WrongArrangement` carries the cover check's
  :class:`~ubongo.board.Verdict`; it is not a finish: the player plays on.
* **Phases**: ``"waiting"`` (call :class:`StartRound` to start ``game.next_kind``: a round, the
  playoff, the tie round or the solo run), ``"playing"`` (``game.deadline`` is when the
  clock runs out, ``None`` while no clock runs), ``"over"`` (``game.winners``; solo:
  :func:`solo_record`).

>>> from ubongo.rules import Settings, new_game, apply, StartRound, Advance
>>> from ubongo.rules.testing import fixture_deck
>>> game = new_game(Settings("classic", ("ann", "bob")), seed=1, deck=fixture_deck("classic"))
>>> game = apply(game, StartRound(0.0))
>>> game.phase, game.deadline, game.round.roller
('playing', 60.0, 'ann')
>>> game = apply(game, Advance(60.0))      # nobody finished: second chance
>>> game.round.hourglass_turns, game.deadline
(2, 120.0)
>>> game = apply(game, Advance(120.0))     # nobody again: the round ends, both gems to the bag
>>> game.phase, game.display, game.bag["sapphire"]
('waiting', {'sapphire': 8, 'amber': 8}, 11)
"""

from __future__ import annotations

from .actions import (
    Action,
    Advance,
    GiveUp,
    Hint,
    SkipTask,
    StartRound,
    StopRun,
    Submit,
    action_from_json,
    action_to_json,
)
from .engine import (
    apply,
    card,
    entry_task,
    new_game,
    replay,
    solo_record,
    upcoming_cards,
)
from .errors import (
    ActionError,
    AlreadyFinished,
    AlreadyGaveUp,
    GameOver,
    NoRound,
    NotInRound,
    NotSolo,
    RoundRunning,
    RuleError,
    SettingsError,
    TimeWentBackwards,
    TooLate,
    UnknownPiece,
    UnknownPlayer,
    WrongArrangement,
)
from .events import Event, EventKind
from .settings import Settings
from .snapshot import task_json, view
from .state import (
    Entry,
    Game,
    PlayerState,
    Round,
    Solo,
    game_from_json,
    game_to_json,
)
from .timeline import timeline

__all__ = [
    "Action",
    "ActionError",
    "Advance",
    "AlreadyFinished",
    "AlreadyGaveUp",
    "Entry",
    "Event",
    "EventKind",
    "Game",
    "GameOver",
    "GiveUp",
    "Hint",
    "NoRound",
    "NotInRound",
    "NotSolo",
    "PlayerState",
    "Round",
    "RoundRunning",
    "RuleError",
    "Settings",
    "SettingsError",
    "SkipTask",
    "Solo",
    "StartRound",
    "StopRun",
    "Submit",
    "TimeWentBackwards",
    "TooLate",
    "UnknownPiece",
    "UnknownPlayer",
    "WrongArrangement",
    "action_from_json",
    "action_to_json",
    "apply",
    "card",
    "entry_task",
    "game_from_json",
    "game_to_json",
    "new_game",
    "replay",
    "solo_record",
    "task_json",
    "timeline",
    "upcoming_cards",
    "view",
]
