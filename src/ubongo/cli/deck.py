"""``ubongo deck``: generate decks, draw their boards in the terminal, print them as a PDF.

::

    ubongo deck generate --edition classic --seed 7 -o classic.json
    ubongo deck show classic.json --board 3
    ubongo deck print classic.json -o boards.pdf
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated

import typer

from ubongo import editions
from ubongo.board import Area
from ubongo.cli import SUMMARY, CommandError, new_app
from ubongo.cli.console import ColourMode, progress, results, stderr_console
from ubongo.cli.picture import render, use_colour
from ubongo.puzzles.deck import Card, Deck, DeckError, Side
from ubongo.puzzles.generator import GenerationError, generate_deck


def register(app: typer.Typer) -> None:
    deck = new_app(
        "Generate decks, draw their boards in the terminal, print them as a PDF.\n\n"
        "  ubongo deck generate --edition classic --seed 7 -o classic.json\n"
        "  ubongo deck show classic.json --board 3\n"
        "  ubongo deck print classic.json -o boards.pdf",
        name="deck",
    )
    deck.callback(short_help=SUMMARY["deck"])(_no_action)
    deck.command("generate", help="Make a deck of an edition from a seed.")(_generate)
    deck.command("show", help="Draw a deck's boards in the terminal.")(_show)
    deck.command("print", help="Write a printable print-and-play PDF at real size.")(_print)
    app.add_typer(deck)


def _no_action(ctx: typer.Context) -> None:
    if ctx.invoked_subcommand is None:
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


#: ``--board``: one board or card
Board = Annotated[
    str | None,
    typer.Option(help="only this board or card (numbered from 1)", show_default=False),
]


#: ``deck generate``'s options (but ``--edition``: its help names the editions when the command
#: is built, which is after an edition a test registers)
Seed = Annotated[
    str | None,
    typer.Option(help="a whole number (default: the edition's standard seed)", show_default=False),
]
CardCount = Annotated[
    str | None,
    typer.Option(help="make only this many cards (default: the full deck)", show_default=False),
]
DeckOutput = Annotated[
    str | None,
    typer.Option(
        "-o", "--output", help="write the deck here (default: standard output)", show_default=False
    ),
]
ShowProgress = Annotated[
    bool, typer.Option("--progress", help="show progress even when not on a terminal")
]


def _generate(
    edition: Annotated[
        str, typer.Option(help=f"one of {', '.join(editions.names())}", show_default=False)
    ],
    seed: Seed = None,
    cards: CardCount = None,
    output: DeckOutput = None,
    progress_: ShowProgress = False,
) -> int:
    try:
        record = editions.record(edition)
    except ValueError as e:
        raise CommandError(str(e)) from None
    seed_n = _whole(seed, "--seed", 0)
    cards_n = _whole(cards, "--cards", 1)
    start = time.perf_counter()
    with progress(edition, "sides", force=progress_) as report:
        try:
            deck = generate_deck(edition, seed_n, cards=cards_n, progress=report)
        except GenerationError as e:
            raise CommandError(str(e)) from None
    if output:
        _write_atomically(Path(output), deck.dumps())
    else:
        sys.stdout.write(deck.dumps())
    err = stderr_console()
    if err.is_terminal:
        columns = ("edition", "seed", f"{record.deck.card_word}s", "tasks", "seconds")
        made = (edition, deck.seed, len(deck.cards), deck.task_count, time.perf_counter() - start)
        err.print(results(None, columns, [made]))
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


def _show(
    file: Annotated[str, typer.Argument(help="a deck file (JSON)")],
    board: Board = None,
    color: ColourMode = "auto",
) -> int:
    deck = _load(file)
    cards = _chosen_cards(deck, board)
    colour = use_colour(sys.stdout, color)
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


def _print(
    file: Annotated[str, typer.Argument(help="a deck file (JSON)")],
    output: Annotated[
        str, typer.Option("-o", "--output", help="the PDF to write", show_default=False)
    ],
    board: Board = None,
) -> int:
    deck = _load(file)
    cards = _chosen_cards(deck, board)
    out = Path(output)
    if out.suffix.lower() != ".pdf":
        raise CommandError(f"-o {out}: the output must be a .pdf file")
    if not (out.parent if str(out.parent) else Path(".")).is_dir():
        raise CommandError(f"cannot write {out}: no directory {out.parent}")
    from ubongo.puzzles.printing import write_pdf  # reportlab is slow to import: only here

    with progress(out.name, "sides") as report:
        try:
            pages = write_pdf(deck, out, cards=[c.number for c in cards], progress=report)
        except OSError as e:
            raise CommandError(f"cannot write {out}: {e.strerror}") from None
    print(f"wrote {out}: {pages} pages", file=sys.stderr)
    return 0
