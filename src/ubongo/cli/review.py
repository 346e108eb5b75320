"""``ubongo review``: the moderators' view of held results (docs/fair-play.md, "Review").

$ ubongo review held                       # the results waiting for review
$ ubongo review show 12                    # one, its traces step by step, its account's record
$ ubongo review clear 12 --by ada          # it counts after all
$ ubongo review mark 7 --by ada --note "paced solver"   # account 7 is a cheater
$ ubongo review log                        # every decision, oldest first
$ ubongo review puzzles                    # reported puzzles (docs/editor.md)
$ ubongo review hide-puzzle Xy3 --by ada   # off the community list and its link
$ ubongo review hide-pack Kq7 --by ada     # a pack the same

It works on the server's database (``--database-url``, or ``UBONGO_DATABASE_URL``, or the
default SQLite file), which may be in use by a running server: every decision is one
transaction, and logged with what it changed.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer

from ubongo import rules
from ubongo.board import Area, Placement
from ubongo.cli import SUMMARY, CommandError, new_app
from ubongo.cli.console import console
from ubongo.cli.picture import render
from ubongo.geometry import Cell
from ubongo.pieces import Piece
from ubongo.rules.events import EventKind
from ubongo.server.online.ratings import give_back, rate_cleared
from ubongo.server.online.traces import Step, TraceNote
from ubongo.server.store import Decided, HeldResult, Store, StoredGame

Database = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        metavar="URL",
        help="the server's database (default: UBONGO_DATABASE_URL, else the default SQLite file)",
        show_default=False,
    ),
]
Moderator = Annotated[str, typer.Option("--by", help="who decides (kept in the log)")]
Note = Annotated[str, typer.Option(help="why (kept in the log)")]


def register(app: typer.Typer) -> None:
    review = new_app(
        "Review the results held for fair play (docs/fair-play.md).\n\n"
        "  ubongo review held\n"
        "  ubongo review show 12\n"
        "  ubongo review clear 12 --by ada\n"
        "  ubongo review mark 7 --by ada --note 'paced solver'\n"
        "  ubongo review reports",
        name="review",
    )
    review.callback(short_help=SUMMARY["review"])(_no_action)
    review.command("held", help="The held results (oldest first).")(_held)
    review.command("show", help="One held result: traces, account, decisions.")(_show)
    review.command("clear", help="A held result counts after all.")(_clear)
    review.command("mark", help="Mark an account a cheater (voids its rated games).")(_mark)
    review.command("log", help="Every decision, oldest first.")(_log)
    review.command("reports", help="Reported lines of chat (newest first).")(_reports)
    review.command("puzzles", help="Reported puzzles (most reported first).")(_puzzles)
    review.command("hide-puzzle", help="Hide a puzzle, or only its title.")(_hide_puzzle)
    review.command("hide-pack", help="Hide a pack (off the list; its link its maker's).")(
        _hide_pack
    )
    app.add_typer(review)


def _no_action(ctx: typer.Context) -> None:
    if ctx.invoked_subcommand is None:
        print(ctx.get_help())
        raise typer.Exit(2)


def _store(url: str | None) -> Store:
    store = Store(url or os.environ.get("UBONGO_DATABASE_URL") or None)
    store.migrate()
    return store


def _line(h: HeldResult) -> str:
    when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(h.held_at))
    return (
        f"#{h.id}  {when}  {h.kind:<5}  game {h.game_id} seat {h.seat}  "
        f"account {h.account} ({h.name})  score {h.score:.2f}  {h.status}: {', '.join(h.reasons)}"
    )


def _held(
    database_url: Database = None,
    all_: Annotated[bool, typer.Option("--all", help="cleared and marked ones too")] = False,
    account: Annotated[int | None, typer.Option(help="one account's only")] = None,
    json_: Annotated[bool, typer.Option("--json", help="as JSON lines")] = False,
) -> int:
    store = _store(database_url)
    try:
        found = store.review.held(None if all_ else "held", account)
    finally:
        store.close()
    for h in found:
        print(json.dumps(h.__dict__) if json_ else _line(h))
    if not found and not json_:
        console().print("nothing held")
    return 0


def _show(
    held_id: int,
    database_url: Database = None,
    boards: Annotated[
        bool, typer.Option(help="draw the board after each piece placed or taken off")
    ] = True,
) -> int:
    """The held result, its traces replayed step by step on the board, and its account as a
    whole: every other result of it held, and the decisions about it."""
    store = _store(database_url)
    try:
        h = store.review.get(held_id)
        if h is None:
            raise CommandError(f"no held result #{held_id}")
        game = store.games.get(h.game_id)
        others = [o for o in store.review.held(None, h.account) if o.id != h.id]
        decisions = store.review.decisions(h.account)
    finally:
        store.close()
    print(_line(h))
    replayed = None if game is None else _replayed(game)
    notes = [] if game is None else game.result.get("traces", [])
    for data in notes:
        note = TraceNote.from_json(data)
        if note.player != str(h.seat):
            continue
        print(_note_header(note))
        task = None if replayed is None else _task(replayed, note)
        for n, step in enumerate(note.steps):
            print("    " + _step_line(step.to_json()))
            if task is not None and boards and step.op in ("place", "lift"):
                print(_indented(_board_after(task, note.steps[: n + 1])))
    print(f"account {h.account}: {len(others)} other held result(s)")
    for o in others:
        print("  " + _line(o))
    for d in decisions:
        print(f"  decision #{d.id}: {d.decision} by {d.moderator}: {d.note}")
    return 0


def _replayed(game: StoredGame) -> rules.Game | None:
    """The stored game rebuilt by the rules from its settings, seed and actions (``None`` if
    it cannot be: a game stored by another version of the rules)."""
    try:
        settings = dict(game.settings["rules"])
        settings["players"], settings["levels"] = (
            tuple(settings["players"]),
            tuple(settings["levels"]),
        )
        actions = [rules.action_from_json(a) for a in game.events]
        return rules.replay(rules.Settings(**settings), game.seed, actions)
    except (KeyError, TypeError, ValueError, rules.RuleError):
        return None


def _task(game: rules.Game, note: TraceNote) -> tuple[Area, list[Piece]] | None:
    """The area and pieces of the task a trace is of (its finish names the side)."""
    for ev in game.events:
        d = ev.data
        mine = ev.kind == EventKind.FINISHED and str(d.get("player")) == note.player
        if mine and int(d["card"]) == note.card and str(d["key"]) == note.key:
            side_name = d.get("side") or game.settings.level_of(note.player)
            side = rules.card(game, note.card).side(side_name)
            return side.area, game.deck.task_pieces(side.task(note.key))
    return None


def _board_after(task: tuple[Area, list[Piece]], steps: Sequence[Step]) -> str:
    """The board as the steps leave it: each piece where its last place put it."""
    area, pieces = task
    by_id = {p.id: p for p in pieces}
    laid: dict[str, frozenset[Cell]] = {}
    for s in steps:
        if s.op == "lift":
            laid.pop(s.piece, None)
        elif s.op == "place" and s.piece in by_id and s.transform is not None and s.offset:
            placement = Placement(s.piece, s.transform, s.offset)
            laid[s.piece] = placement.cells(by_id[s.piece])
    return render(area, pieces, laid, colour=False, legend=False)


def _indented(text: str) -> str:
    return "\n".join("        " + line for line in text.splitlines())


def _note_header(note: TraceNote) -> str:
    share = note.seconds / max(note.difficulty, 1e-6)
    return (
        f"  round {note.round}, card {note.card} {note.key}: {note.pieces} pieces in "
        f"{note.seconds:.1f} s ({share:.0%} of a median player's {note.difficulty:.0f} s), "
        f"trace {note.fault or 'consistent'}, {len(note.steps)} steps"
    )


def _step_line(step: dict[str, Any]) -> str:
    where = ""
    if "offset" in step:
        where = f" at {tuple(step['offset'])}"
    turned = f" turned {step['transform']}" if "transform" in step else ""
    return f"{step['t']:7.2f} s  {step['op']:<5} {step['piece']}{turned}{where}"


def _clear(held_id: int, by: Moderator, note: Note = "", database_url: Database = None) -> int:
    store = _store(database_url)
    try:
        changes = store.review.clear(held_id, by, note, time.time(), rate_cleared)
    finally:
        store.close()
    if changes is None:
        raise CommandError(f"no held result #{held_id} waiting for review")
    print(json.dumps({"cleared": held_id, **changes}))
    return 0


def _mark(account: int, by: Moderator, note: Note = "", database_url: Database = None) -> int:
    return _decide(
        database_url,
        lambda store: store.review.mark(account, by, note, time.time(), give_back),
        f"no account {account}",
    )


def _decide(
    database_url: str | None, act: Callable[[Store], dict[str, Any] | None], missing: str
) -> int:
    """A decision on the store (one transaction, logged), printed as what it changed; a
    clear error (``missing``) when what it was about does not exist."""
    store = _store(database_url)
    try:
        changes = act(store)
    finally:
        store.close()
    if changes is None:
        raise CommandError(missing)
    print(json.dumps(changes))
    return 0


def _log(
    database_url: Database = None,
    account: Annotated[int | None, typer.Option(help="one account's only")] = None,
) -> int:
    store = _store(database_url)
    try:
        for d in store.review.decisions(account):
            when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(d.at))
            print(
                f"#{d.id}  {when}  {d.decision:<5}  account {d.account}  by {d.moderator}"
                f"  {d.note!r}  {json.dumps(d.changes)}"
            )
    finally:
        store.close()
    return 0


def _reports(
    database_url: Database = None,
    account: Annotated[int | None, typer.Option(help="what one account said only")] = None,
) -> int:
    store = _store(database_url)
    try:
        found = store.reports.latest(account=account)
    finally:
        store.close()
    for r in found:
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(r.at))
        who = f"account {r.account}" if r.account is not None else "a guest"
        print(f"#{r.id}  {when}  room {r.room}  {who} ({r.name}): {r.text!r}")
    if not found:
        console().print("nothing reported")
    return 0


def _puzzles(database_url: Database = None) -> int:
    store = _store(database_url)
    try:
        found = store.puzzles.reported()
    finally:
        store.close()
    for p, reasons in found:
        state = "hidden" if p.hidden else "title hidden" if p.title_hidden else "shown"
        listed = "listed" if p.published else "link only"
        print(
            f"{p.id}  {p.edition}  {p.title!r} by account {p.account} ({p.author_name})  "
            f"{p.reports} reports, {p.plays} plays  {listed}, {state}"
        )
        for reason in reasons:
            print(f"    {reason!r}")
    if not found:
        console().print("no puzzle reported")
    return 0


def _hide_puzzle(
    puzzle: str,
    by: Moderator,
    note: Note = "",
    title: Annotated[bool, typer.Option("--title", help="only its title")] = False,
    show: Annotated[bool, typer.Option("--show", help="undo: shown again")] = False,
    database_url: Database = None,
) -> int:
    hide, decided = not show, Decided(by, note, time.time())
    hidden, title_hidden = (None, hide) if title else (hide, None)
    return _decide(
        database_url,
        lambda store: store.puzzles.hide(puzzle, hidden, title_hidden, decided),
        f"no puzzle {puzzle!r}",
    )


def _hide_pack(
    pack: str,
    by: Moderator,
    note: Note = "",
    show: Annotated[bool, typer.Option("--show", help="undo: shown again")] = False,
    database_url: Database = None,
) -> int:
    decided = Decided(by, note, time.time())
    return _decide(
        database_url, lambda store: store.packs.hide(pack, not show, decided), f"no pack {pack!r}"
    )
