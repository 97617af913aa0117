"""Measured limits of Open WebUI itself, per release line: what each line drops. The tests assert each
one (tests/e2e/checks.py, `expect_gap_shown`), so that a change shows up, and docs/compatibility.md
gives their reasons."""

import json
import re
from dataclasses import dataclass

# routers/openai.py has no `api_type` in 0.6.43 and 0.7.2; 0.8.12 has it.
RESPONSES_CONNECTION_SINCE = (0, 8, 0)
NO_RESPONSES_CONNECTION = (
    "Open WebUI has no Responses API connection before 0.8 (routers/openai.py of 0.6.43 and 0.7.2 has no `api_type`): "
    "it sends this model to /v1/chat/completions, which a Responses-only backend refuses (`unsupported_endpoint`), "
    "and shows that error instead of an answer."
)


@dataclass(frozen=True)
class Gap:
    model: str
    reason: str
    streams: tuple[bool, ...] = (True, False)
    before: tuple[int, ...] | None = None  # only in Open WebUI versions older than this one
    shows: str | re.Pattern[str] | None = None  # what Open WebUI shows instead of the answer, if it shows an error
    sources: int = 0  # Open WebUI's own sources shown instead (listed, without buttons)
    finishes: bool = True  # whether Open WebUI ever finishes the answer (its toolbar drawn)


# Measured 2026-11-23: in a chat, 0.8.12 answers hostile-azure-on-your-data streamed with the error
# "Chunk too big" and nothing else, while it relays hostile-openai-url-citation's 70 KB line. Sent
# to /api/chat/completions, 0.6.43 to 0.10.2 log `ValueError: Chunk too big` (aiohttp's line reader)
# for the 264 KB line and stop the stream; 0.11.4 and 0.12.4 relay it whole.
# The chat shows aiohttp's error: "Chunk too big" (3.13.2, up to 0.8.12), "400, message: Got more
# than 131072 bytes when reading: …" (3.13.5, 0.9.6 in the matrix run of 2026-11-23).
LONG_STREAM_LINES_SINCE = (0, 11, 0)
LINE_TOO_LONG = re.compile(r"Chunk too big|Got more than \d+ bytes when reading")
LONG_STREAM_LINE = (
    "Open WebUI up to 0.10 reads a streamed answer line by line with aiohttp's reader, which gives up on a very "
    "long line (`ValueError: Chunk too big`, or `Got more than 131072 bytes when reading` with aiohttp 3.13.5 "
    "from 0.9 on): the answer is that error, with or without the extension. This "
    "scenario sends its sources in one line of 264 KB or more (Azure's `context`, OpenRAG's `extra`); a 70 KB "
    "line passes in a chat."
)

SOURCES_ON_A_TEXT_CHUNK = (
    "NVIDIA's RAG server sends its sources only on its first streamed chunk, which also carries the answer's first "
    "words (response_generator.py: `if first_chunk`); Open WebUI turns a chunk that carries text into text and drops "
    "its other fields, so the sources never reach the browser, nor the stored chat. Non-streamed, they do."
)

GROUNDING_ON_A_TEXT_CHUNK = (
    "Gemini sends its grounding once, on its last streamed chunk, with the answer's last words; LiteLLM relays it "
    "there as a top-level `vertex_ai_grounding_metadata` beside `delta.annotations` "
    "(vertex_and_google_ai_studio_gemini.py). "
    "Open WebUI turns a chunk that carries text into text and drops its other fields: the grounding never reaches the "
    "browser, nor the stored chat. Non-streamed, it does."
)
OWN_SOURCES_FROM_ANNOTATIONS = (
    " From 0.7 on, Open WebUI makes sources of its own of LiteLLM's annotations (utils/middleware.py, \"Handle delta "
    'annotations"), which keep one page per grounded sentence and none for a sentence at offset 0: 2 of the 3 '
    "pages, listed without buttons."
)
OWN_SOURCES_FROM_ANNOTATIONS_SINCE = (0, 7, 0)

# A limit of the producer, not of Open WebUI: shown the same way.
STREAMED_CITATIONS_ONLY = (
    "Brave sends citations only in a stream: \"Blocking response doesn't support 'enable_citations' option\" "
    "(brave-search-skills, skills/answers/SKILL.md); a non-streamed answer has no sources to show."
)

OWN_SHAPE_WITHOUT_CHOICES = (
    "An Open WebUI upstream streams its sources first, in a chunk of their own with no `choices` "
    '(utils/middleware.py, stream_wrapper: `data: {"sources": [...]}`); the Open WebUI in front of it '
    "skips a chunk with no `choices` that is not an error (its streaming handler, `if not choices: … continue`): "
    "the sources never reach the browser, nor the stored chat. Non-streamed, they do."
)

# Expected from FastGPT's code, not yet measured: to be confirmed by a run.
FASTGPT_SOURCES_AFTER_DONE = (
    "FastGPT streams its nodes' responses (the quotes) once, as `event: flowResponses` after `data: [DONE]` "
    "(projects/app/src/pages/api/v1/chat/completions.ts), a list, not a chunk: Open WebUI reads `data:` lines only, "
    "stops at [DONE] and relays chunks with `choices`, so the quotes never reach the browser, nor the stored chat. "
    "Non-streamed, they do."
)

MISTRAL_CONTENT_LIST_STREAMED = (
    "Mistral streams a tool_reference as a delta whose content is a list of chunks. Open WebUI 0.12.4 writes such a "
    "delta into the answer as Python text (utils/middleware.py: `if value and not isinstance(value, str): value = "
    "f'{value}'`) and relays only that text; 0.6.43 drops the chunk (`content_blocks[-1][\"content\"] + value` raises "
    "a TypeError its per-line `except Exception` swallows): the sources never reach the browser, nor the stored chat. "
    "Non-streamed, the body reaches the page whole."
)

