"""``ubongo`` commands started as processes of their own, forked from a process that has
already imported the server, instead of a new interpreter importing it again each time.

A server start was about two CPU-seconds, most of it importing FastAPI, SQLAlchemy, pydantic
and the protocol's models; the suite starts over a hundred servers, on a two-core machine
whose browsers need the rest. Python's ``forkserver`` keeps one clean, single-threaded
process per test worker that has imported them (:data:`PRELOAD`) and forks a child for each
command, which then runs exactly what ``ubongo <args>`` would: its own process (its pid, its
signals, its card worker), its environment and log file as given. Only the import is shared.

:class:`Launched` answers as much of :class:`subprocess.Popen` as the harness and the
benches use (``pid``, ``poll``, ``wait``, ``send_signal``, ``kill``, ``returncode``).
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from functools import cache
from multiprocessing.context import ForkServerContext
from multiprocessing.process import BaseProcess
from pathlib import Path

#: what the fork server imports once: the whole app and the command line
PRELOAD = ["ubongo.server.app", "ubongo.cli"]


@cache
def _context() -> ForkServerContext:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


def _run(args: list[str], env: dict[str, str], cwd: str, log: str | None) -> None:
    """The child: ``ubongo <args>`` with ``env`` in ``cwd``, its output to ``log`` (or none)."""
    fd = os.open(log or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    # each line reaches the log at once (as PYTHONUNBUFFERED did): a killed server's last
    # words are what some tests read
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(line_buffering=True)
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    from ubongo.cli import main

    sys.exit(main(args))


_running: list[Launched] = []


@atexit.register
def _stop_the_rest() -> None:
    # (registered after multiprocessing's own exit function, so run before it: that one
    # would wait for every child still running, and a test that failed may have left one)
    for launched in _running:
        launched.kill()
        launched.wait(5)


class Launched:
    """A command running in a forked child (see the module's doc), seen as a ``Popen``."""

    def __init__(self, process: BaseProcess) -> None:
        self._process = process
        assert process.pid is not None
        self.pid: int = process.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once it has ended (negative: the signal that ended it)."""
        return self._process.exitcode

    def poll(self) -> int | None:
        return self._process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        code = self._process.exitcode
        if code is None:
            raise subprocess.TimeoutExpired(["ubongo"], timeout or 0.0)
        return code

    def send_signal(self, sig: int) -> None:
        if self._process.exitcode is None:
            os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def launch(
    args: Sequence[str], env: Mapping[str, str], cwd: Path, log: Path | None = None
) -> Launched:
    """Start ``ubongo <args>`` with environment ``env`` in folder ``cwd``, its standard output
    and error appended to ``log`` (None: thrown away)."""
    process = _context().Process(
        target=_run, args=(list(args), dict(env), str(cwd), str(log) if log else None)
    )
    process.start()
    launched = Launched(process)
    _running[:] = [x for x in _running if x.poll() is None] + [launched]
    return launched
