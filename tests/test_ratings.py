"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013) and tasks as opponents."""

from __future__ import annotations

import math

import pytest

from ubongo.board import Area
from ubongo.puzzles.ratings import (
    Rating,
    closest,
    expected_score,
    limit_shift,
    seconds_rating,
    task_fingerprint,
    update,
)

PAPER_PLAYER = Rating(1500.0, 200.0, 0.06)
PAPER_GAMES = [
    (Rating(1400.0, 30.0), 1.0),
    (Rating(1550.0, 100.0), 0.0),
    (Rating(1700.0, 300.0), 0.0),
]


def test_paper_example() -> None:
    """The paper's worked example (tau = 0.5): r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
    The paper rounds its intermediate values (mu' = -0.2069 -> 1464.06); unrounded, r' is
    1464.05."""
    new = update(PAPER_PLAYER, PAPER_GAMES, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)
    # the paper's internal values: mu' = -0.2069, phi' = 0.8722
    assert new.mu == pytest.approx(-0.2069, abs=0.0001)
    assert new.phi == pytest.approx(0.8722, abs=0.0001)


def test_paper_expected_scores() -> None:
    """Step 3 of the paper: E = 0.639, 0.432, 0.303 against the three opponents."""
    got = [expected_score(PAPER_PLAYER, opp) for opp, _ in PAPER_GAMES]
    assert got == pytest.approx([0.639, 0.432, 0.303], abs=0.001)


def test_no_games_widens_deviation_only() -> None:
    """Step 6 alone: phi* = sqrt(phi^2 + sigma^2); rating and volatility unchanged."""
    new = update(PAPER_PLAYER, [])
    assert new.rating == 1500.0 and new.volatility == 0.06
    assert new.phi == pytest.approx(math.sqrt(PAPER_PLAYER.phi**2 + 0.06**2))


def test_wins_raise_losses_lower_and_bounds_hold() -> None:
    task = Rating(1500.0, 250.0)
    up = update(Rating(), [(task, 1.0)], rd_bounds=(45.0, 350.0))
    down = update(Rating(), [(task, 0.0)], rd_bounds=(45.0, 350.0))
    assert up.rating > 1500.0 > down.rating
    assert up.rating - 1500.0 == pytest.approx(1500.0 - down.rating)
    r = Rating(1500.0, 46.0, 0.06)
    for _ in range(50):
        r = update(r, [(task, 1.0)], rd_bounds=(45.0, 350.0))
    assert r.rd >= 45.0


def test_bad_score_is_refused() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        update(Rating(), [(Rating(), 2.0)])
    with pytest.raises(ValueError):
        seconds_rating(0.0, 60.0)


def test_seconds_rating_orders_tasks_and_limits() -> None:
    """Slower tasks and shorter limits are harder; the shift of a limit is the same for every
    task (the ratings of one task under two limits differ by limit_shift)."""
    assert seconds_rating(20.0, 60.0) < seconds_rating(40.0, 60.0) < seconds_rating(40.0, 30.0)
    for s in (10.0, 30.0, 70.0):
        assert seconds_rating(s, 45.0) - seconds_rating(s, 60.0) == pytest.approx(
            limit_shift(60.0, 45.0)
        )


def test_closest_to_target() -> None:
    me = Rating(1700.0, 80.0)
    tasks = [Rating(r, 250.0) for r in range(1000, 2001, 50)]
    pick = tasks[closest(me, tasks, 0.7)]
    assert abs(expected_score(me, pick) - 0.7) < 0.03
    # a stronger player is given a stronger task
    assert tasks[closest(Rating(1900.0, 80.0), tasks, 0.7)].rating > pick.rating
    with pytest.raises(ValueError):
        closest(me, [], 0.7)


def test_fingerprint_is_up_to_moves_and_symmetry() -> None:
    a = Area.from_rows(["#..", "###"])
    turned = Area.from_rows(["##", "#.", "#."])
    moved = Area(a.lattice, frozenset((x + 5, y - 2) for x, y in a.cells))
    f = task_fingerprint("classic", a, ["A", "B"])
    assert (
        f
        == task_fingerprint("classic", turned, ["B", "A"])
        == task_fingerprint("classic", moved, ("A", "B"))
    )
    assert f != task_fingerprint("extreme", a, ["A", "B"])
    assert f != task_fingerprint("classic", a, ["A", "A"])
    assert len(f) == 32
