"""The web client's shape (web/src): modules small enough to read, one per room screen, and one
reader of the server's room messages.

- no TypeScript module over 500 lines, no room screen (web/src/room/) over 400;
- the room's WebSocket messages (`ServerMessage`) are read in one place, the room store
  (web/src/room/store.ts); net.ts only carries them, once check.ts has checked them against
  the protocol;
- the protocol's types are generated from the server's models (web/src/protocol.gen.ts, by
  `make protocol`): the client declares none of its own. protocol.ts only names generated types
  (or types made from them) and is the one module that imports the generated file;
- browser storage (localStorage, sessionStorage, IndexedDB) is touched by one module,
  web/src/storage.ts, which declares every key and the type of its value.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB_SRC = Path(__file__).resolve().parents[1] / "web" / "src"
#: written by `make protocol` (types, the route table, the checker's schema), checked by
#: `scripts/protocol --check` instead
GENERATED = sorted(WEB_SRC.glob("*.gen.ts"))
#: the modules people write
MODULES = sorted(p for p in WEB_SRC.rglob("*.ts") if p not in GENERATED)
SCREENS = sorted((WEB_SRC / "room").glob("*.ts"))


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _name(path: Path) -> str:
    return path.relative_to(WEB_SRC).as_posix()


def test_the_client_has_modules_and_room_screens() -> None:
    # the checks below would pass on an empty tree
    assert len(MODULES) > 20
    assert {p.name for p in GENERATED} >= {"protocol.gen.ts", "checks.gen.ts"}
    names = {p.stem for p in SCREENS}
    assert {"store", "lobby", "play", "result", "end", "spectate"} <= names


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_typescript_module_is_over_500_lines(path: Path) -> None:
    assert _lines(path) <= 500, f"{_name(path)} has {_lines(path)} lines: split it by concern"


@pytest.mark.parametrize("path", SCREENS, ids=_name)
def test_no_room_screen_is_over_400_lines(path: Path) -> None:
    assert _lines(path) <= 400, f"{_name(path)} has {_lines(path)} lines"


def test_only_the_room_store_and_the_connection_handle_server_messages() -> None:
    # (check.ts checks a message's shape against the protocol before net.ts carries it on)
    readers = {
        _name(p) for p in MODULES if re.search(r"\bServerMessage\b", p.read_text(encoding="utf-8"))
    }
    assert readers == {"protocol.ts", "check.ts", "net.ts", "room/store.ts"}


def test_the_connection_does_not_read_room_snapshots() -> None:
    # net.ts passes welcomes and events on whole; applying them is the store's job
    net = (WEB_SRC / "net.ts").read_text(encoding="utf-8")
    assert "msg.room" not in net
    assert "msg.data" not in net


def test_the_protocol_types_are_the_generated_ones() -> None:
    text = (WEB_SRC / "protocol.ts").read_text(encoding="utf-8")
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
    assert "interface" not in code, "protocol.ts declares a shape: generate it from a model"
    aliases = re.findall(r"export type (\w+)(?:<[^=]*>)? = ([^;]+);", code)
    assert len(aliases) > 20
    for name, definition in aliases:
        # each names a generated type (gen.X), or is made from them (Omit, Extract, an index)
        assert re.search(r"\bgen\.|RoomEvent|Settings\[", definition), (name, definition)
        assert "{" not in definition.replace("{ kind: K }", ""), (name, definition)


def test_only_protocol_ts_imports_the_generated_types() -> None:
    # (and the other generated files, which name the types they check or route)
    importers = {_name(p) for p in MODULES if "protocol.gen" in p.read_text(encoding="utf-8")}
    assert importers == {"protocol.ts"}


def test_no_module_declares_a_message_or_body_shape() -> None:
    # the shapes of what crosses the wire have fields like these; a module declaring an
    # interface with them is writing the protocol by hand again
    wire_fields = re.compile(
        r"^\s+(token|seq|held_until|game_id|solo_amount|server_time)\??:", re.M
    )
    for path in MODULES:
        if path.name == "protocol.ts":
            continue
        for body in re.findall(
            r"interface \w+[^{]*\{(.*?)\n\}", path.read_text(encoding="utf-8"), re.S
        ):
            assert not wire_fields.search(body), f"{_name(path)} declares a protocol shape"


def _code(path: Path) -> str:
    """A module's text without its comments (a comment may say where things are kept)."""
    text = path.read_text(encoding="utf-8")
    return re.sub(r"(?<![:\"'`])//[^\n]*|/\*.*?\*/", "", text, flags=re.S)


def test_only_the_storage_module_touches_browser_storage() -> None:
    storage = re.compile(r"\b(localStorage|sessionStorage|indexedDB|IDBFactory|StorageEvent)\b")
    touching = {_name(p) for p in MODULES if storage.search(_code(p))}
    assert touching == {"storage.ts"}, "read and write browser storage through web/src/storage.ts"


def test_every_stored_key_is_declared_once_in_the_storage_module() -> None:
    # the keys are the format kept in players' browsers: one place names them, each once
    found = re.findall(r'"(ubongo\.[\w.]+)"|`(ubongo\.[\w.]+)\$\{', _code(WEB_SRC / "storage.ts"))
    keys = [a or b for a, b in found]
    assert len(keys) >= 8
    assert len(keys) == len(set(keys)), keys
    for path in MODULES:
        named = [key for key in keys if path.name != "storage.ts" and key in _code(path)]
        assert not named, f"{_name(path)} names stored keys {named}: use storage.ts's `stored`"


def test_every_http_call_goes_through_the_route_table() -> None:
    # api.ts is the one caller of fetch; a call names its route ("GET /api/rooms/{code}") from
    # routes.gen.ts, so no module writes an /api URL (and pairs it with a type) by hand
    http = re.compile(r"\bfetch\(|XMLHttpRequest|sendBeacon|\.json\(\)")
    assert {_name(p) for p in MODULES if http.search(_code(p))} == {"api.ts"}
    for path in MODULES:
        urls = re.findall(r"[\"'`]/api/[^\"'`]*", _code(path))
        assert not urls, f"{_name(path)} writes API URLs by hand: {urls}"
