"""The server's one configuration model (``ubongo.server.config.ServerConfig``) and what is made
from it: its defaults and checks, the ``UBONGO_*`` environment variables, the options of
``ubongo serve`` (a flag wins over the environment, which wins over the default) and
docs/server.md's tables of settings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import typer
from pydantic import ValidationError
from typer.testing import CliRunner

import ubongo.cli.serve
from ubongo.cli import build_app, main
from ubongo.cli.settings import DOCUMENT, FIELDS, env_var, flag, table, with_tables
from ubongo.server.config import GROUPS, ServerConfig

#: every setting's default before the model (the dataclass and the flags' defaults)
DEFAULTS: dict[str, Any] = {
    "host": "127.0.0.1",
    "port": 8000,
    "public_url": "http://127.0.0.1:8000",
    "database_url": None,
    "redis_url": None,
    "upstreams": (),
    "upstream_name": "",
    "max_body_bytes": 65536,
    "allowed_origins": (),
    "dev": False,
    "log_level": "info",
    "log_format": "auto",
    "request_seconds": 10.0,
    "idle_room_seconds": 1800.0,
    "finished_room_seconds": 300.0,
    "full_collection_seconds": 3600.0,
    "unjoined_room_seconds": 60.0,
    "rooms_per_minute": 30,
    "hints_per_minute": 30,
    "hints_per_minute_per_address": 120,
    "verdicts_per_minute": 120,
    "verdicts_per_minute_per_address": 480,
    "accounts_per_hour": 60,
    "challenges_per_hour": 30,
    "challenge_seconds": 120.0,
    "arena_gather_seconds": 2.0,
    "arena_schedule": "standard",
    "arenas_per_day": 5,
    "puzzles_saved_per_day": 20,
    "puzzles_published_per_day": 5,
    "puzzles_per_account": 200,
    "pack_puzzles": 20,
    "packs_per_day": 10,
    "packs_per_account": 50,
    "follows_per_account": 500,
    "failed_lookup_burst": 20,
    "failed_lookups_per_hour": 60,
    "connections_per_address": 50,
    "hello_seconds": 10.0,
    "spectators_per_room": 200,
    "messages_per_second": 20.0,
    "max_queued_messages": 1000,
    "presence_seconds": 0.25,
    "store_timeout": 30.0,
    "store_retry_seconds": 1.0,
    "store_retry_max_seconds": 60.0,
    "record_seconds_per_piece": 0.6,
    "require_traces": True,
    "trace_seconds_per_move": 0.15,
    "hold_score": 1.0,
    "quickmatch_wait": 10.0,
    "quickmatch_settings": {},
    "shared_address_days": 7.0,
    "rated_games_per_pair": 3,
    "playban_leaves": 3,
    "playban_games": 10,
    "playban_minutes": (5.0, 15.0, 60.0),
}

#: the flags ``ubongo serve`` had before they were made from the model (and keeps)
OLD_FLAGS = [
    "--host",
    "--port",
    "--database-url",
    "--redis-url",
    "--upstreams",
    "--upstream-name",
    "--public-url",
    "--max-body-bytes",
    "--allowed-origin",
    "--dev",
    "--no-dev",
    "--store-timeout",
    "--store-retry",
    "--store-retry-max",
    "--record-seconds-per-piece",
    "--quickmatch-wait",
    "--quickmatch-settings",
    "--log-level",
    "--log-format",
    "--rooms-per-minute",
    "--accounts-per-hour",
    "--failed-lookups-per-hour",
    "--connections-per-address",
    "--messages-per-second",
    "--spectators-per-room",
    "--hello-seconds",
    "--idle-room-seconds",
    "--finished-room-seconds",
    "--unjoined-room-seconds",
    "--full-collection-seconds",
    "--presence-seconds",
    "--max-queued-messages",
    "--request-seconds",
]


@pytest.fixture(autouse=True)
def no_settings_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no ``UBONGO_*`` variable (the machine's own are not its)."""
    import os

    for name in list(os.environ):
        if name.upper().startswith("UBONGO_"):
            monkeypatch.delenv(name)


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[ServerConfig]:
    """The configurations ``ubongo serve`` would serve (nothing is served)."""
    configs: list[ServerConfig] = []
    monkeypatch.setattr(ubongo.cli.serve, "serve", configs.append)
    return configs


