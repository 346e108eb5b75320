"""Browser tests: Debian's chromium driven by Playwright against a real ``ubongo serve``.

No browser is downloaded: Playwright launches /usr/bin/chromium (installed by the project's
set-up from scripts/system-packages.txt). The web client must be built (``make web``, which
``make test`` runs first). Screenshots of every screen go to test-artifacts/web/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright
from server_harness import ServerProcess
from webharness import CHROMIUM, CHROMIUM_FLAGS, DIST, shot, watch_errors

# the harness is importable from here too (older tests do `from conftest import shot`)
__all__ = ["ServerProcess", "shot"]


# A wait of the tests is a ceiling, not a measure: a first task dealt on a loaded machine (the
# test files run three at a time) may take longer than Playwright's default 5 s.
expect.set_options(timeout=15_000)


def web_server(folder: Path) -> ServerProcess:
    """A server for the browser tests, its database in ``folder``, started."""
    if not DIST.is_file():
        pytest.fail("the web client is not built: run `make web` (make test does)")
    # the tests' players are machines: no plausibility floor for their records, and their
    # pieces land faster than a hand's (the play traces the client sends are checked all the
    # same: a finish without a consistent one would not be ranked)
    return ServerProcess(
        f"sqlite:///{folder / 'ubongo.db'}",
        log=folder / "server.log",
        # every page is a first visit (an account each), and every page's rooms and solo runs
        # come from one address: more than an address's usual hour, or minute (a CI run's
        # test_room found "Create a room" refused, its home page left as it was, after the
        # other tests of its worker had made their rooms)
        args=(
            "--record-seconds-per-piece",
            "0",
            "--trace-seconds-per-move=0",
            "--hold-score=0",  # the pointer plays at a machine's pace: never held for it
            "--accounts-per-hour",
            "100000",
            "--rooms-per-minute",
            "100000",
            # the rules pages draw their example one hint at a time, the editor asks for
            # verdicts as it draws: all from one address (a CI run's rules pages of 3D were
            # refused their pictures after the worker's other pages had asked)
            "--hints-per-minute-per-address",
            "100000",
            "--verdicts-per-minute-per-address",
            "100000",
        ),
    ).start()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = web_server(tmp_path_factory.mktemp("web-server"))
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of the test module's own, for tests that ask for help with a standard deck's
    task (a hint, a solution, saving it as a puzzle). The server refuses that help for a task
    dealt in a room for as long as the room may play it (docs/fair-play.md, "Hints"), and the
    shared server's rooms deal the standard decks: a task another test's room had dealt was
    refused in a CI run. Here no other test deals anything."""
    srv = web_server(tmp_path_factory.mktemp("own-server"))
    yield srv
    srv.stop()


# One browser per test module, not per session: Playwright's sync API runs an event loop in
# this thread while it is open, and `make test` runs the test files in worker processes
# (pytest-xdist) where a browser module may be followed by one that calls asyncio.run().
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed: run `make setup` (scripts/system-packages.txt)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    # the tests read the English texts: the browser says English whatever the machine's locale
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    pg = context.new_page()
    errors: list[str] = []
    watch_errors(pg, errors)
    yield pg
    context.close()
    assert not errors, f"errors in the page: {errors}"
