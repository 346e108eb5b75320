"""The errors the rules raise: one small hierarchy, each with a stable ``code``.

Every wrong action raises a :class:`RuleError` subclass and leaves the game unchanged (the
engine works on a copy).  The ``code`` is meant for programs (the server sends it to clients);
the message is meant for people.

>>> try:
...     raise AlreadyFinished("alice has already finished this round")
... except RuleError as e:
...     print(e.code, "-", e)
already_finished - alice has already finished this round
"""

from __future__ import annotations

from ubongo.board import Verdict


class RuleError(Exception):
    """Something the rules do not allow."""

    code = "rule_error"


class SettingsError(RuleError, ValueError):
    """Settings that do not describe a game (player count, side, level, deck too small...)."""

    code = "bad_settings"


class ActionError(RuleError):
    """An action that the game's current state does not allow."""

    code = "bad_action"


class UnknownPlayer(ActionError):
    """The action names a player who is not in the game."""

    code = "unknown_player"


class NotInRound(ActionError):
    """The player is in the game but not in this round (e.g. not tied in a playoff)."""

    code = "not_in_round"


class NoRound(ActionError):
    """The action needs a running round and none runs (or one runs and it needs none)."""

    code = "no_round"


class RoundRunning(ActionError):
    """A round is already running: it must end before the next one starts."""

    code = "round_running"


class GameOver(ActionError):
    """The game has ended: nothing can happen any more."""

    code = "game_over"


class TimeWentBackwards(ActionError):
    """The action's time is earlier than the last time the game saw."""

    code = "time_went_backwards"


class TooLate(ActionError):
    """The hourglass, countdown or solo clock ran out before this action's time."""

    code = "too_late"


class AlreadyFinished(ActionError):
    """The player has already finished (or put the task aside) this round."""

    code = "already_finished"


class AlreadyGaveUp(ActionError):
    """The player gave up this round and cannot submit any more."""

    code = "already_gave_up"


class NotSolo(ActionError):
    """Putting a task aside is a solo rule."""

    code = "not_solo"


class UnknownPiece(ActionError):
    """A placement names a piece that the edition does not have."""

    code = "unknown_piece"


class WrongArrangement(ActionError):
    """The placements do not cover the area: not a finish, the player plays on.

    ``verdict`` is the cover check's answer; its ``reason`` says what is wrong.
    """

    code = "wrong_arrangement"

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.reason)
        self.verdict = verdict
