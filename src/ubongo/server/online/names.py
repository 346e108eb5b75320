"""Display names: what a player may call themselves, and when two names are one.

A name is cleaned (:func:`clean_name`), then compared by its **key** (:func:`name_key`): the
Unicode skeleton of UTS #39 ("Unicode Security Mechanisms", section 4, "Confusable
Detection") of its case-folded form, so that names a reader cannot tell apart are one name:
"Alice", "ALICE", Cyrillic "Аlice" and "A1ice" share a key. Two accounts never hold names
with one key (the accounts table keeps the key under a unique index: ``name_taken``), and the
names of the bots and of the site are reserved (:func:`check_name`: ``name_reserved``), for
accounts and for the seats of rooms alike.

The key and the reserved names are defined in the store (:mod:`..store.namekey`), whose
migration computed the keys of the accounts stored before them; they are named here too,
beside the rest of the names' rules.

>>> name_key("Alice") == name_key("ALICE") == name_key("\\u0410lice") == name_key("A1ice")
True
>>> name_key("Alice") == name_key("Alina")
False
>>> check_name("Bot 2 (hard)")
Traceback (most recent call last):
...
ubongo.server.protocol.incoming.ProtocolError: that name belongs to the bots or the site
"""

from __future__ import annotations

import re
import unicodedata

from ..protocol.incoming import ProtocolError
from ..store.namekey import RESERVED, is_reserved, name_key, prototypes, skeleton

__all__ = [
    "RESERVED",
    "check_name",
    "clean_name",
    "is_reserved",
    "name_key",
    "name_taken",
    "prototypes",
    "skeleton",
]


def clean_name(name: str) -> str:
    """A display name: control characters removed, spaces collapsed, 1-32 characters.

    >>> clean_name("  Ada\\u0000  Lovelace ")
    'Ada Lovelace'
    """
    text = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")
    text = re.sub(r"\s+", " ", text).strip()[:32]
    if not text:
        raise ProtocolError("bad_message", "a name needs at least one visible character")
    return text


def clean_text(text: str) -> str:
    """A line of chat: control and format characters removed, spaces collapsed (may be
    empty).

    >>> clean_text("  hello\\u202e  there\\n")
    'hello there'
    """
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    return re.sub(r"\s+", " ", kept).strip()


def check_name(name: str) -> str:
    """The cleaned ``name``, or ``name_reserved`` if it belongs to the bots or the site."""
    cleaned = clean_name(name)
    if is_reserved(cleaned):
        raise ProtocolError("name_reserved", "that name belongs to the bots or the site")
    return cleaned


def name_taken() -> ProtocolError:
    """The refusal of a name whose key another account holds (HTTP 409); the message does
    not say whose."""
    return ProtocolError("name_taken", "another player has this name, or one that looks the same")
