"""The whole protocol as one JSON Schema, made from the models (``make protocol``).

Every model of :mod:`.incoming` (what clients send), :mod:`.outgoing` (what the WebSocket
sends: with :mod:`.events` and :mod:`.snapshot`) and :mod:`.answers` (HTTP answers) is a
definition under ``$defs``, named as its class, and so are the unions a client switches on
(:data:`ROOTS`). ``make protocol`` writes this
schema to ``web/src/protocol.schema.json`` and generates ``web/src/protocol.gen.ts`` from it
(json-schema-to-typescript); ``make test`` fails when either is out of date.

>>> schema = protocol_schema()
>>> sorted(schema["$defs"]["RoomEvent"]["discriminator"]["mapping"])[:3]
['bot_added', 'bot_changed', 'chat']
>>> schema["$defs"]["Pong"]["required"]
['type', 'id', 't', 'server_time']
"""

from __future__ import annotations

import json
import sys
from typing import Any

from pydantic import create_model

from . import answers as bodies
from . import arenas, community, editor, social
from . import incoming as protocol
from . import outgoing as messages
from .events import RoomEvent

#: the protocol's entry points: what each channel carries, by the name the client uses
ROOTS: dict[str, Any] = {
    "ClientMessage": protocol.ClientMessage,
    "ServerMessage": messages.ServerMessage,
    "RoomEvent": RoomEvent,
    "CreateRoom": protocol.CreateRoom,
    "TakeSeat": protocol.TakeSeat,
    "NewAccount": protocol.NewAccount,
    "QuickMatch": protocol.QuickMatch,
    "Rename": protocol.Rename,
    "HintRequest": protocol.HintRequest,
    "GameFile": protocol.GameFile,
    "VerdictRequest": editor.VerdictRequest,
    "ApiError": bodies.ApiError,
    "NewChallenge": social.NewChallenge,
    "NoticeClientMessage": social.NoticeClientMessage,
    "Notice": social.Notice,
    "NewArena": arenas.NewArena,
    "ArenaMe": arenas.ArenaMe,
    "ArenaHello": arenas.ArenaHello,
    "ArenaMessage": arenas.ArenaMessage,
    **community.REQUESTS,
    **{model.__name__: model for model in bodies.RESPONSES.values()},
}

TITLE = "UbongoProtocol"


def _strip_titles(node: Any, top: bool = False) -> Any:
    """The schema without pydantic's titles of fields (a generator would name a type after
    each of them); the definitions keep theirs, and a field *named* ``title`` stays."""
    if isinstance(node, list):
        return [_strip_titles(n) for n in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for k, v in node.items():
        if k == "$defs":
            out[k] = {name: {**_strip_titles(d), "title": name} for name, d in v.items()}
        elif k == "properties":
            # the keys here are field names, not schema keywords
            out[k] = {name: _strip_titles(field) for name, field in v.items()}
        elif top or k != "title":
            out[k] = _strip_titles(v)
    return out


def protocol_schema() -> dict[str, Any]:
    """One schema: every model and root union under ``$defs``, sorted by name."""
    every = create_model(TITLE, **{name: (tp, ...) for name, tp in ROOTS.items()})  # type: ignore[call-overload]
    full = every.model_json_schema(ref_template="#/$defs/{model}")
    defs: dict[str, Any] = dict(full.get("$defs", {}))
    unions = {}
    for name, field in full["properties"].items():
        if field.get("$ref") != f"#/$defs/{name}":
            unions[name] = {k: v for k, v in field.items() if k != "title"}
    for name, union in unions.items():
        # a union inside another (the room events among the server's messages) by its name
        inner = [
            next((f"#/$defs/{n}" for n, u in unions.items() if u == part), None)
            for part in union.get("oneOf", [])
        ]
        union["oneOf"] = [
            {"$ref": ref} if ref is not None else part
            for ref, part in zip(inner, union.get("oneOf", []), strict=True)
        ]
        defs[name] = union
    clashes = [name for name in defs if "__" in name]
    if clashes:  # pydantic qualifies two classes of one name: the TypeScript names would clash
        raise ValueError(f"two protocol models share a name: {clashes}")
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": TITLE,
        "description": "Anything Ubongo's protocol carries (docs/protocol.md), made from the"
        " server's models.",
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name in ROOTS],
        "$defs": {name: defs[name] for name in sorted(defs)},
    }
    cleaned: dict[str, Any] = _strip_titles(schema, top=True)
    return cleaned


def main() -> None:
    """Print the schema (``python -m ubongo.server.protocol.schema``)."""
    sys.stdout.write(json.dumps(protocol_schema(), indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
