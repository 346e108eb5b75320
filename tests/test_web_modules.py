"""The web client's shape (web/src): modules small enough to read, one per room screen, and one
reader of the server's room messages.

- no TypeScript module over 500 lines, no room screen (web/src/room/) over 400;
- the room's WebSocket messages (`ServerMessage`) are read in one place, the room store
  (web/src/room/store.ts); net.ts only carries them. When the message types are generated from
  the server's schema, that store is the one module to change.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB_SRC = Path(__file__).resolve().parents[1] / "web" / "src"
MODULES = sorted(WEB_SRC.rglob("*.ts"))
SCREENS = sorted((WEB_SRC / "room").glob("*.ts"))


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _name(path: Path) -> str:
    return path.relative_to(WEB_SRC).as_posix()


def test_the_client_has_modules_and_room_screens() -> None:
    # the checks below would pass on an empty tree
    assert len(MODULES) > 20
    names = {p.stem for p in SCREENS}
    assert {"store", "lobby", "play", "result", "end", "spectate"} <= names


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_typescript_module_is_over_500_lines(path: Path) -> None:
    assert _lines(path) <= 500, f"{_name(path)} has {_lines(path)} lines: split it by concern"


@pytest.mark.parametrize("path", SCREENS, ids=_name)
def test_no_room_screen_is_over_400_lines(path: Path) -> None:
    assert _lines(path) <= 400, f"{_name(path)} has {_lines(path)} lines"


def test_only_the_room_store_and_the_connection_handle_server_messages() -> None:
    readers = {
        _name(p) for p in MODULES if re.search(r"\bServerMessage\b", p.read_text(encoding="utf-8"))
    }
    assert readers == {"protocol.ts", "net.ts", "room/store.ts"}


def test_the_connection_does_not_read_room_snapshots() -> None:
    # net.ts passes welcomes and events on whole; applying them is the store's job
    net = (WEB_SRC / "net.ts").read_text(encoding="utf-8")
    assert "msg.room" not in net
    assert "msg.data" not in net
