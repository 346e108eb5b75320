"""No test waits a fixed time for something that happens: it waits for that thing (a message on
its socket, a row, a log line, a metric, an element's state), with a timeout. A fixed sleep
passes on an idle machine and fails on a loaded one, or makes every run slow.

Every ``sleep(...)`` and Playwright ``wait_for_timeout(...)`` call in ``tests/`` must say why it
is one, in a comment on its line or on the comment lines right above it:

* ``# the wait is the test:`` the time passing *is* the behaviour under test (a slow client, a
  person's thinking time, pacing under a rate limit), with the reason after the colon;
* ``# between two looks:`` the pause of a polling helper (``server_harness.eventually``), allowed
  in the harness modules only, not in a test module.

A ``sleep(0)`` is a turn of the event loop, not a wait, and needs no comment.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

TESTS = Path(__file__).resolve().parent
#: the comment that allows a deliberate wait anywhere
DELIBERATE = "# the wait is the test:"
#: the comment that allows a polling helper's pause, in a harness module
POLL = "# between two looks:"
#: the functions that wait a fixed time
SLEEPS = {"sleep", "wait_for_timeout"}


def _comments(source: str) -> dict[int, str]:
    """Each line's comment (line numbers from 1)."""
    out: dict[int, str] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = tok.string
    return out


def _said(lines: list[str], comments: dict[int, str], line: int, marker: str) -> bool:
    """Whether the call on ``line`` carries ``marker``: in the comment on its line, or in the
    block of comment-only lines right above it."""
    if marker in comments.get(line, ""):
        return True
    above = line - 1
    while above >= 1 and lines[above - 1].strip().startswith("#"):
        if marker in lines[above - 1]:
            return True
        above -= 1
    return False


def _is_zero(call: ast.Call) -> bool:
    return (
        len(call.args) == 1 and isinstance(call.args[0], ast.Constant) and call.args[0].value == 0
    )


def bare_sleeps(path: Path, root: Path = TESTS.parent) -> list[str]:
    """The fixed waits of one file that say nothing of why they are there ("file:line: code",
    the file named from ``root``)."""
    source = path.read_text()
    lines = source.splitlines()
    comments = _comments(source)
    harness = not path.name.startswith("test_") and path.name != "conftest.py"
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name not in SLEEPS or _is_zero(node):
            continue
        line = node.lineno
        if _said(lines, comments, line, DELIBERATE):
            continue
        if harness and _said(lines, comments, line, POLL):
            continue
        found.append(f"{path.relative_to(root)}:{line}: {lines[line - 1].strip()}")
    return found


def test_no_test_sleeps_without_saying_why() -> None:
    files = sorted(TESTS.rglob("*.py"))
    assert len(files) > 50  # the tests were found
    found = [hit for path in files for hit in bare_sleeps(path)]
    assert not found, (
        "wait for the event instead (server_harness.eventually, Client.wait, Playwright's "
        f"expect), or mark a deliberate wait with '{DELIBERATE} <why>':\n" + "\n".join(found)
    )


def test_the_check_finds_a_bare_sleep_and_accepts_a_marked_one(tmp_path: Path) -> None:
    folder = tmp_path / "tests"
    folder.mkdir()
    probe = folder / "test_probe.py"
    probe.write_text(
        "import time\n"
        "def test_x(page):\n"
        "    time.sleep(0.2)\n"
        "    page.wait_for_timeout(100)\n"
        f"    {DELIBERATE} a slow client\n"
        "    time.sleep(0.3)\n"
        f"    time.sleep(0.1)  {POLL} not in a test module\n"
        "    asyncio.sleep(0)\n"
    )
    found = bare_sleeps(probe, tmp_path)
    assert [hit.split(":")[1] for hit in found] == ["3", "4", "7"], found