Serve = Callable[..., ServerConfig]


@pytest.fixture
def serve(served: list[ServerConfig]) -> Serve:
    """``serve(*args, env=...)``: ``ubongo serve ARGS`` through Typer's runner, with ``env``
    set; the configuration it would serve."""

    def run(*args: str, env: dict[str, str] | None = None) -> ServerConfig:
        result = CliRunner().invoke(build_app(["serve"]), ["serve", *args], env=env)
        assert result.exit_code == 0, (result.output, result.exception)
        return served.pop()

    return run


def refusal(error: ValidationError) -> tuple[str, str]:
    """The first field refused and pydantic's message."""
    problem = error.errors()[0]
    return str(problem["loc"][0]), str(problem["msg"])


# -- the model ---------------------------------------------------------------------------------


def test_no_environment_gives_the_defaults_of_before() -> None:
    assert ServerConfig().model_dump() == DEFAULTS


def test_keyword_arguments_set_the_same_attributes() -> None:
    config = ServerConfig(record_seconds_per_piece=0.0, finished_room_seconds=0.4)
    assert config.record_seconds_per_piece == 0.0 and config.finished_room_seconds == 0.4
    assert config.rooms_per_minute == 30
    with pytest.raises(ValidationError, match="rooms_per_mnute"):
        ServerConfig(rooms_per_mnute=3)  # type: ignore[call-arg]


def test_what_is_made_from_other_settings() -> None:
    assert ServerConfig(host="0.0.0.0", port=8001).public_url == "http://0.0.0.0:8001"
    assert ServerConfig(public_url="https://ubongo.example.org/").public_url == (
        "https://ubongo.example.org"
    )
    ring = ServerConfig(redis_url="redis://r/0", upstreams=("127.0.0.1:8000", "10.0.0.6:8001"))
    assert ring.upstream_name == "127.0.0.1:8000"
    # the longest wait between two tries is never shorter than the first wait
    assert ServerConfig(store_retry_seconds=90.0).store_retry_max_seconds == 90.0


