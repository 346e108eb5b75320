"""Two ``ubongo serve`` processes behind a real nginx, on Redis and PostgreSQL, started by the
script docs/operations.md tells an operator to follow (``scripts/cluster up``).

One game through nginx: its room's traffic reaches one process (nginx's consistent hash on the
room code, and the room's code chosen on the creating process's part of the ring); then that
process is killed (SIGKILL) mid-round, the players reconnect through nginx as the web client
does, the other process takes the room over within 3 s, and the game ends there, stored and
rated, with the actions from before the kill.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from server_harness import (
    ROOT,
    Client,
    ServerProcess,
    free_port,
    metric,
    replayed,
    scrape,
    solution,
)
from waiting import eventually
from websockets.exceptions import ConnectionClosed, InvalidStatus

from ubongo.server.cluster.keys import log_key

pytestmark = pytest.mark.slow  # (the harness marks it too: it starts processes)

EDITION = "classic"
#: the issue's bound: kill -9 to the room answering on another process
FAILOVER_SECONDS = 3.0
LOG_LINE = re.compile(
    r'"(?P<request>[^"]*)" (?P<status>\d+) \d+ room=(?P<room>\S*) upstream="(?P<upstream>[^"]*)"'
)


def cluster_script(*args: str) -> None:
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "cluster"), *args],
        check=True,
        cwd=ROOT,
        timeout=300,
    )


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("nginx-cluster")
    port = str(free_port())
    cluster_script(
        "up",
        str(folder),
        "--processes",
        "2",
        "--port",
        port,
        "--",
        "--log-level",
        "warning",
        # the scripted players submit at once: no floor, so that their rated game is rated
        "--record-seconds-per-piece=0",
        "--no-require-traces",
    )
    state = json.loads((folder / "cluster.json").read_text())
    try:
        yield state
    finally:
        cluster_script("down", str(folder))
    for i in range(2):
        log = (folder / f"ubongo-{i}.log").read_text()
        assert "Traceback" not in log, f"process {i} logged a crash:\n{log}"


class Front(ServerProcess):
    """nginx, spoken to as the harness speaks to one server; its WebSocket names the room in
    its URL, as the web client's does (web/src/net.ts)."""

    def __init__(self, url: str, query: str = "") -> None:
        super().__init__("", port=int(url.rsplit(":", 1)[1]))
        if query:
            self.ws_url = f"{self.ws_url}?{query}"

    def room(self, code: str, again: bool = False) -> Front:
        """The room's WebSocket URL (``again``: marked in the URL, to find the reconnections
        in nginx's log)."""
        return Front(self.url, f"room={code}" + ("&again=1" if again else ""))


def access_log(state: dict[str, Any]) -> list[dict[str, str]]:
    """nginx's access lines (deploy/nginx-ubongo.conf.template's format) as fields."""
    lines = (Path(state["folder"]) / "nginx" / "access.log").read_text().splitlines()
    return [m.groupdict() for line in lines if (m := LOG_LINE.search(line))]


def last_upstream(line: dict[str, str]) -> str:
    # "A, B": nginx tried A (dead) and then B
    return line["upstream"].split(",")[-1].strip()


def connections(port: int) -> float:
    """``ubongo_connections`` of the process on ``port`` (its own /metrics, not through nginx)."""
    n = metric(scrape(f"http://127.0.0.1:{port}"), "ubongo_connections")
    assert n is not None, "no ubongo_connections"
    return n


def rejoin(front: Front, code: str, token: str, last_seq: int, until: float) -> Client:
    """Reconnect through nginx as the web client does after its socket closed, with the last
    event number seen, trying again until ``until`` (time.monotonic)."""

    def welcomed() -> Client | None:
        try:
            client = Client(front.room(code, again=True))
            client.seq = last_seq
            welcome = client.hello(code, token, last_seq=last_seq)
            if welcome["type"] == "welcome":
                return client
            client.close()
        except (OSError, ConnectionClosed, InvalidStatus, TimeoutError):
            pass
        return None

    return eventually(welcomed, "the room to answer again", timeout=until - time.monotonic())


def drop_seen(client: Client) -> None:
    """Wait until the server side of this socket is gone (nginx closes it when the process
    behind dies)."""
    end = time.monotonic() + 10
    while time.monotonic() < end:
        try:
            client.inbox.append(client.recv(end - time.monotonic()))
        except ConnectionClosed:
            return
    raise AssertionError("the socket stayed open")


def wait_for_event_in_redis(cluster: dict[str, Any], code: str, kind: str) -> None:
    """Until room ``code``'s event log in Redis (:func:`~ubongo.server.cluster.keys.log_key`,
    entries "seq text") holds an event of ``kind``."""
    r = redis.Redis.from_url(cluster["redis"]["url"])

    def logged() -> bool:
        entries = r.lrange(log_key(code), 0, -1)
        texts = [e.decode() if isinstance(e, bytes) else str(e) for e in entries]
        return any(json.loads(t.split(" ", 1)[1]).get("kind") == kind for t in texts)

    try:
        eventually(logged, f"a {kind} event of {code} in Redis", every=0.01)
    finally:
        r.close()


