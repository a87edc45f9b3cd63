"""Schemathesis checks of our own: every API error is in the contract's
shape, `{ "error": { "code": ..., "message": ... } }` (docs/API.md), and never
carries a database message or a stack trace."""

import schemathesis

LEAKS = ("sqlx", "sqlite", "postgres", "panicked", "stack backtrace", "syntax error")


@schemathesis.check
def error_shape(ctx, response, case):
    if response.status_code < 400 or not case.path.startswith("/api"):
        return None
    try:
        body = response.json()
    except Exception:
        raise AssertionError(f"{response.status_code} without a JSON body: {response.text[:200]!r}")
    error = body.get("error") if isinstance(body, dict) else None
    assert isinstance(error, dict), f"no `error` object: {body!r}"[:300]
    assert isinstance(error.get("code"), str) and error["code"], f"no error code: {body!r}"[:300]
    assert isinstance(error.get("message"), str), f"no error message: {body!r}"[:300]
    text = response.text.lower()
    asked = sent(response, case)
    for leak in LEAKS:
        # A word the request itself carried may come back quoted (a field
        # named "postgres" that is not one, a value "sqlite" that is not a
        # number): the client's own words, not the database's.
        if leak in asked:
            continue
        assert leak not in text, f"the answer mentions {leak!r}: {response.text[:300]!r}"
    return None


def sent(response, case):
    """Everything the request carried, lower-cased: its URL, its body and
    the case's parts."""
    parts = [repr(case.body), repr(case.query), repr(case.path_parameters), repr(case.headers)]
    request = getattr(response, "request", None)
    for attribute in ("url", "body"):
        value = getattr(request, attribute, None)
        if isinstance(value, bytes):
            value = value.decode("utf-8", "replace")
        if value:
            parts.append(str(value))
    return " ".join(parts).lower()
