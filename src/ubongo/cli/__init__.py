"""The ``ubongo`` command: one subcommand per module of this package.

Each subcommand module defines ``register(subparsers)``, which adds its parser and sets
``func`` (taking the parsed arguments, returning the exit code) as the parser's default.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from ubongo import __version__

#: subcommand modules, in the order ``ubongo --help`` lists them
COMMANDS: tuple[str, ...] = ("solve", "demo", "deck", "daily", "serve", "simulate")


class CommandError(Exception):
    """A bad argument or input file: printed as one line, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ubongo", description="Ubongo puzzles and games.")
    parser.add_argument("--version", action="version", version=f"ubongo {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"ubongo.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
    except CommandError as e:
        print(f"ubongo {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `ubongo ... | head`: the reader left; say nothing and don't let Python complain at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
