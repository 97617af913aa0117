"""JSON serialisation in the dialect of each producer's stack.

Where a producer's bytes differ (spaces after separators, escaped non-ASCII, sorted keys),
clients that compare or re-parse them can behave differently, so the mock keeps the dialect.
"""

import json
from typing import Any
from typing import Literal

JsonStyle = Literal["python", "compact", "go"]

# Go's encoding/json escapes these for safe embedding in HTML.
_GO_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def dumps(value: Any, style: JsonStyle) -> str:
    if style == "python":  # json.dumps defaults: ", " / ": " and \uXXXX for non-ASCII
        return json.dumps(value)
    if style == "compact":  # Starlette JSONResponse, orjson
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    for raw, escaped in _GO_ESCAPES.items():
        text = text.replace(raw, escaped)
    return text