@pytest.mark.parametrize(
    ("given", "field", "message"),
    [
        ({"rooms_per_minute": 0}, "rooms_per_minute", "greater than 0"),
        ({"hello_seconds": -1.0}, "hello_seconds", "greater than 0"),
        ({"presence_seconds": -0.1}, "presence_seconds", "greater than or equal to 0"),
        ({"quickmatch_wait": -1.0}, "quickmatch_wait", "greater than or equal to 0"),
        ({"port": 65536}, "port", "less than or equal to 65535"),
        ({"max_body_bytes": 1023}, "max_body_bytes", "greater than or equal to 1024"),
        ({"idle_room_seconds": float("inf")}, "idle_room_seconds", "finite number"),
        ({"spectators_per_room": "many"}, "spectators_per_room", "valid integer"),
        ({"log_level": "loud"}, "log_level", "'debug', 'info' or 'warning'"),
        ({"redis_url": "localhost:6379"}, "redis_url", "not a Redis URL"),
        ({"public_url": "ubongo.example.org"}, "public_url", "not an http:// or https:// URL"),
        ({"database_url": "ubongo.sqlite3"}, "database_url", "not a database URL"),
        ({"allowed_origins": ("evil.example",)}, "allowed_origins", "not an origin"),
        ({"quickmatch_settings": "[1]"}, "quickmatch_settings", "not a JSON object"),
        ({"quickmatch_settings": "{"}, "quickmatch_settings", "not JSON"),
        ({"playban_minutes": "5,0"}, "playban_minutes", "each must be greater than 0"),
        ({"playban_minutes": ""}, "playban_minutes", "at least 1 item"),
        ({"rated_games_per_pair": 0}, "rated_games_per_pair", "greater than 0"),
        ({"upstreams": ("127.0.0.1:8000",)}, "upstreams", "needs --redis-url"),
        ({"upstream_name": "127.0.0.1:8000"}, "upstream_name", "needs --upstreams"),
        (
            {"redis_url": "redis://r/0", "upstreams": ("127.0.0.1:8001", "8002")},
            "upstreams",
            "not host:port",
        ),
        (
            {"redis_url": "redis://r/0", "upstreams": ("127.0.0.1:8001",)},
            "upstream_name",
            "this process (127.0.0.1:8000) is not among --upstreams",
        ),
    ],
)
def test_a_bad_value_is_refused_naming_its_field(
    given: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(ValidationError) as refused:
        ServerConfig(**given)
    assert refusal(refused.value)[0] == field
    assert message in refusal(refused.value)[1]


def test_zero_is_allowed_where_it_means_something() -> None:
    config = ServerConfig(presence_seconds=0, quickmatch_wait=0, record_seconds_per_piece=0)
    assert (config.presence_seconds, config.quickmatch_wait) == (0, 0)


def test_the_model_reads_the_environment_under_its_keyword_arguments(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("UBONGO_ROOMS_PER_MINUTE", "7")
    monkeypatch.setenv("UBONGO_REDIS_URL", "redis://10.0.0.5:6379/0")
    monkeypatch.setenv("UBONGO_UPSTREAMS", "10.0.0.6:8001, 10.0.0.6:8002")
    monkeypatch.setenv("UBONGO_UPSTREAM_NAME", "10.0.0.6:8002")
    monkeypatch.setenv("UBONGO_ALLOWED_ORIGINS", "https://a.example,https://b.example")
    monkeypatch.setenv("UBONGO_DEV", "true")
    monkeypatch.setenv("UBONGO_QUICKMATCH_SETTINGS", '{"rounds": 1}')
    config = ServerConfig()
    assert config.rooms_per_minute == 7
    assert config.upstreams == ("10.0.0.6:8001", "10.0.0.6:8002")
    assert config.upstream_name == "10.0.0.6:8002"
    assert config.allowed_origins == ("https://a.example", "https://b.example")
    assert config.dev is True and config.quickmatch_settings == {"rounds": 1}
    assert ServerConfig(rooms_per_minute=9).rooms_per_minute == 9
    monkeypatch.setenv("UBONGO_ROOMS_PER_MINUTE", "0")
    with pytest.raises(ValidationError, match="rooms_per_minute"):
        ServerConfig()


# -- ubongo serve --------------------------------------------------------------------------------


def test_every_field_is_an_option_and_every_old_flag_is_kept() -> None:
    command = typer.main.get_command(build_app(["serve"])).commands["serve"]  # type: ignore[attr-defined]
    options = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}
    assert {flag(name) for name in FIELDS} <= options
    assert set(OLD_FLAGS) <= options


def test_a_flag_wins_over_the_environment_which_wins_over_the_default(serve: Serve) -> None:
    env = {"UBONGO_ROOMS_PER_MINUTE": "7", "UBONGO_ACCOUNTS_PER_HOUR": "5"}
    config = serve("--rooms-per-minute", "9", env=env)
    assert config.rooms_per_minute == 9  # the flag
    assert config.accounts_per_hour == 5  # the environment
    assert config.connections_per_address == 50  # the default
    assert serve(env=env).rooms_per_minute == 7


def test_the_options_reach_the_model_as_its_types(serve: Serve) -> None:
    config = serve(
        *("--port", "8001", "--host", "0.0.0.0", "--dev", "--presence-seconds", "0"),
        *("--allowed-origin", "https://a.example", "--allowed-origin", "https://b.example"),
        *("--redis-url", "redis://r/0", "--upstreams", "0.0.0.0:8001,10.0.0.6:8002"),
        *("--store-retry", "2", "--store-retry-max", "9", "--log-format", "json"),
        *("--quickmatch-settings", '{"rounds": 1}', "--database-url", "sqlite:///x.sqlite3"),
    )
    assert (config.port, config.public_url, config.dev) == (8001, "http://0.0.0.0:8001", True)
    assert config.allowed_origins == ("https://a.example", "https://b.example")
    assert config.upstream_name == "0.0.0.0:8001" and config.presence_seconds == 0
    assert (config.store_retry_seconds, config.store_retry_max_seconds) == (2.0, 9.0)
    assert config.quickmatch_settings == {"rounds": 1} and config.log_format == "json"
    assert config.database_url == "sqlite:///x.sqlite3"
    # --no-dev wins over UBONGO_DEV as any flag does
    assert serve("--no-dev", env={"UBONGO_DEV": "1"}).dev is False


@pytest.mark.parametrize(
    ("args", "env", "line"),
    [
        (["--rooms-per-minute", "0"], {}, "--rooms-per-minute: input should be greater than 0"),
        (["--port", "many"], {}, "--port: input should be a valid integer"),
        (["--max-body-bytes", "10"], {}, "--max-body-bytes: input should be greater than or"),
        (["--allowed-origin", "evil.example"], {}, "--allowed-origin: not an origin"),
        (["--store-retry", "nan"], {}, "--store-retry: input should be a finite number"),
        ([], {"UBONGO_HELLO_SECONDS": "-1"}, "UBONGO_HELLO_SECONDS: input should be greater"),
        ([], {"ubongo_redis_url": "localhost"}, "UBONGO_REDIS_URL: not a Redis URL"),
        (["--upstreams", "127.0.0.1:8001"], {}, "--upstreams: needs --redis-url"),
        (
            ["--quickmatch-settings", '{"rounds": 99}'],
            {},
            "--quickmatch-settings: not room settings: rounds:",
        ),
    ],
)
def test_a_bad_value_is_one_line_naming_the_flag_or_the_variable(
    args: list[str],
    env: dict[str, str],
    line: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    served: list[ServerConfig],
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ubongo serve: error: {line}") and err.count("\n") == 1, err
    assert not served


def test_serve_runs_the_app_the_configuration_describes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    runs: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: runs.append((app, options)))
    monkeypatch.setattr("ubongo.server.ops.logs.configure", lambda level, fmt: None)
    args = ["--port", "8123", "--dev", "--public-url", "https://ubongo.example.org"]
    assert main(["serve", "--database-url", "sqlite:///:memory:", *args]) == 0
    [(app, options)] = runs
    assert (options["host"], options["port"], options["log_level"]) == ("127.0.0.1", 8123, "info")
    assert app.docs_url == "/docs"  # --dev
    assert "https://ubongo.example.org" in app.state.allowed_origins
    assert "open https://ubongo.example.org in a browser" in capsys.readouterr().out


# -- docs/server.md ------------------------------------------------------------------------------


def test_the_documents_tables_are_the_models() -> None:
    text = DOCUMENT.read_text(encoding="utf-8")
    assert with_tables(text) == text, "docs/server.md's settings differ: run scripts/settings"
    for name in FIELDS:
        assert f"| `{flag(name)}` | `{env_var(name)}` |" in text, name


def test_a_table_changes_with_the_model_and_every_group_has_one() -> None:
    text = DOCUMENT.read_text(encoding="utf-8")
    drifted = text.replace("| `--rooms-per-minute` | `UBONGO_ROOMS_PER_MINUTE` | `30`", "| x")
    assert drifted != text and with_tables(drifted) == text
    assert all(table(group).count("\n") >= 3 for group in GROUPS)
    start = text.index("<!-- settings: games")
    without_games = text[:start] + text[text.index("<!-- /settings -->", start) + 18 :]
    with pytest.raises(ValueError, match="missing \\['games'\\]"):
        with_tables(without_games)