# Measured on every line up to 0.10.2 (make test-matrix, make record-markup); 0.11.4 and 0.12.4 finish it.
MISTRAL_BODY_NEVER_FINISHED_BEFORE = (0, 11, 0)
MISTRAL_BODY_NEVER_FINISHED = (
    "Open WebUI up to 0.10 shows Mistral's non-streamed answer, whose content is a list of chunks, as "
    '"[object Object],…", with the extension\'s sources under it, and never finishes it (its stop button stays, '
    "no toolbar) nor saves it: after a reload the chat has no answer, and nothing to store the sources on."
)

GAPS = [
    Gap("open-webui-upstream", OWN_SHAPE_WITHOUT_CHOICES, streams=(True,)),
    Gap("nvidia-rag", SOURCES_ON_A_TEXT_CHUNK, streams=(True,)),
    *(
        Gap(model, MISTRAL_CONTENT_LIST_STREAMED, streams=(True,))
        for model in ("mistral", "hostile-mistral", "malformed-mistral-mixed-types")
    ),
    *(
        Gap(model, FASTGPT_SOURCES_AFTER_DONE, streams=(True,))
        for model in ("fastgpt", "malformed-fastgpt-mixed-types")
    ),
    Gap(
        "mistral",
        MISTRAL_BODY_NEVER_FINISHED,
        streams=(False,),
        before=MISTRAL_BODY_NEVER_FINISHED_BEFORE,
        sources=4,
        finishes=False,
    ),
    Gap("gemini-grounding", GROUNDING_ON_A_TEXT_CHUNK + OWN_SOURCES_FROM_ANNOTATIONS, streams=(True,), sources=2),
    Gap("gemini-grounding", GROUNDING_ON_A_TEXT_CHUNK, streams=(True,), before=OWN_SOURCES_FROM_ANNOTATIONS_SINCE),
    *(Gap(model, STREAMED_CITATIONS_ONLY, streams=(False,)) for model in ("brave", "brave-split-tags")),
    *(
        Gap(
            model,
            "Open WebUI converts a non-streamed Responses body into a chat completion and keeps only "
            "its text (routers/openai.py, convert_responses_result): the annotations never reach the browser.",
            streams=(False,),
        )
        for model in ("openai-responses", "openai-responses-web-search")
    ),
    *(
        Gap(
            model,
            NO_RESPONSES_CONNECTION,
            before=RESPONSES_CONNECTION_SINCE,
            shows="does not support /v1/chat/completions",
        )
        for model in (
            "openai-responses",
            "hostile-openai-responses",
            "openai-responses-web-search",
            "hostile-openai-responses-web-search",
            "malformed-openai-responses-web-search-mixed-types",
        )
    ),
    *(
        Gap(model, LONG_STREAM_LINE, streams=(True,), before=LONG_STREAM_LINES_SINCE, shows=LINE_TOO_LONG)
        for model in ("hostile-azure-on-your-data", "malformed-openrag-10000-sources", "malformed-openrag-10-mb")
    ),
]


def gaps_named(gaps: dict[str, str]) -> str:
    """Several scenarios' gaps in one test, as its recorded `gap`: a JSON object, scenario → reason
    (the compatibility table gives each distinct reason one note)."""
    return json.dumps(gaps, ensure_ascii=False)


def gap_for(model: str, stream: bool, version: tuple[int, ...]) -> Gap | None:
    """The limit that keeps a scenario's sources from the browser on this version, if any (the oldest first)."""
    found = [g for g in GAPS if g.model == model and stream in g.streams and (g.before is None or version < g.before)]
    return min(found, key=lambda g: g.before or (999,), default=None)


# Read in Chat.svelte of 0.9.6, 0.10.2 and 0.11.4 (not in 0.8.12, which creates the chat first,
# nor in 0.12.4, which takes the id from the first event), measured 2026-11-23: a new chat gets its
# id from the backend, in the answer to the page's POST /api/chat/completions, and until that
# answer the page drops every socket event of the chat (`event.chat_id === $chatId`). An answer
# that comes whole before it — non-streamed, or a short stream from a backend without any time to
# first token, like this mock's — is never shown until a reload; with the extension switched off
# too. The end-to-end tests give the mock a real backend's time to first token there.
NEW_CHAT_ID_FROM_THE_BACKEND = ((0, 9), (0, 10), (0, 11))
FIRST_TOKEN_DELAY_MS = 1_000
NEW_CHAT_EVENTS_DROPPED = (
    "Open WebUI 0.9 to 0.11 take a new chat's id from the answer to their own request and drop the chat's socket "
    "events that come before it (Chat.svelte: `event.chat_id === $chatId`): a first answer that arrives whole "
    f"before that stays loading until a reload, with or without the extension. The mock answers after "
    f"{FIRST_TOKEN_DELAY_MS} ms on these lines, as a real backend's time to first token."
)


def first_token_delay_ms(version: tuple[int, ...]) -> int:
    """How long the mock waits before each answer for the end-to-end tests of this version."""
    return FIRST_TOKEN_DELAY_MS if version[:2] in NEW_CHAT_ID_FROM_THE_BACKEND else 0


def condition_for(version: tuple[int, ...]) -> str | None:
    """Why the tests of this version ran with a condition of their own, if they did."""
    return NEW_CHAT_EVENTS_DROPPED if first_token_delay_ms(version) else None