def test_a_room_lives_on_one_process_and_moves_when_it_is_killed_mid_round(
    cluster: dict[str, Any],
) -> None:
    front = Front(cluster["url"])
    ports = {f"127.0.0.1:{p['port']}": p for p in cluster["processes"]}
    status, ada = front.post("/api/accounts", {"name": "Ada"})
    assert status == 201
    status, bob = front.post("/api/accounts", {"name": "Bob"})
    assert status == 201
    created = front.create_room_as(
        ada["token"], "Ada", edition=EDITION, rounds=2, hourglass_seconds=60, seed=9, rated=True
    )
    code = created["code"]
    joined = front.take_seat(code, "Bob", account=bob["token"])
    room = front.room(code)
    host, other = Client(room), Client(room)
    assert host.hello(code, created["token"])["type"] == "welcome"
    assert other.hello(code, joined["token"])["type"] == "welcome"
    other.reply({"type": "ready"}, "ready")
    host.send({"type": "start"})
    game = host.event("round_started")["room"]["game"]
    other.event("round_started")
    # Ada solves before the kill: her action must survive it
    ada_done = host.reply(
        {
            "type": "submit",
            "round": game["round"],
            "placements": solution(game["tasks"]["0"], EDITION),
        },
        "verdict",
    )
    assert ada_done["ok"], ada_done
    other.wait(lambda m: m["type"] == "event" and m["kind"] == "finished")

    # one process has the room and both sockets; nginx sent every request about it there
    lines = access_log(cluster)
    made = [ln for ln in lines if ln["request"].startswith("POST /api/rooms ")][-1]
    owner = last_upstream(made)
    about = [ln for ln in lines if ln.get("room") == code]
    assert about and {last_upstream(ln) for ln in about} == {owner}, about
    survivor = next(name for name in ports if name != owner)
    assert connections(ports[owner]["port"]) == 2
    assert connections(ports[survivor]["port"]) == 0

    # the owner answers before Redis has its write (docs/operations.md, "Failover": a kill in
    # that window of milliseconds loses the acknowledged action); what Redis has must survive
    wait_for_event_in_redis(cluster, code, "finished")

    # kill -9 the room's process mid-round
    killed_at = time.monotonic()
    os.kill(ports[owner]["pid"], signal.SIGKILL)
    for client in (host, other):
        drop_seen(client)
    until = killed_at + FAILOVER_SECONDS
    back_host = rejoin(front, code, created["token"], host.seq, until)
    back_other = rejoin(front, code, joined["token"], other.seq, until)
    answered_after = time.monotonic() - killed_at
    assert answered_after <= FAILOVER_SECONDS, answered_after
    # the room as it was: the same round, Ada's finish in it
    for back in (back_host, back_other):
        assert back.room is not None and back.room["phase"] == "playing"
        assert back.room["game"]["round"] == game["round"], back.room
    assert connections(ports[survivor]["port"]) == 2

    # Bob solves round 1 on the new owner; round 2 is played there to the end
    verdict = back_other.reply(
        {
            "type": "submit",
            "round": game["round"],
            "placements": solution(game["tasks"]["1"], EDITION),
        },
        "verdict",
    )
    assert verdict["ok"], verdict
    # Ada's finish survived the kill: round 2 starts at once
    second = back_host.event("round_started", 20)["room"]["game"]
    assert second["round"] == game["round"] + 1
    for client, seat in ((back_host, "0"), (back_other, "1")):
        ok = client.reply(
            {
                "type": "submit",
                "round": second["round"],
                "placements": solution(second["tasks"][seat], EDITION),
            },
            "verdict",
        )
        assert ok["ok"], ok
    over = back_host.event("game_over")
    game_id = over["data"]["game_id"]
    assert game_id is not None
    for client in (back_host, back_other):
        client.close()

    # stored (PostgreSQL), with the action from before the kill, and rated
    stored = front.get(f"/api/games/{game_id}")
    assert [p["account"] for p in stored["players"]] == [ada["id"], bob["id"]]
    submits = [(a["player"], a.get("round")) for a in stored["events"] if a["type"] == "submit"]
    assert len(submits) == 4 and submits[0][0] == "0"
    assert [int(w) for w in replayed(stored).winners] == over["data"]["winners"]
    for account in (ada, bob):
        seen = front.get(f"/api/accounts/{account['id']}")
        assert seen["ratings"][EDITION]["games"] == 1
        assert [h["game_id"] for h in seen["history"][EDITION]] == [game_id]

    # after the kill, nginx sent the room's sockets to the survivor (a first try may name
    # both: the dead process refused, the survivor answered); logged when they closed
    def sent_again() -> list[dict[str, str]] | None:
        found = [ln for ln in access_log(cluster) if "again=1" in ln["request"]]
        return found if len(found) >= 2 else None

    again = eventually(sent_again, "two sockets sent again in nginx's access log", every=0.1)
    assert {last_upstream(ln) for ln in again} == {survivor}, again
    assert all(ln["room"] == code for ln in again)


def test_the_rendered_configuration_with_tls_is_one_nginx_accepts(tmp_path: Path) -> None:
    """docs/operations.md's nginx step (render-nginx with a certificate), checked by nginx."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    make_cert = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    subprocess.run(
        [*make_cert, "-subj", "/CN=ubongo.test", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    ups = ["--upstream", "127.0.0.1:8001", "--upstream", "127.0.0.1:8002", "--listen", "443"]
    tls = ["--tls-cert", str(cert), "--tls-key", str(key), "--server-name", "ubongo.test"]
    log = ["--access-log", str(tmp_path / "access.log")]
    site = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "cluster"), "render-nginx", *ups, *tls, *log],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "hash $ubongo_key consistent;" in site and "ssl_certificate " in site
    assert "return 301 https://" in site  # plain HTTP goes to HTTPS
    (tmp_path / "ubongo.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path / 'nginx.pid'};\nerror_log {tmp_path / 'error.log'};\nevents {{}}\n"
        f"http {{\n    include {tmp_path / 'ubongo.conf'};\n}}\n"
    )
    checked = subprocess.run(
        ["nginx", "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr
