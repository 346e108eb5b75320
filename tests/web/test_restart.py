"""The server restarts mid-task: the page says it lost the connection, reconnects by itself to
the new server and the player finishes the same task (rooms are saved in the database)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect
from server_harness import ServerProcess, free_port
from test_solo import start_solo
from webharness import shot
from webplay import board_task, drag_into_place, solution


def test_a_solo_task_goes_on_after_the_server_restarts(page: Page, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    port = free_port()
    first = ServerProcess(url, port=port, log=tmp_path / "first.log").start()
    try:
        start_solo(page, first, "classic")
        task = board_task(page)
        placements = solution(page, "classic")
        drag_into_place(page, "classic", placements[0])
    finally:
        first.stop()
    room = page.locator("main.room")
    expect(room).to_have_class(re.compile(r"\boffline\b"))
    shot(page, "restart-offline")

    # the same address: what a restarted server (or a new version of it) looks like
    second = ServerProcess(url, port=port, log=tmp_path / "second.log").start()
    try:
        expect(room).not_to_have_class(re.compile(r"\boffline\b"), timeout=15_000)
        expect(page.locator("#toast")).to_have_text("Connected again")
        area, pieces = board_task(page)
        assert area == task[0] and sorted(pieces) == sorted(task[1])
        for pl in placements[1:-1]:
            drag_into_place(page, "classic", pl)
        drag_into_place(page, "classic", placements[-1], last=True)
        expect(room).to_have_attribute("data-last-verdict", "covered")
        expect(page.locator("#solo-count")).to_contain_text("Solved 1")
        shot(page, "restart-solved")
    finally:
        second.stop()
