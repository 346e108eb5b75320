"""HTTP fuzzing at length: schemathesis against one ``ubongo serve`` (tests/http_fuzz.py, the
same checks as ``make test``'s few hundred requests), here many more, with a new random seed
each run unless ``--seed`` is given. Prints the requests per route, accepted and refused, the
refusals by status and code, and the ratio of refused to accepted; stops at the first wrong
answer (a 500, an error not in the documented shape, a body not matching its model).

    .venv/bin/python bench/fuzz_http.py [--examples 300] [--seed N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from http_fuzz import fuzz, load_schema
from server_harness import ServerProcess


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--examples", type=int, default=300, help="requests per route and mode (default 300)"
    )
    parser.add_argument("--seed", type=int, default=None, help="derandomized run (any number)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "server.log"
        srv = ServerProcess(f"sqlite:///{Path(folder) / 'fuzz.sqlite3'}", log=log).start()
        started = time.perf_counter()
        try:
            counts = fuzz(load_schema(srv.url), args.examples, args.seed, progress=print)
        finally:
            srv.stop()
        seconds = time.perf_counter() - started
        crashed = "Traceback" in log.read_text()
    print(f"\n{'route':40} {'accepted':>9} {'refused':>9}")
    for label in sorted(set(counts.accepted) | set(counts.refused)):
        print(f"{label:40} {counts.accepted[label]:9} {counts.refused[label]:9}")
    accepted, refused = sum(counts.accepted.values()), sum(counts.refused.values())
    print("\nrefusals by status and code:")
    for code, n in counts.codes.most_common():
        print(f"  {code:30} {n:7}")
    ratio = refused / accepted if accepted else float("inf")
    print(
        f"\n{counts.total} requests in {seconds:.1f} s: {accepted} accepted, {refused} refused "
        f"(refused/accepted {ratio:.2f}); no 5xx, every answer in its documented shape"
    )
    if crashed:
        print("the server logged a traceback:", log)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
