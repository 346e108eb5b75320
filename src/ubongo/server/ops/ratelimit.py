"""Rate limits: a token bucket per connection, and limits per client address.

``rate`` tokens a second, bursts up to ``burst``:

>>> bucket = TokenBucket(rate=1.0, burst=2, now=0.0)
>>> [bucket.allow(0.0) for _ in range(3)]
[True, True, False]
>>> bucket.allow(1.0)
True

:class:`AddressLimit` keeps one bucket per client address (what costs the server: creating
rooms, failed room lookups); an address past its limit is refused with a
:class:`RateLimited` that says when to come back, and logged once per refusal window:

>>> limit = AddressLimit("rooms created", per_second=1 / 60, burst=2)
>>> limit.take("10.0.0.1", 0.0), limit.take("10.0.0.1", 0.0)
(None, None)
>>> limit.take("10.0.0.1", 1.0)  # the third within a minute: 59 s more to wait
59.0
>>> limit.take("10.0.0.2", 1.0) is None  # another address is not concerned
True
"""

from __future__ import annotations

import ipaddress
import logging
import math

from ..protocol.incoming import ProtocolError

log = logging.getLogger("ubongo.server")

#: at most this many addresses are remembered per limit (full buckets are dropped first)
MAX_ADDRESSES = 100_000


class TokenBucket:
    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.at = now
        self.refused = 0

    def allow(self, now: float) -> bool:
        """Take one token if there is one; count the refusals."""
        self.refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False

    def refill(self, now: float) -> None:
        """Add the tokens earned since the last look."""
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.at) * self.rate)
        self.at = now

    def wait(self) -> float:
        """Seconds until the next token (0 if there is one now)."""
        if self.tokens >= 1.0:
            return 0.0
        return (1.0 - self.tokens) / self.rate if self.rate > 0 else math.inf


class RateLimited(ProtocolError):
    """Too many requests from one address: ``retry_after`` seconds until the next is taken
    (HTTP: 429 with ``Retry-After``; WebSocket: error ``rate_limited``). Another ``code``: a
    refusal for a while of another kind, answered the same way (``playban``)."""

    def __init__(self, message: str, retry_after: float, code: str = "rate_limited") -> None:
        super().__init__(code, message)
        self.retry_after = retry_after

    @property
    def retry_after_header(self) -> str:
        """Whole seconds, at least 1, as HTTP's ``Retry-After`` says them."""
        return str(max(1, math.ceil(self.retry_after)))


def address_key(host: str | None) -> str:
    """The key a client address is limited by: IPv6 addresses by their /64 (one home's
    network hands its devices many addresses of one /64), IPv4 as it is.

    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("192.0.2.7"), address_key(None)
    ('2001:db8:1:2::/64', '192.0.2.7', 'unknown')
    """
    if not host:
        return "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class AddressLimit:
    """A token bucket per client address for one kind of request (``what``, for the log).

    ``take`` spends a token; ``wait`` only looks (a failed room lookup is counted after the
    fact, but an address already out of tokens is refused before it may look again)."""

    def __init__(self, what: str, per_second: float, burst: int) -> None:
        self.what = what
        self.per_second = per_second
        self.burst = max(1, burst)
        self.buckets: dict[str, TokenBucket] = {}
        #: per address, until when its refusal has been logged (one line per window)
        self.logged_until: dict[str, float] = {}

    def _bucket(self, key: str, now: float) -> TokenBucket:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= MAX_ADDRESSES:
                self._forget_full(now)
            bucket = self.buckets[key] = TokenBucket(self.per_second, self.burst, now)
        bucket.refill(now)
        return bucket

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have filled up again (they mean nothing any more)."""
        for key, bucket in list(self.buckets.items()):
            bucket.refill(now)
            if bucket.tokens >= bucket.burst:
                del self.buckets[key]
                self.logged_until.pop(key, None)
        if len(self.buckets) >= MAX_ADDRESSES:  # all busy: forget the oldest
            for key in list(self.buckets)[: MAX_ADDRESSES // 10]:
                del self.buckets[key]

    def wait(self, key: str, now: float) -> float | None:
        """Seconds ``key`` must wait before its next request, or ``None`` if it may go on."""
        bucket = self._bucket(key, now)
        if bucket.tokens >= 1.0:
            return None
        self._log(key, now, bucket.wait())
        return bucket.wait()

    def take(self, key: str, now: float) -> float | None:
        """Spend one of ``key``'s tokens: ``None`` if it had one, else the seconds to wait."""
        bucket = self._bucket(key, now)
        if bucket.allow(now):
            return None
        self._log(key, now, bucket.wait())
        return bucket.wait()

    def check(self, key: str, now: float) -> None:
        """Raise :class:`RateLimited` if ``key`` has no token left (spends none)."""
        wait = self.wait(key, now)
        if wait is not None:
            raise RateLimited(f"too many {self.what}; try again in {math.ceil(wait)} s", wait)

    def spend(self, key: str, now: float) -> None:
        """Spend a token of ``key``, or raise :class:`RateLimited`."""
        wait = self.take(key, now)
        if wait is not None:
            raise RateLimited(f"too many {self.what}; try again in {math.ceil(wait)} s", wait)

    def _log(self, key: str, now: float, wait: float) -> None:
        """One line per address and refusal window, however many requests it refuses."""
        if self.logged_until.get(key, -math.inf) > now:
            return
        window = max(wait, 1.0 / self.per_second if self.per_second > 0 else 60.0, 60.0)
        self.logged_until[key] = now + window
        log.warning(
            "address %s: too many %s (limit %d, then %.3g/min); refusing for now",
            key,
            self.what,
            self.burst,
            self.per_second * 60,
        )


class AddressCount:
    """How many of something (open WebSockets) each address has at once, up to ``limit``.

    >>> count = AddressCount(2)
    >>> count.add("a"), count.add("a"), count.add("a")
    (True, True, False)
    >>> count.remove("a"); count.add("a")
    True
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.counts: dict[str, int] = {}

    def add(self, key: str) -> bool:
        """Count one more for ``key`` if it is under the limit (else ``False``, nothing
        counted)."""
        n = self.counts.get(key, 0)
        if n >= self.limit:
            return False
        self.counts[key] = n + 1
        return True

    def remove(self, key: str) -> None:
        """One fewer for ``key``."""
        n = self.counts.get(key, 0) - 1
        if n > 0:
            self.counts[key] = n
        else:
            self.counts.pop(key, None)
