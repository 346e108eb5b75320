"""What an operator watches: the server's figures in the Prometheus text format (``/metrics``).

One :class:`Metrics` per app, with its own registry (several apps in one process, as in the
tests, do not mix their counts). Counters and histograms are updated where things happen;
the figures that are a state (connections, rooms by phase, queued messages) are read when
``/metrics`` is asked, from the objects that own them, so they can never drift.

>>> m = Metrics()
>>> m.messages_in.labels(type="ping").inc()
>>> m.verdict_seconds.observe(0.004)
>>> text = m.render().decode()
>>> 'ubongo_messages_in_total{type="ping"} 1.0' in text
True
>>> "ubongo_submit_to_verdict_seconds_bucket" in text
True
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

#: the seconds a player might wait: a verdict, a database write, the event loop's delay
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

#: how often the event loop's lag is measured (seconds)
LAG_EVERY = 0.5


class _State(Collector):
    """The gauges read from their owners when scraped: ``sources`` maps a metric's name to
    (help, label name or None, a function giving {label value: number})."""

    def __init__(self) -> None:
        self.sources: dict[str, tuple[str, str | None, Callable[[], dict[str, float]]]] = {}

    def collect(self) -> Iterable[GaugeMetricFamily]:
        for name, (text, label, read) in self.sources.items():
            values = read()
            family = GaugeMetricFamily(name, text, labels=[label] if label else [])
            for key, value in sorted(values.items()):
                family.add_metric([key] if label else [], value)
            yield family


def _latency(
    registry: CollectorRegistry, name: str, text: str, labels: list[str] | None = None
) -> Histogram:
    """A histogram of seconds, in :data:`LATENCY_BUCKETS`."""
    return Histogram(name, text, labels or [], buckets=LATENCY_BUCKETS, registry=registry)


class Metrics:
    """The app's metrics: counters of messages, errors and requests; latency histograms of
    verdicts, database writes and the event loop; gauges of what is open now."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.messages_in = Counter(
            "ubongo_messages_in", "WebSocket messages received, by type", ["type"], registry=r
        )
        self.messages_out = Counter(
            "ubongo_messages_out", "WebSocket messages queued for clients", registry=r
        )
        self.errors = Counter(
            "ubongo_errors", "refusals sent (WebSocket and HTTP), by code", ["code"], registry=r
        )
        self.requests = Counter(
            "ubongo_http_requests",
            "HTTP requests answered, by route and status class",
            ["route", "status"],
            registry=r,
        )
        self.verdict_seconds = _latency(
            r,
            "ubongo_submit_to_verdict_seconds",
            "from a submit's arrival to its verdict being sent (stored first)",
        )
        self.db_seconds = _latency(
            r,
            "ubongo_database_seconds",
            "database writes, by what is written",
            ["what"],
        )
        self.card_wait_seconds = _latency(
            r,
            "ubongo_round_card_wait_seconds",
            "how long a round's start waited for the card worker, by round: first (a fresh "
            "game's first cards are made while its players wait), later (the worker was behind)",
            ["round"],
        )
        self.redis_seconds = _latency(
            r,
            "ubongo_redis_seconds",
            "a request to the process that runs a room, through Redis, to its answer",
        )
        self.loop_lag = _latency(
            r,
            "ubongo_event_loop_lag_seconds",
            f"how late a {LAG_EVERY} s timer wakes (the event loop was busy)",
        )
        self.gc_pause = _latency(
            r,
            "ubongo_gc_pause_seconds",
            "how long a garbage collection stopped the server, by generation (2: a full one)",
            ["generation"],
        )
        # the collector's pauses as they happen, until watch_loop observes them: the callback
        # runs inside a collection, in whichever thread allocated, where taking the
        # histogram's lock could wait on the very thread that holds it
        self._gc_pauses: tuple[deque[float], ...] = (deque(), deque(), deque())
        self._gc_started = 0.0
        self._state = _State()
        r.register(self._state)

    def gc_callback(self, phase: str, info: dict[str, int]) -> None:
        """For ``gc.callbacks``: note how long each collection takes (a float in a deque: no
        lock, and nothing the collector tracks)."""
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self._gc_pauses[info["generation"]].append(time.perf_counter() - self._gc_started)

    def observe_gc_pauses(self) -> None:
        """Move the pauses noted by :meth:`gc_callback` into ``ubongo_gc_pause_seconds``.

        >>> m = Metrics()
        >>> m.gc_callback("start", {"generation": 2})
        >>> m.gc_callback("stop", {"generation": 2})
        >>> m.observe_gc_pauses()
        >>> 'ubongo_gc_pause_seconds_count{generation="2"} 1.0' in m.render().decode()
        True
        """
        for generation, pauses in enumerate(self._gc_pauses):
            histogram = self.gc_pause.labels(generation=str(generation))
            while pauses:
                histogram.observe(pauses.popleft())

    def gauge(
        self, name: str, text: str, read: Callable[[], dict[str, float]], label: str | None = None
    ) -> None:
        """A figure read from its owner at each scrape (``read`` gives label -> value; without
        ``label``, one value under the key ``""``)."""
        self._state.sources[name] = (text, label, read)

    @contextmanager
    def timed(self, histogram: Histogram, **labels: str) -> Iterator[None]:
        """Observe the seconds the block takes (also when it fails)."""
        start = time.perf_counter()
        try:
            yield
        finally:
            target = histogram.labels(**labels) if labels else histogram
            target.observe(time.perf_counter() - start)

    async def watch_loop(self) -> None:
        """Measure the event loop's lag, and observe the collector's pauses, for as long as the
        server runs."""
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(LAG_EVERY)
            self.loop_lag.observe(max(0.0, loop.time() - start - LAG_EVERY))
            self.observe_gc_pauses()

    def render(self) -> bytes:
        return generate_latest(self.registry)
