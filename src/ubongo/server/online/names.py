"""Display names: what a player may call themselves."""

from __future__ import annotations

import re
import unicodedata

from ..protocol.incoming import ProtocolError


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
