"""The play trace the web client sends with its submit (docs/protocol.md, "The play trace"):
a task of a solo run for the leaderboard, played in the browser by pointer and keys, is
finished with a trace that holds together by the server's check, kept with the room's
finishes (private: read from its database here), and tells what the hand did: pieces
picked, turned, placed where they did not fit, taken off again and placed where they go, in
the order done, at increasing times. (The runs and games ranked and rated in the other web
tests need their traces too: tests/web/conftest.py no longer lets finishes go untraced.)"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from server_harness import ServerProcess, open_rooms_file
from test_3d import start_solo_3d
from test_solo import start_solo
from waiting import eventually
from webplay import (
    centre,
    drag_into_place,
    key,
    keyboard_into_place,
    piece,
    solution,
)

from ubongo.catalogue import edition_catalogue


def kept_traces(page: Page, server: ServerProcess) -> list[dict[str, Any]]:
    """The play traces the server keeps with the finishes of the page's room so far: read from
    the room's saved form (its row in the open rooms' file; the game is stored with them at
    its end)."""
    code = page.locator("main.room").get_attribute("data-code")
    rooms = open_rooms_file(Path(server.database_url.removeprefix("sqlite:///")))

    def saved() -> list[dict[str, Any]] | None:
        con = sqlite3.connect(f"file:{rooms}?mode=ro", uri=True, timeout=5)
        try:
            row = con.execute("SELECT room FROM open_rooms WHERE code = ?", (code,)).fetchone()
        finally:
            con.close()
        return None if row is None else list(json.loads(row[0]).get("traces", [])) or None

    return eventually(saved, f"room {code} saved with a finish's trace")


def drag(page: Page, grab: str, cell: str) -> None:
    """Drag by the mouse what ``grab`` selects (on the board) onto the area's ``cell``."""
    sx, sy = centre(page, f".game-main {grab}")
    tx, ty = centre(page, f'.game-main polygon[data-area-cell="{cell}"]')
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(sx + 12, sy + 8, steps=3)
    page.mouse.move(tx, ty, steps=10)
    page.mouse.up()


def subsequence(wanted: list[str], ops: list[str]) -> bool:
    it = iter(ops)
    return all(op in it for op in wanted)


def test_a_task_played_by_pointer_and_keys_is_traced_as_played(
    page: Page, server: ServerProcess
) -> None:
    start_solo(page, server, "classic")
    plan = solution(page, "classic")
    order = page.eval_on_selector_all(
        ".game-main g[data-piece]", "els => els.map(e => e.dataset.piece)"
    )
    first, last = plan[0], plan[-1]
    cat = edition_catalogue("classic")

    # the first piece: tapped, turned all the way round by the Rotate button (four turns)
    g = piece(page, first.piece)
    page.mouse.click(*centre(page, f'.game-main g[data-piece="{first.piece}"] polygon'))
    expect(g).to_have_class("piece selected")
    for _ in range(4):
        page.click(".game-main .tool-rotate")
    # dragged by a cell onto an area cell where it does not go
    now = int(g.get_attribute("data-transform") or 0)
    grab = next(p for p in cat["pieces"] if p["id"] == first.piece)["shapes"][str(now)][0]
    right = tuple(c + o for c, o in zip(grab, first.offset, strict=True))
    cells = page.eval_on_selector_all(
        ".game-main [data-area-cell]", "els => els.map(e => e.dataset.areaCell)"
    )
    wrong = next(c for c in cells if now != first.transform or c != key(right))
    drag(page, f'g[data-piece="{first.piece}"] polygon[data-cell="{key(grab)}"]', wrong)
    expect(g).to_have_attribute("data-state", "placed")
    wrong_at = g.get_attribute("data-offset")
    # taken off again by a tap on its tray slot, then put where it goes
    page.mouse.click(*centre(page, f'.game-main .tray-slot[data-slot="{first.piece}"] polygon'))
    expect(g).to_have_attribute("data-state", "tray")
    drag_into_place(page, "classic", first)
    for pl in plan[1:-1]:
        drag_into_place(page, "classic", pl)
    # the last piece with the keyboard: its number, R/F, Enter, the arrows
    keyboard_into_place(page, "classic", last, order.index(last.piece), last=True)
    expect(page.locator("main.room")).to_have_attribute("data-last-verdict", "covered")

    (note,) = kept_traces(page, server)
    assert note["fault"] is None, note
    steps = note["steps"]
    times = [s["t"] for s in steps]
    assert times == sorted(times) and times[0] >= 0 and times[-1] > times[0], times
    assert times[-1] <= note["seconds"] + 1, (times[-1], note["seconds"])
    mine = [s for s in steps if s["piece"] == first.piece]
    ops = [s["op"] for s in mine]
    assert subsequence(["pick", "turn", "turn", "turn", "turn", "place", "lift", "place"], ops), ops
    places = [s for s in mine if s["op"] == "place"]
    assert ",".join(map(str, places[0]["offset"])) == wrong_at, places
    # each piece's last place is where the submission has it
    for pl in plan:
        end = [s for s in steps if s["piece"] == pl.piece and s["op"] in ("place", "lift")][-1]
        assert (end["op"], end["transform"], end["offset"]) == (
            "place",
            pl.transform,
            list(pl.offset),
        ), (pl, end)
    keyed = [s["op"] for s in steps if s["piece"] == last.piece]
    assert subsequence(["pick", "place"], keyed), keyed


def test_triangles_by_pointer_over_a_reload_are_traced(page: Page, server: ServerProcess) -> None:
    """Triangles by pointer, and the page reloaded in the middle of the task: the pieces laid
    and the trace so far come back (this tab's storage), and the trace goes on from the deal."""
    start_solo(page, server, "trigo")
    plan = solution(page, "trigo")
    drag_into_place(page, "trigo", plan[0])
    page.reload()
    expect(piece(page, plan[0].piece)).to_have_attribute("data-state", "placed")
    for i, pl in enumerate(plan[1:], 1):
        drag_into_place(page, "trigo", pl, last=i == len(plan) - 1)
    expect(page.locator("main.room")).to_have_attribute("data-last-verdict", "covered")
    (note,) = kept_traces(page, server)
    assert note["fault"] is None, note
    steps = note["steps"]
    times = [s["t"] for s in steps]
    assert times == sorted(times), times
    # the first piece's steps from before the reload are there, not just where it lay
    ops = [s["op"] for s in steps if s["piece"] == plan[0].piece]
    assert ops[0] == "pick" and "place" in ops, ops


def test_cubes_by_keys_are_traced(page: Page, server: ServerProcess) -> None:
    """The 3D board by keys (three coordinates to an offset): taken, turned, put down."""
    board = start_solo_3d(page, server, "yellow")
    # the first piece taken and spun all the way round, then back to the tray
    page.keyboard.press("1")
    for _ in range(4):
        page.keyboard.press("r")
    page.keyboard.press("Escape")
    expect(board.root).to_have_attribute("data-held", "")
    board.solve()
    expect(page.locator("main.room")).to_have_attribute("data-last-verdict", "covered")
    (note,) = kept_traces(page, server)
    assert note["fault"] is None, note
    places = [s for s in note["steps"] if s["op"] == "place"]
    assert places and all(len(s["offset"]) == 3 for s in places), note["steps"]
    assert {"pick", "turn"} <= {s["op"] for s in note["steps"]}, note["steps"]
