"""nginx's consistent-hash ring as the server computes it (src/ubongo/server/cluster/ring.py),
and the ``ubongo serve`` flags that give it. That the ring matches a real nginx's is checked
by tests/test_cluster_nginx.py (a room's requests reach the process that created it)."""

from __future__ import annotations

import pytest

from ubongo.cli import main
from ubongo.server.cluster.ring import Ring
from ubongo.server.rooms.room import CODE_ALPHABET

#: every 3-letter prefix of a code, with a fixed tail: 19,683 keys
KEYS = [a + b + c + "XZ" for a in CODE_ALPHABET for b in CODE_ALPHABET for c in CODE_ALPHABET]


def test_codes_spread_over_the_servers_and_a_new_server_takes_only_its_share() -> None:
    two = Ring(["127.0.0.1:8001", "127.0.0.1:8002"])
    three = Ring(["127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003"])
    shares = {s: sum(two.server(k) == s for k in KEYS) / len(KEYS) for s in two.servers}
    # 160 points each: roughly even (nginx's ring is no better)
    assert all(0.35 < share < 0.65 for share in shares.values()), shares
    moved = [k for k in KEYS if two.server(k) != three.server(k)]
    # a consistent hash: the keys that move all go to the new server, about a third of them
    assert {three.server(k) for k in moved} == {"127.0.0.1:8003"}
    assert 0.2 < len(moved) / len(KEYS) < 0.45
    # the order servers are listed in does not matter, as in nginx
    again = Ring(["127.0.0.1:8003", "127.0.0.1:8001", "127.0.0.1:8002"])
    assert all(again.server(k) == three.server(k) for k in KEYS[:2000])


def test_a_server_must_be_named_with_its_port() -> None:
    for bad in ("127.0.0.1", "ubongo1:", ":8001", "host:80x"):
        with pytest.raises(ValueError, match="host:port"):
            Ring([bad])
    with pytest.raises(ValueError):
        Ring([])


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--upstreams", "127.0.0.1:8001"], "needs --redis-url"),
        (["--upstream-name", "127.0.0.1:8001"], "needs --upstreams"),
        (
            ["--redis-url", "redis://127.0.0.1:1/0", "--upstreams", "127.0.0.1:8001,8002"],
            "host:port",
        ),
        (
            ["--redis-url", "redis://127.0.0.1:1/0", "--upstreams", "127.0.0.1:8001"],
            "(127.0.0.1:8000) is not among --upstreams",
        ),
    ],
)
def test_serve_refuses_a_ring_it_cannot_use(
    flags: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *flags]) == 2
    assert message in capsys.readouterr().err
