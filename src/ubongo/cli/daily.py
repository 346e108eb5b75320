"""``ubongo daily``: the daily challenge's tasks of an edition, as pictures or puzzle files.

$ ubongo daily --edition extreme
$ ubongo daily --date 2026-11-23 -o today/     # one puzzle file per task, for ubongo solve
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ubongo import editions
from ubongo.cli import SUMMARY, CommandError
from ubongo.cli.console import ColourMode, console, results
from ubongo.cli.picture import render, use_colour
from ubongo.puzzlefile import dumps
from ubongo.puzzles.daily import daily


def register(app: typer.Typer) -> None:
    app.command(
        "daily",
        help="The tasks of one edition's daily challenge (the same as the server's GET "
        "/api/daily): a table and pictures, JSON, or puzzle files that ubongo solve reads.",
        short_help=SUMMARY["daily"],
    )(run)


def run(
    edition: Annotated[str, typer.Option(help="the edition")] = editions.names()[0],
    date: Annotated[
        str | None, typer.Option(help="YYYY-MM-DD (default: today, UTC)", show_default=False)
    ] = None,
    json_: Annotated[bool, typer.Option("--json", help="print the set as JSON")] = False,
    out: Annotated[
        str | None,
        typer.Option("-o", "--out", metavar="DIR", help="write one puzzle file per task"),
    ] = None,
    color: ColourMode = "auto",
) -> int:
    if edition not in editions.names():
        raise CommandError(f"no edition {edition!r} ({', '.join(editions.names())})")
    try:
        day = (
            datetime.date.fromisoformat(date)
            if date
            else datetime.datetime.now(datetime.UTC).date()
        )
    except ValueError:
        raise CommandError(f"a date is YYYY-MM-DD, not {date!r}") from None
    found = daily(edition, day)
    if json_:
        print(json.dumps(found.to_json()))
        return 0
    if out:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        for n, task in enumerate(found.tasks, 1):
            path = folder / f"daily-{edition}-{day.isoformat()}-{n}.json"
            path.write_text(dumps(task), encoding="utf-8")
            print(path)
        return 0
    colour = use_colour(sys.stdout, color)
    rows = [
        (n, task.name, len(task.pieces), len(task.area.cells), seconds)
        for n, (task, seconds) in enumerate(zip(found.tasks, found.seconds, strict=True), 1)
    ]
    console(colour=colour).print(
        results(
            f"Daily challenge, {edition}, {day.isoformat()}",
            ("#", "task", "pieces", "cells", "about s"),
            rows,
        )
    )
    for task, seconds in zip(found.tasks, found.seconds, strict=True):
        print(f"{task.name} (about {seconds:.0f} s)")
        print()
        print(render(task.area, task.pieces, colour=colour))
        print()
    return 0
