"""Display names: one name per look, whatever the script or case, and the bots' and the
site's names kept for them (docs/fair-play.md, "Names")."""

from __future__ import annotations

import pytest

from ubongo.server.online.names import check_name, clean_name, is_reserved, name_key, skeleton
from ubongo.server.protocol.incoming import ProtocolError


@pytest.mark.parametrize(
    "other",
    [
        "alice",
        "ALICE",
        "\u0410lice",  # Cyrillic capital A
        "\u0391lice",  # Greek capital alpha
        "A1ice",
        "Al\u0456ce",  # Cyrillic small Byelorussian-Ukrainian i
        "\uff21lice",  # fullwidth A
        "Alice ",
        "Al\u200bice",  # a zero-width space, removed by clean_name
    ],
)
def test_names_a_reader_cannot_tell_apart_share_a_key(other: str) -> None:
    assert name_key(clean_name(other)) == name_key("Alice")


@pytest.mark.parametrize("other", ["Alicia", "Alina", "Bob", "Ada Lovelace", "Alice 2"])
def test_different_names_have_different_keys(other: str) -> None:
    assert name_key(other) != name_key("Alice")


def test_the_skeleton_follows_unicode_data() -> None:
    # confusables.txt: 0430 -> 0061, 0031 -> 006C, 006D -> 0072 006E
    assert skeleton("\u0430") == "a"
    assert skeleton("1") == "l"
    assert skeleton("m") == "rn"
    assert name_key("rn") == name_key("m")


@pytest.mark.parametrize(
    "name",
    ["Bot 1 (hard)", "Bot 2 (easy)", "bot 3", "B0T 4 (medium)", "Bot", "Ubongo", "UB0NG0", "admin"],
)
def test_the_bots_and_the_sites_names_are_reserved(name: str) -> None:
    assert is_reserved(name)
    with pytest.raises(ProtocolError) as refused:
        check_name(name)
    assert refused.value.code == "name_reserved"


@pytest.mark.parametrize("name", ["Ada", "Robot Rita", "Bottle", "Abbot", "Modesty"])
def test_ordinary_names_are_free(name: str) -> None:
    assert not is_reserved(name)
    assert check_name(f"  {name} ") == name
