"""What does one action cost the rules late in a long game?  ``rules.apply`` never changes the
game it is given: it copies it and changes the copy. A game's events grow with it (a solo run
of sixty tasks tells some 120), so copying them too made each action dearer than the last.

Run with ``.venv/bin/python bench/rules_apply.py [--tasks N] [--repeat R]``.

A solo run of ``N`` tasks (the editions' first edition, its standard deck, a fixed seed), each
task covered by the solver's arrangement 20 s after it was dealt; its actions are recorded once,
then replayed (``rules.replay``, which applies them one by one) two ways in the same process,
alternated, best of ``R``:

* **reference**: every action copies the whole game but the deck and the log, the events too
  (what ``apply`` did before);
* **now**: ``apply`` as it is (what never changes, the settings and every event told, shared).

Both replays must end in the same game (its JSON, byte for byte) before any figure is printed.
Printed: the whole replay's CPU ms each way and their ratio, and the CPU microseconds of one of
the last ten actions. docs/performance.md keeps the latest figures.
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from collections.abc import Callable
from typing import Any
from unittest import mock

from ubongo import editions
from ubongo.rules import (
    Action,
    Game,
    Settings,
    StartRound,
    Submit,
    apply,
    bots,
    engine,
    new_game,
    replay,
)
from ubongo.rules.state import game_to_json

SEED = 7


def a_long_run(tasks: int) -> tuple[Settings, list[Action]]:
    """The settings and the actions of a solo run of ``tasks`` tasks, each solved in 20 s."""
    edition = editions.names()[0]
    settings = Settings(edition, ("0",), mode="solo", solo_goal="tasks", solo_target=tasks)
    game = new_game(settings, SEED)
    now = 0.0
    game = apply(game, StartRound(now))
    while game.phase == "playing":
        assert game.round is not None
        now += 20.0
        entry = game.round.entries[0]
        game = apply(game, Submit("0", bots.solution(game, entry), now))
    return settings, list(game.log)


def whole_copy(game: Game) -> Game:
    """The reference: everything but the deck and the log copied, the events too."""
    return copy.deepcopy(game, {id(game.deck): game.deck, id(game.log): game.log})


def timed(copying: Callable[[Game], Game], settings: Settings, actions: list[Action]) -> Any:
    """Replay with ``copying`` as the rules' copy: (the game, CPU seconds in all, CPU seconds
    of the last ten actions)."""
    with mock.patch.object(engine, "_copy", copying):
        start = time.process_time()
        game = replay(settings, SEED, actions[:-10])
        late = time.process_time()
        for action in actions[-10:]:
            game = apply(game, action)
        end = time.process_time()
    return game, end - start, end - late


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", type=int, default=60, help="tasks in the solo run")
    ap.add_argument("--repeat", type=int, default=5, help="best of this many replays a way")
    args = ap.parse_args()
    settings, actions = a_long_run(args.tasks)
    runs: dict[str, list[tuple[float, float]]] = {"reference": [], "now": []}
    ends = {}
    for _ in range(args.repeat):
        for name, copying in (("reference", whole_copy), ("now", engine._copy)):
            game, whole, late = timed(copying, settings, actions)
            ends[name] = json.dumps(game_to_json(game), sort_keys=True)
            runs[name].append((whole, late))
    assert ends["reference"] == ends["now"], "the two replays ended in different games"
    events = len(replay(settings, SEED, actions).events)
    print(f"a solo run of {args.tasks} tasks: {len(actions)} actions, {events} events at its end")
    print(f"{'':<10} {'replay, CPU ms':>15} {'one late action, us':>20}")
    best = {name: (min(w for w, _ in r), min(late for _, late in r)) for name, r in runs.items()}
    for name, (whole, late) in best.items():
        print(f"{name:<10} {whole * 1e3:>15.1f} {late / 10 * 1e6:>20.0f}")
    ref, now = best["reference"], best["now"]
    print(f"reference / now: {ref[0] / now[0]:.1f}x the replay, {ref[1] / now[1]:.1f}x late")


if __name__ == "__main__":
    main()
