"""The ``ubongo`` command (Typer, with rich help, progress bars and tables): one subcommand per
module of this package.

Each subcommand module defines ``register(app)``, which adds its command (or group of commands)
to the Typer app; a command returns its exit code.  The CLI is a thin layer over the library:
the modules parse, call the library, and show what it returns.

Mistakes on the command line are one line on standard error and exit code 2
(``ubongo deck generate: error: Missing option '--edition'.``), as scripts expect.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Collection, Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from ubongo import __version__

#: subcommand modules and their one-line summaries, in the order ``ubongo --help`` lists them
SUMMARY: dict[str, str] = {
    "solve": "solve a puzzle file",
    "demo": "solve one example puzzle of each edition and show the solutions",
    "deck": "generate, show and print decks of boards and cards",
    "daily": "the daily challenge's tasks",
    "serve": "run the game server",
    "simulate": "play a whole game with simulated players",
    "review": "the moderators' review of held results (fair play)",
}
COMMANDS: tuple[str, ...] = tuple(SUMMARY)

#: -h works as well as --help everywhere (argparse took both)
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class CommandError(Exception):
    """A bad argument or input file: printed as one line, exit code 2."""

    #: the command words it came from (``ubongo deck show``), set on its way out
    command: str | None = None


class Commands(TyperGroup):
    """A group whose unknown subcommand is reported as argparse did (``invalid choice``), and
    whose commands' :class:`CommandError` learn which command they came from."""

    def list_commands(self, ctx: Any) -> list[str]:
        # the order of COMMANDS (Typer puts groups such as deck after the plain commands)
        names: list[str] = list(super().list_commands(ctx))
        rank = {name: i for i, name in enumerate(COMMANDS)}
        return sorted(names, key=lambda name: rank.get(name, len(rank)))

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except CommandError as e:
            if e.command is None:
                sub = ctx.invoked_subcommand
                e.command = f"{ctx.command_path} {sub}" if sub else ctx.command_path
            raise

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except typer.TyperException as e:
            if args and args[0] not in self.commands:
                e.message = f"invalid choice: {args[0]!r} (choose from {', '.join(self.commands)})"
            raise


def new_app(help_text: str, *, name: str | None = None) -> typer.Typer:
    """A Typer app (the top one, or a group such as ``deck``) set up as all of ours are."""
    return typer.Typer(
        name=name,
        cls=Commands,
        help=help_text,
        context_settings=CONTEXT,
        rich_markup_mode="rich",
        add_completion=False,
        pretty_exceptions_enable=False,
        invoke_without_command=True,
    )


def _version(shown: bool) -> None:
    if shown:
        print(f"ubongo {__version__}")
        raise typer.Exit(0)


def build_app(load: Collection[str] = COMMANDS) -> typer.Typer:
    """The ``ubongo`` app: the commands in ``load`` registered whole, the others only by name
    and summary (enough for ``ubongo --help``; ``serve``'s module alone imports the server)."""
    import importlib

    app = new_app("Ubongo puzzles and games.", name="ubongo")

    @app.callback()
    def top(
        ctx: typer.Context,
        version: Annotated[
            bool,
            typer.Option(
                "--version", help="show the version and exit", callback=_version, is_eager=True
            ),
        ] = False,
    ) -> None:
        if ctx.invoked_subcommand is None:
            print(ctx.get_help())
            raise typer.Exit(2)

    for name in COMMANDS:
        if name in load:
            importlib.import_module(f"ubongo.cli.{name}").register(app)
        else:
            app.command(name, short_help=SUMMARY[name], add_help_option=False)(_not_loaded)
    return app


def _not_loaded() -> int:
    """Stands for a command :func:`main` did not load (it loads the one it runs)."""
    raise AssertionError("a command runs only after its module is loaded")


def _command_path(error: BaseException) -> str:
    """The command a usage error belongs to (``ubongo deck generate``)."""
    ctx: typer.Context | None = getattr(error, "ctx", None)
    return ctx.command_path if ctx is not None else "ubongo"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = typer.main.get_command(build_app(args[:1]))
    try:
        code = command.main(args=args, prog_name="ubongo", standalone_mode=False)
    except CommandError as e:
        print(f"{e.command or 'ubongo'}: error: {e}", file=sys.stderr)
        return 2
    except typer.TyperException as e:
        # click's usage errors, as one line (the standalone mode would draw a panel)
        print(f"{_command_path(e)}: error: {e.format_message()}", file=sys.stderr)
        return int(getattr(e, "exit_code", 2))
    except (KeyboardInterrupt, typer.Abort):
        return 130
    except BrokenPipeError:
        # `ubongo ... | head`: the reader left; say nothing and don't let Python complain at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return code if isinstance(code, int) else 0


if __name__ == "__main__":
    sys.exit(main())
