"""A game told round by round (``rules.timeline``) agrees with the game the rules played."""

from __future__ import annotations

import doctest
import importlib
from typing import Any

import pytest

from ubongo.board import Placement, check_cover
from ubongo.rules import Game, Settings, new_game, timeline
from ubongo.rules.bots import LEVELS, play_game
from ubongo.rules.events import EventKind

GAMES = [
    ("classic", {"side": "B"}),
    ("3d", {"levels": ("green", "yellow", "orange", "red")}),
    ("extreme", {"side": "B"}),
    ("trigo", {"side": "hard"}),
]


def _covers(game: Game, task: dict[str, Any], placements: list[dict[str, Any]]) -> bool:
    side = game.deck.card(task["card"]).side(task["side"])
    pieces = game.deck.task_pieces(side.task(task["key"]))
    shown = [Placement(p["piece"], p["transform"], tuple(p["offset"])) for p in placements]
    return bool(check_cover(side.area, pieces, shown))


@pytest.mark.parametrize(("edition", "kw"), GAMES)
def test_timeline_agrees_with_the_game(edition: str, kw: dict[str, Any]) -> None:
    """Each round's tasks are those dealt, the finish order and placements those submitted
    (and they cover the task), the scores after the last round the final ones."""
    players = ("a", "b", "c", "d")
    final = play_game(new_game(Settings(edition, players, **kw), 5), 5)
    told = timeline(final.settings, 5, final.log)
    started = [e for e in final.events if e.kind == EventKind.ROUND_STARTED]
    assert len(told["rounds"]) == len(started) >= (final.settings.rounds or 0)
    for r, ev in zip(told["rounds"], started, strict=True):
        assert r["started_at"] == ev.at and r["kind"] == ev.data["kind"]
        dealt = {p: (t["card"], t["key"]) for p, t in ev.data["tasks"].items()}
        assert {t["player"]: (t["task"]["card"], t["task"]["key"]) for t in r["tasks"]} == dealt
        finished = [
            e.data["player"]
            for e in final.events
            if e.kind == EventKind.FINISHED and r["started_at"] <= e.at <= r["ended_at"]
        ]
        assert r["finish_order"] == finished
        assert r["seconds"] == r["ended_at"] - r["started_at"] >= 0
        for t in r["tasks"]:
            assert (t["outcome"] == "finished") == (t["player"] in finished)
            if t["outcome"] == "finished":
                assert t["place"] == finished.index(t["player"]) + 1
                assert 0 <= t["at"] <= r["seconds"]
                assert _covers(final, t["task"], t["placements"])
            else:
                assert t["placements"] is None
        if r["kind"] == "round":
            assert r["awards"] is not None
            assert r["awards"]["kind"] == ("gems" if final.settings.gems else "cards")
    assert told["phase"] == "over"
    assert told["winners"] == final.winners and told["scores"] == final.scores()
    last_round = [r for r in told["rounds"] if r["kind"] == "round"][-1]
    assert last_round["scores"] == final.scores()


def test_solo_timeline_lists_every_task() -> None:
    """A solo run is one round holding every task drawn, each solved, put aside or open."""
    settings = Settings("classic", ("a",), mode="solo", solo_goal="time", solo_target=3)
    final = play_game(new_game(settings, 8), 8, levels={"a": LEVELS["easy"]})
    told = timeline(final.settings, 8, final.log)
    (run,) = told["rounds"]
    assert run["kind"] == "solo" and told["solo"]["solved"] == final.solo.solved  # type: ignore[union-attr]
    outcomes = [t["outcome"] for t in run["tasks"]]
    assert outcomes.count("finished") == final.solo.solved  # type: ignore[union-attr]
    assert outcomes.count("skipped") == final.solo.skipped  # type: ignore[union-attr]
    assert outcomes[-1] in ("unfinished", "gave_up") and len(outcomes) >= 2
    shown = [t["shown"] for t in run["tasks"]]
    assert shown == sorted(shown) and shown[0] == 0.0
    for t in run["tasks"]:
        if t["outcome"] == "finished":
            assert _covers(final, t["task"], t["placements"])


def test_fresh_game_timeline_makes_the_same_tasks() -> None:
    """A fresh game's cards are made again from its seed: the timeline shows the same tasks."""
    settings = Settings("classic", ("a", "b"), rounds=2, puzzles="fresh")
    final = play_game(new_game(settings, 21), 21)
    told = timeline(final.settings, 21, final.log)
    for r in told["rounds"]:
        for t in r["tasks"]:
            card = final.deck.card(t["task"]["card"]).side(t["task"]["side"])
            assert sorted(map(tuple, t["task"]["area"])) == sorted(card.area.cells)


def test_doctest() -> None:
    result = doctest.testmod(importlib.import_module("ubongo.rules.timeline"))
    assert result.failed == 0 and result.attempted > 0
