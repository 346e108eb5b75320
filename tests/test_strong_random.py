"""The server's unguessable tokens and codes (``ubongo.server.ops.strong_random``): the kernel's
bytes, asked for a block at a time, never the same bytes twice, in a forked process either."""

from __future__ import annotations

import os
import random
import string
from collections import Counter

import pytest

from ubongo.server.ops import strong_random
from ubongo.server.ops.clock import Clock
from ubongo.server.ops.strong_random import CHUNK, StrongRandom
from ubongo.server.rooms.bus import MemoryHub
from ubongo.server.rooms.feed import RoomFeed
from ubongo.server.rooms.room import CODE_ALPHABET, CODE_LENGTH, Room


def test_tokens_have_the_forms_of_secrets_and_never_repeat() -> None:
    hexes = {strong_random.token_hex(6) for _ in range(5000)}
    urls = {strong_random.token_urlsafe(24) for _ in range(5000)}
    assert len(hexes) == len(urls) == 5000
    assert all(len(t) == 12 and set(t) <= set(string.hexdigits) for t in hexes)
    url_alphabet = set(string.ascii_letters + string.digits + "-_")
    assert all(len(t) == 32 and set(t) <= url_alphabet for t in urls)
    assert {strong_random.randbits(48).bit_length() <= 48 for _ in range(1000)} == {True}


def test_each_letter_of_a_code_is_as_likely() -> None:
    draws = 32 * 2000
    seen = Counter(strong_random.choice(CODE_ALPHABET) for _ in range(draws))
    expected = draws / len(CODE_ALPHABET)
    # twelve standard deviations either side: a biased draw (a letter twice as likely, or
    # one never drawn) fails, a fair one never does in practice
    assert set(seen) == set(CODE_ALPHABET)
    assert all(abs(n - expected) < 0.25 * expected for n in seen.values()), seen


@pytest.fixture
def kernel_asks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the kernel's random bytes asked for from now on (``os.urandom``, and
    ``random.SystemRandom``'s own name for it, behind :mod:`secrets`)."""
    asks: list[int] = []
    real = os.urandom

    def counted(n: int) -> bytes:
        asks.append(n)
        return real(n)

    monkeypatch.setattr(os, "urandom", counted)
    monkeypatch.setattr(random, "_urandom", counted)
    return asks


def test_the_kernel_is_asked_once_a_block_not_once_a_character(kernel_asks: list[int]) -> None:
    """The point of it: each ask lets go of the interpreter's lock, and the event loop waited
    to get it back (secrets asked once for every character of a room's code)."""
    asks = kernel_asks
    source = StrongRandom()
    codes = ["".join(source.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH)) for _ in range(500)]
    tokens = {strong_random.token_urlsafe(24) for _ in range(100)}
    # (500 codes of 27**5 may hold two alike, one run in 115; 100 tokens of 24 bytes may not)
    assert all(len(c) == CODE_LENGTH for c in codes) and len(tokens) == 100
    # 500 codes of CODE_LENGTH letters (a byte each, as secrets draws them) and 100 tokens
    assert len(asks) <= 2 + (500 * CODE_LENGTH + 100 * 24) // CHUNK
    assert all(n >= CHUNK for n in asks)


def test_a_forked_process_never_hands_out_its_parents_bytes() -> None:
    """The server's processes are forked from one fork server: what the parent held must not
    become the child's tokens too."""
    strong_random.token_hex(8)  # the parent now holds a block of bytes
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            os.write(write, strong_random.token_hex(16).encode())
        finally:
            os._exit(0)
    os.close(write)
    child = os.read(read, 64).decode()
    os.close(read)
    os.waitpid(pid, 0)
    parent = strong_random.token_hex(16)
    assert len(child) == 32 and child != parent


def test_it_has_no_state_to_replay() -> None:
    source = StrongRandom()
    with pytest.raises(NotImplementedError):
        source.getstate()
    with pytest.raises(NotImplementedError):
        source.setstate(None)
    assert source.random() != source.random()


def test_new_room_codes_ask_the_kernel_once_a_block(kernel_asks: list[int]) -> None:
    """Every race of an arena makes a room: its code was CODE_LENGTH asks of the kernel."""
    asks = kernel_asks
    strong_random.SOURCE.forget()
    feed = RoomFeed(MemoryHub[Room](), Clock())
    # no room takes them, so two may be alike (about one run in 115: 27**5 codes); CI run 156
    # asserted 500 different ones and met such a pair
    codes = [feed.new_code() for _ in range(500)]
    assert all(len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert 1 <= len(asks) <= 1 + (500 * CODE_LENGTH) // CHUNK
