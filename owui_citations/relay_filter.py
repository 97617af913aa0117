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
from collections import OrderedDict

# The socket event the extension reads (capture/events.ts, RELAY_EVENT).
EVENT_TYPE = "owui-citations:chunk"
# Sizes are of the relayed JSON as python-socketio encodes it (ASCII), so they are the bytes each
# of the user's open tabs receives. A larger chunk is not relayed: the extension then shows what it
# would without the relay; nor is anything past a message's budget.
MAX_RELAYED_BYTES = 1_000_000
MAX_RELAYED_BYTES_PER_MESSAGE = 2_000_000
# What is remembered of each message: the messages streaming at once in this worker, and the fields
# of each (a hash of its value each).
MAX_MESSAGES = 128
MAX_FIELDS_PER_MESSAGE = 256
# What Open WebUI reads of a chunk; anything else it drops once the chunk carries text (it turns
# that into text events), and it skips a chunk without choices altogether.
KEPT_AT_TOP = frozenset(
    {"id", "object", "created", "model", "system_fingerprint", "service_tier", "provider", "usage", "timings"}
)
KEPT_IN_CHOICE = frozenset({"index", "delta", "finish_reason", "logprobs", "native_finish_reason"})
TEXT_IN_DELTA = ("content", "reasoning_content", "reasoning")
KEPT_IN_DELTA = frozenset({"role", "tool_calls", "refusal", "function_call", *TEXT_IN_DELTA})
# A relayed chunk's own bytes, besides its fields' (each counted as `{"name": value}`).
SKELETON = json.dumps({"choices": [{"delta": {}, "message": {}}]})


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


class _Message:
    """What was relayed for one message: a hash of each field's last relayed value, and the bytes."""

    __slots__ = ("digests", "sent")

    def __init__(self) -> None:
        self.digests: dict[int, int] = {}
        self.sent = 0


class _News:
    """The fields of a chunk that changed since the last one relayed for its message. Each value
    is serialised once, as socket.io will send it: a NaN or an infinity, which the browser's
    JSON.parse refuses (the user's socket then closes), raises here, and so does going past the
    budget, before the rest is serialised: nothing is relayed."""

    def __init__(self, message: _Message, budget: int) -> None:
        self.message = message
        self.budget = budget
        self.digests: dict[int, int] = {}
        self.size = len(SKELETON)
        self.unread = False  # a changed field Open WebUI drops: the reason to relay at all

    def changed(self, level: str, fields: dict, kept: frozenset[str]) -> dict:
        news = {}
        for key, value in fields.items():
            text = json.dumps({key: value}, allow_nan=False)
            field, digest = hash((level, key)), hash(text)
            if self.message.digests.get(field) == digest:
                continue
            news[key] = value
            self.digests[field] = digest
            self.size += len(text)
            self.unread = self.unread or key not in kept
            if self.size > self.budget:
                raise OverflowError("over the relay's budget")
        return news


def _message_key(chunk: dict, metadata: object) -> int | None:
    """The message a chunk belongs to: Open WebUI's message id (in `__metadata__`, which the stream
    hook gets on 0.6.43 and 0.12.4), with its user; else the producer's completion id, one per answer."""
    known = metadata if isinstance(metadata, dict) else {}
    message = known.get("message_id") or chunk.get("id")
    return hash((str(known.get("user_id")), str(message))) if message else None


class Filter:
    def __init__(self) -> None:
        # One Filter serves every user of this Open WebUI worker (Open WebUI caches the module).
        self.messages: OrderedDict[int, _Message] = OrderedDict()

    def _message(self, message_key: int) -> _Message:
        message = self.messages.pop(message_key, None) or _Message()
        self.messages[message_key] = message
        while len(self.messages) > MAX_MESSAGES:
            self.messages.popitem(last=False)
        return message

    def _news(self, message_key: int, relayed: dict) -> dict | None:
        """What of `relayed` the page has not had yet for this message: its changed fields, without
        the choice's cumulative `message` text nor the other choices (the extension reads the
        first). The page's merger keeps each field until a later chunk replaces it."""
        message = self._message(message_key)
        news = _News(message, min(MAX_RELAYED_BYTES, MAX_RELAYED_BYTES_PER_MESSAGE - message.sent))
        top = news.changed("top", {key: value for key, value in relayed.items() if key != "choices"}, KEPT_AT_TOP)
        choices = relayed.get("choices")
        first = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else None
        if first is not None:
            rest = {key: value for key, value in first.items() if key not in ("delta", "message")}
            choice = news.changed("choice", rest, KEPT_IN_CHOICE)
            delta = first.get("delta")
            choice["delta"] = news.changed("delta", delta if isinstance(delta, dict) else {}, KEPT_IN_DELTA)
            whole = first.get("message")
            if isinstance(whole, dict):
                fields = {key: value for key, value in whole.items() if key not in TEXT_IN_DELTA}
                if changed := news.changed("message", fields, frozenset()):
                    choice["message"] = changed
            top["choices"] = [choice]
        if not news.unread or len(message.digests.keys() | news.digests.keys()) > MAX_FIELDS_PER_MESSAGE:
            return None
        message.digests.update(news.digests)
        message.sent += news.size
        return top

    def stream(self, event: dict, __metadata__: dict | None = None) -> dict:
        try:
            relayed = dropped(event)
            key = _message_key(event, __metadata__) if relayed is not None else None
            news = self._news(key, relayed) if key is not None and relayed is not None else None
            if news is not None:
                event["event"] = {"type": EVENT_TYPE, "data": news}
        except Exception:  # noqa: BLE001 — never lose the chunk: without the relay it is shown as before
            pass
        return event
