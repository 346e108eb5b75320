"""``make check`` leaves out exactly the tests that need a browser or another process."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import test_server_games
import test_server_redis
import test_server_units
import test_solver
from slow_tests import WEB_TESTS, is_slow, run_first

TESTS = Path(__file__).resolve().parent


def test_every_browser_test_is_slow() -> None:
    assert is_slow(WEB_TESTS / "test_a_new_screen.py", None)


def test_tests_that_start_a_server_or_redis_are_slow() -> None:
    assert is_slow(TESTS / "test_server_games.py", test_server_games)
    assert is_slow(TESTS / "test_server_redis.py", test_server_redis)


def test_a_new_module_using_the_process_harness_is_slow_without_a_mark() -> None:
    # (imported here: at module level, the import would make this module slow too)
    server_harness = importlib.import_module("server_harness")
    by_name = ModuleType("test_new_feature")
    by_name.ServerProcess = server_harness.ServerProcess  # type: ignore[attr-defined]
    whole = ModuleType("test_other_feature")
    whole.server_harness = server_harness  # type: ignore[attr-defined]
    assert is_slow(TESTS / "test_new_feature.py", by_name)
    assert is_slow(TESTS / "test_other_feature.py", whole)


def test_unit_tests_and_doctests_are_quick() -> None:
    assert not is_slow(TESTS / "test_solver.py", test_solver)
    assert not is_slow(TESTS / "test_server_units.py", test_server_units)
    assert not is_slow(TESTS.parent / "src" / "ubongo" / "solver.py", None)


def test_browser_files_run_first_then_process_files_then_the_rest() -> None:
    order = [
        run_first(TESTS / "test_solver.py", test_solver),
        run_first(TESTS / "test_server_games.py", test_server_games),
        run_first(WEB_TESTS / "test_a_new_screen.py", None),
    ]
    assert order == [2, 1, 0]
