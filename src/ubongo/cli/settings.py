"""The settings of :class:`~ubongo.server.config.ServerConfig` as an operator meets them: the
options of ``ubongo serve`` (one per field), their errors (one line naming the flag or the
environment variable), and docs/server.md's tables.

Every option is made from its field: its flag is ``--`` and the field's name with dashes (or
:attr:`Setting.flag`), its help the field's description, its default the field's. ``ubongo
serve`` passes the model only the flags given on its command line; the model reads the other
settings from the environment (``UBONGO_`` and the field's name) or takes their defaults. So a
flag wins over the environment, which wins over the default.

    .venv/bin/python -m ubongo.cli.settings           # rewrites docs/server.md's tables
    .venv/bin/python -m ubongo.cli.settings --check   # fails if they differ (scripts/settings)
"""

from __future__ import annotations

import inspect
import os
import re
import sys
import typing
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import annotated_types
import typer
from pydantic import ValidationError
from pydantic.fields import FieldInfo
from rich.markup import escape

from ubongo.cli import CommandError
from ubongo.server.config import ENV_PREFIX, GROUPS, ServerConfig, Setting

FIELDS: dict[str, FieldInfo] = ServerConfig.model_fields

#: the document whose tables are made here, and how each table is marked in it
DOCUMENT = Path(__file__).resolve().parents[3] / "docs" / "server.md"
TABLE = re.compile(r"(<!-- settings: (\w+) [^>]*-->\n)(.*?)(<!-- /settings -->)", re.DOTALL)


def setting(name: str) -> Setting:
    """The :class:`Setting` of field ``name``."""
    return next(m for m in FIELDS[name].metadata if isinstance(m, Setting))


def flag(name: str) -> str:
    """The flag of field ``name``.

    >>> flag("rooms_per_minute"), flag("store_retry_seconds")
    ('--rooms-per-minute', '--store-retry')
    """
    return setting(name).flag or "--" + name.replace("_", "-")


def env_var(name: str) -> str:
    """The environment variable of field ``name``.

    >>> env_var("rooms_per_minute")
    'UBONGO_ROOMS_PER_MINUTE'
    """
    return (ENV_PREFIX + name).upper()


def default_text(name: str) -> str:
    """Field ``name``'s default as ``--help`` and the docs show it.

    >>> default_text("idle_room_seconds"), default_text("redis_url"), default_text("dev")
    ('1800', 'none', 'off')
    """
    field = FIELDS[name]
    if setting(name).default_text is not None:
        return str(setting(name).default_text)
    value = field.get_default(call_default_factory=True)
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None or value == ():
        return "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def allowed_text(name: str) -> str:
    """Field ``name``'s check in words (docs/server.md).

    >>> allowed_text("port"), allowed_text("rooms_per_minute"), allowed_text("log_format")
    ('1 to 65535', '> 0', '`auto`, `json` or `text`')
    """
    field = FIELDS[name]
    words = [*_bounds(field.metadata), *_described(field.metadata)]
    annotation = field.annotation
    if typing.get_origin(annotation) is Literal:
        words.append(_either([f"`{choice}`" for choice in typing.get_args(annotation)]))
    elif annotation is bool:
        words.append(_either(["`true`", "`false`"]))
    elif typing.get_origin(annotation) is tuple:
        item = typing.get_args(annotation)[0]
        words.extend(f"each {words}" for words in _described(getattr(item, "__metadata__", ())))
    if setting(name).allowed:
        words.append(str(setting(name).allowed))
    return "; ".join(words)


#: annotated_types' bounds, in words
SIGNS = {"gt": ">", "ge": "≥", "lt": "<", "le": "≤"}


def _bounds(metadata: Sequence[Any]) -> list[str]:
    """Numeric bounds in words: ``> 0``, ``≥ 1024``, ``1 to 65535``."""
    found = {
        key: getattr(m, key)
        for m in metadata
        if isinstance(m, annotated_types.BaseMetadata)
        for key in SIGNS
        if getattr(m, key, None) is not None
    }
    if "ge" in found and "le" in found:
        return [f"{found['ge']} to {found['le']}"]
    words = [f"{SIGNS[key]} {bound}" for key, bound in found.items()]
    if any(getattr(m, "min_length", None) == 1 for m in metadata):
        words.append("not empty")
    return words


def _described(metadata: Sequence[Any]) -> list[str]:
    """The words of the checks among ``metadata`` that have them (URL schemes, host:port)."""
    found = (getattr(getattr(m, "func", None), "words", None) for m in metadata)
    return [str(words) for words in found if words is not None]


def _either(choices: Sequence[str]) -> str:
    return ", ".join(choices[:-1]) + " or " + choices[-1] if len(choices) > 1 else choices[0]


# -- ubongo serve's options ------------------------------------------------------------------


def _metavar(name: str) -> str | None:
    """What the help shows for an option's value: the setting's metavar, its choices, or
    its type."""
    annotation = FIELDS[name].annotation
    if setting(name).metavar:
        return setting(name).metavar
    if typing.get_origin(annotation) is Literal:
        return "[" + "|".join(typing.get_args(annotation)) + "]"
    if isinstance(annotation, type) and annotation in (int, float, str):
        return f"<{annotation.__name__}>"
    return None


