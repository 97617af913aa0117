"""OpenAI-style errors: ``{"error": {"message", "type", "param", "code"}}`` for every 4xx; on
Ollama's API (/api/…), Ollama's own: ``{"error": message}``."""

import json
from typing import Any

from fastapi import FastAPI
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException


class ErrorDetail(BaseModel):
    message: str
    type: str
    param: str | None
    code: str | None


class ErrorResponse(BaseModel):
    error: ErrorDetail


# What every router documents: one OpenAI-style shape for all 4xx. Naming a 4XX range also keeps
# FastAPI from documenting its default 422, which this server never answers (invalid is 400).
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    "4XX": {
        "model": ErrorResponse,
        "description": "An OpenAI-style error: bad request (400), unknown model or id (404).",
    },
}


class OpenAIError(Exception):
    def __init__(
        self,
        status: int,
        message: str,
        *,
        type: str = "invalid_request_error",
        param: str | None = None,
        code: str | None = None,
    ):
        super().__init__(message)
        self.status, self.message, self.type, self.param, self.code = status, message, type, param, code


class _AsciiJSONResponse(JSONResponse):
    """Non-ASCII escaped: a message may quote what the client sent, and JSON lets a client send
    a lone surrogate ("\\ud800") that UTF-8 cannot encode; escaped, it goes back as it came."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode()


def error_response(
    status: int, message: str, type: str = "invalid_request_error", param: str | None = None, code: str | None = None
) -> JSONResponse:
    body = ErrorResponse(error=ErrorDetail(message=message, type=type, param=param, code=code))
    return _AsciiJSONResponse(body.model_dump(), status_code=status)


# Ollama's API answers errors as Ollama does (ollama/ollama api/types.go StatusError): the shape its
# clients read, Open WebUI's Ollama connection among them (routers/ollama.py send_request).
OLLAMA_API = "/api/"


class OllamaErrorResponse(BaseModel):
    error: str


OLLAMA_ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    "4XX": {"model": OllamaErrorResponse, "description": "Ollama's error: bad request (400), unknown model (404)."},
}


def _error_for(
    request: Request,
    status: int,
    message: str,
    type: str = "invalid_request_error",
    param: str | None = None,
    code: str | None = None,
) -> JSONResponse:
    if request.url.path.startswith(OLLAMA_API):
        return _AsciiJSONResponse({"error": message}, status_code=status)
    return error_response(status, message, type, param, code)


def unknown_model(model: str) -> OpenAIError:
    return OpenAIError(
        404,
        f"The model `{model}` does not exist or you do not have access to it.",
        param="model",
        code="model_not_found",
    )


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(OpenAIError)
    async def _openai_error(request: Request, error: OpenAIError) -> JSONResponse:
        return _error_for(request, error.status, error.message, error.type, error.param, error.code)

    @app.exception_handler(RequestValidationError)
    async def _invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {}
        location = [str(part) for part in first.get("loc", ()) if part != "body"]
        if first.get("type") == "json_invalid":
            return _error_for(request, 400, "We could not parse the JSON body of your request.", code="invalid_json")
        if not location:  # the body as a whole
            missing = first.get("type") == "missing"
            return _error_for(
                request, 400, "The request body is missing." if missing else "The request body must be a JSON object."
            )
        param = ".".join(location)
        return _error_for(request, 400, f"Invalid value for '{param}': {first.get('msg', 'malformed')}.", param=param)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        return _error_for(request, error.status_code, str(error.detail))
