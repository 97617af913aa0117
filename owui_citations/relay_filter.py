"""
title: Open WebUI Citations relay
author: Open WebUI Citations
description: Forwards to the Open WebUI Citations extension what Open WebUI drops from streamed answers.
"""

# This file is the content of an Open WebUI Filter Function (`owui-citations relay-install`
# uploads it): Open WebUI runs each global filter's `stream` on every parsed chunk of a streamed
# answer before reading it (utils/middleware.py, `process_filter_functions(filter_type='stream')`,
# 0.6 to 0.12), and sends a chunk's top-level `event` to the page as a socket event of its own.
# Standard library only; it must never raise: Open WebUI drops a chunk whose filter raised, text and all.

import json

# The socket event the extension reads (capture/events.ts, RELAY_EVENT).
EVENT_TYPE = "owui-citations:chunk"
# Larger chunks are not relayed: the extension then shows what it would without the relay.
MAX_RELAYED_CHARS = 1_000_000
# What Open WebUI reads of a chunk; anything else it drops once the chunk carries text (it turns
# that into text events), and it skips a chunk without choices altogether.
KEPT_AT_TOP = frozenset(
    {"id", "object", "created", "model", "system_fingerprint", "service_tier", "provider", "usage", "timings"}
)
KEPT_IN_CHOICE = frozenset({"index", "delta", "finish_reason", "logprobs", "native_finish_reason"})
TEXT_IN_DELTA = ("content", "reasoning_content", "reasoning")
KEPT_IN_DELTA = frozenset({"role", "tool_calls", "refusal", "function_call", *TEXT_IN_DELTA})


def _without_text(choice: dict) -> dict:
    delta = choice.get("delta")
    if not isinstance(delta, dict):
        return choice
    return {**choice, "delta": {key: value for key, value in delta.items() if key not in TEXT_IN_DELTA}}


def _carries_text(choice: object) -> bool:
    delta = choice.get("delta") if isinstance(choice, dict) else None
    return isinstance(delta, dict) and any(isinstance(delta.get(key), str) and delta[key] for key in TEXT_IN_DELTA)


def dropped(chunk: object) -> dict | None:
    """What of this chunk Open WebUI would not pass on, as a chunk of its own; None when nothing.

    A chunk without text Open WebUI passes on whole, and an event, a Responses event or a model
    switch it reads itself: those are left alone, so nothing reaches the page twice."""
    if not isinstance(chunk, dict) or "event" in chunk or "selected_model_id" in chunk:
        return None
    if str(chunk.get("type", "")).startswith("response.") or chunk.get("type") == "error":
        return None
    choices = chunk.get("choices")
    if not choices:
        unread_fields = set(chunk) - KEPT_AT_TOP - {"choices", "error"}
        return dict(chunk) if unread_fields and not chunk.get("error") else None
    if not isinstance(choices, list) or not _carries_text(choices[0]):
        return None
    unread = (
        bool(set(chunk) - KEPT_AT_TOP - {"choices"})
        or len(choices) > 1
        or any(isinstance(choice, dict) and bool(set(choice) - KEPT_IN_CHOICE) for choice in choices)
        or bool(set(choices[0].get("delta") or {}) - KEPT_IN_DELTA)
    )
    if not unread:
        return None
    # The text reaches the page through Open WebUI already: relayed again, it would count twice.
    return {**chunk, "choices": [_without_text(choices[0]), *choices[1:]]}


class Filter:
    def stream(self, event: dict) -> dict:
        try:
            relayed = dropped(event)
            if relayed is not None and len(json.dumps(relayed, ensure_ascii=False)) <= MAX_RELAYED_CHARS:
                event["event"] = {"type": EVENT_TYPE, "data": relayed}
        except Exception:  # noqa: BLE001 — never lose the chunk: without the relay it is shown as before
            pass
        return event
