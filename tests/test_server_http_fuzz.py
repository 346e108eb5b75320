"""schemathesis against a real ``ubongo serve`` (tests/http_fuzz.py): every HTTP route of the
OpenAPI schema, with generated requests that fit it and that do not. No answer is a 500, every
refusal is ``{"error": {"code", "message"}}``, every answer matches its route's model. Some six
hundred requests here; ``bench/fuzz_http.py`` sends many more.
"""

from __future__ import annotations

from pathlib import Path

from http_fuzz import fuzz, load_schema
from server_harness import ServerProcess

#: generated requests per operation and mode (x 2 modes x some 90 operations, fewer where
#: hypothesis runs out of distinct ones: some 600; at 15, a minute or two of the suite; the
#: deep run is bench/fuzz_http.py's)
EXAMPLES = 6


def test_every_route_answers_fuzzed_requests_in_its_documented_shape(tmp_path: Path) -> None:
    srv = ServerProcess(f"sqlite:///{tmp_path / 'games.sqlite3'}", log=tmp_path / "server.log")
    srv.start()
    try:
        counts = fuzz(load_schema(srv.url), EXAMPLES)
    finally:
        srv.stop()
    assert "Traceback" not in (tmp_path / "server.log").read_text(), "the server logged a crash"
    assert counts.total >= 100
    # both kinds were sent: requests the server took and requests it refused
    assert counts.accepted and counts.refused
