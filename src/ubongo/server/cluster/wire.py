"""What one process says to another on its command channel, and what its writer queues.

A command is one text: its kind's letter, a space, and the kind's fields separated by single
spaces (the last field may itself contain spaces: a client's message or a JSON body).

>>> text = command(Command.MESSAGE, "node1", 7, '{"type": "ping"}')
>>> text
'm node1 7 {"type": "ping"}'
>>> parse(text, 3)
(<Command.MESSAGE: 'm'>, ['node1', '7', '{"type": "ping"}'])
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Command(StrEnum):
    """The kinds of message on a process's command channel (``ubongo:node:<id>``)."""

    #: owner -> a connection's process: ``conn_id text``, a message for that connection
    REPLY = "r"
    #: owner -> a connection's process: ``conn_id code``, close that connection
    CLOSE = "c"
    #: a connection's process -> owner: ``node conn_id text``, a client's frame
    MESSAGE = "m"
    #: a connection's process -> owner: ``node conn_id``, that connection has closed
    GONE = "g"
    #: any process -> owner: a JSON HTTP request about one of its rooms
    REQUEST = "q"
    #: owner -> the asking process: the JSON answer to a request
    ANSWER = "a"
    #: any process -> the arenas' leader: a JSON ask of its director (:mod:`.arenas`)
    ARENA_ASK = "s"
    #: the arenas' leader -> the asking process: the JSON answer to an ask
    ARENA_ANSWER = "t"
    #: the arenas' leader -> a page's process: ``watcher_id text``, a view for that page
    ARENA_VIEW = "v"
    #: a page's process -> the arenas' leader: ``node watcher_id``, that page has closed
    ARENA_UNWATCH = "w"


def command(kind: Command, *fields: object) -> str:
    """The text of a command."""
    return " ".join([kind.value, *map(str, fields)])


def parse(text: str, fields: int) -> tuple[Command, list[str]]:
    """A command's kind and its ``fields`` fields (the last one takes the rest)."""
    return Command(text[0]), text[2:].split(" ", fields - 1)


class Write(StrEnum):
    """What the writer sends to Redis, in order."""

    #: an event of room ``target`` (``text``: ``"seq event"``), with its snapshot
    EVENT = "e"
    #: a command to process ``target`` that nobody waits for
    REPLY = "r"
    #: a command to process ``target`` about room ``code`` (if nobody hears it, the owner is
    #: gone and the room is recovered)
    FORWARD = "f"
    #: room ``target`` has closed
    CLOSED = "x"


class Queued(NamedTuple):
    """One write waiting for the writer."""

    kind: Write
    target: str
    text: str = ""
    code: str = ""
