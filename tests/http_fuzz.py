"""HTTP fuzzing with schemathesis, shared by tests/test_server_http_fuzz.py (a few hundred
cases) and bench/fuzz_http.py (many more): every operation of the server's OpenAPI schema,
with generated requests that fit it (positive) and that do not (negative).

Each answer is checked three ways: never a 5xx; schemathesis' own checks of the answer against
the schema (status documented, body matching the documented model: ``4XX`` is ``ApiError``);
and the harness' :func:`~server_harness.check_body` (the protocol's models).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import schemathesis
from hypothesis import HealthCheck, Verbosity, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import BaseSchema, GenerationMode
from schemathesis import Case as AnyCase
from schemathesis.core.result import Err
from schemathesis.specs.openapi.checks import positive_data_acceptance
from server_harness import check_body

Case = AnyCase[Any]


@dataclass
class FuzzCounts:
    """What the server answered: accepted (2xx) and refused (4xx) per operation, and by code."""

    accepted: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)

    @property
    def total(self) -> int:
        return sum(self.accepted.values()) + sum(self.refused.values())


def load_schema(base_url: str) -> BaseSchema:
    """The running server's schema (``/openapi.json``). A request the schema does not allow
    may be refused by the body limit before anything reads it: ``413 too_large`` (a negative
    body of more than 64 KiB) is a refusal too."""
    schema = schemathesis.openapi.from_url(base_url + "/openapi.json")
    rejection = schema.config.checks.negative_data_rejection
    rejection.expected_statuses = [*rejection.expected_statuses, "413"]
    return schema


def check_case(case: Case, counts: FuzzCounts) -> None:
    """Send one generated request and check its answer (AssertionError / schemathesis'
    failure if it is wrong)."""
    # a request the schema allows may still be refused: the rules judge settings (an edition's
    # sides, a name of spaces only) beyond what a schema can say; invalid ones must be refused
    response = case.call_and_validate(excluded_checks=[positive_data_acceptance], timeout=10)
    label = f"{case.method.upper()} {case.path}"
    assert response.status_code < 500, (label, response.status_code, response.text[:200])
    body = response.json()
    check_body(case.method.upper(), case.formatted_path, response.status_code, body)
    if response.status_code < 400:
        counts.accepted[label] += 1
    else:
        counts.refused[label] += 1
        counts.codes[f"{response.status_code} {body['error']['code']}"] += 1


def fuzz(
    schema: BaseSchema,
    examples: int,
    seed: int | None = 0,
    progress: Callable[[str], None] | None = None,
) -> FuzzCounts:
    """``examples`` requests per operation and per mode (positive, negative); raises at the
    first wrong answer (hypothesis shrinks it to a small example first)."""
    counts = FuzzCounts()
    for result in schema.get_all_operations():
        if isinstance(result, Err):
            raise result.err()
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(
                max_examples=examples,
                deadline=None,
                database=None,
                derandomize=seed is not None,
                suppress_health_check=list(HealthCheck),
                print_blob=False,
                verbosity=Verbosity.quiet,
            )
            def one(case: Case) -> None:
                check_case(case, counts)

            try:
                one()
            except Unsatisfiable:
                # a route with no parameter and no body (GET /api/health): nothing can be
                # made invalid
                if mode is GenerationMode.POSITIVE:
                    raise
            if progress is not None:
                progress(f"{operation.label} {mode.value}: {counts.total} requests so far")
    return counts
