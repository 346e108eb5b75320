"""``ubongo deck``: generate decks, draw their boards in the terminal, print them as a PDF.

::

    ubongo deck generate --edition classic --seed 7 -o classic.json
    ubongo deck show classic.json --board 3
    ubongo deck print classic.json -o boards.pdf
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import NoReturn, TextIO

from ubongo import editions
from ubongo.board import Area
from ubongo.cli import CommandError
from ubongo.cli.picture import add_colour_option, render, use_colour
from ubongo.puzzles.deck import Card, Deck, DeckError, Side
from ubongo.puzzles.generator import GenerationError, generate_deck


class _OneLineParser(argparse.ArgumentParser):
    """Usage mistakes as one line (``ubongo deck ACTION: error: ...``) and exit code 2."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    deck = subparsers.add_parser(
        "deck", help="generate, show and print decks of boards and cards", description=__doc__
    )
    # the dispatcher makes plain parsers; ours print usage mistakes as one line
    deck.__class__ = _OneLineParser
    deck.set_defaults(func=_no_action)
    actions = deck.add_subparsers(dest="action", metavar="ACTION", parser_class=_OneLineParser)

    gen = actions.add_parser("generate", help="make a deck of an edition from a seed")
    gen.add_argument("--edition", required=True, help=f"one of {', '.join(editions.names())}")
    gen.add_argument("--seed", help="a whole number (default: the edition's standard seed)")
    gen.add_argument("--cards", help="make only this many cards (default: the full deck)")
    gen.add_argument("-o", "--output", help="write the deck here (default: standard output)")
    gen.add_argument(
        "--progress", action="store_true", help="show progress even when not on a terminal"
    )
    gen.set_defaults(func=_generate)

    show = actions.add_parser("show", help="draw a deck's boards in the terminal")
    show.add_argument("file", help="a deck file (JSON)")
    show.add_argument("--board", help="only this board or card (numbered from 1)")
    add_colour_option(show, "the pictures")
    show.set_defaults(func=_show)

    prt = actions.add_parser("print", help="write a printable print-and-play PDF at real size")
    prt.add_argument("file", help="a deck file (JSON)")
    prt.add_argument("-o", "--output", required=True, help="the PDF to write")
    prt.add_argument("--board", help="only this board or card (numbered from 1)")
    prt.set_defaults(func=_print)


def _no_action(args: argparse.Namespace) -> int:
    raise CommandError("say what to do: generate, show or print (see ubongo deck --help)")


def _whole(value: str | None, what: str, low: int) -> int | None:
    if value is None:
        return None
    try:
        n = int(value)
    except ValueError:
        raise CommandError(f"{what} must be a whole number, not {value!r}") from None
    if n < low:
        raise CommandError(f"{what} must be at least {low}, not {n}")
    return n


class ProgressBar:
    """A one-line progress bar on a stream: ``classic [#####.....] 36/72 sides 1.2 s``."""

    def __init__(self, label: str, stream: TextIO, width: int = 30) -> None:
        self.label = label
        self.stream = stream
        self.width = width
        self.start = time.perf_counter()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // max(total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        elapsed = time.perf_counter() - self.start
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total} sides {elapsed:.1f} s")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def _write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so a failure leaves the old file."""
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise CommandError(f"cannot write {path}: no directory {directory}")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes the file private; a deck is not
        os.replace(tmp, path)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise CommandError(f"cannot write {path}: {e.strerror}") from None


def _generate(args: argparse.Namespace) -> int:
    try:
        editions.record(args.edition)
    except ValueError as e:
        raise CommandError(str(e)) from None
    seed = _whole(args.seed, "--seed", 0)
    cards = _whole(args.cards, "--cards", 1)
    bar = ProgressBar(args.edition, sys.stderr) if args.progress or sys.stderr.isatty() else None
    try:
        deck = generate_deck(
            args.edition,
            seed,
            cards=cards,
            progress=bar,
        )
    except GenerationError as e:
        raise CommandError(str(e)) from None
    finally:
        if bar is not None:
            bar.close()
    if args.output:
        _write_atomically(Path(args.output), deck.dumps())
    else:
        sys.stdout.write(deck.dumps())
    return 0


def _load(file: str) -> Deck:
    try:
        return Deck.load(file)
    except DeckError as e:
        message = str(e)
        raise CommandError(message if file in message else f"{file}: {message}") from None


def _chosen_cards(deck: Deck, board: str | None) -> list[Card]:
    number = _whole(board, "--board", 1)
    if number is None:
        return list(deck.cards)
    chosen = [c for c in deck.cards if c.number == number]
    if not chosen:
        raise CommandError(f"--board {number}: the deck has boards 1 to {len(deck.cards)}")
    return chosen


def _show(args: argparse.Namespace) -> int:
    deck = _load(args.file)
    cards = _chosen_cards(deck, args.board)
    colour = use_colour(sys.stdout, args.color)
    print(
        f"{deck.edition} deck, seed {deck.seed}: {len(deck.cards)} cards, {deck.task_count} tasks"
    )
    for card in cards:
        for side in card.sides:
            print()
            print(side_text(deck, card, side, colour=colour))
    return 0


def side_text(deck: Deck, card: Card, side: Side, *, colour: bool = False) -> str:
    """A side as text: a heading, the area (drawn by :mod:`ubongo.cli.picture`; a 3D area as
    its footprint) and one line per task."""
    area = side.area
    layers = " on two levels" if area.layers > 1 else ""
    word = deck.record.deck.card_word
    lines = [f"{word} {card.number}, side {side.name}: {len(area.cells)} cells{layers}"]
    flat = Area(area.lattice, area.cells) if area.layers > 1 else area
    lines.append(render(flat, [], None, colour=colour, legend=False))
    for task in side.tasks:
        names = ", ".join(p.name or p.id for p in deck.task_pieces(task))
        plural = "s" if task.solutions != 1 else ""
        lines.append(
            f"  {'/'.join(task.keys):<12} {names}  "
            f"({task.solutions} solution{plural}, about {task.difficulty:.0f} s)"
        )
    return "\n".join(lines)


def _print(args: argparse.Namespace) -> int:
    deck = _load(args.file)
    cards = _chosen_cards(deck, args.board)
    out = Path(args.output)
    if out.suffix.lower() != ".pdf":
        raise CommandError(f"-o {out}: the output must be a .pdf file")
    if not (out.parent if str(out.parent) else Path(".")).is_dir():
        raise CommandError(f"cannot write {out}: no directory {out.parent}")
    from ubongo.puzzles.printing import write_pdf  # reportlab is slow to import: only here

    try:
        pages = write_pdf(deck, out, cards=[c.number for c in cards])
    except OSError as e:
        raise CommandError(f"cannot write {out}: {e.strerror}") from None
    print(f"wrote {out}: {pages} pages", file=sys.stderr)
    return 0
