"""Schemathesis hooks for scripts/schemathesis.mjs: the allow-list of schemathesis.toml, applied.

Some checks flag a request the document calls valid that the server refuses for a rule no
OpenAPI schema can state (two query parameters that exclude each other, a key that must not be
reused, an amount bounded by earlier refunds). `paygrid_allow_list` runs those checks itself
(the script excludes the built-in copies from the run) and lets a failure pass only when the
response is exactly what an allow-list entry names for that operation: its check, operation
pattern, HTTP status, and either the error's `code` and `param` (a pattern) or, for an object
that DELETE archives, `deleted = true` in the body (or, for a list that stays readable once
its owner is archived, the body's `object`). Anything else fails as the built-in would.
"""

import ast
import json
import re
import threading
import uuid

import schemathesis
from schemathesis.specs.openapi import checks as builtin

# CPython 3.11 before 3.11.8 (Debian 12 ships 3.11.2) can fail `ast.parse` run by two threads at
# once ("SystemError: AST constructor recursion depth mismatch", CPython gh-106905); Hypothesis
# parses its own sources to describe strategies, and the script runs several workers. One
# parse at a time costs nothing measurable and keeps the run from erroring at random.
_ast_parse, _ast_lock = ast.parse, threading.Lock()


def _serialised_parse(*args, **kwargs):
    with _ast_lock:
        return _ast_parse(*args, **kwargs)


ast.parse = _serialised_parse



@schemathesis.hook
def before_call(context, case, kwargs):
    """A fresh Idempotency-Key where the generator drew a valid one, in every phase.

    The generator draws keys from a small space ("0", 255 zeros, ...) and sends the same key
    with different bodies: a correct 422 idempotency_key_reused, answered before the body is
    validated, so those requests tested nothing else (about 40% of the POSTs of a run). Keys
    the document calls invalid (empty, over 255 characters) and negative cases are left alone;
    reuse itself is tested by tests/integration/idempotency.test.ts.
    """
    # Positive cases only: editing a negative case makes Schemathesis revalidate it, and a case
    # meant to lack Authorization would then be sent with the run's key.
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return
    headers = case.headers or {}
    for name, value in list(headers.items()):
        if name.lower() == "idempotency-key" and isinstance(value, str) and 1 <= len(value) <= 255:
            headers[name] = f"st-{uuid.uuid4().hex}"


def _has_unsent(value):
    if isinstance(value, dict):
        return any(_has_unsent(v) for v in value.values())
    return value is None or (isinstance(value, list) and len(value) == 0)


@schemathesis.hook
def filter_query(context, query):
    """No query with a parameter whose value is an empty list or null, at any depth.

    Such a parameter is not sent at all (the HTTP client drops it), so the request that goes out
    is not the one generated: a negative case whose only invalid part was `created[]: []` went out
    as a valid range filter, the server rightly answered 200, and Schemathesis reported "schema-
    violating request accepted" (ST201 on GET /v1/events, seen once in a CI rehearsal). The same
    with a null: GET /v1/refunds with four valid `created[...]` bounds, reported as violating
    `additionalProperties` of `created` (ST201, CI of 2026-11-28): the fifth, extra key was null
    and did not go out.
    """
    return not (isinstance(query, dict) and _has_unsent(query))


# The built-in checks whose failures an allow-list entry may excuse; each still runs on every response.
WRAPPED = ("positive_data_acceptance", "use_after_free")


def _body_of(response):
    try:
        body = json.loads(response.content)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _matches(entry, body):
    if "deleted" in entry:
        return body.get("deleted") is entry["deleted"]
    if "object" in entry:
        return body.get("object") == entry["object"]
    error = body.get("error") if isinstance(body.get("error"), dict) else {}
    return entry["code"] == error.get("code") and entry["param"].fullmatch(str(error.get("param")))


@schemathesis.check
class paygrid_allow_list:
    """The wrapped checks, minus the failures schemathesis.toml allows (each with its reason)."""

    def __init__(self, allow=()):
        self.allow = []
        for entry in allow:
            what = next(({k} for k in ("deleted", "object") if k in entry), {"code", "param"})
            missing = ({"check", "operation", "status", "reason"} | what) - set(entry)
            if missing or entry["check"] not in WRAPPED or not str(entry.get("reason", "")).strip():
                raise ValueError(
                    f"allow-list entry {entry!r}: needs check (one of {WRAPPED}), operation, status, "
                    f"code and param (or deleted, or object), and a reason; missing {sorted(missing)}"
                )
            compiled = {**entry, "operation": re.compile(entry["operation"])}
            if "param" in entry:
                compiled["param"] = re.compile(entry["param"])
            self.allow.append(compiled)

    def _allowed(self, check, case, response):
        body = _body_of(response)
        return any(
            entry["check"] == check
            and entry["operation"].fullmatch(case.operation.label)
            and entry["status"] == response.status_code
            and _matches(entry, body)
            for entry in self.allow
        )

    def after_response(self, ctx, response, case):
        for name in WRAPPED:
            try:
                getattr(builtin, name)(ctx, response, case)
            except AssertionError:
                if not self._allowed(name, case, response):
                    raise