def _option(name: str) -> inspect.Parameter:
    """The Typer option of field ``name``. Its value reaches the model as the command line
    gave it (a text, a list of texts, a flag), which checks and converts it as it does the
    environment's. The default is only shown: :func:`config_from_flags` passes the model
    nothing for an option that was not given, and the model takes its own default."""
    field, shown = FIELDS[name], setting(name)
    kind: Any = str
    default: Any = default_text(name)
    if field.annotation is bool:
        kind, default = bool, field.default
    elif shown.repeatable:
        kind, default = list[str] | None, None
    group = shown.group
    option = typer.Option(
        *([shown.flag] if shown.flag else []),
        help=escape(f"{field.description} [env var: {env_var(name)}]"),
        metavar=_metavar(name),
        show_default=default is not None and default != "none",
        rich_help_panel=None if group == next(iter(GROUPS)) else GROUPS[group],
    )
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=Annotated[kind, option]
    )


def with_options(command: Callable[..., int]) -> Callable[..., int]:
    """``command(ctx, **values)`` given a signature Typer reads as a context and one option
    per field of :class:`ServerConfig`, in the fields' order, grouped in panels."""
    context = inspect.Parameter(
        "ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context
    )
    ordered = sorted(FIELDS, key=lambda name: list(GROUPS).index(setting(name).group))
    command.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [context, *(_option(name) for name in ordered)], return_annotation=int
    )
    return command


def given_flags(ctx: typer.Context, values: Mapping[str, Any]) -> dict[str, Any]:
    """The options the command line gave (not their shown defaults)."""
    return {
        name: value
        for name, value in values.items()
        if getattr(ctx.get_parameter_source(name), "name", None) == "COMMANDLINE"
    }


def config_from_flags(
    given: Mapping[str, Any], environ: Mapping[str, str] | None = None
) -> ServerConfig:
    """The checked configuration of ``given`` flags (by field name) over the environment; a
    bad value is a :class:`~ubongo.cli.CommandError` naming its flag or variable."""
    try:
        return ServerConfig(**given)
    except ValidationError as e:
        raise CommandError(refusal(e, given, os.environ if environ is None else environ)) from None


def source(name: str, given: Collection[str], environ: Mapping[str, str]) -> str:
    """Where field ``name``'s value came from, as the operator wrote it: its flag (given, or
    neither given nor set: the default's check), or its environment variable."""
    if name not in given and env_var(name) in {key.upper() for key in environ}:
        return env_var(name)
    return flag(name)


def refusal(error: ValidationError, given: Collection[str], environ: Mapping[str, str]) -> str:
    """A :class:`ValidationError` as one line: each bad setting's source and what is wrong.

    >>> from pydantic import ValidationError
    >>> try:
    ...     ServerConfig(rooms_per_minute="0")
    ... except ValidationError as e:
    ...     print(refusal(e, ["rooms_per_minute"], {}))
    --rooms-per-minute: input should be greater than 0 (got '0')
    """
    parts = []
    for problem in error.errors():
        name = str(problem["loc"][0]) if problem["loc"] else ""
        where = source(name, given, environ) if name in FIELDS else "settings"
        parts.append(f"{where}: {_message(problem)}")
    return "; ".join(parts)


def _message(problem: Any) -> str:
    """Pydantic's message, as a clause: ours (checks) as they are, its own with the value."""
    text = str(problem["msg"])
    if problem["type"] == "value_error":
        return text.removeprefix("Value error, ")
    value = problem.get("input")
    got = f" (got {_short(value)})" if isinstance(value, str | int | float) else ""
    return text[:1].lower() + text[1:] + got


def _short(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


# -- docs/server.md --------------------------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(group: str) -> str:
    """docs/server.md's table of the settings of ``group`` (a key of :data:`GROUPS`)."""
    names = [name for name in FIELDS if setting(name).group == group]
    past = any(setting(name).past for name in names)
    head = ["flag", "environment", "default", "allowed", "what it is", *(["past it"] * past)]
    rows = [head, ["---"] * len(head)]
    for name in names:
        default = default_text(name)
        row = [
            f"`{flag(name)}`",
            f"`{env_var(name)}`",
            default if default in ("none", "off") else f"`{default}`",
            allowed_text(name),
            str(FIELDS[name].description),
            *([setting(name).past or ""] * past),
        ]
        rows.append(row)
    return "".join("| " + " | ".join(_cell(cell) for cell in row) + " |\n" for row in rows)


def with_tables(document: str) -> str:
    """``document`` with each marked table made again from the model; every group must have
    one (a group without a table would be undocumented)."""
    groups = [match[2] for match in TABLE.finditer(document)]
    unknown = sorted(set(groups) - GROUPS.keys())
    missing = [group for group in GROUPS if group not in groups]
    if unknown or missing:
        raise ValueError(f"settings tables: unknown groups {unknown}, missing {missing}")
    return TABLE.sub(lambda m: m[1] + table(m[2]) + m[4], document)


def main(argv: Sequence[str] | None = None) -> int:
    """Writes docs/server.md's tables; ``--check``: exit 1 if they differ from the model."""
    args = list(sys.argv[1:] if argv is None else argv)
    text = DOCUMENT.read_text(encoding="utf-8")
    made = with_tables(text)
    if "--check" in args:
        if made != text:
            print(f"{DOCUMENT} is out of date: run scripts/settings and commit it", file=sys.stderr)
            return 1
        return 0
    DOCUMENT.write_text(made, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
