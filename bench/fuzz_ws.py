"""WebSocket fuzzing at length: ``--messages`` generated frames (default 10,000) of every client
message type, with wrong, missing, huge and hostile fields, against a real ``ubongo serve``.

The same generator and checks as ``tests/test_server_abuse_fuzz.py`` (which sends a few
hundred in ``make test``): the server stays up, every frame it sends matches the protocol's
models, and a refused message leaves the room's snapshot as it was. Prints how many frames were
sent, what they were answered, and how many fresh rooms were needed (one after each message
that was accepted).

    .venv/bin/python bench/fuzz_ws.py                    # 10,000 messages
    .venv/bin/python bench/fuzz_ws.py --messages 1000    # a quick look
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server_harness import ServerProcess
from test_server_abuse_fuzz import SERVER_ARGS, Fuzzer, message, senders


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--messages", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        server = ServerProcess(f"sqlite:///{tmp}/fuzz.sqlite3", log=log, args=SERVER_ARGS)
        fuzzer = Fuzzer(server.start())

        @settings(
            max_examples=args.messages,
            deadline=None,
            database=None,
            phases=[Phase.generate],  # a failure is printed as found, not shrunk
            suppress_health_check=list(HealthCheck),
        )
        @given(data=st.data())
        def fuzz(data: st.DataObject) -> None:
            world = fuzzer.ensure_world()
            fuzzer.send(data.draw(senders()), data.draw(message(world.code, world.token)))

        start = time.perf_counter()
        try:
            fuzz()
        except BaseException:
            print("server log, last lines:", *log.read_text().splitlines()[-30:], sep="\n")
            raise
        finally:
            seconds = time.perf_counter() - start
            fuzzer._reset()
            alive = server.proc is not None and server.proc.poll() is None
            server.stop()
        crashes = log.read_text().count("Traceback")
    print(f"{fuzzer.sent:,} frames sent in {seconds:.0f} s; {fuzzer.worlds:,} rooms used")
    print(f"server alive at the end: {alive}; tracebacks in its log: {crashes}")
    for answer, n in fuzzer.answers.most_common():
        print(f"  {n:>7,}  {answer}")


if __name__ == "__main__":
    main()
