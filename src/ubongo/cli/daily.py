"""``ubongo daily``: the daily challenge's tasks of an edition, as pictures or puzzle files.

$ ubongo daily --edition extreme
$ ubongo daily --date 2026-11-23 -o today/     # one puzzle file per task, for ubongo solve
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path
from typing import Any

from ubongo import editions
from ubongo.cli import CommandError
from ubongo.cli.picture import add_colour_option, render, use_colour
from ubongo.puzzlefile import dumps
from ubongo.puzzles.daily import daily


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "daily",
        help="the daily challenge's tasks",
        description="The tasks of one edition's daily challenge (the same as the server's "
        "GET /api/daily): pictures, JSON, or puzzle files that ubongo solve reads.",
    )
    parser.add_argument("--edition", default=editions.names()[0], help="default: %(default)s")
    parser.add_argument("--date", help="YYYY-MM-DD (default: today, UTC)")
    parser.add_argument("--json", action="store_true", help="print the set as JSON")
    parser.add_argument("-o", "--out", metavar="DIR", help="write one puzzle file per task")
    add_colour_option(parser, "the pictures")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.edition not in editions.names():
        raise CommandError(f"no edition {args.edition!r} ({', '.join(editions.names())})")
    try:
        day = (
            datetime.date.fromisoformat(args.date)
            if args.date
            else datetime.datetime.now(datetime.UTC).date()
        )
    except ValueError:
        raise CommandError(f"a date is YYYY-MM-DD, not {args.date!r}") from None
    found = daily(args.edition, day)
    if args.json:
        print(json.dumps(found.to_json()))
        return 0
    if args.out:
        folder = Path(args.out)
        folder.mkdir(parents=True, exist_ok=True)
        for n, task in enumerate(found.tasks, 1):
            path = folder / f"daily-{args.edition}-{day.isoformat()}-{n}.json"
            path.write_text(dumps(task), encoding="utf-8")
            print(path)
        return 0
    colour = use_colour(sys.stdout, args.color)
    for task, seconds in zip(found.tasks, found.seconds, strict=True):
        print(f"{task.name} (about {seconds:.0f} s)")
        print()
        print(render(task.area, task.pieces, colour=colour))
        print()
    return 0
