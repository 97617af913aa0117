"""Typed request bodies. Unknown fields are accepted, as OpenAI-compatible servers do."""

from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field


class _Request(BaseModel):
    model_config = ConfigDict(extra="allow")
    model: str
    stream: bool = False


class Message(BaseModel):
    model_config = ConfigDict(extra="allow")
    role: str
    content: Any = None


class StreamOptions(BaseModel):
    model_config = ConfigDict(extra="allow")
    include_usage: bool = False


class ChatCompletionRequest(_Request):
    messages: list[Message] = Field(min_length=1)
    stream_options: StreamOptions | None = None


class CompletionRequest(_Request):
    prompt: str | list[str]


class ResponsesRequest(_Request):
    input: str | list[Any]


def count_words(value: Any) -> int:
    """A deterministic stand-in for prompt tokens: words in every text the request holds.

    Iterative: a request may nest lists as deep as the JSON parser allows, past Python's stack."""
    words, pending = 0, [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            words += len(item.split())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict):
            pending.extend(
                part for key, part in item.items() if key in {"content", "contents", "parts", "text", "input"}
            )
    return words


class AnthropicMessagesRequest(_Request):
    """Anthropic's Messages API (what LiteLLM sends for an `anthropic/…` model)."""

    messages: list[Message] = Field(min_length=1)
    max_tokens: int = Field(ge=1)


class GeminiRequest(BaseModel):
    """Gemini's generateContent (LiteLLM's `gemini/…` models): the model is in the path."""

    model_config = ConfigDict(extra="allow")
    contents: list[Any] = Field(min_length=1)


class VectorStoreSearchRequest(BaseModel):
    """OpenAI's vector store search (openai-python types/vector_store_search_params.py), as a LiteLLM
    proxy sends it: every optional field present, null when unset (its OpenAI vector store transformation)."""

    model_config = ConfigDict(extra="allow")
    query: str | list[str] = Field(min_length=1)
    max_num_results: int | None = Field(None, ge=1, le=50)
    rewrite_query: bool | None = None
    filters: dict[str, Any] | None = None
    ranking_options: dict[str, Any] | None = None


class OllamaMessage(BaseModel):
    model_config = ConfigDict(extra="allow")
    role: str
    content: str = ""


class OllamaChatRequest(BaseModel):
    """Ollama's /api/chat (ollama api/types.go ChatRequest), as Open WebUI's Ollama connection sends it
    (utils/payload.py convert_payload_openai_to_ollama): Ollama streams unless told not to."""

    model_config = ConfigDict(extra="allow")
    model: str
    messages: list[OllamaMessage] = Field(min_length=1)
    stream: bool = True


class OllamaGenerateRequest(BaseModel):
    """Ollama's /api/generate (ollama api/types.go GenerateRequest): a prompt, streamed unless told not to."""

    model_config = ConfigDict(extra="allow")
    model: str
    prompt: str = Field(min_length=1)
    stream: bool = True
