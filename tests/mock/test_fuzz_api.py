"""Property-based fuzzing of the real mock server's HTTP API from its own OpenAPI schema:
whatever a client sends, the answer is never a 5xx, every 4xx is an OpenAI-style error (on
Ollama's API, /api/…, Ollama's), and every 200 is well-formed JSON, a well-formed event stream
or NDJSON.

Schemathesis generates requests that fit the schema and requests that break it. Its
generators leave out some inputs JSON allows (lone surrogates, nesting near the parser's
limit, NaN, 64-bit overflows, non-UTF-8 bytes, odd Host headers); the Hypothesis tests below send those.
MOCK_FUZZ_EXAMPLES sets the examples per operation and per test: small in `make test`,
large in `make fuzz-mock`."""

import json
import os

import httpx
import schemathesis
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from mock_server.app import create_app

EXAMPLES = int(os.environ.get("MOCK_FUZZ_EXAMPLES", "60"))
FUZZ_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def assert_well_formed(status: int, content_type: str, body: bytes, path: str) -> None:
    assert status < 500, body[:500]
    if status >= 400 and path.startswith("/api/"):  # Ollama's: {"error": message}
        error = json.loads(body)["error"]
        assert isinstance(error, str) and error, error
        return
    if status >= 400:
        error = json.loads(body)["error"]
        assert set(error) == {"message", "type", "param", "code"}, error
        assert isinstance(error["message"], str) and error["message"]
        return
    if content_type.startswith("application/x-ndjson"):
        lines = body.decode().split("\n")
        assert lines[-1] == "" and all(json.loads(line) for line in lines[:-1]), body[:500]
        return
    if content_type.startswith("text/event-stream"):
        events = [line.removeprefix("data: ") for line in body.decode().splitlines() if line.startswith("data: ")]
        assert events, body[:500]
        for data in events:
            if data != "[DONE]":
                json.loads(data)
    elif content_type.startswith("application/json"):
        json.loads(body)


# The schema the mock serves at /openapi.json, built from the same app; requests go to the real process.
schema = schemathesis.openapi.from_dict(create_app().openapi())
schema.config.generation.update(max_examples=EXAMPLES, database="none")


@schema.parametrize()
def test_schema_fuzzed_requests_never_get_a_server_error(case: schemathesis.Case, mock_url: str) -> None:
    response = case.call(base_url=mock_url, timeout=30)
    content_type = response.headers.get("content-type", [""])[0]
    assert_well_formed(response.status_code, content_type, response.content, case.path)


# JSON values Schemathesis does not send: what a hostile or buggy client can still put on the wire.
HOSTILE_TEXT = st.one_of(
    st.text(),
    st.text(st.characters(codec=None)),  # with lone surrogates
    st.integers(0xD800, 0xDFFF).map(chr),
    st.just("x" * 100_000),
)
HOSTILE_SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    HOSTILE_TEXT,
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([10**400, -0.0]),
)


class NestedLists:
    """`[[[…]]]` as deep as `depth`, written into the JSON text: a Python list that deep would
    exceed the test's own stack when Hypothesis prints or shrinks it."""

    def __init__(self, depth: int):
        self.depth = depth

    def __repr__(self) -> str:
        return f"NestedLists({self.depth})"

    def placeholder(self) -> str:
        return f"@@nested-lists-{self.depth}@@"


def request_json(body: object) -> bytes:
    """Python's JSON writer: lone surrogates stay \\uXXXX escapes; NaN and 1e400 are written as
    lenient clients write them."""
    nested: list[NestedLists] = []

    def placeholder(value: object) -> str:
        if not isinstance(value, NestedLists):
            raise TypeError(value)
        nested.append(value)
        return value.placeholder()

    text = json.dumps(body, allow_nan=True, default=placeholder)
    for value in nested:
        text = text.replace(json.dumps(value.placeholder()), "[" * value.depth + "]" * value.depth, 1)
    return text.encode()


