"""docs/protocol.md against the protocol's models: every message type, event kind, HTTP route
and field the models have is documented there, and everything documented exists."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from ubongo.server.protocol import answers as bodies
from ubongo.server.protocol import incoming as protocol
from ubongo.server.protocol import outgoing as messages
from ubongo.server.protocol import snapshot
from ubongo.server.protocol.events import RoomEvent

DOC = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text()


def section(title: str) -> str:
    """The text under a heading, up to the next heading of any level."""
    start = DOC.index(f"\n{title}\n") + len(title) + 2
    end = DOC.find("\n#", start)
    return DOC[start:] if end < 0 else DOC[start:end]


def table(title: str) -> dict[str, list[str]]:
    """A section's table: the first cell's backticked name -> the other cells."""
    rows = {}
    lines = section(title).splitlines()
    for line, below in zip(lines, [*lines[1:], ""], strict=True):
        if not line.startswith("|") or below.startswith("|-"):  # not a row, or the header
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        found = re.fullmatch(r"`([^`]+)`", cells[0])
        if found:
            rows[found.group(1)] = cells[1:]
    return rows


def named(cell: str) -> set[str]:
    """The field names a cell lists: backticked, outside parentheses (`spectate: true` names
    spectate)."""
    outside = re.sub(r"\([^)]*\)", "", cell)
    return {re.split(r"[:\s]", name)[0] for name in re.findall(r"`([^`]+)`", outside)}


def json_blocks(title: str) -> list[Any]:
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)```", section(title), re.S)]


def members(union: Any) -> list[type[BaseModel]]:
    out: list[type[BaseModel]] = []
    for arg in typing.get_args(typing.get_args(union)[0]):
        out.extend(members(arg) if typing.get_origin(arg) is typing.Annotated else [arg])
    return out


def literal(model: type[BaseModel], field: str) -> str:
    return str(typing.get_args(model.model_fields[field].annotation)[0])


def fields(model: type[BaseModel], *leave_out: str) -> set[str]:
    return set(model.model_fields) - set(leave_out)


def test_every_client_message_is_documented_with_its_fields() -> None:
    documented = table("### Client to server")
    models = {literal(m, "type"): m for m in members(protocol.ClientMessage)}
    assert set(documented) == set(models)
    for kind, model in models.items():
        assert named(documented[kind][0]) == fields(model, "type"), kind


def test_every_server_message_is_documented_with_its_fields() -> None:
    documented = table("### Server to client")
    models = {literal(m, "type"): m for m in members(messages.ServerMessage)}
    assert set(documented) == set(models)
    for kind, model in models.items():
        assert named(documented[kind][0]) == fields(model, "type"), kind


def test_every_event_kind_is_documented_with_its_data() -> None:
    documented = table("### Room events")
    models = {literal(m, "kind"): m for m in members(RoomEvent)}
    assert set(documented) == set(models)
    for kind, model in models.items():
        data = re.match(r"`(\{[^`]*\})`", documented[kind][0])
        assert data, f'{kind}: the data column starts with its fields, like `{{"seat"}}`'
        data_model = model.model_fields["data"].annotation
        assert isinstance(data_model, type) and issubclass(data_model, BaseModel)
        assert set(re.findall(r'"([a-z_]+)"', data.group(1))) == fields(data_model), kind


def test_every_http_route_is_documented() -> None:
    documented = set()
    for route in table("## HTTP"):
        method, _, path = route.partition(" ")
        if path.startswith("/api/"):
            documented.add((method, re.sub(r"\{[a-z_]+\}", "{}", path.split("?")[0])))
    models = {(m, re.sub(r"\{[a-z_]+\}", "{}", path)) for m, path in bodies.RESPONSES}
    assert documented == models


@pytest.mark.parametrize(
    ("title", "index", "path", "model"),
    [
        ("### Room settings", 0, (), snapshot.RoomSettingsView),
        ("### The room snapshot", 0, (), snapshot.RoomSnapshot),
        ("### The room snapshot", 0, ("seats", 0), snapshot.SeatView),
        ("### The room snapshot", 1, (), snapshot.GameTable),
        ("### The room snapshot", 1, ("tasks", "0"), snapshot.TaskView),
        ("### The room snapshot", 1, ("scores", "0"), snapshot.Score),
    ],
)
def test_the_documented_examples_have_the_models_fields(
    title: str, index: int, path: tuple[Any, ...], model: type[BaseModel]
) -> None:
    example = json_blocks(title)[index]
    for step in path:
        example = example[step]
    assert set(example) == fields(model)


def test_every_error_code_is_documented() -> None:
    documented = set(table("## Errors"))
    codes = set(typing.get_args(messages.ProtocolCode)) | set(typing.get_args(bodies.HttpErrorCode))
    # rule codes are documented as a family ("`rule` codes"); the protocol's one by one
    assert codes - documented <= set(typing.get_args(messages.RuleCode))
    assert documented - codes == set()


def test_the_schema_keeps_every_field_of_every_model() -> None:
    # the schema drops pydantic's titles; a field that happens to be *named* title must stay
    from ubongo.server.protocol.schema import protocol_schema

    for name, definition in protocol_schema()["$defs"].items():
        if "properties" in definition:
            missing = set(definition.get("required", ())) - set(definition["properties"])
            assert not missing, (name, missing)
    options = protocol_schema()["$defs"]["EditionOptions"]["properties"]
    assert set(options) == set(bodies.EditionOptions.model_fields)
