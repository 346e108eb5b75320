"""The ``ubongo`` command as a person and a script see it: rich help, bars and tables on a
terminal (a real pseudo-terminal), plain text in a pipe, one-line usage mistakes."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ubongo.cli import COMMANDS, main
from ubongo.puzzles.deck import Deck, standard_deck

UBONGO = Path(sys.executable).with_name("ubongo")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
ENV = {**os.environ, "COLUMNS": "100", "LINES": "40", "TERM": "xterm-256color"}
ENV.pop("NO_COLOR", None)


def piped(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(UBONGO), *args], capture_output=True, text=True, env=ENV, timeout=120
    )


def on_terminal(*args: str) -> tuple[int, str]:
    """Run the command with standard output and error on a pseudo-terminal: its exit code and
    everything it wrote there."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [str(UBONGO), *args], stdin=follower, stdout=follower, stderr=follower, env=ENV
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the terminal's other end closed (Linux)
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return proc.wait(timeout=120), b"".join(chunks).decode("utf-8", "replace")


def test_help_in_a_pipe_is_plain_and_lists_the_commands_in_order() -> None:
    result = piped("--help")
    assert result.returncode == 0 and not ANSI.search(result.stdout)
    listed = [w for w in re.findall(r"^\W*(\w+)\s{2,}", result.stdout, re.M) if w in COMMANDS]
    assert listed == list(COMMANDS)
    deck = piped("deck", "-h")
    assert all(word in deck.stdout for word in ("generate", "show", "print"))
    assert "--edition" in piped("deck", "generate", "--help").stdout


def test_help_on_a_terminal_is_coloured() -> None:
    code, screen = on_terminal("serve", "--help")
    assert code == 0
    assert ANSI.search(screen)
    plain = ANSI.sub("", screen)
    assert "--rooms-per-minute" in plain and "Limits" in plain and "UBONGO_REDIS_URL" in plain


def test_no_command_shows_help_and_exits_2_and_version() -> None:
    result = piped()
    assert result.returncode == 2 and "simulate" in result.stdout
    from ubongo import __version__

    assert piped("--version").stdout == f"ubongo {__version__}\n"


def test_usage_mistakes_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        (["frobnicate"], "ubongo: error: invalid choice: 'frobnicate'"),
        (["serve", "--port", "many"], "ubongo serve: error: "),
        (["simulate", "--edition", "chess"], "invalid choice: 'chess'"),
        (["simulate", "--edition", "classic", "--skill", "godlike"], "invalid choice"),
        (["solve"], "ubongo solve: error: Missing argument"),
        (["deck", "show"], "ubongo deck show: error: Missing argument"),
    ]
    for argv, message in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, (argv, err)


def test_a_progress_bar_and_a_table_on_a_terminal(tmp_path: Path) -> None:
    out = tmp_path / "deck.json"
    code, screen = on_terminal(
        "deck", "generate", "--edition", "trigo", "--cards", "2", "-o", str(out)
    )
    assert code == 0, screen
    assert "\x1b[" in screen  # coloured
    plain = ANSI.sub("", screen)
    assert re.search(r"trigo .*4/4 sides", plain)
    assert re.search(r"edition\s+seed\s+cards\s+tasks", plain)  # the result table
    assert Deck.load(out).task_count > 0


def test_no_bar_and_no_colour_when_piped(tmp_path: Path) -> None:
    result = piped("deck", "generate", "--edition", "trigo", "--cards", "1")
    assert result.returncode == 0 and result.stderr == ""
    assert not ANSI.search(result.stdout)
    simulated = piped("simulate", "--edition", "classic", "--players", "3", "--seed", "4")
    assert simulated.returncode == 0 and simulated.stderr == ""
    assert not ANSI.search(simulated.stdout)


def test_simulate_final_scores_are_a_table_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--edition", "extreme", "--players", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("Final scores:") :].splitlines()[1:]
    assert re.match(r"\s+player\s+points\s+cards", table[0])
    rows = [re.match(r"\s+(Ann|Ben|Cleo)\s+(\d+)\s", line) for line in table[2:5]]
    points = [int(m.group(2)) for m in rows if m]
    assert len(points) == 3 and points == sorted(points, reverse=True)


def test_a_solo_run_on_a_terminal_shows_its_bar() -> None:
    code, screen = on_terminal(
        "simulate", "--edition", "classic", "--solo", "--solo-goal", "tasks", "--solo-target", "3"
    )
    assert code == 0
    plain = ANSI.sub("", screen)
    assert "3/3 tasks" in plain and "Solo over" in plain


def test_printing_reports_each_side(tmp_path: Path) -> None:
    from ubongo.puzzles.printing import write_pdf

    seen: list[tuple[int, int]] = []
    deck = standard_deck("classic")
    assert isinstance(deck, Deck)
    write_pdf(deck, tmp_path / "b.pdf", cards=[1, 2], progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
