"""The arenas the server makes by itself (docs/arenas.md, "Schedule and player-made
arenas"): the schedule its ``--arena-schedule`` setting names, read and checked
(:func:`ubongo.arena.schedule_from_json`)."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

from ubongo.arena import Scheduled, schedule_from_json


def load_schedule(setting: str) -> list[Scheduled]:
    """The schedule ``--arena-schedule`` names: ``standard`` (the shipped one), ``none``, or a
    JSON file's path; ValueError naming what is wrong.

    >>> [line.edition for line in load_schedule("standard")][:2], load_schedule("none")
    (['classic', '3d'], [])
    """
    if setting == "none":
        return []
    if setting == "standard":
        text = files("ubongo").joinpath("data/arenas/schedule.json").read_text(encoding="utf-8")
    else:
        try:
            text = Path(setting).read_text(encoding="utf-8")
        except OSError as e:
            raise ValueError(f"the arena schedule {setting!r} cannot be read: {e}") from None
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ValueError(f"the arena schedule is not JSON: {e}") from None
    return schedule_from_json(data)
