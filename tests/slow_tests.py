"""A pytest plugin (loaded by `-p slow_tests` in pyproject.toml): which tests are slow.

A test is marked ``slow`` when it needs more than this process: a browser (everything under
tests/web/), or a server, Redis or PostgreSQL process, which tests start through the
``server_harness`` module; so a new test of that kind is left out of the quick loop without
anyone remembering to mark it.  ``@pytest.mark.slow`` marks any other test by hand.
``make test`` runs every test, slow or not.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

WEB_TESTS = Path(__file__).resolve().parent / "web"
PROCESS_HARNESS = "server_harness"  # starts ubongo serve, redis-server and postgres


def _uses_process_harness(module: ModuleType | None) -> bool:
    """Whether a test module imported the harness that starts processes, or a name from it."""
    return module is not None and any(
        getattr(value, "__module__", None) == PROCESS_HARNESS
        or (isinstance(value, ModuleType) and value.__name__ == PROCESS_HARNESS)
        for value in vars(module).values()
    )


def is_slow(path: Path, module: ModuleType | None) -> bool:
    """Whether the test in file ``path`` (module ``module``) needs a browser or a process."""
    return run_first(path, module) < 2


def run_first(path: Path, module: ModuleType | None) -> int:
    """Where a test's file goes in the run: browser tests first, then the other tests that
    start processes, then the rest. The workers of ``make test`` (``--dist loadfile
    --no-loadscope-reorder``) take files in this order, so the long files start early and
    the short ones fill the end of the run, instead of a long browser file starting last
    while the other workers sit idle.

    >>> run_first(WEB_TESTS / "test_x.py", None), run_first(WEB_TESTS.parent / "test_x.py", None)
    (0, 2)
    """
    if WEB_TESTS in path.resolve().parents:
        return 0
    return 1 if _uses_process_harness(module) else 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the slow tests (the ``slow`` marker is declared in pyproject.toml) and put the
    slowest kinds first (:func:`run_first`; a stable sort keeps each file's own order)."""
    places: dict[Path, int] = {}  # per file: its modules' variables are read once
    for item in items:
        path = Path(item.path)
        if path not in places:
            places[path] = run_first(path, getattr(item, "module", None))
        if places[path] < 2:  # a browser or a process: slow
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: places[Path(item.path)])
