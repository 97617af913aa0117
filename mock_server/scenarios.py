"""The shape of a scenario file: one producer's wire format as data (README, "Adding a scenario").

A file holds the producer's answer, the variables its bodies share (sources, ids), and for
each endpoint it speaks a body template and a list of stream entries.
"""

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .encoding import JsonStyle


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WholeSegment(_Strict):
    whole: str = Field(description="text sent as one stream chunk, never split")


class StreamEntry(_Strict):
    data: Any = Field(description="chunk template; a plain string is sent as is")
    event: str | None = Field(None, description="SSE `event:` name (Responses API)")
    pieces: str | None = Field(
        None, pattern=r"^-?\d*:-?\d*$",
        description="repeat this entry for a slice of the answer pieces (Python slice: ':' all, "
        "':-1' all but the last, '-1:' the last), binding ${piece}")
    delay_ms: int = Field(0, ge=0, description="pause before this entry, part of the producer's timing")


class Endpoint(_Strict):
    body: Any = Field(description="non-streaming response body template")
    stream: list[StreamEntry] | None = Field(None, description="absent: the producer refuses stream=true")


class JsonStyles(_Strict):
    body: JsonStyle = "compact"
    stream: JsonStyle = "compact"


class Scenario(_Strict):
    name: str
    producer: str
    description: str
    json_style: JsonStyles = JsonStyles()
    vars: dict[str, Any] = {}
    switches: dict[str, str] = Field(
        {}, description="variables bound to what the request asks for: name -> a dotted path in the request "
        "body (`extra_body.reference`); the variable is true when the value there is true")
    answer: list[str | WholeSegment] = Field(
        description="the answer text: strings are streamed word by word, {whole: …} as one chunk")
    chat: Endpoint | None = None
    completions: Endpoint | None = None
    responses: Endpoint | None = None
    extracts: dict[str, Any] = Field({}, description="OpenRAG-style chunks served at /extract/<id>")

    def endpoint(self, kind: str) -> Endpoint | None:
        return {"chat": self.chat, "completions": self.completions, "responses": self.responses}[kind]
