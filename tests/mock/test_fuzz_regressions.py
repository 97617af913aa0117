"""Server errors the fuzzing (test_fuzz_api.py) found, each kept as a plain test."""

import httpx
import openai


def test_unknown_model_named_with_a_lone_surrogate_is_404_not_500(http: httpx.Client) -> None:
    """JSON allows "\\ud800" (JavaScript's JSON.stringify writes it for a lone surrogate); the
    404 message quotes the model name, which UTF-8 could not encode: the server answered 500."""
    body = b'{"model": "bad\\ud800", "messages": [{"role": "user", "content": "hi"}]}'
    response = http.post("/v1/chat/completions", content=body)
    assert response.status_code == 404, response.text
    error = response.json()["error"]
    assert error["code"] == "model_not_found"
    assert error["message"] == "The model `bad\ud800` does not exist or you do not have access to it."


def test_message_content_nested_700_lists_deep_is_answered_not_500(client: openai.OpenAI) -> None:
    """Counting the prompt's words recursed once per level and overflowed Python's stack."""
    content: list = ["deep"]
    for _ in range(700):
        content = [content]
    completion = client.chat.completions.create(model="perplexity", messages=[{"role": "user", "content": content}])
    assert completion.choices[0].message.content
    assert completion.usage is not None and completion.usage.prompt_tokens == 1