HOSTILE_JSON = st.one_of(
    st.recursive(
        HOSTILE_SCALAR,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(
                st.one_of(HOSTILE_TEXT, st.sampled_from(["role", "content", "text", "input", "type"])),
                inner,
                max_size=4,
            ),
        ),
        max_leaves=12,
    ),
    st.integers(1, 2000).map(NestedLists),  # on both sides of the JSON parser's limit (about 1,000)
)

# A valid request per endpoint; the test makes one field (or a new one) hostile.
VALID: dict[str, tuple[dict[str, object], list[str]]] = {
    "/v1/chat/completions": (
        {
            "model": "perplexity",
            "messages": [{"role": "user", "content": "hi"}],
            "stream_options": {"include_usage": True},
        },
        [
            "model",
            "messages",
            "messages.0",
            "messages.0.role",
            "messages.0.content",
            "stream_options",
            "stream_options.include_usage",
            "tools",
        ],
    ),
    "/v1/completions": ({"model": "openrag", "prompt": ["hi"]}, ["model", "prompt", "prompt.0", "suffix"]),
    "/v1/responses": (
        {"model": "openai-responses", "input": [{"role": "user", "content": "hi"}]},
        ["model", "input", "input.0", "input.0.content", "tools"],
    ),
    "/api/chat": (
        {"model": "lightrag", "messages": [{"role": "user", "content": "hi"}]},
        ["model", "messages", "messages.0", "messages.0.role", "messages.0.content", "options"],
    ),
}


def _with_field(body: dict, path: str, value: object) -> dict:
    body = json.loads(json.dumps(body))
    *parents, last = path.split(".")
    target = body
    for part in parents:
        target = target[int(part)] if isinstance(target, list) else target[part]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return body


FIELDS = [(endpoint, path) for endpoint, (_, paths) in VALID.items() for path in [*paths, "stream"]]


@given(field=st.sampled_from(FIELDS), stream=st.booleans(), value=HOSTILE_JSON)
@FUZZ_SETTINGS
def test_one_hostile_field_never_gets_a_server_error(
    http: httpx.Client, field: tuple[str, str], stream: bool, value: object
) -> None:
    endpoint, path = field
    body = _with_field({**VALID[endpoint][0], "stream": stream}, path, value)
    response = http.post(endpoint, content=request_json(body))
    assert_well_formed(response.status_code, response.headers.get("content-type", ""), response.content, endpoint)


@given(
    endpoint=st.sampled_from(["/v1/chat/completions", "/v1/completions", "/v1/responses", "/v1/models", "/api/chat"]),
    body=st.one_of(st.binary(max_size=2000), st.text().map(str.encode)),
    content_type=st.sampled_from(
        [
            "application/json",
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/json; charset=latin-1",
        ]
    ),
)
@FUZZ_SETTINGS
def test_raw_bytes_never_get_a_server_error(http: httpx.Client, endpoint: str, body: bytes, content_type: str) -> None:
    method = "GET" if endpoint == "/v1/models" else "POST"
    response = http.request(method, endpoint, content=body, headers={"content-type": content_type})
    assert_well_formed(response.status_code, response.headers.get("content-type", ""), response.content, endpoint)


@given(
    host=st.text(st.characters(min_codepoint=0x21, max_codepoint=0xFF), min_size=1, max_size=60), stream=st.booleans()
)
@FUZZ_SETTINGS
def test_any_host_header_never_gets_a_server_error(http: httpx.Client, host: str, stream: bool) -> None:
    """The Host header is the one header the mock writes back (as `${base_url}` in sources)."""
    body = {"model": "openrag", "stream": stream, "messages": [{"role": "user", "content": "x"}]}
    response = http.post("/v1/chat/completions", json=body, headers={b"host": host.encode("latin-1")})
    content_type = response.headers.get("content-type", "")
    assert_well_formed(response.status_code, content_type, response.content, "/v1/chat/completions")
