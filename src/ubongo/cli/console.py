"""What the commands share for talking to a person: rich consoles, progress bars, result tables,
and argparse-style choices.

Rich colours only a terminal: piped or redirected, the output is plain text (no ANSI codes), so
scripts that read it keep working.  Progress bars go to standard error, and only when it is a
terminal (or when a command's ``--progress`` asks for one); standard output stays the result.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, TextIO

import typer
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

#: a progress report: ``(done, total)``, as the library's long jobs call it
Report = Callable[[int, int], None]


def choice(values: Sequence[str]) -> Callable[[str], str]:
    """A parser for an option taking one of ``values``; anything else is a usage error worded
    as argparse words it (``invalid choice: 'pink' (choose from auto, always, never)``)."""
    allowed = tuple(values)

    def parse(value: str) -> str:
        if value not in allowed:
            raise typer.BadParameter(
                f"invalid choice: {value!r} (choose from {', '.join(allowed)})"
            )
        return value

    return parse


#: ``--color``/``--colour``, taken by every command that draws pictures
ColourMode = Annotated[
    str,
    typer.Option(
        "--color",
        "--colour",
        parser=choice(("auto", "always", "never")),
        metavar="[auto|always|never]",
        help="colour the pictures (auto: on a terminal, unless NO_COLOR is set)",
    ),
]


def console(stream: TextIO | None = None, *, colour: bool | None = None) -> Console:
    """A rich console on ``stream`` (standard output by default, looked up when written to, so
    a redirected or captured stream is followed); ``colour`` forces colour on or off, ``None``
    colours a terminal only (and honours NO_COLOR)."""
    return Console(
        file=stream,
        highlight=False,
        force_terminal=True if colour else None,
        no_color=True if colour is False else None,
        soft_wrap=True,
    )


def stderr_console() -> Console:
    """A rich console on standard error (where progress and notes go)."""
    return Console(stderr=True, highlight=False)


def results(title: str | None, columns: Sequence[str], rows: Sequence[Sequence[object]]) -> Table:
    """A table of results: numbers right-aligned, a rule under the heading only."""
    table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    numeric = [
        all(isinstance(row[i], int | float) for row in rows) if rows else False
        for i in range(len(columns))
    ]
    for name, right in zip(columns, numeric, strict=True):
        table.add_column(name, justify="right" if right else "left", header_style="bold")
    for row in rows:
        table.add_row(*(_cell(v) for v in row))
    return table


def text_lines(table: Table, *, indent: int = 0) -> list[str]:
    """A table as plain lines of text (no colour, no trailing blanks), for logs that are
    written line by line."""
    buffer = io.StringIO()
    Console(file=buffer, width=100, color_system=None, highlight=False).print(table)
    pad = " " * indent
    return [pad + line.rstrip() for line in buffer.getvalue().splitlines() if line.strip()]


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


@contextmanager
def progress(label: str, unit: str, *, force: bool = False) -> Iterator[Report | None]:
    """A progress bar on standard error while the block runs: yields a :data:`Report` to call
    with ``(done, total)``, or ``None`` when nobody would see it (standard error is not a
    terminal and ``force`` is off).  Forced onto a non-terminal, the bar is written once, at
    the end: ``classic ━━━━━━━━ 72/72 sides 0:00:03``."""
    err = stderr_console()
    if not (force or err.is_terminal):
        yield None
        return
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeElapsedColumn(),
        console=err,
        # what the command prints to standard output goes above the bar on a shared terminal;
        # redirected, it must stay in its file
        redirect_stdout=_is_terminal(sys.stdout),
        redirect_stderr=False,
    )
    task = bar.add_task(label, total=None)

    def report(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield report


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())
