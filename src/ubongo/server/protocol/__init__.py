"""The protocol: every message a client sends or receives and every HTTP body, typed once.

* :mod:`.incoming` - what clients send (WebSocket messages and HTTP requests) and the parsing
  of a raw frame into one of them;
* :mod:`.outgoing` - what the server sends over the WebSocket: the answers to a client's
  messages, and any frame; :mod:`.events` - the room events; :mod:`.snapshot` - the room as
  everybody in it sees it, which ``welcome`` and the events carry;
* :mod:`.answers` - the HTTP answers; :mod:`.stored` - a stored game as it is sent;
* :mod:`.table` - the rules' state in the protocol's words (the ``game`` object, events);
* :mod:`.schema` - all of it as one JSON Schema, from which the web client's types are made
  (``make protocol``).

May import: :mod:`ubongo.rules` and the layers below it, and nothing else of the server.
"""
