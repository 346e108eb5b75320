"""Unguessable tokens, codes and seeds, as :mod:`secrets` makes them, from the kernel's
random bytes fetched 4 KiB at a time.

Why not :mod:`secrets` itself: it asks the kernel (``getrandom``) for every token, and for
every character of a room's join code, and every ask lets go of the interpreter's lock. On a
busy server the event loop then waits to get the lock back from the database threads. In a
run of 1,000 players in an arena, 1.8% of the loop's time went there, 0.2% with this
(docs/arenas.md, "The kernel's random bytes"). The bytes are the same kernel's; there are
only fewer asks.

A process forked from one that holds bytes (the server's processes start from a fork
server) forgets them, so that no two processes hand out the same bytes.

>>> len(token_hex(6)), len(token_urlsafe(24))
(12, 32)
>>> choice("ABC") in "ABC"
True
>>> 0 <= randbits(48) < 2**48
True
"""

from __future__ import annotations

import base64
import os
import random
import threading
from collections.abc import Sequence
from typing import Any, NoReturn, TypeVar

#: bytes fetched from the kernel at a time
CHUNK = 4096

T = TypeVar("T")


class StrongRandom(random.Random):
    """:class:`random.Random` on the kernel's random bytes (as :class:`random.SystemRandom`),
    fetched :data:`CHUNK` at a time; safe to share between threads. It has no seed and no
    state to set or restore."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._bytes = b""
        self._at = 0
        super().__init__()

    def seed(self, *_args: Any, **_kwargs: Any) -> None:
        """Nothing to seed: the bytes are the kernel's."""

    def getstate(self) -> NoReturn:
        raise NotImplementedError("a strong random source has no state to save")

    def setstate(self, _state: Any) -> NoReturn:
        raise NotImplementedError("a strong random source has no state to restore")

    def randbytes(self, n: int) -> bytes:
        with self._lock:
            if self._at + n > len(self._bytes):
                self._bytes = os.urandom(max(CHUNK, n))
                self._at = 0
            start = self._at
            self._at += n
            return self._bytes[start : self._at]

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        size = (k + 7) // 8
        return int.from_bytes(self.randbytes(size)) >> (size * 8 - k)

    def random(self) -> float:
        # 53 random bits, as SystemRandom makes its floats
        return (int.from_bytes(self.randbytes(7)) >> 3) * 2.0**-53

    def forget(self) -> None:
        """Drop the bytes held (in a forked process: its parent holds the same ones)."""
        self._lock = threading.Lock()  # the parent's may have been held by another thread
        self._bytes = b""
        self._at = 0


#: the process's one source (the functions below draw from it)
SOURCE = StrongRandom()
os.register_at_fork(after_in_child=SOURCE.forget)


def token_hex(n: int) -> str:
    """``n`` random bytes in hexadecimal (:func:`secrets.token_hex`)."""
    return SOURCE.randbytes(n).hex()


def token_urlsafe(n: int) -> str:
    """``n`` random bytes in URL-safe Base64, unpadded (:func:`secrets.token_urlsafe`)."""
    return base64.urlsafe_b64encode(SOURCE.randbytes(n)).rstrip(b"=").decode("ascii")


def choice(items: Sequence[T]) -> T:
    """One of ``items``, each as likely (:func:`secrets.choice`)."""
    return SOURCE.choice(items)


def randbits(k: int) -> int:
    """A random ``k``-bit number (:func:`secrets.randbits`)."""
    return SOURCE.getrandbits(k)
