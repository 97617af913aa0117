"""Bad requests get OpenAI-style 4xx errors, never a 500."""

import httpx
import openai
import pytest
from openai.types.chat import ChatCompletionMessageParam

USER: list[ChatCompletionMessageParam] = [{"role": "user", "content": "hi"}]


def assert_openai_error(response: httpx.Response, status: int) -> dict:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["message"] and error["type"] == "invalid_request_error"
    return error


def test_unknown_model_is_404_model_not_found(client: openai.OpenAI) -> None:
    with pytest.raises(openai.NotFoundError) as raised:
        client.chat.completions.create(model="no-such-scenario", messages=USER)
    assert raised.value.body == {
        "message": "The model `no-such-scenario` does not exist or you do not have access to it.",
        "type": "invalid_request_error",
        "param": "model",
        "code": "model_not_found",
    }


@pytest.mark.parametrize("path", ["/v1/chat/completions", "/v1/completions", "/v1/responses"])
def test_malformed_json_is_400(http: httpx.Client, path: str) -> None:
    response = http.post(
        path, content=b'{"model": "openrag", "messages": [', headers={"content-type": "application/json"}
    )
    assert assert_openai_error(response, 400)["code"] == "invalid_json"


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"model": "openrag"}, "messages"),
        ({"model": "openrag", "messages": []}, "messages"),
        ({"model": "openrag", "messages": [{"content": "no role"}]}, "messages.0.role"),
        ({"messages": USER}, "model"),
        ({"model": "openrag", "messages": USER, "stream": "sometimes"}, "stream"),
        (
            {"model": "openrag", "messages": USER, "stream_options": {"include_usage": "x"}},
            "stream_options.include_usage",
        ),
    ],
)
def test_invalid_chat_request_is_400_naming_the_field(http: httpx.Client, body: dict, param: str) -> None:
    assert assert_openai_error(http.post("/v1/chat/completions", json=body), 400)["param"] == param


@pytest.mark.parametrize("content", [b"[]", b'"text"', b"42", b""])
def test_body_that_is_not_an_object_is_400(http: httpx.Client, content: bytes) -> None:
    assert_openai_error(http.post("/v1/chat/completions", content=content), 400)


def test_form_encoded_json_is_read_as_json(http: httpx.Client) -> None:
    """`curl -d` without a JSON content type still works, as with OpenAI-compatible servers."""
    response = http.post(
        "/v1/chat/completions",
        content=b'{"model": "perplexity", "messages": [{"role": "user", "content": "x"}]}',
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 200 and response.json()["citations"]


def test_endpoint_a_scenario_does_not_speak_is_400(http: httpx.Client) -> None:
    error = assert_openai_error(http.post("/v1/responses", json={"model": "openrag", "input": "x"}), 400)
    assert error["code"] == "unsupported_endpoint"
    error = assert_openai_error(
        http.post("/v1/chat/completions", json={"model": "openai-responses", "messages": USER}), 400
    )
    assert error["code"] == "unsupported_endpoint"


def test_unknown_route_and_method_keep_the_error_shape(http: httpx.Client) -> None:
    assert_openai_error(http.get("/v1/nothing-here"), 404)
    assert_openai_error(http.get("/v1/chat/completions"), 405)
    assert_openai_error(http.get("/extract/123"), 404)


def test_openapi_documents_the_errors_the_server_answers(http: httpx.Client) -> None:
    """A client generated from /openapi.json expects the 400 it gets, not FastAPI's default 422."""
    schema = http.get("/openapi.json").json()
    error_shape = schema["components"]["schemas"]["ErrorDetail"]
    assert set(error_shape["properties"]) == {"message", "type", "param", "code"}
    for path in ["/v1/chat/completions", "/v1/completions", "/v1/responses", "/extract/{extract_id}"]:
        responses = next(iter(schema["paths"][path].values()))["responses"]
        assert "422" not in responses, path
        assert responses["4XX"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/ErrorResponse"
        }
